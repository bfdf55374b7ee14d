//! `cube-cli show`: a state as a net of its six faces, in the terminal and as SVG.
//!
//! The net is the usual cross: U on top, then L F R B in a row, then D. Colours follow the
//! standard scheme (U white, F green, R red, B blue, L orange, D yellow).

use std::fmt::Write as _;
use std::path::Path;

use cube_core::Face;

use crate::input::Input;
use crate::output::{CliError, Outcome, Report};
use crate::record::{self, Record};

/// Where each face's 3x3 block sits in the net, in units of one face (column, row).
const LAYOUT: [(Face, usize, usize); 6] = [
    (Face::U, 1, 0),
    (Face::L, 0, 1),
    (Face::F, 1, 1),
    (Face::R, 2, 1),
    (Face::B, 3, 1),
    (Face::D, 1, 2),
];

fn ansi_background(face: Face) -> &'static str {
    match face {
        Face::U => "\x1b[30;107m",
        Face::R => "\x1b[30;41m",
        Face::F => "\x1b[30;42m",
        Face::D => "\x1b[30;103m",
        Face::L => "\x1b[30;48;5;208m",
        Face::B => "\x1b[97;44m",
    }
}

fn svg_fill(face: Face) -> &'static str {
    match face {
        Face::U => "#ffffff",
        Face::R => "#c41e3a",
        Face::F => "#009e60",
        Face::D => "#ffd500",
        Face::L => "#ff5800",
        Face::B => "#0051ba",
    }
}

pub fn run(input: &Input, no_color: bool, svg: Option<&Path>) -> Outcome {
    let (_, state) = input.state()?;
    let colours = *state.facelets().colours();
    let faces: Vec<Face> = colours
        .iter()
        .map(|&c| Face::from_letter(c as char).expect("facelets are written in URFDLB"))
        .collect();
    let colour = !no_color && crate::output::stdout_colored();
    let mut grid = vec![vec![None; 12]; 9];
    for (face, col, row) in LAYOUT {
        for i in 0..9 {
            grid[row * 3 + i / 3][col * 3 + i % 3] = Some(faces[face.index() * 9 + i]);
        }
    }
    let mut text = String::new();
    for (r, row) in grid.iter().enumerate() {
        let last = row.iter().rposition(Option::is_some).unwrap_or(0);
        for (c, cell) in row.iter().enumerate().take(last + 1) {
            if c % 3 == 0 && c > 0 {
                text.push(' ');
            }
            match cell {
                None => text.push_str("  "),
                Some(face) if colour => {
                    let _ = write!(text, "{}{} \x1b[0m", ansi_background(*face), face.letter());
                }
                Some(face) => {
                    let _ = write!(text, "{} ", face.letter());
                }
            }
        }
        let trimmed = text.trim_end_matches(' ').len();
        text.truncate(trimmed);
        if r + 1 < grid.len() {
            text.push('\n');
        }
    }
    match svg {
        // `--svg -`: the SVG on standard output, instead of the net.
        Some(path) if path == Path::new("-") => text = svg_net(&grid).trim_end().to_string(),
        Some(path) => crate::output::write_file(path, svg_net(&grid).as_bytes())
            .map_err(|e| CliError::io(format!("writing {}: {e}", path.display())))?,
        None => {}
    }
    let facelets: String = faces.iter().map(|f| f.letter()).collect();
    Ok(Report::new(
        text,
        Record::Net(record::Net {
            facelets,
            svg: svg.map(|p| p.display().to_string()),
        }),
    ))
}

fn svg_net(grid: &[Vec<Option<Face>>]) -> String {
    const CELL: usize = 30;
    let (width, height) = (12 * CELL + 20, 9 * CELL + 20);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n"
    );
    for (r, row) in grid.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            if let Some(face) = cell {
                let (x, y) = (10 + c * CELL + (c / 3) * 2, 10 + r * CELL + (r / 3) * 2);
                let _ = writeln!(
                    svg,
                    "  <rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{}\" stroke=\"#000\" stroke-width=\"2\"/>",
                    CELL - 2,
                    CELL - 2,
                    svg_fill(*face)
                );
            }
        }
    }
    svg.push_str("</svg>\n");
    svg
}
