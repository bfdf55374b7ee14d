//! cubing.js pattern JSON: any text decodes or fails cleanly; what decodes round-trips.
#![no_main]

use cube_encode::kpattern;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(state) = kpattern::decode(text) {
        assert_eq!(kpattern::decode(&kpattern::encode(&state)), Ok(state));
    }
});
