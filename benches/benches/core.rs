//! Benchmarks of cube-core: face turns, composition, notation parsing.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cube_core::{Alg, Cube, FaceletCube, Move};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn random_cubes(n: usize) -> Vec<Cube> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    (0..n).map(|_| Cube::random(&mut rng)).collect()
}

fn bench_cubie(c: &mut Criterion) {
    let cubes = random_cubes(1024);
    let mut group = c.benchmark_group("cubie");
    group.throughput(Throughput::Elements(cubes.len() as u64));
    group.bench_function("apply_move", |b| {
        b.iter(|| {
            let mut acc = 0u8;
            for (i, cube) in cubes.iter().enumerate() {
                let next = black_box(cube).apply_move(Move::ALL[i % 18]);
                acc ^= next.corner_perm()[0];
            }
            acc
        })
    });
    group.bench_function("compose", |b| {
        b.iter(|| {
            let mut acc = 0u8;
            for pair in cubes.windows(2) {
                let next = black_box(&pair[0]).compose(black_box(&pair[1]));
                acc ^= next.corner_perm()[0];
            }
            acc
        })
    });
    group.bench_function("move_chain", |b| {
        // A dependent chain: each turn waits for the previous one (latency, not throughput).
        b.iter(|| {
            let mut cube = black_box(cubes[0]);
            for i in 0..cubes.len() {
                cube = cube.apply_move(Move::ALL[i % 18]);
            }
            cube
        })
    });
    group.bench_function("inverse", |b| {
        b.iter(|| {
            cubes
                .iter()
                .map(|c| black_box(c).inverse().corner_perm()[1])
                .fold(0, |a, x| a ^ x)
        })
    });
    group.finish();
}

fn bench_notation(c: &mut Criterion) {
    let text = "R U R' U' R' F R2 U' R' U' R U R' F' U2 D L2 B' F2 x";
    c.bench_function("notation/parse_20_moves", |b| {
        b.iter(|| black_box(text).parse::<Alg>().unwrap())
    });
    let alg: Alg = text.parse().unwrap();
    c.bench_function("notation/expand_20_moves", |b| {
        b.iter(|| black_box(&alg).expand())
    });
    let cube = random_cubes(1)[0];
    c.bench_function("facelet/round_trip", |b| {
        b.iter(|| {
            FaceletCube::from_cube(black_box(&cube))
                .to_cube_solvable()
                .unwrap()
        })
    });
}

criterion_group!(benches, bench_cubie, bench_notation);
criterion_main!(benches);
