//! The nx search over `nx-eo1ep1` (baked once under the target directory with the corner
//! database): optimal lengths equal to Korf's on seeded scrambles, every optimal solution equal to
//! Korf's as sets, and the quarter-turn tier refused until its search is written.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cube_core::{Cube, Move};
use cube_solvers::korf::Korf;
use cube_solvers::nx::Config;
use cube_solvers::optimal::{Configs, OptimalSearch, OptimalTables};
use cube_solvers::{Limits, Stop};
use cube_tables::{Anonymous, Tier, tier};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::korf::{check_solutions, random_scramble, tables as korf_tables};

fn table_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("nx-eo1ep1")
}

/// `nx-eo1ep1`, baked on first use (a bake skips sound tables, and waits for a concurrent one).
fn tables() -> &'static OptimalTables<Anonymous> {
    static TABLES: OnceLock<OptimalTables<Anonymous>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let options = cube_tables::pdb::BakeOptions {
            wait_for_lock: true,
            ..Default::default()
        };
        tier::bake(&table_dir(), &[Tier::NxEo1Ep1], &options, &|_| {}).expect("nx-eo1ep1 bakes");
        OptimalTables::load_anonymous(&table_dir(), Tier::NxEo1Ep1, true).expect("it loads")
    })
}

fn all_solutions(search: &dyn OptimalSearch, cube: &Cube) -> Vec<Vec<Move>> {
    let limits = Limits::default().with_n_solutions(usize::MAX);
    let outcome = search
        .search(cube, &limits, &Stop::new(), &mut |_| {})
        .expect("solvable");
    assert!(outcome.optimal);
    let mut solutions: Vec<Vec<Move>> = outcome.solutions.into_iter().map(|s| s.moves).collect();
    solutions.sort();
    solutions
}

/// 200 seeded scrambles of 1 to 10 moves: the first solution's length is Korf's (6edge), found
/// by the search itself (no two-phase upper bound).
#[test]
fn lengths_equal_korf_s() {
    let configs = Configs {
        nx: Config {
            upper_bound: false,
            ..Config::default()
        },
        ..Configs::default()
    };
    let nx = tables().searcher_with(cube_solvers::two_phase::TwoPhase::default(), &configs);
    let korf = Korf::new(korf_tables());
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    for case in 0..200 {
        let scramble = random_scramble(&mut rng, 1 + case % 10);
        let cube = Cube::SOLVED.apply_moves(&scramble);
        let limits = Limits::default();
        let ours = nx
            .search(&cube, &limits, &Stop::new(), &mut |_| {})
            .unwrap();
        let theirs = korf
            .search(&cube, &limits, &Stop::new(), &mut |_| {})
            .unwrap();
        assert!(ours.optimal, "{scramble:?}");
        let (a, b) = (&ours.solutions[0].moves, &theirs.solutions[0].moves);
        assert_eq!(a.len(), b.len(), "{scramble:?}");
        assert!(cube.apply_moves(a).is_solved(), "{scramble:?}");
    }
}

/// Every optimal solution, as a set, is Korf's, on 30 scrambles of 6 to 9 moves.
#[test]
fn all_solutions_equal_korf_s() {
    let nx = tables().searcher(cube_solvers::two_phase::TwoPhase::default());
    let korf = Korf::new(korf_tables());
    let mut rng = ChaCha8Rng::seed_from_u64(3535);
    for case in 0..30 {
        let scramble = random_scramble(&mut rng, 6 + case % 4);
        let cube = Cube::SOLVED.apply_moves(&scramble);
        let ours = all_solutions(nx.as_ref(), &cube);
        check_solutions(&cube, &ours, "nx");
        assert_eq!(ours, all_solutions(&korf, &cube), "{scramble:?}");
    }
}

/// A quarter-turn tier has no search yet: loading it for one is an error that names it.
#[test]
fn the_quarter_turn_tier_is_refused_for_a_search() {
    let err = OptimalTables::load_anonymous(&table_dir(), Tier::NxEo1Ep1Qtm, true).unwrap_err();
    assert!(err.to_string().contains("nx-eo1ep1-qtm"), "{err}");
}

/// nissy-core's 16-movers #1-3 (`shared/positions`, each proven 16 by nissy-core) over
/// `nx-eo1ep1`: no solution up to 15 moves, and the nodes (children made, as vcube counts its
/// evaluations) of the exhausted bounds 11..15 (the same on any number of threads: every bound
/// is searched to the end), first measured
/// 2026-12-04 (docs/PERFORMANCE.md, "nx").
#[test]
fn exhausted_bounds_of_three_16_movers_are_pinned() {
    let configs = Configs {
        nx: Config {
            upper_bound: false,
            ..Config::default()
        },
        ..Configs::default()
    };
    let nx = tables().searcher_with(cube_solvers::two_phase::TwoPhase::default(), &configs);
    let pinned: [[u64; 5]; 3] = [
        [3_240, 8_211, 102_246, 1_300_029, 16_584_540],
        [3_240, 6_294, 81_180, 1_085_229, 14_422_191],
        [3_246, 6_276, 83_754, 1_128_441, 14_920_107],
    ];
    let text = std::fs::read_to_string("../../../shared/positions/nissy-core-optimal-16.txt")
        .expect("the shared positions");
    for (line, expected) in text.lines().zip(pinned) {
        let cube = Cube::SOLVED.apply_alg(&line.parse().unwrap());
        let limits = Limits {
            max_length: Some(15),
            threads: 2,
            ..Limits::default()
        };
        let mut bounds = Vec::new();
        let outcome = nx
            .search(&cube, &limits, &Stop::new(), &mut |p| {
                assert!(p.exhausted, "bound {} not exhausted", p.bound);
                if p.bound >= 11 {
                    bounds.push(p.nodes);
                }
            })
            .unwrap();
        assert!(outcome.solutions.is_empty(), "{line}");
        assert_eq!(outcome.proven_lower_bound, 16, "{line}");
        assert_eq!(bounds, expected, "{line}");
    }
}
