//! Command-line arguments, as clap parses them (raw), and [`Global`], the options every command
//! is run with once `request.rs` has checked them.

use std::ffi::OsStr;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use cube_core::Subgroup;
use cube_encode::Format;
use cube_solvers::fmc::Niss;
use cube_solvers::{Limits, MAX_THREADS};
use cube_tables::Tier;

use crate::output::{ColorChoice, Printer};
use crate::session::Session;
use crate::tiers;

/// What a STATE is, in the help of every command that reads one (a macro, for `concat!`).
macro_rules! state_help {
    () => {
        "\
STATE is one cube state, in any of these formats (detected by the text's shape; --from forces one):
  alg       a move sequence                  \"R U R' U'\"
  facelets  54 stickers, order U R F D L B   UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB
  h48       nissy-core's H48 text            \"UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0\"
  reid      Reid's piece string              \"UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR\"
  b32       nissy-core's B32 text            ABCDEFGH=ABCDEFGHIJKL=A
  twizzle   Twizzle binary as 22 hex digits  9c14df400001baa5280000
  kpattern  cubing.js pattern JSON           '{\"EDGES\": {\"pieces\": [...], \"orientation\": [...]}, ...}'
STATE `-` reads standard input, one state per line (blank lines and `#` comments skipped)."
    };
}

/// A command's help after its options: what a STATE is, then the examples.
macro_rules! with_state {
    ($examples:expr) => {
        concat!(state_help!(), "\n\n", $examples)
    };
}

macro_rules! top_examples {
    () => {
        "\
Examples:
  cube-cli optimal \"F2 U' B L2 D R' F U2 L' B2 D' R2 F\"
  cube-cli solve \"R U R' U' R' F R2 U' R' U' R U R' F'\" --method cfop --explain
  cube-cli scramble --count 5 | cube-cli solve - --json
  cube-cli convert \"R U\" --to twizzle"
    };
}

macro_rules! optimal_examples {
    () => {
        "\
Examples:
  cube-cli optimal \"F2 U' B L2 D R' F U2 L' B2 D' R2 F\"
  cube-cli optimal \"R U R' F2\" --all --timeout 30s
  cube-cli optimal - --batch --json --shard 0/4 < states.txt
  cube-cli optimal \"$(cat hard.txt)\" --tier h6 --checkpoint hard.ckpt --checkpoint-every 10m"
    };
}

macro_rules! solve_examples {
    () => {
        "\
Examples:
  cube-cli solve \"R U R' U' R' F R2 U' R' U' R U R' F'\"
  cube-cli solve \"R U R' U' R' F R2 U' R' U' R U R' F'\" --method cfop --explain
  cube-cli solve \"R U F\" --method optimal --timeout 1m
  cube-cli scramble --count 100 | cube-cli solve - --time-budget 250ms"
    };
}

macro_rules! scramble_examples {
    () => {
        "\
Examples:
  cube-cli scramble
  cube-cli scramble --event 333bf --count 5
  cube-cli scramble --type dr --seed 7
  cube-cli scramble --seed 42 --format twizzle"
    };
}

/// What a SEQUENCE of the FMC notation commands is (a macro, for `concat!`).
macro_rules! sequence_help {
    () => {
        "\
SEQUENCE is a NISS sequence, as FMC write-ups and nissy write it: moves in parentheses are done on
the inverse scramble (`R U (F' D)`: R U on the scramble, F' D on the inverse scramble). A part may
come first or be split (`(F') R U (D)` is `R U (F' D)`). Moves: face turns (U R F D L B, with 2
or '), wide turns (Rw or r), slices (M E S) and rotations (x y z); `//` starts a comment. Here
parentheses are never cubing.js's groups: `(R U)2`, nested parentheses and `[R, U]` are errors.
SEQUENCE `-` reads standard input, one sequence per line (blank lines and `#` comments skipped)."
    };
}

/// A SEQUENCE command's help after its options: what a SEQUENCE is, then the examples.
macro_rules! with_sequence {
    ($examples:expr) => {
        concat!(sequence_help!(), "\n\n", $examples)
    };
}

macro_rules! check_examples {
    () => {
        "\
Examples:
  cube-cli check UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBR
  cube-cli check - --json < states.txt"
    };
}

macro_rules! convert_examples {
    () => {
        "\
Examples:
  cube-cli convert \"R U\" --to twizzle
  cube-cli convert 9c14df400001baa5280000 --to facelets
  cube-cli convert - --to alg < facelets.txt"
    };
}

macro_rules! show_examples {
    () => {
        "\
Examples:
  cube-cli show \"R U R' U'\"
  cube-cli show 9c14df400001baa5280000 --svg net.svg"
    };
}

macro_rules! verify_examples {
    () => {
        "\
Examples:
  cube-cli verify \"R U\" \"U' R'\"
  cube-cli verify - \"R U R' U'\" < states.txt"
    };
}

macro_rules! tables_examples {
    () => {
        "\
Examples:
  cube-cli tables
  cube-cli tables --all
  cube-cli tables bake --tier 7edge
  cube-cli tables bake --tier h5,h6 --force"
    };
}

macro_rules! bake_examples {
    () => {
        "\
Examples:
  cube-cli tables bake --tier 7edge
  cube-cli tables bake --tier h5,h6
  cube-cli tables bake --tier 6edge --force --tables /scratch/cube-tables
  cube-cli tables bake --caches"
    };
}

macro_rules! verify_tables_examples {
    () => {
        "\
Examples:
  cube-cli tables verify
  cube-cli tables verify --tier 6edge"
    };
}

/// A Rubik's cube toolkit: solve (optimally or by method), scramble, convert, check and show
/// cube states.
#[derive(Parser, Debug)]
#[command(
    name = "cube-cli",
    version,
    about,
    long_about = "A Rubik's cube (3x3x3) toolkit: solve (optimally, or by method with labelled \
                  stages), scramble, convert between state formats, check legality and show \
                  cube states.",
    propagate_version = true,
    after_help = with_state!(top_examples!()),
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub global: GlobalArgs,
}

/// The options of every subcommand.
#[derive(Args, Debug, Clone)]
pub struct GlobalArgs {
    /// Print one JSON object per line (JSON Lines, docs/json.md), errors too, instead of text.
    #[arg(long, global = true, help_heading = "Output")]
    pub json: bool,
    /// When to use colours and styles: auto (on a terminal, unless NO_COLOR is set or
    /// TERM=dumb; CLICOLOR_FORCE forces them), always, never.
    #[arg(
        long,
        global = true,
        value_name = "WHEN",
        default_value = "auto",
        help_heading = "Output"
    )]
    pub color: ColorChoice,
    /// No progress lines or notes on standard error (results, errors and warnings are still
    /// printed): a first-use bake or build is not announced either (bake first with `tables
    /// bake`, then nothing waits).
    #[arg(long, short, global = true, help_heading = "Output")]
    pub quiet: bool,
    /// Directory of the pattern databases and cached tables (default: $CUBE_TABLES_DIR, else
    /// the user's cache directory).
    #[arg(long, global = true, value_name = "DIR", help_heading = "Tables")]
    pub tables: Option<PathBuf>,
}

