//! The one error type of every decoder, [`DecodeError`].

use std::fmt;

use cube_core::{CubeError, FaceletError, ParseError};

use crate::format::Format;
use crate::problem::Problem;

/// A field of the Twizzle binary format, named in errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// Edge permutation, lexicographic rank (29 bits, `< 12!`).
    Ep,
    /// Edge orientation mask (12 bits).
    Eo,
    /// Corner permutation, lexicographic rank (16 bits, `< 8!`).
    Cp,
    /// Corner orientation, base 3 (13 bits, `< 3^8`).
    Co,
    /// Puzzle orientation: the centre on U (3 bits, `< 6` or `7`).
    PoU,
    /// Puzzle orientation: the centre on L among the four side centres (2 bits).
    PoL,
    /// Whether centre orientation is encoded (1 bit).
    MoQ,
    /// Centre orientation, base 4 (12 bits).
    Mo,
}

impl Field {
    /// The field's name in the Twizzle binary specification (`EP`, `PO_U`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Field::Ep => "EP",
            Field::Eo => "EO",
            Field::Cp => "CP",
            Field::Co => "CO",
            Field::PoU => "PO_U",
            Field::PoL => "PO_L",
            Field::MoQ => "MO_Q",
            Field::Mo => "MO",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an input is not a cube state in the format asked for.
///
/// Positions in text are 1-based columns counted in bytes (every valid input is ASCII).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// The input is empty or only whitespace.
    Empty,
    /// The input has the wrong size: `found` units where the format has exactly `expected`.
    WrongLength {
        /// What is counted: `"bytes"`, `"hex digits"`, `"facelets"`, `"records"`...
        unit: &'static str,
        /// The size the format requires (for batches: a multiple of it).
        expected: usize,
        /// The size found.
        found: usize,
    },
    /// A byte that is not ASCII, where the format is ASCII only.
    NonAscii {
        /// 1-based column of the byte.
        column: usize,
    },
    /// A character that is neither a hex digit nor whitespace in Twizzle hex.
    BadHexDigit {
        /// 1-based column.
        column: usize,
        /// The character found.
        found: char,
    },
    /// A Twizzle binary field holds a value outside its range.
    FieldOutOfRange {
        /// The field.
        field: Field,
        /// The value found.
        value: u32,
    },
    /// [`twizzle::decode_solvable`](crate::twizzle::decode_solvable): a field the format ignores
    /// is not zero (PO_L with PO_U = 7, or MO with MO_Q = 0), so the bytes are not the canonical
    /// encoding of their state.
    NonCanonical {
        /// The field.
        field: Field,
        /// The value found.
        value: u32,
    },
    /// H48: a token that names no piece (or the wrong kind of piece) at this place.
    UnknownPiece {
        /// The text found (up to the piece name's length).
        token: String,
        /// 1-based column where it starts.
        column: usize,
    },
    /// H48 or B32: a piece named twice.
    DuplicatePiece {
        /// The piece's canonical H48 name.
        piece: &'static str,
        /// 1-based column of the second occurrence.
        column: usize,
    },
    /// H48: an orientation digit that is not 0/1 (edges) or 0/1/2 (corners).
    BadOrientation {
        /// The piece's canonical H48 name.
        piece: &'static str,
        /// The character found instead of a digit (`'\0'` at the end of the input).
        found: char,
        /// 1-based column.
        column: usize,
    },
    /// H48: the input ends before all 20 pieces are read.
    MissingPieces {
        /// How many pieces were read.
        found: usize,
        /// How many the format has (20).
        expected: usize,
    },
    /// B32: the text is not 8 letters, `=`, 12 letters and optionally `=` and one letter.
    B32Groups {
        /// The length in bytes of each group between the `=` signs (one group: no `=`).
        found: Vec<usize>,
    },
    /// B32: a character that is not a B32 letter (`A`-`Z`, `a`-`f`).
    B32Letter {
        /// 1-based column.
        column: usize,
        /// The character found.
        found: char,
    },
    /// B32: a letter that is no corner (a twist of 3) or no edge (a number 12 to 15).
    B32Piece {
        /// 1-based column.
        column: usize,
        /// The letter found.
        found: char,
        /// The number it stands for (0 to 31).
        value: u8,
        /// Whether a corner was due there (else an edge).
        corner: bool,
    },
    /// B32: an orientation letter after `X` (there are 24 orientations).
    B32Orientation {
        /// 1-based column.
        column: usize,
        /// The character found.
        found: char,
    },
    /// Something other than whitespace after a complete state.
    TrailingGarbage {
        /// 1-based column where it starts.
        column: usize,
    },
    /// The pieces are not a cube state ([`Cube::from_parts`](cube_core::Cube::from_parts)
    /// failed), or, in a `decode_solvable` reader, the state is not solvable.
    Illegal(CubeError),
    /// The stickers are not a cube ([`FaceletCube`](cube_core::FaceletCube)'s legality check).
    Facelet(FaceletError),
    /// The centres are in an arrangement no rotation makes (facelets: the face letters `URFDLB`
    /// in a mirror image; pattern JSON: a mirror image or a centre twice), so the puzzle
    /// orientation is meaningless.
    CentresNotARotation,
    /// A `decode_solvable` reader: the centre orientations are impossible on a real supercube (each quarter
    /// turn changes both the corner permutation parity and the parity of the centre turns).
    CentreParity,
    /// The text is not an algorithm.
    Alg(ParseError),
    /// The text is not JSON.
    Json(String),
    /// The JSON is not a 3x3x3 pattern.
    BadPattern {
        /// Where in the document, such as `EDGES.pieces`.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// Detection: the text has the shape of `format` ([`shape`](crate::shape); no shape
    /// means an algorithm), and that format's reader refused it.
    Detected {
        /// The format assumed.
        format: Format,
        /// Its reader's error.
        error: Box<DecodeError>,
    },
    /// A batch: record `index` is bad.
    Record {
        /// 0-based index of the record.
        index: usize,
        /// What is wrong with it.
        error: Box<DecodeError>,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Empty => write!(f, "the input is empty"),
            DecodeError::WrongLength {
                unit,
                expected,
                found,
            } => write!(f, "found {found} {unit}, expected {expected}"),
            DecodeError::NonAscii { column } => {
                write!(f, "column {column}: non-ASCII character")
            }
            DecodeError::BadHexDigit { column, found } => {
                write!(f, "column {column}: {found:?} is not a hex digit")
            }
            DecodeError::FieldOutOfRange { field, value } => {
                let range = match field {
                    Field::Ep => "must be less than 12! = 479001600",
                    Field::Cp => "must be less than 8! = 40320",
                    Field::Co => "must be less than 3^8 = 6561",
                    Field::PoU => "must be 0..=5, or 7 for no orientation",
                    Field::PoL => "must be 0..=3",
                    Field::Mo => "must be less than 4^6 = 4096",
                    Field::Eo | Field::MoQ => "is out of range",
                };
                write!(f, "Twizzle binary field {field} is {value}, but it {range}")
            }
            DecodeError::NonCanonical { field, value } => write!(
                f,
                "Twizzle binary field {field} is {value}, but it is ignored here and must be 0 in a canonical encoding"
            ),
            DecodeError::UnknownPiece { token, column } => {
                write!(f, "column {column}: {token:?} is not a piece name here")
            }
            DecodeError::DuplicatePiece { piece, column } => {
                write!(f, "column {column}: piece {piece} appears twice")
            }
            DecodeError::BadOrientation {
                piece,
                found,
                column,
            } => {
                let allowed = if piece.len() == 2 {
                    "0 or 1"
                } else {
                    "0, 1 or 2"
                };
                if *found == '\0' {
                    write!(
                        f,
                        "column {column}: piece {piece} has no orientation digit ({allowed})"
                    )
                } else {
                    write!(
                        f,
                        "column {column}: piece {piece} has orientation {found:?}, expected {allowed}"
                    )
                }
            }
            DecodeError::MissingPieces { found, expected } => {
                write!(f, "found {found} pieces, expected {expected}")
            }
            DecodeError::TrailingGarbage { column } => {
                write!(f, "column {column}: unexpected text after a complete state")
            }
            DecodeError::B32Groups { found } => {
                let found = match found.as_slice() {
                    [n] => format!("{n} characters and no '='"),
                    [rest @ .., last] => format!(
                        "groups of {} and {last} characters",
                        rest.iter()
                            .map(usize::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    [] => "nothing".to_string(),
                };
                write!(
                    f,
                    "expected 8 corner letters, '=', 12 edge letters, then '=' and an orientation letter (B32: cccccccc=eeeeeeeeeeee=o), found {found}"
                )
            }
            DecodeError::B32Letter { column, found } => {
                write!(
                    f,
                    "column {column}: {found:?} is not a B32 letter (A-Z, a-f)"
                )
            }
            DecodeError::B32Piece {
                column,
                found,
                value,
                corner: true,
            } => write!(
                f,
                "column {column}: {found:?} ({value}) is not a corner: a corner is its number 0-7, plus 8 if twisted clockwise or 16 if counter-clockwise (A-X)"
            ),
            DecodeError::B32Piece {
                column,
                found,
                value,
                corner: false,
            } => write!(
                f,
                "column {column}: {found:?} ({value}) is not an edge: an edge is its number 0-11, plus 16 if flipped (A-L, Q-Z, a, b)"
            ),
            DecodeError::B32Orientation { column, found } => write!(
                f,
                "column {column}: {found:?} is not a B32 orientation (A-X, for the 24 orientations)"
            ),
            DecodeError::Illegal(e) => write!(f, "illegal cube: {e}"),
            DecodeError::Facelet(e) => write!(f, "illegal cube: {e}"),
            DecodeError::CentresNotARotation => write!(f, "{}", Problem::CentresNotARotation),
            DecodeError::CentreParity => write!(f, "{}", Problem::CentreParity),
            DecodeError::Alg(e) => write!(f, "not an algorithm: {e}"),
            DecodeError::Json(e) => write!(f, "not JSON: {e}"),
            DecodeError::BadPattern { path, reason } => {
                write!(f, "not a 3x3x3 pattern: {path}: {reason}")
            }
            DecodeError::Detected { format, error } => write!(f, "as {format}: {error}"),
            DecodeError::Record { index, error } => write!(f, "record {index}: {error}"),
        }
    }
}

impl DecodeError {
    /// The 1-based column the error points at, when it points at one.
    pub fn column(&self) -> Option<usize> {
        match self {
            DecodeError::NonAscii { column }
            | DecodeError::BadHexDigit { column, .. }
            | DecodeError::UnknownPiece { column, .. }
            | DecodeError::DuplicatePiece { column, .. }
            | DecodeError::BadOrientation { column, .. }
            | DecodeError::TrailingGarbage { column }
            | DecodeError::B32Letter { column, .. }
            | DecodeError::B32Piece { column, .. }
            | DecodeError::B32Orientation { column, .. } => Some(*column),
            DecodeError::Alg(e) => Some(e.column()),
            DecodeError::Detected { error, .. } => error.column(),
            _ => None,
        }
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DecodeError::Illegal(e) => Some(e),
            DecodeError::Facelet(e) => Some(e),
            DecodeError::Alg(e) => Some(e),
            DecodeError::Record { error, .. } | DecodeError::Detected { error, .. } => {
                Some(&**error)
            }
            _ => None,
        }
    }
}

impl From<CubeError> for DecodeError {
    fn from(e: CubeError) -> DecodeError {
        DecodeError::Illegal(e)
    }
}

impl From<FaceletError> for DecodeError {
    fn from(e: FaceletError) -> DecodeError {
        DecodeError::Facelet(e)
    }
}

impl From<ParseError> for DecodeError {
    fn from(e: ParseError) -> DecodeError {
        DecodeError::Alg(e)
    }
}
