//! `cube-cli convert`: a state in another format, on one line.

use cube_core::{Alg, Symmetry};
use cube_encode::{State, b32, facelet, h48, kpattern, reid, twizzle};
use cube_solvers::{Limits, Solver};

use crate::args::{Global, StateFormat};
use crate::input::Input;
use crate::output::{CliError, Outcome, Report};
use crate::record::{self, Record};

pub fn run(global: &Global, input: &Input, to: StateFormat) -> Outcome {
    let (from, state) = input.state()?;
    let text = encode(global, &state, to)?;
    Ok(Report::new(
        text.clone(),
        Record::Conversion(record::Conversion {
            output: text,
            from: StateFormat::of(from).name(),
            to: to.name(),
        }),
    ))
}

/// `state` written in `to` (an algorithm by [`alg_of`], which needs a legal state).
pub fn encode(global: &Global, state: &State, to: StateFormat) -> Result<String, CliError> {
    Ok(match to {
        StateFormat::Facelets => facelet::encode(state),
        StateFormat::H48 => h48::encode(state),
        StateFormat::Reid => reid::encode(state),
        StateFormat::B32 => b32::encode(state),
        StateFormat::Twizzle => twizzle::encode_hex(state),
        StateFormat::Kpattern => kpattern::encode(state),
        StateFormat::Alg => alg_of(global, state)?,
    })
}

/// A move sequence that makes `state` from solved: the inverse of a two-phase solution, then the
/// whole-cube rotation of the state's orientation (if it has one) as `x`, `y` and `z` turns.
fn alg_of(global: &Global, state: &State) -> Result<String, CliError> {
    let cube = state.cube();
    let problems = State::new(cube).problems();
    if !problems.is_empty() {
        return Err(CliError::illegal(format!(
            "{} (only legal states have a move sequence)",
            cube_encode::illegal_cube(&problems)
        )));
    }
    let solutions = crate::method_tables::two_phase_solver(global)
        .solve(&cube, &Limits::default(), &global.session.quick_stop())
        .map_err(CliError::solve)?;
    let solution = solutions
        .into_iter()
        .next()
        .map(|s| s.moves)
        .unwrap_or_default();
    let mut text = Alg::from_moves(&solution).inverse().to_string();
    if let Some(rotation) = state.orientation().filter(|&r| r != Symmetry::IDENTITY) {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&rotation_alg(rotation));
    }
    Ok(text)
}

/// The shortest sequence of `x`, `y`, `z` turns (with amounts) that turns the cube by `rotation`.
fn rotation_alg(rotation: Symmetry) -> String {
    let tokens = ["x", "x2", "x'", "y", "y2", "y'", "z", "z2", "z'"];
    let words = tokens
        .iter()
        .map(|t| t.to_string())
        .chain(tokens.iter().flat_map(|a| {
            tokens
                .iter()
                .filter(move |b| a.as_bytes()[0] != b.as_bytes()[0])
                .map(move |b| format!("{a} {b}"))
        }));
    words
        .into_iter()
        .find(|word| {
            word.parse::<Alg>()
                .is_ok_and(|alg| alg.expand().rotation == rotation)
        })
        .expect("every rotation is at most two turns about two axes")
}
