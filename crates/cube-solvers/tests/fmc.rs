//! The FMC step solvers: nissy-core's own solve tests (`testdata/vectors/fmc.json`, its expected
//! solution lists as data), properties of the solutions, and the errors.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};

use cube_core::{Alg, Cube, Face, Move, NissAlg, Symmetry};
use cube_solvers::fmc::{self, FmcError, Niss, Settings, StepTables};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The repository's `testdata/vectors/fmc.json`.
fn vectors() -> serde_json::Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors/fmc.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).expect("fmc.json is JSON")
}

fn state_of(scramble: &str) -> Cube {
    let alg: Alg = scramble.parse().expect("a scramble of face turns");
    Cube::SOLVED.apply_moves(&alg.moves())
}

/// The tables of `step`'s family, built once for all the tests of this binary (the DR and
/// DR-finish tables take a minute).
fn tables(step: &fmc::Step) -> StepTables {
    type Slot = Arc<OnceLock<StepTables>>;
    static BUILT: OnceLock<Mutex<HashMap<&'static str, Slot>>> = OnceLock::new();
    let slot = BUILT
        .get_or_init(Mutex::default)
        .lock()
        .expect("no test panicked holding the lock")
        .entry(step.tables_name())
        .or_default()
        .clone();
    slot.get_or_init(|| StepTables::build(step)).clone()
}

