//! In-memory distance tables ("XPrun" in min2phase): the exact distance of every state of a
//! [`Space`] to a set of goal states, by a parallel breadth-first search.
//!
//! A distance in a projected space is a lower bound on the distance of the full cube, which is
//! what IDA* needs. The table keeps one byte per state, which is fast to read and to update from
//! many threads; [`DistanceTable::to_nibbles`] packs it for a table file.

use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;

use crate::move_table::Space;

/// States per rayon task in a breadth-first level.
const STATES_PER_TASK: usize = 1 << 14;

/// The distance of every state of a space to the nearest goal state, one byte per state.
///
/// ```
/// use cube_core::MoveSet;
/// use cube_tables::{DistanceTable, MoveTable, Twist};
///
/// let twist = MoveTable::<Twist>::new(MoveSet::ALL);
/// let table = DistanceTable::build(&twist, [0]);
/// assert_eq!(table.get(0), 0);
/// assert_eq!(table.histogram().iter().sum::<u64>(), 2187);
/// assert_eq!(table.max_distance(), 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistanceTable {
    entries: Vec<u8>,
    histogram: Vec<u64>,
}

impl DistanceTable {
    /// The entry of a state that no sequence of the moves connects to a goal.
    pub const UNREACHED: u8 = u8::MAX;

    /// Breadth-first search from `goals` over the moves of `space`: forward from the frontier
    /// while it is small (marking every [alias](Space::aliases) of a state reached), backward
    /// from the unreached states once it is large.
    ///
    /// # Panics
    /// If the moves are not closed under inverses (distances *to* the goals would then differ
    /// from distances *from* them), or a goal is out of range.
    pub fn build<S: Space>(space: &S, goals: impl IntoIterator<Item = u32>) -> DistanceTable {
        let moves = space.moves();
        assert!(
            moves.iter().all(|m| moves.contains(&m.inverse())),
            "distance tables need a move set closed under inverses"
        );
        let n_states = space.count();
        let n_moves = moves.len();
        let cells: Vec<AtomicU8> = (0..n_states)
            .map(|_| AtomicU8::new(Self::UNREACHED))
            .collect();
        let mut n_goals = 0u64;
        for goal in goals {
            if cells[goal as usize].swap(0, Ordering::Relaxed) != 0 {
                n_goals += 1;
            }
        }
        let mut histogram = vec![n_goals];
        let mut n_reached = n_goals;
        let n_tasks = n_states.div_ceil(STATES_PER_TASK);
        for depth in 0u8..Self::UNREACHED - 1 {
            let frontier = histogram[depth as usize];
            let unreached = n_states as u64 - n_reached;
            if frontier == 0 || unreached == 0 {
                break;
            }
            let backward = frontier * 2 > unreached;
            let next = depth + 1;
            let found: u64 = (0..n_tasks)
                .into_par_iter()
                .map(|task| {
                    let mut out = [0u32; 18];
                    let out = &mut out[..n_moves];
                    let mut aliases = [0u32; 16];
                    let mut found = 0u64;
                    let end = ((task + 1) * STATES_PER_TASK).min(n_states);
                    for state in task * STATES_PER_TASK..end {
                        let value = cells[state].load(Ordering::Relaxed);
                        if backward && value == Self::UNREACHED {
                            space.neighbours(state as u32, out);
                            if out
                                .iter()
                                .any(|&n| cells[n as usize].load(Ordering::Relaxed) == depth)
                            {
                                cells[state].store(next, Ordering::Relaxed);
                                found += 1;
                            }
                        } else if !backward && value == depth {
                            space.neighbours(state as u32, out);
                            for &n in out.iter() {
                                let n_aliases = space.aliases(n, &mut aliases);
                                for &a in &aliases[..n_aliases] {
                                    let cell = &cells[a as usize];
                                    if cell.load(Ordering::Relaxed) == Self::UNREACHED
                                        && cell
                                            .compare_exchange(
                                                Self::UNREACHED,
                                                next,
                                                Ordering::Relaxed,
                                                Ordering::Relaxed,
                                            )
                                            .is_ok()
                                    {
                                        found += 1;
                                    }
                                }
                            }
                        }
                    }
                    found
                })
                .sum();
            if found == 0 {
                break;
            }
            histogram.push(found);
            n_reached += found;
        }
        DistanceTable {
            entries: cells.into_iter().map(AtomicU8::into_inner).collect(),
            histogram,
        }
    }

