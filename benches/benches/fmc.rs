//! Benchmarks of the FMC step solvers, issue 33's five queries (tables built once, outside the
//! timing): (a) `eofb`, NISS `all`, every solution up to 1 above optimal; (b) `drud-eofb`,
//! `linear`, optimal; (c) `htr-drud`, `linear`, optimal; (d) `drudfin`, optimal; (e) `drud`,
//! `linear`, optimal; and issue 54's: (f) one `eofb` of exactly 10, then 11 moves, far above the
//! optimum (4), on the README's FMC scramble (`fmc solve eofb --min 11 --max 11 -n 1`); (g) the
//! count of every `eofb` with NISS `all` up to 8 moves on it (358,132).

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use cube_core::{Alg, Cube, Move};
use cube_solvers::fmc::{self, Niss, Settings, StepTables};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `n` states made by 40 random moves of `moves` from a state `start` gives.
fn states(n: usize, start: impl Fn(&mut ChaCha8Rng) -> Cube, moves: &[Move]) -> Vec<Cube> {
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    (0..n)
        .map(|_| {
            let s = start(&mut rng);
            if moves.is_empty() {
                return s;
            }
            (0..40).fold(s, |c, _| {
                c.apply_move(moves[rng.random_range(0..moves.len())])
            })
        })
        .collect()
}

fn bench_fmc(c: &mut Criterion) {
    let eo_moves: Vec<Move> = Move::ALL
        .into_iter()
        .filter(|m| m.face().axis() != 2 || m.is_half_turn())
        .collect();
    let dr_moves: Vec<Move> = Move::ALL
        .into_iter()
        .filter(|m| m.face().axis() == 0 || m.is_half_turn())
        .collect();
    let random = |rng: &mut ChaCha8Rng| Cube::random(rng);
    let solved = |_: &mut ChaCha8Rng| Cube::SOLVED;
    let queries: [(&str, &str, Niss, u8, Vec<Cube>); 5] = [
        (
            "a_eofb_all_plus1",
            "eofb",
            Niss::All,
            1,
            states(20, random, &[]),
        ),
        (
            "b_drud_eofb_linear",
            "drud-eofb",
            Niss::Linear,
            0,
            states(20, solved, &eo_moves),
        ),
        (
            "c_htr_drud_linear",
            "htr-drud",
            Niss::Linear,
            0,
            states(20, solved, &dr_moves),
        ),
        (
            "d_drudfin",
            "drudfin",
            Niss::Normal,
            0,
            states(20, solved, &dr_moves),
        ),
        (
            "e_drud_linear",
            "drud",
            Niss::Linear,
            0,
            states(5, random, &[]),
        ),
    ];
    let mut group = c.benchmark_group("fmc");
    group.sample_size(10);
    for (id, name, niss, above, cubes) in queries {
        let step = fmc::step(name).expect("a step");
        let tables = StepTables::build(step);
        let settings = Settings {
            niss,
            max_solutions: 10_000,
            above_optimal: Some(above),
            ..Settings::default()
        };
        group.bench_function(id, |b| {
            b.iter(|| {
                for cube in &cubes {
                    let outcome = fmc::solve(
                        step,
                        &tables,
                        black_box(cube),
                        &settings,
                        &AtomicBool::new(false),
                    )
                    .expect("a solvable state");
                    black_box(outcome.count);
                }
            })
        });
    }
    let step = fmc::step("eofb").expect("a step");
    let tables = StepTables::build(step);
    let scramble: Alg = "R' U' F D2 L2 F R2 U2 R2 B D2 L2 F' R' F2 U2 F' L' U R' U' F"
        .parse()
        .expect("a scramble");
    let state = Cube::SOLVED.apply_moves(&scramble.moves());
    let long_minimum = |length| Settings {
        min_moves: length,
        max_moves: length,
        ..Settings::default()
    };
    let count_all = Settings {
        niss: Niss::All,
        max_moves: 8,
        max_solutions: usize::MAX,
        count_only: true,
        ..Settings::default()
    };
    for (id, settings) in [
        ("f_eofb_min10_n1", long_minimum(10)),
        ("f_eofb_min11_n1", long_minimum(11)),
        ("g_eofb_all_count8", count_all),
    ] {
        group.bench_function(id, |b| {
            b.iter(|| {
                let outcome = fmc::solve(
                    step,
                    &tables,
                    black_box(&state),
                    &settings,
                    &AtomicBool::new(false),
                )
                .expect("a solvable state");
                black_box(outcome.count);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_fmc);
criterion_main!(benches);
