//! The one writer of cube-cli: reports as text or JSON on standard output, notes and errors on
//! standard error, and the mapping of failures to exit codes. Nothing else in cube-cli prints.
//!
//! Standard output closed by its reader (`cube-cli ... | head -1`) ends the run quietly with
//! exit code 0, as ripgrep does; any other failure to write it (a full disk) is an error on
//! standard error and exit code 1. Standard error itself is written on a best-effort basis.
//!
//! A command says everything through its [`Printer`], the one sink: reports, documents,
//! progress, notes and warnings, each a typed value that the printer renders for whom the command
//! runs. `cube-cli serve` answers each request with the same reports: a command run for a request
//! sends them to the request's [`Answer`] (its JSON lines, and the error kind of the first, for
//! the HTTP status) instead of standard output.
//!
//! Exit codes: 0 success, 1 invalid or illegal input (or a check that fails, such as `verify`
//! of a non-solution) or output that could not be written, 2 usage error, 3 tables missing or
//! invalid, 4 timed out without a solution, 130 stopped by SIGINT or SIGTERM.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use cube_solvers::SolveError;
use cube_solvers::optimal::Progress;
use cube_tables::{AtomicFile, FixCommands, TableError};

use crate::record::{self, Record};

use clap::ValueEnum;

/// Exit code for invalid or illegal input.
pub const EXIT_INPUT: u8 = 1;
/// Exit code for a usage error (clap's own).
pub const EXIT_USAGE: u8 = 2;
/// Exit code for tables that are missing or invalid.
pub const EXIT_TABLES: u8 = 3;
/// Exit code for a search that timed out without a solution.
pub const EXIT_TIMEOUT: u8 = 4;
/// Exit code of an internal error (a bug in a solver, reported rather than looped on): sysexits'
/// `EX_SOFTWARE`.
pub const EXIT_INTERNAL: u8 = 70;

/// The CLI's words for the fix that ends a table error: its own bake command.
pub const FIX_COMMANDS: FixCommands = FixCommands {
    bake: "cube-cli tables bake --tier {tier}",
};

/// A table error as the CLI shows it: its fix in the CLI's commands
/// (`re-run cube-cli tables bake --tier 7edge`), never the library's functions.
pub fn table_error(e: &TableError) -> String {
    e.message(&FIX_COMMANDS)
}

/// Writes `bytes` to the file at `path`, the one way cube-cli writes a file. A regular file (or a
/// new one) is replaced atomically: written beside it, synced, then renamed over it, so that a
/// failure (a full disk) leaves the old file or none, never a part. A symbolic link is followed, so
/// that the file it names is replaced and the link kept. Anything else that exists (`/dev/stdout`,
/// a named pipe) is written in place, never replaced.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => OpenOptions::new().write(true).open(path)?.write_all(bytes),
        _ => {
            let target = match fs::symlink_metadata(path) {
                Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path)?,
                _ => path.to_path_buf(),
            };
            let mut file = AtomicFile::create(&target)?;
            file.write_all(bytes)?;
            file.commit()
        }
    }
}

/// "1 move", "2 moves".
pub fn n_moves(n: usize) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

/// A solution and what is said of it in parentheses: `R U (2 moves)`, and `(0 moves)` for the
/// empty one (no leading space).
pub fn with_note(moves: &str, note: &str) -> String {
    if moves.is_empty() {
        format!("({note})")
    } else {
        format!("{moves} ({note})")
    }
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
    pub record: Record,
    pub exit: u8,
}

