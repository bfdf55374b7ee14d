//! B32, nissy-core's cube format: a "base 32" text of 23 characters,
//! `cccccccc=eeeeeeeeeeee=o` (nissy-core `README.md`, "Cube format"; read and written by
//! `readcube` and `writecube` in `src/core/cube.h`).
//!
//! - Each piece is a number from 0 to 31 written as one letter: `A`-`Z` are 0-25 and `a`-`f`
//!   are 26-31 (the README says "0-26" and "27-31", but its examples and its code use these).
//! - The 8 letters before the first `=` are the corners at the positions
//!   `UFR UBL DFL DBR UFL UBR DFR DBL`: the piece there, numbered in that same order, plus 8 if
//!   it is twisted clockwise or 16 if counter-clockwise, referenced to the U/D axis.
//! - The 12 letters between the two `=` are the edges at the positions
//!   `UF UB DB DF UR UL DL DR FR FL BL BR`: the piece there, numbered in that order, plus 16 if it
//!   is flipped on the F/B axis.
//! - The last letter is the orientation of the whole cube, `A`-`X` for
//!   `UF UR UB UL DF DR DB DL RF RD RB RU LF LD LB LU FD FR FU FL BD BR BU BL`, where `RB`
//!   means that the R centre is on top and the B centre in front (cube-core's
//!   [`Symmetry`] names: `RB` is the rotation that brings R to U and B to F). The pieces are
//!   relative to the centres, as in [`State`].
//!
//! Positions, numbers and orientations are those of [`h48`](crate::h48). The solved cube is
//! `ABCDEFGH=ABCDEFGHIJKL=A`; after `Fw` it is `ANCPETGR=AbaDEFGHIJRS=M` (nissy-core
//! `test/030_applymoves/512_Fw_solved`).
//!
//! The orientation was added to the format after nissy-core commit `510a747` (2025-04-21): the
//! library up to that commit, and the `utils/convert.c` tool still, read and write the first
//! 21 characters, `cccccccc=eeeeeeeeeeee`. [`decode`] reads both: the short form records no
//! orientation. [`encode`] writes the full form, `A` when the state records no orientation.
//!
//! Reading differs from nissy-core's `readcube` where that one accepts what is not a cube:
//! whitespace around the text is skipped, but anything else after the orientation is an
//! error, the second `=` is required (nissy-core does not look at it), a letter that is no
//! piece (a corner twisted "3", an edge numbered 12 to 15) and a piece written twice are named
//! with their column. Like nissy-core's reader, [`decode`] accepts unsolvable but consistent
//! cubes (a single flipped edge); [`decode_solvable`] refuses them, as nissy-core's
//! `issolvable` does.

use cube_core::{Cube, Symmetry};

use crate::error::DecodeError;
use crate::h48::{
    CORNER_H48_TO_KOCIEMBA, CORNER_KOCIEMBA_TO_H48, CORNER_NAMES, EDGE_H48_TO_KOCIEMBA,
    EDGE_KOCIEMBA_TO_H48, EDGE_NAMES, invert,
};
use crate::problem::{Parts, Problem, parts_problems};
use crate::state::State;

/// The length of the written form: 8 corners, `=`, 12 edges, `=`, the orientation.
pub const LEN: usize = 23;

/// The length of the form without the orientation (nissy-core up to commit `510a747`).
pub const SHORT_LEN: usize = 21;

/// B32 orientation `o` (`A` + `o`) is [`Symmetry::from_index`]`(ORIENTATION_TO_SYMMETRY[o])`:
/// nissy-core numbers the 24 orientations `UF UR UB UL DF DR DB DL RF RD RB RU LF LD LB LU FD
/// FR FU FL BD BR BU BL`, cube-core's rotations are in nissy-core's order of transformations,
/// `UF UL UB UR DF DL DB DR RU RF RD RB LU LF LD LB FU FR FD FL BU BR BD BL`.
const ORIENTATION_TO_SYMMETRY: [u8; 24] = [
    0, 3, 2, 1, 4, 7, 6, 5, 9, 10, 11, 8, 13, 14, 15, 12, 18, 17, 16, 19, 22, 21, 20, 23,
];
const SYMMETRY_TO_ORIENTATION: [u8; 24] = invert(ORIENTATION_TO_SYMMETRY);

/// The number a B32 letter stands for.
fn value_of(letter: u8) -> Option<u8> {
    match letter {
        b'A'..=b'Z' => Some(letter - b'A'),
        b'a'..=b'f' => Some(letter - b'a' + 26),
        _ => None,
    }
}

