//! Turning STATE arguments into cube states: format detection, `--from`, standard input and
//! batches.

use std::io::{self, Read};

use cube_encode::{DecodeError, Format, State};
use rayon::prelude::*;

use crate::Outcome;
use crate::args::{Global, InputFormat};
use crate::output::{self, CliError};

/// One state as given: its text, and how it reads.
pub struct Input {
    pub text: String,
    pub parsed: Result<(Format, State), DecodeError>,
}

impl Input {
    pub fn new(global: &Global, text: &str) -> Input {
        let parsed = match global.from {
            Some(from) => {
                let format = format_of(from);
                cube_encode::parse_as(format, text).map(|state| (format, state))
            }
            None => cube_encode::detect(text),
        };
        Input {
            text: text.to_string(),
            parsed,
        }
    }

    /// The state, or the reason it could not be read.
    pub fn state(&self) -> Result<(Format, State), CliError> {
        self.parsed
            .clone()
            .map_err(|e| CliError::parse(describe(&e)))
    }

    /// The state, which must also be solvable.
    pub fn legal_state(&self) -> Result<(Format, State), CliError> {
        let (format, state) = self.state()?;
        state
            .validate()
            .map_err(|e| CliError::illegal(format!("illegal cube: {e}")))?;
        Ok((format, state))
    }
}

fn format_of(from: InputFormat) -> Format {
    match from {
        InputFormat::Alg => Format::Alg,
        InputFormat::Facelets => Format::Facelets,
        InputFormat::H48 => Format::H48,
        InputFormat::Twizzle => Format::TwizzleHex,
        InputFormat::Kpattern => Format::PatternJson,
    }
}

/// A decode error in words, with a hint to force the format when detection was the problem.
fn describe(e: &DecodeError) -> String {
    match e {
        DecodeError::Ambiguous { .. } => format!("{e} (choose one with --from)"),
        _ => e.to_string(),
    }
}

/// Runs `run` on every state STATE stands for, prints each result, and returns the exit code:
/// 0 if every state succeeded, else the first failing state's code.
///
/// STATE `-` reads standard input: the whole input is one state if it reads as one (a
/// pretty-printed pattern JSON or multi-line H48 text), else every non-empty line is one state.
/// `--batch` makes every non-empty line one state, always. States of a batch are handled in
/// parallel and printed in input order.
pub fn for_each_state<F>(global: &Global, state: &str, run: F) -> Result<u8, CliError>
where
    F: Fn(&Input) -> Outcome + Sync,
{
    let text = if state == "-" {
        let mut buffer = String::new();
        io::stdin()
            .read_to_string(&mut buffer)
            .map_err(|e| CliError::io(format!("reading standard input: {e}")))?;
        buffer
    } else {
        state.to_string()
    };
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let batch = global.batch || (lines.len() > 1 && Input::new(global, &text).parsed.is_err());
    if !batch {
        let outcome = run(&Input::new(global, text.trim()));
        return print(global, &outcome, false);
    }
    let mut exit = 0;
    // Chunks keep memory bounded on huge inputs while each chunk runs in parallel.
    for chunk in lines.chunks(4096) {
        let outcomes: Vec<Outcome> = chunk
            .par_iter()
            .map(|line| run(&Input::new(global, line)))
            .collect();
        for outcome in &outcomes {
            let code = print(global, outcome, true)?;
            if exit == 0 {
                exit = code;
            }
        }
    }
    Ok(exit)
}

fn print(global: &Global, outcome: &Outcome, in_batch: bool) -> Result<u8, CliError> {
    match output::print_outcome(global, outcome, in_batch) {
        Ok(code) => Ok(code),
        // A closed pipe (`cube-cli ... | head`) is a normal way to stop.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(CliError::io(format!("writing output: {e}"))),
    }
}
