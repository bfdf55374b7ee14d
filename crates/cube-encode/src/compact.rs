//! A fixed-size binary form for batches of states: each record is the state's 11-byte
//! [Twizzle binary](crate::twizzle) encoding, records back to back, no header.
//!
//! Every part of a [`State`] survives (no orientation is PO_U = 7, no centres MO_Q = 0), the
//! format is public and cubing.js can read each record. A tighter packing of the cube alone
//! would take 9 bytes (66 bits for 4.3 × 10¹⁹ states) but needs 128-bit arithmetic per state
//! and could not carry the orientation; 11 bytes is the simple choice.

use crate::error::DecodeError;
use crate::state::State;
use crate::twizzle;

/// The size of one record in bytes.
pub const RECORD_LEN: usize = twizzle::LEN;

/// Appends the records of `states` to `out`.
pub fn encode_batch_into(states: &[State], out: &mut Vec<u8>) {
    out.reserve(states.len() * RECORD_LEN);
    for state in states {
        out.extend_from_slice(&twizzle::encode(state));
    }
}

/// The records of `states`.
///
/// ```
/// use cube_encode::{State, compact};
/// let bytes = compact::encode_batch(&[State::SOLVED, State::SOLVED]);
/// assert_eq!(bytes.len(), 2 * compact::RECORD_LEN);
/// assert_eq!(compact::decode_batch(&bytes).unwrap(), vec![State::SOLVED; 2]);
/// ```
pub fn encode_batch(states: &[State]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_batch_into(states, &mut out);
    out
}

/// Decodes records back to back (each as [`twizzle::decode`]).
///
/// # Errors
/// [`DecodeError::WrongLength`] (counting bytes, `expected` being the record size) if the
/// length is not a multiple of [`RECORD_LEN`]; [`DecodeError::Record`] for the first bad record.
pub fn decode_batch(bytes: &[u8]) -> Result<Vec<State>, DecodeError> {
    if !bytes.len().is_multiple_of(RECORD_LEN) {
        return Err(DecodeError::WrongLength {
            unit: "bytes (not a whole number of records)",
            expected: RECORD_LEN,
            found: bytes.len(),
        });
    }
    bytes
        .chunks_exact(RECORD_LEN)
        .enumerate()
        .map(|(index, record)| {
            twizzle::decode(record).map_err(|e| DecodeError::Record {
                index,
                error: Box::new(e),
            })
        })
        .collect()
}
