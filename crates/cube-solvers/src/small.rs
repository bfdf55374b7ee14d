//! The small distance tables of the methods, described for a binary that caches them on disk.
//!
//! Solvers never open files: they build their tables on first use. A binary that wants to keep
//! them between runs calls [`SmallTables::load_or_build`] for each method it uses, once, before
//! the first solve: each table is read from the table directory, or built and written there
//! (cube-tables' `load_or_build`), and the payloads are installed.

use std::path::Path;

use cube_tables::{CacheOutcome, TableError, TableSpec, load_or_build_with_outcome};

use crate::beginner::cross;
use crate::{thistlethwaite, two_phase};

/// The distance tables of one method: their specs, how to build them, and how to install them.
#[derive(Clone, Copy)]
pub struct SmallTables {
    /// The method, as the command line names it: `two-phase`, `thistlethwaite`, or `cross`
    /// (the cross tables of the beginner's method and CFOP).
    pub method: &'static str,
    /// One spec per table, in the order of the payloads.
    pub specs: &'static [TableSpec],
    payload: fn(usize) -> Vec<u8>,
    install: fn(Vec<Vec<u8>>) -> bool,
}

impl std::fmt::Debug for SmallTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmallTables")
            .field("method", &self.method)
            .field("specs", &self.specs)
            .finish_non_exhaustive()
    }
}

impl SmallTables {
    /// The payload of table `index` (of [`SmallTables::specs`]), built in memory: the first call
    /// builds and installs all of the method's tables, as a first solve would.
    ///
    /// # Panics
    /// When `index` is out of range.
    pub fn build(&self, index: usize) -> Vec<u8> {
        (self.payload)(index)
    }

    /// Installs the method's tables from one payload per spec, read from a cache, before first
    /// use. Returns `false` (and drops them) when the tables are already in place or a payload is
    /// unsound; the method then uses the tables it has or builds.
    pub fn install(&self, payloads: Vec<Vec<u8>>) -> bool {
        (self.install)(payloads)
    }

    /// Reads the method's tables from the table directory `dir`, building and writing each one
    /// that is missing, stale or corrupt, and installs them. Says how many were built and whether
    /// each of those was written back (so that a caller says "cached" only when it was).
    ///
    /// # Errors
    /// The first table that could be neither read nor written (see cube-tables'
    /// `load_or_build`); the solver then builds its tables in memory on first use.
    pub fn load_or_build(&self, dir: &Path) -> Result<SmallOutcome, TableError> {
        let mut outcome = SmallOutcome {
            built: 0,
            not_written: None,
        };
        let payloads = self
            .specs
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let (payload, cached) = load_or_build_with_outcome(dir, spec, || self.build(i))?;
                match cached {
                    CacheOutcome::Loaded => {}
                    CacheOutcome::Written => outcome.built += 1,
                    CacheOutcome::NotWritten(e) => {
                        outcome.built += 1;
                        outcome.not_written.get_or_insert(e);
                    }
                }
                Ok(payload)
            })
            .collect::<Result<Vec<_>, TableError>>()?;
        // A table built here is already installed, and `install` then refuses the payloads.
        self.install(payloads);
        Ok(outcome)
    }
}

/// What [`SmallTables::load_or_build`] did.
#[derive(Debug)]
pub struct SmallOutcome {
    /// How many tables were built (missing, stale or corrupt in the directory).
    pub built: usize,
    /// The error of the first built table that could not be written back, if any.
    pub not_written: Option<TableError>,
}

/// The methods whose tables are small enough to build on first use and worth caching.
pub fn small_tables() -> [SmallTables; 3] {
    [
        SmallTables {
            method: "two-phase",
            specs: &two_phase::TABLE_SPECS,
            payload: |index| two_phase::table_payloads()[index].to_vec(),
            install: |payloads| payloads.try_into().is_ok_and(two_phase::install_tables),
        },
        SmallTables {
            method: "thistlethwaite",
            specs: &thistlethwaite::TABLE_SPECS,
            payload: |index| thistlethwaite::tables().payloads()[index].1.to_vec(),
            install: |payloads| {
                payloads
                    .try_into()
                    .ok()
                    .and_then(thistlethwaite::Tables::from_payloads)
                    .is_some_and(thistlethwaite::install_tables)
            },
        },
        SmallTables {
            method: "cross",
            specs: &cross::TABLE_SPECS,
            payload: cross::table_payload,
            install: cross::install_tables,
        },
    ]
}
