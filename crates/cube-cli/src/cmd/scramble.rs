//! `cube-cli scramble`: random-state scrambles, of the whole cube or of a subgroup (`--type`),
//! reproducible from a seed.

use cube_core::{Alg, Subgroup};
use cube_encode::State;
use cube_solvers::scramble::{Event, Scrambler};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::args::{EventArg, Global, StateFormat};
use crate::output::{CliError, Report};
use crate::record::{self, Record};

pub fn run(
    global: &Global,
    event: EventArg,
    subgroup: Option<Subgroup>,
    count: usize,
    seed: Option<u64>,
    format: StateFormat,
) -> Result<u8, CliError> {
    let event: Event = event.event();
    let seed = seed.unwrap_or_else(rand::random);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scrambler = Scrambler::new(crate::method_tables::two_phase_solver(global));
    for index in 0..count {
        if global.session.stopped() {
            return Err(CliError::timeout(format!(
                "stopped at the request's time limit after {index} of {count} scrambles"
            )));
        }
        let scramble = match subgroup {
            Some(subgroup) => scrambler.subgroup_scramble(subgroup, &mut rng),
            None => scrambler.scramble(event, &mut rng),
        };
        let alg = scramble.alg.to_string();
        let state = State::from_alg(&scramble.alg);
        let text = match format {
            StateFormat::Alg => alg.clone(),
            other => crate::cmd::convert::encode(global, &state, other)?,
        };
        let length = Alg::moves(&scramble.alg).len();
        let report = Report::new(
            text.clone(),
            Record::Scramble(record::Scramble {
                scramble: alg,
                output: text,
                format: format.name(),
                event: event.id().to_string(),
                subgroup: subgroup.map(|s| s.name()),
                seed,
                index,
                length,
            }),
        );
        global.printer().report(&Ok(report), None)?;
    }
    Ok(0)
}
