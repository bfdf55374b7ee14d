//! Shorter replacements of the segments of a solution: for each segment of up to ten moves,
//! the shortest sequence (of at most nine) that does what it does, found by meeting in the
//! middle, and the solution it makes once the moves around it cancel.

use std::sync::atomic::{AtomicBool, Ordering};

use cube_core::{Cube, Move, MoveSet, simplify};
use rayon::prelude::*;

use super::algs::{StateMap, pack, unpack};
use crate::cancel::Clock;

/// The longest segment [`improve`] replaces.
pub const MAX_SEGMENT: usize = 10;

/// The sequences of the two halves of a replacement: the first of up to this many moves, the
/// second (looked up) of up to one more.
const FIRST_HALF: usize = (MAX_SEGMENT - 1) / 2;
const SECOND_HALF: usize = MAX_SEGMENT - 1 - FIRST_HALF;

/// One improvement: the moves `start..end` of the solution replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Improvement {
    /// The first move replaced.
    pub start: usize,
    /// One past the last move replaced.
    pub end: usize,
    /// The moves that replace them (shorter, the same effect).
    pub replacement: Vec<Move>,
    /// The solution with the replacement, cancelled.
    pub solution: Vec<Move>,
}

/// The improvements of `solution` (a reduced sequence) by replacing a segment of at most
/// `max_segment` moves (2 to [`MAX_SEGMENT`]): for each segment, its shortest replacement, kept
/// when the solution it makes is shorter; each resulting solution once (by its shortest
/// segment), the shortest first (then by the segment's length and where it starts); with whether every segment was searched (not when `budget` ran
/// out or `stop` was raised). Runs on the caller's rayon pool.
pub fn improve(
    solution: &[Move],
    max_segment: usize,
    budget: Option<std::time::Duration>,
    stop: &AtomicBool,
) -> (Vec<Improvement>, bool) {
    let max_segment = max_segment.clamp(2, MAX_SEGMENT);
    let clock = Clock::new(budget);
    let stopped = || stop.load(Ordering::Relaxed) || clock.expired();
    let index = second_halves();
    let segments: Vec<(usize, usize)> = (0..solution.len())
        .flat_map(|start| {
            (start + 2..=(start + max_segment).min(solution.len())).map(move |end| (start, end))
        })
        .collect();
    // `None` for a segment not searched (out of time), else its improvement if any.
    let found: Vec<Option<Option<Improvement>>> = segments
        .par_iter()
        .map(|&(start, end)| {
            if stopped() {
                return None;
            }
            let segment = &solution[start..end];
            let effect = Cube::SOLVED.apply_moves(segment);
            Some(
                shortest(&index, &effect, segment.len()).and_then(|replacement| {
                    let whole = simplify(
                        &[&solution[..start], &replacement[..], &solution[end..]].concat(),
                    );
                    (whole.len() < solution.len()).then_some(Improvement {
                        start,
                        end,
                        replacement,
                        solution: whole,
                    })
                }),
            )
        })
        .collect();
    let complete = found.iter().all(Option::is_some);
    let mut improvements: Vec<Improvement> = found.into_iter().flatten().flatten().collect();
    improvements.sort_by_key(|i| (i.solution.len(), i.end - i.start, i.start));
    improvements.dedup_by(|a, b| a.solution == b.solution);
    (improvements, complete)
}

/// Every state of at most [`SECOND_HALF`] moves, with a shortest sequence making it.
fn second_halves() -> StateMap<u64> {
    let mut index = StateMap::default();
    let mut frontier = vec![(Cube::SOLVED, Vec::<Move>::new())];
    index.insert(Cube::SOLVED, pack(&[]));
    for _ in 0..SECOND_HALF {
        let mut next = Vec::new();
        for (state, moves) in &frontier {
            for m in MoveSet::after(moves.last().copied()).iter() {
                let reached = state.apply_move(m);
                if let std::collections::hash_map::Entry::Vacant(entry) = index.entry(reached) {
                    let mut longer = moves.clone();
                    longer.push(m);
                    entry.insert(pack(&longer));
                    next.push((reached, longer));
                }
            }
        }
        frontier = next;
    }
    index
}