impl Report {
    pub fn new(text: impl Into<String>, record: Record) -> Report {
        Report {
            text: text.into(),
            line: None,
            record,
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

/// Why a state could not be handled: a kind for programs (`parse`, `illegal`, `requisite`, `usage`,
/// `tables`, `timeout`, `no-solution`, `io`, `output`, `interrupted`, `internal`; `refused` and
/// `busy` from `cube-cli serve`), a message for people, and the exit
/// code.
#[derive(Clone, Debug)]
pub struct CliError {
    kind: ErrorKind,
    message: String,
}

/// What went wrong, for programs: its name in a JSON error record, the exit code of the command
/// line and the HTTP status of `cube-cli serve`, in one table ([`ErrorKind::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input could not be read as a cube state, or a file as what it should be.
    Parse,
    /// The input is a cube state that cannot be reached by turning.
    Illegal,
    /// The state is not one the step can start from.
    Requisite,
    /// Reading or writing a file failed.
    Io,
    /// Standard output could not be written.
    Output,
    /// Tables are missing, invalid or could not be baked.
    Tables,
    /// The command line (or a request) is wrong in a way clap cannot see.
    Usage,
    /// No solution within the limits given.
    NoSolution,
    /// A search ran out of time before any solution.
    Timeout,
    /// A signal stopped the run before it had anything to print.
    Interrupted,
    /// A failure no input should cause (a bug).
    Internal,
    /// `cube-cli serve` refused a request before running anything.
    Refused,
    /// `cube-cli serve` has no free search slot.
    Busy,
}

impl ErrorKind {
    /// Every kind (for the test that each has its own name, an exit code and a status).
    #[cfg(test)]
    const ALL: [ErrorKind; 13] = [
        ErrorKind::Parse,
        ErrorKind::Illegal,
        ErrorKind::Requisite,
        ErrorKind::Io,
        ErrorKind::Output,
        ErrorKind::Tables,
        ErrorKind::Usage,
        ErrorKind::NoSolution,
        ErrorKind::Timeout,
        ErrorKind::Interrupted,
        ErrorKind::Internal,
        ErrorKind::Refused,
        ErrorKind::Busy,
    ];

    /// The kind's name, exit code and HTTP status.
    const fn row(self) -> (&'static str, u8, u16) {
        match self {
            ErrorKind::Parse => ("parse", EXIT_INPUT, 400),
            ErrorKind::Illegal => ("illegal", EXIT_INPUT, 422),
            ErrorKind::Requisite => ("requisite", EXIT_INPUT, 422),
            ErrorKind::Io => ("io", EXIT_INPUT, 500),
            ErrorKind::Output => ("output", EXIT_INPUT, 500),
            ErrorKind::Tables => ("tables", EXIT_TABLES, 503),
            ErrorKind::Usage => ("usage", EXIT_USAGE, 400),
            ErrorKind::NoSolution => ("no-solution", EXIT_TIMEOUT, 422),
            ErrorKind::Timeout => ("timeout", EXIT_TIMEOUT, 422),
            ErrorKind::Interrupted => ("interrupted", 130, 503),
            ErrorKind::Internal => ("internal", EXIT_INTERNAL, 500),
            ErrorKind::Refused => ("refused", EXIT_USAGE, 403),
            ErrorKind::Busy => ("busy", EXIT_TIMEOUT, 503),
        }
    }

    /// The name in a JSON error record: `parse`, `no-solution`, ...
    pub const fn name(self) -> &'static str {
        self.row().0
    }

    /// The exit code of the command line.
    pub const fn exit_code(self) -> u8 {
        self.row().1
    }

    /// The HTTP status of `cube-cli serve`'s answer.
    pub const fn http_status(self) -> u16 {
        self.row().2
    }
}

impl CliError {
    /// An error of `kind`.
    pub fn of(kind: ErrorKind, message: impl fmt::Display) -> CliError {
        CliError {
            kind,
            message: message.to_string(),
        }
    }

    /// The input could not be read as a cube state.
    pub fn parse(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Parse, message.to_string())
    }

