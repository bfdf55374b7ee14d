//! Algorithm sets: algorithms grouped by case (their effect on the cube), each case of a kind
//! (corner 3-cycle, parity, ...), looked up by the state an insertion must make.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

use cube_core::{Cube, Move, simplify};

use super::cancel::{Group, head, tail};
use super::cycles::Leftover;

/// What an algorithm does, by the pieces it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Three corners cycled (`3c`), nothing else moved or turned.
    CornerCycle,
    /// Three edges cycled (`3e`).
    EdgeCycle,
    /// Two corners twisted in place (`2t`).
    CornerTwist,
    /// Two edges flipped in place (`2f`).
    EdgeFlip,
    /// Two pairs of corners swapped (`2c2c`).
    CornerSwaps,
    /// Two pairs of edges swapped (`2e2e`).
    EdgeSwaps,
    /// Two corners swapped and two edges swapped (`2c2e`): parity.
    Parity,
    /// Anything else (an algorithm of a user's list).
    Other,
}

impl Kind {
    /// The kinds the generated set has, in its order.
    pub const GENERATED: [Kind; 7] = [
        Kind::CornerCycle,
        Kind::EdgeCycle,
        Kind::CornerTwist,
        Kind::EdgeFlip,
        Kind::CornerSwaps,
        Kind::EdgeSwaps,
        Kind::Parity,
    ];

    /// The kind's name: `corner-3-cycle`, `edge-3-cycle`, `corner-twist`, `edge-flip`,
    /// `corner-swaps`, `edge-swaps`, `parity`, `other`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::CornerCycle => "corner-3-cycle",
            Kind::EdgeCycle => "edge-3-cycle",
            Kind::CornerTwist => "corner-twist",
            Kind::EdgeFlip => "edge-flip",
            Kind::CornerSwaps => "corner-swaps",
            Kind::EdgeSwaps => "edge-swaps",
            Kind::Parity => "parity",
            Kind::Other => "other",
        }
    }

    /// The kind of a legal effect, `None` for the solved cube.
    pub fn of_effect(effect: &Cube) -> Option<Kind> {
        let leftover = Leftover::of(effect);
        if leftover.is_solved() {
            return None;
        }
        let untwisted = leftover
            .cycles()
            .iter()
            .all(|c| c.positions.len() == 1 || c.twist == 0);
        Some(match (leftover.code().as_str(), untwisted) {
            ("3c", true) => Kind::CornerCycle,
            ("3e", true) => Kind::EdgeCycle,
            ("2t", _) => Kind::CornerTwist,
            ("2f", _) => Kind::EdgeFlip,
            ("2c2c", true) => Kind::CornerSwaps,
            ("2e2e", true) => Kind::EdgeSwaps,
            ("2c2e", _) => Kind::Parity,
            _ => Kind::Other,
        })
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `moves` (at most 12) in a `u64`: the length in the low four bits, then five bits a move.
pub(crate) fn pack(moves: &[Move]) -> u64 {
    debug_assert!(moves.len() <= 12);
    moves
        .iter()
        .rev()
        .fold(0u64, |packed, m| packed << 5 | m.index() as u64)
        << 4
        | moves.len() as u64
}

/// The moves [`pack`] packed.
pub(crate) fn unpack(packed: u64) -> Vec<Move> {
    let (buffer, len) = unpack_array(packed);
    buffer[..len].to_vec()
}

/// [`unpack`] into an array: the moves are its first `len` (at most 12).
fn unpack_array(packed: u64) -> ([Move; 12], usize) {
    let len = ((packed & 15) as usize).min(12);
    let moves =
        std::array::from_fn(|i| Move::from_index((packed >> (4 + 5 * i) & 31) as usize % 18));
    (moves, len)
}

/// A hasher for keys that are already spread (cube states): a multiply per word, as rustc's
/// FxHasher does.
#[derive(Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The pieces `state` moves or turns: bits 0 to 7 the corners, 8 to 19 the edges.
pub(crate) fn support(state: &Cube) -> u32 {
    let (corners, edges) = (state.packed_corners(), state.packed_edges());
    let mut mask = 0;
    for (i, &b) in corners.iter().take(8).enumerate() {
        mask |= u32::from(b != i as u8) << i;
    }
    for (i, &b) in edges.iter().take(12).enumerate() {
        mask |= u32::from(b != i as u8) << (8 + i);
    }
    mask
}

/// A map keyed by cube states.
pub(crate) type StateMap<V> = HashMap<Cube, V, BuildHasherDefault<WordHasher>>;

/// One algorithm of a set: where its moves are, and the axis groups at its ends.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AlgRef {
    start: u32,
    len: u8,
    /// The moves on one axis at its start.
    pub(crate) head: Group,
    /// The moves on one axis at its end.
    pub(crate) tail: Group,
}

