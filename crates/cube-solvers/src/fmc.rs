//! Step solvers for fewest-moves solving (FMC), with NISS: edge orientation, domino reduction
//! (from scratch or from edge orientation) and half turn reduction, on every axis, with
//! nissy-core's names, movesets and conventions, so that for the same settings the solution
//! sets are nissy-core's; and `htrfin`, the finish from half turn reduction in half turns
//! (nissy-classic's, which nissy-core lacks); the corners with fixed centers (`corners`) and
//! relative to each other (`cornersx`, a 2x2x2 in `U R F` turns); leaving the E slice from
//! domino reduction (`drudslice` ...) and the finish from it (`drudfin` ...).
//!
//! Every step is a row of one table ([`steps`]): its name and aliases, its moveset, its
//! requisite and its table family. A family serves every axis: the state is conjugated by the
//! row's rotation to the family's axis (U/D for domino reduction, F/B for edge orientation), the
//! search runs there and the solutions are turned back.
//!
//! The search ([`solve`]) is nissy-core's coordinate search in its rules (each move on the
//! normal side or on the inverse side, at most one switch, the switch only after a move that
//! changes the coordinate of the solved cube and before half the length, each side ending in a
//! clockwise quarter turn, the HTR filter), searched depth by depth from `min_moves` on, the
//! branches of a depth in parallel and put back in the order of a one-thread search. A depth's
//! search stops once it has the solutions still asked for, so one solution far above the optimum
//! costs the search up to it, and the solutions held are bounded by [`Settings::max_memory`].
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use cube_core::{Alg, Cube};
//! use cube_solvers::fmc::{self, Niss, Settings, StepTables};
//!
//! let step = fmc::step("eofb")?;
//! let tables = StepTables::build(step);
//! let state = Cube::SOLVED.apply_moves(&"R U F".parse::<Alg>()?.moves());
//! let settings = Settings { niss: Niss::Normal, ..Settings::default() };
//! let outcome = fmc::solve(step, &tables, &state, &settings, &AtomicBool::new(false))?;
//! assert_eq!(outcome.optimum, Some(1));
//! assert_eq!(outcome.solutions[0].to_string(), "F");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod coord;
pub mod insert;
mod search;
mod tables;

use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use cube_core::{Cube, Face, Move, MoveSet, NissAlg, Symmetry};
use cube_tables::{TableError, TableSpec};

use self::search::{Budget, Depth, Node};
pub use self::tables::{
    CornersTables, CornersXTables, DrEoTables, DrFinTables, DrSliceTables, DrTables, EoTables,
    HtrFinTables, HtrTables,
};
use self::tables::{Family, Kind, dr_moves, dr_moves_no_d, eo_moves, half_turns, urf_moves};
use crate::{Loaded, MethodTables, load_or_build};

/// NISS mode, nissy-core's flags: which sides the moves may be done on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Niss {
    /// Every move on the scramble.
    Normal,
    /// Every move on the inverse scramble.
    Inverse,
    /// Every move on one side, either one.
    Linear,
    /// Moves on both sides (one switch).
    Mixed,
    /// `linear` and `mixed`.
    All,
}

impl Niss {
    /// Every mode, in order.
    pub const ALL: [Niss; 5] = [
        Niss::Normal,
        Niss::Inverse,
        Niss::Linear,
        Niss::Mixed,
        Niss::All,
    ];

    /// The mode's name: `normal`, `inverse`, `linear`, `mixed` or `all`.
    pub const fn name(self) -> &'static str {
        match self {
            Niss::Normal => "normal",
            Niss::Inverse => "inverse",
            Niss::Linear => "linear",
            Niss::Mixed => "mixed",
            Niss::All => "all",
        }
    }
}

impl fmt::Display for Niss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Niss {
    type Err = FmcError;

    fn from_str(s: &str) -> Result<Niss, FmcError> {
        Niss::ALL
            .into_iter()
            .find(|n| n.name() == s)
            .ok_or_else(|| {
                FmcError::Settings(format!(
                    "unknown NISS mode {s:?}: one of normal, inverse, linear, mixed, all"
                ))
            })
    }
}

