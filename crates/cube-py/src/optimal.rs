//! `optimal`: the optimal search of a tier's family (Korf's over a Korf tier, sym48's over an H48
//! tier, nxopt's over an nx tier, in quarter turns over a `-qtm` one) over the tables of this process, with the GIL released and Ctrl-C
//! (`KeyboardInterrupt`) stopping the search through its stop flag (`interrupt.rs`).

use std::time::Duration;

use cube_core::{Alg, Cube};
use cube_solvers::two_phase::TwoPhase;
use cube_solvers::{Limits, MAX_THREADS, Solution};
use cube_tables::Metric;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::args::{Int, Seconds, time_limit};
use crate::cube::StateArg;
use crate::errors::{NoSolution, solve_error};
use crate::interrupt;
use crate::solution::PySolution;
use crate::tables;

/// The result of ``optimal``: ``solution`` and ``solutions`` (strings, best first), ``length``,
/// ``optimal`` (proven), ``proven_lower_bound`` (no solution is shorter), ``nodes``,
/// ``seconds``, ``tier``, ``complete`` (``solutions`` is every solution asked for: false when
/// a timeout cut the list of ``max_solutions`` short) and ``metric`` (``"htm"``, or ``"qtm"``:
/// then ``length`` and ``proven_lower_bound`` count quarter turns).
#[pyclass(module = "cube_toolkit", name = "OptimalResult", frozen, get_all)]
#[derive(Clone)]
pub struct OptimalResult {
    /// The best solution found.
    solution: String,
    /// Every solution found, best first.
    solutions: Vec<String>,
    /// The length of the best solution.
    length: usize,
    /// Whether the solutions are proven optimal.
    optimal: bool,
    /// No solution is shorter than this.
    proven_lower_bound: usize,
    /// Nodes searched.
    nodes: u64,
    /// Time taken, in seconds.
    seconds: f64,
    /// The tier of the tables searched.
    tier: String,
    /// Whether `solutions` is every solution asked for (`max_solutions` of them, or all there
    /// are): false when a timeout stopped the search in the middle of the list.
    complete: bool,
    /// The metric of `length`, `proven_lower_bound` and optimality: `htm` or `qtm`.
    metric: String,
}

#[pymethods]
impl OptimalResult {
    #[new]
    #[pyo3(signature = (solution, solutions, length, optimal, proven_lower_bound, nodes, seconds, tier, complete = true, metric = "htm".to_string()))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        solution: String,
        solutions: Vec<String>,
        length: usize,
        optimal: bool,
        proven_lower_bound: usize,
        nodes: u64,
        seconds: f64,
        tier: String,
        complete: bool,
        metric: String,
    ) -> OptimalResult {
        OptimalResult {
            solution,
            solutions,
            length,
            optimal,
            proven_lower_bound,
            nodes,
            seconds,
            tier,
            complete,
            metric,
        }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> crate::Reduce<'py, ResultArgs> {
        let r = self.clone();
        (
            py.get_type::<OptimalResult>(),
            (
                r.solution,
                r.solutions,
                r.length,
                r.optimal,
                r.proven_lower_bound,
                r.nodes,
                r.seconds,
                r.tier,
                r.complete,
                r.metric,
            ),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "OptimalResult({:?}, length={}, optimal={}, complete={})",
            self.solution,
            self.length,
            python_bool(self.optimal),
            python_bool(self.complete)
        )
    }
}

/// `True` or `False`, as Python writes a bool.
fn python_bool(value: bool) -> &'static str {
    if value { "True" } else { "False" }
}

/// The arguments of `OptimalResult(...)`, in the order of its fields.
type ResultArgs = (
    String,
    Vec<String>,
    usize,
    bool,
    usize,
    u64,
    f64,
    String,
    bool,
    String,
);

impl OptimalResult {
    /// The best solution as a `Solution` of the method `optimal`.
    pub fn solution(&self) -> PyResult<PySolution> {
        let alg: Alg = self.solution.parse().map_err(|e| {
            crate::errors::CubeError::new_err(format!("solution {:?}: {e}", self.solution))
        })?;
        Ok(PySolution::new(
            &Solution::new(alg.expand().moves),
            "optimal",
            self.seconds,
        ))
    }
}

