//! The full check of a pattern database: rescan, published histogram, and spot checks of entries.
//!
//! The rescan ([`verify`](crate::verify())) proves that the payload is what was written; the spot checks
//! catch a generator that wrote the wrong thing with the right histogram. They check a sample of
//! entries against the law of a distance table (an entry `v > 0` has a neighbour at `v - 1` and none below
//! it; the goal is the only 0), and entries near the goal against an independent iterative-deepening
//! search in the projected space.

use rayon::prelude::*;

use cube_core::{Move, MoveSet};

use crate::file::error::{Kind, TableError};
use crate::file::table::PruneTable;
use crate::pdb::index::{CornerCoord, CornerMoves, EdgeMoveMaps, N_MOVES};
use crate::pdb::{Pdb, Projection};
use crate::tier::family::{SpotCheck, VerifyReport};

/// Verifies `table`, which must hold `pdb`: the payload hash and histogram against the header, the
/// histogram against the published one, then the spot checks of `spot`.
///
/// # Errors
///
/// - `PayloadHash` or `HistogramMismatch` from the rescan.
/// - `InvalidInput` when `table` is not `pdb`'s table, or an entry breaks the law of a distance table or
///   differs from the independent search (the message names the entry).
pub fn verify_table<T: AsRef<[u8]> + Sync>(
    table: &PruneTable<T>,
    pdb: &Pdb,
    spot: &SpotCheck,
) -> Result<VerifyReport, TableError> {
    let spec = &pdb.spec;
    let at = |e: TableError| e.at(spec.id, table.path(), &spec.fix, spec.tier);
    if table.id() != spec.id || table.len() != pdb.n_entries() {
        let what = format!(
            "table {} of {} entries is not {} of {} entries",
            table.id(),
            table.len(),
            spec.id,
            pdb.n_entries()
        );
        return Err(at(TableError::new(Kind::InvalidInput { what })));
    }
    let expected = pdb.expected_histogram();
    crate::verify(table, expected.as_ref())?;
    let space = Neighbors::new(pdb);
    let goal = pdb.goal();
    let bad = |what: String| at(TableError::new(Kind::BadEntry { what }));

    // Local consistency of random entries, and of the goal.
    let mut rng = SplitMix(spot.seed);
    let mut sample: Vec<usize> = (0..spot.n_random)
        .map(|_| rng.below(pdb.n_entries()))
        .collect();
    sample.push(goal);
    sample.par_iter().try_for_each(|&index| {
        let value = table.get(index);
        let neighbors = space.neighbors(index);
        let values = neighbors.map(|n| table.get(n));
        let lowest = values.iter().copied().min().expect("18 neighbours");
        let highest = values.iter().copied().max().expect("18 neighbours");
        let fine = if index == goal {
            value == 0
        } else {
            value > 0 && lowest == value - 1 && highest <= value + 1
        };
        if fine {
            Ok(())
        } else {
            Err(bad(format!(
                "entry {index} is {value}, its neighbours range from {lowest} to {highest}: not a distance table"
            )))
        }
    })?;

    // Entries near the goal against an iterative-deepening search.
    let walks: Vec<(usize, usize)> = (0..spot.n_walks)
        .map(|_| {
            let length = rng.below(7);
            let mut index = goal;
            for _ in 0..length {
                index = space.neighbors(index)[rng.below(N_MOVES)];
            }
            (index, length)
        })
        .collect();
    let n_searched = walks
        .par_iter()
        .map(|&(index, length)| {
            let value = table.get(index);
            if usize::from(value) > length {
                return Err(bad(format!(
                    "entry {index} is {value}, but a walk of {length} moves reaches it"
                )));
            }
            if value > 5 {
                return Ok(0);
            }
            let distance = space.distance(index, goal, 5);
            if distance != Some(value) {
                return Err(bad(format!(
                    "entry {index} is {value}, an independent search says {distance:?}"
                )));
            }
            Ok(1)
        })
        .try_reduce(|| 0, |a, b| Ok(a + b))?;
    Ok(VerifyReport {
        histogram: *table.histogram(),
        n_local: sample.len(),
        n_searched,
    })
}

/// The 18 neighbours of an entry, through the public coordinate types (not the generator's spaces).
struct Neighbors<'a> {
    pdb: &'a Pdb,
    corners: &'static CornerMoves,
    edges: &'static EdgeMoveMaps,
}

impl<'a> Neighbors<'a> {
    fn new(pdb: &'a Pdb) -> Neighbors<'a> {
        Neighbors {
            pdb,
            corners: CornerMoves::get(),
            edges: EdgeMoveMaps::get(),
        }
    }

    fn neighbor(&self, index: usize, m: Move) -> usize {
        match &self.pdb.projection {
            Projection::Corners => CornerCoord::from_index(index)
                .apply(m, self.corners)
                .index(),
            Projection::Edges(subset) => subset.coord_of_index(index).apply(m, self.edges).index(),
        }
    }

    fn neighbors(&self, index: usize) -> [usize; N_MOVES] {
        Move::ALL.map(|m| self.neighbor(index, m))
    }

    /// The distance from `index` to `goal` by iterative deepening over canonical sequences, if at most
    /// `max_depth`.
    fn distance(&self, index: usize, goal: usize, max_depth: u8) -> Option<u8> {
        (0..=max_depth).find(|&depth| self.reaches(index, goal, depth, None))
    }

    fn reaches(&self, index: usize, goal: usize, depth: u8, previous: Option<Move>) -> bool {
        if depth == 0 {
            return index == goal;
        }
        MoveSet::after(previous)
            .iter()
            .any(|m| self.reaches(self.neighbor(index, m), goal, depth - 1, Some(m)))
    }
}

/// SplitMix64: a small deterministic generator for the samples.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}
