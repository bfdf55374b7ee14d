//! The sym48 search through the public API, with heuristics built here: the exact distance of
//! the corner part of the H48 coset (corner twist x which positions hold the tetrad {URF, ULB,
//! DLF, DRB}, 153,090 values, by a breadth-first search below) and zero. Both depend only on the
//! coset `G·x`, as the search requires. Optimal lengths and every optimal solution against the
//! table-free [`Slow`] oracle and the Korf solver, the same answer on 1 and 2 threads, stop and
//! resume, and the errors.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use std::time::Duration;

use cube_core::{Alg, Cube, CubeError, Move};
use cube_solvers::korf::Korf;
use cube_solvers::optimal::{Checkpoint, OptimalSearch, Outcome, SearchConfig};
use cube_solvers::slow::Slow;
use cube_solvers::sym48::{Config, Counters, Side, Sym48, Sym48Heuristic};
use cube_solvers::{Limits, SolveError, Solver, Stop};
use cube_tables::h48::{self, H48Table};
use cube_tables::pdb::SymCorners;
use cube_tables::{Metric, Tier};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::korf::{check_solutions, random_scramble, table_dir, tables};

/// The tetrad of corner piece `p`: 0 for {URF, ULB, DLF, DRB} = {0, 2, 5, 7}.
fn tetrad(p: u8) -> u8 {
    (p ^ (p >> 2)) & 1
}

/// The corner part of the coset `G·x`: the twist at each position and which positions hold
/// tetrad 0. Doing an element of G first moves pieces within their tetrad and twists nothing, so
/// it keeps both. Sparse: twist x 256 masks.
fn coset_index(cube: &Cube) -> usize {
    let (perm, ori) = (cube.corner_perm(), cube.corner_ori());
    let twist = ori[..7].iter().fold(0usize, |t, &o| t * 3 + usize::from(o));
    let mask = (0..8)
        .filter(|&i| tetrad(perm[i]) == 0)
        .fold(0usize, |m, i| m | 1 << i);
    twist * 256 + mask
}

/// The exact distance of every corner coset, by a breadth-first search from the solved one.
struct CornerCoset {
    distance: Vec<u8>,
}

impl CornerCoset {
    fn new() -> CornerCoset {
        let distance = bfs(2187 * 256, coset_index);
        let reached = distance.iter().filter(|&&d| d != u8::MAX).count();
        assert_eq!(reached, 2187 * 70, "every corner coset is reached");
        CornerCoset { distance }
    }
}

/// The distance of every value of `index`, a coordinate of cubes below `n` on which moves act
/// (the value of `x·m` depends only on that of `x` and `m`), by a breadth-first search from the
/// solved cube; `u8::MAX` where never reached.
fn bfs(n: usize, index: impl Fn(&Cube) -> usize) -> Vec<u8> {
    let mut distance = vec![u8::MAX; n];
    distance[index(&Cube::SOLVED)] = 0;
    let mut frontier = vec![Cube::SOLVED];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for cube in &frontier {
            for m in Move::ALL {
                // Any representative will do.
                let child = cube.apply_move(m);
                let i = index(&child);
                if distance[i] == u8::MAX {
                    distance[i] = depth;
                    next.push(child);
                }
            }
        }
        frontier = next;
    }
    distance
}

impl Sym48Heuristic for CornerCoset {
    type Index = usize;

    fn index(&self, cube: &Cube) -> usize {
        coset_index(cube)
    }

    fn get(&self, index: usize) -> u8 {
        self.distance[index]
    }

    /// A stand-in for the tables: checkpoints are compared within one test only.
    fn tier(&self) -> Tier {
        Tier::H0
    }
}

/// The slice of the edge at each position (E, M or S), sparse: 3^12.
fn slice_index(cube: &Cube) -> usize {
    cube.edge_perm().iter().fold(0usize, |i, &p| {
        let slice = if p >= 8 { 2 } else { usize::from(p & 1) };
        i * 3 + slice
    })
}

/// A stronger coset heuristic, so that a rule that cuts too much loses solutions: the exact
/// distance of the whole coset `G·x` (corner coset and edge slices) up to 6 moves, found by a
/// breadth-first search, and beyond that the larger of 7 and the exact distances of the corner
/// coset and of the edge slices alone.
struct NearCoset {
    corners: &'static CornerCoset,
    slices: Vec<u8>,
    near: HashMap<u64, u8>,
}

const NEAR: u8 = 6;

