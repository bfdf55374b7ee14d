//! The lock scheme of a table directory: two persistent lock files, never created and deleted per
//! table.
//!
//! - `<dir>/.bake.lock` serialises the writers of the directory: a bake (Korf, H48 or nx, forced or
//!   not), the install of a seed, the write of a cached small table, and [`clean`](crate::clean()).
//!   It is held exclusively for the whole run of a bake, so the bake owns its scratch file
//!   (`<id>.scratch`) and may remove the temporary files that killed writers left (no other writer
//!   is alive), and its free-space check is not made stale by another bake filling the same disk.
//! - `<dir>/.lock` is the read lock. Readers hold it shared while they open and read a table or a set
//!   of tables (`PruneTable::load`, `load_anonymous`, `open_mapped`, `PdbSet`, `H48Table`); a writer
//!   holds it exclusively only for the short step that changes what a reader can see: the rename of
//!   a finished table over its name, or the removal of files by a clean.
//!
//! Why two locks rather than one: a bake of h7 takes ten minutes and `cube-cli optimal` reading
//! another tier of the same directory must not wait for it, so the long part of a bake holds no lock
//! a reader takes. Why readers lock at all, given that on Unix a rename over, or an unlink of, a file
//! that a reader has open or mapped leaves the reader's file intact (the inode lives until its last
//! user closes it): a tier is several files, and without the shared lock a clean or a bake could
//! remove or replace some of them between a reader's first and last open, handing a search tables of
//! two generations, or a `Missing` for a tier that was complete when the load began; and where a
//! rename over an open file fails (Windows), the exclusive step waits for the readers instead. What
//! no lock can make safe is a change in place (truncating or writing into a file a reader has mapped
//! is a `SIGBUS` or a changed lookup): no code of the workspace does that to a table, since every
//! file is replaced through [`AtomicFile`](crate::AtomicFile) (a new inode, renamed), which never
//! truncates. The only file truncated in place is a bake's scratch, which no reader opens, under the
//! bake lock.
//!
//! The lock files are kept: a lock (`flock`) dies with the process or handle that holds it, so a
//! killed bake never blocks the next one, and deleting a lock file would race (a process that opened
//! the old file would lock a different inode from the one that opens the new name). Stamps
//! (`<name>.checked`) take no lock: they name the file they vouch for by size, time, inode and header
//! hash, so a stale one is recognised, and they are themselves replaced atomically.
//!
//! Readers never create a file: the first writer of a directory creates both lock files (with the
//! writers' lock taken, before any exclusive step), and a reader that finds no `.lock`, or cannot
//! lock it (a file system without locks), reads without it. A directory no writer of this version
//! has touched has no writer to fear, but for the one that starts during the read; the window is
//! that of a directory's first write. A lock is per open file, so two handles of one process exclude
//! each other as two processes do; no code path holds a read lock while it takes the exclusive one.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use crate::file::error::{Kind, TableError};

/// The name of the writers' lock file in a table directory.
pub(crate) const BAKE_LOCK_NAME: &str = ".bake.lock";

/// The name of the readers' lock file in a table directory.
pub const READ_LOCK_NAME: &str = ".lock";

/// The exclusive writers' lock of a table directory (`<dir>/.bake.lock`), held until dropped.
///
/// Every bake, seed install, cached-table write and clean holds it; while it is held, nothing else
/// writes into the directory.
///
/// ```
/// use cube_tables::{BakeLock, TableErrorKind};
///
/// let dir = tempfile::tempdir()?;
/// let held = BakeLock::acquire(dir.path(), false)?;
/// let err = BakeLock::acquire(dir.path(), false).unwrap_err();
/// assert_eq!(err.kind(), TableErrorKind::Locked);
/// drop(held);
/// BakeLock::acquire(dir.path(), false)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct BakeLock {
    dir: PathBuf,
    _file: File,
}

