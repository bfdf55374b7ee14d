//! The `cube-cli` command-line tool: see `cube-cli --help` and the README's user guide.
//!
//! `args.rs` holds the raw clap arguments; `input.rs` turns STATE arguments into cube states
//! (detecting the format, reading standard input, batches); `output.rs` prints reports as text
//! or JSON and maps failures to exit codes; `cmd/` has one module per subcommand.

mod args;
mod cmd;
mod input;
mod output;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};
use crate::output::{CliError, Report};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                output::EXIT_USAGE
            } else {
                0
            });
        }
    };
    let global = cli.global.clone();
    let result = match cli.command {
        Command::Check { state } => input::for_each_state(&global, &state, cmd::check::run),
        Command::Convert { state, to } => {
            input::for_each_state(&global, &state, |input| cmd::convert::run(input, to))
        }
        Command::Show {
            state,
            no_color,
            svg,
        } => input::for_each_state(&global, &state, |input| {
            cmd::show::run(input, no_color, svg.as_deref())
        }),
        Command::Verify { state, solution } => {
            input::for_each_state(&global, &state, |input| cmd::verify::run(input, &solution))
        }
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            output::print_error(&global, &e);
            ExitCode::from(e.exit_code())
        }
    }
}

/// One state's result: a report, or an error for that state.
pub type Outcome = Result<Report, CliError>;
