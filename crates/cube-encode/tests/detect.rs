//! Format detection: each format is recognised by its shape, a text with a shape is refused
//! with its format's error (never read as moves), and `parse_as` forces a format.

use cube_core::Alg;
use cube_encode::{
    DecodeError, Format, State, b32, detect, facelet, h48, kpattern, parse_as, reid, shape, twizzle,
};

fn state() -> State {
    State::from_alg(&"R U R' U' F2 D".parse::<Alg>().unwrap())
}

const SOLVED_FACELETS: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
const SOLVED_REID: &str = "UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR";

/// The format `detect` assumed for `text`, which must fail.
fn refused_as(text: &str) -> (Format, DecodeError) {
    match detect(text) {
        Err(DecodeError::Detected { format, error }) => (format, *error),
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn each_format_is_recognised() {
    let s = state();
    let facelets = facelet::encode(&s);
    let by_face = facelets
        .as_bytes()
        .chunks(9)
        .map(|face| std::str::from_utf8(face).unwrap())
        .collect::<Vec<_>>();
    let cases = [
        (Format::Alg, "R U R' U' F2 D".to_string()),
        (Format::H48, h48::encode(&s)),
        (Format::Reid, reid::encode(&s)),
        (Format::B32, b32::encode(&s)),
        (Format::B32, b32::encode(&s)[..b32::SHORT_LEN].to_string()),
        (Format::Facelets, facelet::encode(&s)),
        (Format::Facelets, by_face.join(" ")),
        (Format::Facelets, by_face.join("\n")),
        (Format::TwizzleHex, twizzle::encode_hex(&s)),
        (Format::TwizzleHex, format!("0x{}", twizzle::encode_hex(&s))),
        (Format::PatternJson, kpattern::encode(&s)),
        (Format::PatternJson, kpattern::encode_wrapped(&s)),
    ];
    for (format, text) in cases {
        let (found, read) = detect(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(found, format, "{text}");
        assert_eq!(read.cube(), s.cube(), "{text}");
    }
}

// Issue 31, item 1: these texts were algorithms too ("U F0 U B0 ...", 54 face turns, 22 B
// turns) until moves needed a space between them, as in cubing.js; now the move reader refuses
// them, and each is its own format.
#[test]
fn structured_formats_are_no_spaceless_algs() {
    let missing_space = |text: &str| match parse_as(Format::Alg, text) {
        Err(DecodeError::Alg(e)) => *e.kind() == cube_core::ParseErrorKind::MissingSpace,
        _ => false,
    };
    let h48_text = h48::encode(&State::SOLVED);
    assert!(missing_space(&h48_text));
    assert_eq!(detect(&h48_text).unwrap().0, Format::H48);
    assert!(missing_space(SOLVED_FACELETS));
    assert_eq!(detect(SOLVED_FACELETS).unwrap().0, Format::Facelets);
    let text = "BBBBBBBBBBBBBBBBBBBBBB";
    assert_eq!(detect(text).unwrap().0, Format::TwizzleHex);
    assert!(missing_space(text));
}

// See: issue 14, item 1 (a malformed structured state fell back to the move reader and was
// answered for another cube).
#[test]
fn a_malformed_structured_state_is_refused_as_its_format() {
    let h48_text = h48::encode(&State::SOLVED);
    let h48_tokens: Vec<&str> = h48_text.split(' ').collect();
    let reid_tokens: Vec<&str> = SOLVED_REID.split(' ').collect();
    let cases = [
        // H48: a bad orientation digit, a duplicate piece, a missing piece, 21 pieces.
        (h48_text.replace("UFR0", "UFR3"), Format::H48),
        (h48_text.replace("UB0", "UF0"), Format::H48),
        (h48_tokens[..19].join(" "), Format::H48),
        (format!("{h48_text} UF0"), Format::H48),
        // Facelets: 53 and 55 letters, with spaces between faces, one face per line, and 54
        // letters that are not a cube.
        (SOLVED_FACELETS[1..].to_string(), Format::Facelets),
        (format!("{SOLVED_FACELETS}U"), Format::Facelets),
        (
            "UUUUUUUUU RRRRRRRRR FFFFFFFFF DDDDDDDDD LLLLLLLLL BBBBBBBB".to_string(),
            Format::Facelets,
        ),
        (
            "UUUUUUUUU\nRRRRRRRRR\nFFFFFFFFF\nDDDDDDDDD\nLLLLLLLLL\nBBBBBBBBF".to_string(),
            Format::Facelets,
        ),
        (
            SOLVED_FACELETS.replace("UUUUUUUUU", "UUUUUUUUR"),
            Format::Facelets,
        ),
        // Reid: a flipped corner written twice, 19 pieces.
        (SOLVED_REID.replace("URB", "UFR"), Format::Reid),
        (reid_tokens[..19].join(" "), Format::Reid),
        // Twizzle hex out of range, and 21 and 23 digits.
        ("ffffffffffffffffffffff".to_string(), Format::TwizzleHex),
        ("fffffffffffffffffffff".to_string(), Format::TwizzleHex),
        ("0x9c14df400001baa52800000".to_string(), Format::TwizzleHex),
        // B32: a separator missing, an edge numbered 12, a 25th orientation, a twisted corner
        // written twice.
        ("ABCDEFGHABCDEFGHIJKL=A".to_string(), Format::B32),
        ("ABCDEFGH=ABCDEFGHIJKM=A".to_string(), Format::B32),
        ("ABCDEFGH=ABCDEFGHIJKL=Y".to_string(), Format::B32),
        ("ABCDEFGI=ABCDEFGHIJKL=A".to_string(), Format::B32),
        ("ABCDEFGH=ABCDEFGHIJKL=\nA".to_string(), Format::B32),
        // JSON that is not a pattern.
        ("{\"EDGES\": 3}".to_string(), Format::PatternJson),
        // A long run of letters is never moves.
        ("RURURURURURURU".to_string(), Format::Facelets),
    ];
    for (text, format) in cases {
        let (found, error) = refused_as(&text);
        assert_eq!(found, format, "{text}: {error}");
        // The reader of that format says the same.
        assert_eq!(parse_as(format, &text), Err(error), "{text}");
    }
    // Only text with no shape is read as moves, with cubing.js grouping.
    for text in [
        "R U (F)",
        "(R U)",
        "(R U R' U')6 x2 M'",
        "[R, U] [F: R U R']",
    ] {
        assert_eq!(shape(text), None, "{text}");
        assert_eq!(detect(text).unwrap().0, Format::Alg, "{text}");
    }
    // Juxtaposed moves are no moves (issue 31; this list had "RUR'U'" as an algorithm): a
    // short text is the move reader's error.
    for text in ["RUR'U'", "UFR1", "BL0", "(R U R' U')x6"] {
        assert_eq!(shape(text), None, "{text}");
        let (format, error) = refused_as(text);
        assert_eq!(format, Format::Alg, "{text}");
        assert!(error.to_string().contains("space"), "{text}: {error}");
    }
    // A comment's words are not moves.
    assert_eq!(detect("R U // counterclockwise").unwrap().0, Format::Alg);
}

// See: issue 31, item 1 (each of these was read as juxtaposed moves and answered for another
// cube). A text that looks like a structured format and fails its reader gets that reader's
// error; a B32 or Twizzle text with a mistake is blamed on B32 or Twizzle.
#[test]
fn structured_text_outside_the_shapes_is_never_moves() {
    let s = state();
    let h48_text = h48::encode(&s);
    let h48_tokens: Vec<&str> = h48_text.split(' ').collect();
    let reid_text = reid::encode(&s);
    let reid_tokens: Vec<&str> = reid_text.split(' ').collect();
    let hex = twizzle::encode_hex(&s);
    let facelets = facelet::encode(&s);
    let rows: Vec<&str> = (0..18).map(|r| &facelets[3 * r..3 * r + 3]).collect();
    let faces: Vec<&str> = (0..6).map(|f| &facelets[9 * f..9 * f + 9]).collect();
    let split_face = format!(
        "{} {} {} {}",
        faces[0],
        &faces[1][..4],
        &faces[1][4..],
        faces[2..].join(" ")
    );
    let cases = [
        // 53 stickers by row, and by row with a row split.
        (
            "UUU UUU UUU RRR RRR RRR FFF FFF FFF DDD DDD DDD LLL LLL LLL BBB BBB BB".to_string(),
            Format::Facelets,
            "found 53 facelets, expected 54",
        ),
        (
            format!(
                "{} {} {}",
                rows[..5].join(" "),
                &rows[5][..1],
                rows[5..].join(" ")
            ),
            Format::Facelets,
            "found 55 facelets, expected 54",
        ),
        (
            h48_tokens[..14].join(" "),
            Format::H48,
            "14 pieces, expected 20",
        ),
        (h48_text.to_lowercase(), Format::H48, ""),
        (reid_tokens[..10].join(" "), Format::Reid, ""),
        (reid_tokens[10..].join(" "), Format::Reid, ""),
        (hex[..11].to_string(), Format::TwizzleHex, ""),
        (format!("{hex} R U"), Format::TwizzleHex, ""),
        (
            "d3d275788b2c83a5680000 R U".to_string(),
            Format::TwizzleHex,
            "",
        ),
        ("OCVATEJH=K".to_string(), Format::B32, ""),
        // Faces cut short, one with a digit typo among the hex letters B, D and F: no hex.
        (
            format!("{} {} BBBDDDFF4 U", faces[0], faces[1]),
            Format::Facelets,
            "found 28 facelets, expected 54",
        ),
        (format!("{} R U", b32::encode(&s)), Format::B32, ""),
    ];
    for (text, format, message) in cases {
        let (found, error) = refused_as(&text);
        assert_eq!(found, format, "{text}: {error}");
        assert_eq!(parse_as(format, &text), Err(error.clone()), "{text}");
        assert!(error.to_string().contains(message), "{text}: {error}");
    }
    // A face split into a 4- and a 5-sticker token is still facelets, of the same cube.
    let (found, read) = detect(&split_face).unwrap();
    assert_eq!((found, read.cube()), (Format::Facelets, s.cube()));
    // Pieces too few to be anything but a typo in moves are the move reader's error.
    for text in ["UFR1", "BL0", "L0", "R U RU"] {
        assert_eq!(refused_as(text).0, Format::Alg, "{text}");
    }
}

#[test]
fn the_error_names_the_format_assumed() {
    let message = detect("R U Q").unwrap_err().to_string();
    assert!(message.starts_with("as alg: "), "{message}");
    assert!(message.contains("column 5"), "{message}");
    let bad_counts = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBR";
    let message = detect(bad_counts).unwrap_err().to_string();
    assert!(message.starts_with("as facelets: "), "{message}");
    assert!(parse_as(Format::Alg, bad_counts).is_err());
    let message = detect("{\"EDGES\": 3}").unwrap_err().to_string();
    assert!(message.starts_with("as pattern-json: "), "{message}");
    // Too long an algorithm is an algorithm's error, not an H48 one.
    let (format, error) = refused_as("(R U)1000000");
    assert_eq!(format, Format::Alg);
    assert!(
        error.to_string().contains("expands to more than"),
        "{error}"
    );
    // See: issue 58 (`R1000000000000` was blamed on the facelet reader, "found 14 facelets"):
    // a move with an amount too large is the move reader's error, alone or among moves.
    for text in [
        "R1000000000000",
        "R U R1000000000000'",
        "(R U)99999999999999",
    ] {
        let (format, error) = refused_as(text);
        assert_eq!(format, Format::Alg, "{text}: {error}");
        assert!(
            error.to_string().contains("is too large"),
            "{text}: {error}"
        );
    }
    let message = detect("fffffffffffffffffffff").unwrap_err().to_string();
    assert!(message.contains("21 hex digits, expected 22"), "{message}");
    assert_eq!(detect("   \n"), Err(DecodeError::Empty));
}

#[test]
fn reid_strings_read_as_published() {
    assert_eq!(reid::decode(SOLVED_REID), Ok(State::SOLVED));
    assert_eq!(reid::encode(&State::SOLVED), SOLVED_REID);
    // The cube-in-a-cube pattern as vc-optimal's README writes it (Singmaster positional
    // notation), and the pattern's usual algorithm.
    let cube_in_cube = "UF UR FL FD BR BU DB DL FR RD LU BL UFR FUL FLD FDR BUR BRD DLB BLU";
    let alg: Alg = "F L F U' R U F2 L2 U' L' B D' B' L2 U".parse().unwrap();
    assert_eq!(
        reid::decode_solvable(cube_in_cube).map(|s| s.cube()),
        Ok(State::from_alg(&alg).cube())
    );
    // The superflip: every edge flipped in place.
    let superflip = "FU RU BU LU FD RD BD LD RF LF RB LB UFR URB UBL ULF DRF DFL DLB DBR";
    let cube = reid::decode_solvable(superflip).unwrap().cube();
    assert_eq!(cube.edge_ori(), [1; 12]);
    assert_eq!(cube.corner_perm(), cube_core::Cube::SOLVED.corner_perm());
}

/// One B32 text is never split over lines: a B32 line and a line of moves are two states (the
/// CLI splits them), while either alone, even with a stray newline, is B32.
#[test]
fn b32_over_several_lines_is_no_single_state() {
    let two_lines = "ABCDEFGH=ABCDEFGHIJKL=A\nR";
    assert_eq!(cube_encode::structured_shape(two_lines), None);
    assert_eq!(shape(two_lines), Some(Format::B32));
    assert_eq!(
        cube_encode::structured_shape("ABCDEFGH=ABCDEFGHIJKL\n"),
        Some(Format::B32)
    );
}

#[test]
fn format_names() {
    for f in Format::ALL {
        assert_eq!(f.name().parse::<Format>(), Ok(f));
    }
    assert!("json".parse::<Format>().is_err());
}
