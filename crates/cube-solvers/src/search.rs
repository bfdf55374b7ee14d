//! Shared search helpers: canonical move masks and the solution collector every method uses.

use std::collections::HashSet;

use cube_core::{Move, MoveSet};

/// Moves allowed after each move index (18 = at the start) in a canonical sequence, as bit masks
/// over move indices (see [`MoveSet::after`]).
pub(crate) const AFTER: [u32; 19] = {
    let mut out = [0u32; 19];
    let mut i = 0;
    while i < 18 {
        out[i] = MoveSet::after(Some(Move::from_index(i))).bits();
        i += 1;
    }
    out[18] = MoveSet::ALL.bits();
    out
};

/// Index used in [`AFTER`] for "no previous move".
pub(crate) const NO_MOVE: usize = 18;

/// Keeps the best `n_solutions` distinct solutions and says how long a new one may be.
#[derive(Debug)]
pub(crate) struct Collector {
    n_solutions: usize,
    max_length: usize,
    kept: Vec<Vec<Move>>,
    seen: HashSet<Vec<Move>>,
}

impl Collector {
    pub(crate) fn new(n_solutions: usize, max_length: usize) -> Collector {
        Collector {
            n_solutions: n_solutions.max(1),
            max_length,
            kept: Vec::new(),
            seen: HashSet::new(),
        }
    }

    /// The longest solution still worth finding.
    #[inline]
    pub(crate) fn bound(&self) -> usize {
        if self.kept.len() < self.n_solutions {
            self.max_length
        } else {
            self.kept
                .last()
                .map_or(self.max_length, |s| s.len().saturating_sub(1))
        }
    }

    /// Adds a solution; returns whether it was new and kept.
    pub(crate) fn push(&mut self, moves: Vec<Move>) -> bool {
        if moves.len() > self.bound() || self.seen.contains(&moves) {
            return false;
        }
        self.seen.insert(moves.clone());
        let at = self.kept.partition_point(|s| s.len() <= moves.len());
        self.kept.insert(at, moves);
        self.kept.truncate(self.n_solutions);
        true
    }

    /// Whether `n_solutions` solutions of at most `target` moves are kept.
    pub(crate) fn reached(&self, target: usize) -> bool {
        self.kept.len() >= self.n_solutions && self.kept.last().is_some_and(|s| s.len() <= target)
    }

    /// How many solutions are wanted.
    pub(crate) fn n_wanted(&self) -> usize {
        self.n_solutions
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    pub(crate) fn len(&self) -> usize {
        self.kept.len()
    }

    pub(crate) fn into_solutions(self) -> Vec<Vec<Move>> {
        self.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collector_keeps_the_shortest() {
        let mut c = Collector::new(2, 10);
        assert_eq!(c.bound(), 10);
        assert!(c.push(vec![Move::R1; 5]));
        assert!(!c.push(vec![Move::R1; 5]));
        assert!(c.push(vec![Move::U1; 7]));
        assert_eq!(c.bound(), 6);
        assert!(c.push(vec![Move::F1; 3]));
        assert_eq!(c.bound(), 4);
        assert!(c.reached(5));
        assert_eq!(
            c.into_solutions().iter().map(Vec::len).collect::<Vec<_>>(),
            vec![3, 5]
        );
    }
}
