//! The table families of the FMC steps: each is a [`MethodTables`] value whose payloads are
//! its pruning tables (one byte per entry), serving the steps of every axis (the state is
//! conjugated to the family's axis first).

use cube_core::{Cube, Face, Move, MoveSet};
use cube_tables::{Cached, Encoding, PruneTable, TableId, TableSpec};

use super::coord::{NO_MOVE, Part, Ranks, SymTable, TableDef, build_table, part_moves};
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
/// With the family's [`SymTable`] (the corner permutation with the U/D-edge order, of which the
/// split of the U/D edges between the M and S slices is a part).
const DRFIN_TABLES: [TableDef; 2] = [
    TableDef {
        parts: &[Part::Cp, Part::EPerm],
        moves: None,
    },
    TableDef {
        parts: &[Part::UdEp, Part::EPerm],
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

    /// The parts the search reads as coordinates, moved by their move tables (a payload of the
    /// family): every part of the family's tables, for the families whose tables count the
    /// moves of their steps' searches (or more) and whose goal the tables tell exactly; none for
    /// the others, whose search moves whole cubes.
    pub(crate) fn coord_parts(self) -> &'static [Part] {
        match self {
            Kind::Eo => &[Part::Eo],
            Kind::Dr => &[Part::Eo, Part::ESlice, Part::Co],
            Kind::DrEo => &[Part::ESlice, Part::Co],
            Kind::Htr => &[Part::Cp, Part::UdSep],
            Kind::HtrFin => &[Part::HtrCp, Part::MPerm, Part::SPerm, Part::EPerm],
            Kind::DrFin => &[Part::Cp, Part::EPerm, Part::UdEp],
            Kind::Corners | Kind::CornersX | Kind::DrSlice => &[],
        }
    }

    /// The parts of the family's [`SymTable`], if it has one (all among
    /// [`Kind::coord_parts`]): the parts whose product is reduced by symmetry, and the other.
    /// For domino reduction, edge orientation with the E slice (reduced), and corner
    /// orientation: the whole coordinate, nissy-core's `DR`; for the finish from domino
    /// reduction, the corner permutation (reduced) and the order of the U/D-layer edges,
    /// nissy-core's `DRFINNOE`.
    fn sym_parts(self) -> Option<(&'static [Part], Part)> {
        match self {
            Kind::Dr => Some((&[Part::ESlice, Part::Eo], Part::Co)),
            Kind::DrFin => Some((&[Part::Cp], Part::UdEp)),
            _ => None,
        }
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

/// The most parts a family reads as coordinates.
pub(crate) const MAX_PARTS: usize = 4;

/// A point of the search read as coordinates: the index of each of [`Kind::coord_parts`].
pub(crate) type Coords = [u16; MAX_PARTS];

/// The slots in [`Coords`] of the parts of a product, each with the part's size.
type Slots = Vec<(usize, usize)>;

/// The pruning tables of one family, with what reading them needs.
pub(crate) struct Family {
    kind: Kind,
    ranks: Ranks,
    /// As built, or as their files gave them (mapped when they are large enough: a one-query
    /// process reads the few pages it needs).
    tables: Vec<Cached>,
    /// [`Kind::exact_goal`]'s entries of the goals.
    exact_goals: Vec<usize>,
    /// The move tables of [`Kind::coord_parts`], one after the other (entry `offset + index * 18
    /// + move`), as the payload stores them (2 bytes each, little-endian) and read in place
    /// ([`Family::move_entry`]).
    move_bytes: Cached,
    /// Where each part's move table starts in `moves`.
    move_offsets: [usize; MAX_PARTS],
    /// For each table, the slots of its parts in [`Coords`] and their sizes.
    slots: Vec<Slots>,
    /// The symmetric table ([`Kind::sym_parts`]), the slots and sizes of its first parts in
    /// [`Coords`] and the slot of its second.
    sym: Option<(SymTable, Slots, usize)>,
}

impl Family {
    fn new(
        kind: Kind,
        ranks: Ranks,
        tables: Vec<Cached>,
        move_bytes: Cached,
        sym: Option<SymTable>,
    ) -> Family {
        let exact_goals = kind
            .exact_goal()
            .map_or_else(Vec::new, |def| kind.goals(&def, &ranks));
        let parts = kind.coord_parts();
        let mut move_offsets = [0; MAX_PARTS];
        for k in 1..parts.len() {
            move_offsets[k] = move_offsets[k - 1] + parts[k - 1].size() * 18;
        }
        let slots = kind
            .defs()
            .iter()
            .map(|def| {
                def.parts
                    .iter()
                    .filter_map(|p| parts.iter().position(|q| q == p).map(|k| (k, p.size())))
                    .collect()
            })
            .collect();
        let slot = |p: Part| {
            parts
                .iter()
                .position(|&q| q == p)
                .expect("the symmetric table's parts are coordinates")
        };
        let sym = sym.map(|table| {
            let (first, second) = kind.sym_parts().expect("a family with a symmetric table");
            let first = first.iter().map(|&p| (slot(p), p.size())).collect();
            (table, first, slot(second))
        });
        Family {
            kind,
            ranks,
            tables,
            exact_goals,
            move_bytes,
            move_offsets,
            slots,
            sym,
        }
    }

    /// Builds the family's tables (each table on its own rayon task).
    fn build(kind: Kind) -> Family {
        use rayon::prelude::*;
        let ranks = Ranks::new();
        // Each part's move table once, over the family's moves (or a table's own).
        let mut part_tables: Vec<(Part, MoveSet, Vec<u16>)> = Vec::new();
        for def in kind.defs() {
            let moves = def.moves.map_or_else(|| kind.moves(), |f| f());
            for &p in def.parts {
                if !part_tables.iter().any(|(q, m, _)| *q == p && *m == moves) {
                    part_tables.push((p, moves, Vec::new()));
                }
            }
        }
        part_tables
            .par_iter_mut()
            .for_each(|(p, m, t)| *t = part_moves(*p, *m, &ranks));
        let moves_of = |p: Part, moves: MoveSet| -> &[u16] {
            part_tables
                .iter()
                .find(|(q, m, _)| *q == p && *m == moves)
                .map(|(_, _, t)| t.as_slice())
                .expect("every part's move table is built")
        };
        let tables = kind
            .defs()
            .par_iter()
            .map(|def| {
                let moves = def.moves.map_or_else(|| kind.moves(), |f| f());
                let parts: Vec<&[u16]> = def.parts.iter().map(|&p| moves_of(p, moves)).collect();
                Cached::Memory(build_table(def, moves, &kind.goals(def, &ranks), &parts))
            })
            .collect();
        let move_bytes = kind
            .coord_parts()
            .iter()
            .flat_map(|&p| {
                moves_of(p, kind.moves())
                    .iter()
                    .flat_map(|e| e.to_le_bytes())
            })
            .collect();
        let sym = kind.sym_parts().map(|(a, b)| {
            SymTable::from_payloads(
                SymTable::build(a, b, kind.moves(), &ranks).map(Cached::Memory),
                b.size(),
            )
            .expect("a built symmetric table is sound")
        });
        Family::new(kind, ranks, tables, Cached::Memory(move_bytes), sym)
    }

    /// The family from its payloads, each checked: its length, a pruning table's goals at 0, a
    /// move table's entries below their part's size (or [`NO_MOVE`]).
    fn from_payloads(
        kind: Kind,
        specs: &[TableSpec],
        mut payloads: Payloads,
    ) -> Result<Family, PayloadError> {
        let ranks = Ranks::new();
        let mut tables = Vec::new();
        for (def, spec) in kind.defs().iter().zip(specs) {
            let table = payloads.take_table(spec)?.into_inner();
            if kind
                .goals(def, &ranks)
                .iter()
                .any(|&g| table.as_ref()[g] != 0)
            {
                return Err(PayloadError::Unsound {
                    id: spec.id,
                    why: "a goal not at distance 0",
                });
            }
            tables.push(table);
        }
        let move_bytes = match specs.get(kind.defs().len()) {
            Some(spec) => {
                let bytes = payloads.take_table(spec)?.into_inner();
                let mut entries = bytes
                    .as_ref()
                    .chunks_exact(2)
                    .map(|b| u16::from_le_bytes([b[0], b[1]]));
                for p in kind.coord_parts() {
                    let size = p.size() as u16;
                    if entries
                        .by_ref()
                        .take(p.size() * 18)
                        .any(|e| e >= size && e != NO_MOVE)
                    {
                        return Err(PayloadError::Unsound {
                            id: spec.id,
                            why: "a move table entry out of range",
                        });
                    }
                }
                bytes
            }
            None => Cached::Memory(Vec::new()),
        };
        let sym = match kind.sym_parts() {
            Some((first, second)) => {
                let specs = &specs[kind.defs().len() + 1..];
                let mut take =
                    |k: usize| payloads.take_table(&specs[k]).map(PruneTable::into_inner);
                let table = SymTable::from_payloads([take(0)?, take(1)?, take(2)?], second.size())
                    .map_err(|why| PayloadError::Unsound {
                        id: specs[2].id,
                        why,
                    })?;
                let solved = first
                    .iter()
                    .fold(0, |acc, p| acc * p.size() + p.index(&Cube::SOLVED, &ranks));
                if table.get(solved, second.index(&Cube::SOLVED, &ranks)) != 0 {
                    return Err(PayloadError::Unsound {
                        id: specs[2].id,
                        why: "the solved state not at distance 0",
                    });
                }
                Some(table)
            }
            None => None,
        };
        Ok(Family::new(kind, ranks, tables, move_bytes, sym))
    }

    /// The coordinates of `cube`, when the family's search reads coordinates and every move of
    /// `moves` is in the move tables at `cube`'s indices (the state is in the part of the
    /// coordinates the moves reach from the solved cube); `None` otherwise.
    #[inline]
    pub(crate) fn coords(&self, cube: &Cube, moves: MoveSet) -> Option<Coords> {
        let parts = self.kind.coord_parts();
        if parts.is_empty() {
            return None;
        }
        let mut coords = [0; MAX_PARTS];
        for (k, p) in parts.iter().enumerate() {
            let i = p.index(cube, &self.ranks);
            let row = self.move_offsets[k] + i * 18;
            if moves
                .iter()
                .any(|m| self.move_entry(row + m.index()) == NO_MOVE)
            {
                return None;
            }
            coords[k] = i as u16;
        }
        Some(coords)
    }

    /// The coordinates after move `m` (one of the moves [`Family::coords`] was given).
    #[inline]
    pub(crate) fn coords_move(&self, coords: &Coords, m: Move) -> Coords {
        let mut next = [0; MAX_PARTS];
        for k in 0..self.kind.coord_parts().len() {
            next[k] =
                self.move_entry(self.move_offsets[k] + usize::from(coords[k]) * 18 + m.index());
        }
        next
    }

    /// Entry `at` of the move tables.
    #[inline]
    fn move_entry(&self, at: usize) -> u16 {
        let bytes = &self.move_bytes.as_ref()[2 * at..2 * at + 2];
        u16::from_le_bytes([bytes[0], bytes[1]])
    }

    /// [`Family::bound`] read from coordinates.
    #[inline]
    pub(crate) fn coords_bound(&self, coords: &Coords) -> u8 {
        let sym = self.sym.as_ref().map_or(0, |(table, first, second)| {
            let i1 = first
                .iter()
                .fold(0, |acc, &(k, size)| acc * size + usize::from(coords[k]));
            table.get(i1, usize::from(coords[*second]))
        });
        self.slots
            .iter()
            .zip(&self.tables)
            .map(|(slots, table)| {
                let i = slots
                    .iter()
                    .fold(0, |acc, &(k, size)| acc * size + usize::from(coords[k]));
                table.as_ref()[i]
            })
            .fold(sym, u8::max)
    }

    /// Whether a table other than the symmetric one tells that the state at `coords` needs more
    /// than `room` moves.
    #[inline]
    pub(crate) fn coords_small_beyond(&self, coords: &Coords, room: usize) -> bool {
        self.slots.iter().zip(&self.tables).any(|(slots, table)| {
            let i = slots
                .iter()
                .fold(0, |acc, &(k, size)| acc * size + usize::from(coords[k]));
            usize::from(table.as_ref()[i]) > room
        })
    }

    /// The payload of spec `i`: the pruning tables, the move tables, the symmetric table's.
    fn payload(&self, i: usize) -> &[u8] {
        let defs = self.tables.len();
        match i.checked_sub(defs + 1) {
            None => self.tables.get(i).unwrap_or(&self.move_bytes).as_ref(),
            Some(k) => self
                .sym
                .as_ref()
                .expect("a spec past the move tables is the symmetric table's")
                .0
                .payload(k),
        }
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
            .map(|(def, table)| table.as_ref()[def.index(cube, &self.ranks)])
            .chain(self.sym.as_ref().map(|(table, _, _)| {
                let (first, second) = self
                    .kind
                    .sym_parts()
                    .expect("a family with a symmetric table");
                let i1 = first
                    .iter()
                    .fold(0, |acc, p| acc * p.size() + p.index(cube, &self.ranks));
                table.get(i1, second.index(cube, &self.ranks))
            }))
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

    /// Maps every page of the mapped tables now (the symmetric table's, when its file is mapped).
    pub(crate) fn prefault(&self) {
        if let Some((table, _, _)) = &self.sym {
            table.prefault();
        }
    }

    /// The bytes of the tables.
    pub(crate) fn bytes(&self) -> u64 {
        self.tables
            .iter()
            .map(|t| t.as_ref().len() as u64)
            .sum::<u64>()
            + self.move_bytes.as_ref().len() as u64
            + self.sym.as_ref().map_or(0, |(t, _, _)| t.bytes())
    }
}

/// A table's encoding: one byte an entry unless named.
macro_rules! encoding {
    () => {
        Encoding::Byte
    };
    ($enc:ident) => {
        Encoding::$enc
    };
}

macro_rules! family {
    ($(#[$doc:meta])* $ty:ident, $kind:expr, $name:literal,
     [$(($id:literal, $n:expr $(, $enc:ident)?)),+ $(,)?]) => {
        $(#[$doc])*
        pub struct $ty(pub(crate) Family);

        impl MethodTables for $ty {
            const NAME: &'static str = $name;
            const SPECS: &'static [TableSpec] = &[$(
                TableSpec::new(TableId::from_static($id), encoding!($($enc)?), $n),
            )+];

            fn build() -> $ty {
                $ty(Family::build($kind))
            }

            fn payload(&self, id: TableId) -> Option<&[u8]> {
                let i = Self::SPECS.iter().position(|s| s.id == id)?;
                Some(self.0.payload(i))
            }

            fn from_payloads(payloads: Payloads) -> Result<$ty, PayloadError> {
                Family::from_payloads($kind, Self::SPECS, payloads).map($ty)
            }
        }
    };
}

family!(
    /// The edge orientation tables (`eofb`, `eorl`, `eoud`): 2,048 entries, and its move table.
    EoTables, Kind::Eo, "fmc-eo", [("fmc-eo", 2048), ("fmc-eo-moves", 2048 * 36)]
);
family!(
    /// The domino reduction tables (`drud`, `drrl`, `drfb`): edge orientation with the E slice
    /// and corner orientation with the E slice (1 MB each), their move tables, and the whole DR
    /// coordinate, exact: edge orientation with the E slice reduced by the 16 symmetries that
    /// keep the U/D axis (64,430 classes), times corner orientation, 4 bits an entry (nissy-core's
    /// `DR`, 70 MB), 75 MB in all.
    DrTables, Kind::Dr, "fmc-dr", [
        ("fmc-dr-eo", 2048 * 495),
        ("fmc-dr-co", 2187 * 495),
        ("fmc-dr-moves", (2048 + 495 + 2187) * 36),
        ("fmc-dr-classes", 495 * 2048 * 3),
        ("fmc-dr-co-conjugates", 2187 * 32),
        ("fmc-dr-full", 64430 * 2187, Nibble),
    ]
);
family!(
    /// The tables of domino reduction from edge orientation (the six `drXX-eoYY`): the E slice
    /// with corner orientation, 1 MB, and its move tables.
    DrEoTables, Kind::DrEo, "fmc-dr-from-eo", [("fmc-dr-from-eo", 495 * 2187), ("fmc-dr-from-eo-moves", (495 + 2187) * 36)]
);
family!(
    /// The half turn reduction tables (`htr-drud`, `htr-drrl`, `htr-drfb`): corner permutation
    /// with the split of the U/D-layer edges, 2.8 MB, and its move tables (1.5 MB).
    HtrTables, Kind::Htr, "fmc-htr", [("fmc-htr", 40320 * 70), ("fmc-htr-moves", (40320 + 70) * 36)]
);
family!(
    /// The tables of the finish from half turn reduction (`htrfin`): the half turn group's
    /// corners with the order of each slice's edges, 1.3 MB (half of it the other edge parity,
    /// never reached), and its move tables.
    HtrFinTables, Kind::HtrFin, "fmc-htrfin", [("fmc-htrfin", 96 * 24 * 24 * 24), ("fmc-htrfin-moves", (96 + 3 * 24) * 36)]
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
    /// edges (1 MB each), their move tables, and the corner permutation (reduced by the 16
    /// symmetries that keep the U/D axis) with the order of the U/D-layer edges, 4 bits an entry
    /// (nissy-core's `DRFINNOE`, 56 MB), 61 MB in all.
    DrFinTables, Kind::DrFin, "fmc-drfin",
    [
        ("fmc-drfin-cp", 40320 * 24),
        ("fmc-drfin-ep", 40320 * 24),
        ("fmc-drfin-moves", (40320 + 24 + 40320) * 36),
        ("fmc-drfin-cp-classes", 40320 * 3),
        ("fmc-drfin-ep-conjugates", 40320 * 32),
        ("fmc-drfin-cpep", 2768 * 40320, Nibble),
    ]
);
