//! Integration tests of cube-encode, one module per format, against the external vectors in
//! `testdata/vectors` (`testdata/README.md` says where each came from).
//!
//! - `twizzle`: twizzle.json (binary, components, patterns, decode cases).
//! - `kpattern`: pattern JSON reading and writing beyond what `twizzle` covers.
//! - `h48`: h48.json (generated strings, every nissy-core test, convert behaviour).
//! - `b32`: nissy-core's B32 tests (`tests/data/b32.json`) and the B32 strings of h48.json.
//! - `facelet`: facelets.json.
//! - `detect`: format detection and ambiguity.
//! - `errors`: one crafted input per error kind, and their messages.
//! - `check`: issue 31, item 7: every rule broken, read leniently, in every format.
//! - `props`: proptest round trips and random-input robustness.
//! - `serde`: the `serde` feature.

mod b32;
mod check;
mod detect;
mod errors;
mod facelet;
mod h48;
mod kpattern;
mod props;
mod serde;
mod twizzle;

use std::path::PathBuf;

use serde_json::Value;

/// The parsed vector file `name` from the repository's `testdata/vectors`.
pub fn vectors(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/vectors")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("test vectors {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Bytes from lowercase hex.
pub fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("vector hex"))
        .collect()
}

/// A string field of a JSON object.
pub fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("field {key} of {v}"))
}
