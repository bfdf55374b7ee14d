//! The JSON records of `--json`: one JSON object per line (JSON Lines), each with a `type` that
//! says what it is, and for line input (a batch, standard input of several states) the `index`
//! (0-based line number) and `input` (the line as read) of the state it answers. The schema of
//! every record is `docs/json.schema.json`, with an example of each type in `docs/json.md`;
//! `tests/json.rs` validates every record type the binary prints against it.
//!
//! Formats are named by their flag values everywhere (`twizzle`, `kpattern`), and a field that
//! holds a format is named after its flag (`from`, `to`, `format`).

use std::path::PathBuf;

use serde::Serialize;

/// One record, tagged by `type`.
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Record {
    /// `solve` and `optimal`.
    Solution(Solution),
    /// `scramble`.
    Scramble(Scramble),
    /// `check`.
    Check(Check),
    /// `convert`.
    Conversion(Conversion),
    /// `show`.
    Net(Net),
    /// `verify`.
    Verification(Verification),
    /// `fmc unniss`, `fmc invert`, `fmc cleanup`, `fmc count`.
    Sequence(Sequence),
    /// `fmc solve`.
    #[serde(rename = "fmc-solutions")]
    FmcSolutions(FmcSolutions),
    /// `fmc steps`: one per step.
    Step(Step),
    /// `fmc insert`.
    #[serde(rename = "fmc-insertions")]
    FmcInsertions(FmcInsertions),
    /// `fmc cycles`.
    #[serde(rename = "fmc-cycles")]
    FmcCycles(FmcCycles),
    /// `fmc improve`.
    #[serde(rename = "fmc-improvements")]
    FmcImprovements(FmcImprovements),
    /// `tables`, `tables bake`, `tables verify`.
    Tables(Tables),
    /// Any error: of one state, of the run, or of the command line.
    Error(Error),
}

/// A solution, by a method or optimal.
#[derive(Serialize, Debug)]
pub struct Solution {
    /// The solution: outer face turns.
    pub solution: String,
    /// Its length in face turns.
    pub length: usize,
    /// The method (`two-phase`, ..., `optimal`).
    pub method: String,
    /// The search time.
    pub seconds: f64,
    /// The labelled stages (none for two-phase and the optimal solver).
    pub stages: Vec<Stage>,
    /// What the optimal solver adds.
    #[serde(flatten)]
    pub optimal: Option<Optimal>,
}

/// One labelled stage of a solution.
#[derive(Serialize, Debug)]
pub struct Stage {
    pub label: String,
    pub moves: String,
    pub length: usize,
}

/// The fields of an optimal solution.
#[derive(Serialize, Debug)]
pub struct Optimal {
    /// Every solution found (one unless `--all` or `--max-solutions`).
    pub solutions: Vec<String>,
    /// Whether the length is proven optimal (false after a timeout or a signal).
    pub optimal: bool,
    /// Whether `solutions` is every solution asked for (`--all`: every optimal one;
    /// `--max-solutions N`: N, or all there are). False when a timeout or a signal stopped the
    /// enumeration: the checkpoint, if one was asked for, is kept and a rerun completes the list.
    pub complete: bool,
    /// No solution is shorter than this.
    pub proven_lower_bound: usize,
    pub nodes: u64,
    /// The CPU time of the process during the search, every thread's (the two-phase helper's
    /// included; under `serve`, the other requests' too): beside `seconds`, what the search
    /// really cost; `null` where the platform does not tell it.
    pub cpu_seconds: Option<f64>,
    /// The tier searched (`6edge`, `h5`, ...).
    pub tier: String,
    /// The metric of `length`, `proven_lower_bound` and optimality: `htm` or `qtm` (the tier's).
    pub metric: String,
}

/// A scramble.
#[derive(Serialize, Debug)]
pub struct Scramble {
    /// The moves.
    pub scramble: String,
    /// What `--format` asked for: the moves again for `alg`, else the scrambled state.
    pub output: String,
    /// `--format`.
    pub format: String,
    /// The WCA event id (`333`, `333fm`, `333bf`).
    pub event: String,
    /// `--type`: the subgroup the state was drawn from (`eo`, `dr`, `htr`, `corners`, `edges`),
    /// or `null` for a state of the whole cube.
    pub subgroup: Option<&'static str>,
    /// The seed of the run (the same for every scramble of one run).
    pub seed: u64,
    /// The 0-based number of the scramble in the run.
    pub index: usize,
    /// The scramble's length in moves.
    pub length: usize,
}

