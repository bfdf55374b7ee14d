//! The table families of the FMC steps: each is a [`MethodTables`] value whose payloads are
//! its pruning tables (one byte per entry), serving the steps of every axis (the state is
//! conjugated to the family's axis first).

use cube_core::{Cube, Face, Move, MoveSet};
use cube_tables::{Encoding, TableId, TableSpec};

use super::coord::{Part, Ranks, TableDef, build_table};
use crate::{MethodTables, PayloadError, Payloads};

/// The families of tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Edge orientation on F/B, all 18 moves.
    Eo,
    /// Domino reduction on U/D, all 18 moves.
    Dr,
    /// Domino reduction on U/D from edge orientation on F/B.
    DrEo,
    /// Half turn reduction from domino reduction on U/D.
    Htr,
    /// The finish from half turn reduction, half turns only.
    HtrFin,
    /// The corners with the centers fixed, all 18 moves.
    Corners,
    /// The corners relative to each other (a 2x2x2), `U R F` turns.
    CornersX,
    /// Leave the E slice from domino reduction on U/D: `U` turns and `R2 L2 F2 B2`.
    DrSlice,
    /// The finish from domino reduction on U/D.
    DrFin,
}

/// `U D R L` (all turns), `F2 B2`: the moves that keep edge orientation on F/B.
pub(crate) fn eo_moves() -> MoveSet {
    Move::ALL
        .into_iter()
        .filter(|m| m.face().axis() != 2 || m.is_half_turn())
        .collect()
}

/// The turns of U, R and F: the moves of a 2x2x2 that keep its DBL corner.
pub(crate) fn urf_moves() -> MoveSet {
    Move::ALL
        .into_iter()
        .filter(|m| matches!(m.face(), Face::U | Face::R | Face::F))
        .collect()
}

/// [`dr_moves`] without the D turns.
pub(crate) fn dr_moves_no_d() -> MoveSet {
    dr_moves().iter().filter(|m| m.face() != Face::D).collect()
}

/// The six half turns.
pub(crate) fn half_turns() -> MoveSet {
    Move::ALL.into_iter().filter(|m| m.is_half_turn()).collect()
}

/// `U D` (all turns), `R2 L2 F2 B2`: the moves that keep domino reduction on U/D.
pub(crate) fn dr_moves() -> MoveSet {
    Move::ALL
        .into_iter()
        .filter(|m| m.face().axis() == 0 || m.is_half_turn())
        .collect()
}

const EO_TABLES: [TableDef; 1] = [TableDef {
    parts: &[Part::Eo],
    moves: None,
}];
const DR_TABLES: [TableDef; 2] = [
    TableDef {
        parts: &[Part::Eo, Part::ESlice],
        moves: None,
    },
    TableDef {
        parts: &[Part::Co, Part::ESlice],
        moves: None,
    },
];
const DREO_TABLES: [TableDef; 1] = [TableDef {
    parts: &[Part::ESlice, Part::Co],
    moves: None,
}];
const HTRFIN_TABLES: [TableDef; 1] = [TableDef {
    parts: &[Part::HtrCp, Part::MPerm, Part::SPerm, Part::EPerm],
    moves: None,
}];
/// The corners relative to DBL, by `U R F` turns: a lower bound for the corners with fixed
/// centers too (a D, L or B turn does to the corners what the opposite turn and a rotation do).
const RELATIVE_CORNERS: TableDef = TableDef {
    parts: &[Part::RelCp, Part::RelCo],
    moves: Some(urf_moves),
};
const CORNERS_TABLES: [TableDef; 3] = [
    TableDef {
        parts: &[Part::Cp],
        moves: None,
    },
    TableDef {
        parts: &[Part::Co],
        moves: None,
    },
    RELATIVE_CORNERS,
];
const CORNERSX_TABLES: [TableDef; 1] = [RELATIVE_CORNERS];
const DRSLICE_TABLES: [TableDef; 2] = [
    TableDef {
        parts: &[Part::Cp, Part::UdSep],
        moves: None,
    },
    TableDef {
        parts: &[Part::UdEp],
        moves: None,
    },
];
const DRFIN_TABLES: [TableDef; 3] = [
    TableDef {
        parts: &[Part::Cp, Part::EPerm],
        moves: None,
    },
    TableDef {
        parts: &[Part::UdEp, Part::EPerm],
        moves: None,
    },
    TableDef {
        parts: &[Part::Cp, Part::UdSep],
        moves: None,
    },
];
const HTR_TABLES: [TableDef; 1] = [TableDef {
    parts: &[Part::Cp, Part::UdSep],
    moves: None,
}];

impl Kind {
    /// Whether the family's steps may switch sides (nissy-core's `allow_niss`).
    pub(crate) fn allows_niss(self) -> bool {
        !matches!(
            self,
            Kind::Corners | Kind::CornersX | Kind::DrSlice | Kind::DrFin
        )
    }

    /// Whether each side of a solution must end in a clockwise quarter turn (nissy-core's
    /// admissibility of its NISS steps).
    pub(crate) fn ends_clockwise(self) -> bool {
        matches!(self, Kind::Eo | Kind::Dr | Kind::DrEo | Kind::Htr)
    }

