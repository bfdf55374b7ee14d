//! Baking a pattern database: breadth-first search over a byte-per-entry scratch, exact final scan,
//! nibble packing, atomic write.
//!
//! A bake holds the directory's writers' lock (`<dir>/.bake.lock`, `lock.rs`) for its whole run, so
//! two bakes never share the scratch file `<dir>/<id>.scratch`; readers of other tables are not
//! held up (the read lock is taken exclusively only to rename the finished table into place). Before it starts, it compares the free space of the directory
//! with the scratch and the table it will write, and refuses with both figures; the scratch file's
//! blocks are then allocated for real, so a full disk is an error, never a `SIGBUS` in the search. The
//! scratch is removed on every path: when the bake ends (written, skipped or failed) and, for one a
//! killed bake left, when the next bake of the table starts. A finished bake stamps the table as
//! checked (`stamp.rs`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::file::bake::{BakeReport, LevelStats, check_free_space, file_scratch, is_sound};
use crate::file::error::{Kind, TableError};
use crate::file::format::HEADER_LEN;
use crate::file::format::{HISTOGRAM_LEN, Histogram};
use crate::file::id::{Encoding, Tier};
use crate::file::lock::BakeLock;
use crate::file::mmap::Scratch;
use crate::file::nibble::pack_nibbles_into;
use crate::file::store::{TableWriter, write_table_under};
use crate::pdb::bfs::{self, CornerSpace, EdgeSpace, SearchOptions};
use crate::pdb::bitmap;
use crate::pdb::index::{CornerMoves, EdgeMoveMaps};
use crate::pdb::{CORNERS, Pdb, Projection, edge_tables};
use crate::tier::family::{BakeOptions, ScratchKind};

/// The default switch of the corner search (bytes): backward once fewer entries are unassigned than
/// the frontier holds. Measured on the 7edge bake: at depth 10 (15.2 M unassigned, 45.4 M frontier)
/// backward takes 0.36 s where forward takes over 1 s.
pub const CORNER_BACKWARD_FACTOR: f64 = 1.0;

/// The default switch of the edge searches (bitmaps): a backward pass costs a few word operations per
/// block and move and no locked instruction, so it pays long before the unassigned entries are fewer
/// than the frontier. Measured on korf-edges-7a (2 busy cores): depth 7 (506 M unassigned, 4.5 M frontier,
/// ratio 113) takes 2.9 s backward and 3.1 s forward; depth 8 3.1 s against 4.6 s; depth 9 3.1 s against
/// 4.4 s; depth 6 (ratio 1180) would visit all 4 M blocks backward and takes 1.0 s forward.
pub const EDGE_BACKWARD_FACTOR: f64 = 100.0;

/// What a bake reports while it runs.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// The table is present and valid; nothing to do.
    Skipped {
        /// The table.
        table: &'a Pdb,
        /// Its file.
        path: &'a Path,
    },
    /// The search starts.
    Started {
        /// The table.
        table: &'a Pdb,
    },
    /// Part of a level is done.
    Work {
        /// The table.
        table: &'a Pdb,
        /// The depth being found.
        depth: u8,
        /// Blocks done in this pass.
        done: u64,
        /// Blocks in this pass.
        total: u64,
    },
    /// A level is done.
    Level {
        /// The table.
        table: &'a Pdb,
        /// What the level did.
        stats: &'a LevelStats,
    },
    /// The search is done and checked; packing and writing start.
    Writing {
        /// The table.
        table: &'a Pdb,
    },
    /// The table is written.
    Written {
        /// The table.
        table: &'a Pdb,
        /// What the bake did.
        report: &'a BakeReport,
    },
}

/// The one-line text of an event, as both binaries show it (a progress bar's message, a line of the
/// log): `korf-edges-7a: written to /t/korf-edges-7a.v1.tbl (search 41.20 s, check + pack + write
/// 1.31 s)`.
impl std::fmt::Display for Event<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Skipped { table, path } => write!(
                f,
                "{}: baked and valid at {}, skipped",
                table.id(),
                path.display()
            ),
            Event::Started { table } => {
                write!(f, "{}: searching {} entries", table.id(), table.n_entries())
            }
            Event::Work {
                table,
                depth,
                done,
                total,
            } => write!(
                f,
                "{} depth {depth}: {}%",
                table.id(),
                done * 100 / (*total).max(1)
            ),
            Event::Level { table, stats } => write!(f, "{:>14} {stats}", table.id().as_str()),
            Event::Writing { table } => write!(f, "{}: checking, packing, writing", table.id()),
            Event::Written { table, report } => write!(
                f,
                "{}: written to {} (search {:.2} s, check + pack + write {:.2} s)",
                table.id(),
                report.path.display(),
                report.search_time.as_secs_f64(),
                report.write_time.as_secs_f64()
            ),
        }
    }
}

