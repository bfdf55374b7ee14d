//! The nx search over `nx-eo1ep1` (baked once under the target directory with the corner
//! database): optimal lengths equal to Korf's on seeded scrambles, every optimal solution equal to
//! Korf's as sets; over `nx-eo1ep1-qtm`, optimal quarter-turn lengths and every optimal solution
//! equal to a breadth-first oracle's, and a checkpoint of the other metric refused.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cube_core::{Alg, Cube, Move, simplify};
use cube_solvers::korf::Korf;
use cube_solvers::nx::Config;
use cube_solvers::optimal::{Checkpoint, Configs, OptimalSearch, OptimalTables, SearchConfig};
use cube_solvers::sym48::Sym48;
use cube_solvers::{Limits, SolveError, Stop};
use cube_tables::{Anonymous, Metric, Tier, tier};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::korf::{check_solutions, random_scramble, tables as korf_tables};
use crate::sym48::{
    bound_nodes, corners as sym48_corners, exact as sym48_exact, h0, nissy_core_16_movers,
};

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
        tier::bake(&table_dir(), &[Tier::NxEo1Ep1], &options, &()).expect("nx-eo1ep1 bakes");
        OptimalTables::load_anonymous(&table_dir(), Tier::NxEo1Ep1, true).expect("it loads")
    })
}

/// Deterministic: no two-phase upper bound. Ordered from bound 14, as when the exhausted bounds'
/// nodes were pinned (`exhausted_bounds_of_three_16_movers_are_pinned`): the prefixes a bound is
/// split into are counted among its nodes.
fn exact() -> Configs {
    Configs {
        nx: Config {
            search: SearchConfig {
                upper_bound: false,
                ..SearchConfig::default()
            },
            ordered_from: 14,
            ..Config::default()
        },
        ..Configs::default()
    }
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

/// 200 seeded scrambles of 1 to 12 moves: the first solution's length is Korf's (6edge) and
/// sym48's (h0), found by the search itself (no two-phase upper bound).
#[test]
fn lengths_equal_korf_s_and_sym48_s() {
    let nx = tables().searcher_with(cube_solvers::two_phase::TwoPhase::default(), &exact());
    let korf = Korf::new(korf_tables());
    let sym48 = Sym48::with_config(h0(), sym48_corners(), sym48_exact());
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    for case in 0..200 {
        let scramble = random_scramble(&mut rng, 1 + case % 12);
        let cube = Cube::SOLVED.apply_moves(&scramble);
        let limits = Limits::default();
        let ours = nx
            .search(&cube, &limits, &Stop::new(), &mut |_| {})
            .unwrap();
        assert!(ours.optimal, "{scramble:?}");
        let length = ours.solutions[0].moves.len();
        assert!(cube.apply_moves(&ours.solutions[0].moves).is_solved());
        // Korf's over 6edge on the shorter ones (its searches of 11 and 12 moves are slow).
        if scramble.len() <= 10 {
            let korf = korf.search(&cube, &limits, &Stop::new(), &mut |_| {});
            assert_eq!(
                length,
                korf.unwrap().solutions[0].moves.len(),
                "{scramble:?}"
            );
        }
        let sym48 = sym48.search(&cube, &limits, &Stop::new(), &mut |_| {});
        assert_eq!(
            length,
            sym48.unwrap().solutions[0].moves.len(),
            "{scramble:?}"
        );
    }
}

/// Every optimal solution, as a set, is Korf's on 30 scrambles of 6 to 9 moves, and sym48's on
/// 30 of 8 to 11 moves.
#[test]
fn all_solutions_equal_korf_s_and_sym48_s() {
    let nx = tables().searcher(cube_solvers::two_phase::TwoPhase::default());
    let korf = Korf::new(korf_tables());
    let sym48 = Sym48::with_config(h0(), sym48_corners(), sym48_exact());
    let mut rng = ChaCha8Rng::seed_from_u64(3535);
    for case in 0..30 {
        let scramble = random_scramble(&mut rng, 6 + case % 4);
        let cube = Cube::SOLVED.apply_moves(&scramble);
        let ours = all_solutions(nx.as_ref(), &cube);
        check_solutions(&cube, &ours, "nx");
        assert_eq!(ours, all_solutions(&korf, &cube), "{scramble:?}");
    }
    for case in 0..30 {
        let scramble = random_scramble(&mut rng, 8 + case % 4);
        let cube = Cube::SOLVED.apply_moves(&scramble);
        let ours = all_solutions(nx.as_ref(), &cube);
        check_solutions(&cube, &ours, "nx");
        assert_eq!(ours, all_solutions(&sym48, &cube), "{scramble:?}");
    }
}

fn qtm_tables() -> &'static OptimalTables<Anonymous> {
    static TABLES: OnceLock<OptimalTables<Anonymous>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let options = cube_tables::pdb::BakeOptions {
            wait_for_lock: true,
            ..Default::default()
        };
        tier::bake(&table_dir(), &[Tier::NxEo1Ep1Qtm], &options, &()).expect("nx-eo1ep1-qtm bakes");
        OptimalTables::load_anonymous(&table_dir(), Tier::NxEo1Ep1Qtm, true).expect("it loads")
    })
}

