//! The algorithm sets made by search: every canonical sequence up to a length whose effect is a
//! case of a given kind, found by meeting in the middle.
//!
//! A sequence of length `L` is a first half `a` of `floor(L / 2)` moves and a second half `b` of
//! `ceil(L / 2)`, and its effect is `t = a b`, so `b = a⁻¹ t`. The kinds are searched in
//! families that leave one orbit alone or move it in a few known ways: the corner kinds (3-cycles,
//! twists, swaps) leave every edge home, so `b`'s edges are `a⁻¹`'s; parity cases move the edges
//! by one swap, which the 48 symmetries of the cube carry onto a few representative swaps `e`, so
//! `b`'s edges are those of `a⁻¹ e` for one of them (and the images of what is found under the
//! symmetries are the rest); the edge kinds leave every corner home. So the second halves are
//! indexed by the pieces of that orbit, each first half looks up what `b` must hold there, and
//! every sequence found is classified by its effect.

use cube_core::{Cube, Move, MoveSet, Symmetry, simplify};
use rayon::prelude::*;

use super::InsertError;
use super::algs::{AlgSet, Kind, pack, unpack};
use super::cycles::Orbit;

/// The bytes of one orbit of `cube`, the piece and its orientation in five or six bits each.
fn orbit_key(orbit: Orbit, cube: &Cube) -> u64 {
    let (bytes, bits, mask) = match orbit {
        Orbit::Corners => (cube.packed_corners(), 6, 0x3f),
        Orbit::Edges => (cube.packed_edges(), 5, 0x1f),
    };
    bytes[..orbit.pieces()]
        .iter()
        .fold(0u64, |key, &b| key << bits | u64::from(b & mask))
}

/// One search: the kinds it finds, the orbit whose pieces index the second halves, and the
/// states of that orbit the kinds' cases may leave (the representatives, when `close` says the
/// symmetries make the rest).
struct Search {
    kinds: &'static [Kind],
    keyed: Orbit,
    targets: Vec<Cube>,
    close: bool,
}

/// The searches of the generated kinds.
fn searches() -> Vec<Search> {
    vec![
        Search {
            kinds: &[Kind::CornerCycle, Kind::CornerTwist, Kind::CornerSwaps],
            keyed: Orbit::Edges,
            targets: vec![Cube::SOLVED],
            close: false,
        },
        Search {
            kinds: &[Kind::EdgeCycle, Kind::EdgeFlip, Kind::EdgeSwaps],
            keyed: Orbit::Corners,
            targets: vec![Cube::SOLVED],
            close: false,
        },
        Search {
            kinds: &[Kind::Parity],
            keyed: Orbit::Edges,
            targets: edge_swap_representatives(),
            close: true,
        },
    ]
}

/// One edge swap (both edges flipped or neither) of each class under the 48 symmetries.
fn edge_swap_representatives() -> Vec<Cube> {
    let mut classes: Vec<u64> = Vec::new();
    let mut reps = Vec::new();
    for i in 0..12u8 {
        for j in i + 1..12 {
            for flip in 0..2 {
                let mut ep: [u8; 12] = std::array::from_fn(|k| k as u8);
                ep.swap(usize::from(i), usize::from(j));
                let mut eo = [0; 12];
                (eo[usize::from(i)], eo[usize::from(j)]) = (flip, flip);
                let swap = Cube::from_parts(std::array::from_fn(|k| k as u8), [0; 8], ep, eo)
                    .expect("a swap is well formed");
                let class = Symmetry::all()
                    .map(|s| orbit_key(Orbit::Edges, &s.conjugate(&swap)))
                    .min()
                    .expect("48 symmetries");
                if !classes.contains(&class) {
                    classes.push(class);
                    reps.push(swap);
                }
            }
        }
    }
    reps
}

/// Calls `f` with every canonical sequence of at most `depth` moves starting with `first` (or the
/// empty sequence when `first` is `None`), packed, with its state.
fn each_sequence(depth: usize, first: Option<Move>, f: &mut impl FnMut(u64, &Cube)) {
    fn walk(moves: &mut Vec<Move>, state: Cube, depth: usize, f: &mut impl FnMut(u64, &Cube)) {
        f(pack(moves), &state);
        if moves.len() == depth {
            return;
        }
        for m in MoveSet::after(moves.last().copied()).iter() {
            moves.push(m);
            walk(moves, state.apply_move(m), depth, f);
            moves.pop();
        }
    }
    match first {
        None => walk(&mut Vec::new(), Cube::SOLVED, depth, f),
        Some(m) if depth > 0 => walk(&mut vec![m], Cube::from_move(m), depth, f),
        Some(_) => {}
    }
}

/// Packed sequences by a key, in buckets by the key's top bits (two cache misses a look-up).
struct Index {
    starts: Vec<u32>,
    entries: Vec<(u64, u64)>,
    shift: u32,
}

