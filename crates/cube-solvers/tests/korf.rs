//! Korf's optimal solver through the public API, with the corner database and the 6edge tier
//! (baked once under the target directory): optimal lengths and every optimal solution against
//! the table-free [`Slow`] oracle, positions of published optimal length, the same answer on 1
//! and 2 threads, stopping and resuming, and the errors.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use cube_core::{Alg, Cube, CubeError, Move, Symmetry, is_canonical};
use cube_solvers::korf::{Config, Korf};
use cube_solvers::optimal::{Checkpoint, OptimalSearch, Outcome, Periodic, SearchConfig};
use cube_solvers::slow::Slow;
use cube_solvers::{Limits, SolveError, Solver, Stop};
use cube_tables::pdb::{self, BakeOptions, PdbSet};
use cube_tables::{Metric, Tier};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub(crate) fn table_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("korf-6edge")
}

/// The 6edge tier, baked on first use (a bake skips valid tables, and waits for a concurrent one).
pub(crate) fn tables() -> &'static PdbSet<Vec<u8>> {
    static TABLES: OnceLock<PdbSet<Vec<u8>>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let options = BakeOptions {
            wait_for_lock: true,
            ..BakeOptions::default()
        };
        pdb::bake_tier(&table_dir(), Tier::Edge6, &options, &|_| {}).expect("the 6edge tier bakes");
        PdbSet::load(&table_dir(), Tier::Edge6).expect("the 6edge tier loads")
    })
}

fn search(korf: &Korf<'_, Vec<u8>>, cube: &Cube, limits: &Limits) -> Outcome {
    korf.search(cube, limits, &Stop::new(), &mut |_| {})
        .expect("solvable")
}

pub(crate) fn random_scramble(rng: &mut ChaCha8Rng, n_moves: usize) -> Vec<Move> {
    (0..n_moves)
        .map(|_| Move::from_index(rng.random_range(0..18)))
        .collect()
}

/// Checks that `solutions` are distinct, canonical, of one length, and solve `cube`.
pub(crate) fn check_solutions(cube: &Cube, solutions: &[Vec<Move>], what: &str) {
    let mut seen = std::collections::HashSet::new();
    for moves in solutions {
        assert!(
            cube.apply_moves(moves).is_solved(),
            "{what}: {} does not solve",
            Alg::from_moves(moves)
        );
        assert!(
            is_canonical(moves),
            "{what}: {} is not canonical",
            Alg::from_moves(moves)
        );
        assert_eq!(moves.len(), solutions[0].len(), "{what}: lengths differ");
        assert!(
            seen.insert(moves.clone()),
            "{what}: {} listed twice",
            Alg::from_moves(moves)
        );
    }
}

/// 200 seeded scrambles of 1 to 7 moves: the optimal length is the oracle's, and the list of all
/// optimal solutions is distinct, canonical and correct, and (up to 5 moves) exactly the oracle's.
#[test]
fn optimal_lengths_agree_with_the_oracle() {
    let korf = Korf::new(tables());
    let mut rng = ChaCha8Rng::seed_from_u64(1997);
    let all = Limits::default().with_n_solutions(usize::MAX);
    for case in 0..200 {
        let scramble = random_scramble(&mut rng, 1 + case % 7);
        let cube = Cube::SOLVED.apply_moves(&scramble);
        let what = Alg::from_moves(&scramble).to_string();
        let oracle = Slow::new()
            .solve(&cube, &Limits::default().with_max_length(7), &Stop::new())
            .unwrap();
        let one = search(&korf, &cube, &Limits::default());
        assert!(one.optimal, "{what}");
        assert_eq!(
            one.solutions[0].moves.len(),
            oracle[0].moves.len(),
            "{what}"
        );
        assert!(
            cube.apply_moves(&one.solutions[0].moves).is_solved(),
            "{what}"
        );
        let every = search(&korf, &cube, &all);
        let every: Vec<Vec<Move>> = every.solutions.into_iter().map(|s| s.moves).collect();
        check_solutions(&cube, &every, &what);
        assert_eq!(every[0].len(), oracle[0].moves.len(), "{what}");
        if oracle[0].moves.len() <= 5 {
            let mut expected: Vec<Vec<Move>> = Slow::new()
                .solve(&cube, &all.clone().with_max_length(5), &Stop::new())
                .unwrap()
                .into_iter()
                .map(|s| s.moves)
                .collect();
            let mut found = every.clone();
            expected.sort();
            found.sort();
            assert_eq!(found, expected, "{what}");
        }
    }
}

