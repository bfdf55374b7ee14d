//! Format detection: any text gives a format or that format's error, never a panic; the
//! format is the text's shape (none: an algorithm), and its reader gives the same answer.
#![no_main]

use cube_encode::{DecodeError, Format, detect, parse_as, shape};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let shaped = shape(text).unwrap_or(Format::Alg);
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