    /// The input is a cube state that cannot be reached by turning.
    pub fn illegal(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Illegal, message.to_string())
    }

    /// The state is a cube, but not one the step can start from (an FMC step's requisite).
    pub fn requisite(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Requisite, message.to_string())
    }

    /// Reading or writing a file failed.
    pub fn io(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Io, message.to_string())
    }

    /// Standard output could not be written (other than closed by its reader).
    pub fn output(e: io::Error) -> CliError {
        CliError::of(ErrorKind::Output, format!("writing standard output: {e}"))
    }

    /// Tables are missing, invalid or could not be baked: the error in the CLI's words
    /// ([`table_error`]).
    pub fn tables(e: &TableError) -> CliError {
        CliError::tables_text(table_error(e))
    }

    /// Tables are missing, said in a message of the command's own.
    pub fn tables_text(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Tables, message.to_string())
    }

    /// The command line is wrong in a way clap cannot see.
    pub fn usage(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Usage, message.to_string())
    }

    /// No solution within the limits given.
    pub fn no_solution(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::NoSolution, message.to_string())
    }

    /// A search ran out of time before finding any solution.
    pub fn timeout(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Timeout, message.to_string())
    }

    /// A signal (SIGINT, SIGTERM) stopped the run before it had anything to print: exit 130.
    pub fn interrupted(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Interrupted, message.to_string())
    }

    /// A solver failed in a way no input should cause (a bug, named as one): exit 70.
    pub fn internal(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Internal, message.to_string())
    }

    /// A solver's error as the CLI reports it, the one mapping every command uses: an unsolvable
    /// cube is `illegal`, a search stopped by a signal `interrupted`, by its time limit `timeout`,
    /// a checkpoint that is not this search's `parse` (a file that cannot be read as one), anything
    /// else `internal`.
    pub fn solve(e: SolveError) -> CliError {
        match e {
            SolveError::Unsolvable(_) => CliError::illegal(e),
            SolveError::Cancelled if crate::signals::signalled() => {
                CliError::interrupted("stopped by a signal before any solution was found")
            }
            SolveError::Cancelled => CliError::timeout("stopped before any solution was found"),
            SolveError::BadCheckpoint(_) => CliError::parse(e),
            _ => CliError::internal(e),
        }
    }

    /// `cube-cli serve` refused a request before running anything: a foreign `Host` or
    /// `Origin`, a body too large, no such route.
    pub fn refused(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Refused, message.to_string())
    }

    /// `cube-cli serve` has no free search slot (as many optimal searches run as there are
    /// cores): the request may be sent again later.
    pub fn busy(message: impl fmt::Display) -> CliError {
        CliError::of(ErrorKind::Busy, message.to_string())
    }

    /// The kind, for programs (`parse`, `illegal`, ...).
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The same error about `what`, such as an option: its message starts `what: `.
    pub fn about(self, what: &str) -> CliError {
        CliError {
            message: format!("{what}: {}", self.message),
            ..self
        }
    }

    pub fn exit_code(&self) -> u8 {
        self.kind.exit_code()
    }

    /// The error as a JSON record: `{"type": "error", "error": {"kind", "message"}}`.
    pub fn to_record(&self) -> Record {
        Record::Error(record::Error {
            error: record::ErrorBody {
                kind: self.kind.name(),
                message: self.message.clone(),
            },
        })
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
    write_parts(&[text.as_bytes(), b"\n"])
}

/// Writes `bytes` to standard output as they are, flushed, as [`write_line`] does.
pub fn write_bytes(bytes: &[u8]) -> Result<(), CliError> {
    write_parts(&[bytes])
}

fn write_parts(parts: &[&[u8]]) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    let result = parts
        .iter()
        .try_for_each(|part| out.write_all(part))
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

/// `--color`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set or TERM=dumb (CLICOLOR_FORCE forces colour).
    Auto,
    /// Always, even into a pipe.
    Always,
    /// Never.
    Never,
}

/// What a request's optimal search reports its progress to (a streamed answer's events).
pub type ProgressSink = std::sync::Arc<dyn Fn(&Progress) + Send + Sync>;