/// What a step needs solved before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Requisite {
    /// Nothing.
    None,
    /// Edge orientation on the frame's F/B axis.
    Eo,
    /// Domino reduction on the frame's U/D axis.
    Dr,
    /// Half turn reduction.
    Htr,
}

/// One row of the table of steps.
#[derive(Debug)]
pub struct Step {
    name: &'static str,
    aliases: &'static [&'static str],
    moveset: &'static str,
    requisite: &'static str,
    goal: &'static str,
    /// nissy-core's rotation name: the faces the rotation brings U and F to; the state is
    /// conjugated by it into the family's frame.
    frame: (Face, Face),
    kind: Kind,
    needs: Requisite,
    /// The axis of the requisite as the user names it (`F/B`).
    needs_axis: &'static str,
}

impl Step {
    /// The step's name (`drud-eofb`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// nissy-core's other names of the step (`coord_DREO_UF`).
    pub fn aliases(&self) -> &'static [&'static str] {
        self.aliases
    }

    /// The moves of its solutions, as text.
    pub fn moveset(&self) -> &'static str {
        self.moveset
    }

    /// What must be solved before it (`none`, `EO on F/B`, `DR on U/D`).
    pub fn requisite(&self) -> &'static str {
        self.requisite
    }

    /// What it solves (`EO on F/B`).
    pub fn goal(&self) -> &'static str {
        self.goal
    }

    /// Whether its solutions may switch between the normal and the inverse side (nissy-core's
    /// `allow_niss`; a step without may still be solved all on the inverse side).
    pub fn niss_allowed(&self) -> bool {
        self.kind.allows_niss()
    }

    /// The [`MethodTables::NAME`] of its table family.
    pub fn tables_name(&self) -> &'static str {
        match self.kind {
            Kind::Eo => EoTables::NAME,
            Kind::Dr => DrTables::NAME,
            Kind::DrEo => DrEoTables::NAME,
            Kind::Htr => HtrTables::NAME,
            Kind::HtrFin => HtrFinTables::NAME,
            Kind::Corners => CornersTables::NAME,
            Kind::CornersX => CornersXTables::NAME,
            Kind::DrSlice => DrSliceTables::NAME,
            Kind::DrFin => DrFinTables::NAME,
        }
    }

    /// The bytes of its family's tables.
    pub fn table_bytes(&self) -> u64 {
        self.table_specs().iter().map(|s| s.payload_len()).sum()
    }

    /// Its family's table files ([`MethodTables::SPECS`]).
    pub fn table_specs(&self) -> &'static [TableSpec] {
        match self.kind {
            Kind::Eo => EoTables::SPECS,
            Kind::Dr => DrTables::SPECS,
            Kind::DrEo => DrEoTables::SPECS,
            Kind::Htr => HtrTables::SPECS,
            Kind::HtrFin => HtrFinTables::SPECS,
            Kind::Corners => CornersTables::SPECS,
            Kind::CornersX => CornersXTables::SPECS,
            Kind::DrSlice => DrSliceTables::SPECS,
            Kind::DrFin => DrFinTables::SPECS,
        }
    }

    /// The rotation that carries the state into the family's frame.
    fn rotation(&self) -> Symmetry {
        let (top, front) = self.frame;
        Symmetry::rotations()
            .find(|s| {
                s.conjugate_move(Move::U1) == Move::new(top, 1)
                    && s.conjugate_move(Move::F1) == Move::new(front, 1)
            })
            .expect("every pair of adjacent faces names a rotation")
    }

    /// The moves of the search, in the family's frame.
    fn search_moves(&self) -> MoveSet {
        match self.kind {
            Kind::Eo | Kind::Dr | Kind::Corners => MoveSet::ALL,
            Kind::DrEo => eo_moves(),
            // nissy-core's HTR moveset: no D2.
            Kind::Htr => dr_moves().iter().filter(|&m| m != Move::D2).collect(),
            Kind::HtrFin => half_turns(),
            Kind::CornersX => urf_moves(),
            Kind::DrSlice => dr_moves_no_d(),
            Kind::DrFin => dr_moves(),
        }
    }
}

const ALL18: &str = "U D R L F B (all 18)";

