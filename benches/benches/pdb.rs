//! Benchmarks of the Korf pattern databases: index functions, and random lookups into a mapped and an
//! anonymous (huge page) 7edge table, which run at memory latency.
//!
//! The lookups need the 7edge tier: `cargo xtask bake-tables --tier 7edge`, then
//! `CUBE_TABLES_DIR=tables cargo bench -p cube-benches --bench pdb`. Without it only the index
//! benchmarks run.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cube_core::{Cube, Move};
use cube_tables::pdb::{self, CornerMoves, EdgeMoveMaps, EdgeSubset, PdbSet};
use cube_tables::{PruneTable, Tier};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N_LOOKUPS: usize = 1 << 16;

fn table_dir() -> PathBuf {
    std::env::var_os(cube_tables::TABLES_DIR_ENV)
        .map_or_else(|| PathBuf::from("../tables"), PathBuf::from)
}

fn indexes(criterion: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let cubes: Vec<Cube> = (0..1024).map(|_| Cube::random(&mut rng)).collect();
    let mut group = criterion.benchmark_group("pdb/index");
    group.throughput(Throughput::Elements(cubes.len() as u64));
    group.bench_function("corner_index", |b| {
        b.iter(|| {
            cubes
                .iter()
                .map(|c| pdb::corner_index(black_box(c)))
                .sum::<usize>()
        })
    });
    group.bench_function("edge_index_7", |b| {
        b.iter(|| {
            cubes
                .iter()
                .map(|c| EdgeSubset::EDGES_7A.index(black_box(c)))
                .sum::<usize>()
        })
    });
    let corners = CornerMoves::get();
    let edges = EdgeMoveMaps::get();
    let moves: Vec<Move> = (0..1024)
        .map(|_| Move::ALL[rng.random_range(0..18)])
        .collect();
    group.bench_function("coord_apply_7edge_tier", |b| {
        let start = pdb::PdbCoord {
            corners: pdb::CornerCoord::SOLVED,
            edges: [EdgeSubset::EDGES_7A.solved(), EdgeSubset::EDGES_7B.solved()],
        };
        b.iter(|| {
            moves
                .iter()
                .fold(start, |coord, &m| coord.apply(m, corners, edges))
                .index()
        })
    });
    group.finish();
}

fn lookups(criterion: &mut Criterion) {
    let dir = table_dir();
    let spec = pdb::EDGES_7A.spec;
    let path = spec.path_in(&dir);
    if !path.exists() {
        eprintln!(
            "pdb/lookup skipped: {} is missing (cargo xtask bake-tables --tier 7edge, and set {})",
            path.display(),
            cube_tables::TABLES_DIR_ENV
        );
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let random: Vec<usize> = (0..N_LOOKUPS)
        .map(|_| rng.random_range(0..spec.n_entries as usize))
        .collect();
    // SAFETY: tables are write-once files from cargo xtask bake-tables.
    #[allow(unsafe_code)]
    let mapped = unsafe { PruneTable::open_mapped(&path, &spec) }.expect("the table maps");
    let anonymous = PruneTable::load_anonymous(&path, &spec).expect("the table loads");
    let mut group = criterion.benchmark_group("pdb/lookup");
    group.throughput(Throughput::Elements(N_LOOKUPS as u64));
    // Dependent lookups (each index depends on the last value) measure latency.
    group.bench_function("mapped_7edge_dependent", |b| {
        b.iter(|| {
            random.iter().fold(0usize, |acc, &i| {
                acc + usize::from(mapped.get((i + (acc & 1)) % mapped.len()))
            })
        })
    });
    group.bench_function("anonymous_7edge_dependent", |b| {
        b.iter(|| {
            random.iter().fold(0usize, |acc, &i| {
                acc + usize::from(anonymous.get((i + (acc & 1)) % anonymous.len()))
            })
        })
    });
    group.bench_function("mapped_7edge_independent", |b| {
        b.iter(|| {
            random
                .iter()
                .map(|&i| usize::from(mapped.get(i)))
                .sum::<usize>()
        })
    });
    group.finish();

    let set = PdbSet::load_anonymous(&dir, Tier::Edge7).expect("the 7edge tier loads");
    let cubes: Vec<Cube> = (0..N_LOOKUPS).map(|_| Cube::random(&mut rng)).collect();
    let mut group = criterion.benchmark_group("pdb/h");
    group.throughput(Throughput::Elements(N_LOOKUPS as u64));
    group.bench_function("h_7edge_anonymous", |b| {
        b.iter(|| cubes.iter().map(|c| u32::from(set.h(c))).sum::<u32>())
    });
    group.finish();
}

criterion_group!(benches, indexes, lookups);
criterion_main!(benches);
