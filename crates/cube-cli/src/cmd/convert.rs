//! `cube-cli convert`: a state in another format, on one line.

use cube_encode::{facelet, h48, kpattern, twizzle};
use serde_json::json;

use crate::Outcome;
use crate::args::OutputFormat;
use crate::input::Input;
use crate::output::{CliError, Report};

pub fn run(input: &Input, to: OutputFormat) -> Outcome {
    let (_, state) = input.state()?;
    let text = match to {
        OutputFormat::Facelets => facelet::encode(&state),
        OutputFormat::H48 => h48::encode(&state),
        OutputFormat::Twizzle => twizzle::encode_hex(&state),
        OutputFormat::Kpattern => kpattern::encode(&state),
        OutputFormat::Alg => {
            return Err(CliError::parse(
                "converting to an algorithm needs a solver, which this build does not have yet",
            ));
        }
    };
    Ok(Report::new(
        text.clone(),
        json!({ "output": text, "format": format!("{to:?}").to_lowercase() }),
    ))
}
