//! The 54-sticker view of the cube, and the sticker-to-cubie conversion that doubles as the
//! legality check.
//!
//! Facelets are numbered `U1..U9 R1..R9 F1..F9 D1..D9 L1..L9 B1..B9` (0..54), each face read row by
//! row: U with B at the top; R, F, L and B with U at the top (B as seen from behind); D with F at
//! the top. This is the order of Kociemba's facelet strings.

use std::fmt;

use crate::cubie::{Corner, Cube, CubeError, Edge};
use crate::moves::Face;

/// The facelets of each corner position, starting with its U or D sticker, clockwise.
pub(crate) const CORNER_FACELETS: [[usize; 3]; 8] = [
    [8, 9, 20],   // URF: U9 R1 F3
    [6, 18, 38],  // UFL: U7 F1 L3
    [0, 36, 47],  // ULB: U1 L1 B3
    [2, 45, 11],  // UBR: U3 B1 R3
    [29, 26, 15], // DFR: D3 F9 R7
    [27, 44, 24], // DLF: D1 L9 F7
    [33, 53, 42], // DBL: D7 B9 L7
    [35, 17, 51], // DRB: D9 R9 B7
];

/// The facelets of each edge position, the reference sticker first.
pub(crate) const EDGE_FACELETS: [[usize; 2]; 12] = [
    [5, 10],  // UR: U6 R2
    [7, 19],  // UF: U8 F2
    [3, 37],  // UL: U4 L2
    [1, 46],  // UB: U2 B2
    [32, 16], // DR: D6 R8
    [28, 25], // DF: D2 F8
    [30, 43], // DL: D4 L8
    [34, 52], // DB: D8 B8
    [23, 12], // FR: F6 R4
    [21, 41], // FL: F4 L6
    [50, 39], // BL: B6 L4
    [48, 14], // BR: B4 R6
];

/// The colours (faces) of each corner piece, in the order of [`CORNER_FACELETS`].
const CORNER_COLOURS: [[Face; 3]; 8] = {
    use Face::*;
    [
        [U, R, F],
        [U, F, L],
        [U, L, B],
        [U, B, R],
        [D, F, R],
        [D, L, F],
        [D, B, L],
        [D, R, B],
    ]
};

/// The colours (faces) of each edge piece, in the order of [`EDGE_FACELETS`].
const EDGE_COLOURS: [[Face; 2]; 12] = {
    use Face::*;
    [
        [U, R],
        [U, F],
        [U, L],
        [U, B],
        [D, R],
        [D, F],
        [D, L],
        [D, B],
        [F, R],
        [F, L],
        [B, L],
        [B, R],
    ]
};

/// The index of the centre facelet of each face.
const CENTRES: [usize; 6] = [4, 13, 22, 31, 40, 49];

/// No piece: the high bit marks a failed lookup.
const NONE: u8 = 0xff;

/// The face index given to a colour that no centre has, in [`FaceletCube::read_fast`]: lookups
/// with it find [`NONE`].
const UNKNOWN_FACE: u8 = 6;

/// Lookups from sticker faces to pieces, for the fast path of [`FaceletCube::to_cube`]:
/// `corner[f0 * 49 + f1 * 7 + f2]` is `piece | twist << 4` (or [`NONE`]) for the faces (0..6, or
/// [`UNKNOWN_FACE`]) shown at a corner position's three facelets; `edge[f0 * 7 + f1]` is
/// `piece | flip << 4` (or [`NONE`]).
struct PieceTables {
    corner: [u8; 343],
    edge: [u8; 49],
}

const PIECE_TABLES: PieceTables = {
    let mut corner = [NONE; 343];
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
            corner[s0 * 49 + s1 * 7 + s2] = piece as u8 | (twist as u8) << 4;
            twist += 1;
        }
        piece += 1;
    }
    let mut edge = [NONE; 49];
    let mut piece = 0;
    while piece < 12 {
        let c = EDGE_COLOURS[piece];
        edge[c[0] as usize * 7 + c[1] as usize] = piece as u8;
        edge[c[1] as usize * 7 + c[0] as usize] = piece as u8 | 1 << 4;
        piece += 1;
    }
    PieceTables { corner, edge }
};