/// The letter of a number below 32.
fn letter_of(value: u8) -> u8 {
    if value < 26 {
        b'A' + value
    } else {
        b'a' + value - 26
    }
}

/// The character at byte `at` of `text`, for an error message.
fn char_at(text: &str, at: usize) -> char {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .unwrap_or('\u{fffd}')
}

/// Reads the pieces and the orientation. `LENIENT`, for [`check_as`](crate::check_as), lets a
/// piece appear twice, a corner be twisted "3" and an edge be numbered 12 to 15, which the
/// pieces' check then names.
#[inline(always)]
fn read_parts<const LENIENT: bool>(text: &str) -> Result<(Parts, Option<Symmetry>), DecodeError> {
    let start = text.len() - text.trim_ascii_start().len();
    let body = text.trim_ascii();
    let mut groups = body.split('=');
    let sizes = (
        groups.next().map(str::len),
        groups.next().map(str::len),
        groups.next().map(str::len),
        groups.next(),
    );
    let with_orientation = match sizes {
        (Some(8), Some(12), Some(1), None) => true,
        (Some(8), Some(12), None, None) => false,
        _ => {
            return Err(DecodeError::B32Groups {
                found: body.split('=').map(str::len).collect(),
            });
        }
    };
    let bytes = body.as_bytes();
    let letter = |i: usize| {
        value_of(bytes[i]).ok_or_else(|| DecodeError::B32Letter {
            column: start + i + 1,
            found: char_at(body, i),
        })
    };
    let (mut cp, mut co, mut ep, mut eo) = ([0u8; 8], [0u8; 8], [0u8; 12], [0u8; 12]);
    let mut seen = 0u32;
    let mut note = |bit: usize, name: &'static str, i: usize| {
        if !LENIENT && seen >> bit & 1 == 1 {
            return Err(DecodeError::DuplicatePiece {
                piece: name,
                column: start + i + 1,
            });
        }
        seen |= 1 << bit;
        Ok(())
    };
    for h in 0..8 {
        let value = letter(h)?;
        let (piece, twist) = (value & 7, value >> 3);
        if !LENIENT && twist > 2 {
            return Err(DecodeError::B32Piece {
                column: start + h + 1,
                found: bytes[h] as char,
                value,
                corner: true,
            });
        }
        note(12 + piece as usize, CORNER_NAMES[piece as usize], h)?;
        let k = CORNER_H48_TO_KOCIEMBA[h] as usize;
        cp[k] = CORNER_H48_TO_KOCIEMBA[piece as usize];
        co[k] = twist;
    }
    for h in 0..12 {
        let i = 9 + h;
        let value = letter(i)?;
        let (piece, flip) = (value & 15, value >> 4);
        let k = EDGE_H48_TO_KOCIEMBA[h] as usize;
        eo[k] = flip;
        match EDGE_H48_TO_KOCIEMBA.get(piece as usize) {
            Some(&kociemba) => {
                note(piece as usize, EDGE_NAMES[piece as usize], i)?;
                ep[k] = kociemba;
            }
            // Out of range, kept as written for the pieces' check.
            None if LENIENT => ep[k] = piece,
            None => {
                return Err(DecodeError::B32Piece {
                    column: start + i + 1,
                    found: bytes[i] as char,
                    value,
                    corner: false,
                });
            }
        }
    }
    let orientation = if with_orientation {
        let o = bytes[22].wrapping_sub(b'A');
        if o >= 24 {
            return Err(DecodeError::B32Orientation {
                column: start + 23,
                found: char_at(body, 22),
            });
        }
        Some(Symmetry::from_index(
            ORIENTATION_TO_SYMMETRY[o as usize] as usize,
        ))
    } else {
        None
    };
    Ok(((cp, co, ep, eo), orientation))
}

fn read(text: &str) -> Result<(Cube, Option<Symmetry>), DecodeError> {
    let ((cp, co, ep, eo), orientation) = read_parts::<false>(text)?;
    Ok((Cube::from_parts(cp, co, ep, eo)?, orientation))
}

/// Every problem of B32 text's pieces ([`check_as`](crate::check_as)).
pub(crate) fn problems(text: &str) -> Result<Vec<Problem>, DecodeError> {
    Ok(parts_problems(read_parts::<true>(text)?.0))
}

