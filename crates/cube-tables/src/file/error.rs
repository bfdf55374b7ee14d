//! `TableError`: everything that can go wrong while finding, writing, opening or verifying a table file.
//!
//! The error is an opaque struct around a private kind, like regex-automata's `DeserializeError` in
//! `src/util/wire.rs`, so that new kinds can be added without a breaking change. Callers branch on
//! [`TableError::kind`], which returns the fieldless [`TableErrorKind`].
//!
//! Every message is lowercase, names the table and the file, and ends with what to do about it:
//! `table korf-edges-7a (/t/korf-edges-7a.v1.tbl): format version 2, expected 1 (re-run
//! cube_tables::tier::bake for tier 7edge)`. The fix is the [`Fix`] of the table's
//! [`TableSpec`](crate::TableSpec), carried by the error with the table's tier
//! ([`TableError::fix`]): `Display` words it in the library's functions, and a program in its own
//! commands ([`TableError::message`] with its [`FixCommands`]: `re-run cube-cli tables bake
//! --tier 7edge`).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::file::id::{Fix, FixCommands, TableId, Tier};

/// An error from finding, writing, opening or verifying a table file.
///
/// Use [`TableError::kind`] to branch on what went wrong, and `Display` to show it to a user.
#[derive(Debug)]
pub struct TableError(Box<Inner>);

/// Boxed, so that `Result<T, TableError>` stays one pointer wider than `T`.
#[derive(Debug)]
struct Inner {
    kind: Kind,
    table: Option<TableId>,
    path: Option<PathBuf>,
    /// The tier of `table`.
    tier: Option<Tier>,
    /// What to do about it, when the message ends with that.
    fix: Option<Fix>,
}

/// The category of a [`TableError`], returned by [`TableError::kind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TableErrorKind {
    /// The table file does not exist.
    Missing,
    /// The file ends before the payload its header announces.
    Truncated,
    /// The file is shorter than the fixed header.
    TooShortForHeader,
    /// The file does not start with the cube-tables label: it is some other kind of file.
    BadMagic,
    /// The file was written on a machine of the other byte order.
    EndianMismatch,
    /// The file was written by another format version.
    VersionMismatch,
    /// The file holds another table than the one asked for.
    IdMismatch,
    /// The file holds the table for another tier.
    TierMismatch,
    /// The file stores its entries in another encoding than the one asked for.
    EncodingMismatch,
    /// The header's own checksum does not match: the header is corrupt.
    HeaderChecksum,
    /// The header checksum matches, but a header field holds a value that this version does not know.
    BadHeader,
    /// The entry count, the payload length and the file size disagree.
    LengthMismatch,
    /// The payload hash recomputed by `verify` does not match the header: the payload is corrupt.
    PayloadHash,
    /// The depth histogram recomputed by `verify` does not match the header or the expected one.
    HistogramMismatch,
    /// Another bake or clean holds the writers' lock of the table directory (`.bake.lock`).
    Locked,
    /// A table id is not a valid, filename-safe id.
    InvalidId,
    /// The caller passed inconsistent arguments (payload length, histogram, entry count).
    InvalidInput,
    /// No table directory could be found: there is no `--tables`, no `CUBE_TABLES_DIR` and no cache dir.
    NoTableDir,
    /// The table directory cannot be one: a file, a device, a symbolic link that leads nowhere or
    /// in a loop, a path through a file, or a directory this user cannot read.
    BadTableDir,
    /// A directory, a FIFO, a device, a socket or a symbolic-link loop is where a file should be.
    NotAFile,
    /// The file exists but this user may not read (or write) it.
    PermissionDenied,
    /// The file system has less free space than a bake needs (checked before it starts).
    NoSpace,
    /// An operating system error, with context.
    Io,
}

