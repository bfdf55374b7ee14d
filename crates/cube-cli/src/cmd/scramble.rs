//! `cube-cli scramble`: random-state scrambles, reproducible from a seed.

use cube_core::Alg;
use cube_encode::State;
use cube_solvers::scramble::{Event, Scrambler};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use crate::args::{Global, OutputFormat};
use crate::output::{CliError, Report, print_outcome};

pub fn run(
    global: &Global,
    event: &str,
    count: usize,
    seed: Option<u64>,
    format: OutputFormat,
) -> Result<u8, CliError> {
    let event: Event = event.parse().map_err(CliError::usage)?;
    let seed = seed.unwrap_or_else(rand::random);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scrambler = Scrambler::new(crate::method_tables::two_phase_solver());
    for index in 0..count {
        let scramble = scrambler.scramble(event, &mut rng);
        let alg = scramble.alg.to_string();
        let state = State::from_alg(&scramble.alg);
        let text = match format {
            OutputFormat::Alg => alg.clone(),
            other => crate::cmd::convert::encode(&state, other)?,
        };
        let length = Alg::moves(&scramble.alg).len();
        let report = Report::new(
            text.clone(),
            json!({ "scramble": alg, "output": text, "event": event.id(), "seed": seed, "index": index, "length": length }),
        );
        print_outcome(global, &Ok(report), None)?;
    }
    Ok(0)
}
