//! The parallel breadth-first search that fills a pattern database, one byte per entry.
//!
//! The table is a sequence of blocks: one block per permutation part of the index (a corner permutation,
//! an edge arrangement), one byte per orientation in the block. A move maps a whole block to one target
//! block and maps offsets by a cheap function that depends only on the move and the source block (a twist
//! move table row for corners, one XOR for edges). That function is computed once per (block, move) and
//! used for every offset: the per-move transforms are hoisted per piece arrangement.
//!
//! Level `d` runs one of two passes, on all cores:
//!
//! - forward: for every block that holds an entry `d`, and every move, write `d + 1` into the unassigned
//!   targets of its entries `d`;
//! - backward: for every unassigned entry, write `d + 1` if a neighbour holds `d` (the move set is closed
//!   under inverses, so the neighbours are the entries one move away).
//!
//! The backward pass is chosen when fewer entries are unassigned than the frontier holds (times a
//! factor, 1 by default). Workers race on the bytes only in a benign way: every write during level `d` turns
//! [`UNASSIGNED`] into `d + 1`, and every read looks for `d` or [`UNASSIGNED`]. The races use relaxed
//! `AtomicU8` loads and stores ([`as_atomic`]), so they are defined behaviour. Between levels a read-only
//! scan counts the new level and marks which blocks hold frontier and unassigned entries, so both
//! passes skip the other blocks without touching them.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

pub(crate) use crate::file::bake::{Direction, LevelStats};

use crate::pdb::index::{
    CornerMoves, EdgeMoveMaps, N_MOVES, TWIST_COUNT, arrangement_rank, arrangement_unrank,
};

/// The value of an entry that no level has reached yet.
pub(crate) const UNASSIGNED: u8 = 0xFF;

/// The largest block, for the stack buffers of the workers.
const MAX_BLOCK_LEN: usize = TWIST_COUNT;

/// Blocks per rayon task.
const TASK_BLOCKS: usize = 1024;

/// A search space split into blocks of `BLOCK_LEN` entries.
pub(crate) trait Space: Sync {
    /// What a block's neighbours are computed from (a decoded permutation).
    type Block;
    /// How a move maps offsets of one block into its target block.
    type Xform: Copy;
    /// Entries per block.
    const BLOCK_LEN: usize;

    /// The number of blocks.
    fn n_blocks(&self) -> usize;
    /// The index of the goal entry (distance 0).
    fn goal(&self) -> usize;
    /// Decodes block `block`.
    fn block(&self, block: usize) -> Self::Block;
    /// The target block of move index `m` and the offset transform.
    fn neighbor(&self, block: &Self::Block, m: usize) -> (usize, Self::Xform);
    /// Where offset `offset` goes in the target block.
    fn offset(&self, xform: Self::Xform, offset: usize) -> usize;
}

/// The corner database: blocks are corner permutations, offsets are twists.
pub(crate) struct CornerSpace {
    pub(crate) tables: &'static CornerMoves,
}

impl Space for CornerSpace {
    type Block = usize;
    type Xform = usize;
    const BLOCK_LEN: usize = TWIST_COUNT;

    fn n_blocks(&self) -> usize {
        crate::pdb::index::CORNER_PERM_COUNT
    }

    fn goal(&self) -> usize {
        0
    }

    #[inline(always)]
    fn block(&self, block: usize) -> usize {
        block
    }

    #[inline(always)]
    fn neighbor(&self, block: &usize, m: usize) -> (usize, usize) {
        (usize::from(self.tables.perm_row(*block)[m]), m)
    }

    #[inline(always)]
    fn offset(&self, m: usize, offset: usize) -> usize {
        usize::from(self.tables.twist_row(m)[offset])
    }
}

/// An edge-subset database of `K` edges: blocks are arrangements, offsets are flips by piece.
pub(crate) struct EdgeSpace<const K: usize> {
    pub(crate) maps: EdgeMoveMaps,
    /// The positions of the tracked pieces in the solved cube.
    pub(crate) goal: [u8; K],
}

impl<const K: usize> Space for EdgeSpace<K> {
    type Block = [u8; K];
    type Xform = usize;
    const BLOCK_LEN: usize = 1 << K;

    fn n_blocks(&self) -> usize {
        (0..K).map(|j| 12 - j).product()
    }

    fn goal(&self) -> usize {
        arrangement_rank(&self.goal) << K
    }

    #[inline(always)]
    fn block(&self, block: usize) -> [u8; K] {
        arrangement_unrank(block)
    }

