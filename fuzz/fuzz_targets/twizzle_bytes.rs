//! Twizzle binary: any bytes decode or fail cleanly; what decodes re-encodes canonically.
#![no_main]

use cube_encode::twizzle;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let lenient = twizzle::decode(data);
    if let Ok(state) = &lenient {
        let mut canonical = twizzle::Components::from_bytes(data.try_into().unwrap());
        if canonical.po_u == 7 {
            canonical.po_l = 0;
        }
        if canonical.mo_q == 0 {
            canonical.mo = 0;
        }
        assert_eq!(twizzle::encode(state), canonical.to_bytes());
    }
    if let Ok(state) = twizzle::decode_solvable(data) {
        assert_eq!(&twizzle::encode(&state)[..], data);
        assert_eq!(lenient.as_ref(), Ok(&state));
    }
});
