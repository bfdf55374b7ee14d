//! [`PruneTable`]: one table type over owned, borrowed, anonymous-mapped and file-mapped payloads.
//!
//! Like regex-automata's `DFA<T>` with `impl<T: AsRef<[u32]>> DFA<T>` (`src/dfa/dense.rs`), the payload
//! type is a parameter: `Vec<u8>` after [`PruneTable::load`], `&[u8]` after [`PruneTable::from_bytes`],
//! [`Anonymous`](crate::Anonymous) after [`PruneTable::load_anonymous`] and [`Mapped`](crate::Mapped)
//! after [`PruneTable::open_mapped`].
//! The lookups are the same for all of them.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::file::error::{Kind, TableError};
use crate::file::format::{HEADER_LEN, Header, Histogram, TableInfo};
use crate::file::hash::{CHUNK_LEN, chunk_hash, combine, payload_hash};
use crate::file::id::{Encoding, Fix, TableId, TableSpec, Tier};
use crate::file::lines::Lines2;
use crate::file::lock::ReadLock;
use crate::file::nibble::{Nibbles, pack_nibbles_capped};
use crate::file::stamp::Identity;

/// The path of a table that was never a file.
const MEMORY: &str = "<memory>";

/// A pruning table or pattern database: one small entry (a depth, or a lower bound on it) per coordinate.
///
/// Opening checks the header and the lengths in constant time; [`verify`](crate::verify()) checks the payload.
#[derive(Clone, Debug)]
pub struct PruneTable<T> {
    info: TableInfo,
    /// Where the table came from and what to do when it is bad, for `verify`'s errors.
    path: PathBuf,
    fix: Fix,
    /// `info.n_entries` as a `usize`.
    len: usize,
    payload: T,
    /// The file as it was opened, before its payload was read: a check stamp names this version
    /// only if the file is still it when the check ends (`stamp.rs`).
    opened: Option<Identity>,
}

impl<T: AsRef<[u8]>> PruneTable<T> {
    /// Wraps a checked payload; `payload.as_ref().len()` must be `info.payload_len`.
    pub(crate) fn from_checked(
        info: TableInfo,
        payload: T,
        path: &Path,
        fix: Fix,
    ) -> Result<PruneTable<T>, TableError> {
        let len = usize::try_from(info.n_entries).map_err(|_| {
            TableError::new(Kind::LengthMismatch {
                what: format!(
                    "{} entries do not fit in this machine's address space",
                    info.n_entries
                ),
            })
        })?;
        assert_eq!(
            payload.as_ref().len() as u64,
            info.payload_len,
            "the payload length was checked"
        );
        Ok(PruneTable {
            info,
            path: path.to_path_buf(),
            fix,
            len,
            payload,
            opened: None,
        })
    }

    /// The same table over another form of the same payload bytes.
    pub(crate) fn map_payload<U: AsRef<[u8]>>(self, f: impl FnOnce(T) -> U) -> PruneTable<U> {
        let payload = f(self.payload);
        debug_assert_eq!(payload.as_ref().len() as u64, self.info.payload_len);
        PruneTable {
            info: self.info,
            path: self.path,
            fix: self.fix,
            len: self.len,
            payload,
            opened: self.opened,
        }
    }

    /// Records the version of `file` (which `info` describes) that the payload is read from.
    pub(crate) fn opened_from(self, file: &File) -> PruneTable<T> {
        let opened = Identity::of_file(file, self.info.payload_hash);
        self.with_opened(opened)
    }

    /// Records `opened` as the version of the file the payload is read from.
    pub(crate) fn with_opened(mut self, opened: Option<Identity>) -> PruneTable<T> {
        self.opened = opened;
        self
    }

    /// The version of the file the payload was read from, when it came from one.
    pub(crate) fn opened(&self) -> Option<&Identity> {
        self.opened.as_ref()
    }

