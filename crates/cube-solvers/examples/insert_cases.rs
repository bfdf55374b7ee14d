//! Insertion cases with a known answer, and algorithm sets as text: the data of the insertion
//! tests, benchmark and side-by-side comparison (`benches/positions/insertions.txt`,
//! `benches/peers/insert_if.py`).
//!
//! ```text
//! cargo run --release -p cube-solvers --example insert_cases -- cases N SEED > benches/positions/insertions.txt
//! cargo run --release -p cube-solvers --example insert_cases -- algs small|generated > algs.txt
//! ```
//!
//! `cases`: for each kind of leftover, N cases: a random skeleton (16 to 23 random moves) with
//! algorithms of [`SMALL_LENGTHS`]' set spliced in, each at a random place of the sequence the ones
//! before made (the second inside the first for `inside`, right after it for the twists and flips), kept when each splice lowers what is
//! left and none shortens the sequence (so the splices are insertions of the search space); the
//! scramble is the inverse of the result. One line each, tab-separated: the kind, the scramble, the
//! skeleton, the splices (`position:algorithm`, `|`-separated) and the known solution.
//!
//! `algs`: every algorithm of the set, one a line (the small set or the generated one).

use cube_core::{Alg, Cube, Move, MoveSet, simplify};
use cube_solvers::fmc::insert::{AlgSet, GENERATED_LENGTHS, Kind, Leftover, SMALL_LENGTHS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["cases", n, seed] => cases(
            n.parse().expect("N: a count"),
            seed.parse().expect("SEED: a number"),
        ),
        ["algs", which] => {
            let lengths = match *which {
                "small" => SMALL_LENGTHS,
                "generated" => GENERATED_LENGTHS,
                _ => panic!("algs small|generated"),
            };
            let set = AlgSet::generate(lengths).expect("lengths in range");
            for case in set.cases() {
                for alg in set.algorithms(case) {
                    println!("{}", Alg::from_moves(alg));
                }
            }
        }
        _ => panic!("usage: insert_cases cases N SEED | algs small|generated"),
    }
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

/// The measure of what `sequence` leaves of `scramble` (half-insertions: a 3-cycle 2, a parity 3).
fn measure(scramble: &Cube, sequence: &[Move]) -> usize {
    let left = Leftover::of(&scramble.apply_moves(sequence));
    2 * left.insertions() + usize::from(left.parity())
}

/// Where the second splice goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Second {
    /// Anywhere.
    Anywhere,
    /// Inside the first algorithm.
    Inside,
    /// Right after the first algorithm (when nothing cancels there).
    After,
}

/// Splices `algs` into a random skeleton (see the module docs); `None` when the splices are not
/// insertions of the search space.
fn construct(rng: &mut ChaCha8Rng, algs: &[Vec<Move>], second: Second) -> Option<String> {
    let n = rng.random_range(16..24);
    let skeleton = random_sequence(rng, n);
    let mut sequences = vec![skeleton.clone()];
    let mut places = Vec::new();
    for (i, alg) in algs.iter().enumerate() {
        let current = sequences.last().expect("the skeleton");
        let at = match (i, second) {
            (1, Second::Inside) => places[0] + rng.random_range(1..algs[0].len().min(4)),
            (1, Second::After) => {
                let skeleton = &sequences[0];
                let left = simplify(&[&skeleton[..places[0]], &algs[0][..]].concat());
                if [&left[..], &skeleton[places[0]..]].concat() != *current {
                    return None;
                }
                left.len()
            }
            _ => rng.random_range(0..=current.len()),
        };
        if at > current.len() {
            return None;
        }
        let next = simplify(&[&current[..at], alg, &current[at..]].concat());
        if next.len() < current.len() {
            return None;
        }
        places.push(at);
        sequences.push(next);
    }
    let known = sequences.last().expect("the solution").clone();
    let scramble: Vec<Move> = known.iter().rev().map(|m| m.inverse()).collect();
    let state = Cube::SOLVED.apply_moves(&scramble);
    let measures: Vec<usize> = sequences.iter().map(|s| measure(&state, s)).collect();
    if measures.windows(2).any(|w| w[1] >= w[0]) {
        return None;
    }
    let splices: Vec<String> = places
        .iter()
        .zip(algs)
        .map(|(at, alg)| format!("{at}:{}", Alg::from_moves(alg)))
        .collect();
    Some(format!(
        "{}\t{}\t{}\t{}",
        Alg::from_moves(&scramble),
        Alg::from_moves(&skeleton),
        splices.join("|"),
        Alg::from_moves(&known)
    ))
}

