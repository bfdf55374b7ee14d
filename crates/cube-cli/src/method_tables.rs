//! The method tables of this run: each family (two-phase, Thistlethwaite, the beginner's method,
//! CFOP, the FMC steps' and the insertion algorithms; the beginner's and CFOP share the cross
//! tables' files) read from the table directory once, on first use, built and
//! written there when missing or stale (cube-solvers' `load_or_build`, with a spinner while it
//! builds), and shared by every solve of the run. Caching only saves time: when the directory
//! cannot be found or written the tables are built in memory. This process-wide cache lives here,
//! in the binary: the library has no global table state.
//!
//! The two-phase family is the exception to "built on first use" (docs/cli.md, "The two-phase
//! tables"): its large tables (129 MB, about 20 s on two cores) are used when they are in the
//! directory, and built there only by `tables bake --caches` or by a run that answers several
//! states ([`many_states`]), where they pay for themselves; any other run answers from the small
//! tables, built in memory in a fraction of a second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use cube_solvers::MethodTables;
use cube_solvers::beginner::BeginnerTables;
use cube_solvers::cfop::CfopTables;
use cube_solvers::fmc::insert::InsertTables;
use cube_solvers::fmc::{Step, StepTables};
use cube_solvers::thistlethwaite::ThistlethwaiteTables;
use cube_solvers::two_phase::{LARGE_BUILD_SCANS, LARGE_BUILD_TIME, TwoPhase, TwoPhaseTables};

use crate::args::Global;
use crate::output;
use crate::table_dir::{Bar, table_dir};
use crate::tiers::{file_bytes, size_text};

/// Whether this run answers several states (a batch), set by [`many_states`].
static MANY_STATES: AtomicBool = AtomicBool::new(false);

/// Tells the run that it answers several states: a first build of the large two-phase tables
/// pays for itself then. Called before any of them is answered.
pub fn many_states() {
    MANY_STATES.store(true, Ordering::Relaxed);
}

/// The two-phase tables of this run: the large ones when they are cached in the table directory,
/// or when this run answers several states (built and cached then); else the small ones.
pub fn two_phase(global: &Global) -> Arc<TwoPhaseTables> {
    static TABLES: OnceLock<Arc<TwoPhaseTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| {
        let cached = table_dir(global).is_ok_and(|dir| TwoPhaseTables::cached_in(&dir));
        if cached || MANY_STATES.load(Ordering::Relaxed) {
            // A bar of the states the two large searches scan, with its percentage and ETA.
            load_with(global, Some((LARGE_BUILD_SCANS, LARGE_BUILD_TIME)), |bar| {
                TwoPhaseTables::large_observed(&|n| bar.advance(n as u64))
            })
        } else {
            Arc::new(TwoPhaseTables::small())
        }
    }))
}

/// Builds and caches the large two-phase tables now (`tables bake --caches`), unless they are
/// cached and sound.
pub fn bake_two_phase(global: &Global) {
    many_states();
    two_phase(global);
}

/// A two-phase solver over the tables of this run.
pub fn two_phase_solver(global: &Global) -> TwoPhase {
    TwoPhase::new(two_phase(global))
}

/// The Thistlethwaite tables of this run.
pub fn thistlethwaite(global: &Global) -> Arc<ThistlethwaiteTables> {
    static TABLES: OnceLock<Arc<ThistlethwaiteTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| load(global)))
}

/// The beginner's tables of this run.
pub fn beginner(global: &Global) -> Arc<BeginnerTables> {
    static TABLES: OnceLock<Arc<BeginnerTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| load(global)))
}

/// The CFOP tables of this run.
pub fn cfop(global: &Global) -> Arc<CfopTables> {
    static TABLES: OnceLock<Arc<CfopTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| load(global)))
}

/// The generated insertion algorithms of this run (`fmc insert`): read from the table directory,
/// or made (about a minute of CPU, 80 s measured) and cached there on first use.
pub fn insertions(global: &Global) -> Arc<InsertTables> {
    static TABLES: OnceLock<Arc<InsertTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| load(global)))
}

