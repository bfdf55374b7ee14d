//! The published depth histograms of the pattern databases, committed so that `verify` and every bake
//! compare against numbers that did not come from this code.
//!
//! Source: the project's `REFERENCE.md`. The corner numbers are OEIS A080629 (Korf 1997 gives the mean
//! 8.764); the edge-subset numbers come from an independent plain BFS. Like nissy-core's
//! `src/solvers/h48/checkdata.h`, a table is correct only if its payload, its header and these agree.

use crate::file::format::{HISTOGRAM_LEN, Histogram};
use crate::pdb::index::EdgeSubset;

/// Entries per depth of the corner database (8! x 3^7 entries, depths 0 to 11).
pub const CORNERS: [u64; 12] = [
    1, 18, 243, 2_874, 28_000, 205_416, 1_168_516, 5_402_628, 20_776_176, 45_391_616, 15_139_616,
    64_736,
];

/// Edges {0..5}.
pub const EDGES_6A: [u64; 11] = [
    1, 18, 230, 2_747, 30_847, 308_783, 2_508_618, 13_189_082, 23_497_569, 3_039_786, 239,
];

/// Edges {6..11}.
pub const EDGES_6B: [u64; 11] = [
    1, 15, 190, 2_360, 27_139, 281_416, 2_380_459, 13_065_209, 23_961_831, 2_859_244, 56,
];

/// Edges {0..6}.
pub const EDGES_7A: [u64; 12] = [
    1,
    18,
    237,
    3_016,
    37_021,
    428_578,
    4_484_987,
    38_124_789,
    200_330_480,
    257_070_439,
    10_455_452,
    22,
];

/// Edges {5..11}.
pub const EDGES_7B: [u64; 12] = [
    1,
    15,
    195,
    2_535,
    31_473,
    367_872,
    3_908_466,
    34_131_734,
    191_418_139,
    269_227_300,
    11_847_292,
    18,
];

/// Edges {0..7}.
pub const EDGES_8A: [u64; 13] = [
    1,
    18,
    239,
    3_104,
    39_647,
    492_142,
    5_794_409,
    62_236_644,
    537_074_528,
    2_587_135_284,
    1_906_407_122,
    10_167_258,
    4,
];

/// Edges {4..11}.
pub const EDGES_8B: [u64; 13] = [
    1,
    15,
    198,
    2_630,
    34_033,
    423_573,
    4_999_936,
    53_701_974,
    470_174_911,
    2_465_557_384,
    2_098_566_555,
    15_889_173,
    17,
];

/// The corner histogram as a header histogram.
pub fn corners() -> Histogram {
    padded(&CORNERS)
}

/// The histogram of an edge subset's table, when it is one of the six published ones.
pub fn edges(subset: &EdgeSubset) -> Option<Histogram> {
    let counts: &[u64] = match *subset {
        EdgeSubset::EDGES_6A => &EDGES_6A,
        EdgeSubset::EDGES_6B => &EDGES_6B,
        EdgeSubset::EDGES_7A => &EDGES_7A,
        EdgeSubset::EDGES_7B => &EDGES_7B,
        EdgeSubset::EDGES_8A => &EDGES_8A,
        EdgeSubset::EDGES_8B => &EDGES_8B,
        _ => return None,
    };
    Some(padded(counts))
}

fn padded(counts: &[u64]) -> Histogram {
    let mut histogram = [0; HISTOGRAM_LEN];
    histogram[..counts.len()].copy_from_slice(counts);
    histogram
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corners::CORNER_COUNT;

    #[test]
    fn sums_are_table_sizes() {
        assert_eq!(CORNERS.iter().sum::<u64>(), CORNER_COUNT as u64);
        for subset in [
            EdgeSubset::EDGES_6A,
            EdgeSubset::EDGES_6B,
            EdgeSubset::EDGES_7A,
            EdgeSubset::EDGES_7B,
            EdgeSubset::EDGES_8A,
            EdgeSubset::EDGES_8B,
        ] {
            let histogram = edges(&subset).unwrap();
            assert_eq!(histogram.iter().sum::<u64>(), subset.n_entries() as u64);
        }
    }
}