/// How STATE is read: the options of every subcommand that reads states.
#[derive(Args, Debug, Clone, Default)]
pub struct InputArgs {
    /// Read STATE in this format instead of detecting it.
    #[arg(long, value_name = "FORMAT", help_heading = "Input")]
    pub from: Option<StateFormat>,
    /// Treat every line of standard input (or of STATE) as one state; results come out in
    /// input order, one line each.
    #[arg(long, help_heading = "Input")]
    pub batch: bool,
    /// Answer only the lines whose 0-based line number is K modulo N (implies --batch), so that
    /// N processes split one file: `--shard $SLURM_ARRAY_TASK_ID/N`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, help_heading = "Input")]
    pub shard: Option<Shard>,
}

/// `--shard K/N`: the lines with index % N == K.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    /// Whether line `index` belongs to this shard.
    pub fn holds(self, index: usize) -> bool {
        index % self.n == self.k
    }
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("{text:?} is not K/N with 0 <= K < N (such as 0/4)");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k < n {
        Ok(Shard { k, n })
    } else {
        Err(bad())
    }
}

/// The options a command runs with, checked: [`GlobalArgs`] and, for a command that reads
/// states, its [`InputArgs`].
#[derive(Clone, Debug)]
pub struct Global {
    pub json: bool,
    pub quiet: bool,
    pub tables: Option<PathBuf>,
    pub from: Option<StateFormat>,
    pub batch: bool,
    pub shard: Option<Shard>,
    /// Who the command runs for: the terminal or a request of `cube-cli serve`.
    pub session: Session,
}

impl Global {
    pub fn new(args: &GlobalArgs, input: Option<&InputArgs>, session: &Session) -> Global {
        let input = input.cloned().unwrap_or_default();
        Global {
            json: args.json,
            quiet: args.quiet,
            tables: args.tables.clone(),
            from: input.from,
            batch: input.batch || input.shard.is_some(),
            shard: input.shard,
            session: session.clone(),
        }
    }

