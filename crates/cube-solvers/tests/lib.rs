//! Integration tests of cube-solvers: one binary, one module per topic.
//!
//! - `two_phase`: the public two-phase API against the brute-force oracle and known positions.
//! - `scramble`: the distribution of scrambled states.
//! - `korf`: the Korf optimal solver with the 6edge tier against the oracle and known positions.

mod korf;
mod scramble;
mod two_phase;
