//! The depth histogram of a payload ([`histogram`]) and the per-chunk counts it sums, which the
//! full check ([`verify`](crate::verify())) computes in the same pass as the payload hash: a leaf
//! of `file/` that the table views, the loads and the check all use.

use rayon::prelude::*;

use crate::file::format::{HISTOGRAM_LEN, Histogram};
use crate::file::hash::CHUNK_LEN;
use crate::file::id::Encoding;

/// The depth histogram of a payload, computed in parallel.
///
/// For [`Encoding::Nibble`], an odd `n_entries` leaves a padding nibble in the last byte, which is not
/// counted. For [`Encoding::Byte`], bucket 31 counts every entry of 31 or more. For
/// [`Encoding::Line2`], buckets 0 to 3 count the codes of the entries and bucket `16 + m` the lines
/// of minimum `m`.
pub fn histogram(payload: &[u8], encoding: Encoding, n_entries: u64) -> Histogram {
    let total = payload
        .par_chunks(CHUNK_LEN)
        .map(|chunk| chunk_counts(chunk, encoding))
        .reduce(
            || [0; 256],
            |mut a, b| {
                for (sum, n) in a.iter_mut().zip(b) {
                    *sum += n;
                }
                a
            },
        );
    histogram_of_counts(&total, encoding, n_entries, payload.last().copied())
}

/// The statistics of one chunk that sum over chunks: byte-value counts, or for
/// [`Encoding::Line2`] (whose chunks hold whole 128-byte blocks) the chunk's histogram in the
/// first 32 counters.
pub(crate) fn chunk_counts(chunk: &[u8], encoding: Encoding) -> [u64; 256] {
    match encoding {
        Encoding::Nibble | Encoding::Byte => byte_counts(chunk),
        Encoding::Line2 { .. } => {
            let mut counts = [0u64; 256];
            counts[..HISTOGRAM_LEN].copy_from_slice(&crate::file::lines::line_histogram(chunk));
            counts
        }
    }
}

/// How often each byte value occurs in `bytes`, with four interleaved counters to break store-to-load
/// dependencies between equal neighbours.
fn byte_counts(bytes: &[u8]) -> [u64; 256] {
    let mut counts = [[0u32; 256]; 4];
    let mut quads = bytes.chunks_exact(4);
    for quad in &mut quads {
        counts[0][usize::from(quad[0])] += 1;
        counts[1][usize::from(quad[1])] += 1;
        counts[2][usize::from(quad[2])] += 1;
        counts[3][usize::from(quad[3])] += 1;
    }
    for &b in quads.remainder() {
        counts[0][usize::from(b)] += 1;
    }
    // Each counter sees at most a quarter of a 1 MiB chunk, so `u32` cannot overflow.
    std::array::from_fn(|b| counts.iter().map(|c| u64::from(c[b])).sum())
}

/// Turns byte-value counts into a depth histogram.
pub(crate) fn histogram_of_counts(
    counts: &[u64; 256],
    encoding: Encoding,
    n_entries: u64,
    last: Option<u8>,
) -> Histogram {
    let mut histogram = [0u64; HISTOGRAM_LEN];
    match encoding {
        Encoding::Nibble => {
            for (byte, &n) in counts.iter().enumerate() {
                histogram[byte & 0xF] += n;
                histogram[byte >> 4] += n;
            }
            if n_entries % 2 == 1 {
                let padding =
                    usize::from(last.expect("an odd entry count means a non-empty payload") >> 4);
                histogram[padding] -= 1;
            }
        }
        Encoding::Byte => {
            for (byte, &n) in counts.iter().enumerate() {
                histogram[byte.min(HISTOGRAM_LEN - 1)] += n;
            }
        }
        Encoding::Line2 { .. } => histogram.copy_from_slice(&counts[..HISTOGRAM_LEN]),
    }
    histogram
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms() {
        assert_eq!(
            histogram(&[0x21, 0x01], Encoding::Nibble, 3)[..3],
            [0, 2, 1]
        );
        assert_eq!(
            histogram(&[0x21, 0x01], Encoding::Nibble, 4)[..3],
            [1, 2, 1]
        );
        assert_eq!(histogram(&[0, 200, 31, 32], Encoding::Byte, 4)[31], 3);
        let big: Vec<u8> = (0..3 * CHUNK_LEN + 5).map(|i| (i % 7) as u8).collect();
        let h = histogram(&big, Encoding::Byte, big.len() as u64);
        assert_eq!(h.iter().sum::<u64>(), big.len() as u64);
        assert_eq!(h[0], big.iter().filter(|&&b| b == 0).count() as u64);
    }
}
