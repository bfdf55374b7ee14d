//! Ranks of permutations, arrangements and orientations: the reference forms.
//!
//! Every coordinate of the workspace ranks pieces one of these ways, often in a faster form fitted
//! to its sizes (fixed lengths, bit masks, SIMD); each such form is tested against these for
//! agreement. They are written for clarity, not speed, and check their input.
//!
//! - An *arrangement* of `k` of `n` is `k` distinct values of `0..n` in order (the positions of
//!   tracked pieces, say). Its rank is mixed radix, most significant digit first: digit `j` is the
//!   value's index among the `n - j` values not used before it, in radix `n - j`. Ranks run over
//!   `0..n! / (n - k)!`, 0 for `0, 1, ..., k - 1`.
//! - A *permutation* of `0..n` is the arrangement of `n` of `n`: its rank is the Lehmer code,
//!   0 for the identity.
//! - *Orientations* of `n` pieces in base `b` whose sum is a multiple of `b` pack as the first
//!   `n - 1` read as a base-`b` number, the first most significant (Kociemba's twist and flip
//!   coordinates); the last follows from the others.
//! - The *parity* of a permutation is that of its number of inversions.

/// The number of arrangements of `k` of `n`: `n! / (n - k)!`.
///
/// # Panics
///
/// When `k > n` or the count overflows a `u64` (`n > 20`).
pub fn n_arrangements(n: u32, k: u32) -> u64 {
    assert!(k <= n, "an arrangement of {k} of {n}");
    (n - k + 1..=n).fold(1u64, |count, factor| {
        count
            .checked_mul(u64::from(factor))
            .expect("the count fits in a u64")
    })
}

/// The rank of the arrangement `values` of `values.len()` of `n` (see the module docs).
///
/// # Panics
///
/// When `n > 20`, or a value is not below `n` or repeats.
pub fn rank_arrangement(values: &[u8], n: u32) -> u64 {
    assert!(n <= 20, "at most 20 values, not {n}");
    let mut used = 0u32;
    let mut rank = 0u64;
    for (j, &value) in values.iter().enumerate() {
        let value = u32::from(value);
        assert!(value < n, "value {value} is not below {n}");
        assert!(used >> value & 1 == 0, "value {value} repeats");
        let index = value - (used & ((1 << value) - 1)).count_ones();
        rank = rank * u64::from(n - j as u32) + u64::from(index);
        used |= 1 << value;
    }
    rank
}

/// Writes into `out` the arrangement of `out.len()` of `n` whose rank is `rank`.
///
/// # Panics
///
/// When `n > 20`, `out` is longer than `n`, or `rank` is not below
/// [`n_arrangements`]`(n, out.len())`.
pub fn unrank_arrangement(mut rank: u64, n: u32, out: &mut [u8]) {
    let k = out.len() as u32;
    assert!(n <= 20, "at most 20 values, not {n}");
    assert!(
        rank < n_arrangements(n, k),
        "rank {rank} of an arrangement of {k} of {n}"
    );
    for j in (0..out.len()).rev() {
        let radix = u64::from(n - j as u32);
        out[j] = (rank % radix) as u8;
        rank /= radix;
    }
    let mut free: Vec<u8> = (0..n as u8).collect();
    for slot in out.iter_mut() {
        *slot = free.remove(usize::from(*slot));
    }
}

/// The Lehmer rank of `perm`, a permutation of `0..perm.len()`.
///
/// # Panics
///
/// As [`rank_arrangement`] with `n = perm.len()`.
pub fn rank_permutation(perm: &[u8]) -> u64 {
    rank_arrangement(perm, perm.len() as u32)
}

/// Writes into `out` the permutation of `0..out.len()` whose Lehmer rank is `rank`.
///
/// # Panics
///
/// As [`unrank_arrangement`] with `n = out.len()`.
pub fn unrank_permutation(rank: u64, out: &mut [u8]) {
    unrank_arrangement(rank, out.len() as u32, out);
}

