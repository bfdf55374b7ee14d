//! Insertions (issue 59): constructed cases with a known answer (a random skeleton with known
//! insertions spliced in, the scramble made from the result: `benches/positions/insertions.txt`,
//! made by the `insert_cases` example), over every kind of leftover; the solutions checked on a
//! sticker model written here; the greedy finder against the optimal one; the algorithm sets; the
//! errors.

use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cube_core::{Alg, Cube, Move, MoveSet, NissAlg, simplify};
use cube_solvers::Solver;
use cube_solvers::fmc::insert::{
    self, AlgSet, InsertError, Kind, Leftover, SMALL_LENGTHS, Settings,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The test set ([`SMALL_LENGTHS`]), made once.
fn set() -> &'static AlgSet {
    static SET: OnceLock<AlgSet> = OnceLock::new();
    SET.get_or_init(|| AlgSet::generate(SMALL_LENGTHS).expect("lengths in range"))
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

fn moves(text: &str) -> Vec<Move> {
    text.parse::<Alg>()
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
        .moves()
}

/// A constructed case of `benches/positions/insertions.txt` (the `insert_cases` example's): a
/// skeleton, the algorithms spliced into it, the scramble the result solves, the known solution.
struct Constructed {
    kind: String,
    scramble: Vec<Move>,
    skeleton: Vec<Move>,
    splices: Vec<(usize, Vec<Move>)>,
    known: Vec<Move>,
}

/// The constructed cases, each checked: its splices make its known solution, which solves its
/// scramble on the sticker model; each splice is an algorithm of the test set, lowers what is left
/// and does not shorten the sequence, so the splices are insertions of the search space and the
/// optimal finder can do no worse.
fn constructed() -> Vec<Constructed> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../benches/positions/insertions.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [kind, scramble, skeleton, splices, known] = fields[..] else {
            panic!("five fields: {line}");
        };
        let case = Constructed {
            kind: kind.to_string(),
            scramble: moves(scramble),
            skeleton: moves(skeleton),
            splices: splices
                .split('|')
                .map(|s| {
                    let (at, alg) = s.split_once(':').expect("position:algorithm");
                    (at.parse().expect("a position"), moves(alg))
                })
                .collect(),
            known: moves(known),
        };
        let state = Cube::SOLVED.apply_moves(&case.scramble);
        let measure = |sequence: &[Move]| {
            let left = Leftover::of(&state.apply_moves(sequence));
            2 * left.insertions() + usize::from(left.parity())
        };
        let mut sequence = case.skeleton.clone();
        for (at, alg) in &case.splices {
            let case_of = set().case_of(&Cube::SOLVED.apply_moves(alg));
            assert!(
                case_of.is_some_and(|c| set().algorithms(c).any(|a| a == &alg[..])),
                "{line}: {} is not in the test set",
                Alg::from_moves(alg)
            );
            let next = simplify(&[&sequence[..*at], alg, &sequence[*at..]].concat());
            assert!(next.len() >= sequence.len(), "{line}: a splice shortens");
            assert!(
                measure(&next) < measure(&sequence),
                "{line}: a splice leaves as much"
            );
            sequence = next;
        }
        assert_eq!(sequence, case.known, "{line}");
        assert!(solves_on_stickers(&case.scramble, &case.known), "{line}");
        cases.push(case);
    }
    cases
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
    .unwrap_or_else(|e| panic!("{}: {e}", case.kind))
}

