//! [`Checkpoint`]: what an interrupted optimal search (Korf's, sym48's or nx's) had proven, as
//! plain text, so that it can go on.
//!
//! A checkpoint is untrusted input (a file that a user may edit, a disk may damage, a fuzzer may
//! write), so the reader checks everything before the search believes any of it: the version, each
//! field's range, the `done` ranges against the number of prefixes of that depth, every solution
//! against the cube, and a checksum of the whole text. [`OptimalSearch::resume`](crate::optimal::OptimalSearch::resume) then
//! checks the tier and the configuration against the solver's. Every error names the field.

use std::fmt;
use std::str::FromStr;

use cube_core::{Alg, Cube, FaceletCube, Move};
use cube_tables::{Metric, Tier};

/// The state of an interrupted search: the position, the bound being searched (every shorter
/// length is proven to have no solution), the prefixes of that bound already searched to the end,
/// and the solutions they gave; with the tier and the configuration that fix the order of the
/// search.
///
/// It reads and writes as plain text, one record per line, in this order (format version 4):
///
/// ```text
/// korf-checkpoint 4
/// cube UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB
/// tier 7edge
/// metric htm
/// prefix-depth 4
/// solutions-wanted 1
/// lookups inverse symmetric
/// starts all
/// bound 17
/// nodes 1234567890
/// done 0-1200 1202 1204-1310
/// solution 1203 U R2 F ...
/// checksum 0x1f2e3d4c5b6a7988
/// ```
///
/// `metric` is `htm` or `qtm`, the metric of `bound` and of the solutions' lengths (the tier's:
/// a `-qtm` tier counts quarter turns); version 3, the same without the `metric` line, reads as
/// `htm`. `done` lists prefix indexes (in the order of canonical move sequences of length
/// `prefix-depth`, which is the bound when that is shorter than the configured depth, or half the
/// bound rounded up in quarter turns) as at most [`Checkpoint::MAX_RANGES`] ranges; `solution`
/// lines give a solution of length `bound` and the
/// done prefix it was found under; `solutions-wanted` is a number or `all`; `lookups` is `plain` or
/// the words `inverse` and `symmetric`; `starts` is `all`, or `one-per-orbit` when a search of a
/// symmetric position searched one prefix of each orbit under its symmetries (the others then
/// count as done, their solutions being the images of the searched ones). `checksum` is cube-tables' payload hash of every byte
/// before its line. [`OptimalSearch::resume`](crate::optimal::OptimalSearch::resume) goes on from it: it skips the done
/// prefixes and keeps their solutions, so the result is the one the uninterrupted search gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The position searched.
    pub cube: Cube,
    /// The tier of the pattern databases.
    pub tier: Tier,
    /// The metric of the bound and of the solutions' lengths: the tier's.
    pub metric: Metric,
    /// The length of the prefixes the bound's work is split into.
    pub prefix_depth: usize,
    /// The number of solutions the search looks for (`usize::MAX` for all): it decides which
    /// prefixes a search may skip.
    pub n_solutions: usize,
    /// Whether the inverse position is looked up too.
    pub inverse: bool,
    /// Whether symmetric conjugates are looked up too.
    pub symmetric: bool,
    /// Whether only one prefix of each orbit under the position's symmetries was searched (the
    /// others count as done): a search that searches every prefix must not go on from it.
    pub symmetric_starts: bool,
    /// The bound being searched: no solution is shorter.
    pub bound: usize,
    /// Nodes searched before the checkpoint, over all bounds.
    pub nodes: u64,
    /// The prefixes searched to the end at `bound`, in increasing order.
    pub done: Vec<usize>,
    /// The solutions found under done prefixes: (prefix index, moves).
    pub solutions: Vec<(usize, Vec<Move>)>,
}

/// Why a checkpoint could not be read or used: the line (when it comes from the text), the field
/// and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointError {
    line: Option<usize>,
    field: &'static str,
    message: String,
}

