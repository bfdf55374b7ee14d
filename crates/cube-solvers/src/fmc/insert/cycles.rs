//! What a skeleton leaves: the cycles of its corners and edges, in the words FMC solvers use
//! ("3 corners, 3 edges: 3c3e", "2 twisted corners"), and the measure every insertion must lower
//! (how many insertions of the standard kinds the leftover needs at least).
//!
//! The measure counts, for each orbit, the fewest 3-cycles (of any orientation) that solve it,
//! found once by a breadth-first search over the orbit's conjugacy classes (a class is the
//! multiset of its cycles' lengths and net twists or flips: every 3-cycle's conjugate is a
//! 3-cycle, so the distance is the same across a class); an odd permutation first takes one swap
//! of each orbit (a parity algorithm), counted as one and a half 3-cycles, as Insertion Finder's
//! default `--parity 1.5` does. In half-insertions: `3 * parity + 2 * (corner 3-cycles + edge
//! 3-cycles)`.

#[cfg(test)]
use std::collections::VecDeque;
#[cfg(test)]
use std::collections::hash_map::{Entry, HashMap};
use std::fmt;
use std::sync::OnceLock;

use cube_core::{Corner, Cube, Edge};

use super::classes;

/// The corners or the edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orbit {
    /// The eight corners (three twists).
    Corners,
    /// The twelve edges (two flips).
    Edges,
}

impl Orbit {
    /// The number of pieces.
    pub const fn pieces(self) -> usize {
        match self {
            Orbit::Corners => 8,
            Orbit::Edges => 12,
        }
    }

    /// The number of orientations of a piece.
    pub const fn modulus(self) -> u8 {
        match self {
            Orbit::Corners => 3,
            Orbit::Edges => 2,
        }
    }

    /// The orbit's name in the plural, `corners` or `edges`.
    pub const fn name(self) -> &'static str {
        match self {
            Orbit::Corners => "corners",
            Orbit::Edges => "edges",
        }
    }

    /// The name of position `i`.
    pub fn position_name(self, i: u8) -> &'static str {
        match self {
            Orbit::Corners => Corner::ALL[usize::from(i)].name(),
            Orbit::Edges => Edge::ALL[usize::from(i)].name(),
        }
    }

    /// The pieces at each position and their orientations.
    fn parts(self, cube: &Cube) -> ([u8; 12], [u8; 12]) {
        let mut perm: [u8; 12] = std::array::from_fn(|i| i as u8);
        let mut ori = [0; 12];
        match self {
            Orbit::Corners => {
                perm[..8].copy_from_slice(&cube.corner_perm());
                ori[..8].copy_from_slice(&cube.corner_ori());
            }
            Orbit::Edges => {
                perm.copy_from_slice(&cube.edge_perm());
                ori.copy_from_slice(&cube.edge_ori());
            }
        }
        (perm, ori)
    }
}

/// One cycle of pieces that are not home: each position's piece belongs at the next position
/// (the last one's at the first), turned by `twist` in all when it gets round (a piece alone that
/// is twisted or flipped in place is a cycle of one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Corners or edges.
    pub orbit: Orbit,
    /// The positions, from the lowest in Kociemba's order.
    pub positions: Vec<u8>,
    /// The net twist (corners: 0 to 2 clockwise) or flip (edges: 0 or 1) of the cycle.
    pub twist: u8,
}

impl Cycle {
    /// The positions by name, each piece belonging at the next: `URF UBR ULB`.
    pub fn position_names(&self) -> Vec<&'static str> {
        self.positions
            .iter()
            .map(|&p| self.orbit.position_name(p))
            .collect()
    }
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position_names().join(" -> "))?;
        if self.positions.len() > 1 {
            write!(f, " -> {}", self.orbit.position_name(self.positions[0]))?;
        }
        match (self.orbit, self.twist) {
            (_, 0) => Ok(()),
            (Orbit::Corners, 1) => f.write_str(" (twisted clockwise)"),
            (Orbit::Corners, _) => f.write_str(" (twisted counterclockwise)"),
            (Orbit::Edges, _) => f.write_str(" (flipped)"),
        }
    }
}

