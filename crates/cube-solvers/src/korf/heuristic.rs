//! The heuristic of the Korf search: the three pattern databases of a tier looked up on the
//! position, on its inverse and on symmetric conjugates of both, and the maximum taken.
//!
//! Every lookup is a lower bound on the distance: the inverse position and every conjugate by a
//! symmetry have the distance of the position itself. The corner database gains nothing from
//! them (the corner projection of a conjugate or of the inverse has the same corner distance), so
//! it is looked up once, in its reduction by symmetry ([`SymCorners`], which also gives a node
//! the corner distance of all its children at once); each edge database is looked up on every
//! view.
//!
//! A node carries one *pair* of cubes per view: `x` (the position conjugated by the view's
//! symmetry) and `y = x⁻¹`. Both are updated by one composition per move:
//! `x·m` on the right and `m⁻¹·y` on the left (conjugated moves for conjugated views). The pair
//! also makes the edge indexes cheap: the edge-subset coordinate of `x` is "where each tracked
//! piece is and how it is flipped", which is read directly from the bytes of `y` (and that of
//! `y` from the bytes of `x`), with no search for the pieces.
//!
//! The lookups of a node are numbered *slots*: slot 0 is the corner database, then for each pair
//! `p`: edges a and b of `x`, then (with the inverse) edges a and b of `y`.

use cube_core::{Cube, Move, Symmetry};
use cube_tables::Nibbles;
use cube_tables::pdb::{PdbSet, SymCorners};

use cube_tables::pdb::{EdgeIndexer, corner_coord};

/// The most views: the position and seven conjugates.
pub(crate) const MAX_PAIRS: usize = 8;
const _: () = assert!(
    MAX_PAIRS <= 8,
    "Tables::reads packs the views' cubes into 16 bits"
);
/// The most lookups per node: the corners and four edge lookups per view.
pub(crate) const MAX_SLOTS: usize = 1 + 4 * MAX_PAIRS;

/// The cubes of one node: per view, the conjugated position and its inverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pairs {
    pub(crate) x: [Cube; MAX_PAIRS],
    pub(crate) y: [Cube; MAX_PAIRS],
}

impl Pairs {
    /// Every cube solved.
    pub(crate) const SOLVED: Pairs = Pairs {
        x: [Cube::SOLVED; MAX_PAIRS],
        y: [Cube::SOLVED; MAX_PAIRS],
    };

    /// Sets the cube of bit `bit`.
    #[inline(always)]
    pub(crate) fn set(&mut self, bit: usize, cube: Cube) {
        if bit < 8 {
            self.x[bit] = cube;
        } else {
            self.y[bit - 8] = cube;
        }
    }

    /// The cube of bit `bit` after move `m`: `x·m` on the right, `m⁻¹·y` on the left.
    #[inline(always)]
    pub(crate) fn moved(&self, views: &ViewMoves, bit: usize, m: usize) -> Cube {
        if bit < 8 {
            self.x[bit].compose(&views.right(bit, m))
        } else {
            let p = bit - 8;
            views.left(p, m).compose(&self.y[p])
        }
    }
}

/// The move tables of the views: the conjugated move and its cube, and the inverse move's cube.
#[derive(Clone, Debug)]
pub(crate) struct ViewMoves {
    /// `right[p][m]`: the cube of move `m` as seen by view `p`.
    right: [[Cube; Move::COUNT]; MAX_PAIRS],
    /// `left[p][m]`: the cube of the inverse of move `m` as seen by view `p`.
    left: [[Cube; Move::COUNT]; MAX_PAIRS],
    symmetries: [Symmetry; MAX_PAIRS],
}

impl ViewMoves {
    /// The views: the identity, then `conjugates` (at most `MAX_PAIRS - 1`).
    pub(crate) fn new(conjugates: &[Symmetry]) -> ViewMoves {
        assert!(
            conjugates.len() < MAX_PAIRS,
            "at most {} conjugates",
            MAX_PAIRS - 1
        );
        let mut symmetries = [Symmetry::IDENTITY; MAX_PAIRS];
        symmetries[1..=conjugates.len()].copy_from_slice(conjugates);
        let right = symmetries.map(|s| Move::ALL.map(|m| Cube::from_move(s.conjugate_move(m))));
        let left =
            symmetries.map(|s| Move::ALL.map(|m| Cube::from_move(s.conjugate_move(m).inverse())));
        ViewMoves {
            right,
            left,
            symmetries,
        }
    }

