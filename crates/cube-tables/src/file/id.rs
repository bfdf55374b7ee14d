//! Table identity: [`TableId`], [`Tier`], [`Encoding`], and the [`TableSpec`] that a generator writes and a
//! loader expects.
//!
//! A `TableId` is a stable, filename-safe string such as `korf-corners`, in the spirit of nissy-core's
//! `dataid`, which "can be used e.g. as a filename or database key" (`src/nissy.h`).

use std::fmt;
use std::path::{Path, PathBuf};

/// The current format version, part of every table's file name ([`TableId::file_name`]) and
/// header. Bump it on any change of the header layout, the encodings or the hash.
pub const FORMAT_VERSION: u32 = 1;

/// The longest table id, in bytes: the size of the id field of the header.
pub(crate) const MAX_ID_LEN: usize = 32;

/// A stable, filename-safe table name such as `korf-corners`, `korf-edges-7a` or `two-phase-slice-twist`.
///
/// An id is 1 to 32 bytes of lowercase ASCII letters, digits and `-`, and starts with a letter or digit.
/// It is `Copy` and can be a constant:
///
/// ```
/// use cube_tables::TableId;
///
/// const KORF_CORNERS: TableId = TableId::from_static("korf-corners");
/// assert_eq!(KORF_CORNERS.file_name(), "korf-corners.v1.tbl");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableId {
    bytes: [u8; MAX_ID_LEN],
    len: u8,
}

impl TableId {
    /// Makes an id from a string literal. Use it for constants.
    ///
    /// # Panics
    ///
    /// When `id` is not a valid id (at compile time, in a constant).
    pub const fn from_static(id: &'static str) -> TableId {
        match TableId::parse(id.as_bytes()) {
            Ok(id) => id,
            Err(_) => panic!("invalid table id: use 1 to 32 of [a-z0-9-], starting with [a-z0-9]"),
        }
    }

    pub(crate) const fn parse(id: &[u8]) -> Result<TableId, &'static str> {
        if id.is_empty() {
            return Err("empty");
        }
        if id.len() > MAX_ID_LEN {
            return Err("longer than 32 bytes");
        }
        if id[0] == b'-' {
            return Err("starts with '-'");
        }
        let mut bytes = [0; MAX_ID_LEN];
        let mut i = 0;
        while i < id.len() {
            let b = id[i];
            if !(b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
                return Err("use only lowercase ASCII letters, digits and '-'");
            }
            bytes[i] = b;
            i += 1;
        }
        Ok(TableId {
            bytes,
            len: id.len() as u8,
        })
    }

    /// Reads an id from a NUL-padded header field; `None` when the field does not hold a valid id.
    pub(crate) fn from_padded(field: &[u8; MAX_ID_LEN]) -> Option<TableId> {
        let len = field.iter().position(|&b| b == 0).unwrap_or(MAX_ID_LEN);
        if field[len..].iter().any(|&b| b != 0) {
            return None;
        }
        TableId::parse(&field[..len]).ok()
    }

    /// The id, NUL-padded to the header field.
    pub(crate) fn padded(&self) -> [u8; MAX_ID_LEN] {
        self.bytes
    }

    /// The id as a string.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).expect("a table id is ASCII")
    }

    /// The file name of this table in the current format: `<table-id>.v<FORMAT_VERSION>.tbl`.
    pub fn file_name(&self) -> String {
        format!("{}.v{FORMAT_VERSION}.tbl", self.as_str())
    }
}

impl fmt::Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TableId({:?})", self.as_str())
    }
}

/// An optimal tier, as the file format sees it: an opaque handle, stored in a table header as its
/// code. Everything else about it (its name, family, metric, code, tables) is its row of the
/// catalogue [`TIERS`](crate::tier::TIERS), which `crate::tier` gives it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tier(pub(crate) u8);

/// The metric of an optimal search and of the tables it reads: half turns count 1 (HTM) or 2
/// (QTM).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// The half-turn metric: every face turn counts 1.
    #[default]
    Htm,
    /// The quarter-turn metric: a half turn counts 2.
    Qtm,
}