/// The quarter-turn distances of every position within 6 quarter turns of solved, by breadth
/// first over cubes (983,926 positions: 1, 12, 114, 1068, 10011, 93840, 878880 at 0 to 6).
fn qtm_oracle() -> &'static HashMap<Cube, u8> {
    static ORACLE: OnceLock<HashMap<Cube, u8>> = OnceLock::new();
    ORACLE.get_or_init(|| {
        let mut distance = HashMap::from([(Cube::SOLVED, 0u8)]);
        let mut frontier = vec![Cube::SOLVED];
        for depth in 1..=QTM_ORACLE_DEPTH {
            let mut next = Vec::new();
            for cube in &frontier {
                for m in quarter_turns() {
                    let child = cube.apply_move(m);
                    if let Entry::Vacant(e) = distance.entry(child) {
                        e.insert(depth);
                        next.push(child);
                    }
                }
            }
            frontier = next;
        }
        let mut counts = [0usize; QTM_ORACLE_DEPTH as usize + 1];
        for &d in distance.values() {
            counts[usize::from(d)] += 1;
        }
        // The published counts of positions at each quarter-turn distance (Rokicki's table).
        assert_eq!(counts, [1, 12, 114, 1068, 10011, 93840, 878880]);
        distance
    })
}

const QTM_ORACLE_DEPTH: u8 = 6;

fn quarter_turns() -> impl Iterator<Item = Move> {
    Move::ALL.into_iter().filter(|m| !m.is_half_turn())
}

/// The quarter-turn distance of `cube`, known to be within 7 quarter turns: the oracle's, else 7
/// (checked: a quarter turn brings it to distance 6).
fn qtm_distance(cube: &Cube) -> u8 {
    let oracle = qtm_oracle();
    oracle.get(cube).copied().unwrap_or_else(|| {
        assert!(
            quarter_turns().any(|m| oracle.get(&cube.apply_move(m)) == Some(&QTM_ORACLE_DEPTH)),
            "not within 7 quarter turns"
        );
        QTM_ORACLE_DEPTH + 1
    })
}

/// Every optimal quarter-turn solution of `cube` (within 7 quarter turns), simplified: a move
/// that costs `c` quarter turns from a position at distance `d` to one at `d - c`, by the oracle.
fn qtm_oracle_solutions(cube: &Cube) -> Vec<Vec<Move>> {
    fn walk(cube: &Cube, left: u8, path: &mut Vec<Move>, out: &mut HashSet<Vec<Move>>) {
        if left == 0 {
            out.insert(simplify(path));
            return;
        }
        for m in Move::ALL {
            let cost = 1 + u8::from(m.is_half_turn());
            let child = cube.apply_move(m);
            if cost <= left && qtm_oracle().get(&child) == Some(&(left - cost)) {
                path.push(m);
                walk(&child, left - cost, path, out);
                path.pop();
            }
        }
    }
    let mut out = HashSet::new();
    walk(cube, qtm_distance(cube), &mut Vec::new(), &mut out);
    let mut solutions: Vec<Vec<Move>> = out.into_iter().collect();
    solutions.sort();
    solutions
}

