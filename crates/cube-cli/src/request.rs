//! A command line, checked: [`Request::new`] takes clap's raw arguments ([`Cli`]) and makes every
//! check of the options that clap cannot make, so that a [`Request`] that exists is valid: it
//! holds, per command, what that command's `cmd::X::run` needs, already read and checked (`solve
//! --to` as a cube, `fmc solve`'s step, `verify`'s move sequence...). [`run`] runs a request for a
//! [`Session`] (the terminal, or one request of `cube-cli serve`, which builds the same
//! [`Request`] from a JSON body); it fails only on states, tables and I/O, never on an option.
//! `main.rs` and `serve/` both go through here; neither calls the other.
//!
//! `run` sends each report to the session's sink as it is made ([`Printer`](crate::output::Printer):
//! the terminal printer, or the request's [`Answer`](crate::output::Answer), which the server
//! renders) rather than returning them all at its end, because a run may never end or hold more
//! than fits in memory: a `--batch` of millions of states answers line N before it reads line N +
//! 4096, a scramble count prints as it goes, and a long optimal search streams its progress to
//! its client. Both renderers take the same typed values (a report's text and record, progress,
//! notes), and nothing under `cmd/` prints by another way.

use std::path::PathBuf;

use clap::CommandFactory;
use cube_core::{Alg, Subgroup};

use crate::args::{
    self, Cli, Command, EventArg, FmcAction, GlobalArgs, InputArgs, Method, OptimalArgs,
    SequenceArgs, ServeArgs, StateFormat, TablesAction,
};
use crate::cmd::fmc::Notation;
use crate::output::{self, CliError};
use crate::session::Session;
use crate::{cmd, input, serve};

/// A command and the global options it runs with, checked ([`Request::new`]).
#[derive(Debug)]
pub struct Request {
    global: GlobalArgs,
    command: Checked,
}

/// A command, checked: what its `cmd::X::run` needs.
#[derive(Debug)]
pub enum Checked {
    /// A command run on every state STATE stands for.
    States {
        state: String,
        input: InputArgs,
        each: Each,
    },
    /// An FMC notation command, run on every line of SEQUENCE.
    Sequences {
        sequence: String,
        input: InputArgs,
        notation: Notation,
    },
    Scramble {
        event: EventArg,
        subgroup: Option<Subgroup>,
        count: usize,
        seed: Option<u64>,
        format: StateFormat,
    },
    /// `tables` and its actions (`tables --all` is `tables status --all`).
    Tables(TablesAction),
    FmcSteps,
    FmcInsert(cmd::fmc::InsertRequest),
    FmcCycles {
        scramble: String,
        skeleton: String,
    },
    FmcImprove(cmd::fmc::ImproveRequest),
    Serve(ServeArgs),
    Completions(clap_complete::Shell),
    Man {
        path: Vec<String>,
        dir: Option<PathBuf>,
    },
}

/// What a command of [`Checked::States`] does to each state.
#[derive(Debug)]
pub enum Each {
    Solve(cmd::solve::Request),
    Optimal(OptimalArgs),
    Check,
    Convert(StateFormat),
    Show {
        no_color: bool,
        svg: Option<PathBuf>,
    },
    Verify(Alg),
    FmcSolve(cmd::fmc::SolveRequest),
}

/// Why a command line is refused before it runs: an error clap's own way (printed as clap
/// prints its errors), or a usage or input error of the tool's.
#[derive(Debug)]
pub enum Refusal {
    Clap(clap::Error),
    Cli(CliError),
}

impl From<CliError> for Refusal {
    fn from(e: CliError) -> Refusal {
        Refusal::Cli(e)
    }
}

impl Refusal {
    /// The refusal as the tool's error (`cube-cli serve` answers it as a record).
    pub fn into_error(self) -> CliError {
        match self {
            Refusal::Clap(e) => output::clap_usage(&e),
            Refusal::Cli(e) => e,
        }
    }

    /// Prints the refusal on the command line (`json`: `--json`); returns the exit code.
    pub fn print(&self, json: bool) -> u8 {
        match self {
            Refusal::Clap(e) => output::print_clap(e),
            Refusal::Cli(e) => output::print_failure(json, e),
        }
    }
}

