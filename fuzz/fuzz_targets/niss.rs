//! cube-core's NISS parser: any text parses or fails cleanly (never a panic); a parsed NISS
//! sequence prints back to text that parses to the same sequence, its cleanup and its unniss keep
//! what it does to a scramble, and it equals itself up to commuting moves.
#![no_main]

use cube_core::{Cube, NissAlg};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(niss) = text.parse::<NissAlg>() else {
        return;
    };
    let printed = niss.to_string();
    let again: NissAlg = printed.parse().expect("printed NISS sequences parse");
    assert_eq!(again, niss, "{printed}");
    assert!(niss.equal_up_to_commuting(&again));
    let scramble = Cube::SOLVED.apply_moves(&"R U F' D2".parse::<cube_core::Alg>().unwrap().moves());
    let cleaned = niss.cleanup();
    assert_eq!(cleaned.normal_side(&scramble), niss.normal_side(&scramble));
    assert_eq!(niss.invert().invert().normal_side(&scramble), niss.normal_side(&scramble));
    let _ = (niss.htm(), niss.qtm(), niss.stm(), niss.unniss());
});