/// Whether a state is legal, and every rule it breaks.
#[derive(Serialize, Debug)]
pub struct Check {
    pub legal: bool,
    /// The format the state was read in (detected or `--from`).
    pub from: String,
    pub problems: Vec<Problem>,
}

/// One rule a state breaks: a stable code (listed in docs/json.md) and a message for people.
#[derive(Serialize, Debug)]
pub struct Problem {
    pub rule: &'static str,
    pub message: String,
}

/// A state written in another format.
#[derive(Serialize, Debug)]
pub struct Conversion {
    pub output: String,
    /// The format read (detected or `--from`).
    pub from: String,
    /// The format written (`--to`).
    pub to: String,
}

/// The net of `show`.
#[derive(Serialize, Debug)]
pub struct Net {
    /// The 54 stickers in URFDLB letters, Kociemba order.
    pub facelets: String,
    /// The SVG file written, if any.
    pub svg: Option<String>,
}

/// Whether a sequence solves a state.
#[derive(Serialize, Debug)]
pub struct Verification {
    pub solves: bool,
    /// The sequence's length in face turns.
    pub length: usize,
}

/// A NISS sequence of the FMC notation commands, with its move counts.
#[derive(Serialize, Debug)]
pub struct Sequence {
    /// `unniss`, `invert`, `cleanup` or `count`.
    pub action: &'static str,
    /// The result (for `count`, the sequence read, printed back).
    pub sequence: String,
    /// Its move count in the half-turn metric (as written: nothing cancels).
    pub htm: usize,
    /// In the quarter-turn metric.
    pub qtm: usize,
    /// In the slice-turn metric.
    pub stm: usize,
}

/// The solutions of one step (`fmc solve`).
#[derive(Serialize, Debug)]
pub struct FmcSolutions {
    /// The step's name (an alias given is read as its step).
    pub step: &'static str,
    /// The NISS mode.
    pub niss: String,
    /// The solutions, shortest first (none with `--count`).
    pub solutions: Vec<FmcSolution>,
    /// How many solutions were found (at most `-n`).
    pub count: usize,
    /// The length of the shortest, `null` if none.
    pub optimum: Option<u8>,
    /// False when a signal or the memory bound stopped the search.
    pub complete: bool,
    /// `memory` when the memory bound stopped the search (the solutions are the first ones).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<&'static str>,
    pub seconds: f64,
}

/// One solution of a step: in NISS notation, its two parts and its length.
#[derive(Serialize, Debug)]
pub struct FmcSolution {
    pub solution: String,
    /// The moves done on the scramble.
    pub normal: String,
    /// The moves done on the inverse scramble (in parentheses in `solution`).
    pub inverse: String,
    pub length: usize,
}

/// The insertions that finish a skeleton (`fmc insert`).
#[derive(Serialize, Debug)]
pub struct FmcInsertions {
    /// The skeleton, plain and cleaned up: the first insertion's position counts in it.
    pub skeleton: String,
    pub skeleton_length: usize,
    /// What the skeleton leaves.
    pub leftover: FmcLeftover,
    /// The skeleton with the insertions, cancelled; `null` when no insertion of the set
    /// finishes it.
    pub solution: Option<String>,
    pub length: Option<usize>,
    /// The insertions, in the order they are made.
    pub insertions: Vec<FmcInsertion>,
    /// Whether `length` is proven the fewest over the algorithm set (`--optimal`, not stopped).
    pub optimal: bool,
    /// False when `--max-seconds` or a signal ended the search.
    pub complete: bool,
    /// `generated`, or the `--algs` file.
    pub algorithms: String,
    pub seconds: f64,
}

/// One insertion.
#[derive(Serialize, Debug)]
pub struct FmcInsertion {
    /// The number of moves of `sequence` before it.
    pub position: usize,
    /// The sequence it goes into (the skeleton or what the insertions before it made; two
    /// parallel moves around the place swapped when it goes between them the other way round).
    pub sequence: String,
    pub algorithm: String,
    /// The algorithm's kind (`corner-3-cycle`, `parity`, ...).
    pub kind: &'static str,
    /// The moves that cancel: `sequence` and `algorithm` together less the result.
    pub cancelled: usize,
}

/// What a skeleton leaves.
#[derive(Serialize, Debug)]
pub struct FmcLeftover {
    /// `3c3e`, `2c2e`, `2t`, ... (empty when solved).
    pub code: String,
    /// In FMC solvers' words: `3 corners, 3 edges: 3c3e`.
    pub words: String,
    /// The fewest insertions (3-cycles, one parity algorithm) that finish it.
    pub insertions: usize,
    /// Whether it needs a parity algorithm (a corner swap with an edge swap).
    pub parity: bool,
    pub cycles: Vec<FmcCycle>,
}

