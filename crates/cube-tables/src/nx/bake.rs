//! Baking an nx table: an exact breadth-first search over the cosets of the tier's subgroup, one
//! byte per coset (corner class x edge coordinate), in parallel, then packed into nxopt's lines.
//!
//! Level `d` runs forward (every coset at `d`, every move: its unassigned neighbours get `d + 1`)
//! or, once fewer cosets are unassigned than a third of the frontier's moves, backward (every
//! unassigned coset with a neighbour at `d` gets `d + 1`). A neighbour is found through a move
//! table of the corner coordinate and a map of the edge coordinate, then reduced: the symmetry that
//! carries its corners to their class representative also conjugates its edges. A level goes row by
//! row (one row per corner class) and move by move: for a source class and a move, the target class
//! and the reducing symmetry are fixed, so the inner loop runs over the row's entries with one map
//! of the edges, the move then the symmetry (two full table rows, or for nx-eo3ep1, whose
//! coordinate splits, small tables that stay in the first-level cache: `edge_maps`). A class whose
//! representative some symmetries fix has several entries per coset; the forward pass writes them
//! all, the backward pass finds each. Per-row counts skip the rows with nothing to give or to take.
//!
//! A sparse forward level goes source row by source row: it lists a row's entries at the depth and
//! writes their neighbours into the target rows, where workers race on the bytes only in a benign
//! way (relaxed atomics: during a level the only change is from "unassigned" to `d + 1`), then
//! counts the rows it wrote into again. A dense level first sets a bit per cell at the depth (a row
//! of bits is an eighth of a row of cells: 124 KB for nx-eo3ep1, in a second-level cache) and
//! reads the frontier there; a dense forward level goes target row by target row, reading the bits
//! of every source row and move that lead into it and setting its finds in a row of bits, merged
//! at the end. A backward level keeps a row's entries not yet found as bits too, tests them move
//! by move (the target rows with the most entries at the depth first) and writes its finds at the
//! end. Either way a dense level's row is written by one worker only, which counts it.
//!
//! The checks before anything is written: every coset reached, the solved coset alone at depth
//! 0, and the histogram of the packed lines summing to the table's entries and lines.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, Ordering::Relaxed};
use std::time::Instant;

use cube_core::{Cube, Move};
use rayon::prelude::*;

use super::coord::{N_CORNER_CLASSES, N_SLICE, NxSym, Subgroup, corner_coord, corner_moves};
use super::edge_maps::{BlockMap, EdgeMap, EdgeMaps, FullMaps, SplitMaps};
use super::table::{spec_or_error, subgroup};
use crate::file::bake::{BakeReport, Direction, LevelStats, check_free_space, is_sound};
use crate::file::error::{Kind, TableError};
use crate::file::format::{HEADER_LEN, Histogram};
use crate::file::id::{Encoding, Metric, Tier};
use crate::file::lines::{BLOCK_BYTES, LINE_BYTES};
use crate::file::lock::BakeLock;
use crate::file::store::write_table_under;

/// The value of a coset no level has reached yet.
const UNASSIGNED: u8 = 0xFF;

/// Options of [`bake`].
#[derive(Clone, Debug, Default)]
pub struct BakeOptions {
    /// Bake even when a valid table is present.
    pub force: bool,
    /// Wait for another bake or clean of the directory rather than fail with `Locked`.
    pub wait_for_lock: bool,
}

