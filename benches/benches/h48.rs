//! Benchmarks of the H48 index (`cube_tables::h48::Coordinate`): the SSE shuffle path, its scalar
//! twin, and the plain definition (sticker conjugation), on random cubes.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_main};
use cube_core::Cube;
use cube_tables::h48::Coordinate;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn index(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(48);
    let cubes: Vec<Cube> = (0..1024).map(|_| Cube::random(&mut rng)).collect();
    let mut group = c.benchmark_group("h48_index");
    group.throughput(Throughput::Elements(cubes.len() as u64));
    for n_flips in [0, 7] {
        let coord = Coordinate::new(n_flips);
        group.bench_function(format!("simd/h{n_flips}"), |b| {
            b.iter(|| {
                cubes
                    .iter()
                    .map(|x| coord.index(black_box(x)))
                    .fold(0, usize::wrapping_add)
            })
        });
        group.bench_function(format!("scalar/h{n_flips}"), |b| {
            b.iter(|| {
                cubes
                    .iter()
                    .map(|x| coord.index_scalar(black_box(x)))
                    .fold(0, usize::wrapping_add)
            })
        });
    }
    let coord = Coordinate::new(0);
    group.sample_size(10);
    group.bench_function("plain/h0", |b| {
        b.iter(|| {
            cubes
                .iter()
                .map(|x| coord.index_plain(black_box(x)))
                .fold(0, usize::wrapping_add)
        })
    });
    group.finish();
}

criterion::criterion_group!(benches, index);

criterion_main!(benches);
