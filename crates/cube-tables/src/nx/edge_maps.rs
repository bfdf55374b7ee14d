//! How the bake finds the edge coordinate of a neighbour: the coordinate after a move, conjugated
//! by the symmetry that reduces the neighbour's corners.
//!
//! In general by two full tables (one row per move, one per symmetry: 4 MB each for a million
//! edge coordinates), two dependent random reads per neighbour ([`FullMaps`]). For EO3 x EP1
//! (nx-eo3ep1, the coordinate `flips * 495 + slice`) the coordinate splits: every flip is kept
//! by position, so a move or a symmetry sends the flips through a map of the flips alone (the
//! positions permuted, the twelfth flip the parity of the others) XORed with flips that depend on
//! the E-slice placement alone (the E-slice edges that a symmetry turns about the U-D axis change
//! their flip), and the placement through a map of the placement alone. Three small tables
//! (2,048 + 495 + 495 entries) per move and symmetry, composed per pair, replace the two reads of
//! 4 MB tables by reads that stay in the first-level cache ([`SplitMaps`]).

use cube_core::{Cube, Move};
use rayon::prelude::*;

use super::coord::{Eo, Ep, N_SLICE, NxSym, Subgroup};

/// A map of the edge coordinate.
pub(super) trait EdgeMap: Copy {
    /// The image of edge coordinate `edge`.
    fn apply(self, edge: u32) -> u32;
}

/// A map of the edge coordinate read block by block: a block is the 495 coordinates
/// `block * 495 + slice` (the E-slice placements of one orientation and order of the other edges),
/// and what the map needs of the block is read once for all of them.
pub(super) trait BlockMap: EdgeMap {
    /// What the map reads of a block.
    type Block: Copy;

    /// What the map reads of block `block`.
    fn block(self, block: u32) -> Self::Block;

    /// The image of the coordinate `block * 495 + slice`, given what [`block`](Self::block)
    /// read of its block.
    fn apply_in(self, block: Self::Block, slice: u32) -> u32;
}

/// The maps a bake level reads.
pub(super) trait EdgeMaps: Sync {
    /// Move `m`, then the conjugation by symmetry `k`.
    type After<'a>: BlockMap
    where
        Self: 'a;
    /// The conjugation by symmetry `k`.
    type Conj<'a>: EdgeMap
    where
        Self: 'a;

    /// The edge coordinate after move `m`, conjugated by symmetry `k`.
    fn after(&self, m: usize, k: usize) -> Self::After<'_>;

    /// The edge coordinate conjugated by symmetry `k`.
    fn conj(&self, k: usize) -> Self::Conj<'_>;
}

/// The edge coordinate of `subgroup` after `m`, the move of a cube.
fn moved(subgroup: Subgroup, m: Move, edge: u32) -> u32 {
    let (ep, eo) = subgroup.edge_unrank(edge);
    let cube = Cube::from_parts(Cube::SOLVED.corner_perm(), [0; 8], ep, eo).expect("well formed");
    let after = cube.apply_move(m);
    subgroup.edge_coord(&after.edge_perm(), &after.edge_ori())
}

/// The edge coordinate of `subgroup` conjugated by symmetry `k` of `sym`.
fn conjugated(subgroup: Subgroup, sym: &NxSym, k: usize, edge: u32) -> u32 {
    let (ep, eo) = subgroup.edge_unrank(edge);
    let (ep, eo) = sym.conjugator(k).edges(&ep, &eo);
    subgroup.edge_coord(&ep, &eo)
}

/// Full tables: `edge[m * n_edges + edge]` after each move, `conj[k * n_edges + edge]` per
/// symmetry.
pub(super) struct FullMaps {
    edge: Vec<u32>,
    conj: Vec<u32>,
    n_edges: usize,
}

