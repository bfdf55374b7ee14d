//! The 2-bit line layout ([`Encoding::Line2`](crate::Encoding::Line2)): decoding one entry and the
//! histogram of a run of whole blocks.

use crate::file::format::{HISTOGRAM_LEN, Histogram};

/// The bytes of one line: a 4-bit minimum and 62 two-bit codes.
pub const LINE_BYTES: usize = 16;

/// The bytes of one 512-slot block (8 lines, 495 entries).
pub const BLOCK_BYTES: usize = 128;

/// The value of slot `index`: `base + code` for a code of 1 to 3, the line minimum for code 0.
#[inline]
pub fn line_value(payload: &[u8], index: usize, base: u8) -> u8 {
    let code = payload[index >> 2] >> (2 * (index & 3)) & 3;
    if code != 0 {
        base + code
    } else {
        payload[index >> 6 << 4] & 0x0F
    }
}

/// The histogram of whole 128-byte blocks of a 2-bit line payload: codes of the entries in
/// buckets 0 to 3 (the minima and the last slot of each block are not entries), lines by minimum
/// in buckets 16 to 31.
///
/// # Panics
/// If `blocks` is not a whole number of blocks.
pub fn line_histogram(blocks: &[u8]) -> Histogram {
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
