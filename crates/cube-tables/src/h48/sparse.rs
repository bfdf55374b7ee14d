//! Baking h4..h7 in one pass: an exact breadth-first search over the cosets of G11 (every edge also
//! oriented), kept as sorted per-class lists up to depth `base + 1`, then projected per destination
//! class onto each tier, with the cosets at depth `base + 2` streamed from the last kept level and
//! never stored (design note, section 3.3).
//!
//! A coset in row `r` (class `r`, corners at its representative) is `u = (sep70 << F | eoF) << 9 |
//! slot`: the layout of [`Coordinate`] within the class, for `F` kept flips: 11 for h4..h7 (G11), 0
//! for h0 (G). Only these make the coset space of a group, where a coset's neighbours depend on the
//! coset only: with 4 kept flips, a move brings an unkept flip (UF's, by F) into a kept position.
//!
//! Levels are pulled per destination row: `L_{d+1}(r)` is the children of `L_d(s)` over the arcs
//! `(s, m) -> (r, t)` of the class graph, with their images under `r`'s stabilizer, minus `L_{d-1}(r)`
//! and `L_d(r)` (a child of depth `d` lies at `d - 1`, `d` or `d + 1`). Each row is written by one
//! thread: no locks, no atomics. A transition is two byte shuffles (the conjugating symmetry, then the
//! move fused with the inverse symmetry) and the masks of [`edge_parts_of`].
//!
//! The last kept level (`L10`, about 4.3 GB) lives in a file-backed scratch; the projection writes each
//! row of every tier into a buffer of its own (143 KB for h4 to 1.15 MB for h7), which goes to the
//! tier's file in row order.

use std::path::{Path, PathBuf};
use std::time::Instant;

use cube_core::{Cube, Move};
use rayon::prelude::*;

use super::cocsep::{Cocsep, N_SEP};
use super::edges::{EdgeParts, EdgeSyms, N_PLACEMENTS, Q, compose};
use super::index::{BLOCK_SLOTS, Coordinate, MAX_FLIPS, edge_parts_of};
use super::table::{flips, spec_or_error};
use crate::file::bake::BakeReport;
use crate::file::bake::{Direction, LevelStats, check_free_space, file_scratch, is_sound};
use crate::file::error::{Kind, TableError};
use crate::file::format::{HEADER_LEN, HISTOGRAM_LEN, Histogram};
use crate::file::id::{Encoding, TableSpec, Tier};
use crate::file::lines::{BLOCK_BYTES, LINE_BYTES, line_histogram};
use crate::file::lock::BakeLock;
use crate::file::mmap::Scratch;
use crate::file::store::TableWriter;
use crate::file::table::PruneTable;

/// Entries of h0 per depth 0..=9, reduced by the 48 symmetries: cube48opt's opt1 bake log
/// (design note 3.5); depths 0..=8 sum to nissy-core's 5,473,562 entries of code 0
/// (`src/solvers/h48/checkdata.h`, `expected_h48[0]`) and depth 9 is its code 1.
pub(crate) const H0_DEPTHS: [u64; 10] = [1, 1, 4, 34, 331, 3612, 41605, 474128, 4953846, 34776317];

/// nissy-core's code histogram of h0 with base 8 (`expected_h48[0]`): values <= 8, 9, 10, >= 11.
pub const H0_CODES: [u64; 4] = [5_473_562, 34_776_317, 68_566_704, 8_750_867];

/// G11 cosets (h11 entries, reduced by the 48 symmetries as the table stores them) at depth at most
/// 8: H48's "short cosets" (design note 3.5).
pub(crate) const H11_UP_TO_8: u64 = 7_437_855;

/// G11 cosets at depth at most 10: nissy-core's code 0 of h11 with base 10 (`expected_h48[11]`).
pub(crate) const H11_UP_TO_10: u64 = 1_150_763_161;

/// G11 cosets at depth 11: nissy-core's code 1 of h11 with base 10.
pub(crate) const H11_AT_11: u64 = 12_045_845_660;

/// nissy-core's code histograms of h4..h7 with base 9 (`src/solvers/h48/checkdata.h`,
/// `expected_h48[N]`): values <= 9, 10, 11, >= 12.
pub(crate) const H4_H7_CODES: [[u64; 4]; 4] = [
    [77_147_213, 543_379_415, 1_139_570_251, 120_982_321],
    [82_471_284, 687_850_732, 2_345_840_746, 645_995_638],
    [85_941_099, 804_752_968, 4_077_248_182, 2_556_374_551],
    [88_529_761, 897_323_475, 6_126_260_791, 7_936_519_573],
];

/// How far (in parts per million) this bake's counts for h11 and h4..h7 may be from nissy-core's.
/// Its own are 0.14 ppm above them at depths <= 10 and = 11 (+159 and +1,689 cosets, measured
/// here; docs/perf-log/bakes.md, "the h4..h7 bake in one pass"): more cosets at a depth is the
/// admissible direction (a bound can only be lower), and nissy-core's depth-first bake may miss a
/// few that a breadth-first search does not. A larger difference is a bug. h0 and the short
/// cosets must match exactly.
const PUBLISHED_PPM: u64 = 1;

/// Whether `found` is `expected` within [`PUBLISHED_PPM`].
fn near(found: u64, expected: u64) -> bool {
    u128::from(found.abs_diff(expected)) * 1_000_000
        <= u128::from(expected) * u128::from(PUBLISHED_PPM)
}

/// Whether a tier's code histogram is the published one (h0: exactly; h4..h7: within
/// [`PUBLISHED_PPM`]).
pub(super) fn codes_ok(tier: Tier, histogram: &Histogram) -> bool {
    expected_codes(tier).is_none_or(|codes| {
        histogram[..4].iter().zip(codes).all(|(&found, expected)| {
            if flips(tier) == Some(0) {
                found == expected
            } else {
                near(found, expected)
            }
        })
    })
}