impl NearCoset {
    fn new() -> NearCoset {
        let slices = bfs(531_441, slice_index);
        assert_eq!(slices.iter().filter(|&&d| d != u8::MAX).count(), 34_650);
        let mut near = HashMap::from([(near_key(&Cube::SOLVED), 0)]);
        let mut frontier = vec![Cube::SOLVED];
        for depth in 1..=NEAR {
            let mut next = Vec::new();
            for cube in &frontier {
                for m in Move::ALL {
                    let child = cube.apply_move(m);
                    if let Entry::Vacant(entry) = near.entry(near_key(&child)) {
                        entry.insert(depth);
                        next.push(child);
                    }
                }
            }
            frontier = next;
        }
        // The design note's counts of unreduced cosets at depths 0..6 (section 3.5).
        let mut per_depth = [0usize; NEAR as usize + 1];
        for &d in near.values() {
            per_depth[usize::from(d)] += 1;
        }
        assert_eq!(per_depth, [1, 6, 75, 888, 11_078, 139_938, 1_737_726]);
        NearCoset {
            corners: coset(),
            slices,
            near,
        }
    }
}

/// The coset `G·x`: its corner coset and its edge slices.
fn near_key(cube: &Cube) -> u64 {
    (coset_index(cube) as u64) << 20 | slice_index(cube) as u64
}

impl Sym48Heuristic for NearCoset {
    type Index = (usize, usize);

    fn index(&self, cube: &Cube) -> (usize, usize) {
        (coset_index(cube), slice_index(cube))
    }

    fn get(&self, (corner, slice): (usize, usize)) -> u8 {
        match self.near.get(&((corner as u64) << 20 | slice as u64)) {
            Some(&d) => d,
            None => (NEAR + 1)
                .max(self.corners.distance[corner])
                .max(self.slices[slice]),
        }
    }

    fn tier(&self) -> Tier {
        Tier::H0
    }
}

/// No information at all: the corners alone prune.
struct Zero;

impl Sym48Heuristic for Zero {
    type Index = ();

    fn index(&self, _: &Cube) {}

    fn get(&self, (): ()) -> u8 {
        0
    }

    fn tier(&self) -> Tier {
        Tier::H0
    }
}

fn near() -> &'static NearCoset {
    static NEAR_COSET: OnceLock<NearCoset> = OnceLock::new();
    NEAR_COSET.get_or_init(NearCoset::new)
}

fn coset() -> &'static CornerCoset {
    static COSET: OnceLock<CornerCoset> = OnceLock::new();
    COSET.get_or_init(CornerCoset::new)
}

pub(crate) fn corners() -> &'static SymCorners {
    static CORNERS: OnceLock<SymCorners> = OnceLock::new();
    CORNERS.get_or_init(|| SymCorners::new(tables().corners()))
}

/// Deterministic: no two-phase upper bound.
pub(crate) fn exact() -> Config {
    Config {
        search: SearchConfig {
            upper_bound: false,
            ..SearchConfig::default()
        },
        ..Config::default()
    }
}

fn search<H: Sym48Heuristic>(solver: &Sym48<'_, H>, cube: &Cube, limits: &Limits) -> Outcome {
    solver
        .search(cube, limits, &Stop::new(), &mut |_| {})
        .expect("solvable")
}

fn sorted(solutions: Vec<cube_solvers::Solution>) -> Vec<Vec<Move>> {
    let mut moves: Vec<Vec<Move>> = solutions.into_iter().map(|s| s.moves).collect();
    moves.sort();
    moves
}

const ALL: usize = usize::MAX;

/// The test heuristics are what the search assumes: unchanged by a half turn done first, and at
/// most the distance.
#[test]
fn test_heuristics_are_coset_heuristics() {
    check_coset_heuristic(coset());
    check_coset_heuristic(near());
}

fn check_coset_heuristic<H: Sym48Heuristic>(h: &H) {
    let mut rng = ChaCha8Rng::seed_from_u64(48);
    let halves: Vec<Cube> = Move::ALL
        .into_iter()
        .filter(|m| m.is_half_turn())
        .map(Cube::from_move)
        .collect();
    assert_eq!(halves.len(), 6);
    for _ in 0..300 {
        let cube = Cube::random(&mut rng);
        for half in &halves {
            assert_eq!(h.value(&half.compose(&cube)), h.value(&cube));
        }
    }
    // Not unchanged by a half turn done last: the side matters, and this is the other one.
    let moved = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1]);
    assert_ne!(
        h.value(&moved.apply_move(Move::F2)),
        h.value(&moved),
        "a half turn done last changes the coset"
    );
    for n in 0..=12 {
        let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, n));
        assert!(usize::from(h.value(&cube)) <= n);
        assert!(usize::from(h.value(&cube.inverse())) <= n);
    }
}

