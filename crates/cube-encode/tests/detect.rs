//! Format detection: each format is recognised, the documented overlaps are settled, real
//! ambiguity is an error that lists the candidates, and `parse_as` forces a format.

use cube_core::Alg;
use cube_encode::{DecodeError, Format, State, detect, facelet, h48, kpattern, parse_as, twizzle};

fn state() -> State {
    State::from_alg(&"R U R' U' F2 D".parse::<Alg>().unwrap())
}

#[test]
fn each_format_is_recognised() {
    let s = state();
    let cases = [
        (Format::Alg, "R U R' U' F2 D".to_string()),
        (Format::H48, h48::encode(&s)),
        (Format::Facelets, facelet::encode(&s)),
        (Format::TwizzleHex, twizzle::encode_hex(&s)),
        (Format::PatternJson, kpattern::encode(&s)),
        (Format::PatternJson, kpattern::encode_wrapped(&s)),
    ];
    for (format, text) in cases {
        let (found, read) = detect(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(found, format, "{text}");
        assert_eq!(read.cube(), s.cube(), "{text}");
    }
}

#[test]
fn structured_formats_beat_spaceless_algs() {
    // Both read as algorithms too ("U F0 U B0 ...", 54 face turns).
    let h48_text = h48::encode(&State::SOLVED);
    assert!(parse_as(Format::Alg, &h48_text).is_ok());
    assert_eq!(detect(&h48_text).unwrap().0, Format::H48);
    let facelets = facelet::encode(&State::SOLVED);
    assert!(parse_as(Format::Alg, &facelets).is_ok());
    assert_eq!(detect(&facelets).unwrap().0, Format::Facelets);
}

#[test]
fn hex_that_is_also_an_alg_is_ambiguous() {
    let text = "BBBBBBBBBBBBBBBBBBBBBB";
    assert_eq!(
        detect(text),
        Err(DecodeError::Ambiguous {
            candidates: vec![Format::TwizzleHex, Format::Alg]
        })
    );
    let as_hex = parse_as(Format::TwizzleHex, text).unwrap();
    let as_alg = parse_as(Format::Alg, text).unwrap();
    assert_ne!(as_hex, as_alg);
    assert_eq!(
        as_alg,
        State::from_alg(&"B2 B2 B2 B2 B2 B2 B2 B2 B2 B2 B2".parse().unwrap())
    );
    let message = detect(text).unwrap_err().to_string();
    assert!(message.contains("twizzle-hex, alg"), "{message}");
}

#[test]
fn nothing_matches_says_why_for_each_format() {
    let Err(DecodeError::NoFormat { attempts }) = detect("hello") else {
        panic!("hello is no format")
    };
    let mut formats: Vec<Format> = attempts.iter().map(|(f, _)| *f).collect();
    formats.sort();
    let mut all = Format::ALL.to_vec();
    all.sort();
    assert_eq!(formats, all);
    assert_eq!(detect("   \n"), Err(DecodeError::Empty));
}

#[test]
fn the_likeliest_format_is_explained_first() {
    // The move sequence reader got furthest: its error comes first.
    let message = detect("R U Q").unwrap_err().to_string();
    assert!(
        message.starts_with("not a cube state: as alg, "),
        "{message}"
    );
    assert!(message.contains("column 5"), "{message}");
    // 54 letters without spaces are stickers, even when they are also 54 face turns.
    let bad_counts = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBR";
    let message = detect(bad_counts).unwrap_err().to_string();
    assert!(
        message.starts_with("not a cube state: as facelets, "),
        "{message}"
    );
    assert!(parse_as(Format::Alg, bad_counts).is_ok());
    // JSON that is not a pattern is explained as JSON.
    let message = detect("{\"EDGES\": 3}").unwrap_err().to_string();
    assert!(
        message.starts_with("not a cube state: as pattern-json, "),
        "{message}"
    );
}

#[test]
fn format_names() {
    for f in Format::ALL {
        assert_eq!(f.name().parse::<Format>(), Ok(f));
    }
    assert!("json".parse::<Format>().is_err());
}
