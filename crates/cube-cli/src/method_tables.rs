//! The method tables of this run: each family (two-phase, Thistlethwaite, the cross tables of the
//! beginner's method and CFOP) read from the table directory once, on first use, built and
//! written there when missing or stale (cube-solvers' `load_or_build`), and shared by every solve
//! of the run. Caching only saves time: when the directory cannot be found or written the tables
//! are built in memory.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use cube_solvers::MethodTables;
use cube_solvers::beginner::CrossTables;
use cube_solvers::thistlethwaite::ThistlethwaiteTables;
use cube_solvers::two_phase::{TwoPhase, TwoPhaseTables};

use crate::args::Global;
use crate::output;

/// What the loads need of the command line: the table directory (`None` when it cannot be found)
/// and whether notes are wanted.
struct Settings {
    dir: Option<PathBuf>,
    notes: bool,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

/// Records the table directory and the output mode of `global` for the loads of this run; called
/// once, before any command runs.
pub fn init(global: &Global) {
    SETTINGS.get_or_init(|| Settings {
        dir: crate::cmd::tables::table_dir(global).ok(),
        notes: !global.json,
    });
}

/// The two-phase tables of this run.
pub fn two_phase() -> Arc<TwoPhaseTables> {
    static TABLES: OnceLock<Arc<TwoPhaseTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(load))
}

/// A two-phase solver over the tables of this run.
pub fn two_phase_solver() -> TwoPhase {
    TwoPhase::new(two_phase())
}

/// The Thistlethwaite tables of this run.
pub fn thistlethwaite() -> Arc<ThistlethwaiteTables> {
    static TABLES: OnceLock<Arc<ThistlethwaiteTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(load))
}

/// The cross tables of this run (the beginner's method and CFOP).
pub fn cross() -> Arc<CrossTables> {
    static TABLES: OnceLock<Arc<CrossTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(load))
}

/// The tables of `T` from the table directory, saying why the wait when they are built (the large
/// two-phase tables take seconds) and whether they were cached.
fn load<T: MethodTables>() -> Arc<T> {
    let Some(Settings {
        dir: Some(dir),
        notes,
    }) = SETTINGS.get()
    else {
        return Arc::new(T::build());
    };
    let method = T::NAME;
    let tell = *notes && T::SPECS.iter().any(|spec| !spec.path_in(dir).exists());
    if tell {
        output::note(format_args!(
            "cube-cli: building the {method} tables (once)"
        ));
    }
    match cube_solvers::load_or_build::<T>(dir) {
        Ok(loaded) => {
            if tell && loaded.built > 0 {
                match loaded.not_written {
                    None => output::note(format_args!(
                        "cube-cli: cached the {method} tables in {}",
                        dir.display()
                    )),
                    Some(e) => output::note(format_args!(
                        "cube-cli: warning: the {method} tables are not cached, they will be built again next time: {e}"
                    )),
                }
            }
            loaded.tables
        }
        // A generator bug, not a cache problem: build in memory as without a cache.
        Err(_) => Arc::new(T::build()),
    }
}