/// 200 seeded scrambles of 1 to 7 moves, with both test heuristics and every side rule: the
/// optimal length is the oracle's, one solution solves the cube, and the set of all optimal
/// solutions is exactly the oracle's (canonical, distinct).
#[test]
fn optimal_solutions_agree_with_the_oracle() {
    let weak = Sym48::with_config(coset(), corners(), exact());
    let strong = Sym48::with_config(near(), corners(), exact());
    let sided = [Side::Position, Side::Inverse]
        .map(|side| Sym48::with_config(near(), corners(), Config { side, ..exact() }));
    let mut rng = ChaCha8Rng::seed_from_u64(4848);
    let one = Limits::default().with_max_length(8);
    let all = one.clone().with_n_solutions(ALL);
    let mut counters = [Counters::default(); 2];
    for case in 0..200 {
        let scramble = random_scramble(&mut rng, 1 + case % 7);
        let cube = Cube::SOLVED.apply_moves(&scramble);
        let what = Alg::from_moves(&scramble).to_string();
        let oracle = sorted(
            Slow::new()
                .solve(&cube, &all.clone().with_max_length(7), &Stop::new())
                .unwrap(),
        );
        check_against(&weak, &cube, &oracle, &what, &mut counters[0]);
        check_against(&strong, &cube, &oracle, &what, &mut counters[1]);
        for solver in &sided {
            check_against(solver, &cube, &oracle, &what, &mut Counters::default());
        }
    }
    // Every rule was used (the weak heuristic is never 2 over a budget).
    let [weak_counts, strong_counts] = counters;
    assert!(
        weak_counts.probes > 0 && weak_counts.corner_prunes > 0,
        "{weak_counts:?}"
    );
    let s = strong_counts;
    let used = s.corner_prunes > 0 && s.face_prunes > 0 && s.bpmx_returns > 0;
    assert!(used, "{s:?}");
}

/// One solution and all of them, against the sorted list of every optimal solution `expected`.
fn check_against<H: Sym48Heuristic>(
    solver: &Sym48<'_, H>,
    cube: &Cube,
    expected: &[Vec<Move>],
    what: &str,
    counters: &mut Counters,
) {
    let max = Limits::default().with_max_length(expected[0].len() + 1);
    let one = search(solver, cube, &max);
    assert!(one.optimal, "{what}");
    assert_eq!(one.solutions.len(), 1, "{what}");
    let first = &one.solutions[0].moves;
    assert!(cube.apply_moves(first).is_solved(), "{what}");
    assert!(expected.contains(first), "{what}");
    let every = search(solver, cube, &max.with_n_solutions(ALL));
    counters.add(&every.counters.expect("a sym48 search counts"));
    let every = sorted(every.solutions);
    check_solutions(cube, &every, what);
    assert_eq!(every, expected, "{what}");
}

/// With no heuristic beyond the corners, the same answers (the rules are not the heuristic's).
#[test]
fn zero_heuristic_gives_the_same_solutions() {
    let solver = Sym48::with_config(&Zero, corners(), exact());
    let with_coset = Sym48::with_config(near(), corners(), exact());
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let all = Limits::default().with_n_solutions(ALL);
    for case in 0..40 {
        let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, 1 + case % 6));
        let zero = search(&solver, &cube, &all);
        let coset = search(&with_coset, &cube, &all);
        assert_eq!(sorted(zero.solutions), sorted(coset.solutions));
        assert!(zero.nodes >= coset.nodes);
    }
}

/// Scrambles of 8 to 10 moves: Korf's optimal length, and the same set of all optimal solutions.
#[test]
fn optimal_solutions_agree_with_korf() {
    agree_with_korf(&Sym48::with_config(near(), corners(), exact()), 1010);
}

