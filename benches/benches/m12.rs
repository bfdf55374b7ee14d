//! Benchmarks of the M12 x S7 edge permutation rank: a move by two table lookups
//! (`M12Tables::apply`) against the plain "unrank, permute, rank" path.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cube_tables::m12::{self, EDGE_PERM_COUNT, M12Tables, Perm12};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Edge permutations of U, R, F, D, L, B in piece at place form, Kociemba edge order.
const QUARTER_TURNS: [Perm12; 6] = [
    [3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11],
    [8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0],
    [0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11],
    [0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11],
    [0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11],
    [0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7],
];

/// The 18 face turns: U U2 U' R R2 R' ... B B2 B'.
fn face_turns() -> Vec<Perm12> {
    let mut turns = Vec::new();
    for quarter in &QUARTER_TURNS {
        let half = m12::compose(quarter, quarter);
        turns.extend([*quarter, half, m12::compose(&half, quarter)]);
    }
    turns
}

fn plain_move(state_rank: u32, turn: &Perm12) -> u32 {
    m12::rank(&m12::apply_move(&m12::unrank(state_rank), turn))
}

fn bench_m12(c: &mut Criterion) {
    let turns = face_turns();
    let tables = M12Tables::new(&turns);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let states: Vec<u32> = (0..1024)
        .map(|_| rng.random_range(0..EDGE_PERM_COUNT))
        .collect();

    let mut group = c.benchmark_group("m12");
    group.throughput(Throughput::Elements(states.len() as u64));
    // Independent moves from random states: throughput, the loads can overlap.
    group.bench_function("decomposed_move", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (i, &state_rank) in states.iter().enumerate() {
                acc ^= tables.apply(black_box(state_rank), i % 18);
            }
            acc
        })
    });
    group.bench_function("plain_move", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (i, &state_rank) in states.iter().enumerate() {
                acc ^= plain_move(black_box(state_rank), &turns[i % 18]);
            }
            acc
        })
    });
    // A dependent chain: each move waits for the previous one (latency, as in a search).
    group.bench_function("decomposed_chain", |b| {
        b.iter(|| {
            let mut state_rank = black_box(states[0]);
            for i in 0..states.len() {
                state_rank = tables.apply(state_rank, (i * 7) % 18);
            }
            state_rank
        })
    });
    group.bench_function("plain_chain", |b| {
        b.iter(|| {
            let mut state_rank = black_box(states[0]);
            for i in 0..states.len() {
                state_rank = plain_move(state_rank, &turns[(i * 7) % 18]);
            }
            state_rank
        })
    });
    group.bench_function("rank", |b| {
        let perms: Vec<Perm12> = states.iter().map(|&r| m12::unrank(r)).collect();
        b.iter(|| {
            perms
                .iter()
                .fold(0, |acc, perm| acc ^ m12::rank(black_box(perm)))
        })
    });
    group.bench_function("unrank", |b| {
        b.iter(|| {
            states
                .iter()
                .fold(0, |acc, &r| acc ^ m12::unrank(black_box(r))[0])
        })
    });
    group.finish();

    c.bench_function("m12_tables_new", |b| {
        b.iter(|| M12Tables::new(black_box(&turns)))
    });
}

criterion_group!(benches, bench_m12);
criterion_main!(benches);
