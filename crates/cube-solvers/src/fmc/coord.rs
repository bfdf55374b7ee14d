//! The coordinates of the FMC steps and their pruning tables.
//!
//! A step's goal is described by small *parts* (edge orientation, corner orientation, where the
//! E-slice edges are, the corner permutation, how the U/D-layer edges split between the M and S
//! slices), each read straight from a [`Cube`] as an index. A *table* is the product of one or
//! two parts, holding for every product index its distance (in the step's table moves) to the
//! nearest goal index, one byte each. A step's state is solved exactly when every one of its
//! tables reads 0, and the largest of the readings is a lower bound on the moves left: that is
//! what the search prunes with.

use std::collections::VecDeque;

use std::sync::atomic::{AtomicU8, Ordering};

use cube_core::{Corner, Cube, Face, Move, MoveSet, Symmetry};
use cube_tables::Cached;
use rayon::prelude::*;

/// One part of a step's coordinate: a function of the cube read as an index below its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// The flips of edges 0 to 10 (the 12th follows): 2^11 values, 0 when every edge is
    /// oriented on the F/B axis.
    Eo,
    /// The twists of corners 0 to 6: 3^7 values, 0 when every corner is oriented on U/D.
    Co,
    /// Which 4 of the 12 edge positions hold the E-slice edges: C(12,4) = 495 values.
    ESlice,
    /// The corner permutation's rank: 8! = 40320 values.
    Cp,
    /// Which 4 of the 8 U/D-layer positions hold the M-slice edges (UF, UB, DF, DB): C(8,4) = 70
    /// values (meaningful when the E-slice edges are in the E slice).
    UdSep,
    /// Which of the 96 corner permutations that half turns make the corners are in.
    HtrCp,
    /// The order of the M-slice edges (UF, UB, DF, DB) in their positions: 4! values.
    MPerm,
    /// The order of the S-slice edges (UR, UL, DR, DL) in their positions: 4! values.
    SPerm,
    /// The order of the E-slice edges in their positions: 4! values.
    EPerm,
    /// The corner permutation relative to the DBL corner ([`Ranks::relative`]): the order of
    /// the other 7 corners, 7! = 5040 values.
    RelCp,
    /// The corner orientation relative to the DBL corner: the twists of corners 0 to 5 (DBL is
    /// untwisted, DRB follows), 3^6 = 729 values.
    RelCo,
    /// The order of the U/D-layer edges in their 8 positions (meaningful in domino reduction):
    /// 8! = 40320 values.
    UdEp,
}

/// The rank of each 12-bit set of 4 positions among the sets of 4 (`u16::MAX` for other sets),
/// ordered by their bit patterns: the solved E slice (positions 8 to 11) is the largest.
fn subset_ranks(bits: u32) -> Vec<u16> {
    let mut ranks = vec![u16::MAX; 1 << bits];
    let mut next = 0u16;
    for (mask, rank) in ranks.iter_mut().enumerate() {
        if mask.count_ones() == 4 {
            *rank = next;
            next += 1;
        }
    }
    ranks
}

impl Part {
    /// How many values the part has.
    pub(crate) const fn size(self) -> usize {
        match self {
            Part::Eo => 2048,
            Part::Co => 2187,
            Part::ESlice => 495,
            Part::Cp => 40320,
            Part::UdSep => 70,
            Part::HtrCp => 96,
            Part::MPerm | Part::SPerm | Part::EPerm => 24,
            Part::RelCp => 5040,
            Part::RelCo => 729,
            Part::UdEp => 40320,
        }
    }