impl AlgRef {
    /// Its length.
    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }
}

/// The algorithms of one effect.
#[derive(Clone, Debug)]
pub struct Case {
    effect: Cube,
    kind: Kind,
    algs: Range<u32>,
    /// The pieces it moves or turns (bits 0 to 7 the corners, 8 to 19 the edges).
    support: u32,
    /// Whether it is an odd permutation (a parity).
    odd: bool,
    /// Its corners and its edges: indexes into [`AlgSet`]'s parts (0: untouched).
    parts: [u32; 2],
}

impl Case {
    fn new(effect: Cube, kind: Kind, algs: Range<u32>) -> Case {
        Case {
            effect,
            kind,
            algs,
            support: support(&effect),
            odd: effect.corner_parity_odd(),
            parts: [0; 2],
        }
    }

    /// What it does to the corners and to the edges, as indexes into [`AlgSet::parts`].
    pub(crate) fn parts(&self) -> [u32; 2] {
        self.parts
    }

    /// The pieces it moves or turns: bits 0 to 7 the corners, 8 to 19 the edges.
    pub(crate) fn support(&self) -> u32 {
        self.support
    }

    /// Whether it is an odd permutation (a parity).
    pub(crate) fn is_odd(&self) -> bool {
        self.odd
    }

    /// What its algorithms do.
    pub fn effect(&self) -> &Cube {
        &self.effect
    }

    /// Its kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The number of its algorithms.
    pub fn len(&self) -> usize {
        (self.algs.end - self.algs.start) as usize
    }

    /// Whether it has no algorithm (never, in a set).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A set of algorithms by case: each case's algorithms from the shortest, each reduced (no move
/// cancels inside it) and in canonical order.
///
/// ```
/// use cube_core::{Alg, Cube};
/// use cube_solvers::fmc::insert::{AlgSet, Kind};
///
/// let set = AlgSet::from_text("R U R' D R U' R' D'  // a corner 3-cycle\n")?;
/// let effect = Cube::SOLVED.apply_alg(&"R U R' D R U' R' D'".parse::<Alg>()?);
/// let case = set.case_of(&effect).expect("its own case");
/// assert_eq!(case.kind(), Kind::CornerCycle);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct AlgSet {
    moves: Vec<Move>,
    algs: Vec<AlgRef>,
    cases: Vec<Case>,
    index: StateMap<u32>,
    /// What the cases do to the corners alone (the edges home) and to the edges alone, each
    /// once, the solved cube first: cases that share a part (parities do) share its measure.
    parts: [Vec<Cube>; 2],
    /// The cases by what they move ([`Movers`]).
    by_movers: [Vec<u32>; 3],
}

/// The three sorts of case by what they move: [`Movers::Corners`] only (keeping the parity),
/// [`Movers::Edges`] only, [`Movers::Both`] (a parity, or any case moving both orbits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Movers {
    Corners = 0,
    Edges = 1,
    Both = 2,
}