/// The cycles of one orbit of `cube`, from the lowest position.
fn orbit_cycles(cube: &Cube, orbit: Orbit) -> Vec<Cycle> {
    let (perm, ori) = orbit.parts(cube);
    let mut seen = [false; 12];
    let mut cycles = Vec::new();
    for start in 0..orbit.pieces() {
        if seen[start] {
            continue;
        }
        let (mut at, mut positions, mut twist) = (start, Vec::new(), 0);
        while !seen[at] {
            seen[at] = true;
            positions.push(at as u8);
            twist = (twist + ori[at]) % orbit.modulus();
            at = usize::from(perm[at]);
        }
        if positions.len() > 1 || twist != 0 {
            cycles.push(Cycle {
                orbit,
                positions,
                twist,
            });
        }
    }
    cycles
}

/// What a skeleton leaves: the state the scramble and the skeleton make, as cycles.
///
/// ```
/// use cube_core::{Alg, Cube};
/// use cube_solvers::fmc::insert::Leftover;
///
/// // A corner 3-cycle and an edge 3-cycle.
/// let alg: Alg = "R U R' D R U' R' D' R2 U R U R' U' R' U' R' U R'".parse()?;
/// let leftover = Leftover::of(&Cube::SOLVED.apply_alg(&alg));
/// assert_eq!(leftover.code(), "3c3e");
/// assert_eq!(leftover.words(), "3 corners, 3 edges: 3c3e");
/// assert_eq!(leftover.insertions(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leftover {
    state: Cube,
    cycles: Vec<Cycle>,
}

impl Leftover {
    /// The leftover of `state` (a legal state).
    pub fn of(state: &Cube) -> Leftover {
        let mut cycles = orbit_cycles(state, Orbit::Corners);
        cycles.extend(orbit_cycles(state, Orbit::Edges));
        Leftover {
            state: *state,
            cycles,
        }
    }

    /// Whether nothing is left.
    pub fn is_solved(&self) -> bool {
        self.cycles.is_empty()
    }

    /// The cycles, corners first, each from its lowest position.
    pub fn cycles(&self) -> &[Cycle] {
        &self.cycles
    }

    /// Whether the corners (and so the edges) are an odd permutation: a parity algorithm (a
    /// corner swap with an edge swap) is needed.
    pub fn parity(&self) -> bool {
        self.state.corner_parity_odd()
    }

    /// The fewest insertions of 3-cycles (and one parity algorithm when [`Leftover::parity`])
    /// that solve it: a twist of two corners counts two, for two 3-cycles make it.
    pub fn insertions(&self) -> usize {
        usize::from(self.measure() / 2)
    }

    /// The measure in half-insertions (3 for the parity algorithm, 2 per 3-cycle), which every
    /// insertion must lower.
    pub(crate) fn measure(&self) -> u8 {
        measure(&self.state)
    }

    /// The short code: `3c3e`, `2c2e`, `5c`, `3e3e`; pieces twisted or flipped in place as
    /// `2t` or `2f` (`3c2t`). Empty when solved.
    pub fn code(&self) -> String {
        let mut code = String::new();
        for orbit in [Orbit::Corners, Orbit::Edges] {
            let letter = if orbit == Orbit::Corners { 'c' } else { 'e' };
            let mut lengths: Vec<usize> = self
                .of_orbit(orbit)
                .filter(|c| c.positions.len() > 1)
                .map(|c| c.positions.len())
                .collect();
            lengths.sort_unstable_by(|a, b| b.cmp(a));
            for n in lengths {
                code.push_str(&format!("{n}{letter}"));
            }
        }
        for (orbit, letter) in [(Orbit::Corners, 't'), (Orbit::Edges, 'f')] {
            let n = self.in_place(orbit);
            if n > 0 {
                code.push_str(&format!("{n}{letter}"));
            }
        }
        code
    }