    /// Rebuilds a table from bytes written by [`DistanceTable::as_bytes`] (recounting the
    /// histogram).
    pub fn from_bytes(entries: Vec<u8>) -> DistanceTable {
        let mut histogram = Vec::new();
        for &e in entries.iter().filter(|&&e| e != Self::UNREACHED) {
            if histogram.len() <= e as usize {
                histogram.resize(e as usize + 1, 0);
            }
            histogram[e as usize] += 1;
        }
        DistanceTable { entries, histogram }
    }

    /// The distance of `state`, or [`DistanceTable::UNREACHED`].
    #[inline]
    pub fn get(&self, state: u32) -> u8 {
        self.entries[state as usize]
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no states.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The number of states at each distance, from 0 to [`DistanceTable::max_distance`].
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// The largest distance of a reached state.
    pub fn max_distance(&self) -> u8 {
        (self.histogram.len() - 1) as u8
    }

    /// Whether every state is reached.
    pub fn is_complete(&self) -> bool {
        self.histogram.iter().sum::<u64>() == self.entries.len() as u64
    }

    /// One byte per state: the payload of a byte-encoded table file.
    pub fn as_bytes(&self) -> &[u8] {
        &self.entries
    }

    /// The entries packed two per byte (see [`pack_nibbles`](crate::pack_nibbles)), when every
    /// state is reached within 15 moves.
    pub fn to_nibbles(&self) -> Option<Vec<u8>> {
        (self.is_complete() && self.max_distance() < 16).then(|| crate::pack_nibbles(&self.entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::{CornerPerm, Flip, SlicePerm, Twist, UdEdgePerm, UdSlice};
    use crate::move_table::{MoveTable, Product};
    use cube_core::MoveSet;

    #[test]
    fn single_coordinate_distances() {
        // Twist and flip distances in the face-turn metric; known values (Kociemba's tables).
        let twist = DistanceTable::build(&MoveTable::<Twist>::new(MoveSet::ALL), [0]);
        assert_eq!(twist.histogram(), &[1, 4, 34, 186, 816, 1018, 128]);
        let flip = DistanceTable::build(&MoveTable::<Flip>::new(MoveSet::ALL), [0]);
        assert_eq!(flip.histogram().iter().sum::<u64>(), 2048);
        assert_eq!(flip.max_distance(), 7);
        let slice = DistanceTable::build(&MoveTable::<UdSlice>::new(MoveSet::ALL), [0]);
        assert!(slice.is_complete());
        // R, R' and the other quarter turns of R, L, F, B: R2 keeps the slice edges in the slice.
        assert_eq!(slice.histogram()[1], 4);
    }

    #[test]
    fn backward_and_forward_levels_agree_with_a_plain_bfs() {
        let twist = MoveTable::<Twist>::new(MoveSet::ALL);
        let slice = MoveTable::<UdSlice>::new(MoveSet::ALL);
        let space = Product::new(&twist, &slice);
        let table = DistanceTable::build(&space, [0]);
        // A plain queue BFS as the reference.
        let mut plain = vec![u8::MAX; space.count()];
        plain[0] = 0;
        let mut queue = std::collections::VecDeque::from([0u32]);
        let mut out = [0u32; 18];
        while let Some(state) = queue.pop_front() {
            space.neighbours(state, &mut out);
            for &n in &out {
                if plain[n as usize] == u8::MAX {
                    plain[n as usize] = plain[state as usize] + 1;
                    queue.push_back(n);
                }
            }
        }
        assert_eq!(table.as_bytes(), &plain[..]);
        assert_eq!(DistanceTable::from_bytes(plain), table);
    }

    #[test]
    fn two_phase_tables_are_within_the_phase_bounds() {
        // REFERENCE.md: phase 1 takes at most 12 moves, phase 2 at most 18; a projection's
        // distance is a lower bound, so it cannot be larger.
        let twist = MoveTable::<Twist>::new(MoveSet::ALL);
        let flip = MoveTable::<Flip>::new(MoveSet::ALL);
        let slice = MoveTable::<UdSlice>::new(MoveSet::ALL);
        for table in [
            DistanceTable::build(&Product::new(&twist, &slice), [0]),
            DistanceTable::build(&Product::new(&flip, &slice), [0]),
        ] {
            assert!(table.is_complete());
            assert!(table.max_distance() <= 12);
        }
        let corners = MoveTable::<CornerPerm>::new(MoveSet::G1);
        let edges = MoveTable::<UdEdgePerm>::new(MoveSet::G1);
        let slice_perm = MoveTable::<SlicePerm>::new(MoveSet::G1);
        for table in [
            DistanceTable::build(&Product::new(&corners, &slice_perm), [0]),
            DistanceTable::build(&Product::new(&edges, &slice_perm), [0]),
        ] {
            assert!(table.is_complete());
            assert!(table.max_distance() <= 18);
            assert!(table.to_nibbles().is_some());
        }
    }
}
