//! Benchmarks of the two-phase solver: seeded random states solved to 20 and to 19 moves, one
//! thread, tables built before timing. The figures of record come from the sweep example
//! (`cargo run --release -p cube-solvers --example two_phase_sweep`), which also reports medians
//! and tails; this bench tracks the mean over a fixed set.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use cube_core::{Cube, MoveSet};
use cube_solvers::two_phase::{TwoPhase, TwoPhaseTables};
use cube_solvers::{Limits, Solver, Stop};
use cube_tables::sym_coord::{SymCoord, axis_symmetries, conjugation_table, sym_distance_table};
use cube_tables::{Flip, MoveTable, TableId, Twist, UdSlice};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn states(n: u64) -> Vec<Cube> {
    (0..n)
        .map(|seed| Cube::random(&mut ChaCha8Rng::seed_from_u64(seed)))
        .collect()
}

fn bench_solve(c: &mut Criterion) {
    let solver = TwoPhase::new(Arc::new(TwoPhaseTables::large()));
    let stop = Stop::new();
    let mut group = c.benchmark_group("two_phase");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for (target, n) in [(20usize, 64u64), (19, 8)] {
        let cubes = states(n);
        let limits = Limits::default().with_target_length(target);
        group.bench_function(format!("random_{n}_states_to_{target}"), |b| {
            b.iter(|| {
                cubes
                    .iter()
                    .map(|cube| {
                        solver.solve(black_box(cube), &limits, &stop).unwrap()[0]
                            .moves
                            .len()
                    })
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

fn bench_tables(c: &mut Criterion) {
    let mut group = c.benchmark_group("two_phase_tables");
    group.sample_size(10);
    let syms = axis_symmetries();
    let twist = MoveTable::<Twist>::new(MoveSet::ALL);
    let flip = MoveTable::<Flip>::new(MoveSet::ALL);
    let slice = MoveTable::<UdSlice>::new(MoveSet::ALL);
    let flip_conj = conjugation_table(&flip, &syms);
    let slice_conj = conjugation_table(&slice, &syms);
    let flip_sym = SymCoord::new(flip_conj.clone(), syms.len());
    let twist_sym = SymCoord::new(conjugation_table(&twist, &syms), syms.len());
    let id = TableId::from_static("bench");
    group.bench_function("sym_slice_flip_prune", |b| {
        b.iter(|| {
            sym_distance_table(id, &flip_sym, &flip, &slice, &slice_conj, &|_| {}).max_distance()
        })
    });
    group.bench_function("sym_twist_flip_prune", |b| {
        b.iter(|| {
            sym_distance_table(id, &twist_sym, &twist, &flip, &flip_conj, &|_| {}).max_distance()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_solve, bench_tables);
criterion_main!(benches);