impl Metric {
    /// `htm`, `qtm`.
    pub const fn name(self) -> &'static str {
        match self {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
        }
    }

    /// The longest optimal solution in this metric: 20 face turns (God's number, Rokicki,
    /// Kociemba, Davidson and Dethridge 2010), 26 quarter turns (Rokicki and Davidson 2014).
    pub const fn diameter(self) -> usize {
        match self {
            Metric::Htm => 20,
            Metric::Qtm => 26,
        }
    }

    /// The length of a sequence of face turns in this metric.
    pub fn length(self, moves: &[cube_core::Move]) -> usize {
        match self {
            Metric::Htm => moves.len(),
            Metric::Qtm => moves
                .iter()
                .map(|m| 1 + usize::from(m.is_half_turn()))
                .sum(),
        }
    }
}

/// `htm`, `qtm`.
impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the payload stores one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Two 4-bit entries per byte; entry `2k` is the low nibble of byte `k`, entry `2k + 1` the high nibble.
    /// For an odd entry count the last high nibble is padding and is zero.
    Nibble,
    /// One entry per byte.
    Byte,
    /// 2-bit codes in 16-byte lines (the H48 tables): slot `i` is bits `2 (i % 4)` of byte `i / 4`;
    /// the first two slots of each line (the low nibble of its first byte) hold the line minimum,
    /// a 4-bit value; every block of 512 slots (8 lines) holds 495 entries, in the slots other than
    /// the line minima and the block's last slot. An entry's value is `base + code` for a code
    /// of 1 to 3 and the line minimum for code 0. `n_entries` counts slots (a multiple of 512).
    /// The histogram counts codes of the entries in buckets 0 to 3 and lines by their minimum in
    /// buckets 16 to 31.
    Line2 {
        /// The value of code 0's upper bound: code `c > 0` means `base + c`.
        base: u8,
    },
}

impl Encoding {
    /// The code of this encoding in the header.
    pub(crate) const fn code(self) -> u32 {
        match self {
            Encoding::Nibble => 1,
            Encoding::Byte => 2,
            Encoding::Line2 { .. } => 3,
        }
    }

    /// The encoding's parameter in the header (the `reserved0` field): the base of
    /// [`Encoding::Line2`], else 0.
    pub(crate) const fn parameter(self) -> u32 {
        match self {
            Encoding::Line2 { base } => base as u32,
            _ => 0,
        }
    }

    pub(crate) const fn from_code(code: u32, parameter: u32) -> Option<Encoding> {
        match (code, parameter) {
            (1, 0) => Some(Encoding::Nibble),
            (2, 0) => Some(Encoding::Byte),
            (3, base) if base < 16 => Some(Encoding::Line2 { base: base as u8 }),
            _ => None,
        }
    }

    /// The payload length in bytes of `n_entries` entries.
    pub const fn payload_len(self, n_entries: u64) -> u64 {
        match self {
            Encoding::Nibble => n_entries.div_ceil(2),
            Encoding::Byte => n_entries,
            Encoding::Line2 { .. } => n_entries.div_ceil(4),
        }
    }

    /// What a histogram of a table of `n_entries` in this encoding sums to: `(buckets, total)`
    /// pairs, every bucket in exactly one pair.
    pub(crate) fn histogram_sums(self, n_entries: u64) -> Vec<(std::ops::Range<usize>, u64)> {
        match self {
            Encoding::Nibble | Encoding::Byte => vec![(0..32, n_entries)],
            Encoding::Line2 { .. } => vec![
                (0..4, n_entries / 512 * 495),
                (4..16, 0),
                (16..32, n_entries / 64),
            ],
        }
    }

    pub(crate) fn name(self) -> String {
        match self {
            Encoding::Nibble => "4-bit nibbles".to_string(),
            Encoding::Byte => "bytes".to_string(),
            Encoding::Line2 { base } => format!("2-bit lines of base {base}"),
        }
    }
}

/// What a user should do when a table file is missing or bad. A [`TableError`](crate::TableError)
/// carries it ([`TableError::fix`](crate::TableError::fix), with the table's tier), and each
/// program words it in its own commands ([`TableError::message`](crate::TableError::message) with
/// its [`FixCommands`]); `Display` words it in the library's ([`FixCommands::LIBRARY`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    /// The table comes from a bake of its tier: "re-run cube-cli tables bake --tier 7edge" from the CLI.
    Bake,
    /// The table comes from a bake of any tier (the corner database).
    BakeAnyTier,
    /// The table is a small cache built on first use: "delete the file; it is rebuilt on next use".
    Rebuild,
    /// Any other advice, shown as is.
    Custom(&'static str),
}

