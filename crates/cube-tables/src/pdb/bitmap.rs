//! The breadth-first search of the edge-subset databases, on bitmaps.
//!
//! The byte-per-entry search of [`bfs`](super::bfs) spends its time reading and writing bytes. For the
//! edge tables a move maps the flips of a block by one XOR, and an XOR of the offset is a fixed
//! permutation of the bits of the block's bitmap: swap adjacent bits, pairs, nibbles, ... (the butterfly
//! of each mask bit below 6), and swap whole words for the mask bits above. So the whole level works on
//! three bitmaps of one bit per entry:
//!
//! - `visited`: entries of depth `<= d`; `frontier`: entries of depth `d`; both read-only during a level;
//! - `next`: entries found at `d + 1`, written with relaxed `fetch_or` (forward) or by the block's own
//!   worker (backward).
//!
//! Forward, a block of the frontier and a move give its target block and XOR mask; the permuted frontier
//! bits minus the target's visited bits are ORed into the target's `next` words, a few word operations
//! per (block, move) whatever the number of entries. Backward, each block with unvisited entries ORs in
//! the permuted frontier bits of its neighbours until every unvisited entry is found or the moves run
//! out. Between levels, an exclusive pass folds `next` into `visited` and `frontier`, counts it, and
//! writes `d + 1` into the nibbles of the table itself, so the scratch is the payload: nothing is packed
//! at the end.
//!
//! The bitmaps take 3 bits per entry (192 MiB for 7 edges, 1.9 GiB for 8) in anonymous memory advised to
//! use huge pages, because every move touches a random block and 4 KiB pages would miss the TLB each time.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::file::error::TableError;
use crate::file::mmap::Scratch;
use crate::pdb::bfs::{Direction, LevelStats, SearchOptions, Space};
use crate::pdb::index::N_MOVES;

/// Blocks per rayon task.
const TASK_BLOCKS: usize = 2048;

/// The masks of the low half of each butterfly: bit `j` of the XOR mask swaps the bits selected by
/// `LOW[j]` with those `1 << j` above them.
const LOW: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// The bitmap of `{o ^ mask : o in bits}` for a block of `W` words.
#[inline(always)]
fn xor_permute<const W: usize>(bits: &[u64], mask: usize) -> [u64; W] {
    let mut out = [0u64; W];
    for (w, out) in out.iter_mut().enumerate() {
        let mut word = bits[w ^ (mask >> 6)];
        for (j, &low) in LOW.iter().enumerate() {
            let shift = 1 << j;
            let swapped = ((word & low) << shift) | ((word >> shift) & low);
            let select = 0u64.wrapping_sub((mask >> j) as u64 & 1);
            word = (swapped & select) | (word & !select);
        }
        *out = word;
    }
    out
}

