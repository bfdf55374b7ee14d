//! Parsing, printing, expansion and inversion of algorithms.

use cube_core::{Alg, Centers, Face, Move, Symmetry};

use crate::cube_of;

fn expand(text: &str) -> (String, Symmetry) {
    let e = text.parse::<Alg>().unwrap().expand();
    (Alg::from_moves(&e.moves).to_string(), e.rotation)
}

#[test]
fn slices_wide_and_rotations_expand_with_fixed_centres() {
    assert_eq!(expand("M"), ("R L'".into(), Symmetry::X.inverse()));
    assert_eq!(expand("E"), ("U D'".into(), Symmetry::Y.inverse()));
    assert_eq!(expand("S"), ("F' B".into(), Symmetry::Z));
    assert_eq!(expand("r"), ("L".into(), Symmetry::X));
    assert_eq!(expand("Rw"), expand("r"));
    assert_eq!(expand("Uw2'"), ("D2".into(), Symmetry::Y.then(Symmetry::Y)));
    // After x, U turns the face that was in front.
    assert_eq!(expand("x U"), ("F".into(), Symmetry::X));
    assert_eq!(expand("y R"), ("B".into(), Symmetry::Y));
    assert_eq!(expand("z U"), ("L".into(), Symmetry::Z));
    // x y z x is a rotation from the 24.
    assert!(!expand("x y z x").1.is_mirror());
}

// See: issue 31, item 9. cubing.js's 3x3x3 (its kpuzzle definition's derivedMoves) defines
// the numbered middle layers as `"2R": "r R'"`, `"2L": "l L'"`, `"2U": "u U'"`, `"2D": "d D'"`,
// `"2F": "f F'"`, `"2B": "b B'"`: on a 3x3x3, `2R` is `M'`, `2L` is `M`, `2U` is `E'`, `2D` is
// `E`, `2F` is `S` and `2B` is `S'`.
#[test]
fn numbered_layers_are_cubing_js_derived_moves() {
    let expanded = |text: &str| {
        let e = text.parse::<Alg>().unwrap().expand();
        (e.cube(), e.centers(), e.rotation)
    };
    for (numbered, derived, slice) in [
        ("2R", "r R'", "M'"),
        ("2L", "l L'", "M"),
        ("2U", "u U'", "E'"),
        ("2D", "d D'", "E"),
        ("2F", "f F'", "S"),
        ("2B", "b B'", "S'"),
    ] {
        assert_eq!(expanded(numbered), expanded(derived), "{numbered}");
        assert_eq!(expanded(numbered), expanded(slice), "{numbered}");
        for amount in ["2", "'", "3", "2'"] {
            let with = |t: &str| format!("({t}){amount}");
            assert_eq!(
                expanded(&format!("{numbered}{amount}")),
                expanded(&with(derived)),
                "{numbered}{amount}"
            );
        }
        // After a rotation, a numbered layer is relative to the rotated cube like any move.
        assert_eq!(
            expanded(&format!("x y {numbered} U")),
            expanded(&format!("x y {derived} U")),
            "{numbered}"
        );
    }
}

#[test]
fn grouping_commutators_and_conjugates() {
    assert_eq!(
        cube_of("(R U R' U')3"),
        cube_of("R U R' U' R U R' U' R U R' U'")
    );
    assert_eq!(cube_of("[R, U]"), cube_of("R U R' U'"));
    assert_eq!(cube_of("[R: U]"), cube_of("R U R'"));
    assert_eq!(cube_of("[R, U]'"), cube_of("U R U' R'"));
    assert_eq!(cube_of("[R: U]2'"), cube_of("R U2 R'"));
    assert_eq!(cube_of("[F: [R, U]]"), cube_of("F R U R' U' F'"));
    assert_eq!(cube_of("(R U)'"), cube_of("U' R'"));
    assert_eq!(cube_of("(x U)2 x2"), cube_of("F D"));
}

#[test]
fn inverse_of_every_construct() {
    for text in [
        "R U2' F3",
        "(R U R' U')3 x",
        "[R, U] [F: M2] y2",
        "r' E S2 Uw z'",
        "[x: [R, U']2]'",
    ] {
        let alg: Alg = text.parse().unwrap();
        let inverse = alg.inverse();
        let both: Alg = format!("{alg} {inverse}").parse().unwrap();
        assert!(both.expand().cube().is_solved(), "{text} / {inverse}");
        assert_eq!(both.expand().rotation, Symmetry::IDENTITY);
        let forward = alg.expand().rotation;
        assert_eq!(
            forward.then(inverse.expand().rotation),
            Symmetry::IDENTITY,
            "{text}"
        );
        let reparsed: Alg = inverse.to_string().parse().unwrap();
        assert_eq!(reparsed, inverse);
    }
}