/// The commands in which a program words the [`Fix`] of a table error: each front end has its
/// own (the CLI's `cube-cli tables bake --tier {tier}`, the Python package's
/// `cube_toolkit.tables.bake("{tier}")`) and passes it to
/// [`TableError::message`](crate::TableError::message); a library user reads
/// [`FixCommands::LIBRARY`], the functions to call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixCommands {
    /// How to bake a tier, `{tier}` standing for its name: `cube-cli tables bake --tier {tier}`.
    pub bake: &'static str,
}

impl FixCommands {
    /// The library's own words: [`tier::bake`](crate::tier::bake), the one bake of every tier.
    pub const LIBRARY: FixCommands = FixCommands {
        bake: "cube_tables::tier::bake for tier {tier}",
    };

    /// The bake command for `tier` (`TIER` when there is none).
    pub fn bake(&self, tier: Option<Tier>) -> String {
        let tier = tier.map_or_else(|| "TIER".to_string(), |t| t.to_string());
        self.bake.replace("{tier}", &tier)
    }
}

impl Fix {
    /// The fix for a table of `tier`, in `commands`' words: `re-run cube-cli tables bake --tier
    /// 7edge`.
    pub fn words(&self, tier: Option<Tier>, commands: &FixCommands) -> String {
        match self {
            Fix::Bake => format!("re-run {}", commands.bake(tier)),
            Fix::BakeAnyTier => format!(
                "re-run {} (any tier bakes the corners)",
                // The catalogue's first tier, its cheapest bake (6edge).
                commands.bake(Some(Tier::ALL[0]))
            ),
            Fix::Rebuild => "delete the file; it is rebuilt on next use".to_string(),
            Fix::Custom(hint) => (*hint).to_string(),
        }
    }
}

/// What a table is: the identity that a generator writes into the header and that a loader checks.
///
/// One constant serves both sides:
///
/// ```
/// use cube_tables::{Encoding, TableId, TableSpec, Tier};
///
/// const KORF_EDGES_7A: TableSpec =
///     TableSpec::new(TableId::from_static("korf-edges-7a"), Encoding::Nibble, 510_935_040)
///         .with_tier(Tier::Edge7);
/// assert_eq!(KORF_EDGES_7A.payload_len(), 255_467_520);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSpec {
    /// The table id; also the file name stem.
    pub id: TableId,
    /// The tier this table belongs to, or `None` for tables outside the tiers.
    pub tier: Option<Tier>,
    /// How entries are stored.
    pub encoding: Encoding,
    /// The number of entries (coordinates) in the table.
    pub n_entries: u64,
    /// What to tell the user when the file is missing or bad.
    pub fix: Fix,
}

impl TableSpec {
    /// A table outside the tiers, whose fix is [`Fix::Rebuild`].
    pub const fn new(id: TableId, encoding: Encoding, n_entries: u64) -> TableSpec {
        TableSpec {
            id,
            tier: None,
            encoding,
            n_entries,
            fix: Fix::Rebuild,
        }
    }

    /// Puts the table in `tier` and sets its fix to [`Fix::Bake`].
    pub const fn with_tier(self, tier: Tier) -> TableSpec {
        TableSpec {
            tier: Some(tier),
            fix: Fix::Bake,
            ..self
        }
    }

    /// Sets the fix shown in error messages.
    pub const fn with_fix(self, fix: Fix) -> TableSpec {
        TableSpec { fix, ..self }
    }

    /// The payload length in bytes.
    pub const fn payload_len(&self) -> u64 {
        self.encoding.payload_len(self.n_entries)
    }

    /// The path of this table's file in `dir`: `dir/<table-id>.v<FORMAT_VERSION>.tbl`.
    pub fn path_in(&self, dir: &Path) -> PathBuf {
        dir.join(self.id.file_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        for ok in [
            "korf-corners",
            "korf-edges-7a",
            "two-phase-slice-twist",
            "a",
            "0",
            &"x".repeat(32),
        ] {
            assert_eq!(TableId::new(ok).unwrap().as_str(), ok);
        }
        for bad in ["", "-a", "Korf", "a.b", "a/b", "a b", "é", &"x".repeat(33)] {
            assert!(TableId::new(bad).is_err(), "{bad:?}");
        }
        let id = TableId::from_static("korf-corners");
        assert_eq!(TableId::from_padded(&id.padded()), Some(id));
        let mut bad = id.padded();
        bad[20] = b'x';
        assert_eq!(TableId::from_padded(&bad), None);
    }
}
