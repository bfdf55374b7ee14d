//! Every facelet error kind, each produced by a crafted bad cube.

use cube_core::{Corner, CubeError, Edge, Face, FaceletCube, FaceletError};

const SOLVED: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";

fn stickers(text: &str) -> FaceletCube {
    FaceletCube::new(text.as_bytes().try_into().expect("54 stickers"))
}

fn with(changes: &[(usize, u8)]) -> FaceletCube {
    let mut colours = *stickers(SOLVED).colours();
    for &(i, c) in changes {
        colours[i] = c;
    }
    FaceletCube::new(colours)
}

fn swap(text: &str, pairs: &[(usize, usize)]) -> FaceletCube {
    let mut colours = *stickers(text).colours();
    for &(a, b) in pairs {
        colours.swap(a, b);
    }
    FaceletCube::new(colours)
}

#[test]
fn any_colour_scheme_is_accepted() {
    let scheme = SOLVED
        .replace('U', "W")
        .replace('R', "r")
        .replace('F', "G")
        .replace('D', "Y")
        .replace('L', "O")
        .replace('B', "b");
    assert_eq!(
        stickers(&scheme).to_cube_solvable(),
        Ok(cube_core::Cube::SOLVED)
    );
    // R applied, in the same colours.
    let r = "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB";
    let recoloured: String = r
        .chars()
        .map(|c| match c {
            'U' => '1',
            'R' => '2',
            'F' => '3',
            'D' => '4',
            'L' => '5',
            _ => '6',
        })
        .collect();
    assert_eq!(
        stickers(&recoloured).to_cube_solvable(),
        stickers(r).to_cube_solvable()
    );
}

#[test]
fn centres_not_distinct() {
    // Paint the R centre with the U colour.
    let bad = with(&[(13, b'U')]);
    assert_eq!(
        bad.to_cube_solvable(),
        Err(FaceletError::CentresNotDistinct {
            colour: 'U',
            faces: (Face::U, Face::R)
        })
    );
}

#[test]
fn wrong_colour_counts() {
    // One U sticker painted R: ten R, eight U.
    let bad = with(&[(0, b'R')]);
    assert!(matches!(
        bad.to_cube_solvable(),
        Err(FaceletError::ColourCount { .. })
    ));
    let problems = bad.problems();
    assert!(
        problems.contains(&FaceletError::ColourCount {
            colour: 'R',
            count: 10
        }),
        "{problems:?}"
    );
    assert!(
        problems.contains(&FaceletError::ColourCount {
            colour: 'U',
            count: 8
        }),
        "{problems:?}"
    );
}

/// Issue 31, item 7: a sticker in a colour that no centre has is named as such, alone (not as a
/// centre colour on eight stickers), by `problems` and by the reader.
#[test]
fn i31_7_unknown_colour_is_named() {
    let bad = with(&[(53, b'X')]);
    let unknown = FaceletError::UnknownColour {
        colour: 'X',
        facelets: vec![53],
    };
    assert_eq!(bad.problems(), std::slice::from_ref(&unknown));
    assert_eq!(bad.to_cube_solvable(), Err(unknown.clone()));
    assert_eq!(
        unknown.to_string(),
        "sticker B9 is 'X', a colour that no centre has (each sticker has the colour of one of the six centres)"
    );
    // Two unknown stickers and a U sticker too many: R and B are short, which is not named.
    let bad = with(&[(9, b'U'), (17, b'X'), (53, b'X')]);
    assert_eq!(
        bad.problems(),
        [
            FaceletError::ColourCount {
                colour: 'U',
                count: 10
            },
            FaceletError::UnknownColour {
                colour: 'X',
                facelets: vec![17, 53]
            },
        ]
    );
}

#[test]
fn invalid_pieces() {
    // Swap the U and R stickers of the UR edge with the U and F stickers... keep counts, break pieces:
    // give URF corner colours U R R? Counts would change; instead swap two stickers of different
    // pieces so both become impossible: U9 (URF's U) with F2 (UF's F).
    let bad = swap(SOLVED, &[(8, 19)]);
    let problems = bad.problems();
    assert!(
        matches!(
            problems[0],
            FaceletError::InvalidCorner {
                position: Corner::URF,
                ..
            }
        ),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| matches!(
            p,
            FaceletError::InvalidEdge {
                position: Edge::UF,
                ..
            }
        )),
        "{problems:?}"
    );
    // A mirror-image corner (colours in anticlockwise order): swap R1 and F3.
    let bad = swap(SOLVED, &[(9, 20)]);
    assert_eq!(
        bad.to_cube_solvable(),
        Err(FaceletError::InvalidCorner {
            position: Corner::URF,
            colours: ['U', 'F', 'R']
        })
    );
}

