//! [`Checkpoint`]: what an interrupted Korf search had proven, as plain text, so that it can go on.

use std::fmt;
use std::str::FromStr;

use cube_core::{Alg, Cube, FaceletCube, Move};

/// The state of an interrupted search: the position, the bound being searched (every shorter
/// length is proven to have no solution), the prefixes of that bound already searched to the end,
/// and the solutions they gave.
///
/// It reads and writes as plain text, one record per line (the format of version 1):
///
/// ```text
/// korf-checkpoint 1
/// cube UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB
/// bound 17
/// prefix-depth 4
/// nodes 1234567890
/// done 0-1200 1202 1204-1310
/// solution 1203 U R2 F ...
/// ```
///
/// `done` lists prefix indexes (in the order of canonical move sequences of length
/// `prefix-depth`, or of the bound when that is shorter) as ranges; `solution` lines give a
/// solution of `bound` moves and the prefix it was found under. [`Korf::resume`](super::Korf::resume)
/// goes on from it: it skips the done prefixes and keeps their solutions, so the result is the
/// one the uninterrupted search gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The position searched.
    pub cube: Cube,
    /// The bound being searched: no solution is shorter.
    pub bound: usize,
    /// The length of the prefixes the bound's work is split into.
    pub prefix_depth: usize,
    /// Nodes searched before the checkpoint, over all bounds.
    pub nodes: u64,
    /// The prefixes searched to the end at `bound`, in increasing order.
    pub done: Vec<usize>,
    /// The solutions found under done prefixes: (prefix index, moves).
    pub solutions: Vec<(usize, Vec<Move>)>,
}

/// Why a checkpoint could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointError {
    line: usize,
    message: String,
}

impl CheckpointError {
    fn new(line: usize, message: impl Into<String>) -> CheckpointError {
        CheckpointError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "korf checkpoint line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for CheckpointError {}

const MAGIC: &str = "korf-checkpoint 1";

impl fmt::Display for Checkpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{MAGIC}")?;
        writeln!(f, "cube {}", FaceletCube::from_cube(&self.cube))?;
        writeln!(f, "bound {}", self.bound)?;
        writeln!(f, "prefix-depth {}", self.prefix_depth)?;
        writeln!(f, "nodes {}", self.nodes)?;
        write!(f, "done")?;
        let mut i = 0;
        while i < self.done.len() {
            let start = self.done[i];
            let mut end = start;
            while i + 1 < self.done.len() && self.done[i + 1] == end + 1 {
                i += 1;
                end += 1;
            }
            if end == start {
                write!(f, " {start}")?;
            } else {
                write!(f, " {start}-{end}")?;
            }
            i += 1;
        }
        writeln!(f)?;
        for (prefix, moves) in &self.solutions {
            writeln!(f, "solution {prefix} {}", Alg::from_moves(moves))?;
        }
        Ok(())
    }
}

impl FromStr for Checkpoint {
    type Err = CheckpointError;

    fn from_str(text: &str) -> Result<Checkpoint, CheckpointError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim()));
        match lines.next() {
            Some((_, MAGIC)) => {}
            Some((n, other)) => {
                return Err(CheckpointError::new(
                    n,
                    format!("expected `{MAGIC}`, found `{other}`"),
                ));
            }
            None => return Err(CheckpointError::new(1, "empty checkpoint")),
        }
        let number = |n: usize, value: &str| {
            value
                .parse::<u64>()
                .map_err(|_| CheckpointError::new(n, format!("`{value}` is not a number")))
        };
        let (mut cube, mut bound, mut prefix_depth, mut nodes) = (None, None, None, 0);
        let mut done = Vec::new();
        let mut solutions = Vec::new();
        for (n, line) in lines {
            if line.is_empty() {
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "cube" => {
                    let colours: [u8; 54] = value
                        .as_bytes()
                        .try_into()
                        .map_err(|_| CheckpointError::new(n, "the cube is not 54 facelets"))?;
                    let parsed = FaceletCube::new(colours)
                        .to_cube()
                        .map_err(|e| CheckpointError::new(n, format!("cube: {e}")))?;
                    cube = Some(parsed);
                }
                "bound" => bound = Some(number(n, value)? as usize),
                "prefix-depth" => prefix_depth = Some(number(n, value)? as usize),
                "nodes" => nodes = number(n, value)?,
                "done" => {
                    for range in value.split_whitespace() {
                        let (start, end) = range.split_once('-').unwrap_or((range, range));
                        let (start, end) = (number(n, start)? as usize, number(n, end)? as usize);
                        if end < start || done.last().is_some_and(|&last| start <= last) {
                            return Err(CheckpointError::new(
                                n,
                                format!("range `{range}` out of order"),
                            ));
                        }
                        done.extend(start..=end);
                    }
                }
                "solution" => {
                    let (prefix, moves) = value.split_once(' ').unwrap_or((value, ""));
                    let alg: Alg = moves
                        .parse()
                        .map_err(|e| CheckpointError::new(n, format!("solution: {e}")))?;
                    solutions.push((number(n, prefix)? as usize, alg.moves()));
                }
                other => return Err(CheckpointError::new(n, format!("unknown record `{other}`"))),
            }
        }
        let missing = |what: &str| CheckpointError::new(0, format!("no `{what}` line"));
        Ok(Checkpoint {
            cube: cube.ok_or_else(|| missing("cube"))?,
            bound: bound.ok_or_else(|| missing("bound"))?,
            prefix_depth: prefix_depth.ok_or_else(|| missing("prefix-depth"))?,
            nodes,
            done,
            solutions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let checkpoint = Checkpoint {
            cube: Cube::SOLVED.apply_moves(&[Move::R1, Move::U2, Move::F3]),
            bound: 3,
            prefix_depth: 3,
            nodes: 42,
            done: vec![0, 1, 2, 5, 7, 8],
            solutions: vec![(7, vec![Move::F1, Move::U2, Move::R3])],
        };
        let text = checkpoint.to_string();
        assert!(text.contains("done 0-2 5 7-8\n"), "{text}");
        assert_eq!(text.parse::<Checkpoint>(), Ok(checkpoint));
        assert!("korf-checkpoint 2\n".parse::<Checkpoint>().is_err());
        assert!(format!("{MAGIC}\nbound 3\n").parse::<Checkpoint>().is_err());
    }
}