    /// In FMC solvers' words: `3 corners, 3 edges: 3c3e`, `2 twisted corners`, `solved`.
    pub fn words(&self) -> String {
        if self.is_solved() {
            return "solved".to_string();
        }
        let mut parts = Vec::new();
        for orbit in [Orbit::Corners, Orbit::Edges] {
            let cycled: usize = self
                .of_orbit(orbit)
                .filter(|c| c.positions.len() > 1)
                .map(|c| c.positions.len())
                .sum();
            if cycled > 0 {
                parts.push(format!("{cycled} {}", orbit.name()));
            }
        }
        let twisted_cycles = self
            .cycles
            .iter()
            .filter(|c| c.positions.len() > 1 && c.twist != 0)
            .count();
        let cycled_words = parts.join(", ");
        let mut words = Vec::new();
        if !cycled_words.is_empty() {
            let code = self.cycle_code();
            words.push(if twisted_cycles > 0 {
                format!("{cycled_words}: {code}, {twisted_cycles} of the cycles twisted or flipped")
            } else {
                format!("{cycled_words}: {code}")
            });
        }
        for (orbit, word) in [(Orbit::Corners, "twisted"), (Orbit::Edges, "flipped")] {
            let n = self.in_place(orbit);
            if n > 0 {
                let noun = if n == 1 {
                    &orbit.name()[..orbit.name().len() - 1]
                } else {
                    orbit.name()
                };
                words.push(format!("{n} {word} {noun}"));
            }
        }
        words.join(", ")
    }

    /// [`Leftover::code`] without the pieces in place.
    fn cycle_code(&self) -> String {
        let code = self.code();
        code.split_inclusive(['c', 'e', 't', 'f'])
            .filter(|part| part.ends_with(['c', 'e']))
            .collect()
    }

    fn of_orbit(&self, orbit: Orbit) -> impl Iterator<Item = &Cycle> {
        self.cycles.iter().filter(move |c| c.orbit == orbit)
    }

    /// The pieces of `orbit` twisted or flipped in place.
    fn in_place(&self, orbit: Orbit) -> usize {
        self.of_orbit(orbit)
            .filter(|c| c.positions.len() == 1)
            .count()
    }
}

/// The conjugacy class of one orbit of a state, from its bytes (the piece in the low nibble,
/// its orientation above, as [`Cube::packed_corners`] gives them): for each kind of cycle (its
/// length and net orientation, `length * modulus + orientation`), how many, in four bits each
/// (pieces home and unturned not counted); and whether the permutation is odd.
fn class_key(bytes: &[u8], modulus: u8) -> (u128, bool) {
    let mut seen = 0u32;
    let mut key = 0u128;
    let mut odd = false;
    for start in 0..bytes.len() {
        if seen >> start & 1 == 1 {
            continue;
        }
        let (mut at, mut length, mut twist) = (start, 0u32, 0u8);
        while seen >> at & 1 == 0 {
            seen |= 1 << at;
            length += 1;
            twist += bytes[at] >> 4;
            at = usize::from(bytes[at] & 15);
        }
        odd ^= length % 2 == 0;
        let twist = twist % modulus;
        if length > 1 || twist != 0 {
            key += 1 << (4 * (length * u32::from(modulus) + u32::from(twist)));
        }
    }
    (key, odd)
}

/// Class keys to distances, by open addressing (a look-up is a multiply and a probe or two).
struct ClassTable {
    slots: Vec<(u128, u8)>,
}

impl ClassTable {
    const EMPTY: u8 = u8::MAX;
    const BITS: u32 = 11;

    /// The table of `(key, distance)` pairs.
    fn new(list: &[(u128, u8)]) -> ClassTable {
        let mut slots = vec![(0, Self::EMPTY); 1 << Self::BITS];
        for &(key, value) in list {
            let mut at = Self::slot(key);
            while slots[at].1 != Self::EMPTY {
                at = (at + 1) & (slots.len() - 1);
            }
            slots[at] = (key, value);
        }
        ClassTable { slots }
    }

    fn slot(key: u128) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (folded.wrapping_mul(0xff51_afd7_ed55_8ccd) >> (64 - Self::BITS)) as usize
    }

    /// The distance of `key`, or `None`.
    fn get(&self, key: u128) -> Option<u8> {
        let mut at = Self::slot(key);
        loop {
            let (k, v) = self.slots[at];
            if v == Self::EMPTY {
                return None;
            }
            if k == key {
                return Some(v);
            }
            at = (at + 1) & (self.slots.len() - 1);
        }
    }
}

/// The packed bytes of one orbit (twelve lanes, the corners' last four unused).
#[cfg(test)]
type OrbitBytes = [u8; 12];

/// The fewest 3-cycles that solve each class of one orbit, even classes and (after the one swap
/// of a parity algorithm, the best one) odd ones.
struct Distances {
    even: ClassTable,
    odd: ClassTable,
    modulus: u8,
}

