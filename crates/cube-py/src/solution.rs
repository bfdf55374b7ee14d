//! `Solution`, with its labelled stages (`Stage`): what `solve` and `optimal` return.

use cube_core::{Alg, Move};
use cube_solvers::Solution;
use pyo3::prelude::*;

use crate::errors::ParseError;

/// One labelled stage of a solution (``"cross"``, ``"F2L 1"``, ``"phase 1"``...).
#[pyclass(module = "cube_toolkit", name = "Stage", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct PyStage {
    /// The stage's name.
    label: String,
    /// Its moves, as a string.
    moves: String,
    /// Its number of face turns.
    length: usize,
}

#[pymethods]
impl PyStage {
    fn __repr__(&self) -> String {
        format!("Stage({:?}, {:?})", self.label, self.moves)
    }
}

/// A solution: ``moves`` (a string), ``move_list`` (one string per face turn), ``length``,
/// ``stages`` (labelled, for the methods that have stages), ``method`` and ``seconds``.
///
/// Two solutions are equal when their moves, stages and method are (whatever the time taken).
#[pyclass(module = "cube_toolkit", name = "Solution", frozen, get_all)]
#[derive(Clone)]
pub struct PySolution {
    /// The face turns, as a string (``""`` for a solved cube).
    moves: String,
    /// One string per face turn.
    move_list: Vec<String>,
    /// The number of face turns.
    length: usize,
    /// The labelled stages; empty for methods without stages.
    stages: Vec<PyStage>,
    /// The method that found it.
    method: String,
    /// The time the solve took, in seconds.
    seconds: f64,
}

impl PySolution {
    pub fn new(solution: &Solution, method: &str, seconds: f64) -> PySolution {
        let stages = solution
            .stages
            .iter()
            .map(|s| PyStage {
                label: s.label.clone(),
                moves: Alg::from_moves(&s.moves).to_string(),
                length: s.moves.len(),
            })
            .collect();
        PySolution {
            moves: Alg::from_moves(&solution.moves).to_string(),
            move_list: solution.moves.iter().map(Move::to_string).collect(),
            length: solution.moves.len(),
            stages,
            method: method.to_string(),
            seconds,
        }
    }
}

#[pymethods]
impl PySolution {
    /// Rebuilds a solution (for pickling): the stages as ``(label, moves)`` pairs.
    #[new]
    fn restore(
        moves: &str,
        stages: Vec<(String, String)>,
        method: String,
        seconds: f64,
    ) -> PyResult<PySolution> {
        let parse = |text: &str| -> PyResult<Vec<Move>> {
            let alg: Alg = text
                .parse()
                .map_err(|e| ParseError::new_err(format!("{e} (in the solution {text:?})")))?;
            Ok(alg.expand().moves)
        };
        let solution = Solution {
            moves: parse(moves)?,
            stages: stages
                .iter()
                .map(|(label, moves)| {
                    Ok(cube_solvers::Stage {
                        label: label.clone(),
                        moves: parse(moves)?,
                    })
                })
                .collect::<PyResult<_>>()?,
        };
        Ok(PySolution::new(&solution, &method, seconds))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> crate::Reduce<'py, SolutionArgs> {
        let stages = self
            .stages
            .iter()
            .map(|s| (s.label.clone(), s.moves.clone()))
            .collect();
        (
            py.get_type::<PySolution>(),
            (
                self.moves.clone(),
                stages,
                self.method.clone(),
                self.seconds,
            ),
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<PySolution>().is_ok_and(|other| {
            let other = other.get();
            self.moves == other.moves && self.stages == other.stages && self.method == other.method
        })
    }

    fn __len__(&self) -> usize {
        self.length
    }

    fn __str__(&self) -> String {
        self.moves.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Solution({:?}, length={}, method={:?})",
            self.moves, self.length, self.method
        )
    }
}

/// The arguments of `Solution(...)`: moves, stages as (label, moves), method, seconds.
type SolutionArgs = (String, Vec<(String, String)>, String, f64);
