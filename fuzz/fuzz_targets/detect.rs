//! Format detection: any text gives a format or that format's error, never a panic; the
//! format is the text's shape (none: an algorithm), and its reader gives the same answer.
//! A text read as moves has no run of letters and digits that is neither one move nor an
//! amount (moves are separated by spaces, so `UUU` or `UF0` is never moves; whitespace,
//! primes, brackets and a `//` comment end a run).
#![no_main]

use cube_core::Alg;
use cube_encode::{DecodeError, Format, detect, parse_as, shape};
use libfuzzer_sys::fuzz_target;

/// Whether every run of ASCII letters and digits outside `//` comments is one move or an
/// amount.
fn runs_are_moves(text: &str) -> bool {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .flat_map(|code| code.split(|c: char| !c.is_ascii_alphanumeric()))
        .all(|run| run.bytes().all(|b| b.is_ascii_digit()) || run.parse::<Alg>().is_ok())
}

fuzz_target!(|text: &str| {
    let shaped = shape(text).unwrap_or(Format::Alg);
    match detect(text) {
        Ok((format, state)) => {
            assert_eq!(format, shaped);
            assert_eq!(parse_as(format, text), Ok(state));
            if format == Format::Alg {
                assert!(runs_are_moves(text), "{text:?} read as moves");
            }
        }
        Err(DecodeError::Detected { format, error }) => {
            assert_eq!(format, shaped);
            assert_eq!(parse_as(format, text), Err(*error));
        }
        Err(DecodeError::Empty) => assert!(text.trim().is_empty()),
        Err(e) => panic!("{e}"),
    }
});