    /// The part's index of `cube`. `ranks12` and `ranks8` are [`subset_ranks`] of 12 and 8 bits.
    pub(crate) fn index(self, cube: &Cube, ranks: &Ranks) -> usize {
        match self {
            Part::Eo => cube.edge_ori()[..11]
                .iter()
                .fold(0, |acc, &o| acc * 2 + o as usize),
            Part::Co => cube.corner_ori()[..7]
                .iter()
                .fold(0, |acc, &o| acc * 3 + o as usize),
            Part::ESlice => {
                let mask = cube
                    .edge_perm()
                    .iter()
                    .enumerate()
                    .filter(|&(_, &e)| e >= 8)
                    .fold(0usize, |acc, (i, _)| acc | 1 << i);
                ranks.of12[mask] as usize
            }
            Part::Cp => {
                let cp = cube.corner_perm();
                let mut rank = 0;
                for i in 0..8 {
                    let smaller = cp[i + 1..].iter().filter(|&&c| c < cp[i]).count();
                    rank = rank * (8 - i) + smaller;
                }
                rank
            }
            Part::UdSep => {
                let ep = cube.edge_perm();
                let mask = (0..8)
                    .filter(|&i| ep[i] < 8 && ep[i] % 2 == 1)
                    .fold(0usize, |acc, i| acc | 1 << i);
                // Outside the E slice's states the mask may not hold 4 edges: read it as 0.
                usize::from(ranks.of8[mask]).min(69)
            }
            // Outside the half turn group: read as 0 (the requisite keeps such states out).
            Part::HtrCp => usize::from(ranks.htr_cp[Part::Cp.index(cube, ranks)]).min(95),
            Part::MPerm => order_rank(&cube.edge_perm(), [1, 3, 5, 7]),
            Part::SPerm => order_rank(&cube.edge_perm(), [0, 2, 4, 6]),
            Part::EPerm => order_rank(&cube.edge_perm(), [8, 9, 10, 11]),
            Part::RelCp => {
                let cp = ranks.relative(cube).corner_perm();
                let pieces = [0, 1, 2, 3, 4, 5, 7].map(|p| cp[p]);
                let mut rank = 0;
                for i in 0..7 {
                    let smaller = pieces[i + 1..].iter().filter(|&&c| c < pieces[i]).count();
                    rank = rank * (7 - i) + smaller;
                }
                rank
            }
            Part::UdEp => {
                let ep = cube.edge_perm();
                let mut rank = 0;
                for i in 0..8 {
                    let smaller = ep[i + 1..8].iter().filter(|&&e| e < ep[i]).count();
                    rank = rank * (8 - i) + smaller;
                }
                rank
            }
            Part::RelCo => ranks.relative(cube).corner_ori()[..6]
                .iter()
                .fold(0, |acc, &o| acc * 3 + o as usize),
        }
    }
}

/// The rank of the order of the pieces at `positions` (4 of them): 0 to 23.
fn order_rank(ep: &[u8; 12], positions: [usize; 4]) -> usize {
    let pieces = positions.map(|p| ep[p]);
    let mut rank = 0;
    for i in 0..4 {
        let smaller = pieces[i + 1..].iter().filter(|&&e| e < pieces[i]).count();
        rank = rank * (4 - i) + smaller;
    }
    rank
}

/// The rank tables of [`Part::ESlice`], [`Part::UdSep`] and [`Part::HtrCp`], and the rotations of
/// [`Part::RelCp`] and [`Part::RelCo`].
pub(crate) struct Ranks {
    of12: Vec<u16>,
    of8: Vec<u16>,
    /// By corner permutation rank: its index among the half turn group's (`u8::MAX` if none).
    htr_cp: Vec<u8>,
    /// By the corner at DBL and its twist (`corner * 3 + twist`): the inverse of the whole-cube
    /// rotation (as the corners see it) that, done first, puts DBL back in place untwisted.
    unrotate: [Cube; 24],
}

impl Ranks {
    pub(crate) fn new() -> Ranks {
        let mut ranks = Ranks {
            of12: subset_ranks(12),
            of8: subset_ranks(8),
            htr_cp: vec![u8::MAX; 40320],
            unrotate: unrotations(),
        };
        let mut cubes = vec![Cube::SOLVED];
        let mut i = 0;
        while i < cubes.len() {
            let rank = Part::Cp.index(&cubes[i], &ranks);
            if ranks.htr_cp[rank] == u8::MAX {
                ranks.htr_cp[rank] = i as u8;
            }
            for m in Move::ALL.into_iter().filter(|m| m.is_half_turn()) {
                let next = cubes[i].apply_move(m);
                if ranks.htr_cp[Part::Cp.index(&next, &ranks)] == u8::MAX
                    && cubes.iter().all(|c| c.corner_perm() != next.corner_perm())
                {
                    cubes.push(next);
                }
            }
            i += 1;
        }
        ranks
    }
}

