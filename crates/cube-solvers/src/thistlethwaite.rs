//! Thistlethwaite's algorithm: four phases through the nested subgroups
//!
//! ```text
//! G0 = <U, D, L, R, F, B>
//! G1 = <U, D, L, R, F2, B2>      edges oriented (flip 0)
//! G2 = <U, D, R2, L2, F2, B2>    corners oriented (twist 0), E-slice edges in the E slice
//! G3 = <U2, D2, R2, L2, F2, B2>  corners in the square group, M- and S-slice edges in their slices
//! G4 = {solved}
//! ```
//!
//! Each phase has an exact breadth-first distance table over its coordinate (the coset of the
//! next group), and the solver descends greedily: from distance `d` it plays any move of the
//! phase whose entry reads `d - 1`. Each phase is therefore optimal within its moves, and the
//! phase maxima are 7, 10, 13 and 15 moves (45 in all), which the tests pin.
//!
//! | phase | coordinate | states | moves |
//! |---|---|---:|---|
//! | 1 | edge flip | 2,048 | all 18 |
//! | 2 | corner twist x E-slice positions | 2,187 x 495 | G1 (14) |
//! | 3 | corner permutation x M-slice positions among the U/D edges | 40,320 x 70 | G2 (10) |
//! | 4 | square-group corners x M, S and E slice permutations | 96 x 24^3 (half reached) | G3 (6) |
//!
//! Phase 3's goal is the whole coset G3 (restricted to G2): the 96 corner permutations of the
//! square group with the M-slice edges in the M slice. In G2 the corners' and edges' parities
//! agree, so those two conditions are exactly membership in G3 (|G3| = 96 x 4!^3 / 2). The table
//! is a multi-source breadth-first search from those 96 states.
//!
//! The tables are built once, on first use (about 6 MB of move and distance tables, in well
//! under a second in release builds), and every distance table is a plain byte payload
//! ([`Tables::payloads`]) so it can be cached in a table file.
//!
//! See: M. Thistlethwaite, "The 45-52 move strategy" (1981); J. Scherphuis,
//! <https://www.jaapsch.net/puzzles/thistle.htm>.

mod coord;

use std::sync::OnceLock;

use cube_core::{Cube, Move, MoveSet};
use cube_tables::{
    Coord, CornerPerm, DistanceTable, Encoding, Flip, MoveTable, Product, SlicePerm, Space,
    TableId, TableSpec, Twist, UdSlice,
};

use self::coord::{HALF_TURNS, g1_moves, square_corner_ranks};
pub use self::coord::{MSlicePerm, SSlicePerm, SliceSeparation, SquareCorners};
use crate::{Limits, Solution, SolveError, Solver, Stage, Stop};

/// The stage labels, one per phase.
pub const PHASE_LABELS: [&str; 4] = [
    "Thistlethwaite phase 1 of 4: orient edges (G1)",
    "Thistlethwaite phase 2 of 4: orient corners, E-slice edges (G2)",
    "Thistlethwaite phase 3 of 4: corner tetrads, M and S slices (G3)",
    "Thistlethwaite phase 4 of 4: half turns to solved",
];

/// The longest a phase can take, in face turns (the maxima of the distance tables).
pub const PHASE_MAXIMA: [u8; 4] = [7, 10, 13, 15];

/// How the Thistlethwaite solver runs.
///
/// There is nothing to choose yet; the type exists so that options can be added without
/// breaking callers, as every method has one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {}

impl Config {
    /// The default configuration.
    pub fn new() -> Config {
        Config::default()
    }
}

/// The move and distance tables of the four phases.
pub struct Tables {
    flip_move: MoveTable<Flip>,
    twist_move: MoveTable<Twist>,
    slice_move: MoveTable<UdSlice>,
    corner_move: MoveTable<CornerPerm>,
    separation_move: MoveTable<SliceSeparation>,
    square_corner_move: MoveTable<SquareCorners>,
    m_slice_move: MoveTable<MSlicePerm>,
    s_slice_move: MoveTable<SSlicePerm>,
    e_slice_move: MoveTable<SlicePerm>,
    prune: [DistanceTable; 4],
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("histograms", &self.prune.each_ref().map(|t| t.histogram()))
            .finish_non_exhaustive()
    }
}

/// Table ids of the four distance tables, for [`Tables::payloads`].
pub const TABLE_IDS: [&str; 4] = [
    "thistlethwaite-phase1",
    "thistlethwaite-phase2",
    "thistlethwaite-phase3",
    "thistlethwaite-phase4",
];