impl CheckpointError {
    pub(crate) fn new(
        line: Option<usize>,
        field: &'static str,
        message: impl Into<String>,
    ) -> CheckpointError {
        CheckpointError {
            line,
            field,
            message: message.into(),
        }
    }

    /// The field that is wrong: `bound`, `done`, `tier`, `checksum`, ...
    pub fn field(&self) -> &'static str {
        self.field
    }
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "korf checkpoint line {line} ({}): ", self.field)?,
            None => write!(f, "korf checkpoint ({}): ", self.field)?,
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for CheckpointError {}

const MAGIC: &str = "korf-checkpoint";
const VERSION: u32 = 4;
/// The version before the `metric` line: read as the half-turn metric.
const VERSION_HTM: u32 = 3;

impl Checkpoint {
    /// The most `done` ranges a checkpoint may hold (a search leaves a few dozen).
    pub const MAX_RANGES: usize = 4096;

    /// The most `solution` lines a checkpoint may hold.
    pub const MAX_SOLUTIONS: usize = 100_000;

    /// The `done` list as ranges of consecutive indexes.
    fn ranges(&self) -> Vec<(usize, usize)> {
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for &i in &self.done {
            match ranges.last_mut() {
                Some((_, end)) if *end + 1 == i => *end = i,
                _ => ranges.push((i, i)),
            }
        }
        ranges
    }

    fn body(&self) -> String {
        use std::fmt::Write;
        let mut text = String::new();
        let lookups = match (self.inverse, self.symmetric) {
            (false, false) => "plain",
            (true, false) => "inverse",
            (false, true) => "symmetric",
            (true, true) => "inverse symmetric",
        };
        let wanted = if self.n_solutions == usize::MAX {
            "all".to_string()
        } else {
            self.n_solutions.to_string()
        };
        // Writing to a String cannot fail.
        let _ = writeln!(text, "{MAGIC} {VERSION}");
        let _ = writeln!(text, "cube {}", FaceletCube::from_cube(&self.cube));
        let _ = writeln!(text, "tier {}", self.tier);
        let _ = writeln!(text, "metric {}", self.metric);
        let _ = writeln!(text, "prefix-depth {}", self.prefix_depth);
        let _ = writeln!(text, "solutions-wanted {wanted}");
        let _ = writeln!(text, "lookups {lookups}");
        let _ = writeln!(
            text,
            "starts {}",
            if self.symmetric_starts {
                "one-per-orbit"
            } else {
                "all"
            }
        );
        let _ = writeln!(text, "bound {}", self.bound);
        let _ = writeln!(text, "nodes {}", self.nodes);
        text.push_str("done");
        for (start, end) in self.ranges() {
            if start == end {
                let _ = write!(text, " {start}");
            } else {
                let _ = write!(text, " {start}-{end}");
            }
        }
        text.push('\n');
        for (prefix, moves) in &self.solutions {
            let _ = writeln!(text, "solution {prefix} {}", Alg::from_moves(moves));
        }
        text
    }
}

/// The checksum of a checkpoint's text before its `checksum` line.
fn checksum(body: &str) -> u64 {
    cube_tables::payload_hash(body.as_bytes())
}

impl fmt::Display for Checkpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let body = self.body();
        writeln!(f, "{body}checksum {:#018x}", checksum(&body))
    }
}

/// The records of version 4, in the order they must come (version 3 has no `metric`).
const FIELDS: [&str; 10] = [
    "cube",
    "tier",
    "metric",
    "prefix-depth",
    "solutions-wanted",
    "lookups",
    "starts",
    "bound",
    "nodes",
    "done",
];

impl FromStr for Checkpoint {
    type Err = CheckpointError;

