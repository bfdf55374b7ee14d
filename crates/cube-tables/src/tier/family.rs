//! [`TierFamily`]: what a family of optimal tiers does for its tiers (its tables, its bake under
//! the directory's lock, the full check of its tables, the files it leaves), with one impl in each
//! family's folder; and what every family shares: one [`BakeOptions`], family-neutral
//! [`BakeView`], the [`SpotCheck`] of a full check. Below the families, as the catalogue is:
//! `tier.rs` dispatches a tier to its family's impl ([`super::family()`]).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::file::bake::{BakeReport, LevelStats};
use crate::file::error::TableError;
use crate::file::format::Histogram;
use crate::file::id::{TableId, TableSpec, Tier};
use crate::file::lock::BakeLock;
use crate::file::mmap::Anonymous;
use crate::file::table::PruneTable;

/// What a family of optimal tiers does for its tiers. `tier.rs` asks the family of a tier's row
/// ([`Tier::family`]) for it; nothing else matches on the family.
pub trait TierFamily: Sync {
    /// The family's name in messages: `Korf`, `H48`, `nx`.
    fn name(&self) -> &'static str;

    /// The name of the method that searches the family's tiers: `Korf`, `sym48`, `nx`.
    fn method(&self) -> &'static str;

    /// What a message calls a tier's tables, with the verb: `pattern databases are` (Korf's),
    /// `table is` (an H48 or nx tier's).
    fn tables_are(&self) -> &'static str;

    /// The family's own tables of `tier` (the corner database, which every tier has, aside).
    fn tables(&self, tier: Tier) -> Vec<TableSpec>;

    /// Bakes the own tables of `tiers` (tiers of this family, each once, the corner database
    /// baked) under `lock`, the writers' lock of the table directory, skipping those baked and
    /// sound unless `options.force`; one [`Baked`] per table, telling `view` as it goes.
    ///
    /// # Errors
    ///
    /// The family's bake errors: `Io`, `NoSpace`, `HistogramMismatch`, `InvalidInput`.
    fn bake(
        &self,
        lock: &BakeLock,
        tiers: &[Tier],
        options: &BakeOptions,
        view: &dyn BakeView,
    ) -> Result<Vec<Baked>, TableError>;

    /// The full check of `table`, one of its tables read with its spec and hashed: its histograms
    /// (and for a pattern database its entries, as `spot` says, reported).
    ///
    /// # Errors
    ///
    /// `HistogramMismatch`, `InvalidInput` for an entry that breaks the family's law.
    fn verify(
        &self,
        table: &PruneTable<Anonymous>,
        spot: &SpotCheck,
    ) -> Result<Option<VerifyReport>, TableError>;

    /// What [`list_files`](super::list_files) calls the family's table files.
    fn file_kind(&self) -> FileKind;

    /// The ids of the files a bake of `tier` leaves beside its tables (a scratch shared by several
    /// tiers' pass), which [`clean`](super::clean()) of `tier` removes.
    fn scratch_ids(&self, _tier: Tier) -> &'static [&'static str] {
        &[]
    }

    /// Installs the seed of its table `spec` in `dir` when the table file is missing (the Korf
    /// tables have seeds); nothing for a family without seeds.
    ///
    /// # Errors
    ///
    /// The errors of reading the seed and writing the table.
    fn install_seed(&self, _dir: &Path, _spec: &TableSpec) -> Result<(), TableError> {
        Ok(())
    }

    /// The seed of its table at `path`, when the family packs seeds.
    fn seed_path(&self, _path: &Path) -> Option<PathBuf> {
        None
    }

    /// Packs the seed of its table `spec` in `dir`; `None` for a family without seeds.
    ///
    /// # Errors
    ///
    /// The errors of reading the table and writing the seed.
    fn pack_seed(&self, _dir: &Path, _spec: &TableSpec) -> Result<Option<PathBuf>, TableError> {
        Ok(None)
    }
}

/// Runs `f` on a rayon pool of `threads` threads (all cores for `None`): bakes and checks use all of
/// the pool they run on.
///
/// # Errors
///
/// `Io` when the pool cannot be built (no threads could be spawned).
pub fn with_threads<R: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> R + Send,
) -> Result<R, TableError> {
    let Some(threads) = threads else {
        return Ok(f());
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| TableError::io("starting the worker threads", std::io::Error::other(e)))?;
    Ok(pool.install(f))
}

/// One table that a bake baked or found baked.
#[derive(Clone, Debug)]
pub struct Baked {
    /// The table.
    pub id: TableId,
    /// The tier it was baked for (the first one asked for that needs it).
    pub tier: Tier,
    /// What the bake did.
    pub report: BakeReport,
}