/// One pruning table: the product of `parts` (the first part's index is the most significant).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableDef {
    /// The parts.
    pub(crate) parts: &'static [Part],
    /// The moves its distances count when not the family's.
    pub(crate) moves: Option<fn() -> MoveSet>,
}

impl TableDef {
    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.parts.iter().map(|p| p.size()).product()
    }

    /// The entry of `cube`.
    pub(crate) fn index(&self, cube: &Cube, ranks: &Ranks) -> usize {
        self.parts
            .iter()
            .fold(0, |acc, p| acc * p.size() + p.index(cube, ranks))
    }
}

/// A part's move table over `moves`, found by a breadth-first search from the solved cube
/// keeping one cube per index: `table[index * 18 + move]`, [`NO_MOVE`] for a move not in `moves`
/// and for the indices no sequence of `moves` reaches.
pub(crate) fn part_moves(part: Part, moves: MoveSet, ranks: &Ranks) -> Vec<u16> {
    part_search(part, moves, ranks).0
}

/// [`part_moves`] and a cube of each index the moves reach.
fn part_search(part: Part, moves: MoveSet, ranks: &Ranks) -> (Vec<u16>, Vec<Option<Cube>>) {
    let mut reps: Vec<Option<Cube>> = vec![None; part.size()];
    let mut table = vec![NO_MOVE; part.size() * 18];
    let start = part.index(&Cube::SOLVED, ranks);
    reps[start] = Some(Cube::SOLVED);
    let mut queue = VecDeque::from([start]);
    while let Some(i) = queue.pop_front() {
        let cube = reps[i].expect("queued indices have a cube");
        for m in moves.iter() {
            let next = cube.apply_move(m);
            let j = part.index(&next, ranks);
            table[i * 18 + m.index()] = j as u16;
            if reps[j].is_none() {
                reps[j] = Some(next);
                queue.push_back(j);
            }
        }
    }
    (table, reps)
}

/// The entry of a part's move table for a move it does not count (or an index not reached).
pub(crate) const NO_MOVE: u16 = u16::MAX;

/// The distances of `def`'s entries to the nearest of `goals` under `moves`, by a breadth-first
/// search over the product of the parts' move tables (`part_tables`, one per part of `def`, as
/// [`part_moves`] makes them over `moves` or more); 255 where no goal is reached.
pub(crate) fn build_table(
    def: &TableDef,
    moves: MoveSet,
    goals: &[usize],
    part_tables: &[&[u16]],
) -> Vec<u8> {
    let sizes: Vec<usize> = def.parts.iter().map(|p| p.size()).collect();
    let mut dist = vec![u8::MAX; def.len()];
    let mut frontier: Vec<usize> = goals.to_vec();
    for &g in goals {
        dist[g] = 0;
    }
    let move_list: Vec<Move> = moves.iter().collect();
    let mut depth = 0u8;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for &i in &frontier {
            for &m in &move_list {
                // Split the product index into the parts' indices, move each, recombine.
                let mut rest = i;
                let mut j = 0;
                let mut scale = 1;
                for (k, table) in part_tables.iter().enumerate().rev() {
                    let pi = rest % sizes[k];
                    rest /= sizes[k];
                    j += usize::from(table[pi * 18 + m.index()]) * scale;
                    scale *= sizes[k];
                }
                if dist[j] == u8::MAX {
                    dist[j] = depth;
                    next.push(j);
                }
            }
        }
        frontier = next;
    }
    dist
}

/// [`Ranks::unrotate`]: the 24 whole-cube rotations as the corners see them (made by `x` = `R L'`
/// and `y` = `U D'`), each inverse filed under what it takes to DBL.
fn unrotations() -> [Cube; 24] {
    let x = Cube::from_move(Move::R1).apply_move(Move::L3);
    let y = Cube::from_move(Move::U1).apply_move(Move::D3);
    let mut rotations = vec![Cube::SOLVED];
    let mut i = 0;
    while i < rotations.len() {
        for next in [rotations[i].compose(&x), rotations[i].compose(&y)] {
            if rotations
                .iter()
                .all(|r| r.packed_corners() != next.packed_corners())
            {
                rotations.push(next);
            }
        }
        i += 1;
    }
    let mut unrotate = [Cube::SOLVED; 24];
    let mut filed = [false; 24];
    for rotation in &rotations {
        let inverse = rotation.inverse();
        // `inverse.compose(c)` has at DBL what `inverse` has at the position c brings to DBL,
        // twisted by c's twist there: file it under the corner and twist that undo it.
        let (position, twist) = (0..8)
            .map(|p| inverse.corner(Corner::ALL[p]))
            .enumerate()
            .find(|(_, (piece, _))| *piece == Corner::DBL)
            .map(|(p, (_, t))| (p, (3 - t) % 3))
            .expect("a rotation moves some corner to DBL");
        let key = position * 3 + usize::from(twist);
        unrotate[key] = inverse;
        filed[key] = true;
    }
    assert!(
        rotations.len() == 24 && filed.iter().all(|&f| f),
        "24 rotations, one for each corner and twist at DBL"
    );
    unrotate
}