/// The one sink of a command ([`Global::printer`](crate::args::Global::printer)): everything a
/// command says goes through it as a typed value (a report, a document, progress, a note, a
/// warning), and it renders each for whom the command runs: on the terminal as text (or JSON
/// with `--json`), or into the [`Answer`] of a request of `cube-cli serve` (`answer`), whose
/// progress goes to the request's `progress` sink. `notes` is whether notes and progress are
/// shown on the terminal (not with `--quiet` or `--json`).
#[derive(Clone, Copy)]
pub struct Printer<'a> {
    pub json: bool,
    pub notes: bool,
    pub answer: Option<&'a std::sync::Mutex<Answer>>,
    pub progress: Option<&'a ProgressSink>,
}

/// Warnings held until the results are out ([`Printer::warning`], [`print_warnings`]).
static WARNINGS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

impl Printer<'_> {
    /// Prints one outcome. For one state (`origin` is `None`), a report goes to standard output
    /// and an error to standard error as text, or to standard output as JSON with `--json`. In a
    /// batch, every outcome is one line on standard output (so that line N of the output answers
    /// line N of the input), and JSON records carry `index` and `input`. For a request of
    /// `cube-cli serve`, the outcome goes to the request's [`Answer`] instead. Returns the exit
    /// code it asks for.
    pub fn report(self, outcome: &Outcome, origin: Option<Origin<'_>>) -> Result<u8, CliError> {
        if let Some(answer) = self.answer {
            let mut answer = answer.lock().unwrap_or_else(|e| e.into_inner());
            return Ok(match outcome {
                Ok(report) => {
                    answer.push(&report.record, None, origin);
                    report.exit
                }
                Err(e) => {
                    answer.push(&e.to_record(), Some(e.kind), origin);
                    e.exit_code()
                }
            });
        }
        let error_record;
        let (record, text, exit) = match outcome {
            Ok(report) => (
                &report.record,
                match origin {
                    Some(_) => report.batch_line(),
                    None => report.text.clone(),
                },
                report.exit,
            ),
            Err(e) if self.json || origin.is_some() => {
                error_record = e.to_record();
                (
                    &error_record,
                    format!("error: {}", fold(&e.message)),
                    e.exit_code(),
                )
            }
            Err(e) => {
                print_error(self.json, e)?;
                return Ok(e.exit_code());
            }
        };
        if !self.json {
            write_line(&text)?;
            return Ok(exit);
        }
        write_line(&json_line(record, origin))?;
        Ok(exit)
    }

    /// A document the command writes as it is, not a record (a completion script, a manual
    /// page): on standard output, with or without `--json`. The server runs no command that
    /// writes one (they act on the server's machine), so in an answer it is an `internal` error.
    pub fn document(self, bytes: &[u8]) -> Result<u8, CliError> {
        if self.answer.is_some() {
            return Err(CliError::internal(
                "a document in a request's answer (a bug: please report it)",
            ));
        }
        write_bytes(bytes)?;
        Ok(0)
    }

    /// A note for people (what is being loaded, how long it takes): on standard error, unless
    /// `--quiet` or `--json`; an answer gets only records.
    pub fn note(self, text: impl fmt::Display) {
        if self.notes && self.answer.is_none() {
            note(text);
        }
    }

    /// The progress of a search: to the request's progress sink, or as a note on the terminal
    /// when `shown` (a batch shows none: its lines would interleave).
    pub fn progress(self, progress: &Progress, shown: bool) {
        match self.progress {
            Some(sink) => sink(progress),
            None if shown && self.answer.is_none() => self.note(progress),
            None => {}
        }
    }

    /// A warning (a checkpoint that could not be written): on the terminal, held until the
    /// results are out ([`print_warnings`]), so that it is never lost behind an error; for a
    /// request, on the server's standard error at once (its operator's concern, not the
    /// client's).
    pub fn warning(self, message: String) {
        if self.answer.is_some() {
            note_warning(message);
        } else {
            WARNINGS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(message);
        }
    }
}

/// Prints the warnings held during the run on standard error (after the results).
pub fn print_warnings() {
    for warning in WARNINGS.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
        note_warning(warning);
    }
}