/// A note on a count that is near but not equal to the published one.
fn note(what: &str, found: u64, expected: u64) -> Option<String> {
    (found != expected).then(|| {
        format!(
            "{what}: {found} here, {expected} published by nissy-core ({:+})",
            i128::from(found) - i128::from(expected)
        )
    })
}

/// The expected code histogram of an H48 tier, where a published one exists.
pub(super) fn expected_codes(tier: Tier) -> Option<[u64; 4]> {
    match flips(tier)? {
        0 => Some(H0_CODES),
        n @ 4..=7 => Some(H4_H7_CODES[n as usize - 4]),
        _ => None,
    }
}

/// Rows of the search that expect more children than this use a bitmap instead of a sort.
const SORT_LIMIT: usize = 1 << 17;

/// Rows per parallel batch (their lists or tier rows are held together before they are stored).
const BATCH_ROWS: usize = 128;

/// The transitions of cosets within the class frame.
struct Kernel {
    flips: u32,
    coord: Coordinate,
    /// The edge lane of each esep (no flips), by `sep70 * 495 + placement`.
    lanes: Vec<[u8; 16]>,
    /// The flips of Q positions `6 h + j` for the bits `j` of a 6-bit group `h`, as lane bits 4.
    spread: [[[u8; 16]; 64]; 2],
    /// The placement of each slot of a block (`u16::MAX` for the line minima and slot 511).
    placement: [u16; BLOCK_SLOTS],
    /// The edge lane of each symmetry.
    sym: [[u8; 16]; 48],
    /// The inverse lane of each symmetry, in Q order.
    inverse_q: [[u8; 16]; 48],
    /// `fused[m * 48 + t]`: move `m`, then the inverse of symmetry `t`, in Q order.
    fused: Vec<[u8; 16]>,
}

impl Kernel {
    fn new(flips: u32) -> Kernel {
        assert!(
            matches!(flips, 0 | MAX_FLIPS),
            "only 0 or 11 kept flips make the cosets of a group"
        );
        let syms = EdgeSyms::get();
        let mut spread = [[[0u8; 16]; 64]; 2];
        for (h, group) in spread.iter_mut().enumerate() {
            for (bits, lane) in group.iter_mut().enumerate() {
                for j in 0..6 {
                    if bits >> j & 1 == 1 {
                        lane[usize::from(Q[6 * h + j])] = 0x10;
                    }
                }
            }
        }
        let mut placement = [u16::MAX; BLOCK_SLOTS];
        for r in 0..N_PLACEMENTS as u32 {
            placement[super::edges::slot(r) as usize] = r as u16;
        }
        let sym = std::array::from_fn(|k| *syms.lane(k));
        let inverse_q = std::array::from_fn(|k| *syms.inverse_q(k));
        let fused = Move::ALL
            .iter()
            .flat_map(|&m| {
                let moved = Cube::from_move(m).packed_edges();
                (0..48).map(move |t| compose(&moved, syms.inverse_q(t)))
            })
            .collect();
        Kernel {
            flips,
            coord: Coordinate::new(flips),
            lanes: (0..N_SEP * N_PLACEMENTS).map(esep_lane).collect(),
            spread,
            placement,
            sym,
            inverse_q,
            fused,
        }
    }

    /// The number of cosets in a row.
    fn row_len(&self) -> usize {
        (N_SEP << self.flips) * BLOCK_SLOTS
    }

    /// An edge lane of coset `u` (flips that `u` does not keep are 0, except UF's, which makes the
    /// flips even as on a real cube).
    #[inline]
    fn lane(&self, u: u32) -> [u8; 16] {
        let block = u >> 9;
        let eo11 = (block & ((1 << self.flips) - 1)) << (MAX_FLIPS - self.flips);
        let sep70 = (block >> self.flips) as usize;
        let placement = usize::from(self.placement[(u & 511) as usize]);
        let eo12 = (eo11 << 1 | (eo11.count_ones() & 1)) as usize;
        let (base, low, high) = (
            &self.lanes[sep70 * N_PLACEMENTS + placement],
            &self.spread[0][eo12 & 63],
            &self.spread[1][eo12 >> 6],
        );
        std::array::from_fn(|i| base[i] | low[i] | high[i])
    }

    #[inline]
    fn u_of(&self, parts: EdgeParts) -> u32 {
        self.coord.layout(0, parts) as u32
    }

    /// The coset of `lane` after move `m`, conjugated by symmetry `t`.
    #[inline]
    fn step(&self, lane: &[u8; 16], m: u8, t: u8) -> u32 {
        let fused = &self.fused[usize::from(m) * 48 + usize::from(t)];
        self.u_of(edge_parts_of(&self.sym[usize::from(t)], lane, fused))
    }

    /// The coset of `lane` conjugated by symmetry `k`.
    #[inline]
    fn image(&self, lane: &[u8; 16], k: usize) -> u32 {
        self.u_of(edge_parts_of(&self.sym[k], lane, &self.inverse_q[k]))
    }
}

/// One level of the search: the sorted cosets of each row.
struct Level {
    offsets: Vec<usize>,
    data: Storage,
}

enum Storage {
    Heap(Vec<u32>),
    Scratch(Scratch),
}

impl Level {
    fn row(&self, r: usize) -> &[u32] {
        let all: &[u32] = match &self.data {
            Storage::Heap(v) => v,
            Storage::Scratch(s) => {
                bytemuck::cast_slice(&s[..self.offsets[self.offsets.len() - 1] * 4])
            }
        };
        &all[self.offsets[r]..self.offsets[r + 1]]
    }

    fn len(&self) -> u64 {
        self.offsets[self.offsets.len() - 1] as u64
    }
}