/// A state of `n` random quarter turns.
fn quarter_turn_scramble(rng: &mut ChaCha8Rng, n: usize) -> Cube {
    let turns: Vec<Move> = quarter_turns().collect();
    let moves: Vec<Move> = (0..n)
        .map(|_| turns[rng.random_range(0..turns.len())])
        .collect();
    Cube::SOLVED.apply_moves(&moves)
}

/// 300 seeded states of 1 to 7 random quarter turns: the bound of the search is at most the
/// breadth-first distance, and the first solution's quarter-turn length is that distance, found by
/// the search itself (no two-phase upper bound), then with it.
#[test]
fn quarter_turn_lengths_equal_the_breadth_first_oracle_s() {
    let config = |upper_bound| Configs {
        nx: Config {
            search: SearchConfig {
                upper_bound,
                ..SearchConfig::default()
            },
            ..Config::default()
        },
        ..Configs::default()
    };
    let two_phase = cube_solvers::two_phase::TwoPhase::default;
    let alone = qtm_tables().searcher_with(two_phase(), &config(false));
    let bounded = qtm_tables().searcher_with(two_phase(), &config(true));
    let mut rng = ChaCha8Rng::seed_from_u64(3536);
    for case in 0..300 {
        let cube = quarter_turn_scramble(&mut rng, 1 + case % 7);
        let distance = usize::from(qtm_distance(&cube));
        for search in [&alone, &bounded] {
            let outcome = search
                .search(&cube, &Limits::default(), &Stop::new(), &mut |_| {})
                .unwrap();
            assert!(outcome.optimal, "case {case}");
            assert_eq!(outcome.metric, Metric::Qtm);
            let moves = &outcome.solutions[0].moves;
            assert!(cube.apply_moves(moves).is_solved(), "case {case}");
            assert_eq!(
                Metric::Qtm.length(moves),
                distance,
                "case {case}: {moves:?}"
            );
            assert_eq!(outcome.proven_lower_bound, distance, "case {case}");
        }
    }
}

/// Every optimal quarter-turn solution, as a set, is the oracle's, on 30 states of 4 to 7
/// quarter turns.
#[test]
fn all_quarter_turn_solutions_equal_the_oracle_s() {
    let nx = qtm_tables().searcher(cube_solvers::two_phase::TwoPhase::default());
    let mut rng = ChaCha8Rng::seed_from_u64(3537);
    for case in 0..30 {
        let cube = quarter_turn_scramble(&mut rng, 4 + case % 4);
        let ours = all_solutions(nx.as_ref(), &cube);
        check_solutions(&cube, &ours, "nx qtm");
        assert_eq!(ours, qtm_oracle_solutions(&cube), "case {case}");
    }
}

/// A checkpoint of the half-turn search is refused by the quarter-turn one, naming the metric.
#[test]
fn a_checkpoint_of_the_other_metric_is_refused() {
    let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1, Move::F1, Move::L1]);
    let checkpoint = Checkpoint {
        cube,
        tier: Tier::NxEo1Ep1,
        metric: Metric::Htm,
        prefix_depth: 3,
        n_solutions: 1,
        inverse: true,
        symmetric: true,
        symmetric_starts: true,
        bound: 4,
        nodes: 0,
        done: Vec::new(),
        solutions: Vec::new(),
    };
    let nx = qtm_tables().searcher(cube_solvers::two_phase::TwoPhase::default());
    let err = nx
        .resume(&checkpoint, &Limits::default(), &Stop::new(), &mut |_| {})
        .unwrap_err();
    match err {
        SolveError::BadCheckpoint(e) => assert_eq!(e.field(), "metric", "{e}"),
        e => panic!("{e}"),
    }
}