/// Reads B32 text, with the orientation or without it (the 21-character form of older
/// nissy-core). The state may be unsolvable (a single flipped edge, say), as with nissy-core's
/// reader.
///
/// ```
/// use cube_core::{Alg, Symmetry};
/// use cube_encode::{State, b32};
/// let state = b32::decode("ABCDEFGH=ABCDEFGHIJKL=Q").unwrap();
/// assert_eq!(state, State::from_alg(&"x".parse::<Alg>().unwrap()));
/// assert_eq!(b32::decode("ABCDEFGH=ABCDEFGHIJKL").unwrap(), State::SOLVED);
/// ```
///
/// # Errors
/// [`DecodeError::B32Groups`] unless the text is 8 letters, `=`, 12 letters and optionally
/// `=` and one letter; [`DecodeError::B32Letter`] for a character that is no B32 letter;
/// [`DecodeError::B32Piece`] for a letter that is no corner (or edge) where one is due;
/// [`DecodeError::DuplicatePiece`]; [`DecodeError::B32Orientation`] for an orientation letter
/// after `X`.
pub fn decode(text: &str) -> Result<State, DecodeError> {
    let (cube, orientation) = read(text)?;
    Ok(State::new(cube).with_orientation(orientation))
}

/// Reads B32 text of a solvable state.
///
/// # Errors
/// As [`decode`], and [`DecodeError::Illegal`] if the state is unsolvable.
pub fn decode_solvable(text: &str) -> Result<State, DecodeError> {
    let state = decode(text)?;
    state.cube().validate()?;
    Ok(state)
}

/// Writes a state's B32 text into `out`, as nissy-core writes it: the orientation `A` when the
/// state records none; the centre orientation is not written.
pub fn write<'a>(state: &State, out: &'a mut [u8; LEN]) -> &'a str {
    let cube = state.cube();
    let (cp, co, ep, eo) = (
        cube.corner_perm(),
        cube.corner_ori(),
        cube.edge_perm(),
        cube.edge_ori(),
    );
    for h in 0..8 {
        let k = CORNER_H48_TO_KOCIEMBA[h] as usize;
        let piece = CORNER_KOCIEMBA_TO_H48[cp[k] as usize & 7];
        out[h] = letter_of(piece + 8 * co[k]);
    }
    out[8] = b'=';
    for h in 0..12 {
        let k = EDGE_H48_TO_KOCIEMBA[h] as usize;
        let piece = EDGE_KOCIEMBA_TO_H48[ep[k] as usize & 15];
        out[9 + h] = letter_of(piece + 16 * eo[k]);
    }
    out[21] = b'=';
    let rotation = state.orientation().unwrap_or(Symmetry::IDENTITY);
    out[22] = b'A' + SYMMETRY_TO_ORIENTATION[rotation.index()];
    std::str::from_utf8(out).expect("B32 letters are ASCII")
}

/// A state's B32 text.
///
/// ```
/// use cube_core::Alg;
/// use cube_encode::{State, b32};
/// // nissy-core's README: `R U R' U'` from solved.
/// let state = State::from_alg(&"R U R' U'".parse::<Alg>().unwrap());
/// assert_eq!(b32::encode(&state), "WFCDERQH=AECDIFGHBJKL=A");
/// ```
pub fn encode(state: &State) -> String {
    let mut out = [0u8; LEN];
    write(state, &mut out).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// nissy-core `src/core/constants.h`, `ORIENTATION_UF` to `ORIENTATION_BL`.
    const NISSY_ORIENTATIONS: [&str; 24] = [
        "UF", "UR", "UB", "UL", "DF", "DR", "DB", "DL", "RF", "RD", "RB", "RU", "LF", "LD", "LB",
        "LU", "FD", "FR", "FU", "FL", "BD", "BR", "BU", "BL",
    ];

    #[test]
    fn orientations_are_nissy_cores_by_name() {
        for (o, name) in NISSY_ORIENTATIONS.iter().enumerate() {
            let rotation = Symmetry::from_index(ORIENTATION_TO_SYMMETRY[o] as usize);
            assert_eq!(rotation.name(), *name);
            assert_eq!(SYMMETRY_TO_ORIENTATION[rotation.index()] as usize, o);
        }
    }

    #[test]
    fn every_letter_reads_back() {
        for value in 0..32 {
            assert_eq!(value_of(letter_of(value)), Some(value));
        }
        assert_eq!(value_of(b'g'), None);
        assert_eq!(value_of(b'='), None);
    }
}
