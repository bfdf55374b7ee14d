//! What a method's family of tables is: its table specs, how it is built in memory, its payloads
//! by table id, how it is restored from payloads and checked, and [`load_or_build`], the one way
//! a binary caches any family in a table directory.
//!
//! This is nissy-core's solver dispatch (`src/solvers/dispatch.h`: a solver's data id, its
//! `gendata`, `checkdata` and `solve`) in Rust: each method names its tables by
//! [`MethodTables`], and its solver is handed them (`TwoPhase::new(tables)`), an
//! [`Arc`] that the caller owns and may share between solvers and threads. The libraries keep no
//! table in a process-wide global: a cache for the whole process, where one is wanted, lives in
//! the binary.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use cube_tables::{
    CacheOutcome, Cached, PruneTable, TableError, TableId, TableSpec, WriteOptions, histogram,
    load_or_build_with_outcome, write_table,
};

/// A method's family of tables, described for building, caching and checking.
///
/// Implemented by [`TwoPhaseTables`](crate::two_phase::TwoPhaseTables),
/// [`ThistlethwaiteTables`](crate::thistlethwaite::ThistlethwaiteTables),
/// [`CrossTables`](crate::beginner::CrossTables), and
/// [`BeginnerTables`](crate::beginner::BeginnerTables) and [`CfopTables`](crate::cfop::CfopTables)
/// (whose payloads are the cross tables, the same files, and which rebuild the rest). The pattern
/// databases of the optimal solvers are not such a family: a tier is gigabytes baked once by
/// `cargo xtask bake-tables` (cube-tables' `pdb::bake_tier`) and read or mapped by
/// [`PdbSet`](crate::PdbSet), never built on a solver's first use.
///
/// ```
/// use cube_solvers::{MethodTables, Payloads, thistlethwaite::ThistlethwaiteTables};
///
/// let tables = ThistlethwaiteTables::build();
/// // Every payload by its table id, and back (each one checked).
/// let restored = ThistlethwaiteTables::from_payloads(Payloads::of(&tables))?;
/// for spec in ThistlethwaiteTables::SPECS {
///     assert_eq!(tables.payload(spec.id), restored.payload(spec.id));
/// }
/// # Ok::<(), cube_solvers::PayloadError>(())
/// ```
pub trait MethodTables: Sized + Send + Sync + 'static {
    /// The family, as the command line names it: `two-phase`, `thistlethwaite`, `cross`,
    /// `beginner` or `cfop`.
    const NAME: &'static str;

    /// One spec per table that [`MethodTables::payload`] hands out, by table id.
    const SPECS: &'static [TableSpec];

    /// Builds every table in memory (what [`load_or_build`] writes to a table directory).
    fn build() -> Self;

    /// The payload of table `id` (one of [`MethodTables::SPECS`]), `None` for any other id; the
    /// tables [`MethodTables::build`] makes have every one.
    fn payload(&self, id: TableId) -> Option<&[u8]>;

    /// The tables from one payload per spec, each checked (its length, then what the family
    /// knows of its content: distances in range, the goal at 0, a histogram), the tables that are
    /// not payloads rebuilt (move tables, symmetry classes: milliseconds).
    ///
    /// # Errors
    /// A payload missing, unexpected (an id not in [`MethodTables::SPECS`]), of the wrong length,
    /// or unsound.
    fn from_payloads(payloads: Payloads) -> Result<Self, PayloadError>;
}

/// Payloads by table id, for [`MethodTables::from_payloads`]: bytes handed in, or tables read from
/// their files (whose headers' histograms the file checks proved, so they are not counted again).
#[derive(Clone, Debug, Default)]
pub struct Payloads(Vec<(TableId, Payload)>);

/// One payload of [`Payloads`].
#[derive(Clone, Debug)]
enum Payload {
    /// Bytes, their length not checked yet.
    Bytes(Vec<u8>),
    /// A table from its file, checked ([`load_or_build_with_outcome`]).
    Table(Box<PruneTable<Cached>>),
}

impl Payload {
    fn bytes(&self) -> &[u8] {
        match self {
            Payload::Bytes(bytes) => bytes,
            Payload::Table(table) => table.payload(),
        }
    }
}

impl Payloads {
    /// No payloads.
    pub fn new() -> Payloads {
        Payloads::default()
    }

