//! The cells of an nx bake: the distance of every coset during the breadth-first search, a byte
//! per coset ([`ByteCells`]) or, where a byte per coset does not fit in memory, four bits
//! ([`NibbleCells`]: nx-eo2ep2's 30.2 G cosets in 15.1 GB instead of 30.2 GB).
//!
//! A cell holds the distances up to its `top` exactly and a deeper one as `top` ("`top` or
//! more"); the bake reads no more of them (see [`mod@super::bake`]). Rows (one per corner class)
//! are whole words of either kind: a row's cells are written during a level by one worker only
//! ([`Cells::set_owned`], [`Cells::set_found`]) or by any worker through [`Cells::set_shared`].

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::coord::N_SLICE;

/// The distances of the cosets during a bake.
pub(super) trait Cells: Sync + Sized {
    /// The value of a cell no level has reached yet.
    const UNASSIGNED: u8;
    /// The deepest distance a cell can hold exactly.
    const MAX_TOP: u8;

    /// The memory of `len` cells, in bytes.
    fn bytes(len: usize) -> u64;

    /// `len` unassigned cells that hold the distances up to `top` (at most [`Self::MAX_TOP`])
    /// exactly, in rows of `row_len` cells (a multiple of 16).
    fn new(len: usize, row_len: usize, top: u8) -> Self;

    /// How many cells there are.
    fn len(&self) -> usize;

    /// The deepest distance held exactly.
    fn top(&self) -> u8;

    /// The value of cell `at`.
    fn get(&self, at: usize) -> u8;

    /// Gives cell `at` the value `value` if it is unassigned; any worker may call it during a
    /// level, on any cell, provided that every assigned cell holds at most `value` and that the
    /// level's only change is from unassigned to `value`.
    fn set_shared(&self, at: usize, value: u8);

    /// Gives cell `at` the value `value` if it is unassigned, and says whether it was; only the
    /// caller writes the row of `at` during the level.
    fn set_owned(&self, at: usize, value: u8) -> bool;

    /// Gives cell `at`, unassigned, the value `value`; only the caller writes the row of `at`
    /// during the level.
    fn set_found(&self, at: usize, value: u8);

    /// The bits of the `n` (at most 64) cells from `start` that hold `value`, the first cell's
    /// the lowest.
    fn bits(&self, start: usize, n: usize, value: u8) -> u64;

    /// Between levels (the caller holds the cells alone): a bit per cell in `marks`, set where
    /// the cell holds `value`.
    fn mark(&mut self, value: u8, marks: &mut Vec<u64>);

    /// Between levels: the unassigned cells of each row of `row_len` cells for which `wanted` is
    /// set (0 for the others).
    fn unassigned_per_row(&mut self, row_len: usize, wanted: &[bool]) -> Vec<u32>;

    /// Between levels: the offsets of the cells that hold `value` in each row of `row_len` cells
    /// whose `at` count is not 0 (empty lists for the others).
    fn lists(&mut self, row_len: usize, at: &[u32], value: u8) -> Vec<Vec<u32>>;

    /// The cells once the search is over, as the pack reads them.
    type Frozen: Blocks;

    /// The cells once the search is over.
    fn freeze(self) -> Self::Frozen;
}

/// Cells read block by block (the pack).
pub(super) trait Blocks: Sync {
    /// How many cells there are.
    fn n_cells(&self) -> usize;

    /// The values of the 495 cells of block `block` (cells `495 block ..`).
    fn block(&self, block: usize, out: &mut [u8; N_SLICE]);
}

impl Blocks for Vec<u8> {
    fn n_cells(&self) -> usize {
        self.len()
    }

    fn block(&self, block: usize, out: &mut [u8; N_SLICE]) {
        out.copy_from_slice(&self[block * N_SLICE..][..N_SLICE]);
    }
}

/// A byte per cell.
pub(super) struct ByteCells {
    cells: Vec<AtomicU8>,
    top: u8,
}