/// Where a batch record came from: its 0-based line number and the line as read.
pub struct Origin<'a> {
    pub index: usize,
    pub input: &'a str,
}

/// The answer of a request of `cube-cli serve`: the records its command reported, as the JSON
/// lines `--json` prints for them, and the error kind of the first (its HTTP status).
#[derive(Debug, Default)]
pub struct Answer {
    lines: Vec<String>,
    first_error: Option<ErrorKind>,
}

impl Answer {
    /// The answer of a command that failed before it reported anything.
    pub fn failed(e: &CliError) -> Answer {
        let mut answer = Answer::default();
        answer.push_error(e);
        answer
    }

    /// Adds the error that ended the command.
    pub fn push_error(&mut self, e: &CliError) {
        self.push(&e.to_record(), Some(e.kind), None);
    }

    fn push(&mut self, record: &Record, error: Option<ErrorKind>, origin: Option<Origin<'_>>) {
        if self.lines.is_empty() {
            self.first_error = error;
        }
        self.lines.push(json_line(record, origin));
    }

    /// The records, one line of JSON each.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// The kind of the first record when it is an error: the answer's HTTP status.
    pub fn first_error(&self) -> Option<ErrorKind> {
        self.first_error
    }

    /// The answer's body: its lines, each ended by a newline.
    pub fn body(&self) -> Vec<u8> {
        let mut body = Vec::new();
        for line in &self.lines {
            body.extend_from_slice(line.as_bytes());
            body.push(b'\n');
        }
        body
    }
}

/// `record` as one line of JSON (`type` first), with the `index` and `input` of the line it
/// answers.
fn json_line(record: &Record, origin: Option<Origin<'_>>) -> String {
    #[derive(serde::Serialize)]
    struct Line<'a> {
        #[serde(flatten)]
        record: &'a Record,
        #[serde(skip_serializing_if = "Option::is_none")]
        index: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        input: Option<&'a str>,
    }
    let line = Line {
        record,
        index: origin.as_ref().map(|o| o.index),
        input: origin.as_ref().map(|o| o.input),
    };
    serde_json::to_string(&line).expect("a record serializes")
}

/// Prints the error that ended a run (as [`print_error`]; an error writing it is printed on
/// standard error) and returns the exit code.
pub fn print_failure(json: bool, e: &CliError) -> u8 {
    match print_error(json, e) {
        Ok(()) => e.exit_code(),
        Err(write_error) => {
            let _ = print_error(json, &write_error);
            write_error.exit_code()
        }
    }
}

/// Prints an error that ends the run: as JSON on standard output with `--json`, else as text
/// on standard error. An error writing the output itself always goes to standard error.
fn print_error(json: bool, e: &CliError) -> Result<(), CliError> {
    if json && e.kind != ErrorKind::Output {
        write_line(&json_line(&e.to_record(), None))
    } else {
        note_error(e);
        Ok(())
    }
}

/// Sets when standard output and standard error get colours (`--color`); `auto` is decided per
/// stream by anstream, as clap decides it: colours on a terminal unless `NO_COLOR` is set and not
/// empty or `TERM=dumb`, and anywhere when `CLICOLOR_FORCE` is set.
pub fn set_color(choice: ColorChoice) {
    anstream::ColorChoice::write_global(match choice {
        ColorChoice::Auto => anstream::ColorChoice::Auto,
        ColorChoice::Always => anstream::ColorChoice::Always,
        ColorChoice::Never => anstream::ColorChoice::Never,
    });
}

/// Whether standard output gets colours.
pub fn stdout_colored() -> bool {
    anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never
}

/// Whether standard error gets colours.
fn stderr_colored() -> bool {
    anstream::AutoStream::choice(&io::stderr()) != anstream::ColorChoice::Never
}