    /// Where everything this command says goes: the terminal (as text or --json) or a request's
    /// answer.
    pub fn printer(&self) -> Printer<'_> {
        Printer {
            json: self.json,
            notes: self.notes(),
            answer: self.session.answer(),
            progress: self.session.progress(),
        }
    }

    /// Whether notes and progress go to standard error (not with --quiet or --json).
    pub fn notes(&self) -> bool {
        !(self.quiet || self.json)
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve a state by a method (two-phase by default); `--explain` prints labelled stages.
    #[command(after_help = with_state!(solve_examples!()))]
    Solve {
        /// The state (`-` for standard input).
        state: String,
        #[command(flatten)]
        input: InputArgs,
        /// The method (optimal: as `cube-cli optimal`, with its options).
        #[arg(long, value_name = "METHOD", default_value = "two-phase")]
        method: Method,
        /// The longest solution wanted, in face turns (not with --method optimal).
        #[arg(long, value_name = "N")]
        max_length: Option<usize>,
        /// How long two-phase may search (default 10s): the best solution found by then, or
        /// exit 4 if none of at most --max-length moves was found; a duration such as 250ms or
        /// 2s (from 1ns to 1000000 s); a bare number is milliseconds.
        #[arg(
            long,
            value_name = "DURATION",
            value_parser = parse_milliseconds,
            allow_hyphen_values = true
        )]
        time_budget: Option<Duration>,
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
    /// databases, the sym48 method over an H48 tier, or nxopt's over an nx tier; the first run
    /// bakes the default tables.
    #[command(after_help = with_state!(optimal_examples!()))]
    Optimal {
        /// The state (`-` for standard input).
        state: String,
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        optimal: OptimalArgs,
    },
    /// Random-state scrambles, as the WCA scrambler makes them.
    #[command(after_help = with_state!(scramble_examples!()))]
    Scramble {
        /// The event: 333 (also 333oh, 333ft), 333fm (padded with R' U' F) or 333bf (a random
        /// orientation after).
        #[arg(long, value_name = "EVENT", default_value = "333")]
        event: EventArg,
        /// Instead of a state of the whole cube, a state drawn uniformly from a subgroup, to
        /// practise fewest-moves steps: eo (edges oriented on F/B), dr (domino reduction on U/D),
        /// htr (the half-turn group <U2, D2, R2, L2, F2, B2>), corners (only the corners
        /// scrambled), edges (only the edges scrambled).
        #[arg(
            long = "type",
            value_name = "TYPE",
            conflicts_with = "event",
            value_parser = PossibleValuesParser::new(Subgroup::ALL.map(Subgroup::name))
                .map(|name| name.parse::<Subgroup>().expect("a possible value names a subgroup"))
        )]
        subgroup: Option<Subgroup>,
        /// How many scrambles (1 or more).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_count)]
        count: usize,
        /// Seed for reproducible scrambles (default: a random seed, printed with --json).
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// What to print for each scramble: the moves (alg) or the scrambled state.
        #[arg(long, value_name = "FORMAT", default_value = "alg")]
        format: StateFormat,
    },
    /// Say whether a state is a legal cube, and every rule it breaks.
    #[command(after_help = with_state!(check_examples!()))]
    Check {
        /// The state (`-` for standard input).
        state: String,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Print a state in another format, on one line.
    #[command(after_help = with_state!(convert_examples!()))]
    Convert {
        /// The state (`-` for standard input).
        state: String,
        #[command(flatten)]
        input: InputArgs,
        /// The output format.
        #[arg(long, value_name = "FORMAT")]
        to: StateFormat,
    },
    /// Draw a state as a net of its six faces.
    #[command(after_help = with_state!(show_examples!()))]
    Show {
        /// The state (`-` for standard input).
        state: String,
        #[command(flatten)]
        input: InputArgs,
        /// Plain letters, no colours (as --color never; not with --color).
        #[arg(long, conflicts_with = "color")]
        no_color: bool,
        /// Also write a picture of the net to this SVG file (`-`: the picture on standard
        /// output, instead of the net).
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Tables of the optimal solvers (pattern databases, H48 tables): status, bake, verify.
    #[command(after_help = tables_examples!())]
    Tables {
        /// Without a subcommand: every table and every tier, not only what is there (as `tables
        /// status --all`).
        #[arg(long)]
        all: bool,
        #[command(subcommand)]
        action: Option<TablesAction>,
    },
    /// Fewest-moves tools: step solvers with NISS (EO, DR, HTR on every axis), insertions into a
    /// skeleton (insert, cycles, improve) and NISS notation (unniss, invert, cleanup, count).
    #[command(after_help = "\
Examples:
  cube-cli fmc steps
  cube-cli fmc solve eofb \"R' U' F D2 L2 F R2 U2 R2 B D2 L2 F' R' F2 U2 F' L' U R' U' F\" --niss all -n 5
  cube-cli fmc insert \"$(cat scramble.txt)\" \"$(cat skeleton.txt)\" --optimal
  cube-cli fmc unniss \"R U (F' D)\"
  cube-cli fmc count \"Rw U2 (M' F)\"")]
    Fmc {
        #[command(subcommand)]
        action: FmcAction,
    },
    /// Say whether a move sequence solves a state (exit code 0 if it does, 1 if not).
    #[command(after_help = with_state!(verify_examples!()))]
    Verify {
        /// The state (`-` for standard input).
        state: String,
        /// The move sequence to check.
        solution: String,
        #[command(flatten)]
        input: InputArgs,
    },
    /// Serve the toolkit as a web app on this machine: a 3D cube to turn, paint, scramble, solve
    /// step by step and time, over a JSON API that answers the records of --json (docs/api.md).
    #[command(after_help = "Examples:
  cube-cli serve --open
  cube-cli serve --port 8080 --tables ~/cube-tables
  curl -s localhost:7733/api/solve -d '{\"state\": \"R U2 F\", \"method\": \"cfop\"}'")]
    Serve(ServeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on standard output.
    #[command(after_help = "Examples:
  cube-cli completions bash > ~/.local/share/bash-completion/completions/cube-cli
  cube-cli completions zsh > ~/.zfunc/_cube-cli
  cube-cli completions fish > ~/.config/fish/completions/cube-cli.fish")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on standard output: of cube-cli, or of one subcommand; or
    /// write every page into a directory (--dir), where `man` then finds each page the others
    /// name.
    #[command(after_help = "Examples:
  cube-cli man --dir ~/.local/share/man/man1 && man cube-cli-tables-bake
  cube-cli man > cube-cli.1 && man ./cube-cli.1
  cube-cli man tables bake > cube-cli-tables-bake.1")]
    Man {
        /// A subcommand, for its own page with all its options (the page cube-cli-SUBCOMMAND); a
        /// subcommand of it after it (`tables bake`: cube-cli-tables-bake(1)).
        #[arg(value_name = "SUBCOMMAND", conflicts_with = "dir")]
        subcommand: Vec<String>,
        /// Write the page of cube-cli and of every subcommand into DIR (created if need be) as
        /// cube-cli.1, cube-cli-solve.1, cube-cli-tables-bake.1...: in a directory `man`
        /// searches, such as ~/.local/share/man/man1, `man cube-cli-solve` finds its page.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// The options of `cube-cli serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The TCP port (0: a free port, printed).
    #[arg(long, value_name = "N", default_value_t = 7733)]
    pub port: u16,
    /// The address to listen on. Another than loopback (127.0.0.1, ::1) makes the app
    /// reachable from other machines, with a warning.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Open the app in the default web browser.
    #[arg(long)]
    pub open: bool,
    /// The longest any one search may run (optimal, two-phase), whatever a request asks: a
    /// duration such as 30s or 5m; a bare number is seconds.
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_seconds,
        default_value = "60s"
    )]
    pub max_search: Duration,
    /// The most memory the optimal tables that requests ask for may hold: a tier beyond it is
    /// loaded after the least recently used others are dropped. A size such as 8G or 512M; by
    /// default half of the machine's memory.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub table_memory: Option<u64>,
}

/// `--table-memory`: bytes, or a number with K, M, G or T (powers of 1024; `GiB` and `GB` read
/// as `G`).
fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || format!("{text:?} is not a size such as 8G, 512M or 1073741824");
    let trimmed = text.trim();
    let upper = trimmed.to_ascii_uppercase();
    let number = upper.trim_end_matches(['B', 'I']);
    let (digits, shift) = match number.chars().last() {
        Some('K') => (&number[..number.len() - 1], 10),
        Some('M') => (&number[..number.len() - 1], 20),
        Some('G') => (&number[..number.len() - 1], 30),
        Some('T') => (&number[..number.len() - 1], 40),
        Some(c) if c.is_ascii_digit() || c == '.' => (number, 0),
        _ => return Err(bad()),
    };
    let value: f64 = digits.trim().parse().map_err(|_| bad())?;
    let bytes = value * (1u64 << shift) as f64;
    if !(1.0..=u64::MAX as f64).contains(&bytes) {
        return Err(bad());
    }
    Ok(bytes as u64)
}