impl Distances {
    /// The distance of the orbit in `bytes` (packed), whose permutation is odd when `odd`.
    fn get(&self, bytes: &[u8]) -> u8 {
        let (key, odd) = class_key(bytes, self.modulus);
        let table = if odd { &self.odd } else { &self.even };
        table
            .get(key)
            .expect("every class of a legal state is reached")
    }
}

/// The corners' and the edges' distances, from [`classes`](mod@super::classes).
fn distances() -> &'static [Distances; 2] {
    static DISTANCES: OnceLock<[Distances; 2]> = OnceLock::new();
    DISTANCES.get_or_init(|| {
        [
            Distances {
                even: ClassTable::new(&classes::CORNERS_EVEN),
                odd: ClassTable::new(&classes::CORNERS_ODD),
                modulus: 3,
            },
            Distances {
                even: ClassTable::new(&classes::EDGES_EVEN),
                odd: ClassTable::new(&classes::EDGES_ODD),
                modulus: 2,
            },
        ]
    })
}

/// The fewest 3-cycles that solve the corners of a legal state, after the parity algorithm's
/// best swap when they are an odd permutation.
pub(crate) fn corner_distance(state: &Cube) -> u8 {
    distances()[0].get(&state.packed_corners()[..8])
}

/// [`corner_distance`] of the edges.
pub(crate) fn edge_distance(state: &Cube) -> u8 {
    distances()[1].get(&state.packed_edges()[..12])
}

/// The measure of a legal state in half-insertions (see the module docs): 0 exactly when solved.
pub(crate) fn measure(state: &Cube) -> u8 {
    measure_of(
        state.corner_parity_odd(),
        corner_distance(state),
        edge_distance(state),
    )
}

/// The measure of a state of parity `odd` and these distances.
pub(crate) fn measure_of(odd: bool, corners: u8, edges: u8) -> u8 {
    3 * u8::from(odd) + 2 * (corners + edges)
}

