//! A generic optimal solver for one step of a method: a [`Space`] (a coordinate or a product of
//! coordinates with its move tables), its moves, and a set of goal states.
//!
//! The step builds the exact distance of every state to the goal by breadth-first search, so its
//! depth-first search only ever follows moves that bring the state one move closer: it lists
//! optimal solutions without searching dead ends. Cross, edge orientation and the phases of
//! Thistlethwaite's method are all steps.
//!
//! # Example
//!
//! Orient all edges (the F/B-axis edge orientation of the ZZ method) with all 18 moves:
//!
//! ```
//! use cube_core::{Alg, Cube, MoveSet};
//! use cube_solvers::{Limits, Stop, step::Step};
//! use cube_tables::{Flip, MoveTable};
//!
//! let eo = Step::new("eo", MoveTable::<Flip>::new(MoveSet::ALL), [0]);
//! let cube = Cube::SOLVED.apply_alg(&"F R B".parse::<Alg>().unwrap());
//! assert_eq!(eo.distance(&cube), Some(3));
//! let all = eo.solve(&cube, &Limits::default().with_n_solutions(usize::MAX), &Stop::new())?;
//! assert!(all.iter().all(|s| s.moves.len() == 3 && s.stages[0].label == "eo"));
//! # Ok::<(), cube_solvers::SolveError>(())
//! ```

use cube_core::{Cube, Move};
use cube_tables::{DistanceTable, PruneTable, Space, TableId};

use crate::search::{AFTER, NO_MOVE};
use crate::{Limits, Solution, SolveError, Stage, Stop};

/// One step: a space, its moves and the exact distance of every state to the goal.
#[derive(Debug)]
pub struct Step<S> {
    label: String,
    space: S,
    /// One byte per state.
    distance: PruneTable<Vec<u8>>,
    /// For each move index, its column in the space (`u8::MAX` when absent).
    column_of: [u8; 18],
}

impl<S: Space> Step<S> {
    /// The step that brings the state of `space` to one of `goals`, labelled `label` in the
    /// stages of its solutions.
    ///
    /// # Panics
    /// If the space's moves are not closed under inverses, or a goal is out of range.
    pub fn new(label: &str, space: S, goals: impl IntoIterator<Item = u32>) -> Step<S> {
        let distance = DistanceTable::build(TableId::from_static("step"), &space, goals);
        let mut column_of = [u8::MAX; 18];
        for (column, m) in space.moves().iter().enumerate() {
            column_of[m.index()] = column as u8;
        }
        Step {
            label: label.to_string(),
            space,
            distance,
            column_of,
        }
    }

    /// The step whose goals are the states for which `is_goal` holds.
    ///
    /// # Panics
    /// As [`Step::new`].
    pub fn from_predicate(label: &str, space: S, is_goal: impl Fn(u32) -> bool) -> Step<S> {
        let goals: Vec<u32> = (0..space.count() as u32).filter(|&s| is_goal(s)).collect();
        Step::new(label, space, goals)
    }

    /// The space.
    pub fn space(&self) -> &S {
        &self.space
    }

    /// The distance table (one byte per state, named `step`).
    pub fn distance_table(&self) -> &PruneTable<Vec<u8>> {
        &self.distance
    }

    /// The optimal length of the step for `cube`, or `None` if its moves cannot reach a goal.
    pub fn distance(&self, cube: &Cube) -> Option<usize> {
        let d = self.distance.get(self.space.project(cube) as usize);
        (d != DistanceTable::UNREACHED).then_some(d as usize)
    }

    /// Sequences of the step's moves that bring `cube` to a goal, shortest first, canonical.
    ///
    /// Without [`Limits::max_length`] only optimal sequences are listed (up to
    /// [`Limits::n_solutions`]; `usize::MAX` for all); with it, longer ones follow, length by
    /// length, until `n_solutions` are found. The result is empty when no goal is reachable
    /// within the limits. Each solution has one [`Stage`] with the step's label.
    ///
    /// # Errors
    /// [`SolveError::Unsolvable`] for an unsolvable cube, before any search;
    /// [`SolveError::Cancelled`] when `stop` is raised before any solution is found.
    pub fn solve(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
    ) -> Result<Vec<Solution>, SolveError> {
        cube.validate()?;
        let Some(optimal) = self.distance(cube) else {
            return Ok(Vec::new());
        };
        let max_length = limits.max_length.unwrap_or(optimal);
        let mut search = StepSearch {
            step: self,
            stop,
            n_solutions: limits.n_solutions.max(1),
            path: Vec::new(),
            found: Vec::new(),
            nodes: 0,
            cancelled: false,
        };
        let state = self.space.project(cube);
        for length in optimal..=max_length {
            search.dfs(state, length, NO_MOVE);
            if search.found.len() >= search.n_solutions || search.cancelled {
                break;
            }
        }
        if search.cancelled && search.found.is_empty() {
            return Err(SolveError::Cancelled);
        }
        Ok(search
            .found
            .into_iter()
            .map(|moves| Solution {
                stages: vec![Stage {
                    label: self.label.clone(),
                    moves: moves.clone(),
                }],
                moves,
            })
            .collect())
    }
}

