//! Benchmarks of cube-encode: encoding plus decoding one state, for each format.
//!
//! Each iteration encodes and decodes 1024 random legal states (uniform, from a fixed seed;
//! no orientation, no centres, except the `twizzle_full` case); criterion reports elements per
//! second, so time per element is the cost of one encode plus one decode. `kpattern` encodes
//! into a new `String` each time; `kpattern_write`, like the other text formats, into a buffer.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cube_core::{Centers, Cube, Symmetry};
use cube_encode::{State, compact, facelet, h48, kpattern, twizzle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_states(n: usize, full: bool) -> Vec<State> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..n)
        .map(|_| {
            let state = State::new(Cube::random(&mut rng));
            if full {
                let r = Symmetry::from_index(rng.random_range(0..24));
                let turns = std::array::from_fn(|_| rng.random_range(0..4u8));
                state
                    .with_orientation(Some(r))
                    .with_centers(Some(Centers::new(turns)))
            } else {
                state
            }
        })
        .collect()
}

fn bench_round_trips(c: &mut Criterion) {
    let states = random_states(1024, false);
    let full = random_states(1024, true);
    let mut group = c.benchmark_group("encode_decode");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("twizzle", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            for state in &states {
                let bytes = twizzle::encode(black_box(state));
                ok += twizzle::decode(black_box(&bytes)).is_ok() as usize;
            }
            ok
        })
    });
    group.bench_function("twizzle_full", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            for state in &full {
                let bytes = twizzle::encode(black_box(state));
                ok += twizzle::decode(black_box(&bytes)).is_ok() as usize;
            }
            ok
        })
    });
    group.bench_function("twizzle_hex", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            let mut buf = [0u8; twizzle::HEX_LEN];
            for state in &states {
                let text = twizzle::write_hex(&twizzle::encode(black_box(state)), &mut buf);
                ok += twizzle::decode_hex(black_box(text)).is_ok() as usize;
            }
            ok
        })
    });
    group.bench_function("h48", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            let mut buf = [0u8; h48::LEN];
            for state in &states {
                let text = h48::write(black_box(state), &mut buf);
                ok += h48::decode(black_box(text)).is_ok() as usize;
            }
            ok
        })
    });
    group.bench_function("facelet", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            let mut buf = [0u8; facelet::LEN];
            for state in &states {
                let text = facelet::write(black_box(state), &mut buf);
                ok += facelet::decode(black_box(text)).is_ok() as usize;
            }
            ok
        })
    });
    group.bench_function("kpattern", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            for state in &states {
                let text = kpattern::encode(black_box(state));
                ok += kpattern::decode(black_box(&text)).is_ok() as usize;
            }
            ok
        })
    });
    // As the other text formats: written into a caller buffer rather than a new `String`.
    group.bench_function("kpattern_write", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            let mut buf = [0u8; kpattern::MAX_LEN];
            for state in &states {
                let text = kpattern::write(black_box(state), &mut buf);
                ok += kpattern::decode(black_box(text)).is_ok() as usize;
            }
            ok
        })
    });
    group.bench_function("compact_batch", |b| {
        let mut buf = Vec::with_capacity(states.len() * compact::RECORD_LEN);
        b.iter(|| {
            buf.clear();
            compact::encode_batch_into(black_box(&states), &mut buf);
            compact::decode_batch(black_box(&buf)).map(|v| v.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench_round_trips);
criterion_main!(benches);
