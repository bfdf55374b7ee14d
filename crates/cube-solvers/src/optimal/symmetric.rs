//! Symmetric positions: the symmetries that fix a position, one prefix per orbit of prefixes, and
//! the images of solutions under those symmetries.

use std::collections::{HashMap, HashSet};

use cube_core::{Cube, Move, Symmetry, simplify};

/// The symmetries other than the identity that fix `cube` (`s x s⁻¹ = x`).
pub(super) fn position_symmetries(cube: &Cube) -> Vec<Symmetry> {
    Symmetry::all()
        .filter(|&s| s != Symmetry::IDENTITY && s.conjugate(cube) == *cube)
        .collect()
}

/// The canonical form of `moves` conjugated by `s`.
fn conjugate_moves(s: Symmetry, moves: &[Move]) -> Vec<Move> {
    let image: Vec<Move> = moves.iter().map(|&m| s.conjugate_move(m)).collect();
    simplify(&image)
}

/// Whether each prefix starts a search when the position has `symmetries`: the first prefix of
/// each orbit of canonical prefixes under `p -> canon(s(p))`.
pub(crate) fn orbit_starts(prefixes: &[Vec<u8>], symmetries: &[Symmetry]) -> Vec<bool> {
    let index: HashMap<&[u8], usize> = prefixes
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_slice(), i))
        .collect();
    prefixes
        .iter()
        .enumerate()
        .map(|(i, prefix)| {
            let moves: Vec<Move> = prefix
                .iter()
                .map(|&m| Move::from_index(usize::from(m)))
                .collect();
            symmetries.iter().all(|&s| {
                let image: Vec<u8> = conjugate_moves(s, &moves)
                    .iter()
                    .map(|m| m.index() as u8)
                    .collect();
                // A conjugated canonical sequence stays canonical up to the order of opposite
                // faces, so its canonical form is another prefix of the same length.
                index.get(image.as_slice()).is_none_or(|&j| j >= i)
            })
        })
        .collect()
}

/// `solutions` and their images under `symmetries` (canonical), each once, the found ones first.
pub(super) fn with_images(solutions: Vec<Vec<Move>>, symmetries: &[Symmetry]) -> Vec<Vec<Move>> {
    let mut seen = HashSet::new();
    let mut out: Vec<Vec<Move>> = Vec::new();
    let images: Vec<Vec<Move>> = solutions
        .iter()
        .flat_map(|moves| symmetries.iter().map(|&s| conjugate_moves(s, moves)))
        .collect();
    for moves in solutions.into_iter().chain(images) {
        if seen.insert(moves.clone()) {
            out.push(moves);
        }
    }
    out
}

/// Keeps the first solution of each class of solutions related by a symmetry of `cube`.
pub(super) fn distinct_up_to_symmetry(cube: &Cube, solutions: Vec<Vec<Move>>) -> Vec<Vec<Move>> {
    let symmetries = position_symmetries(cube);
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    for moves in solutions {
        if seen.contains(&moves) {
            continue;
        }
        for &s in &symmetries {
            seen.insert(conjugate_moves(s, &moves));
        }
        seen.insert(moves.clone());
        kept.push(moves);
    }
    kept
}