macro_rules! row {
    ($name:literal, [$($alias:literal),*], $moveset:expr, $req:literal, $goal:literal,
     ($top:ident, $front:ident), $kind:ident, $needs:ident, $axis:literal) => {
        Step {
            name: $name,
            aliases: &[$($alias),*],
            moveset: $moveset,
            requisite: $req,
            goal: $goal,
            frame: (Face::$top, Face::$front),
            kind: Kind::$kind,
            needs: Requisite::$needs,
            needs_axis: $axis,
        }
    };
}

const DREO_MOVES: &str = "U D R L, F2 B2 (in the frame of DR on U/D from EO on F/B)";
const HALF_TURNS: &str = "U2 D2 R2 L2 F2 B2";
const HTR_MOVES: &str = "U U' U2 D D' R2 L2 F2 B2 (in the frame of DR on U/D)";

const URF_MOVES: &str = "U R F";
const DRSLICE_MOVES: &str = "U U' U2 R2 L2 F2 B2 (in the frame of DR on U/D)";
const DR_MOVES: &str = "U U' U2 D D' D2 R2 L2 F2 B2 (in the frame of DR on U/D)";

static STEPS: [Step; 24] = [
    row!(
        "eofb",
        ["coord_EO_UF"],
        ALL18,
        "none",
        "EO on F/B",
        (U, F),
        Eo,
        None,
        ""
    ),
    row!(
        "eorl",
        ["coord_EO_UR"],
        ALL18,
        "none",
        "EO on R/L",
        (U, R),
        Eo,
        None,
        ""
    ),
    row!(
        "eoud",
        ["coord_EO_FD"],
        ALL18,
        "none",
        "EO on U/D",
        (F, D),
        Eo,
        None,
        ""
    ),
    row!(
        "drud",
        ["coord_DR_UF"],
        ALL18,
        "none",
        "DR on U/D",
        (U, F),
        Dr,
        None,
        ""
    ),
    row!(
        "drrl",
        ["coord_DR_RF"],
        ALL18,
        "none",
        "DR on R/L",
        (R, F),
        Dr,
        None,
        ""
    ),
    row!(
        "drfb",
        ["coord_DR_FD"],
        ALL18,
        "none",
        "DR on F/B",
        (F, D),
        Dr,
        None,
        ""
    ),
    row!(
        "drud-eofb",
        ["coord_DREO_UF"],
        DREO_MOVES,
        "EO on F/B",
        "DR on U/D",
        (U, F),
        DrEo,
        Eo,
        "F/B"
    ),
    row!(
        "drrl-eofb",
        ["coord_DREO_RF"],
        DREO_MOVES,
        "EO on F/B",
        "DR on R/L",
        (R, F),
        DrEo,
        Eo,
        "F/B"
    ),
    row!(
        "drud-eorl",
        ["coord_DREO_UR"],
        DREO_MOVES,
        "EO on R/L",
        "DR on U/D",
        (U, R),
        DrEo,
        Eo,
        "R/L"
    ),
    row!(
        "drfb-eorl",
        ["coord_DREO_RU"],
        DREO_MOVES,
        "EO on R/L",
        "DR on F/B",
        (R, U),
        DrEo,
        Eo,
        "R/L"
    ),
    row!(
        "drrl-eoud",
        ["coord_DREO_FR"],
        DREO_MOVES,
        "EO on U/D",
        "DR on R/L",
        (F, R),
        DrEo,
        Eo,
        "U/D"
    ),
    row!(
        "drfb-eoud",
        ["coord_DREO_FD"],
        DREO_MOVES,
        "EO on U/D",
        "DR on F/B",
        (F, D),
        DrEo,
        Eo,
        "U/D"
    ),
    row!(
        "htr-drud",
        ["coord_HTR_UF"],
        HTR_MOVES,
        "DR on U/D",
        "HTR",
        (U, F),
        Htr,
        Dr,
        "U/D"
    ),
    row!(
        "htr-drrl",
        ["coord_HTR_LF"],
        HTR_MOVES,
        "DR on R/L",
        "HTR",
        (L, F),
        Htr,
        Dr,
        "R/L"
    ),
    row!(
        "htr-drfb",
        ["coord_HTR_BU"],
        HTR_MOVES,
        "DR on F/B",
        "HTR",
        (B, U),
        Htr,
        Dr,
        "F/B"
    ),
    // nissy-classic's finish from HTR (nissy-core lacks it); HTR is the same on every axis.
    row!(
        "htrfin",
        [],
        HALF_TURNS,
        "HTR",
        "solved",
        (U, F),
        HtrFin,
        Htr,
        ""
    ),
    row!(
        "drudslice",
        ["coord_DRSLICE_UF"],
        DRSLICE_MOVES,
        "DR on U/D",
        "all but the E slice",
        (U, F),
        DrSlice,
        Dr,
        "U/D"
    ),
    row!(
        "drrlslice",
        ["coord_DRSLICE_LF"],
        DRSLICE_MOVES,
        "DR on R/L",
        "all but the M slice",
        (L, F),
        DrSlice,
        Dr,
        "R/L"
    ),
    row!(
        "drfbslice",
        ["coord_DRSLICE_BU"],
        DRSLICE_MOVES,
        "DR on F/B",
        "all but the S slice",
        (B, U),
        DrSlice,
        Dr,
        "F/B"
    ),
    row!(
        "drudfin",
        ["coord_DRFIN_UF"],
        DR_MOVES,
        "DR on U/D",
        "solved",
        (U, F),
        DrFin,
        Dr,
        "U/D"
    ),
    row!(
        "drrlfin",
        ["coord_DRFIN_LF"],
        DR_MOVES,
        "DR on R/L",
        "solved",
        (L, F),
        DrFin,
        Dr,
        "R/L"
    ),
    row!(
        "drfbfin",
        ["coord_DRFIN_BU"],
        DR_MOVES,
        "DR on F/B",
        "solved",
        (B, U),
        DrFin,
        Dr,
        "F/B"
    ),
    row!(
        "corners",
        ["coord_CORNERS_UF"],
        ALL18,
        "none",
        "corners (centers fixed)",
        (U, F),
        Corners,
        None,
        ""
    ),
    row!(
        "cornersx",
        ["coord_CORNERSX_UF"],
        URF_MOVES,
        "none",
        "corners relative to each other (a 2x2x2)",
        (U, F),
        CornersX,
        None,
        ""
    ),
];

