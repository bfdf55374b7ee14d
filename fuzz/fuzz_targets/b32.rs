//! B32 text: any text decodes or fails cleanly; what decodes is written back exactly as it was
//! given (each state has one B32 text; the short form gains `=A`) and reads again to the same
//! state; the solvable reader agrees with the state's own check.
#![no_main]

use cube_core::Symmetry;
use cube_encode::b32;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let read = b32::decode(text);
    assert_eq!(
        b32::decode_solvable(text).is_ok(),
        read.as_ref().is_ok_and(|s| s.validate().is_ok())
    );
    if let Ok(state) = read {
        let written = b32::encode(&state);
        let given = text.trim_ascii();
        if given.len() == b32::LEN {
            assert_eq!(written, given);
        } else {
            assert_eq!(written, format!("{given}=A"));
        }
        let framed =
            state.with_orientation(Some(state.orientation().unwrap_or(Symmetry::IDENTITY)));
        assert_eq!(b32::decode(&written), Ok(framed));
    }
});