/// The options of the optimal solver (`optimal`, `solve --method optimal`).
#[derive(Args, Debug, Clone, Default)]
pub struct OptimalArgs {
    /// Tables to use: the Korf tiers 6edge, 7edge, 8edge (pattern databases) or the H48 tiers
    /// h0, h4, h5, h6, h7 (the sym48 search; h0 is for tests) or the nx tiers nx-eo1ep1 to
    /// nx-eo2ep2 (nxopt's search) and their -qtm twins (the quarter-turn metric: a -qtm tier
    /// implies --metric qtm). Default: the baked tier measured cheapest per GB (h4, h5, h6, h7,
    /// nx-eo3ep1, nx-eo2ep2, else the largest baked Korf tier), else 6edge, baked on first use;
    /// with --metric qtm nx-eo3ep1-qtm, nx-eo2ep2-qtm, else the largest baked -qtm tier;
    /// a missing H48 tier, nx-eo1ep1 or nx-eo1ep1-qtm asked for is baked on first use.
    #[arg(long, value_name = "TIER", value_parser = TierParser, help_heading = "Optimal")]
    pub tier: Option<Tier>,
    /// The metric the solutions are optimal in: htm (every face turn counts 1, the default) or
    /// qtm (a half turn counts 2: over an nx -qtm tier). Lengths are printed as `24q` in qtm.
    #[arg(long, value_name = "METRIC", value_enum, help_heading = "Optimal")]
    pub metric: Option<MetricArg>,
    /// Print every optimal solution.
    #[arg(long, conflicts_with = "max_solutions", help_heading = "Optimal")]
    pub all: bool,
    /// Print up to N optimal solutions (N from 1 on).
    #[arg(long, value_name = "N", value_parser = parse_max_solutions, help_heading = "Optimal")]
    pub max_solutions: Option<usize>,
    /// Worker threads, from 1 to 1024 (default: all cores).
    #[arg(long, value_name = "N", value_parser = parse_threads, help_heading = "Optimal")]
    pub threads: Option<usize>,
    /// Give up after this long (from 1ns to 1000000 s), reporting the depth proven and the best
    /// solution known: a duration such as 90s, 10m or 2h; a bare number is seconds.
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_seconds,
        allow_hyphen_values = true,
        help_heading = "Optimal"
    )]
    pub timeout: Option<Duration>,
    /// Record the search's progress in FILE, and resume from it if it exists (with several
    /// states, line N's in FILE.N). Kept until the search is finished: a list of solutions cut
    /// short by --timeout or a signal is completed by running the command again.
    #[arg(long, value_name = "FILE", help_heading = "Optimal")]
    pub checkpoint: Option<PathBuf>,
    /// With --checkpoint, write the checkpoint this often while the search runs (default 60s):
    /// a duration such as 30s or 10m; a bare number is seconds.
    #[arg(
        long,
        value_name = "DURATION",
        value_parser = parse_seconds,
        allow_hyphen_values = true,
        requires = "checkpoint",
        help_heading = "Optimal"
    )]
    pub checkpoint_every: Option<Duration>,
    /// Map the tables from the page cache instead of reading them into this process's memory,
    /// so that processes on one machine share one copy (a mapped table gets 4 KiB pages,
    /// 1.2-1.6x slower searches; each payload is still hashed once before the search).
    #[arg(long, help_heading = "Optimal")]
    pub mmap: bool,
    /// For benchmarks only: load the tables without hashing their payloads. A corrupt
    /// table then gives wrong answers labelled optimal.
    #[arg(long, help_heading = "Optimal")]
    pub trust_header: bool,
}

impl OptimalArgs {
    /// The options given on the command line, by flag, for refusing them where they do not act.
    pub fn given(&self) -> Vec<&'static str> {
        let flags = [
            ("--tier", self.tier.is_some()),
            ("--metric", self.metric.is_some()),
            ("--all", self.all),
            ("--max-solutions", self.max_solutions.is_some()),
            ("--threads", self.threads.is_some()),
            ("--timeout", self.timeout.is_some()),
            ("--checkpoint", self.checkpoint.is_some()),
            ("--checkpoint-every", self.checkpoint_every.is_some()),
            ("--mmap", self.mmap),
            ("--trust-header", self.trust_header),
        ];
        flags
            .into_iter()
            .filter_map(|(flag, given)| given.then_some(flag))
            .collect()
    }
}

/// The unit of a bare number in a duration option.
#[derive(Clone, Copy)]
enum Unit {
    Milliseconds,
    Seconds,
}

/// A duration: a number with a unit suffix (`ns`, `us` or `µs`, `ms`, `s`, `m`, `h`), or a bare
/// number in `bare`; within cube-solvers' time limits ([`Limits::time_limit`]: from 1 ns to
/// 10^6 s, as Python's are).
fn parse_duration(text: &str, bare: Unit) -> Result<Duration, String> {
    let trimmed = text.trim();
    // The suffixes that end in `s` before `s` itself.
    let units = [
        ("ns", 1e-9),
        ("us", 1e-6),
        ("µs", 1e-6),
        ("ms", 1e-3),
        ("s", 1.0),
        ("m", 60.0),
        ("h", 3600.0),
    ];
    let (number, scale) = units
        .into_iter()
        .find_map(|(suffix, scale)| Some((trimmed.strip_suffix(suffix)?, scale)))
        .unwrap_or(match bare {
            Unit::Milliseconds => (trimmed, 1e-3),
            Unit::Seconds => (trimmed, 1.0),
        });
    let bare_name = match bare {
        Unit::Milliseconds => "milliseconds",
        Unit::Seconds => "seconds",
    };
    let value: f64 = number.trim().parse().map_err(|_| {
        format!(
            "{text:?} is not a duration (such as 250ms, 2s, 1m or 1h; also ns and us; a bare number is {bare_name})"
        )
    })?;
    Limits::time_limit(value * scale).map_err(|e| format!("{text:?} {e}"))
}

/// `--timeout` and `--checkpoint-every`: a bare number is seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    parse_duration(text, Unit::Seconds)
}

/// `--time-budget`: a bare number is milliseconds.
fn parse_milliseconds(text: &str) -> Result<Duration, String> {
    parse_duration(text, Unit::Milliseconds)
}