/// Every step, in nissy-core's order.
pub fn steps() -> &'static [Step] {
    &STEPS
}

/// The step named `name` (a name or an alias).
///
/// # Errors
/// [`FmcError::UnknownStep`], with the nearest names.
pub fn step(name: &str) -> Result<&'static Step, FmcError> {
    if let Some(step) = STEPS
        .iter()
        .find(|s| s.name == name || s.aliases.contains(&name))
    {
        return Ok(step);
    }
    let lower = name.to_ascii_lowercase();
    let mut by_distance: Vec<(usize, &'static str)> = STEPS
        .iter()
        .map(|s| (edit_distance(&lower, s.name), s.name))
        .collect();
    by_distance.sort();
    let best = by_distance[0].0;
    Err(FmcError::UnknownStep {
        name: name.to_string(),
        suggestions: by_distance
            .iter()
            .take_while(|(d, _)| *d <= best.max(2) && *d <= best + 1)
            .take(3)
            .map(|&(_, n)| n)
            .collect(),
    })
}

/// Levenshtein distance, for suggestions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// The settings of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Which sides moves may be done on (ignored by the steps without NISS, as nissy-core
    /// ignores it: leave-slice, the finishes, the corners, which search the normal side).
    pub niss: Niss,
    /// The shortest length of a solution.
    pub min_moves: u8,
    /// The longest length of a solution (at least `min_moves`, at most 20).
    pub max_moves: u8,
    /// At most this many solutions (at least 1).
    pub max_solutions: usize,
    /// Only solutions at most this many moves longer than the shortest; `None`: every solution up
    /// to `max_moves`.
    pub above_optimal: Option<u8>,
    /// Count the solutions without keeping them.
    pub count_only: bool,
    /// Threads, 1 to 1024.
    pub threads: usize,
    /// The most memory the solutions may take while the search holds them, in bytes (reckoned:
    /// about 100 bytes a solution and 64 a move, the [`NissAlg`] returned included). A search
    /// that would hold more stops with the first solutions, its outcome incomplete
    /// ([`Cut::Memory`]). Counting (`count_only`) holds none. Default [`DEFAULT_MAX_MEMORY`].
    pub max_memory: usize,
}

