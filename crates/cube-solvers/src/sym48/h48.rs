//! The H48 tables of cube-tables as the sym48 heuristic: a value depends only on the coset
//! `G·x` (cube-tables tests that a half turn done first keeps the index) and is at most the
//! distance.

use cube_core::Cube;
use cube_tables::Tier;
use cube_tables::h48::H48Table;

use super::Sym48Heuristic;

impl<T: AsRef<[u8]> + Sync> Sym48Heuristic for H48Table<T> {
    type Index = usize;

    #[inline(always)]
    fn index(&self, cube: &Cube) -> usize {
        H48Table::index(self, cube)
    }

    #[inline(always)]
    fn prefetch(&self, index: usize) {
        H48Table::prefetch(self, index);
    }

    #[inline(always)]
    fn get(&self, index: usize) -> u8 {
        self.value_at(index)
    }

    fn tier(&self) -> Tier {
        H48Table::tier(self)
    }
}
