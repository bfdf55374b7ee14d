//! cube-core's notation parser: any text parses or fails cleanly; a parsed algorithm prints
//! back to text that parses to the same turns.
#![no_main]

use cube_core::Alg;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(alg) = text.parse::<Alg>() {
        let printed = alg.to_string();
        let again: Alg = printed.parse().expect("printed algorithms parse");
        assert_eq!(again.expand(), alg.expand());
    }
});