/// The search: the kernel, the class graph reversed, the stabilizers.
struct Search {
    kernel: Kernel,
    /// `sources[r]`: the arcs `(s, m, t)` into row `r`.
    sources: Vec<Vec<(u32, u8, u8)>>,
    /// Each row's stabilizer without the identity.
    images: Vec<u64>,
}

/// Per-thread work space: a bitmap over a row's cosets.
struct Work {
    bits: Vec<u64>,
}

impl Search {
    fn new(flips: u32) -> Search {
        let cocsep = Cocsep::get();
        let n_classes = cocsep.n_classes();
        let mut sources = vec![Vec::new(); n_classes];
        for (i, &(r, t)) in class_arcs().iter().enumerate() {
            sources[r as usize].push(((i / 18) as u32, (i % 18) as u8, t));
        }
        Search {
            kernel: Kernel::new(flips),
            sources,
            images: (0..n_classes as u32)
                .map(|c| cocsep.stabilizer(c) & !1)
                .collect(),
        }
    }

    fn n_rows(&self) -> usize {
        self.sources.len()
    }

    fn work(&self) -> Work {
        Work {
            bits: vec![0; self.kernel.row_len().div_ceil(64)],
        }
    }

    /// Calls `f` with every child in row `r` of the cosets of `level` (with repeats), and with the
    /// images of each under `r`'s stabilizer.
    #[inline]
    fn children(&self, r: usize, level: &Level, mut f: impl FnMut(u32)) {
        let k = &self.kernel;
        let images = self.images[r];
        for &(s, m, t) in &self.sources[r] {
            for &u in level.row(s as usize) {
                let child = k.step(&k.lane(u), m, t);
                f(child);
                let mut rest = images;
                if rest != 0 {
                    let lane = k.lane(child);
                    while rest != 0 {
                        f(k.image(&lane, rest.trailing_zeros() as usize));
                        rest &= rest - 1;
                    }
                }
            }
        }
    }

    /// `L_{d+1}(r)`: the children of `L_d` in row `r` that are in neither `L_{d-1}(r)` nor `L_d(r)`.
    fn next_row(&self, r: usize, prev: Option<&Level>, cur: &Level, work: &mut Work) -> Vec<u32> {
        let n_images = self.images[r].count_ones() as usize + 1;
        let expected: usize = self.sources[r]
            .iter()
            .map(|&(s, _, _)| cur.row(s as usize).len())
            .sum::<usize>()
            * n_images;
        let old = |f: &mut dyn FnMut(&[u32])| {
            if let Some(prev) = prev {
                f(prev.row(r));
            }
            f(cur.row(r));
        };
        if expected < SORT_LIMIT {
            let mut out = Vec::with_capacity(expected);
            self.children(r, cur, |u| out.push(u));
            out.sort_unstable();
            out.dedup();
            let mut drop = Vec::new();
            old(&mut |row| drop.extend_from_slice(row));
            drop.sort_unstable();
            let mut i = 0;
            out.retain(|u| {
                while i < drop.len() && drop[i] < *u {
                    i += 1;
                }
                i >= drop.len() || drop[i] != *u
            });
            out
        } else {
            let bits = &mut work.bits;
            self.children(r, cur, |u| bits[(u >> 6) as usize] |= 1 << (u & 63));
            old(&mut |row| {
                for &u in row {
                    bits[(u >> 6) as usize] &= !(1 << (u & 63));
                }
            });
            let mut out = Vec::new();
            for (w, word) in bits.iter_mut().enumerate() {
                let mut x = std::mem::take(word);
                while x != 0 {
                    out.push((w as u32) << 6 | x.trailing_zeros());
                    x &= x - 1;
                }
            }
            out
        }
    }

    /// The next level, its rows built in parallel batches and stored in `scratch` when given (which
    /// must then be exactly its size) or on the heap.
    fn next_level(
        &self,
        prev: Option<&Level>,
        cur: &Level,
        mut scratch: Option<Scratch>,
    ) -> Result<Level, usize> {
        let mut offsets = vec![0usize];
        let mut heap = Vec::new();
        let capacity = scratch.as_ref().map_or(0, |s| s.len() / 4);
        for start in (0..self.n_rows()).step_by(BATCH_ROWS) {
            let end = (start + BATCH_ROWS).min(self.n_rows());
            let rows: Vec<Vec<u32>> = (start..end)
                .into_par_iter()
                .map_init(|| self.work(), |work, r| self.next_row(r, prev, cur, work))
                .collect();
            for row in rows {
                let at = offsets[offsets.len() - 1];
                match &mut scratch {
                    Some(s) => {
                        if at + row.len() > capacity {
                            return Err(at + row.len());
                        }
                        let cells: &mut [u32] = bytemuck::cast_slice_mut(&mut s[..capacity * 4]);
                        cells[at..at + row.len()].copy_from_slice(&row);
                    }
                    None => heap.extend_from_slice(&row),
                }
                offsets.push(at + row.len());
            }
        }
        let data = match scratch {
            Some(s) => Storage::Scratch(s),
            None => Storage::Heap(heap),
        };
        Ok(Level { offsets, data })
    }
}

/// What the one pass produced for each tier.
struct TierRows {
    tier: Tier,
    n_flips: u32,
    writer: TableWriter,
    histogram: Histogram,
}

/// The slot of coset `u` (kept flips `from`) in a row of the tier keeping `to <= from` flips.
#[inline]
fn project(u: u32, from: u32, to: u32) -> usize {
    let block = u >> 9;
    let eo = block & ((1 << from) - 1);
    let sep70 = block >> from;
    (((sep70 << to) | (eo >> (from - to))) << 9 | (u & 511)) as usize
}

