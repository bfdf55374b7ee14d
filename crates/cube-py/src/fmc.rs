//! `cube_toolkit.fmc`: fewest-moves tools: the step solvers of cube-solvers' `fmc` (`solve`,
//! `steps`), its insertions (`insert`, `cycles`, `improve`) and cube-core's NISS sequences
//! (`unniss`, `invert`, `cleanup`, `count`), as the CLI's `fmc` commands.

// The functions' doc comments are their Python docstrings (PyO3 copies them to `__doc__`), whose
// doctests index the records (`record["insertions"][0]`): rustdoc would read those as links.
#![allow(rustdoc::broken_intra_doc_links)]

use cube_core::{Alg, Cube, Move, NissAlg};
use cube_solvers::MAX_THREADS;
use cube_solvers::fmc::insert::{self as insertions, AlgSet, Leftover};
use cube_solvers::fmc::{self, FmcError, Settings};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::args::{Int, Seconds, time_limit};
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

/// The text of a plain sequence.
fn text_of(moves: &[Move]) -> String {
    Alg::from_moves(moves).to_string()
}

/// The scramble's state and the skeleton of `insert` and `cycles`, read as the CLI reads them
/// (the CLI's words, the argument named).
fn scramble_and_skeleton(scramble: &StateArg, skeleton: &str) -> PyResult<(Cube, NissAlg)> {
    let state = scramble.legal_cube()?;
    let skeleton = skeleton
        .parse::<NissAlg>()
        .map_err(|e| ParseError::new_err(format!("skeleton: {e}")))?;
    Ok((state, skeleton))
}

/// What a skeleton leaves, as the CLI's record has it.
fn leftover_dict<'py>(py: Python<'py>, leftover: &Leftover) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("code", leftover.code())?;
    d.set_item("words", leftover.words())?;
    d.set_item("insertions", leftover.insertions())?;
    d.set_item("parity", leftover.parity())?;
    let cycles = PyList::empty(py);
    for cycle in leftover.cycles() {
        let c = PyDict::new(py);
        c.set_item("orbit", cycle.orbit.name())?;
        c.set_item("positions", cycle.position_names())?;
        c.set_item("twist", cycle.twist)?;
        cycles.append(c)?;
    }
    d.set_item("cycles", cycles)?;
    Ok(d)
}

/// What ``skeleton`` (NISS notation accepted) leaves of ``scramble`` (a ``Cube`` or a text in
/// any format), as the CLI's ``fmc cycles`` record: a dict of ``skeleton`` (plain, cleaned
/// up), ``skeleton_length``, ``code`` (``"3c3e"``), ``words`` (``"3 corners, 3 edges: 3c3e"``),
/// ``insertions`` (the fewest that finish it), ``parity`` and ``cycles`` (each ``orbit``,
/// ``positions``, whose pieces belong at the next, and ``twist``).
///
/// Raises ``ParseError`` for a skeleton that does not read, ``IllegalCube`` for a scramble that
/// is no cube.
///
/// >>> from cube_toolkit import fmc
/// >>> fmc.cycles("R U R' U'", "U")["words"]
/// '4 corners, 4 edges: 4c4e'
#[pyfunction]
pub fn cycles<'py>(
    py: Python<'py>,
    scramble: StateArg,
    skeleton: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let (state, skeleton) = scramble_and_skeleton(&scramble, skeleton)?;
    let moves = insertions::plain(&skeleton);
    let d = leftover_dict(py, &Leftover::of(&state.apply_moves(&moves)))?;
    d.set_item("skeleton", text_of(&moves))?;
    d.set_item("skeleton_length", moves.len())?;
    Ok(d)
}

/// The insertions into ``skeleton`` (NISS notation accepted) that solve ``scramble`` (a
/// ``Cube`` or a text in any format) with the fewest moves after cancellation, as the CLI's
/// ``fmc insert``: greedy (fast), or with ``optimal=True`` proven the fewest over the algorithm
/// set; ``max_seconds`` bounds the search (the best found is answered, not proven); ``algs`` is
/// the text of an algorithm list (one a line, ``//`` comments; each taken with its mirrors,
/// rotations, inverse and cyclic shifts), else the generated set (built once, about 40 s on two cores, and
/// cached in the table directory). Ctrl-C stops the search (``KeyboardInterrupt``).
///
/// Answers a dict as the CLI's ``--json`` record: ``skeleton`` (plain, cleaned up; positions
/// count its moves), ``skeleton_length``, ``leftover`` (as ``cycles`` answers it, without the
/// skeleton), ``solution`` and
/// ``length`` (``None`` when nothing was found), ``insertions`` (each ``position``,
/// ``sequence`` it goes into, ``algorithm``, ``kind`` and ``cancelled`` moves, in the order they
/// are made), ``optimal`` (proven) and ``complete`` (not stopped by the time).
///
/// Raises ``ParseError`` for a skeleton or an algorithm list that does not read,
/// ``IllegalCube`` for a scramble that is no cube, ``ValueError`` for a skeleton that solves the
/// scramble already, leaves what the set has no algorithm for or more than six insertions'
/// worth, or a number out of its range.
///
/// >>> from cube_toolkit import fmc
/// >>> record = fmc.insert("D R U R' D' R U' R' F2 B2", "B2 F2", algs="R U R' D R U' R' D'")
/// >>> record["solution"], record["insertions"][0]["cancelled"]
/// ("U' R' D R U R' D' R F2 B2", 0)
#[pyfunction]
#[pyo3(signature = (scramble, skeleton, optimal = false, max_seconds = None, threads = None,
    algs = None))]
