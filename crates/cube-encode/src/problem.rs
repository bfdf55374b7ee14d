//! One rule a state breaks ([`Problem`]) and the problems of pieces and stickers as read: what
//! the readers of every format, [`State`](crate::State) and the errors share, below all of them.

use std::fmt;

use cube_core::{Cube, CubeError, FaceletError};

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
