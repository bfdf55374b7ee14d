//! Sweep of the two-phase solver over seeded random states: table build time, time to 20 and
//! 19 moves (median, p99, max), and the length distribution for a few time budgets.
//!
//! ```text
//! cargo run --release -p cube-solvers --example two_phase_sweep -- [N_STATES] [BUDGET_MS:N_STATES ...]
//! ```
//!
//! Defaults: 1000 states for targets 20 and 19, then budgets 10:1000 100:200 1000:50. State `i`
//! is `Cube::random(&mut ChaCha8Rng::seed_from_u64(i))`. One thread.

use std::time::{Duration, Instant};

use cube_core::Cube;
use cube_solvers::two_phase::TwoPhase;
use cube_solvers::{Limits, Solver, Stop};
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n_states: u64 = args.first().map_or(1000, |a| a.parse().expect("N_STATES is a number"));
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
    let build = TwoPhase::prepare();
    println!("tables built in {:.1} ms", ms(build));
    let mut config = cube_solvers::two_phase::Config::default();
    if let Ok(value) = std::env::var("OPTIMAL_UP_TO") {
        config.optimal_up_to = value.parse().expect("OPTIMAL_UP_TO is a number");
    }
    let solver = TwoPhase::with_config(config);
    let stop = Stop::new();
    let targets: Vec<usize> = std::env::var("TARGETS").map_or(vec![20, 19], |v| {
        v.split(',').map(|t| t.parse().expect("TARGETS is a list of numbers")).collect()
    });
    for target in targets {
        let limits = Limits::default().with_target_length(target);
        let mut times = Vec::new();
        let mut lengths = Vec::new();
        for seed in 0..n_states {
            let cube = state(seed);
            let start = Instant::now();
            let solutions = solver.solve(&cube, &limits, &stop).expect("random states are solvable");
            times.push(start.elapsed());
            let moves = &solutions[0].moves;
            assert!(cube.apply_moves(moves).is_solved());
            lengths.push(moves.len());
        }
        times.sort();
        let total: Duration = times.iter().sum();
        println!(
            "target {target}: {n_states} states, median {:.3} ms, p99 {:.3} ms, max {:.3} ms, mean {:.3} ms; lengths {}",
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.99)),
            ms(*times.last().unwrap()),
            ms(total) / n_states as f64,
            histogram(&lengths)
        );
    }
    for (budget_ms, n) in budgets {
        let limits = Limits::default().with_time_budget(Duration::from_millis(budget_ms));
        let lengths: Vec<usize> = (0..n)
            .map(|seed| solver.solve(&state(seed), &limits, &stop).expect("solvable")[0].moves.len())
            .collect();
        let mean = lengths.iter().sum::<usize>() as f64 / n as f64;
        println!("budget {budget_ms} ms: {n} states, mean length {mean:.2}; lengths {}", histogram(&lengths));
    }
}
