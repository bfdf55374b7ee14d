//! Cancellation where an algorithm goes into a sequence: the moves on one axis at each side of
//! the junction (an axis group: at most one turn of each of its two faces, which commute) merge,
//! and when a merge leaves nothing the groups behind them meet and merge in turn.
//!
//! [`cube_core::simplify`] reduces a whole sequence; this module answers the one question the
//! searches ask many times, how many moves an insertion cancels, without building the sequence
//! (and is tested to agree with it).

use cube_core::Move;

/// The turns of one axis standing together in a reduced sequence: an amount (0 to 3 quarter
/// turns) for each of the axis's two faces (U and D, R and L, F and B). No turn at all is
/// [`Group::NONE`], which merges with nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Group(u8);

impl Group {
    /// No group (the end of a sequence).
    pub(crate) const NONE: Group = Group(0);

    fn new(axis: usize, low: u8, high: u8) -> Group {
        if low == 0 && high == 0 {
            Group::NONE
        } else {
            Group((axis as u8) << 4 | low << 2 | high)
        }
    }

    fn axis(self) -> usize {
        usize::from(self.0 >> 4)
    }

    fn amounts(self) -> (u8, u8) {
        (self.0 >> 2 & 3, self.0 & 3)
    }

    /// The number of moves of the group (0, 1 or 2).
    pub(crate) fn len(self) -> usize {
        let (low, high) = self.amounts();
        usize::from(low != 0) + usize::from(high != 0)
    }

    /// The group of `moves` (all on one axis, at most one turn per face).
    fn of(moves: &[Move]) -> Group {
        let Some(first) = moves.first() else {
            return Group::NONE;
        };
        let axis = first.face().axis();
        let (mut low, mut high) = (0, 0);
        for m in moves {
            debug_assert_eq!(m.face().axis(), axis);
            if m.face().index() < 3 {
                low = m.amount();
            } else {
                high = m.amount();
            }
        }
        Group::new(axis, low, high)
    }

    /// The two groups merged into one, when they are on one axis.
    pub(crate) fn merge(self, other: Group) -> Option<Group> {
        if self == Group::NONE || other == Group::NONE || self.axis() != other.axis() {
            return None;
        }
        let (a, b) = (self.amounts(), other.amounts());
        Some(Group::new(self.axis(), (a.0 + b.0) % 4, (a.1 + b.1) % 4))
    }

    /// The moves the merge of `self` then `other` removes (0 when they are on different axes),
    /// and whether nothing is left of them.
    pub(crate) fn cancel(self, other: Group) -> (usize, bool) {
        match self.merge(other) {
            None => (0, false),
            Some(merged) => (
                self.len() + other.len() - merged.len(),
                merged == Group::NONE,
            ),
        }
    }
}

/// The group at the start of the reduced sequence `moves` and its number of moves.
pub(crate) fn head(moves: &[Move]) -> (Group, usize) {
    let n = axis_run(moves.iter());
    (Group::of(&moves[..n]), n)
}

/// The group at the end of the reduced sequence `moves` and its number of moves.
pub(crate) fn tail(moves: &[Move]) -> (Group, usize) {
    let n = axis_run(moves.iter().rev());
    (Group::of(&moves[moves.len() - n..]), n)
}

/// How many moves at the start of `moves` are on the axis of the first (at most two in a
/// reduced sequence).
fn axis_run<'a>(mut moves: impl Iterator<Item = &'a Move>) -> usize {
    let Some(first) = moves.next() else {
        return 0;
    };
    1 + moves
        .take_while(|m| m.face().axis() == first.face().axis())
        .count()
}

/// The moves cancelled when the reduced sequence `alg` goes between `before` and `after` (whose
/// concatenation is reduced): `before.len() + alg.len() + after.len()` less the length of the
/// reduced whole, as [`cube_core::simplify`] counts it.
pub(crate) fn cancelled(before: &[Move], alg: &[Move], after: &[Move]) -> usize {
    // The left junction: `before`'s tail against `alg`'s head, again while merges leave nothing.
    let (mut left_end, mut alg_start, mut removed) = (before.len(), 0, 0);
    let mut merged = Group::NONE;
    loop {
        let (x, nx) = tail(&before[..left_end]);
        let (y, ny) = head(&alg[alg_start..]);
        let Some(m) = x.merge(y) else { break };
        removed += nx + ny - m.len();
        left_end -= nx;
        alg_start += ny;
        if m != Group::NONE {
            merged = m;
            break;
        }
    }
    // What is left of `before` and `alg` is `before[..left_end]`, then `merged`, then
    // `alg[alg_start..]`, reduced and with a change of axis at each seam: walk its groups back
    // from the end against `after`'s, again while merges leave nothing.
    let (mut rest_before, mut rest_alg) = (&before[..left_end], &alg[alg_start..]);
    let mut merged = Some(merged).filter(|&m| m != Group::NONE);
    let mut after_start = 0;
    loop {
        let x = if !rest_alg.is_empty() {
            let (g, n) = tail(rest_alg);
            rest_alg = &rest_alg[..rest_alg.len() - n];
            g
        } else if let Some(m) = merged.take() {
            m
        } else if !rest_before.is_empty() {
            let (g, n) = tail(rest_before);
            rest_before = &rest_before[..rest_before.len() - n];
            g
        } else {
            break;
        };
        let (y, ny) = head(&after[after_start..]);
        let Some(m) = x.merge(y) else { break };
        removed += x.len() + ny - m.len();
        after_start += ny;
        if m != Group::NONE {
            break;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_core::simplify;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn random_reduced(rng: &mut StdRng, axes: usize) -> Vec<Move> {
        let n = rng.random_range(0..8);
        let moves: Vec<Move> = (0..n)
            .map(|_| {
                let face = rng.random_range(0..2 * axes);
                let face = if face < axes { face } else { face - axes + 3 };
                Move::from_index(face * 3 + rng.random_range(0..3))
            })
            .collect();
        simplify(&moves)
    }

    #[test]
    fn cancelled_agrees_with_simplify() {
        let mut rng = StdRng::seed_from_u64(59);
        for round in 0..200_000 {
            // Few axes make long cascades common.
            let axes = 1 + round % 3;
            let before = random_reduced(&mut rng, axes);
            let alg = random_reduced(&mut rng, axes);
            let after = random_reduced(&mut rng, axes);
            let joined = [&before[..], &after[..]].concat();
            if simplify(&joined).len() != joined.len() {
                continue;
            }
            let whole = simplify(&[&before[..], &alg[..], &after[..]].concat());
            assert_eq!(
                cancelled(&before, &alg, &after),
                before.len() + alg.len() + after.len() - whole.len(),
                "{before:?} | {alg:?} | {after:?}"
            );
        }
    }
}