/// Lowers the code at `slot` of a row to `code` and its line minimum to `depth`.
#[inline]
fn lower(row: &mut [u8], slot: usize, code: u8, depth: u8) {
    let (byte, shift) = (slot >> 2, 2 * (slot & 3));
    let current = row[byte] >> shift & 3;
    if code < current {
        row[byte] ^= (current ^ code) << shift;
    }
    let line = slot >> 6 << 4;
    if depth < row[line] & 0x0F {
        row[line] = row[line] & 0xF0 | depth;
    }
}

/// The row of the tier keeping `to` flips, from the row of the tier keeping `from >= to`: each
/// entry and each line minimum is the least of the `2^(from - to)` that project onto it (a tier's
/// value is the least of the cosets it holds).
fn fold(row: &[u8], from: u32, to: u32) -> Vec<u8> {
    let ratio = 1usize << (from - to);
    let mut out = vec![0u8; row.len() / ratio];
    for (b, block) in out.chunks_exact_mut(BLOCK_BYTES).enumerate() {
        // Output block `sep70 << to | eo` takes the input blocks `sep70 << from | eo << d | low`.
        let first = (b >> to << from | (b & ((1 << to) - 1)) << (from - to)) * BLOCK_BYTES;
        block.copy_from_slice(&row[first..first + BLOCK_BYTES]);
        for other in row[first + BLOCK_BYTES..first + ratio * BLOCK_BYTES].chunks_exact(BLOCK_BYTES)
        {
            // The minimum nibble of each line is one 4-bit field, not two 2-bit codes.
            let minima: [u8; 8] = std::array::from_fn(|l| {
                (block[l * LINE_BYTES] & 0x0F).min(other[l * LINE_BYTES] & 0x0F)
            });
            for (acc, chunk) in block.chunks_exact_mut(8).zip(other.chunks_exact(8)) {
                let a = u64::from_le_bytes(acc.try_into().expect("8 bytes"));
                let b = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
                acc.copy_from_slice(&min2(a, b).to_le_bytes());
            }
            for (l, min) in minima.into_iter().enumerate() {
                let first = &mut block[l * LINE_BYTES];
                *first = *first & 0xF0 | min;
            }
        }
    }
    out
}

/// The least of each pair of 2-bit fields of `a` and `b`.
#[inline]
fn min2(a: u64, b: u64) -> u64 {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let (a_hi, b_hi) = (a >> 1 & LOW, b >> 1 & LOW);
    let (a_lo, b_lo) = (a & LOW, b & LOW);
    let hi = a_hi & b_hi;
    // Equal high bits: the lower low bit; else the low bit of the field whose high bit is 0.
    let lo = (!(a_hi ^ b_hi) & a_lo & b_lo) | (a_hi & !b_hi & b_lo) | (b_hi & !a_hi & a_lo);
    hi << 1 | (lo & LOW)
}

/// The file-backed scratch of the pass over the cosets kept with `flips` flips: `h48-h11.scratch`
/// for h4..h7 (h0's pass has none).
fn scratch_path(dir: &Path, flips: u32) -> PathBuf {
    dir.join(format!("h48-h{flips}.scratch"))
}

/// Removes the scratch files that killed bakes left in `dir`; the caller holds `dir`'s bake lock,
/// so no bake is using one.
pub(super) fn remove_stale_scratch(dir: &Path) {
    for flips in [0, MAX_FLIPS] {
        let _ = std::fs::remove_file(scratch_path(dir, flips));
    }
}

/// The bytes of the last kept level's scratch when `reached` cosets are at the depths before it:
/// room for 5 % more than the published count, so that a wrong search reports the count it found
/// rather than where it overflowed.
fn last_level_scratch_len(reached: u64) -> usize {
    let expected = H11_UP_TO_10.saturating_sub(reached) as usize;
    (expected + expected / 20) * 4
}

/// The disk space a pass needs: the tables of `specs` and the scratch, if file-backed.
fn space_needed(specs: &[TableSpec], scratch_len: Option<usize>) -> u64 {
    let tables: u64 = specs
        .iter()
        .map(|s| s.payload_len() + HEADER_LEN as u64)
        .sum();
    tables + scratch_len.map_or(0, |len| len as u64)
}

/// The parameters of one pass.
pub(super) struct Pass<'a> {
    pub(super) dir: &'a Path,
    /// The flips of the search's cosets: 11 for h4..h7, 0 to rebuild h0.
    pub(super) flips: u32,
    /// The tiers to write (each keeps at most `flips` flips; all of one base).
    pub(super) tiers: Vec<Tier>,
    /// h4..h7: also count the G11 cosets at depth 11 ([`BakeOptions::count_last_level`](super::BakeOptions::count_last_level)).
    pub(super) count_last_level: bool,
    /// Entries per depth `0..=base+1` that the search must find; else the sums of h11 at depths
    /// <= 8 and <= 10.
    pub(super) expected_depths: Option<&'a [u64]>,
}

