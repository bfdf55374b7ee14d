//! `cube-cli optimal`: Korf's optimal solver over the pattern databases.

use cube_core::Cube;

use crate::Outcome;
use crate::args::{Global, OptimalArgs};
use crate::input::Input;
use crate::output::CliError;

pub fn run(_global: &Global, input: &Input, _args: &OptimalArgs, _to: Option<&Cube>) -> Outcome {
    let _ = input.legal_state()?;
    Err(CliError::tables("the optimal solver is not wired in yet"))
}