/// `--max-solutions`: 1 or more, as Python's `max_solutions` (0 meant 1 without a word).
fn parse_max_solutions(text: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .ok()
        .filter(|&n: &usize| n >= 1)
        .ok_or_else(|| format!("{text:?} is not a number of solutions of 1 or more"))
}

/// `scramble --count`: 1 or more (none asked is a mistake, not an empty answer).
fn parse_count(text: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .ok()
        .filter(|&n: &usize| n >= 1)
        .ok_or_else(|| format!("{text:?} is not a number of scrambles of 1 or more"))
}

/// `--threads`: from 1 to cube-solvers' [`MAX_THREADS`], as Python's `threads`.
fn parse_threads(text: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .ok()
        .filter(|n| (1..=MAX_THREADS).contains(n))
        .ok_or_else(|| format!("{text:?} is not a number of threads from 1 to {MAX_THREADS}"))
}

/// `--tier`: the names of the tiers as possible values (with their size and bake time), so that
/// the help lists them and a misspelt one gets a suggestion.
#[derive(Clone)]
pub struct TierParser;

impl TypedValueParser for TierParser {
    type Value = Tier;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Tier, clap::Error> {
        let names = Tier::ALL.into_iter().map(|tier| tier.to_string());
        let name = PossibleValuesParser::new(names).parse_ref(cmd, arg, value)?;
        Ok(name.parse().expect("a possible value names a tier"))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Tier::ALL.into_iter().map(|tier| {
            PossibleValue::new(tier.to_string()).help(tiers::tier_summary(tier))
        })))
    }
}

/// STEP of `fmc solve`: any text (an unknown step is `fmc solve`'s own error, which names the
/// nearest steps), with the steps' names and aliases as possible values, which the completion
/// scripts offer.
#[derive(Clone)]
pub struct StepParser;

impl TypedValueParser for StepParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(cube_solvers::fmc::steps().iter().flat_map(
            |step| {
                std::iter::once(PossibleValue::new(step.name()).help(step.goal())).chain(
                    step.aliases().iter().map(|alias| {
                        PossibleValue::new(*alias).help(format!("{}: {}", step.name(), step.goal()))
                    }),
                )
            },
        )))
    }
}

/// `--metric`: the metric of an optimal search.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricArg {
    /// The half-turn metric: every face turn counts 1.
    Htm,
    /// The quarter-turn metric: a half turn counts 2.
    Qtm,
}

impl From<MetricArg> for cube_tables::Metric {
    fn from(metric: MetricArg) -> cube_tables::Metric {
        match metric {
            MetricArg::Htm => cube_tables::Metric::Htm,
            MetricArg::Qtm => cube_tables::Metric::Qtm,
        }
    }
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

impl Method {
    /// The name on the command line and in the output.
    pub fn name(self) -> String {
        value_name(self)
    }
}

/// The WCA events of `scramble --event`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventArg {
    /// 3x3x3 Cube (333oh and 333ft, one-handed and with feet, are scrambled the same way).
    #[value(name = "333", alias = "333oh", alias = "333ft")]
    Cube333,
    /// 3x3x3 Fewest Moves.
    #[value(name = "333fm")]
    FewestMoves,
    /// 3x3x3 Blindfolded.
    #[value(name = "333bf")]
    Blindfolded,
}

impl EventArg {
    pub fn event(self) -> cube_solvers::scramble::Event {
        use cube_solvers::scramble::Event;
        match self {
            EventArg::Cube333 => Event::Cube333,
            EventArg::FewestMoves => Event::FewestMoves,
            EventArg::Blindfolded => Event::Blindfolded,
        }
    }
}

/// How the FMC notation commands read SEQUENCE: one per line or a batch, and shards.
#[derive(Args, Debug, Clone, Default)]
pub struct SequenceArgs {
    /// Treat every line of standard input (or of SEQUENCE) as one sequence; results come out in
    /// input order, one line each.
    #[arg(long, help_heading = "Input")]
    pub batch: bool,
    /// Answer only the lines whose 0-based line number is K modulo N (implies --batch), so that
    /// N processes split one file: `--shard $SLURM_ARRAY_TASK_ID/N`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, help_heading = "Input")]
    pub shard: Option<Shard>,
}

impl SequenceArgs {
    /// The same options as a state command's, without `--from`.
    pub fn input(&self) -> InputArgs {
        InputArgs {
            from: None,
            batch: self.batch,
            shard: self.shard,
        }
    }
}

