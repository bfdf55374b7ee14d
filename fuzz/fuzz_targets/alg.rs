//! cube-core's notation parser: any text parses or fails cleanly; a parsed algorithm prints
//! back to text that parses to the same turns. The text is also wrapped in up to 4095 levels
//! of groups or conjugates: deeper than `MAX_NESTING` is an error, never a stack overflow.
#![no_main]

use cube_core::{Alg, MAX_NESTING};
use libfuzzer_sys::fuzz_target;

fn check(text: &str) {
    if let Ok(alg) = text.parse::<Alg>() {
        let printed = alg.to_string();
        let again: Alg = printed.parse().expect("printed algorithms parse");
        assert_eq!(again.expand(), alg.expand());
        assert_eq!(alg.inverse().inverse().expand(), alg.expand());
    }
}

fuzz_target!(|input: (u16, bool, &str)| {
    let (depth, conjugates, body) = input;
    check(body);
    let depth = usize::from(depth % 4096);
    let (open, close) = if conjugates { ("[R: ", "]") } else { ("(", ")") };
    let text = format!("{}{body}{}", open.repeat(depth), close.repeat(depth));
    check(&text);
    if depth > MAX_NESTING {
        assert!(text.parse::<Alg>().is_err(), "{depth} levels parsed");
    }
});