impl Ranks {
    /// The corners of `cube` as the cube's rotation with DBL in place untwisted sees them: the
    /// state reached by doing a whole-cube rotation, then `cube` (the corners of `cube` up to
    /// a rotation, as on a 2x2x2).
    pub(crate) fn relative(&self, cube: &Cube) -> Cube {
        let (piece, twist) = cube.corner(Corner::DBL);
        self.unrotate[piece as usize * 3 + usize::from(twist)].compose(cube)
    }

    /// Whether the corner permutation of `cube` is one that half turns make.
    pub(crate) fn is_htr_corner_perm(&self, cube: &Cube) -> bool {
        self.htr_cp[Part::Cp.index(cube, self)] != u8::MAX
    }
}

/// The 16 symmetries that keep the U/D axis (rotations about it, the half turns that swap U and
/// D, and their mirror images): each carries the moves of domino reduction on U/D to such moves.
fn ud_symmetries() -> Vec<Symmetry> {
    Symmetry::all()
        .filter(|s| matches!(s.map_face(Face::U), Face::U | Face::D))
        .collect()
}

/// A table of the product of two parts of domino reduction on U/D, the first reduced by the 16
/// symmetries that keep the U/D axis ([`ud_symmetries`]): nissy-core's symmetric coordinates.
/// Each state is read as the state conjugated by a symmetry that takes the first part to its
/// class's representative; an entry holds the distance (4 bits) of the state whose first part
/// is the representative and whose second part is the entry's. Every entry of a state of the
/// moves' reach is set, also the several of a class whose representative is symmetric, so any
/// of the symmetries that reach the representative reads the state's distance.
pub(crate) struct SymTable {
    /// By the first part's index: its class (the low 16 bits) and a symmetry taking it to the
    /// class's representative (the next 8).
    class_sym: Vec<u32>,
    /// The second part's index after each symmetry: `conj[index * 16 + symmetry]`.
    conj: Vec<u16>,
    /// The second part's size.
    size2: usize,
    /// The payloads, the last the distances: two 4-bit entries a byte (entry `2k` the low
    /// nibble of byte `k`); as built, or as their files gave them (the distances of the DR
    /// tables, 56-70 MB, mapped, so that a process that asks one query does not copy them).
    payloads: [Cached; 3],
}

/// The payloads of a [`SymTable`]: the classes and symmetries of the first part (3 bytes an
/// index: the class, little-endian, then the symmetry), the second part's conjugates (2 bytes
/// each, little-endian), the distances.
pub(crate) type SymPayloads = [Vec<u8>; 3];

