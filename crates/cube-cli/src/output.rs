//! The one writer of cube-cli: reports as text or JSON on standard output, notes and errors on
//! standard error, and the mapping of failures to exit codes. Nothing else in cube-cli prints.
//!
//! Standard output closed by its reader (`cube-cli ... | head -1`) ends the run quietly with
//! exit code 0, as ripgrep does; any other failure to write it (a full disk) is an error on
//! standard error and exit code 1. Standard error itself is written on a best-effort basis.
//!
//! Exit codes: 0 success, 1 invalid or illegal input (or a check that fails, such as `verify`
//! of a non-solution) or output that could not be written, 2 usage error, 3 tables missing or
//! invalid, 4 timed out without a solution.

use std::fmt;
use std::io::{self, IsTerminal, Write};

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
///
/// A text of several lines is printed as it is for one state; in a batch, where line N of the
/// output answers line N of the input, it is folded into one line (`line`, else the text's
/// lines joined by `; `).
#[derive(Debug)]
pub struct Report {
    pub text: String,
    pub line: Option<String>,
    pub json: Value,
    pub exit: u8,
}

impl Report {
    pub fn new(text: impl Into<String>, json: Value) -> Report {
        Report {
            text: text.into(),
            line: None,
            json,
            exit: 0,
        }
    }

    /// The one line that stands for the report in a batch.
    pub fn with_line(self, line: impl Into<String>) -> Report {
        Report {
            line: Some(line.into()),
            ..self
        }
    }

    fn batch_line(&self) -> String {
        match &self.line {
            Some(line) => line.clone(),
            None => fold(&self.text),
        }
    }

    pub fn with_exit(self, exit: u8) -> Report {
        Report { exit, ..self }
    }
}

/// One state's result: a report, or an error for that state.
pub type Outcome = Result<Report, CliError>;

/// Why a state could not be handled: a kind for programs (`parse`, `illegal`, `usage`,
/// `tables`, `timeout`, `no-solution`, `io`, `output`), a message for people, and the exit
/// code.
#[derive(Clone, Debug)]
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

    /// Standard output could not be written (other than closed by its reader).
    pub fn output(e: io::Error) -> CliError {
        CliError {
            kind: "output",
            message: format!("writing standard output: {e}"),
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

/// `text`'s lines, trimmed, joined by `; `.
fn fold(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("; ")
}

/// Writes `text` and a newline to standard output, flushed. A closed pipe ends the process
/// quietly (exit code 0); any other failure is an `io` error (exit code 1) for the caller to
/// report on standard error.
pub fn write_line(text: &str) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    let result = out
        .write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    match result {
        Ok(()) => Ok(()),
        // A closed pipe (`cube-cli ... | head`) is a normal way to stop.
        // See: https://github.com/BurntSushi/ripgrep/issues/200
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(CliError::output(e)),
    }
}

/// Writes a note (progress, what is being built) and a newline to standard error. A failure
/// to write it is ignored: there is nowhere left to say so.
pub fn note(text: impl fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// Where a batch record came from: its 0-based line number and the line as read.
pub struct Origin<'a> {
    pub index: usize,
    pub input: &'a str,
}

/// Prints one outcome. For one state (`origin` is `None`), a report goes to standard output
/// and an error to standard error as text, or to standard output as JSON with `--json`. In a
/// batch, every outcome is one line on standard output (so that line N of the output answers
/// line N of the input), and JSON records carry `index` and `input`. Returns the exit code it
/// asks for.
pub fn print_outcome(
    global: &Global,
    outcome: &Outcome,
    origin: Option<Origin<'_>>,
) -> Result<u8, CliError> {
    let (mut json, text, exit) = match outcome {
        Ok(report) => (
            report.json.clone(),
            match origin {
                Some(_) => report.batch_line(),
                None => report.text.clone(),
            },
            report.exit,
        ),
        Err(e) if global.json || origin.is_some() => {
            (e.to_json(), format!("error: {}", fold(&e.message)), e.exit)
        }
        Err(e) => {
            print_error(global, e)?;
            return Ok(e.exit);
        }
    };
    if !global.json {
        write_line(&text)?;
        return Ok(exit);
    }
    if let (Some(origin), Value::Object(map)) = (origin, &mut json) {
        map.insert("index".into(), json!(origin.index));
        map.insert("input".into(), json!(origin.input));
    }
    write_line(&json.to_string())?;
    Ok(exit)
}

/// Prints an error that ends the run: as JSON on standard output with `--json`, else as text
/// on standard error. An error writing the output itself always goes to standard error.
pub fn print_error(global: &Global, e: &CliError) -> Result<(), CliError> {
    if global.json && e.kind != "output" {
        write_line(&e.to_json().to_string())
    } else {
        note(format_args!("error: {e}"));
        Ok(())
    }
}

/// Prints clap's help or version text on standard output through [`write_line`] (so that a
/// full disk is an error), in colour on a terminal.
pub fn print_help(e: &clap::Error) -> Result<(), CliError> {
    let rendered = e.render();
    let text = if io::stdout().is_terminal() {
        rendered.ansi().to_string()
    } else {
        rendered.to_string()
    };
    write_line(text.trim_end_matches('\n'))
}