/// Every optimal solution of `solver` is Korf's, as a set, on six seeded scrambles of 8-10 moves.
fn agree_with_korf<H: Sym48Heuristic>(solver: &Sym48<'_, H>, seed: u64) {
    let korf = Korf::with_config(
        tables(),
        cube_solvers::korf::Config {
            search: SearchConfig {
                upper_bound: false,
                ..SearchConfig::default()
            },
            ..cube_solvers::korf::Config::default()
        },
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let all = Limits {
        n_solutions: ALL,
        threads: 2,
        ..Limits::default()
    };
    for case in 0..6 {
        let scramble = random_scramble(&mut rng, 8 + case % 3);
        let cube = Cube::SOLVED.apply_moves(&scramble);
        let what = Alg::from_moves(&scramble).to_string();
        let expected = korf.search(&cube, &all, &Stop::new(), &mut |_| {}).unwrap();
        let expected = sorted(expected.solutions);
        check_against(solver, &cube, &expected, &what, &mut Counters::default());
    }
}

/// The result depends on the position and the limits, not on the threads (and so does the node
/// count when every solution is asked for); a few solutions are the first ones of the full list.
#[test]
fn same_answer_on_one_and_two_threads() {
    in_both_orders(same_answer_on_one_and_two_threads_with);
}

/// Runs `check` with the default prefix order and with ordered bounds from bound 0 (the tests'
/// positions are shorter than the default bound 15 where they start): by slack at the first bound,
/// by density at the bound below from the second on.
fn in_both_orders(check: impl Fn(&Config)) {
    for ordered_from in [15, 0] {
        check(&Config {
            ordered_from,
            ..exact()
        });
    }
}

fn same_answer_on_one_and_two_threads_with(config: &Config) {
    let solver = Sym48::with_config(coset(), corners(), config.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for n_solutions in [1, 3, ALL] {
        let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, 9));
        let one = Limits::default().with_n_solutions(n_solutions);
        let two = Limits {
            threads: 2,
            ..one.clone()
        };
        let a = search(&solver, &cube, &one);
        let b = search(&solver, &cube, &two);
        assert_eq!(a.solutions, b.solutions, "{n_solutions} solutions");
        if n_solutions == ALL {
            // A search stopped early counts what its threads did until they saw the cut-off:
            // only an exhausted bound has the same node count on any number of threads.
            assert_eq!(a.nodes, b.nodes);
        }
        let every = search(&solver, &cube, &Limits::default().with_n_solutions(ALL));
        let every: HashSet<_> = every.solutions.into_iter().collect();
        assert!(a.solutions.iter().all(|s| every.contains(s)));
    }
}

/// With the two-phase upper bound (and its helper beside the search), the lengths are the exact
/// search's, and proven.
#[test]
fn upper_bound_keeps_lengths() {
    let exact_solver = Sym48::with_config(near(), corners(), exact());
    let bounded = Sym48::new(near(), corners());
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for case in 0..4 {
        let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, 7 + case % 2));
        let limits = Limits {
            threads: 2,
            max_length: Some(12),
            ..Limits::default()
        };
        let a = search(&exact_solver, &cube, &limits);
        let b = search(&bounded, &cube, &limits);
        assert!(a.optimal && b.optimal);
        assert_eq!(a.solutions[0].len(), b.solutions[0].len());
        assert!(cube.apply_moves(&b.solutions[0].moves).is_solved());
        assert!(b.upper_bound.is_some());
    }
}

/// Stopped by the time budget, then resumed from the checkpoint: the uninterrupted answer.
#[test]
fn stop_and_resume() {
    in_both_orders(stop_and_resume_with);
}

fn stop_and_resume_with(config: &Config) {
    let solver = Sym48::with_config(&Zero, corners(), config.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, 10));
    // A few solutions of many: which ones depends on the order the prefixes are searched in.
    for n_solutions in [1, 3] {
        let limits = Limits::default().with_n_solutions(n_solutions);
        let full = search(&solver, &cube, &limits);
        let short = limits.clone().with_time_budget(Duration::from_millis(20));
        let stopped = search(&solver, &cube, &short);
        let Some(checkpoint) = stopped.checkpoint else {
            assert_eq!(stopped.solutions, full.solutions);
            continue;
        };
        assert!(!stopped.optimal);
        let resumed = solver
            .resume(&checkpoint, &limits, &Stop::new(), &mut |_| {})
            .unwrap();
        assert!(resumed.optimal);
        assert_eq!(resumed.solutions, full.solutions, "{n_solutions} solutions");
    }
}

