//! Format detection: any text gives a format, an ambiguity or a list of reasons, never a panic.
#![no_main]

use cube_encode::{detect, parse_as};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok((format, state)) = detect(text) {
        assert_eq!(parse_as(format, text), Ok(state));
    }
});