impl Index {
    fn new(mut entries: Vec<(u64, u64)>) -> Index {
        let bits = (entries.len().max(2).ilog2() + 1).min(24);
        let shift = 64 - bits;
        let bucket = |key: u64| (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift) as usize;
        entries.par_sort_unstable_by_key(|&(key, packed)| (bucket(key), key, packed));
        let mut starts = vec![0u32; (1 << bits) + 1];
        for &(key, _) in &entries {
            starts[bucket(key) + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        Index {
            starts,
            entries,
            shift,
        }
    }

    fn get(&self, key: u64) -> impl Iterator<Item = u64> + '_ {
        let bucket = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize;
        self.entries[self.starts[bucket] as usize..self.starts[bucket + 1] as usize]
            .iter()
            .filter(move |&&(k, _)| k == key)
            .map(|&(_, packed)| packed)
    }
}

// The generated set, here rather than in `algs` (which this module builds on), so that the
// two modules import one way.
impl AlgSet {
    /// Every canonical sequence of each kind up to its length in `lengths` (1 to 12 moves; a
    /// kind not listed has none), by this crate's search (meeting in the middle; see
    /// [`InsertTables`](super::InsertTables) for the generated set and its counts). Runs on the
    /// caller's rayon pool.
    ///
    /// # Errors
    /// [`InsertError::Settings`] for a length out of range or
    /// [`Kind::Other`].
    pub fn generate(lengths: &[(Kind, usize)]) -> Result<AlgSet, InsertError> {
        for &(kind, length) in lengths {
            if kind == Kind::Other || !(1..=12).contains(&length) {
                return Err(InsertError::Settings(format!(
                    "algorithms of kind {kind} are generated up to 1 to 12 moves, not {length}"
                )));
            }
        }
        let max_length = |kind: Kind| lengths.iter().find(|&&(k, _)| k == kind).map(|&(_, n)| n);
        Ok(AlgSet::from_sequences(generate(max_length)))
    }
}

/// Every canonical sequence of `max_length(kind)` moves or fewer (1 to 12) whose effect is a case
/// of one of the kinds given a length, each once; in no particular order. Runs on the caller's
/// rayon pool.
pub(crate) fn generate(max_length: impl Fn(Kind) -> Option<usize> + Sync) -> Vec<Vec<Move>> {
    let mut found: Vec<Vec<Move>> = Vec::new();
    // The indexes by orbit and depth, kept for the next search that shares one.
    let mut indexes: Vec<(Orbit, usize, Index)> = Vec::new();
    for search in searches() {
        let Some(longest) = search.kinds.iter().filter_map(|&k| max_length(k)).max() else {
            continue;
        };
        assert!(
            (1..=12).contains(&longest),
            "algorithms are generated up to 12 moves"
        );
        let (first_depth, second_depth) = (longest / 2, longest.div_ceil(2));
        let at = match indexes
            .iter()
            .position(|&(o, d, _)| o == search.keyed && d == second_depth)
        {
            Some(at) => at,
            None => {
                let mut entries = Vec::new();
                each_sequence(second_depth, None, &mut |packed, state| {
                    entries.push((orbit_key(search.keyed, state), packed));
                });
                indexes.push((search.keyed, second_depth, Index::new(entries)));
                indexes.len() - 1
            }
        };
        let index = &indexes[at].2;
        let keep = |a: &[Move], b: &[Move]| -> Option<Vec<Move>> {
            // `b` takes the second half: as long as `a` or one move longer, after it canonically.
            if b.len() != a.len() && b.len() != a.len() + 1 {
                return None;
            }
            if let (Some(last), Some(first)) = (a.last(), b.first())
                && !last.allowed_after().contains(*first)
            {
                return None;
            }
            let moves = [a, b].concat();
            let kind = Kind::of_effect(&Cube::SOLVED.apply_moves(&moves))?;
            (search.kinds.contains(&kind) && max_length(kind).is_some_and(|max| moves.len() <= max))
                .then_some(moves)
        };
        let look_up = |packed: u64, state: &Cube, out: &mut Vec<Vec<Move>>| {
            let inverse = state.inverse();
            let a = unpack(packed);
            for target in &search.targets {
                for b in index.get(orbit_key(search.keyed, &inverse.compose(target))) {
                    out.extend(keep(&a, &unpack(b)));
                }
            }
        };
        // The empty first half, then those from each move, in parallel.
        let mut here = Vec::new();
        look_up(pack(&[]), &Cube::SOLVED, &mut here);
        let per_first: Vec<Vec<Vec<Move>>> = Move::ALL
            .par_iter()
            .map(|&m| {
                let mut out = Vec::new();
                each_sequence(first_depth, Some(m), &mut |packed, state| {
                    look_up(packed, state, &mut out);
                });
                out
            })
            .collect();
        let mut algs: Vec<Vec<Move>> = here
            .into_iter()
            .chain(per_first.into_iter().flatten())
            .collect();
        if search.close {
            algs = algs
                .par_iter()
                .flat_map_iter(|alg| {
                    Symmetry::all().map(move |s| {
                        simplify(&alg.iter().map(|&m| s.conjugate_move(m)).collect::<Vec<_>>())
                    })
                })
                .collect();
            algs.par_sort_unstable();
            algs.dedup();
        }
        found.extend(algs);
    }
    found
}
