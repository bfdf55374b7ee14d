//! Writing table files: atomically, under the directory's lock, never leaving a half-written file at
//! the final name.
//!
//! Every writer follows the same steps:
//!
//! 1. Create the directory and take its writers' lock, [`BakeLock`] (`<dir>/.bake.lock`, see
//!    `lock.rs`), failing at once or waiting as [`WriteOptions::wait_for_lock`] says; a bake that
//!    already holds it passes it in (`write_table_under`, `TableWriter::create_under`). A second writer
//!    gets [`TableErrorKind::Locked`](crate::TableErrorKind::Locked).
//! 2. Remove the temporary files of this table that killed writers left (the lock says no one else is
//!    writing it), then write the header and the payload to a new [`AtomicFile`]
//!    (`.<name>.<pid>-<n>.tmp`, never an existing file).
//! 3. Commit it: `fsync` the file, and under the read lock held exclusively (no reader is between the
//!    opens of a tier), rename it to `<name>` and `fsync` the directory.
//!
//! On any error the temporary file is removed. A writer killed half-way leaves only its temporary file,
//! which no loader ever opens and the next writer of the table removes.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::file::atomic::AtomicFile;
use crate::file::error::{Kind, TableError};
use crate::file::format::{HEADER_LEN, Header, Histogram};
use crate::file::hash::{CHUNK_LEN, StreamHash, payload_hash};
use crate::file::id::TableSpec;
use crate::file::lock::BakeLock;

/// Options for [`write_table`] and [`TableWriter`].
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    wait_for_lock: bool,
}

impl WriteOptions {
    /// The default options: fail with `Locked` when another bake or clean of the directory is running.
    pub fn new() -> WriteOptions {
        WriteOptions::default()
    }

    /// Whether to wait for another bake or clean of the directory to finish rather than fail with
    /// `Locked`.
    pub fn wait_for_lock(mut self, yes: bool) -> WriteOptions {
        self.wait_for_lock = yes;
        self
    }
}

/// Writes the table `spec` with the given payload and histogram to `dir`, atomically.
///
/// Returns the path of the new file, `dir/<table-id>.v<FORMAT_VERSION>.tbl`. The payload hash is computed
/// here, in parallel. `payload` may be a `Vec`, a [`NibbleTable`](crate::NibbleTable)'s bytes or a
/// [`Scratch`](crate::Scratch) map; it is written straight from there.
///
/// # Errors
///
/// - `InvalidInput` when `payload` is not `spec.payload_len()` bytes long or `histogram` does not sum to
///   `spec.n_entries`.
/// - `Locked` when another bake or clean of the directory holds its lock.
/// - `Io` when creating, writing, syncing or renaming fails (a full disk, say); the temporary file is removed.
pub fn write_table(
    dir: &Path,
    spec: &TableSpec,
    histogram: &Histogram,
    payload: &[u8],
    options: &WriteOptions,
) -> Result<PathBuf, TableError> {
    write_table_with(spec, histogram, payload, Lock::Take(dir, options))
}

/// [`write_table`] into the directory of `lock`, which the caller (a bake) holds.
pub(crate) fn write_table_under(
    lock: &BakeLock,
    spec: &TableSpec,
    histogram: &Histogram,
    payload: &[u8],
) -> Result<PathBuf, TableError> {
    write_table_with(spec, histogram, payload, Lock::Held(lock))
}

fn write_table_with(
    spec: &TableSpec,
    histogram: &Histogram,
    payload: &[u8],
    lock: Lock<'_>,
) -> Result<PathBuf, TableError> {
    let at = |e: TableError| e.at(spec.id, &spec.path_in(lock.dir()), &spec.fix, spec.tier);
    check_input(spec, histogram, payload.len() as u64).map_err(at)?;
    let header = Header::new(spec, histogram, payload_hash(payload));
    let mut staged = Staged::new(spec, lock)?;
    staged.write(&header.to_bytes())?;
    staged.write(payload)?;
    staged.commit(None)
}

/// How a writer holds the directory's writers' lock.
enum Lock<'a> {
    /// Take the lock of this directory for this one write, with these options.
    Take(&'a Path, &'a WriteOptions),
    /// The caller holds it.
    Held(&'a BakeLock),
}

impl Lock<'_> {
    fn dir(&self) -> &Path {
        match self {
            Lock::Take(dir, _) => dir,
            Lock::Held(lock) => lock.dir(),
        }
    }
}

