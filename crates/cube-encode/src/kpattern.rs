//! cubing.js pattern JSON: the `patternData` of a `KPattern` for the 3x3x3.
//!
//! `{"EDGES": {"pieces": [...], "orientation": [...]}, "CORNERS": {...}, "CENTERS": {...}}`,
//! with the pieces in Reid / kpuzzle order (see `shared/vectors/README.md`). `pieces[i]` is
//! the piece at position `i`. The CENTERS pieces show the puzzle orientation. When CENTERS has
//! `"orientationMod": [1, 1, 1, 1, 1, 1]` the centre orientation is not tracked (cubing.js's
//! default pattern); without it (or with all zeros) it is, as on a supercube.
//!
//! The wrapper `KPattern.toJSON()` writes, `{"experimentalPuzzleName": "3x3x3", "patternData":
//! ...}`, is accepted too. Reading builds a `serde_json::Value`, so it allocates; writing
//! builds one string.

use std::fmt::Write as _;

use cube_core::{Centers, Symmetry};
use serde_json::Value;

use crate::error::DecodeError;
use crate::reid::{self, CENTER_TO_FACE, FACE_TO_CENTER, Reid};
use crate::state::State;

fn bad(path: &str, reason: impl Into<String>) -> DecodeError {
    DecodeError::BadPattern {
        path: path.to_string(),
        reason: reason.into(),
    }
}

/// Reads `len` small non-negative integers (each `< limit`, unless `limit` is `None`).
fn read_array<const N: usize>(
    orbit: &Value,
    orbit_name: &str,
    key: &str,
    limit: Option<u64>,
) -> Result<[u8; N], DecodeError> {
    let path = format!("{orbit_name}.{key}");
    let items = orbit
        .get(key)
        .ok_or_else(|| bad(&path, "missing"))?
        .as_array()
        .ok_or_else(|| bad(&path, "not an array"))?;
    if items.len() != N {
        return Err(bad(
            &path,
            format!("has {} entries, expected {N}", items.len()),
        ));
    }
    let mut out = [0u8; N];
    for (i, item) in items.iter().enumerate() {
        let value = item
            .as_u64()
            .ok_or_else(|| bad(&path, format!("entry {i} is not a non-negative integer")))?;
        if let Some(limit) = limit
            && value >= limit
        {
            return Err(bad(
                &path,
                format!("entry {i} is {value}, expected less than {limit}"),
            ));
        }
        out[i] = value.min(255) as u8;
    }
    Ok(out)
}

fn orbit<'a>(data: &'a Value, name: &str) -> Result<&'a Value, DecodeError> {
    let orbit = data.get(name).ok_or_else(|| bad(name, "missing"))?;
    if !orbit.is_object() {
        return Err(bad(name, "not an object"));
    }
    Ok(orbit)
}

/// Reads a pattern that is already JSON.
///
/// # Errors
/// [`DecodeError::BadPattern`] for a missing or malformed orbit, a value out of range, centres
/// that no rotation places, or an `orientationMod` other than all 1 or all 0;
/// [`DecodeError::Illegal`] for pieces that are not a permutation.
pub fn decode_value(value: &Value) -> Result<State, DecodeError> {
    let data = match value.get("patternData") {
        Some(data) => {
            if let Some(name) = value.get("experimentalPuzzleName")
                && name != "3x3x3"
            {
                return Err(bad("experimentalPuzzleName", "not \"3x3x3\""));
            }
            data
        }
        None => value,
    };
    if !data.is_object() {
        return Err(bad("pattern", "not an object"));
    }
    let edges = orbit(data, "EDGES")?;
    let corners = orbit(data, "CORNERS")?;
    let centers = orbit(data, "CENTERS")?;
    let tracked = match centers.get("orientationMod") {
        None => true,
        Some(_) => {
            let m: [u8; 6] = read_array(centers, "CENTERS", "orientationMod", None)?;
            match m {
                [1, 1, 1, 1, 1, 1] => false,
                [0, 0, 0, 0, 0, 0] => true,
                _ => {
                    return Err(bad(
                        "CENTERS.orientationMod",
                        "only all 1 (untracked) or all 0 (tracked) are supported",
                    ));
                }
            }
        }
    };
    let pattern = Reid {
        ep: read_array(edges, "EDGES", "pieces", Some(12))?,
        eo: read_array(edges, "EDGES", "orientation", Some(2))?,
        cp: read_array(corners, "CORNERS", "pieces", Some(8))?,
        co: read_array(corners, "CORNERS", "orientation", Some(3))?,
        centers: read_array(centers, "CENTERS", "pieces", Some(6))?,
        center_ori: if tracked {
            read_array(centers, "CENTERS", "orientation", Some(4))?
        } else {
            read_array::<6>(centers, "CENTERS", "orientation", None)?;
            [0; 6]
        },
    };
    let rot = reid::rotations();
    let r = rot
        .transform
        .iter()
        .position(|t| t.centers == pattern.centers)
        .ok_or_else(|| bad("CENTERS.pieces", "no rotation puts the centres there"))?;
    let normalized = pattern.apply(&rot.transform[rot.inverse[r] as usize]);
    debug_assert_eq!(normalized.centers, [0, 1, 2, 3, 4, 5]);
    let cube = normalized.to_cube()?;
    let centers = tracked.then(|| {
        let mut turns = [0u8; 6];
        for (center, face) in CENTER_TO_FACE.iter().enumerate() {
            turns[face.index()] = normalized.center_ori[center];
        }
        Centers::new(turns)
    });
    Ok(State::new(cube)
        .with_orientation(Some(Symmetry::from_index(r)))
        .with_centers(centers))
}

