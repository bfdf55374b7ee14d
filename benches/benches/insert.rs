//! Benchmarks of the insertion finder (issue 59) over the generated set, on the constructed cases
//! of `benches/positions/insertions.txt`: a skeleton leaving one 3-cycle (the `3c` and `3e`
//! cases) and two (`3c3c`, `3c3e`, `3e3e`), optimal (proven over the set) and greedy. The set
//! is read from the table directory (`CUBE_TABLES_DIR`, else the user's cache; made there, about
//! 10 s, when missing), outside the timing; each iteration answers every case of the group, on
//! all cores.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use cube_core::{Alg, Cube, NissAlg};
use cube_solvers::fmc::insert::{self, InsertTables, Settings};

/// The cases of the kinds `kinds`: the scramble's state and the skeleton.
fn cases(kinds: &[&str]) -> Vec<(Cube, NissAlg)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/insertions.txt");
    std::fs::read_to_string(path)
        .expect("benches/positions/insertions.txt")
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            kinds.contains(&fields[0]).then(|| {
                let scramble: Alg = fields[1].parse().expect("a scramble");
                let skeleton: NissAlg = fields[2].parse().expect("a skeleton");
                (Cube::SOLVED.apply_alg(&scramble), skeleton)
            })
        })
        .collect()
}

fn bench_insert(c: &mut Criterion) {
    let dir = cube_tables::resolve_table_dir(None).expect("a table directory");
    let tables = cube_solvers::load_or_build::<InsertTables>(&dir)
        .expect("the insertion set")
        .tables;
    let set = tables.set();
    let mut group = c.benchmark_group("insert");
    group.sample_size(10);
    for (id, kinds) in [
        ("one_3_cycle", &["3c", "3e"][..]),
        ("two_3_cycles", &["3c3c", "3c3e", "3e3e"][..]),
    ] {
        let cases = cases(kinds);
        for optimal in [true, false] {
            let settings = Settings {
                optimal,
                ..Settings::default()
            };
            let name = format!("{id}/{}", if optimal { "optimal" } else { "greedy" });
            group.bench_function(name, |b| {
                b.iter(|| {
                    for (scramble, skeleton) in &cases {
                        let outcome = insert::insert(
                            set,
                            black_box(scramble),
                            skeleton,
                            &settings,
                            &AtomicBool::new(false),
                        )
                        .expect("a skeleton the set finishes");
                        black_box(outcome.solution);
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_insert);
criterion_main!(benches);
