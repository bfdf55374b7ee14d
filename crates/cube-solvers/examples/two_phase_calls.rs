//! The per-call time of two-phase from Rust on seeded random states, the reference for the Python
//! package's per-call overhead (`crates/cube-py/bench/overhead.py` runs the same states).
//!
//! ```text
//! CUBE_TABLES_DIR=DIR cargo run --release -p cube-solvers --example two_phase_calls -- [N] [ROUNDS]
//! ```
//!
//! State `i` of `0..N` (default 200) is `Scrambler::random_state` of `ChaCha8Rng::seed_from_u64(i)`,
//! as `cube_toolkit.Cube.random(seed=i)` draws it. The two-phase tables come from the table
//! directory (`$CUBE_TABLES_DIR`, else the user's cache), built there when missing. Each round
//! solves every state once; the best round's mean per call is printed, and the same for the
//! solved cube (no search: the fixed cost of a call).

use std::time::Instant;

use cube_core::Cube;
use cube_solvers::scramble::Scrambler;
use cube_solvers::two_phase::{TwoPhase, TwoPhaseTables};
use cube_solvers::{Limits, Solver, Stop};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().map_or(200, |a| a.parse().expect("N: a count"));
    let rounds: usize = args
        .next()
        .map_or(5, |a| a.parse().expect("ROUNDS: a count"));
    let dir = cube_tables::resolve_table_dir(None).expect("a table directory");
    let tables = cube_solvers::load_or_build::<TwoPhaseTables>(&dir)
        .expect("the two-phase tables")
        .tables;
    let states: Vec<Cube> = (0..n)
        .map(|i| Scrambler::random_state(&mut ChaCha8Rng::seed_from_u64(i)))
        .collect();
    let solver = TwoPhase::new(tables);
    let per_call = |cubes: &[Cube]| {
        (0..rounds)
            .map(|_| {
                let start = Instant::now();
                let mut moves = 0;
                for cube in cubes {
                    let solutions = solver
                        .solve(cube, &Limits::default(), &Stop::new())
                        .expect("a legal state");
                    moves += solutions[0].moves.len();
                }
                (start.elapsed().as_secs_f64() / cubes.len() as f64, moves)
            })
            .fold((f64::INFINITY, 0), |(best, _), (t, m)| (best.min(t), m))
    };
    let (random, moves) = per_call(&states);
    let (solved, _) = per_call(&vec![Cube::SOLVED; n as usize]);
    println!(
        "rust two-phase: {n} random states, best of {rounds} rounds: {:.1} us per call, mean length {:.2}",
        random * 1e6,
        moves as f64 / n as f64
    );
    println!(
        "rust two-phase: solved cube: {:.2} us per call",
        solved * 1e6
    );
}
