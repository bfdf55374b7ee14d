//! H48 text, nissy-core's human-readable cube format (nissy-core at commit `510a747`, the last
//! whose library reads and writes it).
//!
//! Twenty tokens: the pieces at edge positions `UF UB DB DF UR UL DL DR FR FL BL BR`, then at
//! corner positions `UFR UBL DFL DBR UFL UBR DFR DBL`, each a piece name followed by its
//! orientation digit (edges 0 or 1 on the F/B axis; corners 0, 1 = clockwise, 2 =
//! counter-clockwise, referenced to U/D). The solved cube is
//! `UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0`.
//! H48 has no centres: a state's orientation and centre orientation are not written.
//!
//! Reading follows nissy's `readcube_H48`: whitespace before each piece is skipped (space, tab,
//! newline, and here also carriage return), tokens are fixed-width so missing whitespace is
//! fine, corners may also be spelled with the U/D letter first and the other two swapped
//! (`URF` for `UFR`), while lowercase, `FU` and `FRU` are rejected. Two deliberate
//! differences: text after the 20th piece (other than whitespace) is an error here, where
//! nissy ignores it, and a duplicate piece is reported at its column (nissy's convert says only
//! "invalid cube"). Like nissy's convert, [`decode`] accepts unsolvable but consistent cubes;
//! [`decode_solvable`] rejects them, as nissy's `issolvable` does.

use cube_core::Cube;

use crate::error::DecodeError;
use crate::problem::{Parts, Problem, parts_problems};
use crate::state::State;

/// The length of the written form: 12 × 4 + 8 × 5 − 1 bytes.
pub const LEN: usize = 87;

/// Edge names, H48 order. H48 edge `h` is Kociemba edge [`EDGE_H48_TO_KOCIEMBA`]`[h]`.
pub(crate) const EDGE_NAMES: [&str; 12] = [
    "UF", "UB", "DB", "DF", "UR", "UL", "DL", "DR", "FR", "FL", "BL", "BR",
];
/// Corner names, H48 order.
pub(crate) const CORNER_NAMES: [&str; 8] = ["UFR", "UBL", "DFL", "DBR", "UFL", "UBR", "DFR", "DBL"];
/// Alternative corner spellings accepted by nissy, H48 order.
const CORNER_NAMES_ALT: [&str; 8] = ["URF", "ULB", "DLF", "DRB", "ULF", "URB", "DRF", "DLB"];
/// H48 edge index to Kociemba edge index (UR UF UL UB DR DF DL DB FR FL BL BR).
pub(crate) const EDGE_H48_TO_KOCIEMBA: [u8; 12] = [1, 3, 7, 5, 0, 2, 6, 4, 8, 9, 10, 11];
/// H48 corner index to Kociemba corner index (URF UFL ULB UBR DFR DLF DBL DRB).
pub(crate) const CORNER_H48_TO_KOCIEMBA: [u8; 8] = [0, 2, 5, 7, 1, 3, 4, 6];
pub(crate) const EDGE_KOCIEMBA_TO_H48: [u8; 12] = invert(EDGE_H48_TO_KOCIEMBA);
pub(crate) const CORNER_KOCIEMBA_TO_H48: [u8; 8] = invert(CORNER_H48_TO_KOCIEMBA);

pub(crate) const fn invert<const N: usize>(map: [u8; N]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[map[i] as usize] = i as u8;
        i += 1;
    }
    out
}

/// Perfect-hash tables from a name's letters to its H48 index: `EDGE_BY_KEY[key(a, b)]`,
/// `CORNER_BY_KEY[key3(a, b, c)]`, [`NONE`] for no piece.
const NONE: u8 = 0xff;

/// The index (0..6) of a face letter, or 6 for anything else.
const fn letter_of(b: u8) -> usize {
    match b {
        b'U' => 0,
        b'R' => 1,
        b'F' => 2,
        b'D' => 3,
        b'L' => 4,
        b'B' => 5,
        _ => 6,
    }
}

