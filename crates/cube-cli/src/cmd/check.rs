//! `cube-cli check`: whether a state is a legal cube, and every rule it breaks, each with a
//! stable rule code for programs (the list is in docs/json.md).

use cube_core::{CubeError, FaceletCube, FaceletError};
use cube_encode::{DecodeError, Format};

use crate::args::StateFormat;
use crate::input::Input;
use crate::output::{EXIT_INPUT, Outcome, Report};
use crate::record::{self, Problem, Record};

pub fn run(input: &Input) -> Outcome {
    let (from, problems): (Format, Vec<Problem>) = match facelets_of(input) {
        // Stickers are checked as stickers, so that every sticker mistake is named (colour
        // counts, centres, impossible pieces) rather than only the first.
        Some(facelets) => (
            Format::Facelets,
            facelets.problems().iter().map(facelet_problem).collect(),
        ),
        None => {
            let (from, state) = input.state()?;
            let mut problems: Vec<Problem> =
                state.cube().violations().iter().map(cube_problem).collect();
            if let (true, Err(e)) = (problems.is_empty(), state.validate()) {
                problems.push(decode_problem(&e));
            }
            (from, problems)
        }
    };
    let from = StateFormat::of(from).name();
    if problems.is_empty() {
        return Ok(Report::new(
            "legal: this is a cube state that can be solved",
            Record::Check(record::Check {
                legal: true,
                from,
                problems,
            }),
        ));
    }
    let summary = format!(
        "illegal: {} problem{}",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    );
    let mut text = summary.clone();
    for p in &problems {
        text.push_str("\n  - ");
        text.push_str(&p.message);
    }
    let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    let line = format!("{summary}: {}", messages.join("; "));
    Ok(Report::new(
        text,
        Record::Check(record::Check {
            legal: false,
            from,
            problems,
        }),
    )
    .with_line(line)
    .with_exit(EXIT_INPUT))
}

/// The rule code of a cubie-level violation.
fn cube_rule(e: &CubeError) -> &'static str {
    match e {
        CubeError::CornerOutOfRange { .. } => "corner-out-of-range",
        CubeError::EdgeOutOfRange { .. } => "edge-out-of-range",
        CubeError::CornersNotAPermutation { .. } => "corners-not-a-permutation",
        CubeError::EdgesNotAPermutation { .. } => "edges-not-a-permutation",
        CubeError::OrientationOutOfRange { .. } => "orientation-out-of-range",
        CubeError::TwistSum { .. } => "twisted-corner",
        CubeError::FlipSum => "flipped-edge",
        CubeError::ParityMismatch { .. } => "parity",
        _ => "illegal",
    }
}

fn cube_problem(e: &CubeError) -> Problem {
    Problem {
        rule: cube_rule(e),
        message: e.to_string(),
    }
}

fn facelet_problem(e: &FaceletError) -> Problem {
    let rule = match e {
        FaceletError::CentresNotDistinct { .. } => "centres-not-distinct",
        FaceletError::ColourCount { .. } => "colour-count",
        FaceletError::InvalidCorner { .. } => "invalid-corner",
        FaceletError::InvalidEdge { .. } => "invalid-edge",
        FaceletError::DuplicateCorner { .. } => "duplicate-corner",
        FaceletError::DuplicateEdge { .. } => "duplicate-edge",
        FaceletError::CentresMisplaced { .. } => "centres-misplaced",
        FaceletError::Unsolvable(e) => cube_rule(e),
        _ => "illegal",
    };
    Problem {
        rule,
        message: e.to_string(),
    }
}

/// A state that reads but is not solvable for a reason beyond its pieces (the centres of a
/// supercube).
fn decode_problem(e: &DecodeError) -> Problem {
    let rule = match e {
        DecodeError::Illegal(e) => cube_rule(e),
        DecodeError::CentreParity => "centre-parity",
        DecodeError::CentresNotARotation => "centres-not-a-rotation",
        _ => "illegal",
    };
    Problem {
        rule,
        message: e.to_string(),
    }
}

/// The stickers, when the input was read as (or forced to be) a facelet string of 54
/// stickers, whether or not they make a cube.
fn facelets_of(input: &Input) -> Option<FaceletCube> {
    if input.format != Some(Format::Facelets) {
        return None;
    }
    let compact: Vec<u8> = input
        .text
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    Some(FaceletCube::new(compact.try_into().ok()?))
}

/// Every rule code `check` can print, as docs/json.md lists them.
#[cfg(test)]
pub const RULES: [&str; 17] = [
    "corner-out-of-range",
    "edge-out-of-range",
    "corners-not-a-permutation",
    "edges-not-a-permutation",
    "orientation-out-of-range",
    "twisted-corner",
    "flipped-edge",
    "parity",
    "centres-not-distinct",
    "colour-count",
    "invalid-corner",
    "invalid-edge",
    "duplicate-corner",
    "duplicate-edge",
    "centres-misplaced",
    "centre-parity",
    "centres-not-a-rotation",
];

#[cfg(test)]
mod tests {
    use super::RULES;

    #[test]
    fn the_docs_list_every_rule() {
        let docs = include_str!("../../../../docs/json.md");
        for rule in RULES.iter().chain(&["illegal"]) {
            assert!(
                docs.contains(&format!("`{rule}`")),
                "docs/json.md lacks {rule}"
            );
        }
    }
}