impl BakeLock {
    /// Creates `dir` if needed and takes its writers' lock: waits for the holder to finish when `wait`
    /// is set, else fails at once.
    ///
    /// # Errors
    ///
    /// `Locked` (naming the lock file) when another bake or clean holds it and `wait` is not set; `Io`
    /// when the directory or the lock file cannot be created or locked.
    pub fn acquire(dir: &Path, wait: bool) -> Result<BakeLock, TableError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| TableError::io("creating the table directory", e).with_path(dir))?;
        let path = dir.join(BAKE_LOCK_NAME);
        let file = open_lock_file(&path)
            .map_err(|e| TableError::io("opening the lock file", e).with_path(&path))?;
        if wait {
            file.lock()
                .map_err(|e| TableError::io("locking", e).with_path(&path))?;
        } else {
            file.try_lock().map_err(|e| match e {
                std::fs::TryLockError::WouldBlock => TableError::new(Kind::Locked).with_path(&path),
                std::fs::TryLockError::Error(e) => TableError::io("locking", e).with_path(&path),
            })?;
        }
        // Readers never create a file; the read lock file exists from the first writer on.
        let read_path = dir.join(READ_LOCK_NAME);
        open_lock_file(&read_path)
            .map_err(|e| TableError::io("creating the lock file", e).with_path(&read_path))?;
        Ok(BakeLock {
            dir: dir.to_path_buf(),
            _file: file,
        })
    }

    /// The directory it locks.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Runs `step` (a rename over a table, removals) while holding the read lock of `dir` exclusively,
/// so that no reader is between two opens of a set of tables. Waits for the readers present, whose
/// loads are short. Only for a caller that holds the [`BakeLock`] of `dir`.
///
/// # Errors
///
/// `Io` when the read lock file cannot be opened or locked; `step` does not run then.
pub(crate) fn exclusive<R>(dir: &Path, step: impl FnOnce() -> R) -> Result<R, TableError> {
    let path = dir.join(READ_LOCK_NAME);
    let file = open_lock_file(&path)
        .map_err(|e| TableError::io("opening the lock file", e).with_path(&path))?;
    file.lock()
        .map_err(|e| TableError::io("locking", e).with_path(&path))?;
    Ok(step())
}

/// A shared hold of the read lock of a table directory (`<dir>/.lock`), released when dropped: no
/// writer renames over or removes a file of the directory while it is held.
#[derive(Debug)]
pub(crate) struct ReadLock {
    _file: Option<File>,
}

impl ReadLock {
    /// Takes the read lock of `dir`, waiting for a writer's short exclusive step; without one when the
    /// lock file is not there, is not a regular file (opened without blocking: a FIFO in its place
    /// never hangs a reader) or cannot be locked (see the module docs).
    pub(crate) fn acquire(dir: &Path) -> ReadLock {
        let file = crate::file::open::open_regular(&dir.join(READ_LOCK_NAME))
            .ok()
            .filter(|file| file.lock_shared().is_ok());
        ReadLock { _file: file }
    }

    /// The read lock of the directory holding the file at `path`.
    pub(crate) fn of_file(path: &Path) -> ReadLock {
        ReadLock::acquire(crate::file::atomic::parent(path))
    }
}

/// Opens (creating if needed) a lock file without truncating it.
fn open_lock_file(path: &Path) -> std::io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TableErrorKind;
    use std::time::Duration;

    /// A reader waits for a writer's exclusive step, and the writer's step waits for a reader; the
    /// writers' lock does not block a reader.
    #[test]
    fn readers_and_the_exclusive_step() {
        let dir = tempfile::tempdir().unwrap();
        let bake = BakeLock::acquire(dir.path(), false).unwrap();
        // A bake in progress does not stop a reader.
        drop(ReadLock::acquire(dir.path()));
        let reader = ReadLock::acquire(dir.path());
        let step = std::thread::scope(|scope| {
            let writer = scope.spawn(|| exclusive(bake.dir(), || "replaced").unwrap());
            std::thread::sleep(Duration::from_millis(200));
            assert!(
                !writer.is_finished(),
                "the exclusive step waits for the reader"
            );
            drop(reader);
            writer.join().unwrap()
        });
        assert_eq!(step, "replaced");
        let err = BakeLock::acquire(dir.path(), false).unwrap_err();
        assert_eq!(err.kind(), TableErrorKind::Locked);
        assert_eq!(err.path(), Some(dir.path().join(".bake.lock").as_path()));
    }

    /// A read-only directory without a lock file is read without a lock.
    #[test]
    fn a_missing_directory_reads_without_a_lock() {
        let dir = tempfile::tempdir().unwrap();
        let lock = ReadLock::acquire(&dir.path().join("absent"));
        assert!(lock._file.is_none());
    }
}
