//! The beginner's method (layer by layer) in seven stages, with the cross on D.
//!
//! Each stage uses only the beginner's moves for it and ends on its goal, and each stage's
//! turns are one of the shortest sequences its alphabet allows; where a stage has several, the
//! solver takes the one after which the later stages are shortest.
//!
//! 1. Bottom cross: one edge at a time, each by an exact breadth-first table over the tracked
//!    edges only (the new edge and the cross edges already solved); no case tables. Every order
//!    of the four edges is tried and the shortest crosses kept.
//! 2. Bottom corners: one slot at a time, each by a shortest-path search over a macro alphabet
//!    of U turns and the trigger inserts (`R U R'`, `F' U' F`, `R U2 R'` and their kin) of every
//!    unsolved slot; every order of the slots is tried.
//! 3. Middle edges: the same over U turns and the right and left inserts (`U R U' R' U' F' U F`,
//!    `U' F' U F U R U' R'`, the first U left to the alphabet's U turns) and their inverses, of
//!    the unsolved slots only, so that no macro breaks a solved slot. Of the shortest ways to do
//!    stages 1 to 3, the solver keeps the one after which stages 2 to 7 are shortest.
//! 4. Top cross: `F R U R' U' F'`, its inverse `F U R U' R' F'` and their mirrors, with U turns
//!    between (dot, L and line cases).
//! 5. Top corners permuted: an outer-turn A-perm (`R' F R' B2 R F' R' B2 R2`) and Niklas
//!    (`U R U' L' U R' U' L`), with their inverses and mirrors, and U turns between.
//! 6. Top corners oriented: `R' D' R D` twice on the corner at URF turns it one way and
//!    `D' R' D R` twice the other way, so each twisted corner takes one pair; U turns bring the
//!    corners to URF, and the D layer comes back when every corner is oriented.
//! 7. Top edges permuted: an outer-turn U-perm (`R U' R U R U R U' R' U' R2`), its inverse and
//!    mirrors, with U turns.
//!
//! Stages 4 to 7 walk down tables over the last layer's 746,496 states (part of
//! [`BeginnerTables`], built with the cross tables):
//! for each stage the fewest turns to its goal, and the fewest for it and the later stages
//! when each is done by one of its shortest sequences (see `last_layer`). Turns that meet at
//! stage boundaries cancel in [`Solution::moves`](crate::Solution); each stage's own turns still
//! reach its goal.
//!
//! The macros are written once for one slot and turned to the others with `y` conjugation; which
//! slot a macro works on, and which way a 3-cycle turns, are read off cube-core's cubies at
//! start-up rather than assumed. Every loop has an iteration guard, and every recursion is at
//! most four deep.

mod last_layer;

use std::sync::Arc;

use cube_core::{Cube, Move, simplify};
use cube_tables::{TableId, TableSpec};

use self::last_layer::LastLayerTables;
pub use crate::staged::cross::CrossTables;
use crate::staged::cross::solved_cross_mask;
use crate::staged::search::{Macro, Piece, one_piece_search, path_moves, u_turns};
use crate::staged::{
    N_SLOTS, corner_solved, edge_solved, macros_per_slot, stage_done, stage_failed,
};
use crate::{
    Limits, MethodTables, PayloadError, Payloads, Solution, SolveError, Solver, Stage, Stop,
};

/// The stage labels, in order.
pub const STAGE_LABELS: [&str; 7] = [
    "Bottom cross, stage 1 of 7",
    "Bottom corners, stage 2 of 7",
    "Middle edges, stage 3 of 7",
    "Top cross, stage 4 of 7",
    "Top corners permuted, stage 5 of 7",
    "Top corners oriented, stage 6 of 7",
    "Top edges permuted, stage 7 of 7",
];

/// How the beginner solver runs.
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

/// The beginner's (layer-by-layer) method.
///
/// ```
/// use cube_core::{Alg, Cube};
/// use cube_solvers::{Limits, Solver, Stop, beginner::Beginner};
///
/// let cube = Cube::SOLVED.apply_alg(&"R U F' L2 D B".parse::<Alg>().unwrap());
/// let solution = &Beginner::default().solve(&cube, &Limits::default(), &Stop::new())?[0];
/// assert!(cube.apply_moves(&solution.moves).is_solved());
/// # Ok::<(), cube_solvers::SolveError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Beginner {
    config: Config,
    tables: Arc<BeginnerTables>,
}

impl Default for Beginner {
    /// A solver with the default configuration over newly built tables; to share tables, build
    /// them once and use [`Beginner::new`].
    fn default() -> Beginner {
        Beginner::new(Arc::new(BeginnerTables::build()))
    }
}

