//! Baking `h48-h0`: an exact breadth-first search over the cosets of G (corner class x
//! E/M-slice placement, 117,567,450 entries), packed into the 2-bit line layout.
//!
//! h0 is the coordinate of a subgroup, so its entries are exact distances found by a plain
//! breadth-first search over (class, esep) pairs with one byte per entry (118 MB), no scratch
//! file. A move takes entry `(c, e)` (the representative's corners, edges `e` in its frame) to
//! the class `c'` of the representative after the move, conjugated back by the symmetry `t` of
//! its `ttrep`; the edges follow by two small tables, the move (`e -> e·m`) and the conjugation
//! (`e -> t e t⁻¹`). The pair `(c', t)` depends only on `(c, m)`: 3,393 x 18 arcs. When `c'` is
//! self-symmetric, the images of the edges under its stabilizer are the same coset seen from
//! another symmetry and are marked too.
//!
//! Small levels are expanded forward (parallel over source rows, relaxed atomic bytes: every
//! writer of a level writes the same value); large ones backward (each unassigned entry looks
//! for a neighbour in the frontier, parallel over destination rows, each row written by one
//! thread). Checks before anything is written: the entries per depth are the published ones
//! (design note 3.5: cube48opt's opt1 bake log, nissy-core's `expected_h48[0]`), every entry is
//! reached, and the histograms sum to the entry and line counts.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

use cube_core::{Cube, Move};
use rayon::prelude::*;

use super::cocsep::Cocsep;
use super::edges::{ESEP_COUNT, EdgeSyms, N_PLACEMENTS, Q, edge_parts_plain};
use super::lines::{BLOCK_BYTES, LINE_BYTES};
use super::table::{H0, spec_or_error};
use crate::error::{Kind, TableError};
use crate::format::{HISTOGRAM_LEN, Histogram};
use crate::id::{Encoding, Tier};
use crate::pdb::bake::is_sound;
use crate::pdb::{Direction, LevelStats};
use crate::store::{WriteOptions, write_table};

/// Entries of h0 per depth 0..=9, reduced by the 48 symmetries: cube48opt's opt1 bake log
/// (design note 3.5); depths 0..=8 sum to nissy-core's 5,473,562 entries of code 0
/// (`src/solvers/h48/checkdata.h`, `expected_h48[0]`) and depth 9 is its code 1.
pub const H0_DEPTHS: [u64; 10] = [1, 1, 4, 34, 331, 3612, 41605, 474128, 4953846, 34776317];

/// nissy-core's code histogram of h0 with base 8 (`expected_h48[0]`): values <= 8, 9, 10, >= 11.
pub const H0_CODES: [u64; 4] = [5_473_562, 34_776_317, 68_566_704, 8_750_867];

/// Options of [`bake`].
#[derive(Clone, Debug, Default)]
pub struct BakeOptions {
    /// Bake even when a valid table is present.
    pub force: bool,
    /// Wait for another bake of the same table rather than fail with `Locked`.
    pub wait_for_lock: bool,
}

/// What [`bake`] did.
#[derive(Clone, Debug)]
pub struct BakeReport {
    /// The table file.
    pub path: PathBuf,
    /// Whether the table was already baked and valid (nothing else is filled in then).
    pub skipped: bool,
    /// One line per level of the search.
    pub levels: Vec<LevelStats>,
    /// The histogram written to the header: codes in buckets 0..4, line minima in 16..32.
    pub histogram: Histogram,
    /// Time of the search (all levels).
    pub search_time: Duration,
    /// Time of packing and writing.
    pub write_time: Duration,
}