struct StepSearch<'a, S> {
    step: &'a Step<S>,
    stop: &'a Stop,
    n_solutions: usize,
    path: Vec<Move>,
    found: Vec<Vec<Move>>,
    nodes: u64,
    cancelled: bool,
}

impl<S: Space> StepSearch<'_, S> {
    fn dfs(&mut self, state: u32, left: usize, prev: usize) {
        if left == 0 {
            if self.step.distance.get(state as usize) == 0 {
                self.found.push(self.path.clone());
            }
            return;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && self.stop.is_stopped() {
            self.cancelled = true;
        }
        let mut mask = AFTER[prev];
        while mask != 0 && !self.cancelled && self.found.len() < self.n_solutions {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let column = self.step.column_of[m];
            if column == u8::MAX {
                continue;
            }
            let next = self.step.space.step(state, column as usize);
            if self.step.distance.get(next as usize) as usize >= left {
                continue;
            }
            self.path.push(Move::from_index(m));
            self.dfs(next, left - 1, m);
            self.path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_core::MoveSet;
    use cube_tables::{Flip, MoveTable, Product, Twist, UdSlice};

    /// Every canonical sequence of exactly `length` moves that orients the edges of `cube`.
    fn brute_force_eo(
        cube: &Cube,
        length: usize,
        prev: Option<Move>,
        path: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
    ) {
        if length == 0 {
            if cube.edge_ori() == [0; 12] {
                out.push(path.clone());
            }
            return;
        }
        for m in cube_core::MoveSet::after(prev).iter() {
            path.push(m);
            brute_force_eo(&cube.apply_move(m), length - 1, Some(m), path, out);
            path.pop();
        }
    }

    #[test]
    fn every_optimal_eo_solution_is_listed() {
        let eo = Step::new("eo", MoveTable::<Flip>::new(MoveSet::ALL), [0]);
        for scramble in [
            &[Move::F1][..],
            &[Move::F1, Move::U1, Move::B3],
            &[Move::F1, Move::R1, Move::B1],
        ] {
            let cube = Cube::SOLVED.apply_moves(scramble);
            let distance = eo.distance(&cube).unwrap();
            let mut expected = Vec::new();
            for length in 0..=distance {
                brute_force_eo(&cube, length, None, &mut Vec::new(), &mut expected);
                assert_eq!(expected.is_empty(), length < distance, "{scramble:?}");
            }
            let all = eo
                .solve(
                    &cube,
                    &Limits::default().with_n_solutions(usize::MAX),
                    &Stop::new(),
                )
                .unwrap();
            let mut found: Vec<Vec<Move>> = all.into_iter().map(|s| s.moves).collect();
            found.sort();
            expected.sort();
            assert_eq!(found, expected, "{scramble:?}");
        }
    }

    #[test]
    fn longer_solutions_follow_with_a_max_length() {
        // Thistlethwaite's G0 -> G1 is EO; G1 -> G2 is twist x slice with <U, D, R2, L2, F, B>.
        let moves = MoveSet::from_iter(Move::ALL.into_iter().filter(|m| {
            !matches!(m.face(), cube_core::Face::R | cube_core::Face::L) || m.is_half_turn()
        }));
        let space = Product::new(
            MoveTable::<Twist>::new(moves),
            MoveTable::<UdSlice>::new(moves),
        );
        let step = Step::new("g2", space, [0]);
        let cube = Cube::SOLVED.apply_moves(&[Move::R1, Move::U1]);
        let optimal = step.distance(&cube).unwrap();
        let limits = Limits::default()
            .with_max_length(optimal + 1)
            .with_n_solutions(50);
        let found = step.solve(&cube, &limits, &Stop::new()).unwrap();
        assert!(found.len() > 1);
        assert_eq!(found[0].len(), optimal);
        assert!(found.windows(2).all(|w| w[0].len() <= w[1].len()));
        assert!(
            found
                .iter()
                .all(|s| s.moves.iter().all(|&m| moves.contains(m)))
        );
    }
}
