//! The integration tests of cube-tables: one binary, one module per topic.
//!
//! - `util`: the fixture table and the helpers that open a file every way and corrupt it.
//! - `round_trip`: write a table, read it back three ways, verify it.
//! - `faults`: one test per fault injected into a written file: each gives its own error kind.
//! - `bake`: atomic writes, leftover temporary files, a killed bake, a full disk, concurrent bakes.
//! - `clean`: the listing of a table directory's files and `clean`, under the directory's lock.
//! - `cache`: `load_or_build`, the on-disk cache of small tables: missing, corrupt and unwritable.
//! - `nibble`: `NibbleTable` and `pack_nibbles`, exhaustively on small tables.
//! - `header`: proptest round trips of headers, and bit flips that must never load.
//! - `h48`: the H48 tables: h0 baked once, its histograms, bounds on known positions, symmetry.
//! - `nx`: the nx tables: nx-eo1ep1 and its QTM twin baked once, nxopt's average depths, bounds.
//! - `pdb`: the Korf pattern databases: the 6edge tier baked once, histograms, indexes, heuristic, seeds.

mod bake;
mod cache;
mod clean;
mod faults;
mod h48;
mod header;
mod nibble;
mod nx;
mod pdb;
mod round_trip;
mod util;
