//! [`NxTable`]: an nx tier's table file, looked up by cube (on any of the three axes) or by index.

use cube_core::Cube;

use super::coord::{Eo, Ep, N_CORNER_CLASSES, NxSym, Subgroup};
use super::fast::Locator;
use crate::file::error::{Kind, TableError};
use crate::file::id::{Encoding, Metric, TableId, TableSpec, Tier};
use crate::file::lines::{Lines2, slot};
use crate::file::table::PruneTable;
use crate::tier::catalogue::Family;

/// An nx tier's options (its row's parts and metric): nxopt's EO and EP numbers (EO1..EO3,
/// EP1..EP4) and the metric; `None` for a tier of another family.
pub const fn options(tier: Tier) -> Option<(u8, u8, Metric)> {
    match tier.family() {
        Family::Nx => Some((tier.parts()[0], tier.parts()[1], tier.metric())),
        _ => None,
    }
}

/// The subgroup of an nx tier; `None` for the other families.
pub const fn subgroup(tier: Tier) -> Option<Subgroup> {
    let Some((eo, ep, _)) = options(tier) else {
        return None;
    };
    let eo = match eo {
        1 => Eo::Eo1,
        2 => Eo::Eo2,
        _ => Eo::Eo3,
    };
    let ep = match ep {
        1 => Ep::Ep1,
        2 => Ep::Ep2,
        3 => Ep::Ep3,
        _ => Ep::Ep4,
    };
    Some(Subgroup { eo, ep })
}

/// The base of each nx tier (code `c > 0` means `base + c`): nxopt's (`nxopt.md`, "Average
/// depths"): 7, 8, 9, 9, 9, 9 in the half-turn metric and 9, 10, 10, 10, 11, 11 in the
/// quarter-turn metric for EO1 EP1, EO2 EP1, EO1 EP2, EO1 EP3, EO3 EP1, EO2 EP2.
pub const fn base(tier: Tier) -> Option<u8> {
    let Some((eo, ep, metric)) = options(tier) else {
        return None;
    };
    Some(match (eo, ep, metric) {
        (1, 1, Metric::Htm) => 7,
        (2, 1, Metric::Htm) => 8,
        (_, _, Metric::Htm) => 9,
        (1, 1, Metric::Qtm) => 9,
        (3, 1, Metric::Qtm) | (2, 2, Metric::Qtm) => 11,
        (_, _, Metric::Qtm) => 10,
    })
}

const fn nx_spec(id: &'static str, tier: Tier) -> TableSpec {
    let (Some(subgroup), Some(base)) = (subgroup(tier), base(tier)) else {
        panic!("an nx tier has a subgroup and a base");
    };
    TableSpec::new(
        TableId::from_static(id),
        Encoding::Line2 { base },
        (N_CORNER_CLASSES * subgroup.rows_per_class() * BLOCK_SLOTS) as u64,
    )
    .with_tier(tier)
}

/// Slots per block of 495 entries.
const BLOCK_SLOTS: usize = 512;

/// The table spec of an nx tier (`nx-eo1ep1`, `nx-eo1ep1-qtm`, ...); `None` for the other
/// families: the nx family's row of [`tier::specs`](crate::tier::specs).
pub const fn spec(tier: Tier) -> Option<TableSpec> {
    match options(tier) {
        Some(_) => Some(nx_spec(tier.name(), tier)),
        None => None,
    }
}

/// The spec of `tier`, or an error saying it is not an nx tier.
pub(crate) fn spec_or_error(tier: Tier) -> Result<TableSpec, TableError> {
    spec(tier).ok_or_else(|| {
        let what = format!("tier {tier} is not an nx tier");
        TableError::new(Kind::InvalidInput { what })
    })
}

/// An nx tier's table: the 2-bit line payload, the coordinate's symmetry reduction ([`NxSym`])
/// and the conjugations that turn the F-B and the L-R axis into the U-D axis.
///
/// `value(x)` is a lower bound on the distance of `x` in the tier's metric, and the value on
/// axis `a` one on the distance of `x` conjugated so that axis `a` becomes U-D.
///
/// ```no_run
/// use cube_core::{Cube, Move};
/// use cube_tables::{PruneTable, Tier, tier};
/// use cube_tables::nx::NxTable;
///
/// let spec = tier::specs(Tier::NxEo1Ep1)[1];
/// let table = NxTable::new(PruneTable::load(&spec.path_in("tables".as_ref()), &spec)?)?;
/// let x = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1, Move::F2]);
/// assert!(table.value(&x) <= 3);
/// # Ok::<(), cube_tables::TableError>(())
/// ```
#[derive(Debug)]
pub struct NxTable<T> {
    table: PruneTable<T>,
    subgroup: Subgroup,
    base: u8,
    sym: NxSym,
    /// The coordinate on each axis, from the cube's bytes.
    locator: Locator,
}

