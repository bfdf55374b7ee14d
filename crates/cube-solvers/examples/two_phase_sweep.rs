//! Sweep of the two-phase solver over seeded random states: table load time, time to 20 and
//! 19 moves (median, p99, max), and the length distribution for a few time budgets.
//!
//! ```text
//! cargo run --release -p cube-solvers --example two_phase_sweep -- [N_STATES] [BUDGET_MS:N_STATES ...]
//! ```
//!
//! Defaults: 1000 states for targets 20 and 19, then budgets 10:1000 100:200 1000:50. State `i`
//! is `Cube::random(&mut ChaCha8Rng::seed_from_u64(i))`. Every solve runs on one thread;
//! `THREADS=n` solves n states at a time (to finish sooner on a many-core machine), `TARGETS=20,19`
//! picks the targets, `CAP_MS` caps a target search (a state still unsolved to the target then
//! counts at its best length).
//!
//! The tables come from the table directory (`$CUBE_TABLES_DIR`, else the user's cache
//! directory), as cube-cli gets them: the first run builds them (seconds) and writes them there.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cube_core::Cube;
use cube_solvers::two_phase::{TwoPhase, TwoPhaseTables};
use cube_solvers::{Limits, Solver, Stop, load_or_build};
use cube_tables::resolve_table_dir;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn state(seed: u64) -> Cube {
    Cube::random(&mut ChaCha8Rng::seed_from_u64(seed))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Solves states `0..n` with `limits`, `threads` at a time: (seconds, length) per state.
fn sweep(solver: &TwoPhase, limits: &Limits, n: u64, threads: u64) -> Vec<(Duration, usize)> {
    let mut out = vec![(Duration::ZERO, 0); n as usize];
    std::thread::scope(|scope| {
        for (worker, chunk) in out
            .chunks_mut(n.div_ceil(threads).max(1) as usize)
            .enumerate()
        {
            let first = worker as u64 * n.div_ceil(threads).max(1);
            scope.spawn(move || {
                let stop = Stop::new();
                for (i, slot) in chunk.iter_mut().enumerate() {
                    let cube = state(first + i as u64);
                    let start = Instant::now();
                    let solutions = solver
                        .solve(&cube, limits, &stop)
                        .expect("random states are solvable");
                    let elapsed = start.elapsed();
                    assert!(cube.apply_moves(&solutions[0].moves).is_solved());
                    *slot = (elapsed, solutions[0].moves.len());
                }
            });
        }
    });
    out
}

fn histogram(lengths: &[usize]) -> String {
    let mut counts = [0usize; 31];
    for &l in lengths {
        counts[l] += 1;
    }
    counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(l, c)| format!("{l}:{c}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The two-phase tables from the table directory (building and writing those missing), and what
/// happened, for the report.
fn cached_tables() -> (Arc<TwoPhaseTables>, String) {
    match resolve_table_dir(None).map(|dir| (load_or_build::<TwoPhaseTables>(&dir), dir)) {
        Ok((Ok(loaded), dir)) => (
            loaded.tables,
            format!("{} tables of {} built", loaded.built, dir.display()),
        ),
        Ok((Err(e), _)) | Err(e) => (Arc::new(TwoPhaseTables::large()), format!("built ({e})")),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n_states: u64 = args
        .first()
        .map_or(1000, |a| a.parse().expect("N_STATES is a number"));
    let budgets: Vec<(u64, u64)> = if args.len() > 1 {
        args[1..]
            .iter()
            .map(|a| {
                let (ms, n) = a.split_once(':').expect("BUDGET_MS:N_STATES");
                (ms.parse().unwrap(), n.parse().unwrap())
            })
            .collect()
    } else {
        vec![(10, 1000), (100, 200), (1000, 50)]
    };
    let start = Instant::now();
    let (tables, source) = cached_tables();
    println!("tables loaded in {:.1} ms ({source})", ms(start.elapsed()));
    let mut config = cube_solvers::two_phase::Config::default();
    if let Ok(value) = std::env::var("OPTIMAL_UP_TO") {
        config.optimal_up_to = value.parse().expect("OPTIMAL_UP_TO is a number");
    }
    let solver = TwoPhase::with_config(tables, config);
    let threads: u64 =
        std::env::var("THREADS").map_or(1, |v| v.parse().expect("THREADS is a number"));
    let cap = std::env::var("CAP_MS")
        .ok()
        .map(|v| Duration::from_millis(v.parse().expect("CAP_MS is a number")));
    println!("threads {threads}, cap {cap:?}");
    let targets: Vec<usize> = std::env::var("TARGETS").map_or(vec![20, 19], |v| {
        v.split(',')
            .map(|t| t.parse().expect("TARGETS is a list of numbers"))
            .collect()
    });
    for target in targets {
        let limits = Limits {
            time_budget: cap,
            ..Limits::default().with_target_length(target)
        };
        let results = sweep(&solver, &limits, n_states, threads);
        let mut times: Vec<Duration> = results.iter().map(|r| r.0).collect();
        let lengths: Vec<usize> = results.iter().map(|r| r.1).collect();
        times.sort();
        let total: Duration = times.iter().sum();
        println!(
            "target {target}: {n_states} states, median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms, mean {:.3} ms; lengths {}",
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.9)),
            ms(percentile(&times, 0.99)),
            ms(*times.last().unwrap()),
            ms(total) / n_states as f64,
            histogram(&lengths)
        );
    }
    for (budget_ms, n) in budgets {
        let limits = Limits::default().with_time_budget(Duration::from_millis(budget_ms));
        let lengths: Vec<usize> = sweep(&solver, &limits, n, threads)
            .iter()
            .map(|r| r.1)
            .collect();
        let mean = lengths.iter().sum::<usize>() as f64 / n as f64;
        println!(
            "budget {budget_ms} ms: {n} states, mean length {mean:.2}; lengths {}",
            histogram(&lengths)
        );
    }
}