/// The letters a piece shows, for [`FaceletCube::from_cube`]: `corner[piece * 3 + twist][slot]`
/// is the letter at slot `slot` of the position holding `piece` with `twist`, and
/// `edge[piece * 2 + flip][slot]` the same for edges.
struct StickerTables {
    corner: [[u8; 3]; 24],
    edge: [[u8; 2]; 24],
}

const STICKER_TABLES: StickerTables = {
    let mut corner = [[0u8; 3]; 24];
    let mut piece = 0;
    while piece < 8 {
        let mut twist = 0;
        while twist < 3 {
            let mut slot = 0;
            while slot < 3 {
                corner[piece * 3 + twist][slot] =
                    CORNER_COLOURS[piece][(slot + 3 - twist) % 3].letter() as u8;
                slot += 1;
            }
            twist += 1;
        }
        piece += 1;
    }
    let mut edge = [[0u8; 2]; 24];
    let mut piece = 0;
    while piece < 12 {
        let mut flip = 0;
        while flip < 2 {
            let mut slot = 0;
            while slot < 2 {
                edge[piece * 2 + flip][slot] =
                    EDGE_COLOURS[piece][(slot + flip) % 2].letter() as u8;
                slot += 1;
            }
            flip += 1;
        }
        piece += 1;
    }
    StickerTables { corner, edge }
};

/// The letters of the solved cube: [`FaceletCube::from_cube`] starts from it for the centres.
const SOLVED_LETTERS: [u8; 54] = {
    let mut out = [0u8; 54];
    let mut i = 0;
    while i < 54 {
        out[i] = Face::from_index(i / 9).letter() as u8;
        i += 1;
    }
    out
};

/// The name of facelet `index` (0..54), such as `U1` or `B9`.
pub fn facelet_name(index: usize) -> String {
    format!("{}{}", Face::from_index(index / 9).letter(), index % 9 + 1)
}

/// The 54 stickers of a cube, each a colour byte.
///
/// Any six distinct colour bytes work: the centres define which colour belongs to which face.
/// [`FaceletCube::from_cube`] uses the letters `URFDLB`.
///
/// ```
/// use cube_core::{Cube, FaceletCube, Move};
/// let cube = Cube::SOLVED.apply_move(Move::R1);
/// let facelets = FaceletCube::from_cube(&cube);
/// assert_eq!(facelets.to_string(), "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB");
/// assert_eq!(facelets.to_cube_solvable(), Ok(cube));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FaceletCube {
    colours: [u8; 54],
}

/// Why 54 stickers are not a cube.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaceletError {
    /// Two centres have the same colour (so the six colours cannot be told apart).
    CentresNotDistinct {
        /// The repeated colour.
        colour: char,
        /// The two faces whose centres show it.
        faces: (Face, Face),
    },
    /// Stickers have a colour that no centre has.
    UnknownColour {
        /// The colour.
        colour: char,
        /// The facelets (0..54) that show it.
        facelets: Vec<usize>,
    },
    /// A centre's colour appears other than 9 times.
    ColourCount {
        /// The colour.
        colour: char,
        /// How often it appears.
        count: usize,
    },
    /// The stickers at a corner position are a combination that no corner piece has (for
    /// example two opposite colours, or a mirror-image colour order).
    InvalidCorner {
        /// The corner position.
        position: Corner,
        /// The colours found there, starting with the U or D facelet.
        colours: [char; 3],
    },
    /// The stickers at an edge position are a combination that no edge piece has.
    InvalidEdge {
        /// The edge position.
        position: Edge,
        /// The colours found there.
        colours: [char; 2],
    },
    /// The same corner piece appears at two positions.
    DuplicateCorner {
        /// The piece.
        piece: Corner,
        /// The two positions.
        positions: (Corner, Corner),
    },
    /// The same edge piece appears at two positions.
    DuplicateEdge {
        /// The piece.
        piece: Edge,
        /// The two positions.
        positions: (Edge, Edge),
    },
    /// The corners and edges would all be real pieces if the centres were arranged otherwise:
    /// centres were swapped or turned (a centre cap moved, or the faces written in another
    /// order than U R F D L B).
    CentresMisplaced {
        /// The colours the centres show, in the order U R F D L B.
        found: [char; 6],
        /// Colours for the centres that make every corner and edge a real piece.
        fits: [char; 6],
    },
    /// The pieces are real but the state cannot be reached by turning (twist sum, flip sum,
    /// or parity).
    Unsolvable(CubeError),
}