#[test]
fn errors_and_edge_cases() {
    let solver = Sym48::new(coset(), corners());
    let stop = Stop::new();
    let solved = solver
        .solve(&Cube::SOLVED, &Limits::default(), &stop)
        .unwrap();
    assert!(solved.len() == 1 && solved[0].is_empty());
    let twisted = Cube::from_parts(
        Cube::SOLVED.corner_perm(),
        [1, 0, 0, 0, 0, 0, 0, 0],
        Cube::SOLVED.edge_perm(),
        [0; 12],
    )
    .unwrap();
    assert_eq!(
        solver.solve(&twisted, &Limits::default(), &stop),
        Err(SolveError::Unsolvable(CubeError::TwistSum { sum: 1 }))
    );
    let two = Cube::SOLVED.apply_moves(&[Move::R1, Move::F1]);
    let none = solver
        .solve(&two, &Limits::default().with_max_length(1), &stop)
        .unwrap();
    assert!(none.is_empty());
    let from = Cube::SOLVED.apply_moves(&[Move::R1, Move::U2]);
    let to = Cube::SOLVED.apply_moves(&[Move::L3, Move::B1]);
    let there = solver
        .solve_to(&from, &to, &Limits::default(), &stop)
        .unwrap();
    assert_eq!(from.apply_moves(&there[0].moves), to);
    let stopped = Stop::new();
    stopped.stop();
    assert_eq!(
        solver.solve(&two, &Limits::default(), &stopped),
        Err(SolveError::Cancelled)
    );
}

/// The h0 table, baked once beside the 6edge tier (whose corner table gives `SymCorners`).
pub(crate) fn h0() -> &'static H48Table<Vec<u8>> {
    static H0: OnceLock<H48Table<Vec<u8>>> = OnceLock::new();
    H0.get_or_init(|| {
        let options = h48::BakeOptions {
            wait_for_lock: true,
            ..h48::BakeOptions::default()
        };
        h48::bake(&table_dir(), Tier::H0, &options, &|_| {}).expect("h0 bakes");
        H48Table::load(&table_dir(), Tier::H0).expect("h0 loads")
    })
}

/// With the real h0 table: every optimal solution of Korf's, as a set, on scrambles of 8-10 moves.
#[test]
fn h0_agrees_with_korf() {
    agree_with_korf(&Sym48::with_config(h0(), corners(), exact()), 4848);
}

/// nissy-core's 16-mover #1 with h0: no solution up to 14 moves, and the exhausted bounds cost
/// the node counts first measured (deterministic: every bound is searched to the end; bounds
/// 10-12 since within them, `assert_within_first_counts`). cube48opt1
/// (the same coset heuristic, base 7) exhausts depth 15 of it in 28,020,806 nodes; ours 30,950,276
/// (depth 15 is left out here for CI time).
#[test]
fn h0_exhausted_bounds_of_a_16_mover_are_pinned() {
    let solver = Sym48::with_config(h0(), corners(), exact());
    let scramble: Vec<Move> = "U' D F2 U2 R F' R' U' D2 F' U B R D F R'"
        .split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect();
    let cube = Cube::SOLVED.apply_moves(&scramble);
    let limits = Limits {
        max_length: Some(14),
        threads: 2,
        ..Limits::default()
    };
    let mut bounds = Vec::new();
    let outcome = solver
        .search(&cube, &limits, &Stop::new(), &mut |p| {
            assert!(p.exhausted, "bound {} not exhausted", p.bound);
            bounds.push((p.bound, p.nodes));
        })
        .unwrap();
    assert!(outcome.solutions.is_empty());
    assert_eq!(outcome.proven_lower_bound, 15);
    let pinned = [
        (10, 3_319),
        (11, 3_882),
        (12, 21_384),
        (13, 224_041),
        (14, 2_620_597),
    ];
    let measured: Vec<_> = bounds.into_iter().filter(|(b, _)| *b >= 10).collect();
    assert_within_first_counts(&measured, &pinned, 13);
}

/// `measured` (bound, nodes) against the counts first measured, `pinned`: equal from bound
/// `equal_from` on; below it, where a prefix's proper ancestors over their budget now cut it
/// before its end is made (that search's nodes are a subset of the first one's), at most the
/// first count and at least one node per 3-move prefix (3,240, the canonical sequences).
fn assert_within_first_counts(
    measured: &[(usize, u64)],
    pinned: &[(usize, u64)],
    equal_from: usize,
) {
    let prefixes = canonical(3).len() as u64;
    assert_eq!(prefixes, 3_240);
    assert_eq!(measured.len(), pinned.len(), "{measured:?}");
    for (&(bound, nodes), &(pinned_bound, first)) in measured.iter().zip(pinned) {
        assert_eq!(bound, pinned_bound);
        if bound >= equal_from {
            assert_eq!(nodes, first, "bound {bound}");
        } else {
            assert!(
                (prefixes..=first).contains(&nodes),
                "bound {bound}: {nodes} nodes, first measured {first}"
            );
        }
    }
}