/// The tables of an FMC step's family for this run (each family loaded once, on first use, as
/// the methods' tables are); mapped in whole up front when the run answers several states
/// ([`StepTables::prefault`]).
pub fn fmc_step(global: &Global, step: &Step) -> StepTables {
    static TABLES: Mutex<Vec<StepTables>> = Mutex::new(Vec::new());
    let mut loaded = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(tables) = loaded.iter().find(|t| t.name() == step.tables_name()) {
        return tables.clone();
    }
    let family = step.tables_name();
    let tables = match table_dir(global) {
        Ok(dir) => {
            // Said before they build (some take a minute), with a spinner on a terminal while
            // they load or build, and a note once cached.
            let tell = global.notes()
                && step
                    .table_specs()
                    .iter()
                    .any(|spec| !spec.path_in(&dir).exists());
            if tell {
                output::note(format_args!(
                    "cube-cli: building the {family} tables (once; {} in {})",
                    size_text(step.table_bytes()),
                    dir.display()
                ));
            }
            let bar = Bar::new(global.notes());
            bar.start(&format!("{family} tables"), None);
            let result = StepTables::load_or_build(step, &dir);
            bar.finish();
            match result {
                Ok(loaded) => {
                    if global.notes() && loaded.built > 0 {
                        match &loaded.not_written {
                            None => output::note(format_args!(
                                "cube-cli: cached the {family} tables in {}",
                                dir.display()
                            )),
                            Some(e) => output::note_warning(format_args!(
                                "the {family} tables are not cached, they will be built again next time: {}",
                                output::table_error(e)
                            )),
                        }
                    }
                    if MANY_STATES.load(Ordering::Relaxed) {
                        loaded.tables.prefault();
                    }
                    (*loaded.tables).clone()
                }
                // A generator bug, not a cache problem: build in memory as without a cache.
                Err(_) => StepTables::build(step),
            }
        }
        Err(e) => {
            output::note_warning(format_args!(
                "{e}; the {family} tables are not cached: built in memory for this run"
            ));
            StepTables::build(step)
        }
    };
    loaded.push(tables.clone());
    tables
}

/// The tables of `T` from the table directory, saying why the wait when they are built (the large
/// two-phase tables take seconds) and whether they were cached.
fn load<T: MethodTables>(global: &Global) -> Arc<T> {
    load_with(global, None, |_| T::build())
}

/// [`load`], building with `build`, which may advance the bar: of `work`'s units when given (with
/// the time the build takes, said before it starts), else a spinner.
fn load_with<T: MethodTables>(
    global: &Global,
    work: Option<(u64, &str)>,
    build: impl FnOnce(&Bar) -> T,
) -> Arc<T> {
    let method = T::NAME;
    let dir = match table_dir(global) {
        Ok(dir) => dir,
        Err(e) => {
            // No cache, but an answer: built in memory, and said why.
            output::note_warning(format_args!(
                "{e}; the {method} tables are not cached: built in memory for this run"
            ));
            return Arc::new(build(&Bar::new(false)));
        }
    };
    let tell = global.notes() && T::SPECS.iter().any(|spec| !spec.path_in(&dir).exists());
    if tell {
        let bytes = T::SPECS.iter().map(file_bytes).sum();
        let time = work.map_or_else(String::new, |(_, time)| format!("{time}, "));
        output::note(format_args!(
            "cube-cli: building the {method} tables (once; {time}{} in {})",
            size_text(bytes),
            dir.display()
        ));
    }
    // A bar (or a spinner) on a terminal while they build (seconds for two-phase).
    let bar = Bar::new(tell);
    bar.start(&format!("{method} tables"), work.map(|(units, _)| units));
    let loaded = cube_solvers::load_or_build_with::<T>(&dir, || build(&bar));
    bar.finish();
    match loaded {
        Ok(loaded) => {
            if tell && loaded.built > 0 {
                match loaded.not_written {
                    None => output::note(format_args!(
                        "cube-cli: cached the {method} tables in {}",
                        dir.display()
                    )),
                    Some(e) => output::note_warning(format_args!(
                        "the {method} tables are not cached, they will be built again next time: {}",
                        output::table_error(&e)
                    )),
                }
            }
            loaded.tables
        }
        // A generator bug, not a cache problem: build in memory as without a cache.
        Err(_) => Arc::new(T::build()),
    }
}
