//! The `serde` feature: a readable map in JSON, every part of the state kept.

use cube_core::{Alg, Centers};
use cube_encode::State;

#[test]
fn json_round_trip_keeps_everything() {
    let alg: Alg = "R U x y' M".parse().unwrap();
    for state in [
        State::SOLVED,
        State::from_alg(&alg),
        State::from_alg_supercube(&alg),
        State::from_alg(&alg)
            .with_orientation(None)
            .with_centers(Some(Centers::new([3, 0, 1, 0, 2, 0]))),
    ] {
        let json = serde_json::to_string(&state).unwrap();
        assert_eq!(
            serde_json::from_str::<State>(&json).unwrap(),
            state,
            "{json}"
        );
    }
    let json = serde_json::to_value(State::from_alg(&"x".parse().unwrap())).unwrap();
    assert_eq!(json["orientation"], "FD");
    assert_eq!(json["centers"], serde_json::Value::Null);
    assert_eq!(
        json["h48"],
        "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0"
    );
}

#[test]
fn bad_json_is_an_error() {
    for text in [
        r#"{"h48": "UF0", "orientation": null, "centers": null}"#,
        r#"{"h48": "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0", "orientation": "UFm", "centers": null}"#,
        r#"{"h48": "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0", "orientation": null, "centers": [4, 0, 0, 0, 0, 0]}"#,
    ] {
        assert!(serde_json::from_str::<State>(text).is_err(), "{text}");
    }
}