impl ByteCells {
    /// The cells as plain bytes, for a pass that holds them alone (between levels), so that it
    /// runs a word or a vector at a time.
    #[allow(unsafe_code)]
    fn plain(&mut self) -> &mut [u8] {
        let cells = &mut self.cells;
        // SAFETY: `AtomicU8` has the size, alignment and bit validity of `u8` (as its
        // documentation states), and the exclusive borrow of the cells for the lifetime of the
        // result means that no atomic access can happen while the plain bytes are in use: what
        // the unstable `AtomicU8::get_mut_slice` does.
        unsafe { std::slice::from_raw_parts_mut(cells.as_mut_ptr().cast::<u8>(), cells.len()) }
    }
}

impl Cells for ByteCells {
    const UNASSIGNED: u8 = 0xFF;
    const MAX_TOP: u8 = 0xFE;

    fn bytes(len: usize) -> u64 {
        len as u64
    }

    fn new(len: usize, _row_len: usize, top: u8) -> ByteCells {
        assert!(top <= Self::MAX_TOP);
        let cells = (0..len)
            .into_par_iter()
            .map(|_| AtomicU8::new(Self::UNASSIGNED))
            .collect();
        ByteCells { cells, top }
    }

    fn len(&self) -> usize {
        self.cells.len()
    }

    fn top(&self) -> u8 {
        self.top
    }

    #[inline]
    fn get(&self, at: usize) -> u8 {
        self.cells[at].load(Relaxed)
    }

    /// Without a branch: every value is at most `value` but the unassigned one, which is the
    /// only one that changes during the level, and only to `value`, so storing back the minimum
    /// races with no other write.
    #[inline]
    fn set_shared(&self, at: usize, value: u8) {
        let cell = &self.cells[at];
        cell.store(cell.load(Relaxed).min(value), Relaxed);
    }

    #[inline]
    fn set_owned(&self, at: usize, value: u8) -> bool {
        let cell = &self.cells[at];
        let unassigned = cell.load(Relaxed) == Self::UNASSIGNED;
        if unassigned {
            cell.store(value, Relaxed);
        }
        unassigned
    }

    #[inline]
    fn set_found(&self, at: usize, value: u8) {
        self.cells[at].store(value, Relaxed);
    }

    #[inline]
    fn bits(&self, start: usize, n: usize, value: u8) -> u64 {
        let mut bytes = [!value; 64];
        for (byte, cell) in bytes.iter_mut().zip(&self.cells[start..start + n]) {
            *byte = cell.load(Relaxed);
        }
        equal_bytes_64(&bytes[..n], value)
    }

    /// Eight bytes at a time (a zero-byte test on a 64-bit word and a multiply that gathers the
    /// eight top bits).
    fn mark(&mut self, value: u8, marks: &mut Vec<u64>) {
        marks.resize(self.cells.len().div_ceil(64), 0);
        marks
            .par_iter_mut()
            .zip(self.plain().par_chunks(64))
            .for_each(|(bits, chunk)| *bits = equal_bytes_64(chunk, value));
    }

    /// A count over plain bytes, which vectorises, where atomic loads go one byte at a time.
    fn unassigned_per_row(&mut self, row_len: usize, wanted: &[bool]) -> Vec<u32> {
        self.plain()
            .par_chunks(row_len)
            .zip(wanted)
            .map(|(row, &wanted)| match wanted {
                false => 0,
                true => row.iter().map(|&v| u32::from(v == Self::UNASSIGNED)).sum(),
            })
            .collect()
    }

    /// A search for one byte value that runs a vector's width at a time (`memchr`).
    fn lists(&mut self, row_len: usize, at: &[u32], value: u8) -> Vec<Vec<u32>> {
        self.plain()
            .par_chunks(row_len)
            .zip(at)
            .map(|(row, &at)| match at {
                0 => Vec::new(),
                _ => memchr::memchr_iter(value, row).map(|c| c as u32).collect(),
            })
            .collect()
    }