/// The first position of `positions/nissy-core-optimal-16.txt` (nissy-core `benchmarks/scrambles/`,
/// commit 3cb60bc): the line is an optimal 16-move solution of the position it makes. The nx and
/// sym48 tests prove the first three 16 (`exhausted_bounds_of_three_16_movers_are_pinned`); one
/// here keeps Korf's proof of a published length at a third of the time.
const SIXTEEN: [&str; 1] = ["U' D F2 U2 R F' R' U' D2 F' U B R D F R'"];
/// The published length, proven and reached: every bound below 16 exhausted (no shorter
/// solution), then a 16-move solution found, with the two-phase solver running beside the search as
/// in the CLI. About 30 s with the 6edge tier on two cores.
#[test]
fn sixteen_move_positions_solved() {
    let korf = Korf::new(tables());
    let limits = Limits {
        threads: 2,
        ..Limits::default()
    };
    for line in SIXTEEN {
        let alg: Alg = line.parse().unwrap();
        let cube = Cube::SOLVED.apply_alg(&alg);
        assert!(cube.apply_moves(&alg.inverse().moves()).is_solved());
        let outcome = search(&korf, &cube, &limits);
        assert!(outcome.optimal, "{line}");
        assert_eq!(outcome.proven_lower_bound, 16, "{line}");
        assert!(outcome.checkpoint.is_none(), "{line}");
        let moves = &outcome.solutions[0].moves;
        assert_eq!(moves.len(), 16, "{line}");
        assert!(cube.apply_moves(moves).is_solved(), "{line}");
    }
}

/// Without the two-phase bound, the answer depends on the position only: one thread or two, the
/// same solutions in the same order.
#[test]
fn same_answer_on_one_and_two_threads() {
    let config = Config {
        search: SearchConfig {
            upper_bound: false,
            ..SearchConfig::default()
        },
        ..Config::default()
    };
    let korf = Korf::with_config(tables(), config);
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    for case in 0..6 {
        let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, 9 + case % 3));
        for n_solutions in [1, 3, usize::MAX] {
            let answers: Vec<Vec<Vec<Move>>> = [1, 2]
                .iter()
                .map(|&threads| {
                    let limits = Limits {
                        threads,
                        n_solutions,
                        ..Limits::default()
                    };
                    search(&korf, &cube, &limits)
                        .solutions
                        .into_iter()
                        .map(|s| s.moves)
                        .collect()
                })
                .collect();
            assert_eq!(
                answers[0], answers[1],
                "case {case}, {n_solutions} solutions"
            );
            check_solutions(&cube, &answers[0], "threads");
        }
    }
}

/// Each configuration of lookups gives the same optimal length, and the full one needs fewer nodes
/// than the plain maximum of three.
#[test]
fn lookups_change_nodes_not_answers() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, 12));
    let mut results = Vec::new();
    for (inverse, symmetric) in [(false, false), (true, false), (false, true), (true, true)] {
        let config = Config {
            inverse,
            symmetric,
            search: SearchConfig {
                upper_bound: false,
                ..SearchConfig::default()
            },
            ..Config::default()
        };
        let outcome = search(
            &Korf::with_config(tables(), config),
            &cube,
            &Limits::default(),
        );
        results.push((outcome.solutions[0].moves.clone(), outcome.nodes));
    }
    for (moves, _) in &results {
        assert_eq!(moves, &results[0].0);
    }
    assert!(results[3].1 < results[0].1, "{results:?}");
}

/// Distinct up to symmetry: `R2 L2 U2 D2` is symmetric under many symmetries, so its optimal
/// solutions collapse into fewer classes, and every one is the image of a kept one.
#[test]
fn distinct_up_to_symmetry() {
    let cube = Cube::SOLVED.apply_alg(&"R2 L2 U2 D2".parse::<Alg>().unwrap());
    let all = Limits::default().with_n_solutions(usize::MAX);
    let every = search(&Korf::new(tables()), &cube, &all).solutions;
    let config = Config {
        distinct_up_to_symmetry: true,
        ..Config::default()
    };
    let distinct = search(&Korf::with_config(tables(), config), &cube, &all).solutions;
    assert!(
        !distinct.is_empty() && distinct.len() < every.len(),
        "{} of {}",
        distinct.len(),
        every.len()
    );
    // Every solution is a symmetry image of a kept one.
    let symmetries: Vec<Symmetry> = Symmetry::all()
        .filter(|s| s.conjugate(&cube) == cube)
        .collect();
    for solution in &every {
        assert!(
            distinct.iter().any(|kept| symmetries.iter().any(|s| {
                let image: Vec<Move> = kept.moves.iter().map(|&m| s.conjugate_move(m)).collect();
                cube_core::simplify(&image) == solution.moves
            })),
            "{} is no image of a kept solution",
            Alg::from_moves(&solution.moves)
        );
    }
}