    fn from_str(text: &str) -> Result<Checkpoint, CheckpointError> {
        let frame = Frame::check(text)?;
        let (values, rest) = frame.values()?;
        let [
            cube,
            tier,
            metric,
            prefix_depth,
            wanted,
            lookups,
            starts,
            bound,
            nodes,
            done,
        ] = values;
        // The bound before the prefix depth, which it limits; else in the order of the fields.
        let cube = frame.cube(cube)?;
        let (tier, metric) = frame.tier(tier, metric)?;
        let bound = frame.bound(bound, metric, &cube)?;
        let prefix_depth = frame.prefix_depth(prefix_depth, bound, metric)?;
        let n_solutions = frame.wanted(wanted)?;
        let (inverse, symmetric) = frame.lookups(lookups)?;
        let symmetric_starts = frame.starts(starts)?;
        let nodes = frame.number("nodes", nodes, u64::MAX)?;
        let prefixes = super::canonical_sequences(prefix_depth);
        let mut checkpoint = Checkpoint {
            cube,
            tier,
            metric,
            prefix_depth,
            n_solutions,
            inverse,
            symmetric,
            symmetric_starts,
            bound,
            nodes,
            done: frame.done(done, prefixes.len())?,
            solutions: Vec::new(),
        };
        checkpoint.solutions = solutions(rest, &checkpoint, &prefixes)?;
        Ok(checkpoint)
    }
}

/// A checkpoint's text with its frame checked (its version line read, its checksum matched): what
/// reads its fields, each error naming the field and its line.
struct Frame<'a> {
    /// The text before the `checksum` line.
    body: &'a str,
    /// Version 4 (with a `metric` line) rather than 3.
    with_metric: bool,
}