/// Breadth-first over the classes of `orbit` by 3-cycles of every orientation, then one swap (of
/// either orientation that keeps the sum) to the odd classes: the distances of the even classes
/// and of the odd ones, sorted by key ([`classes`]' tables).
#[cfg(test)]
fn search(orbit: Orbit) -> [Vec<(u128, u8)>; 2] {
    let (n, modulus) = (orbit.pieces(), orbit.modulus());
    // States as packed bytes, as `class_key` reads them (the unused lanes home).
    let identity: OrbitBytes = std::array::from_fn(|i| i as u8);
    let compose = |p: &OrbitBytes, q: &OrbitBytes| -> OrbitBytes {
        std::array::from_fn(|i| {
            let from = p[usize::from(q[i] & 15)];
            from & 15 | ((((from >> 4) + (q[i] >> 4)) % modulus) << 4)
        })
    };
    // A cycle moving the piece at positions[k] to positions[k + 1], orientations `ori`.
    let cycle = |positions: &[usize], ori: &[u8]| -> OrbitBytes {
        let mut bytes = identity;
        for (k, &at) in positions.iter().enumerate() {
            bytes[at] = positions[(k + 1) % positions.len()] as u8 | ori[k] << 4;
        }
        bytes
    };
    let mut three_cycles = Vec::new();
    let mut swaps = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for t in 0..modulus {
                swaps.push(cycle(&[a, b], &[t, (modulus - t) % modulus]));
            }
            for c in b + 1..n {
                for positions in [[a, b, c], [a, c, b]] {
                    for t in 0..modulus * modulus {
                        let (x, y) = (t / modulus, t % modulus);
                        let z = (2 * modulus - x - y) % modulus;
                        three_cycles.push(cycle(&positions, &[x, y, z]));
                    }
                }
            }
        }
    }
    let key = |bytes: &OrbitBytes| class_key(&bytes[..n], modulus).0;
    // The positions a state moves or turns.
    let support = |bytes: &OrbitBytes| -> u32 {
        (0..n)
            .filter(|&i| bytes[i] != i as u8)
            .map(|i| 1 << i)
            .sum()
    };
    let three_cycles: Vec<(u32, OrbitBytes)> =
        three_cycles.into_iter().map(|g| (support(&g), g)).collect();
    let mut even = HashMap::from([(key(&identity), 0u8)]);
    let mut reps = vec![(identity, 0u8)];
    let mut queue = VecDeque::from([(identity, 0u8)]);
    while let Some((state, distance)) = queue.pop_front() {
        // Pieces home are alike: a 3-cycle reaches the same classes through the first three
        // of them as through any three, so only those are used.
        let moved = support(&state);
        let mut allowed = moved;
        for _ in 0..3 {
            allowed |= 1 << (!allowed).trailing_zeros();
        }
        for (_, generator) in three_cycles.iter().filter(|(s, _)| s & !allowed == 0) {
            let next = compose(&state, generator);
            if let Entry::Vacant(entry) = even.entry(key(&next)) {
                entry.insert(distance + 1);
                reps.push((next, distance + 1));
                queue.push_back((next, distance + 1));
            }
        }
    }
    let mut odd: HashMap<u128, u8> = HashMap::new();
    for (state, distance) in &reps {
        for swap in &swaps {
            let entry = odd.entry(key(&compose(state, swap))).or_insert(u8::MAX);
            *entry = (*entry).min(*distance);
        }
    }
    let sorted = |map: HashMap<u128, u8>| {
        let mut list: Vec<(u128, u8)> = map.into_iter().collect();
        list.sort_unstable();
        list
    };
    [sorted(even), sorted(odd)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_core::Alg;

    fn state(alg: &str) -> Cube {
        Cube::SOLVED.apply_alg(&alg.parse::<Alg>().unwrap())
    }

    #[test]
    fn class_distances_are_the_search_s() {
        // Every class of each orbit is reached: the multisets of cycles (length, net orientation)
        // of a zero orientation sum, pieces home not counted, even permutations then odd ones,
        // counted apart from the search by listing the partitions of 8 and 12 with a label per
        // part: 140 and 130 for the corners, 302 and 286 for the edges.
        let (corners, edges) = rayon::join(|| search(Orbit::Corners), || search(Orbit::Edges));
        assert_eq!((corners[0].len(), corners[1].len()), (140, 130));
        assert_eq!((edges[0].len(), edges[1].len()), (302, 286));
        let lists = [
            ("CORNERS_EVEN", &corners[0]),
            ("CORNERS_ODD", &corners[1]),
            ("EDGES_EVEN", &edges[0]),
            ("EDGES_ODD", &edges[1]),
        ];
        let written = [
            &classes::CORNERS_EVEN[..],
            &classes::CORNERS_ODD[..],
            &classes::EDGES_EVEN[..],
            &classes::EDGES_ODD[..],
        ];
        if std::env::var_os("UPDATE_CLASSES").is_some() {
            // The file up to its tables, then the tables.
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/fmc/insert/classes.rs");
            let old = std::fs::read_to_string(path).expect("classes.rs is readable");
            let mut text = old[..old.find("pub(super) const").expect("the tables")].to_string();
            for (name, list) in lists {
                text.push_str(&format!(
                    "\npub(super) const {name}: [(u128, u8); {}] = [\n",
                    list.len()
                ));
                for (key, distance) in list.iter() {
                    text.push_str(&format!("    ({key:#x}, {distance}),\n"));
                }
                text.push_str("];\n");
            }
            std::fs::write(path, text).expect("classes.rs is writable");
        }
        for ((name, list), written) in lists.into_iter().zip(written) {
            assert_eq!(
                &list[..],
                written,
                "{name} is stale: UPDATE_CLASSES=1 cargo test -p cube-solvers --lib class_distances"
            );
        }
    }

    #[test]
    fn known_leftovers() {
        let cases = [
            ("", "", "solved", 0),
            ("R U R' D R U' R' D'", "3c", "3 corners: 3c", 1),
            ("U' D L2 U D' B2", "3e", "3 edges: 3e", 1),
            // The T permutation: a corner swap and an edge swap.
            (
                "R U R' U' R' F R2 U' R' U' R U R' F'",
                "2c2e",
                "2 corners, 2 edges: 2c2e",
                1,
            ),
            // A twist of two corners (the generated set's first).
            (
                "D2 R' F U2 F' R D2 R' F U2 F' R",
                "2t",
                "2 twisted corners",
                2,
            ),
            // Two pairs of edges swapped.
            ("U2 F2 U2 D2 B2 D2", "2e2e", "4 edges: 2e2e", 2),
        ];
        for (alg, code, words, insertions) in cases {
            let leftover = Leftover::of(&state(alg));
            assert_eq!(leftover.code(), code, "{alg}");
            assert_eq!(leftover.words(), words, "{alg}");
            assert_eq!(leftover.insertions(), insertions, "{alg}");
        }
    }
}
