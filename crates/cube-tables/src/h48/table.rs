//! [`H48Table`]: an H48 tier's table file, looked up by cube or by index.

use std::path::Path;

use cube_core::Cube;

use super::index::{BLOCK_SLOTS, Coordinate};
use crate::file::error::{Kind, TableError};
use crate::file::id::{Encoding, TableId, TableSpec, Tier};
use crate::file::lines::Lines2;
use crate::file::mmap::{Anonymous, Mapped};
use crate::file::table::PruneTable;
use crate::tier::catalogue::Family;

/// The number of corner classes times the 70 M-slice placements: blocks of 512 slots per flip
/// pattern.
const ROWS: u64 = 3_393 * 70;

/// The base of each H48 tier: code `c > 0` means the value `base + c`. nissy-core uses 8 for
/// h0..h3 and 9 for h4..h7 (cube48opt: 7 for its opt1, which is h0's coordinate).
pub const fn base(tier: Tier) -> Option<u8> {
    match flips(tier) {
        Some(0) => Some(8),
        Some(_) => Some(9),
        None => None,
    }
}

/// The number of flips an H48 tier keeps (its row's parts): 0, 4, 5, 6 or 7; `None` for a tier
/// of another family.
pub const fn flips(tier: Tier) -> Option<u32> {
    match tier.family() {
        Family::H48 => Some(tier.parts()[0] as u32),
        _ => None,
    }
}

const fn h48_spec(id: &'static str, tier: Tier) -> TableSpec {
    let (Some(n_flips), Some(base)) = (flips(tier), base(tier)) else {
        panic!("an H48 tier has flips and a base");
    };
    TableSpec::new(
        TableId::from_static(id),
        Encoding::Line2 { base },
        ROWS * ((BLOCK_SLOTS as u64) << n_flips),
    )
    .with_tier(tier)
}

/// `h48-h0`: 30,401,280 bytes.
pub const H0: TableSpec = h48_spec("h48-h0", Tier::H0);
/// `h48-h4`: 486,420,480 bytes.
pub const H4: TableSpec = h48_spec("h48-h4", Tier::H4);
/// `h48-h5`: 972,840,960 bytes.
pub const H5: TableSpec = h48_spec("h48-h5", Tier::H5);
/// `h48-h6`: 1,945,681,920 bytes.
pub const H6: TableSpec = h48_spec("h48-h6", Tier::H6);
/// `h48-h7`: 3,891,363,840 bytes.
pub const H7: TableSpec = h48_spec("h48-h7", Tier::H7);

/// The table spec of an H48 tier; `None` for a Korf tier: the H48 family's row of
/// [`tier::specs`](crate::tier::specs), which every caller outside this module asks.
pub(crate) const fn spec(tier: Tier) -> Option<TableSpec> {
    match flips(tier) {
        Some(0) => Some(H0),
        Some(4) => Some(H4),
        Some(5) => Some(H5),
        Some(6) => Some(H6),
        Some(7) => Some(H7),
        _ => None,
    }
}

/// The spec of `tier`, or an error saying it is not an H48 tier.
pub(crate) fn spec_or_error(tier: Tier) -> Result<TableSpec, TableError> {
    spec(tier).ok_or_else(|| {
        let what = format!("tier {tier} is not an H48 tier (use h0, h4, h5, h6 or h7)");
        TableError::new(Kind::InvalidInput { what })
    })
}

/// An H48 tier's table: the [`Coordinate`] of the tier and the 2-bit line payload.
///
/// `value(x)` is a lower bound on the distance of `x` (half-turn metric), and of every
/// conjugate of `x` by a symmetry and every `h x` for a half turn `h` done first. The corner
/// distance of [`Cocsep`](super::Cocsep) is a second, independent bound.
///
/// ```no_run
/// use cube_core::{Cube, Move};
/// use cube_tables::Tier;
/// use cube_tables::h48::H48Table;
///
/// let table = H48Table::load_anonymous(std::path::Path::new("tables"), Tier::H0)?;
/// let x = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1, Move::F2]);
/// assert!(table.value(&x) <= 3);
/// let index = table.index(&x);
/// table.prefetch(index);
/// assert_eq!(table.value_at(index), table.value(&x));
/// # Ok::<(), cube_tables::TableError>(())
/// ```
#[derive(Clone, Debug)]
pub struct H48Table<T> {
    table: PruneTable<T>,
    coord: Coordinate,
    base: u8,
}

