//! One crafted input per error kind, and what the messages say.

use cube_core::CubeError;
use cube_encode::{
    DecodeError, Field, Format, b32, compact, detect, facelet, h48, kpattern, parse_as, twizzle,
};

const SOLVED_H48: &str =
    "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0";
const SOLVED_FACELETS: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";

fn bytes(hex: &str) -> Vec<u8> {
    crate::hex_bytes(hex)
}

/// Every kind of error, from a crafted input.
fn every_error() -> Vec<(&'static str, DecodeError)> {
    let e = |r: Result<cube_encode::State, DecodeError>| r.expect_err("crafted to fail");
    vec![
        ("empty", e(facelet::decode("  "))),
        ("wrong length bytes", e(twizzle::decode(&[0; 10]))),
        (
            "wrong length hex",
            e(twizzle::decode_hex("000000000000000000000")),
        ),
        (
            "wrong length facelets",
            e(facelet::decode(&SOLVED_FACELETS[1..])),
        ),
        (
            "non-ascii",
            e(facelet::decode(&format!("{}é", &SOLVED_FACELETS[..52]))),
        ),
        (
            "bad hex digit",
            e(twizzle::decode_hex("00000000000000000000zz")),
        ),
        (
            "ep out of range",
            e(twizzle::decode(&bytes("e467e00000000000000000"))),
        ),
        (
            "cp out of range",
            e(twizzle::decode(&bytes("00000000004ec000000000"))),
        ),
        (
            "co out of range",
            e(twizzle::decode(&bytes("0000000000000066840000"))),
        ),
        (
            "po_u out of range",
            e(twizzle::decode(&bytes("0000000000000000030000"))),
        ),
        (
            "non-canonical po_l",
            e(twizzle::decode_solvable(&bytes("000000000000000003e000"))),
        ),
        (
            "non-canonical mo",
            e(twizzle::decode_solvable(&bytes("0000000000000000000fff"))),
        ),
        (
            "unknown piece",
            e(h48::decode(&SOLVED_H48.replace("UB0", "BU0"))),
        ),
        (
            "duplicate piece",
            e(h48::decode(&SOLVED_H48.replace("UB0", "UF0"))),
        ),
        (
            "bad orientation",
            e(h48::decode(&SOLVED_H48.replace("UFR0", "UFR3"))),
        ),
        (
            "no orientation digit",
            e(h48::decode(&SOLVED_H48[..SOLVED_H48.len() - 1])),
        ),
        ("missing pieces", e(h48::decode("UF0 UB0"))),
        ("b32 groups", e(b32::decode("ABCDEFGH=ABCDEFGHIJKLA"))),
        ("b32 letter", e(b32::decode(" ABCDEFGH=ABCDEFGH-JKL=A"))),
        ("b32 corner", e(b32::decode("ABCDEFGZ=ABCDEFGHIJKL=A"))),
        ("b32 edge", e(b32::decode("ABCDEFGH=ABCDEFGHIJKc=A"))),
        ("b32 duplicate", e(b32::decode("ABCDEFGH=ABCDEFGHIJKA=A"))),
        ("b32 orientation", e(b32::decode("ABCDEFGH=ABCDEFGHIJKL=Y"))),
        (
            "b32 illegal",
            e(b32::decode_solvable("ABCDEFGH=QBCDEFGHIJKL=A")),
        ),
        (
            "trailing garbage",
            e(h48::decode(&format!("{SOLVED_H48} x"))),
        ),
        (
            "illegal",
            e(h48::decode_solvable(&SOLVED_H48.replace("UF0", "UF1"))),
        ),
        (
            "facelet",
            e(facelet::decode(
                &SOLVED_FACELETS.replace("UUUUUUUUU", "UUUUUUUUR"),
            )),
        ),
        (
            "centres not a rotation",
            e(facelet::decode(
                &SOLVED_FACELETS
                    .replace('R', "x")
                    .replace('L', "R")
                    .replace('x', "L"),
            )),
        ),
        (
            "centre parity",
            e(twizzle::decode_solvable(&bytes("0000000000000000001400"))),
        ),
        ("alg", e(parse_as(Format::Alg, "R Q"))),
        ("json", e(kpattern::decode("{"))),
        ("bad pattern", e(kpattern::decode("{}"))),
        ("detected", detect("hello").unwrap_err()),
        (
            "record",
            compact::decode_batch(&[[0u8; 11], [0xff; 11]].concat()).unwrap_err(),
        ),
        (
            "batch length",
            compact::decode_batch(&[0u8; 12]).unwrap_err(),
        ),
    ]
}