/// `label` (`error:`, `warning:`) in clap's style for it when standard error has colours.
fn styled(label: &str, style: anstyle::Style) -> String {
    if stderr_colored() {
        format!("{style}{label}{style:#}")
    } else {
        label.to_string()
    }
}

/// Writes an error of the tool on standard error: `error: MESSAGE`, `error:` styled as clap
/// styles its own errors.
pub fn note_error(message: impl fmt::Display) {
    let style = clap::builder::styling::Styles::default()
        .get_error()
        .to_owned();
    note(format_args!("{} {message}", styled("error:", style)));
}

/// Writes a warning on standard error: `cube-cli: warning: MESSAGE`, `warning:` in yellow.
pub fn note_warning(message: impl fmt::Display) {
    let style = anstyle::Style::new()
        .bold()
        .fg_color(Some(anstyle::AnsiColor::Yellow.into()));
    note(format_args!(
        "cube-cli: {} {message}",
        styled("warning:", style)
    ));
}

/// The options that decide how a command-line error itself is printed, read before clap parses
/// (which may fail): `--json`, and `--color WHEN`.
fn early_options() -> (bool, Option<ColorChoice>) {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .take_while(|a| a != "--")
        .collect();
    let json = args.iter().any(|a| a == "--json");
    let color = args.iter().enumerate().find_map(|(i, a)| {
        let value = match a.strip_prefix("--color") {
            Some("") => args.get(i + 1)?.as_str(),
            Some(rest) => rest.strip_prefix('=')?,
            None => return None,
        };
        ColorChoice::from_str(value, true).ok()
    });
    (json, color)
}

/// The usage error of what clap refused: the first paragraph of its message, without clap's
/// `error: ` (the message of the JSON record).
pub fn clap_usage(e: &clap::Error) -> CliError {
    let plain = e.render().to_string();
    let message = plain.split("\n\n").next().unwrap_or_default();
    let message = message.strip_prefix("error: ").unwrap_or(message);
    CliError::usage(message.trim())
}

/// Prints what clap stopped with: help and version on standard output through [`write_line`]
/// (so that a full disk is an error), in colour where standard output has colours; a usage error
/// on standard error as clap styles it, or as a JSON error record on standard output when
/// `--json` was given. Returns the exit code.
pub fn print_clap(e: &clap::Error) -> u8 {
    let (json, color) = early_options();
    if let Some(color) = color {
        set_color(color);
    }
    let rendered = e.render();
    if !e.use_stderr() {
        let text = if stdout_colored() {
            rendered.ansi().to_string()
        } else {
            rendered.to_string()
        };
        return match write_line(text.trim_end_matches('\n')) {
            Ok(()) => 0,
            Err(e) => {
                note_error(&e);
                e.exit_code()
            }
        };
    }
    let plain = rendered.to_string();
    if json {
        if let Err(e) = write_line(&json_line(&clap_usage(e).to_record(), None)) {
            note_error(&e);
        }
    } else if stderr_colored() {
        note(rendered.ansi().to_string().trim_end());
    } else {
        note(plain.trim_end());
    }
    EXIT_USAGE
}

#[cfg(test)]
mod tests {
    use super::ErrorKind;

    #[test]
    fn every_error_kind_has_one_name_an_exit_code_and_a_status() {
        for (i, kind) in ErrorKind::ALL.into_iter().enumerate() {
            let others = &ErrorKind::ALL[i + 1..];
            assert!(others.iter().all(|o| o.name() != kind.name()), "{kind:?}");
            assert_ne!(kind.exit_code(), 0, "{kind:?}");
            assert!((400..600).contains(&kind.http_status()), "{kind:?}");
        }
        // As docs/api.md says: a bad request, a refusal, a state the search cannot take, tables
        // the server lacks.
        assert_eq!(ErrorKind::Parse.http_status(), 400);
        assert_eq!(ErrorKind::Refused.http_status(), 403);
        assert_eq!(ErrorKind::Illegal.http_status(), 422);
        assert_eq!(ErrorKind::Tables.http_status(), 503);
    }
}
