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
//! The solver is handed its tables ([`ThistlethwaiteTables`], in an [`Arc`] the caller owns and
//! shares): about 6 MB of move and distance tables, built in a fraction of a second (the crate docs
//! give the time); every distance table is a plain byte payload, a [`MethodTables`] family that a
//! binary may cache in table files.
//!
//! See: M. Thistlethwaite, "The 45-52 move strategy" (1981); J. Scherphuis,
//! <https://www.jaapsch.net/puzzles/thistle.htm>.

mod coord;

use std::sync::Arc;

use cube_core::{Cube, Move, MoveSet};
use cube_tables::{
    Coord, CornerPerm, DistanceTable, Encoding, Flip, MoveTable, Product, PruneTable, SlicePerm,
    Space, TableId, TableSpec, Twist, UdSlice,
};

use self::coord::{HALF_TURNS, g1_moves, square_corner_ranks};
pub use self::coord::{MSlicePerm, SSlicePerm, SliceSeparation, SquareCorners};
use crate::{
    Limits, MethodTables, PayloadError, Payloads, Solution, SolveError, Solver, Stage, Stop,
};

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

/// The move and distance tables of the four phases, to hand to [`Thistlethwaite::new`].
pub struct ThistlethwaiteTables {
    moves: Moves,
    /// One byte per state, phase by phase.
    prune: [PruneTable<Vec<u8>>; 4],
}

/// The move tables of the four phases (a few milliseconds to build).
struct Moves {
    flip_move: MoveTable<Flip>,
    twist_move: MoveTable<Twist>,
    slice_move: MoveTable<UdSlice>,
    corner_move: MoveTable<CornerPerm>,
    separation_move: MoveTable<SliceSeparation>,
    square_corner_move: MoveTable<SquareCorners>,
    m_slice_move: MoveTable<MSlicePerm>,
    s_slice_move: MoveTable<SSlicePerm>,
    e_slice_move: MoveTable<SlicePerm>,
}

impl std::fmt::Debug for ThistlethwaiteTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThistlethwaiteTables")
            .field("histograms", &self.prune.each_ref().map(|t| t.histogram()))
            .finish_non_exhaustive()
    }
}

