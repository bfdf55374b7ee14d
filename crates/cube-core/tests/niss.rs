//! NISS sequences: anchors from nissy-core's tests, and properties searched by proptest.
//!
//! The anchors are nissy-core's (github.com/sebastianotronto/nissy-core, commit 3cb60bc,
//! `test/030_applymoves`, `test/032_countmoves`, `test/150_variations`). Its cubes are in its
//! B32 format; they are written here as the facelets of the same states, converted once with
//! cube-encode's `b32::decode` (itself tested against nissy-core) and `FaceletCube::from_cube`.

use cube_core::{Alg, Cube, FaceletCube, NissAlg, is_canonical};
use proptest::prelude::*;
use rand::SeedableRng;

use crate::cube_of;

fn niss(text: &str) -> NissAlg {
    text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn facelets(cube: &Cube) -> String {
    FaceletCube::from_cube(cube).to_string()
}

/// The scramble of nissy-core's `603_scrambled_long_niss` and `604_scrambled_niss_extendedmoves`
/// (given there as `LFWBCAEH=QSabHBIFJWDU=A`, with this algorithm in a comment).
const SCRAMBLE_603: &str = "R U R F D B2 L F D' B3";

#[test]
fn nissy_core_applymoves() {
    // The scramble's B32 form, as facelets: the comment's algorithm makes it.
    assert_eq!(
        facelets(&cube_of(SCRAMBLE_603)),
        "UBUUUDDFBDRFLRULLLLURLFFDBFFRUFDUDLUBBFFLDLRRRDRRBDBBB"
    );
    // 602's scramble, FECDABGH=EFCDBAGHIJKL=A, is U.
    assert_eq!(
        facelets(&cube_of("U")),
        "UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB"
    );
    let cases = [
        // 600_niss_solved: DGEAHSFJ=JQCWHDKELIFB=A.
        (
            "",
            "R U R (F L F)",
            "DFLDUDDFDRRDRRBRRRBLBFFBLDBULUBDUBDUFFLLLRLLFFURUBUFBU",
        ),
        // 601_niss_solved_widenormal: CUWNQRPT=DabWEFIHJQSR=T (held as FL: the pieces are
        // relative to the centres).
        (
            "",
            "Rw Uw' (F L F)",
            "FLLUUURDDLRULRUBRUFFFFFFDDDFLLFDDRRRLLUDLUDRRBBUBBBBBB",
        ),
        // 602_scrambled_niss_1x3: KQMRONLH=EFCZTYGLHQKB=A.
        (
            "U",
            "R (F)",
            "RURRUFRUFDDBRRBRRBDRLFFDFFDLLBDDBDDLFFFLLULLUULUUBBUBB",
        ),
        // 603_scrambled_long_niss: ADXJKNMG=TaYBFJQGUXCL=A.
        (
            SCRAMBLE_603,
            "R U R (B D2 F')",
            "DLRFUUFFURLBURRFLUDDFRFRDBUBULFDDDRBRLLBLDRULUBBBBDLFF",
        ),
        // 604_scrambled_niss_extendedmoves: EPNOACTJ=WXLDQVZCRYaE=V (held as BR).
        (
            SCRAMBLE_603,
            "M y2 F E (Bw D2 Fw' z2)",
            "LRDLUFULUFUFURRDBDRDLRFBBFBRDRLDDBBRDUFBLFLFULDBUBLFRU",
        ),
    ];
    for (scramble, moves, expected) in cases {
        let state = niss(moves).normal_side(&cube_of(scramble));
        assert_eq!(facelets(&state), expected, "{scramble} with {moves}");
        assert_eq!(
            facelets(&niss(moves).inverse_side(&cube_of(scramble)).inverse()),
            expected
        );
    }
}

#[test]
fn nissy_core_countmoves() {
    // test/032_countmoves: 05_niss 7, 03_S2 2, 02_Fw3 1, 04_y3 0, 01_U 1, 00_empty 0.
    for (moves, count) in [
        ("R2 M Uw (Fw2 M2 y2)", 7),
        ("S2", 2),
        ("Fw3", 1),
        ("y3", 0),
        ("U", 1),
        ("", 0),
    ] {
        assert_eq!(niss(moves).htm(), count, "{moves}");
    }
}

#[test]
fn nissy_core_unniss() {
    // test/150_variations/00_unniss: "Uw2 F B' L x M R D' (D' R2 F' L2 B D')" gives
    // "Uw2 F B' L x M R D' D B' L2 F R2 D". The normal part leaves the cube turned by y2
    // (Uw2 = D2 y2, M = R L' x'), which this crate undoes before the inverse part.
    let x = niss("Uw2 F B' L x M R D' (D' R2 F' L2 B D')");
    assert_eq!(
        x.unniss().to_string(),
        "Uw2 F B' L x M R D' y2 D B' L2 F R2 D"
    );
    // The plain sequence solves what the NISS sequence solves; nissy-core's form, without the
    // y2, does not.
    let scramble = cube_of(&x.unniss().to_string()).inverse();
    assert!(x.normal_side(&scramble).is_solved());
    let nissy_form = cube_of("Uw2 F B' L x M R D' D B' L2 F R2 D");
    assert!(!scramble.compose(&nissy_form).is_solved());
    // Without a rotation the two agree.
    assert_eq!(
        niss("R U R (B D2 F')").unniss().to_string(),
        "R U R F D2 B'"
    );
}

/// Tokens of every kind, with their axis (0 U/D, 1 R/L, 2 F/B).
const TOKENS: [(&str, usize); 24] = [
    ("U", 0),
    ("D", 0),
    ("R", 1),
    ("L", 1),
    ("F", 2),
    ("B", 2),
    ("Uw", 0),
    ("Dw", 0),
    ("Rw", 1),
    ("Lw", 1),
    ("Fw", 2),
    ("Bw", 2),
    ("u", 0),
    ("d", 0),
    ("r", 1),
    ("l", 1),
    ("f", 2),
    ("b", 2),
    ("M", 1),
    ("E", 0),
    ("S", 2),
    ("x", 1),
    ("y", 0),
    ("z", 2),
];
const AMOUNTS: [&str; 5] = ["", "2", "'", "2'", "3"];

/// A random NISS sequence as written: tokens `(token, amount, on the inverse side)`.
fn written() -> impl Strategy<Value = Vec<(usize, usize, bool)>> {
    prop::collection::vec((0..TOKENS.len(), 0..AMOUNTS.len(), any::<bool>()), 0..30)
}

/// The text of `tokens`, each run on the inverse side in parentheses.
fn text(tokens: &[(usize, usize, bool)]) -> String {
    let mut out = String::new();
    let mut inside = false;
    for &(t, a, inverse) in tokens {
        if inverse != inside {
            out.push_str(if inverse { " (" } else { ") " });
            inside = inverse;
        } else {
            out.push(' ');
        }
        out.push_str(TOKENS[t].0);
        out.push_str(AMOUNTS[a]);
    }
    if inside {
        out.push(')');
    }
    out
}

/// Each part of `tokens` with every run of tokens on one axis reversed, written `N (I)`.
fn commuted(tokens: &[(usize, usize, bool)]) -> String {
    let part = |inverse: bool| {
        let mut part: Vec<(usize, usize)> = tokens
            .iter()
            .filter(|t| t.2 == inverse)
            .map(|&(t, a, _)| (t, a))
            .collect();
        let mut start = 0;
        while start < part.len() {
            let axis = TOKENS[part[start].0].1;
            let mut end = start;
            while end < part.len() && TOKENS[part[end].0].1 == axis {
                end += 1;
            }
            part[start..end].reverse();
            start = end;
        }
        part.iter()
            .map(|&(t, a)| format!("{}{}", TOKENS[t].0, AMOUNTS[a]))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!("{} ({})", part(false), part(true))
}

fn scramble() -> impl Strategy<Value = Cube> {
    any::<u64>().prop_map(|seed| Cube::random(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn niss_sequences(tokens in written(), s in scramble()) {
        let x = niss(&text(&tokens));

        // Printing and parsing give the sequence back.
        prop_assert_eq!(niss(&x.to_string()), x.clone());

        // The two sides are inverse.
        prop_assert_eq!(x.inverse_side(&s), x.normal_side(&s).inverse());

        // unniss: the plain sequence solves what the NISS sequence solves, and its state is
        // the normal side's conjugated by the inverse part.
        let plain = x.unniss();
        let solved_by_plain = Cube::SOLVED.apply_alg(&plain).inverse();
        prop_assert!(x.normal_side(&solved_by_plain).is_solved());
        let i = x.inverse_part().expand().cube();
        prop_assert_eq!(
            s.apply_alg(&plain),
            i.compose(&x.normal_side(&s)).compose(&i.inverse())
        );
        let plain_again: Alg = plain.to_string().parse().unwrap();
        prop_assert_eq!(&plain_again, &plain);

        // cleanup keeps both sides and leaves canonical outer face turns.
        let clean = x.cleanup();
        prop_assert_eq!(clean.normal_side(&s), x.normal_side(&s));
        for part in [clean.normal_part(), clean.inverse_part()] {
            let moves = part.moves();
            prop_assert!(is_canonical(&moves));
            prop_assert_eq!(&Alg::from_moves(&moves), part);
        }
        prop_assert_eq!(clean.stm(), clean.htm());
        prop_assert!(clean.htm() <= x.htm());
        prop_assert!(x.stm() <= x.htm() && x.htm() <= x.qtm());

        // invert: an involution, the sides swapped on the inverse scramble.
        let inverted = x.invert();
        prop_assert_eq!(inverted.invert(), x.clone());
        prop_assert_eq!(inverted.normal_side(&s.inverse()), x.inverse_side(&s));
        prop_assert_eq!(
            Cube::SOLVED.apply_alg(&inverted.unniss()),
            Cube::SOLVED.apply_alg(&plain).inverse()
        );

        // Parallel moves commute.
        let y = niss(&commuted(&tokens));
        prop_assert!(x.equal_up_to_commuting(&y), "{} vs {}", x, y);
        prop_assert!(y.equal_up_to_commuting(&x));
        prop_assert_eq!(y.normal_side(&s), x.normal_side(&s));
        prop_assert_eq!((y.htm(), y.qtm(), y.stm()), (x.htm(), x.qtm(), x.stm()));
    }
}