impl Request {
    /// Checks a parsed command line. Refuses, the clap way, the options that clap accepts but
    /// that do nothing where they were given: the optimal solver's options under `solve` with
    /// another method, and the other methods' options under `solve --method optimal`. Refuses
    /// with the tool's own errors what does not read or contradicts itself: `solve --to`,
    /// `--tier` in another `--metric`, `fmc solve`'s STEP and `--min`/`--max`, `verify`'s
    /// SOLUTION, `tables --all` with another action, `man`'s SUBCOMMAND.
    pub fn new(cli: Cli) -> Result<Request, Refusal> {
        let command = match cli.command {
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
                refuse_idle_options(method, max_length, time_budget, explain, &optimal)?;
                let request = cmd::solve::Request::new(
                    input.from,
                    method,
                    max_length,
                    time_budget,
                    to.as_deref(),
                    explain,
                    optimal,
                )?;
                states(state, input, Each::Solve(request))
            }
            Command::Optimal {
                state,
                input,
                optimal,
            } => {
                cmd::optimal::check(&optimal)?;
                states(state, input, Each::Optimal(optimal))
            }
            Command::Scramble {
                event,
                subgroup,
                count,
                seed,
                format,
            } => Checked::Scramble {
                event,
                subgroup,
                count,
                seed,
                format,
            },
            Command::Check { state, input } => states(state, input, Each::Check),
            Command::Convert { state, input, to } => states(state, input, Each::Convert(to)),
            Command::Show {
                state,
                input,
                no_color,
                svg,
            } => states(state, input, Each::Show { no_color, svg }),
            Command::Tables { all, action } => Checked::Tables(match action {
                None => TablesAction::Status { all },
                Some(TablesAction::Status { all: status_all }) => TablesAction::Status {
                    all: all || status_all,
                },
                Some(_) if all => {
                    return Err(CliError::usage(
                        "tables --all lists every table and tier (as `tables status --all`); it takes no other subcommand (`tables clean --all` removes every file)",
                    )
                    .into());
                }
                Some(action) => action,
            }),
            Command::Verify {
                state,
                solution,
                input,
            } => {
                let solution = cmd::verify::solution(&solution)?;
                states(state, input, Each::Verify(solution))
            }
            Command::Fmc { action } => fmc(action)?,
            Command::Serve(args) => Checked::Serve(args),
            Command::Completions { shell } => Checked::Completions(shell),
            Command::Man { subcommand, dir } => {
                cmd::completions::check_page(&subcommand)?;
                Checked::Man {
                    path: subcommand,
                    dir,
                }
            }
        };
        Ok(Request {
            global: cli.global,
            command,
        })
    }

    /// The command.
    pub fn command(&self) -> &Checked {
        &self.command
    }

    /// The command, for `cube-cli serve` to bound its searches.
    pub fn command_mut(&mut self) -> &mut Checked {
        &mut self.command
    }
}

/// A command run on every state of `state`.
fn states(state: String, input: InputArgs, each: Each) -> Checked {
    Checked::States { state, input, each }
}

/// An FMC notation command run on every line of `sequence`.
fn sequences(notation: Notation, sequence: String, input: &SequenceArgs) -> Checked {
    Checked::Sequences {
        sequence,
        input: input.input(),
        notation,
    }
}

/// Refuses the options of `solve` that do not act with its method: the optimal solver's with
/// another method, the other methods' with `--method optimal`. The error is clap's, so that it
/// is printed as clap prints its own.
fn refuse_idle_options(
    method: Method,
    max_length: Option<usize>,
    time_budget: Option<std::time::Duration>,
    explain: bool,
    optimal: &OptimalArgs,
) -> Result<(), Refusal> {
    let refuse = |message: String| {
        let mut command = Cli::command();
        command.build();
        let solve = command
            .find_subcommand_mut("solve")
            .expect("solve is a subcommand");
        Err(Refusal::Clap(
            solve.error(clap::error::ErrorKind::ArgumentConflict, message),
        ))
    };
    if method != Method::Optimal
        && let Some(flag) = optimal.given().first()
    {
        return refuse(format!(
            "{flag} acts only on the optimal solver: use it with `--method optimal` or `cube-cli optimal`, not with `--method {}`",
            method.name()
        ));
    }
    if method == Method::Optimal {
        let given = [
            ("--max-length", max_length.is_some()),
            ("--time-budget", time_budget.is_some()),
            ("--explain", explain),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, given)| *given) {
            return refuse(format!(
                "{flag} does not act on the optimal solver (its solutions are the shortest; --timeout limits its time)"
            ));
        }
    }
    Ok(())
}

