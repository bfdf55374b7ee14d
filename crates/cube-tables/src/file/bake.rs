//! The plumbing every bake shares, whatever its table: the levels of a breadth-first search
//! ([`LevelStats`]), what a bake did ([`BakeReport`]), its skip test ([`is_sound`]), the free-space
//! check and the scratch file.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::file::error::{Kind, TableError};
use crate::file::format::Histogram;
use crate::file::id::TableSpec;
use crate::file::mmap::Scratch;
use crate::file::table::{check_payload, open_checked};

/// Which pass a level ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the frontier to its unassigned neighbours.
    Forward,
    /// From each unassigned entry to a neighbour on the frontier.
    Backward,
}

/// What one level of the search did.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelStats {
    /// The depth of the entries found, `d + 1`.
    pub depth: u8,
    /// The pass that found them.
    pub direction: Direction,
    /// How many entries are at `depth`.
    pub entries: u64,
    /// How many entries are still unassigned after the level.
    pub unassigned: u64,
    /// Wall time of the pass and the scan after it.
    pub elapsed: Duration,
}

impl LevelStats {
    /// Entries found per second.
    pub fn rate(&self) -> f64 {
        self.entries as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// One line of a bake's log: `depth  9 backward   41432716 entries    0.36 s    115.1 M entries/s
/// 15231112 left`.
impl std::fmt::Display for LevelStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let direction = match self.direction {
            Direction::Forward => "forward",
            Direction::Backward => "backward",
        };
        write!(
            f,
            "depth {:>2} {direction:<8} {:>14} entries {:>7.2} s {:>8.1} M entries/s {:>14} left",
            self.depth,
            self.entries,
            self.elapsed.as_secs_f64(),
            self.rate() / 1e6,
            self.unassigned,
        )
    }
}

/// What one bake did (of a pattern database, an H48 table or an nx table).
#[derive(Clone, Debug)]
pub struct BakeReport {
    /// The table file.
    pub path: PathBuf,
    /// Whether the table was already baked and valid.
    pub skipped: bool,
    /// One line per level of the search.
    pub levels: Vec<LevelStats>,
    /// The entries per depth.
    pub histogram: Histogram,
    /// Time of the search (all levels).
    pub search_time: Duration,
    /// Time of the final scan, packing and writing.
    pub write_time: Duration,
    /// Counts that differ from the published ones within the tolerance of the checks (h11 and
    /// h4..h7 against nissy-core's), one sentence each; none for a pattern database.
    pub notes: Vec<String>,
}

impl BakeReport {
    /// The report of a table found baked and sound, with the `histogram` of its header.
    pub(crate) fn skipped(path: PathBuf, histogram: Histogram) -> BakeReport {
        BakeReport {
            path,
            skipped: true,
            levels: Vec::new(),
            histogram,
            search_time: Duration::ZERO,
            write_time: Duration::ZERO,
            notes: Vec::new(),
        }
    }
}

/// Whether `path` holds a table of `spec` with a good header, a histogram that `histogram_ok`
/// accepts and a sound payload: the stamp of a full check that still names this file, or else a
/// hash of the payload now (which then writes the stamp). A corrupt table is therefore baked
/// again, not skipped. Every bake's skip test.
pub(crate) fn is_sound(
    path: &Path,
    spec: &TableSpec,
    histogram_ok: impl FnOnce(&Histogram) -> bool,
) -> bool {
    let Ok((file, info)) = open_checked(path, spec) else {
        return false;
    };
    if !histogram_ok(&info.histogram) {
        return false;
    }
    if crate::file::stamp::checked_at(path).is_some() {
        return true;
    }
    let opened = crate::file::stamp::Identity::of_file(&file, info.payload_hash);
    // A stamp that cannot be written only costs the next run another hash.
    check_payload(&file, &info).is_ok() && {
        let _ = crate::file::stamp::stamp_if_unchanged(path, opened.as_ref());
        true
    }
}

/// Refuses a bake that needs more than the free space of `dir` (Unix; elsewhere the allocation of the
/// scratch is the check).
pub(crate) fn check_free_space(dir: &Path, needed: u64) -> Result<(), TableError> {
    #[cfg(test)]
    let available = tests::FREE_SPACE.get();
    #[cfg(not(test))]
    let available = free_space(dir);
    match available {
        Some(available) if available < needed => {
            Err(TableError::new(Kind::NoSpace { needed, available }).with_path(dir))
        }
        _ => Ok(()),
    }
}

/// The bytes that an unprivileged process may still write in `dir`, when the system says.
#[cfg(all(unix, not(test)))]
fn free_space(dir: &Path) -> Option<u64> {
    let stat = rustix::fs::statvfs(dir).ok()?;
    Some(stat.f_bavail.saturating_mul(stat.f_frsize))
}

#[cfg(all(not(unix), not(test)))]
fn free_space(_dir: &Path) -> Option<u64> {
    None
}

/// A zeroed scratch file of `len` bytes at `path`, truncating whatever a killed bake left there.
#[allow(unsafe_code)]
pub(crate) fn file_scratch(path: &Path, len: usize) -> Result<Scratch, TableError> {
    // SAFETY: the caller holds the directory's bake lock, so no other bake maps or truncates the
    // scratch file, and nothing else in the workspace opens `<id>.scratch`.
    unsafe { Scratch::file_backed(path, len) }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::cell::Cell;
    use std::path::Path;

    use crate::file::error::{TableError, TableErrorKind};

    thread_local! {
        /// The free space that this thread's bakes see, instead of `statvfs` (`None`: plenty).
        pub(crate) static FREE_SPACE: Cell<Option<u64>> = const { Cell::new(None) };
    }

    /// Asserts that `err` refuses a bake into `dir` for want of space, with the `figures` ("N MiB
    /// free, the bake needs M MiB"), the directory, and the fix it ends with.
    pub(crate) fn assert_no_space(err: &TableError, dir: &Path, figures: &str, fix: &str) {
        assert_eq!(err.kind(), TableErrorKind::NoSpace, "{err}");
        let message = err.to_string();
        assert!(message.contains(figures), "{message}");
        assert!(message.contains(&dir.display().to_string()), "{message}");
        assert!(message.ends_with(fix), "{message}");
    }
}
