//! Insertions (issue 59): constructed cases with a known answer (a random skeleton with known
//! insertions spliced in, the scramble made from the result), over every kind of leftover; the
//! solutions checked on a sticker model written here; the greedy finder against the optimal
//! one; the algorithm sets; the errors.

use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cube_core::{Alg, Cube, Move, MoveSet, NissAlg, simplify};
use cube_solvers::fmc::insert::{self, AlgSet, InsertError, Kind, Leftover, Settings};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The lengths of the test set: small enough to make in a second or two.
const TEST_LENGTHS: &[(Kind, usize)] = &[
    (Kind::CornerCycle, 9),
    (Kind::EdgeCycle, 9),
    (Kind::CornerSwaps, 10),
    (Kind::EdgeSwaps, 8),
    (Kind::Parity, 10),
];

/// The test set, made once.
fn set() -> &'static AlgSet {
    static SET: OnceLock<AlgSet> = OnceLock::new();
    SET.get_or_init(|| AlgSet::generate(TEST_LENGTHS).expect("lengths in range"))
}

/// A sticker model independent of cube-core's cubies: 54 stickers as (position, normal) in
/// space, a face turn rotating those of its layer a quarter turn about the face's axis.
mod stickers {
    use cube_core::{Face, Move};

    type V = [i32; 3];

    /// The outward normal of each face, in `Face` order (U R F D L B): y up, x right, z front.
    fn normal(face: Face) -> V {
        match face {
            Face::U => [0, 1, 0],
            Face::R => [1, 0, 0],
            Face::F => [0, 0, 1],
            Face::D => [0, -1, 0],
            Face::L => [-1, 0, 0],
            Face::B => [0, 0, -1],
        }
    }

    fn dot(a: V, b: V) -> i32 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    /// `v` turned a quarter clockwise seen from the tip of the unit axis `n`.
    fn quarter(v: V, n: V) -> V {
        // Clockwise seen from the tip is a rotation by -90 degrees: v cos - (n x v) sin ...
        // with sin = -1: v' = (n . v) n - n x v... written out for an axis vector.
        let cross = [
            n[1] * v[2] - n[2] * v[1],
            n[2] * v[0] - n[0] * v[2],
            n[0] * v[1] - n[1] * v[0],
        ];
        let along = dot(n, v);
        [
            along * n[0] - cross[0],
            along * n[1] - cross[1],
            along * n[2] - cross[2],
        ]
    }

    /// The cube: each sticker's position (cubie centre), normal and colour (its home face).
    #[derive(Clone)]
    pub struct Stickers(Vec<(V, V, usize)>);

    impl Stickers {
        pub fn solved() -> Stickers {
            let mut out = Vec::new();
            for (colour, &face) in Face::ALL.iter().enumerate() {
                let n = normal(face);
                for a in -1..=1 {
                    for b in -1..=1 {
                        let mut p = [a, b, a];
                        // The two coordinates across the face.
                        let axis = n.iter().position(|&c| c != 0).expect("a unit normal");
                        let others: Vec<usize> = (0..3).filter(|&i| i != axis).collect();
                        p[axis] = n[axis];
                        p[others[0]] = a;
                        p[others[1]] = b;
                        out.push((p, n, colour));
                    }
                }
            }
            Stickers(out)
        }

        pub fn turn(&mut self, m: Move) {
            let n = normal(m.face());
            for _ in 0..m.amount() {
                for (p, normal, _) in &mut self.0 {
                    if dot(*p, n) == 1 {
                        *p = quarter(*p, n);
                        *normal = quarter(*normal, n);
                    }
                }
            }
        }

        pub fn is_solved(&self) -> bool {
            Face::ALL.iter().all(|&face| {
                let n = normal(face);
                let colours: Vec<usize> = self
                    .0
                    .iter()
                    .filter(|(_, normal, _)| *normal == n)
                    .map(|&(_, _, c)| c)
                    .collect();
                colours.len() == 9 && colours.iter().all(|&c| c == colours[0])
            })
        }
    }
}

/// Whether `solution` solves `scramble` on the sticker model.
fn solves_on_stickers(scramble: &[Move], solution: &[Move]) -> bool {
    let mut cube = stickers::Stickers::solved();
    for &m in scramble.iter().chain(solution) {
        cube.turn(m);
    }
    cube.is_solved()
}

#[test]
fn the_sticker_model_agrees_with_the_cubies() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..200 {
        let n = 1 + rng.random_range(0..12);
        let moves = random_sequence(&mut rng, n);
        let solved = Cube::SOLVED.apply_moves(&moves).is_solved();
        assert_eq!(solves_on_stickers(&moves, &[]), solved, "{moves:?}");
        let inverse: Vec<Move> = moves.iter().rev().map(|m| m.inverse()).collect();
        assert!(solves_on_stickers(&moves, &inverse));
    }
    // A sexy move's order is 6.
    let sexy: Alg = "R U R' U'".parse().unwrap();
    let six: Vec<Move> = (0..6).flat_map(|_| sexy.moves()).collect();
    assert!(solves_on_stickers(&six, &[]));
    assert!(!solves_on_stickers(&six[..20], &[]));
}