/// A streaming table writer, for payloads that are produced in pieces.
///
/// The payload is written to a temporary file through a 1 MiB buffer and hashed chunk by chunk on the way;
/// [`TableWriter::finish`] writes the header and renames the file. Dropping the writer without finishing
/// removes the temporary file.
///
/// Public for generators outside the crate whose payload does not fit in memory at once (the
/// integration tests also use it to hold a directory's bake lock from outside).
///
/// ```
/// use cube_tables::{Encoding, TableId, TableSpec, TableWriter, WriteOptions};
///
/// let dir = tempfile::tempdir()?;
/// let spec = TableSpec::new(TableId::from_static("doc-stream"), Encoding::Byte, 6);
/// let mut writer = TableWriter::create(dir.path(), &spec, &WriteOptions::new())?;
/// writer.write(&[0, 1, 1])?;
/// writer.write(&[2, 2, 2])?;
/// let mut histogram = [0; 32];
/// histogram[..3].copy_from_slice(&[1, 2, 3]);
/// let path = writer.finish(&histogram)?;
/// assert!(path.ends_with("doc-stream.v1.tbl"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TableWriter {
    staged: Staged,
    spec: TableSpec,
    buf: Vec<u8>,
    hash: StreamHash,
    written: u64,
}

impl TableWriter {
    /// Takes the directory's lock and creates the temporary file for `spec` in `dir`.
    ///
    /// # Errors
    ///
    /// `Locked` when another bake or clean of the directory holds its lock, `Io` when the directory,
    /// the lock file or the temporary file cannot be created.
    pub fn create(
        dir: &Path,
        spec: &TableSpec,
        options: &WriteOptions,
    ) -> Result<TableWriter, TableError> {
        TableWriter::create_with(spec, Lock::Take(dir, options))
    }

    /// [`TableWriter::create`] in the directory of `lock`, which the caller (a bake) holds.
    pub(crate) fn create_under(
        lock: &BakeLock,
        spec: &TableSpec,
    ) -> Result<TableWriter, TableError> {
        TableWriter::create_with(spec, Lock::Held(lock))
    }

    fn create_with(spec: &TableSpec, lock: Lock<'_>) -> Result<TableWriter, TableError> {
        let mut staged = Staged::new(spec, lock)?;
        // A zeroed header until `finish`: a temporary file that is renamed by hand still never loads.
        staged.write(&[0; HEADER_LEN])?;
        Ok(TableWriter {
            staged,
            spec: *spec,
            buf: Vec::with_capacity(CHUNK_LEN),
            hash: StreamHash::default(),
            written: 0,
        })
    }

    /// Appends `bytes` to the payload.
    ///
    /// # Errors
    ///
    /// `InvalidInput` when the payload grows beyond `spec.payload_len()`; `Io` when writing fails. After an
    /// error, drop the writer: it removes the temporary file.
    pub fn write(&mut self, mut bytes: &[u8]) -> Result<(), TableError> {
        self.written += bytes.len() as u64;
        if self.written > self.spec.payload_len() {
            let what = format!(
                "payload of more than the expected {} bytes",
                self.spec.payload_len()
            );
            return Err(self
                .staged
                .error(TableError::new(Kind::InvalidInput { what })));
        }
        while !bytes.is_empty() {
            let n_taken = bytes.len().min(CHUNK_LEN - self.buf.len());
            self.buf.extend_from_slice(&bytes[..n_taken]);
            bytes = &bytes[n_taken..];
            if self.buf.len() == CHUNK_LEN {
                self.flush_chunk()?;
            }
        }
        Ok(())
    }

