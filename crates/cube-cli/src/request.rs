//! A command line, checked: [`Request::new`] takes clap's raw arguments ([`Cli`]) and refuses
//! what clap accepts but what would do nothing where it was given; [`run`] runs a request for a
//! [`Session`] (the terminal, or one request of `cube-cli serve`, which builds the same
//! [`Request`] from a JSON body) and returns its exit code or the error that ended it. `main.rs`
//! and `serve/` both go through here; neither calls the other.

use clap::CommandFactory;

use crate::args::{self, Cli, Command, GlobalArgs, Method};
use crate::output::{self, CliError};
use crate::session::Session;
use crate::{cmd, input, serve};

/// A command and the global options it runs with, checked ([`Request::new`]).
#[derive(Debug)]
pub struct Request {
    global: GlobalArgs,
    command: Command,
}

impl Request {
    /// Checks a parsed command line. Refuses the options that clap accepts but that do nothing
    /// where they were given: the optimal solver's options under `solve` with another method,
    /// and the other methods' options under `solve --method optimal`; the error is clap's, so
    /// that it is printed as clap prints its own.
    pub fn new(cli: Cli) -> Result<Request, clap::Error> {
        if let Command::Solve {
            method,
            max_length,
            time_budget,
            explain,
            optimal,
            ..
        } = &cli.command
        {
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
        }
        Ok(Request {
            global: cli.global,
            command: cli.command,
        })
    }

    /// The command.
    pub fn command(&self) -> &Command {
        &self.command
    }

    /// The command, for `cube-cli serve` to bound its searches.
    pub fn command_mut(&mut self) -> &mut Command {
        &mut self.command
    }

    /// The global options.
    pub fn global(&self) -> &GlobalArgs {
        &self.global
    }
}

/// Runs the request for `session`: its reports are printed (or sent to the session's answer)
/// as they come; returns the exit code, or the error that ended the command.
pub fn run(request: &Request, session: &Session) -> Result<u8, CliError> {
    let global_args = &request.global;
    let for_states = |input| args::Global::new(global_args, Some(input), session);
    let global = || args::Global::new(global_args, None, session);
    match &request.command {
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
            let global = for_states(input);
            let request = cmd::solve::Request::new(
                &global,
                *method,
                *max_length,
                *time_budget,
                to.as_deref(),
                *explain,
                optimal,
            )?;
            input::for_each_state(&global, state, |input| {
                cmd::solve::run(&global, input, &request)
            })
        }
        Command::Optimal {
            state,
            input,
            optimal,
        } => {
            let global = for_states(input);
            input::for_each_state(&global, state, |input| {
                cmd::optimal::run(&global, input, optimal, None)
            })
        }
        Command::Scramble {
            event,
            subgroup,
            count,
            seed,
            format,
        } => cmd::scramble::run(&global(), *event, *subgroup, *count, *seed, *format),
        Command::Check { state, input } => {
            let global = for_states(input);
            input::for_each_state(&global, state, cmd::check::run)
        }
        Command::Convert { state, input, to } => {
            let global = for_states(input);
            input::for_each_state(&global, state, |input| {
                cmd::convert::run(&global, input, *to)
            })
        }
        Command::Show {
            state,
            input,
            no_color,
            svg,
        } => {
            let global = for_states(input);
            input::for_each_state(&global, state, |input| {
                cmd::show::run(input, *no_color, svg.as_deref())
            })
        }
        Command::Tables { all, action } => {
            let global = global();
            match action {
                None => cmd::tables::run(&global, args::TablesAction::Status { all: *all }),
                Some(args::TablesAction::Status { all: status_all }) => cmd::tables::run(
                    &global,
                    args::TablesAction::Status {
                        all: *all || *status_all,
                    },
                ),
                Some(_) if *all => Err(CliError::usage(
                    "tables --all lists every table and tier (as `tables status --all`); it takes no other subcommand (`tables clean --all` removes every file)",
                )),
                Some(action) => cmd::tables::run(&global, action.clone()),
            }
        }
        Command::Verify {
            state,
            solution,
            input,
        } => {
            let global = for_states(input);
            input::for_each_state(&global, state, |input| cmd::verify::run(input, solution))
        }
        Command::Fmc { action } => run_fmc(action, global_args, session),
        Command::Serve(args) => serve::run(&global(), args),
        Command::Completions { shell } => cmd::completions::completions(*shell),
        Command::Man { subcommand, dir } => cmd::completions::man(subcommand, dir.as_deref()),
    }
}

/// Runs an `fmc` subcommand.
fn run_fmc(
    action: &args::FmcAction,
    global_args: &GlobalArgs,
    session: &Session,
) -> Result<u8, CliError> {
    let global = args::Global::new(global_args, None, session);
    match action {
        args::FmcAction::Unniss { input, .. }
        | args::FmcAction::Invert { input, .. }
        | args::FmcAction::Cleanup { input, .. }
        | args::FmcAction::Count { input, .. } => {
            let global = args::Global::new(global_args, Some(&input.input()), session);
            let (command, sequence) = cmd::fmc::Notation::of(action);
            input::for_each_line(&global, sequence, |text| cmd::fmc::notation(command, text))
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
            let global = args::Global::new(global_args, Some(input), session);
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
            let request = cmd::fmc::SolveRequest::new(step, settings)?;
            input::for_each_state(&global, state, |input| {
                cmd::fmc::solve(&global, input, &request)
            })
        }
        args::FmcAction::Steps => cmd::fmc::steps(&global),
        args::FmcAction::Insert {
            scramble,
            skeleton,
            optimal,
            max_seconds,
            threads,
            algs,
        } => {
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
            output::print_outcome(global.printer(), &outcome, None)
        }
        args::FmcAction::Cycles { scramble, skeleton } => {
            let outcome = cmd::fmc::cycles(&global, scramble, skeleton);
            output::print_outcome(global.printer(), &outcome, None)
        }
        args::FmcAction::Improve {
            solution,
            max_length,
            improvements,
            max_seconds,
            threads,
        } => {
            let outcome = cmd::fmc::improve(
                &global,
                solution,
                usize::from(*max_length),
                *improvements,
                *max_seconds,
                *threads,
            );
            output::print_outcome(global.printer(), &outcome, None)
        }
    }
}
