//! Unit tests of the two-phase search: the rules it follows, seen from inside, and the edge cases
//! of every input class.

use std::time::Duration;

use cube_core::{Alg, Cube, CubeError, Move, MoveSet, is_canonical};
use cube_tables::{Coord, Flip, Twist, UdSlice};
use rand::SeedableRng;

use super::search::{Halt, Search, View};
use super::*;
use crate::search::Collector;
use crate::slow::Slow;

fn cube_of(alg: &str) -> Cube {
    Cube::SOLVED.apply_alg(&alg.parse::<Alg>().expect("test algs parse"))
}

fn solve(cube: &Cube, limits: &Limits) -> Vec<Solution> {
    let solutions = TwoPhase::new(large_tables_for_tests())
        .solve(cube, limits, &Stop::new())
        .expect("solvable");
    for s in &solutions {
        assert!(
            cube.apply_moves(&s.moves).is_solved(),
            "{cube:?}: {:?}",
            s.moves
        );
        assert!(is_canonical(&s.moves), "{:?}", s.moves);
    }
    solutions
}

fn best_length(cube: &Cube, limits: &Limits) -> usize {
    solve(cube, limits)[0].moves.len()
}

#[test]
fn solved_cube_gets_the_empty_solution() {
    let solutions = solve(&Cube::SOLVED, &Limits::default());
    assert_eq!(solutions, vec![Solution::new(Vec::new())]);
}

#[test]
fn single_moves_are_undone_by_their_inverse() {
    for m in Move::ALL {
        let solutions = solve(&Cube::from_move(m), &Limits::default());
        assert_eq!(solutions[0].moves, vec![m.inverse()], "{m}");
    }
}

#[test]
fn unsolvable_input_is_rejected_before_searching() {
    let twisted = Cube::from_parts(
        [0, 1, 2, 3, 4, 5, 6, 7],
        [1, 0, 0, 0, 0, 0, 0, 0],
        std::array::from_fn(|i| i as u8),
        [0; 12],
    )
    .unwrap();
    let stop = Stop::new();
    stop.stop();
    let err = TwoPhase::new(large_tables_for_tests())
        .solve(&twisted, &Limits::default(), &stop)
        .unwrap_err();
    assert_eq!(err, SolveError::Unsolvable(CubeError::TwistSum { sum: 1 }));
}

#[test]
fn checkerboard_is_solved_optimally() {
    // U2 D2 F2 B2 L2 R2 lies in G1 with every coordinate but the permutations solved.
    let cube = cube_of("U2 D2 F2 B2 L2 R2");
    assert_eq!(best_length(&cube, &Limits::default()), 6);
}

#[test]
fn g1_state_with_an_unsolved_slice() {
    // Only G1 moves, and the slice edges are permuted: phase 1 is empty.
    let cube = cube_of("R2 U F2 D' L2 B2 U2 R2");
    let length = best_length(&cube, &Limits::default());
    assert!(length <= 8, "{length}");
    assert_eq!(
        Slow::new()
            .solve(&cube, &Limits::default(), &Stop::new())
            .unwrap()
            .len(),
        0
    );
}

#[test]
fn superflip_within_twenty() {
    let cube = cube_of("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
    assert_eq!(Flip::from_cube(&cube), 2047);
    assert!(best_length(&cube, &Limits::default()) <= 20);
}

#[test]
fn t_perm_in_fourteen() {
    let cube = cube_of("R U R' U' R' F R2 U' R' U' R U R' F'");
    let limits = Limits::default()
        .with_target_length(14)
        .with_time_budget(Duration::from_secs(20));
    assert!(best_length(&cube, &limits) <= 14);
}

#[test]
fn short_states_get_optimal_solutions() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let n_cases = if cfg!(debug_assertions) { 30 } else { 300 };
    for case in 0..n_cases {
        let length = 1 + case % 5;
        let moves: Vec<Move> = (0..length)
            .map(|_| Move::from_index(rand::Rng::random_range(&mut rng, 0..18)))
            .collect();
        let cube = Cube::SOLVED.apply_moves(&moves);
        let optimal = Slow::new()
            .solve(&cube, &Limits::default().with_max_length(5), &Stop::new())
            .unwrap();
        assert_eq!(
            best_length(&cube, &Limits::default()),
            optimal[0].moves.len(),
            "{moves:?}"
        );
    }
}

#[test]
fn n_solutions_are_distinct_and_ordered() {
    let cube = cube_of("R U F D");
    let solutions = solve(
        &cube,
        &Limits::default().with_n_solutions(5).with_target_length(12),
    );
    assert_eq!(solutions.len(), 5);
    assert_eq!(solutions[0].moves.len(), 4);
    assert!(
        solutions
            .windows(2)
            .all(|w| w[0].moves.len() <= w[1].moves.len() && w[0] != w[1])
    );
}