    /// The pairs of a start position (the conjugates are computed on stickers, once per search).
    pub(crate) fn pairs(&self, cube: &Cube, n_pairs: usize) -> Pairs {
        let mut pairs = Pairs {
            x: [*cube; MAX_PAIRS],
            y: [cube.inverse(); MAX_PAIRS],
        };
        for p in 1..n_pairs {
            pairs.x[p] = self.symmetries[p].conjugate(cube);
            pairs.y[p] = pairs.x[p].inverse();
        }
        pairs
    }

    /// The cube of move `m` as seen by view `p`.
    #[inline(always)]
    pub(crate) fn right(&self, p: usize, m: usize) -> Cube {
        self.right[p][m]
    }

    /// The cube of the inverse of move `m` as seen by view `p`.
    #[inline(always)]
    pub(crate) fn left(&self, p: usize, m: usize) -> Cube {
        self.left[p][m]
    }

    /// The pairs after move `m` (only the first `n_pairs` are updated).
    #[inline(always)]
    pub(crate) fn apply(&self, pairs: &Pairs, m: usize, n_pairs: usize) -> Pairs {
        let mut out = *pairs;
        for p in 0..n_pairs {
            out.x[p] = pairs.x[p].compose(&self.right[p][m]);
            out.y[p] = self.left[p][m].compose(&pairs.y[p]);
        }
        out
    }
}

/// What a slot looks up: which table, on which cube of which pair.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// 0 for the corners, 1 and 2 for the edge tables.
    table: u8,
    pair: u8,
    /// Edges of `y` (read from the bytes of `x`) rather than edges of `x` (read from `y`).
    of_inverse: bool,
}

/// The lookups of the three tables of a tier (the corners reduced by symmetry) for a given slot
/// layout, from the bytes of the cubes.
#[derive(Debug)]
pub(crate) struct Tables<'t> {
    /// The corner database reduced by symmetry (it stays in the caches), then the edge tables.
    corners: &'t SymCorners,
    tables: [Nibbles<'t>; 3],
    /// The index of each edge subset.
    edges: [EdgeIndexer; 2],
    slots: [Slot; MAX_SLOTS],
    n_slots: usize,
    n_pairs: usize,
}