/// A stopped search returns a checkpoint; resuming it (through its text form) gives the answer
/// of the uninterrupted search.
#[test]
fn stop_and_resume() {
    let config = Config {
        search: SearchConfig {
            upper_bound: false,
            ..SearchConfig::default()
        },
        ..Config::default()
    };
    let korf = Korf::with_config(tables(), config);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, 13));
    let full = search(&korf, &cube, &Limits::default());
    let short = Limits::default().with_time_budget(Duration::from_millis(30));
    let stopped = search(&korf, &cube, &short);
    let Some(checkpoint) = stopped.checkpoint else {
        // The whole search fit in the budget.
        assert_eq!(stopped.solutions, full.solutions);
        return;
    };
    assert!(!stopped.optimal);
    assert!(stopped.proven_lower_bound <= full.solutions[0].moves.len());
    let checkpoint: Checkpoint = checkpoint
        .to_string()
        .parse()
        .expect("a checkpoint reads back");
    let resumed = korf
        .resume(&checkpoint, &Limits::default(), &Stop::new(), &mut |_| {})
        .unwrap();
    assert!(resumed.optimal);
    assert_eq!(resumed.solutions, full.solutions);
}

/// Periodic checkpoints while a bound is searched on two threads; resuming from the last one gives
/// the answer of the uninterrupted search, and the node count goes on from the checkpoint's.
/// See issue 15.
#[test]
fn periodic_checkpoints_resume() {
    let config = Config {
        search: SearchConfig {
            upper_bound: false,
            ..SearchConfig::default()
        },
        ..Config::default()
    };
    let korf = Korf::with_config(tables(), config);
    let cube = Cube::SOLVED.apply_alg(&"R U F D L B R' U' F' D' L' B'".parse::<Alg>().unwrap());
    let limits = Limits {
        threads: 2,
        ..Limits::default()
    };
    let mut saved: Vec<Checkpoint> = Vec::new();
    let mut save = |c: &Checkpoint| saved.push(c.clone());
    let full = korf
        .search_checkpointed(
            &cube,
            None,
            &limits,
            &Stop::new(),
            &mut |_| {},
            Some(Periodic {
                every: Duration::from_millis(1),
                save: &mut save,
            }),
        )
        .unwrap();
    assert!(full.optimal);
    let last = saved.last().unwrap_or_else(|| {
        panic!(
            "a search of several bounds on two threads saves: {} moves, {} nodes, {:?}",
            full.solutions[0].moves.len(),
            full.nodes,
            full.elapsed
        )
    });
    assert!(last.nodes > 0 && last.nodes <= full.nodes);
    let checkpoint: Checkpoint = last.to_string().parse().expect("a checkpoint reads back");
    let resumed = korf
        .resume(&checkpoint, &limits, &Stop::new(), &mut |_| {})
        .unwrap();
    assert!(resumed.optimal);
    assert_eq!(resumed.solutions, full.solutions);
    assert!(resumed.nodes >= checkpoint.nodes);
}

/// The checkpoint a search of `cube` over 6edge with `config` writes on reaching `bound`, before
/// any prefix of it is done.
fn edge6_checkpoint(cube: Cube, config: &Config, bound: usize) -> Checkpoint {
    Checkpoint {
        cube,
        tier: Tier::Edge6,
        metric: Metric::Htm,
        prefix_depth: config.search.prefix_depth,
        n_solutions: 1,
        inverse: config.inverse,
        symmetric: config.symmetric,
        symmetric_starts: false,
        bound,
        nodes: 0,
        done: Vec::new(),
        solutions: Vec::new(),
    }
}