    /// The family's tables.
    fn defs(self) -> &'static [TableDef] {
        match self {
            Kind::Eo => &EO_TABLES,
            Kind::Dr => &DR_TABLES,
            Kind::DrEo => &DREO_TABLES,
            Kind::Htr => &HTR_TABLES,
            Kind::HtrFin => &HTRFIN_TABLES,
            Kind::Corners => &CORNERS_TABLES,
            Kind::CornersX => &CORNERSX_TABLES,
            Kind::DrSlice => &DRSLICE_TABLES,
            Kind::DrFin => &DRFIN_TABLES,
        }
    }

    /// The moves the tables count.
    fn moves(self) -> MoveSet {
        match self {
            Kind::Eo | Kind::Dr | Kind::Corners => MoveSet::ALL,
            Kind::DrEo => eo_moves(),
            Kind::Htr | Kind::DrFin => dr_moves(),
            Kind::DrSlice => dr_moves_no_d(),
            Kind::HtrFin => half_turns(),
            Kind::CornersX => urf_moves(),
        }
    }

    /// The states the family's goal is read from: the solved cube; for HTR a cube of every
    /// corner permutation that half turns make (with the U/D-layer edges split between the M and
    /// S slices); for leave-slice the U and D layers solved with each other, turned together by
    /// any amount against the E slice (`U D'`, `U' D`, `U2 D2`: the E-layer centers may be off).
    fn goal_cubes(self) -> Vec<Cube> {
        let half_turns: Vec<Move> = Move::ALL.into_iter().filter(|m| m.is_half_turn()).collect();
        let mut cubes = vec![Cube::SOLVED];
        if self == Kind::DrSlice {
            for (u, d) in [
                (Move::U1, Move::D3),
                (Move::U3, Move::D1),
                (Move::U2, Move::D2),
            ] {
                cubes.push(Cube::from_move(u).apply_move(d));
            }
        }
        if self == Kind::Htr {
            let mut i = 0;
            while i < cubes.len() {
                for &m in &half_turns {
                    let next = cubes[i].apply_move(m);
                    if cubes.iter().all(|c| c.corner_perm() != next.corner_perm()) {
                        cubes.push(next);
                    }
                }
                i += 1;
            }
        }
        cubes
    }

    /// The goal entries of table `def`.
    fn goals(self, def: &TableDef, ranks: &Ranks) -> Vec<usize> {
        self.goal_cubes()
            .iter()
            .map(|c| def.index(c, ranks))
            .collect()
    }

    /// For a family whose tables read 0 on mixtures of goals, the table whose entry tells a goal
    /// exactly (leave-slice: the corner and U/D-edge permutations, which its tables read apart).
    fn exact_goal(self) -> Option<TableDef> {
        (self == Kind::DrSlice).then_some(TableDef {
            parts: &[Part::Cp, Part::UdEp],
            moves: None,
        })
    }
}

/// The pruning tables of one family, with what reading them needs.
pub(crate) struct Family {
    kind: Kind,
    ranks: Ranks,
    tables: Vec<Vec<u8>>,
    /// [`Kind::exact_goal`]'s entries of the goals.
    exact_goals: Vec<usize>,
}

impl Family {
    fn new(kind: Kind, ranks: Ranks, tables: Vec<Vec<u8>>) -> Family {
        let exact_goals = kind
            .exact_goal()
            .map_or_else(Vec::new, |def| kind.goals(&def, &ranks));
        Family {
            kind,
            ranks,
            tables,
            exact_goals,
        }
    }

    /// Builds the family's tables (each table on its own rayon task).
    fn build(kind: Kind) -> Family {
        use rayon::prelude::*;
        let ranks = Ranks::new();
        let tables = kind
            .defs()
            .par_iter()
            .map(|def| {
                let moves = def.moves.map_or_else(|| kind.moves(), |f| f());
                build_table(def, moves, &kind.goals(def, &ranks), &ranks)
            })
            .collect();
        Family::new(kind, ranks, tables)
    }

    /// The family from its payloads, each checked: its length and its goals at 0.
    fn from_payloads(
        kind: Kind,
        specs: &[TableSpec],
        mut payloads: Payloads,
    ) -> Result<Family, PayloadError> {
        let ranks = Ranks::new();
        let mut tables = Vec::new();
        for (def, spec) in kind.defs().iter().zip(specs) {
            let table = payloads.take(spec)?;
            if kind.goals(def, &ranks).iter().any(|&g| table[g] != 0) {
                return Err(PayloadError::Unsound {
                    id: spec.id,
                    why: "a goal not at distance 0",
                });
            }
            tables.push(table);
        }
        Ok(Family::new(kind, ranks, tables))
    }

    /// The family's kind.
    pub(crate) fn kind(&self) -> Kind {
        self.kind
    }

    /// A lower bound on the moves that solve the family's goal from `cube`.
    #[inline]
    pub(crate) fn bound(&self, cube: &Cube) -> u8 {
        self.kind
            .defs()
            .iter()
            .zip(&self.tables)
            .map(|(def, table)| table[def.index(cube, &self.ranks)])
            .max()
            .unwrap_or(0)
    }

