//! In-memory distance tables ("XPrun" in min2phase): the exact distance of every state of a
//! [`Space`] to a set of goal states, by a parallel breadth-first search.
//!
//! A distance in a projected space is a lower bound on the distance of the full cube, which is
//! what IDA* needs. [`DistanceTable::build`] returns the crate's one read-side table type, a
//! [`PruneTable`] of one byte per state ([`Encoding::Byte`], fast to read and to update from many
//! threads), read through [`PruneTable::bytes`] or packed for a search or a table file with
//! [`PruneTable::to_nibbles`]. The queries that only a table of distances answers
//! ([`PruneTable::max_distance`], [`PruneTable::n_unreached`], [`PruneTable::is_complete`]) are
//! here too.

use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;

use crate::coord::move_table::Space;
use crate::file::format::{HISTOGRAM_LEN, Histogram};
use crate::file::id::{Encoding, TableId, TableSpec};
use crate::file::table::PruneTable;

/// States per rayon task in a breadth-first level.
const STATES_PER_TASK: usize = 1 << 14;

/// The breadth-first search that builds a table of distances (a namespace: its tables are
/// [`PruneTable`]s of one byte per state).
///
/// ```
/// use cube_core::MoveSet;
/// use cube_tables::{DistanceTable, MoveTable, TableId, Twist};
///
/// let twist = MoveTable::<Twist>::new(MoveSet::ALL);
/// let table = DistanceTable::build(TableId::from_static("twist"), &twist, [0]);
/// assert_eq!(table.get(0), 0);
/// assert_eq!(table.histogram().iter().sum::<u64>(), 2187);
/// assert_eq!(table.max_distance(), 6);
/// ```
#[derive(Debug)]
pub enum DistanceTable {}

impl DistanceTable {
    /// The entry of a state that no sequence of the moves connects to a goal.
    pub const UNREACHED: u8 = u8::MAX;

    /// Breadth-first search from `goals` over the moves of `space`: forward from the frontier
    /// while it is small (marking every [alias](Space::aliases) of a state reached), backward
    /// from the unreached states once it is large.
    ///
    /// The table is named `id` ([`Encoding::Byte`], no tier, one entry per state of `space`),
    /// with the histogram and the payload hash a table file of it would have: histogram bucket
    /// `d` counts the states at distance `d` for `d` below 31, the last bucket those at 31 or
    /// more and the unreached ones.
    ///
    /// # Panics
    /// If the moves are not closed under inverses (distances *to* the goals would then differ
    /// from distances *from* them), or a goal is out of range.
    pub fn build<S: Space>(
        id: TableId,
        space: &S,
        goals: impl IntoIterator<Item = u32>,
    ) -> PruneTable<Vec<u8>> {
        DistanceTable::build_observed(id, space, goals, &|_| {})
    }

    /// [`DistanceTable::build`], calling `observe` with the number of states each piece of work
    /// scanned as it ends: every level of the search scans every state once, so a build of `L`
    /// levels (the longest distance) scans `L * space.count()` in all, for a progress bar.
    pub fn build_observed<S: Space>(
        id: TableId,
        space: &S,
        goals: impl IntoIterator<Item = u32>,
        observe: &(dyn Fn(usize) + Sync),
    ) -> PruneTable<Vec<u8>> {
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
        let mut levels = vec![n_goals];
        let mut n_reached = n_goals;
        let n_tasks = n_states.div_ceil(STATES_PER_TASK);
        for depth in 0u8..Self::UNREACHED - 1 {
            let frontier = levels[depth as usize];
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
                    observe(end - task * STATES_PER_TASK);
                    found
                })
                .sum();
            if found == 0 {
                break;
            }
            levels.push(found);
            n_reached += found;
        }
        // The levels, folded as a table file's histogram counts bytes: 31 and over in the last
        // bucket, with the unreached states.
        let mut histogram: Histogram = [0; HISTOGRAM_LEN];
        for (depth, &n) in levels.iter().enumerate() {
            histogram[depth.min(HISTOGRAM_LEN - 1)] += n;
        }
        histogram[HISTOGRAM_LEN - 1] += n_states as u64 - n_reached;
        let spec = TableSpec::new(id, Encoding::Byte, n_states as u64);
        let payload = cells.into_iter().map(AtomicU8::into_inner).collect();
        PruneTable::in_memory(&spec, histogram, payload)
    }
}

