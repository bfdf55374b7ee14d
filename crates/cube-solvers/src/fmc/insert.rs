//! Insertions for fewest-moves solving: a skeleton (a partial solution that leaves a few pieces,
//! a corner 3-cycle, an edge 3-cycle, two twisted corners, a parity) is finished by inserting
//! short algorithms at the places where the most moves cancel, as Insertion Finder does.
//!
//! - [`Leftover`]: what a skeleton leaves, as cycles and in FMC solvers' words (`3c3e`).
//! - [`AlgSet`]: algorithms by case; [`InsertTables`] is the generated set (every algorithm of
//!   each kind up to a length, made by this crate's search and baked once into the table
//!   directory), [`AlgSet::from_text`] a user's list.
//! - [`insert`]: the insertions that solve a scramble from a skeleton with the fewest moves
//!   after cancellation: greedy (fast) or optimal (proven over the set); [`improve()`]: shorter
//!   replacements of a solution's segments.
//!
//! The skeleton may be written in NISS notation: it is first made plain ([`NissAlg::unniss`]),
//! so that a place on either side is a place of the plain sequence, and cleaned up (cancelling
//! moves merged). Positions count the moves of that plain sequence before the insertion.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use cube_core::{Alg, Cube, NissAlg};
//! use cube_solvers::fmc::insert::{self, AlgSet, Settings};
//!
//! // A corner 3-cycle set, and a scramble whose skeleton leaves one.
//! let set = AlgSet::from_text("R U R' D R U' R' D'")?;
//! let scramble: Alg = "D R U R' D' R U' R' F2 B2".parse()?;
//! let skeleton: NissAlg = "B2 F2".parse()?;
//! let state = Cube::SOLVED.apply_alg(&scramble);
//! let outcome = insert::insert(&set, &state, &skeleton, &Settings::default(), &AtomicBool::new(false))?;
//! let solution = outcome.solution.expect("one insertion solves it");
//! assert!(state.apply_moves(&solution).is_solved());
//! assert_eq!(outcome.insertions.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod algs;
mod cancel;
mod classes;
mod cycles;
mod generate;
mod improve;
mod search;
mod tables;

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cube_core::{Cube, Move, NissAlg, simplify};

pub use self::algs::{AlgSet, Case, Kind};
pub use self::cycles::{Cycle, Leftover, Orbit};
pub use self::improve::{Improvement, MAX_SEGMENT, improve};
use self::search::{Context, Node};
pub use self::tables::{GENERATED_LENGTHS, InsertTables, SMALL_LENGTHS};
use crate::cancel::Clock;

/// How to search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Prove the fewest moves over the set (a depth-first search of every sequence of
    /// insertions whose sequences stay shorter than the best found, the greedy answer first:
    /// Insertion Finder's bound, see the module `search`); otherwise the greedy answer.
    pub optimal: bool,
    /// The greedy finder keeps, at each measure, the sequences within this many moves of the
    /// shortest (Insertion Finder's `--greedy-threshold`, 2 there too).
    pub greedy_width: usize,
    /// How long the search may run; then the best solution found so far is returned, not proven.
    pub time_budget: Option<Duration>,
    /// Threads, 1 to 1024.
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            optimal: false,
            greedy_width: 2,
            time_budget: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// The most insertions a skeleton may need ([`Leftover::insertions`]).
pub const MAX_INSERTIONS: usize = 6;

/// One insertion of a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insertion {
    /// The sequence it goes into (the skeleton, or the sequence the insertions before it made),
    /// with the two moves around the place swapped when the insertion goes between them in the
    /// other order (moves on one axis commute).
    pub sequence: Vec<Move>,
    /// The number of moves of `sequence` before it.
    pub position: usize,
    /// The algorithm.
    pub algorithm: Vec<Move>,
    /// Its kind.
    pub kind: Kind,
    /// The moves that cancel: `sequence` and `algorithm` together, less the result.
    pub cancelled: usize,
}

/// What [`insert`] found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The skeleton as a plain sequence of face turns, cleaned up: the sequence the first
    /// insertion's position counts in.
    pub skeleton: Vec<Move>,
    /// What the skeleton leaves.
    pub leftover: Leftover,
    /// The shortest solution found (the skeleton with the insertions, cancelled), `None` when no
    /// insertion of the set solves the skeleton within the search space (or the time).
    pub solution: Option<Vec<Move>>,
    /// The insertions, in the order they are made.
    pub insertions: Vec<Insertion>,
    /// Whether the solution is proven the shortest of the search space ([`Settings::optimal`]
    /// and the search ended).
    pub proven: bool,
    /// False when the time budget or the stop flag ended the search.
    pub complete: bool,
}

/// Why a skeleton cannot be finished by insertions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InsertError {
    /// The skeleton already solves the scramble.
    Solved {
        /// Its length.
        length: usize,
    },
    /// The set has no algorithm for a part of what the skeleton leaves.
    NotCovered {
        /// What the skeleton leaves ([`Leftover::words`]).
        leftover: String,
        /// What the set lacks: `corner`, `edge` or `parity` algorithms.
        missing: &'static str,
    },
    /// The skeleton leaves more than insertions finish.
    TooMuch {
        /// What the skeleton leaves.
        leftover: String,
        /// The fewest insertions it needs.
        insertions: usize,
    },
    /// A setting out of range.
    Settings(String),
}