/// Canonical sequences of `len` moves (cube-core's rule for the move after each move), as the
/// prefixes of the search are; written here from the rule, not taken from the solver.
fn canonical(len: usize) -> Vec<Vec<Move>> {
    let mut out = vec![Vec::new()];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|p: Vec<Move>| {
                cube_core::MoveSet::after(p.last().copied())
                    .iter()
                    .map(move |m| {
                        let mut q = p.clone();
                        q.push(m);
                        q
                    })
            })
            .collect();
    }
    out
}

/// The number of orbits of the canonical prefixes of `len` moves under the symmetries that fix
/// `cube`, by Burnside's lemma: the mean number of prefixes that a symmetry maps to themselves
/// (its image's canonical form), over the symmetry group (identity included).
fn prefix_orbits(cube: &Cube, len: usize) -> u64 {
    let group: Vec<cube_core::Symmetry> = cube_core::Symmetry::all()
        .filter(|s| s.conjugate(cube) == *cube)
        .collect();
    let prefixes = canonical(len);
    let fixed: u64 = group
        .iter()
        .map(|s| {
            prefixes
                .iter()
                .filter(|p| {
                    let image: Vec<Move> = p.iter().map(|&m| s.conjugate_move(m)).collect();
                    cube_core::simplify(&image) == **p
                })
                .count() as u64
        })
        .sum();
    assert_eq!(fixed % group.len() as u64, 0, "Burnside's count is whole");
    fixed / group.len() as u64
}

/// The superflip (all 48 symmetries) with h0 (where it is in the group: value 0): every bound up
/// to 13 exhausted (15 takes 2.4 G nodes with h0: the larger tiers' job), one prefix of each
/// orbit searched per bound (the orbits counted by brute force above; nissy-core's H48 reports
/// 1,038 start tasks for it), and the first bounds cost less than a twentieth of what they cost
/// without the filter.
#[test]
fn superflip_searches_one_prefix_per_orbit() {
    let superflip = Cube::SOLVED.apply_alg(
        &"U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"
            .parse()
            .unwrap(),
    );
    let config = Config {
        search: SearchConfig {
            prefix_depth: 4,
            ..exact().search
        },
        ..exact()
    };
    let solver = Sym48::with_config(h0(), corners(), config.clone());
    let first = solver.lower_bound(&superflip);
    let limits = Limits {
        max_length: Some(13),
        threads: 2,
        ..Limits::default()
    };
    let mut bounds = Vec::new();
    let outcome = solver
        .search(&superflip, &limits, &Stop::new(), &mut |p| {
            assert!(p.exhausted, "bound {} not exhausted", p.bound);
            bounds.push((p.bound, p.nodes));
        })
        .unwrap();
    assert!(outcome.solutions.is_empty());
    assert_eq!(outcome.proven_lower_bound, 14);
    let prefixes = outcome.counters.expect("a sym48 search counts").prefixes;
    let orbits: u64 = (first..=13)
        .map(|b| prefix_orbits(&superflip, b.min(4)))
        .sum();
    eprintln!(
        "superflip: {} prefixes searched, {} orbits of 4-move prefixes, bounds {bounds:?}",
        prefixes,
        prefix_orbits(&superflip, 4)
    );
    assert_eq!(prefixes, orbits);

    let unfiltered = Sym48::with_config(
        h0(),
        corners(),
        Config {
            symmetric_starts: false,
            ..config
        },
    );
    let limits = Limits {
        max_length: Some(12),
        ..limits
    };
    let mut plain = Vec::new();
    unfiltered
        .search(&superflip, &limits, &Stop::new(), &mut |p| {
            plain.push((p.bound, p.nodes))
        })
        .unwrap();
    for ((bound, nodes), (_, all)) in bounds.iter().zip(&plain).filter(|((b, _), _)| *b >= 8) {
        assert!(
            nodes * 20 < *all,
            "bound {bound}: {nodes} nodes filtered, {all} not"
        );
    }
}