/// The superflip is 24 quarter turns from solved (Reid 1998), proven here over the largest
/// quarter-turn tier in `CUBE_TABLES_DIR` (341 s over nx-eo3ep1-qtm on 2 cores, hours over
/// nx-eo2ep1-qtm: not for CI; docs/PERFORMANCE.md, "QTM"):
/// `CUBE_TABLES_DIR=tables cargo test --release -p cube-solvers --test integration superflip -- --ignored`
#[test]
#[ignore = "minutes: run by hand over a baked -qtm tier"]
fn the_superflip_is_24_quarter_turns() {
    let dir = PathBuf::from(std::env::var_os("CUBE_TABLES_DIR").expect("CUBE_TABLES_DIR"));
    let tier = tier::default_ready_in(&dir, Metric::Qtm).expect("a -qtm tier is baked there");
    let tables = OptimalTables::load_anonymous(&dir, tier, true).expect("it loads");
    let nx = tables.searcher(cube_solvers::two_phase::TwoPhase::default());
    let superflip: Alg = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"
        .parse()
        .unwrap();
    let cube = Cube::SOLVED.apply_moves(&superflip.moves());
    assert_eq!(cube.edge_ori(), [1; 12], "every edge flipped");
    assert_eq!(
        (cube.edge_perm(), cube.corner_perm(), cube.corner_ori()),
        (Cube::SOLVED.edge_perm(), Cube::SOLVED.corner_perm(), [0; 8]),
        "every piece in place"
    );
    let limits = Limits {
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        ..Limits::default()
    };
    let start = std::time::Instant::now();
    let outcome = nx
        .search(&cube, &limits, &Stop::new(), &mut |p| {
            eprintln!("{tier}: {p}")
        })
        .unwrap();
    eprintln!(
        "{tier}: superflip in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(outcome.optimal);
    assert_eq!(Metric::Qtm.length(&outcome.solutions[0].moves), 24);
}

/// nissy-core's 16-movers #1-3 (`testdata/positions`, each proven 16 by nissy-core) over
/// `nx-eo1ep1`: no solution up to 15 moves, and the nodes (children made, as vcube counts its
/// evaluations) of the exhausted bounds 11..15 (the same on any number of threads: every bound
/// is searched to the end, and on any number of lanes: each prefix is searched alone), first
/// measured 2026-12-04 (docs/PERFORMANCE.md, "nx"); the first position again on one lane and on
/// sixteen.
#[test]
fn exhausted_bounds_of_three_16_movers_are_pinned() {
    let nx = tables().searcher_with(cube_solvers::two_phase::TwoPhase::default(), &exact());
    let pinned: [[u64; 5]; 3] = [
        [3_240, 8_211, 102_246, 1_296_789, 16_581_300],
        [3_240, 6_294, 81_180, 1_081_989, 14_418_951],
        [3_246, 6_276, 83_754, 1_125_201, 14_916_867],
    ];
    let check = |search: &dyn OptimalSearch, line: &str, expected: [u64; 5]| {
        let (bounds, exhausted, outcome) = bound_nodes(search, line, 15, 11);
        assert!(exhausted, "{line}: a bound not exhausted");
        assert!(outcome.solutions.is_empty(), "{line}");
        assert_eq!(outcome.proven_lower_bound, 16, "{line}");
        assert_eq!(bounds, expected, "{line}");
    };
    let lines = nissy_core_16_movers();
    for (line, expected) in lines.iter().zip(pinned) {
        check(nx.as_ref(), line, expected);
    }
    for lanes in [1, 16] {
        let mut configs = exact();
        configs.nx.lanes = lanes;
        let nx = tables().searcher_with(cube_solvers::two_phase::TwoPhase::default(), &configs);
        check(nx.as_ref(), &lines[0], pinned[0]);
    }
}
