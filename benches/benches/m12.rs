//! Benchmarks of the M12 x S7 edge permutation rank: a move by two table lookups
//! (`M12Tables::apply`) against the plain "unrank, permute, rank" path.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_main};
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

/// "Unrank, permute, rank" on the M12 x S7 rank.
fn plain_move(state_rank: u32, turn: &Perm12) -> u32 {
    m12::rank(&m12::apply_move(&m12::unrank(state_rank), turn))
}

/// The usual lexicographic (Lehmer code) rank of a permutation of 12, without tables.
fn lehmer_rank(perm: &Perm12) -> u32 {
    let mut used = 0u16;
    let mut result = 0;
    for (k, &x) in perm.iter().enumerate() {
        let below = (used & ((1 << x) - 1)).count_ones();
        result = result * (12 - k as u32) + u32::from(x) - below;
        used |= 1 << x;
    }
    result
}

/// Inverse of [`lehmer_rank`].
fn lehmer_unrank(mut state_rank: u32) -> Perm12 {
    let mut digits = [0u32; 12];
    for k in (0..12).rev() {
        digits[k] = state_rank % (12 - k as u32);
        state_rank /= 12 - k as u32;
    }
    let mut used = 0u16;
    let mut perm = [0; 12];
    for (out, digit) in perm.iter_mut().zip(digits) {
        // The digit-th point not used yet.
        let mut free = !used;
        for _ in 0..digit {
            free &= free - 1;
        }
        *out = free.trailing_zeros() as u8;
        used |= 1 << *out;
    }
    perm
}

/// "Unrank, permute, rank" on the Lehmer rank: the baseline the M12 x S7 split replaces.
fn lehmer_move(state_rank: u32, turn: &Perm12) -> u32 {
    lehmer_rank(&m12::apply_move(&lehmer_unrank(state_rank), turn))
}

fn bench_m12(c: &mut Criterion) {
    let turns = face_turns();
    let tables = M12Tables::new(&turns);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    // A million states spread over 12!: the lookups miss the caches, as in a search.
    let states: Vec<u32> = (0..1 << 20)
        .map(|_| rng.random_range(0..EDGE_PERM_COUNT))
        .collect();
    let hot_states = &states[..1024];
    let walk: Vec<usize> = (0..1024).map(|_| rng.random_range(0..18)).collect();

    let mut group = c.benchmark_group("m12");
    // Independent moves from random states: throughput, the loads can overlap.
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("decomposed_move", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (i, &state_rank) in states.iter().enumerate() {
                acc ^= tables.apply(black_box(state_rank), i % 18);
            }
            acc
        })
    });
    group.bench_function("lehmer_move", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (i, &state_rank) in states.iter().enumerate() {
                acc ^= lehmer_move(black_box(state_rank), &turns[i % 18]);
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
    // The same 1024 states every iteration: the touched table lines stay in cache.
    group.throughput(Throughput::Elements(hot_states.len() as u64));
    group.bench_function("decomposed_move_hot", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (i, &state_rank) in hot_states.iter().enumerate() {
                acc ^= tables.apply(black_box(state_rank), i % 18);
            }
            acc
        })
    });
    group.bench_function("lehmer_move_hot", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (i, &state_rank) in hot_states.iter().enumerate() {
                acc ^= lehmer_move(black_box(state_rank), &turns[i % 18]);
            }
            acc
        })
    });
    group.bench_function("plain_move_hot", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (i, &state_rank) in hot_states.iter().enumerate() {
                acc ^= plain_move(black_box(state_rank), &turns[i % 18]);
            }
            acc
        })
    });
    // A random walk that goes on across iterations: each move waits for the previous one
    // (latency), and the walk keeps reaching new states.
    group.throughput(Throughput::Elements(walk.len() as u64));
    group.bench_function("decomposed_walk", |b| {
        let mut state_rank = states[0];
        b.iter(|| {
            for &gen_idx in &walk {
                state_rank = tables.apply(state_rank, gen_idx);
            }
            state_rank
        })
    });
    group.bench_function("lehmer_walk", |b| {
        let mut state_rank = states[0];
        b.iter(|| {
            for &gen_idx in &walk {
                state_rank = lehmer_move(state_rank, &turns[gen_idx]);
            }
            state_rank
        })
    });
    group.bench_function("plain_walk", |b| {
        let mut state_rank = states[0];
        b.iter(|| {
            for &gen_idx in &walk {
                state_rank = plain_move(state_rank, &turns[gen_idx]);
            }
            state_rank
        })
    });
    group.throughput(Throughput::Elements(hot_states.len() as u64));
    group.bench_function("rank", |b| {
        let perms: Vec<Perm12> = hot_states.iter().map(|&r| m12::unrank(r)).collect();
        b.iter(|| {
            perms
                .iter()
                .fold(0, |acc, perm| acc ^ m12::rank(black_box(perm)))
        })
    });
    group.bench_function("unrank", |b| {
        b.iter(|| {
            hot_states
                .iter()
                .fold(0, |acc, &r| acc ^ m12::unrank(black_box(r))[0])
        })
    });
    group.finish();

    let mut group = c.benchmark_group("m12_build");
    group.sample_size(10);
    group.bench_function("tables_new_18", |b| {
        b.iter(|| M12Tables::new(black_box(&turns)))
    });
    group.finish();
}

criterion::criterion_group!(benches, bench_m12);

criterion_main!(benches);