#[test]
fn cancelled_before_any_solution() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let cube = Cube::random(&mut rng);
    let stop = Stop::new();
    stop.stop();
    let limits = Limits::default().with_target_length(16);
    assert_eq!(
        TwoPhase::new(large_tables_for_tests()).solve(&cube, &limits, &stop),
        Err(SolveError::Cancelled)
    );
}

#[test]
fn solve_to_reaches_the_goal() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for _ in 0..5 {
        let from = Cube::random(&mut rng);
        let to = Cube::random(&mut rng);
        let solution = TwoPhase::new(large_tables_for_tests())
            .solve_to(&from, &to, &Limits::default(), &Stop::new())
            .unwrap();
        assert_eq!(from.apply_moves(&solution[0].moves), to);
    }
}

#[test]
fn end_moves_are_respected() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    let not_rl = MoveSet::from_iter(Move::ALL.into_iter().filter(|m| m.face().axis() != 1));
    let not_fb = MoveSet::from_iter(Move::ALL.into_iter().filter(|m| m.face().axis() != 2));
    let ends = EndMoves {
        first: not_rl,
        last: not_fb,
    };
    for _ in 0..10 {
        let cube = Cube::random(&mut rng);
        let solutions = TwoPhase::new(large_tables_for_tests())
            .solve_with_ends(&cube, &Limits::default(), &Stop::new(), ends)
            .unwrap();
        let moves = &solutions[0].moves;
        assert!(cube.apply_moves(moves).is_solved());
        assert!(
            not_rl.contains(moves[0]) && not_fb.contains(*moves.last().unwrap()),
            "{moves:?}"
        );
    }
}

/// Every solution the search emits, seen in its own view: canonical across the phase boundary,
/// phase 1 ends in G1 with a quarter turn of R, L, F or B, phase 2 uses G1 moves only; pre-moves
/// (which end a solution and are searched first) start with such a quarter turn.
#[test]
fn emitted_solutions_follow_the_phase_rules() {
    let tables = &*large_tables_for_tests();
    let mut rng = rand::rngs::StdRng::seed_from_u64(17);
    let quarter_rlfb: Vec<Move> = Move::ALL
        .into_iter()
        .filter(|m| !MoveSet::G1.contains(*m))
        .collect();
    assert_eq!(quarter_rlfb.len(), 8);
    let mut n_checked = 0;
    let mut n_with_pre = 0;
    for case in 0..12 {
        let cube = if case % 3 == 0 {
            cube_of("R U D' F")
        } else {
            Cube::random(&mut rng)
        };
        let views = View::all(&cube, tables, true, true, EndMoves::default());
        let stop = Stop::new();
        let clock = crate::cancel::Clock::new(Some(Duration::from_millis(30)));
        let mut search = Search::new(tables, views, Collector::new(1, 30), 0, clock, &stop);
        search.improving_search(30);
        assert_ne!(search.halt, Halt::Cancelled);
        for (view, moves, n1, n_pre) in &search.record {
            let view_cube = search.views[*view].cube_for_tests();
            assert!(view_cube.apply_moves(moves).is_solved(), "{moves:?}");
            // Pre-moves end the moves; phase 1 starts from them, then the view's cube.
            let (moves, pre) = moves.split_at(moves.len() - n_pre);
            assert!(is_canonical(moves), "{moves:?}");
            assert!(is_canonical(pre), "{pre:?}");
            let start = Cube::SOLVED.apply_moves(pre).compose(&view_cube);
            if let Some(first) = pre.first() {
                assert!(quarter_rlfb.contains(first), "{pre:?}");
                n_with_pre += 1;
            }
            let (phase1, phase2) = moves.split_at(*n1);
            if let Some(last) = phase1.last() {
                assert!(quarter_rlfb.contains(last), "{moves:?}");
            }
            let after1 = start.apply_moves(phase1);
            assert_eq!(
                (
                    Twist::from_cube(&after1),
                    Flip::from_cube(&after1),
                    UdSlice::from_cube(&after1)
                ),
                (0, 0, 0)
            );
            assert!(phase2.iter().all(|&m| MoveSet::G1.contains(m)), "{moves:?}");
            assert!(after1.apply_moves(phase2).is_solved());
            n_checked += 1;
        }
    }
    assert!(n_checked > 20, "{n_checked}");
    assert!(n_with_pre > 0, "{n_with_pre}");
}

#[test]
fn keeps_the_solver_contract() {
    crate::check_solver_contract(&TwoPhase::new(large_tables_for_tests()));
}

#[test]
fn small_tables_keep_the_solver_contract() {
    let solver = TwoPhase::default();
    assert!(!solver.tables().is_large());
    crate::check_solver_contract(&solver);
}