impl SymTable {
    /// The classes of the first part (`size1` indices, a cube of each reached one in `cubes`,
    /// `index` reading it): by its index, the class and symmetry, and the classes'
    /// representatives with the symmetries that fix them.
    fn classes(
        cubes: &[Option<Cube>],
        syms: &[Symmetry],
        index: impl Fn(&Cube) -> usize + Sync,
    ) -> (Vec<u32>, Vec<(usize, Vec<u8>)>) {
        let back: Vec<u8> = syms
            .iter()
            .map(|s| {
                syms.iter()
                    .position(|t| *t == s.inverse())
                    .expect("the symmetries form a group") as u8
            })
            .collect();
        // Each index's images under the symmetries, in parallel (the costly part).
        let images: Vec<[u32; 16]> = cubes
            .par_iter()
            .map(|cube| {
                let mut out = [u32::MAX; 16];
                if let Some(cube) = cube {
                    for (k, s) in syms.iter().enumerate() {
                        out[k] = index(&s.conjugate(cube)) as u32;
                    }
                }
                out
            })
            .collect();
        let mut class_sym = vec![u32::MAX; cubes.len()];
        let mut reps = Vec::new();
        for (i, image) in images.iter().enumerate() {
            if cubes[i].is_none() || class_sym[i] != u32::MAX {
                continue;
            }
            let class = reps.len() as u32;
            let mut fixing = Vec::new();
            for (k, &j) in image.iter().enumerate() {
                let j = j as usize;
                if j == i {
                    fixing.push(k as u8);
                }
                if class_sym[j] == u32::MAX {
                    class_sym[j] = class | u32::from(back[k]) << 16;
                }
            }
            reps.push((i, fixing));
        }
        (class_sym, reps)
    }