#[test]
fn each_kind_comes_from_its_input() {
    let errors = every_error();
    let get = |name: &str| errors.iter().find(|(n, _)| *n == name).unwrap().1.clone();
    assert_eq!(get("empty"), DecodeError::Empty);
    assert_eq!(
        get("wrong length bytes"),
        DecodeError::WrongLength {
            unit: "bytes",
            expected: 11,
            found: 10
        }
    );
    assert_eq!(
        get("wrong length facelets"),
        DecodeError::WrongLength {
            unit: "facelets",
            expected: 54,
            found: 53
        }
    );
    assert_eq!(get("non-ascii"), DecodeError::NonAscii { column: 53 });
    assert_eq!(
        get("bad hex digit"),
        DecodeError::BadHexDigit {
            column: 21,
            found: 'z'
        }
    );
    assert_eq!(
        get("ep out of range"),
        DecodeError::FieldOutOfRange {
            field: Field::Ep,
            value: 479001600
        }
    );
    assert_eq!(
        get("cp out of range"),
        DecodeError::FieldOutOfRange {
            field: Field::Cp,
            value: 40320
        }
    );
    assert_eq!(
        get("co out of range"),
        DecodeError::FieldOutOfRange {
            field: Field::Co,
            value: 6561
        }
    );
    assert_eq!(
        get("po_u out of range"),
        DecodeError::FieldOutOfRange {
            field: Field::PoU,
            value: 6
        }
    );
    assert_eq!(
        get("non-canonical po_l"),
        DecodeError::NonCanonical {
            field: Field::PoL,
            value: 3
        }
    );
    assert_eq!(
        get("non-canonical mo"),
        DecodeError::NonCanonical {
            field: Field::Mo,
            value: 4095
        }
    );
    assert_eq!(
        get("unknown piece"),
        DecodeError::UnknownPiece {
            token: "BU".into(),
            column: 5
        }
    );
    assert_eq!(
        get("duplicate piece"),
        DecodeError::DuplicatePiece {
            piece: "UF",
            column: 5
        }
    );
    assert_eq!(
        get("bad orientation"),
        DecodeError::BadOrientation {
            piece: "UFR",
            found: '3',
            column: 52
        }
    );
    assert_eq!(
        get("no orientation digit"),
        DecodeError::BadOrientation {
            piece: "DBL",
            found: '\0',
            column: 87
        }
    );
    assert_eq!(
        get("missing pieces"),
        DecodeError::MissingPieces {
            found: 2,
            expected: 20
        }
    );
    assert_eq!(
        get("trailing garbage"),
        DecodeError::TrailingGarbage { column: 89 }
    );
    assert_eq!(get("illegal"), DecodeError::Illegal(CubeError::FlipSum));
    assert_eq!(
        get("b32 groups"),
        DecodeError::B32Groups { found: vec![8, 13] }
    );
    assert_eq!(
        get("b32 letter"),
        DecodeError::B32Letter {
            column: 19,
            found: '-'
        }
    );
    assert_eq!(
        get("b32 corner"),
        DecodeError::B32Piece {
            column: 8,
            found: 'Z',
            value: 25,
            corner: true
        }
    );
    assert_eq!(
        get("b32 edge"),
        DecodeError::B32Piece {
            column: 21,
            found: 'c',
            value: 28,
            corner: false
        }
    );
    assert_eq!(
        get("b32 duplicate"),
        DecodeError::DuplicatePiece {
            piece: "UF",
            column: 21
        }
    );
    assert_eq!(
        get("b32 orientation"),
        DecodeError::B32Orientation {
            column: 23,
            found: 'Y'
        }
    );
    assert_eq!(get("b32 illegal"), DecodeError::Illegal(CubeError::FlipSum));
    assert!(matches!(get("facelet"), DecodeError::Facelet(_)));
    assert_eq!(
        get("centres not a rotation"),
        DecodeError::CentresNotARotation
    );
    assert_eq!(get("centre parity"), DecodeError::CentreParity);
    assert!(matches!(get("alg"), DecodeError::Alg(_)));
    assert!(matches!(get("json"), DecodeError::Json(_)));
    assert!(matches!(get("bad pattern"), DecodeError::BadPattern { .. }));
    assert!(matches!(
        get("detected"),
        DecodeError::Detected {
            format: Format::Alg,
            ..
        }
    ));
    assert_eq!(
        get("record"),
        DecodeError::Record {
            index: 1,
            error: Box::new(DecodeError::FieldOutOfRange {
                field: Field::Ep,
                value: (1 << 29) - 1
            })
        }
    );
    assert!(matches!(
        get("batch length"),
        DecodeError::WrongLength { found: 12, .. }
    ));
}

#[test]
fn messages_are_lowercase_without_a_final_period() {
    for (name, error) in every_error() {
        let message = error.to_string();
        assert!(!message.is_empty(), "{name}");
        assert!(!message.ends_with('.'), "{name}: {message}");
        let first = message.chars().next().unwrap();
        // Field names such as EP and PO_U are written as the specification spells them.
        assert!(
            !first.is_uppercase() || message.starts_with("Twizzle"),
            "{name}: {message}"
        );
    }
    assert_eq!(
        every_error()[6].1.to_string(),
        "Twizzle binary field EP is 479001600, but it must be less than 12! = 479001600"
    );
}