/// The orientations `ori` (each below `base`) packed as the first `ori.len() - 1` read as a base-`base`
/// number, the first most significant; the last is not read.
///
/// # Panics
///
/// When an orientation is not below `base`, or the packed value overflows a `u64`.
pub fn pack_orientations(ori: &[u8], base: u8) -> u64 {
    let Some((_, first)) = ori.split_last() else {
        return 0;
    };
    first.iter().fold(0u64, |value, &o| {
        assert!(o < base, "orientation {o} is not below {base}");
        value
            .checked_mul(u64::from(base))
            .expect("the packed value fits in a u64")
            + u64::from(o)
    })
}

/// Writes into `out` the orientations whose [`pack_orientations`] is `value`, the last making the sum a
/// multiple of `base`.
///
/// # Panics
///
/// When `base` is 0 or `value` is not below `base ^ (out.len() - 1)`.
pub fn unpack_orientations(mut value: u64, base: u8, out: &mut [u8]) {
    assert!(base > 0, "a base of at least 1");
    let Some((last, first)) = out.split_last_mut() else {
        return;
    };
    let base = u64::from(base);
    for slot in first.iter_mut().rev() {
        *slot = (value % base) as u8;
        value /= base;
    }
    assert_eq!(value, 0, "the packed value has too many digits");
    let sum: u64 = first.iter().map(|&o| u64::from(o)).sum();
    *last = ((base - sum % base) % base) as u8;
}

/// Whether a permutation (of distinct values `0..perm.len()`) is odd: its number of inversions.
pub fn permutation_parity_odd(perm: &[u8]) -> bool {
    let mut odd = false;
    for i in 0..perm.len() {
        for j in i + 1..perm.len() {
            odd ^= perm[i] > perm[j];
        }
    }
    odd
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every arrangement of up to 5 of 7 round-trips, the ranks cover `0..count` in the lexicographic
    /// order of the arrangements (the definition), and the identity ranks 0.
    #[test]
    fn arrangements_in_lexicographic_order() {
        for k in 0..=5u32 {
            let count = n_arrangements(7, k);
            let mut previous: Option<Vec<u8>> = None;
            for rank in 0..count {
                let mut values = vec![0u8; k as usize];
                unrank_arrangement(rank, 7, &mut values);
                assert_eq!(rank_arrangement(&values, 7), rank);
                if let Some(previous) = &previous {
                    assert!(*previous < values, "{previous:?} before {values:?}");
                }
                previous = Some(values);
            }
            let identity: Vec<u8> = (0..k as u8).collect();
            assert_eq!(rank_arrangement(&identity, 7), 0);
        }
        assert_eq!(n_arrangements(12, 7), 3_991_680);
        assert_eq!(n_arrangements(8, 8), 40_320);
    }

    /// Lehmer ranks of the 24 permutations of four, listed by hand in lexicographic order.
    #[test]
    fn permutations_of_four() {
        let mut all = Vec::new();
        for a in 0..4u8 {
            for b in (0..4).filter(|&b| b != a) {
                for c in (0..4).filter(|&c| c != a && c != b) {
                    all.push([a, b, c, 6 - a - b - c]);
                }
            }
        }
        for (rank, perm) in all.iter().enumerate() {
            assert_eq!(rank_permutation(perm), rank as u64);
            let mut out = [0u8; 4];
            unrank_permutation(rank as u64, &mut out);
            assert_eq!(&out, perm);
        }
        // An odd permutation is one swap from an even one.
        assert!(!permutation_parity_odd(&[0, 1, 2, 3]));
        assert!(permutation_parity_odd(&[1, 0, 2, 3]));
        assert!(!permutation_parity_odd(&[1, 2, 0, 3]));
    }

    /// Twists (base 3, 8 corners) and flips (base 2, 12 edges) round-trip over every value, each
    /// with a sum that is a multiple of the base.
    #[test]
    fn orientations() {
        for (base, n, count) in [(3u8, 8usize, 2187u64), (2, 12, 2048)] {
            let mut out = vec![0u8; n];
            for value in 0..count {
                unpack_orientations(value, base, &mut out);
                let sum: u32 = out.iter().map(|&o| u32::from(o)).sum();
                assert_eq!(sum % u32::from(base), 0);
                assert_eq!(pack_orientations(&out, base), value);
            }
        }
        assert_eq!(pack_orientations(&[2, 0, 0, 0, 0, 0, 0, 1], 3), 2 * 729);
    }
}
