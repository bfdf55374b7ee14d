//! [`AtomicFile`]: the one way the workspace replaces a file, so that a reader sees the old file or the
//! whole new one, never a half-written one, and a crash leaves no damage at the final name.
//!
//! The steps are those of every careful writer (ripgrep has none, but `tempfile::NamedTempFile::persist`
//! and `atomicwrites` do the same): create a temporary file with a unique name in the same directory
//! (`create_new`, so it never replaces anything, least of all a user's `<stem>.tmp`), write it, `fsync`
//! it, rename it over the final name, and `fsync` the directory so that the rename survives a power cut.
//! Dropped without [`AtomicFile::commit`], it removes its temporary file.
//!
//! Table files, seeds, cached small tables, payload-check stamps and the CLI's Korf checkpoints are all
//! written through it.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::file::temporaries::Registered;

/// A file being written under a temporary name, renamed to its final name by [`AtomicFile::commit`].
///
/// ```
/// use std::io::Write;
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("state.txt");
/// let mut file = cube_tables::AtomicFile::create(&path)?;
/// file.write_all(b"done 0-17\n")?;
/// assert!(!path.exists(), "nothing at the final name before the commit");
/// file.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"done 0-17\n");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    tmp_path: PathBuf,
    /// `None` once committed.
    file: Option<File>,
    /// The temporary file, known to a signal handler's `remove_temporary_files`.
    _registered: Registered,
}

impl AtomicFile {
    /// Creates a new temporary file next to `path` (`.<name>.<pid>-<n>.tmp`), to become `path` on commit.
    ///
    /// # Errors
    ///
    /// The error of creating the file (a missing or read-only directory, say).
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let tmp_path = temporary_name(path, &format!("{}-{n}", std::process::id()));
            match OpenOptions::new()
                .write(true)
                .read(true)
                .create_new(true)
                .open(&tmp_path)
            {
                Ok(file) => {
                    return Ok(AtomicFile {
                        path: path.to_path_buf(),
                        _registered: Registered::new(&tmp_path),
                        tmp_path,
                        file: Some(file),
                    });
                }
                // Left by another process with our pid, long gone: take the next number.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary path, where the bytes are until the commit.
    pub fn tmp_path(&self) -> &Path {
        &self.tmp_path
    }

    /// The temporary file, for seeking, sizing or writing at offsets.
    pub fn file(&mut self) -> &mut File {
        self.file
            .as_mut()
            .expect("an atomic file is used before it is committed")
    }

    /// Syncs the temporary file, renames it to the final path and syncs the directory.
    ///
    /// # Errors
    ///
    /// The error of the sync or the rename; the temporary file is then removed and the final path is
    /// as it was (or, when only the directory sync failed, already the new file).
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.file.take().expect("an atomic file is committed once");
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.tmp_path, &self.path)?;
        self.tmp_path = PathBuf::new();
        sync_dir(parent(&self.path))
    }

    /// Removes the temporary files of `path` that killed writers left behind.
    ///
    /// Call it only while holding a lock that every writer of `path` takes, or a live writer's file goes.
    pub fn remove_stale(path: &Path) {
        let Some(name) = path.file_name() else {
            return;
        };
        let mut start = OsString::from(".");
        start.push(name);
        start.push(".");
        let (Some(start), Ok(entries)) = (start.to_str(), std::fs::read_dir(parent(path))) else {
            return;
        };
        for entry in entries.flatten() {
            let entry_name = entry.file_name();
            if let Some(entry_name) = entry_name.to_str()
                && entry_name.starts_with(start)
                && entry_name.ends_with(".tmp")
            {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        #[cfg(test)]
        if tests::FULL_DISK.get() {
            return Err(tests::enospc());
        }
        self.file().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        drop(self.file.take());
        if !self.tmp_path.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.tmp_path);
        }
    }
}

/// `.<name>.<tag>.tmp` in the directory of `path`.
fn temporary_name(path: &Path, tag: &str) -> PathBuf {
    let mut name = OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(".{tag}.tmp"));
    parent(path).join(name)
}

/// The directory of `path` (`.` for a bare file name).
pub(crate) fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Makes a rename in `dir` durable.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Directories cannot be opened for syncing here; the rename is as durable as the platform makes it.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use std::cell::Cell;

    use super::*;

    thread_local! {
        /// Makes every write of this thread's atomic files fail as on a full disk.
        pub(crate) static FULL_DISK: Cell<bool> = const { Cell::new(false) };
    }

    /// The error of a write to a full disk.
    pub(crate) fn enospc() -> io::Error {
        #[cfg(unix)]
        return io::Error::from_raw_os_error(rustix::io::Errno::NOSPC.raw_os_error());
        #[cfg(not(unix))]
        io::ErrorKind::StorageFull.into()
    }

    #[test]
    fn never_clobbers_and_cleans_up() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tbl");
        // A user's files with the names a careless writer would use.
        std::fs::write(dir.path().join("t.tmp"), b"mine").unwrap();
        std::fs::write(dir.path().join("t.tbl.tmp"), b"mine too").unwrap();
        let mut a = AtomicFile::create(&path).unwrap();
        let b = AtomicFile::create(&path).unwrap();
        assert_ne!(a.tmp_path(), b.tmp_path());
        a.write_all(b"new").unwrap();
        drop(b);
        a.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read(dir.path().join("t.tmp")).unwrap(), b"mine");
        assert_eq!(
            std::fs::read(dir.path().join("t.tbl.tmp")).unwrap(),
            b"mine too"
        );
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 3, "no temporary file is left: {names:?}");
    }

    #[test]
    fn stale_temporaries_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tbl");
        let stale = AtomicFile::create(&path).unwrap();
        let stale_path = stale.tmp_path().to_path_buf();
        std::mem::forget(stale);
        std::fs::write(dir.path().join(".other.tbl.1-0.tmp"), b"").unwrap();
        AtomicFile::remove_stale(&path);
        assert!(!stale_path.exists());
        assert!(dir.path().join(".other.tbl.1-0.tmp").exists());
    }
}
