//! Cube state formats: Twizzle binary, H48 text, B32 text, facelet strings, Reid piece strings,
//! cubing.js pattern JSON, a compact batch form, and detection of which one a string is.
//!
//! Every format reads into and writes from one type, [`State`]: a [`Cube`](cube_core::Cube)
//! relative to the centres, plus the puzzle orientation and the centre orientation when the
//! format records them. Each format is a module with `encode` and `decode` functions
//! (and `decode_solvable`, which also requires a solvable state). A name without a suffix checks
//! that the input is well formed; the `_solvable` form checks also that the state is reachable
//! by turning, as cube-core's `Cube::from_parts_solvable` and `FaceletCube::to_cube_solvable` do:
//!
//! - [`twizzle`]: Twizzle Binary 3x3x3, 11 bytes, and its 22-digit hex form (cubing.js).
//! - [`h48`]: nissy-core's H48 text.
//! - [`b32`]: nissy-core's B32 text (`ABCDEFGH=ABCDEFGHIJKL=A`), its cube format today.
//! - [`facelet`]: 54-character facelet strings (Kociemba's order, any six colours).
//! - [`reid`]: Reid's piece strings (Singmaster positional notation).
//! - [`kpattern`]: cubing.js `KPattern` JSON.
//! - [`compact`]: batches of states as fixed-size 11-byte records.
//! - [`detect()`], [`shape`] and [`parse_as`]: which [`Format`] a string is in.
//! - [`check()`] and [`check_as`]: every rule a text breaks, each a [`Problem`] with a stable
//!   rule code, read leniently where a format can write what no cube has.
//!
//! Decoders never panic; every failure is a [`DecodeError`] naming the problem. Encoding and
//! decoding Twizzle binary, H48, B32 and facelets allocate nothing on success (the `encode`
//! functions that return a `String` allocate it; the `write` functions fill a caller buffer).
//! With the feature `serde`, [`State`] implements `Serialize` and `Deserialize`.
//!
//! # Example
//!
//! ```
//! use cube_core::Alg;
//! use cube_encode::{Format, State, detect, h48, twizzle};
//!
//! let state = State::from_alg(&"R U R' U'".parse::<Alg>().unwrap());
//! let bytes = twizzle::encode(&state);
//! assert_eq!(twizzle::decode(&bytes), Ok(state));
//!
//! let text = h48::encode(&state);
//! let (format, read) = detect(&text).unwrap();
//! assert_eq!(format, Format::H48);
//! assert_eq!(read.cube(), state.cube());
//! ```
#![deny(missing_docs)]
// The codecs walk several parallel arrays (positions, pieces, orientations) by index.
#![allow(clippy::needless_range_loop)]

pub mod b32;
mod check;
pub mod compact;
mod detect;
mod error;
pub mod facelet;
mod format;
pub mod h48;
pub mod kpattern;
mod problem;
pub mod reid;
#[cfg(feature = "serde")]
mod serde_impl;
mod state;
pub mod twizzle;

pub use check::{Checked, check, check_as};
pub use detect::{detect, parse, parse_as, shape, structured_shape};
pub use error::{DecodeError, Field};
pub use format::{Format, UnknownFormat};
pub use problem::{Problem, illegal_cube};
pub use state::State;

/// The examples of the crate's README.md, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