/// Runs one search and writes every tier of `pass` under `lock` (the writers' lock of `pass.dir`);
/// a report per tier in its order. The steps: the free space, the levels kept (checked against
/// the published depths), the projection of every row into the tiers with the last level
/// streamed, the checks of the streamed count and of the codes, the writes.
pub(super) fn run(
    pass: &Pass<'_>,
    lock: &BakeLock,
    progress: &(dyn Fn(&LevelStats) + Sync),
) -> Result<Vec<BakeReport>, TableError> {
    let run = Run::new(pass)?;
    // Before the search: the free space for the tables and, at most, the scratch.
    let most_scratch = pass
        .expected_depths
        .is_none()
        .then(|| last_level_scratch_len(H11_UP_TO_8));
    run.check_space(most_scratch)?;
    let search_start = Instant::now();
    let kept = run.search_levels(progress)?;
    let mut notes = run.check_depths(&kept)?;
    let mut outputs = run.outputs(lock)?;
    let at_streamed = run.project(&kept, &mut outputs, progress)?;
    let Kept { levels, stats, .. } = kept;
    drop(levels);
    let search_time = search_start.elapsed();
    notes.extend(run.check_streamed(at_streamed)?);
    notes.extend(run.check_codes(&outputs)?);
    let write_start = Instant::now();
    let mut reports = Vec::new();
    for output in outputs {
        let histogram = output.histogram;
        let path = output.writer.finish(&histogram)?;
        // The payload was hashed from the very bytes whose histogram was checked above; a stamp that
        // cannot be written only costs a later status report its "checked" date.
        let _ = crate::file::stamp::write_stamp(&path);
        reports.push(BakeReport {
            path,
            skipped: false,
            levels: stats.clone(),
            histogram,
            search_time,
            write_time: write_start.elapsed(),
            notes: notes.clone(),
        });
    }
    Ok(reports)
}

/// One pass under way: its search, the specs of its tiers and their one base.
struct Run<'p> {
    pass: &'p Pass<'p>,
    search: Search,
    specs: Vec<TableSpec>,
    base: u8,
}

/// The levels a search keeps (up to `base + 1`), their statistics and the cosets reached.
struct Kept {
    levels: Vec<Level>,
    stats: Vec<LevelStats>,
    reached: u64,
}