impl<'a> Frame<'a> {
    /// The checksum first: a damaged file gets one clear error, whatever the damage.
    fn check(text: &'a str) -> Result<Frame<'a>, CheckpointError> {
        let err = |line, field, message| CheckpointError::new(Some(line), field, message);
        let body_end = text.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
        let (body, last) = text.split_at(body_end);
        let n_lines = body.lines().count() + 1;
        let header = body.lines().next().unwrap_or(last);
        let version = header
            .strip_prefix(MAGIC)
            .and_then(|rest| rest.strip_prefix(' '))
            .ok_or_else(|| {
                err(
                    1,
                    "version",
                    format!("expected `{MAGIC} {VERSION}`, found `{}`", clip(header)),
                )
            })?;
        let with_metric = version == VERSION.to_string();
        if !with_metric && version != VERSION_HTM.to_string() {
            return Err(err(
                1,
                "version",
                format!(
                    "format version {}, expected {VERSION} (written by another version of the solver: delete it to start again)",
                    clip(version)
                ),
            ));
        }
        let stored = last
            .trim_end_matches('\n')
            .strip_prefix("checksum 0x")
            .and_then(|hex| u64::from_str_radix(hex, 16).ok())
            .ok_or_else(|| {
                err(
                    n_lines,
                    "checksum",
                    "the last line is not `checksum 0x<16 hex digits>`: the file is incomplete"
                        .to_string(),
                )
            })?;
        let computed = checksum(body);
        if stored != computed {
            return Err(err(
                n_lines,
                "checksum",
                format!(
                    "checksum {computed:#018x} does not match the stored {stored:#018x}: the file was damaged or edited"
                ),
            ));
        }
        Ok(Frame { body, with_metric })
    }

    /// The values of [`FIELDS`] (version 3's metric is `htm`), and the numbered lines after them.
    #[allow(clippy::type_complexity)]
    fn values(
        &self,
    ) -> Result<
        (
            [&'a str; FIELDS.len()],
            impl Iterator<Item = (usize, &'a str)>,
        ),
        CheckpointError,
    > {
        let mut lines = self
            .body
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line))
            .skip(1);
        let mut values = [""; FIELDS.len()];
        for (field, value) in FIELDS.iter().zip(values.iter_mut()) {
            if *field == "metric" && !self.with_metric {
                *value = Metric::Htm.name();
                continue;
            }
            let (n, line) = lines
                .next()
                .ok_or_else(|| CheckpointError::new(None, field, format!("no `{field}` line")))?;
            *value = line
                .strip_prefix(field)
                .and_then(|rest| rest.strip_prefix(' ').or((rest.is_empty()).then_some("")))
                .ok_or_else(|| {
                    CheckpointError::new(
                        Some(n),
                        field,
                        format!("expected a `{field}` line, found `{}`", clip(line)),
                    )
                })?;
        }
        Ok((values, lines))
    }

    /// The error of `field`, on its line: the version is line 1 (version 3 has no `metric`
    /// line).
    fn err(&self, field: &'static str, message: String) -> CheckpointError {
        let i = FIELDS.iter().position(|f| *f == field).unwrap_or(0);
        let line = 2 + i - usize::from(!self.with_metric && i > 2);
        CheckpointError::new(Some(line), field, message)
    }

    /// `value` of `field` as a number at most `max`.
    fn number(&self, field: &'static str, value: &str, max: u64) -> Result<u64, CheckpointError> {
        match value.parse::<u64>() {
            Ok(n) if n <= max => Ok(n),
            Ok(n) => Err(self.err(field, format!("{n} is more than {max}"))),
            Err(_) => Err(self.err(field, format!("`{}` is not a number", clip(value)))),
        }
    }

    /// The cube: 54 facelets of a solvable cube.
    fn cube(&self, value: &str) -> Result<Cube, CheckpointError> {
        let colours: [u8; 54] = value
            .as_bytes()
            .try_into()
            .map_err(|_| self.err("cube", "the cube is not 54 facelets".to_string()))?;
        FaceletCube::new(colours)
            .to_cube_solvable()
            .map_err(|e| self.err("cube", e.to_string()))
    }

    /// The tier, and the metric, which must be the tier's.
    fn tier(&self, tier: &str, metric: &str) -> Result<(Tier, Metric), CheckpointError> {
        let tier: Tier = tier.parse().map_err(|e| self.err("tier", format!("{e}")))?;
        let metric = match metric {
            "htm" => Metric::Htm,
            "qtm" => Metric::Qtm,
            other => {
                return Err(self.err(
                    "metric",
                    format!("`{}`: expected `htm` or `qtm`", clip(other)),
                ));
            }
        };
        if metric != tier.metric() {
            return Err(self.err(
                "metric",
                format!("{metric}, but tier {tier} counts in {}", tier.metric()),
            ));
        }
        Ok((tier, metric))
    }

    /// The bound: 1 to the metric's diameter, of the parity of the cube's solutions in quarter
    /// turns.
    fn bound(&self, value: &str, metric: Metric, cube: &Cube) -> Result<usize, CheckpointError> {
        let bound = self.number("bound", value, metric.diameter() as u64)? as usize;
        if bound == 0 {
            return Err(self.err(
                "bound",
                "bound 0: only the solved cube has a solution of 0 moves, and it needs no search"
                    .to_string(),
            ));
        }
        if metric == Metric::Qtm && (bound % 2 == 1) != cube.corner_parity_odd() {
            return Err(self.err(
                "bound",
                format!(
                    "bound {bound}: every solution of this cube has a quarter-turn length of the other parity"
                ),
            ));
        }
        Ok(bound)
    }

    /// The prefix depth: 1 to 4, and no longer than the bound's shortest solution in face turns.
    fn prefix_depth(
        &self,
        value: &str,
        bound: usize,
        metric: Metric,
    ) -> Result<usize, CheckpointError> {
        let prefix_depth = self.number("prefix-depth", value, 4)? as usize;
        let shortest = super::shortest_in_face_turns(bound, metric);
        if prefix_depth == 0 || prefix_depth > shortest {
            return Err(self.err(
                "prefix-depth",
                format!(
                    "prefix depth {prefix_depth} with bound {bound}: expected 1 to 4, at most {shortest}"
                ),
            ));
        }
        Ok(prefix_depth)
    }

    /// The solutions wanted: `all` or a positive number.
    fn wanted(&self, value: &str) -> Result<usize, CheckpointError> {
        match value {
            "all" => Ok(usize::MAX),
            _ => match self.number("solutions-wanted", value, u64::MAX)? {
                0 => Err(self.err("solutions-wanted", "0 solutions wanted".to_string())),
                n => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
            },
        }
    }

    /// The lookups: (inverse, symmetric).
    fn lookups(&self, value: &str) -> Result<(bool, bool), CheckpointError> {
        match value {
            "plain" => Ok((false, false)),
            "inverse" => Ok((true, false)),
            "symmetric" => Ok((false, true)),
            "inverse symmetric" => Ok((true, true)),
            other => Err(self.err(
                "lookups",
                format!(
                    "`{}`: expected `plain`, `inverse`, `symmetric` or `inverse symmetric`",
                    clip(other)
                ),
            )),
        }
    }

    /// The starts: whether one per orbit.
    fn starts(&self, value: &str) -> Result<bool, CheckpointError> {
        match value {
            "all" => Ok(false),
            "one-per-orbit" => Ok(true),
            other => Err(self.err(
                "starts",
                format!("`{}`: expected `all` or `one-per-orbit`", clip(other)),
            )),
        }
    }

    /// The prefixes done, of `n_prefixes`: at most [`Checkpoint::MAX_RANGES`] ranges, in order.
    fn done(&self, value: &str, n_prefixes: usize) -> Result<Vec<usize>, CheckpointError> {
        let mut done: Vec<usize> = Vec::new();
        for (n_ranges, range) in value.split_whitespace().enumerate() {
            if n_ranges >= Checkpoint::MAX_RANGES {
                return Err(self.err(
                    "done",
                    format!("more than {} ranges", Checkpoint::MAX_RANGES),
                ));
            }
            let (start, end) = range.split_once('-').unwrap_or((range, range));
            let last = n_prefixes as u64 - 1;
            let (start, end) = (
                self.number("done", start, last)? as usize,
                self.number("done", end, last)? as usize,
            );
            if end < start || done.last().is_some_and(|&last| start <= last) {
                return Err(self.err("done", format!("range `{}` out of order", clip(range))));
            }
            done.extend(start..=end);
        }
        Ok(done)
    }
}

/// The `solution` lines after the fields, each checked against `checkpoint` (its cube, bound,
/// metric and prefixes done) and `prefixes`: at most [`Checkpoint::MAX_SOLUTIONS`].
fn solutions<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    checkpoint: &Checkpoint,
    prefixes: &[Vec<u8>],
) -> Result<Vec<(usize, Vec<Move>)>, CheckpointError> {
    let mut solutions = Vec::new();
    for (n, line) in lines {
        let bad = |message: String| CheckpointError::new(Some(n), "solution", message);
        let Some(value) = line.strip_prefix("solution ") else {
            return Err(bad(format!(
                "expected a `solution` line, found `{}`",
                clip(line)
            )));
        };
        if solutions.len() >= Checkpoint::MAX_SOLUTIONS {
            return Err(bad(format!(
                "more than {} solutions",
                Checkpoint::MAX_SOLUTIONS
            )));
        }
        let (prefix, moves) = value.split_once(' ').unwrap_or((value, ""));
        let prefix = prefix
            .parse::<usize>()
            .map_err(|_| bad(format!("`{}` is not a prefix index", clip(prefix))))?;
        if checkpoint.done.binary_search(&prefix).is_err() {
            return Err(bad(format!("prefix {prefix} is not listed as done")));
        }
        let alg: Alg = moves.parse().map_err(|e| bad(format!("{e}")))?;
        let moves = alg.moves();
        let (metric, bound) = (checkpoint.metric, checkpoint.bound);
        if metric.length(&moves) != bound {
            return Err(bad(format!(
                "{} {metric}, but the bound is {bound}",
                metric.length(&moves)
            )));
        }
        let prefix_moves: Vec<u8> = moves[..checkpoint.prefix_depth]
            .iter()
            .map(|m| m.index() as u8)
            .collect();
        if prefixes[prefix] != prefix_moves {
            return Err(bad(format!(
                "the solution does not start with prefix {prefix}"
            )));
        }
        if !checkpoint.cube.apply_moves(&moves).is_solved() {
            return Err(bad(format!(
                "`{}` does not solve the cube",
                clip(moves_text(&moves).as_str())
            )));
        }
        solutions.push((prefix, moves));
    }
    Ok(solutions)
}