/// The ids and sizes of the four distance tables, in the order of [`Tables::payloads`]: one byte
/// per state, so a binary can cache them in table files.
pub const TABLE_SPECS: [TableSpec; 4] = [
    spec(TABLE_IDS[0], Flip::COUNT),
    spec(TABLE_IDS[1], Twist::COUNT * UdSlice::COUNT),
    spec(TABLE_IDS[2], CornerPerm::COUNT * SliceSeparation::COUNT),
    spec(
        TABLE_IDS[3],
        SquareCorners::COUNT * MSlicePerm::COUNT * SSlicePerm::COUNT * SlicePerm::COUNT,
    ),
];

const fn spec(id: &'static str, n_entries: usize) -> TableSpec {
    TableSpec::new(TableId::from_static(id), Encoding::Byte, n_entries as u64)
}

/// The phase-4 space: square-group corners, then the M, S and E slice permutations
/// (`((corners * 24 + m) * 24 + s) * 24 + e`). Half of the 96 x 24^3 states are reachable: the
/// corner and edge parities agree.
struct SquareSpace<'a> {
    tables: &'a Tables,
}

impl SquareSpace<'_> {
    const N_SLICE: u32 = 24;
}

impl Space for SquareSpace<'_> {
    fn count(&self) -> usize {
        SquareCorners::COUNT * MSlicePerm::COUNT * SSlicePerm::COUNT * SlicePerm::COUNT
    }

    fn moves(&self) -> &[Move] {
        self.tables.square_corner_move.moves()
    }

    #[inline]
    fn neighbours(&self, state: u32, out: &mut [u32]) {
        for (column, o) in out.iter_mut().enumerate() {
            *o = self.step(state, column);
        }
    }

    #[inline]
    fn step(&self, state: u32, column: usize) -> u32 {
        let n = Self::N_SLICE;
        let t = self.tables;
        let (e, s, m, c) = (
            state % n,
            state / n % n,
            state / (n * n) % n,
            state / (n * n * n),
        );
        let c = t.square_corner_move.get(c, column);
        let m = t.m_slice_move.get(m, column);
        let s = t.s_slice_move.get(s, column);
        let e = t.e_slice_move.get(e, column);
        ((c * n + m) * n + s) * n + e
    }

    fn project(&self, cube: &Cube) -> u32 {
        let n = Self::N_SLICE;
        let (c, m) = (SquareCorners::from_cube(cube), MSlicePerm::from_cube(cube));
        let (s, e) = (SSlicePerm::from_cube(cube), SlicePerm::from_cube(cube));
        ((c * n + m) * n + s) * n + e
    }
}

impl Tables {
    /// Builds every table (move tables from cube-core's moves, then the four breadth-first
    /// searches).
    pub fn build() -> Tables {
        Tables::with_distances(None).expect("built tables have the right lengths")
    }

    /// Rebuilds the tables from the four distance payloads written by [`Tables::payloads`]; the
    /// move tables are rebuilt (they take a few milliseconds).
    ///
    /// Returns `None` when a payload has the wrong length or a distance is impossible.
    pub fn from_payloads(payloads: [Vec<u8>; 4]) -> Option<Tables> {
        let tables = Tables::with_distances(Some(payloads))?;
        let sound = tables
            .prune
            .iter()
            .zip(PHASE_MAXIMA)
            .all(|(table, max)| table.is_complete() || table.max_distance() <= max);
        sound.then_some(tables)
    }

    fn with_distances(payloads: Option<[Vec<u8>; 4]>) -> Option<Tables> {
        let g1 = g1_moves();
        let g2 = MoveSet::G1;
        let mut tables = Tables {
            flip_move: MoveTable::new(MoveSet::ALL),
            twist_move: MoveTable::new(g1),
            slice_move: MoveTable::new(g1),
            corner_move: MoveTable::new(g2),
            separation_move: MoveTable::new(g2),
            square_corner_move: MoveTable::new(HALF_TURNS),
            m_slice_move: MoveTable::new(HALF_TURNS),
            s_slice_move: MoveTable::new(HALF_TURNS),
            e_slice_move: MoveTable::new(HALF_TURNS),
            prune: std::array::from_fn(|_| DistanceTable::from_bytes(Vec::new())),
        };
        let counts = [
            tables.phase1().count(),
            tables.phase2().count(),
            tables.phase3().count(),
            tables.phase4().count(),
        ];
        tables.prune = match payloads {
            Some(payloads) => {
                if payloads.iter().zip(counts).any(|(p, n)| p.len() != n) {
                    return None;
                }
                payloads.map(DistanceTable::from_bytes)
            }
            None => {
                let n_separation = SliceSeparation::COUNT as u32;
                let phase3_goals = square_corner_ranks()
                    .iter()
                    .map(|&rank| rank * n_separation);
                [
                    DistanceTable::build(&tables.phase1(), [0]),
                    DistanceTable::build(&tables.phase2(), [0]),
                    DistanceTable::build(&tables.phase3(), phase3_goals),
                    DistanceTable::build(&tables.phase4(), [0]),
                ]
            }
        };
        Some(tables)
    }