    #[inline(always)]
    fn neighbor(&self, block: &[u8; K], m: usize) -> (usize, usize) {
        let dest = &self.maps.dest[m];
        let flip = &self.maps.flip[m];
        let mut mask = 0usize;
        let mut moved = [0u8; K];
        for j in 0..K {
            let position = usize::from(block[j]);
            mask |= usize::from(flip[position]) << j;
            moved[j] = dest[position];
        }
        (arrangement_rank(&moved), mask)
    }

    #[inline(always)]
    fn offset(&self, mask: usize, offset: usize) -> usize {
        offset ^ mask
    }
}

/// Options of one search.
pub(crate) struct SearchOptions<'a> {
    /// Backward when `unassigned < factor * frontier`.
    pub(crate) backward_factor: f64,
    /// Called after each level.
    pub(crate) on_level: &'a (dyn Fn(&LevelStats) + Sync),
    /// Called now and then during a level with `(depth, blocks done, blocks in the pass)`.
    pub(crate) on_work: &'a (dyn Fn(u8, u64, u64) + Sync),
}

/// Runs the search over `cells` (one byte per entry, `n_blocks * BLOCK_LEN` long). Returns the number of
/// entries per depth, or `Err(depth)` when the frontier of `depth` is empty while entries are unassigned
/// (unreachable entries: a bug in the space).
pub(crate) fn search<S: Space>(
    space: &S,
    cells: &mut [u8],
    options: &SearchOptions<'_>,
) -> Result<Vec<u64>, u8> {
    let n_blocks = space.n_blocks();
    assert_eq!(cells.len(), n_blocks * S::BLOCK_LEN, "one byte per entry");
    assert!(S::BLOCK_LEN <= MAX_BLOCK_LEN);
    cells
        .par_chunks_mut(1 << 20)
        .for_each(|chunk| chunk.fill(UNASSIGNED));
    cells[space.goal()] = 0;
    let mut flags = vec![0u8; n_blocks];
    let (mut frontier, mut unassigned) = scan::<S>(cells, &mut flags, 0);
    let mut counts = vec![frontier];
    let mut depth = 0u8;
    while unassigned > 0 {
        if frontier == 0 {
            return Err(depth);
        }
        let start = Instant::now();
        let direction = if (unassigned as f64) < options.backward_factor * frontier as f64 {
            Direction::Backward
        } else {
            Direction::Forward
        };
        let active = match direction {
            Direction::Forward => FLAG_FRONTIER,
            Direction::Backward => FLAG_UNASSIGNED,
        };
        let n_active = flags.par_iter().filter(|&&f| f & active != 0).count() as u64;
        let done = AtomicU64::new(0);
        let report_every = (n_active / 100).max(1);
        {
            let atomic_cells = as_atomic(cells);
            let flags = &flags;
            let n_tasks = n_blocks.div_ceil(TASK_BLOCKS);
            (0..n_tasks).into_par_iter().for_each(|task| {
                let mut buf = [0u16; MAX_BLOCK_LEN];
                let blocks = task * TASK_BLOCKS..((task + 1) * TASK_BLOCKS).min(n_blocks);
                let mut n_done = 0u64;
                for block in blocks {
                    if flags[block] & active == 0 {
                        continue;
                    }
                    n_done += 1;
                    match direction {
                        Direction::Forward => forward(space, atomic_cells, block, depth, &mut buf),
                        Direction::Backward => {
                            backward(space, atomic_cells, block, depth, &mut buf)
                        }
                    }
                }
                if n_done > 0 {
                    let before = done.fetch_add(n_done, Relaxed);
                    if (before + n_done) / report_every != before / report_every {
                        (options.on_work)(depth + 1, before + n_done, n_active);
                    }
                }
            });
        }
        let (found, left) = scan::<S>(cells, &mut flags, depth + 1);
        depth += 1;
        counts.push(found);
        (frontier, unassigned) = (found, left);
        (options.on_level)(&LevelStats {
            depth,
            direction,
            entries: found,
            unassigned,
            elapsed: start.elapsed(),
        });
    }
    Ok(counts)
}

const FLAG_FRONTIER: u8 = 1;
const FLAG_UNASSIGNED: u8 = 2;

