//! The H48 tables: 2-bit lower bounds over nissy-core's H48 coordinate, reduced by all 48
//! symmetries, in cube48opt's line layout.
//!
//! The coordinate ([`Coordinate`]) is the coset of the cube under the group G that keeps every
//! corner in its tetrad and unturned and every edge in its slice: the corner part [`cocsep()`]
//! (153,090 values) reduced by the 48 symmetries to 3,393 classes ([`Cocsep`]), then the edges of
//! the cube conjugated by the symmetry that carries its corners to their class representative
//! ([`EdgeParts`]): where the E- and M-slice edges are (70 x 495) and the top `N` of 11 flips.
//! Conjugating a cube by any symmetry keeps its table value, and so does a half turn done before
//! it (G holds the six half turns): `value(U2 x) = value(x)`, where `U2 x` is `U2` then `x`.
//!
//! Layout: index `((class * 70 + sep70) << N | eoN) << 9 | slot`, where `slot` is the E-slice
//! placement spread over 512 slots so that each 16-byte line holds a 4-bit line minimum (the first
//! two 2-bit fields) and 62 codes; slot 511 of each block is unused. A code `c != 0` means the
//! value `base + c`; code 0 means the value is at most `base`, and then the line minimum (the
//! exact minimum of the line's 62 values) is the bound.
//!
//! See `docs/tables.md` for the file format and the design note `sym48.md` for the reasons.

mod bake;
mod cocsep;
mod edges;
mod family;
mod index;
mod sparse;
mod table;

pub use self::bake::{bake, bake_tiers};
pub use self::cocsep::{Cocsep, CocsepEntry, cocsep};
pub use self::edges::{EdgeParts, EdgeSyms, slot};
pub use self::family::H48;
pub use self::index::Coordinate;
pub use self::sparse::{H0_CODES, verify_table};
pub use self::table::{H0, H4, H5, H6, H7, H48Table, base};
pub use crate::file::bake::BakeReport;
pub use crate::tier::family::BakeOptions;

#[cfg(test)]
mod tests;