    fn phase1(&self) -> &MoveTable<Flip> {
        &self.flip_move
    }

    fn phase2(&self) -> Product<&MoveTable<Twist>, &MoveTable<UdSlice>> {
        Product::new(&self.twist_move, &self.slice_move)
    }

    fn phase3(&self) -> Product<&MoveTable<CornerPerm>, &MoveTable<SliceSeparation>> {
        Product::new(&self.corner_move, &self.separation_move)
    }

    fn phase4(&self) -> SquareSpace<'_> {
        SquareSpace { tables: self }
    }

    /// The distance tables of the four phases.
    pub fn distances(&self) -> &[DistanceTable; 4] {
        &self.prune
    }

    /// The distance tables as byte payloads (one byte per state), with their table ids.
    pub fn payloads(&self) -> [(&'static str, &[u8]); 4] {
        std::array::from_fn(|phase| (TABLE_IDS[phase], self.prune[phase].as_bytes()))
    }
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The shared tables, built on first use.
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::build)
}

/// Installs tables built elsewhere (read from a cache, say) before first use; returns `false`
/// (and drops them) when tables are already in place.
pub fn install_tables(tables: Tables) -> bool {
    TABLES.set(tables).is_ok()
}

/// The Thistlethwaite solver.
///
/// ```
/// use cube_core::{Alg, Cube};
/// use cube_solvers::{Limits, Solver, Stop, thistlethwaite::Thistlethwaite};
///
/// let cube = Cube::SOLVED.apply_alg(&"R U F' L2 D B".parse::<Alg>().unwrap());
/// let solutions = Thistlethwaite::new().solve(&cube, &Limits::default(), &Stop::new())?;
/// let solution = &solutions[0];
/// assert!(cube.apply_moves(&solution.moves).is_solved());
/// assert_eq!(solution.stages.len(), 4);
/// assert!(solution.len() <= 45);
/// # Ok::<(), cube_solvers::SolveError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Thistlethwaite {
    config: Config,
}

impl Thistlethwaite {
    /// A solver with the default configuration.
    pub fn new() -> Thistlethwaite {
        Thistlethwaite::default()
    }