/// A shortest sequence of fewer than `shorter_than` moves whose effect is `effect`, if one has at
/// most [`FIRST_HALF`] + [`SECOND_HALF`] moves: a first half `a` of up to [`FIRST_HALF`] moves
/// (each canonical sequence, shortest first) and the shortest `b` with `a b = effect`.
fn shortest(index: &StateMap<u64>, effect: &Cube, shorter_than: usize) -> Option<Vec<Move>> {
    let mut best: Option<(usize, Vec<Move>, u64)> = None;
    let mut first: Vec<Move> = Vec::new();
    fn walk(
        index: &StateMap<u64>,
        effect: &Cube,
        inverse: Cube,
        first: &mut Vec<Move>,
        depth: usize,
        best: &mut Option<(usize, Vec<Move>, u64)>,
        shorter_than: usize,
    ) {
        if first.len() == depth {
            if let Some(&b) = index.get(&inverse.compose(effect)) {
                let len = first.len() + (b & 15) as usize;
                if len < shorter_than && best.as_ref().is_none_or(|(l, _, _)| len < *l) {
                    *best = Some((len, first.clone(), b));
                }
            }
            return;
        }
        for m in MoveSet::after(first.last().copied()).iter() {
            first.push(m);
            walk(
                index,
                effect,
                Cube::from_move(m.inverse()).compose(&inverse),
                first,
                depth,
                best,
                shorter_than,
            );
            first.pop();
        }
    }
    // First halves by length, so that the first length to find anything is the shortest.
    for depth in 0..=FIRST_HALF {
        if best.as_ref().is_some_and(|(l, _, _)| *l <= depth) {
            break;
        }
        walk(
            index,
            effect,
            Cube::SOLVED,
            &mut first,
            depth,
            &mut best,
            shorter_than,
        );
    }
    best.map(|(_, a, b)| simplify(&[a, unpack(b)].concat()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slow::Slow;
    use crate::{Limits, Solver, Stop};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn shortest_replacements_are_optimal() {
        // Against the brute-force oracle: states of up to 7 random moves.
        let index = second_halves();
        let mut rng = StdRng::seed_from_u64(59);
        for _ in 0..60 {
            let n = rng.random_range(1..=7);
            let moves: Vec<Move> = (0..n)
                .map(|_| Move::from_index(rng.random_range(0..18)))
                .collect();
            let effect = Cube::SOLVED.apply_moves(&moves);
            let optimal = Slow::new()
                .solve(
                    &effect.inverse(),
                    &Limits {
                        max_length: Some(8),
                        ..Limits::default()
                    },
                    &Stop::new(),
                )
                .expect("a legal state")
                .first()
                .map_or(0, |s| s.moves.len());
            let found = shortest(&index, &effect, usize::MAX).expect("at most 9 moves");
            assert_eq!(found.len(), optimal, "{moves:?}");
            assert_eq!(Cube::SOLVED.apply_moves(&found), effect);
        }
    }

    #[test]
    fn improvements_do_what_the_solution_does() {
        // A solution with a detour: (R2 U2) three times is (U2 R2) three times, so
        // `R2 U2 R2 U2 R2 U2 R2` is `U2 R2 U2 R2 U2`, two moves shorter.
        let detour: cube_core::Alg = "R2 U2 R2 U2 R2 U2 R2".parse().unwrap();
        let solution =
            simplify(&[&[Move::D1, Move::B2][..], &detour.moves(), &[Move::L1]].concat());
        let (improvements, complete) =
            improve(&solution, MAX_SEGMENT, None, &AtomicBool::new(false));
        assert!(complete);
        let effect = Cube::SOLVED.apply_moves(&solution);
        assert!(!improvements.is_empty());
        for improvement in &improvements {
            assert!(improvement.solution.len() < solution.len());
            assert_eq!(Cube::SOLVED.apply_moves(&improvement.solution), effect);
        }
        assert_eq!(solution.len(), 10);
        assert!(improvements[0].solution.len() <= 8, "{:?}", improvements[0]);
    }
}