#[test]
fn duplicate_pieces() {
    // Paint the UFL corner as a second URF corner and the URF corner as UFL's colours would clash;
    // instead copy the UR edge's stickers onto UF and the UF edge's onto UR with one changed.
    // Simplest: UL edge painted as UR (U, R), and UR painted as UL: that is a swap (legal pieces,
    // wrong parity). For a duplicate, paint UL as UR and DR as... keep counts: UL (U4 L2) becomes
    // U R, and FR (F6 R4) becomes F L: then L2 lost an L and R4 lost an R, balanced.
    let bad = with(&[(37, b'R'), (12, b'L')]);
    let problems = bad.problems();
    assert!(
        problems.contains(&FaceletError::DuplicateEdge {
            piece: Edge::UR,
            positions: (Edge::UR, Edge::UL)
        }),
        "{problems:?}"
    );
    assert!(
        problems.contains(&FaceletError::DuplicateEdge {
            piece: Edge::FL,
            positions: (Edge::FR, Edge::FL)
        }),
        "{problems:?}"
    );
}

#[test]
fn unsolvable_states() {
    // Twist URF clockwise in place: U9 R1 F3 = U R F becomes F U R.
    let twisted = with(&[(8, b'F'), (9, b'U'), (20, b'R')]);
    assert_eq!(
        twisted.to_cube_solvable(),
        Err(FaceletError::Unsolvable(CubeError::TwistSum { sum: 1 }))
    );
    assert!(twisted.to_cube().is_ok());
    // Flip UR in place.
    let flipped = swap(SOLVED, &[(5, 10)]);
    assert_eq!(
        flipped.to_cube_solvable(),
        Err(FaceletError::Unsolvable(CubeError::FlipSum))
    );
    // Swap the UR and UF edges.
    let swapped = swap(SOLVED, &[(5, 7), (10, 19)]);
    assert_eq!(
        swapped.to_cube_solvable(),
        Err(FaceletError::Unsolvable(CubeError::ParityMismatch {
            corners_odd: false,
            edges_odd: true
        }))
    );
    // All three at once are all reported.
    let mut colours = *twisted.colours();
    colours.swap(5, 10);
    colours.swap(28, 25); // flip DF too: the flip sum is even again.
    colours.swap(30, 43); // and DL: odd.
    let problems = FaceletCube::new(colours).problems();
    assert_eq!(
        problems,
        vec![
            FaceletError::Unsolvable(CubeError::TwistSum { sum: 1 }),
            FaceletError::Unsolvable(CubeError::FlipSum)
        ]
    );
}

#[test]
fn messages_are_plain_words() {
    let twisted = with(&[(8, b'F'), (9, b'U'), (20, b'R')]);
    let message = twisted.to_cube_solvable().unwrap_err().to_string();
    assert!(message.contains("twisted"), "{message}");
    let bad = swap(SOLVED, &[(9, 20)]);
    assert!(
        bad.to_cube_solvable()
            .unwrap_err()
            .to_string()
            .contains("URF")
    );
    // See: issue 14, item 8 (the parity error never said "parity"). UF and UR swapped.
    let swapped = swap(SOLVED, &[(5, 7), (10, 19)]);
    let message = swapped.to_cube_solvable().unwrap_err().to_string();
    assert!(message.contains("parity"), "{message}");
}

// See: issue 14, item 8 (swapped centres came out as eight colour errors).
#[test]
fn moved_centres_are_named_as_such() {
    // U and R centres swapped; then the same in other colours; then the side centres turned
    // like y (a rotation of the centres alone).
    let centres = [4, 13, 22, 31, 40, 49];
    let y_turned = swap(SOLVED, &[(13, 22), (22, 40), (40, 49)]);
    for (bad, found) in [
        (swap(SOLVED, &[(4, 13)]), "RUFDLB"),
        (
            swap(&SOLVED.replace('U', "W").replace('F', "G"), &[(4, 13)]),
            "RWGDLB",
        ),
        (y_turned, "UFLDBR"),
    ] {
        let problems = bad.problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        let FaceletError::CentresMisplaced { found: shown, fits } = &problems[0] else {
            panic!("{problems:?}");
        };
        assert_eq!(String::from_iter(shown), found);
        // The arrangement it proposes makes a real cube.
        let mut fixed = *bad.colours();
        for (face, &c) in centres.iter().zip(fits) {
            fixed[*face] = c as u8;
        }
        assert!(
            FaceletCube::new(fixed).to_cube_solvable().is_ok(),
            "{fits:?}"
        );
        let message = bad.to_cube_solvable().unwrap_err().to_string();
        assert!(
            message.contains("centres are not in their places"),
            "{message}"
        );
    }
    // A real sticker mistake is still reported as one.
    let one_sticker = with(&[(9, b'F'), (20, b'R')]);
    assert!(
        !matches!(
            one_sticker.problems()[0],
            FaceletError::CentresMisplaced { .. }
        ),
        "{:?}",
        one_sticker.problems()
    );
}

/// "appears 1 time", not "1 times" (issue 36, item 6).
#[test]
fn a_colour_count_of_one_is_singular() {
    let message = |count| FaceletError::ColourCount { colour: 'R', count }.to_string();
    assert!(
        message(1).starts_with("colour 'R' appears 1 time, expected 9"),
        "{}",
        message(1)
    );
    assert!(
        message(10).starts_with("colour 'R' appears 10 times, expected 9"),
        "{}",
        message(10)
    );
}