/// Runs the search of an edge space with `W = 2^K / 64` words per block, writing depths into the nibble
/// table `nibbles` (zeroed, `n_entries / 2` bytes). Returns the entries per depth, or `Err(depth)` when
/// the frontier of `depth` is empty while entries are unvisited.
pub(crate) fn search<S: Space<Xform = usize>, const W: usize>(
    space: &S,
    nibbles: &mut [u8],
    options: &SearchOptions<'_>,
) -> Result<Result<Vec<u64>, u8>, TableError> {
    assert_eq!(S::BLOCK_LEN, W * 64, "W words per block");
    let n_blocks = space.n_blocks();
    let n_words = n_blocks * W;
    assert_eq!(
        nibbles.len(),
        n_blocks * S::BLOCK_LEN / 2,
        "one nibble per entry"
    );
    let mut visited = Bitmap::new(n_words)?;
    let mut frontier = Bitmap::new(n_words)?;
    let mut next = Bitmap::new(n_words)?;
    let goal = space.goal();
    visited.words_mut()[goal / 64] |= 1 << (goal % 64);
    frontier.words_mut()[goal / 64] |= 1 << (goal % 64);
    nibbles
        .par_chunks_mut(1 << 20)
        .for_each(|chunk| chunk.fill(0));
    let n_entries = (n_blocks * S::BLOCK_LEN) as u64;
    let (mut n_frontier, mut n_unvisited) = (1u64, n_entries - 1);
    let mut counts = vec![1u64];
    let mut depth = 0u8;
    while n_unvisited > 0 {
        if n_frontier == 0 {
            return Ok(Err(depth));
        }
        let start = Instant::now();
        let direction = if (n_unvisited as f64) < options.backward_factor * n_frontier as f64 {
            Direction::Backward
        } else {
            Direction::Forward
        };
        let done = AtomicU64::new(0);
        let n_tasks = n_blocks.div_ceil(TASK_BLOCKS);
        let report_every = (n_tasks as u64 / 100).max(1);
        {
            let visited = visited.words();
            let frontier = frontier.words();
            let next = as_atomic(next.words_mut());
            (0..n_tasks).into_par_iter().for_each(|task| {
                let blocks = task * TASK_BLOCKS..((task + 1) * TASK_BLOCKS).min(n_blocks);
                match direction {
                    Direction::Forward => {
                        for block in blocks {
                            forward::<S, W>(space, block, visited, frontier, next);
                        }
                    }
                    Direction::Backward => {
                        for block in blocks {
                            backward::<S, W>(space, block, visited, frontier, next);
                        }
                    }
                }
                let before = done.fetch_add(1, Relaxed);
                if (before + 1).is_multiple_of(report_every) {
                    (options.on_work)(depth + 1, before + 1, n_tasks as u64);
                }
            });
        }
        depth += 1;
        let found = fold_level::<W>(
            depth,
            visited.words_mut(),
            frontier.words_mut(),
            next.words_mut(),
            nibbles,
        );
        counts.push(found);
        n_frontier = found;
        n_unvisited -= found;
        (options.on_level)(&LevelStats {
            depth,
            direction,
            entries: found,
            unassigned: n_unvisited,
            elapsed: start.elapsed(),
        });
    }
    Ok(Ok(counts))
}

/// ORs the unvisited targets of `block`'s frontier into `next`, for every move.
#[inline(always)]
fn forward<S: Space<Xform = usize>, const W: usize>(
    space: &S,
    block: usize,
    visited: &[u64],
    frontier: &[u64],
    next: &[AtomicU64],
) {
    let own = &frontier[block * W..(block + 1) * W];
    if own.iter().all(|&word| word == 0) {
        return;
    }
    let decoded = space.block(block);
    // Two phases: first the 18 targets and their new bits, with plain and relaxed loads only, so that
    // the CPU overlaps the 18 cache misses; then the locked ORs, which would otherwise wait for each
    // miss in turn (a locked instruction orders all memory accesses around it).
    let mut targets = [0usize; N_MOVES];
    let mut new = [[0u64; W]; N_MOVES];
    for m in 0..N_MOVES {
        let (target, mask) = space.neighbor(&decoded, m);
        let moved = xor_permute::<W>(own, mask);
        targets[m] = target * W;
        for w in 0..W {
            let index = target * W + w;
            // Bits another source already set need no locked instruction.
            new[m][w] = moved[w] & !visited[index] & !next[index].load(Relaxed);
        }
    }
    for m in 0..N_MOVES {
        for w in 0..W {
            if new[m][w] != 0 {
                next[targets[m] + w].fetch_or(new[m][w], Relaxed);
            }
        }
    }
}

/// Finds the unvisited entries of `block` that have a neighbour on the frontier.
#[inline(always)]
fn backward<S: Space<Xform = usize>, const W: usize>(
    space: &S,
    block: usize,
    visited: &[u64],
    frontier: &[u64],
    next: &[AtomicU64],
) {
    let mut left = [0u64; W];
    for (w, left) in left.iter_mut().enumerate() {
        *left = !visited[block * W + w];
    }
    if left.iter().all(|&word| word == 0) {
        return;
    }
    let mut found = [0u64; W];
    let decoded = space.block(block);
    for m in 0..N_MOVES {
        let (target, mask) = space.neighbor(&decoded, m);
        let moved = xor_permute::<W>(&frontier[target * W..(target + 1) * W], mask);
        let mut any_left = 0;
        for w in 0..W {
            let hit = left[w] & moved[w];
            found[w] |= hit;
            left[w] &= !hit;
            any_left |= left[w];
        }
        if any_left == 0 {
            break;
        }
    }
    for (w, &word) in found.iter().enumerate() {
        if word != 0 {
            // Only this block's worker writes its words in a backward pass.
            next[block * W + w].store(word, Relaxed);
        }
    }
}