/// Pairs of 3-cycles of `kind` of the set whose product twists two corners in place (flips two
/// edges): for each case, each pair of its pieces turned in place, and the case making the rest.
fn twisting_pairs(set: &AlgSet, kind: Kind) -> Vec<(Vec<Move>, Vec<Move>)> {
    let mut pairs = Vec::new();
    for case in set.cases().iter().filter(|c| c.kind() == kind) {
        let effect = *case.effect();
        let pieces = Leftover::of(&effect).cycles()[0].positions.clone();
        for (i, &x) in pieces.iter().enumerate() {
            for &y in &pieces[i + 1..] {
                let (x, y) = (usize::from(x), usize::from(y));
                let (mut co, mut eo) = ([0; 8], [0; 12]);
                if kind == Kind::CornerCycle {
                    (co[x], co[y]) = (1, 2);
                } else {
                    (eo[x], eo[y]) = (1, 1);
                }
                let home = |k| k as u8;
                let turned =
                    Cube::from_parts(std::array::from_fn(home), co, std::array::from_fn(home), eo)
                        .expect("a twist of two pieces is well formed");
                if let Some(second) = set.case_of(&effect.inverse().compose(&turned)) {
                    let first = set.algorithms(case).next().expect("an algorithm");
                    let second = set.algorithms(second).next().expect("an algorithm");
                    pairs.push((first.to_vec(), second.to_vec()));
                }
            }
        }
    }
    pairs
}

fn cases(n: usize, seed: u64) {
    use Kind::*;
    let set = AlgSet::generate(SMALL_LENGTHS).expect("lengths in range");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let random_alg = |rng: &mut ChaCha8Rng, kind: Kind| -> Vec<Move> {
        let cases: Vec<_> = set.cases().iter().filter(|c| c.kind() == kind).collect();
        let case = cases[rng.random_range(0..cases.len())];
        let algs: Vec<&[Move]> = set.algorithms(case).collect();
        algs[rng.random_range(0..algs.len())].to_vec()
    };
    let anywhere = Second::Anywhere;
    let plans: &[(&str, &[Kind], Second)] = &[
        ("3c", &[CornerCycle], anywhere),
        ("3e", &[EdgeCycle], anywhere),
        ("3c3c", &[CornerCycle, CornerCycle], anywhere),
        ("3c3e", &[CornerCycle, EdgeCycle], anywhere),
        ("3e3e", &[EdgeCycle, EdgeCycle], anywhere),
        ("inside", &[CornerCycle, EdgeCycle], Second::Inside),
        ("2c2c", &[CornerSwaps], anywhere),
        ("2e2e", &[EdgeSwaps], anywhere),
        ("2c2e", &[Parity], anywhere),
        ("2c2e+3c", &[Parity, CornerCycle], anywhere),
        ("three", &[CornerCycle, EdgeCycle, CornerCycle], anywhere),
    ];
    for &(name, kinds, second) in plans {
        let mut made = 0;
        while made < n {
            let algs: Vec<Vec<Move>> = kinds.iter().map(|&k| random_alg(&mut rng, k)).collect();
            if let Some(line) = construct(&mut rng, &algs, second) {
                println!("{name}\t{line}");
                made += 1;
            }
        }
    }
    // Two twisted corners, two flipped edges: two 3-cycles spliced one after the other.
    for (name, kind) in [("2t", CornerCycle), ("2f", EdgeCycle)] {
        let pairs = twisting_pairs(&set, kind);
        assert!(!pairs.is_empty(), "no two {kind} algorithms make {name}");
        let mut made = 0;
        while made < n {
            let (first, second) = pairs[rng.random_range(0..pairs.len())].clone();
            if let Some(line) = construct(&mut rng, &[first, second], Second::After) {
                println!("{name}\t{line}");
                made += 1;
            }
        }
    }
}
