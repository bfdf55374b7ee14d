//! Turning STATE arguments into cube states: format detection, `--from`, standard input and
//! batches.
//!
//! The rule for lines (docs/cli.md, "Standard input"): blank lines and lines starting with `#`
//! are skipped; what is left is one state per line, except when there are several lines, the
//! whole text has the shape of one structured state split over lines (facelets one face or row
//! per line, H48 or a Reid string over several lines, Twizzle hex, pretty-printed pattern JSON,
//! that is JSON whose first line is not a JSON document by itself), and no line but a JSON one
//! has a structured shape by itself. Lines that are move sequences are never joined. `--batch`
//! always splits. A line that is not UTF-8 is an error for that line only.

use std::io::{self, Read};

use cube_encode::{Checked, DecodeError, Format, Problem, State};
use rayon::prelude::*;

use crate::args::{Global, StateFormat};
use crate::output::{CliError, Origin, Outcome};

/// One state as given: its text, and how it reads with every rule checked.
pub struct Input {
    pub text: String,
    /// The 0-based line number of the state when the input holds several (its record's
    /// `index`); `None` for a single state.
    pub line: Option<usize>,
    /// The format the text was read as (detected by shape, or forced by `--from`) and what it
    /// reads as, or why it does not read at all.
    read: Result<(Format, Checked), CliError>,
}

impl Input {
    /// `text` read as `from` says (`--from`), else in the format its shape says.
    pub fn new(from: Option<StateFormat>, text: &str) -> Input {
        let read = match from {
            Some(from) => {
                let format = from.format();
                cube_encode::check_as(format, text)
                    .map(|checked| (format, checked))
                    .map_err(|e| refusal(&e, format, Assumed::Forced))
            }
            None => match cube_encode::check(text) {
                Ok(found) => Ok(found),
                Err(DecodeError::Detected { format, error }) => {
                    Err(refusal(&error, format, Assumed::Detected))
                }
                Err(e) => Err(CliError::parse(e)),
            },
        };
        Input {
            text: text.to_string(),
            line: None,
            read,
        }
    }

    /// A line that is not UTF-8: `valid_up_to` bytes of it are.
    fn not_utf8(bytes: &[u8], valid_up_to: usize) -> Input {
        Input {
            text: String::from_utf8_lossy(bytes).into_owned(),
            line: None,
            read: Err(not_utf8(bytes, valid_up_to)),
        }
    }

    /// The format read and every rule the state breaks (none: a legal cube), or the reason
    /// the text is not a state.
    pub fn problems(&self) -> Result<(Format, &[Problem]), CliError> {
        let (format, checked) = self.read.as_ref().map_err(Clone::clone)?;
        Ok((*format, &checked.problems))
    }

    /// The state, or the reason it could not be read: every problem when it is no cube.
    pub fn state(&self) -> Result<(Format, State), CliError> {
        let (format, checked) = self.read.as_ref().map_err(Clone::clone)?;
        match checked.state {
            Some(state) => Ok((*format, state)),
            None => Err(illegal(&checked.problems)),
        }
    }

    /// The state, which must also be solvable.
    pub fn legal_state(&self) -> Result<(Format, State), CliError> {
        let (format, problems) = self.problems()?;
        if !problems.is_empty() {
            return Err(illegal(problems));
        }
        let (_, state) = self.state()?;
        Ok((format, state))
    }
}

/// The refusal of a state that breaks rules: every one, as `check` lists them.
fn illegal(problems: &[Problem]) -> CliError {
    CliError::illegal(cube_encode::illegal_cube(problems))
}

/// How the format of a text was chosen.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Assumed {
    /// `--from`.
    Forced,
    /// By the text's shape (no shape: a move sequence).
    Detected,
}

/// A reader's refusal of a text that does not read: it says which format it was read as
/// and, when that was detected, how to choose another.
fn refusal(e: &DecodeError, format: Format, assumed: Assumed) -> CliError {
    let name = StateFormat::of(format).name();
    match (assumed, format) {
        (Assumed::Forced, _) => CliError::parse(format!("{e} (read as {name}, as --from asked)")),
        (Assumed::Detected, Format::Alg) => CliError::parse(format!(
            "{e} (read as a move sequence, since it has the shape of no other format; --from FORMAT reads it as another)"
        )),
        (Assumed::Detected, _) => CliError::parse(format!(
            "{e} (read as {name}, by its shape; --from FORMAT reads it as another format)"
        )),
    }
}

/// Whether the lines of a text are one state split over lines (see the module docs). A line
/// with a shape of its own is a state of its own: a state and a line of moves are two states,
/// though together they may have the shape of one with a mistake (an H48 text and `R U` are 22
/// tokens of mostly H48 pieces; 22 hex digits and `F` are 23).
fn is_one_state(lines: &[&str], joined: &str) -> bool {
    match cube_encode::structured_shape(joined) {
        Some(Format::PatternJson) => serde_json::from_str::<serde_json::Value>(lines[0]).is_err(),
        Some(_) => lines
            .iter()
            .all(|line| cube_encode::structured_shape(line).is_none()),
        None => false,
    }
}

