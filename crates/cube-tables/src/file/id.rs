//! Table identity: [`TableId`], [`Tier`], [`Encoding`], and the [`TableSpec`] that a generator writes and a
//! loader expects.
//!
//! A `TableId` is a stable, filename-safe string such as `korf-corners`, in the spirit of nissy-core's
//! `dataid`, which "can be used e.g. as a filename or database key" (`src/nissy.h`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

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

/// An optimal tier: the tables of one [`Family`] at one size, the Korf edge pattern databases (how
/// many edges each edge table tracks), the H48 tables (how many edge flips the coordinate keeps) or
/// the nx tables (nxopt's subgroup, EO and EP options, in one metric).
///
/// Written and parsed as `6edge`, `7edge`, `8edge`, `h0`, `h4`, `h5`, `h6`, `h7` and `nx-eo1ep1`
/// .. `nx-eo2ep2` with their `-qtm` twins, the value of `cargo xtask bake-tables --tier`. In a
/// table header a Korf tier's code is its edge count (6, 7, 8), an H48 tier's is 16 plus its flip
/// count (16, 20..=23), an nx tier's 32 (48 in the quarter-turn metric) + 4 (EO - 1) + EP - 1, and
/// 0 means none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tier {
    /// Edge tables over 6 edges (tens of megabytes).
    Edge6,
    /// Edge tables over 7 edges (hundreds of megabytes).
    Edge7,
    /// Edge tables over 8 edges (gigabytes).
    Edge8,
    /// The H48 table without flips (30 MB), for tests.
    H0,
    /// The H48 table with 4 flips (486 MB).
    H4,
    /// The H48 table with 5 flips (973 MB).
    H5,
    /// The H48 table with 6 flips (1.95 GB).
    H6,
    /// The H48 table with 7 flips (3.89 GB).
    H7,
    /// nxopt's EO1 EP1 table, half-turn metric (20.3 MB), for tests.
    NxEo1Ep1,
    /// nxopt's EO2 EP1 table, half-turn metric (325 MB).
    NxEo2Ep1,
    /// nxopt's EO1 EP2 table, half-turn metric (487 MB).
    NxEo1Ep2,
    /// nxopt's EO1 EP3 table, half-turn metric (1.42 GB).
    NxEo1Ep3,
    /// nxopt's EO3 EP1 table, half-turn metric (2.60 GB; vcube's coordinate 112).
    NxEo3Ep1,
    /// nxopt's EO2 EP2 table, half-turn metric (7.79 GB).
    NxEo2Ep2,
    /// nxopt's EO1 EP1 table, quarter-turn metric (20.3 MB), for tests.
    NxEo1Ep1Qtm,
    /// nxopt's EO2 EP1 table, quarter-turn metric (325 MB).
    NxEo2Ep1Qtm,
    /// nxopt's EO1 EP2 table, quarter-turn metric (487 MB).
    NxEo1Ep2Qtm,
    /// nxopt's EO1 EP3 table, quarter-turn metric (1.42 GB).
    NxEo1Ep3Qtm,
    /// nxopt's EO3 EP1 table, quarter-turn metric (2.60 GB).
    NxEo3Ep1Qtm,
    /// nxopt's EO2 EP2 table, quarter-turn metric (7.79 GB).
    NxEo2Ep2Qtm,
}

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

/// The optimal method a tier's tables serve: what decides its tables, its bake and its search.
/// A new method adds a variant here, a row in [`Tier::family`] and one in each match of
/// `cube_tables::tier` and of cube-solvers' `OptimalTables`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Korf's pattern databases: the corner database and two edge-subset databases.
    Korf,
    /// The sym48 search over one H48 table (and the corner database's symmetry reduction).
    H48,
    /// nxopt's search over one table of an nx subgroup (and the corner database's symmetry
    /// reduction), in either metric.
    Nx,
}

impl Family {
    /// The name of the method that searches the family's tiers: `Korf`, `sym48`.
    pub const fn method(self) -> &'static str {
        match self {
            Family::Korf => "Korf",
            Family::H48 => "sym48",
            Family::Nx => "nx",
        }
    }

    /// What a message calls a tier's tables, with the verb: `pattern databases are` (Korf's),
    /// `table is` (an H48 or nx tier's).
    pub const fn tables_are(self) -> &'static str {
        match self {
            Family::Korf => "pattern databases are",
            Family::H48 | Family::Nx => "table is",
        }
    }
}

/// `Korf`, `H48`.
impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Family::Korf => "Korf",
            Family::H48 => "H48",
            Family::Nx => "nx",
        })
    }
}

