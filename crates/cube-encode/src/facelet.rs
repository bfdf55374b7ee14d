//! Facelet strings: 54 stickers in Kociemba's order `U1..U9 R1..R9 F1..F9 D1..D9 L1..L9 B1..B9`.
//!
//! Written in the letters `URFDLB` (the face each sticker's colour belongs to in the solved
//! cube). Read in any six ASCII colour characters: the centres say which colour is which face.
//! When the centres show the letters `URFDLB` somewhere other than home, the cube has been
//! rotated, and the rotation becomes the state's orientation; with other colours the
//! orientation is unknown (`None`).
//!
//! Reading uses cube-core's [`FaceletCube`] rules (distinct centres, nine of each colour,
//! real and distinct pieces; and solvability in strict mode). A table-driven fast path reads
//! legal strings without allocating; anything it does not accept goes through
//! [`FaceletCube::to_cube_unchecked`], which names the problem.

use cube_core::{Cube, Face, FaceletCube, Symmetry};

use crate::error::DecodeError;
use crate::reid;
use crate::state::State;

/// The number of facelets.
pub const LEN: usize = 54;

/// The facelets of each Kociemba corner position, its U or D sticker first, clockwise (as in
/// cube-core's `facelet.rs`; the tests check that both agree).
const CORNER_FACELETS: [[usize; 3]; 8] = [
    [8, 9, 20],
    [6, 18, 38],
    [0, 36, 47],
    [2, 45, 11],
    [29, 26, 15],
    [27, 44, 24],
    [33, 53, 42],
    [35, 17, 51],
];
/// The facelets of each Kociemba edge position, the reference sticker first.
const EDGE_FACELETS: [[usize; 2]; 12] = [
    [5, 10],
    [7, 19],
    [3, 37],
    [1, 46],
    [32, 16],
    [28, 25],
    [30, 43],
    [34, 52],
    [23, 12],
    [21, 41],
    [50, 39],
    [48, 14],
];
/// The faces of each corner piece, in the order of [`CORNER_FACELETS`].
const CORNER_COLOURS: [[u8; 3]; 8] = [
    [0, 1, 2],
    [0, 2, 4],
    [0, 4, 5],
    [0, 5, 1],
    [3, 2, 1],
    [3, 4, 2],
    [3, 5, 4],
    [3, 1, 5],
];
/// The faces of each edge piece.
const EDGE_COLOURS: [[u8; 2]; 12] = [
    [0, 1],
    [0, 2],
    [0, 4],
    [0, 5],
    [3, 1],
    [3, 2],
    [3, 4],
    [3, 5],
    [2, 1],
    [2, 4],
    [5, 4],
    [5, 1],
];
const CENTRES: [usize; 6] = [4, 13, 22, 31, 40, 49];
const NONE: u8 = 0xff;

/// Lookup tables from sticker faces to pieces: `corner[f0 * 36 + f1 * 6 + f2]` is
/// `piece | twist << 4` or [`NONE`]; `edge[f0 * 6 + f1]` is `piece | flip << 4` or [`NONE`].
struct PieceTables {
    corner: [u8; 216],
    edge: [u8; 36],
}

const PIECE_TABLES: PieceTables = {
    let mut corner = [NONE; 216];
    let mut piece = 0;
    while piece < 8 {
        let c = CORNER_COLOURS[piece];
        let mut twist = 0;
        while twist < 3 {
            // With twist t, the piece's sticker n sits at slot (n + t) % 3, so slot s shows
            // sticker (s + 3 - t) % 3.
            let s0 = c[(3 - twist) % 3] as usize;
            let s1 = c[(4 - twist) % 3] as usize;
            let s2 = c[(5 - twist) % 3] as usize;
            corner[s0 * 36 + s1 * 6 + s2] = piece as u8 | (twist as u8) << 4;
            twist += 1;
        }
        piece += 1;
    }
    let mut edge = [NONE; 36];
    let mut piece = 0;
    while piece < 12 {
        let c = EDGE_COLOURS[piece];
        edge[c[0] as usize * 6 + c[1] as usize] = piece as u8;
        edge[c[1] as usize * 6 + c[0] as usize] = piece as u8 | 1 << 4;
        piece += 1;
    }
    PieceTables { corner, edge }
};