impl<'p> Run<'p> {
    fn new(pass: &'p Pass<'p>) -> Result<Run<'p>, TableError> {
        let specs: Vec<TableSpec> = pass
            .tiers
            .iter()
            .map(|&t| spec_or_error(t))
            .collect::<Result<_, _>>()?;
        let bases: Vec<u8> = specs
            .iter()
            .map(|s| match s.encoding {
                Encoding::Line2 { base } => base,
                _ => unreachable!("H48 tables are 2-bit lines"),
            })
            .collect();
        let base = bases[0];
        assert!(bases.iter().all(|&b| b == base), "one pass writes one base");
        Ok(Run {
            pass,
            search: Search::new(pass.flips),
            specs,
            base,
        })
    }

    /// `e` about the pass's first table at `path`.
    fn at(&self, e: TableError, path: &Path) -> TableError {
        let first = &self.specs[0];
        e.at(first.id, path, &first.fix, first.tier)
    }

    /// The error of a count at `depth` that is not the published one.
    fn mismatch(
        &self,
        depth: usize,
        found: u64,
        expected: u64,
        against: &'static str,
    ) -> TableError {
        let kind = Kind::HistogramMismatch {
            depth,
            found,
            expected,
            against,
        };
        self.at(TableError::new(kind), self.pass.dir)
    }

    /// The free space for the tables and a scratch of `scratch_len` bytes, if file-backed.
    fn check_space(&self, scratch_len: Option<usize>) -> Result<(), TableError> {
        check_free_space(self.pass.dir, space_needed(&self.specs, scratch_len))
            .map_err(|e| self.at(e, self.pass.dir))
    }

    /// The cosets of the search, over all its rows.
    fn n_entries(&self) -> u64 {
        (self.search.n_rows() * N_SEP * (N_PLACEMENTS << self.pass.flips)) as u64
    }

    /// The last level the search keeps: `base + 1`; the next one is streamed.
    fn last_kept(&self) -> usize {
        usize::from(self.base) + 1
    }

    /// The breadth-first search from the solved cube up to the last level kept, that level in a
    /// file-backed scratch for h4..h7.
    fn search_levels(&self, progress: &(dyn Fn(&LevelStats) + Sync)) -> Result<Kept, TableError> {
        let search = &self.search;
        let n_rows = search.n_rows();
        let n_entries = self.n_entries();
        let solved = {
            let (class, parts) = search.kernel.coord.parts(&Cube::SOLVED);
            assert_eq!(class, 0, "the solved cube is in class 0");
            search.kernel.u_of(parts)
        };
        let mut offsets = vec![0; n_rows + 1];
        offsets[1..].fill(1);
        let mut levels = vec![Level {
            offsets,
            data: Storage::Heap(vec![solved]),
        }];
        let mut stats = Vec::new();
        let mut reached = 1u64;
        let last_kept = self.last_kept();
        let scratch_path = scratch_path(self.pass.dir, self.pass.flips);
        while levels.len() <= last_kept {
            let start = Instant::now();
            let depth = levels.len();
            let scratch = if depth == last_kept && self.pass.expected_depths.is_none() {
                let len = last_level_scratch_len(reached);
                self.check_space(Some(len))?;
                Some(file_scratch(&scratch_path, len).map_err(|e| self.at(e, &scratch_path))?)
            } else {
                None
            };
            let prev = depth.checked_sub(2).map(|d| &levels[d]);
            let level = search
                .next_level(prev, &levels[depth - 1], scratch)
                .map_err(|found| {
                    self.mismatch(
                        depth,
                        found as u64,
                        H11_UP_TO_10 - reached,
                        "nissy-core's h11 counts",
                    )
                })?;
            reached += level.len();
            let level_stats = LevelStats {
                depth: depth as u8,
                direction: Direction::Forward,
                entries: level.len(),
                unassigned: n_entries - reached,
                elapsed: start.elapsed(),
            };
            progress(&level_stats);
            stats.push(level_stats);
            levels.push(level);
        }
        Ok(Kept {
            levels,
            stats,
            reached,
        })
    }

    /// The levels kept against the published depths (h0), or the sums of h11 at depths <= 8
    /// and <= 10; the notes of counts within the tolerance.
    fn check_depths(&self, kept: &Kept) -> Result<Vec<String>, TableError> {
        let counts: Vec<u64> = kept.levels.iter().map(Level::len).collect();
        let reached = kept.reached;
        let mut notes = Vec::new();
        match self.pass.expected_depths {
            Some(expected) => {
                for (depth, (&found, &expected)) in counts.iter().zip(expected).enumerate() {
                    if found != expected {
                        return Err(self.mismatch(depth, found, expected, "the published depths"));
                    }
                }
            }
            None => {
                let up_to_8: u64 = counts[..=8].iter().sum();
                if up_to_8 != H11_UP_TO_8 {
                    return Err(self.mismatch(8, up_to_8, H11_UP_TO_8, "H48's short cosets"));
                }
                if !near(reached, H11_UP_TO_10) {
                    return Err(self.mismatch(
                        10,
                        reached,
                        H11_UP_TO_10,
                        "nissy-core's h11 counts",
                    ));
                }
                notes.extend(note("h11 cosets at depths <= 10", reached, H11_UP_TO_10));
            }
        }
        Ok(notes)
    }

    /// A writer per tier of the pass, under `lock`.
    fn outputs(&self, lock: &BakeLock) -> Result<Vec<TierRows>, TableError> {
        self.specs
            .iter()
            .map(|spec| {
                Ok(TierRows {
                    tier: spec.tier.expect("an H48 spec has a tier"),
                    n_flips: spec.tier.and_then(flips).expect("an H48 tier"),
                    writer: TableWriter::create_under(lock, spec)?,
                    histogram: [0; HISTOGRAM_LEN],
                })
            })
            .collect()
    }

    /// The projection: every row of every tier from the levels kept and the streamed level
    /// `base + 2`, written row by row into `outputs`; the cosets counted at the streamed level
    /// (with [`Pass::count_last_level`], else 0). The steps, per batch of rows in parallel: the
    /// row of the widest tier ([`Run::widest_row`]), folded into each tier's ([`fold`]); then,
    /// in row order, each tier's rows counted and written ([`write_rows`]).
    fn project(
        &self,
        kept: &Kept,
        outputs: &mut [TierRows],
        progress: &(dyn Fn(&LevelStats) + Sync),
    ) -> Result<u64, TableError> {
        let project_start = Instant::now();
        // Only the widest tier is filled from the cosets (one read-modify-write per coset, in a
        // row buffer of at most 1.15 MB that stays in L2); the others are folded from it.
        let widest = outputs
            .iter()
            .map(|o| o.n_flips)
            .max()
            .expect("a pass writes a tier");
        let n_rows = self.search.n_rows();
        let mut at_streamed = 0u64;
        for start in (0..n_rows).step_by(BATCH_ROWS) {
            let end = (start + BATCH_ROWS).min(n_rows);
            let batch: Vec<(Vec<Vec<u8>>, u64)> = (start..end)
                .into_par_iter()
                .map_init(
                    || self.search.work(),
                    |work, r| {
                        let (row, n_streamed) = self.widest_row(kept, r, widest, work);
                        let rows = outputs
                            .iter()
                            .map(|o| fold(&row, widest, o.n_flips))
                            .collect();
                        (rows, n_streamed)
                    },
                )
                .collect();
            at_streamed += write_rows(outputs, batch)?;
        }
        progress(&LevelStats {
            depth: (self.last_kept() + 1) as u8,
            direction: Direction::Forward,
            entries: at_streamed,
            unassigned: self.n_entries() - kept.reached - at_streamed,
            elapsed: project_start.elapsed(),
        });
        Ok(at_streamed)
    }

    /// Row `r` of the tier keeping `widest` flips, and the cosets of the row first reached at
    /// the streamed level (counted with [`Pass::count_last_level`], else 0): the cosets of the
    /// levels kept lower their entries to their codes, the children of the last level kept (the
    /// streamed level) to code 2, and each line that none reaches gets the minimum `base + 3`.
    fn widest_row(&self, kept: &Kept, r: usize, widest: u32, work: &mut Work) -> (Vec<u8>, u64) {
        let (levels, base, flips) = (&kept.levels, self.base, self.pass.flips);
        let mut row = vec![0xFF; (N_SEP << widest) * BLOCK_BYTES];
        for (depth, level) in levels.iter().enumerate() {
            let code = (depth as u8).saturating_sub(base);
            for &u in level.row(r) {
                lower(&mut row, project(u, flips, widest), code, depth as u8);
            }
        }
        let n_streamed = self.stream_row(levels, r, widest, &mut row, work);
        for line in row.chunks_exact_mut(LINE_BYTES) {
            if line[0] & 0x0F == 0x0F {
                line[0] = line[0] & 0xF0 | (base + 3);
            }
        }
        (row, n_streamed)
    }

    /// The streamed level in row `r`: the children of the last level kept lowered to code 2 in
    /// `row` (of the tier keeping `widest` flips), never stored; with
    /// [`Pass::count_last_level`], the number of them that the last two levels kept do not hold
    /// (the cosets first reached there), counted in `work`'s bitset, left cleared.
    fn stream_row(
        &self,
        levels: &[Level],
        r: usize,
        widest: u32,
        row: &mut [u8],
        work: &mut Work,
    ) -> u64 {
        let last_kept = self.last_kept();
        let (flips, streamed) = (self.pass.flips, (last_kept + 1) as u8);
        let count = self.pass.count_last_level;
        let bits = &mut work.bits;
        self.search.children(r, &levels[last_kept], |u| {
            lower(row, project(u, flips, widest), 2, streamed);
            if count {
                bits[(u >> 6) as usize] |= 1 << (u & 63);
            }
        });
        if !count {
            return 0;
        }
        for level in &levels[last_kept - 1..] {
            for &u in level.row(r) {
                bits[(u >> 6) as usize] &= !(1 << (u & 63));
            }
        }
        bits.iter_mut()
            .map(|word| u64::from(std::mem::take(word).count_ones()))
            .sum()
    }

    /// With [`Pass::count_last_level`] for h4..h7, the cosets at depth 11 against nissy-core's
    /// count; the note of a count within the tolerance.
    fn check_streamed(&self, at_streamed: u64) -> Result<Option<String>, TableError> {
        if !(self.pass.count_last_level && self.pass.expected_depths.is_none()) {
            return Ok(None);
        }
        if !near(at_streamed, H11_AT_11) {
            return Err(self.mismatch(11, at_streamed, H11_AT_11, "nissy-core's h11 counts"));
        }
        Ok(note("h11 cosets at depth 11", at_streamed, H11_AT_11))
    }

    /// Each tier's code histogram against nissy-core's; the notes of counts within the tolerance.
    fn check_codes(&self, outputs: &[TierRows]) -> Result<Vec<String>, TableError> {
        let mut notes = Vec::new();
        for (output, spec) in outputs.iter().zip(&self.specs) {
            if let Some(expected) = expected_codes(output.tier) {
                for (code, &expected) in expected.iter().enumerate() {
                    let found = output.histogram[code];
                    notes.extend(note(
                        &format!("{} entries of code {code}", output.tier),
                        found,
                        expected,
                    ));
                    if !codes_ok(output.tier, &output.histogram) {
                        let e = TableError::new(Kind::HistogramMismatch {
                            depth: code,
                            found,
                            expected,
                            against: "nissy-core's codes",
                        });
                        return Err(e.at(
                            spec.id,
                            &spec.path_in(self.pass.dir),
                            &spec.fix,
                            spec.tier,
                        ));
                    }
                }
            }
        }
        Ok(notes)
    }
}