impl FullMaps {
    /// The tables of `subgroup` for `moves` and the 16 symmetries of `sym`.
    pub(super) fn new(subgroup: Subgroup, moves: &[Move], sym: &NxSym) -> FullMaps {
        let n_edges = subgroup.n_edges();
        // `n_rows` rows of `n_edges` images, row `i` of `f(i, edge)`.
        let rows = |n_rows: usize, f: &(dyn Fn(usize, u32) -> u32 + Sync)| {
            let mut table = vec![0u32; n_rows * n_edges];
            table
                .par_chunks_mut(n_edges)
                .enumerate()
                .for_each(|(i, row)| {
                    row.par_iter_mut()
                        .enumerate()
                        .for_each(|(e, to)| *to = f(i, e as u32));
                });
            table
        };
        FullMaps {
            edge: rows(moves.len(), &|m, e| moved(subgroup, moves[m], e)),
            conj: rows(16, &|k, e| conjugated(subgroup, sym, k, e)),
            n_edges,
        }
    }

    /// Row `i` of `table`.
    fn row<'a>(&self, table: &'a [u32], i: usize) -> &'a [u32] {
        &table[i * self.n_edges..(i + 1) * self.n_edges]
    }
}

/// Two full rows read in turn.
#[derive(Clone, Copy)]
pub(super) struct FullAfter<'a> {
    edge_move: &'a [u32],
    conj: &'a [u32],
}

impl EdgeMap for FullAfter<'_> {
    #[inline]
    fn apply(self, edge: u32) -> u32 {
        self.conj[self.edge_move[edge as usize] as usize]
    }
}

/// A block of full tables is where its coordinates start.
impl BlockMap for FullAfter<'_> {
    type Block = u32;

    #[inline]
    fn block(self, block: u32) -> u32 {
        block * N_SLICE as u32
    }

    #[inline]
    fn apply_in(self, start: u32, slice: u32) -> u32 {
        self.apply(start + slice)
    }
}

/// One full row.
#[derive(Clone, Copy)]
pub(super) struct FullConj<'a>(&'a [u32]);

impl EdgeMap for FullConj<'_> {
    #[inline]
    fn apply(self, edge: u32) -> u32 {
        self.0[edge as usize]
    }
}

impl EdgeMaps for FullMaps {
    type After<'a> = FullAfter<'a>;
    type Conj<'a> = FullConj<'a>;

    #[inline]
    fn after(&self, m: usize, k: usize) -> FullAfter<'_> {
        FullAfter {
            edge_move: self.row(&self.edge, m),
            conj: self.row(&self.conj, k),
        }
    }

    #[inline]
    fn conj(&self, k: usize) -> FullConj<'_> {
        FullConj(self.row(&self.conj, k))
    }
}

/// A map of `flips * 495 + slice` (EO3 x EP1) that splits:
/// `(flips, slice) -> (flips_map[flips] ^ xor[slice], slice_map[slice])`.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct SplitMap {
    flips: Vec<u16>,
    xor: Vec<u16>,
    slice: Vec<u16>,
}

impl SplitMap {
    /// The split of `f`, read off its images of `(flips, 0)` and `(0, slice)`: exact when `f`
    /// has the split form (for EO3 x EP1's moves and symmetries, which the tests check over
    /// every coordinate).
    fn of(f: impl Fn(u32) -> u32) -> SplitMap {
        let n_slice = N_SLICE as u32;
        let (xor, slice): (Vec<u16>, Vec<u16>) = (0..n_slice)
            .map(|s| {
                let to = f(s);
                ((to / n_slice) as u16, (to % n_slice) as u16)
            })
            .unzip();
        let flips = (0..Eo::Eo3.count() as u32)
            .map(|r| (f(r * n_slice) / n_slice) as u16 ^ xor[0])
            .collect();
        SplitMap { flips, xor, slice }
    }

    /// `self`, then `next`.
    fn then(&self, next: &SplitMap) -> SplitMap {
        SplitMap::of(|edge| next.apply(self.apply(edge)))
    }
}

impl EdgeMap for &SplitMap {
    #[inline]
    fn apply(self, edge: u32) -> u32 {
        let (flips, slice) = (edge / N_SLICE as u32, edge % N_SLICE as u32);
        self.apply_in(self.block(flips), slice)
    }
}