/// [`letter_of`] as a table: reading random cubes, a chain of comparisons mispredicts.
const LETTER: [u8; 256] = {
    let mut t = [6u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = letter_of(b as u8) as u8;
        b += 1;
    }
    t
};

#[inline(always)]
fn letter(b: u8) -> usize {
    LETTER[b as usize] as usize
}

const EDGE_BY_KEY: [u8; 49] = {
    let mut t = [NONE; 49];
    let mut i = 0;
    while i < 12 {
        let n = EDGE_NAMES[i].as_bytes();
        t[letter_of(n[0]) * 7 + letter_of(n[1])] = i as u8;
        i += 1;
    }
    t
};

const CORNER_BY_KEY: [u8; 343] = {
    let mut t = [NONE; 343];
    let mut i = 0;
    while i < 8 {
        let n = CORNER_NAMES[i].as_bytes();
        t[letter_of(n[0]) * 49 + letter_of(n[1]) * 7 + letter_of(n[2])] = i as u8;
        let n = CORNER_NAMES_ALT[i].as_bytes();
        t[letter_of(n[0]) * 49 + letter_of(n[1]) * 7 + letter_of(n[2])] = i as u8;
        i += 1;
    }
    t
};

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn token_at(bytes: &[u8], at: usize, len: usize) -> String {
    let end = (at + len).min(bytes.len());
    String::from_utf8_lossy(&bytes[at..end]).into_owned()
}

/// Reads the pieces. `LENIENT`, for [`check_as`](crate::check_as), lets a piece appear twice and
/// an orientation be any digit, which the pieces' check then names.
#[inline(always)]
fn read_parts<const LENIENT: bool>(text: &str) -> Result<Parts, DecodeError> {
    let bytes = text.as_bytes();
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let mut pos = 0usize;
    let mut ep = [0u8; 12];
    let mut eo = [0u8; 12];
    let mut cp = [0u8; 8];
    let mut co = [0u8; 8];
    let mut seen = 0u32;
    for i in 0..20 {
        while pos < bytes.len() && is_space(bytes[pos]) {
            pos += 1;
        }
        if pos >= bytes.len() {
            return Err(DecodeError::MissingPieces {
                found: i,
                expected: 20,
            });
        }
        let start = pos;
        let (piece, name, max_digit) = if i < 12 {
            let key = letter(at(pos)) * 7 + letter(at(pos + 1));
            let piece = EDGE_BY_KEY[key];
            if piece == NONE {
                return Err(DecodeError::UnknownPiece {
                    token: token_at(bytes, pos, 2),
                    column: pos + 1,
                });
            }
            pos += 2;
            (
                piece as usize,
                EDGE_NAMES[piece as usize],
                if LENIENT { b'9' } else { b'1' },
            )
        } else {
            let key = letter(at(pos)) * 49 + letter(at(pos + 1)) * 7 + letter(at(pos + 2));
            let piece = CORNER_BY_KEY[key];
            if piece == NONE {
                return Err(DecodeError::UnknownPiece {
                    token: token_at(bytes, pos, 3),
                    column: pos + 1,
                });
            }
            pos += 3;
            (
                piece as usize,
                CORNER_NAMES[piece as usize],
                if LENIENT { b'9' } else { b'2' },
            )
        };
        let digit = at(pos);
        if !(b'0'..=max_digit).contains(&digit) {
            let found = if pos < bytes.len() {
                text[pos..].chars().next().unwrap_or('\u{fffd}')
            } else {
                '\0'
            };
            return Err(DecodeError::BadOrientation {
                piece: name,
                found,
                column: pos + 1,
            });
        }
        pos += 1;
        let bit = if i < 12 { piece } else { 12 + piece };
        if !LENIENT && seen >> bit & 1 == 1 {
            return Err(DecodeError::DuplicatePiece {
                piece: name,
                column: start + 1,
            });
        }
        seen |= 1 << bit;
        let orientation = digit - b'0';
        if i < 12 {
            let k = EDGE_H48_TO_KOCIEMBA[i] as usize;
            ep[k] = EDGE_H48_TO_KOCIEMBA[piece];
            eo[k] = orientation;
        } else {
            let k = CORNER_H48_TO_KOCIEMBA[i - 12] as usize;
            cp[k] = CORNER_H48_TO_KOCIEMBA[piece];
            co[k] = orientation;
        }
    }
    while pos < bytes.len() && is_space(bytes[pos]) {
        pos += 1;
    }
    if pos < bytes.len() {
        return Err(DecodeError::TrailingGarbage { column: pos + 1 });
    }
    Ok((cp, co, ep, eo))
}

