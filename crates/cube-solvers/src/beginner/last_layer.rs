//! The beginner's last layer: top cross, corner permutation, corner orientation, edge
//! permutation (stages 4 to 7).
//!
//! Stages 4, 5 and 7 are shortest-path searches over tiny alphabets (U turns and one algorithm,
//! or its conjugates), keyed on the part of the last layer the stage solves; the searches choose
//! the U alignments, so which way an algorithm cycles its pieces is read off the cubies, never
//! assumed. Stage 6 is the procedure beginners learn: `R' D' R D` pairs on the corner at URF,
//! with U turns bringing each twisted corner there.

use std::sync::OnceLock;

use cube_core::{Cube, Move};

use super::search::{Macro, key_search, path_moves, u_turns};
use super::stage_failed;
use crate::SolveError;

/// The top-cross algorithm.
const TOP_CROSS: &str = "F R U R' U' F'";
/// An outer-turn A-perm (a corner 3-cycle); the search also uses its inverse.
const A_PERM: &str = "R' F R' B2 R F' R' B2 R2";
/// An outer-turn U-perm (an edge 3-cycle); the search also uses its inverse.
const U_PERM: &str = "R U' R U R U R U' R' U' R2";
/// The corner-twisting pair, done on the corner at URF.
const TWIST_PAIR: &str = "R' D' R D R' D' R D";

struct Alphabets {
    top_cross: Vec<Macro>,
    corner_perm: Vec<Macro>,
    edge_perm: Vec<Macro>,
    twist_pair: Macro,
}

fn alphabets() -> &'static Alphabets {
    static ALPHABETS: OnceLock<Alphabets> = OnceLock::new();
    ALPHABETS.get_or_init(|| {
        let with_inverse = |notation: &str| {
            let m = Macro::parse(notation);
            let inverse: Vec<Move> = m.moves.iter().rev().map(|m| m.inverse()).collect();
            [m, Macro::new(inverse)]
        };
        let mut top_cross = u_turns().to_vec();
        top_cross.push(Macro::parse(TOP_CROSS));
        let mut corner_perm = u_turns().to_vec();
        corner_perm.extend(with_inverse(A_PERM));
        // The U-perm and its inverse conjugated by U^k: the corners stay home.
        let mut edge_perm = Vec::new();
        for m in with_inverse(U_PERM) {
            for k in 0..4u8 {
                let mut moves = Vec::new();
                if k > 0 {
                    moves.push(Move::new(cube_core::Face::U, k));
                }
                moves.extend(&m.moves);
                if k > 0 {
                    moves.push(Move::new(cube_core::Face::U, 4 - k));
                }
                edge_perm.push(Macro::new(cube_core::simplify(&moves)));
            }
        }
        Alphabets {
            top_cross,
            corner_perm,
            edge_perm,
            twist_pair: Macro::parse(TWIST_PAIR),
        }
    })
}

/// The flips of the edges at UR UF UL UB, as four bits.
fn top_flips(cube: &Cube) -> u32 {
    let eo = cube.edge_ori();
    (0..4).fold(0, |key, p| key | (eo[p] as u32) << p)
}

/// The pieces at the four U positions (four values in 0..16 packed in base 16).
fn top_pieces(perm: &[u8]) -> u32 {
    perm[..4].iter().fold(0, |key, &p| key * 16 + p as u32)
}

/// [`top_pieces`] of the solved layer.
const TOP_HOME: u32 = 0x0123;

/// The turns of last-layer stage `stage` (3..7) from `cube`, which the earlier stages solved.
pub(super) fn run(cube: &Cube, stage: usize, label: &str) -> Result<Vec<Move>, SolveError> {
    let a = alphabets();
    let search = |key: fn(&Cube) -> u32, goal: u32, macros: &[Macro]| {
        let macros: Vec<&Macro> = macros.iter().collect();
        key_search(cube, key, goal, &macros)
            .map(|path| path_moves(&path, &macros))
            .ok_or_else(|| stage_failed("beginner", label))
    };
    match stage {
        3 => search(top_flips, 0, &a.top_cross),
        4 => search(|c| top_pieces(&c.corner_perm()), TOP_HOME, &a.corner_perm),
        5 => orient_corners(cube, &a.twist_pair, label),
        _ => search(|c| top_pieces(&c.edge_perm()), TOP_HOME, &a.edge_perm),
    }
}