fn colour_char(c: u8) -> char {
    if c.is_ascii_graphic() {
        c as char
    } else {
        char::REPLACEMENT_CHARACTER
    }
}

impl fmt::Display for FaceletError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaceletError::CentresNotDistinct {
                colour,
                faces: (a, b),
            } => write!(
                f,
                "the {a} and {b} centres are both '{colour}': the six centres must have six different colours"
            ),
            FaceletError::UnknownColour { colour, facelets } => {
                let names: Vec<String> = facelets.iter().map(|&i| facelet_name(i)).collect();
                write!(
                    f,
                    "{} {} '{colour}', a colour that no centre has (each sticker has the colour of one of the six centres)",
                    if names.len() == 1 {
                        "sticker"
                    } else {
                        "stickers"
                    },
                    match names.as_slice() {
                        [one] => format!("{one} is"),
                        [rest @ .., last] => format!("{} and {last} are", rest.join(", ")),
                        [] => "are".to_string(),
                    }
                )
            }
            FaceletError::ColourCount { colour, count } => write!(
                f,
                "colour '{colour}' appears {count} time{}, expected 9 (each colour appears on nine stickers, and only centre colours exist)",
                if *count == 1 { "" } else { "s" }
            ),
            FaceletError::InvalidCorner { position, colours } => write!(
                f,
                "the corner at {} shows colours {}{}{}, which no corner piece has (check the colours of that corner, or a mixed-up colour scheme)",
                position.name(),
                colours[0],
                colours[1],
                colours[2]
            ),
            FaceletError::InvalidEdge { position, colours } => write!(
                f,
                "the edge at {} shows colours {}{}, which no edge piece has",
                position.name(),
                colours[0],
                colours[1]
            ),
            FaceletError::DuplicateCorner {
                piece,
                positions: (a, b),
            } => write!(
                f,
                "corner piece {} appears twice, at {} and at {}",
                piece.name(),
                a.name(),
                b.name()
            ),
            FaceletError::DuplicateEdge {
                piece,
                positions: (a, b),
            } => write!(
                f,
                "edge piece {} appears twice, at {} and at {}",
                piece.name(),
                a.name(),
                b.name()
            ),
            FaceletError::CentresMisplaced { found, fits } => write!(
                f,
                "the centres are not in their places: they show {} (in the order U R F D L B), but the other stickers fit centres {}",
                String::from_iter(found),
                String::from_iter(fits)
            ),
            FaceletError::Unsolvable(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FaceletError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FaceletError::Unsolvable(e) => Some(e),
            _ => None,
        }
    }
}

impl FaceletError {
    /// The rule broken, as a stable kebab-case code for programs (the `rule` of `cube-cli check
    /// --json`, listed in docs/json.md); [`FaceletError::Unsolvable`] has its cubie rule's.
    pub const fn rule(&self) -> &'static str {
        match self {
            FaceletError::CentresNotDistinct { .. } => "centres-not-distinct",
            FaceletError::UnknownColour { .. } => "unknown-colour",
            FaceletError::ColourCount { .. } => "colour-count",
            FaceletError::InvalidCorner { .. } => "invalid-corner",
            FaceletError::InvalidEdge { .. } => "invalid-edge",
            FaceletError::DuplicateCorner { .. } => "duplicate-corner",
            FaceletError::DuplicateEdge { .. } => "duplicate-edge",
            FaceletError::CentresMisplaced { .. } => "centres-misplaced",
            FaceletError::Unsolvable(e) => e.rule(),
        }
    }
}

