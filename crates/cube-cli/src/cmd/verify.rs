//! `cube-cli verify`: whether a move sequence solves a state.

use cube_core::Alg;

use crate::input::Input;
use crate::output::{CliError, EXIT_INPUT, Outcome, Report};
use crate::record::{self, Record};

/// The move sequence to check, read once for every state (by `request.rs`, before any state is
/// read).
pub fn solution(text: &str) -> Result<Alg, CliError> {
    text.parse()
        .map_err(|e| CliError::parse(format!("solution: {e}")))
}

pub fn run(input: &Input, solution: &Alg) -> Outcome {
    let (_, state) = input.legal_state()?;
    let expanded = solution.expand();
    let after = state.cube().apply_moves(&expanded.moves);
    let length = expanded.moves.len();
    if after.is_solved() {
        Ok(Report::new(
            format!("solves: {length} face turns"),
            Record::Verification(record::Verification {
                solves: true,
                length,
            }),
        ))
    } else {
        Ok(Report::new(
            "does not solve: pieces are left unsolved after the sequence",
            Record::Verification(record::Verification {
                solves: false,
                length,
            }),
        )
        .with_exit(EXIT_INPUT))
    }
}