/// Checks an `fmc` subcommand.
fn fmc(action: FmcAction) -> Result<Checked, Refusal> {
    Ok(match action {
        FmcAction::Unniss { sequence, input } => sequences(Notation::Unniss, sequence, &input),
        FmcAction::Invert { sequence, input } => sequences(Notation::Invert, sequence, &input),
        FmcAction::Cleanup { sequence, input } => sequences(Notation::Cleanup, sequence, &input),
        FmcAction::Count { sequence, input } => sequences(Notation::Count, sequence, &input),
        FmcAction::Solve {
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
            let mut settings = cube_solvers::fmc::Settings {
                niss,
                min_moves: min,
                max_moves: max,
                max_solutions: solutions,
                above_optimal: if optimal { Some(0) } else { above_optimal },
                count_only: count,
                ..Default::default()
            };
            if let Some(threads) = threads {
                settings.threads = threads;
            }
            let request = cmd::fmc::SolveRequest::new(&step, settings)?;
            states(state, input, Each::FmcSolve(request))
        }
        FmcAction::Steps => Checked::FmcSteps,
        FmcAction::Insert {
            scramble,
            skeleton,
            optimal,
            max_seconds,
            threads,
            algs,
        } => {
            let mut settings = cube_solvers::fmc::insert::Settings {
                optimal,
                time_budget: max_seconds,
                ..Default::default()
            };
            if let Some(threads) = threads {
                settings.threads = threads;
            }
            Checked::FmcInsert(cmd::fmc::InsertRequest {
                scramble,
                skeleton,
                settings,
                algs,
            })
        }
        FmcAction::Cycles { scramble, skeleton } => Checked::FmcCycles { scramble, skeleton },
        FmcAction::Improve {
            solution,
            max_length,
            improvements,
            max_seconds,
            threads,
        } => Checked::FmcImprove(cmd::fmc::ImproveRequest {
            solution,
            max_length: usize::from(max_length),
            shown: improvements,
            budget: max_seconds,
            threads,
        }),
    })
}