/// The queries of a table of distances or lower bounds in [`Encoding::Byte`] (where
/// [`DistanceTable::UNREACHED`] marks a state no goal is reached from) or [`Encoding::Nibble`].
impl<T: AsRef<[u8]>> PruneTable<T> {
    /// The largest entry other than [`DistanceTable::UNREACHED`]: the longest distance of a
    /// table of distances (0 for an empty table). Read from the histogram, or, when its last
    /// bucket (31 or more) is not empty, from the payload.
    ///
    /// # Panics
    /// For an encoding other than [`Encoding::Byte`] and [`Encoding::Nibble`].
    pub fn max_distance(&self) -> u8 {
        let bytes = self.distances();
        let histogram = self.histogram();
        if histogram[HISTOGRAM_LEN - 1] == 0 {
            return histogram.iter().rposition(|&n| n != 0).unwrap_or(0) as u8;
        }
        bytes
            .par_iter()
            .copied()
            .filter(|&e| e != DistanceTable::UNREACHED)
            .max()
            .unwrap_or(0)
    }

    /// The number of entries that read [`DistanceTable::UNREACHED`] (0 for a nibble table).
    /// Read from the histogram, or, when its last bucket is not empty, from the payload.
    ///
    /// # Panics
    /// As [`PruneTable::max_distance`].
    pub fn n_unreached(&self) -> u64 {
        let bytes = self.distances();
        if self.histogram()[HISTOGRAM_LEN - 1] == 0 {
            return 0;
        }
        bytes
            .par_iter()
            .filter(|&&e| e == DistanceTable::UNREACHED)
            .count() as u64
    }

    /// Whether every state is reached (no entry reads [`DistanceTable::UNREACHED`]).
    ///
    /// # Panics
    /// As [`PruneTable::max_distance`].
    pub fn is_complete(&self) -> bool {
        self.n_unreached() == 0
    }

