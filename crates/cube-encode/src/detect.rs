//! Format detection: which of the crate's text formats a string is in (rules on [`detect()`]).

use cube_core::{Alg, ParseErrorKind};

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
/// The format is decided by the text's [`shape`], and only that format's reader is tried: a
/// text shaped like a structured format is that format, and when its reader refuses it the
/// answer is that reader's error, never a reading as moves. A text with no shape is read as an
/// algorithm (cube-core's notation, with cubing.js semantics: `(R U)` is a group, and moves are
/// separated by spaces), and when the move reader refuses it, a text that is mostly words no
/// algorithm has is blamed on the structured format it is nearest to.
///
/// ```
/// use cube_encode::{DecodeError, Format, detect};
/// let (format, _) = detect("R U R' U'").unwrap();
/// assert_eq!(format, Format::Alg);
/// let (format, _) = detect("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB").unwrap();
/// assert_eq!(format, Format::Facelets);
/// // 53 facelets are still facelets: refused as such, never read as moves.
/// for text in [
///     "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBB",
///     "UUU UUU UUU RRR RRR RRR FFF FFF FFF DDD DDD DDD LLL LLL LLL BBB BBB BB",
/// ] {
///     let Err(DecodeError::Detected { format, .. }) = detect(text) else {
///         panic!()
///     };
///     assert_eq!(format, Format::Facelets);
/// }
/// ```
///
/// # Errors
/// [`DecodeError::Empty`] for blank text, else [`DecodeError::Detected`]: the format assumed
/// and its reader's error.
pub fn detect(text: &str) -> Result<(Format, State), DecodeError> {
    read_detected(text, parse_as)
}

/// `read` of `text` in the format of its [`shape`] (else an algorithm), with the format: what
/// [`detect()`] and [`check`](crate::check()) share.
///
/// # Errors
/// [`DecodeError::Empty`] for blank text, else [`DecodeError::Detected`]: the format assumed
/// and `read`'s error.
pub(crate) fn read_detected<T>(
    text: &str,
    read: fn(Format, &str) -> Result<T, DecodeError>,
) -> Result<(Format, T), DecodeError> {
    if text.trim().is_empty() {
        return Err(DecodeError::Empty);
    }
    let format = shape(text).unwrap_or(Format::Alg);
    read(format, text)
        .map(|value| (format, value))
        .map_err(|error| DecodeError::Detected {
            format,
            error: Box::new(error),
        })
}

/// The fewest characters the words that are not moves must hold for rule 7 of [`shape`] to
/// blame a text the move reader refuses on a structured format: fewer (`UFR1`, `RU`, a typo in
/// an algorithm) stay the move reader's error.
const NEAREST_MIN_CHARS: usize = 13;

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
///    followed by one digit (`UF0`, `UFR2`, in either case, or several such glued together).
/// 5. *Reid*: 15 to 25 tokens, more than half of them two or three distinct letters of
///    `URFDLB` in either case (`UF`, `UFR`), at least five of two letters and one of three.
/// 6. *Facelets*: 45 to 63 ASCII letters or digits in all and nothing else, at most 8
///    distinct symbols (a letter in either case counted once), written as one token, as tokens of at least 6 characters each (by
///    face, or a face per line), or as 15 to 21 tokens of 3 letters (by row).
/// 7. The nearest shape of a text with none of these shapes that the move reader refuses
///    (moves are separated by spaces, so no algorithm has a word like `UUU` or `UF0`):
///    - B32 if it has a `=` (a B32 text split over lines, or cut short);
///    - else Twizzle hex if a word is a run of at least 8 hex digits (after an optional `0x`)
///      with at least two decimal digits (`d3d275788b2`; a facelet face `BBBDDDFF4` with a
///      typo is not);
///    - else, when the words that are not moves (letters and digits only, and no move by
///      themselves, a move with an amount too large counting as a move; words of a `//`
///      comment left out) hold at least 13 characters and more
///      than half of all the words' characters: H48 if more than half of those words are H48
///      pieces as in rule 4, Reid if more than half are piece names as in rule 5 and at least
///      two have two letters, Twizzle hex if they are all hex digits with a decimal digit
///      among them, facelets if the whole text is letters and digits of at most 8 kinds.
///
/// `None` for anything else: that text is an algorithm (or the move reader's error).
///
/// ```
/// use cube_encode::{Format, shape};
/// assert_eq!(shape("R U R' U'"), None);
/// assert_eq!(shape("ABCDEFGH=ABCDEFGHIJKL=A"), Some(Format::B32));
/// assert_eq!(shape("ffffffffffffffffffffff"), Some(Format::TwizzleHex));
/// assert_eq!(shape("UUUUUUUUU RRRRRRRRR FFFFFFFFF DDDDDDDDD LLLLLLLLL BBBBBBBBB"), Some(Format::Facelets));
/// assert_eq!(shape("UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR"), Some(Format::Reid));
/// assert_eq!(shape("RURURURURURURU"), Some(Format::Facelets));
/// assert_eq!(shape("UF UR UB UL DF DR DB DL FR FL"), Some(Format::Reid));
/// assert_eq!(shape("OCVATEJH=K"), Some(Format::B32));
/// // Too short to be anything but a typo in moves: the move reader's error.
/// assert_eq!(shape("UFR1"), None);
/// // A move with an amount too large is a move: the move reader's error too.
/// assert_eq!(shape("R1000000000000"), None);
/// ```
pub fn shape(text: &str) -> Option<Format> {
    structured_shape(text).or_else(|| {
        text.parse::<Alg>()
            .is_err()
            .then(|| nearest_shape(text))
            .flatten()
    })
}