impl<T: AsRef<[u8]>> NxTable<T> {
    /// Wraps a loaded table of an nx tier (one opened with that tier's spec,
    /// [`tier::specs`](crate::tier::specs)).
    ///
    /// # Errors
    /// `InvalidInput` when the table is not one of the nx tiers' tables.
    pub fn new(table: PruneTable<T>) -> Result<NxTable<T>, TableError> {
        let tier = table.tier();
        let (Some(spec), Some(subgroup)) = (tier.and_then(spec), tier.and_then(subgroup)) else {
            let what = format!("table {} is not an nx table", table.id());
            return Err(table.error(TableError::new(Kind::InvalidInput { what })));
        };
        if spec != table_spec(&table) {
            let what = format!("table {} is not the nx table of its tier", table.id());
            return Err(table.error(TableError::new(Kind::InvalidInput { what })));
        }
        let Encoding::Line2 { base } = spec.encoding else {
            unreachable!("an nx spec has 2-bit lines")
        };
        Ok(NxTable {
            table,
            subgroup,
            base,
            sym: NxSym::new(),
            locator: Locator::new(),
        })
    }

    /// The tier.
    pub fn tier(&self) -> Tier {
        self.table.tier().expect("an nx table has a tier")
    }

    /// The metric of the table's distances.
    pub fn metric(&self) -> Metric {
        self.tier().metric()
    }

    /// The subgroup of the table's cosets.
    pub fn subgroup(&self) -> Subgroup {
        self.subgroup
    }

    /// The base: a code `c > 0` stands for `base + c`.
    pub fn base(&self) -> u8 {
        self.base
    }

    /// The table file (header, histogram, payload).
    pub fn table(&self) -> &PruneTable<T> {
        &self.table
    }

    /// The symmetry reduction of the coordinate.
    pub fn sym(&self) -> &NxSym {
        &self.sym
    }

    /// The read view of the table's slots.
    #[inline(always)]
    pub fn lines(&self) -> Lines2<'_> {
        Lines2::new(self.table.payload(), self.base)
    }

    /// The slot index of `cube` on the U-D axis.
    #[inline]
    pub fn index(&self, cube: &Cube) -> usize {
        let (row, placement) = self.locator.locate(&self.sym, self.subgroup, 0, cube);
        row * BLOCK_SLOTS + slot(placement) as usize
    }

    /// The slot index of `cube` on axis `axis` (0 for U-D, 1 for F-B, 2 for L-R), prefetched.
    ///
    /// # Panics
    /// If `axis > 2`.
    #[inline]
    pub fn axis_index(&self, axis: usize, cube: &Cube) -> usize {
        self.axis_index_from(axis, self.locator.corner_raw(axis, cube), cube)
    }

    /// The first half of [`NxTable::axis_index`], for a search that works on several cubes in
    /// lockstep: the corner coordinate of `cube` on `axis`, its class entry prefetched.
    #[inline]
    pub fn axis_corner(&self, axis: usize, cube: &Cube) -> u32 {
        let raw = self.locator.corner_raw(axis, cube);
        self.sym.prefetch_class(raw);
        raw
    }

    /// The second half of [`NxTable::axis_index`], from the corner coordinate
    /// [`NxTable::axis_corner`] gave: the slot index, prefetched.
    #[inline]
    pub fn axis_index_from(&self, axis: usize, corner: u32, cube: &Cube) -> usize {
        let (row, placement) =
            self.locator
                .locate_from(&self.sym, self.subgroup, axis, corner, cube);
        let index = row * BLOCK_SLOTS + slot(placement) as usize;
        self.prefetch(index);
        index
    }

    /// The value at slot `index`: `base + code` for a code of 1 to 3, the line minimum for 0.
    ///
    /// # Panics
    /// If `index` is beyond the table.
    #[inline]
    pub fn value_at(&self, index: usize) -> u8 {
        self.lines().get(index)
    }

    /// The lower bound of `cube` on the U-D axis (nxopt's one probe with its fallback).
    #[inline]
    pub fn value(&self, cube: &Cube) -> u8 {
        self.value_at(self.index(cube))
    }

    /// The values of `cube` on its three axes (U-D, F-B, L-R).
    #[inline]
    pub fn axis_values(&self, cube: &Cube) -> [u8; 3] {
        self.axis_indexes(cube).map(|index| self.value_at(index))
    }

    /// The slot indexes of `cube` on its three axes (U-D, F-B, L-R), each prefetched.
    #[inline]
    pub fn axis_indexes(&self, cube: &Cube) -> [usize; 3] {
        std::array::from_fn(|axis| self.axis_index(axis, cube))
    }

    /// nxopt's six-probe bound of `cube`: on each side (the cube and its inverse) the largest of
    /// its three axes' values, plus one when the three are equal and not 0 (no solution of that length
    /// ends with a turn of any face), the larger side's; in the quarter-turn metric raised to the
    /// parity of the cube.
    pub fn bound(&self, cube: &Cube) -> u8 {
        let side = |x: &Cube| {
            let [a, b, c] = self.axis_values(x);
            a.max(b).max(c) + u8::from(a == b && b == c && a > 0)
        };
        let bound = side(cube).max(side(&cube.inverse()));
        match self.metric() {
            Metric::Htm => bound,
            Metric::Qtm => bound + u8::from((bound & 1 == 1) != cube.corner_parity_odd()),
        }
    }

    /// Starts loading the cache line of slot `index` (which also holds its line minimum).
    #[inline]
    pub fn prefetch(&self, index: usize) {
        self.lines().prefetch(index);
    }
}

/// The spec a loaded table was opened with.
fn table_spec<T: AsRef<[u8]>>(table: &PruneTable<T>) -> TableSpec {
    let spec = TableSpec::new(table.id(), table.encoding(), table.len() as u64);
    match table.tier() {
        Some(tier) => spec.with_tier(tier),
        None => spec,
    }
}