    /// Whether `cube` meets the family's goal.
    #[inline]
    pub(crate) fn is_solved(&self, cube: &Cube) -> bool {
        self.bound(cube) == 0
            && self
                .kind
                .exact_goal()
                .is_none_or(|def| self.exact_goals.contains(&def.index(cube, &self.ranks)))
    }

    /// Whether `m` changes the coordinate of the solved cube (nissy-core lets the search switch
    /// sides only after such a move).
    pub(crate) fn changes_solved(&self, m: Move) -> bool {
        let moved = Cube::from_move(m);
        self.kind
            .defs()
            .iter()
            .any(|def| def.index(&moved, &self.ranks) != def.index(&Cube::SOLVED, &self.ranks))
    }

    /// The rank tables.
    pub(crate) fn ranks(&self) -> &Ranks {
        &self.ranks
    }

    /// The bytes of the tables.
    pub(crate) fn bytes(&self) -> u64 {
        self.tables.iter().map(|t| t.len() as u64).sum()
    }
}

macro_rules! family {
    ($(#[$doc:meta])* $ty:ident, $kind:expr, $name:literal, [$(($id:literal, $n:expr)),+]) => {
        $(#[$doc])*
        pub struct $ty(pub(crate) Family);

        impl MethodTables for $ty {
            const NAME: &'static str = $name;
            const SPECS: &'static [TableSpec] = &[$(
                TableSpec::new(TableId::from_static($id), Encoding::Byte, $n),
            )+];

            fn build() -> $ty {
                $ty(Family::build($kind))
            }

            fn payload(&self, id: TableId) -> Option<&[u8]> {
                let i = Self::SPECS.iter().position(|s| s.id == id)?;
                Some(&self.0.tables[i])
            }

            fn from_payloads(payloads: Payloads) -> Result<$ty, PayloadError> {
                Family::from_payloads($kind, Self::SPECS, payloads).map($ty)
            }
        }
    };
}

family!(
    /// The edge orientation tables (`eofb`, `eorl`, `eoud`): 2,048 entries.
    EoTables, Kind::Eo, "fmc-eo", [("fmc-eo", 2048)]
);
family!(
    /// The domino reduction tables (`drud`, `drrl`, `drfb`): edge orientation with the E slice
    /// and corner orientation with the E slice, about 1 MB each.
    DrTables, Kind::Dr, "fmc-dr", [("fmc-dr-eo", 2048 * 495), ("fmc-dr-co", 2187 * 495)]
);
family!(
    /// The tables of domino reduction from edge orientation (the six `drXX-eoYY`): the E slice
    /// with corner orientation, 1 MB.
    DrEoTables, Kind::DrEo, "fmc-dr-from-eo", [("fmc-dr-from-eo", 495 * 2187)]
);
family!(
    /// The half turn reduction tables (`htr-drud`, `htr-drrl`, `htr-drfb`): corner permutation
    /// with the split of the U/D-layer edges, 2.8 MB.
    HtrTables, Kind::Htr, "fmc-htr", [("fmc-htr", 40320 * 70)]
);
family!(
    /// The tables of the finish from half turn reduction (`htrfin`): the half turn group's
    /// corners with the order of each slice's edges, 1.3 MB (half of it the other edge parity,
    /// never reached).
    HtrFinTables, Kind::HtrFin, "fmc-htrfin", [("fmc-htrfin", 96 * 24 * 24 * 24)]
);
family!(
    /// The tables of the corners with fixed centers (`corners`): the corner permutation, the
    /// corner orientation and the corners relative to DBL, 3.7 MB.
    CornersTables, Kind::Corners, "fmc-corners",
    [("fmc-corners-cp", 40320), ("fmc-corners-co", 2187), ("fmc-corners-relative", 5040 * 729)]
);
family!(
    /// The tables of the corners relative to each other (`cornersx`, a 2x2x2): the corners
    /// relative to DBL, 3.7 MB.
    CornersXTables, Kind::CornersX, "fmc-cornersx", [("fmc-cornersx", 5040 * 729)]
);
family!(
    /// The tables of leaving the E slice from domino reduction (`drudslice`, `drrlslice`,
    /// `drfbslice`): the corner permutation with the split of the U/D-layer edges, and the order
    /// of the U/D-layer edges, 2.9 MB.
    DrSliceTables, Kind::DrSlice, "fmc-drslice",
    [("fmc-drslice-cp", 40320 * 70), ("fmc-drslice-ep", 40320)]
);
family!(
    /// The tables of the finish from domino reduction (`drudfin`, `drrlfin`, `drfbfin`): the
    /// corner permutation and the order of the U/D-layer edges, each with the order of the E-slice
    /// edges, and the corner permutation with the split of the U/D-layer edges, 4.8 MB.
    DrFinTables, Kind::DrFin, "fmc-drfin",
    [("fmc-drfin-cp", 40320 * 24), ("fmc-drfin-ep", 40320 * 24), ("fmc-drfin-sep", 40320 * 70)]
);