impl<'t> Tables<'t> {
    /// The lookups of `set` (whose corner database `corners` reduces) for `n_pairs` views, with or
    /// without the `inverse` lookups.
    ///
    /// # Panics
    /// If an edge subset of the tier is not a range of edges (every tier's subsets are), or
    /// `n_pairs` is not in `1..=MAX_PAIRS`.
    pub(crate) fn new<T: AsRef<[u8]>>(
        set: &'t PdbSet<T>,
        corners: &'t SymCorners,
        n_pairs: usize,
        inverse: bool,
    ) -> Tables<'t> {
        assert!((1..=MAX_PAIRS).contains(&n_pairs), "1 to {MAX_PAIRS} views");
        let subsets = set.subsets();
        let first = subsets.map(|s| usize::from(s.pieces()[0]));
        let n_edges = subsets[0].n_edges();
        for (s, &f) in subsets.iter().zip(&first) {
            assert!(
                s.n_edges() == n_edges
                    && s.pieces()
                        .iter()
                        .enumerate()
                        .all(|(j, &p)| usize::from(p) == f + j),
                "the edge subsets of a tier are ranges of the same size"
            );
        }
        let edges = set.edges().each_ref().map(|table| {
            table
                .nibbles()
                .expect("pattern databases are nibble tables")
        });
        let tables = [corners.nibbles(), edges[0], edges[1]];
        let mut slots = [Slot::default(); MAX_SLOTS];
        let mut n_slots = 1;
        for pair in 0..n_pairs as u8 {
            for of_inverse in [false, true].into_iter().take(if inverse { 2 } else { 1 }) {
                for table in 1..=2 {
                    slots[n_slots] = Slot {
                        table,
                        pair,
                        of_inverse,
                    };
                    n_slots += 1;
                }
            }
        }
        Tables {
            corners,
            tables,
            edges: first.map(|f| EdgeIndexer::new(f, n_edges)),
            slots,
            n_slots,
            n_pairs,
        }
    }

    /// The reduced corner database.
    #[inline(always)]
    pub(crate) fn corners(&self) -> &'t SymCorners {
        self.corners
    }

    /// The reduced corner database's entry of the position of `pairs`, and the symmetry that
    /// carries the position there.
    #[inline(always)]
    pub(crate) fn corner_locate(&self, pairs: &Pairs) -> (usize, usize) {
        let (perm, twist) = corner_coord(&pairs.x[0]);
        self.corners.locate(perm, twist)
    }

    /// The number of slots.
    #[inline(always)]
    pub(crate) fn n_slots(&self) -> usize {
        self.n_slots
    }

    /// The number of views.
    #[inline(always)]
    pub(crate) fn n_pairs(&self) -> usize {
        self.n_pairs
    }

    /// The cube that slot `slot` reads, as a bit: `1 << p` for `x` of view `p`, `1 << (8 + p)`
    /// for its `y`.
    #[inline(always)]
    pub(crate) fn reads(&self, slot: usize) -> u32 {
        let info = self.slots[slot];
        let p = u32::from(info.pair);
        // Corners and the inverse's edges read `x`; the position's edges read `y`.
        if info.table == 0 || info.of_inverse {
            1 << p
        } else {
            1 << (8 + p)
        }
    }

    /// The index of slot `slot` of `pairs`.
    #[inline(always)]
    pub(crate) fn index(&self, pairs: &Pairs, slot: usize) -> usize {
        let info = self.slots[slot];
        let p = usize::from(info.pair);
        match (info.table, info.of_inverse) {
            (0, _) => self.corner_locate(pairs).0,
            (t, false) => self.edges[usize::from(t) - 1].index(&pairs.y[p]),
            (t, true) => self.edges[usize::from(t) - 1].index(&pairs.x[p]),
        }
    }

    /// The index of edge slot `slot` (not 0) from the cube it reads (see [`Tables::reads`]).
    #[inline(always)]
    pub(crate) fn edge_index(&self, slot: usize, cube: &Cube) -> usize {
        self.edges[usize::from(self.slots[slot].table) - 1].index(cube)
    }

    /// Starts loading the entry `index` of slot `slot`.
    #[inline(always)]
    pub(crate) fn prefetch(&self, slot: usize, index: usize) {
        self.tables[usize::from(self.slots[slot].table)].prefetch(index);
    }

    /// The entry `index` of slot `slot`.
    #[inline(always)]
    pub(crate) fn get(&self, slot: usize, index: usize) -> u8 {
        self.tables[usize::from(self.slots[slot].table)].get(index)
    }

    /// Every slot's value for `pairs`, and their maximum.
    pub(crate) fn evaluate(&self, pairs: &Pairs) -> ([u8; MAX_SLOTS], u8) {
        let mut h = [0u8; MAX_SLOTS];
        for (slot, value) in h.iter_mut().enumerate().take(self.n_slots) {
            *value = self.get(slot, self.index(pairs, slot));
        }
        let max = h.iter().copied().max().unwrap_or(0);
        (h, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn views_update_by_conjugated_moves() {
        let views = ViewMoves::new(&[
            Symmetry::X,
            Symmetry::from_index(30),
            Symmetry::Y,
            Symmetry::from_index(40),
            Symmetry::Z,
            Symmetry::from_index(47),
            Symmetry::from_index(7),
        ]);
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        let cube = Cube::random(&mut rng);
        let mut pairs = views.pairs(&cube, MAX_PAIRS);
        let mut moved = cube;
        for step in 0..40 {
            let m = (step * 7 + 3) % 18;
            pairs = views.apply(&pairs, m, MAX_PAIRS);
            moved = moved.apply_move(Move::from_index(m));
            assert_eq!(pairs, views.pairs(&moved, MAX_PAIRS));
        }
    }
}