/// Runs the request for `session`: its reports are printed (or sent to the session's answer)
/// as they come; returns the exit code, or the error that ended the command (of a state, a
/// table or I/O: the options were checked by [`Request::new`]).
pub fn run(request: &Request, session: &Session) -> Result<u8, CliError> {
    let global_args = &request.global;
    let global = |input: Option<&InputArgs>| args::Global::new(global_args, input, session);
    match &request.command {
        Checked::States { state, input, each } => {
            let global = global(Some(input));
            input::for_each_state(&global, state, |input| match each {
                Each::Solve(request) => cmd::solve::run(&global, input, request),
                Each::Optimal(optimal) => cmd::optimal::run(&global, input, optimal, None),
                Each::Check => cmd::check::run(input),
                Each::Convert(to) => cmd::convert::run(&global, input, *to),
                Each::Show { no_color, svg } => cmd::show::run(input, *no_color, svg.as_deref()),
                Each::Verify(solution) => cmd::verify::run(input, solution),
                Each::FmcSolve(request) => cmd::fmc::solve(&global, input, request),
            })
        }
        Checked::Sequences {
            sequence,
            input,
            notation,
        } => {
            let global = global(Some(input));
            input::for_each_line(&global, sequence, |text| {
                cmd::fmc::notation(*notation, text)
            })
        }
        Checked::Scramble {
            event,
            subgroup,
            count,
            seed,
            format,
        } => cmd::scramble::run(&global(None), *event, *subgroup, *count, *seed, *format),
        Checked::Tables(action) => cmd::tables::run(&global(None), action.clone()),
        Checked::FmcSteps => cmd::fmc::steps(&global(None)),
        Checked::FmcInsert(request) => {
            let global = global(None);
            let outcome = cmd::fmc::insert(&global, request);
            global.printer().report(&outcome, None)
        }
        Checked::FmcCycles { scramble, skeleton } => {
            let global = global(None);
            let outcome = cmd::fmc::cycles(&global, scramble, skeleton);
            global.printer().report(&outcome, None)
        }
        Checked::FmcImprove(request) => {
            let global = global(None);
            let outcome = cmd::fmc::improve(&global, request);
            global.printer().report(&outcome, None)
        }
        Checked::Serve(args) => serve::run(&global(None), args),
        Checked::Completions(shell) => {
            cmd::completions::completions(global(None).printer(), *shell)
        }
        Checked::Man { path, dir } => {
            cmd::completions::man(global(None).printer(), path, dir.as_deref())
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Refusal, Request};
    use crate::args::Cli;
    use crate::output::ErrorKind;

    fn request(args: &[&str]) -> Result<Request, Refusal> {
        let cli = Cli::try_parse_from(std::iter::once("cube-cli").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("clap refused {args:?}: {e}"));
        Request::new(cli)
    }

    /// Issue 57, item 2: what clap accepts but does not read or contradicts itself is refused
    /// when the request is made, so that a `Request` that exists is valid; the same options
    /// with values that agree make one.
    #[test]
    fn a_request_that_exists_is_valid() {
        let twisted = "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR1 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0";
        let refused: [(&[&str], ErrorKind, &str); 10] = [
            (&["solve", "R", "--to", "R U Q"], ErrorKind::Parse, "--to: "),
            (
                &["solve", "R", "--to", twisted],
                ErrorKind::Illegal,
                "--to: ",
            ),
            (
                &[
                    "solve", "R", "--method", "optimal", "--tier", "7edge", "--metric", "qtm",
                ],
                ErrorKind::Usage,
                "--tier 7edge has no qtm table",
            ),
            (
                &["optimal", "R", "--tier", "nx-eo2ep1", "--metric", "qtm"],
                ErrorKind::Usage,
                "use --tier nx-eo2ep1-qtm with --metric qtm",
            ),
            (&["fmc", "solve", "eofbb", "R"], ErrorKind::Usage, "STEP: "),
            (
                &["fmc", "solve", "eofb", "R", "--min", "5", "--max", "3"],
                ErrorKind::Usage,
                "--max 3 is below --min 5",
            ),
            (&["verify", "R", "U Q"], ErrorKind::Parse, "solution: "),
            (
                &["tables", "--all", "files"],
                ErrorKind::Usage,
                "takes no other subcommand",
            ),
            (
                &["man", "nosuch"],
                ErrorKind::Usage,
                "man nosuch: no such subcommand",
            ),
            // The clap way: an option where it does not act.
            (
                &["solve", "R", "--tier", "h5"],
                ErrorKind::Usage,
                "acts only on the optimal solver",
            ),
        ];
        for (args, kind, message) in refused {
            let e = request(args).expect_err(&format!("{args:?}")).into_error();
            assert_eq!(e.kind(), kind, "{args:?}: {e}");
            assert!(e.to_string().contains(message), "{args:?}: {e}");
        }
        assert!(matches!(
            request(&["solve", "R", "--tier", "h5"]),
            Err(Refusal::Clap(_))
        ));
        let accepted: [&[&str]; 8] = [
            &["solve", "R", "--to", "U"],
            &[
                "solve", "R", "--method", "optimal", "--tier", "7edge", "--metric", "htm",
            ],
            &["optimal", "R", "--tier", "nx-eo2ep1-qtm", "--metric", "qtm"],
            &["fmc", "solve", "eofb", "R", "--min", "3", "--max", "3"],
            &["verify", "R", "R'"],
            &["tables", "--all"],
            &["tables", "--all", "status"],
            &["man", "tables", "bake"],
        ];
        for args in accepted {
            if let Err(e) = request(args) {
                panic!("{args:?}: {}", e.into_error());
            }
        }
    }
}