    /// The entry at `index`: a value in `0..16` for [`Encoding::Nibble`], in `0..256` for [`Encoding::Byte`],
    /// the decoded value (`base + code`, or the line minimum for code 0) for [`Encoding::Line2`].
    ///
    /// # Panics
    ///
    /// When `index` is beyond the payload. In debug builds, when `index >= self.len()`.
    #[inline]
    pub fn get(&self, index: usize) -> u8 {
        debug_assert!(
            index < self.len,
            "index {index} out of range for a table of {}",
            self.len
        );
        let payload = self.payload.as_ref();
        match self.info.encoding {
            Encoding::Nibble => Nibbles::new(payload).get(index),
            Encoding::Byte => payload[index],
            Encoding::Line2 { base } => Lines2::new(payload, base).get(index),
        }
    }

    /// Asks the CPU to start loading the cache line of entry `index`, for a lookup soon after.
    ///
    /// Out of range indexes are ignored. This is a no-op on targets other than x86-64.
    #[inline]
    pub fn prefetch(&self, index: usize) {
        let payload = self.payload.as_ref();
        match self.info.encoding {
            Encoding::Nibble => Nibbles::new(payload).prefetch(index),
            Encoding::Byte => {
                if let Some(byte) = payload.get(index) {
                    crate::file::prefetch::prefetch_read(byte);
                }
            }
            Encoding::Line2 { base } => Lines2::new(payload, base).prefetch(index),
        }
    }

