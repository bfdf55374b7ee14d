//! Pattern JSON beyond the twizzle.json comparisons: the wrapper, the orientation being read
//! from the centres, and malformed documents.

use cube_core::{Alg, Centers, Symmetry};
use cube_encode::{DecodeError, State, kpattern};
use serde_json::json;

#[test]
fn wrapper_round_trips() {
    let alg: Alg = "R U x' M2 y".parse().unwrap();
    for state in [State::from_alg(&alg), State::from_alg_supercube(&alg)] {
        let wrapped = kpattern::encode_wrapped(&state);
        assert!(wrapped.starts_with(r#"{"experimentalPuzzleName":"3x3x3","patternData":{"#));
        assert_eq!(kpattern::decode(&wrapped), Ok(state));
        assert_eq!(kpattern::decode(&kpattern::encode(&state)), Ok(state));
    }
}

#[test]
fn every_rotation_reads_back() {
    for r in Symmetry::rotations() {
        let state = State::new(cube_core::Cube::SOLVED)
            .with_orientation(Some(r))
            .with_centers(Some(Centers::new([1, 2, 3, 0, 1, 2])));
        assert_eq!(
            kpattern::decode(&kpattern::encode(&state)),
            Ok(state),
            "{r}"
        );
    }
}

fn bad_pattern(value: serde_json::Value) -> (String, String) {
    match kpattern::decode(&value.to_string()) {
        Err(DecodeError::BadPattern { path, reason }) => (path, reason),
        other => panic!("{value}: {other:?}"),
    }
}

#[test]
fn malformed_patterns() {
    let good = kpattern::encode_value(&State::SOLVED);
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("EDGES");
    assert_eq!(bad_pattern(v).0, "EDGES");
    let mut v = good.clone();
    v["CORNERS"]["pieces"] = json!([0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(bad_pattern(v).0, "CORNERS.pieces");
    let mut v = good.clone();
    v["EDGES"]["orientation"][3] = json!(2);
    assert_eq!(bad_pattern(v).0, "EDGES.orientation");
    let mut v = good.clone();
    v["EDGES"]["pieces"][0] = json!(-1);
    assert_eq!(bad_pattern(v).0, "EDGES.pieces");
    // A mirror image of the centres: a pattern, but no cube (issue 31, item 7).
    let mut v = good.clone();
    v["CENTERS"]["pieces"] = json!([0, 3, 2, 1, 4, 5]);
    assert_eq!(
        kpattern::decode(&v.to_string()),
        Err(DecodeError::CentresNotARotation)
    );
    let mut v = good.clone();
    v["CENTERS"]["orientationMod"] = json!([4, 4, 4, 4, 4, 4]);
    assert_eq!(bad_pattern(v).0, "CENTERS.orientationMod");
    let v = json!({"experimentalPuzzleName": "2x2x2", "patternData": good.clone()});
    assert_eq!(bad_pattern(v).0, "experimentalPuzzleName");
    // Two UF edges.
    let mut v = good.clone();
    v["EDGES"]["pieces"][1] = json!(0);
    assert!(matches!(
        kpattern::decode(&v.to_string()),
        Err(DecodeError::Illegal(
            cube_core::CubeError::EdgesNotAPermutation { .. }
        ))
    ));
    assert!(matches!(kpattern::decode("{"), Err(DecodeError::Json(_))));
}

#[test]
fn untracked_centre_orientation_values_are_ignored() {
    let mut v = kpattern::encode_value(&State::SOLVED);
    v["CENTERS"]["orientation"] = json!([3, 3, 3, 3, 3, 3]);
    let state = kpattern::decode(&v.to_string()).unwrap();
    assert_eq!(state.centers(), None);
    assert!(state.cube().is_solved());
}

#[test]
fn strict_mode() {
    let state = State::SOLVED.with_centers(Some(Centers::new([1, 0, 0, 0, 0, 0])));
    let text = kpattern::encode(&state);
    assert_eq!(
        kpattern::decode(&text),
        Ok(state.with_orientation(Some(Symmetry::IDENTITY)))
    );
    assert_eq!(
        kpattern::decode_solvable(&text),
        Err(DecodeError::CentreParity)
    );
}
