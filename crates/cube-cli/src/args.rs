//! Command-line arguments, as clap parses them (raw; `main.rs` validates and dispatches).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use cube_tables::Tier;

/// A Rubik's cube toolkit: solve (optimally or by method), scramble, convert, check and show
/// cube states.
///
/// A STATE is a move sequence (`"R U R' U'"`), a 54-letter facelet string (any six colour
/// letters, Kociemba order U R F D L B, optionally split by face), H48 text, a Reid piece
/// string, nissy-core's B32 text, Twizzle binary as 22 hex digits, or cubing.js pattern JSON; the format is detected
/// by the text's shape (`--from` forces one). `-` reads states from standard input, one per
/// line.
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
    /// Solve a state by a method (two-phase by default); `--explain` prints labelled stages.
    Solve {
        /// The state (`-` for standard input).
        state: String,
        /// The method.
        #[arg(long, value_name = "METHOD", default_value = "two-phase")]
        method: Method,
        /// The longest solution wanted, in face turns.
        #[arg(long, value_name = "N")]
        max_length: Option<usize>,
        /// How long to keep looking for shorter solutions, in milliseconds (two-phase: the
        /// first solution is always kept).
        #[arg(long, value_name = "MS")]
        time_budget: Option<u64>,
        /// Solve to this state instead of to the solved cube.
        #[arg(long, value_name = "STATE")]
        to: Option<String>,
        /// Print the labelled stages of the solution, one per line.
        #[arg(long)]
        explain: bool,
        #[command(flatten)]
        optimal: OptimalArgs,
    },
    /// Solve a state optimally (fewest face turns, proven): Korf's method over pattern
    /// databases, or the sym48 method over an H48 tier; the first run bakes the default tables.
    Optimal {
        /// The state (`-` for standard input).
        state: String,
        #[command(flatten)]
        optimal: OptimalArgs,
    },
    /// Random-state scrambles, as the WCA scrambler makes them.
    Scramble {
        /// The event: 333, 333fm (padded with R' U' F) or 333bf (a random orientation after).
        #[arg(long, value_name = "EVENT", default_value = "333")]
        event: String,
        /// How many scrambles.
        #[arg(long, value_name = "N", default_value_t = 1)]
        count: usize,
        /// Seed for reproducible scrambles (default: a random seed, printed with --json).
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// What to print for each scramble.
        #[arg(long, value_name = "FORMAT", default_value = "alg")]
        format: OutputFormat,
    },
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
    /// Tables of the optimal solvers (pattern databases, H48 tables): status, bake, verify.
    Tables {
        #[command(subcommand)]
        action: Option<TablesAction>,
    },
    /// Say whether a move sequence solves a state (exit code 0 if it does, 1 if not).
    Verify {
        /// The state.
        state: String,
        /// The move sequence to check.
        solution: String,
    },
}

/// The options of the optimal solver.
#[derive(Args, Debug, Clone)]
pub struct OptimalArgs {
    /// Tables to use: the Korf tiers 6edge, 7edge, 8edge (pattern databases) or the H48 tiers
    /// h0, h4, h5, h6, h7 (the sym48 search; h0 is for tests). Default: the largest baked of h4
    /// to h7, else the largest baked Korf tier, else 6edge, baked on first use; a missing H48
    /// tier asked for is baked on first use.
    #[arg(long, value_name = "TIER")]
    pub tier: Option<Tier>,
    /// Print every optimal solution.
    #[arg(long, conflicts_with = "max_solutions")]
    pub all: bool,
    /// Print up to N optimal solutions.
    #[arg(long, value_name = "N")]
    pub max_solutions: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Give up after this many seconds (more than 0, at most 1000000), reporting the depth
    /// proven and the best solution known.
    #[arg(long, value_name = "SECS", value_parser = parse_timeout, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// Record the search's progress in FILE, and resume from it if it exists.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// With --checkpoint, write the checkpoint every SECS seconds while the search runs.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub checkpoint_every: f64,
    /// For benchmarks only: load the tables without hashing their payloads. A corrupt
    /// table then gives wrong answers labelled optimal.
    #[arg(long)]
    pub trust_header: bool,
    /// No progress lines on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The longest `--timeout`, in seconds (about 11.6 days).
const MAX_TIMEOUT_SECS: f64 = 1e6;

/// `--timeout SECS`: a finite number of seconds, more than 0 and at most [`MAX_TIMEOUT_SECS`].
fn parse_timeout(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= MAX_TIMEOUT_SECS) {
        return Err(format!(
            "{text:?} is out of range: the timeout must be more than 0 and at most {MAX_TIMEOUT_SECS} seconds"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// The solving methods of `solve --method`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Kociemba's two-phase algorithm: near-optimal in milliseconds.
    TwoPhase,
    /// Thistlethwaite's four phases.
    Thistlethwaite,
    /// Layer by layer, as beginners learn it.
    Beginner,
    /// Cross, F2L, OLL, PLL.
    Cfop,
    /// An optimal solver (as `cube-cli optimal`: Korf's method, or sym48 over an H48 tier).
    Optimal,
}

/// What `cube-cli tables` does.
#[derive(Subcommand, Debug, Clone)]
pub enum TablesAction {
    /// What is baked where, with sizes and validity (the default).
    Status,
    /// Bake the tables of one or more tiers: the corner database, and the edge databases of a
    /// Korf tier or the H48 table of an H48 tier (several H48 tiers are baked together).
    Bake {
        /// The tiers, comma separated: 6edge (83 MiB), 7edge (529 MiB), 8edge (4.8 GiB), h0 (71
        /// MiB, for tests), h4 (506 MiB), h5 (970 MiB), h6 (1.9 GiB), h7 (3.7 GiB).
        #[arg(
            long,
            value_name = "TIER[,TIER...]",
            value_delimiter = ',',
            required = true
        )]
        tier: Vec<Tier>,
    },
    /// Re-scan baked tables: checksum, histograms, spot checks of entries.
    Verify {
        /// Only this tier (and the corners); default every tier present.
        #[arg(long, value_name = "TIER")]
        tier: Option<Tier>,
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
    /// Reid's piece string (Singmaster positional notation): `UF UR ... DBR`.
    Reid,
    /// nissy-core's B32 text: `ABCDEFGH=ABCDEFGHIJKL=A`.
    B32,
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
    /// Reid's piece string (Singmaster positional notation).
    Reid,
    /// nissy-core's B32 text (with the orientation, `A` for none).
    B32,
    /// Twizzle binary as 22 hex digits.
    Twizzle,
    /// cubing.js pattern JSON.
    Kpattern,
}
