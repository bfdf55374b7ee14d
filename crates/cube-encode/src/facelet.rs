//! Facelet strings: 54 stickers in Kociemba's order `U1..U9 R1..R9 F1..F9 D1..D9 L1..L9 B1..B9`.
//!
//! Written in the letters `URFDLB` (the face each sticker's colour belongs to in the solved
//! cube). Read in any six ASCII colour characters: the centres say which colour is which face.
//! When the centres show the letters `URFDLB` somewhere other than home, the cube has been
//! rotated, and the rotation becomes the state's orientation; with other colours the
//! orientation is unknown (`None`).
//!
//! Reading uses cube-core's [`FaceletCube`] rules (distinct centres, nine of each colour,
//! real and distinct pieces; and solvability in [`decode_solvable`]): legal strings are read by its
//! table-driven fast path without allocating.

use cube_core::{Face, FaceletCube, FaceletError, Symmetry};

use crate::error::DecodeError;
use crate::problem::{Problem, sticker_problems};
use crate::reid;
use crate::state::State;

/// The number of facelets.
pub const LEN: usize = 54;

/// The index of the centre facelet of each face, in the order U R F D L B.
const CENTRES: [usize; 6] = [4, 13, 22, 31, 40, 49];

/// The 54 bytes of a facelet string: ASCII whitespace around and between them is skipped, so
/// that facelets grouped by face or written one face per line read too.
fn bytes_of(text: &str) -> Result<[u8; LEN], DecodeError> {
    if let Some(i) = text.bytes().position(|b| !b.is_ascii()) {
        return Err(DecodeError::NonAscii { column: i + 1 });
    }
    let mut out = [0u8; LEN];
    let mut found = 0;
    for b in text.bytes().filter(|b| !b.is_ascii_whitespace()) {
        if let Some(slot) = out.get_mut(found) {
            *slot = b;
        }
        found += 1;
    }
    match found {
        0 => Err(DecodeError::Empty),
        LEN => Ok(out),
        _ => Err(DecodeError::WrongLength {
            unit: "facelets",
            expected: LEN,
            found,
        }),
    }
}

/// The rotation the centres show, if they are the letters `URFDLB`.
#[inline]
fn orientation_of(bytes: &[u8; LEN]) -> Result<Option<Symmetry>, DecodeError> {
    // The common case first: the letters at home.
    if CENTRES.map(|c| bytes[c]) == *b"URFDLB" {
        return Ok(Some(Symmetry::IDENTITY));
    }
    orientation_of_rotated(bytes)
}

/// [`orientation_of`] when the centres are not `URFDLB` at home.
fn orientation_of_rotated(bytes: &[u8; LEN]) -> Result<Option<Symmetry>, DecodeError> {
    let mut on = [Face::U; 6];
    for (face, &c) in CENTRES.iter().enumerate() {
        match Face::from_letter(bytes[c] as char) {
            Some(letter) => on[face] = letter,
            None => return Ok(None),
        }
    }
    let rot = reid::rotations();
    match rot.center_on.iter().position(|c| *c == on) {
        Some(i) => Ok(Some(Symmetry::from_index(i))),
        // Six distinct letters in a mirror arrangement; repeated letters fail elsewhere.
        None => {
            let mut seen = 0u8;
            for f in on {
                seen |= 1 << f.index();
            }
            if seen == 0x3f {
                Err(DecodeError::CentresNotARotation)
            } else {
                Ok(None)
            }
        }
    }
}

fn read(text: &str, solvable: bool) -> Result<State, DecodeError> {
    let bytes = bytes_of(text)?;
    let seen = FaceletCube::new(bytes).to_cube()?;
    if solvable {
        seen.validate()
            .map_err(|e| DecodeError::Facelet(cube_core::FaceletError::Unsolvable(e)))?;
    }
    let orientation = orientation_of(&bytes)?;
    // What the stickers show is the state in the rotated frame; undo the rotation.
    let cube = match orientation {
        Some(r) if r != Symmetry::IDENTITY => r.conjugate(&seen),
        _ => seen,
    };
    Ok(State::new(cube).with_orientation(orientation))
}

/// Every problem of a facelet string ([`check_as`](crate::check_as)): its stickers', and
/// centres in the letters `URFDLB` that no rotation gives, unless the stickers fit centres
/// placed otherwise (which says more).
pub(crate) fn problems(text: &str) -> Result<Vec<Problem>, DecodeError> {
    let bytes = bytes_of(text)?;
    let mut problems = sticker_problems(&FaceletCube::new(bytes));
    let misplaced = problems
        .iter()
        .any(|p| matches!(p, Problem::Stickers(FaceletError::CentresMisplaced { .. })));
    if !misplaced && orientation_of(&bytes).is_err() {
        problems.insert(0, Problem::CentresNotARotation);
    }
    Ok(problems)
}

/// Reads a facelet string whose pieces are real and distinct; the state may be unsolvable.
///
/// # Errors
/// [`DecodeError::Empty`], [`DecodeError::NonAscii`], [`DecodeError::WrongLength`] (not 54
/// characters besides whitespace), [`DecodeError::Facelet`] (cube-core's reason), or
/// [`DecodeError::CentresNotARotation`].
pub fn decode(text: &str) -> Result<State, DecodeError> {
    read(text, false)
}

/// Reads a facelet string of a state reachable by turning.
///
/// # Errors
/// As [`decode`], and [`DecodeError::Facelet`] with
/// [`cube_core::FaceletError::Unsolvable`].
pub fn decode_solvable(text: &str) -> Result<State, DecodeError> {
    read(text, true)
}

/// Writes the 54 letters `URFDLB` of a state into `out`: the stickers as they are in space
/// (no orientation is written as the identity). Centres are not written.
pub fn write<'a>(state: &State, out: &'a mut [u8; LEN]) -> &'a str {
    *out = *state.facelets().colours();
    std::str::from_utf8(out).expect("face letters are ASCII")
}

/// The 54 letters `URFDLB` of a state.
///
/// ```
/// use cube_core::Alg;
/// use cube_encode::{State, facelet};
/// let state = State::from_alg(&"x".parse::<Alg>().unwrap());
/// assert_eq!(facelet::encode(&state), "FFFFFFFFFRRRRRRRRRDDDDDDDDDBBBBBBBBBLLLLLLLLLUUUUUUUUU");
/// assert_eq!(facelet::decode(&facelet::encode(&state)), Ok(state));
/// ```
pub fn encode(state: &State) -> String {
    let mut out = [0u8; LEN];
    write(state, &mut out).to_string()
}