/// The default [`Settings::max_memory`]: 128 MiB, about 230,000 solutions of 8 moves or 170,000
/// of 11 (a program that prints them takes about as much again for their text).
pub const DEFAULT_MAX_MEMORY: usize = 128 << 20;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            niss: Niss::Normal,
            min_moves: 0,
            max_moves: 20,
            max_solutions: 1,
            above_optimal: None,
            count_only: false,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }
}

impl Settings {
    fn check(&self) -> Result<(), FmcError> {
        if self.max_moves < self.min_moves {
            return Err(FmcError::Settings(format!(
                "the maximum length {} is below the minimum {}",
                self.max_moves, self.min_moves
            )));
        }
        if self.max_moves > 20 {
            return Err(FmcError::Settings(format!(
                "the maximum length {} is above 20",
                self.max_moves
            )));
        }
        if self.max_solutions == 0 {
            return Err(FmcError::Settings(
                "the number of solutions must be at least 1".to_string(),
            ));
        }
        if !(1..=1024).contains(&self.threads) {
            return Err(FmcError::Settings(format!(
                "threads must be 1 to 1024, not {}",
                self.threads
            )));
        }
        Ok(())
    }
}

/// The tables of one step family, loaded or built; cheap to clone.
#[derive(Clone)]
pub enum StepTables {
    /// Edge orientation.
    Eo(Arc<EoTables>),
    /// Domino reduction.
    Dr(Arc<DrTables>),
    /// Domino reduction from edge orientation.
    DrEo(Arc<DrEoTables>),
    /// Half turn reduction.
    Htr(Arc<HtrTables>),
    /// The finish from half turn reduction.
    HtrFin(Arc<HtrFinTables>),
    /// The corners with fixed centers.
    Corners(Arc<CornersTables>),
    /// The corners relative to each other.
    CornersX(Arc<CornersXTables>),
    /// Leaving the E slice from domino reduction.
    DrSlice(Arc<DrSliceTables>),
    /// The finish from domino reduction.
    DrFin(Arc<DrFinTables>),
}

impl fmt::Debug for StepTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StepTables({})", self.name())
    }
}

impl StepTables {
    /// The tables of `step`'s family, built in memory.
    pub fn build(step: &Step) -> StepTables {
        match step.kind {
            Kind::Eo => StepTables::Eo(Arc::new(EoTables::build())),
            Kind::Dr => StepTables::Dr(Arc::new(DrTables::build())),
            Kind::DrEo => StepTables::DrEo(Arc::new(DrEoTables::build())),
            Kind::Htr => StepTables::Htr(Arc::new(HtrTables::build())),
            Kind::HtrFin => StepTables::HtrFin(Arc::new(HtrFinTables::build())),
            Kind::Corners => StepTables::Corners(Arc::new(CornersTables::build())),
            Kind::CornersX => StepTables::CornersX(Arc::new(CornersXTables::build())),
            Kind::DrSlice => StepTables::DrSlice(Arc::new(DrSliceTables::build())),
            Kind::DrFin => StepTables::DrFin(Arc::new(DrFinTables::build())),
        }
    }

    /// The tables of `step`'s family from the table directory `dir`, built and written there
    /// when missing (see [`load_or_build`]).
    ///
    /// # Errors
    /// As [`load_or_build`].
    pub fn load_or_build(step: &Step, dir: &Path) -> Result<Loaded<StepTables>, TableError> {
        fn wrap<T: MethodTables>(
            loaded: Loaded<T>,
            f: impl FnOnce(Arc<T>) -> StepTables,
        ) -> Loaded<StepTables> {
            Loaded {
                tables: Arc::new(f(loaded.tables)),
                built: loaded.built,
                not_written: loaded.not_written,
            }
        }
        Ok(match step.kind {
            Kind::Eo => wrap(load_or_build::<EoTables>(dir)?, StepTables::Eo),
            Kind::Dr => wrap(load_or_build::<DrTables>(dir)?, StepTables::Dr),
            Kind::DrEo => wrap(load_or_build::<DrEoTables>(dir)?, StepTables::DrEo),
            Kind::Htr => wrap(load_or_build::<HtrTables>(dir)?, StepTables::Htr),
            Kind::HtrFin => wrap(load_or_build::<HtrFinTables>(dir)?, StepTables::HtrFin),
            Kind::Corners => wrap(load_or_build::<CornersTables>(dir)?, StepTables::Corners),
            Kind::CornersX => wrap(load_or_build::<CornersXTables>(dir)?, StepTables::CornersX),
            Kind::DrSlice => wrap(load_or_build::<DrSliceTables>(dir)?, StepTables::DrSlice),
            Kind::DrFin => wrap(load_or_build::<DrFinTables>(dir)?, StepTables::DrFin),
        })
    }