/// Bakes the table of the nx `tier` into `dir`, unless a sound one is there, reporting each level
/// of the search to `progress`.
///
/// # Errors
///
/// - `InvalidInput` for a tier of another family.
/// - `NoSpace` when `dir` has less free space than the table needs.
/// - `InvalidInput` when the bake needs more memory than the system has available (RAM and
///   swap: a byte per coset, then the packed table), checked before it allocates.
/// - `Locked` when another bake or clean of `dir` holds its lock (unless `wait_for_lock`);
///   `Io`: the errors of writing the table.
pub fn bake(
    dir: &Path,
    tier: Tier,
    options: &BakeOptions,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<BakeReport, TableError> {
    let spec = spec_or_error(tier)?;
    let lock = BakeLock::acquire(dir, options.wait_for_lock)
        .map_err(|e| e.at(spec.id, dir, &spec.fix, spec.tier))?;
    bake_under(&lock, tier, options.force, progress)
}

/// [`bake`] under `lock`, the writers' lock of the table directory, which the caller holds.
///
/// # Errors
///
/// As [`bake`], `Locked` aside.
pub(crate) fn bake_under(
    lock: &BakeLock,
    tier: Tier,
    force: bool,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<BakeReport, TableError> {
    let spec = spec_or_error(tier)?;
    let dir = lock.dir();
    let path = spec.path_in(dir);
    let at = |e: TableError| e.at(spec.id, &path, &spec.fix, spec.tier);
    if !force {
        let mut found = None;
        if is_sound(&path, &spec, |histogram| {
            found = Some(*histogram);
            true
        }) && let Some(histogram) = found
        {
            return Ok(BakeReport::skipped(path, histogram));
        }
    }
    check_free_space(dir, HEADER_LEN as u64 + spec.payload_len()).map_err(at)?;
    let subgroup = subgroup(tier).expect("an nx tier");
    // The cells (a byte per coset), then the packed table beside them.
    let needed = (N_CORNER_CLASSES * subgroup.n_edges()) as u64 + spec.payload_len();
    check_memory(tier, needed, available_memory()).map_err(at)?;
    let Encoding::Line2 { base } = spec.encoding else {
        unreachable!("an nx table has 2-bit lines")
    };
    let start = Instant::now();
    let (cells, levels) = search(subgroup, tier.metric(), DENSE, progress)
        .map_err(|depth| at(unreached(tier, depth)))?;
    let search_time = start.elapsed();
    let write_start = Instant::now();
    let payload = pack(&cells, base);
    drop(cells);
    let histogram = crate::histogram(&payload, spec.encoding, spec.n_entries);
    check_histogram(&histogram, spec.n_entries).map_err(at)?;
    let path = write_table_under(lock, &spec, &histogram, &payload)?;
    // The payload was hashed from the very bytes whose histogram was checked above; a stamp that
    // cannot be written only costs a later status report its "checked" date.
    let _ = crate::file::stamp::write_stamp(&path);
    Ok(BakeReport {
        path,
        skipped: false,
        levels,
        histogram,
        search_time,
        write_time: write_start.elapsed(),
        notes: Vec::new(),
    })
}

/// Refuses a bake that needs more memory than the system has `available` (RAM and swap; `None`:
/// not known), before it allocates: without the check, the allocation of the cells would abort
/// the process (nx-eo2ep2's 30 G cosets on a machine of 24 GiB).
fn check_memory(tier: Tier, needed: u64, available: Option<u64>) -> Result<(), TableError> {
    match available {
        Some(available) if available < needed => {
            let gib = |bytes: u64| bytes as f64 / f64::from(1u32 << 30);
            Err(TableError::new(Kind::InvalidInput {
                what: format!(
                    "the {tier} bake needs {:.1} GiB of memory (a byte per coset, then the packed \
                     table) and the system has {:.1} GiB available (RAM and swap): bake it on a \
                     machine with more memory, or use a smaller nx tier",
                    gib(needed),
                    gib(available)
                ),
            }))
        }
        _ => Ok(()),
    }
}

/// The memory the system can still give (`MemAvailable` plus `SwapFree` of `/proc/meminfo`), on
/// Linux.
fn available_memory() -> Option<u64> {
    meminfo_available(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

/// [`available_memory`] from the text of `/proc/meminfo` (`Key:   N kB` lines).
fn meminfo_available(meminfo: &str) -> Option<u64> {
    let field = |key: &str| {
        meminfo.lines().find_map(|line| {
            let rest = line.strip_prefix(key)?.strip_prefix(':')?;
            let kib: u64 = rest.trim().strip_suffix("kB")?.trim().parse().ok()?;
            Some(kib * 1024)
        })
    };
    Some(field("MemAvailable")? + field("SwapFree").unwrap_or(0))
}

/// The error of a search whose frontier ran out before every coset was reached (a bug).
fn unreached(tier: Tier, depth: u8) -> TableError {
    TableError::new(Kind::InvalidInput {
        what: format!("the {tier} search left cosets unreached after depth {depth}"),
    })
}

/// The full check of an nx table: its payload hash and histogram ([`crate::verify`]), and the
/// histogram's sums of entries and lines.
///
/// # Errors
/// `PayloadHash`, `HistogramMismatch`, or `InvalidInput` when the sums are not the table's.
pub fn verify_table<T: AsRef<[u8]>>(
    table: &crate::file::table::PruneTable<T>,
) -> Result<(), TableError> {
    crate::verify(table, None)?;
    check_histogram(table.histogram(), table.len() as u64).map_err(|e| table.error(e))
}

/// The histogram's sums: codes of every entry, one minimum per line.
fn check_histogram(histogram: &Histogram, n_slots: u64) -> Result<(), TableError> {
    let codes: u64 = histogram[..4].iter().sum();
    let lines: u64 = histogram[16..].iter().sum();
    if codes != n_slots / 512 * N_SLICE as u64 || lines != n_slots / 64 {
        return Err(TableError::new(Kind::InvalidInput {
            what: format!("the packed table counts {codes} entries and {lines} lines"),
        }));
    }
    Ok(())
}

/// The moves of a metric: the 18 face turns, or the 12 quarter turns.
pub(crate) fn metric_moves(metric: Metric) -> Vec<Move> {
    (0..Move::COUNT)
        .map(Move::from_index)
        .filter(|m| metric == Metric::Htm || !m.is_half_turn())
        .collect()
}

/// What a level's pass needs: the moves of the corner classes and the maps of the edge coordinate.
struct Space<'a, E> {
    sym: &'a NxSym,
    /// `corner[class * n_moves + m]`: the class that move `m` takes the representative of `class`
    /// to, and the symmetry that reduces it there.
    corner: Vec<(u32, usize)>,
    /// The edge coordinate after a move and a symmetry.
    edges: E,
    n_edges: usize,
    n_moves: usize,
}

impl<E> Space<'_, E> {
    /// The row of `class`: one entry per edge coordinate.
    #[inline]
    fn row<'c>(&self, cells: &'c [AtomicU8], class: u32) -> &'c [AtomicU8] {
        let start = class as usize * self.n_edges;
        &cells[start..start + self.n_edges]
    }
}