    type Frozen = Vec<u8>;

    /// Plain bytes, which the pack copies a block at a time.
    fn freeze(self) -> Vec<u8> {
        self.cells.into_iter().map(AtomicU8::into_inner).collect()
    }
}

/// Four bits per cell, sixteen to a word (the first cell in the low bits); a cell of a word
/// that other workers write too is set with an atomic AND (unassigned is all ones).
pub(super) struct NibbleCells {
    words: Vec<AtomicU64>,
    len: usize,
    top: u8,
}

impl NibbleCells {
    /// The 16 cells from `start` (beyond the last cell: unassigned).
    #[inline]
    fn sixteen(&self, start: usize) -> u64 {
        let (q, r) = (start / 16, start % 16);
        let low = self.words[q].load(Relaxed);
        if r == 0 {
            return low;
        }
        let high = self.words.get(q + 1).map_or(u64::MAX, |w| w.load(Relaxed));
        low >> (4 * r) | high << (64 - 4 * r)
    }
}

impl Cells for NibbleCells {
    const UNASSIGNED: u8 = 0xF;
    const MAX_TOP: u8 = 0xE;

    fn bytes(len: usize) -> u64 {
        len.div_ceil(16) as u64 * 8
    }

    fn new(len: usize, row_len: usize, top: u8) -> NibbleCells {
        assert!(top <= Self::MAX_TOP && row_len.is_multiple_of(16));
        let words = (0..len.div_ceil(16))
            .into_par_iter()
            .map(|_| AtomicU64::new(u64::MAX))
            .collect();
        NibbleCells { words, len, top }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn top(&self) -> u8 {
        self.top
    }

    #[inline]
    fn get(&self, at: usize) -> u8 {
        (self.words[at / 16].load(Relaxed) >> (4 * (at % 16)) & 0xF) as u8
    }

    /// An atomic AND where the cell is unassigned: the other cells of the word may be written
    /// by other workers at the same time.
    #[inline]
    fn set_shared(&self, at: usize, value: u8) {
        let (word, shift) = (&self.words[at / 16], 4 * (at % 16));
        if word.load(Relaxed) >> shift & 0xF == 0xF {
            word.fetch_and(nibble_mask(shift, value), Relaxed);
        }
    }

    #[inline]
    fn set_owned(&self, at: usize, value: u8) -> bool {
        let (word, shift) = (&self.words[at / 16], 4 * (at % 16));
        let bits = word.load(Relaxed);
        let unassigned = bits >> shift & 0xF == 0xF;
        if unassigned {
            word.store(bits & nibble_mask(shift, value), Relaxed);
        }
        unassigned
    }

    /// The cell's bits are all ones: an AND writes the value.
    #[inline]
    fn set_found(&self, at: usize, value: u8) {
        let (word, shift) = (&self.words[at / 16], 4 * (at % 16));
        word.store(word.load(Relaxed) & nibble_mask(shift, value), Relaxed);
    }

    #[inline]
    fn bits(&self, start: usize, n: usize, value: u8) -> u64 {
        let mut bits = 0;
        for k in (0..n).step_by(16) {
            bits |= equal_nibbles(self.sixteen(start + k), value) << k;
        }
        if n < 64 { bits & ((1 << n) - 1) } else { bits }
    }

    fn mark(&mut self, value: u8, marks: &mut Vec<u64>) {
        let n_marks = self.len.div_ceil(64);
        marks.resize(n_marks, 0);
        let this = &*self;
        marks.par_iter_mut().enumerate().for_each(|(i, bits)| {
            *bits = this.bits(64 * i, (this.len - 64 * i).min(64), value);
        });
    }

    /// A word at a time: its unassigned cells are its nibbles of all ones.
    fn unassigned_per_row(&mut self, row_len: usize, wanted: &[bool]) -> Vec<u32> {
        self.words
            .par_chunks(row_len / 16)
            .zip(wanted)
            .map(|(row, &wanted)| match wanted {
                false => 0,
                true => row
                    .iter()
                    .map(|w| zero_nibbles(!w.load(Relaxed)).count_ones())
                    .sum(),
            })
            .collect()
    }

    fn lists(&mut self, row_len: usize, at: &[u32], value: u8) -> Vec<Vec<u32>> {
        self.words
            .par_chunks(row_len / 16)
            .zip(at)
            .map(|(row, &at)| {
                let mut list = Vec::new();
                if at > 0 {
                    for (i, w) in row.iter().enumerate() {
                        let mut bits = zero_nibbles(w.load(Relaxed) ^ repeat(value));
                        while bits != 0 {
                            list.push((16 * i + bits.trailing_zeros() as usize / 4) as u32);
                            bits &= bits - 1;
                        }
                    }
                }
                list
            })
            .collect()
    }

    type Frozen = NibbleCells;

    fn freeze(self) -> NibbleCells {
        self
    }
}

impl Blocks for NibbleCells {
    fn n_cells(&self) -> usize {
        self.len
    }