/// What `cube-cli fmc` does.
#[derive(Subcommand, Debug, Clone)]
pub enum FmcAction {
    /// Solve one step (EO, DR, HTR...) of a state, with NISS: every solution of the step's
    /// moveset from --min to --max moves, shortest first (nissy-core's `solve STEP`).
    #[command(after_help = with_state!("\
STEP is a step's name or alias (`cube-cli fmc steps` lists them): eofb, drud, drud-eofb, htr-drud...
Each solution is printed in NISS notation (moves in parentheses done on the inverse scramble),
then `// N` with its length, so that the line reads back as a sequence.
A STATE written as moves with parentheses is read the same way: a scramble and a partial solution
in NISS notation (`SCRAMBLE R2 F (U2 B)`: the state is the inverse of `U2 B`, the scramble, then
`R2 F`), never as cubing.js's grouping (`(R U)2` is refused).

Examples:
  cube-cli fmc solve eofb \"R' U' F D2 L2 F R2 U2 R2 B D2 L2 F' R' F2 U2 F' L' U R' U' F\" --niss all -n 5
  cube-cli fmc solve drud-eofb \"R' U' F D2 L2 F R2 U2 R2 B D2 L2 F' R' F2 U2 F' L' U R' U' F R2 F (U2 B)\" --niss all
  cube-cli fmc solve drud-eofb \"$(cat scramble.txt) F R2 D F\" --niss linear --optimal
  cube-cli fmc solve htr-drud - --batch --json < dr-states.txt"))]
    Solve {
        /// The step.
        #[arg(value_parser = StepParser, hide_possible_values = true)]
        step: String,
        /// The state (`-` for standard input); moves may carry a NISS part in parentheses.
        state: String,
        #[command(flatten)]
        input: InputArgs,
        /// Where moves may be done: normal (on the scramble), inverse (on the inverse scramble),
        /// linear (all on one side, either), mixed (both sides, one switch), all (any of these).
        /// The steps without NISS (leave-slice, the finishes, the corners) search the normal side
        /// whatever the mode, as nissy-core does.
        #[arg(long, value_name = "MODE", default_value = "normal",
              value_parser = PossibleValuesParser::new(["normal", "inverse", "linear", "mixed", "all"])
                  .map(|name| name.parse::<Niss>().expect("a possible value is a NISS mode")))]
        niss: Niss,
        /// Print up to N solutions (N from 1 on). A list that would take more than 128 MiB of
        /// memory is cut to its first solutions, saying so, with exit code 4.
        #[arg(short = 'n', long = "solutions", value_name = "N", default_value = "1",
              value_parser = parse_max_solutions)]
        solutions: usize,
        /// The shortest solution length.
        #[arg(long, value_name = "L", default_value_t = 0)]
        min: u8,
        /// The longest solution length (at most 20).
        #[arg(long, value_name = "L", default_value_t = 20,
              value_parser = clap::value_parser!(u8).range(0..=20))]
        max: u8,
        /// Only optimal solutions (as --above-optimal 0).
        #[arg(long, conflicts_with = "above_optimal")]
        optimal: bool,
        /// Only solutions at most K moves longer than the shortest.
        #[arg(long, value_name = "K")]
        above_optimal: Option<u8>,
        /// Print only how many solutions there are (up to -n).
        #[arg(long)]
        count: bool,
        /// Worker threads, from 1 to 1024 (default: all cores).
        #[arg(long, value_name = "N", value_parser = parse_threads)]
        threads: Option<usize>,
    },
    /// Finish a skeleton by insertions: the algorithms to insert, and where, that solve the
    /// scramble with the fewest moves after cancellation (Insertion Finder's search), over the
    /// generated set (every 3-cycle up to 10 moves, twists, swaps, parities; built once, about
    /// 10 s, and cached in the table directory) or --algs FILE.
    #[command(after_help = "\
SCRAMBLE is the scramble (moves, or a state in any format); SKELETON the partial solution, in NISS
notation if it has parts on the inverse (`R U (F' D)`). The skeleton is made plain (`fmc unniss`)
and cleaned up first; each insertion's position counts the moves of the sequence it goes into
(the skeleton, or what the insertions before it made) before it. Each insertion lowers what the
skeleton leaves (`fmc cycles`); an insertion may go inside an earlier one.
Without --optimal a greedy search answers (usually in well under a second); --optimal proves the
fewest moves over the algorithm set (each insertion lowering the leftover, none shortening the
sequence), which can take seconds for three insertions or more: --max-seconds bounds either.

Examples:
  cube-cli fmc insert \"R' U' F D2 L2 F R2 U2 R2 B D2 L2 F' R' F2 U2 F' L' U R' U' F\" \"U' R U' R D2 F U F' D2 F U' F' B2 L2 D R2 U' L U2 B' U D R D L'\"
  cube-cli fmc insert \"$(cat scramble.txt)\" \"$(cat skeleton.txt)\" --optimal --max-seconds 30
  cube-cli fmc insert \"$(cat scramble.txt)\" \"$(cat skeleton.txt)\" --algs my-algs.txt --json")]
    Insert {
        /// The scramble.
        scramble: String,
        /// The skeleton (NISS notation accepted).
        skeleton: String,
        /// Prove the fewest moves over the algorithm set (else the greedy answer).
        #[arg(long)]
        optimal: bool,
        /// Give up after this long, answering with the best found (not proven): a duration such
        /// as 30s or 2m; a bare number is seconds.
        #[arg(long, value_name = "DURATION", value_parser = parse_seconds, allow_hyphen_values = true)]
        max_seconds: Option<Duration>,
        /// Worker threads, from 1 to 1024 (default: all cores).
        #[arg(long, value_name = "N", value_parser = parse_threads)]
        threads: Option<usize>,
        /// Insert the algorithms of FILE (one a line, `//` comments) instead of the generated
        /// set; each is taken with its mirrors, rotations, inverse and cyclic shifts.
        #[arg(long, value_name = "FILE")]
        algs: Option<PathBuf>,
    },
    /// What a skeleton leaves: its corner and edge cycles, in FMC solvers' words (`3 corners,
    /// 3 edges: 3c3e`, `2 twisted corners`), and the fewest insertions that finish it.
    #[command(after_help = "\
SCRAMBLE is the scramble (moves, or a state in any format); SKELETON the partial solution (NISS
notation accepted). Each cycle lists positions whose pieces belong at the next position.

Examples:
  cube-cli fmc cycles \"R' U' F D2 L2 F R2 U2 R2 B D2 L2 F' R' F2 U2 F' L' U R' U' F\" \"U' R U' R D2 F U F' D2 F U' F' B2 L2 D R2 U' L U2 B' U D R D L'\"
  cube-cli fmc cycles \"$(cat scramble.txt)\" \"R2 F (U2 B) D\" --json")]
    Cycles {
        /// The scramble.
        scramble: String,
        /// The skeleton (NISS notation accepted).
        skeleton: String,
    },
    /// Shorter replacements of a solution's segments: for every segment of up to --max-length
    /// moves, the shortest sequence that does the same (up to 9 moves), kept when the solution
    /// it makes (once moves cancel) is shorter; the shortest results first.
    #[command(after_help = "\
SOLUTION is a solution (NISS notation accepted: made plain first). A replacement does what the
segment does, so the result solves whatever the solution solves.

