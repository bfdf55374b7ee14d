//! Printing reports as text or JSON, and mapping failures to exit codes.
//!
//! Exit codes: 0 success, 1 invalid or illegal input (or a check that fails, such as `verify`
//! of a non-solution), 2 usage error, 3 tables missing or invalid, 4 timed out without a
//! solution.

use std::fmt;
use std::io::{self, Write};

use serde_json::{Value, json};

use crate::args::Global;

/// Exit code for invalid or illegal input.
pub const EXIT_INPUT: u8 = 1;
/// Exit code for a usage error (clap's own).
pub const EXIT_USAGE: u8 = 2;
/// Exit code for tables that are missing or invalid.
pub const EXIT_TABLES: u8 = 3;
/// Exit code for a search that timed out without a solution.
pub const EXIT_TIMEOUT: u8 = 4;

/// "1 move", "2 moves".
pub fn n_moves(n: usize) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

/// What a subcommand says about one state: text for people, JSON for programs, and the exit
/// code it asks for (0 unless the answer is "no", as for `verify` of a non-solution).
#[derive(Debug)]
pub struct Report {
    pub text: String,
    pub json: Value,
    pub exit: u8,
}

impl Report {
    pub fn new(text: impl Into<String>, json: Value) -> Report {
        Report {
            text: text.into(),
            json,
            exit: 0,
        }
    }

    pub fn with_exit(self, exit: u8) -> Report {
        Report { exit, ..self }
    }
}

/// Why a state could not be handled: a kind for programs (`parse`, `illegal`, `usage`,
/// `tables`, `timeout`, `io`), a message for people, and the exit code.
#[derive(Debug)]
pub struct CliError {
    kind: &'static str,
    message: String,
    exit: u8,
}

impl CliError {
    /// The input could not be read as a cube state.
    pub fn parse(message: impl fmt::Display) -> CliError {
        CliError {
            kind: "parse",
            message: message.to_string(),
            exit: EXIT_INPUT,
        }
    }

    /// The input is a cube state that cannot be reached by turning.
    pub fn illegal(message: impl fmt::Display) -> CliError {
        CliError {
            kind: "illegal",
            message: message.to_string(),
            exit: EXIT_INPUT,
        }
    }

    /// Reading or writing a file failed.
    pub fn io(message: impl fmt::Display) -> CliError {
        CliError {
            kind: "io",
            message: message.to_string(),
            exit: EXIT_INPUT,
        }
    }

    /// Tables are missing, invalid or could not be baked.
    pub fn tables(message: impl fmt::Display) -> CliError {
        CliError {
            kind: "tables",
            message: message.to_string(),
            exit: EXIT_TABLES,
        }
    }

    /// The command line is wrong in a way clap cannot see.
    pub fn usage(message: impl fmt::Display) -> CliError {
        CliError {
            kind: "usage",
            message: message.to_string(),
            exit: EXIT_USAGE,
        }
    }

    /// No solution within the limits given.
    pub fn no_solution(message: impl fmt::Display) -> CliError {
        CliError {
            kind: "no-solution",
            message: message.to_string(),
            exit: EXIT_TIMEOUT,
        }
    }

    /// A search ran out of time before finding any solution.
    pub fn timeout(message: impl fmt::Display) -> CliError {
        CliError {
            kind: "timeout",
            message: message.to_string(),
            exit: EXIT_TIMEOUT,
        }
    }

    /// A signal (SIGINT, SIGTERM) stopped the run before it had anything to print: exit 130.
    pub fn interrupted(message: impl fmt::Display) -> CliError {
        CliError {
            kind: "interrupted",
            message: message.to_string(),
            exit: 130,
        }
    }

    pub fn exit_code(&self) -> u8 {
        self.exit
    }

    pub fn to_json(&self) -> Value {
        json!({ "error": { "kind": self.kind, "message": self.message } })
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Prints one outcome to standard output (errors of a single state go to standard error as
/// text; in JSON or batch mode they stay in line on standard output so that line N of the
/// output answers line N of the input). Returns the exit code it asks for.
pub fn print_outcome(global: &Global, outcome: &crate::Outcome, in_batch: bool) -> io::Result<u8> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match outcome {
        Ok(report) => {
            if global.json {
                writeln!(out, "{}", report.json)?;
            } else {
                writeln!(out, "{}", report.text)?;
            }
            Ok(report.exit)
        }
        Err(e) if global.json => {
            writeln!(out, "{}", e.to_json())?;
            Ok(e.exit_code())
        }
        Err(e) if in_batch => {
            writeln!(out, "error: {e}")?;
            Ok(e.exit_code())
        }
        Err(e) => {
            drop(out);
            print_error(global, e);
            Ok(e.exit_code())
        }
    }
}

/// Prints an error that ends the run.
pub fn print_error(global: &Global, e: &CliError) {
    if global.json {
        println!("{}", e.to_json());
    } else {
        eprintln!("error: {e}");
    }
}
