//! Every rule a text breaks: [`check_as`] and [`check()`] read a state leniently, so that a
//! format that can write what no cube has (a piece twice, an orientation or a piece number out
//! of range, centres that no rotation gives) is still read, and list each [`Problem`] with its
//! stable [`rule`](Problem::rule) code. `cube-cli check` and the Python `check` print these.

use crate::detect::{parse_as, read_detected};
use crate::error::DecodeError;
use crate::format::Format;
use crate::problem::Problem;
use crate::state::State;
use crate::{b32, facelet, h48, kpattern, reid};

/// A text read with every rule checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The state, when the text is one, solvable or not: what [`parse_as`] reads.
    pub state: Option<State>,
    /// Every rule broken, in the order of the rules (empty exactly when `state` is a solvable
    /// state).
    pub problems: Vec<Problem>,
}

/// Reads `text` as `format` and checks every rule. Where [`parse_as`] refuses what it reads
/// but no cube has (H48 and B32 with a piece twice or an orientation out of range, B32 with
/// an edge number out of range, pattern JSON with any of these or with centres no rotation
/// gives, facelets and Reid strings with stickers no cube has), this reads it on and lists
/// every problem rather than the first.
///
/// ```
/// use cube_encode::{Format, check_as};
/// let json = r#"{"EDGES":{"pieces":[0,0,2,3,4,5,6,7,8,9,10,11],"orientation":[0,0,0,0,0,0,0,0,0,0,0,0]},
///   "CORNERS":{"pieces":[0,1,2,3,4,5,6,7],"orientation":[3,0,0,0,0,0,0,0]},
///   "CENTERS":{"pieces":[0,3,2,1,4,5],"orientation":[0,0,0,0,0,0],"orientationMod":[1,1,1,1,1,1]}}"#;
/// let checked = check_as(Format::PatternJson, json).unwrap();
/// assert_eq!(checked.state, None);
/// let rules: Vec<&str> = checked.problems.iter().map(|p| p.rule()).collect();
/// assert_eq!(rules, ["centres-not-a-rotation", "orientation-out-of-range", "edges-not-a-permutation"]);
/// ```
///
/// # Errors
/// The format's [`DecodeError`] when the text is not even leniently a state of it.
pub fn check_as(format: Format, text: &str) -> Result<Checked, DecodeError> {
    let read = parse_as(format, text);
    if let Ok(state) = read
        && state.validate().is_ok()
    {
        return Ok(Checked {
            state: Some(state),
            problems: Vec::new(),
        });
    }
    let problems = match format {
        // Whatever these read is pieces.
        Format::Alg | Format::TwizzleHex => read.clone()?.problems(),
        Format::Facelets => facelet::problems(text)?,
        Format::Reid => reid::problems(text)?,
        Format::H48 => h48::problems(text)?,
        Format::B32 => b32::problems(text)?,
        Format::PatternJson => kpattern::problems(text)?,
    };
    match read {
        // Refused, yet no rule broken: the refusal stands.
        Err(e) if problems.is_empty() => Err(e),
        read => Ok(Checked {
            state: read.ok(),
            problems,
        }),
    }
}

/// [`check_as`] in the format of the text's shape, as [`detect()`](crate::detect()) reads it.
///
/// ```
/// use cube_encode::{Format, check};
/// let (format, checked) = check("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBX").unwrap();
/// assert_eq!(format, Format::Facelets);
/// assert_eq!(checked.problems[0].rule(), "unknown-colour");
/// ```
///
/// # Errors
/// As [`detect()`](crate::detect()): [`DecodeError::Empty`], or [`DecodeError::Detected`] with
/// the format assumed and [`check_as`]'s error.
pub fn check(text: &str) -> Result<(Format, Checked), DecodeError> {
    read_detected(text, check_as)
}