impl AlgSet {
    /// The set of `algs` (reduced sequences of face turns), grouped by effect; sequences that do
    /// nothing are dropped, duplicates kept once.
    pub(crate) fn from_sequences(mut algs: Vec<Vec<Move>>) -> AlgSet {
        let mut by_effect: Vec<(Kind, Cube, Vec<Move>)> = algs
            .drain(..)
            .filter_map(|moves| {
                let effect = Cube::SOLVED.apply_moves(&moves);
                Kind::of_effect(&effect).map(|kind| (kind, effect, moves))
            })
            .collect();
        by_effect.sort_unstable_by(|a, b| {
            (
                a.0,
                a.1.packed_corners(),
                a.1.packed_edges(),
                a.2.len(),
                &a.2,
            )
                .cmp(&(
                    b.0,
                    b.1.packed_corners(),
                    b.1.packed_edges(),
                    b.2.len(),
                    &b.2,
                ))
        });
        by_effect.dedup_by(|a, b| a.2 == b.2);
        let mut set = AlgSet::default();
        for (kind, effect, moves) in by_effect {
            if set.cases.last().is_none_or(|c| c.effect != effect) {
                let at = set.algs.len() as u32;
                set.index.insert(effect, set.cases.len() as u32);
                set.cases.push(Case::new(effect, kind, at..at));
            }
            set.push_alg(&moves);
            set.cases.last_mut().expect("just pushed").algs.end += 1;
        }
        set.index_parts();
        set
    }

    /// Fills [`AlgSet::parts`] and each case's indexes into them.
    fn index_parts(&mut self) {
        let home = |k| k as u8;
        let split = |effect: &Cube| -> [Cube; 2] {
            [
                Cube::from_parts(
                    effect.corner_perm(),
                    effect.corner_ori(),
                    std::array::from_fn(home),
                    [0; 12],
                ),
                Cube::from_parts(
                    std::array::from_fn(home),
                    [0; 8],
                    effect.edge_perm(),
                    effect.edge_ori(),
                ),
            ]
            .map(|part| part.expect("a part of a cube is well formed"))
        };
        let mut seen: [StateMap<u32>; 2] = Default::default();
        self.parts = [vec![Cube::SOLVED], vec![Cube::SOLVED]];
        self.by_movers = Default::default();
        for (orbit, map) in seen.iter_mut().enumerate() {
            map.insert(Cube::SOLVED, 0);
            for case in &mut self.cases {
                let part = split(&case.effect)[orbit];
                let next = self.parts[orbit].len() as u32;
                case.parts[orbit] = *map.entry(part).or_insert_with(|| {
                    self.parts[orbit].push(part);
                    next
                });
            }
        }
        for (i, case) in self.cases.iter().enumerate() {
            let movers = match case.parts {
                _ if case.odd => Movers::Both,
                [_, 0] => Movers::Corners,
                [0, _] => Movers::Edges,
                _ => Movers::Both,
            };
            self.by_movers[movers as usize].push(i as u32);
        }
    }

    /// The cases that move `movers`.
    pub(crate) fn cases_moving(&self, movers: Movers) -> &[u32] {
        &self.by_movers[movers as usize]
    }

    /// The corner parts (`0`) and edge parts (`1`) of the cases ([`Case::parts`]).
    pub(crate) fn parts(&self, orbit: usize) -> &[Cube] {
        &self.parts[orbit]
    }