    /// The family's [`MethodTables::NAME`].
    pub fn name(&self) -> &'static str {
        match self {
            StepTables::Eo(_) => EoTables::NAME,
            StepTables::Dr(_) => DrTables::NAME,
            StepTables::DrEo(_) => DrEoTables::NAME,
            StepTables::Htr(_) => HtrTables::NAME,
            StepTables::HtrFin(_) => HtrFinTables::NAME,
            StepTables::Corners(_) => CornersTables::NAME,
            StepTables::CornersX(_) => CornersXTables::NAME,
            StepTables::DrSlice(_) => DrSliceTables::NAME,
            StepTables::DrFin(_) => DrFinTables::NAME,
        }
    }

    /// The bytes of the tables.
    pub fn bytes(&self) -> u64 {
        self.family().bytes()
    }

    /// Maps every page of the tables that are mapped from their files now (the DR and DR-finish
    /// families' symmetric distances, 56-70 MB), so that the queries that follow take no page
    /// fault. Worth it before many queries (a batch, a library or Python process): a first query
    /// otherwise faults its table in page by page, and a one-state process touches only the pages
    /// its search reads.
    pub fn prefault(&self) {
        self.family().prefault();
    }

    fn family(&self) -> &Family {
        match self {
            StepTables::Eo(t) => &t.0,
            StepTables::Dr(t) => &t.0,
            StepTables::DrEo(t) => &t.0,
            StepTables::Htr(t) => &t.0,
            StepTables::HtrFin(t) => &t.0,
            StepTables::Corners(t) => &t.0,
            StepTables::CornersX(t) => &t.0,
            StepTables::DrSlice(t) => &t.0,
            StepTables::DrFin(t) => &t.0,
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The solutions, by length, then in the order of a one-thread search (nissy-core's).
    pub solutions: Vec<NissAlg>,
    /// How many solutions (`solutions.len()` unless counting only).
    pub count: usize,
    /// The length of the shortest solution found.
    pub optimum: Option<u8>,
    /// False when the search ended before it was through (`cut` says why); `solutions` are then
    /// the first ones of a complete search's.
    pub complete: bool,
    /// What ended the search before it was through.
    pub cut: Option<Cut>,
}

/// What ended a search before it was through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The stop flag was raised.
    Stopped,
    /// The solutions would have taken more than [`Settings::max_memory`].
    Memory,
}

/// Checks that `state` (in the step's frame) meets `step`'s requisite.
fn check_requisite(step: &Step, family: &Family, frame_state: &Cube) -> Result<(), FmcError> {
    let misoriented = frame_state.edge_ori().iter().filter(|&&o| o != 0).count();
    let detail = match step.needs {
        Requisite::None => return Ok(()),
        Requisite::Eo if misoriented == 0 => return Ok(()),
        Requisite::Eo => format!(
            "edge orientation solved on {}: {misoriented} edges are misoriented on that axis",
            step.needs_axis
        ),
        Requisite::Dr | Requisite::Htr => {
            let twisted = frame_state.corner_ori().iter().filter(|&&o| o != 0).count();
            let out_of_slice = frame_state.edge_perm()[8..]
                .iter()
                .filter(|&&e| e < 8)
                .count();
            let mut parts = Vec::new();
            if twisted > 0 {
                parts.push(format!("{twisted} corners are twisted"));
            }
            if misoriented > 0 {
                parts.push(format!("{misoriented} edges are misoriented"));
            }
            if out_of_slice > 0 {
                parts.push(format!("{out_of_slice} slice edges are out of their slice"));
            }
            if step.needs == Requisite::Dr {
                if parts.is_empty() {
                    return Ok(());
                }
                format!(
                    "domino reduction on {}: {} on that axis",
                    step.needs_axis,
                    parts.join(", ")
                )
            } else {
                let wrong_orbit = frame_state.edge_perm()[..8]
                    .iter()
                    .enumerate()
                    .filter(|&(i, &e)| e >= 8 || usize::from(e % 2) != i % 2)
                    .count();
                if wrong_orbit > 0 {
                    parts.push(format!(
                        "{wrong_orbit} U/D-layer edges are out of their slice"
                    ));
                }
                if !family.ranks().is_htr_corner_perm(frame_state) {
                    parts.push("the corners are not in a half-turn permutation".to_string());
                }
                if parts.is_empty() {
                    return Ok(());
                }
                format!("half turn reduction: {}", parts.join(", "))
            }
        }
    };
    Err(FmcError::Requisite {
        step: step.name,
        detail,
    })
}

/// Solves `step` on `state` (the scramble's state). A solution's normal part is done on the
/// state, its inverse part on the inverse state ([`NissAlg`]'s meaning).
///
/// # Errors
/// [`FmcError::WrongTables`] for tables of another family, [`FmcError::Settings`],
/// [`FmcError::Requisite`] when the state does not meet the step's requisite.
pub fn solve(
    step: &Step,
    tables: &StepTables,
    state: &Cube,
    settings: &Settings,
    stop: &AtomicBool,
) -> Result<Outcome, FmcError> {
    if tables.family().kind() != step.kind {
        return Err(FmcError::WrongTables {
            step: step.name,
            expected: step.tables_name(),
            given: tables.name(),
        });
    }
    settings.check()?;
    let rotation = step.rotation();
    let frame_state = rotation.conjugate(state);
    let family = tables.family();
    check_requisite(step, family, &frame_state)?;
    let back = rotation.inverse();
    let to_alg = |found: &search::Found| {
        let turn = |moves: &[Move]| -> Vec<Move> {
            sort_parallel(moves.iter().map(|&m| back.conjugate_move(m)).collect())
        };
        NissAlg::from_moves(&turn(found.normal()), &turn(found.inverse()))
    };
    let mut outcome = Outcome {
        solutions: Vec::new(),
        count: 0,
        optimum: None,
        complete: true,
        cut: None,
    };
    if family.is_solved(&frame_state) {
        if settings.min_moves == 0 {
            outcome.count = 1;
            outcome.optimum = Some(0);
            if !settings.count_only {
                outcome.solutions.push(NissAlg::from_moves(&[], &[]));
            }
        }
        return Ok(outcome);
    }
    let can_switch = std::array::from_fn(|i| {
        step.kind.allows_niss() && family.changes_solved(Move::from_index(i))
    });
    // The pool the caller runs in when it has as many threads (the usual case: all cores), so
    // that a query, often well under a millisecond of search, starts no threads of its own.
    let pool = (settings.threads != rayon::current_num_threads())
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(settings.threads)
                .build()
                .map_err(|e| {
                    FmcError::Settings(format!("cannot start {} threads: {e}", settings.threads))
                })
        })
        .transpose()?;
    let root = Node::root(&frame_state);
    let moveset = step.search_moves();
    let frame_inverse = frame_state.inverse();
    let root_coords = [
        family.coords(&frame_state, moveset),
        family.coords(&frame_inverse, moveset),
    ];
    // No solution is shorter than the bound of the side (or both sides, for `linear`) its moves
    // are on: the depths below it are skipped (not so with mixed sides).
    let niss = if step.kind.allows_niss() {
        settings.niss
    } else {
        Niss::Normal
    };
    let shortest = match niss {
        Niss::Normal => family.bound(&frame_state),
        Niss::Inverse => family.bound(&frame_inverse),
        Niss::Linear => family.bound(&frame_state).min(family.bound(&frame_inverse)),
        Niss::Mixed | Niss::All => 0,
    };
    // Each depth's search takes several times the one before: the first ones, up to one that
    // takes a good part of a millisecond, run on the calling thread (handing a few microseconds
    // of work to other threads costs more than it gains), the rest in parallel. A depth's search
    // stops once it has the solutions still asked for: a long minimum with few solutions asked
    // costs the search up to the first ones at that length, not all of them.
    let budget = Budget::new(settings.max_memory);
    let keep = !settings.count_only;
    let mut parallel = false;
    for target in settings.min_moves.max(1).max(shortest)..=settings.max_moves {
        if outcome
            .optimum
            .zip(settings.above_optimal)
            .is_some_and(|(best, k)| target > best.saturating_add(k))
            || outcome.count >= settings.max_solutions
        {
            break;
        }
        let depth = Depth {
            family,
            moveset,
            niss,
            target: usize::from(target),
            can_switch,
            htr_filter: step.kind == Kind::Htr,
            ending_clockwise: step.kind.ends_clockwise(),
            stop,
            budget: &budget,
            root: &root,
            root_coords,
            parallel: parallel && settings.threads > 1,
        };
        let room = settings.max_solutions - outcome.count;
        let started = std::time::Instant::now();
        let found = match &pool {
            Some(pool) => pool.install(|| depth.solutions(room, keep)),
            None => depth.solutions(room, keep),
        };
        parallel |= started.elapsed() > PARALLEL_AFTER;
        let mut through = found.through;
        let mut count = found.count;
        if keep {
            outcome.solutions.reserve(found.found.len());
            for (i, solution) in found.found.iter().enumerate() {
                // Up to the budget's 200,000 solutions or so: the stop flag is read on the way.
                if i % 4096 == 4095 && stop.load(std::sync::atomic::Ordering::Relaxed) {
                    count = i;
                    through = false;
                    break;
                }
                outcome.solutions.push(to_alg(solution));
            }
        }
        if count > 0 {
            outcome.optimum.get_or_insert(target);
        }
        outcome.count += count;
        if !through {
            outcome.complete = false;
            // Only the stop flag and the budget end a search early.
            outcome.cut = Some(if stop.load(std::sync::atomic::Ordering::Relaxed) {
                Cut::Stopped
            } else {
                debug_assert!(budget.is_over());
                Cut::Memory
            });
            break;
        }
    }
    Ok(outcome)
}

