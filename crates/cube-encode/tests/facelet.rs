//! Facelet strings against RubikTwoPhase and magiccube (facelets.json), other colour schemes,
//! and agreement with cube-core's own reader.

use cube_core::{Alg, Cube, FaceletCube, FaceletError, Symmetry};
use cube_encode::{DecodeError, State, facelet};

use crate::{s, vectors};

#[test]
fn every_vector() {
    let file = vectors("facelets.json");
    let all = file["vectors"].as_array().unwrap();
    assert_eq!(all.len(), 358);
    for v in all {
        let id = s(v, "id");
        let alg: Alg = s(v, "alg").parse().unwrap_or_else(|e| panic!("{id}: {e}"));
        let state = State::from_alg(&alg);
        let text = s(v, "facelets");
        assert_eq!(facelet::encode(&state), text, "{id}");
        assert_eq!(facelet::decode_solvable(text), Ok(state), "{id}");
        if let Some(k) = v.get("kociemba_cubie") {
            let arr = |key: &str| -> Vec<u8> {
                k[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap() as u8)
                    .collect()
            };
            let cube = Cube::from_parts(
                arr("cp").try_into().unwrap(),
                arr("co").try_into().unwrap(),
                arr("ep").try_into().unwrap(),
                arr("eo").try_into().unwrap(),
            )
            .unwrap();
            assert_eq!(cube, state.cube(), "{id}: RubikTwoPhase cubies");
            assert_eq!(state.orientation(), Some(Symmetry::IDENTITY), "{id}");
        }
    }
}

#[test]
fn any_six_colours() {
    let state = State::from_alg(&"R U R' F2 D".parse().unwrap());
    let letters = facelet::encode(&state);
    let coloured: String = letters
        .chars()
        .map(|c| match c {
            'U' => 'W',
            'R' => 'R',
            'F' => 'G',
            'D' => 'Y',
            'L' => 'O',
            'B' => 'B',
            _ => unreachable!(),
        })
        .collect();
    // Colours other than the face letters: the orientation is unknown.
    assert_eq!(facelet::decode(&coloured), Ok(state.with_orientation(None)));
    // Surrounding whitespace is trimmed.
    assert_eq!(facelet::decode(&format!("  {letters}\n")), Ok(state));
}

#[test]
fn rotated_centres_give_the_orientation() {
    for r in Symmetry::rotations() {
        let state = State::from_alg(&"R U2 F'".parse().unwrap()).with_orientation(Some(r));
        let text = facelet::encode(&state);
        assert_eq!(
            text.as_bytes(),
            FaceletCube::from_cube_in_frame(&state.cube(), r).colours(),
            "{r}"
        );
        assert_eq!(facelet::decode(&text), Ok(state), "{r}");
    }
}

#[test]
fn agrees_with_cube_core_on_illegal_stickers() {
    let solved = facelet::encode(&State::SOLVED);
    let mut twisted = solved.clone().into_bytes();
    // Twist the URF corner in place: U9 R1 F3 = indices 8, 9, 20.
    (twisted[8], twisted[9], twisted[20]) = (b'F', b'U', b'R');
    let twisted = String::from_utf8(twisted).unwrap();
    assert!(facelet::decode(&twisted).is_ok());
    assert_eq!(
        facelet::decode_solvable(&twisted),
        Err(DecodeError::Facelet(FaceletError::Unsolvable(
            cube_core::CubeError::TwistSum { sum: 1 }
        )))
    );
    let mut swapped = solved.into_bytes();
    // Exchange an R and an L sticker: two corners become mirror images.
    swapped.swap(9, 36);
    let swapped = String::from_utf8(swapped).unwrap();
    let expected = FaceletCube::new(swapped.as_bytes().try_into().unwrap())
        .to_cube()
        .unwrap_err();
    assert_eq!(
        facelet::decode(&swapped),
        Err(DecodeError::Facelet(expected))
    );
}