/// The ids and sizes of the four distance tables, phase by phase (the payloads of
/// [`ThistlethwaiteTables`] as a [`MethodTables`] family): one byte per state, so a binary can
/// cache them in table files.
pub const TABLE_SPECS: [TableSpec; 4] = [
    spec("thistlethwaite-phase1", Flip::COUNT),
    spec("thistlethwaite-phase2", Twist::COUNT * UdSlice::COUNT),
    spec(
        "thistlethwaite-phase3",
        CornerPerm::COUNT * SliceSeparation::COUNT,
    ),
    spec(
        "thistlethwaite-phase4",
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
    tables: &'a Moves,
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

impl MethodTables for ThistlethwaiteTables {
    const NAME: &'static str = "thistlethwaite";
    const SPECS: &'static [TableSpec] = &TABLE_SPECS;

    /// Builds every table: move tables from cube-core's moves, then the four breadth-first
    /// searches.
    fn build() -> ThistlethwaiteTables {
        let moves = Moves::build();
        let n_separation = SliceSeparation::COUNT as u32;
        let phase3_goals = square_corner_ranks()
            .iter()
            .map(|&rank| rank * n_separation);
        let id = |phase: usize| TABLE_SPECS[phase].id;
        let prune = [
            DistanceTable::build(id(0), moves.phase1(), [0]),
            DistanceTable::build(id(1), &moves.phase2(), [0]),
            DistanceTable::build(id(2), &moves.phase3(), phase3_goals),
            DistanceTable::build(id(3), &moves.phase4(), [0]),
        ];
        ThistlethwaiteTables { moves, prune }
    }

    fn payload(&self, id: TableId) -> Option<&[u8]> {
        let phase = TABLE_SPECS.iter().position(|spec| spec.id == id)?;
        Some(self.prune[phase].payload())
    }

    /// The tables from the four distance payloads, each checked: every state reached, the goals
    /// at 0, and no distance over the phase's maximum; the move tables are rebuilt (a few
    /// milliseconds).
    fn from_payloads(payloads: Payloads) -> Result<ThistlethwaiteTables, PayloadError> {
        let prune = payloads.take_all(&TABLE_SPECS)?;
        for (phase, table) in prune.iter().enumerate() {
            let reached = table.len() as u64 - table.n_unreached();
            // Phase 4 reaches half its index space (the parities agree); the goals of phase 3
            // are the 96 states of its coset.
            let expected = if phase == 3 {
                table.len() as u64 / 2
            } else {
                table.len() as u64
            };
            let goals = if phase == 2 { 96 } else { 1 };
            let why = if reached != expected {
                "unreached states"
            } else if table.histogram()[0] != goals {
                "another number of goal states"
            } else if table.max_distance() > PHASE_MAXIMA[phase] {
                "a distance longer than the phase allows"
            } else {
                continue;
            };
            return Err(PayloadError::Unsound {
                id: TABLE_SPECS[phase].id,
                why,
            });
        }
        Ok(ThistlethwaiteTables {
            moves: Moves::build(),
            prune,
        })
    }
}

impl Moves {
    fn build() -> Moves {
        let g1 = g1_moves();
        let g2 = MoveSet::G1;
        Moves {
            flip_move: MoveTable::new(MoveSet::ALL),
            twist_move: MoveTable::new(g1),
            slice_move: MoveTable::new(g1),
            corner_move: MoveTable::new(g2),
            separation_move: MoveTable::new(g2),
            square_corner_move: MoveTable::new(HALF_TURNS),
            m_slice_move: MoveTable::new(HALF_TURNS),
            s_slice_move: MoveTable::new(HALF_TURNS),
            e_slice_move: MoveTable::new(HALF_TURNS),
        }
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
}

impl ThistlethwaiteTables {
    /// The distance tables of the four phases, one byte per state ([`DistanceTable::UNREACHED`]
    /// for the half of phase 4's index space that no state of G3 has).
    pub fn distances(&self) -> &[PruneTable<Vec<u8>>; 4] {
        &self.prune
    }
}

/// The Thistlethwaite solver.
///
/// ```
/// use cube_core::{Alg, Cube};
/// use cube_solvers::{Limits, Solver, Stop, thistlethwaite::Thistlethwaite};
///
/// let cube = Cube::SOLVED.apply_alg(&"R U F' L2 D B".parse::<Alg>().unwrap());
/// let solutions = Thistlethwaite::default().solve(&cube, &Limits::default(), &Stop::new())?;
/// let solution = &solutions[0];
/// assert!(cube.apply_moves(&solution.moves).is_solved());
/// assert_eq!(solution.stages.len(), 4);
/// assert!(solution.len() <= 45);
/// # Ok::<(), cube_solvers::SolveError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Thistlethwaite {
    config: Config,
    tables: Arc<ThistlethwaiteTables>,
}

impl Default for Thistlethwaite {
    /// A solver with the default configuration over newly built tables; to share tables, build
    /// them once and use [`Thistlethwaite::new`].
    fn default() -> Thistlethwaite {
        Thistlethwaite::new(Arc::new(ThistlethwaiteTables::build()))
    }
}

impl Thistlethwaite {
    /// A solver over `tables` with the default configuration.
    pub fn new(tables: Arc<ThistlethwaiteTables>) -> Thistlethwaite {
        Thistlethwaite::with_config(tables, Config::default())
    }

    /// A solver over `tables` with `config`.
    pub fn with_config(tables: Arc<ThistlethwaiteTables>, config: Config) -> Thistlethwaite {
        Thistlethwaite { config, tables }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The four phases for `cube`, each optimal within its moves. Phases with nothing to do are left out, so the solved cube gets no stages.
    ///
    /// # Errors
    /// [`SolveError::Unsolvable`] if `cube` cannot be reached by turning.
    pub fn solve_staged(&self, cube: &Cube) -> Result<Solution, SolveError> {
        cube.validate()?;
        let tables = &*self.tables;
        let mut cube = *cube;
        let mut stages = Vec::new();
        for (phase, label) in PHASE_LABELS.iter().enumerate() {
            let table = &tables.prune[phase];
            let spaces = &tables.moves;
            let moves = match phase {
                0 => descend(spaces.phase1(), table, &cube),
                1 => descend(&spaces.phase2(), table, &cube),
                2 => descend(&spaces.phase3(), table, &cube),
                _ => descend(&spaces.phase4(), table, &cube),
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
fn descend<S: Space>(space: &S, table: &PruneTable<Vec<u8>>, cube: &Cube) -> Vec<Move> {
    let mut state = space.project(cube);
    let distance = table.get(state as usize);
    assert!(
        distance != DistanceTable::UNREACHED,
        "thistlethwaite: the cube should be in the group of the phase"
    );
    let mut moves = Vec::with_capacity(distance as usize);
    for d in (0..distance).rev() {
        let column = (0..space.moves().len())
            .find(|&column| table.get(space.step(state, column) as usize) == d)
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

    /// The tables, built once for the tests of this module.
    fn tables() -> Arc<ThistlethwaiteTables> {
        static TABLES: std::sync::OnceLock<Arc<ThistlethwaiteTables>> = std::sync::OnceLock::new();
        Arc::clone(TABLES.get_or_init(|| Arc::new(ThistlethwaiteTables::build())))
    }

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
            .map(|t| t.len() as u64 - t.n_unreached());
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
        for (phase, spec) in TABLE_SPECS.iter().enumerate() {
            let payload = tables.payload(spec.id).expect("every phase has a payload");
            assert_eq!(payload, tables.distances()[phase].payload());
            assert_eq!(payload.len() as u64, spec.n_entries);
        }
        let payloads = Payloads::of(&*tables);
        let rebuilt = ThistlethwaiteTables::from_payloads(payloads.clone())
            .expect("payloads of built tables are valid");
        for phase in 0..4 {
            let (rebuilt, built) = (&rebuilt.distances()[phase], &tables.distances()[phase]);
            assert_eq!(rebuilt.info(), built.info());
            assert_eq!(rebuilt.payload(), built.payload());
        }
        let phase1 = TABLE_SPECS[0].id;
        let with_phase1 = |payload: Vec<u8>| {
            let mut bad = payloads.clone();
            bad.insert(phase1, payload);
            ThistlethwaiteTables::from_payloads(bad).err()
        };
        assert_eq!(
            with_phase1(vec![0]),
            Some(PayloadError::Length {
                id: phase1,
                expected: 2048,
                found: 1
            })
        );
        let mut too_far = tables.distances()[0].payload().to_vec();
        too_far[5] = 9;
        assert_eq!(
            with_phase1(too_far),
            Some(PayloadError::Unsound {
                id: phase1,
                why: "a distance longer than the phase allows"
            })
        );
        let mut missing = payloads;
        missing.take(&TABLE_SPECS[3]).expect("phase 4 is there");
        assert_eq!(
            ThistlethwaiteTables::from_payloads(missing).err(),
            Some(PayloadError::Missing {
                id: TABLE_SPECS[3].id
            })
        );
    }

    #[test]
    fn random_states_solve_within_45_moves() {
        let solver = Thistlethwaite::new(tables());
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
        crate::check_solver_contract(&Thistlethwaite::new(tables()));
    }
}
