//! Integration tests of cube-solvers: one binary, one module per topic.
//!
//! - `two_phase`: the public two-phase API against the brute-force oracle and known positions.
//! - `scramble`: the distribution of scrambled states.
//! - `korf`: the Korf optimal solver with the 6edge tier against the oracle and known positions.
//! - `sym48`: the sym48 search with test heuristics against the oracle and the Korf solver.

mod korf;
mod scramble;
mod sym48;
mod two_phase;