/// Folds `next` into `visited` and `frontier`, writes `depth` into the nibbles of the new entries,
/// clears `next`; returns the number of new entries.
fn fold_level<const W: usize>(
    depth: u8,
    visited: &mut [u64],
    frontier: &mut [u64],
    next: &mut [u64],
    nibbles: &mut [u8],
) -> u64 {
    // A word covers 64 entries, 32 bytes of nibbles.
    const WORDS: usize = 1 << 14;
    visited
        .par_chunks_mut(WORDS)
        .zip(frontier.par_chunks_mut(WORDS))
        .zip(next.par_chunks_mut(WORDS))
        .zip(nibbles.par_chunks_mut(WORDS * 32))
        .map(|(((visited, frontier), next), nibbles)| {
            let mut count = 0u64;
            for (w, ((visited, frontier), next)) in visited
                .iter_mut()
                .zip(frontier.iter_mut())
                .zip(next.iter_mut())
                .enumerate()
            {
                let new = *next & !*visited;
                *next = 0;
                *visited |= new;
                *frontier = new;
                count += u64::from(new.count_ones());
                let bytes = &mut nibbles[w * 32..(w + 1) * 32];
                let mut bits = new;
                while bits != 0 {
                    let bit = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    bytes[bit / 2] |= depth << ((bit & 1) * 4);
                }
            }
            count
        })
        .sum()
}

/// A zeroed bitmap in anonymous memory advised to use huge pages.
struct Bitmap {
    scratch: Scratch,
}

impl Bitmap {
    fn new(n_words: usize) -> Result<Bitmap, TableError> {
        Ok(Bitmap {
            scratch: Scratch::anonymous(n_words * 8)?,
        })
    }

    fn words(&self) -> &[u64] {
        bytemuck::try_cast_slice(&self.scratch).expect("a mapping is page-aligned")
    }

    fn words_mut(&mut self) -> &mut [u64] {
        bytemuck::try_cast_slice_mut(&mut self.scratch).expect("a mapping is page-aligned")
    }
}

/// Views words as atomics, for the workers of one level.
#[allow(unsafe_code)]
fn as_atomic(words: &mut [u64]) -> &[AtomicU64] {
    assert!(
        words.as_ptr().align_offset(align_of::<AtomicU64>()) == 0,
        "AtomicU64 needs 8-byte alignment"
    );
    // SAFETY: `AtomicU64` has the size and bit validity of `u64`, and the assert above checked its
    // alignment (which may exceed `u64`'s on some targets). The view borrows `words` mutably for its
    // whole lifetime, so no non-atomic access can happen while it exists, and the memory outlives it.
    unsafe { &*(std::ptr::from_mut::<[u64]>(words) as *const [AtomicU64]) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::bfs::{self, EdgeSpace};
    use crate::pdb::index::EdgeMoveMaps;

    #[test]
    fn xor_permute_moves_every_bit() {
        for mask in 0..256usize {
            for bit in 0..256usize {
                let mut bits = [0u64; 4];
                bits[bit / 64] |= 1 << (bit % 64);
                let moved = xor_permute::<4>(&bits, mask);
                let target = bit ^ mask;
                let mut expected = [0u64; 4];
                expected[target / 64] |= 1 << (target % 64);
                assert_eq!(moved, expected, "bit {bit} mask {mask}");
            }
        }
    }

    /// The bitmap search of the 6-edge space against the byte search, every entry, both directions.
    #[test]
    fn agrees_with_the_byte_search() {
        let space = EdgeSpace::<6> {
            maps: EdgeMoveMaps::get().clone(),
            goal: [6, 7, 8, 9, 10, 11],
        };
        let n = 665_280 * 64;
        let mut bytes = vec![0u8; n];
        let quiet = SearchOptions {
            backward_factor: 1.0,
            on_level: &|_| {},
            on_work: &|_, _, _| {},
        };
        let byte_counts = bfs::search(&space, &mut bytes, &quiet).unwrap();
        for factor in [0.0, 1.0, 1e9] {
            let options = SearchOptions {
                backward_factor: factor,
                ..quiet
            };
            let mut nibbles = vec![0u8; n / 2];
            let counts = search::<_, 1>(&space, &mut nibbles, &options)
                .unwrap()
                .unwrap();
            assert_eq!(counts, byte_counts);
            assert_eq!(crate::pack_nibbles(&bytes), nibbles, "factor {factor}");
        }
    }
}
