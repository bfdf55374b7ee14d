//! What every optimal family shares: the corner index of the corner database ([`CornerCoord`],
//! [`corner_index`], [`CornerMoves`]), the twist and corner-permutation ranks, and [`SymCorners`],
//! the corner database reduced by symmetry with per-move deltas, which the Korf, sym48 and nx
//! searches derive once from the corner database (and cache beside it, [`SYM_CORNERS_SPECS`]). The
//! database's spec and bake are [`pdb::CORNERS`](crate::pdb::CORNERS); `pdb`, `h48` and `nx` build
//! on this module and never on each other.

pub(crate) mod index;
mod sym;

pub(crate) use self::index::CORNER_COUNT;
pub(crate) use self::index::twist_rank;
pub use self::index::{
    CORNER_PERM_COUNT, CornerCoord, CornerMoves, TWIST_COUNT, corner_index, corner_perm_unrank,
    twist_unrank,
};
pub use self::sym::{CORNER_PERM_CLASSES, SYM_CORNERS_SPECS, SymCorners};