impl From<CubeError> for FaceletError {
    fn from(e: CubeError) -> FaceletError {
        FaceletError::Unsolvable(e)
    }
}

impl FaceletCube {
    /// Stickers from 54 colour bytes in facelet order. No check is made until
    /// [`FaceletCube::to_cube_solvable`].
    pub const fn new(colours: [u8; 54]) -> FaceletCube {
        FaceletCube { colours }
    }

    /// The colour bytes in facelet order.
    pub const fn colours(&self) -> &[u8; 54] {
        &self.colours
    }

    /// The stickers of a cubie-level state, coloured with the letters `URFDLB`.
    pub fn from_cube(cube: &Cube) -> FaceletCube {
        // Every facelet but the centres is overwritten below.
        let mut colours = SOLVED_LETTERS;
        let (cp, co) = (cube.corner_perm(), cube.corner_ori());
        for i in 0..8 {
            let letters = STICKER_TABLES.corner[cp[i] as usize * 3 + co[i] as usize];
            for slot in 0..3 {
                colours[CORNER_FACELETS[i][slot]] = letters[slot];
            }
        }
        let (ep, eo) = (cube.edge_perm(), cube.edge_ori());
        for i in 0..12 {
            let letters = STICKER_TABLES.edge[ep[i] as usize * 2 + eo[i] as usize];
            for slot in 0..2 {
                colours[EDGE_FACELETS[i][slot]] = letters[slot];
            }
        }
        FaceletCube { colours }
    }

    /// The faces each sticker's colour belongs to, as defined by the centres.
    ///
    /// # Errors
    /// [`FaceletError::CentresNotDistinct`], else the first of [`FaceletError::UnknownColour`]
    /// and [`FaceletError::ColourCount`] that [`FaceletCube::problems`] lists.
    pub fn faces(&self) -> Result<[Face; 54], FaceletError> {
        let mut face_of_colour: [Option<Face>; 256] = [None; 256];
        for face in Face::ALL {
            let colour = self.colours[CENTRES[face.index()]];
            if let Some(other) = face_of_colour[colour as usize] {
                return Err(FaceletError::CentresNotDistinct {
                    colour: colour_char(colour),
                    faces: (other, face),
                });
            }
            face_of_colour[colour as usize] = Some(face);
        }
        if let Some(e) = self.colour_problems().into_iter().next() {
            return Err(e);
        }
        Ok(std::array::from_fn(|i| {
            face_of_colour[self.colours[i] as usize].expect("every colour is a centre's")
        }))
    }

    /// Converts the stickers to cubies, checking that the pieces are real and distinct but not
    /// that the state is solvable (a twisted corner is allowed).
    ///
    /// # Errors
    /// The first problem found, in this order: centre colours, colour counts, each corner and
    /// edge position (invalid or duplicate piece). [`FaceletCube::problems`] lists all of them.
    pub fn to_cube(&self) -> Result<Cube, FaceletError> {
        match self.read_fast() {
            Some(cube) => Ok(cube),
            None => self.read_detailed(),
        }
    }

    /// [`FaceletCube::to_cube`] followed by [`Cube::validate`]: checks every rule of a real cube.
    ///
    /// # Errors
    /// As [`FaceletCube::to_cube`], then twist sum, flip sum and parity
    /// ([`FaceletError::Unsolvable`]).
    pub fn to_cube_solvable(&self) -> Result<Cube, FaceletError> {
        let cube = self.to_cube()?;
        cube.validate()
            .map_err(|e| self.centres_off_home().unwrap_or(e.into()))?;
        Ok(cube)
    }