    /// The payload of a byte table; none for a nibble table, whose histogram says everything
    /// (its last bucket is always empty).
    fn distances(&self) -> &[u8] {
        match self.encoding() {
            Encoding::Byte => self.payload(),
            Encoding::Nibble => &[],
            Encoding::Line2 { .. } => panic!("a table of 2-bit lines holds no distances"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::move_table::{MoveTable, Product};
    use crate::coord::{CornerPerm, Flip, SlicePerm, Twist, UdEdgePerm, UdSlice};
    use cube_core::{Cube, Move, MoveSet};

    fn build<S: Space>(space: &S, goals: impl IntoIterator<Item = u32>) -> PruneTable<Vec<u8>> {
        DistanceTable::build(TableId::from_static("unit"), space, goals)
    }

    #[test]
    fn single_coordinate_distances() {
        // Twist and flip distances in the face-turn metric; known values (Kociemba's tables).
        let twist = build(&MoveTable::<Twist>::new(MoveSet::ALL), [0]);
        assert_eq!(twist.histogram()[..7], [1, 4, 34, 186, 816, 1018, 128]);
        assert!(twist.histogram()[7..].iter().all(|&n| n == 0));
        let flip = build(&MoveTable::<Flip>::new(MoveSet::ALL), [0]);
        assert_eq!(flip.histogram().iter().sum::<u64>(), 2048);
        assert_eq!(flip.max_distance(), 7);
        let slice = build(&MoveTable::<UdSlice>::new(MoveSet::ALL), [0]);
        assert!(slice.is_complete());
        // R, R' and the other quarter turns of R, L, F, B: R2 keeps the slice edges in the slice.
        assert_eq!(slice.histogram()[1], 4);
    }

    #[test]
    fn backward_and_forward_levels_agree_with_a_plain_bfs() {
        let twist = MoveTable::<Twist>::new(MoveSet::ALL);
        let slice = MoveTable::<UdSlice>::new(MoveSet::ALL);
        let space = Product::new(&twist, &slice);
        let table = build(&space, [0]);
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
        assert_eq!(table.bytes(), Some(&plain[..]));
        // The same table as one restored from its payload: histogram and hash recounted.
        let spec = TableSpec::new(table.id(), Encoding::Byte, space.count() as u64);
        let restored = PruneTable::from_payload(&spec, plain).unwrap();
        assert_eq!(restored.info(), table.info());
        assert_eq!(restored.payload(), table.payload());
        crate::verify(&table, None).unwrap();
    }

    #[test]
    fn two_phase_tables_are_within_the_phase_bounds() {
        // REFERENCE.md: phase 1 takes at most 12 moves, phase 2 at most 18; a projection's
        // distance is a lower bound, so it cannot be larger.
        let twist = MoveTable::<Twist>::new(MoveSet::ALL);
        let flip = MoveTable::<Flip>::new(MoveSet::ALL);
        let slice = MoveTable::<UdSlice>::new(MoveSet::ALL);
        for table in [
            build(&Product::new(&twist, &slice), [0]),
            build(&Product::new(&flip, &slice), [0]),
        ] {
            assert!(table.is_complete());
            assert!(table.max_distance() <= 12);
        }
        let corners = MoveTable::<CornerPerm>::new(MoveSet::G1);
        let edges = MoveTable::<UdEdgePerm>::new(MoveSet::G1);
        let slice_perm = MoveTable::<SlicePerm>::new(MoveSet::G1);
        for table in [
            build(&Product::new(&corners, &slice_perm), [0]),
            build(&Product::new(&edges, &slice_perm), [0]),
        ] {
            assert!(table.is_complete());
            assert!(table.max_distance() <= 18);
            // They fit in nibbles as they are.
            assert!(table.max_distance() < 16);
            let nibbles = table.to_nibbles().unwrap();
            let view = nibbles.nibbles().unwrap();
            assert!((0..table.len()).all(|i| view.get(i) == table.get(i)));
            assert_eq!(nibbles.histogram(), table.histogram());
        }
    }

    /// A path of states `0..=n`, U one step up and U' one step down (each stays put at its
    /// end), and one more state that no move leaves: distances up to `n`, one state unreached.
    struct Path {
        n: u32,
    }

    impl Space for Path {
        fn count(&self) -> usize {
            self.n as usize + 2
        }

        fn moves(&self) -> &[Move] {
            &[Move::U1, Move::U3]
        }

        fn neighbours(&self, state: u32, out: &mut [u32]) {
            for (column, o) in out.iter_mut().enumerate() {
                *o = self.step(state, column);
            }
        }

        fn step(&self, state: u32, column: usize) -> u32 {
            match (state, column) {
                (s, _) if s > self.n => s,
                (s, 0) => (s + 1).min(self.n),
                (s, _) => s.saturating_sub(1),
            }
        }

        fn project(&self, _cube: &Cube) -> u32 {
            0
        }
    }

    #[test]
    fn distances_past_the_histogram_and_unreached_states() {
        let table = build(&Path { n: 40 }, [0]);
        assert_eq!(table.get(40), 40);
        assert_eq!(table.get(41), DistanceTable::UNREACHED);
        // 31 to 40 and the unreached state share the last bucket; the queries read the payload.
        assert_eq!(table.histogram()[30..], [1, 11]);
        assert_eq!((table.max_distance(), table.n_unreached()), (40, 1));
        assert!(!table.is_complete());
        crate::verify(&table, None).unwrap();
        let capped = table.to_nibbles().unwrap();
        assert_eq!(capped.nibbles().unwrap().get(40), 15);
        assert_eq!(capped.histogram()[15], 42 - 15);
        assert_eq!((capped.max_distance(), capped.n_unreached()), (15, 0));
        crate::verify(&capped, None).unwrap();
        let short = build(&Path { n: 20 }, [0]);
        assert_eq!((short.max_distance(), short.n_unreached()), (20, 1));
    }
}