/// A checkpoint of another search is refused with the field that differs, never a panic. See
/// issue 15.
#[test]
fn mismatched_checkpoints_are_named() {
    let config = Config {
        search: SearchConfig {
            upper_bound: false,
            ..SearchConfig::default()
        },
        ..Config::default()
    };
    let korf = Korf::with_config(tables(), config.clone());
    let cube = Cube::SOLVED.apply_alg(&"R U F D L B R' U' F' D' L' B'".parse::<Alg>().unwrap());
    // What a search of 12 moves at bound 10 with the default configuration would write.
    let checkpoint = Checkpoint {
        nodes: 1000,
        done: vec![0, 1, 2],
        ..edge6_checkpoint(cube, &config, 10)
    };
    let resumed = korf.resume(&checkpoint, &Limits::default(), &Stop::new(), &mut |_| {});
    assert!(resumed.is_ok_and(|o| o.optimal && o.nodes > 1000));
    let field = |korf: &Korf<'_, Vec<u8>>, checkpoint: &Checkpoint, limits: &Limits| match korf
        .resume(checkpoint, limits, &Stop::new(), &mut |_| {})
    {
        Err(SolveError::BadCheckpoint(e)) => e.field(),
        other => panic!("expected a bad checkpoint, got {other:?}"),
    };
    let shallow = Korf::with_config(
        tables(),
        Config {
            search: SearchConfig {
                prefix_depth: 2,
                ..config.search.clone()
            },
            ..config.clone()
        },
    );
    assert_eq!(
        field(&shallow, &checkpoint, &Limits::default()),
        "prefix-depth"
    );
    let all = Limits {
        n_solutions: usize::MAX,
        ..Limits::default()
    };
    assert_eq!(field(&korf, &checkpoint, &all), "solutions-wanted");
    let plain = Korf::with_config(
        tables(),
        Config {
            inverse: false,
            ..config
        },
    );
    assert_eq!(field(&plain, &checkpoint, &Limits::default()), "lookups");
    let other_tier = Checkpoint {
        tier: Tier::Edge7,
        ..checkpoint.clone()
    };
    assert_eq!(field(&korf, &other_tier, &Limits::default()), "tier");
    let other_cube = korf.search_checkpointed(
        &Cube::SOLVED.apply_moves(&[Move::R1]),
        Some(&checkpoint),
        &Limits::default(),
        &Stop::new(),
        &mut |_| {},
        None,
    );
    assert!(
        matches!(&other_cube, Err(SolveError::BadCheckpoint(e)) if e.field() == "cube"),
        "{other_cube:?}"
    );
}

/// See issue 15: a checkpoint whose bound a known solution refutes (a forged `bound`, with its
/// checksum recomputed) is refused with the field, never believed: the two-phase solution of
/// "R U F" has 3 moves, so no search of it reached bound 15.
#[test]
fn a_bound_refuted_by_the_upper_bound_is_refused() {
    let korf = Korf::new(tables());
    let checkpoint = edge6_checkpoint(
        Cube::SOLVED.apply_alg(&"R U F".parse::<Alg>().unwrap()),
        korf.config(),
        15,
    );
    match korf.resume(&checkpoint, &Limits::default(), &Stop::new(), &mut |_| {}) {
        Err(SolveError::BadCheckpoint(e)) => {
            assert_eq!(e.field(), "bound", "{e}");
            assert!(e.to_string().contains("one of 3 moves"), "{e}");
        }
        other => panic!("expected a bad checkpoint, got {other:?}"),
    }
}

/// `search_to` finds optimal sequences between two states.
#[test]
fn solve_to_a_goal_state() {
    let from = Cube::SOLVED.apply_alg(&"R U F".parse::<Alg>().unwrap());
    let to = Cube::SOLVED.apply_alg(&"R U F D2 L".parse::<Alg>().unwrap());
    let korf = Korf::new(tables());
    let outcome = korf
        .search_to(&from, &to, &Limits::default(), &Stop::new(), &mut |_| {})
        .unwrap();
    assert_eq!(from.apply_moves(&outcome.solutions[0].moves), to);
    assert_eq!(outcome.solutions[0].moves.len(), 2);
    let solutions = korf
        .solve_to(&from, &to, &Limits::default(), &Stop::new())
        .unwrap();
    assert_eq!(from.apply_moves(&solutions[0].moves), to);
}

#[test]
fn unsolvable_input_is_rejected() {
    let twisted = Cube::from_parts(
        Cube::SOLVED.corner_perm(),
        [1, 0, 0, 0, 0, 0, 0, 0],
        Cube::SOLVED.edge_perm(),
        [0; 12],
    )
    .unwrap();
    let err = Korf::new(tables())
        .solve(&twisted, &Limits::default(), &Stop::new())
        .unwrap_err();
    assert!(
        matches!(err, SolveError::Unsolvable(CubeError::TwistSum { sum: 1 })),
        "{err}"
    );
    assert_eq!(err, SolveError::Unsolvable(twisted.validate().unwrap_err()));
}

#[test]
fn missing_tables_name_the_bake_command() {
    let empty = Path::new(env!("CARGO_TARGET_TMPDIR")).join("korf-no-tables");
    std::fs::create_dir_all(&empty).unwrap();
    let err = PdbSet::load(&empty, Tier::Edge6).unwrap_err().to_string();
    assert!(
        err.contains("re-run cube_tables::tier::bake for tier 6edge"),
        "{err}"
    );
}