/// Reads pattern JSON (bare or wrapped); pieces may be unsolvable.
///
/// # Errors
/// [`DecodeError::Json`] if the text is not JSON, otherwise as [`decode_value`].
pub fn decode(text: &str) -> Result<State, DecodeError> {
    let value: Value = serde_json::from_str(text).map_err(|e| DecodeError::Json(e.to_string()))?;
    decode_value(&value)
}

/// Reads pattern JSON of a solvable state (and, with centres, a real supercube).
///
/// # Errors
/// As [`decode`], and as [`State::validate`].
pub fn decode_strict(text: &str) -> Result<State, DecodeError> {
    let state = decode(text)?;
    state.validate()?;
    Ok(state)
}

/// The pattern of a state, in kpuzzle form (no orientation: the identity).
pub(crate) fn pattern_of(state: &State) -> Reid {
    let mut center_ori = [0u8; 6];
    if let Some(c) = state.centers() {
        for (face, &t) in c.turns().iter().enumerate() {
            center_ori[FACE_TO_CENTER[face] as usize] = t;
        }
    }
    let normalized = Reid::from_cube(&state.cube(), center_ori);
    let r = state.orientation().unwrap_or(Symmetry::IDENTITY);
    let mut pattern = normalized.apply(&reid::rotations().transform[r.index() % 24]);
    if state.centers().is_none() {
        pattern.center_ori = [0; 6];
    }
    pattern
}

fn write_list(out: &mut String, items: &[u8]) {
    out.push('[');
    for (i, v) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write!(out, "{v}").expect("writing to a String cannot fail");
    }
    out.push(']');
}

/// The pattern JSON (`patternData`) of a state, compact, keys in cubing.js's order. Without
/// centres, CENTERS carries `"orientationMod":[1,1,1,1,1,1]`; a missing orientation is
/// written as the identity.
///
/// ```
/// use cube_encode::{State, kpattern};
/// let json = kpattern::encode(&State::SOLVED);
/// assert!(json.starts_with(r#"{"EDGES":{"pieces":[0,1,2,3,4,5,6,7,8,9,10,11],"#));
/// assert_eq!(kpattern::decode(&json).unwrap().cube(), cube_core::Cube::SOLVED);
/// ```
pub fn encode(state: &State) -> String {
    let p = pattern_of(state);
    let mut out = String::with_capacity(256);
    out.push_str(r#"{"EDGES":{"pieces":"#);
    write_list(&mut out, &p.ep);
    out.push_str(r#","orientation":"#);
    write_list(&mut out, &p.eo);
    out.push_str(r#"},"CORNERS":{"pieces":"#);
    write_list(&mut out, &p.cp);
    out.push_str(r#","orientation":"#);
    write_list(&mut out, &p.co);
    out.push_str(r#"},"CENTERS":{"pieces":"#);
    write_list(&mut out, &p.centers);
    out.push_str(r#","orientation":"#);
    write_list(&mut out, &p.center_ori);
    if state.centers().is_none() {
        out.push_str(r#","orientationMod":[1,1,1,1,1,1]"#);
    }
    out.push_str("}}");
    out
}

/// The pattern as a JSON value.
pub fn encode_value(state: &State) -> Value {
    serde_json::from_str(&encode(state)).expect("encode writes valid JSON")
}

/// The pattern wrapped as `KPattern.toJSON()` writes it:
/// `{"experimentalPuzzleName":"3x3x3","patternData":...}`.
pub fn encode_wrapped(state: &State) -> String {
    format!(
        r#"{{"experimentalPuzzleName":"3x3x3","patternData":{}}}"#,
        encode(state)
    )
}
