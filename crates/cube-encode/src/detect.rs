//! Format detection: which of the crate's text formats a string is in (rules on [`detect()`]).

use cube_core::Alg;

use crate::error::DecodeError;
use crate::format::Format;
use crate::state::State;
use crate::{b32, facelet, h48, kpattern, reid, twizzle};

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
        Format::Reid => reid::decode(text),
        Format::B32 => b32::decode(text),
        Format::TwizzleHex => twizzle::decode_hex(text),
        Format::PatternJson => kpattern::decode(text),
    }
}

/// Says which format `text` is in and reads it.
///
/// The format is decided by the text's [`shape`] alone, and only that format's reader is
/// tried: a text shaped like a structured format is that format, and when its reader refuses
/// it the answer is that reader's error, never a reading as moves. Only a text with no shape
/// is read as an algorithm (cube-core's notation, with cubing.js semantics: `(R U)` is a
/// group).
///
/// ```
/// use cube_encode::{DecodeError, Format, detect};
/// let (format, _) = detect("R U R' U'").unwrap();
/// assert_eq!(format, Format::Alg);
/// let (format, _) = detect("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB").unwrap();
/// assert_eq!(format, Format::Facelets);
/// // 53 facelets are still facelets: refused as such, never read as 53 face turns.
/// let Err(DecodeError::Detected { format, .. }) =
///     detect("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBB")
/// else {
///     panic!()
/// };
/// assert_eq!(format, Format::Facelets);
/// ```
///
/// # Errors
/// [`DecodeError::Empty`] for blank text, else [`DecodeError::Detected`]: the format assumed
/// and its reader's error.
pub fn detect(text: &str) -> Result<(Format, State), DecodeError> {
    let format = format_of(text)?;
    match parse_as(format, text) {
        Ok(state) => Ok((format, state)),
        Err(error) => Err(DecodeError::Detected {
            format,
            error: Box::new(error),
        }),
    }
}

/// The format [`detect()`] reads `text` in: its [`shape`], else an algorithm.
///
/// # Errors
/// [`DecodeError::Empty`] for blank text.
pub(crate) fn format_of(text: &str) -> Result<Format, DecodeError> {
    if text.trim().is_empty() {
        return Err(DecodeError::Empty);
    }
    Ok(shape(text).unwrap_or(Format::Alg))
}

/// The most letters a whitespace-free run may have and still be read as moves: cubing.js does
/// not read juxtaposed moves at all, and a longer run is a structured state with a mistake.
pub const MAX_MOVE_RUN: usize = 12;

/// The format a text has the shape of, by these rules, in this order (whitespace means ASCII
/// whitespace, a token a maximal run of anything else):
///
/// 1. *Pattern JSON*: starts with `{` and ends with `}`, or has both a `{` and a `"` (which
///    no other format uses).
/// 2. *B32*: one line with one to three `=` and 18 to 24 other characters that are not
///    whitespace (the format has two `=` between 8, 12 and 1 letters, or one `=` between 8
///    and 12), which no other format uses.
/// 3. *Twizzle hex*: 20 to 24 characters, all hex digits but at most one, once whitespace and
///    an optional `0x` are removed; written as one token, with a lowercase digit `a`-`f`, or
///    with a group that starts with a digit (`B2 F2 D2 ...` is moves).
/// 4. *H48*: 15 to 25 tokens, more than half of them two or three letters of `URFDLB`
///    followed by one digit (`UF0`, `UFR2`).
/// 5. *Reid*: 15 to 25 tokens, more than half of them two or three distinct letters of
///    `URFDLB` (`UF`, `UFR`), at least five of two letters and one of three.
/// 6. *Facelets*: 45 to 63 ASCII letters or digits in all and nothing else, at most 8
///    distinct symbols, written as one token, as tokens of at least 6 characters each (by
///    face, or a face per line), or as 15 to 21 tokens of 3 letters (by row).
/// 7. The nearest shape: a text of several lines with the shape of B32 otherwise is B32
///    (one B32 text is never split over lines, so a B32 line and a line of moves are two
///    states, not one); a run of more than [`MAX_MOVE_RUN`] letters without whitespace
///    (which no algorithm a person writes has) is twizzle hex when the text is only hex
///    digits, H48 when it has digits and its letters are all `URFDLB`, else facelets.
///
/// `None` for anything else: that text is an algorithm.
///
/// ```
/// use cube_encode::{Format, shape};
/// assert_eq!(shape("R U R' U'"), None);
/// assert_eq!(shape("ABCDEFGH=ABCDEFGHIJKL=A"), Some(Format::B32));
/// assert_eq!(shape("ffffffffffffffffffffff"), Some(Format::TwizzleHex));
/// assert_eq!(shape("UUUUUUUUU RRRRRRRRR FFFFFFFFF DDDDDDDDD LLLLLLLLL BBBBBBBBB"), Some(Format::Facelets));
/// assert_eq!(shape("UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR"), Some(Format::Reid));
/// assert_eq!(shape("RURURURURURURU"), Some(Format::Facelets));
/// ```
pub fn shape(text: &str) -> Option<Format> {
    structured_shape(text).or_else(|| nearest_shape(text))
}

