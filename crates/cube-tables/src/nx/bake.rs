//! Baking an nx table: an exact breadth-first search over the cosets of the tier's subgroup, one
//! cell per coset (corner class x edge coordinate), in parallel, then packed into nxopt's lines
//! and written as they are packed.
//!
//! The cells ([`cells`](super::cells)) are a byte per coset, or four bits where a byte per coset
//! does not fit in the memory available (nx-eo2ep2's 30.2 G cosets on a machine of 24 GiB). A
//! cell holds the distances up to its `top` exactly (254 in bytes, 14 in four bits) and deeper
//! ones as `top`. Nothing more is needed: a level that finds a depth beyond `top` runs backward
//! (an unassigned coset next to an assigned one is at `d + 1`, since every assigned neighbour of
//! an unassigned coset is at `d`), the codes of the packed lines need the distances up to
//! `base + 3` (at most 14), and the minimum of a line, kept up to 15, is `top + 1` for a line
//! whose cells are at `top` or more and none exactly at `top` (a bit per line, set once, before
//! the first level beyond `top`).
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
//! writes their neighbours into the target rows, where workers race on the cells only in a benign
//! way ([`Cells::set_shared`]: during a level the only change is from "unassigned" to `d + 1`),
//! then counts the rows it wrote into again. A dense level first sets a bit per cell at the depth
//! (a row of bits is an eighth of a row of bytes: 124 KB for nx-eo3ep1, in a second-level cache)
//! and reads the frontier there; a dense forward level goes target row by target row, reading the
//! bits of every source row and move that lead into it and setting its finds in a row of bits,
//! merged at the end. A backward level keeps a row's entries not yet found as bits too, tests them
//! move by move (the target rows with the most entries at the depth first) and writes its finds at
//! the end. Either way a dense level's row is written by one worker only, which counts it.
//!
//! The checks before the table is renamed into place: every coset reached, the solved coset alone
//! at depth 0, and the histogram of the packed lines summing to the table's entries and lines.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};
use std::time::Instant;

use cube_core::{Cube, Move};
use rayon::prelude::*;

use super::cells::{Blocks, ByteCells, Cells, NibbleCells};
use super::coord::{N_CORNER_CLASSES, N_SLICE, NxSym, Subgroup, corner_coord, corner_moves};
use super::edge_maps::{BlockMap, EdgeMap, EdgeMaps, FullMaps, SplitMaps};
use super::table::{spec_or_error, subgroup};
use crate::file::bake::{BakeReport, Direction, LevelStats, check_free_space, is_sound};
use crate::file::error::{Kind, TableError};
use crate::file::format::{HEADER_LEN, HISTOGRAM_LEN, Histogram};
use crate::file::id::{Encoding, Metric, Tier};
use crate::file::lines::{BLOCK_BYTES, LINE_BYTES};
use crate::file::lock::BakeLock;
use crate::file::store::TableWriter;
use crate::tier::family::BakeOptions;

/// Bakes the table of the nx `tier` into `dir`, unless a sound one is there, reporting each level
/// of the search to `progress`.
///
/// # Errors
///
/// - `InvalidInput` for a tier of another family.
/// - `NoSpace` when `dir` has less free space than the table needs.
/// - `InvalidInput` when the bake needs more memory than the system has available (RAM and
///   swap: four bits per coset and a bit per coset for a level's frontier), checked before it
///   allocates.
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
    let n_cells = N_CORNER_CLASSES * subgroup.n_edges();
    let kind = cell_kind(tier, n_cells, available_memory()).map_err(at)?;
    let Encoding::Line2 { base } = spec.encoding else {
        unreachable!("an nx table has 2-bit lines")
    };
    let mut writer = TableWriter::create_under(lock, &spec)?;
    let start = Instant::now();
    let (histogram, levels, search_time) = match kind {
        CellKind::Bytes => {
            search_and_pack::<ByteCells>(subgroup, tier, base, progress, &mut writer)
        }
        CellKind::Nibbles => {
            search_and_pack::<NibbleCells>(subgroup, tier, base, progress, &mut writer)
        }
    }
    .map_err(at)?;
    check_histogram(&histogram, spec.n_entries).map_err(at)?;
    let path = writer.finish(&histogram)?;
    // The payload was hashed from the very bytes whose histogram was checked; a stamp that
    // cannot be written only costs a later status report its "checked" date.
    let _ = crate::file::stamp::write_stamp(&path);
    let notes = match kind {
        CellKind::Bytes => Vec::new(),
        CellKind::Nibbles => vec![format!(
            "searched with four bits per coset: a byte per coset ({:.1} GiB) is more than the \
             memory available",
            gib(ByteCells::bytes(n_cells))
        )],
    };
    Ok(BakeReport {
        path,
        skipped: false,
        levels,
        histogram,
        search_time,
        write_time: start.elapsed() - search_time,
        notes,
    })
}