/// The macros of the first two layers' stages.
struct Alphabets {
    u_turns: [Macro; 3],
    /// Corner inserts, by slot.
    corner: Vec<(usize, Macro)>,
    /// Middle-edge inserts, by slot.
    middle: Vec<(usize, Macro)>,
}

impl Alphabets {
    fn build() -> Alphabets {
        Alphabets {
            u_turns: u_turns(),
            corner: macros_per_slot(&[
                "R U R'",
                "R U' R'",
                "R U2 R'",
                "F' U F",
                "F' U' F",
                "F' U2 F",
                "R U R' U'",
                "F' U' F U",
            ]),
            // The right and left inserts without their first U turn (the U turns of the
            // alphabet supply it), and their inverses.
            middle: macros_per_slot(&[
                "R U' R' U' F' U F",
                "F' U F U R U' R'",
                "F' U' F U R U R'",
                "R U R' U' F' U' F",
            ]),
        }
    }
}

/// The tables of the beginner's method, to hand to [`Beginner::new`]: the cross tables
/// ([`CrossTables`], the same payloads and files), the macro alphabets of the first two layers,
/// and the last layer's tables (for each of stages 4 to 7 the fewest turns to its goal and the
/// fewest for it and the later stages, over the last layer's 746,496 states: 4 x 746,496 bytes
/// twice), all built together.
///
/// As a [`MethodTables`] family (`beginner`) its payloads are the 15 cross tables; the alphabets
/// and the last-layer tables are rebuilt whenever the family is built or restored (about 20 ms),
/// not cached.
pub struct BeginnerTables {
    cross: CrossTables,
    alphabets: Alphabets,
    last_layer: LastLayerTables,
}

impl std::fmt::Debug for BeginnerTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BeginnerTables")
            .field("cross", &self.cross)
            .finish_non_exhaustive()
    }
}

impl BeginnerTables {
    /// The tables of `cross` and `last_layer`, with the alphabets built.
    fn from_parts(cross: CrossTables, last_layer: LastLayerTables) -> BeginnerTables {
        BeginnerTables {
            cross,
            alphabets: Alphabets::build(),
            last_layer,
        }
    }
}

impl MethodTables for BeginnerTables {
    const NAME: &'static str = "beginner";
    const SPECS: &'static [TableSpec] = CrossTables::SPECS;

    /// Builds the cross tables and the last layer's at the same time (rayon tasks).
    fn build() -> BeginnerTables {
        let (cross, last_layer) = rayon::join(CrossTables::build, LastLayerTables::build);
        BeginnerTables::from_parts(cross, last_layer)
    }

    fn payload(&self, id: TableId) -> Option<&[u8]> {
        self.cross.payload(id)
    }

    /// The cross tables from their payloads, checked as [`CrossTables::from_payloads`] checks
    /// them; the rest built.
    fn from_payloads(payloads: Payloads) -> Result<BeginnerTables, PayloadError> {
        let cross = CrossTables::from_payloads(payloads)?;
        Ok(BeginnerTables::from_parts(cross, LastLayerTables::build()))
    }
}

impl Beginner {
    /// A solver over `tables` with the default configuration.
    pub fn new(tables: Arc<BeginnerTables>) -> Beginner {
        Beginner::with_config(tables, Config::default())
    }

