//! What the beginner's method and CFOP share: both build the first two layers slot by slot over
//! the cross on D, with macro alphabets searched piece by piece.
//!
//! - [`cross`]: the exact cross tables ([`CrossTables`](cross::CrossTables)), which the beginner
//!   descends one edge at a time and CFOP for an optimal cross;
//! - [`search`]: macros and the small shortest-path searches over them;
//! - here: the slots of the first two layers, the macros written once for one slot and turned to
//!   the others, the loop that fills targets the cheapest first, the invariants of the
//!   layer-by-layer stages and the error of a stage that fails.
//!
//! Private to the crate: the two methods import from here and never from each other.

pub(crate) mod cross;
pub(crate) mod search;

use cube_core::{Cube, Move};

use self::cross::{CROSS_EDGES, solved_cross_mask};
use self::search::{Macro, Piece, path_moves, piece_search};
use crate::SolveError;

/// A slot of the first two layers: the D corner and the E edge below and beside one U corner.
/// Slot `s` holds corner `4 + s` (DFR DLF DBL DRB) and edge `8 + s` (FR FL BL BR).
pub(crate) const N_SLOTS: usize = 4;

/// The slots whose corner or edge position a macro disturbs, as a bit mask.
pub(crate) fn slots_touched(m: &Macro) -> u8 {
    let (cp, co, ep, eo) = (
        m.cube.corner_perm(),
        m.cube.corner_ori(),
        m.cube.edge_perm(),
        m.cube.edge_ori(),
    );
    (0..N_SLOTS).fold(0, |mask, s| {
        let (c, e) = (4 + s, 8 + s);
        let touched = cp[c] as usize != c || co[c] != 0 || ep[e] as usize != e || eo[e] != 0;
        mask | u8::from(touched) << s
    })
}

/// Whether a macro leaves the D-layer edges (the cross) alone.
pub(crate) fn keeps_cross(m: &Macro) -> bool {
    let (ep, eo) = (m.cube.edge_perm(), m.cube.edge_ori());
    CROSS_EDGES
        .iter()
        .all(|&e| ep[e as usize] == e && eo[e as usize] == 0)
}

/// `base` (written for the FR slot) conjugated by `y^k` for k = 0..4, each with the one slot it
/// works on.
///
/// # Panics
/// If a conjugate does not work on exactly one slot or breaks the cross (the tests check every
/// alphabet).
pub(crate) fn macros_per_slot(base: &[&str]) -> Vec<(usize, Macro)> {
    let mut out = Vec::new();
    for notation in base {
        let m = Macro::parse(notation);
        for k in 0..4 {
            let rotated = m.rotated_y(k);
            let touched = slots_touched(&rotated);
            assert!(
                touched.count_ones() == 1 && keeps_cross(&rotated),
                "{notation} turned by y{k}"
            );
            out.push((touched.trailing_zeros() as usize, rotated));
        }
    }
    out
}

/// Whether the corner of slot `s` is home and unturned.
pub(crate) fn corner_solved(cube: &Cube, s: usize) -> bool {
    Piece::Corner(4 + s as u8).place(cube) == Piece::Corner(4 + s as u8).home()
}

/// Whether the edge of slot `s` is home and unflipped.
pub(crate) fn edge_solved(cube: &Cube, s: usize) -> bool {
    Piece::Edge(8 + s as u8).place(cube) == Piece::Edge(8 + s as u8).home()
}

/// The invariant after each stage (index 0..7): what the stage and those before it solved.
pub(crate) fn stage_done(cube: &Cube, stage: usize) -> bool {
    let (cp, co, eo) = (cube.corner_perm(), cube.corner_ori(), cube.edge_ori());
    let checks = [
        solved_cross_mask(cube) == 0b1111,
        (0..N_SLOTS).all(|s| corner_solved(cube, s)),
        (0..N_SLOTS).all(|s| edge_solved(cube, s)),
        eo[..4] == [0; 4],
        cp[..4] == [0, 1, 2, 3],
        co[..4] == [0; 4],
        cube.is_solved(),
    ];
    checks[..=stage].iter().all(|&c| c)
}

/// A stage that did not reach its goal within its iteration guard: a bug in the method, reported
/// rather than looped on.
pub(crate) fn stage_failed(method: &'static str, stage: &str) -> SolveError {
    SolveError::StageFailed {
        method,
        stage: stage.to_string(),
    }
}

/// Runs the cheapest of `targets` (each a set of pieces with its alphabet) repeatedly until all
/// are solved: the shared loop of the beginner's corners and middle edges and CFOP's F2L pairs.
///
/// `solved(cube, s)` says whether target `s` is done; `alphabet(cube, s)` gives its macros.
pub(crate) fn solve_targets_cheapest_first<'a>(
    cube: &mut Cube,
    n_targets: usize,
    method: &'static str,
    stage: &str,
    solved: impl Fn(&Cube, usize) -> bool,
    pieces: impl Fn(usize) -> Vec<Piece>,
    alphabet: impl Fn(&Cube, usize) -> Vec<&'a Macro>,
) -> Result<Vec<Vec<Move>>, SolveError> {
    let mut parts = Vec::new();
    // Each round solves one more target and keeps the solved ones.
    for _round in 0..=n_targets {
        let open: Vec<usize> = (0..n_targets).filter(|&s| !solved(cube, s)).collect();
        if open.is_empty() {
            return Ok(parts);
        }
        let mut best: Option<(usize, Vec<Move>)> = None;
        for &s in &open {
            let macros = alphabet(cube, s);
            if let Some((path, cost)) = piece_search(cube, &pieces(s), &macros)
                && best.as_ref().is_none_or(|(c, _)| cost < *c)
            {
                best = Some((cost, path_moves(&path, &macros)));
            }
        }
        let (_, moves) = best.ok_or_else(|| stage_failed(method, stage))?;
        *cube = cube.apply_moves(&moves);
        parts.push(moves);
    }
    Err(stage_failed(method, stage))
}

/// The moves that undo `moves`.
pub(crate) fn inverse(moves: &[Move]) -> Vec<Move> {
    moves.iter().rev().map(|m| m.inverse()).collect()
}
