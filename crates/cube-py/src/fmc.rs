//! `cube_toolkit.fmc`: fewest-moves tools: the step solvers of cube-solvers' `fmc` (`solve`,
//! `steps`) and cube-core's NISS sequences (`unniss`, `invert`, `cleanup`, `count`), as the
//! CLI's `fmc` commands.

use cube_core::{Cube, NissAlg};
use cube_solvers::MAX_THREADS;
use cube_solvers::fmc::{self, FmcError, Settings};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;

use crate::args::Int;
use crate::cube::StateArg;
use crate::errors::{IllegalCube, ParseError};
use crate::{interrupt, tables};

/// A NISS sequence read from ``text`` (moves in parentheses done on the inverse scramble).
fn read(text: &str) -> PyResult<NissAlg> {
    text.parse()
        .map_err(|e: cube_core::NissParseError| ParseError::new_err(e.to_string()))
}

/// The plain sequence of a NISS sequence: the normal part, then the inverse of the inverse part.
/// Raises ``ParseError`` for text that is not NISS notation (``(R U)2`` included: here
/// parentheses are NISS, never cubing.js groups).
///
/// >>> from cube_toolkit import fmc
/// >>> fmc.unniss("R U (F' D)")
/// "R U D' F"
#[pyfunction]
pub fn unniss(sequence: &str) -> PyResult<String> {
    Ok(read(sequence)?.unniss().to_string())
}

/// The inverse sequence: the normal and inverse parts swap.
///
/// >>> from cube_toolkit import fmc
/// >>> fmc.invert("R U (F' D)")
/// "F' D (R U)"
#[pyfunction]
pub fn invert(sequence: &str) -> PyResult<String> {
    Ok(read(sequence)?.invert().to_string())
}

/// Each part as outer face turns: rotations, wide turns and slices expanded, cancellations
/// merged.
///
/// >>> from cube_toolkit import fmc
/// >>> fmc.cleanup("Rw L' x' (M2 U U D)")
/// '(R2 L2 U D2)'
#[pyfunction]
pub fn cleanup(sequence: &str) -> PyResult<String> {
    Ok(read(sequence)?.cleanup().to_string())
}

/// The move counts of both parts as written: ``{"htm": .., "qtm": .., "stm": ..}``.
///
/// >>> from cube_toolkit import fmc
/// >>> fmc.count("R U2 (M' F)")
/// {'htm': 5, 'qtm': 6, 'stm': 4}
#[pyfunction]
pub fn count(sequence: &str) -> PyResult<std::collections::BTreeMap<&'static str, usize>> {
    let niss = read(sequence)?;
    Ok([
        ("htm", niss.htm()),
        ("qtm", niss.qtm()),
        ("stm", niss.stm()),
    ]
    .into())
}

/// One solution of a step: in NISS notation, its normal and inverse parts and its length.
#[pyclass(
    module = "cube_toolkit.fmc",
    name = "StepSolution",
    frozen,
    get_all,
    eq
)]
#[derive(Clone, PartialEq)]
pub struct StepSolution {
    /// The solution in NISS notation (``R U (F')``).
    moves: String,
    /// The moves done on the scramble.
    normal: String,
    /// The moves done on the inverse scramble.
    inverse: String,
    /// Its length in face turns.
    length: usize,
}

#[pymethods]
impl StepSolution {
    fn __repr__(&self) -> String {
        format!("StepSolution({:?}, length={})", self.moves, self.length)
    }

    fn __str__(&self) -> String {
        self.moves.clone()
    }
}

