//! The temporary files this process has open: an [`AtomicFile`](crate::AtomicFile)'s bytes
//! before their rename, a bake's scratch file. Their owners remove them when dropped, but a
//! signal that ends the process runs no destructor; a program's signal handler calls
//! [`remove_temporary_files`] before it exits, so that an interrupted bake leaves nothing behind.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The live temporary files, by registration number.
static LIVE: Mutex<BTreeMap<u64, PathBuf>> = Mutex::new(BTreeMap::new());

/// The next registration number.
static NEXT: AtomicU64 = AtomicU64::new(0);

fn live() -> std::sync::MutexGuard<'static, BTreeMap<u64, PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A temporary file known to [`remove_temporary_files`] for as long as this lives.
#[derive(Debug)]
pub(crate) struct Registered(u64);

impl Registered {
    /// Makes `path` known until the returned value is dropped.
    pub(crate) fn new(path: &Path) -> Registered {
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        live().insert(id, path.to_path_buf());
        Registered(id)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        live().remove(&self.0);
    }
}

/// Removes every temporary file this process has open (the bytes of tables, caches and
/// checkpoints not yet renamed into place, the scratch files of bakes) and returns how many it
/// removed. For a signal handler that ends the process next: whatever was writing them fails from
/// then on.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let mut file = cube_tables::AtomicFile::create(&dir.path().join("t.tbl"))?;
/// std::io::Write::write_all(&mut file, b"half a table")?;
/// assert_eq!(cube_tables::remove_temporary_files(), 1);
/// assert_eq!(std::fs::read_dir(dir.path())?.count(), 0);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn remove_temporary_files() -> usize {
    let paths: Vec<PathBuf> = std::mem::take(&mut *live()).into_values().collect();
    paths
        .iter()
        .filter(|path| std::fs::remove_file(path).is_ok())
        .count()
}