/// A depth of the search that took longer than this has the next ones searched in parallel.
const PARALLEL_AFTER: std::time::Duration = std::time::Duration::from_micros(300);

/// The moves with each pair of commuting parallel moves in the canonical order (U before D,
/// R before L, F before B), as nissy-core writes them.
fn sort_parallel(mut moves: Vec<Move>) -> Vec<Move> {
    for i in 1..moves.len() {
        let (a, b) = (moves[i - 1], moves[i]);
        if a.face().axis() == b.face().axis() && a.face().index() > b.face().index() {
            moves.swap(i - 1, i);
        }
    }
    moves
}

/// Why a step cannot be solved as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FmcError {
    /// No step has this name or alias.
    UnknownStep {
        /// The name given.
        name: String,
        /// The nearest step names.
        suggestions: Vec<&'static str>,
    },
    /// The state does not meet the step's requisite.
    Requisite {
        /// The step.
        step: &'static str,
        /// What is wrong.
        detail: String,
    },
    /// A setting out of range.
    Settings(String),
    /// Tables of another family handed in.
    WrongTables {
        /// The step.
        step: &'static str,
        /// Its family.
        expected: &'static str,
        /// The family given.
        given: &'static str,
    },
}

impl FmcError {
    /// A short rule name for the error, as the crate's other errors have.
    pub fn code(&self) -> &'static str {
        match self {
            FmcError::UnknownStep { .. } => "unknown-step",
            FmcError::Requisite { .. } => "requisite",
            FmcError::Settings(_) => "settings",
            FmcError::WrongTables { .. } => "wrong-tables",
        }
    }
}

impl fmt::Display for FmcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FmcError::UnknownStep { name, suggestions } => {
                write!(f, "unknown step {name:?}")?;
                if !suggestions.is_empty() {
                    write!(f, "; did you mean {}?", suggestions.join(", "))?;
                }
                Ok(())
            }
            FmcError::Requisite { step, detail } => write!(f, "{step} needs {detail}"),
            FmcError::Settings(why) => f.write_str(why),
            FmcError::WrongTables {
                step,
                expected,
                given,
            } => write!(
                f,
                "{step} needs the {expected} tables, not the {given} tables"
            ),
        }
    }
}

impl std::error::Error for FmcError {}
