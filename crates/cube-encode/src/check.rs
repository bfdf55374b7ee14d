//! Every rule a text breaks: [`check_as`] and [`check()`] read a state leniently, so that a
//! format that can write what no cube has (a piece twice, an orientation or a piece number out
//! of range, centres that no rotation gives) is still read, and list each [`Problem`] with its
//! stable [`rule`](Problem::rule) code. `cube-cli check` and the Python `check` print these.

use std::fmt;

use cube_core::{Cube, CubeError, FaceletError};

use crate::detect::{parse_as, read_detected};
use crate::error::DecodeError;
use crate::format::Format;
use crate::state::State;
use crate::{b32, facelet, h48, kpattern, reid};

/// One rule a state breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// A rule of the pieces (cube-core's reason).
    Pieces(CubeError),
    /// A rule of the stickers, in the sticker formats (cube-core's reason).
    Stickers(FaceletError),
    /// The centres are in an arrangement that no whole-cube rotation gives.
    CentresNotARotation,
    /// The centre orientations are impossible on a real supercube: each quarter turn changes
    /// both the corner permutation parity and the parity of the centre turns.
    CentreParity,
}

impl Problem {
    /// The rule broken, as a stable kebab-case code for programs (the `rule` of `cube-cli check
    /// --json`, listed in docs/json.md).
    pub const fn rule(&self) -> &'static str {
        match self {
            Problem::Pieces(e) => e.rule(),
            Problem::Stickers(e) => e.rule(),
            Problem::CentresNotARotation => "centres-not-a-rotation",
            Problem::CentreParity => "centre-parity",
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Pieces(e) => write!(f, "{e}"),
            Problem::Stickers(e) => write!(f, "{e}"),
            Problem::CentresNotARotation => write!(
                f,
                "the centres are in an arrangement that no whole-cube rotation gives (a mirror image, or a centre twice)"
            ),
            Problem::CentreParity => write!(
                f,
                "the centre turns and the corner permutation have different parities: impossible on a supercube"
            ),
        }
    }
}

/// The problems of a state in one sentence, as errors name them: `illegal cube: ` and each
/// problem, separated by `; `.
///
/// ```
/// use cube_encode::{Format, check_as, illegal_cube};
/// let h48 = "UF2 UF0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0";
/// let checked = check_as(Format::H48, h48).unwrap();
/// assert_eq!(
///     illegal_cube(&checked.problems),
///     "illegal cube: edge at UF has orientation 2, but edge orientations are 0 or 1; edge UF appears twice"
/// );
/// ```
pub fn illegal_cube(problems: &[Problem]) -> String {
    let messages: Vec<String> = problems.iter().map(Problem::to_string).collect();
    format!("illegal cube: {}", messages.join("; "))
}

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

/// Corners and edges as "piece at position" arrays in Kociemba's order, as read, before any
/// check: `(cp, co, ep, eo)`.
pub(crate) type Parts = ([u8; 8], [u8; 8], [u8; 12], [u8; 12]);

/// Every problem of pieces as read ([`Cube::problems_of_parts`]).
pub(crate) fn parts_problems((cp, co, ep, eo): Parts) -> Vec<Problem> {
    Cube::problems_of_parts(cp, co, ep, eo)
        .into_iter()
        .map(Problem::Pieces)
        .collect()
}

/// Every problem of stickers ([`FaceletCube::problems`](cube_core::FaceletCube::problems)).
pub(crate) fn sticker_problems(stickers: &cube_core::FaceletCube) -> Vec<Problem> {
    stickers
        .problems()
        .into_iter()
        .map(Problem::Stickers)
        .collect()
}