/// Per row (corner class), the counts a level reads and keeps: a row with nothing at the depth
/// of the level is not a source, a row with nothing unassigned not a target.
struct RowCounts {
    /// Entries at the depth of the level (read only during it).
    at: Vec<u32>,
    /// Entries found by the level (at the next depth).
    found: Vec<AtomicU32>,
    /// Entries still unassigned.
    left: Vec<AtomicU32>,
    /// Rows a forward level wrote into (which it counts again).
    touched: Vec<AtomicBool>,
}

impl RowCounts {
    /// Records `n` entries of row `class` found by a level that writes only this row from one
    /// worker (a backward level, or a forward level by target row).
    #[inline]
    fn add_found(&self, class: u32, n: u32) {
        if n > 0 {
            self.found[class as usize].fetch_add(n, Relaxed);
            self.left[class as usize].fetch_sub(n, Relaxed);
        }
    }

    /// Counts, after a forward level (whose writes to a row come from any worker), the entries of
    /// each row it wrote into at `depth` and those unassigned. Between levels nothing else holds
    /// the cells: they are read as plain bytes (`get_mut`), a count that vectorises, where atomic
    /// loads go one byte at a time.
    fn recount(&mut self, n_edges: usize, cells: &mut [AtomicU8], depth: u8) {
        self.found
            .par_iter_mut()
            .zip(&mut self.left)
            .zip(&mut self.touched)
            .zip(cells.par_chunks_mut(n_edges))
            .for_each(|(((found, left), touched), row)| {
                if !std::mem::take(touched.get_mut()) {
                    return;
                }
                let (mut at, mut unassigned) = (0, 0);
                for cell in row {
                    let value = *cell.get_mut();
                    at += u32::from(value == depth);
                    unassigned += u32::from(value == UNASSIGNED);
                }
                (*found.get_mut(), *left.get_mut()) = (at, unassigned);
            });
    }

    /// Ends a level: what it found is the next level's frontier. The totals: the frontier and
    /// the entries still unassigned.
    fn next_level(&mut self) -> (u64, u64) {
        for (at, found) in self.at.iter_mut().zip(&mut self.found) {
            *at = std::mem::take(found.get_mut());
        }
        let frontier = self.at.iter().map(|&n| u64::from(n)).sum();
        let left = self.left.iter_mut().map(|n| u64::from(*n.get_mut())).sum();
        (frontier, left)
    }
}