/// Writes a batch of rows (each row's tier rows, in `outputs`' order, and its cosets at the
/// streamed level) in row order, adding each to its tier's histogram; the batch's streamed cosets.
fn write_rows(
    outputs: &mut [TierRows],
    batch: Vec<(Vec<Vec<u8>>, u64)>,
) -> Result<u64, TableError> {
    let mut at_streamed = 0;
    for (rows, n_streamed) in batch {
        at_streamed += n_streamed;
        for (output, row) in outputs.iter_mut().zip(rows) {
            let histogram = line_histogram(&row);
            for (total, n) in output.histogram.iter_mut().zip(histogram) {
                *total += n;
            }
            output.writer.write(&row)?;
        }
    }
    Ok(at_streamed)
}

/// The full check of a loaded H48 table: its payload hash and histogram ([`crate::verify()`]),
/// then its code histogram against nissy-core's (h0 exactly, h4..h7 within 1 ppm).
///
/// # Errors
///
/// The errors of [`crate::verify()`]; `HistogramMismatch` when the codes are not the published ones.
pub fn verify_table<T: AsRef<[u8]>>(table: &PruneTable<T>) -> Result<(), TableError> {
    crate::verify(table, None)?;
    let tier = table.info().tier;
    let histogram = *table.histogram();
    if let (Some(tier), Some(expected)) = (tier, tier.and_then(expected_codes))
        && !codes_ok(tier, &histogram)
    {
        let code = (0..4)
            .find(|&c| histogram[c] != expected[c])
            .expect("a code differs");
        return Err(table.error(TableError::new(Kind::HistogramMismatch {
            depth: code,
            found: histogram[code],
            expected: expected[code],
            against: "nissy-core's codes",
        })));
    }
    Ok(())
}

/// The histogram of a tier's table when it is baked and sound, with the published code histogram.
pub(super) fn baked_histogram(dir: &Path, tier: Tier) -> Result<Option<Histogram>, TableError> {
    let spec = spec_or_error(tier)?;
    let mut found = None;
    let sound = is_sound(&spec.path_in(dir), &spec, |histogram| {
        found = Some(*histogram);
        codes_ok(tier, histogram)
    });
    Ok(found.filter(|_| sound))
}

#[cfg(test)]
mod tests {
    use cube_core::{Cube, Move};
    use rand::SeedableRng;

    use super::*;

    /// The images of a coset of row `r` under `r`'s stabilizer, itself included.
    fn images(search: &Search, r: usize, u: u32) -> Vec<u32> {
        let lane = search.kernel.lane(u);
        let mut all = vec![u];
        let mut rest = search.images[r];
        while rest != 0 {
            all.push(search.kernel.image(&lane, rest.trailing_zeros() as usize));
            rest &= rest - 1;
        }
        all
    }