/// The fast path: `Some` only for 54 bytes that are a well-formed cube.
#[inline]
fn read_fast(bytes: &[u8; LEN]) -> Option<Cube> {
    let mut face_of = [NONE; 256];
    for (face, &c) in CENTRES.iter().enumerate() {
        let colour = bytes[c] as usize;
        if face_of[colour] != NONE {
            return None;
        }
        face_of[colour] = face as u8;
    }
    let mut faces = [0u8; LEN];
    let mut bad = 0u8;
    for i in 0..LEN {
        let f = face_of[bytes[i] as usize];
        bad |= f;
        faces[i] = f;
    }
    // Faces are 0..6; NONE has the high bit set.
    if bad & 0x80 != 0 {
        return None;
    }
    let mut cp = [0u8; 8];
    let mut co = [0u8; 8];
    let mut ep = [0u8; 12];
    let mut eo = [0u8; 12];
    let mut seen = 0u32;
    let mut bad = 0u8;
    for i in 0..8 {
        let [a, b, c] = CORNER_FACELETS[i];
        let key = faces[a] as usize * 36 + faces[b] as usize * 6 + faces[c] as usize;
        let v = PIECE_TABLES.corner[key];
        bad |= v;
        cp[i] = v & 7;
        co[i] = (v >> 4) & 3;
        seen |= 1 << (v & 7);
    }
    for i in 0..12 {
        let [a, b] = EDGE_FACELETS[i];
        let v = PIECE_TABLES.edge[faces[a] as usize * 6 + faces[b] as usize];
        bad |= v;
        ep[i] = v & 15;
        eo[i] = (v >> 4) & 1;
        seen |= 1 << (8 + (v & 15) as u32);
    }
    if bad & 0x80 != 0 || seen != (1 << 20) - 1 {
        return None;
    }
    Cube::from_parts(cp, co, ep, eo).ok()
}

/// The 54 bytes of a facelet string: surrounding ASCII whitespace is trimmed.
fn bytes_of(text: &str) -> Result<[u8; LEN], DecodeError> {
    let trimmed = text.trim_ascii();
    if trimmed.is_empty() {
        return Err(DecodeError::Empty);
    }
    let offset = trimmed.as_ptr() as usize - text.as_ptr() as usize;
    if let Some(i) = trimmed.bytes().position(|b| !b.is_ascii()) {
        return Err(DecodeError::NonAscii {
            column: offset + i + 1,
        });
    }
    trimmed
        .as_bytes()
        .try_into()
        .map_err(|_| DecodeError::WrongLength {
            unit: "facelets",
            expected: LEN,
            found: trimmed.len(),
        })
}

/// The rotation the centres show, if they are the letters `URFDLB`.
fn orientation_of(bytes: &[u8; LEN]) -> Result<Option<Symmetry>, DecodeError> {
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

fn read(text: &str, strict: bool) -> Result<State, DecodeError> {
    let bytes = bytes_of(text)?;
    let seen = match read_fast(&bytes) {
        Some(cube) => cube,
        None => FaceletCube::new(bytes).to_cube_unchecked()?,
    };
    if strict {
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

/// Reads a facelet string whose pieces are real and distinct; the state may be unsolvable.
///
/// # Errors
/// [`DecodeError::Empty`], [`DecodeError::NonAscii`], [`DecodeError::WrongLength`] (not 54
/// characters after trimming), [`DecodeError::Facelet`] (cube-core's reason), or
/// [`DecodeError::CentresNotARotation`].
pub fn decode(text: &str) -> Result<State, DecodeError> {
    read(text, false)
}

/// Reads a facelet string of a state reachable by turning.
///
/// # Errors
/// As [`decode`], and [`DecodeError::Facelet`] with
/// [`FaceletError::Unsolvable`](cube_core::FaceletError::Unsolvable).
pub fn decode_strict(text: &str) -> Result<State, DecodeError> {
    read(text, true)
}

/// The stickers of `cube` turned by `rotation`, from precomputed tables.
pub(crate) fn in_frame(cube: &Cube, rotation: Symmetry) -> FaceletCube {
    if rotation == Symmetry::IDENTITY {
        return FaceletCube::from_cube(cube);
    }
    let colours = FaceletCube::from_cube(cube);
    let map = &reid::rotations().facelet_map[rotation.index() % 24];
    let mut out = [0u8; LEN];
    for (p, &c) in colours.colours().iter().enumerate() {
        out[map[p] as usize] = c;
    }
    FaceletCube::new(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_path_agrees_with_cube_core_on_every_face_turn_pair() {
        for a in cube_core::Move::ALL {
            for b in cube_core::Move::ALL {
                let cube = Cube::from_move(a).apply_move(b);
                let f = FaceletCube::from_cube(&cube);
                assert_eq!(read_fast(f.colours()), Some(cube));
            }
        }
    }
}
