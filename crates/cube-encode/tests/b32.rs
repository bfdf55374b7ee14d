//! B32 against nissy-core: its own tests (`data/b32.json`, copied from nissy-core's
//! `test/030_applymoves` and `test/020_io_cube_read_write` at commit `3cb60bc`), the B32 and H48
//! strings that nissy-core `510a747` wrote for the same 218 algorithms (h48.json), and every
//! one-character corruption of a B32 text.

use std::path::PathBuf;

use cube_core::{Alg, CubeError, Symmetry};
use cube_encode::{DecodeError, Format, State, b32, detect, h48};
use serde_json::Value;

use crate::{s, vectors};

fn data() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/b32.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn alg(text: &str) -> Alg {
    text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn b32_state(text: &str) -> State {
    b32::decode_solvable(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// `state`, then the moves of `alg` turned as seen from the state's orientation: its face
/// turns conjugated by that rotation, its rotations after it.
fn apply(state: &State, alg: &Alg) -> State {
    let expanded = alg.expand();
    let rotation = state.orientation().unwrap_or(Symmetry::IDENTITY);
    let cube = state.cube().compose(&rotation.conjugate(&expanded.cube()));
    State::new(cube).with_orientation(Some(rotation.then(expanded.rotation)))
}

#[test]
fn nissy_applymoves() {
    let file = data();
    let cases = file["applymoves"].as_array().unwrap();
    assert_eq!(cases.len(), 75);
    for t in cases {
        let path = s(t, "path");
        let input = b32_state(s(t, "input"));
        let out = apply(&input, &alg(s(t, "moves")));
        assert_eq!(b32::encode(&out), s(t, "output"), "{path}");
        assert_eq!(b32_state(s(t, "output")), out, "{path}");
    }
}

#[test]
fn nissy_read_write() {
    let file = data();
    let cases = file["read_write"].as_array().unwrap();
    assert_eq!(cases.len(), 8);
    for t in cases {
        let (path, input, output) = (s(t, "path"), s(t, "input"), s(t, "output"));
        match output {
            "Error reading cube" => assert!(b32::decode(input).is_err(), "{path}"),
            "Cube is not solvable" => {
                assert!(b32::decode(input).is_ok(), "{path}");
                assert!(
                    matches!(b32::decode_solvable(input), Err(DecodeError::Illegal(_))),
                    "{path}"
                );
            }
            _ => assert_eq!(b32::encode(&b32_state(input)), output, "{path}"),
        }
    }
    // `=L` is orientation 11, RU: R on top, U in front, that is z' y'.
    assert_eq!(
        b32_state("ABCDEFGH=ABCDEFGHIJKL=L"),
        State::from_alg(&alg("z' y'"))
    );
}

/// nissy-core at commit `510a747` wrote B32 without the orientation; its H48 text of the same
/// cube, which cube-encode already reads, and the algorithm agree with it.
#[test]
fn short_form_agrees_with_nissy_h48() {
    let file = vectors("h48.json");
    let generated = file["generated"].as_array().unwrap();
    assert_eq!(generated.len(), 218);
    for v in generated {
        let (id, short) = (s(v, "id"), s(v, "b32"));
        let cube = h48::decode_solvable(s(v, "h48")).unwrap().cube();
        assert_eq!(b32::decode_solvable(short), Ok(State::new(cube)), "{id}");
        // Face turns only: the orientation stays UF.
        let state = State::from_alg(&alg(s(v, "alg")));
        assert_eq!(state.cube(), cube, "{id}");
        assert_eq!(b32::encode(&state), format!("{short}=A"), "{id}");
        assert_eq!(detect(short).map(|(f, _)| f), Ok(Format::B32), "{id}");
    }
}

#[test]
fn nissy_readme_examples() {
    // nissy-core README.md, "Cube format" and the Python example. The README prints `=L` for
    // `Fw`, but nissy-core's test 512_Fw_solved and its orientation table give `=M` (LF, z).
    assert_eq!(b32::encode(&State::SOLVED), "ABCDEFGH=ABCDEFGHIJKL=A");
    assert_eq!(
        b32::encode(&State::from_alg(&alg("Fw"))),
        "ANCPETGR=AbaDEFGHIJRS=M"
    );
    assert_eq!(
        b32_state("WFCDERQH=AECDIFGHBJKL=A"),
        State::from_alg(&alg("R U R' U'"))
    );
}

/// The characters a corruption may bring: every ASCII character and two that are not.
fn corruptions() -> impl Iterator<Item = char> {
    (0u8..128).map(char::from).chain(['é', '€'])
}

// See: issue 14 (B32 as a first-class format): one character changed, removed or added is
// refused, but for another orientation letter (the format has no check digit), or whitespace
// added at either end.
#[test]
fn every_one_character_corruption_is_refused() {
    let states = [
        State::SOLVED,
        State::from_alg(&alg("R U R' U' F2 D")),
        State::from_alg(&alg("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2 y")),
        State::from_alg(&alg("Rw S E'")),
    ];
    for state in states {
        let text = b32::encode(&state);
        // An absent orientation is written as UF.
        let state = b32_state(&text);
        let chars: Vec<char> = text.chars().collect();
        let mut edits = Vec::new();
        for i in 0..chars.len() {
            let mut removed = chars.clone();
            removed.remove(i);
            edits.push((i, removed));
            for c in corruptions().filter(|&c| c != chars[i]) {
                let mut changed = chars.clone();
                changed[i] = c;
                edits.push((i, changed));
            }
        }
        for i in 0..=chars.len() {
            for c in corruptions() {
                let mut added = chars.clone();
                added.insert(i, c);
                edits.push((i, added));
            }
        }
        for (i, edit) in edits {
            let edited: String = edit.iter().collect();
            let same_length = edit.len() == chars.len();
            let other_orientation = same_length && i == 22 && ('A'..='X').contains(&edit[22]);
            let padded = edited.trim_ascii() == text;
            let read = b32::decode_solvable(&edited);
            if other_orientation {
                let o = edit[22] as usize - 'A' as usize;
                assert_eq!(read.map(|s| s.cube()), Ok(state.cube()), "{edited:?}");
                assert_eq!(
                    b32::encode(&b32_state(&edited)).as_bytes()[22],
                    b'A' + o as u8
                );
            } else if padded {
                assert_eq!(read, Ok(state), "{edited:?}");
            } else {
                assert!(read.is_err(), "{edited:?} read as {read:?}");
            }
            // Always B32 by its shape, and refused as B32 (never read as moves).
            match detect(&edited) {
                Ok((format, _)) => assert_eq!(format, Format::B32, "{edited:?}"),
                Err(DecodeError::Detected { format, .. }) => {
                    assert_eq!(format, Format::B32, "{edited:?}")
                }
                Err(e) => panic!("{edited:?}: {e}"),
            }
        }
    }
}

#[test]
fn unsolvable_but_consistent_cubes_read_leniently() {
    let flipped = "ABCDEFGH=QBCDEFGHIJKL=A";
    assert!(b32::decode(flipped).is_ok());
    assert_eq!(
        b32::decode_solvable(flipped),
        Err(DecodeError::Illegal(CubeError::FlipSum))
    );
}