    fn block(&self, block: usize, out: &mut [u8; N_SLICE]) {
        let start = block * N_SLICE;
        for (k, values) in out.chunks_mut(16).enumerate() {
            let sixteen = self.sixteen(start + 16 * k);
            for (i, value) in values.iter_mut().enumerate() {
                *value = (sixteen >> (4 * i) & 0xF) as u8;
            }
        }
    }
}

/// The mask that an AND with a word whose nibble at `shift` is all ones turns into `value`
/// there, the other nibbles kept.
#[inline]
const fn nibble_mask(shift: usize, value: u8) -> u64 {
    !(0xF << shift) | (value as u64) << shift
}

/// `value` in each nibble of a word.
#[inline]
const fn repeat(value: u8) -> u64 {
    value as u64 * 0x1111_1111_1111_1111
}

/// The top bit of each nibble of `x` that is zero: `(n & 7) + 7` sets it in the others without a
/// carry into the next nibble.
#[inline]
const fn zero_nibbles(x: u64) -> u64 {
    const LOW3: u64 = 0x7777_7777_7777_7777;
    !(((x & LOW3) + LOW3) | x | LOW3)
}

/// A bit for each nibble of `sixteen` (the first nibble the lowest bit) that equals `value`.
#[inline]
fn equal_nibbles(sixteen: u64, value: u8) -> u64 {
    // Bit 0 of each nibble, then pairs, fours and eights of them gathered.
    let b = zero_nibbles(sixteen ^ repeat(value)) >> 3;
    let b = (b | b >> 3) & 0x0303_0303_0303_0303;
    let b = (b | b >> 6) & 0x000F_000F_000F_000F;
    let b = (b | b >> 12) & 0x0000_00FF_0000_00FF;
    (b | b >> 24) & 0xFFFF
}

/// The bits of the bytes of `chunk` (at most 64) that equal `value`, eight bytes at a time.
#[inline]
fn equal_bytes_64(chunk: &[u8], value: u8) -> u64 {
    chunk.chunks(8).enumerate().fold(0, |bits, (i, eight)| {
        let mut bytes = [!value; 8];
        bytes[..eight.len()].copy_from_slice(eight);
        bits | u64::from(equal_bytes(u64::from_le_bytes(bytes), value)) << (8 * i)
    })
}

/// A bit for each byte of `eight` (the first byte the lowest bit) that equals `value`.
#[inline]
fn equal_bytes(eight: u64, value: u8) -> u8 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = eight ^ (u64::from(value) * 0x0101_0101_0101_0101);
    // The top bit of each byte of `x` that is zero: `(b & 0x7F) + 0x7F` sets it in the others
    // without a carry into the next byte.
    let zero = !(((x & LOW7) + LOW7) | x | LOW7);
    // Gathers the eight top bits into the top byte (no two partial products meet).
    ((zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits of the bytes equal to a value, eight at a time, are those of a byte-by-byte
    /// comparison, on chunks of every length up to 64 and on the values around each byte's top
    /// bit (where a carry would show).
    #[test]
    fn the_bits_of_equal_bytes_are_those_of_a_comparison() {
        let bytes: Vec<u8> = (0..64u32)
            .map(|i| [0, 1, 0x7F, 0x80, 0xFE, 0xFF, 12, 13][(i * 5 % 8) as usize])
            .collect();
        for value in [0, 1, 12, 0x7F, 0x80, 0xFE, 0xFF] {
            for len in 0..=64 {
                let chunk = &bytes[..len];
                let expected = chunk
                    .iter()
                    .enumerate()
                    .fold(0u64, |bits, (i, &b)| bits | u64::from(b == value) << i);
                assert_eq!(
                    equal_bytes_64(chunk, value),
                    expected,
                    "value {value}, length {len}"
                );
            }
        }
    }

    /// Both kinds of cells, set and read through every method, agree with a plain array of the
    /// same values: per cell, per run of bits from any start (across words and at the end), the
    /// marks, the counts and lists per row, and the blocks.
    #[test]
    fn both_kinds_of_cells_hold_what_is_set() {
        fn check<C: Cells>(unassigned: u8) {
            let (row_len, n_rows) = (32 * N_SLICE, 3);
            let len = row_len * n_rows;
            let mut cells = C::new(len, row_len, 14);
            let mut expected = vec![unassigned; len];
            for (at, expected) in expected.iter_mut().enumerate() {
                if at % 7 == 3 {
                    continue;
                }
                let value = (at * 11 % 15) as u8;
                match at % 4 {
                    0 => cells.set_shared(at, value),
                    2 => cells.set_found(at, value),
                    _ => {
                        assert!(cells.set_owned(at, value));
                        assert!(!cells.set_owned(at, 0), "assigned already");
                    }
                }
                *expected = value;
            }
            // `set_shared` on an assigned cell that holds at most the value changes nothing.
            cells.set_shared(0, 14);
            for (at, &value) in expected.iter().enumerate() {
                assert_eq!(cells.get(at), value, "cell {at}");
            }
            for value in [0, 5, 13, unassigned] {
                for start in [0, 1, 15, 16, 17, 63, 495, len - 64, len - 40] {
                    let n = (len - start).min(64);
                    let want = (0..n).fold(0u64, |bits, i| {
                        bits | u64::from(expected[start + i] == value) << i
                    });
                    assert_eq!(cells.bits(start, n, value), want, "{value} from {start}");
                }
                let mut marks = Vec::new();
                cells.mark(value, &mut marks);
                assert_eq!(marks.len(), len.div_ceil(64));
                for (at, &v) in expected.iter().enumerate() {
                    assert_eq!(marks[at / 64] >> (at % 64) & 1 == 1, v == value);
                }
                let lists = cells.lists(row_len, &[1, 0, 1], value);
                for (row, list) in lists.iter().enumerate() {
                    let want: Vec<u32> = match row {
                        1 => Vec::new(),
                        _ => (0..row_len as u32)
                            .filter(|&c| expected[row * row_len + c as usize] == value)
                            .collect(),
                    };
                    assert_eq!(list, &want, "row {row}, value {value}");
                }
            }
            let counts = cells.unassigned_per_row(row_len, &[true, false, true]);
            let want = |row: usize| {
                expected[row * row_len..][..row_len]
                    .iter()
                    .filter(|&&v| v == unassigned)
                    .count() as u32
            };
            assert_eq!(counts, [want(0), 0, want(2)]);
            let frozen = cells.freeze();
            assert_eq!(frozen.n_cells(), len);
            let mut block = [0; N_SLICE];
            for b in [0, 1, 33, len / N_SLICE - 1] {
                frozen.block(b, &mut block);
                assert_eq!(&block[..], &expected[b * N_SLICE..][..N_SLICE], "block {b}");
            }
        }
        check::<ByteCells>(0xFF);
        check::<NibbleCells>(0xF);
    }
}