    /// The reader that names the first problem; [`FaceletCube::read_fast`] agrees with it on
    /// every well-formed cube.
    fn read_detailed(&self) -> Result<Cube, FaceletError> {
        let faces = self.faces()?;
        let pieces = self.read_pieces(&faces);
        if let Some(e) = pieces.errors.into_iter().next() {
            return Err(self.misplaced_centres().unwrap_or(e));
        }
        Ok(Cube::from_parts(pieces.cp, pieces.co, pieces.ep, pieces.eo)
            .expect("pieces were checked to be distinct and in range"))
    }

    /// Every problem with the stickers, for reports that list all the rules a cube breaks.
    ///
    /// Centre and colour-count problems come alone (the pieces cannot be read without them);
    /// otherwise every invalid or duplicate piece is listed, and, if the pieces are all real,
    /// every solvability rule broken. Empty for a legal cube.
    pub fn problems(&self) -> Vec<FaceletError> {
        let faces = match self.faces() {
            Ok(faces) => faces,
            Err(e @ FaceletError::CentresNotDistinct { .. }) => return vec![e],
            Err(_) => return self.colour_problems(),
        };
        let pieces = self.read_pieces(&faces);
        if !pieces.errors.is_empty() {
            // Moved centres make most pieces look impossible: name the one cause instead.
            return match self.misplaced_centres() {
                Some(e) => vec![e],
                None => pieces.errors,
            };
        }
        let violations = Cube::from_parts(pieces.cp, pieces.co, pieces.ep, pieces.eo)
            .expect("pieces were checked to be distinct and in range")
            .violations();
        match self.centres_off_home() {
            Some(e) if !violations.is_empty() => vec![e],
            _ => violations
                .into_iter()
                .map(FaceletError::Unsolvable)
                .collect(),
        }
    }

    /// [`FaceletError::CentresMisplaced`] for stickers in the letters `URFDLB` whose centres
    /// are turned or swapped away from home while the other stickers make a solvable cube
    /// around the centres at home. (Turned centres alone leave every piece real, so only the
    /// letters tell where home is; with other colours the cube is merely unsolvable.)
    fn centres_off_home(&self) -> Option<FaceletError> {
        let found = CENTRES.map(|c| self.colours[c]);
        let mut sorted = found;
        sorted.sort_unstable();
        let mut letters = *b"URFDLB";
        letters.sort_unstable();
        if found == *b"URFDLB" || sorted != letters {
            return None;
        }
        let mut colours = self.colours;
        for (face, c) in CENTRES.into_iter().zip(*b"URFDLB") {
            colours[face] = c;
        }
        let home = FaceletCube::new(colours).read_fast()?;
        home.validate().ok()?;
        Some(FaceletError::CentresMisplaced {
            found: found.map(colour_char),
            fits: ['U', 'R', 'F', 'D', 'L', 'B'],
        })
    }