impl Tier {
    /// Every tier, Korf's smallest first, then the H48 ones smallest first, then the nx ones
    /// (half-turn, then quarter-turn metric, smallest first).
    pub const ALL: [Tier; 20] = [
        Tier::Edge6,
        Tier::Edge7,
        Tier::Edge8,
        Tier::H0,
        Tier::H4,
        Tier::H5,
        Tier::H6,
        Tier::H7,
        Tier::NxEo1Ep1,
        Tier::NxEo2Ep1,
        Tier::NxEo1Ep2,
        Tier::NxEo1Ep3,
        Tier::NxEo3Ep1,
        Tier::NxEo2Ep2,
        Tier::NxEo1Ep1Qtm,
        Tier::NxEo2Ep1Qtm,
        Tier::NxEo1Ep2Qtm,
        Tier::NxEo1Ep3Qtm,
        Tier::NxEo3Ep1Qtm,
        Tier::NxEo2Ep2Qtm,
    ];

    /// Every nx tier, the half-turn ones smallest first, then the quarter-turn ones.
    pub const NX: [Tier; 12] = [
        Tier::NxEo1Ep1,
        Tier::NxEo2Ep1,
        Tier::NxEo1Ep2,
        Tier::NxEo1Ep3,
        Tier::NxEo3Ep1,
        Tier::NxEo2Ep2,
        Tier::NxEo1Ep1Qtm,
        Tier::NxEo2Ep1Qtm,
        Tier::NxEo1Ep2Qtm,
        Tier::NxEo1Ep3Qtm,
        Tier::NxEo3Ep1Qtm,
        Tier::NxEo2Ep2Qtm,
    ];

    /// Every Korf tier, smallest first.
    pub const KORF: [Tier; 3] = [Tier::Edge6, Tier::Edge7, Tier::Edge8];

    /// Every H48 tier, smallest first.
    pub const H48: [Tier; 5] = [Tier::H0, Tier::H4, Tier::H5, Tier::H6, Tier::H7];

    /// The family of the tier: the one place a tier's method is decided.
    pub const fn family(self) -> Family {
        match self {
            Tier::Edge6 | Tier::Edge7 | Tier::Edge8 => Family::Korf,
            Tier::H0 | Tier::H4 | Tier::H5 | Tier::H6 | Tier::H7 => Family::H48,
            _ => Family::Nx,
        }
    }

    /// The metric of the tier's tables: the quarter-turn metric for the `-qtm` nx tiers, else
    /// the half-turn metric.
    pub const fn metric(self) -> Metric {
        match self.nx() {
            Some((_, _, metric)) => metric,
            None => Metric::Htm,
        }
    }

    /// The tier of the same subgroup in `metric`: itself when it counts in `metric`,
    /// `nx-eo1ep1-qtm` for `nx-eo1ep1` in the quarter-turn metric; `None` for a Korf or H48 tier
    /// in the quarter-turn metric (their tables count half turns only).
    pub fn in_metric(self, metric: Metric) -> Option<Tier> {
        match self.nx() {
            _ if self.metric() == metric => Some(self),
            Some((eo, ep, _)) => Tier::NX
                .into_iter()
                .find(|t| t.nx() == Some((eo, ep, metric))),
            None => None,
        }
    }

    /// An nx tier's options: nxopt's EO and EP numbers (EO1..EO3, EP1..EP4) and the metric;
    /// `None` for the other families.
    pub const fn nx(self) -> Option<(u8, u8, Metric)> {
        let (eo, ep, metric) = match self {
            Tier::NxEo1Ep1 => (1, 1, Metric::Htm),
            Tier::NxEo2Ep1 => (2, 1, Metric::Htm),
            Tier::NxEo1Ep2 => (1, 2, Metric::Htm),
            Tier::NxEo1Ep3 => (1, 3, Metric::Htm),
            Tier::NxEo3Ep1 => (3, 1, Metric::Htm),
            Tier::NxEo2Ep2 => (2, 2, Metric::Htm),
            Tier::NxEo1Ep1Qtm => (1, 1, Metric::Qtm),
            Tier::NxEo2Ep1Qtm => (2, 1, Metric::Qtm),
            Tier::NxEo1Ep2Qtm => (1, 2, Metric::Qtm),
            Tier::NxEo1Ep3Qtm => (1, 3, Metric::Qtm),
            Tier::NxEo3Ep1Qtm => (3, 1, Metric::Qtm),
            Tier::NxEo2Ep2Qtm => (2, 2, Metric::Qtm),
            _ => return None,
        };
        Some((eo, ep, metric))
    }

    /// The number of edges of a Korf tier's edge tables: 6, 7 or 8; `None` for an H48 or nx tier.
    pub const fn n_edges(self) -> Option<u32> {
        match self {
            Tier::Edge6 => Some(6),
            Tier::Edge7 => Some(7),
            Tier::Edge8 => Some(8),
            _ => None,
        }
    }

    /// The number of flips an H48 tier keeps: 0, 4, 5, 6 or 7; `None` for a Korf or nx tier.
    pub const fn h48_flips(self) -> Option<u32> {
        match self {
            Tier::H0 => Some(0),
            Tier::H4 => Some(4),
            Tier::H5 => Some(5),
            Tier::H6 => Some(6),
            Tier::H7 => Some(7),
            _ => None,
        }
    }

