//! H48 text: any text decodes or fails cleanly; what decodes is written back and read again
//! to the same state.
#![no_main]

use cube_encode::h48;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(state) = h48::decode(text) {
        assert_eq!(h48::decode(&h48::encode(&state)), Ok(state));
    }
});