/// The optimal search behind `optimal` and `solve(method="optimal")`: `metric` `"htm"` or
/// `"qtm"` (default: the tier's, else `"htm"`; a tier of the other metric is a `ValueError`
/// naming its twin), `threads` from 1 to [`MAX_THREADS`] (default: the cores, at most that),
/// `max_solutions` at least 1.
pub fn search(
    py: Python<'_>,
    cube: Cube,
    tier: Option<&str>,
    metric: Option<&str>,
    threads: Option<usize>,
    timeout: Option<Duration>,
    max_solutions: usize,
) -> PyResult<OptimalResult> {
    let tier = tier.map(tables::parse_tier).transpose()?;
    let metric = metric.map(parse_metric).transpose()?;
    let tables = py.allow_threads(|| tables::optimal_tables(tier, metric))?;
    // The two-phase upper bound: its tables from the cache rather than built.
    let two_phase = TwoPhase::new(py.allow_threads(tables::two_phase));
    let limits = Limits {
        n_solutions: max_solutions,
        threads: threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .min(MAX_THREADS),
        time_budget: timeout,
        ..Limits::default()
    };
    let search = tables.searcher(two_phase);
    let outcome = interrupt::run(py, |stop| search.search(&cube, &limits, stop, &mut |_| {}))?
        .map_err(solve_error)?;
    let seconds = outcome.elapsed.as_secs_f64();
    let Some(best) = outcome.solutions.first() else {
        return Err(NoSolution::new_err(format!(
            "timed out after {seconds:.1} s without a solution; no solution is shorter than {} ({})",
            outcome.proven_lower_bound, outcome.metric
        )));
    };
    Ok(OptimalResult {
        solution: Alg::from_moves(&best.moves).to_string(),
        solutions: outcome
            .solutions
            .iter()
            .map(|s| Alg::from_moves(&s.moves).to_string())
            .collect(),
        length: outcome.metric.length(&best.moves),
        optimal: outcome.optimal,
        proven_lower_bound: outcome.proven_lower_bound,
        nodes: outcome.nodes,
        seconds,
        tier: tables.tier().to_string(),
        complete: outcome.complete,
        metric: outcome.metric.to_string(),
    })
}

/// `"htm"` or `"qtm"`; anything else a `ValueError` naming the choices.
fn parse_metric(name: &str) -> PyResult<Metric> {
    match name {
        "htm" => Ok(Metric::Htm),
        "qtm" => Ok(Metric::Qtm),
        _ => Err(PyValueError::new_err(format!(
            "metric {name:?}: expected \"htm\" (half turns count 1) or \"qtm\" (half turns count 2)"
        ))),
    }
}

/// The shortest solutions of ``state``, proven, over the tables of ``tier``: Korf's search over
/// ``"6edge"``, ``"7edge"``, ``"8edge"``, the sym48 search over ``"h4"`` to ``"h7"`` (``"h0"``,
/// the test tier, only by name); default: the baked tier measured cheapest per GB (h4, h5, h6, h7,
/// nx-eo3ep1, nx-eo2ep2, else the largest Korf tier), else 6edge, baked on first use (an H48 tier named is baked on first use too, as the CLI does). ``metric``:
/// ``"htm"`` (the default) or ``"qtm"``, optimal in quarter turns (a half turn counts 2) over the
/// baked ``-qtm`` nx tier measured cheapest per GB, or ``tier="nx-eo1ep1-qtm"`` (a ``-qtm`` tier implies it).
/// ``threads`` (1 to 1024; default: all cores), ``timeout`` in seconds (1e-9 to
/// 1e6, as the CLI's; then the best known and the length proven so far, ``optimal`` false),
/// ``max_solutions`` (at least 1).
///
/// The tables load once per process and are shared by every call. The GIL is released during
/// the search, and Ctrl-C stops it (``KeyboardInterrupt``). Raises ``IllegalCube``,
/// ``TablesMissing`` (a larger Korf tier not baked), ``TablesInvalid``, ``NoSolution`` (timed out
/// before any solution; or no ``-qtm`` tier baked for ``metric="qtm"``), ``ValueError`` for a
/// number out of its range, a metric that is not ``"htm"`` or ``"qtm"``, or a tier of the other
/// metric.
#[pyfunction]
#[pyo3(signature = (state, tier = None, threads = None, timeout = None, max_solutions = None, metric = None))]
pub fn optimal(
    py: Python<'_>,
    state: StateArg,
    tier: Option<&str>,
    threads: Option<Int>,
    timeout: Option<Seconds>,
    max_solutions: Option<Int>,
    metric: Option<&str>,
) -> PyResult<OptimalResult> {
    let threads = threads
        .map(|n| n.within("threads", 1, MAX_THREADS))
        .transpose()?;
    let timeout = time_limit("timeout", timeout)?;
    let max_solutions =
        max_solutions.map_or(Ok(1), |n| n.within("max_solutions", 1, usize::MAX))?;
    let cube = state.legal_cube()?;
    search(py, cube, tier, metric, threads, timeout, max_solutions)
}