/// Bakes the three tables of `tier` (the corners first) into `dir`, skipping those baked and valid.
///
/// # Errors
///
/// The errors of [`bake`].
pub fn bake_tier(
    dir: &Path,
    tier: Tier,
    options: &BakeOptions,
    progress: &(dyn Fn(&Event<'_>) + Sync),
) -> Result<Vec<BakeReport>, TableError> {
    std::iter::once(&CORNERS)
        .chain(edge_tables(tier))
        .map(|table| bake(dir, table, options, progress))
        .collect()
}

/// Bakes `table` into `dir`, unless a valid one is there (see [`BakeOptions::force`]).
///
/// A table is valid for this check when its header passes the constant-time checks of `open` and its
/// histogram is the published one; `verify_table` checks the payload. The steps: take the directory's
/// writers' lock, skip a valid table (`begin`), allocate the scratch, run the levels, check the
/// histogram, write; the one lock is held throughout.
///
/// # Errors
///
/// - `Locked` when another bake or clean of the directory is running.
/// - `Io` when the directory, the scratch file or the table cannot be created or written.
/// - `HistogramMismatch` when the search finds another histogram than the published one (a bug; nothing is
///   written).
pub fn bake(
    dir: &Path,
    table: &Pdb,
    options: &BakeOptions,
    progress: &(dyn Fn(&Event<'_>) + Sync),
) -> Result<BakeReport, TableError> {
    let lock = lock(dir, table, options)?;
    bake_under(&lock, table, options, progress)
}

/// Takes the writers' lock of `dir` for the bake of `table` (the error names the table).
///
/// # Errors
///
/// The errors of [`BakeLock::acquire`].
pub(crate) fn lock(dir: &Path, table: &Pdb, options: &BakeOptions) -> Result<BakeLock, TableError> {
    let spec = &table.spec;
    BakeLock::acquire(dir, options.wait_for_lock)
        .map_err(|e| e.at(spec.id, dir, &spec.fix, spec.tier))
}

/// [`bake()`] under `lock`, the writers' lock of the table directory, which the caller holds for
/// as many bakes as it runs.
///
/// # Errors
///
/// As [`bake()`], `Locked` aside.
pub(crate) fn bake_under(
    lock: &BakeLock,
    table: &Pdb,
    options: &BakeOptions,
    progress: &(dyn Fn(&Event<'_>) + Sync),
) -> Result<BakeReport, TableError> {
    let dir = lock.dir();
    let spec = &table.spec;
    let at = |e: TableError, file: &Path| e.at(spec.id, file, &spec.fix, spec.tier);
    let scratch_path = match begin(dir, table, options) {
        Begun::Skipped(path) => {
            progress(&Event::Skipped { table, path: &path });
            let histogram = table.expected_histogram().unwrap_or([0; HISTOGRAM_LEN]);
            return Ok(BakeReport::skipped(path, histogram));
        }
        Begun::Bake { scratch_path } => scratch_path,
    };
    let mut cells = scratch(dir, table, options, &scratch_path)?;

    progress(&Event::Started { table });
    let start = Instant::now();
    let (counts, levels) =
        run_levels(table, options, &mut cells, progress).map_err(|e| at(e, &scratch_path))?;
    let search_time = start.elapsed();

    progress(&Event::Writing { table });
    let write_start = Instant::now();
    let histogram =
        check_histogram(table, &cells, &counts).map_err(|e| at(e, &spec.path_in(dir)))?;
    let path = write(lock, table, &cells, &histogram)?;
    drop(cells);
    // The payload was hashed from the very bytes whose histogram was checked above.
    // A stamp that cannot be written only costs a later status report its "checked" date.
    let _ = crate::file::stamp::write_stamp(&path);
    let report = BakeReport {
        path,
        skipped: false,
        levels,
        histogram,
        search_time,
        write_time: write_start.elapsed(),
        notes: Vec::new(),
    };
    progress(&Event::Written {
        table,
        report: &report,
    });
    Ok(report)
}

/// How a bake begins: with nothing to do, or with the scratch path cleared.
enum Begun {
    /// The table at this path is baked and valid.
    Skipped(PathBuf),
    /// The bake goes on; `scratch_path` is where its scratch file goes.
    Bake { scratch_path: PathBuf },
}

/// Removes a killed bake's scratch and says whether the bake is needed; the caller holds the
/// writers' lock of `dir`.
fn begin(dir: &Path, table: &Pdb, options: &BakeOptions) -> Begun {
    let spec = &table.spec;
    let scratch_path = dir.join(format!("{}.scratch", spec.id));
    // We hold the bake lock: a scratch file here is left by a killed bake, and is of no use now.
    let _ = std::fs::remove_file(&scratch_path);
    let path = spec.path_in(dir);
    if !options.force && is_baked(&path, table) {
        return Begun::Skipped(path);
    }
    Begun::Bake { scratch_path }
}

/// The search's scratch, after the free-space check: bytes per entry for the corners (packed at the
/// end), the payload's nibbles for the edge tables (their bitmaps write into it).
fn scratch(
    dir: &Path,
    table: &Pdb,
    options: &BakeOptions,
    scratch_path: &Path,
) -> Result<Scratch, TableError> {
    let spec = &table.spec;
    let at = |e: TableError, file: &Path| e.at(spec.id, file, &spec.fix, spec.tier);
    let n_entries = table.n_entries();
    let scratch_len = match &table.projection {
        Projection::Corners => n_entries,
        Projection::Edges(_) => n_entries.div_ceil(2),
    };
    // The scratch and the new table file (its temporary name) are on disk together at the end.
    let needed = spec.payload_len()
        + HEADER_LEN as u64
        + match options.scratch {
            ScratchKind::File => scratch_len as u64,
            ScratchKind::Memory => 0,
        };
    check_free_space(dir, needed).map_err(|e| at(e, dir))?;
    match options.scratch {
        ScratchKind::File => file_scratch(scratch_path, scratch_len),
        ScratchKind::Memory => Scratch::anonymous(scratch_len),
    }
    .map_err(|e| at(e, scratch_path))
}

/// Runs the levels of the search over `cells`; the entries per depth and the log of the levels.
fn run_levels(
    table: &Pdb,
    options: &BakeOptions,
    cells: &mut [u8],
    progress: &(dyn Fn(&Event<'_>) + Sync),
) -> Result<(Vec<u64>, Vec<LevelStats>), TableError> {
    let levels = std::sync::Mutex::new(Vec::new());
    let on_level = |stats: &LevelStats| {
        levels
            .lock()
            .expect("the level log is never poisoned")
            .push(stats.clone());
        progress(&Event::Level { table, stats });
    };
    let on_work = |depth, done, total| {
        progress(&Event::Work {
            table,
            depth,
            done,
            total,
        });
    };
    let backward_factor = options.backward_factor.unwrap_or(match table.projection {
        Projection::Corners => CORNER_BACKWARD_FACTOR,
        Projection::Edges(_) => EDGE_BACKWARD_FACTOR,
    });
    let search_options = SearchOptions {
        backward_factor,
        on_level: &on_level,
        on_work: &on_work,
    };
    let counts = match &table.projection {
        Projection::Corners => bfs::search(
            &CornerSpace {
                tables: CornerMoves::get(),
            },
            cells,
            &search_options,
        ),
        Projection::Edges(subset) => {
            let maps = EdgeMoveMaps::get().clone();
            let pieces = subset.pieces();
            match subset.n_edges() {
                6 => bitmap::search::<_, 1>(&edge_space::<6>(maps, pieces), cells, &search_options),
                7 => bitmap::search::<_, 2>(&edge_space::<7>(maps, pieces), cells, &search_options),
                8 => bitmap::search::<_, 4>(&edge_space::<8>(maps, pieces), cells, &search_options),
                n => {
                    let what = format!("edge pattern databases have 6, 7 or 8 edges, not {n}");
                    Err(TableError::new(Kind::InvalidInput { what }))
                }
            }?
        }
    }
    .map_err(|depth| {
        let what = format!(
            "the search found no entries at depth {depth} while some are unassigned: the space is not connected"
        );
        TableError::new(Kind::InvalidInput { what })
    })?;
    let levels = levels
        .into_inner()
        .expect("the level log is never poisoned");
    Ok((counts, levels))
}

/// The exact final scan: every entry assigned, and the histogram is the level counts and the
/// published one. Returns the histogram.
fn check_histogram(table: &Pdb, cells: &[u8], counts: &[u64]) -> Result<Histogram, TableError> {
    let encoding = match &table.projection {
        Projection::Corners => Encoding::Byte,
        Projection::Edges(_) => Encoding::Nibble,
    };
    let histogram = crate::file::histogram::histogram(cells, encoding, table.n_entries() as u64);
    let mut from_levels = [0u64; HISTOGRAM_LEN];
    from_levels[..counts.len()].copy_from_slice(counts);
    let mismatch = |found: &Histogram, expected: &Histogram, against| {
        (0..HISTOGRAM_LEN)
            .find(|&d| found[d] != expected[d])
            .map(|depth| {
                TableError::new(Kind::HistogramMismatch {
                    depth,
                    found: found[depth],
                    expected: expected[depth],
                    against,
                })
            })
    };
    if let Some(e) = mismatch(&histogram, &from_levels, "the search's level counts") {
        return Err(e);
    }
    if histogram[16..].iter().any(|&n| n != 0) {
        let what = "an entry of 16 or more does not fit in a nibble".to_string();
        return Err(TableError::new(Kind::InvalidInput { what }));
    }
    if let Some(expected) = table.expected_histogram()
        && let Some(e) = mismatch(&histogram, &expected, "the published histogram")
    {
        return Err(e);
    }
    Ok(histogram)
}

/// Writes the checked search under `lock`: the corners packed into nibbles batch by batch, the edge
/// tables straight from the scratch (already their payload). Returns the table's path.
fn write(
    lock: &BakeLock,
    table: &Pdb,
    cells: &[u8],
    histogram: &Histogram,
) -> Result<PathBuf, TableError> {
    let spec = &table.spec;
    match &table.projection {
        Projection::Corners => {
            let mut writer = TableWriter::create_under(lock, spec)?;
            let mut packed = vec![0u8; PACK_BATCH / 2];
            for batch in cells.chunks(PACK_BATCH) {
                let out = &mut packed[..batch.len().div_ceil(2)];
                pack_nibbles_into(batch, out);
                writer.write(out)?;
            }
            writer.finish(histogram)
        }
        Projection::Edges(_) => write_table_under(lock, spec, histogram, cells),
    }
}

/// Bytes of scratch packed per batch (an even number, so batches split no nibble pair).
const PACK_BATCH: usize = 64 << 20;

fn edge_space<const K: usize>(maps: EdgeMoveMaps, pieces: &[u8]) -> EdgeSpace<K> {
    EdgeSpace {
        maps,
        goal: std::array::from_fn(|j| pieces[j]),
    }
}

/// Whether `path` holds `table` with a good header, the published histogram and a sound payload
/// (see [`is_sound`]).
fn is_baked(path: &Path, table: &Pdb) -> bool {
    let expected = table.expected_histogram();
    is_sound(path, &table.spec, |histogram| {
        expected.is_none_or(|expected| *histogram == expected)
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::TableErrorKind;
    use crate::pdb::CORNERS;

    fn no_scratch_left(dir: &Path) {
        let names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.contains("scratch") || name.ends_with(".tmp"))
            .collect();
        assert!(names.is_empty(), "left behind: {names:?}");
    }

    /// The shared text of a level is the line xtask's log wrote before it moved here (its format
    /// string, kept in this test), so that logs stay comparable.
    #[test]
    fn a_level_reads_as_the_log_line() {
        let stats = LevelStats {
            depth: 9,
            direction: crate::file::bake::Direction::Backward,
            entries: 41_432_716,
            unassigned: 15_231_112,
            elapsed: std::time::Duration::from_millis(360),
        };
        let old = format!(
            "{:>14} depth {:>2} {:<8} {:>14} entries {:>7.2} s {:>8.1} M entries/s {:>14} left",
            CORNERS.id().to_string(),
            stats.depth,
            "backward",
            stats.entries,
            stats.elapsed.as_secs_f64(),
            stats.rate() / 1e6,
            stats.unassigned,
        );
        let event = Event::Level {
            table: &CORNERS,
            stats: &stats,
        };
        assert_eq!(event.to_string(), old);
    }

    /// See issue 15: a bake into a nearly full file system is refused up front, with the figures.
    #[test]
    fn too_little_free_space_is_refused_up_front() {
        let dir = tempfile::tempdir().unwrap();
        crate::file::bake::tests::FREE_SPACE.set(Some(50 << 20));
        let err = bake(dir.path(), &CORNERS, &BakeOptions::default(), &|_| {}).unwrap_err();
        crate::file::bake::tests::FREE_SPACE.set(None);
        crate::file::bake::tests::assert_no_space(
            &err,
            dir.path(),
            "50 MiB free, the bake needs 127 MiB",
            " re-run cube_tables::tier::bake for tier 6edge (any tier bakes the corners))",
        );
        no_scratch_left(dir.path());
    }

    /// See issue 15: ENOSPC while allocating the scratch is an error (not a SIGBUS later), and the
    /// scratch file goes, as does a stale one from a killed bake.
    #[test]
    fn a_full_disk_while_allocating_is_an_error_and_leaves_no_scratch() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("korf-corners.scratch"), b"killed bake").unwrap();
        crate::file::mmap::tests::FAIL_ALLOCATION.set(true);
        let err = bake(dir.path(), &CORNERS, &BakeOptions::default(), &|_| {}).unwrap_err();
        crate::file::mmap::tests::FAIL_ALLOCATION.set(false);
        assert_eq!(err.kind(), TableErrorKind::Io, "{err}");
        let message = err.to_string();
        assert!(message.contains("allocating the scratch file"), "{message}");
        assert!(
            message.ends_with(
                "(free some disk space, then re-run cube_tables::tier::bake for tier 6edge (any tier bakes the corners))"
            ),
            "{message}"
        );
        no_scratch_left(dir.path());
    }
}