/// A random canonical sequence of `n` moves.
fn random_sequence(rng: &mut ChaCha8Rng, n: usize) -> Vec<Move> {
    let mut moves: Vec<Move> = Vec::new();
    while moves.len() < n {
        let allowed: Vec<Move> = MoveSet::after(moves.last().copied()).iter().collect();
        moves.push(allowed[rng.random_range(0..allowed.len())]);
    }
    moves
}

/// A random algorithm of `kind` from the test set.
fn random_alg(rng: &mut ChaCha8Rng, kind: Kind) -> Vec<Move> {
    let cases: Vec<_> = set().cases().iter().filter(|c| c.kind() == kind).collect();
    let case = cases[rng.random_range(0..cases.len())];
    let algs: Vec<&[Move]> = set().algorithms(case).collect();
    algs[rng.random_range(0..algs.len())].to_vec()
}

/// A constructed case: a skeleton, the scramble its known insertions make, the known solution.
struct Constructed {
    name: &'static str,
    scramble: Vec<Move>,
    skeleton: Vec<Move>,
    known: Vec<Move>,
    insertions: usize,
}

/// Splices `algs` into a random skeleton, each at a random place of the sequence the ones before
/// made (`inside`: the second goes inside the first), and keeps the case when the known
/// insertions are in the search space: each lowers what is left, none shortens the sequence.
fn construct(
    rng: &mut ChaCha8Rng,
    name: &'static str,
    algs: &[Vec<Move>],
    inside: bool,
) -> Option<Constructed> {
    let n = rng.random_range(16..24);
    let skeleton = random_sequence(rng, n);
    let mut sequences = vec![skeleton.clone()];
    let mut first_at = 0;
    for (i, alg) in algs.iter().enumerate() {
        let current = sequences.last().expect("the skeleton");
        let at = if inside && i == 1 {
            first_at + rng.random_range(1..alg.len().min(4))
        } else {
            rng.random_range(0..=current.len())
        };
        if at > current.len() {
            return None;
        }
        if i == 0 {
            first_at = at;
        }
        let next = simplify(&[&current[..at], alg, &current[at..]].concat());
        if next.len() < current.len() {
            return None;
        }
        sequences.push(next);
    }
    let known = sequences.last().expect("the solution").clone();
    let scramble: Vec<Move> = known.iter().rev().map(|m| m.inverse()).collect();
    let state = Cube::SOLVED.apply_moves(&scramble);
    let measures: Vec<usize> = sequences
        .iter()
        .map(|s| {
            let left = Leftover::of(&state.apply_moves(s));
            // In half-insertions, parity counting 3 (the module's measure).
            2 * left.insertions() + usize::from(left.parity())
        })
        .collect();
    if measures.windows(2).any(|w| w[1] >= w[0]) || measures[0] == 0 {
        return None;
    }
    Some(Constructed {
        name,
        scramble,
        skeleton,
        known,
        insertions: algs.len(),
    })
}

/// The constructed cases: `n` of each kind of leftover.
fn constructed(n: usize) -> Vec<Constructed> {
    use Kind::*;
    let mut rng = ChaCha8Rng::seed_from_u64(59);
    let plans: &[(&str, &[Kind], bool)] = &[
        ("3c", &[CornerCycle], false),
        ("3e", &[EdgeCycle], false),
        ("3c3c", &[CornerCycle, CornerCycle], false),
        ("3c3e", &[CornerCycle, EdgeCycle], false),
        ("3e3e", &[EdgeCycle, EdgeCycle], false),
        ("inside", &[CornerCycle, EdgeCycle], true),
        ("2c2c", &[CornerSwaps], false),
        ("2e2e", &[EdgeSwaps], false),
        ("2c2e", &[Parity], false),
        ("2c2e+3c", &[Parity, CornerCycle], false),
        ("three", &[CornerCycle, EdgeCycle, CornerCycle], false),
    ];
    let mut out = Vec::new();
    for &(name, kinds, inside) in plans {
        let mut made = 0;
        while made < n {
            let algs: Vec<Vec<Move>> = kinds.iter().map(|&k| random_alg(&mut rng, k)).collect();
            if let Some(case) = construct(&mut rng, name, &algs, inside) {
                out.push(case);
                made += 1;
            }
        }
    }
    // Twists and flips: two 3-cycles at one place whose product twists two corners (flips two
    // edges).
    for (name, kind) in [("2t", CornerCycle), ("2f", EdgeCycle)] {
        let pairs = twisting_pairs(kind);
        assert!(
            !pairs.is_empty(),
            "no two {kind} algorithms of the set make {name}"
        );
        let mut made = 0;
        while made < n {
            let (first, second) = &pairs[rng.random_range(0..pairs.len())];
            let together = simplify(&[&first[..], &second[..]].concat());
            if let Some(mut case) = construct(&mut rng, name, &[together], false) {
                // The known solution is two 3-cycles, spliced together.
                case.insertions = 2;
                out.push(case);
                made += 1;
            }
        }
    }
    out
}