Examples:
  cube-cli fmc improve \"D B2 R2 U2 R2 U2 R2 U2 R2 L\"
  cube-cli fmc improve \"$(cat solution.txt)\" --max-length 8 --json")]
    Improve {
        /// The solution (NISS notation accepted).
        solution: String,
        /// The longest segment replaced, 2 to 10.
        #[arg(long, value_name = "N", default_value_t = 10,
              value_parser = clap::value_parser!(u8).range(2..=10))]
        max_length: u8,
        /// Print up to N improvements (N from 1 on).
        #[arg(short = 'n', long = "improvements", value_name = "N", default_value = "5",
              value_parser = parse_max_solutions)]
        improvements: usize,
        /// Give up after this long, answering with what was found: a duration such as 30s; a
        /// bare number is seconds.
        #[arg(long, value_name = "DURATION", value_parser = parse_seconds, allow_hyphen_values = true)]
        max_seconds: Option<Duration>,
        /// Worker threads, from 1 to 1024 (default: all cores).
        #[arg(long, value_name = "N", value_parser = parse_threads)]
        threads: Option<usize>,
    },
    /// Every step of `fmc solve`: its name, aliases, moveset, requisite and table size.
    #[command(after_help = "\
Examples:
  cube-cli fmc steps
  cube-cli fmc steps --json")]
    Steps,
    /// The plain sequence: the normal part, then the inverse of the inverse part (`R U (F' D)`
    /// gives `R U D' F`); it solves what the NISS sequence solves.
    #[command(after_help = with_sequence!("\
Examples:
  cube-cli fmc unniss \"R U (F' D)\"
  cube-cli fmc unniss \"(F') R U (D)\"
  cube-cli fmc unniss - --json < skeletons.txt"))]
    Unniss {
        /// The sequence (`-` for standard input).
        sequence: String,
        #[command(flatten)]
        input: SequenceArgs,
    },
    /// The inverse sequence: the normal and inverse parts swap (`R U (F' D)` gives `F' D (R U)`);
    /// `fmc unniss` of it is the plain inverse.
    #[command(after_help = with_sequence!("\
Examples:
  cube-cli fmc invert \"R U (F' D)\"
  cube-cli fmc invert \"R U R' F2\""))]
    Invert {
        /// The sequence (`-` for standard input).
        sequence: String,
        #[command(flatten)]
        input: SequenceArgs,
    },
    /// Each part as outer face turns: rotations, wide turns and slices expanded, cancellations
    /// merged, parallel moves in canonical order (`Rw L' x' (M2 U U D)` gives `(R2 L2 U D2)`).
    #[command(after_help = with_sequence!("\
Examples:
  cube-cli fmc cleanup \"Rw L' x' (M2 U U D)\"
  cube-cli fmc cleanup \"R R' U2 (F F)\""))]
    Cleanup {
        /// The sequence (`-` for standard input).
        sequence: String,
        #[command(flatten)]
        input: SequenceArgs,
    },
    /// The move count of both parts as written, in the half-turn (HTM), quarter-turn (QTM) and
    /// slice-turn (STM) metrics: HTM counts a face or wide turn 1, a slice 2, a rotation 0; QTM
    /// counts half turns 2; STM counts a slice 1. Nothing cancels (see `fmc cleanup`).
    #[command(after_help = with_sequence!("\
Examples:
  cube-cli fmc count \"R U2 (M' F)\"
  cube-cli fmc count - --json < solutions.txt"))]
    Count {
        /// The sequence (`-` for standard input).
        sequence: String,
        #[command(flatten)]
        input: SequenceArgs,
    },
}

/// What `cube-cli tables` does.
#[derive(Subcommand, Debug, Clone)]
pub enum TablesAction {
    /// What is baked where, with sizes and validity (the default): the tables that are there and
    /// their tiers, then one line naming the tiers not baked (--all: every table and tier, each
    /// with its size and bake time; --json: always every one).
    #[command(after_help = "\
Examples:
  cube-cli tables status
  cube-cli tables status --all
  cube-cli tables status --json --tables /scratch/cube-tables")]
    Status {
        /// Every table and every tier, with the size and bake time of those not baked.
        #[arg(long)]
        all: bool,
    },
    /// Bake the tables of one or more tiers: the corner database, and the edge databases of a
    /// Korf tier or the H48 table of an H48 tier (several H48 tiers are baked together); with
    /// --caches, the large two-phase tables.
    #[command(after_help = bake_examples!())]
    Bake {
        /// The tiers, comma separated.
        #[arg(
            long,
            value_name = "TIER[,TIER...]",
            value_delimiter = ',',
            required_unless_present = "caches",
            value_parser = TierParser
        )]
        tier: Vec<Tier>,
        /// The large two-phase tables (129 MB, about 20 s on two cores), which make `solve`,
        /// `scramble` and `optimal`'s upper bound about ten times faster; a run without them
        /// answers from the small tables, and a batch of states builds them.
        #[arg(long)]
        caches: bool,
        /// Bake again even the tables that are present and sound (a table whose header is bad is
        /// always baked again).
        #[arg(long)]
        force: bool,
    },
    /// Re-scan baked tables: checksum, histograms, spot checks of entries.
    #[command(after_help = verify_tables_examples!())]
    Verify {
        /// Only this tier (and the corners); default every tier present.
        #[arg(long, value_name = "TIER", value_parser = TierParser)]
        tier: Option<Tier>,
    },
    /// Every file the tool keeps in the table directory (pattern databases, H48 tables, the
    /// methods' cached tables, stamps, seeds, leftovers of killed bakes), with size, state and
    /// total.
    #[command(after_help = "\
Examples:
  cube-cli tables files
  cube-cli tables files --json")]
    Files,
    /// Remove tables: a tier's, the methods' cached tables, or everything the tool keeps in the
    /// directory (only its two lock files stay). Refused while a bake runs, unless --wait.
    #[command(
        after_help = "\
Examples:
  cube-cli tables clean --tier 8edge
  cube-cli tables clean --caches
  cube-cli tables clean --all",
        group = clap::ArgGroup::new("what").required(true).args(["tier", "caches", "all"])
    )]
    Clean {
        /// The tables of this tier (the corner database stays while another tier needs it).
        #[arg(long, value_name = "TIER", value_parser = TierParser)]
        tier: Option<Tier>,
        /// The methods' cached tables (two-phase, Thistlethwaite, cross): rebuilt on next use.
        #[arg(long)]
        caches: bool,
        /// Every file the tool keeps in the directory.
        #[arg(long)]
        all: bool,
        /// Wait for a bake or clean of the directory in progress instead of refusing.
        #[arg(long)]
        wait: bool,
    },
}

