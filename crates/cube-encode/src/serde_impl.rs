//! `Serialize` and `Deserialize` for [`State`] (feature `serde`).
//!
//! Human-readable formats (JSON, TOML...) get a map that a person can read and that keeps
//! every part of the state: `{"h48": "UF0 UB0 ...", "orientation": "FD", "centers":
//! [0, 0, 0, 0, 0, 0]}`, with `null` for an absent orientation or absent centres; the
//! orientation is an H48 rotation name, the centres are quarter turns in the order U R F D L B.
//! Binary formats get the 11 Twizzle bytes (see [`compact`](crate::compact)).

use cube_core::{Centers, Symmetry};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::state::State;
use crate::{h48, twizzle};

#[derive(Serialize, Deserialize)]
struct Readable {
    h48: String,
    orientation: Option<String>,
    centers: Option<[u8; 6]>,
}

impl Serialize for State {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            Readable {
                h48: h48::encode(self),
                orientation: self.orientation().map(|r| r.name()),
                centers: self.centers().map(|c| c.turns()),
            }
            .serialize(serializer)
        } else {
            twizzle::encode(self).serialize(serializer)
        }
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<State, D::Error> {
        if deserializer.is_human_readable() {
            let r = Readable::deserialize(deserializer)?;
            let state = h48::decode(&r.h48).map_err(D::Error::custom)?;
            let orientation = match r.orientation {
                None => None,
                Some(name) => Some(name.parse::<Symmetry>().map_err(D::Error::custom)?),
            };
            let state = state.try_with_orientation(orientation).ok_or_else(|| {
                D::Error::custom("the orientation must be a rotation, not a mirror")
            })?;
            if let Some(turns) = r.centers
                && turns.iter().any(|&t| t >= 4)
            {
                return Err(D::Error::custom("centre turns must be 0..4"));
            }
            Ok(state.with_centers(r.centers.map(Centers::new)))
        } else {
            let bytes = <[u8; twizzle::LEN]>::deserialize(deserializer)?;
            twizzle::decode(&bytes).map_err(D::Error::custom)
        }
    }
}