/// The private kind, with the data each message needs.
#[derive(Debug)]
pub(crate) enum Kind {
    Missing,
    Truncated {
        payload_len: u64,
        available: u64,
    },
    TooShortForHeader {
        file_len: u64,
        header_len: u64,
    },
    BadMagic,
    EndianMismatch,
    VersionMismatch {
        expected: u32,
        found: u32,
    },
    IdMismatch {
        found: String,
    },
    TierMismatch {
        expected: Option<Tier>,
        found: Option<Tier>,
    },
    EncodingMismatch {
        expected: String,
        found: String,
    },
    HeaderChecksum {
        stored: u64,
        computed: u64,
    },
    BadHeader {
        what: String,
    },
    LengthMismatch {
        what: String,
    },
    PayloadHash {
        stored: u64,
        computed: u64,
    },
    HistogramMismatch {
        depth: usize,
        found: u64,
        expected: u64,
        against: &'static str,
    },
    Locked,
    InvalidId {
        id: String,
        why: &'static str,
    },
    InvalidInput {
        what: String,
    },
    /// An entry of a payload that breaks the law of its table (public kind `InvalidInput`; unlike
    /// that one, the table's fix ends its message).
    BadEntry {
        what: String,
    },
    NoTableDir,
    BadTableDir {
        why: String,
    },
    NotAFile {
        what: &'static str,
    },
    PermissionDenied,
    NoSpace {
        needed: u64,
        available: u64,
    },
    Io {
        context: &'static str,
        source: io::Error,
    },
}

impl Inner {
    /// Whether the message should end with the table's `fix`: yes for a missing or bad file, and
    /// for a full disk while baking (a cache that cannot be written is only built again).
    fn wants_fix(&self, fix: &Fix) -> bool {
        if self.storage_full() {
            return matches!(fix, Fix::Bake | Fix::BakeAnyTier);
        }
        !matches!(
            self.kind,
            Kind::Io { .. }
                | Kind::Locked
                | Kind::InvalidId { .. }
                | Kind::InvalidInput { .. }
                | Kind::NoTableDir
                | Kind::BadTableDir { .. }
        )
    }

    /// Whether the disk was full.
    fn storage_full(&self) -> bool {
        matches!(&self.kind, Kind::Io { source, .. } if source.kind() == io::ErrorKind::StorageFull)
    }
}

impl TableError {
    pub(crate) fn new(kind: Kind) -> TableError {
        TableError(Box::new(Inner {
            kind,
            table: None,
            path: None,
            tier: None,
            fix: None,
        }))
    }

    pub(crate) fn io(context: &'static str, source: io::Error) -> TableError {
        if source.kind() == io::ErrorKind::NotFound && context == OPENING {
            return TableError::new(Kind::Missing);
        }
        TableError::new(Kind::Io { context, source })
    }

    /// Attaches the table, file and fix unless they are already set.
    pub(crate) fn at(
        mut self,
        table: TableId,
        path: &Path,
        fix: &Fix,
        tier: Option<Tier>,
    ) -> TableError {
        let inner = &mut *self.0;
        if inner.table.is_none() {
            inner.table = Some(table);
            inner.tier = tier;
        }
        if inner.path.is_none() {
            inner.path = Some(path.to_path_buf());
        }
        if inner.fix.is_none() && inner.wants_fix(fix) {
            inner.fix = Some(*fix);
        }
        self
    }

