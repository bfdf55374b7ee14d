//! The `cube-cli` command-line tool: see `cube-cli --help` and the user guide, docs/cli.md.
//!
//! `args.rs` holds the raw clap arguments; `input.rs` turns STATE arguments into cube states
//! (detecting the format, reading standard input, batches); `output.rs` prints reports as text
//! or JSON and maps failures to exit codes; `table_dir.rs` is the table directory every command
//! shares; `method_tables.rs` is the run's cache of the methods' tables; `signals.rs` the one
//! handler of SIGINT and SIGTERM; `cmd/` has one module per subcommand; `serve.rs` is
//! `cube-cli serve`, the web app and its JSON API, which runs the same commands for each request.

mod args;
mod cmd;
mod input;
mod method_tables;
mod output;
mod record;
mod serve;
mod session;
mod signals;
mod table_dir;
mod tiers;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use crate::args::{Cli, Command, Global, Method};
use crate::output::CliError;
use crate::session::Session;

fn main() -> ExitCode {
    // First, so that a signal during a bake removes its temporary files.
    signals::install();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return ExitCode::from(output::print_clap(&e)),
    };
    output::set_color(cli.global.color);
    if let Err(e) = check_options(&cli) {
        return ExitCode::from(output::print_clap(&e));
    }
    let code = execute(cli, &Session::Terminal);
    // After the results, so that they are never lost behind a failed checkpoint.
    cmd::optimal::print_warnings();
    ExitCode::from(code)
}

/// Refuses the options that clap accepts but that do nothing where they were given: the optimal
/// solver's options under `solve` with another method, and the other methods' options under
/// `solve --method optimal`.
fn check_options(cli: &Cli) -> Result<(), clap::Error> {
    let Command::Solve {
        method,
        max_length,
        time_budget,
        explain,
        optimal,
        ..
    } = &cli.command
    else {
        return Ok(());
    };
    let refuse = |message: String| {
        let mut command = Cli::command();
        command.build();
        let solve = command
            .find_subcommand_mut("solve")
            .expect("solve is a subcommand");
        Err(solve.error(clap::error::ErrorKind::ArgumentConflict, message))
    };
    if *method != Method::Optimal
        && let Some(flag) = optimal.given().first()
    {
        return refuse(format!(
            "{flag} acts only on the optimal solver: use it with `--method optimal` or `cube-cli optimal`, not with `--method {}`",
            method.name()
        ));
    }
    if *method == Method::Optimal {
        let given = [
            ("--max-length", max_length.is_some()),
            ("--time-budget", time_budget.is_some()),
            ("--explain", *explain),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, given)| *given) {
            return refuse(format!(
                "{flag} does not act on the optimal solver (its solutions are the shortest; --timeout limits its time)"
            ));
        }
    }
    Ok(())
}

/// Runs the command, prints its results and the error that ended it if any, and returns the exit
/// code. `cube-cli serve` runs each API request's command so, its output captured.
fn execute(cli: Cli, session: &Session) -> u8 {
    let (global, result) = run(cli, session);
    match result {
        Ok(code) => code,
        Err(e) => match output::print_error(&global, &e) {
            Ok(()) => e.exit_code(),
            Err(write_error) => {
                let _ = output::print_error(&global, &write_error);
                write_error.exit_code()
            }
        },
    }
}