    /// Builds the table of the product of `first` (reduced) and `second` under `moves` (kept
    /// by the symmetries), from the solved cube, in parallel: a breadth-first search forward
    /// while the frontier is the smaller part, then backward (each entry not yet reached looks
    /// for a neighbour at the last depth). Returns the payloads.
    pub(crate) fn build(
        first: &[Part],
        second: Part,
        moves: MoveSet,
        ranks: &Ranks,
    ) -> SymPayloads {
        let syms = ud_symmetries();
        let first_moves: Vec<Vec<u16>> =
            first.iter().map(|&p| part_moves(p, moves, ranks)).collect();
        let sizes: Vec<usize> = first.iter().map(|p| p.size()).collect();
        let size1: usize = sizes.iter().product();
        let index1 = |cube: &Cube| {
            first
                .iter()
                .fold(0, |acc, p| acc * p.size() + p.index(cube, ranks))
        };
        // The first part's index after move `m` from index `i`, by the parts' move tables.
        let move1 = |i: usize, m: usize| {
            let (mut rest, mut j, mut scale) = (i, 0, 1);
            for (k, table) in first_moves.iter().enumerate().rev() {
                j += usize::from(table[(rest % sizes[k]) * 18 + m]) * scale;
                rest /= sizes[k];
                scale *= sizes[k];
            }
            j
        };
        let move_list: Vec<usize> = moves.iter().map(|m| m.index()).collect();
        let mut cubes1: Vec<Option<Cube>> = vec![None; size1];
        let start = index1(&Cube::SOLVED);
        cubes1[start] = Some(Cube::SOLVED);
        let mut queue = VecDeque::from([start]);
        while let Some(i) = queue.pop_front() {
            for m in moves.iter() {
                let j = move1(i, m.index());
                if cubes1[j].is_none() {
                    cubes1[j] = cubes1[i].map(|c| c.apply_move(m));
                    queue.push_back(j);
                }
            }
        }
        let (moves2, cubes2) = part_search(second, moves, ranks);
        let (class_sym, reps) = Self::classes(&cubes1, &syms, index1);
        drop(cubes1);
        let size2 = second.size();
        let mut conj = vec![NO_MOVE; size2 * 16];
        for (i, cube) in cubes2.iter().enumerate() {
            if let Some(cube) = cube {
                for (k, s) in syms.iter().enumerate() {
                    conj[i * 16 + k] = second.index(&s.conjugate(cube), ranks) as u16;
                }
            }
        }
        let n = reps.len() * size2;
        let dist: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(u8::MAX)).collect();
        let at = |e: usize| dist[e].load(Ordering::Relaxed);
        let (conj_ref, reps_ref) = (&conj, &reps);
        // The state of class `class`'s representative with second part `i2`: its entries (all
        // of them when the representative is symmetric).
        let entries = |class: usize, i2: usize| {
            reps_ref[class]
                .1
                .iter()
                .map(move |&k| class * size2 + usize::from(conj_ref[i2 * 16 + usize::from(k)]))
        };
        let solved: Vec<usize> = entries(
            (class_sym[start] & 0xFFFF) as usize,
            second.index(&Cube::SOLVED, ranks),
        )
        .collect();
        for &e in &solved {
            dist[e].store(0, Ordering::Relaxed);
        }
        let mut reached = solved.len();
        let mut frontier = reached;
        // Row by row (a class's entries): a move takes a whole row to one row (the class of the
        // representative moved, by one symmetry), so the rows a row reaches stay in the cache.
        for depth in 0u8.. {
            let forward = frontier < n - reached;
            let next: usize = (0..reps.len())
                .into_par_iter()
                .map(|class| {
                    let row = class * size2;
                    let targets: Vec<(usize, usize, usize)> = move_list
                        .iter()
                        .map(|&m| {
                            let cs = class_sym[move1(reps[class].0, m)];
                            (m, (cs & 0xFFFF) as usize, (cs >> 16) as usize)
                        })
                        .collect();
                    let image = |i2: usize, (m, _, k): (usize, usize, usize)| {
                        usize::from(conj[usize::from(moves2[i2 * 18 + m]) * 16 + k])
                    };
                    let mut found = 0;
                    for i2 in 0..size2 {
                        let d = at(row + i2);
                        if forward && d == depth {
                            for &t in &targets {
                                for f in entries(t.1, image(i2, t)) {
                                    if at(f) == u8::MAX {
                                        dist[f].store(depth + 1, Ordering::Relaxed);
                                        found += 1;
                                    }
                                }
                            }
                        } else if !forward
                            && d == u8::MAX
                            && targets
                                .iter()
                                .any(|&t| at(t.1 * size2 + image(i2, t)) == depth)
                        {
                            dist[row + i2].store(depth + 1, Ordering::Relaxed);
                            found += 1;
                        }
                    }
                    found
                })
                .sum();
            frontier = next;
            reached += frontier;
            if frontier == 0 {
                break;
            }
        }
        let dist: Vec<u8> = dist
            .chunks(2)
            .map(|pair| {
                let v = |a: &AtomicU8| a.load(Ordering::Relaxed).min(15);
                v(&pair[0]) | pair.get(1).map_or(0, v) << 4
            })
            .collect();
        let class_bytes = class_sym
            .iter()
            .flat_map(|&cs| {
                let [a, b, c, _] = cs.to_le_bytes();
                [a, b, c]
            })
            .collect();
        let conj_bytes = conj.iter().flat_map(|c| c.to_le_bytes()).collect();
        [class_bytes, conj_bytes, dist]
    }

    /// The table from its payloads (as [`SymTable::build`] makes them for a second part of
    /// `size2` indices), checked: every class, symmetry and conjugate in range.
    pub(crate) fn from_payloads(
        payloads: [Cached; 3],
        size2: usize,
    ) -> Result<SymTable, &'static str> {
        let class_sym: Vec<u32> = payloads[0]
            .as_ref()
            .chunks_exact(3)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], 0]))
            .collect();
        let classes = payloads[2].as_ref().len() * 2 / size2;
        if class_sym
            .iter()
            .any(|&cs| (cs & 0xFFFF) as usize >= classes || cs >> 16 >= 16)
        {
            return Err("a class or symmetry out of range");
        }
        let conj: Vec<u16> = payloads[1]
            .as_ref()
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        if conj.len() != size2 * 16 || conj.iter().any(|&c| usize::from(c) >= size2) {
            return Err("a conjugate out of range");
        }
        Ok(SymTable {
            class_sym,
            conj,
            size2,
            payloads,
        })
    }

    /// Payload `k` (as [`SymPayloads`] orders them).
    pub(crate) fn payload(&self, k: usize) -> &[u8] {
        self.payloads[k].as_ref()
    }

    /// The bytes of the payloads.
    pub(crate) fn bytes(&self) -> u64 {
        self.payloads.iter().map(|p| p.as_ref().len() as u64).sum()
    }

    /// Maps every page of mapped payloads now ([`Cached::prefault`]).
    pub(crate) fn prefault(&self) {
        self.payloads.iter().for_each(Cached::prefault);
    }

    /// The distance of the state whose parts are `i1` and `i2`.
    #[inline]
    pub(crate) fn get(&self, i1: usize, i2: usize) -> u8 {
        let cs = self.class_sym[i1];
        let e = (cs & 0xFFFF) as usize * self.size2
            + usize::from(self.conj[i2 * 16 + (cs >> 16) as usize]);
        (self.payloads[2].as_ref()[e / 2] >> (4 * (e % 2))) & 15
    }
}
