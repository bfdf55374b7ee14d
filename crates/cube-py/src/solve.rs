//! `solve` by method (its `Solution` in `solution.rs`), and `scramble`.

use std::time::{Duration, Instant};

use cube_core::Subgroup;
use cube_solvers::beginner::Beginner;
use cube_solvers::cfop::Cfop;
use cube_solvers::scramble::{Event, Scrambler};
use cube_solvers::thistlethwaite::Thistlethwaite;
use cube_solvers::two_phase::{self, TwoPhase};
use cube_solvers::{Limits, Solver};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::args::{Int, Seconds, time_limit};
use crate::cube::StateArg;
use crate::errors::{NoSolution, ParseError, solve_error};
use crate::solution::PySolution;
use crate::{interrupt, tables};

/// A solution of ``state`` by ``method``: ``"two-phase"`` (near-optimal in milliseconds),
/// ``"thistlethwaite"``, ``"beginner"``, ``"cfop"`` (with labelled stages) or ``"optimal"``.
///
/// Solutions are outer face turns named by the faces' centres: they solve the pieces relative
/// to the centres, so for a state with a puzzle rotation apply them to ``Cube(cube.h48)``.
/// ``max_length`` (0 or more) bounds the length; ``time_budget`` (seconds, 1e-9 to 1e6, as the
/// CLI's) bounds how long two-phase searches: the best solution found by then, looking for
/// shorter ones until it is spent (without it, the first of at most 20 moves, and at most 10 s);
/// ``to`` solves to that state instead of solved. The GIL is released during the search, and
/// Ctrl-C stops it (``KeyboardInterrupt``). The first solve of a method in a process loads its
/// tables (from the table directory, built and cached there when missing).
///
/// Raises ``IllegalCube`` for a state that cannot be solved, ``NoSolution`` when none is found
/// within the limits (a ``max_length`` below what two-phase finds within the time: below the
/// optimal length, say), ``ParseError`` for a text that is no state, ``ValueError`` for a number
/// out of its range.
///
/// >>> from cube_toolkit import Cube, solve
/// >>> solution = solve("R U R' U'", method="beginner")
/// >>> Cube("R U R' U'").apply(solution.moves).is_solved
/// True
#[pyfunction]
#[pyo3(signature = (state, method = "two-phase", max_length = None, time_budget = None, to = None))]
pub fn solve(
    py: Python<'_>,
    state: StateArg,
    method: &str,
    max_length: Option<Int>,
    time_budget: Option<Seconds>,
    to: Option<StateArg>,
) -> PyResult<PySolution> {
    let max_length = max_length
        .map(|n| n.within("max_length", 0, usize::MAX))
        .transpose()?;
    let time_budget = time_limit("time_budget", time_budget)?;
    let cube = state.legal_cube()?;
    let goal = to.map(|to| to.legal_cube()).transpose()?;
    if method == "optimal" {
        let cube = match &goal {
            Some(goal) => cube_solvers::relative_to_goal(&cube, goal).map_err(solve_error)?,
            None => cube,
        };
        let result = crate::optimal::search(py, cube, None, None, None, time_budget, 1)?;
        return result.solution();
    }
    let solver: Box<dyn Solver> = match method {
        "two-phase" => Box::new(TwoPhase::new(py.allow_threads(tables::two_phase))),
        "thistlethwaite" => Box::new(Thistlethwaite::new(
            py.allow_threads(tables::thistlethwaite),
        )),
        "beginner" => Box::new(Beginner::new(py.allow_threads(tables::beginner))),
        "cfop" => Box::new(Cfop::new(py.allow_threads(tables::cfop))),
        _ => {
            return Err(ParseError::new_err(format!(
                "unknown method {method:?}: expected two-phase, thistlethwaite, beginner, cfop or optimal"
            )));
        }
    };
    let limits = Limits {
        max_length,
        time_budget,
        ..Limits::default()
    };
    let start = Instant::now();
    let result = interrupt::run(py, |stop| match &goal {
        Some(goal) => solver.solve_to(&cube, goal, &limits, stop),
        None => solver.solve(&cube, &limits, stop),
    })?;
    let elapsed = start.elapsed();
    let solution = result
        .map_err(solve_error)?
        .into_iter()
        .next()
        .ok_or_else(|| NoSolution::new_err(no_solution(method, &limits, elapsed)))?;
    Ok(PySolution::new(&solution, method, elapsed.as_secs_f64()))
}

/// The message of a solve that found nothing: what was not found, and which limit to raise.
fn no_solution(method: &str, limits: &Limits, elapsed: Duration) -> String {
    let hint = match (method, limits.time_budget) {
        ("two-phase", Some(_)) => "raise max_length or time_budget".to_string(),
        ("two-phase", None) => format!(
            "two-phase searches for {} s without time_budget: raise max_length or time_budget",
            two_phase::Config::default().default_time_budget.as_secs()
        ),
        _ => "its solution is longer: raise max_length".to_string(),
    };
    format!(
        "{method}: {} ({hint}; method=\"optimal\" finds the optimal length)",
        limits.not_found(elapsed)
    )
}

/// ``count`` (default 1) random-state scrambles for ``event`` (``"333"``, ``"333fm"``,
/// ``"333bf"``), as the CLI's ``scramble`` writes them: the same ``seed`` (0 to 2**64 - 1)
/// gives the CLI's scrambles. ``type`` (``"eo"``, ``"dr"``, ``"htr"``, ``"corners"``,
/// ``"edges"``, as the CLI's ``--type``) draws each state uniformly from that subgroup instead,
/// for practising fewest-moves steps (not with another event than ``"333"``). Ctrl-C stops a
/// long run (``KeyboardInterrupt``).
///
/// >>> from cube_toolkit import scramble
/// >>> len(scramble(seed=42, count=2))
/// 2
/// >>> from cube_toolkit import Cube
/// >>> Cube(scramble(type="dr", seed=7).pop()).is_solved
/// False
#[pyfunction]
#[pyo3(signature = (event = "333", seed = None, count = None, r#type = None))]
pub fn scramble(
    py: Python<'_>,
    event: &str,
    seed: Option<Int>,
    count: Option<Int>,
    r#type: Option<&str>,
) -> PyResult<Vec<String>> {
    let event: Event = event
        .parse()
        .map_err(|e| ParseError::new_err(format!("{e}")))?;
    let subgroup: Option<Subgroup> = r#type
        .map(str::parse)
        .transpose()
        .map_err(|e| ParseError::new_err(format!("{e}")))?;
    if subgroup.is_some() && event != Event::Cube333 {
        return Err(PyValueError::new_err(format!(
            "type draws a state of a subgroup, written as a 333 scramble: not with event {event}"
        )));
    }
    let seed = seed.map(|s| s.within("seed", 0, u64::MAX)).transpose()?;
    let count = count.map_or(Ok(1), |n| n.within("count", 0, usize::MAX))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed.unwrap_or_else(rand::random));
    // Ctrl-C stops a long run between two scrambles.
    interrupt::run(py, |stop| {
        let scrambler = Scrambler::new(TwoPhase::new(tables::two_phase()));
        (0..count)
            .map_while(|_| {
                (!stop.is_stopped()).then(|| {
                    let scramble = match subgroup {
                        Some(subgroup) => scrambler.subgroup_scramble(subgroup, &mut rng),
                        None => scrambler.scramble(event, &mut rng),
                    };
                    scramble.alg.to_string()
                })
            })
            .collect()
    })
}