/// Every step ``solve`` knows: a list of dicts with ``name``, ``aliases``, ``goal``,
/// ``moveset``, ``requisite``, ``niss``, ``tables`` and ``table_bytes``.
///
/// >>> from cube_toolkit import fmc
/// >>> next(s for s in fmc.steps() if s["name"] == "drud-eofb")["requisite"]
/// 'EO on F/B'
#[pyfunction]
pub fn steps(py: Python<'_>) -> PyResult<Vec<Bound<'_, pyo3::types::PyDict>>> {
    use pyo3::types::PyDict;
    fmc::steps()
        .iter()
        .map(|step| {
            let d = PyDict::new(py);
            d.set_item("name", step.name())?;
            d.set_item("aliases", step.aliases().to_vec())?;
            d.set_item("goal", step.goal())?;
            d.set_item("moveset", step.moveset())?;
            d.set_item("requisite", step.requisite())?;
            d.set_item("niss", step.niss_allowed())?;
            d.set_item("tables", step.tables_name())?;
            d.set_item("table_bytes", step.table_bytes())?;
            Ok(d)
        })
        .collect()
}

/// The solutions of ``step`` (a name or alias of ``steps()``) on ``state`` (a ``Cube`` or a
/// text in any format; moves with parentheses are a scramble and a partial solution in NISS
/// notation, ``"SCRAMBLE R2 F (U2 B)"``), shortest first, as the CLI's ``fmc solve``: ``niss`` is ``"normal"``,
/// ``"inverse"``, ``"linear"``, ``"mixed"`` or ``"all"``; up to ``max_solutions`` (default 1)
/// solutions of ``min_moves`` to ``max_moves`` (0 to 20) moves; ``optimal=True`` keeps only
/// the shortest, ``above_optimal=K`` those at most K longer. The step's tables are built once
/// and cached in the table directory. Ctrl-C stops the search (``KeyboardInterrupt``).
///
/// Raises ``ParseError`` for an unknown step (the message names the nearest) or NISS mode,
/// ``IllegalCube`` for a state that is no cube or does not meet the step's requisite (``EO on
/// F/B`` for ``drud-eofb``), ``ValueError`` for ``max_moves`` below ``min_moves`` or a number out
/// of its range, ``MemoryError`` when the solutions asked would take more than the solver's bound
/// (128 MiB, some 200,000 solutions: ask for fewer).
///
/// >>> from cube_toolkit import fmc
/// >>> [s.moves for s in fmc.solve("R U F", "eofb")]
/// ['F']
#[pyfunction]
#[pyo3(signature = (state, step, niss = "normal", max_solutions = None, min_moves = None,
    max_moves = None, optimal = false, above_optimal = None, threads = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    state: StateArg,
    step: &str,
    niss: &str,
    max_solutions: Option<Int>,
    min_moves: Option<Int>,
    max_moves: Option<Int>,
    optimal: bool,
    above_optimal: Option<Int>,
    threads: Option<Int>,
) -> PyResult<Vec<StepSolution>> {
    let step = fmc::step(step).map_err(|e| ParseError::new_err(e.to_string()))?;
    let mut settings = Settings {
        niss: niss
            .parse()
            .map_err(|e: FmcError| ParseError::new_err(e.to_string()))?,
        max_solutions: max_solutions.map_or(Ok(1), |n| n.within("max_solutions", 1, usize::MAX))?,
        min_moves: min_moves.map_or(Ok(0), |n| n.within("min_moves", 0, 20))?,
        max_moves: max_moves.map_or(Ok(20), |n| n.within("max_moves", 0, 20))?,
        above_optimal: above_optimal
            .map(|n| n.within("above_optimal", 0, 20))
            .transpose()?,
        ..Settings::default()
    };
    if optimal {
        if settings.above_optimal.is_some() {
            return Err(PyValueError::new_err(
                "optimal=True and above_optimal do not go together",
            ));
        }
        settings.above_optimal = Some(0);
    }
    if let Some(threads) = threads {
        settings.threads = threads.within("threads", 1, MAX_THREADS)?;
    }
    if settings.max_moves < settings.min_moves {
        return Err(PyValueError::new_err(format!(
            "max_moves {} is below min_moves {}",
            settings.max_moves, settings.min_moves
        )));
    }
    let cube = match &state {
        // A scramble and a partial solution in NISS notation, as the CLI's `fmc solve` reads
        // them: the state is the sequence's normal side; cubing.js's `(R U)2` is refused.
        StateArg::Text(text) if text.contains(['(', ')']) => text
            .parse::<NissAlg>()
            .map_err(|e| ParseError::new_err(e.to_string()))?
            .normal_side(&Cube::SOLVED),
        _ => state.legal_cube()?,
    };
    tables::announce_fmc_build(step)?;
    let outcome = interrupt::run(py, |stop| {
        let tables = tables::fmc_step(step);
        fmc::solve(step, &tables, &cube, &settings, stop.flag())
    })?;
    let outcome = outcome.map_err(|e| match e {
        FmcError::Requisite { .. } => IllegalCube::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    })?;
    if outcome.cut == Some(fmc::Cut::Memory) {
        return Err(PyMemoryError::new_err(format!(
            "more than {} solutions would take more than {} MiB of memory: ask for fewer \
             (max_solutions)",
            outcome.count,
            settings.max_memory >> 20
        )));
    }
    Ok(outcome
        .solutions
        .iter()
        .map(|s| StepSolution {
            moves: s.to_string(),
            normal: s.normal_part().to_string(),
            inverse: s.inverse_part().to_string(),
            length: s.htm(),
        })
        .collect())
}

/// Registers the functions and the class of `cube_toolkit.fmc` on the native module, under
/// `fmc_` names that the Python module `cube_toolkit.fmc` re-exports.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<StepSolution>()?;
    m.add("fmc_unniss", wrap_pyfunction!(unniss, m)?)?;
    m.add("fmc_invert", wrap_pyfunction!(invert, m)?)?;
    m.add("fmc_cleanup", wrap_pyfunction!(cleanup, m)?)?;
    m.add("fmc_count", wrap_pyfunction!(count, m)?)?;
    m.add("fmc_solve", wrap_pyfunction!(solve, m)?)?;
    m.add("fmc_steps", wrap_pyfunction!(steps, m)?)?;
    Ok(())
}