/// The search with cells `C`, then the pack into `writer`: the histogram of the packed table,
/// the levels and the time of the search.
fn search_and_pack<C: Cells>(
    subgroup: Subgroup,
    tier: Tier,
    base: u8,
    progress: &(dyn Fn(&LevelStats) + Sync),
    writer: &mut TableWriter,
) -> Result<(Histogram, Vec<LevelStats>, std::time::Duration), TableError> {
    let start = Instant::now();
    let (distances, levels) = search::<C>(subgroup, tier.metric(), DENSE, C::MAX_TOP, progress)
        .map_err(|depth| unreached(tier, depth))?;
    let search_time = start.elapsed();
    let histogram = pack(&distances, base, |bytes| writer.write(bytes))?;
    Ok((histogram, levels, search_time))
}

/// How the search keeps its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CellKind {
    /// A byte per coset.
    Bytes,
    /// Four bits per coset.
    Nibbles,
}

/// The cells that fit in the memory `available` (RAM and swap; `None`: not known), with the bits
/// of a level's frontier (a bit per cell) beside them: bytes, else four bits, else the error
/// (before anything is allocated: without the check, the allocation would abort the process).
fn cell_kind(tier: Tier, n_cells: usize, available: Option<u64>) -> Result<CellKind, TableError> {
    let marks = n_cells.div_ceil(64) as u64 * 8;
    let fits = |cells: u64| available.is_none_or(|available| cells + marks <= available);
    if fits(ByteCells::bytes(n_cells)) {
        return Ok(CellKind::Bytes);
    }
    let needed = NibbleCells::bytes(n_cells) + marks;
    if fits(NibbleCells::bytes(n_cells)) {
        return Ok(CellKind::Nibbles);
    }
    Err(TableError::new(Kind::InvalidInput {
        what: format!(
            "the {tier} bake needs {:.1} GiB of memory (four bits per coset and a bit per coset \
             for a level's frontier) and the system has {:.1} GiB available (RAM and swap): bake \
             it on a machine with more memory, or use a smaller nx tier",
            gib(needed),
            gib(available.unwrap_or(0))
        ),
    }))
}