pub fn insert<'py>(
    py: Python<'py>,
    scramble: StateArg,
    skeleton: &str,
    optimal: bool,
    max_seconds: Option<Seconds>,
    threads: Option<Int>,
    algs: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let (state, skeleton) = scramble_and_skeleton(&scramble, skeleton)?;
    let mut settings = insertions::Settings {
        optimal,
        time_budget: time_limit("max_seconds", max_seconds)?,
        ..insertions::Settings::default()
    };
    if let Some(threads) = threads {
        settings.threads = threads.within("threads", 1, MAX_THREADS)?;
    }
    let own = algs
        .map(|text| AlgSet::from_text(text).map_err(|e| ParseError::new_err(format!("algs: {e}"))))
        .transpose()?;
    let outcome = interrupt::run(py, |stop| {
        let generated;
        let set = match &own {
            Some(set) => set,
            None => {
                generated = tables::insertions();
                generated.set()
            }
        };
        insertions::insert(set, &state, &skeleton, &settings, stop.flag())
    })?
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let d = PyDict::new(py);
    d.set_item("skeleton", text_of(&outcome.skeleton))?;
    d.set_item("skeleton_length", outcome.skeleton.len())?;
    d.set_item("leftover", leftover_dict(py, &outcome.leftover)?)?;
    d.set_item("solution", outcome.solution.as_deref().map(text_of))?;
    d.set_item("length", outcome.solution.as_ref().map(Vec::len))?;
    let insertions = PyList::empty(py);
    for i in &outcome.insertions {
        let e = PyDict::new(py);
        e.set_item("position", i.position)?;
        e.set_item("sequence", text_of(&i.sequence))?;
        e.set_item("algorithm", text_of(&i.algorithm))?;
        e.set_item("kind", i.kind.name())?;
        e.set_item("cancelled", i.cancelled)?;
        insertions.append(e)?;
    }
    d.set_item("insertions", insertions)?;
    d.set_item("optimal", outcome.proven)?;
    d.set_item("complete", outcome.complete)?;
    Ok(d)
}

/// Shorter replacements of ``solution``'s segments (NISS notation accepted: made plain first),
/// as the CLI's ``fmc improve``: for every segment of up to ``max_length`` (2 to 10) moves, the
/// shortest sequence that does the same, kept when the solution it makes is shorter; the
/// shortest results first, up to ``improvements``. ``max_seconds`` bounds the search. Ctrl-C
/// stops it (``KeyboardInterrupt``).
///
/// Answers a dict as the CLI's ``--json`` record: ``solution`` (plain), ``length``,
/// ``improvements`` (each ``start``, ``end``, ``segment``, ``replacement``, ``solution`` and
/// ``length``) and ``complete`` (every segment searched).
///
/// Raises ``ParseError`` for a solution that does not read, ``ValueError`` for a number out of
/// its range.
///
/// >>> from cube_toolkit import fmc
/// >>> fmc.improve("D B2 R2 U2 R2 U2 R2 U2 R2 L")["improvements"][0]["length"]
/// 8
#[pyfunction]
#[pyo3(signature = (solution, max_length = None, improvements = None, max_seconds = None,
    threads = None))]
pub fn improve<'py>(
    py: Python<'py>,
    solution: &str,
    max_length: Option<Int>,
    improvements: Option<Int>,
    max_seconds: Option<Seconds>,
    threads: Option<Int>,
) -> PyResult<Bound<'py, PyDict>> {
    let moves = insertions::plain(
        &solution
            .parse::<NissAlg>()
            .map_err(|e| ParseError::new_err(format!("solution: {e}")))?,
    );
    let max_length = max_length.map_or(Ok(insertions::MAX_SEGMENT), |n| {
        n.within("max_length", 2, insertions::MAX_SEGMENT)
    })?;
    let shown = improvements.map_or(Ok(5), |n| n.within("improvements", 1, usize::MAX))?;
    let budget = time_limit("max_seconds", max_seconds)?;
    let threads = threads.map_or(Ok(insertions::Settings::default().threads), |n| {
        n.within("threads", 1, MAX_THREADS)
    })?;
    let (found, complete) = interrupt::run(py, |stop| {
        cube_solvers::in_pool(threads, || {
            insertions::improve(&moves, max_length, budget, stop.flag())
        })
    })?
    .map_err(PyValueError::new_err)?;
    let d = PyDict::new(py);
    d.set_item("solution", text_of(&moves))?;
    d.set_item("length", moves.len())?;
    let list = PyList::empty(py);
    for i in found.iter().take(shown) {
        let e = PyDict::new(py);
        e.set_item("start", i.start)?;
        e.set_item("end", i.end)?;
        e.set_item("segment", text_of(&moves[i.start..i.end]))?;
        e.set_item("replacement", text_of(&i.replacement))?;
        e.set_item("solution", text_of(&i.solution))?;
        e.set_item("length", i.solution.len())?;
        list.append(e)?;
    }
    d.set_item("improvements", list)?;
    d.set_item("complete", complete)?;
    Ok(d)
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
    m.add("fmc_insert", wrap_pyfunction!(insert, m)?)?;
    m.add("fmc_cycles", wrap_pyfunction!(cycles, m)?)?;
    m.add("fmc_improve", wrap_pyfunction!(improve, m)?)?;
    Ok(())
}