/// The search: the distance of every coset, one byte per `(class, edge)` entry, and the levels;
/// `Err(depth)` when the frontier of `depth` is empty while cosets are unassigned.
///
/// A level goes row by row (class by class, in parallel) and, within a row, move by move: for one
/// source class and one move the target class and the symmetry that reduces it are fixed, and only
/// the edge coordinate varies over the row's entries. A level reads its frontier from a bit per
/// cell when its tests times `dense` exceed the cells ([`DENSE`]; 0: never, `u64::MAX`: always).
fn search(
    subgroup: Subgroup,
    metric: Metric,
    dense: u64,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<(Vec<u8>, Vec<LevelStats>), u8> {
    let sym = NxSym::new();
    let moves = metric_moves(metric);
    match SplitMaps::new(subgroup, &moves, &sym) {
        Some(split) => search_with(subgroup, &sym, &moves, split, dense, progress),
        None => {
            let full = FullMaps::new(subgroup, &moves, &sym);
            search_with(subgroup, &sym, &moves, full, dense, progress)
        }
    }
}

/// A level reads its frontier from a bit per cell when it has more tests than an eighth of the
/// cells: enough to pay for the pass that sets the bits (nx-eo3ep1: 3.3 s for the 10 G cells when
/// they were set a byte at a time, against the 2,655 entries of its last level).
const DENSE: u64 = 8;

/// [`search`] over the edge maps `edges` of `subgroup` and `moves`.
fn search_with<E: EdgeMaps>(
    subgroup: Subgroup,
    sym: &NxSym,
    moves: &[Move],
    edges: E,
    dense: u64,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<(Vec<u8>, Vec<LevelStats>), u8> {
    let n_moves = moves.len();
    let n_edges = subgroup.n_edges();
    let corner_moves = corner_moves(moves);
    let corner: Vec<(u32, usize)> = (0..N_CORNER_CLASSES as u32)
        .flat_map(|class| {
            let raw = &corner_moves[sym.rep(class) as usize * n_moves..][..n_moves];
            raw.iter().map(|&raw| sym.class_and_sym(raw))
        })
        .collect();
    // Per class, the (class, move) pairs whose move takes the class's representative into it.
    let mut incoming = vec![Vec::new(); N_CORNER_CLASSES];
    for (at, &(to_class, _)) in corner.iter().enumerate() {
        incoming[to_class as usize].push(((at / n_moves) as u32, at % n_moves));
    }
    let space = Space {
        sym,
        corner,
        edges,
        n_edges,
        n_moves,
    };
    let mut cells: Vec<AtomicU8> = (0..N_CORNER_CLASSES * n_edges)
        .into_par_iter()
        .map(|_| AtomicU8::new(UNASSIGNED))
        .collect();
    let mut counts = RowCounts {
        at: vec![0; N_CORNER_CLASSES],
        found: (0..N_CORNER_CLASSES).map(|_| AtomicU32::new(0)).collect(),
        left: (0..N_CORNER_CLASSES)
            .map(|_| AtomicU32::new(n_edges as u32))
            .collect(),
        touched: (0..N_CORNER_CLASSES)
            .map(|_| AtomicBool::new(false))
            .collect(),
    };
    let solved = &Cube::SOLVED;
    let (class, _) = sym.class_and_sym(corner_coord(&solved.corner_perm(), &solved.corner_ori()));
    let edge = subgroup.edge_coord(&solved.edge_perm(), &solved.edge_ori());
    set_all(
        &space,
        space.row(&cells, class),
        sym.stabilizer(class),
        edge,
        0,
    );
    counts.touched[class as usize].store(true, Relaxed);
    counts.recount(n_edges, &mut cells, 0);
    let mut levels = Vec::new();
    let (mut frontier, mut unassigned) = counts.next_level();
    let mut depth = 0u8;
    // The bits of the backward levels' frontier, allocated at the first.
    let mut marks = Vec::new();
    while unassigned > 0 {
        if frontier == 0 {
            return Err(depth);
        }
        let started = Instant::now();
        // A forward pass tries every move from each frontier entry; a backward pass stops at the
        // first neighbour found, after a few moves on the dense levels: backward once fewer than
        // a third of the moves per frontier entry are left unassigned (nx-eo2ep1's depth 10 then
        // runs backward: 62 s of CPU for the bake, 66 s with an earlier build that ran it forward;
        // not measured side by side, the machine was loaded).
        let direction = if unassigned * 3 < frontier * space.n_moves as u64 {
            Direction::Backward
        } else {
            Direction::Forward
        };
        // A dense level reads its frontier from a bit per cell: a backward level tests its
        // unassigned entries' neighbours in them, a forward level goes target row by target row
        // and sets its finds in a row of bits.
        let tests = match direction {
            Direction::Forward => frontier,
            Direction::Backward => unassigned,
        } * space.n_moves as u64;
        let with_marks = tests.saturating_mul(dense) > cells.len() as u64;
        let lists = if with_marks {
            mark(&mut cells, depth, &mut marks);
            Vec::new()
        } else if direction == Direction::Forward {
            frontier_lists(&mut cells, n_edges, &counts.at, depth)
        } else {
            Vec::new()
        };
        let marks = &marks;
        (0..N_CORNER_CLASSES as u32).into_par_iter().for_each_init(
            Scratch::default,
            |scratch, class| match direction {
                Direction::Forward if with_marks => {
                    let sources = &incoming[class as usize];
                    forward_into(
                        &space, &cells, marks, &counts, sources, class, depth, scratch,
                    );
                }
                Direction::Forward => {
                    let list = &lists[class as usize];
                    forward(&space, &cells, &counts, class, depth, list);
                }
                Direction::Backward if with_marks => {
                    let at_depth = |at: usize| marked(marks, at);
                    backward(&space, &cells, at_depth, &counts, class, depth, scratch);
                }
                Direction::Backward => {
                    let at_depth = |at: usize| cells[at].load(Relaxed) == depth;
                    backward(&space, &cells, at_depth, &counts, class, depth, scratch);
                }
            },
        );
        depth += 1;
        if direction == Direction::Forward && !with_marks {
            counts.recount(n_edges, &mut cells, depth);
        }
        (frontier, unassigned) = counts.next_level();
        let stats = LevelStats {
            depth,
            direction,
            entries: frontier,
            unassigned,
            elapsed: started.elapsed(),
        };
        progress(&stats);
        levels.push(stats);
    }
    Ok((
        cells.into_iter().map(AtomicU8::into_inner).collect(),
        levels,
    ))
}

/// Writes `depth` into the entry `edge` of `row`, a row of a class whose representative the
/// symmetries of `stabilizer` fix, and into its twins under them, where unassigned. Plain loads
/// and stores: two workers that write the same entry write the same value, and a locked
/// read-modify-write would cost more than counting the rows again after the level.
#[inline]
fn set_all<E: EdgeMaps>(
    space: &Space<'_, E>,
    row: &[AtomicU8],
    stabilizer: u16,
    edge: u32,
    depth: u8,
) {
    for_each_twin(space, stabilizer, edge, |twin| {
        let cell = &row[twin as usize];
        if cell.load(Relaxed) == UNASSIGNED {
            cell.store(depth, Relaxed);
        }
    });
}

/// Calls `f` with entry `edge` of a class whose representative the symmetries of `stabilizer` fix
/// and with each of its twins under them (the identity's image first).
#[inline]
fn for_each_twin<E: EdgeMaps>(
    space: &Space<'_, E>,
    stabilizer: u16,
    edge: u32,
    mut f: impl FnMut(u32),
) {
    let mut stabilizer = stabilizer | 1;
    while stabilizer != 0 {
        let k = stabilizer.trailing_zeros() as usize;
        stabilizer &= stabilizer - 1;
        f(space.edges.conj(k).apply(edge));
    }
}

/// The entries at `depth` of each row with some (the others' lists are empty), found between
/// levels in the cells' plain bytes (a search for one byte value that runs a vector's width at a
/// time, where atomic loads go one byte at a time).
fn frontier_lists(cells: &mut [AtomicU8], n_edges: usize, at: &[u32], depth: u8) -> Vec<Vec<u32>> {
    plain(cells)
        .par_chunks(n_edges)
        .zip(at)
        .map(|(row, &at)| match at {
            0 => Vec::new(),
            _ => memchr::memchr_iter(depth, row)
                .map(|edge| edge as u32)
                .collect(),
        })
        .collect()
}

/// Forward from the entries `list` at `depth` of the row of `class`: their unassigned neighbours
/// get `depth + 1`.
fn forward<E: EdgeMaps>(
    space: &Space<'_, E>,
    cells: &[AtomicU8],
    counts: &RowCounts,
    class: u32,
    depth: u8,
    list: &[u32],
) {
    if list.is_empty() {
        return;
    }
    let corner = &space.corner[class as usize * space.n_moves..][..space.n_moves];
    for (m, &(to_class, k)) in corner.iter().enumerate() {
        if counts.left[to_class as usize].load(Relaxed) == 0 {
            continue;
        }
        let after = space.edges.after(m, k);
        let to_row = space.row(cells, to_class);
        let stabilizer = space.sym.stabilizer(to_class);
        counts.touched[to_class as usize].store(true, Relaxed);
        for &edge in list.iter() {
            let to_edge = after.apply(edge);
            if stabilizer == 1 {
                // Without a branch: every value is at most `depth + 1` but the unassigned one,
                // which is the only one that changes during the level, and only to `depth + 1`,
                // so storing back the minimum races with no other write.
                let cell = &to_row[to_edge as usize];
                cell.store(cell.load(Relaxed).min(depth + 1), Relaxed);
            } else if to_row[to_edge as usize].load(Relaxed) == UNASSIGNED {
                set_all(space, to_row, stabilizer, to_edge, depth + 1);
            }
        }
    }
}

/// Sets in `marks` the bit of each cell at `depth` and clears the others: a dense level's
/// frontier, which does not change during the level (its changes are from "unassigned" to
/// `depth + 1`). A row of bits is an eighth of a row of cells: nx-eo3ep1's 124 KB rows stay in a
/// second-level cache where its 1 MB rows of cells did not. Its 1.26 GB is less than the packed
/// table's (the peak that `check_memory` counts), and is freed before that is allocated.
fn mark(cells: &mut [AtomicU8], depth: u8, marks: &mut Vec<u64>) {
    marks.resize(cells.len().div_ceil(64), 0);
    marks
        .par_iter_mut()
        .zip(plain(cells).par_chunks(64))
        .for_each(|(bits, chunk)| *bits = word(chunk, depth));
}

/// Whether the bit of cell `at` is set.
#[inline]
fn marked(marks: &[u64], at: usize) -> bool {
    marks[at / 64] >> (at % 64) & 1 == 1
}

/// Forward into the row of `class` from the frontier bits of its `sources` (the classes and moves
/// that lead into it): the finds go to a row of bits (124 KB for nx-eo3ep1, in a second-level
/// cache, where the 1 MB row of cells is not), merged into the row at the end, which counts it.
/// Only this call writes the row, so the counts are exact without a recount.
#[allow(clippy::too_many_arguments)]
fn forward_into<E: EdgeMaps>(
    space: &Space<'_, E>,
    cells: &[AtomicU8],
    marks: &[u64],
    counts: &RowCounts,
    sources: &[(u32, usize)],
    class: u32,
    depth: u8,
    scratch: &mut Scratch,
) {
    if counts.left[class as usize].load(Relaxed) == 0 {
        return;
    }
    let bits = &mut scratch.bits;
    bits.clear();
    bits.resize(space.n_edges.div_ceil(64), 0);
    let stabilizer = space.sym.stabilizer(class);
    let mut set = |edge: u32| bits[edge as usize / 64] |= 1 << (edge % 64);
    for &(from, m) in sources {
        if counts.at[from as usize] == 0 {
            continue;
        }
        let (_, k) = space.corner[from as usize * space.n_moves + m];
        let after = space.edges.after(m, k);
        let start = from as usize * space.n_edges;
        // The entries come in order: the map reads a block's part once, when the first entry of
        // the block comes (no division per entry).
        let (mut block_start, mut image) = (0, after.block(0));
        for_each_marked(marks, start, space.n_edges, |edge| {
            if edge >= block_start + N_SLICE as u32 {
                let block = edge / N_SLICE as u32;
                (block_start, image) = (block * N_SLICE as u32, after.block(block));
            }
            let to_edge = after.apply_in(image, edge - block_start);
            if stabilizer == 1 {
                set(to_edge);
            } else {
                for_each_twin(space, stabilizer, to_edge, &mut set);
            }
        });
    }
    // Before the level no entry of the row was at `depth + 1`: the finds are the entries of
    // set bits still unassigned.
    let row = space.row(cells, class);
    let mut found = 0;
    for_each_marked(bits, 0, space.n_edges, |edge| {
        let cell = &row[edge as usize];
        if cell.load(Relaxed) == UNASSIGNED {
            cell.store(depth + 1, Relaxed);
            found += 1;
        }
    });
    counts.add_found(class, found);
}

/// Calls `f` with the offset from `start` of each set bit of `marks` in `start..start + len`.
#[inline]
fn for_each_marked(marks: &[u64], start: usize, len: usize, mut f: impl FnMut(u32)) {
    let end = start + len;
    let first_word = start / 64;
    for (w, &word) in marks[first_word..end.div_ceil(64)].iter().enumerate() {
        let first = (first_word + w) * 64;
        let mut word = word;
        if first < start {
            word &= u64::MAX << (start - first);
        }
        if end - first < 64 {
            word &= (1 << (end - first)) - 1;
        }
        while word != 0 {
            f((first + word.trailing_zeros() as usize - start) as u32);
            word &= word - 1;
        }
    }
}

/// Backward into the row of `class`: its unassigned entries with a neighbour at `depth` (the
/// cells, by index, for which `at_depth` holds) get `depth + 1`. The entries not yet found are
/// bits, 8 words for each block of 495 entries (128 KB for nx-eo3ep1, in a second-level cache
/// beside the target row's frontier bits), cleared move by move as they are found; the moves go
/// from the target row with the most entries at `depth` down, so that most entries are found
/// early. The finds are written to the row at the end.
fn backward<E: EdgeMaps>(
    space: &Space<'_, E>,
    cells: &[AtomicU8],
    at_depth: impl Fn(usize) -> bool,
    counts: &RowCounts,
    class: u32,
    depth: u8,
    scratch: &mut Scratch,
) {
    if counts.left[class as usize].load(Relaxed) == 0 {
        return;
    }
    let Scratch { bits, before } = scratch;
    let row = space.row(cells, class);
    bits.clear();
    for block in row.chunks(N_SLICE) {
        bits.extend(block.chunks(64).map(|chunk| {
            let mut bytes = [!UNASSIGNED; 64];
            for (byte, cell) in bytes.iter_mut().zip(chunk) {
                *byte = cell.load(Relaxed);
            }
            word(&bytes, UNASSIGNED)
        }));
    }
    before.clone_from(bits);
    let mut moves: Vec<(u32, usize, usize)> = space.corner[class as usize * space.n_moves..]
        [..space.n_moves]
        .iter()
        .enumerate()
        .map(|(m, &(to_class, k))| (counts.at[to_class as usize], m, k))
        .filter(|&(at, _, _)| at > 0)
        .collect();
    moves.sort_unstable_by_key(|&(at, _, _)| std::cmp::Reverse(at));
    for (_, m, k) in moves {
        let after = space.edges.after(m, k);
        let to_row = space.corner[class as usize * space.n_moves + m].0 as usize * space.n_edges;
        let mut left = 0;
        for (block, words) in bits.chunks_exact_mut(BLOCK_WORDS).enumerate() {
            let image = after.block(block as u32);
            for (w, bits) in words.iter_mut().enumerate() {
                // Without branches on the tests (whether a neighbour is at `depth` is a coin toss
                // on the dense levels): a found entry's bit is cleared.
                let (mut rest, mut kept) = (*bits, *bits);
                while rest != 0 {
                    let b = rest.trailing_zeros();
                    rest &= rest - 1;
                    let to_edge = after.apply_in(image, w as u32 * 64 + b);
                    kept &= !(u64::from(at_depth(to_row + to_edge as usize)) << b);
                }
                *bits = kept;
                left |= kept;
            }
        }
        if left == 0 {
            break;
        }
    }
    let mut found = 0;
    for (i, (&before, &after)) in before.iter().zip(bits.iter()).enumerate() {
        let mut new = before & !after;
        found += new.count_ones();
        let start = i / BLOCK_WORDS * N_SLICE + i % BLOCK_WORDS * 64;
        while new != 0 {
            row[start + new.trailing_zeros() as usize].store(depth + 1, Relaxed);
            new &= new - 1;
        }
    }
    counts.add_found(class, found);
}

/// The words of bits of a block of 495 entries.
const BLOCK_WORDS: usize = N_SLICE.div_ceil(64);

/// The bits of the bytes of `chunk` (at most 64) that equal `value`, eight bytes at a time.
#[inline]
fn word(chunk: &[u8], value: u8) -> u64 {
    chunk.chunks(8).enumerate().fold(0, |bits, (i, eight)| {
        let mut bytes = [!value; 8];
        bytes[..eight.len()].copy_from_slice(eight);
        bits | u64::from(equal_bytes(u64::from_le_bytes(bytes), value)) << (8 * i)
    })
}

/// A bit for each byte of `eight` (the first byte the lowest bit) that equals `value`.
#[inline]
fn equal_bytes(eight: u64, value: u8) -> u8 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = eight ^ (u64::from(value) * 0x0101_0101_0101_0101);
    // The top bit of each byte of `x` that is zero: `(b & 0x7F) + 0x7F` sets it in the others
    // without a carry into the next byte.
    let zero = !(((x & LOW7) + LOW7) | x | LOW7);
    // Gathers the eight top bits into the top byte (no two partial products meet).
    ((zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The cells as plain bytes, for a pass that holds them alone (between levels), so that it runs
/// a word or a vector at a time.
#[allow(unsafe_code)]
fn plain(cells: &mut [AtomicU8]) -> &mut [u8] {
    // SAFETY: `AtomicU8` has the size, alignment and bit validity of `u8` (as its documentation
    // states), and the exclusive borrow of `cells` for the lifetime of the result means that no
    // atomic access can happen while the plain bytes are in use: what the unstable
    // `AtomicU8::get_mut_slice` does.
    unsafe { std::slice::from_raw_parts_mut(cells.as_mut_ptr().cast::<u8>(), cells.len()) }
}

/// A worker's buffers, kept from row to row: the row of bits of a dense forward level's finds, or
/// of a backward level's entries not yet found (and those it started with).
#[derive(Default)]
struct Scratch {
    bits: Vec<u64>,
    before: Vec<u64>,
}

/// The 2-bit lines of `cells` (rows of 495 distances): per row a block of 8 lines, each of 62
/// entries but the last (61), with the minimum of its entries (at most 15) in its low nibble and a
/// code per entry after it (the slots of [`slot`](crate::file::lines::slot)): 0 up to `base`, else
/// `min(value - base, 3)`.
fn pack(cells: &[u8], base: u8) -> Vec<u8> {
    let mut payload = vec![0u8; cells.len() / N_SLICE * BLOCK_BYTES];
    payload
        .par_chunks_mut(BLOCK_BYTES)
        .zip(cells.par_chunks(N_SLICE))
        .for_each(|(block, row)| {
            for (line, entries) in block.chunks_exact_mut(LINE_BYTES).zip(row.chunks(62)) {
                // The slots of the line: two for the minimum, then the codes (the last line's
                // last slot unused); four to a byte, the first in the low bits.
                let mut codes = [0u8; 64];
                for (code, &value) in codes[2..].iter_mut().zip(entries) {
                    *code = value.saturating_sub(base).min(3);
                }
                for (byte, slots) in line.iter_mut().zip(codes.chunks_exact(4)) {
                    *byte = slots[0] | slots[1] << 2 | slots[2] << 4 | slots[3] << 6;
                }
                let minimum = entries.iter().copied().min().expect("a line has entries");
                line[0] |= minimum.min(15);
            }
        });
    payload
}

#[cfg(test)]
mod tests {
    use super::super::coord::{Eo, Ep};
    use super::*;
    use crate::file::lines::{line_histogram, slot};

    /// A bake that needs more memory than is available is refused with the figures and what to
    /// do; the available memory is read from `/proc/meminfo`'s lines.
    #[test]
    fn a_bake_beyond_the_memory_is_refused_before_it_allocates() {
        let gib = 1u64 << 30;
        let err = check_memory(Tier::NxEo2Ep2, 30 * gib, Some(23 * gib)).expect_err("refused");
        let text = err.to_string();
        assert!(
            text.contains("the nx-eo2ep2 bake needs 30.0 GiB of memory")
                && text.contains("23.0 GiB available")
                && text.contains("a machine with more memory"),
            "{text}"
        );
        assert!(check_memory(Tier::NxEo2Ep2, 30 * gib, Some(31 * gib)).is_ok());
        assert!(check_memory(Tier::NxEo2Ep2, 30 * gib, None).is_ok());
        let meminfo = "MemTotal:       24000000 kB\nMemFree:         1000 kB\nMemAvailable:   20000000 kB\nSwapTotal:  2000 kB\nSwapFree:        1000 kB\n";
        assert_eq!(meminfo_available(meminfo), Some(20_001_000 * 1024));
        assert_eq!(meminfo_available("MemTotal: 5 kB\n"), None);
    }

    /// The frontier's bits are the cells at the depth, over a last word that is not full, and a
    /// second level's bits replace the first's.
    #[test]
    fn the_marks_are_the_cells_at_the_depth() {
        let values: Vec<u8> = (0..200u32).map(|i| (i * 7 % 5) as u8).collect();
        let mut cells: Vec<AtomicU8> = values.iter().map(|&v| AtomicU8::new(v)).collect();
        let mut marks = Vec::new();
        for depth in [3, 1] {
            mark(&mut cells, depth, &mut marks);
            assert_eq!(marks.len(), 4);
            for (at, &value) in values.iter().enumerate() {
                assert_eq!(marked(&marks, at), value == depth, "cell {at} at {depth}");
            }
            assert_eq!(marks[3] >> 8, 0, "nothing beyond the cells");
        }
    }

    /// The levels that read the frontier's bits (forward by target row, backward over bits of
    /// the entries not yet found) find the distances that the levels over the cells alone find,
    /// on the two test tiers (every level one way, then every level the other).
    #[test]
    fn the_levels_over_bits_find_what_the_levels_over_cells_find() {
        let eo1ep1 = Subgroup {
            eo: Eo::Eo1,
            ep: Ep::Ep1,
        };
        for metric in [Metric::Htm, Metric::Qtm] {
            let bake = |dense| search(eo1ep1, metric, dense, &|_| {}).expect("every coset reached");
            let (cells, levels) = bake(0);
            let (with_bits, levels_with_bits) = bake(u64::MAX);
            assert!(cells == with_bits, "{metric:?}: the distances differ");
            let counts = |levels: &[LevelStats]| {
                levels
                    .iter()
                    .map(|l| (l.entries, l.unassigned))
                    .collect::<Vec<_>>()
            };
            assert_eq!(counts(&levels), counts(&levels_with_bits), "{metric:?}");
        }
    }

    /// The bits of the bytes equal to a value, eight at a time, are those of a byte-by-byte
    /// comparison, on chunks of every length up to 64 and on the values around each byte's top
    /// bit (where a carry would show).
    #[test]
    fn the_bits_of_equal_bytes_are_those_of_a_comparison() {
        let bytes: Vec<u8> = (0..64u32)
            .map(|i| [0, 1, 0x7F, 0x80, 0xFE, 0xFF, 12, 13][(i * 5 % 8) as usize])
            .collect();
        for value in [0, 1, 12, 0x7F, 0x80, 0xFE, 0xFF] {
            for len in 0..=64 {
                let chunk = &bytes[..len];
                let expected = chunk
                    .iter()
                    .enumerate()
                    .fold(0u64, |bits, (i, &b)| bits | u64::from(b == value) << i);
                assert_eq!(word(chunk, value), expected, "value {value}, length {len}");
            }
        }
    }

    /// The set bits of a range that starts and ends inside words.
    #[test]
    fn marked_bits_of_a_range() {
        let marks = [
            0x8000_0000_0000_0003u64,
            0xFFFF_FFFF_FFFF_FFFF,
            0x0000_0000_0000_0005,
        ];
        let mut got = Vec::new();
        for_each_marked(&marks, 1, 129, |offset| got.push(offset));
        assert_eq!(
            got,
            [0, 62]
                .into_iter()
                .chain(63..127)
                .chain([127])
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn packed_lines_read_back() {
        let base = 7;
        let row: Vec<u8> = (0..N_SLICE).map(|r| (r % 13) as u8).collect();
        let payload = pack(&row, base);
        let lines = crate::file::lines::Lines2::new(&payload, base);
        for (r, &value) in row.iter().enumerate() {
            let got = lines.get(slot(r as u32) as usize);
            if value > base {
                assert_eq!(got, value.min(base + 3), "{r}");
            } else {
                assert!(got <= value, "{r}");
            }
        }
        check_histogram(&line_histogram(&payload), 512).unwrap();
    }
}