    pub(crate) fn with_path(mut self, path: &Path) -> TableError {
        self.0.path = Some(path.to_path_buf());
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> TableErrorKind {
        match self.0.kind {
            Kind::Missing => TableErrorKind::Missing,
            Kind::Truncated { .. } => TableErrorKind::Truncated,
            Kind::TooShortForHeader { .. } => TableErrorKind::TooShortForHeader,
            Kind::BadMagic => TableErrorKind::BadMagic,
            Kind::EndianMismatch => TableErrorKind::EndianMismatch,
            Kind::VersionMismatch { .. } => TableErrorKind::VersionMismatch,
            Kind::IdMismatch { .. } => TableErrorKind::IdMismatch,
            Kind::TierMismatch { .. } => TableErrorKind::TierMismatch,
            Kind::EncodingMismatch { .. } => TableErrorKind::EncodingMismatch,
            Kind::HeaderChecksum { .. } => TableErrorKind::HeaderChecksum,
            Kind::BadHeader { .. } => TableErrorKind::BadHeader,
            Kind::LengthMismatch { .. } => TableErrorKind::LengthMismatch,
            Kind::PayloadHash { .. } => TableErrorKind::PayloadHash,
            Kind::HistogramMismatch { .. } => TableErrorKind::HistogramMismatch,
            Kind::Locked => TableErrorKind::Locked,
            Kind::InvalidId { .. } => TableErrorKind::InvalidId,
            Kind::InvalidInput { .. } | Kind::BadEntry { .. } => TableErrorKind::InvalidInput,
            Kind::NoTableDir => TableErrorKind::NoTableDir,
            Kind::BadTableDir { .. } => TableErrorKind::BadTableDir,
            Kind::NotAFile { .. } => TableErrorKind::NotAFile,
            Kind::PermissionDenied => TableErrorKind::PermissionDenied,
            Kind::NoSpace { .. } => TableErrorKind::NoSpace,
            Kind::Io { .. } => TableErrorKind::Io,
        }
    }

    /// The file the error is about, when there is one (for [`TableErrorKind::Locked`], the lock file).
    pub fn path(&self) -> Option<&Path> {
        self.0.path.as_deref()
    }

    /// The table the error is about, when there is one.
    pub fn table_id(&self) -> Option<TableId> {
        self.0.table
    }

    /// The tier of the table the error is about, when it has one.
    pub fn tier(&self) -> Option<Tier> {
        self.0.tier
    }

    /// What the user should do about it, when the message ends with that (a missing or bad file,
    /// a full disk during a bake): the fix of the table's spec, for the table's [`tier`](Self::tier).
    pub fn fix(&self) -> Option<Fix> {
        self.0.fix
    }

    /// The message with its fix in `commands`' words: what a program shows its user (`Display`
    /// is this in [`FixCommands::LIBRARY`]'s words).
    ///
    /// ```
    /// use cube_tables::{FixCommands, TableErrorKind, TableSpec, Tier};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let spec = cube_tables::tier::specs(Tier::Edge7)[1];
    /// let e = cube_tables::check_header(&spec.path_in(dir.path()), &spec).unwrap_err();
    /// assert_eq!(e.kind(), TableErrorKind::Missing);
    /// assert!(e.to_string().ends_with("(re-run cube_tables::tier::bake for tier 7edge)"));
    /// let cli = FixCommands { bake: "cube-cli tables bake --tier {tier}" };
    /// assert!(e.message(&cli).ends_with("file not found (re-run cube-cli tables bake --tier 7edge)"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn message(&self, commands: &FixCommands) -> String {
        struct Worded<'a>(&'a TableError, &'a FixCommands);
        impl fmt::Display for Worded<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write(f, self.1)
            }
        }
        Worded(self, commands).to_string()
    }

    /// For [`TableErrorKind::VersionMismatch`], the `(expected, found)` format versions.
    pub fn version_mismatch(&self) -> Option<(u32, u32)> {
        match self.0.kind {
            Kind::VersionMismatch { expected, found } => Some((expected, found)),
            _ => None,
        }
    }
}

/// The context used when opening a file for reading; a `NotFound` there means [`TableErrorKind::Missing`].
pub(crate) const OPENING: &str = "opening";

/// The checked constructor of [`TableId`], here beside the error it fails with (so that `id.rs`,
/// which this module uses, uses nothing of it).
impl TableId {
    /// Makes an id from a string, checking it.
    ///
    /// # Errors
    ///
    /// [`TableErrorKind::InvalidId`] when `id` is empty, longer than 32
    /// bytes, or holds anything but lowercase ASCII letters, digits and `-`.
    pub fn new(id: &str) -> Result<TableId, TableError> {
        TableId::parse(id.as_bytes()).map_err(|why| {
            TableError::new(Kind::InvalidId {
                id: id.to_string(),
                why,
            })
        })
    }
}

impl FromStr for TableId {
    type Err = TableError;

    fn from_str(s: &str) -> Result<TableId, TableError> {
        TableId::new(s)
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, &FixCommands::LIBRARY)
    }
}