impl<T: AsRef<[u8]>> H48Table<T> {
    /// Wraps a loaded table of an H48 tier (one opened with that tier's spec,
    /// [`tier::specs`](crate::tier::specs)).
    ///
    /// # Errors
    /// `InvalidInput` when the table is not one of the H48 tiers' tables.
    pub fn new(table: PruneTable<T>) -> Result<H48Table<T>, TableError> {
        let spec = table.tier().and_then(spec);
        let (Some(spec), Encoding::Line2 { base }) = (spec, table.encoding()) else {
            let what = format!("table {} is not an H48 table", table.id());
            return Err(table.error(TableError::new(Kind::InvalidInput { what })));
        };
        if spec.id != table.id() || spec.n_entries != table.len() as u64 {
            let what = format!("table {} is not the H48 table of its tier", table.id());
            return Err(table.error(TableError::new(Kind::InvalidInput { what })));
        }
        let n_flips = table.tier().and_then(flips).expect("an H48 tier");
        Ok(H48Table {
            table,
            coord: Coordinate::new(n_flips),
            base,
        })
    }

    /// The coordinate that indexes the table.
    pub fn coordinate(&self) -> &Coordinate {
        &self.coord
    }

    /// The base: a code `c > 0` stands for `base + c`.
    pub fn base(&self) -> u8 {
        self.base
    }

    /// The tier.
    pub fn tier(&self) -> Tier {
        self.table.tier().expect("an H48 table has a tier")
    }

    /// The table file (header, histogram, payload).
    pub fn table(&self) -> &PruneTable<T> {
        &self.table
    }

    /// The slot index of `cube` ([`Coordinate::index`]).
    #[inline]
    pub fn index(&self, cube: &Cube) -> usize {
        self.coord.index(cube)
    }

    /// The value at slot `index`: `base + code` for a code of 1 to 3, the line minimum for 0.
    ///
    /// # Panics
    /// If `index` is beyond the table.
    #[inline]
    pub fn value_at(&self, index: usize) -> u8 {
        self.lines().get(index)
    }

    /// The 2-bit code at slot `index` (0 to 3).
    ///
    /// # Panics
    /// If `index` is beyond the table.
    #[inline]
    pub fn code_at(&self, index: usize) -> u8 {
        self.lines().code(index)
    }

    /// The read view of the table's slots.
    #[inline(always)]
    pub fn lines(&self) -> Lines2<'_> {
        Lines2::new(self.table.payload(), self.base)
    }

    /// The lower bound of `cube`: `value_at(index(cube))`.
    #[inline]
    pub fn value(&self, cube: &Cube) -> u8 {
        self.value_at(self.index(cube))
    }

    /// Starts loading the cache line of slot `index` (which also holds its line minimum).
    #[inline]
    pub fn prefetch(&self, index: usize) {
        self.lines().prefetch(index);
    }
}

impl H48Table<Vec<u8>> {
    /// Reads the table of `tier` from `dir` into an owned buffer, checking its header and size.
    ///
    /// # Errors
    /// `InvalidInput` for a Korf tier; the errors of [`PruneTable::load`].
    pub fn load(dir: &Path, tier: Tier) -> Result<H48Table<Vec<u8>>, TableError> {
        let spec = spec_or_error(tier)?;
        H48Table::new(PruneTable::load(&spec.path_in(dir), &spec)?)
    }
}

impl H48Table<Anonymous> {
    /// Reads the table of `tier` from `dir` into anonymous (huge-page) memory: the fast path.
    ///
    /// # Errors
    /// `InvalidInput` for a Korf tier; the errors of [`PruneTable::load_anonymous`].
    pub fn load_anonymous(dir: &Path, tier: Tier) -> Result<H48Table<Anonymous>, TableError> {
        let spec = spec_or_error(tier)?;
        H48Table::new(PruneTable::load_anonymous(&spec.path_in(dir), &spec)?)
    }
}

impl H48Table<Mapped> {
    /// Maps the table of `tier` from `dir`.
    ///
    /// # Safety
    /// The file may not be modified or truncated while the table is alive.
    ///
    /// # Errors
    /// `InvalidInput` for a Korf tier; the errors of [`PruneTable::open_mapped`].
    #[allow(unsafe_code)]
    pub unsafe fn open_mapped(dir: &Path, tier: Tier) -> Result<H48Table<Mapped>, TableError> {
        let spec = spec_or_error(tier)?;
        // SAFETY: a propagation of the caller's promise that the file is not modified.
        H48Table::new(unsafe { PruneTable::open_mapped(&spec.path_in(dir), &spec) }?)
    }
}