/// Runs the tests of fmc.json whose solver is one of `solvers` (an empty list: every test whose
/// solver this crate has), checking each case's set up to commuting moves and where the inverse
/// part is written.
fn check_vectors(filter: impl Fn(&str) -> bool) -> usize {
    let data = vectors();
    let mut checked = 0;
    for test in data["tests"].as_array().expect("a list of tests") {
        let solver = test["solver"].as_str().expect("a solver name");
        if !filter(solver) {
            continue;
        }
        let step = fmc::step(solver).expect("every solver of fmc.json is a step");
        let tables = tables(step);
        let settings = Settings {
            niss: test["niss"].as_str().unwrap().parse().unwrap(),
            min_moves: test["min_moves"].as_u64().unwrap() as u8,
            max_moves: test["max_moves"].as_u64().unwrap() as u8,
            max_solutions: test["max_solutions"].as_u64().unwrap() as usize,
            above_optimal: Some(test["above_optimal"].as_u64().unwrap() as u8),
            ..Settings::default()
        };
        for case in test["cases"].as_array().unwrap() {
            let scramble = case["scramble"].as_str().unwrap();
            let expected: Vec<NissAlg> = case["solutions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().parse().unwrap())
                .collect();
            let outcome = fmc::solve(
                step,
                &tables,
                &state_of(scramble),
                &settings,
                &AtomicBool::new(false),
            )
            .unwrap_or_else(|e| panic!("{solver} on {scramble}: {e}"));
            let missing: Vec<String> = expected
                .iter()
                .filter(|e| !outcome.solutions.iter().any(|s| s.equal_up_to_commuting(e)))
                .map(|e| e.to_string())
                .collect();
            let extra: Vec<String> = outcome
                .solutions
                .iter()
                .filter(|s| !expected.iter().any(|e| s.equal_up_to_commuting(e)))
                .map(|s| s.to_string())
                .collect();
            assert!(
                missing.is_empty() && extra.is_empty() && outcome.count == expected.len(),
                "{} ({solver}, {}) on {scramble}: missing {missing:?}, extra {extra:?}",
                test["source"],
                settings.niss
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn vectors_eo() {
    assert_eq!(check_vectors(|s| s.starts_with("eo")), 60);
}

#[test]
fn vectors_dr() {
    assert_eq!(check_vectors(|s| ["drud", "drrl", "drfb"].contains(&s)), 60);
}

#[test]
fn vectors_dr_from_eo() {
    assert_eq!(check_vectors(|s| s.contains("-eo")), 120);
}

#[test]
fn vectors_cornersx() {
    assert_eq!(check_vectors(|s| s == "cornersx"), 1);
}

#[test]
fn vectors_drslice() {
    assert_eq!(check_vectors(|s| s.ends_with("slice")), 60);
}

#[test]
fn vectors_drfin() {
    assert_eq!(
        check_vectors(|s| s.starts_with("dr") && s.ends_with("fin")),
        60
    );
}

/// A step without NISS searches the normal side whatever the mode asked (nissy-core ignores
/// the flag there): `--niss linear` on `drudfin` gave inverse-side solutions too.
#[test]
fn steps_without_niss_ignore_the_mode() {
    let step = fmc::step("drudfin").unwrap();
    let tables = tables(step);
    // A DR state: a scramble of DR moves.
    let state = state_of("U R2 D' F2 L2 U2 B2 D R2 U' L2 F2 D B2");
    let solve = |niss| {
        let settings = Settings {
            niss,
            max_solutions: 50,
            above_optimal: Some(1),
            ..Settings::default()
        };
        fmc::solve(step, &tables, &state, &settings, &AtomicBool::new(false)).unwrap()
    };
    let normal = solve(Niss::Normal);
    assert!(normal.count > 0);
    for niss in [Niss::Inverse, Niss::Linear, Niss::Mixed, Niss::All] {
        assert_eq!(solve(niss), normal, "{niss}");
    }
}

#[test]
fn vectors_htr() {
    assert_eq!(check_vectors(|s| s.starts_with("htr")), 10);
}

/// A state made by `n` random moves of `moves` after `start`.
fn random_walk(rng: &mut ChaCha8Rng, start: Cube, moves: &[Move], n: usize) -> Cube {
    (0..n).fold(start, |c, _| {
        c.apply_move(moves[rng.random_range(0..moves.len())])
    })
}

fn moves_where(keep: impl Fn(Move) -> bool) -> Vec<Move> {
    Move::ALL.into_iter().filter(|&m| keep(m)).collect()
}

/// Every corner permutation that half turns make (96 of them), found here by a search of its
/// own.
fn half_turn_corner_perms() -> HashSet<[u8; 8]> {
    let mut seen = HashSet::from([Cube::SOLVED.corner_perm()]);
    let mut queue = vec![Cube::SOLVED];
    while let Some(c) = queue.pop() {
        for m in moves_where(|m| m.is_half_turn()) {
            let next = c.apply_move(m);
            if seen.insert(next.corner_perm()) {
                queue.push(next);
            }
        }
    }
    seen
}

/// The goals, written here from their definitions: `state` conjugated so that the step's axis
/// is F/B (EO) or U/D (DR, HTR).
fn eo_fb(c: &Cube) -> bool {
    c.edge_ori().iter().all(|&o| o == 0)
}

fn dr_ud(c: &Cube) -> bool {
    eo_fb(c) && c.corner_ori().iter().all(|&o| o == 0) && c.edge_perm()[8..].iter().all(|&e| e >= 8)
}

fn htr(c: &Cube, corner_perms: &HashSet<[u8; 8]>) -> bool {
    // Every U/D-layer edge in its own slice (M or S): even pieces at even positions.
    dr_ud(c)
        && corner_perms.contains(&c.corner_perm())
        && c.edge_perm()[..8]
            .iter()
            .enumerate()
            .all(|(i, &e)| e < 8 && e % 2 == i as u8 % 2)
}

fn corners_of(c: &Cube) -> ([u8; 8], [u8; 8]) {
    (c.corner_perm(), c.corner_ori())
}

/// Whether all but the E slice is solved, the U and D layers possibly turned together against
/// it (`U D'`, `U2 D2`, `U' D`).
fn slice_left(c: &Cube) -> bool {
    let turn = Cube::SOLVED.apply_moves(&[Move::U1, Move::D3]);
    (0..4)
        .scan(Cube::SOLVED, |g, _| {
            let here = *g;
            *g = g.compose(&turn);
            Some(here)
        })
        .any(|g| {
            corners_of(c) == corners_of(&g)
                && c.edge_perm()[..8] == g.edge_perm()[..8]
                && c.edge_ori() == [0; 12]
        })
}

fn corners_solved(c: &Cube) -> bool {
    corners_of(c) == corners_of(&Cube::SOLVED)
}

/// The corners of the 24 whole-cube rotations: made by `R L'` and `U D'`.
fn rotation_corners() -> HashSet<([u8; 8], [u8; 8])> {
    let turns = [
        Cube::SOLVED.apply_moves(&[Move::R1, Move::L3]),
        Cube::SOLVED.apply_moves(&[Move::U1, Move::D3]),
    ];
    let mut seen = HashSet::from([corners_of(&Cube::SOLVED)]);
    let mut queue = vec![Cube::SOLVED];
    while let Some(c) = queue.pop() {
        for t in &turns {
            let next = c.compose(t);
            if seen.insert(corners_of(&next)) {
                queue.push(next);
            }
        }
    }
    assert_eq!(seen.len(), 24);
    seen
}

/// The rotation that carries the named step's axis to F/B (EO) or U/D (DR): `x`, `y` or `z`.
fn to_axis(step: &str) -> Symmetry {
    match step {
        "eofb" | "drud" | "drud-eofb" | "drud-eorl" | "htr-drud" | "htrfin" | "drudslice"
        | "drudfin" => Symmetry::IDENTITY,
        "eorl" => Symmetry::Y,
        "eoud" | "drfb" | "drfb-eorl" | "drfb-eoud" | "htr-drfb" | "drfbslice" | "drfbfin" => {
            Symmetry::X
        }
        _ => Symmetry::Z,
    }
}

fn solve_all(
    step: &fmc::Step,
    tables: &StepTables,
    state: &Cube,
    settings: &Settings,
) -> fmc::Outcome {
    fmc::solve(step, tables, state, settings, &AtomicBool::new(false))
        .unwrap_or_else(|e| panic!("{}: {e}", step.name()))
}

#[test]
fn solutions_solve_the_goal() {
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    let corner_perms = half_turn_corner_perms();
    let eo_moves = moves_where(|m| m.face().axis() != 2 || m.is_half_turn());
    let dr_moves = moves_where(|m| m.face().axis() == 0 || m.is_half_turn());
    let half_turns = moves_where(|m| m.is_half_turn());
    for step in fmc::steps() {
        let tables = tables(step);
        let axis = to_axis(step.name());
        // nissy-core does not prune the first side of a mixed search: mixed and all are only
        // affordable for the short steps here.
        // A step without NISS never switches sides: `linear` is `normal` and `inverse` together.
        let modes: &[Niss] = if step.goal().starts_with("EO") {
            &Niss::ALL
        } else if !step.niss_allowed() {
            &[Niss::Normal, Niss::Inverse]
        } else {
            &[Niss::Normal, Niss::Inverse, Niss::Linear]
        };
        for &niss in modes {
            for _ in 0..3 {
                // A state that meets the requisite: built on the step's axis, turned back.
                let start = Cube::random(&mut rng);
                let framed = match step.requisite() {
                    "none" => start,
                    r if r.starts_with("EO") => {
                        let eo_axis = match r {
                            "EO on F/B" => Symmetry::IDENTITY,
                            "EO on R/L" => Symmetry::Y,
                            _ => Symmetry::X,
                        };
                        let walk = random_walk(&mut rng, Cube::SOLVED, &eo_moves, 40);
                        eo_axis.inverse().conjugate(&walk)
                    }
                    "HTR" => random_walk(&mut rng, Cube::SOLVED, &half_turns, 40),
                    _ => axis.inverse().conjugate(&random_walk(
                        &mut rng,
                        Cube::SOLVED,
                        &dr_moves,
                        40,
                    )),
                };
                let settings = Settings {
                    niss,
                    max_solutions: 50,
                    above_optimal: Some(1),
                    ..Settings::default()
                };
                let outcome = solve_all(step, &tables, &framed, &settings);
                assert!(outcome.count > 0, "{}: no solution", step.name());
                for s in &outcome.solutions {
                    let done = axis.conjugate(&s.normal_side(&framed));
                    let ok = match step.goal() {
                        g if g.starts_with("EO") => eo_fb(&done),
                        "HTR" => htr(&done, &corner_perms),
                        "solved" => done.is_solved(),
                        "corners (centers fixed)" => corners_solved(&done),
                        g if g.starts_with("all but") => slice_left(&done),
                        g if g.starts_with("corners relative") => {
                            rotation_corners().contains(&corners_of(&done))
                        }
                        _ => dr_ud(&done),
                    };
                    assert!(
                        ok,
                        "{} ({niss}): {s} does not solve {}",
                        step.name(),
                        step.goal()
                    );
                    assert!(s.htm() >= usize::from(outcome.optimum.unwrap()));
                }
            }
        }
    }
}

/// Distances over a coordinate, by a breadth-first search of its own over cubes: `key` reads the
/// coordinate, `moves` are the step's moves.
fn coordinate_distances(key: impl Fn(&Cube) -> u64, moves: &[Move]) -> HashMap<u64, u8> {
    let mut dist = HashMap::from([(key(&Cube::SOLVED), 0u8)]);
    let mut frontier = vec![Cube::SOLVED];
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for c in frontier {
            for &m in moves {
                let n = c.apply_move(m);
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(key(&n)) {
                    e.insert(d);
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    dist
}

#[test]
fn optimum_is_the_coordinate_distance() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let eo_moves = moves_where(|m| m.face().axis() != 2 || m.is_half_turn());
    let eo_key = |c: &Cube| c.edge_ori().iter().fold(0u64, |a, &o| a * 2 + u64::from(o));
    let dreo_key = |c: &Cube| {
        let slice = c
            .edge_perm()
            .iter()
            .fold(0u64, |a, &e| a * 2 + u64::from(e >= 8));
        c.corner_ori()
            .iter()
            .fold(slice, |a, &o| a * 3 + u64::from(o))
    };
    let settings = Settings {
        above_optimal: Some(0),
        ..Settings::default()
    };
    let cases: [(&str, HashMap<u64, u8>, usize); 2] = [
        ("eofb", coordinate_distances(eo_key, &Move::ALL), 200),
        ("drud-eofb", coordinate_distances(dreo_key, &eo_moves), 200),
    ];
    for (name, dist, n) in cases {
        let step = fmc::step(name).unwrap();
        let tables = tables(step);
        for _ in 0..n {
            let state = if name == "eofb" {
                Cube::random(&mut rng)
            } else {
                random_eo(&mut rng)
            };
            let outcome = solve_all(step, &tables, &state, &settings);
            let key = if name == "eofb" {
                eo_key(&state)
            } else {
                dreo_key(&state)
            };
            assert_eq!(outcome.optimum, Some(dist[&key]), "{name} on {state:?}");
        }
    }
}

/// A random state with edge orientation solved on F/B.
fn random_eo(rng: &mut ChaCha8Rng) -> Cube {
    let c = Cube::random(rng);
    Cube::from_parts(c.corner_perm(), c.corner_ori(), c.edge_perm(), [0; 12]).unwrap()
}

/// nissy-core's count for `eofb`, NISS `normal`: canonical sequences of each length that solve
/// edge orientation with no shorter prefix doing it, ending in a clockwise quarter turn (and,
/// when the two last moves are on one axis, both clockwise quarter turns); counted by walking
/// every canonical sequence over the edge orientation's own move table.
fn brute_force_eo_counts(state: &Cube, max: usize) -> Vec<usize> {
    let key = |c: &Cube| {
        c.edge_ori()
            .iter()
            .fold(0usize, |a, &o| a * 2 + usize::from(o))
    };
    // A move table over the 2,048 orientations, from one cube per orientation.
    let mut reps: HashMap<usize, Cube> = HashMap::from([(0, Cube::SOLVED)]);
    let mut frontier = vec![Cube::SOLVED];
    while let Some(c) = frontier.pop() {
        for m in Move::ALL {
            let n = c.apply_move(m);
            if let std::collections::hash_map::Entry::Vacant(e) = reps.entry(key(&n)) {
                e.insert(n);
                frontier.push(n);
            }
        }
    }
    let mut table = vec![0usize; 4096 * 18];
    for (&k, c) in &reps {
        for m in Move::ALL {
            table[k * 18 + m.index()] = key(&c.apply_move(m));
        }
    }
    let mut counts = vec![0; max + 1];
    fn walk(eo: usize, seq: &mut Vec<Move>, max: usize, table: &[usize], counts: &mut [usize]) {
        if eo == 0 {
            let ok = match seq.as_slice() {
                [] => true,
                [.., a, b] if a.face().axis() == b.face().axis() => {
                    a.amount() == 1 && b.amount() == 1
                }
                [.., b] => b.amount() == 1,
            };
            counts[seq.len()] += usize::from(ok);
            return;
        }
        if seq.len() == max {
            return;
        }
        for m in Move::ALL {
            seq.push(m);
            if cube_core::is_canonical(seq) {
                walk(table[eo * 18 + m.index()], seq, max, table, counts);
            }
            seq.pop();
        }
    }
    walk(key(state), &mut Vec::new(), max, &table, &mut counts);
    counts
}

#[test]
fn eofb_counts_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let step = fmc::step("eofb").unwrap();
    let tables = tables(step);
    for _ in 0..50 {
        let state = Cube::random(&mut rng);
        let settings = Settings {
            max_moves: 6,
            max_solutions: usize::MAX,
            ..Settings::default()
        };
        let outcome = solve_all(step, &tables, &state, &settings);
        let mut counts = vec![0; 7];
        for s in &outcome.solutions {
            counts[s.htm()] += 1;
        }
        assert_eq!(counts, brute_force_eo_counts(&state, 6));
    }
}

#[test]
fn errors_name_what_is_wrong() {
    let eofb = fmc::step("eofb").unwrap();
    let eo_tables = tables(eofb);
    let stop = AtomicBool::new(false);
    let dreo = fmc::step("drud-eofb").unwrap();
    let dreo_tables = tables(dreo);
    // F U: F flips 4 edges on F/B.
    let err = fmc::solve(
        dreo,
        &dreo_tables,
        &state_of("F"),
        &Settings::default(),
        &stop,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "drud-eofb needs edge orientation solved on F/B: 4 edges are misoriented on that axis"
    );
    let htr = fmc::step("htr-drud").unwrap();
    let err = fmc::solve(
        htr,
        &tables(htr),
        &state_of("R"),
        &Settings::default(),
        &stop,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            FmcError::Requisite {
                step: "htr-drud",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("4 corners are twisted"), "{err}");
    let htrfin = fmc::step("htrfin").unwrap();
    let err = fmc::solve(
        htrfin,
        &tables(htrfin),
        &state_of("U"),
        &Settings::default(),
        &stop,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "htrfin needs half turn reduction: 4 U/D-layer edges are out of their slice, \
         the corners are not in a half-turn permutation"
    );
    // Leave-slice and the DR finish need domino reduction on their axis.
    for (name, scramble) in [("drrlslice", "U"), ("drudfin", "F")] {
        let step = fmc::step(name).unwrap();
        let err = fmc::solve(
            step,
            &tables(step),
            &state_of(scramble),
            &Settings::default(),
            &stop,
        )
        .unwrap_err();
        assert!(
            matches!(err, FmcError::Requisite { step, .. } if step == name),
            "{err}"
        );
        let axis = if name == "drrlslice" { "R/L" } else { "U/D" };
        assert!(
            err.to_string()
                .starts_with(&format!("{name} needs domino reduction on {axis}: ")),
            "{err}"
        );
    }
    match fmc::step("drdu").unwrap_err() {
        FmcError::UnknownStep { name, suggestions } => {
            assert_eq!(name, "drdu");
            assert!(suggestions.contains(&"drud"), "{suggestions:?}");
        }
        e => panic!("{e}"),
    }
    assert_eq!(fmc::step("coord_EO_UR").unwrap().name(), "eorl");
    let bad = [
        Settings {
            min_moves: 5,
            max_moves: 4,
            ..Settings::default()
        },
        Settings {
            max_solutions: 0,
            ..Settings::default()
        },
        Settings {
            threads: 0,
            ..Settings::default()
        },
        Settings {
            max_moves: 21,
            ..Settings::default()
        },
    ];
    for settings in bad {
        let err = fmc::solve(eofb, &eo_tables, &Cube::SOLVED, &settings, &stop).unwrap_err();
        assert!(matches!(err, FmcError::Settings(_)), "{settings:?}: {err}");
    }
    let err = fmc::solve(dreo, &eo_tables, &Cube::SOLVED, &Settings::default(), &stop).unwrap_err();
    assert!(matches!(err, FmcError::WrongTables { .. }), "{err}");
    assert!("sideways".parse::<Niss>().is_err());
    assert_eq!("mixed".parse::<Niss>().unwrap(), Niss::Mixed);
}

#[test]
fn a_raised_stop_flag_ends_the_search() {
    let step = fmc::step("drud").unwrap();
    let tables = tables(step);
    let settings = Settings {
        niss: Niss::All,
        max_solutions: 1000,
        ..Settings::default()
    };
    let outcome = fmc::solve(
        step,
        &tables,
        &state_of("R U F D L B R2"),
        &settings,
        &AtomicBool::new(true),
    )
    .unwrap();
    assert!(!outcome.complete);
    assert!(outcome.solutions.is_empty());
}

/// Whether a cube meets a goal.
type Goal<'a> = &'a dyn Fn(&Cube) -> bool;

/// The length of the shortest sequence of `moves` after which `solved` holds on `state`, by a
/// plain iterative deepening without tables, up to `max`.
fn brute_force(state: &Cube, moves: &[Move], solved: Goal<'_>, max: usize) -> Option<usize> {
    fn walk(c: &Cube, last: Option<Move>, left: usize, moves: &[Move], solved: Goal<'_>) -> bool {
        if solved(c) {
            return true;
        }
        left > 0
            && moves
                .iter()
                .filter(|m| last.is_none_or(|l| l.face() != m.face()))
                .any(|&m| walk(&c.apply_move(m), Some(m), left - 1, moves, solved))
    }
    (0..=max).find(|&d| walk(state, None, d, moves, solved))
}

/// `corners` and `cornersx` find the optimum of a plain search on states a few moves from solved
/// (`fmc.json` has a deeper `cornersx` case).
#[test]
fn corners_optimum_is_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let rotations = rotation_corners();
    let urf = moves_where(|m| matches!(m.face(), Face::U | Face::R | Face::F));
    let relative = |c: &Cube| rotations.contains(&corners_of(c));
    let cases: [(&str, &[Move], Goal<'_>); 2] = [
        ("corners", &Move::ALL, &corners_solved),
        ("cornersx", &urf, &relative),
    ];
    let settings = Settings {
        above_optimal: Some(0),
        ..Settings::default()
    };
    for (name, moves, solved) in cases {
        let step = fmc::step(name).unwrap();
        let tables = tables(step);
        for n in (1..=5).cycle().take(25) {
            let state = random_walk(&mut rng, Cube::SOLVED, &Move::ALL, n);
            let outcome = solve_all(step, &tables, &state, &settings);
            let expected = brute_force(&state, moves, solved, 6).map(|d| d as u8);
            assert_eq!(outcome.optimum, expected, "{name} on {state:?}");
        }
    }
}

/// The README's FMC scramble (issue 54's): EO on F/B is 4 moves away, 4 solutions of 4 with NISS.
const FMC_SCRAMBLE: &str = "R' U' F D2 L2 F R2 U2 R2 B D2 L2 F' R' F2 U2 F' L' U R' U' F";

/// Issue 54, item 4: a minimum above the optimum gives the full list's solutions of that length
/// on, in its order: `--min L -n K` is the first K of the list up to `--max` that are at least L
/// long, in every NISS mode; and with one length, as many as a direct enumeration counts.
#[test]
fn a_long_minimum_gives_the_full_lists_later_solutions() {
    let mut rng = ChaCha8Rng::seed_from_u64(54);
    let step = fmc::step("eofb").unwrap();
    let tables = tables(step);
    // Lists up to 6 moves (up to 7 the enumerations took 40 s): the optimum of EO is at most 7,
    // usually 4 or 5, so each state still has later lengths to ask for.
    let max = 6;
    let mut asked = 0;
    for _ in 0..4 {
        let state = Cube::random(&mut rng);
        let by_length = brute_force_eo_counts(&state, max);
        for niss in Niss::ALL {
            let all = Settings {
                niss,
                max_moves: max as u8,
                max_solutions: usize::MAX,
                ..Settings::default()
            };
            let full = solve_all(step, &tables, &state, &all);
            assert!(full.complete && full.count == full.solutions.len());
            let optimum = full.optimum.unwrap();
            for min in optimum + 1..=max as u8 {
                let later: Vec<&NissAlg> = full
                    .solutions
                    .iter()
                    .filter(|s| s.htm() >= usize::from(min))
                    .collect();
                for n in [1, 3, 1000, usize::MAX] {
                    let settings = Settings {
                        min_moves: min,
                        max_solutions: n,
                        ..all.clone()
                    };
                    let outcome = solve_all(step, &tables, &state, &settings);
                    let expected: Vec<&NissAlg> = later.iter().take(n).copied().collect();
                    assert!(outcome.complete);
                    assert_eq!(outcome.solutions.iter().collect::<Vec<_>>(), expected);
                    assert_eq!(outcome.count, expected.len());
                    let first = expected.first().map(|s| s.htm() as u8);
                    assert_eq!(outcome.optimum, first, "{niss} --min {min} -n {n}");
                }
                // One length: as many as the direct enumeration (nissy-core's rules, `normal`).
                let one = Settings {
                    min_moves: min,
                    max_moves: min,
                    max_solutions: usize::MAX,
                    count_only: true,
                    ..all.clone()
                };
                let outcome = solve_all(step, &tables, &state, &one);
                let listed = later.iter().filter(|s| s.htm() == usize::from(min)).count();
                assert_eq!(outcome.count, listed, "{niss} length {min}");
                if niss == Niss::Normal {
                    assert_eq!(outcome.count, by_length[usize::from(min)], "length {min}");
                }
                asked += 1;
            }
        }
    }
    assert!(asked >= 12, "only {asked} later lengths asked");
}

/// Issue 54, item 4: one solution at a length far above the optimum holds that solution only:
/// with room for four solutions it is found, and it is the first of its length (the solve before
/// held every solution of that length first: 4.3 GB at 10 moves, killed at 23 GB at 11).
#[test]
fn a_long_minimum_holds_only_the_solutions_asked() {
    let step = fmc::step("eofb").unwrap();
    let tables = tables(step);
    let state = state_of(FMC_SCRAMBLE);
    let first = |min: u8, niss: Niss, max_memory: usize| {
        let settings = Settings {
            niss,
            min_moves: min,
            max_moves: min,
            max_solutions: 1,
            max_memory,
            ..Settings::default()
        };
        solve_all(step, &tables, &state, &settings)
    };
    for (min, expected) in [
        // The solve before gave the first three.
        (8, "U R U R F' U2 L' F"),
        (9, "U R U R U D L U F"),
        (10, "U R U R U R D' L' U' B"),
        (11, "U R U R U R U F2 D' L B"),
    ] {
        let outcome = first(min, Niss::Normal, 4 * 1024);
        assert!(outcome.complete, "--min {min}");
        assert_eq!(outcome.count, 1);
        assert_eq!(outcome.solutions[0].to_string(), expected);
        assert_eq!(outcome.optimum, Some(min));
    }
    // In every mode, up to 20 moves: a solution of the length asked that orients the edges.
    for niss in Niss::ALL {
        for min in [12, 16, 20] {
            let outcome = first(min, niss, 4 * 1024);
            assert!(outcome.complete && outcome.count == 1, "{niss} --min {min}");
            let s = &outcome.solutions[0];
            assert_eq!(s.htm(), usize::from(min));
            assert!(eo_fb(&s.normal_side(&state)), "{niss}: {s}");
        }
    }
}

/// Issue 54, item 2: a list that would take more memory than `max_memory` is cut: the first
/// solutions of the full list, the outcome incomplete and saying why. Counting holds no
/// solution: its count is the full one whatever the bound.
#[test]
fn the_memory_bound_cuts_a_list_to_its_first_solutions() {
    let step = fmc::step("eofb").unwrap();
    let tables = tables(step);
    let state = state_of(FMC_SCRAMBLE);
    let all = Settings {
        niss: Niss::All,
        max_moves: 7,
        max_solutions: usize::MAX,
        ..Settings::default()
    };
    let full = solve_all(step, &tables, &state, &all);
    assert!(full.complete && full.cut.is_none() && full.count > 5000);
    for (max_memory, threads) in [(0, 1), (64 * 1024, 1), (64 * 1024, 2), (1 << 20, 2)] {
        let settings = Settings {
            max_memory,
            threads,
            ..all.clone()
        };
        let cut = solve_all(step, &tables, &state, &settings);
        assert!(!cut.complete, "{max_memory}");
        assert_eq!(cut.cut, Some(fmc::Cut::Memory));
        assert_eq!(cut.count, cut.solutions.len());
        assert!(cut.count < full.count);
        // At most the bound's worth: a move is reckoned 64 bytes, a solution more.
        let moves: usize = cut.solutions.iter().map(|s| s.htm()).sum();
        assert!(moves * 64 <= max_memory, "{max_memory}: {moves} moves");
        assert_eq!(cut.solutions[..], full.solutions[..cut.count]);
        let counted = solve_all(
            step,
            &tables,
            &state,
            &Settings {
                count_only: true,
                ..settings
            },
        );
        assert!(counted.complete && counted.cut.is_none());
        assert_eq!(counted.count, full.count);
    }
    // The default bound holds this list.
    assert_eq!(Settings::default().max_memory, fmc::DEFAULT_MAX_MEMORY);
}
