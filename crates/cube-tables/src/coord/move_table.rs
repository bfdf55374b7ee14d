//! Move tables ("XMove" in min2phase): the coordinate after each move, for every coordinate, and
//! [`Space`], the state spaces (a coordinate or a product of two) that breadth-first searches and
//! step solvers walk.

use std::marker::PhantomData;

use cube_core::{Cube, Move, MoveSet};
use rayon::prelude::*;

use crate::coord::Coord;

/// Rows per rayon task when building a move table.
const ROWS_PER_TASK: usize = 2048;

/// For a coordinate `C` and a set of moves (the table's columns), the coordinate after each move:
/// `COUNT x n_columns` entries of `u16`, row-major.
///
/// Built from cube-core's cubie moves: row `i` holds `C::from_cube(&C::to_cube(i).apply_move(m))`.
/// The entries are a plain `u16` payload ([`MoveTable::as_bytes`]) so a table can be cached in a
/// table file and rebuilt with [`MoveTable::from_entries`].
///
/// ```
/// use cube_core::{Cube, Move, MoveSet};
/// use cube_tables::{Coord, MoveTable, Twist};
///
/// let table = MoveTable::<Twist>::new(MoveSet::ALL);
/// let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::F3]);
/// assert_eq!(table.apply(table.apply(0, Move::R1), Move::F3), Twist::from_cube(&cube));
/// ```
#[derive(Clone, Debug)]
pub struct MoveTable<C: Coord> {
    moves: Vec<Move>,
    column_of: [u8; 18],
    entries: Vec<u16>,
    coord: PhantomData<C>,
}

impl<C: Coord> MoveTable<C> {
    /// Builds the table for the moves of `moves`, in move-index order (rows in parallel).
    ///
    /// # Panics
    /// If `moves` is empty or holds a move outside `C::MOVES`.
    pub fn new(moves: MoveSet) -> MoveTable<C> {
        let (moves, column_of) = columns::<C>(moves);
        let n_columns = moves.len();
        let mut entries = vec![0u16; C::COUNT * n_columns];
        entries
            .par_chunks_mut(n_columns * ROWS_PER_TASK)
            .enumerate()
            .for_each(|(task, rows)| {
                for (row_idx, row) in rows.chunks_mut(n_columns).enumerate() {
                    let cube = C::to_cube((task * ROWS_PER_TASK + row_idx) as u32);
                    for (entry, &m) in row.iter_mut().zip(&moves) {
                        *entry = C::from_cube(&cube.apply_move(m)) as u16;
                    }
                }
            });
        MoveTable {
            moves,
            column_of,
            entries,
            coord: PhantomData,
        }
    }

    /// Rebuilds a table from entries written by [`MoveTable::entries`], for the same `moves`.
    ///
    /// Returns `None` when the length is wrong or an entry is out of range.
    ///
    /// # Panics
    /// As [`MoveTable::new`].
    pub fn from_entries(moves: MoveSet, entries: Vec<u16>) -> Option<MoveTable<C>> {
        let (moves, column_of) = columns::<C>(moves);
        let valid = entries.len() == C::COUNT * moves.len()
            && entries.iter().all(|&e| (e as usize) < C::COUNT);
        valid.then_some(MoveTable {
            moves,
            column_of,
            entries,
            coord: PhantomData,
        })
    }

    /// The moves of the columns, in order.
    #[inline]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The number of columns (moves).
    #[inline]
    pub fn n_columns(&self) -> usize {
        self.moves.len()
    }

    /// The coordinate after the move of column `column` from coordinate `coord`.
    #[inline]
    pub fn get(&self, coord: u32, column: usize) -> u32 {
        self.entries[coord as usize * self.moves.len() + column] as u32
    }

    /// The coordinate after `m` from coordinate `coord`.
    ///
    /// # Panics
    /// If `m` is not one of the table's moves.
    #[inline]
    pub fn apply(&self, coord: u32, m: Move) -> u32 {
        let column = self.column_of[m.index()];
        assert!(
            column != u8::MAX,
            "move {m} is not in the {} move table",
            C::NAME
        );
        self.get(coord, column as usize)
    }

    /// The row of `coord`: the coordinate after each column's move.
    #[inline]
    pub fn row(&self, coord: u32) -> &[u16] {
        let n = self.moves.len();
        &self.entries[coord as usize * n..coord as usize * n + n]
    }