/// Counts the entries equal to `depth` and the unassigned ones, and flags the blocks that hold them.
fn scan<S: Space>(cells: &[u8], flags: &mut [u8], depth: u8) -> (u64, u64) {
    cells
        .par_chunks(S::BLOCK_LEN * TASK_BLOCKS)
        .zip(flags.par_chunks_mut(TASK_BLOCKS))
        .map(|(cells, flags)| {
            let (mut n_depth, mut n_unassigned) = (0u64, 0u64);
            for (block, flag) in cells.chunks_exact(S::BLOCK_LEN).zip(flags) {
                let (mut at_depth, mut free) = (0u32, 0u32);
                for &cell in block {
                    at_depth += u32::from(cell == depth);
                    free += u32::from(cell == UNASSIGNED);
                }
                *flag = (u8::from(at_depth > 0) * FLAG_FRONTIER)
                    | (u8::from(free > 0) * FLAG_UNASSIGNED);
                n_depth += u64::from(at_depth);
                n_unassigned += u64::from(free);
            }
            (n_depth, n_unassigned)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// Expands the entries `depth` of `block` to their unassigned neighbours.
#[inline(always)]
fn forward<S: Space>(space: &S, cells: &[AtomicU8], block: usize, depth: u8, buf: &mut [u16]) {
    let base = block * S::BLOCK_LEN;
    let mut n = 0;
    for (offset, cell) in cells[base..base + S::BLOCK_LEN].iter().enumerate() {
        buf[n] = offset as u16;
        n += usize::from(cell.load(Relaxed) == depth);
    }
    let frontier = &buf[..n];
    let decoded = space.block(block);
    let next = depth + 1;
    for m in 0..N_MOVES {
        let (target, xform) = space.neighbor(&decoded, m);
        let target = &cells[target * S::BLOCK_LEN..(target + 1) * S::BLOCK_LEN];
        for &offset in frontier {
            let cell = &target[space.offset(xform, usize::from(offset))];
            // Every assigned entry is at most `next` during this level, and `UNASSIGNED` is larger: the
            // minimum assigns the unassigned and rewrites the others unchanged, without a branch. A
            // concurrent writer can only store `next` too.
            cell.store(cell.load(Relaxed).min(next), Relaxed);
        }
    }
}

/// Assigns `depth + 1` to the unassigned entries of `block` that have a neighbour at `depth`.
#[inline(always)]
fn backward<S: Space>(space: &S, cells: &[AtomicU8], block: usize, depth: u8, buf: &mut [u16]) {
    let base = block * S::BLOCK_LEN;
    let own = &cells[base..base + S::BLOCK_LEN];
    let mut n = 0;
    for (offset, cell) in own.iter().enumerate() {
        buf[n] = offset as u16;
        n += usize::from(cell.load(Relaxed) == UNASSIGNED);
    }
    let decoded = space.block(block);
    for m in 0..N_MOVES {
        if n == 0 {
            break;
        }
        let (target, xform) = space.neighbor(&decoded, m);
        let target = &cells[target * S::BLOCK_LEN..(target + 1) * S::BLOCK_LEN];
        let mut i = 0;
        while i < n {
            let offset = usize::from(buf[i]);
            if target[space.offset(xform, offset)].load(Relaxed) == depth {
                own[offset].store(depth + 1, Relaxed);
                n -= 1;
                buf[i] = buf[n];
            } else {
                i += 1;
            }
        }
    }
}

/// Views bytes as atomics, for the workers of one level.
#[allow(unsafe_code)]
fn as_atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the same size, alignment and bit validity as `u8` (its documentation
    // guarantees it), so the cast slice covers exactly the same bytes. The view borrows `bytes` mutably
    // for its whole lifetime, so no non-atomic access to these bytes can happen while it exists, and the
    // memory (a heap buffer or a mapping owned by the caller) outlives it.
    unsafe { &*(std::ptr::from_mut::<[u8]>(bytes) as *const [AtomicU8]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet() -> SearchOptions<'static> {
        SearchOptions {
            backward_factor: 1.0,
            on_level: &|_| {},
            on_work: &|_, _, _| {},
        }
    }

    /// Two edges: 132 arrangements x 4 flips. Every pass direction must give the same table.
    #[test]
    fn tiny_edge_space_forward_and_backward_agree() {
        let space = EdgeSpace::<2> {
            maps: EdgeMoveMaps::get().clone(),
            goal: [0, 1],
        };
        let mut tables = Vec::new();
        for factor in [0.0, 1.0, f64::INFINITY] {
            let mut cells = vec![0u8; 132 * 4];
            let options = SearchOptions {
                backward_factor: factor,
                ..quiet()
            };
            let counts = search(&space, &mut cells, &options).unwrap();
            assert_eq!(counts.iter().sum::<u64>(), 528);
            assert_eq!(counts[0], 1);
            tables.push(cells);
        }
        assert_eq!(tables[0], tables[1]);
        assert_eq!(tables[1], tables[2]);
    }
}