/// The state formats: of `--from`, `convert --to` and `scramble --format`, and the one name of
/// each format in all output.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateFormat {
    /// A move sequence (read: applied to the solved cube; written: one that makes the state).
    Alg,
    /// 54 facelets, Kociemba order U R F D L B (read: any six colour letters; written: URFDLB).
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

impl StateFormat {
    /// The format of cube-encode.
    pub fn format(self) -> Format {
        match self {
            StateFormat::Alg => Format::Alg,
            StateFormat::Facelets => Format::Facelets,
            StateFormat::H48 => Format::H48,
            StateFormat::Reid => Format::Reid,
            StateFormat::B32 => Format::B32,
            StateFormat::Twizzle => Format::TwizzleHex,
            StateFormat::Kpattern => Format::PatternJson,
        }
    }

    /// The flag value of a format of cube-encode.
    pub fn of(format: Format) -> StateFormat {
        StateFormat::value_variants()
            .iter()
            .copied()
            .find(|f| f.format() == format)
            .expect("every format of cube-encode has a flag value")
    }

    /// The one name of the format: its flag value, used in the output and the errors.
    pub fn name(self) -> String {
        value_name(self)
    }
}

/// The command-line name of a value.
fn value_name(value: impl ValueEnum) -> String {
    value
        .to_possible_value()
        .expect("no value is skipped")
        .get_name()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_a_unit_or_keep_the_bare_unit() {
        let secs = |text| parse_duration(text, Unit::Seconds);
        let millis = |text| parse_duration(text, Unit::Milliseconds);
        assert_eq!(secs("2"), Ok(Duration::from_secs(2)));
        assert_eq!(millis("250"), Ok(Duration::from_millis(250)));
        assert_eq!(secs("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(millis("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(secs("1m"), Ok(Duration::from_secs(60)));
        assert_eq!(millis("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(secs("1.5 m"), Ok(Duration::from_secs(90)));
        for bad in ["nan", "-1", "inf", "-1s", "soon", "", "s", "1x"] {
            assert!(secs(bad).is_err(), "{bad}");
        }
        assert!(secs("nan").unwrap_err().contains("not a finite number"));
        assert!(secs("inf").unwrap_err().contains("not a finite number"));
        assert!(secs("-1").unwrap_err().contains("is negative"));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("2e6").unwrap_err().contains("too long"));
        // Below a nanosecond a duration is 0: refused, not taken as "stop at once".
        for tiny in ["1e-300", "1e-10s", "0.0000001ms"] {
            assert!(
                parse_seconds(tiny).unwrap_err().contains("nanosecond"),
                "{tiny}"
            );
            assert!(parse_milliseconds(tiny).is_err(), "{tiny}");
        }
        assert_eq!(parse_seconds("1e-9"), Ok(Duration::from_nanos(1)));
        assert_eq!(parse_seconds("1000000"), Ok(Duration::from_secs(1_000_000)));
    }

    // See: issue 31, item 6: the CLI and Python share cube-solvers' time limits; a time budget
    // (which now bounds the whole search) of 0 is no time at all, refused as --timeout's is.
    #[test]
    fn i31_6_the_time_budget_has_the_shared_limits() {
        assert!(
            parse_milliseconds("0")
                .unwrap_err()
                .contains("shorter than a nanosecond"),
            "{:?}",
            parse_milliseconds("0")
        );
        assert!(
            parse_milliseconds("1000001s")
                .unwrap_err()
                .contains("too long")
        );
        assert_eq!(
            parse_milliseconds("1000000s"),
            Ok(cube_solvers::MAX_TIME_LIMIT)
        );
        assert_eq!(parse_milliseconds("1e-6"), Ok(cube_solvers::MIN_TIME_LIMIT));
    }

    // See: issue 31, item 6: the thread count has the bounds Python's has (a huge one asked the
    // system for that many threads, and a thread it refused to start was a panic).
    #[test]
    fn i31_6_threads_from_1_to_the_shared_maximum() {
        assert_eq!(parse_threads("1"), Ok(1));
        assert_eq!(parse_threads("1024"), Ok(MAX_THREADS));
        for bad in ["0", "1025", "-1", "99999999999999999999999", "two"] {
            assert!(
                parse_threads(bad).unwrap_err().contains("from 1 to 1024"),
                "{bad}"
            );
        }
    }

    #[test]
    fn max_solutions_from_1_on() {
        assert_eq!(parse_max_solutions("1"), Ok(1));
        assert_eq!(parse_max_solutions("24"), Ok(24));
        for bad in ["0", "-1", "many", "99999999999999999999999"] {
            assert!(
                parse_max_solutions(bad).unwrap_err().contains("1 or more"),
                "{bad}"
            );
        }
    }

    /// Issue 31, item 9: the error below a nanosecond recommends `1ns`, which must then be
    /// accepted; `us` and `µs` too.
    #[test]
    fn i31_9_the_recommended_1ns_is_accepted() {
        let advice = parse_seconds("1e-10s").unwrap_err();
        assert!(advice.contains("from 1 ns"), "{advice}");
        assert_eq!(parse_seconds("1 ns"), Ok(Duration::from_nanos(1)));
        assert_eq!(parse_seconds("1ns"), Ok(Duration::from_nanos(1)));
        assert_eq!(parse_milliseconds("1ns"), Ok(Duration::from_nanos(1)));
        assert_eq!(parse_seconds("250us"), Ok(Duration::from_micros(250)));
        assert_eq!(parse_seconds("250µs"), Ok(Duration::from_micros(250)));
        assert_eq!(
            parse_milliseconds("1500us"),
            Ok(Duration::from_micros(1500))
        );
        assert!(parse_seconds("0.4ns").unwrap_err().contains("nanosecond"));
    }

    #[test]
    fn shards() {
        assert_eq!(parse_shard("1/4"), Ok(Shard { k: 1, n: 4 }));
        for bad in ["4/4", "0/0", "1", "a/b", "-1/2"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_format_has_one_name() {
        for &format in StateFormat::value_variants() {
            assert_eq!(StateFormat::of(format.format()), format);
        }
        assert_eq!(StateFormat::Twizzle.name(), "twizzle");
    }

    #[test]
    fn the_command_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