    /// All entries, row-major.
    pub fn entries(&self) -> &[u16] {
        &self.entries
    }

    /// The entries as little-endian bytes on this (little-endian) host: the payload of a cached
    /// table file.
    pub fn as_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.entries)
    }
}

fn columns<C: Coord>(moves: MoveSet) -> (Vec<Move>, [u8; 18]) {
    assert!(!moves.is_empty(), "a move table needs at least one move");
    assert!(
        moves.intersection(C::MOVES) == moves,
        "the {} coordinate is not defined for all of {moves:?}",
        C::NAME
    );
    let moves: Vec<Move> = moves.iter().collect();
    let mut column_of = [u8::MAX; 18];
    for (column, m) in moves.iter().enumerate() {
        column_of[m.index()] = column as u8;
    }
    (moves, column_of)
}

/// A finite state space that a list of moves acts on: a coordinate with its move table, or a
/// [`Product`] of two. Breadth-first searches ([`DistanceTable::build`](crate::DistanceTable::build))
/// and step solvers are generic over it.
pub trait Space: Sync {
    /// The number of states, `0..count()`.
    fn count(&self) -> usize;

    /// The moves, in column order.
    fn moves(&self) -> &[Move];

    /// Writes the state after each move (column order) into `out`, which is `moves().len()` long.
    fn neighbours(&self, state: u32, out: &mut [u32]);

    /// The state after the move of column `column`.
    fn step(&self, state: u32, column: usize) -> u32;

    /// The state of `cube`.
    fn project(&self, cube: &Cube) -> u32;

    /// Writes every index that stands for the same state as `state` into `out` (`state`
    /// first) and returns how many there are: more than one where a symmetry-reduced space
    /// stores a state under several indexes, which a breadth-first search must mark together.
    /// By default, only `state`.
    #[inline]
    fn aliases(&self, state: u32, out: &mut [u32; 16]) -> usize {
        out[0] = state;
        1
    }
}

impl<C: Coord> Space for MoveTable<C> {
    fn count(&self) -> usize {
        C::COUNT
    }

    fn moves(&self) -> &[Move] {
        &self.moves
    }

    #[inline]
    fn neighbours(&self, state: u32, out: &mut [u32]) {
        for (o, &e) in out.iter_mut().zip(self.row(state)) {
            *o = e as u32;
        }
    }

    #[inline]
    fn step(&self, state: u32, column: usize) -> u32 {
        self.get(state, column)
    }

    fn project(&self, cube: &Cube) -> u32 {
        C::from_cube(cube)
    }
}

/// The product of two spaces over the same moves: state `outer * inner.count() + inner`.
///
/// ```
/// use cube_core::MoveSet;
/// use cube_tables::{MoveTable, Product, Space, Twist, UdSlice};
///
/// let twist = MoveTable::<Twist>::new(MoveSet::ALL);
/// let slice = MoveTable::<UdSlice>::new(MoveSet::ALL);
/// let space = Product::new(&twist, &slice);
/// assert_eq!(space.count(), 2187 * 495);
/// ```
///
/// The factors may be owned tables or references (`&T` is a [`Space`] too).
#[derive(Clone, Copy, Debug)]
pub struct Product<A, B> {
    outer: A,
    inner: B,
    n_inner: u32,
}

impl<A: Space, B: Space> Product<A, B> {
    /// The product of `outer` and `inner`.
    ///
    /// # Panics
    /// If their moves differ, or the product has more than `u32::MAX` states.
    pub fn new(outer: A, inner: B) -> Product<A, B> {
        assert_eq!(
            outer.moves(),
            inner.moves(),
            "the spaces of a product share their moves"
        );
        assert!(
            (outer.count() as u64) * (inner.count() as u64) <= u32::MAX as u64,
            "a product space is indexed by u32"
        );
        let n_inner = inner.count() as u32;
        Product {
            outer,
            inner,
            n_inner,
        }
    }
}

impl<A: Space, B: Space> Product<A, B> {
    /// The outer factor.
    pub fn outer(&self) -> &A {
        &self.outer
    }

    /// The inner factor.
    pub fn inner(&self) -> &B {
        &self.inner
    }
}