    /// A solver with `config`.
    pub fn with_config(config: Config) -> Thistlethwaite {
        Thistlethwaite { config }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The four phases for `cube`, each optimal within its moves (builds the tables on first
    /// use). Phases with nothing to do are left out, so the solved cube gets no stages.
    ///
    /// # Errors
    /// [`SolveError::Unsolvable`] if `cube` cannot be reached by turning.
    pub fn solve_staged(&self, cube: &Cube) -> Result<Solution, SolveError> {
        cube.validate()?;
        let tables = tables();
        let mut cube = *cube;
        let mut stages = Vec::new();
        for (phase, label) in PHASE_LABELS.iter().enumerate() {
            let table = &tables.prune[phase];
            let moves = match phase {
                0 => descend(tables.phase1(), table, &cube),
                1 => descend(&tables.phase2(), table, &cube),
                2 => descend(&tables.phase3(), table, &cube),
                _ => descend(&tables.phase4(), table, &cube),
            };
            cube = cube.apply_moves(&moves);
            if !moves.is_empty() {
                stages.push(Stage {
                    label: label.to_string(),
                    moves,
                });
            }
        }
        assert!(
            cube.is_solved(),
            "thistlethwaite: the four phases should solve every solvable cube"
        );
        Ok(Solution::from_stages(stages))
    }
}

/// The moves of a greedy descent from `cube`'s state to a goal of `table`: from distance `d`,
/// any move whose entry reads `d - 1`. Runs exactly `d` steps.
///
/// # Panics
/// If the state is unreached or no move descends: the cube is then not in the phase's group,
/// which the previous phase guarantees.
fn descend<S: Space>(space: &S, table: &DistanceTable, cube: &Cube) -> Vec<Move> {
    let mut state = space.project(cube);
    let distance = table.get(state);
    assert!(
        distance != DistanceTable::UNREACHED,
        "thistlethwaite: the cube should be in the group of the phase"
    );
    let mut moves = Vec::with_capacity(distance as usize);
    for d in (0..distance).rev() {
        let column = (0..space.moves().len())
            .find(|&column| table.get(space.step(state, column)) == d)
            .expect("an exact distance table has a descending move from every reached state");
        moves.push(space.moves()[column]);
        state = space.step(state, column);
    }
    moves
}

impl Solver for Thistlethwaite {
    /// One staged solution (the method is deterministic), or none when it is longer than
    /// `limits.max_length`; the other limits do not apply.
    fn solve(
        &self,
        cube: &Cube,
        limits: &Limits,
        stop: &Stop,
    ) -> Result<Vec<Solution>, SolveError> {
        crate::solve_deterministic(cube, limits, stop, |cube| self.solve_staged(cube))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn phase_maxima_are_7_10_13_15() {
        let tables = tables();
        let maxima = tables.distances().each_ref().map(|t| t.max_distance());
        assert_eq!(maxima, PHASE_MAXIMA);
        assert_eq!(maxima.iter().map(|&m| m as u32).sum::<u32>(), 45);
        // The reachable states: all cosets in phases 1-3, half the index space in phase 4.
        let reached = tables
            .distances()
            .each_ref()
            .map(|t| t.histogram().iter().sum::<u64>());
        assert_eq!(
            reached,
            [2048, 2187 * 495, 40320 * 70, 96 * 24 * 24 * 24 / 2]
        );
        // Phase 3's goal coset holds 96 states; phase 4 has one goal.
        assert_eq!(tables.distances()[2].histogram()[0], 96);
        assert_eq!(tables.distances()[3].histogram()[0], 1);
    }

    #[test]
    fn payloads_round_trip() {
        let tables = tables();
        let payloads = tables.payloads().map(|(_, bytes)| bytes.to_vec());
        for ((id, payload), spec) in tables.payloads().iter().zip(TABLE_SPECS) {
            assert_eq!(
                (*id, payload.len() as u64),
                (spec.id.as_str(), spec.n_entries)
            );
        }
        let rebuilt = Tables::from_payloads(payloads).expect("payloads of built tables are valid");
        for phase in 0..4 {
            assert_eq!(rebuilt.distances()[phase], tables.distances()[phase]);
        }
        assert!(Tables::from_payloads([vec![0], vec![], vec![], vec![]]).is_none());
    }

    #[test]
    fn random_states_solve_within_45_moves() {
        let solver = Thistlethwaite::new();
        let mut rng = ChaCha8Rng::seed_from_u64(45);
        let mut total = 0;
        for _ in 0..200 {
            let cube = Cube::random(&mut rng);
            let solution = solver.solve_staged(&cube).unwrap();
            assert!(cube.apply_moves(&solution.moves).is_solved());
            assert!(solution.len() <= 45, "{} moves", solution.len());
            // Each phase lands in the next group.
            let mut state = cube;
            for stage in &solution.stages {
                let phase = PHASE_LABELS.iter().position(|l| *l == stage.label).unwrap();
                assert!(stage.moves.len() <= PHASE_MAXIMA[phase] as usize);
                state = state.apply_moves(&stage.moves);
                let reached_group = match phase {
                    0 => state.edge_ori() == [0; 12],
                    1 => {
                        state.corner_ori() == [0; 8]
                            && state.edge_perm()[8..].iter().all(|&e| e >= 8)
                    }
                    2 => {
                        let corners = CornerPerm::from_cube(&state);
                        let edges = state.edge_perm();
                        square_corner_ranks().contains(&corners)
                            && (0..8).all(|p| p % 2 == edges[p] as usize % 2)
                    }
                    _ => state.is_solved(),
                };
                assert!(reached_group, "phase {} of {cube:?}", phase + 1);
            }
            total += solution.len();
        }
        let mean = total as f64 / 200.0;
        assert!((25.0..=45.0).contains(&mean), "mean {mean}");
    }

    #[test]
    fn keeps_the_solver_contract() {
        crate::check_solver_contract(&Thistlethwaite::new());
    }
}
