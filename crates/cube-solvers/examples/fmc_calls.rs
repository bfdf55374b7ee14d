//! The time of FMC step solves in one process, one query at a time, on scrambles read from a file
//! (one a line): the reference for the in-process figures of docs/PERFORMANCE.md's FMC section.
//!
//! ```text
//! CUBE_TABLES_DIR=DIR cargo run --release -p cube-solvers --example fmc_calls -- STEP NISS ABOVE FILE [ROUNDS]
//! ```
//!
//! The step's tables come from the table directory (built there when missing). Each round solves
//! every line once, every solution up to `ABOVE` moves above optimal (at most 255, as the
//! comparison with nissy-core asks); the median and total of the best round's per-query times are
//! printed, and with `FMC_CALLS_PRINT=1` each query's solutions.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use cube_core::{Alg, Cube};
use cube_solvers::fmc::{Settings, StepTables, solve, step};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, niss, above, file, rest @ ..] = args.as_slice() else {
        panic!("usage: fmc_calls STEP NISS ABOVE FILE [ROUNDS]");
    };
    let rounds: usize = rest
        .first()
        .map_or(3, |r| r.parse().expect("ROUNDS: a count"));
    let step = step(name).expect("a step name");
    let dir = cube_tables::resolve_table_dir(None).expect("a table directory");
    let start = Instant::now();
    let tables = StepTables::load_or_build(step, &dir)
        .expect("the step's tables")
        .tables;
    println!(
        "tables {}: {:.1} ms",
        tables.name(),
        start.elapsed().as_secs_f64() * 1e3
    );
    let states: Vec<Cube> = std::fs::read_to_string(file)
        .expect("FILE: readable")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Cube::SOLVED.apply_alg(&l.parse::<Alg>().expect("a scramble")))
        .collect();
    let settings = Settings {
        niss: niss.parse().expect("a NISS mode"),
        max_solutions: 255,
        above_optimal: Some(above.parse().expect("ABOVE: a count")),
        ..Settings::default()
    };
    let print = std::env::var_os("FMC_CALLS_PRINT").is_some();
    let mut best: Option<Vec<f64>> = None;
    for _ in 0..rounds {
        let mut times = Vec::new();
        for state in &states {
            let start = Instant::now();
            let outcome = solve(step, &tables, state, &settings, &AtomicBool::new(false))
                .expect("a state meeting the requisite");
            times.push(start.elapsed().as_secs_f64());
            if print && best.is_none() {
                let list: Vec<String> = outcome.solutions.iter().map(|s| s.to_string()).collect();
                println!("{}", list.join("|"));
            }
        }
        if best
            .as_ref()
            .is_none_or(|b| b.iter().sum::<f64>() > times.iter().sum::<f64>())
        {
            best = Some(times);
        }
    }
    let mut times = best.expect("at least one round");
    if times.is_empty() {
        return;
    }
    let total: f64 = times.iter().sum();
    times.sort_by(f64::total_cmp);
    println!(
        "{name} {niss} +{above}: {} queries, best of {rounds} rounds: median {:.3} ms, total {:.1} ms",
        times.len(),
        times[times.len() / 2] * 1e3,
        total * 1e3
    );
}
