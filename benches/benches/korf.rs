//! Benchmarks of Korf's optimal solver with the 6edge tier (baked once under the target
//! directory, or read from `$CUBE_KORF_TABLES` when set, with `$CUBE_KORF_TIER` naming its tier).
//!
//! Inputs are grouped by length, as nissy-core groups its benchmark scrambles by optimal length:
//! `optimal-N` solves seeded random scrambles of N moves to optimality (one thread), and
//! `exhaust-13` proves that a 16-move position of `positions/nissy-core-optimal-16.txt` has no
//! solution of 13 moves or fewer, with and without the inverse and symmetric lookups: the node
//! rate and what each lookup saves. The full benchmark over published positions is the example
//! `cargo run --release -p cube-solvers --example optimal_bench`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use cube_core::{Alg, Cube, Move};
use cube_solvers::korf::{Config, Korf};
use cube_solvers::optimal::{OptimalSearch, SearchConfig};
use cube_solvers::{Limits, Stop};
use cube_tables::Tier;
use cube_tables::pdb::{self, BakeOptions, PdbSet};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn tables() -> PdbSet<cube_tables::Anonymous> {
    let (dir, tier) = match std::env::var_os("CUBE_KORF_TABLES") {
        Some(dir) => {
            let tier = std::env::var("CUBE_KORF_TIER").unwrap_or_else(|_| "7edge".to_string());
            (
                PathBuf::from(dir),
                tier.parse()
                    .expect("CUBE_KORF_TIER is 6edge, 7edge or 8edge"),
            )
        }
        None => {
            let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("korf-6edge");
            let options = BakeOptions {
                wait_for_lock: true,
                ..BakeOptions::default()
            };
            pdb::bake_tier(&dir, Tier::Edge6, &options, &|_| {}).expect("the 6edge tier bakes");
            (dir, Tier::Edge6)
        }
    };
    PdbSet::load_anonymous(&dir, tier).expect("the tables load")
}

fn scrambles(n_moves: usize, n: usize) -> Vec<Cube> {
    let mut rng = ChaCha8Rng::seed_from_u64(n_moves as u64);
    (0..n)
        .map(|_| {
            let moves: Vec<Move> = (0..n_moves)
                .map(|_| Move::from_index(rng.random_range(0..18)))
                .collect();
            Cube::SOLVED.apply_moves(&moves)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let tables = tables();
    let korf = Korf::new(&tables);
    let mut group = c.benchmark_group("korf");
    group.sample_size(10);
    for n_moves in [8, 10, 12] {
        let cubes = scrambles(n_moves, 4);
        group.bench_function(format!("optimal-{n_moves}"), |b| {
            b.iter(|| {
                for cube in &cubes {
                    black_box(
                        korf.search(cube, &Limits::default(), &Stop::new(), &mut |_| {})
                            .unwrap(),
                    );
                }
            })
        });
    }
    // positions/nissy-core-optimal-16.txt, line 1.
    let cube = Cube::SOLVED.apply_alg(
        &"U' D F2 U2 R F' R' U' D2 F' U B R D F R'"
            .parse::<Alg>()
            .unwrap(),
    );
    for (name, inverse, symmetric) in [
        ("plain", false, false),
        ("inverse", true, false),
        ("symmetric", false, true),
        ("both", true, true),
    ] {
        let config = Config {
            inverse,
            symmetric,
            search: SearchConfig {
                upper_bound: false,
                ..SearchConfig::default()
            },
            ..Config::default()
        };
        let korf = Korf::with_config(&tables, config);
        let limits = Limits::default().with_max_length(13);
        let nodes = korf
            .search(&cube, &limits, &Stop::new(), &mut |_| {})
            .unwrap()
            .nodes;
        eprintln!("exhaust-13/{name}: {nodes} nodes");
        group.bench_function(format!("exhaust-13/{name}"), |b| {
            b.iter(|| {
                black_box(
                    korf.search(&cube, &limits, &Stop::new(), &mut |_| {})
                        .unwrap(),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