/// Runs the command: the options it ran with, and its exit code or the error that ended it.
fn run(cli: Cli, session: &Session) -> (Global, Result<u8, CliError>) {
    let for_states = |input| Global::new(&cli.global, Some(input), session);
    match cli.command {
        Command::Solve {
            state,
            input,
            method,
            max_length,
            time_budget,
            to,
            explain,
            optimal,
        } => {
            let global = for_states(&input);
            let result = cmd::solve::Request::new(
                &global,
                method,
                max_length,
                time_budget,
                to.as_deref(),
                explain,
                &optimal,
            )
            .and_then(|request| {
                input::for_each_state(&global, &state, |input| {
                    cmd::solve::run(&global, input, &request)
                })
            });
            (global, result)
        }
        Command::Optimal {
            state,
            input,
            optimal,
        } => {
            let global = for_states(&input);
            let result = input::for_each_state(&global, &state, |input| {
                cmd::optimal::run(&global, input, &optimal, None)
            });
            (global, result)
        }
        Command::Scramble {
            event,
            subgroup,
            count,
            seed,
            format,
        } => {
            let global = Global::new(&cli.global, None, session);
            let result = cmd::scramble::run(&global, event, subgroup, count, seed, format);
            (global, result)
        }
        Command::Check { state, input } => {
            let global = for_states(&input);
            let result = input::for_each_state(&global, &state, cmd::check::run);
            (global, result)
        }
        Command::Convert { state, input, to } => {
            let global = for_states(&input);
            let result = input::for_each_state(&global, &state, |input| {
                cmd::convert::run(&global, input, to)
            });
            (global, result)
        }
        Command::Show {
            state,
            input,
            no_color,
            svg,
        } => {
            let global = for_states(&input);
            let result = input::for_each_state(&global, &state, |input| {
                cmd::show::run(input, no_color, svg.as_deref())
            });
            (global, result)
        }
        Command::Tables { all, action } => {
            let global = Global::new(&cli.global, None, session);
            let result = match action {
                None => cmd::tables::run(&global, args::TablesAction::Status { all }),
                Some(args::TablesAction::Status { all: status_all }) => cmd::tables::run(
                    &global,
                    args::TablesAction::Status {
                        all: all || status_all,
                    },
                ),
                Some(_) if all => Err(CliError::usage(
                    "tables --all lists every table and tier (as `tables status --all`); it takes no other subcommand (`tables clean --all` removes every file)",
                )),
                Some(action) => cmd::tables::run(&global, action),
            };
            (global, result)
        }
        Command::Verify {
            state,
            solution,
            input,
        } => {
            let global = for_states(&input);
            let result =
                input::for_each_state(&global, &state, |input| cmd::verify::run(input, &solution));
            (global, result)
        }
        Command::Fmc { action } => {
            let (global, result) = match &action {
                args::FmcAction::Unniss { input, .. }
                | args::FmcAction::Invert { input, .. }
                | args::FmcAction::Cleanup { input, .. }
                | args::FmcAction::Count { input, .. } => {
                    let global = for_states(&input.input());
                    let (command, sequence) = cmd::fmc::Notation::of(&action);
                    let result = input::for_each_line(&global, sequence, |text| {
                        cmd::fmc::notation(command, text)
                    });
                    (global, result)
                }
                args::FmcAction::Solve {
                    step,
                    state,
                    input,
                    niss,
                    solutions,
                    min,
                    max,
                    optimal,
                    above_optimal,
                    count,
                    threads,
                } => {
                    let global = for_states(input);
                    let mut settings = cube_solvers::fmc::Settings {
                        niss: *niss,
                        min_moves: *min,
                        max_moves: *max,
                        max_solutions: *solutions,
                        above_optimal: if *optimal { Some(0) } else { *above_optimal },
                        count_only: *count,
                        ..Default::default()
                    };
                    if let Some(threads) = threads {
                        settings.threads = *threads;
                    }
                    let result = cmd::fmc::SolveRequest::new(step, settings).and_then(|request| {
                        input::for_each_state(&global, state, |input| {
                            cmd::fmc::solve(&global, input, &request)
                        })
                    });
                    (global, result)
                }
                args::FmcAction::Steps => {
                    let global = Global::new(&cli.global, None, session);
                    let result = cmd::fmc::steps(&global);
                    (global, result)
                }
                args::FmcAction::Insert {
                    scramble,
                    skeleton,
                    optimal,
                    max_seconds,
                    threads,
                    algs,
                } => {
                    let global = Global::new(&cli.global, None, session);
                    let mut settings = cube_solvers::fmc::insert::Settings {
                        optimal: *optimal,
                        time_budget: *max_seconds,
                        ..Default::default()
                    };
                    if let Some(threads) = threads {
                        settings.threads = *threads;
                    }
                    let request = cmd::fmc::InsertRequest {
                        scramble,
                        skeleton,
                        settings,
                        algs: algs.as_deref(),
                    };
                    let outcome = cmd::fmc::insert(&global, &request);
                    let result = output::print_outcome(&global, &outcome, None);
                    (global, result)
                }
                args::FmcAction::Cycles { scramble, skeleton } => {
                    let global = Global::new(&cli.global, None, session);
                    let outcome = cmd::fmc::cycles(&global, scramble, skeleton);
                    let result = output::print_outcome(&global, &outcome, None);
                    (global, result)
                }
                args::FmcAction::Improve {
                    solution,
                    max_length,
                    improvements,
                    max_seconds,
                    threads,
                } => {
                    let global = Global::new(&cli.global, None, session);
                    let outcome = cmd::fmc::improve(
                        &global,
                        solution,
                        usize::from(*max_length),
                        *improvements,
                        *max_seconds,
                        *threads,
                    );
                    let result = output::print_outcome(&global, &outcome, None);
                    (global, result)
                }
            };
            (global, result)
        }
        Command::Serve(args) => {
            let global = Global::new(&cli.global, None, session);
            let result = serve::run(&global, &args);
            (global, result)
        }
        Command::Completions { shell } => {
            let global = Global::new(&cli.global, None, session);
            let result = cmd::completions::completions(shell);
            (global, result)
        }
        Command::Man { subcommand, dir } => {
            let global = Global::new(&cli.global, None, session);
            let result = cmd::completions::man(&subcommand, dir.as_deref());
            (global, result)
        }
    }
}