    /// The table-driven reader: `Some` only for stickers that are well-formed pieces; anything
    /// else goes through the reader that names the problem. (Colour counts need no check here:
    /// 20 distinct real pieces and six distinct centres use every colour exactly nine times.)
    ///
    /// Every facelet but the centres belongs to exactly one corner or edge position, so the
    /// piece lookups see every sticker: a colour that no centre has becomes [`UNKNOWN_FACE`],
    /// which no piece shows, and the lookup finds [`NONE`].
    #[inline]
    fn read_fast(&self) -> Option<Cube> {
        let mut face_of = [UNKNOWN_FACE; 256];
        let mut repeated = false;
        for (face, &c) in CENTRES.iter().enumerate() {
            let colour = self.colours[c] as usize;
            repeated |= face_of[colour] != UNKNOWN_FACE;
            face_of[colour] = face as u8;
        }
        if repeated {
            return None;
        }
        let face = |i: usize| face_of[self.colours[i] as usize] as usize;
        let corner = |i: usize| {
            let [a, b, c] = CORNER_FACELETS[i];
            PIECE_TABLES.corner[face(a) * 49 + face(b) * 7 + face(c)]
        };
        let edge = |i: usize| {
            let [a, b] = EDGE_FACELETS[i];
            PIECE_TABLES.edge[face(a) * 7 + face(b)]
        };
        // Written out rather than looped, so that every facelet index is a constant.
        let corners = [
            corner(0),
            corner(1),
            corner(2),
            corner(3),
            corner(4),
            corner(5),
            corner(6),
            corner(7),
        ];
        let edges = [
            edge(0),
            edge(1),
            edge(2),
            edge(3),
            edge(4),
            edge(5),
            edge(6),
            edge(7),
            edge(8),
            edge(9),
            edge(10),
            edge(11),
        ];
        let (mut seen, mut bad) = (0u32, 0u8);
        for v in corners {
            bad |= v;
            seen |= 1 << (v & 7);
        }
        for v in edges {
            bad |= v;
            seen |= 1 << (8 + (v & 15) as u32);
        }
        if bad & 0x80 != 0 || seen != (1 << 20) - 1 {
            return None;
        }
        let cp = corners.map(|v| v & 7);
        let co = corners.map(|v| (v >> 4) & 3);
        let ep = edges.map(|v| v & 15);
        let eo = edges.map(|v| (v >> 4) & 1);
        Cube::from_parts(cp, co, ep, eo).ok()
    }

    /// [`FaceletError::CentresMisplaced`] when some other arrangement of the six centre colours
    /// makes every corner and edge a real, distinct piece: the one that moves fewest centres
    /// (the first in a fixed order among those, so the answer is stable). Only called on
    /// stickers whose pieces do not read.
    fn misplaced_centres(&self) -> Option<FaceletError> {
        let found = CENTRES.map(|c| self.colours[c]);
        // Every arrangement of the six centres: `n` in base 6 is one, if its digits differ.
        let fits = (0..6usize.pow(6)).filter_map(|n| {
            let order: [usize; 6] = std::array::from_fn(|i| n / 6usize.pow(i as u32) % 6);
            let distinct = order.iter().fold(0u8, |seen, &i| seen | 1 << i) == 0x3f;
            if !distinct || order == [0, 1, 2, 3, 4, 5] {
                return None;
            }
            let mut colours = self.colours;
            for (face, &from) in order.iter().enumerate() {
                colours[CENTRES[face]] = found[from];
            }
            FaceletCube::new(colours).read_fast().map(|_| order)
        });
        let moved = |order: &[usize; 6]| order.iter().enumerate().filter(|(i, o)| i != *o).count();
        fits.min_by_key(moved)
            .map(|order| FaceletError::CentresMisplaced {
                found: found.map(colour_char),
                fits: order.map(|i| colour_char(found[i])),
            })
    }

    /// The colour problems of stickers with six distinct centres, in order of first appearance:
    /// each colour that no centre has, with its stickers, and each centre colour on other than
    /// nine stickers; but a centre colour on fewer is not named beside an unknown colour, as
    /// the unknown stickers are most likely its own.
    fn colour_problems(&self) -> Vec<FaceletError> {
        let mut counts = [0usize; 256];
        for &c in &self.colours {
            counts[c as usize] += 1;
        }
        let mut is_centre = [false; 256];
        for centre in CENTRES {
            is_centre[self.colours[centre] as usize] = true;
        }
        let unknown = self.colours.iter().any(|&c| !is_centre[c as usize]);
        let mut reported = [false; 256];
        let mut out = Vec::new();
        for &c in &self.colours {
            let (colour, count) = (colour_char(c), counts[c as usize]);
            if std::mem::replace(&mut reported[c as usize], true) {
                continue;
            }
            if !is_centre[c as usize] {
                let facelets = (0..54).filter(|&i| self.colours[i] == c).collect();
                out.push(FaceletError::UnknownColour { colour, facelets });
            } else if count > 9 || (count < 9 && !unknown) {
                out.push(FaceletError::ColourCount { colour, count });
            }
        }
        out
    }