    /// The typed read view of a nibble-encoded table, whose `get` has no branch on the encoding (the
    /// view a search holds); `None` for another encoding.
    #[inline]
    pub fn nibbles(&self) -> Option<Nibbles<'_>> {
        (self.info.encoding == Encoding::Nibble).then(|| Nibbles::new(self.payload.as_ref()))
    }

    /// The typed read view of a 2-bit line table ([`Encoding::Line2`]), whose `get` has no branch
    /// on the encoding; `None` for another encoding.
    #[inline]
    pub fn lines(&self) -> Option<Lines2<'_>> {
        match self.info.encoding {
            Encoding::Line2 { base } => Some(Lines2::new(self.payload.as_ref(), base)),
            _ => None,
        }
    }

    /// The typed read view of a byte-encoded table (its payload, one entry per byte), whose
    /// indexing has no branch on the encoding; `None` for another encoding.
    #[inline]
    pub fn bytes(&self) -> Option<&[u8]> {
        (self.info.encoding == Encoding::Byte).then(|| self.payload.as_ref())
    }

    /// A byte-encoded table packed two entries per byte ([`Encoding::Nibble`], the same id and
    /// tier), entries over 15 stored as 15: for a table of distances or lower bounds, still a lower
    /// bound. `None` for another encoding than [`Encoding::Byte`].
    pub fn to_nibbles(&self) -> Option<PruneTable<Vec<u8>>> {
        let bytes = self.bytes()?;
        let spec = TableSpec {
            encoding: Encoding::Nibble,
            ..self.spec()
        };
        let mut histogram = self.info.histogram;
        let over: u64 = histogram[16..].iter().sum();
        histogram[15] += over;
        histogram[16..].fill(0);
        Some(PruneTable::in_memory(
            &spec,
            histogram,
            pack_nibbles_capped(bytes),
        ))
    }

    /// The spec this table is of.
    fn spec(&self) -> TableSpec {
        TableSpec {
            id: self.info.id,
            tier: self.info.tier,
            encoding: self.info.encoding,
            n_entries: self.info.n_entries,
            fix: self.fix,
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The depth histogram stored in the header (not recomputed; see [`verify`](crate::verify())).
    pub fn histogram(&self) -> &Histogram {
        &self.info.histogram
    }

    /// The table id.
    pub fn id(&self) -> TableId {
        self.info.id
    }

    /// The tier, or `None`.
    pub fn tier(&self) -> Option<Tier> {
        self.info.tier
    }

    /// How entries are stored.
    pub fn encoding(&self) -> Encoding {
        self.info.encoding
    }

    /// Everything the header says.
    pub fn info(&self) -> &TableInfo {
        &self.info
    }

    /// Hashes the payload (in parallel, on the rayon pool) and compares the hash with the header's:
    /// the check that [`PruneTable::load`] and [`PruneTable::load_anonymous`] make while they read,
    /// for a table opened without it ([`PruneTable::open_mapped`], [`PruneTable::from_bytes`]).
    /// [`verify`](crate::verify()) also recomputes the histogram.
    ///
    /// # Errors
    ///
    /// `PayloadHash` when the payload does not match the hash in its header: it is corrupt.
    pub fn check_payload_hash(&self) -> Result<(), TableError> {
        check_hash(&self.info, payload_hash(self.payload())).map_err(|e| self.error(e))
    }

    /// The file the table was read from (`<memory>` for [`PruneTable::from_bytes`] and the tables
    /// built in memory).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Attaches this table's id, file and fix to an error.
    pub(crate) fn error(&self, e: TableError) -> TableError {
        e.at(self.info.id, &self.path, &self.fix, self.info.tier)
    }

    /// The raw payload bytes.
    pub fn payload(&self) -> &[u8] {
        self.payload.as_ref()
    }

    /// A table that borrows this one's payload.
    pub fn as_ref(&self) -> PruneTable<&[u8]> {
        PruneTable {
            info: self.info.clone(),
            path: self.path.clone(),
            fix: self.fix,
            len: self.len,
            payload: self.payload.as_ref(),
            opened: self.opened.clone(),
        }
    }

    /// A table that owns a copy of this one's payload.
    pub fn to_owned(&self) -> PruneTable<Vec<u8>> {
        PruneTable {
            info: self.info.clone(),
            path: self.path.clone(),
            fix: self.fix,
            len: self.len,
            payload: self.payload.as_ref().to_vec(),
            opened: self.opened.clone(),
        }
    }

    /// The payload storage.
    pub fn into_inner(self) -> T {
        self.payload
    }
}

impl<'a> PruneTable<&'a [u8]> {
    /// Checks a whole table file held in memory (header and payload) and borrows its payload.
    ///
    /// Runs the same constant-time checks as [`PruneTable::load`]; it is how tests and Miri exercise them.
    ///
    /// # Errors
    ///
    /// The header and length errors listed under [`PruneTable::load`], except `Missing` and `Io`.
    pub fn from_bytes(
        file: &'a [u8],
        spec: &TableSpec,
    ) -> Result<PruneTable<&'a [u8]>, TableError> {
        let path = Path::new(MEMORY);
        let at = |e: TableError| e.at(spec.id, path, &spec.fix, spec.tier);
        let info = Header::check(file, file.len() as u64, spec).map_err(at)?;
        PruneTable::from_checked(info, &file[HEADER_LEN..], path, spec.fix).map_err(at)
    }
}

impl PruneTable<Vec<u8>> {
    /// A table of `spec` over a payload held in memory (built, or handed over by a cache), with
    /// the histogram and the payload hash that a table file of it would have, computed here in
    /// parallel; its path is `<memory>`.
    ///
    /// # Errors
    ///
    /// `LengthMismatch` when `payload` is not `spec.payload_len()` bytes long.
    pub fn from_payload(
        spec: &TableSpec,
        payload: Vec<u8>,
    ) -> Result<PruneTable<Vec<u8>>, TableError> {
        if payload.len() as u64 != spec.payload_len() {
            let what = format!(
                "{} payload bytes, expected {} for {} entries",
                payload.len(),
                spec.payload_len(),
                spec.n_entries
            );
            return Err(TableError::new(Kind::LengthMismatch { what }).at(
                spec.id,
                Path::new(MEMORY),
                &spec.fix,
                spec.tier,
            ));
        }
        let histogram = crate::file::histogram::histogram(&payload, spec.encoding, spec.n_entries);
        Ok(PruneTable::in_memory(spec, histogram, payload))
    }

