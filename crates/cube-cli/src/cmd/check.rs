//! `cube-cli check`: whether a state is a legal cube, and every rule it breaks.

use cube_core::FaceletCube;
use cube_encode::Format;
use serde_json::json;

use crate::args::StateFormat;
use crate::input::Input;
use crate::output::{EXIT_INPUT, Outcome, Report};

pub fn run(input: &Input) -> Outcome {
    let problems: Vec<String> = match facelets_of(input) {
        // Stickers are checked as stickers, so that every sticker mistake is named (colour
        // counts, centres, impossible pieces) rather than only the first.
        Some(facelets) => facelets
            .problems()
            .iter()
            .map(ToString::to_string)
            .collect(),
        None => {
            let (_, state) = input.state()?;
            let mut problems: Vec<String> = state
                .cube()
                .violations()
                .iter()
                .map(ToString::to_string)
                .collect();
            if let (true, Err(e)) = (problems.is_empty(), state.validate()) {
                problems.push(e.to_string());
            }
            problems
        }
    };
    let format = input
        .format
        .map_or("unknown".to_string(), |f| StateFormat::of(f).name());
    if problems.is_empty() {
        return Ok(Report::new(
            "legal: this is a cube state that can be solved",
            json!({ "legal": true, "format": format, "problems": [] }),
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
        text.push_str(p);
    }
    Ok(Report::new(
        text,
        json!({ "legal": false, "format": format, "problems": problems }),
    )
    .with_line(format!("{summary}: {}", problems.join("; ")))
    .with_exit(EXIT_INPUT))
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