    /// Reads every corner and edge position independently, collecting every problem.
    fn read_pieces(&self, faces: &[Face; 54]) -> Pieces {
        let mut pieces = Pieces {
            cp: [0; 8],
            co: [0; 8],
            ep: [0; 12],
            eo: [0; 12],
            errors: Vec::new(),
        };
        let mut corner_at: [Option<Corner>; 8] = [None; 8];
        for position in Corner::ALL {
            let i = position as usize;
            let stickers = CORNER_FACELETS[i].map(|f| faces[f]);
            let found = stickers
                .iter()
                .position(|&f| f == Face::U || f == Face::D)
                .and_then(|ori| {
                    let rotated = [
                        stickers[ori],
                        stickers[(ori + 1) % 3],
                        stickers[(ori + 2) % 3],
                    ];
                    CORNER_COLOURS
                        .iter()
                        .position(|c| *c == rotated)
                        .map(|piece| (piece, ori))
                });
            let Some((piece, ori)) = found else {
                let colours = CORNER_FACELETS[i].map(|f| colour_char(self.colours[f]));
                pieces
                    .errors
                    .push(FaceletError::InvalidCorner { position, colours });
                continue;
            };
            match corner_at[piece] {
                Some(other) => pieces.errors.push(FaceletError::DuplicateCorner {
                    piece: Corner::ALL[piece],
                    positions: (other, position),
                }),
                None => corner_at[piece] = Some(position),
            }
            pieces.cp[i] = piece as u8;
            pieces.co[i] = ori as u8;
        }
        let mut edge_at: [Option<Edge>; 12] = [None; 12];
        for position in Edge::ALL {
            let i = position as usize;
            let stickers = EDGE_FACELETS[i].map(|f| faces[f]);
            let found = EDGE_COLOURS.iter().enumerate().find_map(|(piece, c)| {
                if *c == stickers {
                    Some((piece, 0))
                } else if *c == [stickers[1], stickers[0]] {
                    Some((piece, 1))
                } else {
                    None
                }
            });
            let Some((piece, flip)) = found else {
                let colours = EDGE_FACELETS[i].map(|f| colour_char(self.colours[f]));
                pieces
                    .errors
                    .push(FaceletError::InvalidEdge { position, colours });
                continue;
            };
            match edge_at[piece] {
                Some(other) => pieces.errors.push(FaceletError::DuplicateEdge {
                    piece: Edge::ALL[piece],
                    positions: (other, position),
                }),
                None => edge_at[piece] = Some(position),
            }
            pieces.ep[i] = piece as u8;
            pieces.eo[i] = flip;
        }
        pieces
    }
}

/// The pieces read from stickers, and every problem met reading them.
struct Pieces {
    cp: [u8; 8],
    co: [u8; 8],
    ep: [u8; 12],
    eo: [u8; 12],
    errors: Vec<FaceletError>,
}

impl fmt::Display for FaceletCube {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &c in &self.colours {
            write!(f, "{}", colour_char(c))?;
        }
        Ok(())
    }
}

impl fmt::Debug for FaceletCube {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FaceletCube({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::SeedableRng;

    proptest! {
        /// Stickers mutated at random: the fast reader accepts exactly what the detailed one
        /// accepts, with the same cube.
        #[test]
        fn fast_reader_agrees_with_detailed_reader(
            seed in any::<u64>(),
            edits in proptest::collection::vec((0usize..54, 0usize..7), 0..3),
        ) {
            let cube = Cube::random(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
            let mut colours = *FaceletCube::from_cube(&cube).colours();
            for (at, letter) in edits {
                colours[at] = b"URFDLBX"[letter];
            }
            let stickers = FaceletCube::new(colours);
            prop_assert_eq!(stickers.read_fast().ok_or(()), stickers.read_detailed().map_err(|_| ()));
        }
    }
}