fn read(text: &str) -> Result<Cube, DecodeError> {
    let (cp, co, ep, eo) = read_parts::<false>(text)?;
    Ok(Cube::from_parts(cp, co, ep, eo)?)
}

/// Every problem of H48 text's pieces ([`check_as`](crate::check_as)).
pub(crate) fn problems(text: &str) -> Result<Vec<Problem>, DecodeError> {
    Ok(parts_problems(read_parts::<true>(text)?))
}

/// Reads H48 text: 20 distinct pieces with valid orientation digits. The state may be
/// unsolvable (a single flipped edge, say), as with nissy's convert.
///
/// # Errors
/// [`DecodeError::MissingPieces`] if the text ends early, [`DecodeError::UnknownPiece`],
/// [`DecodeError::BadOrientation`], [`DecodeError::DuplicatePiece`], or
/// [`DecodeError::TrailingGarbage`] for anything but whitespace after the 20th piece.
pub fn decode(text: &str) -> Result<State, DecodeError> {
    read(text).map(State::new)
}

/// Reads H48 text of a solvable state.
///
/// # Errors
/// As [`decode`], and [`DecodeError::Illegal`] if the state is unsolvable.
pub fn decode_solvable(text: &str) -> Result<State, DecodeError> {
    let cube = read(text)?;
    cube.validate()?;
    Ok(State::new(cube))
}

/// Writes a cube's H48 text into `out`: 20 tokens separated by single spaces, no trailing
/// space, exactly as nissy writes it.
pub fn write_cube<'a>(cube: &Cube, out: &'a mut [u8; LEN]) -> &'a str {
    let (cp, co, ep, eo) = (
        cube.corner_perm(),
        cube.corner_ori(),
        cube.edge_perm(),
        cube.edge_ori(),
    );
    for h in 0..12 {
        let k = EDGE_H48_TO_KOCIEMBA[h] as usize;
        let name = EDGE_NAMES[EDGE_KOCIEMBA_TO_H48[ep[k] as usize & 15] as usize].as_bytes();
        let o = &mut out[4 * h..4 * h + 4];
        o[0] = name[0];
        o[1] = name[1];
        o[2] = b'0' + eo[k];
        o[3] = b' ';
    }
    for h in 0..8 {
        let k = CORNER_H48_TO_KOCIEMBA[h] as usize;
        let name = CORNER_NAMES[CORNER_KOCIEMBA_TO_H48[cp[k] as usize & 7] as usize].as_bytes();
        let at = 48 + 5 * h;
        out[at] = name[0];
        out[at + 1] = name[1];
        out[at + 2] = name[2];
        out[at + 3] = b'0' + co[k];
        if h < 7 {
            out[at + 4] = b' ';
        }
    }
    std::str::from_utf8(out).expect("piece names are ASCII")
}

/// Writes a state's H48 text into `out` (its orientation and centres are not written).
pub fn write<'a>(state: &State, out: &'a mut [u8; LEN]) -> &'a str {
    write_cube(&state.cube(), out)
}

/// A state's H48 text.
///
/// ```
/// use cube_core::Alg;
/// use cube_encode::{State, h48};
/// let state = State::from_alg(&"R' U' F".parse::<Alg>().unwrap());
/// assert_eq!(
///     h48::encode(&state),
///     "FL1 BR0 DB0 UR1 UF0 UB0 DL0 FR0 UL1 DF1 BL0 DR0 UBL1 DBR1 UFR2 DFR2 DFL2 UBR2 UFL2 DBL0"
/// );
/// ```
pub fn encode(state: &State) -> String {
    let mut out = [0u8; LEN];
    write(state, &mut out).to_string()
}
