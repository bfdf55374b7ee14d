//! Issue 31, item 7: `check_as` reads leniently what a format can write but no cube has, and
//! names every rule broken, with its code.

use cube_core::{Alg, Corner, CubeError, Edge, FaceletError};
use cube_encode::{
    Checked, DecodeError, Format, Problem, State, b32, check, check_as, h48, kpattern,
};
use serde_json::json;

const SOLVED_H48: &str =
    "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0";

fn rules(checked: &Checked) -> Vec<&'static str> {
    checked.problems.iter().map(Problem::rule).collect()
}

#[test]
fn i31_7_legal_and_unsolvable_states_read() {
    let state = State::from_alg(&"R U".parse::<Alg>().unwrap());
    for format in [Format::H48, Format::B32, Format::PatternJson] {
        let text = match format {
            Format::H48 => h48::encode(&state),
            Format::B32 => b32::encode(&state),
            _ => kpattern::encode(&state),
        };
        let checked = check_as(format, &text).unwrap();
        assert!(checked.problems.is_empty(), "{format}");
        assert_eq!(checked.state.unwrap().cube(), state.cube());
    }
    let twisted = SOLVED_H48.replace("UFR0", "UFR1");
    let checked = check_as(Format::H48, &twisted).unwrap();
    assert!(checked.state.is_some());
    assert_eq!(rules(&checked), ["twisted-corner"]);
    // Not a state even leniently: the reader's error.
    assert_eq!(
        check_as(Format::H48, "UF0"),
        Err(DecodeError::MissingPieces {
            found: 1,
            expected: 20
        })
    );
}

#[test]
fn i31_7_h48_pieces_twice_and_orientations_out_of_range() {
    // UB's place holds UF; UFR is twisted "3", DBL "2" is fine, UL flipped "7".
    let text = SOLVED_H48
        .replacen("UB0", "UF0", 1)
        .replace("UFR0", "UFR3")
        .replace("UL0", "UL7");
    assert!(matches!(
        h48::decode(&text),
        Err(DecodeError::BadOrientation { .. } | DecodeError::DuplicatePiece { .. })
    ));
    let checked = check_as(Format::H48, &text).unwrap();
    assert_eq!(checked.state, None);
    assert_eq!(
        checked.problems,
        [
            Problem::Pieces(CubeError::OrientationOutOfRange {
                corner: true,
                position: Corner::URF as usize,
                value: 3
            }),
            Problem::Pieces(CubeError::OrientationOutOfRange {
                corner: false,
                position: Edge::UL as usize,
                value: 7
            }),
            Problem::Pieces(CubeError::EdgesNotAPermutation { piece: Edge::UF }),
        ]
    );
    // A letter is still no orientation.
    assert!(matches!(
        check_as(Format::H48, &SOLVED_H48.replace("UL0", "ULx")),
        Err(DecodeError::BadOrientation { found: 'x', .. })
    ));
}

#[test]
fn i31_7_b32_out_of_range_and_twice() {
    // Corner UFR twisted "3" (letter Y = 24), edge UF numbered 13 (N), edges UB and DB both
    // UF (A).
    let text = "YBCDEFGH=NAADEFGHIJKL=A";
    let checked = check_as(Format::B32, text).unwrap();
    assert_eq!(checked.state, None);
    assert_eq!(
        rules(&checked),
        [
            "orientation-out-of-range",
            "edge-out-of-range",
            "edges-not-a-permutation"
        ]
    );
}

#[test]
fn i31_7_pattern_json_every_problem() {
    let mut v = kpattern::encode_value(&State::SOLVED);
    v["CORNERS"]["pieces"][7] = json!(9);
    v["CORNERS"]["pieces"][6] = json!(0);
    v["EDGES"]["orientation"][0] = json!(5);
    v["CENTERS"]["pieces"] = json!([0, 0, 2, 3, 4, 5]);
    let checked = check_as(Format::PatternJson, &v.to_string()).unwrap();
    assert_eq!(checked.state, None);
    assert_eq!(
        rules(&checked),
        [
            "centres-not-a-rotation",
            "corners-not-a-permutation",
            "corner-out-of-range",
            "orientation-out-of-range"
        ]
    );
    // Only the centres.
    let mut v = kpattern::encode_value(&State::SOLVED);
    v["CENTERS"]["pieces"] = json!([0, 3, 2, 1, 4, 5]);
    let checked = check_as(Format::PatternJson, &v.to_string()).unwrap();
    assert_eq!(checked.problems, [Problem::CentresNotARotation]);
    // Beyond a byte is not read.
    let mut v = kpattern::encode_value(&State::SOLVED);
    v["CORNERS"]["pieces"][0] = json!(256);
    assert!(matches!(
        check_as(Format::PatternJson, &v.to_string()),
        Err(DecodeError::BadPattern { .. })
    ));
}

#[test]
fn i31_7_stickers_every_problem() {
    // Mirror-image centres in the letters URFDLB, every piece real around them.
    let mirrored = "UUUUUUUUULLLLLLLLLFFFFFFFFFDDDDDDDDDRRRRRRRRRBBBBBBBBB";
    let (format, checked) = check(mirrored).unwrap();
    assert_eq!(format, Format::Facelets);
    assert_eq!(checked.problems, [Problem::CentresNotARotation]);
    // A stray colour.
    let (_, checked) = check("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBX").unwrap();
    assert_eq!(
        checked.problems,
        [Problem::Stickers(FaceletError::UnknownColour {
            colour: 'X',
            facelets: vec![53]
        })]
    );
    // Reid: UL's place shows UR, and FR's FL.
    let reid = "UF UR UB UR DF DR DB DL FL FL BR BL UFR URB UBL ULF DRF DFL DLB DBR";
    let checked = check_as(Format::Reid, reid).unwrap();
    assert_eq!(rules(&checked), ["duplicate-edge", "duplicate-edge"]);
}
