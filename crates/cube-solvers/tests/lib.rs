//! Integration tests of cube-solvers: one binary, one module per topic.
//!
//! - `method_tables`: the table families, `load_or_build` and the payload checks.
//! - `two_phase`: the public two-phase API against the brute-force oracle and known positions,
//!   with the small and the large tables.
//! - `scramble`: the distribution of scrambled states.
//! - `fmc`: the FMC step solvers against nissy-core's own tests (`testdata/vectors/fmc.json`)
//!   and by their properties.
//! - `insert`: insertions into FMC skeletons, constructed cases with known answers.
//! - `korf`: the Korf optimal solver with the 6edge tier against the oracle and known positions.
//! - `nx`: the nx search over nx-eo1ep1 against the Korf solver.
//! - `sym48`: the sym48 search with test heuristics against the oracle and the Korf solver.

mod fmc;
mod insert;
mod korf;
mod method_tables;
mod nx;
mod scramble;
mod sym48;
mod two_phase;