/// Rules 1 to 6 of [`shape`]: the format a text has the shape of, without the nearest shape
/// of a long letter run. Several states written one per line have none of these shapes (too
/// many tokens or facelets), while one state split over lines keeps its own.
pub fn structured_shape(text: &str) -> Option<Format> {
    let text = text.trim_ascii();
    if (text.starts_with('{') && text.ends_with('}')) || (text.contains('{') && text.contains('"'))
    {
        return Some(Format::PatternJson);
    }
    let tokens = || text.split_ascii_whitespace();
    let compact = || text.bytes().filter(|b| !b.is_ascii_whitespace());
    if is_b32_shaped(text) && !text.contains('\n') {
        return Some(Format::B32);
    }
    let hex = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    let hex_chars = || hex.bytes().filter(|b| !b.is_ascii_whitespace());
    let not_hex = hex_chars().filter(|b| !b.is_ascii_hexdigit()).count();
    // Written as hex rather than as moves of B, D and F: one token, lowercase digits, or a
    // group that starts with a digit (`B2 F2 ...` is an algorithm).
    let hex_written = tokens().count() == 1
        || hex.bytes().any(|b| (b'a'..=b'f').contains(&b))
        || tokens().any(|t| t.starts_with(|c: char| c.is_ascii_digit()));
    if (twizzle::HEX_LEN - 2..=twizzle::HEX_LEN + 2).contains(&hex_chars().count())
        && not_hex <= 1
        && hex_written
    {
        return Some(Format::TwizzleHex);
    }
    let n_tokens = tokens().count();
    if (15..=25).contains(&n_tokens) {
        let h48_like = tokens().filter(|t| is_h48_token(t)).count();
        if 2 * h48_like > n_tokens {
            return Some(Format::H48);
        }
        let pieces: Vec<&str> = tokens().filter(|t| is_piece_name(t)).collect();
        let (two, three) = (
            pieces.iter().filter(|t| t.len() == 2).count(),
            pieces.iter().filter(|t| t.len() == 3).count(),
        );
        if 2 * pieces.len() > n_tokens && two >= 5 && three >= 1 {
            return Some(Format::Reid);
        }
    }
    let symbols = compact().fold([false; 256], |mut seen, b| {
        seen[b as usize] = true;
        seen
    });
    let n_symbols = symbols.iter().filter(|&&s| s).count();
    let written_as_facelets = n_tokens == 1
        || tokens().all(|t| t.len() >= 6)
        || ((15..=21).contains(&n_tokens)
            && tokens().all(|t| t.len() == 3 && t.bytes().all(|b| b.is_ascii_alphabetic())));
    if (45..=63).contains(&compact().count())
        && compact().all(|b| b.is_ascii_alphanumeric())
        && n_symbols <= 8
        && written_as_facelets
    {
        return Some(Format::Facelets);
    }
    None
}

/// Rule 2 of [`shape`] but for the single line: one to three `=` and 18 to 24 other
/// characters that are not whitespace.
fn is_b32_shaped(text: &str) -> bool {
    let n_equals = text.bytes().filter(|&b| b == b'=').count();
    let others = text
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'=')
        .count();
    (1..=3).contains(&n_equals) && (b32::SHORT_LEN - 3..=b32::LEN - 2 + 3).contains(&others)
}

/// Rule 7 of [`shape`]: the nearest shape of a B32 text over several lines, or of a text with
/// a run of more than [`MAX_MOVE_RUN`] letters.
fn nearest_shape(text: &str) -> Option<Format> {
    let text = text.trim_ascii();
    if is_b32_shaped(text) {
        return Some(Format::B32);
    }
    let compact = || text.bytes().filter(|b| !b.is_ascii_whitespace());
    let hex = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    let not_hex = hex
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && !b.is_ascii_hexdigit())
        .count();
    // Words of a `//` comment are not moves.
    let longest_run = text
        .lines()
        .flat_map(|line| {
            line.split("//")
                .next()
                .unwrap_or("")
                .split_ascii_whitespace()
        })
        .flat_map(|t| t.split(|c: char| !c.is_ascii_alphanumeric()))
        .map(|run| run.bytes().filter(u8::is_ascii_alphabetic).count())
        .max()
        .unwrap_or(0);
    if longest_run > MAX_MOVE_RUN {
        return Some(if not_hex == 0 {
            Format::TwizzleHex
        } else if compact().any(|b| b.is_ascii_digit())
            && compact()
                .filter(u8::is_ascii_alphabetic)
                .all(|b| b"URFDLB".contains(&b))
        {
            Format::H48
        } else {
            Format::Facelets
        });
    }
    None
}

/// `UF0`, `UFR2`: two or three letters of `URFDLB`, then one digit.
fn is_h48_token(token: &str) -> bool {
    let bytes = token.as_bytes();
    (3..=4).contains(&bytes.len())
        && bytes[bytes.len() - 1].is_ascii_digit()
        && bytes[..bytes.len() - 1]
            .iter()
            .all(|b| b"URFDLB".contains(b))
}

/// `UF`, `UFR`: two or three distinct letters of `URFDLB`.
fn is_piece_name(token: &str) -> bool {
    let bytes = token.as_bytes();
    (2..=3).contains(&bytes.len())
        && bytes.iter().all(|b| b"URFDLB".contains(b))
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| !bytes[..i].contains(b))
}

/// [`detect`] without saying which format it was.
///
/// # Errors
/// As [`detect`].
pub fn parse(text: &str) -> Result<State, DecodeError> {
    detect(text).map(|(_, state)| state)
}
