//! Benchmarks of the staged methods: Thistlethwaite, beginner and CFOP.
//!
//! Before the timed runs it prints, once, the time to build each method's tables and the mean
//! solution length over 1,000 seeded random states (the figures `benches/RESULTS.md` records).
//! The timed runs solve a fixed set of random states, one solve per iteration.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use cube_core::Cube;
use cube_solvers::beginner::Beginner;
use cube_solvers::cfop::Cfop;
use cube_solvers::thistlethwaite::{Thistlethwaite, ThistlethwaiteTables};
use cube_solvers::{Limits, MethodTables, Solver, Stop};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn random_cubes(n: usize) -> Vec<Cube> {
    let mut rng = ChaCha8Rng::seed_from_u64(1000);
    (0..n).map(|_| Cube::random(&mut rng)).collect()
}

fn methods() -> [(&'static str, Box<dyn Solver>); 3] {
    [
        ("thistlethwaite", Box::new(Thistlethwaite::default())),
        ("beginner", Box::new(Beginner::default())),
        ("cfop", Box::new(Cfop::default())),
    ]
}

/// Table build times and mean lengths over 1,000 states, printed once.
fn report() {
    let start = Instant::now();
    let tables = ThistlethwaiteTables::build();
    eprintln!(
        "thistlethwaite tables: {:.0} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    drop(tables);
    let cubes = random_cubes(1000);
    for (name, solver) in methods() {
        // The solvers are built with their tables; the first solve warms the caches.
        let start = Instant::now();
        solver
            .solve(&cubes[0], &Limits::default(), &Stop::new())
            .expect("a random state is solvable");
        let first = start.elapsed();
        let start = Instant::now();
        let (mut total, mut longest) = (0, 0);
        for cube in &cubes {
            let solution = &solver
                .solve(cube, &Limits::default(), &Stop::new())
                .expect("solvable")[0];
            assert!(cube.apply_moves(&solution.moves).is_solved());
            total += solution.len();
            longest = longest.max(solution.len());
        }
        let per_solve = start.elapsed().as_secs_f64() / cubes.len() as f64;
        eprintln!(
            "{name}: first solve {:.0} ms; mean length {:.2}, longest {longest}; {:.1} us per solve",
            first.as_secs_f64() * 1e3,
            total as f64 / cubes.len() as f64,
            per_solve * 1e6,
        );
    }
}

fn bench_methods(c: &mut Criterion) {
    report();
    let cubes = random_cubes(64);
    let mut group = c.benchmark_group("methods");
    group.sample_size(10);
    for (name, solver) in methods() {
        solver
            .solve(&cubes[0], &Limits::default(), &Stop::new())
            .expect("solvable");
        let mut next = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                next = (next + 1) % cubes.len();
                solver
                    .solve(black_box(&cubes[next]), &Limits::default(), &Stop::new())
                    .expect("solvable")
            })
        });
    }
    group.bench_function("thistlethwaite-tables", |b| {
        b.iter(ThistlethwaiteTables::build)
    });
    group.finish();
}

criterion_group!(benches, bench_methods);
criterion_main!(benches);