    /// [`PruneTable::from_payload`] for a payload of the right length whose histogram the caller
    /// has counted.
    pub(crate) fn in_memory(
        spec: &TableSpec,
        histogram: Histogram,
        payload: Vec<u8>,
    ) -> PruneTable<Vec<u8>> {
        debug_assert_eq!(
            histogram,
            crate::file::histogram::histogram(&payload, spec.encoding, spec.n_entries)
        );
        let info = TableInfo {
            id: spec.id,
            tier: spec.tier,
            encoding: spec.encoding,
            n_entries: spec.n_entries,
            payload_len: spec.payload_len(),
            payload_hash: payload_hash(&payload),
            histogram,
        };
        PruneTable::from_checked(info, payload, Path::new(MEMORY), spec.fix)
            .expect("an in-memory payload fits in the address space")
    }

    /// Reads the table file at `path` into an owned buffer, checking the header, the lengths and the
    /// payload hash.
    ///
    /// The payload is read in 1 MiB chunks on the rayon pool and each chunk is hashed while it is still in
    /// cache, so the check costs little over the read. [`verify`](crate::verify()) also recomputes the
    /// depth histogram.
    ///
    /// # Errors
    ///
    /// - `Missing` when there is no file at `path`; `NotAFile` when a directory, a FIFO or another
    ///   non-regular file is there.
    /// - `TooShortForHeader`, `Truncated` and `LengthMismatch` when the file is shorter or longer than its
    ///   header and `spec` say.
    /// - `BadMagic` for a file that is not a table file, `EndianMismatch` for one of the other byte order,
    ///   `VersionMismatch` for another format version, `HeaderChecksum` for a corrupt header and
    ///   `BadHeader` for an unknown field value.
    /// - `IdMismatch`, `TierMismatch` and `EncodingMismatch` when the file holds another table than `spec`.
    /// - `PayloadHash` when the payload does not match the hash in its header: it is corrupt.
    /// - `Io` when reading fails (`PermissionDenied` among them, with its fix).
    pub fn load(path: &Path, spec: &TableSpec) -> Result<PruneTable<Vec<u8>>, TableError> {
        PruneTable::load_with(path, spec, PayloadCheck::Hash)
    }

    /// [`PruneTable::load`], hashing the payload as `check` says.
    pub(crate) fn load_with(
        path: &Path,
        spec: &TableSpec,
        check: PayloadCheck,
    ) -> Result<PruneTable<Vec<u8>>, TableError> {
        let at = |e: TableError| e.at(spec.id, path, &spec.fix, spec.tier);
        let _read = ReadLock::of_file(path);
        let (file, info) = open_checked(path, spec).map_err(at)?;
        let payload_len =
            usize::try_from(info.payload_len).map_err(|_| at(too_big(info.payload_len)))?;
        let mut payload = Vec::new();
        payload
            .try_reserve_exact(payload_len)
            .map_err(|_| at(too_big(info.payload_len)))?;
        payload.resize(payload_len, 0);
        read_payload(&file, &info, &mut payload, check).map_err(at)?;
        Ok(PruneTable::from_checked(info, payload, path, spec.fix)
            .map_err(at)?
            .opened_from(&file))
    }
}

/// Whether a loader checks the payload hash while it reads the payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum PayloadCheck {
    /// Hash every chunk as it is read and compare with the header: a corrupt payload is `PayloadHash`.
    #[default]
    Hash,
    /// Trust the header: read only. For benchmarks of the load itself; a corrupt payload then gives
    /// wrong lookups (never undefined behaviour: every byte is a valid entry).
    TrustHeader,
}