/// Pairs of algorithms of `kind` (3-cycles) of the set whose product twists two corners in place
/// (flips two edges): for each case, each pair of its pieces turned in place, and the case that
/// makes the rest.
fn twisting_pairs(kind: Kind) -> Vec<(Vec<Move>, Vec<Move>)> {
    let mut pairs = Vec::new();
    for case in set().cases().iter().filter(|c| c.kind() == kind) {
        let effect = *case.effect();
        let pieces = Leftover::of(&effect).cycles()[0].positions.clone();
        for (i, &x) in pieces.iter().enumerate() {
            for &y in &pieces[i + 1..] {
                let (x, y) = (usize::from(x), usize::from(y));
                let mut co = [0; 8];
                let mut eo = [0; 12];
                if kind == Kind::CornerCycle {
                    (co[x], co[y]) = (1, 2);
                } else {
                    (eo[x], eo[y]) = (1, 1);
                }
                let turned = Cube::from_parts(
                    std::array::from_fn(|k| k as u8),
                    co,
                    std::array::from_fn(|k| k as u8),
                    eo,
                )
                .expect("a twist of two pieces is well formed");
                if let Some(second) = set().case_of(&effect.inverse().compose(&turned)) {
                    let first_alg = set().algorithms(case).next().expect("an algorithm");
                    let second_alg = set().algorithms(second).next().expect("an algorithm");
                    pairs.push((first_alg.to_vec(), second_alg.to_vec()));
                }
            }
        }
    }
    pairs
}

fn settings(optimal: bool) -> Settings {
    Settings {
        optimal,
        time_budget: Some(Duration::from_secs(20)),
        ..Settings::default()
    }
}

fn run(case: &Constructed, optimal: bool) -> insert::Outcome {
    let scramble = Cube::SOLVED.apply_moves(&case.scramble);
    let skeleton = NissAlg::from_moves(&case.skeleton, &[]);
    insert::insert(
        set(),
        &scramble,
        &skeleton,
        &settings(optimal),
        &AtomicBool::new(false),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

#[test]
fn constructed_cases_are_solved_no_longer_than_known() {
    let n: usize = std::env::var("N").map_or(15, |v| v.parse().unwrap());
    let cases = constructed(n);
    assert!(cases.len() >= 13 * n, "{} cases", cases.len());
    let mut agree = 0;
    let mut proven = 0;
    for case in &cases {
        let t = std::time::Instant::now();
        let greedy = run(case, false);
        let tg = t.elapsed();
        let optimal = run(case, true);
        eprintln!(
            "{} greedy {:?} {:?} optimal {:?} {:?} proven {} known {}",
            case.name,
            tg,
            greedy.solution.as_ref().map(|s| s.len()),
            t.elapsed() - tg,
            optimal.solution.as_ref().map(|s| s.len()),
            optimal.proven,
            case.known.len()
        );
        for (outcome, what) in [(&optimal, "optimal"), (&greedy, "greedy")] {
            let solution = outcome
                .solution
                .as_ref()
                .unwrap_or_else(|| panic!("{} {what}: no solution", case.name));
            assert!(
                solves_on_stickers(&case.scramble, solution),
                "{} {what}: {} does not solve it",
                case.name,
                Alg::from_moves(solution)
            );
            // Replaying the insertions gives the solution.
            let mut sequence = outcome.skeleton.clone();
            for insertion in &outcome.insertions {
                let (before, after) = insertion.sequence.split_at(insertion.position);
                assert_eq!(simplify(&[before, after].concat()), sequence);
                let next = simplify(&[before, &insertion.algorithm[..], after].concat());
                assert_eq!(
                    before.len() + insertion.algorithm.len() + after.len() - next.len(),
                    insertion.cancelled
                );
                sequence = next;
            }
            assert_eq!(&sequence, solution, "{} {what}", case.name);
        }
        let best = optimal.solution.as_ref().expect("checked").len();
        if optimal.proven {
            proven += 1;
            assert!(
                best <= case.known.len(),
                "{}: {best} moves, the known solution {} ({})",
                case.name,
                case.known.len(),
                Alg::from_moves(&case.known)
            );
            let greedy_len = greedy.solution.as_ref().expect("checked").len();
            assert!(
                greedy_len >= best,
                "{}: greedy below the optimum",
                case.name
            );
            agree += usize::from(greedy_len == best);
            if case.insertions == 1 {
                assert_eq!(greedy_len, best, "{}: one insertion is exact", case.name);
            }
        }
    }
    assert!(
        proven * 10 >= cases.len() * 9,
        "{proven} of {} proven",
        cases.len()
    );
    eprintln!(
        "{} cases, {proven} proven optimal, greedy optimal on {agree}",
        cases.len()
    );
}