fn moves_text(moves: &[Move]) -> String {
    Alg::from_moves(moves).to_string()
}

/// At most 40 characters of `text`, for messages about untrusted input.
fn clip(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint() -> Checkpoint {
        let moves = [Move::F1, Move::U2, Move::R3];
        Checkpoint {
            cube: Cube::SOLVED.apply_moves(&[Move::R1, Move::U2, Move::F3]),
            tier: Tier::Edge6,
            metric: Metric::Htm,
            prefix_depth: 3,
            n_solutions: 1,
            inverse: true,
            symmetric: false,
            symmetric_starts: false,
            bound: 3,
            nodes: 42,
            done: vec![0, 1, 2, 5, 7, 8, 100],
            solutions: vec![(0, moves.to_vec())],
        }
    }

    /// A checkpoint whose solution is under the right prefix: find that prefix's index.
    fn consistent() -> Checkpoint {
        let mut c = checkpoint();
        let moves = c.solutions[0].1.clone();
        let wanted: Vec<u8> = moves.iter().map(|m| m.index() as u8).collect();
        let index = super::super::canonical_sequences(3)
            .iter()
            .position(|p| *p == wanted)
            .unwrap();
        c.done = vec![0, 1, 2, index];
        c.solutions = vec![(index, moves)];
        c
    }

    #[test]
    fn round_trip() {
        let checkpoint = consistent();
        let text = checkpoint.to_string();
        assert!(text.contains("done 0-2 "), "{text}");
        assert!(text.contains("lookups inverse\n"), "{text}");
        assert_eq!(text.parse::<Checkpoint>(), Ok(checkpoint));
        assert!("korf-checkpoint 1\n".parse::<Checkpoint>().is_err());
    }

    /// Re-seals an edited body with a good checksum, as a forger who knows the format would.
    fn forged(edit: impl Fn(&str) -> String) -> Result<Checkpoint, CheckpointError> {
        let body = consistent().body();
        let body = edit(&body);
        format!("{body}checksum {:#018x}\n", checksum(&body)).parse()
    }

    fn field_of(result: Result<Checkpoint, CheckpointError>) -> &'static str {
        result.expect_err("a forged checkpoint is refused").field()
    }

    #[test]
    fn every_forged_field_is_named() {
        let replace = |from: &'static str, to: &'static str| {
            move |body: &str| {
                assert!(body.contains(from), "{body}");
                body.replacen(from, to, 1)
            }
        };
        assert_eq!(field_of(forged(replace("bound 3", "bound 99"))), "bound");
        assert_eq!(field_of(forged(replace("bound 3", "bound 21"))), "bound");
        assert_eq!(
            field_of(forged(replace("prefix-depth 3", "prefix-depth 4"))),
            "prefix-depth"
        );
        assert_eq!(
            field_of(forged(replace("done 0-2", "done 5-18446744073709551615"))),
            "done"
        );
        assert_eq!(field_of(forged(replace("done 0-2", "done 0-3240"))), "done");
        assert_eq!(field_of(forged(replace("done 0-2", "done 2-0"))), "done");
        assert_eq!(
            field_of(forged(replace("tier 6edge", "tier 9edge"))),
            "tier"
        );
        assert_eq!(
            field_of(forged(replace("lookups inverse", "lookups all"))),
            "lookups"
        );
        assert_eq!(
            field_of(forged(replace("metric htm", "metric ftm"))),
            "metric"
        );
        // A metric that is not the tier's.
        assert_eq!(
            field_of(forged(replace("metric htm", "metric qtm"))),
            "metric"
        );
        assert_eq!(
            field_of(forged(replace("starts all", "starts some"))),
            "starts"
        );
        assert_eq!(
            field_of(forged(replace("solutions-wanted 1", "solutions-wanted 0"))),
            "solutions-wanted"
        );
        // A solution that does not solve the cube, one of another length, one under another prefix.
        assert_eq!(field_of(forged(replace("F U2 R'", "F U2 R"))), "solution");
        assert_eq!(
            field_of(forged(replace("F U2 R'", "F U2 R' R"))),
            "solution"
        );
        let index = consistent().solutions[0].0;
        let other_prefix =
            forged(|b: &str| b.replace(&format!("solution {index} "), "solution 1 "));
        assert_eq!(field_of(other_prefix), "solution");
        let not_done = forged(|b: &str| b.replace(&format!("solution {index} "), "solution 3 "));
        assert_eq!(field_of(not_done), "solution");
        // Too many ranges, from a short line.
        let many: String = (0..5000).map(|i| format!(" {}", 2 * i)).collect();
        let long = forged(|b: &str| b.replacen("done 0-2", &format!("done{many}"), 1));
        assert_eq!(field_of(long), "done");
    }

    /// A checkpoint of format version 3 (no `metric` line) reads as the half-turn metric's.
    #[test]
    fn version_3_reads_as_half_turns() {
        let body = consistent()
            .body()
            .replacen("korf-checkpoint 4", "korf-checkpoint 3", 1)
            .replacen("metric htm\n", "", 1);
        let text = format!("{body}checksum {:#018x}\n", checksum(&body));
        assert_eq!(text.parse::<Checkpoint>(), Ok(consistent()));
        // Its line numbers are its own: `bound` is line 8 there.
        let forged = text.replacen("bound 3", "bound 99", 1);
        let body = &forged[..forged.rfind("checksum").unwrap()];
        let forged = format!("{body}checksum {:#018x}\n", checksum(body));
        let err = forged.parse::<Checkpoint>().unwrap_err();
        assert!(err.to_string().contains("line 8 (bound)"), "{err}");
    }

    /// A quarter-turn checkpoint: the bound has the cube's parity, the solutions its length in
    /// quarter turns, the prefixes at most half the bound.
    #[test]
    fn a_quarter_turn_checkpoint_round_trips() {
        let moves = vec![Move::F1, Move::U2, Move::R3];
        let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U2, Move::F3]);
        let prefix: Vec<u8> = moves[..2].iter().map(|m| m.index() as u8).collect();
        let index = super::super::canonical_sequences(2)
            .iter()
            .position(|p| *p == prefix)
            .unwrap();
        let checkpoint = Checkpoint {
            cube,
            tier: Tier::NxEo1Ep1Qtm,
            metric: Metric::Qtm,
            prefix_depth: 2,
            bound: 4,
            done: vec![index],
            solutions: vec![(index, moves)],
            ..consistent()
        };
        let text = checkpoint.to_string();
        assert!(text.contains("\nmetric qtm\n"), "{text}");
        assert_eq!(text.parse::<Checkpoint>(), Ok(checkpoint.clone()));
        let body = checkpoint.body();
        let reseal = |body: String| format!("{body}checksum {:#018x}\n", checksum(&body));
        let odd = reseal(body.replacen("bound 4", "bound 5", 1));
        assert_eq!(field_of(odd.parse()), "bound");
        let deep = reseal(body.replacen("prefix-depth 2", "prefix-depth 3", 1));
        assert_eq!(field_of(deep.parse()), "prefix-depth");
        assert_eq!(
            field_of(reseal(body.replacen("bound 4", "bound 28", 1)).parse()),
            "bound"
        );
    }

    #[test]
    fn damage_is_caught_by_the_checksum() {
        let text = consistent().to_string();
        let edited = text.replacen("bound 3", "bound 4", 1);
        assert_eq!(field_of(edited.parse()), "checksum");
        let truncated = &text[..text.len() - 10];
        assert_eq!(field_of(truncated.parse()), "checksum");
        let without = text
            .lines()
            .filter(|l| !l.starts_with("checksum"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(field_of(without.parse()), "checksum");
        assert_eq!(field_of("".parse()), "version");
        assert_eq!(field_of("korf-checkpoint 1\ncube x\n".parse()), "version");
    }
}