/// Reads the payload of `file` (whose header `info` describes) into `payload`, in [`CHUNK_LEN`] chunks
/// on the rayon pool, hashing each chunk right after reading it when `check` asks for it.
///
/// Reads at explicit offsets, so the chunks need no shared file position.
pub(crate) fn read_payload(
    file: &File,
    info: &TableInfo,
    payload: &mut [u8],
    check: PayloadCheck,
) -> Result<(), TableError> {
    debug_assert_eq!(payload.len() as u64, info.payload_len);
    let chunk_hashes: Vec<u64> = payload
        .par_chunks_mut(CHUNK_LEN)
        .enumerate()
        .map(|(index, chunk)| {
            read_chunk(file, info, index, chunk)?;
            Ok(match check {
                PayloadCheck::Hash => chunk_hash(index as u64, chunk),
                PayloadCheck::TrustHeader => 0,
            })
        })
        .collect::<Result<_, TableError>>()?;
    if check == PayloadCheck::Hash {
        compare_hash(info, &chunk_hashes)?;
    }
    Ok(())
}

/// Checks the payload hash of `file` (whose header `info` describes) without keeping the payload: each
/// thread of the rayon pool reads 1 MiB chunks into a buffer of its own and hashes them.
pub(crate) fn check_payload(file: &File, info: &TableInfo) -> Result<(), TableError> {
    let n_chunks = usize::try_from(info.payload_len.div_ceil(CHUNK_LEN as u64))
        .map_err(|_| too_big(info.payload_len))?;
    let chunk_hashes: Vec<u64> = (0..n_chunks)
        .into_par_iter()
        .map_init(
            || vec![0u8; CHUNK_LEN],
            |buf, index| {
                let start = (index * CHUNK_LEN) as u64;
                let len = (info.payload_len - start).min(CHUNK_LEN as u64) as usize;
                read_chunk(file, info, index, &mut buf[..len])?;
                Ok(chunk_hash(index as u64, &buf[..len]))
            },
        )
        .collect::<Result<_, TableError>>()?;
    compare_hash(info, &chunk_hashes)
}

/// Reads chunk `index` of the payload into `chunk`; a file that shrank since its size was checked is
/// `Truncated`.
fn read_chunk(
    file: &File,
    info: &TableInfo,
    index: usize,
    chunk: &mut [u8],
) -> Result<(), TableError> {
    let offset = HEADER_LEN as u64 + (index * CHUNK_LEN) as u64;
    read_exact_at(file, chunk, offset).map_err(|e| {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            let file_len = file.metadata().map_or(0, |m| m.len());
            TableError::new(Kind::Truncated {
                payload_len: info.payload_len,
                available: file_len.saturating_sub(HEADER_LEN as u64),
            })
        } else {
            TableError::io("reading the payload", e)
        }
    })
}

fn compare_hash(info: &TableInfo, chunk_hashes: &[u64]) -> Result<(), TableError> {
    check_hash(info, combine(chunk_hashes, info.payload_len))
}

/// `PayloadHash` unless `computed` is the payload hash in the header `info`.
fn check_hash(info: &TableInfo, computed: u64) -> Result<(), TableError> {
    if computed == info.payload_hash {
        Ok(())
    } else {
        Err(TableError::new(Kind::PayloadHash {
            stored: info.payload_hash,
            computed,
        }))
    }
}

/// Fills `buf` from `file` at `offset`, without moving the file position.
#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `file` at `offset`.
#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, offset) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The error for a payload that does not fit in memory.
pub(crate) fn too_big(payload_len: u64) -> TableError {
    TableError::new(Kind::LengthMismatch {
        what: format!("a {payload_len}-byte payload does not fit in this machine's memory"),
    })
}

/// Opens `path` as a regular file, reads its header and checks it against `spec` and the file size.
///
/// Returns the file positioned at the start of the payload.
pub(crate) fn open_checked(path: &Path, spec: &TableSpec) -> Result<(File, TableInfo), TableError> {
    let (file, file_len, prefix, n_read) = open_header(path)?;
    let info = Header::check(&prefix[..n_read], file_len, spec)?;
    Ok((file, info))
}

