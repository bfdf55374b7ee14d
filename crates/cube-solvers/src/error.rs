//! [`SolveError`]: why a solver returned no answer at all.

use std::fmt;

use cube_core::CubeError;

/// Why a solver failed. Finding no solution within the limits is not an error: the result is
/// then an empty list.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveError {
    /// The cube cannot be reached by turning; the error names the rule it breaks. Checked
    /// before any search.
    Unsolvable(CubeError),
    /// The [`Stop`](crate::Stop) flag was raised before any solution was found.
    Cancelled,
    /// A method's stage did not reach its goal within its iteration guard: a bug in the method,
    /// reported instead of looping forever.
    StageFailed {
        /// The method, such as `beginner`.
        method: &'static str,
        /// The stage that failed.
        stage: String,
    },
    /// A checkpoint to resume from does not belong to this search (another position, tier or
    /// configuration); the error names the field.
    BadCheckpoint(crate::optimal::CheckpointError),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Unsolvable(err) => write!(f, "cube is unsolvable: {err}"),
            SolveError::Cancelled => write!(f, "search cancelled before a solution was found"),
            SolveError::StageFailed { method, stage } => write!(
                f,
                "{method}: stage `{stage}` did not reach its goal within its iteration guard (a bug: please report the cube)"
            ),
            SolveError::BadCheckpoint(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for SolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SolveError::Unsolvable(err) => Some(err),
            SolveError::Cancelled
            | SolveError::StageFailed { .. }
            | SolveError::BadCheckpoint(_) => None,
        }
    }
}

impl From<CubeError> for SolveError {
    fn from(err: CubeError) -> SolveError {
        SolveError::Unsolvable(err)
    }
}