/// One cycle of pieces: each position's piece belongs at the next.
#[derive(Serialize, Debug)]
pub struct FmcCycle {
    /// `corners` or `edges`.
    pub orbit: &'static str,
    pub positions: Vec<&'static str>,
    /// The net twist (corners, 0 to 2 clockwise) or flip (edges, 0 or 1).
    pub twist: u8,
}

/// What a skeleton leaves (`fmc cycles`).
#[derive(Serialize, Debug)]
pub struct FmcCycles {
    /// The skeleton, plain and cleaned up.
    pub skeleton: String,
    pub skeleton_length: usize,
    #[serde(flatten)]
    pub leftover: FmcLeftover,
}

/// Shorter replacements of a solution's segments (`fmc improve`).
#[derive(Serialize, Debug)]
pub struct FmcImprovements {
    /// The solution, plain and cleaned up: the segments count in it.
    pub solution: String,
    pub length: usize,
    /// The improvements, the shortest results first (at most `-n`).
    pub improvements: Vec<FmcImprovement>,
    /// False when `--max-seconds` or a signal ended the search.
    pub complete: bool,
    pub seconds: f64,
}

/// One improvement: moves `start..end` replaced.
#[derive(Serialize, Debug)]
pub struct FmcImprovement {
    pub start: usize,
    pub end: usize,
    /// The moves replaced.
    pub segment: String,
    pub replacement: String,
    /// The solution with the replacement, cancelled.
    pub solution: String,
    pub length: usize,
}

/// One step of `fmc steps`.
#[derive(Serialize, Debug)]
pub struct Step {
    pub name: &'static str,
    pub aliases: Vec<&'static str>,
    /// What it solves.
    pub goal: &'static str,
    /// The moves of its solutions.
    pub moveset: &'static str,
    /// What must be solved before it.
    pub requisite: &'static str,
    /// Whether its solutions may use NISS.
    pub niss: bool,
    /// Its table family.
    pub tables: &'static str,
    /// The bytes of its tables.
    pub table_bytes: u64,
}

/// The table directory: what is baked (`status`, `bake`) or what was checked (`verify`).
#[derive(Serialize, Debug)]
pub struct Tables {
    /// `status`, `bake`, `verify`, `files` or `clean`.
    pub action: &'static str,
    pub dir: PathBuf,
    /// `status` and `bake`: every table file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tables: Option<Vec<TableFile>>,
    /// `status` and `bake`: every tier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiers: Option<Vec<TierState>>,
    /// `verify`: every table checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<Vec<Verified>>,
    /// `files`: every file the tool keeps; `clean`: the files removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<KeptFile>>,
}

/// One file of `tables files` or `tables clean`.
#[derive(Serialize, Debug)]
pub struct KeptFile {
    pub path: PathBuf,
    /// `pattern-database`, `h48-table`, `method-cache`, `seed`, `stamp`, `scratch`, `temporary`,
    /// `stale-lock`, `bake-log` or `lock`.
    pub kind: &'static str,
    /// The table it belongs to, if any.
    pub table: Option<String>,
    pub bytes: u64,
    /// The state in words (from the header; `-` for a file without one).
    pub state: String,
}

/// One table file of `tables status`.
#[derive(Serialize, Debug)]
pub struct TableFile {
    pub id: String,
    pub path: PathBuf,
    /// The file's size; `null` when it is missing.
    pub bytes: Option<u64>,
    /// The size the file has when baked.
    pub expected_bytes: u64,
    /// The header is sound and the payload was checked.
    pub ok: bool,
    pub header_ok: bool,
    /// When the payload was last checked (`2026-12-01 09:59 UTC`).
    pub payload_checked: Option<String>,
    /// The state in words.
    pub state: String,
}

/// One tier of `tables status`.
#[derive(Serialize, Debug)]
pub struct TierState {
    pub tier: String,
    pub ready: bool,
    pub payload_checked: bool,
    /// The disk space of its tables.
    pub bytes: u64,
}

/// One table checked by `tables verify`.
#[derive(Serialize, Debug)]
pub struct Verified {
    pub id: String,
    pub ok: bool,
    pub seconds: f64,
}

/// An error: `{"type": "error", "error": {"kind", "message"}}`.
#[derive(Serialize, Debug)]
pub struct Error {
    pub error: ErrorBody,
}

/// The kind (`parse`, `illegal`, `requisite`, `usage`, `tables`, `timeout`, `no-solution`, `io`, `output`,
/// `interrupted`) and the message of an error.
#[derive(Serialize, Debug)]
pub struct ErrorBody {
    pub kind: &'static str,
    pub message: String,
}