/// Bytes in GiB.
fn gib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1u32 << 30)
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
    /// The first cell of the row of `class`: one cell per edge coordinate.
    #[inline]
    fn row(&self, class: u32) -> usize {
        class as usize * self.n_edges
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

    /// Counts, after a forward level (whose writes to a row come from any worker), the entries
    /// still unassigned in each row it wrote into; those it found are the difference (a cell
    /// changes only from unassigned, and a cell at `top` may be older than the level).
    fn recount<C: Cells>(&mut self, n_edges: usize, cells: &mut C) {
        let touched: Vec<bool> = self
            .touched
            .iter_mut()
            .map(|t| std::mem::take(t.get_mut()))
            .collect();
        let unassigned = cells.unassigned_per_row(n_edges, &touched);
        for (((found, left), &touched), unassigned) in self
            .found
            .iter_mut()
            .zip(&mut self.left)
            .zip(&touched)
            .zip(unassigned)
        {
            if touched {
                *found.get_mut() = *left.get_mut() - unassigned;
                *left.get_mut() = unassigned;
            }
        }
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

/// The distances a search found: the cells, which hold them up to `top`, and once the search went
/// beyond `top`, a byte per block of 495 cells with a bit per line (of 62 cells) that has a cell
/// at `top` exactly.
struct Distances<B> {
    cells: B,
    top: u8,
    at_top: Option<Vec<u8>>,
}

/// The search: the distance of every coset, one cell per `(class, edge)` entry that holds it up
/// to `top` ([`Distances`]), and the levels; `Err(depth)` when the frontier of `depth` is empty
/// while cosets are unassigned.
///
/// A level goes row by row (class by class, in parallel) and, within a row, move by move: for one
/// source class and one move the target class and the symmetry that reduces it are fixed, and only
/// the edge coordinate varies over the row's entries. A level reads its frontier from a bit per
/// cell when its tests times `dense` exceed the cells ([`DENSE`]; 0: never, `u64::MAX`: always).
fn search<C: Cells>(
    subgroup: Subgroup,
    metric: Metric,
    dense: u64,
    top: u8,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<(Distances<C::Frozen>, Vec<LevelStats>), u8> {
    let sym = NxSym::new();
    let moves = metric_moves(metric);
    match SplitMaps::new(subgroup, &moves, &sym) {
        Some(split) => search_with::<C, _>(subgroup, &sym, &moves, split, dense, top, progress),
        None => {
            let full = FullMaps::new(subgroup, &moves, &sym);
            search_with::<C, _>(subgroup, &sym, &moves, full, dense, top, progress)
        }
    }
}

/// A level reads its frontier from a bit per cell when it has more tests than an eighth of the
/// cells: enough to pay for the pass that sets the bits (nx-eo3ep1: 3.3 s for the 10 G cells when
/// they were set a byte at a time, against the 2,655 entries of its last level).
const DENSE: u64 = 8;

/// [`search`] over the edge maps `edges` of `subgroup` and `moves`.
fn search_with<C: Cells, E: EdgeMaps>(
    subgroup: Subgroup,
    sym: &NxSym,
    moves: &[Move],
    edges: E,
    dense: u64,
    top: u8,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<(Distances<C::Frozen>, Vec<LevelStats>), u8> {
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
    let mut cells = C::new(N_CORNER_CLASSES * n_edges, n_edges, top);
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
        &cells,
        space.row(class),
        sym.stabilizer(class),
        edge,
        0,
    );
    counts.touched[class as usize].store(true, Relaxed);
    counts.recount(n_edges, &mut cells);
    let mut levels = Vec::new();
    let (mut frontier, mut unassigned) = counts.next_level();
    let mut depth = 0u8;
    // The bits of the dense levels' frontier, allocated at the first.
    let mut marks = Vec::new();
    let mut at_top = None;
    while unassigned > 0 {
        if frontier == 0 {
            return Err(depth);
        }
        let started = Instant::now();
        // What the cells hold for the frontier and for the finds.
        let (value, next) = (depth.min(top), (depth + 1).min(top));
        if depth == top {
            at_top = Some(lines_with(&cells, top));
        }
        // A forward pass tries every move from each frontier entry; a backward pass stops at the
        // first neighbour found, after a few moves on the dense levels: backward once fewer than
        // a third of the moves per frontier entry are left unassigned (nx-eo2ep1's depth 10 then
        // runs backward: 62 s of CPU for the bake, 66 s with an earlier build that ran it forward;
        // not measured side by side, the machine was loaded), and always beyond `top`.
        let direction = if unassigned * 3 < frontier * space.n_moves as u64 || depth >= top {
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
        // Beyond `top` the finds hold the frontier's value: the frontier is read from its bits,
        // set before the level.
        let with_marks = tests.saturating_mul(dense) > cells.len() as u64 || depth >= top;
        let lists = if with_marks {
            cells.mark(value, &mut marks);
            Vec::new()
        } else if direction == Direction::Forward {
            cells.lists(n_edges, &counts.at, value)
        } else {
            Vec::new()
        };
        let (marks, cells_ref) = (&marks, &cells);
        (0..N_CORNER_CLASSES as u32).into_par_iter().for_each_init(
            Scratch::default,
            |scratch, class| match direction {
                Direction::Forward if with_marks => {
                    let sources = &incoming[class as usize];
                    forward_into(
                        &space, cells_ref, marks, &counts, sources, class, next, scratch,
                    );
                }
                Direction::Forward => {
                    let list = &lists[class as usize];
                    forward(&space, cells_ref, &counts, class, next, list);
                }
                Direction::Backward if with_marks => {
                    let at_depth = |at: usize| marked(marks, at);
                    backward(&space, cells_ref, at_depth, &counts, class, next, scratch);
                }
                Direction::Backward => {
                    let at_depth = |at: usize| cells_ref.get(at) == value;
                    backward(&space, cells_ref, at_depth, &counts, class, next, scratch);
                }
            },
        );
        depth += 1;
        if direction == Direction::Forward && !with_marks {
            counts.recount(n_edges, &mut cells);
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
    let top = cells.top();
    let cells = cells.freeze();
    Ok((Distances { cells, top, at_top }, levels))
}

/// Per block of 495 cells, a bit for each of its 8 lines (62 cells, the last 61) with a cell
/// that holds `value`.
fn lines_with<C: Cells>(cells: &C, value: u8) -> Vec<u8> {
    (0..cells.len() / N_SLICE)
        .into_par_iter()
        .map(|block| {
            (0..8).fold(0u8, |bits, line| {
                let start = block * N_SLICE + 62 * line;
                let n = 62.min(N_SLICE - 62 * line);
                bits | u8::from(cells.bits(start, n, value) != 0) << line
            })
        })
        .collect()
}

/// Writes `value` into the entry `edge` of the row that starts at cell `row`, a row of a class
/// whose representative the symmetries of `stabilizer` fix, and into its twins under them, where
/// unassigned ([`Cells::set_shared`]).
#[inline]
fn set_all<C: Cells, E: EdgeMaps>(
    space: &Space<'_, E>,
    cells: &C,
    row: usize,
    stabilizer: u16,
    edge: u32,
    value: u8,
) {
    for_each_twin(space, stabilizer, edge, |twin| {
        cells.set_shared(row + twin as usize, value);
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

/// Forward from the entries `list` at the level's depth of the row of `class`: their unassigned
/// neighbours get `next`.
fn forward<C: Cells, E: EdgeMaps>(
    space: &Space<'_, E>,
    cells: &C,
    counts: &RowCounts,
    class: u32,
    next: u8,
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
        let to_row = space.row(to_class);
        let stabilizer = space.sym.stabilizer(to_class);
        counts.touched[to_class as usize].store(true, Relaxed);
        for &edge in list.iter() {
            let to_edge = after.apply(edge);
            if stabilizer == 1 {
                cells.set_shared(to_row + to_edge as usize, next);
            } else if cells.get(to_row + to_edge as usize) == C::UNASSIGNED {
                set_all(space, cells, to_row, stabilizer, to_edge, next);
            }
        }
    }
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
fn forward_into<C: Cells, E: EdgeMaps>(
    space: &Space<'_, E>,
    cells: &C,
    marks: &[u64],
    counts: &RowCounts,
    sources: &[(u32, usize)],
    class: u32,
    next: u8,
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
        // The entries come in order: the map reads a block's part once, when the first entry of
        // the block comes (no division per entry).
        let (mut block_start, mut image) = (0, after.block(0));
        for_each_marked(marks, space.row(from), space.n_edges, |edge| {
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
    // Before the level no unassigned entry of the row had a neighbour at the depth: the finds
    // are the entries of set bits still unassigned.
    let row = space.row(class);
    let mut found = 0;
    for_each_marked(bits, 0, space.n_edges, |edge| {
        found += u32::from(cells.set_owned(row + edge as usize, next));
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

/// Backward into the row of `class`: its unassigned entries with a neighbour at the level's depth
/// (the cells, by index, for which `at_depth` holds) get `next`. The entries not yet found are
/// bits, 8 words for each block of 495 entries (128 KB for nx-eo3ep1, in a second-level cache
/// beside the target row's frontier bits), cleared move by move as they are found; the moves go
/// from the target row with the most entries at the depth down, so that most entries are found
/// early. The finds are written to the row at the end.
fn backward<C: Cells, E: EdgeMaps>(
    space: &Space<'_, E>,
    cells: &C,
    at_depth: impl Fn(usize) -> bool,
    counts: &RowCounts,
    class: u32,
    next: u8,
    scratch: &mut Scratch,
) {
    if counts.left[class as usize].load(Relaxed) == 0 {
        return;
    }
    let Scratch { bits, before } = scratch;
    let row = space.row(class);
    bits.clear();
    for block in (row..row + space.n_edges).step_by(N_SLICE) {
        bits.extend((block..block + N_SLICE).step_by(64).map(|start| {
            let n = (block + N_SLICE - start).min(64);
            cells.bits(start, n, C::UNASSIGNED)
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
        let to_row = space.row(space.corner[class as usize * space.n_moves + m].0);
        let mut left = 0;
        for (block, words) in bits.chunks_exact_mut(BLOCK_WORDS).enumerate() {
            let image = after.block(block as u32);
            for (w, bits) in words.iter_mut().enumerate() {
                // Without branches on the tests (whether a neighbour is at the depth is a coin
                // toss on the dense levels): a found entry's bit is cleared.
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
        let start = row + i / BLOCK_WORDS * N_SLICE + i % BLOCK_WORDS * 64;
        while new != 0 {
            cells.set_found(start + new.trailing_zeros() as usize, next);
            new &= new - 1;
        }
    }
    counts.add_found(class, found);
}

/// The words of bits of a block of 495 entries.
const BLOCK_WORDS: usize = N_SLICE.div_ceil(64);

/// A worker's buffers, kept from row to row: the row of bits of a dense forward level's finds, or
/// of a backward level's entries not yet found (and those it started with).
#[derive(Default)]
struct Scratch {
    bits: Vec<u64>,
    before: Vec<u64>,
}

/// Blocks packed at a time: 8 MiB of the table.
const PACK_BLOCKS: usize = 1 << 16;

/// Packs the distances into nxopt's 2-bit lines, a run of blocks at a time, each run given to
/// `write` while the next is packed (the writer hashes and writes on one thread); the histogram
/// of the whole. Per block of 495 distances, 8 lines, each of 62 entries but the last (61), with
/// the minimum of its entries (at most 15) in its low nibble and a code per entry after it (the
/// slots of [`slot`](crate::file::lines::slot)): 0 up to `base`, else `min(value - base, 3)`.
///
/// # Panics
/// If the cells' `top` is below `base + 3` (the codes would not be exact).
fn pack<B: Blocks>(
    distances: &Distances<B>,
    base: u8,
    mut write: impl FnMut(&[u8]) -> Result<(), TableError> + Send,
) -> Result<Histogram, TableError> {
    let Distances { cells, top, at_top } = distances;
    let top = *top;
    assert!(top >= base + 3, "cells up to {top} for codes over {base}");
    let n_blocks = cells.n_cells() / N_SLICE;
    let pack_run = |first: usize, run: &mut Vec<u8>| {
        run.resize(PACK_BLOCKS.min(n_blocks - first) * BLOCK_BYTES, 0);
        run.par_chunks_mut(BLOCK_BYTES)
            .enumerate()
            .for_each(|(i, block)| {
                let mut values = [0u8; N_SLICE];
                cells.block(first + i, &mut values);
                let at_top = at_top.as_ref().map_or(u8::MAX, |lines| lines[first + i]);
                pack_block(&values, base, top, at_top, block);
            });
        crate::histogram(run, Encoding::Line2 { base }, 0)
    };
    let mut histogram = [0u64; HISTOGRAM_LEN];
    let (mut packed, mut next) = (Vec::new(), Vec::new());
    for first in (0..n_blocks).step_by(PACK_BLOCKS) {
        let (counts, written) = rayon::join(|| pack_run(first, &mut next), || write(&packed));
        written?;
        histogram
            .iter_mut()
            .zip(counts)
            .for_each(|(sum, n)| *sum += n);
        std::mem::swap(&mut packed, &mut next);
    }
    write(&packed)?;
    Ok(histogram)
}

/// Packs one block of 495 distances (those deeper than `top` held as `top`) into `block`; a line
/// whose bit of `at_top` is clear and whose minimum is `top` has the minimum `top + 1`.
fn pack_block(values: &[u8; N_SLICE], base: u8, top: u8, at_top: u8, block: &mut [u8]) {
    for (l, (line, entries)) in block
        .chunks_exact_mut(LINE_BYTES)
        .zip(values.chunks(62))
        .enumerate()
    {
        // The slots of the line: two for the minimum, then the codes (the last line's last slot
        // unused); four to a byte, the first in the low bits.
        let mut codes = [0u8; 64];
        for (code, &value) in codes[2..].iter_mut().zip(entries) {
            *code = value.saturating_sub(base).min(3);
        }
        for (byte, slots) in line.iter_mut().zip(codes.chunks_exact(4)) {
            *byte = slots[0] | slots[1] << 2 | slots[2] << 4 | slots[3] << 6;
        }
        let mut minimum = entries.iter().copied().min().expect("a line has entries");
        if minimum == top && at_top >> l & 1 == 0 {
            minimum += 1;
        }
        line[0] |= minimum.min(15);
    }
}

#[cfg(test)]
mod tests {
    use super::super::coord::{Eo, Ep};
    use super::*;
    use crate::file::lines::{line_histogram, slot};

    /// The cells are bytes where bytes and the frontier's bits fit, else four bits, else the bake
    /// is refused with the figures and what to do; the available memory is read from
    /// `/proc/meminfo`'s lines.
    #[test]
    fn the_cells_are_what_the_memory_holds() {
        let gib = 1u64 << 30;
        // nx-eo2ep2: 30.2 G cells, 3.8 GB of frontier bits.
        let n = N_CORNER_CLASSES * 256 * 24 * N_SLICE;
        let kind = |available| cell_kind(Tier::NxEo2Ep2, n, available);
        assert_eq!(kind(Some(40 * gib)).unwrap(), CellKind::Bytes);
        assert_eq!(kind(None).unwrap(), CellKind::Bytes);
        assert_eq!(kind(Some(23 * gib)).unwrap(), CellKind::Nibbles);
        let text = kind(Some(10 * gib)).expect_err("refused").to_string();
        assert!(
            text.contains("the nx-eo2ep2 bake needs 17.6 GiB of memory (four bits per coset")
                && text.contains("10.0 GiB available")
                && text.contains("a machine with more memory"),
            "{text}"
        );
        let meminfo = "MemTotal:       24000000 kB\nMemFree:         1000 kB\nMemAvailable:   20000000 kB\nSwapTotal:  2000 kB\nSwapFree:        1000 kB\n";
        assert_eq!(meminfo_available(meminfo), Some(20_001_000 * 1024));
        assert_eq!(meminfo_available("MemTotal: 5 kB\n"), None);
    }

    /// The packed table of a search and its levels' counts.
    fn packed<C: Cells>(
        subgroup: Subgroup,
        metric: Metric,
        dense: u64,
        top: u8,
        base: u8,
    ) -> (Vec<u8>, Histogram, Vec<(u64, u64)>) {
        let (distances, levels) =
            search::<C>(subgroup, metric, dense, top, &|_| {}).expect("every coset reached");
        let mut payload = Vec::new();
        let histogram = pack(&distances, base, |run| {
            payload.extend_from_slice(run);
            Ok(())
        })
        .unwrap();
        let counts = levels.iter().map(|l| (l.entries, l.unassigned)).collect();
        (payload, histogram, counts)
    }

    /// Every way of searching packs the same table with the same levels, on the two test tiers:
    /// a byte per cell, every level over the cells alone, against every level over bits (forward
    /// by target row, backward over bits of the entries not yet found), and against four bits per
    /// cell either way. Then cells that hold the distances only up to `top`, two below the
    /// deepest (beyond it the levels run backward and the lines' minima come from the bits of the
    /// lines at `top`), against the bytes, packed over the base `top - 3`.
    #[test]
    fn every_kind_of_cells_packs_the_same_table() {
        let eo1ep1 = Subgroup {
            eo: Eo::Eo1,
            ep: Ep::Ep1,
        };
        for (metric, tier) in [
            (Metric::Htm, Tier::NxEo1Ep1),
            (Metric::Qtm, Tier::NxEo1Ep1Qtm),
        ] {
            let base = super::super::table::base(tier).unwrap();
            let (payload, histogram, levels) =
                packed::<ByteCells>(eo1ep1, metric, 0, ByteCells::MAX_TOP, base);
            assert_eq!(histogram, line_histogram(&payload), "{metric:?}");
            check_histogram(&histogram, spec_or_error(tier).unwrap().n_entries).unwrap();
            for (kind, other) in [
                (
                    "bytes over bits",
                    packed::<ByteCells>(eo1ep1, metric, u64::MAX, 254, base),
                ),
                (
                    "nibbles",
                    packed::<NibbleCells>(eo1ep1, metric, 0, 14, base),
                ),
                (
                    "nibbles over bits",
                    packed::<NibbleCells>(eo1ep1, metric, u64::MAX, 14, base),
                ),
            ] {
                assert!(other.0 == payload, "{metric:?}, {kind}: the tables differ");
                assert_eq!(other.1, histogram, "{metric:?}, {kind}");
                assert_eq!(other.2, levels, "{metric:?}, {kind}");
            }
            // eo1ep1's deepest cosets: 11 in HTM, 13 in QTM.
            let top = levels.len() as u8 - 2;
            let (payload, histogram, _) = packed::<ByteCells>(eo1ep1, metric, 0, 254, top - 3);
            for (kind, other) in [
                (
                    "bytes up to top",
                    packed::<ByteCells>(eo1ep1, metric, 0, top, top - 3),
                ),
                (
                    "nibbles up to top",
                    packed::<NibbleCells>(eo1ep1, metric, u64::MAX, top, top - 3),
                ),
            ] {
                assert!(other.0 == payload, "{metric:?}, {kind}: the tables differ");
                assert_eq!(other.1, histogram, "{metric:?}, {kind}");
                assert_eq!(other.2, levels, "{metric:?}, {kind}");
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

    /// The lines read back what was packed: the value above the base, clamped to `base + 3`, or
    /// at most the value; a line of cells at `top` none of which is at `top` exactly has the
    /// minimum `top + 1`.
    #[test]
    fn packed_lines_read_back() {
        let base = 7;
        let row: Vec<u8> = (0..N_SLICE).map(|r| (r % 13) as u8).collect();
        let distances = Distances {
            cells: row.clone(),
            top: 254,
            at_top: None,
        };
        let mut payload = Vec::new();
        let histogram = pack(&distances, base, |run| {
            payload.extend_from_slice(run);
            Ok(())
        })
        .unwrap();
        let lines = crate::file::lines::Lines2::new(&payload, base);
        for (r, &value) in row.iter().enumerate() {
            let got = lines.get(slot(r as u32) as usize);
            if value > base {
                assert_eq!(got, value.min(base + 3), "{r}");
            } else {
                assert!(got <= value, "{r}");
            }
        }
        check_histogram(&histogram, 512).unwrap();
        assert_eq!(histogram, line_histogram(&payload));
        // Lines 0 and 1 at `top` (11) or beyond; line 1 has a cell at 11 exactly.
        let mut deep = vec![11u8; N_SLICE];
        deep[62 * 2..].fill(3);
        let distances = Distances {
            cells: deep,
            top: 11,
            at_top: Some(vec![0b1111_1110]),
        };
        let mut payload = Vec::new();
        pack(&distances, base, |run| {
            payload.extend_from_slice(run);
            Ok(())
        })
        .unwrap();
        let minima: Vec<u8> = payload.chunks(LINE_BYTES).map(|l| l[0] & 0xF).collect();
        assert_eq!(minima, [12, 11, 3, 3, 3, 3, 3, 3]);
    }
}