/// What follows a bake as it goes, whatever the family (a front end's progress bars and notes):
/// each family says once what it bakes for a tier (or a pass over several), then each search's
/// levels. Every method does nothing by default; `()` follows nothing.
pub trait BakeView: Sync {
    /// The bake of `tiers`' own tables starts: `what` names them in a message ("the 6edge pattern
    /// databases", "the H48 tables of h0 with the corner database", "the nx-eo1ep1 table").
    fn started(&self, tiers: &[Tier], what: &str) {
        let _ = (tiers, what);
    }

    /// A search starts: `name` (a table id, or a pass's) over `cells` cells (`None`: not known
    /// ahead).
    fn search(&self, name: &str, cells: Option<u64>) {
        let _ = (name, cells);
    }

    /// Progress inside a level, in words.
    fn work(&self, work: &dyn fmt::Display) {
        let _ = work;
    }

    /// A level of the search `name` over `cells` cells is done.
    fn level(&self, name: &str, cells: Option<u64>, stats: &LevelStats) {
        let _ = (name, cells, stats);
    }

    /// The search `name` is over (written, skipped or failed); `line` says how, when it has words.
    fn finished(&self, name: &str, line: Option<&dyn fmt::Display>) {
        let _ = (name, line);
    }
}

/// Follows nothing.
impl BakeView for () {}

/// Where the byte-per-entry scratch of a bake lives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScratchKind {
    /// A file `<dir>/<id>.scratch`, mapped: the kernel pages it, so the bake needs no RAM of its own
    /// beyond the page cache.
    #[default]
    File,
    /// Anonymous memory: faster when the table fits in RAM, as it never writes dirty pages back.
    Memory,
}

/// The options of every bake: [`tier::bake`](super::bake), and each family's own bakes.
#[derive(Clone, Debug)]
pub struct BakeOptions {
    /// Where the scratch lives.
    pub scratch: ScratchKind,
    /// Bake even when a valid table is present.
    pub force: bool,
    /// Wait for another bake or clean of the directory rather than fail with `Locked`.
    pub wait_for_lock: bool,
    /// A level runs the backward pass when `unassigned < backward_factor * frontier`; `None` for the
    /// measured defaults, `pdb::CORNER_BACKWARD_FACTOR` and `pdb::EDGE_BACKWARD_FACTOR`.
    pub backward_factor: Option<f64>,
    /// h4..h7: also count the G11 cosets at depth 11, which the H48 pass streams without storing,
    /// and check the count against nissy-core's 12,045,845,660 (a row bitmap write per transition:
    /// slower).
    pub count_last_level: bool,
}

impl Default for BakeOptions {
    fn default() -> BakeOptions {
        BakeOptions {
            // File-backed scratch needs a map; without the `mmap` feature the scratch is in memory.
            scratch: if cfg!(feature = "mmap") {
                ScratchKind::File
            } else {
                ScratchKind::Memory
            },
            force: false,
            wait_for_lock: false,
            backward_factor: None,
            count_last_level: false,
        }
    }
}

/// How many entries `pdb::verify_table` spot-checks.
#[derive(Clone, Debug)]
pub struct SpotCheck {
    /// Uniformly random entries checked against their 18 neighbours.
    pub n_random: usize,
    /// Random walks of 0 to 6 moves from the goal whose entry (when at most 5) is checked against an
    /// independent search.
    pub n_walks: usize,
    /// The seed of the sample.
    pub seed: u64,
}

impl Default for SpotCheck {
    fn default() -> SpotCheck {
        SpotCheck {
            n_random: 4000,
            n_walks: 200,
            seed: 0x5EED_CAFE,
        }
    }
}

/// What `pdb::verify_table` checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// The histogram (equal to the header's and the published one).
    pub histogram: Histogram,
    /// Entries checked against their neighbours.
    pub n_local: usize,
    /// Entries checked against an independent search.
    pub n_searched: usize,
}

/// What a file of a table directory is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A pattern database of the Korf tiers or the table of an nx tier (`korf-corners` also
    /// serves the H48 and nx tiers).
    PatternDatabase,
    /// The table of an H48 tier.
    H48Table,
    /// A method's small table, cached (two-phase, Thistlethwaite, cross, ...).
    MethodCache,
    /// A compressed table for distribution (`<file>.zst`), installed on first load.
    Seed,
    /// The record of a full check of a table (`<file>.checked`).
    Stamp,
    /// The scratch file of a bake, left by a killed one (`<id>.scratch`).
    Scratch,
    /// A write in progress, or one that was killed (`.<name>.<pid>-<n>.tmp`).
    Temporary,
    /// A per-table lock file of an older version (`<file>.lock`, `<id>.bake.lock`).
    StaleLock,
    /// xtask's per-level log of its bakes (`bake.log`).
    BakeLog,
    /// One of the two persistent lock files (`.bake.lock`, `.lock`); never removed.
    Lock,
}
