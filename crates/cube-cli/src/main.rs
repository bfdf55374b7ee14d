//! The `cube-cli` command-line tool: see `cube-cli --help` and the README's user guide.
//!
//! `args.rs` holds the raw clap arguments; `input.rs` turns STATE arguments into cube states
//! (detecting the format, reading standard input, batches); `output.rs` prints reports as text
//! or JSON and maps failures to exit codes; `cmd/` has one module per subcommand.

mod args;
mod cmd;
mod input;
mod method_tables;
mod output;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};
use crate::output::{CliError, Report};

fn main() -> ExitCode {
    // Every table error ends with its fix, in this program's commands.
    cube_tables::set_fix_commands(cube_tables::FixCommands {
        bake: "cube-cli tables bake --tier {tier}",
        verify: "cube-cli tables verify",
    });
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Usage errors go to standard error (exit 2), as clap prints them.
        Err(e) if e.use_stderr() => {
            let _ = e.print();
            return ExitCode::from(output::EXIT_USAGE);
        }
        // Help and version go to standard output, through the one writer.
        Err(e) => {
            return match output::print_help(&e) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    output::note(format_args!("error: {e}"));
                    ExitCode::from(e.exit_code())
                }
            };
        }
    };
    let global = cli.global.clone();
    method_tables::init(&global);
    let result = match cli.command {
        Command::Solve {
            state,
            method,
            max_length,
            time_budget,
            to,
            explain,
            optimal,
        } => {
            match cmd::solve::Request::new(
                &global,
                method,
                max_length,
                time_budget,
                to.as_deref(),
                explain,
                &optimal,
            ) {
                Ok(request) => input::for_each_state(&global, &state, |input| {
                    cmd::solve::run(&global, input, &request)
                }),
                Err(e) => Err(e),
            }
        }
        Command::Optimal { state, optimal } => input::for_each_state(&global, &state, |input| {
            cmd::optimal::run(&global, input, &optimal, None)
        }),
        Command::Scramble {
            event,
            count,
            seed,
            format,
        } => cmd::scramble::run(&global, &event, count, seed, format),
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
        Command::Tables { action } => {
            cmd::tables::run(&global, action.unwrap_or(args::TablesAction::Status))
        }
        Command::Verify { state, solution } => {
            input::for_each_state(&global, &state, |input| cmd::verify::run(input, &solution))
        }
    };
    let code = match result {
        Ok(code) => code,
        Err(e) => match output::print_error(&global, &e) {
            Ok(()) => e.exit_code(),
            Err(write_error) => {
                let _ = output::print_error(&global, &write_error);
                write_error.exit_code()
            }
        },
    };
    // After the results, so that they are never lost behind a failed checkpoint.
    cmd::optimal::print_warnings();
    ExitCode::from(code)
}

/// One state's result: a report, or an error for that state.
pub type Outcome = Result<Report, CliError>;