impl InsertError {
    /// A short rule name: `solved`, `not-covered`, `too-much`, `settings`.
    pub fn code(&self) -> &'static str {
        match self {
            InsertError::Solved { .. } => "solved",
            InsertError::NotCovered { .. } => "not-covered",
            InsertError::TooMuch { .. } => "too-much",
            InsertError::Settings(_) => "settings",
        }
    }
}

impl fmt::Display for InsertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InsertError::Solved { length } => write!(
                f,
                "the skeleton already solves the scramble ({length} moves): nothing to insert"
            ),
            InsertError::NotCovered { leftover, missing } => write!(
                f,
                "the skeleton leaves {leftover}, and the algorithm set has no {missing} algorithm: \
                 add some to the list, or use the generated set"
            ),
            InsertError::TooMuch {
                leftover,
                insertions,
            } => write!(
                f,
                "the skeleton leaves {leftover}, which needs at least {insertions} insertions; \
                 insertions finish a skeleton that leaves at most {MAX_INSERTIONS}: extend the \
                 skeleton first"
            ),
            InsertError::Settings(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for InsertError {}

/// The skeleton as a plain sequence of face turns (relative to the centres), cleaned up.
pub fn plain(skeleton: &NissAlg) -> Vec<Move> {
    simplify(&skeleton.unniss().expand().moves)
}

/// The insertions of algorithms of `set` into `skeleton` that solve `scramble` (the scramble's
/// state) with the fewest moves after cancellation (see [`Settings`] and the search space in the
/// module `search`'s documentation: each insertion lowers what is left, Insertion Finder's rules).
///
/// # Errors
/// [`InsertError::Solved`] when the skeleton solves the scramble, [`InsertError::NotCovered`]
/// when the set has no algorithm for corners, edges or parity that the skeleton leaves,
/// [`InsertError::TooMuch`] beyond [`MAX_INSERTIONS`], [`InsertError::Settings`].
pub fn insert(
    set: &AlgSet,
    scramble: &Cube,
    skeleton: &NissAlg,
    settings: &Settings,
    stop: &AtomicBool,
) -> Result<Outcome, InsertError> {
    if !(1..=crate::MAX_THREADS).contains(&settings.threads) {
        return Err(InsertError::Settings(format!(
            "threads must be 1 to {}, not {}",
            crate::MAX_THREADS,
            settings.threads
        )));
    }
    let moves = plain(skeleton);
    let left = scramble.compose(&Cube::SOLVED.apply_moves(&moves));
    let leftover = Leftover::of(&left);
    if leftover.is_solved() {
        return Err(InsertError::Solved {
            length: moves.len(),
        });
    }
    check_covered(set, &leftover)?;
    if leftover.insertions() > MAX_INSERTIONS {
        return Err(InsertError::TooMuch {
            leftover: leftover.words(),
            insertions: leftover.insertions(),
        });
    }
    let context = Context::new(set, *scramble, Clock::new(settings.time_budget), stop);
    let root = Node {
        moves: moves.clone(),
        measure: leftover.measure(),
        steps: Vec::new(),
    };
    let run = || {
        let (greedy, greedy_complete) =
            search::greedy(&context, root.clone(), settings.greedy_width, GREEDY_NODES);
        if !settings.optimal {
            return (greedy, false, greedy_complete);
        }
        let (best, complete) = search::optimal(&context, root.clone(), greedy);
        (
            best,
            complete && greedy_complete,
            complete && greedy_complete,
        )
    };
    let (best, proven, complete) =
        crate::in_pool(settings.threads, run).map_err(InsertError::Settings)?;
    let mut insertions = Vec::new();
    let solution = best.map(|node| {
        let mut sequence = moves.clone();
        for &step in &node.steps {
            let (before, after) = step.place.split(&sequence);
            let next = context.insert(&sequence, step);
            let algorithm = set
                .alg_moves(step.case as usize, step.alg as usize)
                .to_vec();
            insertions.push(Insertion {
                cancelled: before.len() + algorithm.len() + after.len() - next.len(),
                sequence: [before.clone(), after].concat(),
                position: before.len(),
                kind: set.cases()[step.case as usize].kind(),
                algorithm,
            });
            sequence = next;
        }
        sequence
    });
    Ok(Outcome {
        skeleton: moves,
        leftover,
        solution,
        insertions,
        proven,
        complete,
    })
}

/// At most this many sequences per measure in the greedy finder.
const GREEDY_NODES: usize = 2000;

/// Refuses a leftover that the set has no algorithm for: corners unsolved and no case moving
/// corners, edges likewise, or a parity and no odd case.
fn check_covered(set: &AlgSet, leftover: &Leftover) -> Result<(), InsertError> {
    let needs = |orbit: Orbit| leftover.cycles().iter().any(|c| c.orbit == orbit);
    let has = |test: &dyn Fn(&Case) -> bool| set.cases().iter().any(test);
    let missing = if needs(Orbit::Corners) && !has(&|c| c.support() & 0xff != 0) {
        "corner"
    } else if needs(Orbit::Edges) && !has(&|c| c.support() >> 8 != 0) {
        "edge"
    } else if leftover.parity() && !has(&|c| c.is_odd()) {
        "parity"
    } else {
        return Ok(());
    };
    Err(InsertError::NotCovered {
        leftover: leftover.words(),
        missing,
    })
}