/// The header of the table file at `path`, checked against what the header itself says the table is
/// (for a listing of a directory, where the table is known only by its file name): the label, the
/// version, the checksum, the codes and the file size.
pub(crate) fn check_own_header(path: &Path) -> Result<TableInfo, TableError> {
    let (_, file_len, prefix, n_read) = open_header(path)?;
    let prefix = &prefix[..n_read];
    // Without a whole header or an id, any spec lets `check` name the first thing that is wrong.
    let spec = Header::spec_in(prefix).unwrap_or(TableSpec::new(
        TableId::from_static("unknown"),
        Encoding::Byte,
        0,
    ));
    Header::check(prefix, file_len, &spec)
}

/// Opens `path` as a regular file and reads its first [`HEADER_LEN`] bytes (fewer in a shorter file):
/// the file, at least the length it has been read to, the bytes and their count.
fn open_header(path: &Path) -> Result<(File, u64, [u8; HEADER_LEN], usize), TableError> {
    let mut file = crate::file::open::open_regular(path)?;
    let file_len = file
        .metadata()
        .map_err(|e| TableError::io("reading the file size", e))?
        .len();
    let mut prefix = [0u8; HEADER_LEN];
    let n_read =
        read_up_to(&mut file, &mut prefix).map_err(|e| TableError::io("reading the header", e))?;
    Ok((file, file_len.max(n_read as u64), prefix, n_read))
}

/// Checks the header, the size and the id of the file at `path` against `spec`, in constant time,
/// without reading or mapping the payload (a status report; a search loads with
/// [`PruneTable::load_anonymous`], which also hashes the payload).
///
/// # Errors
///
/// The header and length errors of [`PruneTable::load`], naming the file and the fix.
pub fn check_header(path: &Path, spec: &TableSpec) -> Result<(), TableError> {
    open_checked(path, spec)
        .map(drop)
        .map_err(|e| e.at(spec.id, path, &spec.fix, spec.tier))
}

/// Reads until `buf` is full or the file ends; returns the number of bytes read.
fn read_up_to(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n_read = 0;
    while n_read < buf.len() {
        match file.read(&mut buf[n_read..]) {
            Ok(0) => break,
            Ok(n) => n_read += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n_read)
}

/// Records that `table`'s payload was checked completely just now (by [`verify`](crate::verify()) or a
/// bake): writes the stamp of its file, atomically.
///
/// Nothing is written for a table that was not loaded or mapped from a file, nor when the file at
/// `table.path()` is no longer the version the table was read from (rewritten, truncated, touched
/// or replaced since it was opened: the check may not have seen what the file holds now).
///
/// # Errors
///
/// `Io` when the stamp cannot be written (a read-only directory, say).
pub fn write_check_stamp<T: AsRef<[u8]>>(table: &PruneTable<T>) -> Result<(), TableError> {
    crate::file::stamp::stamp_if_unchanged(table.path(), table.opened()).map_err(|e| table.error(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TableErrorKind;

    /// See issue 15: a file truncated after its header was checked (as by another process during
    /// `tables verify`) is `Truncated` when its payload is read, never a signal: loads read, they do
    /// not map.
    #[test]
    fn truncated_while_loading() {
        let dir = tempfile::tempdir().unwrap();
        let spec = TableSpec::new(TableId::from_static("unit-cut"), Encoding::Byte, 3 << 20);
        let payload = vec![1u8; 3 << 20];
        let histogram = crate::histogram(&payload, Encoding::Byte, spec.n_entries);
        let path = crate::write_table(dir.path(), &spec, &histogram, &payload, &Default::default())
            .unwrap();
        let (file, info) = open_checked(&path, &spec).unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(HEADER_LEN as u64 + (1 << 20) + 5)
            .unwrap();
        let mut buf = vec![0u8; payload.len()];
        for result in [
            read_payload(&file, &info, &mut buf, PayloadCheck::Hash),
            check_payload(&file, &info),
        ] {
            let err = result.unwrap_err();
            assert_eq!(err.kind(), TableErrorKind::Truncated, "{err}");
            assert!(err.to_string().contains("the file holds 1048581"), "{err}");
        }
    }
}