    /// A copy of every payload that `tables` hands out.
    pub fn of<T: MethodTables>(tables: &T) -> Payloads {
        let mut payloads = Payloads::new();
        for spec in T::SPECS {
            if let Some(payload) = tables.payload(spec.id) {
                payloads.insert(spec.id, payload.to_vec());
            }
        }
        payloads
    }

    /// Adds the payload of table `id`, returning the bytes of the one it replaces.
    pub fn insert(&mut self, id: TableId, payload: Vec<u8>) -> Option<Vec<u8>> {
        self.put(id, Payload::Bytes(payload))
            .map(|old| old.bytes().to_vec())
    }

    /// Adds a table read from its file.
    fn insert_table(&mut self, table: PruneTable<Cached>) {
        self.put(table.id(), Payload::Table(Box::new(table)));
    }

    fn put(&mut self, id: TableId, payload: Payload) -> Option<Payload> {
        match self.0.iter_mut().find(|(have, _)| *have == id) {
            Some((_, old)) => Some(std::mem::replace(old, payload)),
            None => {
                self.0.push((id, payload));
                None
            }
        }
    }

    /// The payload of table `id`, if there is one.
    pub fn get(&self, id: TableId) -> Option<&[u8]> {
        self.0
            .iter()
            .find(|(have, _)| *have == id)
            .map(|(_, payload)| payload.bytes())
    }

    /// The ids of the payloads, in the order they were inserted.
    pub fn ids(&self) -> impl Iterator<Item = TableId> + '_ {
        self.0.iter().map(|(id, _)| *id)
    }

    /// Takes the payload of `spec`, checking its length.
    ///
    /// # Errors
    /// [`PayloadError::Missing`] or [`PayloadError::Length`].
    pub fn take(&mut self, spec: &TableSpec) -> Result<Vec<u8>, PayloadError> {
        Ok(self.take_table(spec)?.into_memory().into_inner())
    }

    /// Takes the payload of `spec` as the table of its spec, checking its length: a table read
    /// from its file as it is (mapped, when it was), bytes with their histogram counted and their
    /// hash computed ([`PruneTable::from_payload`]).
    ///
    /// # Errors
    /// [`PayloadError::Missing`] or [`PayloadError::Length`].
    pub fn take_table(&mut self, spec: &TableSpec) -> Result<PruneTable<Cached>, PayloadError> {
        let index = self
            .0
            .iter()
            .position(|(id, _)| *id == spec.id)
            .ok_or(PayloadError::Missing { id: spec.id })?;
        let (_, payload) = self.0.swap_remove(index);
        let found = payload.bytes().len() as u64;
        if found != spec.payload_len() {
            return Err(PayloadError::Length {
                id: spec.id,
                expected: spec.payload_len(),
                found,
            });
        }
        Ok(match payload {
            Payload::Table(table) => *table,
            Payload::Bytes(bytes) => PruneTable::from_payload(spec, bytes)
                .expect("the length was checked")
                .into_cached(),
        })
    }

    /// Takes one payload per spec of `specs`, checking their lengths, each as the table of its
    /// spec in memory ([`Payloads::take_table`]); any payload left over is
    /// [`PayloadError::Unexpected`].
    ///
    /// # Errors
    /// The first payload missing, of the wrong length, or left over.
    pub fn take_all<const N: usize>(
        mut self,
        specs: &[TableSpec; N],
    ) -> Result<[PruneTable<Vec<u8>>; N], PayloadError> {
        let mut taken = Vec::with_capacity(N);
        for spec in specs {
            taken.push(self.take_table(spec)?.into_memory());
        }
        if let Some(id) = self.ids().next() {
            return Err(PayloadError::Unexpected { id });
        }
        Ok(taken.try_into().expect("one payload was taken per spec"))
    }
}

/// Why [`MethodTables::from_payloads`] refused payloads.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PayloadError {
    /// No payload for this table of the family.
    Missing {
        /// The table.
        id: TableId,
    },
    /// A payload for a table the family does not have.
    Unexpected {
        /// The id given.
        id: TableId,
    },
    /// A payload of the wrong length.
    Length {
        /// The table.
        id: TableId,
        /// Its payload length in bytes.
        expected: u64,
        /// The length given.
        found: u64,
    },
    /// A payload of the right length whose content the table cannot have.
    Unsound {
        /// The table.
        id: TableId,
        /// What is wrong, such as `an unreached state`.
        why: &'static str,
    },
}