/// Bakes the table of an H48 `tier` into `dir`, unless a valid one is there. Only `h0` has a
/// bake so far.
///
/// # Errors
///
/// - `InvalidInput` for a Korf tier or an H48 tier other than h0.
/// - `HistogramMismatch` when the search finds other counts than the published ones (a bug;
///   nothing is written).
/// - `Locked`, `Io`: the errors of [`write_table`].
pub fn bake(
    dir: &Path,
    tier: Tier,
    options: &BakeOptions,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<BakeReport, TableError> {
    let spec = spec_or_error(tier)?;
    let path = spec.path_in(dir);
    let at = |e: TableError| e.at(spec.id, &path, &spec.fix, spec.tier);
    if tier != Tier::H0 {
        let what = format!("the bake of tier {tier} is not implemented yet (only h0 is)");
        return Err(at(TableError::new(Kind::InvalidInput { what })));
    }
    let mut found = None;
    if !options.force
        && is_sound(&path, &spec, |histogram| {
            found = Some(*histogram);
            histogram[..4] == H0_CODES
        })
        && let Some(histogram) = found
    {
        return Ok(BakeReport {
            path,
            skipped: true,
            levels: Vec::new(),
            histogram,
            search_time: Duration::ZERO,
            write_time: Duration::ZERO,
        });
    }
    let search_start = Instant::now();
    let graph = Graph::new();
    let (dist, levels) = graph.search(progress);
    let search_time = search_start.elapsed();

    let mut depths = [0u64; HISTOGRAM_LEN];
    for level in &levels {
        depths[usize::from(level.depth)] = level.entries;
    }
    depths[0] = 1;
    let mismatch = |depth: usize, found: u64, expected: u64, against| {
        at(TableError::new(Kind::HistogramMismatch {
            depth,
            found,
            expected,
            against,
        }))
    };
    for (depth, &expected) in H0_DEPTHS.iter().enumerate() {
        if depths[depth] != expected {
            return Err(mismatch(
                depth,
                depths[depth],
                expected,
                "the published depths",
            ));
        }
    }
    let reached: u64 = depths.iter().sum();
    let n_entries = (graph.n_classes * ESEP_COUNT) as u64;
    if reached != n_entries {
        let what = format!("the search reached {reached} of {n_entries} entries");
        return Err(at(TableError::new(Kind::InvalidInput { what })));
    }

    let write_start = Instant::now();
    let Encoding::Line2 { base } = spec.encoding else {
        unreachable!("H48 tables are 2-bit lines")
    };
    let payload = pack(&dist, base);
    drop(dist);
    let histogram = crate::verify::histogram(&payload, spec.encoding, spec.n_entries);
    if base == 8 {
        for (code, &expected) in H0_CODES.iter().enumerate() {
            if histogram[code] != expected {
                return Err(mismatch(
                    code,
                    histogram[code],
                    expected,
                    "nissy-core's codes",
                ));
            }
        }
    }
    let write_options = WriteOptions::new().wait_for_lock(options.wait_for_lock);
    let path = write_table(dir, &H0, &histogram, &payload, &write_options)?;
    // The payload was hashed from the very bytes whose histogram was checked above; a stamp that
    // cannot be written only costs a later status report its "checked" date.
    let _ = crate::stamp::write_stamp(&path);
    Ok(BakeReport {
        path,
        skipped: false,
        levels,
        histogram,
        search_time,
        write_time: write_start.elapsed(),
    })
}

/// Bakes the tables of several H48 `tiers` into `dir` (each skipped when a valid one is there),
/// sharing the work they have in common; one report per tier, in the order given.
///
/// # Errors
///
/// The errors of [`bake`], for the first tier that fails.
pub fn bake_tiers(
    dir: &Path,
    tiers: &[Tier],
    options: &BakeOptions,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<Vec<BakeReport>, TableError> {
    tiers
        .iter()
        .map(|&tier| bake(dir, tier, options, progress))
        .collect()
}

/// Packs the distances (one byte per `(class, esep)` entry) into 2-bit lines: code
/// `min(d - base, 3)` above the base, 0 at or below it; the exact minimum of each line's entries
/// in its first nibble; the unused last slot of each block is code 3.
fn pack(dist: &[AtomicU8], base: u8) -> Vec<u8> {
    let mut payload = vec![0u8; dist.len() / N_PLACEMENTS * BLOCK_BYTES];
    payload
        .par_chunks_mut(BLOCK_BYTES)
        .zip(dist.par_chunks(N_PLACEMENTS))
        .for_each(|(block, values)| {
            for (line_idx, line) in block.chunks_exact_mut(LINE_BYTES).enumerate() {
                let mut min = 15u8;
                for field in 2..64 {
                    let slot_idx = line_idx * 64 + field;
                    let code = match placement_of_slot(slot_idx) {
                        Some(r) => {
                            let d = values[r].load(Ordering::Relaxed);
                            min = min.min(d);
                            if d <= base { 0 } else { (d - base).min(3) }
                        }
                        None => 3,
                    };
                    line[field / 4] |= code << (2 * (field % 4));
                }
                line[0] |= min;
            }
        });
    payload
}

/// The placement stored at a block's slot, `None` for the line minima and the last slot.
fn placement_of_slot(slot_idx: usize) -> Option<usize> {
    let (line, field) = (slot_idx / 64, slot_idx % 64);
    let r = line * 62 + field.checked_sub(2)?;
    (r < N_PLACEMENTS).then_some(r)
}

/// The move graph of the h0 entries.
struct Graph {
    n_classes: usize,
    /// `arcs[c * 18 + m]`: the class after move `m` from class `c`'s representative and the
    /// index of the symmetry that conjugates it back to its representative.
    arcs: Vec<(u32, u8)>,
    /// `moves[m * ESEP_COUNT + e]`: the esep after move `m`.
    moves: Vec<u16>,
    /// `conj[k * ESEP_COUNT + e]`: the esep after conjugating by symmetry `k`.
    conj: Vec<u16>,
    /// Each class's stabilizer.
    stabilizers: Vec<u64>,
}

/// An edge lane with the given `esep`: E pieces 8..11 at the placement's Q positions, M pieces
/// 1, 3, 5, 7 at the sep70 positions among the others, S pieces 0, 2, 4, 6 elsewhere, no flips.
fn esep_lane(esep: usize) -> [u8; 16] {
    let (sep70, placement) = (esep / N_PLACEMENTS, esep % N_PLACEMENTS);
    let e_mask = super::edges::E_MASKS[placement];
    let m_mask = super::cocsep::SEP_MASKS[sep70];
    let mut lane: [u8; 16] = std::array::from_fn(|i| i as u8);
    let (mut e, mut m, mut s, mut outside) = (8u8, 1u8, 0u8, 0);
    for (j, &position) in Q.iter().enumerate() {
        let piece = if e_mask >> j & 1 == 1 {
            e += 1;
            e - 1
        } else {
            outside += 1;
            if m_mask >> (outside - 1) & 1 == 1 {
                m += 2;
                m - 2
            } else {
                s += 2;
                s - 2
            }
        };
        lane[usize::from(position)] = piece;
    }
    lane
}

fn esep_of(lane: &[u8; 16]) -> u16 {
    edge_parts_plain(lane).esep() as u16
}

impl Graph {
    fn new() -> Graph {
        let cocsep = Cocsep::get();
        let syms = EdgeSyms::get();
        let n_classes = cocsep.n_classes();
        let arcs = (0..n_classes as u32)
            .flat_map(|c| {
                Move::ALL.map(|m| {
                    let entry = cocsep.entry(cocsep.apply(cocsep.rep(c), m));
                    (entry.class(), entry.ttrep_index() as u8)
                })
            })
            .collect();
        let lanes: Vec<[u8; 16]> = (0..ESEP_COUNT).into_par_iter().map(esep_lane).collect();
        let moves = Move::ALL
            .iter()
            .flat_map(|&m| {
                let edges = Cube::from_move(m).packed_edges();
                lanes.iter().map(move |lane| {
                    let moved: [u8; 16] =
                        std::array::from_fn(|i| lane[usize::from(edges[i] & 0x0F)]);
                    esep_of(&moved)
                })
            })
            .collect();
        let conj = (0..48)
            .into_par_iter()
            .flat_map_iter(|k| {
                lanes
                    .iter()
                    .map(move |lane| esep_of(&syms.conjugate(k, lane)))
            })
            .collect();
        Graph {
            n_classes,
            arcs,
            moves,
            conj,
            stabilizers: (0..n_classes as u32)
                .map(|c| cocsep.stabilizer(c))
                .collect(),
        }
    }

    /// The neighbour of entry `(c, e)` by the move of column `m`, as a flat index.
    #[inline]
    fn step(&self, c: usize, e: usize, m: usize) -> (usize, usize) {
        let (c2, k) = self.arcs[c * 18 + m];
        let moved = self.moves[m * ESEP_COUNT + e] as usize;
        let e2 = self.conj[k as usize * ESEP_COUNT + moved] as usize;
        (c2 as usize, e2)
    }

    /// Marks `(c, e)` and its images under `c`'s stabilizer with `depth`.
    #[inline]
    fn mark(&self, dist: &[AtomicU8], c: usize, e: usize, depth: u8) {
        let row = &dist[c * ESEP_COUNT..(c + 1) * ESEP_COUNT];
        row[e].store(depth, Ordering::Relaxed);
        let mut stabilizer = self.stabilizers[c] & !1;
        while stabilizer != 0 {
            let k = stabilizer.trailing_zeros() as usize;
            stabilizer &= stabilizer - 1;
            let image = self.conj[k * ESEP_COUNT + e] as usize;
            if row[image].load(Ordering::Relaxed) == UNSEEN {
                row[image].store(depth, Ordering::Relaxed);
            }
        }
    }

    /// The breadth-first search: one byte per entry, `UNSEEN` for none.
    fn search(&self, progress: &(dyn Fn(&LevelStats) + Sync)) -> (Vec<AtomicU8>, Vec<LevelStats>) {
        let n = self.n_classes * ESEP_COUNT;
        let dist: Vec<AtomicU8> = (0..n)
            .into_par_iter()
            .map(|_| AtomicU8::new(UNSEEN))
            .collect();
        let solved = esep_of(&Cube::SOLVED.packed_edges()) as usize;
        self.mark(&dist, 0, solved, 0);
        let mut levels = Vec::new();
        let mut frontier = count(&dist, 0);
        let mut unassigned = n as u64 - frontier;
        let mut depth = 0u8;
        while unassigned > 0 && frontier > 0 {
            let start = Instant::now();
            let direction = if frontier * 3 > unassigned {
                Direction::Backward
            } else {
                Direction::Forward
            };
            match direction {
                Direction::Forward => self.forward(&dist, depth),
                Direction::Backward => self.backward(&dist, depth),
            }
            depth += 1;
            frontier = count(&dist, depth);
            unassigned -= frontier;
            let stats = LevelStats {
                depth,
                direction,
                entries: frontier,
                unassigned,
                elapsed: start.elapsed(),
            };
            progress(&stats);
            levels.push(stats);
        }
        (dist, levels)
    }

    fn forward(&self, dist: &[AtomicU8], depth: u8) {
        (0..self.n_classes).into_par_iter().for_each(|c| {
            let row = &dist[c * ESEP_COUNT..(c + 1) * ESEP_COUNT];
            for (e, value) in row.iter().enumerate() {
                if value.load(Ordering::Relaxed) != depth {
                    continue;
                }
                for m in 0..18 {
                    let (c2, e2) = self.step(c, e, m);
                    if dist[c2 * ESEP_COUNT + e2].load(Ordering::Relaxed) == UNSEEN {
                        self.mark(dist, c2, e2, depth + 1);
                    }
                }
            }
        });
    }

    fn backward(&self, dist: &[AtomicU8], depth: u8) {
        (0..self.n_classes).into_par_iter().for_each(|c| {
            let row = &dist[c * ESEP_COUNT..(c + 1) * ESEP_COUNT];
            for (e, value) in row.iter().enumerate() {
                if value.load(Ordering::Relaxed) != UNSEEN {
                    continue;
                }
                let found = (0..18).any(|m| {
                    let (c2, e2) = self.step(c, e, m);
                    dist[c2 * ESEP_COUNT + e2].load(Ordering::Relaxed) == depth
                });
                if found {
                    value.store(depth + 1, Ordering::Relaxed);
                }
            }
        });
    }
}

/// The marker of an entry not reached yet.
const UNSEEN: u8 = u8::MAX;

fn count(dist: &[AtomicU8], depth: u8) -> u64 {
    dist.par_chunks(1 << 16)
        .map(|chunk| {
            chunk
                .iter()
                .filter(|v| v.load(Ordering::Relaxed) == depth)
                .count() as u64
        })
        .sum()
}
