//! `cube-cli check`: whether a state is a legal cube, and every rule it breaks, each with a
//! stable rule code for programs (the list is in docs/json.md).

use crate::args::StateFormat;
use crate::input::Input;
use crate::output::{EXIT_INPUT, Outcome, Report};
use crate::record::{self, Problem, Record};

pub fn run(input: &Input) -> Outcome {
    // Read leniently: every rule is checked, even of what no cube has (cube-encode's check).
    let (from, problems) = input.problems()?;
    let problems: Vec<Problem> = problems
        .iter()
        .map(|p| Problem {
            rule: p.rule(),
            message: p.to_string(),
        })
        .collect();
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

/// Every rule code `check` can print, as docs/json.md lists them.
#[cfg(test)]
pub const RULES: [&str; 18] = [
    "corner-out-of-range",
    "edge-out-of-range",
    "corners-not-a-permutation",
    "edges-not-a-permutation",
    "orientation-out-of-range",
    "twisted-corner",
    "flipped-edge",
    "parity",
    "centres-not-distinct",
    "unknown-colour",
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
