//! The beginner's method (layer by layer) in seven stages, with the cross on D.
//!
//! 1. Bottom cross: one edge at a time, the cheapest next edge first, each by an exact
//!    breadth-first table over the tracked edges only (the new edge and the cross edges already
//!    solved); no case tables.
//! 2. Bottom corners: a shortest-path search over a macro alphabet of U turns and the trigger
//!    inserts (`R U R'`, `F' U' F`, `R U R' U'` and their kin) of every unsolved slot.
//! 3. Middle edges: the same search over U turns and the standard right and left inserts
//!    (`U R U' R' U' F' U F`, `U' F' U F U R U' R'`) of the unsolved slots only, so that no
//!    macro breaks a solved slot.
//! 4. Top cross: `F R U R' U' F'` with U turns between (dot, L and line cases).
//! 5. Top corners permuted: an outer-turn A-perm (`R' F R' B2 R F' R' B2 R2`) and its inverse,
//!    with U turns between. A U quarter turn is an odd permutation of the corners and the A-perm
//!    an even one, so the search chooses each U alignment by parity: a 3-cycle cannot fix a
//!    swapped pair.
//! 6. Top corners oriented: `R' D' R D` pairs on the corner at URF, U advances between corners;
//!    the D layer comes back when every corner is oriented (the twists sum to 0).
//! 7. Top edges permuted: an outer-turn U-perm (`R U' R U R U R U' R' U' R2`) and its inverse,
//!    conjugated by `U^k`.
//!
//! The macros are written once for one slot and turned to the others with `y` conjugation; which
//! slot a macro works on, and which way a 3-cycle turns, are read off cube-core's cubies at
//! start-up rather than assumed. Every loop has an iteration guard.

pub(crate) mod cross;
mod last_layer;
pub(crate) mod search;

use std::sync::OnceLock;

use cube_core::{Cube, Move, simplify};

use self::cross::{CROSS_EDGES, cross_tables, solved_cross_mask};
use self::search::{Macro, Piece, path_moves, piece_search, u_turns};
use crate::{Limits, Solution, SolveError, Solver, Stage, Stop};

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
/// let solution = &Beginner::new().solve(&cube, &Limits::default(), &Stop::new())?[0];
/// assert!(cube.apply_moves(&solution.moves).is_solved());
/// # Ok::<(), cube_solvers::SolveError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Beginner {
    config: Config,
}

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

/// The macros of the first two layers' stages.
struct Alphabets {
    u_turns: [Macro; 3],
    /// Corner inserts, by slot.
    corner: Vec<(usize, Macro)>,
    /// Middle-edge inserts, by slot.
    middle: Vec<(usize, Macro)>,
}

fn alphabets() -> &'static Alphabets {
    static ALPHABETS: OnceLock<Alphabets> = OnceLock::new();
    ALPHABETS.get_or_init(|| Alphabets {
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
        middle: macros_per_slot(&["U R U' R' U' F' U F", "U' F' U F U R U' R'"]),
    })
}

/// Whether the corner of slot `s` is home and unturned.
fn corner_solved(cube: &Cube, s: usize) -> bool {
    Piece::Corner(4 + s as u8).place(cube) == Piece::Corner(4 + s as u8).home()
}

/// Whether the edge of slot `s` is home and unflipped.
fn edge_solved(cube: &Cube, s: usize) -> bool {
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

impl Beginner {
    /// A solver with the default configuration.
    pub fn new() -> Beginner {
        Beginner::default()
    }

    /// A solver with `config`.
    pub fn with_config(config: Config) -> Beginner {
        Beginner { config }
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
        for (stage, label) in STAGE_LABELS.iter().enumerate() {
            let moves = simplify(&run_stage(&mut cube, stage)?);
            if !stage_done(&cube, stage) {
                return Err(stage_failed("beginner", label));
            }
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

/// Runs stage `stage` (0..7) on `cube`, returning its turns.
fn run_stage(cube: &mut Cube, stage: usize) -> Result<Vec<Move>, SolveError> {
    let label = STAGE_LABELS[stage];
    let moves = match stage {
        0 => solve_cross_edge_by_edge(cube, label)?,
        1 | 2 => {
            let a = alphabets();
            let inserts = if stage == 1 { &a.corner } else { &a.middle };
            let pieces = |s: usize| {
                vec![if stage == 1 {
                    Piece::Corner(4 + s as u8)
                } else {
                    Piece::Edge(8 + s as u8)
                }]
            };
            let solved = |cube: &Cube, s: usize| {
                if stage == 1 {
                    corner_solved(cube, s)
                } else {
                    edge_solved(cube, s)
                }
            };
            let parts = solve_targets_cheapest_first(
                cube,
                N_SLOTS,
                "beginner",
                label,
                solved,
                pieces,
                |cube, _| {
                    // U turns and the inserts of every slot that is not solved yet.
                    a.u_turns
                        .iter()
                        .chain(
                            inserts
                                .iter()
                                .filter(|(slot, _)| !solved(cube, *slot))
                                .map(|(_, m)| m),
                        )
                        .collect()
                },
            )?;
            return Ok(parts.concat());
        }
        _ => last_layer::run(cube, stage, label)?,
    };
    *cube = cube.apply_moves(&moves);
    Ok(moves)
}

/// The cross one edge at a time: at each round, the unsolved edge whose table (with the edges
/// solved so far) reads least.
fn solve_cross_edge_by_edge(cube: &Cube, label: &str) -> Result<Vec<Move>, SolveError> {
    let tables = cross_tables();
    let mut cube = *cube;
    let mut moves = Vec::new();
    for _round in 0..=4 {
        let solved = solved_cross_mask(&cube);
        if solved == 0b1111 {
            return Ok(moves);
        }
        let mask = (0..4)
            .filter(|i| solved >> i & 1 == 0)
            .map(|i| solved | 1 << i)
            .min_by_key(|&mask| tables.distance(mask, &cube))
            .expect("an unsolved cross edge exists");
        let step = tables.solve(mask, &cube);
        cube = cube.apply_moves(&step);
        moves.extend(step);
    }
    Err(stage_failed("beginner", label))
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
        let a = alphabets();
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
        let solver = Beginner::new();
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
        assert!(mean < 140.0, "mean {mean}");
    }

    #[test]
    fn keeps_the_solver_contract() {
        crate::check_solver_contract(&Beginner::new());
    }
}
