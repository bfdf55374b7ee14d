//! The nx tables: nxopt's pruning tables (Rokicki's `cube20src/nxopt.md`), 2-bit lower bounds on
//! the cosets of one of its subgroups, in the half-turn or the quarter-turn metric.
//!
//! A subgroup ([`Subgroup`]) holds the U and D turns, every corner permutation within the U and
//! the D layer, and what its edge options allow: an [`Eo`] option (which flips the coset keeps)
//! and an [`Ep`] option (which part of the edge permutation it keeps beyond the E-slice
//! placement). The coordinate ([`NxSym::locate`]) is written once for every option: the corner
//! class (9,930 under the 16 symmetries that keep the U-D axis), the edge row of the option, and
//! the E-slice placement (495, the least significant part).
//!
//! Layout: index `(class * rows_per_class + edge_row) << 9 | slot(placement)`, nxopt's lines
//! ([`Encoding::Line2`](crate::Encoding::Line2), the file format's 2-bit line layout that the H48
//! tables share): each 16-byte line holds a 4-bit minimum and 62 codes; a code `c != 0` means the
//! value `base + c`, code 0 the line minimum. A table's value of a cube is a lower bound on its
//! distance, and on that of `h x` for every `h` of the subgroup (so no solution of that length
//! ends with a U or D turn: the search's rules).
//!
//! The bake ([`bake()`]) is an exact breadth-first search over the cosets, one byte per coset (or
//! four bits where bytes do not fit in memory), in parallel, forward then backward; the tiers are
//! `nx-eo1ep1` .. `nx-eo2ep2` and their `-qtm` twins ([`spec`]).

mod bake;
mod cells;
mod coord;
mod edge_maps;
mod family;
mod fast;
mod table;

pub use self::bake::{bake, verify_table};
pub use self::coord::{
    Conjugator, Eo, Ep, N_CORNER_CLASSES, N_CORNER_RAW, N_SLICE, NxSym, Subgroup, corner_coord,
};
pub use self::family::Nx;
pub use self::table::{NxTable, base, spec, subgroup};
pub use crate::tier::family::BakeOptions;
