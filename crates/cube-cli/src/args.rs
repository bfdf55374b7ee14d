//! Command-line arguments, as clap parses them (raw; `main.rs` validates and dispatches).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// A Rubik's cube toolkit: solve (optimally or by method), scramble, convert, check and show
/// cube states.
///
/// A STATE is a move sequence (`"R U R' U'"`), a 54-letter facelet string (any six colour
/// letters, Kociemba order U R F D L B), H48 text, Twizzle binary as 22 hex digits, or
/// cubing.js pattern JSON; the format is detected. `-` reads states from standard input, one
/// per line.
#[derive(Parser, Debug)]
#[command(name = "cube-cli", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub global: Global,
}

/// Options every subcommand takes.
#[derive(Args, Debug, Clone)]
pub struct Global {
    /// Print one JSON object per state (errors too) instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Read STATE in this format instead of detecting it.
    #[arg(long, global = true, value_name = "FORMAT")]
    pub from: Option<InputFormat>,
    /// Treat every line of standard input (or of STATE) as one state; results come out in
    /// input order, one line each.
    #[arg(long, global = true)]
    pub batch: bool,
    /// Directory of the pattern databases and cached tables (default: $CUBE_TABLES_DIR, else
    /// the user's cache directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Say whether a state is a legal cube, and every rule it breaks.
    Check {
        /// The state (`-` for standard input).
        state: String,
    },
    /// Print a state in another format, on one line.
    Convert {
        /// The state (`-` for standard input).
        state: String,
        /// The output format.
        #[arg(long, value_name = "FORMAT")]
        to: OutputFormat,
    },
    /// Draw a state as a net of its six faces.
    Show {
        /// The state (`-` for standard input).
        state: String,
        /// Plain letters, no colours (colours are also off when the output is not a terminal).
        #[arg(long)]
        no_color: bool,
        /// Also write a picture of the net to this SVG file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Say whether a move sequence solves a state (exit code 0 if it does, 1 if not).
    Verify {
        /// The state.
        state: String,
        /// The move sequence to check.
        solution: String,
    },
}

/// The input formats `--from` accepts.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// A move sequence applied to the solved cube.
    Alg,
    /// 54 facelets, Kociemba order, any six colour letters.
    Facelets,
    /// nissy-core's H48 text.
    H48,
    /// Twizzle binary as 22 hex digits.
    Twizzle,
    /// cubing.js pattern JSON.
    Kpattern,
}

/// The output formats of `convert --to`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// A move sequence that makes the state from solved (a solution's inverse).
    Alg,
    /// 54 facelets in the letters URFDLB.
    Facelets,
    /// nissy-core's H48 text.
    H48,
    /// Twizzle binary as 22 hex digits.
    Twizzle,
    /// cubing.js pattern JSON.
    Kpattern,
}
