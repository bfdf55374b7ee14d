//! The 3x3x3 Rubik's cube at cubie level, in Kociemba's conventions.
//!
//! - [`Cube`]: a state (corner and edge permutation and orientation; the centres are fixed and
//!   define the frame), with composition in sequence order, inverse, order, parity and a
//!   solvability check whose [`CubeError`] names the rule broken.
//! - [`Face`], [`Move`] and [`MoveSet`]: the 18 face turns and the canonical-sequence rules.
//! - [`Alg`]: notation as cubers write it (wide turns, slices, rotations, grouping,
//!   commutators and conjugates), expanded to face turns plus a whole-cube rotation.
//! - [`NissAlg`]: NISS sequences as FMC write-ups write them (`R U (F' D)`, the moves in
//!   parentheses done on the inverse scramble): both sides' states, `unniss`, `invert`,
//!   `cleanup`, move counts and comparison up to commuting moves.
//! - [`FaceletCube`]: the 54 stickers, whose conversion to cubies is the legality check
//!   ([`FaceletError`]).
//! - [`Symmetry`]: the 48 symmetries, named as in the H48 format.
//! - [`Centers`]: optional centre orientation, for supercubes.
//! - [`perm`]: rank and unrank of permutations and arrangements, orientation packing, parity: the
//!   reference every faster rank of the workspace is tested against.
//! - `Cube::random` (feature `rand`, on by default): uniform random legal states, of the whole
//!   cube or of a `Subgroup` (EO, DR, HTR, corners or edges only) with `Cube::random_in`.
//!
//! A constructor without a suffix checks that its input is well formed, and the state it returns
//! may be unsolvable ([`Cube::from_parts`], [`FaceletCube::to_cube`]); the `_solvable` form
//! checks also that the state is reachable by turning ([`Cube::from_parts_solvable`],
//! [`FaceletCube::to_cube_solvable`]). cube-encode's `decode` and `decode_solvable` follow the
//! same rule.
//!
//! # Example
//!
//! ```
//! use cube_core::{Alg, Cube, FaceletCube};
//!
//! let alg: Alg = "R U R' U'".parse().unwrap();
//! let cube = Cube::SOLVED.apply_alg(&alg);
//! assert_eq!(cube.order(), 6);
//! let stickers = FaceletCube::from_cube(&cube);
//! assert_eq!(stickers.to_cube_solvable(), Ok(cube));
//! ```
#![deny(missing_docs)]

mod centers;
mod cubie;
mod facelet;
mod moves;
mod niss;
mod notation;
pub mod perm;
#[cfg(feature = "rand")]
mod random;
#[cfg(feature = "rand")]
pub use random::{ParseSubgroupError, Subgroup};
mod symmetry;

pub use centers::Centers;
pub use cubie::{Corner, Cube, CubeError, Edge};
pub use facelet::{FaceletCube, FaceletError, facelet_name};
pub use moves::{Face, Move, MoveSet, is_canonical};
pub use niss::{NissAlg, NissParseError, NissParseErrorKind};
pub use notation::{
    Alg, Expanded, MAX_EXPANDED_MOVES, MAX_NESTING, ParseError, ParseErrorKind, simplify,
};
pub use perm::permutation_parity_odd;
pub use symmetry::{ParseSymmetryError, Symmetry};

/// The examples of the crate's README.md, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