/// On symmetric positions with short solutions, every optimal solution with the filter is one
/// without it (as sets, all solutions asked for), and the one-solution answer has the same length.
#[test]
fn symmetric_starts_keep_every_solution() {
    let solver = Sym48::with_config(h0(), corners(), exact());
    let unfiltered = Sym48::with_config(
        h0(),
        corners(),
        Config {
            symmetric_starts: false,
            ..exact()
        },
    );
    for text in [
        "U2 D2 F2 B2 L2 R2",
        "R L' U D' F B' R L'",
        "U D' R L' F B' U D'",
        "F2 B2 U D' R2 L2 U D'",
        "R2 L2 U2 D2",
        "U R2 U' D L2 D'",
        "R U R' U R U2 R'",
    ] {
        let cube = Cube::SOLVED.apply_alg(&text.parse().unwrap());
        let all = Limits {
            n_solutions: ALL,
            threads: 2,
            ..Limits::default()
        };
        let with = sorted(search(&solver, &cube, &all).solutions);
        let without = sorted(search(&unfiltered, &cube, &all).solutions);
        assert!(!with.is_empty());
        assert_eq!(with, without, "{text}");
        let one = search(&solver, &cube, &Limits::default()).solutions;
        assert_eq!(one[0].moves.len(), with[0].len(), "{text}");
    }
}

/// A checkpoint records whether one prefix per orbit was searched: a search that searches every
/// prefix refuses it (it would take the skipped prefixes as done, without their solutions), and a
/// search like the one that wrote it goes on to the same answer.
#[test]
fn a_checkpoint_of_symmetric_starts_is_resumed_only_with_them() {
    let solver = Sym48::with_config(h0(), corners(), exact());
    let unfiltered = Sym48::with_config(
        h0(),
        corners(),
        Config {
            symmetric_starts: false,
            ..exact()
        },
    );
    let cube = Cube::SOLVED.apply_alg(&"U2 D2 F2 B2 L2 R2".parse().unwrap());
    let checkpoint = Checkpoint {
        cube,
        tier: Tier::H0,
        metric: Metric::Htm,
        prefix_depth: solver.config().search.prefix_depth,
        n_solutions: ALL,
        inverse: true,
        symmetric: false,
        symmetric_starts: true,
        bound: 5,
        nodes: 0,
        done: Vec::new(),
        solutions: Vec::new(),
    };
    let all = Limits {
        n_solutions: ALL,
        ..Limits::default()
    };
    match unfiltered.resume(&checkpoint, &all, &Stop::new(), &mut |_| {}) {
        Err(SolveError::BadCheckpoint(e)) => assert_eq!(e.field(), "starts", "{e}"),
        other => panic!("expected a refused checkpoint, got {other:?}"),
    }
    let resumed = solver
        .resume(&checkpoint, &all, &Stop::new(), &mut |_| {})
        .unwrap();
    let full = search(&solver, &cube, &all);
    assert!(resumed.optimal);
    assert_eq!(sorted(resumed.solutions), sorted(full.solutions));
}

/// A checkpoint at the start of `bound` of a search of `cube` for `n_solutions` over h0 with
/// 4-move prefixes.
fn checkpoint_at(cube: Cube, bound: usize, n_solutions: usize) -> Checkpoint {
    Checkpoint {
        cube,
        tier: Tier::H0,
        metric: Metric::Htm,
        prefix_depth: 4,
        n_solutions,
        inverse: true,
        symmetric: false,
        symmetric_starts: true,
        bound,
        nodes: 0,
        done: Vec::new(),
        solutions: Vec::new(),
    }
}

/// Ordered bounds from bound 0 on, over 4-move prefixes (fewer at bounds under 4, whose bound
/// above is then searched by slack), no two-phase solver.
fn ordered_from_0() -> Config {
    Config {
        ordered_from: 0,
        ordered_prefix_depth: 4,
        ..exact()
    }
}

/// A search resumed at a bound in density order searches the bound below again for its
/// densities, so it searches the resumed bound in the uninterrupted search's order: the same
/// solution after the same nodes there (one thread: the nodes to the first solution depend on the
/// order the prefixes are taken in).
#[test]
fn a_resumed_search_orders_its_bound_as_the_uninterrupted_one() {
    let solver = Sym48::with_config(h0(), corners(), ordered_from_0());
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    for _ in 0..4 {
        let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, 9));
        let last_bound = |outcome: Option<&Checkpoint>| {
            let mut nodes = 0;
            let limits = Limits::default();
            let stop = Stop::new();
            let outcome = match outcome {
                None => solver.search(&cube, &limits, &stop, &mut |p| nodes = p.nodes),
                Some(c) => solver.resume(c, &limits, &stop, &mut |p| nodes = p.nodes),
            };
            (outcome.unwrap().solutions, nodes)
        };
        let (solutions, nodes) = last_bound(None);
        let checkpoint = checkpoint_at(cube, solutions[0].len(), 1);
        assert_eq!(last_bound(Some(&checkpoint)), (solutions, nodes));
    }
}