/// With the two-phase solver running beside the search (the default for one solution), the
/// length and optimality are those of the search without it.
#[test]
fn concurrent_upper_bound_keeps_lengths() {
    let plain = Korf::with_config(
        tables(),
        Config {
            search: SearchConfig {
                upper_bound: false,
                ..SearchConfig::default()
            },
            ..Config::default()
        },
    );
    let concurrent = Korf::new(tables());
    assert!(concurrent.config().search.concurrent_upper_bound);
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    for case in 0..6 {
        let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, 10 + case % 3));
        let limits = Limits {
            threads: 2,
            ..Limits::default()
        };
        let expected = search(&plain, &cube, &limits);
        let outcome = search(&concurrent, &cube, &limits);
        assert!(outcome.optimal && expected.optimal, "case {case}");
        assert_eq!(
            outcome.solutions[0].moves.len(),
            expected.solutions[0].moves.len(),
            "case {case}"
        );
        check_solutions(&cube, &[outcome.solutions[0].moves.clone()], "concurrent");
    }
}

/// Symmetric patterns of at most 14 moves (their optimal solutions are many, one orbit of
/// prefixes searched for each), named as cubers name them.
pub(crate) const PATTERNS: [(&str, &str); 10] = [
    ("checkerboard", "M2 E2 S2"),
    ("six-spot", "U D' R L' F B' U D'"),
    ("four spots", "F2 B2 U D' R2 L2 U D'"),
    ("tetris", "L R F B U' D' L' R'"),
    ("H", "U2 R2 L2 U2 R2 L2"),
    ("two H", "R2 L2 U2 R2 L2 D2"),
    ("wire", "R L F B R L F B R L F B R2 B2 L2 R2"),
    ("Christman's cross", "U F B' L2 U2 L2 F' B U2 L2 U"),
    ("six Ts", "F2 R2 U2 F' B D2 L2 F B"),
    ("twister", "F R' U L F' L' F U' R U L' U' L F'"),
];

/// Issue 31, item 2: an enumeration of every optimal solution stopped in the middle of the list
/// says it is incomplete (its solutions optimal, `complete` false) and hands out a checkpoint;
/// resuming from that checkpoint gives the list of the uninterrupted run, complete. The stop comes
/// from the periodic checkpoints, as soon as one holds a solution.
#[test]
fn i31_2_a_stopped_enumeration_is_incomplete_and_its_checkpoint_completes_it() {
    let korf = Korf::new(tables());
    let all = Limits {
        n_solutions: usize::MAX,
        threads: 2,
        ..Limits::default()
    };
    let mut cut = Vec::new();
    for (name, alg) in PATTERNS {
        let cube = Cube::SOLVED.apply_alg(&alg.parse::<Alg>().unwrap());
        let full = search(&korf, &cube, &all);
        assert!(full.optimal && full.complete, "{name}");
        assert!(full.checkpoint.is_none(), "{name}");
        let stop = Stop::new();
        let mut save = |c: &Checkpoint| {
            if !c.solutions.is_empty() {
                stop.stop();
            }
        };
        let stopped = korf
            .search_checkpointed(
                &cube,
                None,
                &all,
                &stop,
                &mut |_| {},
                Some(Periodic {
                    every: Duration::ZERO,
                    save: &mut save,
                }),
            )
            .unwrap();
        if stopped.complete {
            // The bound ended before a checkpoint held a solution.
            assert_eq!(stopped.solutions, full.solutions, "{name}");
            continue;
        }
        assert!(stopped.optimal, "{name}: its solutions are optimal");
        assert!(!stopped.solutions.is_empty(), "{name}");
        assert!(stopped.solutions.len() <= full.solutions.len(), "{name}");
        let checkpoint: Checkpoint = stopped
            .checkpoint
            .expect("an incomplete list has a checkpoint")
            .to_string()
            .parse()
            .expect("a checkpoint reads back");
        let resumed = korf
            .resume(&checkpoint, &all, &Stop::new(), &mut |_| {})
            .unwrap();
        assert!(resumed.optimal && resumed.complete, "{name}");
        assert!(resumed.checkpoint.is_none(), "{name}");
        assert_eq!(resumed.solutions, full.solutions, "{name}");
        cut.push(name);
    }
    assert!(
        cut.len() >= 3,
        "at least three lists were cut short and completed: {cut:?}"
    );
}
