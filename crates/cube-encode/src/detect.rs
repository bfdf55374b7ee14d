//! Format detection: which of the crate's text formats a string is in (rules on [`detect()`]).

use std::fmt;
use std::str::FromStr;

use cube_core::Alg;

use crate::error::DecodeError;
use crate::state::State;
use crate::{facelet, h48, kpattern, twizzle};

/// A text format of a cube state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// An algorithm applied to the solved cube (cube-core's notation).
    Alg,
    /// 54 facelets in Kociemba's order ([`facelet`]).
    Facelets,
    /// nissy-core's H48 text ([`h48`]).
    H48,
    /// Twizzle binary as 22 hex digits ([`twizzle`]).
    TwizzleHex,
    /// cubing.js pattern JSON ([`kpattern`]).
    PatternJson,
}

impl Format {
    /// All formats, in the order they are tried.
    pub const ALL: [Format; 5] = [
        Format::PatternJson,
        Format::H48,
        Format::Facelets,
        Format::TwizzleHex,
        Format::Alg,
    ];

    /// The format's name, as [`FromStr`] reads it: `alg`, `facelets`, `h48`, `twizzle-hex`,
    /// `pattern-json`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Alg => "alg",
            Format::Facelets => "facelets",
            Format::H48 => "h48",
            Format::TwizzleHex => "twizzle-hex",
            Format::PatternJson => "pattern-json",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown format name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown format {:?}: expected alg, facelets, h48, twizzle-hex or pattern-json",
            self.0
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// Reads `text` in the given format, leniently: well-formed but unsolvable states are accepted
/// (use [`State::validate`] to check). An algorithm gives [`State::from_alg`].
///
/// # Errors
/// The format's [`DecodeError`].
pub fn parse_as(format: Format, text: &str) -> Result<State, DecodeError> {
    match format {
        Format::Alg => Ok(State::from_alg(&text.parse::<Alg>()?)),
        Format::Facelets => facelet::decode(text),
        Format::H48 => h48::decode(text),
        Format::TwizzleHex => twizzle::decode_hex(text),
        Format::PatternJson => kpattern::decode(text),
    }
}

/// Says which format `text` is in and reads it.
///
/// Every format's lenient decoder is tried. Some texts read in two formats, and these rules
/// settle the cases that have an obvious intent:
///
/// - An H48 string (`UF0 UB0 ...`) or a 54-character facelet string (`UUUUUUUUURRR...`) also
///   reads as an algorithm without spaces (`U F0 U B0 ...`, 54 face turns). When H48, facelets
///   or pattern JSON read, [`Format::Alg`] is dropped from the candidates.
/// - A Twizzle hex string made only of `B D F b d f` and digits that follow a letter, such as
///   `BBBBBBBBBBBBBBBBBBBBBB`, is also a 22-move algorithm. Both are plausible, so this is
///   reported as [`DecodeError::Ambiguous`]; [`parse_as`] chooses.
/// - The other formats cannot overlap: JSON starts with `{`, hex has 22 digits and no other
///   letters, facelets have 54 characters and H48 at least 68.
///
/// Empty input is [`DecodeError::Empty`] rather than the empty algorithm.
///
/// ```
/// use cube_encode::{DecodeError, Format, detect};
/// let (format, _) = detect("R U R' U'").unwrap();
/// assert_eq!(format, Format::Alg);
/// let (format, _) = detect("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB").unwrap();
/// assert_eq!(format, Format::Facelets);
/// assert!(matches!(detect("BBBBBBBBBBBBBBBBBBBBBB"), Err(DecodeError::Ambiguous { .. })));
/// ```
///
/// # Errors
/// [`DecodeError::Empty`] for blank text, [`DecodeError::Ambiguous`] listing the formats it
/// reads in, or [`DecodeError::NoFormat`] with each format's error.
pub fn detect(text: &str) -> Result<(Format, State), DecodeError> {
    if text.trim().is_empty() {
        return Err(DecodeError::Empty);
    }
    let shape = shape(text);
    let mut found: Vec<(Format, State)> = Vec::new();
    let mut attempts = Vec::new();
    for format in Format::ALL {
        match parse_as(format, text) {
            Ok(state) => found.push((format, state)),
            Err(e) => attempts.push((format, e)),
        }
    }
    let structured = found
        .iter()
        .any(|(f, _)| matches!(f, Format::H48 | Format::Facelets | Format::PatternJson));
    if structured || matches!(shape, Some(Format::Facelets | Format::PatternJson)) {
        found.retain(|(f, _)| *f != Format::Alg);
    }
    match found.len() {
        0 => {
            // The format the text most looks like first: the one its shape says, else the one
            // whose reader got furthest into it.
            attempts.sort_by_key(|(f, e)| {
                (
                    Some(*f) != shape,
                    std::cmp::Reverse(e.column().unwrap_or(0)),
                )
            });
            Err(DecodeError::NoFormat { attempts })
        }
        1 => Ok(found.pop().expect("one candidate")),
        _ => Err(DecodeError::Ambiguous {
            candidates: found.into_iter().map(|(f, _)| f).collect(),
        }),
    }
}

/// The format a text has the shape of, when its shape alone says: JSON starts with `{`, and 54
/// characters without whitespace are facelets (as a move sequence they would be 54 turns
/// written without a space, which nobody means).
fn shape(text: &str) -> Option<Format> {
    let text = text.trim();
    if text.starts_with('{') {
        Some(Format::PatternJson)
    } else if text.chars().count() == 54 && !text.contains(char::is_whitespace) {
        Some(Format::Facelets)
    } else {
        None
    }
}

/// [`detect`] without saying which format it was.
///
/// # Errors
/// As [`detect`].
pub fn parse(text: &str) -> Result<State, DecodeError> {
    detect(text).map(|(_, state)| state)
}
