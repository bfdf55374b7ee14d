//! Format detection: any text gives a format or that format's error, never a panic; the
//! format is the text's shape (none: an algorithm), and its reader gives the same answer.
//! A text read as moves has no run of more than `MAX_MOVE_RUN` letters (digits do not break
//! a run; whitespace, primes, brackets and a `//` comment do).
#![no_main]

use cube_encode::{DecodeError, Format, MAX_MOVE_RUN, detect, parse_as, shape};
use libfuzzer_sys::fuzz_target;

/// The most letters in a run of ASCII letters and digits, outside `//` comments.
fn longest_letter_run(text: &str) -> usize {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .flat_map(|code| code.split(|c: char| !c.is_ascii_alphanumeric()))
        .map(|run| run.chars().filter(char::is_ascii_alphabetic).count())
        .max()
        .unwrap_or(0)
}

fuzz_target!(|text: &str| {
    let shaped = shape(text).unwrap_or(Format::Alg);
    if shaped == Format::Alg {
        assert!(longest_letter_run(text) <= MAX_MOVE_RUN, "{text:?} read as moves");
    }
    match detect(text) {
        Ok((format, state)) => {
            assert_eq!(format, shaped);
            assert_eq!(parse_as(format, text), Ok(state));
        }
        Err(DecodeError::Detected { format, error }) => {
            assert_eq!(format, shaped);
            assert_eq!(parse_as(format, text), Err(*error));
        }
        Err(DecodeError::Empty) => assert!(text.trim().is_empty()),
        Err(e) => panic!("{e}"),
    }
});