    fn flush_chunk(&mut self) -> Result<(), TableError> {
        self.hash.push_chunk(&self.buf);
        self.staged.write(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    /// Writes the header with `histogram`, syncs and renames the file; returns the path of the table.
    ///
    /// # Errors
    ///
    /// `InvalidInput` when fewer than `spec.payload_len()` bytes were written or `histogram` does not sum to
    /// `spec.n_entries`; `Io` when writing, syncing or renaming fails. The temporary file is then removed.
    pub fn finish(mut self, histogram: &Histogram) -> Result<PathBuf, TableError> {
        check_input(&self.spec, histogram, self.written).map_err(|e| self.staged.error(e))?;
        if !self.buf.is_empty() {
            self.flush_chunk()?;
        }
        let header = Header::new(&self.spec, histogram, self.hash.finish());
        self.staged.commit(Some(&header))
    }
}

/// Checks that a payload of `payload_len` bytes and `histogram` fit `spec`.
fn check_input(
    spec: &TableSpec,
    histogram: &Histogram,
    payload_len: u64,
) -> Result<(), TableError> {
    if payload_len != spec.payload_len() {
        let what = format!(
            "payload of {payload_len} bytes, expected {} for {} entries",
            spec.payload_len(),
            spec.n_entries
        );
        return Err(TableError::new(Kind::InvalidInput { what }));
    }
    for (buckets, expected) in spec.encoding.histogram_sums(spec.n_entries) {
        let sum = histogram[buckets.clone()]
            .iter()
            .try_fold(0u64, |sum, &n| sum.checked_add(n));
        if sum != Some(expected) {
            let what = format!("histogram buckets {buckets:?} sum to {sum:?}, expected {expected}");
            return Err(TableError::new(Kind::InvalidInput { what }));
        }
    }
    Ok(())
}

/// A table file being written under the directory's writers' lock, as an [`AtomicFile`]: removed on
/// drop unless committed.
#[derive(Debug)]
struct Staged {
    spec: TableSpec,
    file: AtomicFile,
    dir: PathBuf,
    /// The lock taken for this one write (`None` when the caller holds it); released on drop.
    _lock: Option<BakeLock>,
}

impl Staged {
    fn new(spec: &TableSpec, lock: Lock<'_>) -> Result<Staged, TableError> {
        let dir = lock.dir();
        let final_path = spec.path_in(dir);
        let at = |e: TableError, path: &Path| e.at(spec.id, path, &spec.fix, spec.tier);
        let lock = match lock {
            Lock::Take(_, options) => {
                Some(BakeLock::acquire(dir, options.wait_for_lock).map_err(|e| at(e, dir))?)
            }
            Lock::Held(_) => None,
        };
        // We hold the lock, so any temporary file of this table is left over from a killed writer.
        AtomicFile::remove_stale(&final_path);
        let file = AtomicFile::create(&final_path)
            .map_err(|e| at(TableError::io("creating the temporary file", e), dir))?;
        Ok(Staged {
            spec: *spec,
            file,
            dir: dir.to_path_buf(),
            _lock: lock,
        })
    }

    fn error(&self, e: TableError) -> TableError {
        e.at(
            self.spec.id,
            self.file.tmp_path(),
            &self.spec.fix,
            self.spec.tier,
        )
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), TableError> {
        self.file
            .write_all(bytes)
            .map_err(|e| self.error(TableError::io("writing the temporary file", e)))
    }

    /// Writes `header` at the start (if given), then commits the atomic file.
    fn commit(mut self, header: Option<&Header>) -> Result<PathBuf, TableError> {
        if let Some(header) = header {
            let file = self.file.file();
            let result = file
                .seek(SeekFrom::Start(0))
                .and_then(|_| file.write_all(&header.to_bytes()));
            result.map_err(|e| self.error(TableError::io("writing the header", e)))?;
        }
        let path = self.file.path().to_path_buf();
        let tmp_path = self.file.tmp_path().to_path_buf();
        let Staged {
            spec,
            file,
            dir,
            _lock,
        } = self;
        let at = |e: TableError| e.at(spec.id, &tmp_path, &spec.fix, spec.tier);
        // The writers' lock is held (here or by the caller), so the exclusive step is ours to take.
        crate::file::lock::exclusive(&dir, || file.commit())
            .map_err(at)?
            .map_err(|e| at(TableError::io("syncing and renaming the temporary file", e)))?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TableErrorKind;
    use crate::file::atomic::tests::FULL_DISK;
    use crate::file::id::{Encoding, TableId, Tier};

    const SPEC: TableSpec =
        TableSpec::new(TableId::from_static("unit-full"), Encoding::Nibble, 1001)
            .with_tier(Tier::Edge7);

    /// A full disk while writing (injected at the atomic file's writes): the error says so, names
    /// the temporary file and ends with the bake to re-run (issue 15), and the temporary file is
    /// removed, for the one-shot and the streaming writer.
    #[test]
    fn disk_full() {
        let dir = tempfile::tempdir().unwrap();
        let payload = vec![0x21u8; 501];
        let mut histogram = [0; 32];
        histogram[1] = 500;
        histogram[2] = 501;
        for streaming in [false, true] {
            FULL_DISK.set(true);
            let err = if streaming {
                TableWriter::create(dir.path(), &SPEC, &WriteOptions::new())
                    .and_then(|mut writer| {
                        writer.write(&payload)?;
                        writer.finish(&histogram)
                    })
                    .unwrap_err()
            } else {
                write_table(
                    dir.path(),
                    &SPEC,
                    &histogram,
                    &payload,
                    &WriteOptions::new(),
                )
                .unwrap_err()
            };
            FULL_DISK.set(false);
            assert_eq!(err.kind(), TableErrorKind::Io, "{err}");
            let tmp = err.path().unwrap().to_path_buf();
            let message = err.to_string();
            assert!(
                message.starts_with(&format!("table unit-full ({}): writing", tmp.display())),
                "{message}"
            );
            assert!(message.contains("(os error 28)"), "{message}");
            assert!(
                message.ends_with(
                    "(free some disk space, then re-run cube_tables::tier::bake for tier 7edge)"
                ),
                "{message}"
            );
            assert!(!tmp.exists(), "the temporary file is removed");
            let mut names: Vec<_> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            names.sort();
            assert_eq!(names, [".bake.lock", ".lock"]);
        }
    }
}