    /// The code of a tier in the header: the edge count of a Korf tier, 16 + the flip count of an
    /// H48 tier, 32 + 4 (EO - 1) + EP - 1 of an nx tier in the half-turn metric, 48 + the same
    /// in the quarter-turn metric.
    const fn header_code(self) -> u32 {
        match (self.n_edges(), self.h48_flips(), self.nx()) {
            (Some(n), _, _) => n,
            (None, Some(n), _) => 16 + n,
            (None, None, Some((eo, ep, metric))) => {
                let base = match metric {
                    Metric::Htm => 32,
                    Metric::Qtm => 48,
                };
                base + 4 * (eo as u32 - 1) + ep as u32 - 1
            }
            (None, None, None) => unreachable!(),
        }
    }

    /// The header code of an optional tier: 0 for none, else [`Tier::header_code`].
    pub(crate) fn code(tier: Option<Tier>) -> u32 {
        tier.map_or(0, Tier::header_code)
    }

    /// The tier of a header code; `Err(())` for an unknown code.
    pub(crate) fn from_code(code: u32) -> Result<Option<Tier>, ()> {
        if code == 0 {
            return Ok(None);
        }
        Tier::ALL
            .into_iter()
            .find(|tier| tier.header_code() == code)
            .map(Some)
            .ok_or(())
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.n_edges(), self.h48_flips(), self.nx()) {
            (Some(n), _, _) => write!(f, "{n}edge"),
            (_, Some(n), _) => write!(f, "h{n}"),
            (_, _, Some((eo, ep, Metric::Htm))) => write!(f, "nx-eo{eo}ep{ep}"),
            (_, _, Some((eo, ep, Metric::Qtm))) => write!(f, "nx-eo{eo}ep{ep}-qtm"),
            (None, None, None) => unreachable!(),
        }
    }
}

/// The error from parsing a [`Tier`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTierError {
    input: String,
}

impl fmt::Display for ParseTierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown tier {:?} (use 6edge, 7edge, 8edge, h0, h4, h5, h6, h7, nx-eo1ep1, nx-eo2ep1, nx-eo1ep2, nx-eo1ep3, nx-eo3ep1 or nx-eo2ep2, the nx ones also with -qtm)",
            self.input
        )
    }
}

impl std::error::Error for ParseTierError {}

impl FromStr for Tier {
    type Err = ParseTierError;

    fn from_str(s: &str) -> Result<Tier, ParseTierError> {
        Tier::ALL
            .into_iter()
            .find(|tier| tier.to_string() == s)
            .ok_or_else(|| ParseTierError {
                input: s.to_string(),
            })
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
                commands.bake(Some(Tier::Edge6))
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

    #[test]
    fn tiers() {
        for tier in Tier::ALL {
            assert_eq!(tier.to_string().parse::<Tier>(), Ok(tier));
            assert_eq!(Tier::from_code(Tier::code(Some(tier))), Ok(Some(tier)));
            let family = if Tier::KORF.contains(&tier) {
                Family::Korf
            } else if Tier::H48.contains(&tier) {
                Family::H48
            } else {
                Family::Nx
            };
            assert_eq!(tier.family(), family);
        }
        assert_eq!(
            Tier::KORF.len() + Tier::H48.len() + Tier::NX.len(),
            Tier::ALL.len()
        );
        assert_eq!(Tier::NxEo3Ep1.to_string(), "nx-eo3ep1");
        assert_eq!(Tier::NxEo1Ep1Qtm.to_string(), "nx-eo1ep1-qtm");
        assert_eq!(Tier::NxEo1Ep1Qtm.metric(), Metric::Qtm);
        assert_eq!(Tier::H5.metric(), Metric::Htm);
        assert_eq!(
            Tier::NxEo2Ep1.in_metric(Metric::Qtm),
            Some(Tier::NxEo2Ep1Qtm)
        );
        assert_eq!(
            Tier::NxEo2Ep1Qtm.in_metric(Metric::Htm),
            Some(Tier::NxEo2Ep1)
        );
        assert_eq!(
            Tier::NxEo2Ep1Qtm.in_metric(Metric::Qtm),
            Some(Tier::NxEo2Ep1Qtm)
        );
        assert_eq!(Tier::H5.in_metric(Metric::Qtm), None);
        assert_eq!(Tier::Edge7.in_metric(Metric::Htm), Some(Tier::Edge7));
        assert_eq!(Tier::Edge7.to_string(), "7edge");
        assert_eq!(Tier::H5.to_string(), "h5");
        assert_eq!(Tier::code(Some(Tier::H0)), 16);
        assert_eq!(Tier::code(Some(Tier::H7)), 23);
        assert!("9edge".parse::<Tier>().is_err());
        assert!("h3".parse::<Tier>().is_err());
        assert_eq!(Tier::from_code(0), Ok(None));
        assert_eq!(Tier::from_code(5), Err(()));
        assert_eq!(Tier::from_code(17), Err(()));
    }
}