    /// The set of the algorithms in `text`, one a line (`//` starts a comment; blank lines are
    /// skipped), each with the variants Insertion Finder's generator adds: its images under the
    /// 48 symmetries of the cube, their inverses, and every cyclic shift of those (the first moves
    /// of the same axis taken to the end), each reduced. Wide turns, slices and rotations are
    /// written out as face turns relative to the centres.
    ///
    /// # Errors
    /// The line number and the reason of the first line that is not an algorithm.
    pub fn from_text(text: &str) -> Result<AlgSet, String> {
        let mut algs = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.split("//").next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let alg: cube_core::Alg = line
                .parse()
                .map_err(|e| format!("line {}: {e}", number + 1))?;
            let moves = simplify(&alg.expand().moves);
            if Cube::SOLVED.apply_moves(&moves).is_solved() {
                return Err(format!(
                    "line {}: {line:?} does nothing to the cube, so it cannot be inserted",
                    number + 1
                ));
            }
            algs.extend(variants(&moves));
        }
        if algs.is_empty() {
            return Err("no algorithm in the list".to_string());
        }
        Ok(AlgSet::from_sequences(algs))
    }

    /// The bytes of the payload of a set of `n_cases` cases and `n_algs` algorithms of at
    /// most 12 moves: two counts, a word per case, a double word per algorithm.
    pub const fn payload_len(n_cases: u64, n_algs: u64) -> u64 {
        8 + 4 * n_cases + 8 * n_algs
    }

    /// The set as bytes (little-endian): the number of cases and of algorithms (`u32` each),
    /// each case's kind (its index in [`Kind::GENERATED`], 7 for [`Kind::Other`]) in the top byte
    /// of a `u32` holding its number of algorithms, then each algorithm packed in a `u64` (its
    /// length in the low four bits, then five bits a move), case by case, each case's from the
    /// shortest.
    ///
    /// # Panics
    /// For an algorithm longer than 12 moves (generated sets have none).
    pub(crate) fn to_payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::payload_len(
            self.cases.len() as u64,
            self.algs.len() as u64,
        ) as usize);
        out.extend_from_slice(&(self.cases.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.algs.len() as u32).to_le_bytes());
        for case in &self.cases {
            let kind = Kind::GENERATED
                .iter()
                .position(|&k| k == case.kind)
                .unwrap_or(7) as u32;
            out.extend_from_slice(&(kind << 24 | case.len() as u32).to_le_bytes());
        }
        for alg in &self.algs {
            assert!(alg.len() <= 12, "a packed algorithm has at most 12 moves");
            out.extend_from_slice(&pack(self.moves_of(alg)).to_le_bytes());
        }
        out
    }

    /// The set of a payload [`AlgSet::to_payload`] wrote, checked: the counts add up, every
    /// algorithm is canonical and does what the first of its case does, no two cases do the same,
    /// each case is of its kind.
    ///
    /// # Errors
    /// What is wrong.
    pub(crate) fn from_payload(bytes: &[u8]) -> Result<AlgSet, &'static str> {
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
        };
        let (n_cases, n_algs) = (
            word(0).ok_or("no counts")? as usize,
            word(4).ok_or("no counts")? as usize,
        );
        if bytes.len() as u64 != Self::payload_len(n_cases as u64, n_algs as u64) {
            return Err("the counts do not match the length");
        }
        let algs_at = 8 + 4 * n_cases;
        let mut set = AlgSet::default();
        set.moves.reserve(n_algs * 10);
        for c in 0..n_cases {
            let entry = word(8 + 4 * c).expect("the length was checked");
            let kind = *Kind::GENERATED
                .get((entry >> 24) as usize)
                .unwrap_or(&Kind::Other);
            let count = entry & 0xff_ffff;
            let start = set.algs.len() as u32;
            if count == 0 || start as usize + count as usize > n_algs {
                return Err("a case's algorithms are not in the table");
            }
            let mut effect = None;
            for a in start..start + count {
                let at = algs_at + 8 * a as usize;
                let packed = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
                let (buffer, len) = unpack_array(packed);
                let moves = &buffer[..len];
                if moves.len() < 3 || !cube_core::is_canonical(moves) {
                    return Err("an algorithm is not a canonical sequence");
                }
                let this = Cube::SOLVED.apply_moves(moves);
                if *effect.get_or_insert(this) != this {
                    return Err("an algorithm does not do what its case does");
                }
                set.push_alg(moves);
            }
            let effect = effect.expect("a case has algorithms");
            if Kind::of_effect(&effect) != Some(kind) {
                return Err("a case is not of its kind");
            }
            if set.index.insert(effect, c as u32).is_some() {
                return Err("two cases do the same");
            }
            set.cases
                .push(Case::new(effect, kind, start..start + count));
        }
        if set.algs.len() != n_algs {
            return Err("the counts do not match the cases");
        }
        set.index_parts();
        Ok(set)
    }

    /// Appends `moves` as the next algorithm (of the last case).
    fn push_alg(&mut self, moves: &[Move]) {
        self.algs.push(AlgRef {
            start: self.moves.len() as u32,
            len: moves.len() as u8,
            head: head(moves).0,
            tail: tail(moves).0,
        });
        self.moves.extend_from_slice(moves);
    }

    /// The cases, sorted by kind and effect.
    pub fn cases(&self) -> &[Case] {
        &self.cases
    }

    /// The number of algorithms.
    pub fn len(&self) -> usize {
        self.algs.len()
    }

    /// Whether the set has no algorithm.
    pub fn is_empty(&self) -> bool {
        self.algs.is_empty()
    }

    /// The number of algorithms of `kind` of each length, from length 0.
    pub fn counts(&self, kind: Kind) -> Vec<usize> {
        let mut counts = Vec::new();
        for case in self.cases.iter().filter(|c| c.kind == kind) {
            for alg in &self.algs[case.algs.start as usize..case.algs.end as usize] {
                if counts.len() <= alg.len() {
                    counts.resize(alg.len() + 1, 0);
                }
                counts[alg.len()] += 1;
            }
        }
        counts
    }

    /// The case whose effect is `effect`.
    pub fn case_of(&self, effect: &Cube) -> Option<&Case> {
        self.case_index(effect).map(|i| &self.cases[i])
    }

    /// The index of the case whose effect is `effect`.
    pub(crate) fn case_index(&self, effect: &Cube) -> Option<usize> {
        self.index.get(effect).map(|&i| i as usize)
    }

    /// The algorithms of case `case`, from the shortest.
    pub(crate) fn algs_of(&self, case: usize) -> &[AlgRef] {
        let range = &self.cases[case].algs;
        &self.algs[range.start as usize..range.end as usize]
    }

    /// The moves of `alg`.
    pub(crate) fn moves_of(&self, alg: &AlgRef) -> &[Move] {
        &self.moves[alg.start as usize..alg.start as usize + alg.len()]
    }

    /// The moves of algorithm `alg` of case `case`.
    pub(crate) fn alg_moves(&self, case: usize, alg: usize) -> &[Move] {
        self.moves_of(&self.algs_of(case)[alg])
    }

    /// The algorithms of `case`, from the shortest.
    pub fn algorithms(&self, case: &Case) -> impl Iterator<Item = &[Move]> {
        self.algs[case.algs.start as usize..case.algs.end as usize]
            .iter()
            .map(|a| self.moves_of(a))
    }
}

/// `moves` under the 48 symmetries, with their inverses and the cyclic shifts of all of those,
/// each reduced (see [`AlgSet::from_text`]).
fn variants(moves: &[Move]) -> Vec<Vec<Move>> {
    let mut out: Vec<Vec<Move>> = Vec::new();
    for symmetry in cube_core::Symmetry::all() {
        let image: Vec<Move> = moves.iter().map(|&m| symmetry.conjugate_move(m)).collect();
        let inverse: Vec<Move> = image.iter().rev().map(|m| m.inverse()).collect();
        for alg in [image, inverse] {
            // Shift the first axis group to the end, again and again, while anything is new.
            let mut shifted = simplify(&alg);
            for _ in 0..2 * shifted.len() {
                if shifted.len() < 3 {
                    break;
                }
                out.push(shifted.clone());
                let (_, n) = head(&shifted);
                let rotated = [&shifted[n..], &shifted[..n]].concat();
                shifted = simplify(&rotated);
            }
            out.push(shifted);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
