//! The 2-bit line layout ([`Encoding::Line2`](crate::Encoding::Line2)): its read view [`Lines2`] and
//! the histogram of a run of whole blocks.

use crate::file::format::{HISTOGRAM_LEN, Histogram};

/// The bytes of one line: a 4-bit minimum and 62 two-bit codes.
pub(crate) const LINE_BYTES: usize = 16;

/// The bytes of one 512-slot block (8 lines, 495 entries).
pub(crate) const BLOCK_BYTES: usize = 128;

/// The slot of entry `r` (`0..495`) in its 512-slot block: the entries in order, skipping the
/// first two slots of every 64 (they hold the line minimum): `r + 2 * (r / 62) + 2`.
#[inline]
pub const fn slot(placement: u32) -> u32 {
    placement + 2 * (placement / 62) + 2
}

/// The read view of a 2-bit line payload ([`Encoding::Line2`](crate::Encoding::Line2)), the
/// counterpart of [`Nibbles`](crate::Nibbles): each 16-byte line holds its 4-bit minimum in the low
/// nibble of its first byte and 62 two-bit codes; slot `index` is bits `2 (index % 4)` of byte
/// `index / 4`. A code of 1 to 3 stands for `base + code`, code 0 for the line minimum (a value of
/// at most `base`).
///
/// ```
/// use cube_tables::Lines2;
///
/// let mut line = [0u8; 16];
/// line[0] = 0b1001_0011; // minimum 3; slot 2 code 1, slot 3 code 2
/// let view = Lines2::new(&line, 8);
/// assert_eq!((view.get(2), view.get(3), view.get(4)), (9, 10, 3));
/// assert_eq!(view.code(3), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lines2<'a> {
    bytes: &'a [u8],
    base: u8,
}

impl<'a> Lines2<'a> {
    /// The slots of `bytes` (`4 * bytes.len()` of them, the minima's and padding included), over
    /// `base`.
    #[inline]
    pub const fn new(bytes: &'a [u8], base: u8) -> Lines2<'a> {
        Lines2 { bytes, base }
    }

    /// The value of slot `index`: `base + code` for a code of 1 to 3, the line minimum for code 0
    /// (both bytes are in one cache line; chosen without a branch).
    ///
    /// # Panics
    ///
    /// When `index >= 4 * self.bytes().len()`.
    #[inline(always)]
    pub fn get(self, index: usize) -> u8 {
        let code = self.code(index);
        let minimum = self.bytes[index >> 6 << 4] & 0x0F;
        if code == 0 { minimum } else { self.base + code }
    }

    /// The 2-bit code of slot `index` (0 to 3).
    ///
    /// # Panics
    ///
    /// When `index >= 4 * self.bytes().len()`.
    #[inline(always)]
    pub fn code(self, index: usize) -> u8 {
        self.bytes[index >> 2] >> (2 * (index & 3)) & 3
    }

    /// Asks the CPU to start loading the cache line of slot `index` (which holds its line
    /// minimum too). Out of range indexes are ignored; a no-op on targets other than x86-64.
    #[inline(always)]
    pub fn prefetch(self, index: usize) {
        if let Some(byte) = self.bytes.get(index >> 2) {
            crate::file::prefetch::prefetch_read(byte);
        }
    }

    /// The packed bytes.
    #[inline]
    pub const fn bytes(self) -> &'a [u8] {
        self.bytes
    }
}

/// The histogram of whole 128-byte blocks of a 2-bit line payload: codes of the entries in
/// buckets 0 to 3 (the minima and the last slot of each block are not entries), lines by minimum
/// in buckets 16 to 31.
///
/// # Panics
/// If `blocks` is not a whole number of blocks.
pub(crate) fn line_histogram(blocks: &[u8]) -> Histogram {
    assert!(
        blocks.len().is_multiple_of(BLOCK_BYTES),
        "a 2-bit line payload is whole 128-byte blocks"
    );
    // counts[b]: how often byte value b occurs at each kind of byte: a line's first byte (the
    // minimum, then two codes), a block's last byte (three codes, then the unused slot), others.
    let mut first = [0u64; 256];
    let mut last = [0u64; 256];
    let mut inner = [0u64; 256];
    for block in blocks.chunks_exact(BLOCK_BYTES) {
        for (i, line) in block.chunks_exact(LINE_BYTES).enumerate() {
            first[usize::from(line[0])] += 1;
            let end = if i == 7 { LINE_BYTES - 1 } else { LINE_BYTES };
            for &b in &line[1..end] {
                inner[usize::from(b)] += 1;
            }
        }
        last[usize::from(block[BLOCK_BYTES - 1])] += 1;
    }
    let mut histogram = [0u64; HISTOGRAM_LEN];
    for b in 0..256 {
        for shift in [0, 2, 4, 6] {
            histogram[b >> shift & 3] += inner[b];
        }
        histogram[16 + (b & 0x0F)] += first[b];
        histogram[b >> 4 & 3] += first[b];
        histogram[b >> 6 & 3] += first[b];
        for shift in [0, 2, 4] {
            histogram[b >> shift & 3] += last[b];
        }
    }
    histogram
}