    /// Every transition of the search, on random cubes conjugated to their class representative,
    /// lands on the coset that the coordinate gives the cube after the move (up to the images that
    /// the table holds equal), for all kept flips.
    #[test]
    fn transitions_agree_with_the_coordinate() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let cocsep = Cocsep::get();
        for flips in [0, MAX_FLIPS] {
            let search = Search::new(flips);
            let coord = search.kernel.coord;
            let arcs = class_arcs();
            for _ in 0..2_000 {
                let cube = Cube::random(&mut rng);
                let entry = cocsep.of_cube(&cube);
                let x = entry.ttrep().conjugate(&cube);
                let (class, parts) = coord.parts(&x);
                assert_eq!(class, entry.class());
                let u = search.kernel.u_of(parts);
                // The lane of a coset is a lane of that coset.
                assert_eq!(search.kernel.image(&search.kernel.lane(u), 0), u);
                for (m, &mv) in Move::ALL.iter().enumerate() {
                    let (r, t) = arcs[class as usize * 18 + m];
                    let child = search.kernel.step(&search.kernel.lane(u), m as u8, t);
                    let (r2, parts2) = coord.parts(&x.apply_moves(&[mv]));
                    assert_eq!(r2, r);
                    let expected = search.kernel.u_of(parts2);
                    assert!(
                        images(&search, r as usize, expected).contains(&child),
                        "flips {flips}, move {mv}"
                    );
                }
            }
        }
    }

    /// Every class and every move (the random cubes above rarely reach the small, self-symmetric
    /// classes): from a cube with its corners at the class representative, the transition lands
    /// on the coordinate's coset of the cube after the move, and each stabilizer image is the
    /// coordinate of the conjugated cube.
    #[test]
    fn transitions_and_images_agree_in_every_class() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(15);
        let cocsep = Cocsep::get();
        let search = Search::new(MAX_FLIPS);
        let (kernel, coord) = (&search.kernel, search.kernel.coord);
        let arcs = class_arcs();
        for class in 0..cocsep.n_classes() as u32 {
            let corners = super::super::cocsep::cocsep_cube(cocsep.rep(class));
            for _ in 0..4 {
                let edges = Cube::random(&mut rng);
                let x = Cube::from_parts(
                    corners.corner_perm(),
                    corners.corner_ori(),
                    edges.edge_perm(),
                    edges.edge_ori(),
                )
                .unwrap();
                let (c, parts) = coord.parts(&x);
                assert_eq!(c, class);
                let u = kernel.u_of(parts);
                let lane = kernel.lane(u);
                let mut rest = search.images[class as usize];
                while rest != 0 {
                    let k = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let conjugated = cube_core::Symmetry::from_index(k).conjugate(&x);
                    let (c2, parts2) = coord.parts(&conjugated);
                    assert_eq!(c2, class);
                    assert_eq!(
                        kernel.image(&lane, k),
                        kernel.u_of(parts2),
                        "class {class}, symmetry {k}"
                    );
                }
                for (m, &mv) in Move::ALL.iter().enumerate() {
                    let (r, t) = arcs[class as usize * 18 + m];
                    let child = kernel.step(&lane, m as u8, t);
                    let (r2, parts2) = coord.parts(&x.apply_moves(&[mv]));
                    assert_eq!(r2, r);
                    assert!(
                        images(&search, r as usize, kernel.u_of(parts2)).contains(&child),
                        "class {class}, move {mv}"
                    );
                }
            }
        }
    }

    #[test]
    fn min2_is_the_least_of_each_field() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(13);
        for _ in 0..10_000 {
            let (a, b): (u64, u64) = (rand::Rng::random(&mut rng), rand::Rng::random(&mut rng));
            let m = min2(a, b);
            for f in 0..32 {
                assert_eq!(m >> (2 * f) & 3, (a >> (2 * f) & 3).min(b >> (2 * f) & 3));
            }
        }
    }

    /// Folding the widest row gives what filling the narrower row from the cosets gives.
    #[test]
    fn folding_equals_projecting() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(14);
        let coord11 = Coordinate::new(11);
        let mut wide = vec![0xFF; (N_SEP << 7) * BLOCK_BYTES];
        let mut narrow = vec![0xFF; (N_SEP << 4) * BLOCK_BYTES];
        for _ in 0..200_000 {
            let u = coord11.layout(0, coord11.parts(&Cube::random(&mut rng)).1) as u32;
            let depth: u8 = rand::Rng::random_range(&mut rng, 6..12);
            let code = depth.saturating_sub(9);
            lower(&mut wide, project(u, 11, 7), code, depth);
            lower(&mut narrow, project(u, 11, 4), code, depth);
        }
        assert_eq!(fold(&wide, 7, 4), narrow);
        assert_eq!(fold(&wide, 7, 7), wide);
    }

    #[test]
    fn projection_keeps_the_top_flips() {
        let coord11 = Coordinate::new(11);
        let mut rng = rand::rngs::StdRng::seed_from_u64(12);
        for _ in 0..1_000 {
            let cube = Cube::random(&mut rng);
            let (class, parts) = coord11.parts(&cube);
            let u = coord11.layout(0, parts) as u32;
            for to in [0, 4, 5, 6, 7, 11] {
                let coord = Coordinate::new(to);
                assert_eq!(
                    project(u, 11, to) + coord.layout(class, parts) - coord.layout(0, parts),
                    coord.layout(class, parts)
                );
                assert_eq!(project(u, 11, to), coord.layout(0, parts));
            }
        }
    }
}

#[cfg(test)]
mod speed {
    use super::*;
    use rand::SeedableRng;

    /// The transition kernel alone: the lane of a coset built once, then its 18 children
    /// (docs/perf-log/bakes.md, the h4..h7 bake).
    #[test]
    #[ignore = "timing"]
    fn transition_speed() {
        let search = Search::new(MAX_FLIPS);
        let coord = search.kernel.coord;
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let us: Vec<u32> = (0..1 << 20)
            .map(|_| search.kernel.u_of(coord.parts(&Cube::random(&mut rng)).1))
            .collect();
        let start = Instant::now();
        let mut acc = 0u32;
        for &u in &us {
            let lane = search.kernel.lane(u);
            for m in 0..18u8 {
                acc = acc.wrapping_add(search.kernel.step(&lane, m, m));
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (us.len() * 18) as f64;
        eprintln!("{ns:.2} ns per transition (checksum {acc})");
    }
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

/// The class graph: `arcs[c * 18 + m]` is the class of class `c`'s representative after move `m`
/// (in [`Move::ALL`] order) and the index of the symmetry that conjugates it to its representative.
fn class_arcs() -> Vec<(u32, u8)> {
    let cocsep = Cocsep::get();
    (0..cocsep.n_classes() as u32)
        .flat_map(|c| {
            Move::ALL.map(|m| {
                let entry = cocsep.entry(cocsep.apply(cocsep.rep(c), m));
                (entry.class(), entry.ttrep_index() as u8)
            })
        })
        .collect()
}