impl<T: Space + ?Sized> Space for &T {
    fn count(&self) -> usize {
        (**self).count()
    }

    fn moves(&self) -> &[Move] {
        (**self).moves()
    }

    #[inline]
    fn neighbours(&self, state: u32, out: &mut [u32]) {
        (**self).neighbours(state, out)
    }

    #[inline]
    fn step(&self, state: u32, column: usize) -> u32 {
        (**self).step(state, column)
    }

    fn project(&self, cube: &Cube) -> u32 {
        (**self).project(cube)
    }

    #[inline]
    fn aliases(&self, state: u32, out: &mut [u32; 16]) -> usize {
        (**self).aliases(state, out)
    }
}

impl<A: Space, B: Space> Space for Product<A, B> {
    fn count(&self) -> usize {
        self.outer.count() * self.inner.count()
    }

    fn moves(&self) -> &[Move] {
        self.outer.moves()
    }

    #[inline]
    fn neighbours(&self, state: u32, out: &mut [u32]) {
        let (outer, inner) = (state / self.n_inner, state % self.n_inner);
        let mut inner_out = [0u32; 18];
        let inner_out = &mut inner_out[..out.len()];
        self.inner.neighbours(inner, inner_out);
        self.outer.neighbours(outer, out);
        for (o, &i) in out.iter_mut().zip(inner_out.iter()) {
            *o = *o * self.n_inner + i;
        }
    }

    #[inline]
    fn step(&self, state: u32, column: usize) -> u32 {
        let (outer, inner) = (state / self.n_inner, state % self.n_inner);
        self.outer.step(outer, column) * self.n_inner + self.inner.step(inner, column)
    }

    fn project(&self, cube: &Cube) -> u32 {
        self.outer.project(cube) * self.n_inner + self.inner.project(cube)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::{CornerPerm, Flip, SlicePerm, Twist, UdEdgePerm, UdSlice};

    /// Every entry equals the coordinate of the moved representative, and the table agrees with
    /// cubie moves along a long walk (which reaches cubes other than the representatives).
    fn check_table<C: Coord>(moves: MoveSet) {
        let table = MoveTable::<C>::new(moves);
        for index in 0..C::COUNT as u32 {
            let cube = C::to_cube(index);
            for (column, &m) in table.moves().iter().enumerate() {
                assert_eq!(
                    table.get(index, column),
                    C::from_cube(&cube.apply_move(m)),
                    "{} {index} {m}",
                    C::NAME
                );
            }
        }
        let list: Vec<Move> = moves.iter().collect();
        let mut cube = Cube::SOLVED;
        let mut coord = 0;
        for i in 0..20_000usize {
            let m = list[((i * 2654435761usize) >> 7) % list.len()];
            cube = cube.apply_move(m);
            coord = table.apply(coord, m);
            assert_eq!(coord, C::from_cube(&cube), "{} step {i}", C::NAME);
        }
        let again =
            MoveTable::<C>::from_entries(moves, table.entries().to_vec()).expect("valid entries");
        assert_eq!(again.entries(), table.entries());
    }

    #[test]
    fn move_tables_agree_with_cubies() {
        check_table::<Twist>(MoveSet::ALL);
        check_table::<Flip>(MoveSet::ALL);
        check_table::<UdSlice>(MoveSet::ALL);
        check_table::<CornerPerm>(MoveSet::ALL);
        check_table::<CornerPerm>(MoveSet::G1);
        check_table::<UdEdgePerm>(MoveSet::G1);
        check_table::<SlicePerm>(MoveSet::G1);
    }

    #[test]
    fn product_space_steps() {
        let twist = MoveTable::<Twist>::new(MoveSet::ALL);
        let slice = MoveTable::<UdSlice>::new(MoveSet::ALL);
        let space = Product::new(&twist, &slice);
        let mut cube = Cube::SOLVED;
        let mut out = [0u32; 18];
        for i in 0..500usize {
            let state = space.project(&cube);
            space.neighbours(state, &mut out);
            for (column, &m) in space.moves().iter().enumerate() {
                assert_eq!(out[column], space.project(&cube.apply_move(m)));
                assert_eq!(space.step(state, column), out[column]);
            }
            cube = cube.apply_move(Move::ALL[(i * 5 + 3) % 18]);
        }
    }
}