/// Rules 1 to 6 of [`shape`]: the format a text has the shape of, without the nearest shape
/// of a text the move reader refuses. Several states written one per line have none of these
/// shapes (too many tokens or facelets), while one state split over lines keeps its own.
pub fn structured_shape(text: &str) -> Option<Format> {
    let text = text.trim_ascii();
    if (text.starts_with('{') && text.ends_with('}')) || (text.contains('{') && text.contains('"'))
    {
        return Some(Format::PatternJson);
    }
    let tokens = || text.split_ascii_whitespace();
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
        let h48_like = tokens().filter(|t| is_h48_run(t)).count();
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
    let written_as_facelets = n_tokens == 1
        || tokens().all(|t| t.len() >= 6)
        || ((15..=21).contains(&n_tokens)
            && tokens().all(|t| t.len() == 3 && t.bytes().all(|b| b.is_ascii_alphabetic())));
    let n_chars = text.bytes().filter(|b| !b.is_ascii_whitespace()).count();
    if (45..=63).contains(&n_chars) && has_facelet_symbols(text.as_bytes()) && written_as_facelets {
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

/// Whether the text, whitespace aside, is ASCII letters and digits of at most 8 kinds (a
/// letter in either case counted once), as facelets are.
fn has_facelet_symbols(text: &[u8]) -> bool {
    let compact = || text.iter().copied().filter(|b| !b.is_ascii_whitespace());
    let symbols = compact().fold([false; 256], |mut seen, b| {
        seen[b.to_ascii_uppercase() as usize] = true;
        seen
    });
    compact().all(|b| b.is_ascii_alphanumeric()) && symbols.iter().filter(|&&s| s).count() <= 8
}

/// Rule 7 of [`shape`]: the nearest structured format of a text the move reader refuses.
fn nearest_shape(text: &str) -> Option<Format> {
    let text = text.trim_ascii();
    if text.contains('=') {
        return Some(Format::B32);
    }
    // Words of a `//` comment are not moves, nor anything else.
    let words: Vec<&str> = text
        .lines()
        .flat_map(|line| {
            line.split("//")
                .next()
                .unwrap_or("")
                .split_ascii_whitespace()
        })
        .collect();
    // The runs of letters and digits no algorithm has: not a move (a move whose amount is too
    // large is one: `R1000000000000`), nor an amount.
    let is_move = |run: &str| match run.parse::<Alg>() {
        Ok(_) => true,
        Err(e) => *e.kind() == ParseErrorKind::AmountTooLarge,
    };
    let odd: Vec<&str> = words
        .iter()
        .flat_map(|w| w.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|run| !run.bytes().all(|b| b.is_ascii_digit()) && !is_move(run))
        .collect();
    if odd.iter().any(|run| is_hex_run(run)) {
        return Some(Format::TwizzleHex);
    }
    let chars = |words: &[&str]| words.iter().map(|w| w.len()).sum::<usize>();
    let odd_chars = chars(&odd);
    if odd_chars < NEAREST_MIN_CHARS || 2 * odd_chars <= chars(&words) {
        return None;
    }
    let most = |count: usize| 2 * count > odd.len();
    let pieces: Vec<&str> = odd.iter().copied().filter(|w| is_piece_name(w)).collect();
    let odd_bytes: Vec<u8> = odd.concat().into_bytes();
    if most(odd.iter().filter(|run| is_h48_run(run)).count()) {
        Some(Format::H48)
    } else if most(pieces.len()) && pieces.iter().filter(|w| w.len() == 2).count() >= 2 {
        Some(Format::Reid)
    } else if odd_bytes.iter().all(u8::is_ascii_hexdigit)
        && odd_bytes.iter().any(u8::is_ascii_digit)
    {
        Some(Format::TwizzleHex)
    } else if has_facelet_symbols(&odd_bytes) {
        Some(Format::Facelets)
    } else {
        None
    }
}

/// A run of at least 8 hex digits, after an optional `0x`, with at least two decimal digits:
/// Twizzle hex, or part of it (`BBDDFFBB` or `BBBDDDFF4` may be facelets).
fn is_hex_run(word: &str) -> bool {
    let hex = word
        .strip_prefix("0x")
        .or_else(|| word.strip_prefix("0X"))
        .unwrap_or(word);
    hex.len() >= 8
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
        && hex.bytes().filter(u8::is_ascii_digit).count() >= 2
}

/// `UF0`, `UFR2`, `uf0`, or several glued together (`UF0UB0`): two or three letters of
/// `URFDLB` in either case, then one digit, repeated.
fn is_h48_run(word: &str) -> bool {
    let mut rest = word.as_bytes();
    while !rest.is_empty() {
        let letters = rest
            .iter()
            .take_while(|b| b"URFDLB".contains(&b.to_ascii_uppercase()))
            .count();
        if !(2..=3).contains(&letters) || !rest.get(letters).is_some_and(u8::is_ascii_digit) {
            return false;
        }
        rest = &rest[letters + 1..];
    }
    !word.is_empty()
}

/// `UF`, `UFR`, `uf`: two or three distinct letters of `URFDLB`, in either case.
fn is_piece_name(token: &str) -> bool {
    let bytes = token.as_bytes();
    (2..=3).contains(&bytes.len())
        && bytes
            .iter()
            .all(|b| b"URFDLB".contains(&b.to_ascii_uppercase()))
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| !bytes[..i].iter().any(|a| a.eq_ignore_ascii_case(b)))
}

/// [`detect`] without saying which format it was.
///
/// # Errors
/// As [`detect`].
pub fn parse(text: &str) -> Result<State, DecodeError> {
    detect(text).map(|(_, state)| state)
}