// See: issue 58 (`convert --to alg` wrote half turns as `R2'`, which cubers never write). A half
// turn of any layer is its own inverse and is written `X2`; a group's amount keeps its sign.
#[test]
fn the_inverse_writes_half_turns_as_cubers_do() {
    for (text, inverse) in [
        ("R2 U' F2' B", "B' F2 U R2"),
        ("M2 x2 Rw2' u2 2R2", "2R2 u2 Rw2 x2 M2"),
        ("R6 (R U)2", "(R U)2' R6"),
    ] {
        let alg: Alg = text.parse().unwrap();
        assert_eq!(alg.inverse().to_string(), inverse, "{text}");
        let both: Alg = format!("{text} {inverse}").parse().unwrap();
        assert!(both.expand().cube().is_solved(), "{text} / {inverse}");
        assert_eq!(both.expand().rotation, Symmetry::IDENTITY, "{text}");
    }
}
#[test]
fn move_parsing() {
    assert_eq!("R2'".parse::<Move>(), Ok(Move::R2));
    assert_eq!("R3".parse::<Move>(), Ok(Move::R3));
    assert_eq!(" U' ".parse::<Move>(), Ok(Move::U3));
    assert!("R4".parse::<Move>().is_err());
    assert!("M".parse::<Move>().is_err());
    assert!("R U".parse::<Move>().is_err());
}

#[test]
fn centres_follow_face_turns_and_slices() {
    let centers = "M".parse::<Alg>().unwrap().expand().centers();
    assert_eq!(centers, Centers::new([0, 1, 0, 0, 3, 0]));
    assert_eq!(centers.get(Face::R), 1);
}

#[test]
fn no_input_panics() {
    for text in [
        "", "(", ")", "[", "]", "[,]", "[:]", "((((", "R'''", "R2'2", "//", "/", "x'2'", "Rww",
        "é", "R\u{0}", "[R,", "[R:U", "(R)'3",
    ] {
        let _ = text.parse::<Alg>();
    }
    assert!("".parse::<Alg>().unwrap().is_empty());
}

/// Parses `text` on a thread with a small stack (as rayon's workers and the main thread of a
/// small process have), so that a recursion the depth limit misses fails the test by aborting.
fn parse_on_small_stack(text: String) -> Result<Alg, cube_core::ParseError> {
    std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let parsed = text.parse::<Alg>();
            // Expanding, inverting, printing and dropping recurse per level too.
            if let Ok(alg) = &parsed {
                let _ = (alg.expand(), alg.inverse(), alg.to_string());
            }
            parsed
        })
        .unwrap()
        .join()
        .unwrap()
}

// See: issue 14, item 3 (nesting 20k-100k deep overflowed the stack and aborted).
#[test]
fn deep_nesting_is_an_error_naming_the_limit() {
    use cube_core::{MAX_NESTING, ParseErrorKind};
    for depth in [MAX_NESTING + 1, 20_000, 100_000] {
        for (open, close) in [("(", ")"), ("[R, ", "]"), ("[R: ", "]")] {
            let text = format!("{}R{}", open.repeat(depth), close.repeat(depth));
            let e = parse_on_small_stack(text).unwrap_err();
            assert_eq!(e.kind(), &ParseErrorKind::TooDeep, "{open} x {depth}");
            // The opener one level too deep is blamed, with the limit in the message.
            assert_eq!(e.column(), MAX_NESTING * open.chars().count() + 1);
            assert!(e.to_string().contains("256"), "{e}");
        }
    }
    // The limit itself is fine, and means what it says.
    let text = format!("{}R{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
    let alg = parse_on_small_stack(text).unwrap();
    assert_eq!(Alg::from_moves(&alg.moves()).to_string(), "R");
    let text = format!("{}R{}", "[U: ".repeat(MAX_NESTING), "]".repeat(MAX_NESTING));
    assert!(parse_on_small_stack(text).is_ok());
}

// See: issue 14, item 3 (an empty body counted 0 against the expansion limit, so
// `(()1000000)1000000` looped 10^12 times).
#[test]
fn repeating_nothing_counts_against_the_expansion_limit() {
    use cube_core::ParseErrorKind;
    let start = std::time::Instant::now();
    for text in [
        "(()1000000)1000000",
        "([,]1000000)1000000",
        "([:]1000)1000000",
        "((()1000)1000)1000",
    ] {
        let e = text.parse::<Alg>().unwrap_err();
        assert_eq!(e.kind(), &ParseErrorKind::TooLong, "{text}");
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(1));
    // Up to the limit, repeating nothing is allowed and expands to nothing.
    let alg: Alg = "(()1000)1000 R".parse().unwrap();
    assert_eq!(Alg::from_moves(&alg.moves()).to_string(), "R");
}
