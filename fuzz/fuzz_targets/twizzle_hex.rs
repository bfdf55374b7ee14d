//! Twizzle hex: any text decodes or fails cleanly; what decodes round-trips.
#![no_main]

use cube_encode::twizzle;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(state) = twizzle::decode_hex_solvable(text) {
        assert_eq!(twizzle::decode_hex(&twizzle::encode_hex(&state)), Ok(state));
    }
    let _ = twizzle::decode_hex(text);
});