#[test]
fn constructed_cases_are_solved_no_longer_than_known() {
    let cases = constructed();
    assert!(cases.len() >= 200, "{} cases", cases.len());
    let (mut agree, mut proven) = (0, 0);
    for case in &cases {
        let optimal = run(case, true);
        let greedy = run(case, false);
        for (outcome, what) in [(&optimal, "optimal"), (&greedy, "greedy")] {
            let solution = outcome
                .solution
                .as_ref()
                .unwrap_or_else(|| panic!("{} {what}: no solution", case.kind));
            assert!(
                solves_on_stickers(&case.scramble, solution),
                "{} {what}: {} does not solve it",
                case.kind,
                Alg::from_moves(solution)
            );
            // Replaying the insertions gives the solution, cancelling as they say.
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
            assert_eq!(&sequence, solution, "{} {what}", case.kind);
        }
        let best = optimal.solution.as_ref().expect("checked").len();
        let greedy_len = greedy.solution.as_ref().expect("checked").len();
        assert!(
            best <= greedy_len,
            "{}: optimal longer than greedy",
            case.kind
        );
        if optimal.proven {
            proven += 1;
            assert!(
                best <= case.known.len(),
                "{}: {best} moves, the known solution {} ({})",
                case.kind,
                case.known.len(),
                Alg::from_moves(&case.known)
            );
            agree += usize::from(greedy_len == best);
            if case.splices.len() == 1 {
                assert_eq!(greedy_len, best, "{}: one insertion is exact", case.kind);
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

/// Every canonical sequence of at most `depth` moves, by brute force: the effects of each
/// length by kind (the generator's oracle, which meets in the middle instead).
fn brute_force_counts(depth: usize, kinds: &[Kind]) -> Vec<Vec<usize>> {
    fn walk(
        moves: &mut Vec<Move>,
        state: Cube,
        depth: usize,
        kinds: &[Kind],
        counts: &mut [Vec<usize>],
    ) {
        if !moves.is_empty()
            && let Some(kind) = Kind::of_effect(&state)
            && let Some(k) = kinds.iter().position(|&x| x == kind)
        {
            counts[k][moves.len()] += 1;
        }
        if moves.len() == depth {
            return;
        }
        for m in MoveSet::after(moves.last().copied()).iter() {
            moves.push(m);
            walk(moves, state.apply_move(m), depth, kinds, counts);
            moves.pop();
        }
    }
    let mut counts = vec![vec![0; depth + 1]; kinds.len()];
    walk(&mut Vec::new(), Cube::SOLVED, depth, kinds, &mut counts);
    counts
}

#[test]
fn generated_sets_are_every_sequence_of_their_kinds() {
    // Up to 6 moves by brute force (8.3 million sequences): the edge kinds (the 6-move edge
    // 3-cycles and swaps), and no corner, twist, flip or parity algorithm that short.
    let kinds = Kind::GENERATED;
    let lengths: Vec<(Kind, usize)> = kinds.iter().map(|&k| (k, 6)).collect();
    let set = AlgSet::generate(&lengths).expect("lengths in range");
    let expected = brute_force_counts(6, &kinds);
    for (k, kind) in kinds.iter().enumerate() {
        let mut counts = set.counts(*kind);
        counts.resize(7, 0);
        assert_eq!(counts, expected[k], "{kind}");
    }
    assert_eq!(set.counts(Kind::EdgeCycle)[6], 96);
    // Each case's algorithms against the brute-force oracle's optimal solutions: the 6-move
    // edge 3-cycles are optimal (nothing shorter is one), so a case's algorithms are the optimal
    // solutions of its inverse.
    let case = set
        .cases()
        .iter()
        .find(|c| c.kind() == Kind::EdgeCycle)
        .expect("an edge 3-cycle");
    let solutions = cube_solvers::slow::Slow::new()
        .solve(
            &case.effect().inverse(),
            &cube_solvers::Limits::default().with_n_solutions(usize::MAX),
            &cube_solvers::Stop::new(),
        )
        .expect("a legal state");
    let mut oracle: Vec<Vec<Move>> = solutions.into_iter().map(|s| s.moves).collect();
    let mut ours: Vec<Vec<Move>> = set.algorithms(case).map(<[Move]>::to_vec).collect();
    oracle.sort();
    ours.sort();
    assert_eq!(ours, oracle);
}

/// The same at 8 moves for the corner kinds (1.1 billion sequences: a minute or more).
#[test]
#[ignore = "a minute of brute force: cargo test --release -p cube-solvers --test integration -- --ignored insert"]
fn corner_algorithms_of_8_moves_are_every_sequence() {
    let kinds = [Kind::CornerCycle, Kind::CornerTwist, Kind::CornerSwaps];
    let lengths: Vec<(Kind, usize)> = kinds.iter().map(|&k| (k, 8)).collect();
    let set = AlgSet::generate(&lengths).expect("lengths in range");
    let expected = brute_force_counts(8, &kinds);
    for (k, kind) in kinds.iter().enumerate() {
        let mut counts = set.counts(*kind);
        counts.resize(9, 0);
        assert_eq!(counts, expected[k], "{kind}");
    }
}

#[test]
fn bad_skeletons_get_specific_errors() {
    let scramble: Vec<Move> = moves("R U R' D R U' R' D' F2 B2");
    let state = Cube::SOLVED.apply_moves(&scramble);
    let stop = AtomicBool::new(false);
    let run = |set: &AlgSet, skeleton: &str, settings: &Settings| {
        let skeleton: NissAlg = skeleton.parse().expect("NISS notation");
        insert::insert(set, &state, &skeleton, settings, &stop)
    };
    // Solved already.
    let solving = "B2 F2 D R U R' D' R U' R'";
    assert_eq!(
        run(set(), solving, &Settings::default()).unwrap_err(),
        InsertError::Solved { length: 10 }
    );
    // The same, in NISS notation.
    assert!(matches!(
        run(set(), "B2 F2 D R (R U R' D R U')", &Settings::default()),
        Err(InsertError::Solved { length: 10 })
    ));
    // A corner 3-cycle left, and a set of edge algorithms only.
    let edges = AlgSet::from_text("U' D L2 U D' B2").expect("an algorithm");
    let err = run(&edges, "B2 F2", &Settings::default()).unwrap_err();
    assert_eq!(err.code(), "not-covered");
    assert!(err.to_string().contains("3 corners: 3c") && err.to_string().contains("no corner"));
    // A skeleton that leaves most of the cube.
    let err = run(set(), "L", &Settings::default()).unwrap_err();
    assert_eq!(err.code(), "too-much", "{err}");
    // Settings out of range.
    let zero = Settings {
        threads: 0,
        ..Settings::default()
    };
    assert_eq!(run(set(), "B2 F2", &zero).unwrap_err().code(), "settings");
}

#[test]
fn algorithm_lists_are_read_with_their_variants() {
    // One corner commutator gives its 48 symmetric images, their inverses and cyclic shifts.
    let set = AlgSet::from_text("// a comment\n\nR U R' D R U' R' D'  // [R U R', D]\n")
        .expect("an algorithm");
    assert!(set.cases().iter().all(|c| c.kind() == Kind::CornerCycle));
    assert!(set.len() > 48);
    for case in set.cases() {
        for alg in set.algorithms(case) {
            assert_eq!(&Cube::SOLVED.apply_moves(alg), case.effect());
            assert_eq!(simplify(alg), alg);
        }
    }
    // Errors name the line.
    let err = AlgSet::from_text("R U R' D R U' R' D'\nR Q").unwrap_err();
    assert!(err.starts_with("line 2:"), "{err}");
    let err = AlgSet::from_text("R U R' U'\nR R'").unwrap_err();
    assert!(
        err.contains("line 2") && err.contains("does nothing"),
        "{err}"
    );
    assert!(AlgSet::from_text("// nothing\n").is_err());
}