impl fmt::Display for PayloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PayloadError::Missing { id } => write!(f, "table {id}: no payload given"),
            PayloadError::Unexpected { id } => {
                write!(f, "table {id}: not a table of this method")
            }
            PayloadError::Length {
                id,
                expected,
                found,
            } => write!(
                f,
                "table {id}: payload of {found} bytes, expected {expected}"
            ),
            PayloadError::Unsound { id, why } => write!(f, "table {id}: unsound payload: {why}"),
        }
    }
}

impl std::error::Error for PayloadError {}

/// What [`load_or_build`] did, with the tables.
#[derive(Debug)]
pub struct Loaded<T> {
    /// The tables, to hand to solvers.
    pub tables: Arc<T>,
    /// How many tables were built (missing, stale or corrupt in the directory); 0 when every
    /// one was read.
    pub built: usize,
    /// The error of the first built table that could not be written back, if any (the next
    /// run builds it again).
    pub not_written: Option<TableError>,
}

/// The tables of family `T` from the table directory `dir`: every table file is read and checked
/// completely (cube-tables' `load_or_build`); when one is missing, stale or corrupt, the family is
/// built in memory once and each such table is written back. Files that pass the file checks but
/// whose payloads the family refuses or does not build (written by an incompatible build) are
/// rewritten from the built tables too, so the next call reads them all.
///
/// # Errors
/// Only a generator bug (a built payload of the wrong length); a directory that cannot be read or
/// written only makes the tables built (see [`Loaded::not_written`]).
pub fn load_or_build<T: MethodTables>(dir: &Path) -> Result<Loaded<T>, TableError> {
    load_or_build_with(dir, T::build)
}

/// [`load_or_build`], building the family with `build` (which must build what
/// [`MethodTables::build`] does: the same tables, reporting progress, say) when it is built.
///
/// # Errors
/// As [`load_or_build`].
pub fn load_or_build_with<T: MethodTables>(
    dir: &Path,
    build: impl FnOnce() -> T,
) -> Result<Loaded<T>, TableError> {
    let mut build = Some(build);
    let mut build_once = || build.take().map_or_else(T::build, |build| build());
    let mut built: Option<T> = None;
    let mut loaded = Payloads::new();
    let mut outcome = Counts {
        built: 0,
        not_written: None,
    };
    for spec in T::SPECS {
        let (table, cached) = load_or_build_with_outcome(dir, spec, || {
            built
                .get_or_insert_with(&mut build_once)
                .payload(spec.id)
                .expect("a family hands out the payload of each of its specs")
                .to_vec()
        })?;
        match cached {
            CacheOutcome::Loaded => loaded.insert_table(table),
            CacheOutcome::Written => outcome.built += 1,
            CacheOutcome::NotWritten(e) => {
                outcome.built += 1;
                outcome.not_written.get_or_insert(e);
            }
        }
    }
    let tables = match built {
        None => match T::from_payloads(loaded) {
            Ok(tables) => tables,
            Err(_) => {
                let tables = build_once();
                outcome.rewrite(dir, &tables, None);
                tables
            }
        },
        Some(tables) => {
            outcome.rewrite(dir, &tables, Some(&loaded));
            tables
        }
    };
    Ok(Loaded {
        tables: Arc::new(tables),
        built: outcome.built,
        not_written: outcome.not_written,
    })
}

/// What [`load_or_build`] counts as it goes.
struct Counts {
    built: usize,
    not_written: Option<TableError>,
}

impl Counts {
    /// Writes the tables of `tables` to `dir`, counting each as built: every one (`read` is
    /// `None`), or those whose payload differs from the one read (in `read`).
    fn rewrite<T: MethodTables>(&mut self, dir: &Path, tables: &T, read: Option<&Payloads>) {
        for spec in T::SPECS {
            let payload = tables
                .payload(spec.id)
                .expect("a family hands out the payload of each of its specs");
            if read.is_some_and(|read| read.get(spec.id).is_none_or(|old| old == payload)) {
                continue;
            }
            self.built += 1;
            let histogram = histogram(payload, spec.encoding, spec.n_entries);
            if let Err(e) = write_table(dir, spec, &histogram, payload, &WriteOptions::new()) {
                self.not_written.get_or_insert(e);
            }
        }
    }
}