/// The bound searched again refutes a checkpoint that says no solution is shorter when it has
/// one.
#[test]
fn a_checkpoint_refuted_by_the_bound_below_is_refused() {
    let solver = Sym48::with_config(h0(), corners(), ordered_from_0());
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let cube = Cube::SOLVED.apply_moves(&random_scramble(&mut rng, 7));
    let length = search(&solver, &cube, &Limits::default()).solutions[0].len();
    let checkpoint = checkpoint_at(cube, length + 1, 1);
    match solver.resume(&checkpoint, &Limits::default(), &Stop::new(), &mut |_| {}) {
        Err(SolveError::BadCheckpoint(e)) => assert_eq!(e.field(), "bound", "{e}"),
        other => panic!("expected a refused checkpoint, got {other:?}"),
    }
}

/// nissy-core's 16-movers #1-3 over h5 (baked by `cargo xtask bake-tables --tier h5` into
/// `$H48_TABLES`, beside its corner table): the nodes to exhaust bounds 11..15, first measured
/// 2026-12-01 (docs/PERFORMANCE.md); bounds 11-13 since within them (`assert_within_first_counts`). cube48opt5's published build needs 809,236, 498,395 and
/// 609,236 at bound 15 (design note 4.1): ratios 1.27, 1.26, 1.20.
#[test]
#[ignore = "needs the 973 MB h5 table in $H48_TABLES"]
fn h5_exhausted_bounds_of_three_16_movers_are_pinned() {
    let dir = std::path::PathBuf::from(std::env::var_os("H48_TABLES").expect("H48_TABLES is set"));
    let table = H48Table::load(&dir, Tier::H5).expect("h5 loads");
    let corners = SymCorners::new(
        &cube_tables::PruneTable::load(
            &cube_tables::pdb::CORNERS.spec.path_in(&dir),
            &cube_tables::pdb::CORNERS.spec,
        )
        .expect("the corner table loads"),
    );
    let solver = Sym48::with_config(&table, &corners, exact());
    let pinned: [[u64; 5]; 3] = [
        [3_264, 3_343, 8_229, 84_671, 1_026_969],
        [3_240, 3_240, 4_624, 45_294, 627_599],
        [3_240, 3_262, 5_836, 55_454, 732_640],
    ];
    for (line, expected) in nissy_core_16_movers().into_iter().zip(pinned) {
        let (bounds, _, _) = bound_nodes(&solver, &line, 15, 11);
        let with_bounds = |counts: &[u64]| (11..).zip(counts.iter().copied()).collect::<Vec<_>>();
        assert_within_first_counts(&with_bounds(&bounds), &with_bounds(&expected), 14);
    }
}

/// nissy-core's 16-movers (`testdata/positions`, each proven 16 by nissy-core), a line each.
pub(crate) fn nissy_core_16_movers() -> Vec<String> {
    std::fs::read_to_string("../../testdata/positions/nissy-core-optimal-16.txt")
        .expect("the repository's testdata/positions")
        .lines()
        .map(str::to_string)
        .collect()
}

/// The nodes of each bound from `from` on of an optimal search of the position `line` makes, up
/// to `max_length` on 2 threads; whether every bound reported was exhausted; the outcome.
pub(crate) fn bound_nodes(
    search: &dyn OptimalSearch,
    line: &str,
    max_length: usize,
    from: usize,
) -> (Vec<u64>, bool, Outcome) {
    let cube = Cube::SOLVED.apply_alg(&line.parse().unwrap());
    let limits = Limits {
        max_length: Some(max_length),
        threads: 2,
        ..Limits::default()
    };
    let (mut bounds, mut exhausted) = (Vec::new(), true);
    let outcome = search
        .search(&cube, &limits, &Stop::new(), &mut |p| {
            exhausted &= p.exhausted;
            if p.bound >= from {
                bounds.push(p.nodes);
            }
        })
        .unwrap();
    (bounds, exhausted, outcome)
}
