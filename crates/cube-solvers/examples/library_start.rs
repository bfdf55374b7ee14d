//! What a library user waits for: the build time of each method's in-memory tables, and the
//! two-phase solve times with the small tables and with the large ones (the crate docs and
//! docs/PERFORMANCE.md cite its output).
//!
//! ```text
//! cargo run --release -p cube-solvers --example library_start -- [N] [DIR]
//! ```
//!
//! `N` (default 200) seeded random states (`ChaCha8Rng::seed_from_u64(i)`) are solved with the
//! default limits (the first solution of at most 20 moves); the large two-phase tables come from
//! `load_or_build` in `DIR` (default: the table directory of `$CUBE_TABLES_DIR` or the user's
//! cache), built and written there the first time. Each build is timed in a fresh run of its own
//! constructor, once.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cube_core::Cube;
use cube_solvers::beginner::{Beginner, BeginnerTables, CrossTables};
use cube_solvers::cfop::CfopTables;
use cube_solvers::thistlethwaite::ThistlethwaiteTables;
use cube_solvers::two_phase::{TwoPhase, TwoPhaseTables};
use cube_solvers::{Limits, MethodTables, Solver, Stop, load_or_build};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

fn timed<T>(build: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let value = build();
    (value, start.elapsed())
}

/// The median and the largest solve time, and the mean and largest length, over `states`.
fn sweep(solver: &TwoPhase, states: &[Cube]) -> String {
    let mut times = Vec::with_capacity(states.len());
    let (mut total, mut longest) = (0, 0);
    for cube in states {
        let start = Instant::now();
        let solutions = solver
            .solve(cube, &Limits::default(), &Stop::new())
            .expect("a legal state");
        times.push(start.elapsed());
        let moves = &solutions[0].moves;
        assert!(cube.apply_moves(moves).is_solved());
        total += moves.len();
        longest = longest.max(moves.len());
    }
    let first = times[0];
    times.sort();
    format!(
        "first solve {:.2} ms, median {:.2} ms, max {:.2} ms; mean length {:.2}, longest {longest}",
        ms(first),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1]),
        total as f64 / states.len() as f64
    )
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().map_or(200, |a| a.parse().expect("N: a count"));
    let dir = args.next().map_or_else(
        || cube_tables::resolve_table_dir(None).expect("a table directory"),
        std::path::PathBuf::from,
    );
    let states: Vec<Cube> = (0..n)
        .map(|i| Cube::random(&mut ChaCha8Rng::seed_from_u64(i)))
        .collect();

    let (small, small_time) = timed(TwoPhaseTables::small);
    println!("two-phase small tables built in {:.1} ms", ms(small_time));
    let (_, thistlethwaite_time) = timed(ThistlethwaiteTables::build);
    println!(
        "thistlethwaite tables built in {:.1} ms",
        ms(thistlethwaite_time)
    );
    let (_, cross_time) = timed(CrossTables::build);
    println!("cross tables built in {:.1} ms", ms(cross_time));
    let (_, cfop_time) = timed(CfopTables::build);
    println!(
        "cfop tables (cross and cases) built in {:.1} ms",
        ms(cfop_time)
    );
    let (beginner, beginner_time) = timed(BeginnerTables::build);
    println!(
        "beginner tables (cross and last layer) built in {:.1} ms",
        ms(beginner_time)
    );
    let beginner = Beginner::new(Arc::new(beginner));
    let (_, first_time) = timed(|| beginner.solve(&states[0], &Limits::default(), &Stop::new()));
    println!("beginner first solve {:.1} ms", ms(first_time));
    let (solver, default_time) = timed(TwoPhase::default);
    println!(
        "TwoPhase::default() and its first solve: {:.1} ms + {}",
        ms(default_time),
        sweep(&solver, &states[..1])
    );

    println!(
        "small tables, {n} states: {}",
        sweep(&TwoPhase::new(Arc::new(small)), &states)
    );
    let (loaded, load_time) = timed(|| load_or_build::<TwoPhaseTables>(&dir).expect("loads"));
    println!(
        "large tables from {} in {:.1} ms ({} of {} built)",
        dir.display(),
        ms(load_time),
        loaded.built,
        TwoPhaseTables::SPECS.len()
    );
    println!(
        "large tables, {n} states: {}",
        sweep(&TwoPhase::new(loaded.tables), &states)
    );
}
