//! [`Nibbles`], the one read view of 4-bit entries (every nibble table is read through it:
//! [`PruneTable::nibbles`](crate::PruneTable::nibbles), [`NibbleTable`], the searches' tables);
//! [`NibbleTable`], a writable table of 4-bit entries for generators; and [`pack_nibbles`].
//!
//! A generator either sets nibbles directly, or runs its breadth-first search over a byte-per-entry
//! [`Scratch`](crate::Scratch) (simpler to update from many threads) and packs it at the end with
//! [`pack_nibbles`] or [`pack_nibbles_into`]. Either way the bytes go to [`write_table`](crate::write_table)
//! with [`Encoding::Nibble`].

use rayon::prelude::*;

use crate::file::error::{Kind, TableError};
use crate::file::format::Histogram;
use crate::file::hash::CHUNK_LEN;
use crate::file::histogram::histogram;
use crate::file::id::Encoding;

/// A read view of 4-bit entries packed two per byte: entry `2k` is the low nibble of byte `k`,
/// entry `2k + 1` the high nibble. The one decoder of the layout; a search holds views and reads
/// with [`Nibbles::get`], which is the shift and the mask and no other branch than the slice's bound
/// check.
///
/// ```
/// use cube_tables::Nibbles;
///
/// let view = Nibbles::new(&[0x21, 0x0F]);
/// assert_eq!((view.get(0), view.get(1), view.get(2), view.get(3)), (1, 2, 15, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nibbles<'a> {
    bytes: &'a [u8],
}

impl<'a> Nibbles<'a> {
    /// The entries packed in `bytes` (`2 * bytes.len()` of them, the last perhaps padding).
    #[inline]
    pub const fn new(bytes: &'a [u8]) -> Nibbles<'a> {
        Nibbles { bytes }
    }

    /// The entry at `index`, in `0..16`.
    ///
    /// # Panics
    ///
    /// When `index >= 2 * self.bytes().len()`.
    #[inline(always)]
    pub fn get(self, index: usize) -> u8 {
        (self.bytes[index >> 1] >> ((index & 1) << 2)) & 0xF
    }

    /// Asks the CPU to start loading the cache line of entry `index`, for a lookup soon after.
    /// Out of range indexes are ignored; a no-op on targets other than x86-64.
    #[inline(always)]
    pub fn prefetch(self, index: usize) {
        if let Some(byte) = self.bytes.get(index >> 1) {
            crate::file::prefetch::prefetch_read(byte);
        }
    }

    /// The packed bytes.
    #[inline]
    pub const fn bytes(self) -> &'a [u8] {
        self.bytes
    }
}

/// A table of `n_entries` 4-bit entries over any byte storage: entry `2k` is the low nibble of byte `k`,
/// entry `2k + 1` the high nibble.
///
/// Public as the way a generator outside the crate builds a nibble payload for
/// [`write_table`](crate::write_table) (the crate docs' example, the integration tests' fixtures).
///
/// ```
/// use cube_tables::NibbleTable;
///
/// let mut table = NibbleTable::new(5);
/// table.set(3, 9);
/// assert_eq!(table.get(3), 9);
/// assert_eq!(table.as_bytes(), &[0x00, 0x90, 0x00]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NibbleTable<T = Vec<u8>> {
    bytes: T,
    n_entries: usize,
}

impl NibbleTable<Vec<u8>> {
    /// A zeroed table of `n_entries` entries on the heap.
    pub fn new(n_entries: usize) -> NibbleTable<Vec<u8>> {
        NibbleTable {
            bytes: vec![0; n_entries.div_ceil(2)],
            n_entries,
        }
    }
}

impl<T: AsRef<[u8]>> NibbleTable<T> {
    /// A table of `n_entries` entries over `bytes`, which must be `n_entries.div_ceil(2)` bytes long, for
    /// example a [`Scratch`](crate::Scratch).
    ///
    /// # Errors
    ///
    /// `InvalidInput` when `bytes` has the wrong length.
    pub fn from_storage(bytes: T, n_entries: usize) -> Result<NibbleTable<T>, TableError> {
        let len = bytes.as_ref().len();
        if len != n_entries.div_ceil(2) {
            let what = format!("{len} bytes cannot hold exactly {n_entries} nibbles");
            return Err(TableError::new(Kind::InvalidInput { what }));
        }
        Ok(NibbleTable { bytes, n_entries })
    }

    /// The entry at `index`, in `0..16`.
    ///
    /// # Panics
    ///
    /// When `index` is beyond the bytes. In debug builds, when `index >= self.len()` (in release
    /// builds the padding nibble of an odd length reads as 0).
    #[inline(always)]
    pub fn get(&self, index: usize) -> u8 {
        debug_assert!(
            index < self.n_entries,
            "index {index} out of range for {} nibbles",
            self.n_entries
        );
        self.nibbles().get(index)
    }

