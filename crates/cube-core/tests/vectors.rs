//! The facelet vectors of `testdata/vectors/facelets.json`, made with Kociemba's RubikTwoPhase
//! (face turns) and magiccube (rotations, slices and wide turns), cross-checked with pycuber.

use cube_core::{Alg, Cube, FaceletCube};
use serde::Deserialize;

use crate::vectors_dir;

#[derive(Deserialize)]
struct File {
    vectors: Vec<Vector>,
}

#[derive(Deserialize)]
struct Vector {
    id: String,
    alg: String,
    moves: String,
    facelets: String,
    kociemba_cubie: Option<Cubie>,
}

#[derive(Deserialize)]
struct Cubie {
    cp: [u8; 8],
    co: [u8; 8],
    ep: [u8; 12],
    eo: [u8; 12],
}

fn load() -> Vec<Vector> {
    let text =
        std::fs::read_to_string(vectors_dir().join("facelets.json")).expect("read facelets.json");
    let file: File = serde_json::from_str(&text).expect("parse facelets.json");
    assert!(file.vectors.len() > 300);
    file.vectors
}

fn seen(alg: &str) -> FaceletCube {
    let expanded = alg
        .parse::<Alg>()
        .unwrap_or_else(|e| panic!("{alg:?}: {e}"))
        .expand();
    FaceletCube::from_cube_in_frame(&expanded.cube(), expanded.rotation)
}

#[test]
fn every_alg_gives_the_vector_facelets() {
    let mut failures = Vec::new();
    for v in load() {
        for text in [&v.alg, &v.moves] {
            let got = seen(text).to_string();
            if got != v.facelets {
                failures.push(format!(
                    "{} ({text:?}): got {got}, expected {}",
                    v.id, v.facelets
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn face_turn_vectors_match_kociemba_cubies() {
    let mut n = 0;
    for v in load() {
        let Some(k) = v.kociemba_cubie else { continue };
        let expected = Cube::from_parts_solvable(k.cp, k.co, k.ep, k.eo)
            .expect("RubikTwoPhase gives legal cubes");
        let cube = Cube::SOLVED.apply_alg(&v.alg.parse().unwrap());
        assert_eq!(cube, expected, "{}", v.id);
        // Reading the stickers back gives the same cubies.
        assert_eq!(
            FaceletCube::new(v.facelets.as_bytes().try_into().unwrap()).to_cube_solvable(),
            Ok(expected),
            "{}",
            v.id
        );
        n += 1;
    }
    assert!(n >= 200, "only {n} face-turn vectors");
}