impl TableError {
    /// The message, its fix in `commands`' words.
    fn write(&self, f: &mut fmt::Formatter<'_>, commands: &FixCommands) -> fmt::Result {
        let TableError(inner) = self;
        let fix = inner.fix.map(|fix| fix.words(inner.tier, commands));
        match (&inner.table, &inner.path) {
            (Some(table), Some(path)) => write!(f, "table {table} ({}): ", path.display())?,
            (Some(table), None) => write!(f, "table {table}: ")?,
            (None, Some(path)) => write!(f, "{}: ", path.display())?,
            (None, None) => {}
        }
        match &inner.kind {
            Kind::Missing => write!(f, "file not found")?,
            Kind::Truncated {
                payload_len,
                available,
            } => write!(
                f,
                "file is truncated: the header announces a {payload_len}-byte payload, the file holds {available}"
            )?,
            Kind::TooShortForHeader {
                file_len,
                header_len,
            } => write!(
                f,
                "file is {file_len} bytes, shorter than the {header_len}-byte header"
            )?,
            Kind::BadMagic => write!(f, "not a cube table file (no cube-tables label)")?,
            Kind::EndianMismatch => write!(
                f,
                "file was written on a machine of the other byte order (this machine is {}-endian)",
                if cfg!(target_endian = "little") {
                    "little"
                } else {
                    "big"
                }
            )?,
            Kind::VersionMismatch { expected, found } => {
                write!(f, "format version {found}, expected {expected}")?
            }
            Kind::IdMismatch { found } => write!(f, "file holds table {found:?}")?,
            Kind::TierMismatch { expected, found } => write!(
                f,
                "file holds tier {}, expected {}",
                TierName(*found),
                TierName(*expected)
            )?,
            Kind::EncodingMismatch { expected, found } => {
                write!(f, "entries are encoded as {found}, expected {expected}")?
            }
            Kind::HeaderChecksum { stored, computed } => write!(
                f,
                "header checksum {computed:#018x} does not match the stored {stored:#018x}: the header is corrupt"
            )?,
            Kind::BadHeader { what } => write!(f, "bad header: {what}")?,
            Kind::LengthMismatch { what } => write!(f, "{what}")?,
            Kind::PayloadHash { stored, computed } => write!(
                f,
                "payload hash {computed:#018x} does not match the header's {stored:#018x}: the payload is corrupt"
            )?,
            Kind::HistogramMismatch {
                depth,
                found,
                expected,
                against,
            } => write!(
                f,
                "depth {depth} has {found} entries in the payload, {against} says {expected}"
            )?,
            Kind::Locked => write!(
                f,
                "another bake or clean of this table directory is running (wait for it to finish, or ask to wait for the lock)"
            )?,
            Kind::InvalidId { id, why } => write!(f, "invalid table id {id:?}: {why}")?,
            Kind::InvalidInput { what } | Kind::BadEntry { what } => write!(f, "{what}")?,
            Kind::NoTableDir => write!(
                f,
                "no table directory: there is no cache directory on this system (pass --tables DIR or set CUBE_TABLES_DIR)"
            )?,
            Kind::BadTableDir { why } => write!(
                f,
                "cannot be the table directory: {why} (give --tables a directory, or one to create, or set CUBE_TABLES_DIR to one)"
            )?,
            Kind::NotAFile { what } => write!(
                f,
                "is {what}, not a regular file (move it out of the way{}",
                if fix.is_some() { ", then" } else { "" }
            )?,
            Kind::PermissionDenied => write!(
                f,
                "permission denied (make the file readable by this user, or use another directory{}",
                if fix.is_some() { " and" } else { "" }
            )?,
            Kind::NoSpace { needed, available } => write!(
                f,
                "{} MiB free, the bake needs {} MiB (free some space or choose another table directory, then",
                available >> 20,
                needed.div_ceil(1 << 20)
            )?,
            Kind::Io { context, source } => write!(f, "{context}: {source}")?,
        }
        match (&inner.kind, &fix) {
            (_, Some(fix)) if inner.storage_full() => {
                write!(f, " (free some disk space, then {fix})")?
            }
            (_, None) if inner.storage_full() => write!(f, " (free some disk space and re-run)")?,
            // These messages open the parenthesis of their fix themselves.
            (Kind::NotAFile { .. } | Kind::PermissionDenied | Kind::NoSpace { .. }, Some(fix)) => {
                write!(f, " {fix})")?
            }
            (Kind::NotAFile { .. } | Kind::PermissionDenied, None) => write!(f, ")")?,
            (Kind::NoSpace { .. }, None) => write!(f, " re-run)")?,
            (_, Some(fix)) => write!(f, " ({fix})")?,
            (_, None) => {}
        }
        Ok(())
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            Kind::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Shows an optional tier as `7edge` or `none`.
struct TierName(Option<Tier>);

impl fmt::Display for TierName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(tier) => write!(f, "{tier}"),
            None => write!(f, "none"),
        }
    }
}