/// A block of EO3 x EP1 is one set of flips: its image under the flips map is read once.
impl BlockMap for &SplitMap {
    type Block = u16;

    #[inline]
    fn block(self, flips: u32) -> u16 {
        self.flips[flips as usize]
    }

    #[inline]
    fn apply_in(self, to_flips: u16, slice: u32) -> u32 {
        let to_flips = to_flips ^ self.xor[slice as usize];
        u32::from(to_flips) * N_SLICE as u32 + u32::from(self.slice[slice as usize])
    }
}

/// The split maps of EO3 x EP1: per symmetry, and per move composed with each symmetry.
pub(super) struct SplitMaps {
    /// `after[m * 16 + k]`.
    after: Vec<SplitMap>,
    conj: Vec<SplitMap>,
}

impl SplitMaps {
    /// The maps of `subgroup` for `moves` and the 16 symmetries of `sym`; `None` when the
    /// subgroup's coordinate does not split (every subgroup but EO3 x EP1).
    pub(super) fn new(subgroup: Subgroup, moves: &[Move], sym: &NxSym) -> Option<SplitMaps> {
        if (subgroup.eo, subgroup.ep) != (Eo::Eo3, Ep::Ep1) {
            return None;
        }
        let conj: Vec<SplitMap> = (0..16)
            .map(|k| SplitMap::of(|e| conjugated(subgroup, sym, k, e)))
            .collect();
        let after = moves
            .iter()
            .flat_map(|&m| {
                let moved = SplitMap::of(|e| moved(subgroup, m, e));
                conj.iter().map(move |k| moved.then(k))
            })
            .collect();
        Some(SplitMaps { after, conj })
    }
}

impl EdgeMaps for SplitMaps {
    type After<'a> = &'a SplitMap;
    type Conj<'a> = &'a SplitMap;

    #[inline]
    fn after(&self, m: usize, k: usize) -> &SplitMap {
        &self.after[m * 16 + k]
    }

    #[inline]
    fn conj(&self, k: usize) -> &SplitMap {
        &self.conj[k]
    }
}

#[cfg(test)]
mod tests {
    use super::super::bake::metric_moves;
    use super::*;
    use crate::file::id::Metric;

    /// The split maps of nx-eo3ep1 agree with the full tables (which rank and unrank every
    /// coordinate through a cube) on every edge coordinate, for every move then every symmetry
    /// and for every symmetry alone, in both metrics' moves.
    #[test]
    fn the_eo3ep1_split_maps_equal_the_full_tables_everywhere() {
        let sym = NxSym::new();
        let subgroup = Subgroup {
            eo: Eo::Eo3,
            ep: Ep::Ep1,
        };
        let moves = metric_moves(Metric::Htm);
        let full = FullMaps::new(subgroup, &moves, &sym);
        let split = SplitMaps::new(subgroup, &moves, &sym).expect("EO3 x EP1 splits");
        let n_edges = subgroup.n_edges() as u32;
        for k in 0..16 {
            let bad = (0..n_edges)
                .into_par_iter()
                .find_any(|&e| split.conj(k).apply(e) != full.conj(k).apply(e));
            assert_eq!(bad, None, "symmetry {k}");
            for (m, name) in moves.iter().enumerate() {
                let bad = (0..n_edges)
                    .into_par_iter()
                    .find_any(|&e| split.after(m, k).apply(e) != full.after(m, k).apply(e));
                assert_eq!(bad, None, "move {name} then symmetry {k}");
            }
        }
        // The quarter-turn moves are a subset of the face turns: their maps are the same ones.
        let qtm = metric_moves(Metric::Qtm);
        let split_qtm = SplitMaps::new(subgroup, &qtm, &sym).expect("EO3 x EP1 splits");
        for (i, m) in qtm.iter().enumerate() {
            let j = moves.iter().position(|x| x == m).expect("a face turn");
            for k in 0..16 {
                assert_eq!(split_qtm.after(i, k), split.after(j, k), "{m}, {k}");
            }
        }
    }
}
