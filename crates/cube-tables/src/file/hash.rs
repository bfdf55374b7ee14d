//! The payload hash and the header checksum: a hand-written 64-bit hash, computed per 1 MiB chunk so rayon
//! can run the chunks in parallel.
//!
//! ripgrep keeps its own FNV in `crates/globset/src/fnv.rs` rather than add a crate; we do the same with a
//! hash in the style of xxHash64: four independent lanes, each taking one little-endian `u64` per round
//! (`acc = rotl(acc + w * P2, 31) * P1`), so one core hashes several GB/s and the memory bus, not the
//! multiplier, is the limit.
//!
//! The payload hash is defined as follows (docs/tables.md has the same text):
//!
//! 1. Split the payload into chunks of [`CHUNK_LEN`] bytes; the last one may be shorter.
//! 2. Hash chunk `i` with [`chunk_hash`], seeded with `i` and the chunk's length.
//! 3. Fold the chunk hashes in order with [`combine`], which also mixes in the payload length.
//!
//! This is not a cryptographic hash: it detects corruption, not tampering.

use rayon::prelude::*;

/// The chunk size of the payload hash: 1 MiB.
pub(crate) const CHUNK_LEN: usize = 1 << 20;

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

#[inline(always)]
fn round(acc: u64, word: u64) -> u64 {
    acc.wrapping_add(word.wrapping_mul(P2))
        .rotate_left(31)
        .wrapping_mul(P1)
}

/// The final avalanche of MurmurHash3, so every input bit reaches every output bit.
#[inline]
fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

#[inline(always)]
fn word(block: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(
        block[at..at + 8]
            .try_into()
            .expect("a block holds four words"),
    )
}

/// The hash of one chunk: `index` is its position in the payload.
pub fn chunk_hash(index: u64, chunk: &[u8]) -> u64 {
    let seed = index.wrapping_mul(P5) ^ (chunk.len() as u64).wrapping_mul(P3);
    let mut lanes = [
        seed.wrapping_add(P1).wrapping_add(P2),
        seed.wrapping_add(P2),
        seed,
        seed.wrapping_sub(P1),
    ];
    let mut blocks = chunk.chunks_exact(32);
    for block in &mut blocks {
        lanes[0] = round(lanes[0], word(block, 0));
        lanes[1] = round(lanes[1], word(block, 8));
        lanes[2] = round(lanes[2], word(block, 16));
        lanes[3] = round(lanes[3], word(block, 24));
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        // The length is in the seed, so zero padding cannot make two chunks collide.
        let mut block = [0u8; 32];
        block[..tail.len()].copy_from_slice(tail);
        for (j, lane) in lanes.iter_mut().enumerate() {
            *lane = round(*lane, word(&block, 8 * j));
        }
    }
    let mut h = lanes[0]
        .rotate_left(1)
        .wrapping_add(lanes[1].rotate_left(7))
        .wrapping_add(lanes[2].rotate_left(12))
        .wrapping_add(lanes[3].rotate_left(18));
    for lane in lanes {
        h = (h ^ round(0, lane)).wrapping_mul(P1).wrapping_add(P4);
    }
    fmix64(h)
}

/// Folds the chunk hashes, in payload order, into the payload hash.
pub fn combine(chunk_hashes: &[u64], payload_len: u64) -> u64 {
    let mut h = P5 ^ payload_len;
    for &chunk in chunk_hashes {
        h = (h ^ chunk)
            .wrapping_mul(P1)
            .rotate_left(27)
            .wrapping_add(P4);
    }
    fmix64(h ^ payload_len.wrapping_mul(P3))
}

/// The payload hash of `payload`, computed in parallel on the rayon pool.
pub fn payload_hash(payload: &[u8]) -> u64 {
    let chunk_hashes: Vec<u64> = payload
        .par_chunks(CHUNK_LEN)
        .enumerate()
        .map(|(index, chunk)| chunk_hash(index as u64, chunk))
        .collect();
    combine(&chunk_hashes, payload.len() as u64)
}

/// The payload hash computed on one thread, one chunk at a time, for payloads that arrive as a stream.
///
/// Feed it whole chunks of [`CHUNK_LEN`] bytes; only the last may be shorter.
#[derive(Debug, Default)]
pub(crate) struct StreamHash {
    chunk_hashes: Vec<u64>,
    len: u64,
    done: bool,
}

impl StreamHash {
    pub(crate) fn push_chunk(&mut self, chunk: &[u8]) {
        assert!(
            !self.done,
            "only the last chunk may be shorter than CHUNK_LEN"
        );
        assert!(chunk.len() <= CHUNK_LEN);
        if chunk.is_empty() {
            return;
        }
        self.done = chunk.len() < CHUNK_LEN;
        self.chunk_hashes
            .push(chunk_hash(self.chunk_hashes.len() as u64, chunk));
        self.len += chunk.len() as u64;
    }

    pub(crate) fn finish(&self) -> u64 {
        combine(&self.chunk_hashes, self.len)
    }
}

/// The header checksum: the hash of every header byte before the checksum field.
pub(crate) fn header_checksum(bytes: &[u8]) -> u64 {
    combine(&[chunk_hash(u64::MAX, bytes)], bytes.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_matches_parallel() {
        let payload: Vec<u8> = (0..(2 * CHUNK_LEN + 12345))
            .map(|i| (i * 7 + i / 251) as u8)
            .collect();
        let mut stream = StreamHash::default();
        for chunk in payload.chunks(CHUNK_LEN) {
            stream.push_chunk(chunk);
        }
        assert_eq!(stream.finish(), payload_hash(&payload));
    }

    #[test]
    fn every_bit_and_length_matters() {
        let payload: Vec<u8> = (0..1000u32).map(|i| (i * 31) as u8).collect();
        let h = payload_hash(&payload);
        for byte in [0, 1, 31, 32, 500, 999] {
            for bit in 0..8 {
                let mut flipped = payload.clone();
                flipped[byte] ^= 1 << bit;
                assert_ne!(payload_hash(&flipped), h, "byte {byte} bit {bit}");
            }
        }
        let mut longer = payload.clone();
        longer.push(0);
        assert_ne!(payload_hash(&longer), h);
        assert_ne!(payload_hash(&payload[..999]), h);
        assert_ne!(payload_hash(&[]), payload_hash(&[0]));
    }

    #[test]
    fn chunks_are_ordered() {
        let a = [chunk_hash(0, &[1; 64]), chunk_hash(1, &[2; 64])];
        let b = [a[1], a[0]];
        assert_ne!(combine(&a, 128), combine(&b, 128));
        assert_ne!(chunk_hash(0, &[1; 64]), chunk_hash(1, &[1; 64]));
    }

    /// The hash is part of the file format: this value must never change within a format version.
    #[test]
    fn frozen_value() {
        let payload: Vec<u8> = (0..=255u8).collect();
        assert_eq!(payload_hash(&payload), FROZEN);
    }

    const FROZEN: u64 = 0xECCA_23ED_BF85_7822;
}