    /// A solver over `tables` with `config`.
    pub fn with_config(tables: Arc<BeginnerTables>, config: Config) -> Beginner {
        Beginner { config, tables }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The seven stages for `cube` (stages with nothing to do are left out, so the solved cube
    /// gets none). Each stage's turns are simplified within the stage.
    ///
    /// # Errors
    /// [`SolveError::Unsolvable`] if `cube` cannot be reached by turning.
    pub fn solve_staged(&self, cube: &Cube) -> Result<Solution, SolveError> {
        cube.validate()?;
        let mut cube = *cube;
        let mut stages = Vec::new();
        let mut so_far = Vec::new();
        let mut first = first_two_layers(&self.tables, &cube)?.into_iter();
        for (stage, label) in STAGE_LABELS.iter().enumerate() {
            let moves = match first.next() {
                Some(moves) => moves,
                None => simplify(&self.tables.last_layer.run(&cube, stage, label, &so_far)?),
            };
            cube = cube.apply_moves(&moves);
            if !stage_done(&cube, stage) {
                return Err(stage_failed("beginner", label));
            }
            so_far.extend(&moves);
            if !moves.is_empty() {
                stages.push(Stage {
                    label: label.to_string(),
                    moves,
                });
            }
        }
        Ok(Solution::from_stages(stages))
    }
}

/// The turns of the first three stages (cross, corners, middle edges), each one of its
/// shortest sequences: of those, the ones after which the later stages are shortest (the
/// corners by the length of their shortest sequences, the middle edges by the length of theirs
/// plus the last layer's).
fn first_two_layers(tables: &BeginnerTables, cube: &Cube) -> Result<[Vec<Move>; 3], SolveError> {
    let [cross_label, corners_label, middle_label, ..] = STAGE_LABELS;
    // (turns after the cross, cross, corners, middle edges)
    let mut best: Option<(usize, [Vec<Move>; 3])> = None;
    let alphabets = &tables.alphabets;
    for cross in shortest_crosses(&tables.cross, cube) {
        let after_cross = cube.apply_moves(&cross);
        for corners in CORNERS.shortest(alphabets, &after_cross, corners_label)? {
            let after = after_cross.apply_moves(&corners);
            for middle in MIDDLE.shortest(alphabets, &after, middle_label)? {
                // The turns the last layer takes after them (unreachable counts as long).
                let last_layer = tables
                    .last_layer
                    .turns_left(&after.apply_moves(&middle))
                    .unwrap_or(usize::MAX);
                let rest = corners.len() + middle.len() + last_layer;
                if best.as_ref().is_none_or(|(b, _)| rest < *b) {
                    best = Some((rest, [cross.clone(), corners.clone(), middle]));
                }
            }
        }
    }
    best.map(|(_, stages)| stages)
        .ok_or_else(|| stage_failed("beginner", cross_label))
}

/// The slots of one first-two-layers stage: a piece per slot and the inserts of each slot.
struct Slots {
    inserts: fn(&Alphabets) -> &[(usize, Macro)],
    piece: fn(usize) -> Piece,
    solved: fn(&Cube, usize) -> bool,
}

/// The bottom corners.
const CORNERS: Slots = Slots {
    inserts: |alphabets| &alphabets.corner,
    piece: |s| Piece::Corner(4 + s as u8),
    solved: corner_solved,
};

/// The middle edges.
const MIDDLE: Slots = Slots {
    inserts: |alphabets| &alphabets.middle,
    piece: |s| Piece::Edge(8 + s as u8),
    solved: edge_solved,
};

impl Slots {
    /// The shortest ways to fill the slots one at a time (each distinct sequence once): every
    /// order of the slots is tried, each slot by the cheapest string of U turns and inserts of
    /// the open slots (so no insert breaks a filled slot).
    fn shortest(
        &self,
        alphabets: &Alphabets,
        cube: &Cube,
        label: &str,
    ) -> Result<Vec<Vec<Move>>, SolveError> {
        let mut best = Vec::new();
        self.fill(alphabets, cube, &mut Vec::new(), &mut best, label)?;
        if best.is_empty() {
            return Err(stage_failed("beginner", label));
        }
        Ok(best)
    }

    /// Fills the open slots of `cube` in every order after `moves`, keeping the shortest whole
    /// sequences in `best`. Each level fills one slot, so the recursion is at most four deep.
    fn fill(
        &self,
        alphabets: &Alphabets,
        cube: &Cube,
        moves: &mut Vec<Move>,
        best: &mut Vec<Vec<Move>>,
        label: &str,
    ) -> Result<(), SolveError> {
        let open: Vec<usize> = (0..N_SLOTS).filter(|&s| !(self.solved)(cube, s)).collect();
        if open.is_empty() {
            keep_shortest(best, simplify(moves));
            return Ok(());
        }
        let macros: Vec<&Macro> = alphabets
            .u_turns
            .iter()
            .chain(
                (self.inserts)(alphabets)
                    .iter()
                    .filter(|(slot, _)| open.contains(slot))
                    .map(|(_, m)| m),
            )
            .collect();
        for &s in &open {
            let (path, _) = one_piece_search(cube, (self.piece)(s), &macros)
                .ok_or_else(|| stage_failed("beginner", label))?;
            let step = path_moves(&path, &macros);
            let next = cube.apply_moves(&step);
            if !(self.solved)(&next, s) {
                return Err(stage_failed("beginner", label));
            }
            let n = moves.len();
            moves.extend(step);
            self.fill(alphabets, &next, moves, best, label)?;
            moves.truncate(n);
        }
        Ok(())
    }
}

/// Keeps `candidate` among the shortest sequences `best` (all of one length, each once).
fn keep_shortest(best: &mut Vec<Vec<Move>>, candidate: Vec<Move>) {
    match best.first().map(|b| candidate.len().cmp(&b.len())) {
        Some(std::cmp::Ordering::Greater) => {}
        Some(std::cmp::Ordering::Equal) if best.contains(&candidate) => {}
        Some(std::cmp::Ordering::Equal) => best.push(candidate),
        _ => *best = vec![candidate],
    }
}

/// The shortest crosses made one edge at a time, each edge by an exact table over it and the
/// edges already solved: every order of the edges is tried (branch and bound, with the whole
/// cross's distance as the bound), and each distinct shortest sequence kept.
fn shortest_crosses(tables: &CrossTables, cube: &Cube) -> Vec<Vec<Move>> {
    let mut best = Vec::new();
    cross_orders(tables, cube, &mut Vec::new(), &mut best);
    best
}

/// Solves the unsolved cross edges of `cube` in every order after `moves`, keeping the
/// shortest in `best`. Each level solves one edge, so the recursion is at most four deep.
fn cross_orders(
    tables: &CrossTables,
    cube: &Cube,
    moves: &mut Vec<Move>,
    best: &mut Vec<Vec<Move>>,
) {
    let solved = solved_cross_mask(cube);
    if solved == 0b1111 {
        keep_shortest(best, simplify(moves));
        return;
    }
    let bound = moves.len() + tables.distance(0b1111, cube) as usize;
    if best.first().is_some_and(|b| bound > b.len()) {
        return;
    }
    for i in (0..4).filter(|i| solved >> i & 1 == 0) {
        let step = tables.solve(solved | 1 << i, cube);
        let next = cube.apply_moves(&step);
        let n = moves.len();
        moves.extend(step);
        cross_orders(tables, &next, moves, best);
        moves.truncate(n);
    }
}

impl Solver for Beginner {
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
    fn alphabets_work_on_one_slot_each() {
        let a = Alphabets::build();
        for inserts in [&a.corner, &a.middle] {
            for s in 0..N_SLOTS {
                assert_eq!(
                    inserts.iter().filter(|(slot, _)| *slot == s).count(),
                    inserts.len() / 4
                );
            }
        }
        // Middle inserts keep the whole first layer.
        for (_, m) in &a.middle {
            assert!(
                (4..8).all(|c| m.cube.corner_perm()[c] == c as u8 && m.cube.corner_ori()[c] == 0)
            );
        }
    }

    #[test]
    fn sweep_200_random_states_stage_by_stage() {
        let solver = Beginner::default();
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let mut total = 0;
        for _ in 0..200 {
            let start = Cube::random(&mut rng);
            let solution = solver.solve_staged(&start).unwrap();
            let mut cube = start;
            let mut last = 0;
            for stage in &solution.stages {
                let index = STAGE_LABELS.iter().position(|l| *l == stage.label).unwrap();
                assert!(index >= last);
                last = index;
                cube = cube.apply_moves(&stage.moves);
                assert!(stage_done(&cube, index), "{} of {start:?}", stage.label);
                assert!(cube_core::is_canonical(&stage.moves));
            }
            assert!(cube.is_solved());
            total += solution.len();
        }
        let mean = total as f64 / 200.0;
        assert!(mean < 90.0, "mean {mean}");
    }

    /// The figures of docs/PERFORMANCE.md: mean and longest length over the 1,000 seeded states
    /// of `benches/benches/methods.rs`, per stage too. Run with
    /// `cargo test --release -p cube-solvers beginner::tests::lengths -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement, not a check"]
    fn lengths_over_1000_states() {
        let start = std::time::Instant::now();
        let solver = Beginner::default();
        eprintln!("tables built in {:?}", start.elapsed());
        let mut rng = ChaCha8Rng::seed_from_u64(1000);
        let cubes: Vec<Cube> = (0..1000).map(|_| Cube::random(&mut rng)).collect();
        let (mut total, mut longest) = (0, 0);
        let mut per_stage = [0usize; 7];
        let start = std::time::Instant::now();
        for cube in &cubes {
            let solution = solver.solve_staged(cube).unwrap();
            assert!(cube.apply_moves(&solution.moves).is_solved());
            total += solution.len();
            longest = longest.max(solution.len());
            for stage in &solution.stages {
                let index = STAGE_LABELS.iter().position(|l| *l == stage.label).unwrap();
                per_stage[index] += stage.moves.len();
            }
        }
        let per_solve = start.elapsed().as_secs_f64() / 1000.0;
        let per_stage = per_stage.map(|n| n as f64 / 1000.0);
        eprintln!(
            "beginner: mean length {:.2}, longest {longest}, {:.1} us per solve; per stage {per_stage:?}",
            total as f64 / 1000.0,
            per_solve * 1e6
        );
    }

    #[test]
    fn keeps_the_solver_contract() {
        crate::check_solver_contract(&Beginner::default());
    }
}
