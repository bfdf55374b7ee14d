//! Integration tests of cube-core. One binary, one module per topic:
//! - `anchors`: facts about the cube from the literature that pin the conventions;
//! - `vectors`: the externally generated facelet vectors in `testdata/vectors/facelets.json`;
//! - `facelets`: every facelet error kind, from crafted bad cubes;
//! - `symmetry`: the 48 symmetries as a group, and their action on moves and cubes;
//! - `properties`: group laws and round trips, searched by proptest;
//! - `notation`: parsing, printing, expansion and inversion of algorithms;
//! - `niss`: NISS sequences, against nissy-core's tests and by proptest.

mod anchors;
mod facelets;
mod niss;
mod notation;
mod properties;
mod symmetry;
mod vectors;

use std::path::PathBuf;

/// The folder of externally generated test vectors, the repository's `testdata/vectors`.
pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors")
}

/// Parses `text` and returns the state it makes (relative to the centres).
pub fn cube_of(text: &str) -> cube_core::Cube {
    let alg: cube_core::Alg = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
    cube_core::Cube::SOLVED.apply_alg(&alg)
}