/// Runs `run` on every state STATE stands for, prints each result, and returns the exit code:
/// 0 if every state succeeded, else the first failing state's code.
///
/// STATE `-` reads standard input; STATE itself may hold several lines too. Lines are read by
/// the rule of the module docs; with `--shard K/N`, only the lines whose 0-based number is K
/// modulo N are answered (by their own numbers). States of a batch are handled in parallel and printed in
/// input order, one output line each.
pub fn for_each_state<F>(global: &Global, state: &str, run: F) -> Result<u8, CliError>
where
    F: Fn(&Input) -> Outcome + Sync,
{
    let bytes = read_argument(global, state)?;
    let lines = input_lines(global, &bytes);
    let read = |line: &[u8]| match std::str::from_utf8(line) {
        Ok(text) => Input::new(global.from, text),
        Err(e) => Input::not_utf8(line, e.valid_up_to()),
    };
    let texts: Option<Vec<&str>> = lines
        .iter()
        .map(|(_, l)| std::str::from_utf8(l).ok())
        .collect();
    let single = match (lines.as_slice(), &texts) {
        _ if global.batch => None,
        ([], _) => Some(Input::new(global.from, "")),
        ([(_, line)], _) => Some(read(line)),
        (_, Some(texts)) => {
            let joined = texts.join("\n");
            is_one_state(texts, &joined).then(|| Input::new(global.from, &joined))
        }
        (_, None) => None,
    };
    if let Some(input) = single {
        return global.printer().report(&run(&input), None);
    }
    answer_lines(global, &lines, |index, line| {
        let input = Input {
            line: Some(index),
            ..read(line)
        };
        let outcome = run(&input);
        (input.text, outcome)
    })
}

/// Runs `run` on every line of a text argument that is not a state (the FMC commands' move
/// sequences), with the line rules of [`for_each_state`] except that lines are never joined:
/// `-` reads standard input, blank lines and `#` comments are skipped, `--batch` and `--shard`
/// act as there, and several lines are answered one output line each, in input order. A single
/// empty argument is run as the empty text. A line that is not UTF-8 is an error for that line.
pub fn for_each_line<F>(global: &Global, argument: &str, run: F) -> Result<u8, CliError>
where
    F: Fn(&str) -> Outcome + Sync,
{
    let bytes = read_argument(global, argument)?;
    let lines = input_lines(global, &bytes);
    match lines.as_slice() {
        [] if !global.batch => return global.printer().report(&run(""), None),
        [(_, line)] if !global.batch => {
            let outcome = text(line).and_then(&run);
            return global.printer().report(&outcome, None);
        }
        _ => {}
    }
    answer_lines(global, &lines, |_, line| {
        let outcome = text(line).and_then(&run);
        (String::from_utf8_lossy(line).into_owned(), outcome)
    })
}

/// A line as text, or the error of a line that is not UTF-8.
fn text(line: &[u8]) -> Result<&str, CliError> {
    std::str::from_utf8(line).map_err(|e| not_utf8(line, e.valid_up_to()))
}

/// The error of a line that is not UTF-8: `valid_up_to` bytes of it are.
fn not_utf8(bytes: &[u8], valid_up_to: usize) -> CliError {
    CliError::parse(format!(
        "column {}: byte 0x{:02x} is not UTF-8 text",
        valid_up_to + 1,
        bytes[valid_up_to]
    ))
}

/// The bytes of a text argument: standard input for `-`, else the argument itself.
fn read_argument(global: &Global, argument: &str) -> Result<Vec<u8>, CliError> {
    if !global.session.reads_files() {
        // A request's text is text: nothing in it is looked up on the server's disk.
        Ok(argument.as_bytes().to_vec())
    } else if argument == "-" {
        let mut buffer = Vec::new();
        io::stdin()
            .read_to_end(&mut buffer)
            .map_err(|e| CliError::io(format!("reading standard input: {e}")))?;
        Ok(buffer)
    } else if looks_like_a_file(argument) {
        Err(CliError::usage(format!(
            "STATE `{argument}` is a file name, not a state: give the file on standard input (STATE `-`): `... - < {argument}`"
        )))
    } else {
        Ok(argument.as_bytes().to_vec())
    }
}

/// Whether STATE names an existing file (a path with a `/` or a `.`, no spaces): no state format
/// is one, and read as moves it would only fail at its first character.
fn looks_like_a_file(argument: &str) -> bool {
    argument.contains(['/', '.'])
        && !argument.contains(char::is_whitespace)
        && std::path::Path::new(argument).is_file()
}

/// (0-based line number, the line trimmed) for every line that holds an input: not blank, not a
/// `#` comment, and in the shard if there is one.
fn input_lines<'a>(global: &Global, bytes: &'a [u8]) -> Vec<(usize, &'a [u8])> {
    bytes
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with(b"#"))
        .filter(|&(index, _)| global.shard.is_none_or(|shard| shard.holds(index)))
        .collect()
}

/// Answers every line with `answer` (its text as read and its outcome), in parallel chunks,
/// printing one output line each in input order; returns the first failing line's exit code,
/// else 0.
fn answer_lines<F>(global: &Global, lines: &[(usize, &[u8])], answer: F) -> Result<u8, CliError>
where
    F: Fn(usize, &[u8]) -> (String, Outcome) + Sync,
{
    let mut exit = 0;
    if !global.session.is_request() {
        // A server's tables are chosen once for every request, not by one request's size.
        crate::method_tables::many_states();
    }
    // Chunks keep memory bounded on huge inputs while each chunk runs in parallel.
    for chunk in lines.chunks(4096) {
        let outcomes: Vec<(String, Outcome)> = chunk
            .par_iter()
            .map(|&(index, line)| answer(index, line))
            .collect();
        for (&(index, _), (input, outcome)) in chunk.iter().zip(&outcomes) {
            let origin = Origin { index, input };
            let code = global.printer().report(outcome, Some(origin))?;
            if exit == 0 {
                exit = code;
            }
        }
    }
    Ok(exit)
}