/// Stage 6: for each twisted top corner, U turns bring it to URF and `R' D' R D` pairs untwist
/// it; then U turns bring the corners home again.
fn orient_corners(start: &Cube, twist_pair: &Macro, label: &str) -> Result<Vec<Move>, SolveError> {
    let mut cube = *start;
    let mut moves = Vec::new();
    let turn_u = |cube: &mut Cube, moves: &mut Vec<Move>, k: u8| {
        if k > 0 {
            let m = Move::new(cube_core::Face::U, k);
            *cube = cube.apply_move(m);
            moves.push(m);
        }
    };
    // At most four corners, each needing at most two pairs (a pair turns it a third).
    for _corner in 0..4 {
        let Some(k) = (0..4u8).find(|&k| {
            let turned = if k == 0 {
                cube
            } else {
                cube.apply_move(Move::new(cube_core::Face::U, k))
            };
            turned.corner_ori()[0] != 0
        }) else {
            break;
        };
        turn_u(&mut cube, &mut moves, k);
        let mut n_pairs = 0;
        while cube.corner_ori()[0] != 0 {
            if n_pairs == 2 {
                return Err(stage_failed("beginner", label));
            }
            cube = cube.compose(&twist_pair.cube);
            moves.extend(&twist_pair.moves);
            n_pairs += 1;
        }
    }
    // Every top corner is oriented: bring them home.
    let k = (0..4u8)
        .find(|&k| {
            let turned = if k == 0 {
                cube
            } else {
                cube.apply_move(Move::new(cube_core::Face::U, k))
            };
            top_pieces(&turned.corner_perm()) == TOP_HOME
        })
        .ok_or_else(|| stage_failed("beginner", label))?;
    turn_u(&mut cube, &mut moves, k);
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::beginner::stage_done;

    #[test]
    fn algorithms_do_what_the_stages_need() {
        let a = alphabets();
        let f2l_kept = |cube: &Cube| stage_done(cube, 2);
        // The A-perm cycles three corners and nothing else; the U-perm three edges.
        for m in &a.corner_perm[3..] {
            assert!(f2l_kept(&m.cube));
            assert_eq!(m.cube.edge_perm(), std::array::from_fn(|i| i as u8));
            assert_eq!(m.cube.corner_ori(), [0; 8]);
            assert_eq!(
                m.cube.corner_perm()[..4]
                    .iter()
                    .enumerate()
                    .filter(|&(p, &c)| p as u8 != c)
                    .count(),
                3
            );
        }
        for m in &a.edge_perm {
            assert!(f2l_kept(&m.cube) && stage_done(&m.cube, 5));
            assert_eq!(
                m.cube.edge_perm()[..4]
                    .iter()
                    .enumerate()
                    .filter(|&(p, &e)| p as u8 != e)
                    .count(),
                3
            );
        }
        // The top-cross algorithm keeps the first two layers.
        assert!(f2l_kept(&a.top_cross[3].cube));
        // A twisting pair keeps the corner at URF in place and turns it.
        let pair = &a.twist_pair.cube;
        assert_eq!(pair.corner_perm()[0], 0);
        assert_ne!(pair.corner_ori()[0], 0);
        assert_eq!(pair.edge_perm()[..4], [0, 1, 2, 3]);
        assert_eq!(pair.edge_ori(), [0; 12]);
        assert!((1..4).all(|c| pair.corner_perm()[c] == c as u8 && pair.corner_ori()[c] == 0));
    }
}