    /// The read view of the entries.
    #[inline(always)]
    pub fn nibbles(&self) -> Nibbles<'_> {
        Nibbles::new(self.bytes.as_ref())
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.n_entries
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.n_entries == 0
    }

    /// The packed bytes, ready for [`write_table`](crate::write_table).
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// The depth histogram of the entries, computed in parallel.
    pub fn histogram(&self) -> Histogram {
        histogram(self.as_bytes(), Encoding::Nibble, self.n_entries as u64)
    }

    /// The storage.
    pub fn into_inner(self) -> T {
        self.bytes
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> NibbleTable<T> {
    /// Sets the entry at `index` to `value`.
    ///
    /// # Panics
    ///
    /// When `index >= self.len()` or `value >= 16`.
    #[inline]
    pub fn set(&mut self, index: usize, value: u8) {
        assert!(
            index < self.n_entries,
            "index {index} out of range for {} nibbles",
            self.n_entries
        );
        assert!(value < 16, "nibble value {value} is not below 16");
        let byte = &mut self.bytes.as_mut()[index / 2];
        let shift = (index & 1) * 4;
        *byte = (*byte & !(0xF << shift)) | (value << shift);
    }

    /// Sets every entry to `value` (the padding nibble stays zero).
    ///
    /// # Panics
    ///
    /// When `value >= 16`.
    pub fn fill(&mut self, value: u8) {
        assert!(value < 16, "nibble value {value} is not below 16");
        let n_entries = self.n_entries;
        let bytes = self.bytes.as_mut();
        bytes
            .par_chunks_mut(CHUNK_LEN)
            .for_each(|chunk| chunk.fill(value | (value << 4)));
        if n_entries % 2 == 1 {
            bytes[n_entries / 2] = value;
        }
    }
}

/// Packs one entry per byte into nibbles: `out[k] = bytes[2k] | bytes[2k + 1] << 4`, in parallel.
///
/// Public, with [`pack_nibbles_into`], for generators outside the crate that count in bytes (the
/// integration tests check both against [`NibbleTable`]).
///
/// # Panics
///
/// When a byte is 16 or more.
pub fn pack_nibbles(bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![0; bytes.len().div_ceil(2)];
    pack_nibbles_into(bytes, &mut out);
    out
}

/// Packs one entry per byte into nibbles in `out`, which may be a [`Scratch`](crate::Scratch) or a
/// [`NibbleTable`]'s storage; in parallel.
///
/// # Panics
///
/// When `out.len() != bytes.len().div_ceil(2)` or a byte is 16 or more.
pub fn pack_nibbles_into(bytes: &[u8], out: &mut [u8]) {
    pack_into(bytes, out, false);
}

/// [`pack_nibbles`], entries over 15 stored as 15 (for distances or lower bounds, still a lower
/// bound).
pub(crate) fn pack_nibbles_capped(bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![0; bytes.len().div_ceil(2)];
    pack_into(bytes, &mut out, true);
    out
}

/// Packs `bytes` into `out`, capping entries at 15 or asserting that none is over.
fn pack_into(bytes: &[u8], out: &mut [u8], cap: bool) {
    assert_eq!(
        out.len(),
        bytes.len().div_ceil(2),
        "the output must hold exactly one nibble per input byte"
    );
    let max = if cap { 15 } else { u8::MAX };
    out.par_chunks_mut(CHUNK_LEN / 2)
        .zip(bytes.par_chunks(CHUNK_LEN))
        .for_each(|(out, bytes)| {
            let mut seen = 0u8;
            for (out, pair) in out.iter_mut().zip(bytes.chunks(2)) {
                let low = pair[0].min(max);
                let high = pair.get(1).copied().unwrap_or(0).min(max);
                seen |= low | high;
                *out = low | (high << 4);
            }
            assert!(seen < 16, "an entry of 16 or more does not fit in a nibble");
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_keeps_padding_zero() {
        let mut table = NibbleTable::new(5);
        table.fill(7);
        assert_eq!(table.as_bytes(), &[0x77, 0x77, 0x07]);
        assert_eq!(table.histogram()[7], 5);
    }

    #[test]
    fn pack_across_chunks() {
        let bytes: Vec<u8> = (0..CHUNK_LEN * 2 + 3).map(|i| (i % 13) as u8).collect();
        let packed = pack_nibbles(&bytes);
        let table = NibbleTable::from_storage(packed, bytes.len()).unwrap();
        assert!((0..bytes.len()).all(|i| table.get(i) == bytes[i]));
    }
}
