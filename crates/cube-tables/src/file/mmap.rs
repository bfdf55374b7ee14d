//! Memory maps: file-mapped tables ([`Mapped`]), tables copied into anonymous huge pages ([`Anonymous`]),
//! and writable scratch space for generators ([`Scratch`]).
//!
//! This is the only module with `#[allow(unsafe_code)]` (besides the one prefetch function in `table.rs`).
//! Mapping a file cannot be made safe, because another process may change the file under the map, so the
//! functions that map files are `unsafe fn` with a `# Safety` section, as ripgrep's
//! `crates/searcher/src/searcher/mmap.rs` does with `MmapChoice::auto`.
//!
//! [`PruneTable::load_anonymous`] is the fast path: a mapped ext4 file gets no transparent huge pages,
//! while anonymous memory advised with `MADV_HUGEPAGE` does, and huge pages make random lookups in a
//! multi-GB table about 1.6 times faster (fewer TLB misses). It is also safe.
//!
//! Without the `mmap` feature (on by default) nothing is mapped and the crate is pure Rust: anonymous
//! memory is a heap buffer, [`PruneTable::open_mapped`] reads the payload into one (header and lengths
//! checked as before, the payload not hashed), and [`Scratch::file_backed`] is an error.

#[cfg(feature = "mmap")]
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

#[cfg(feature = "mmap")]
use memmap2::{Mmap, MmapMut, MmapOptions};

use crate::file::error::TableError;
#[cfg(feature = "mmap")]
use crate::file::format::HEADER_LEN;
use crate::file::id::TableSpec;
use crate::file::lock::ReadLock;
use crate::file::stamp::{self, Identity};
use crate::file::table::{PayloadCheck, PruneTable, open_checked, read_payload, too_big};
use crate::file::temporaries::Registered;

/// The payload of a table mapped from its file by [`PruneTable::open_mapped`].
#[derive(Debug)]
pub struct Mapped {
    /// `None` for an empty payload, which cannot be mapped.
    #[cfg(feature = "mmap")]
    map: Option<Mmap>,
    /// The payload read into memory: nothing is mapped without the `mmap` feature.
    #[cfg(not(feature = "mmap"))]
    map: Option<Vec<u8>>,
}

impl AsRef<[u8]> for Mapped {
    fn as_ref(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }
}

impl Mapped {
    /// Maps every page of the payload now (the file is read into the page cache where it is not
    /// there yet), so that the lookups that follow take no page fault: for a process that asks
    /// many queries, where a query's first reads of a table otherwise fault page by page. Linux's
    /// `MADV_POPULATE_READ` where the kernel has it (5.14), else a read of one byte a page; without
    /// the `mmap` feature the payload is in memory already.
    pub fn prefault(&self) {
        #[cfg(feature = "mmap")]
        if let Some(map) = &self.map {
            #[cfg(target_os = "linux")]
            if map.advise(memmap2::Advice::PopulateRead).is_ok() {
                return;
            }
            let touched = map.iter().step_by(4096).fold(0u8, |acc, &b| acc ^ b);
            std::hint::black_box(touched);
        }
    }
}

/// Zeroed anonymous memory, writable: a map with the `mmap` feature, else a heap buffer.
#[cfg(feature = "mmap")]
type AnonymousMut = MmapMut;
#[cfg(not(feature = "mmap"))]
type AnonymousMut = Vec<u8>;

/// The same, made read-only once written.
#[cfg(feature = "mmap")]
type AnonymousRead = Mmap;
#[cfg(not(feature = "mmap"))]
type AnonymousRead = Vec<u8>;

/// The payload of a table copied into anonymous memory by [`PruneTable::load_anonymous`].
#[derive(Debug)]
pub struct Anonymous {
    map: AnonymousRead,
    len: usize,
}

impl AsRef<[u8]> for Anonymous {
    fn as_ref(&self) -> &[u8] {
        &self.map[..self.len]
    }
}

impl PruneTable<Mapped> {
    /// Maps the table file at `path`, checking the header and the lengths in constant time.
    ///
    /// Nothing of the payload is read until it is used. Call [`verify`](crate::verify()) to check the payload.
    ///
    /// # Safety
    ///
    /// The file must not be modified or truncated while the returned table is alive. Table files are
    /// write-once: a new bake writes a new file and renames it over the old one, which leaves the old,
    /// mapped file untouched, so this holds unless someone writes into a table file by hand.
    ///
    /// # Errors
    ///
    /// The errors of [`PruneTable::load`].
    #[allow(unsafe_code)]
    pub unsafe fn open_mapped(
        path: &Path,
        spec: &TableSpec,
    ) -> Result<PruneTable<Mapped>, TableError> {
        let at = |e: TableError| e.at(spec.id, path, &spec.fix, spec.tier);
        let _read = ReadLock::of_file(path);
        let (file, info) = open_checked(path, spec).map_err(at)?;
        let payload_len =
            usize::try_from(info.payload_len).map_err(|_| at(too_big(info.payload_len)))?;
        #[cfg(not(feature = "mmap"))]
        let map = {
            let mut bytes = anonymous(payload_len).map_err(at)?;
            bytes.truncate(payload_len);
            read_payload(&file, &info, &mut bytes, PayloadCheck::TrustHeader).map_err(at)?;
            Some(bytes)
        };
        #[cfg(feature = "mmap")]
        let map = if payload_len == 0 {
            None
        } else {
            // SAFETY: a propagation of the caller's promise that the file is not modified while mapped.
            let map = unsafe {
                MmapOptions::new()
                    .offset(HEADER_LEN as u64)
                    .len(payload_len)
                    .map(&file)
            };
            Some(map.map_err(|e| at(TableError::io("mapping the payload", e)))?)
        };
        Ok(
            PruneTable::from_checked(info, Mapped { map }, path, spec.fix)
                .map_err(at)?
                .opened_from(&file),
        )
    }
}

impl PruneTable<Anonymous> {
    /// Reads the table file at `path` into anonymous memory advised to use transparent huge pages, and
    /// checks the payload hash on the way, unless the file's stamp says its payload was checked
    /// completely and the file has not changed since (`stamp.rs`: size, times, inode, header hash).
    ///
    /// This is the fast path for large tables: random lookups are about 1.6 times faster than in a mapped
    /// file, which gets no huge pages. It costs one read of the file at load time, on the rayon pool, each
    /// 1 MiB chunk hashed while it is still in cache; the memory is not shared with other processes. Off
    /// Linux, it is an ordinary anonymous map.
    ///
    /// # Errors
    ///
    /// The errors of [`PruneTable::load`], `PayloadHash` included.
    pub fn load_anonymous(
        path: &Path,
        spec: &TableSpec,
    ) -> Result<PruneTable<Anonymous>, TableError> {
        load_anonymous(path, spec, PayloadCheck::Hash)
    }

    /// [`PruneTable::load_anonymous`] without the payload hash: the header and the lengths only.
    ///
    /// For benchmarks of the load itself. A corrupt payload then gives wrong lookups, so a solver over
    /// such a table proves nothing; every byte is a valid entry, so there is no undefined behaviour.
    ///
    /// # Errors
    ///
    /// The errors of [`PruneTable::load`] except `PayloadHash`.
    pub fn load_anonymous_unchecked(
        path: &Path,
        spec: &TableSpec,
    ) -> Result<PruneTable<Anonymous>, TableError> {
        load_anonymous(path, spec, PayloadCheck::TrustHeader)
    }
}

fn load_anonymous(
    path: &Path,
    spec: &TableSpec,
    check: PayloadCheck,
) -> Result<PruneTable<Anonymous>, TableError> {
    let at = |e: TableError| e.at(spec.id, path, &spec.fix, spec.tier);
    let _read = ReadLock::of_file(path);
    let (file, info) = open_checked(path, spec).map_err(at)?;
    let len = usize::try_from(info.payload_len).map_err(|_| at(too_big(info.payload_len)))?;
    let opened = Identity::of_file(&file, info.payload_hash);
    // A file whose stamp vouches for it was checked completely and has not changed since.
    let standing = stamp::standing(path, opened.as_ref());
    let check = if standing == Some(true) {
        PayloadCheck::TrustHeader
    } else {
        check
    };
    let mut map = anonymous(len).map_err(at)?;
    read_payload(&file, &info, &mut map[..len], check).map_err(at)?;
    if check == PayloadCheck::Hash && standing == Some(false) {
        // Checked completely, but stamped too soon after its last change to vouch: the hash just
        // matched, so this version, seen now, is stamped again (a read-only directory: next time).
        let _ = stamp::stamp_if_unchanged(path, opened.as_ref());
    }
    #[cfg(feature = "mmap")]
    let map = map
        .make_read_only()
        .map_err(|e| at(TableError::io("protecting the payload", e)))?;
    Ok(
        PruneTable::from_checked(info, Anonymous { map, len }, path, spec.fix)
            .map_err(at)?
            .with_opened(opened),
    )
}

/// Maps `len` (at least 1) zeroed anonymous bytes, advised to use transparent huge pages on Linux.
#[cfg(feature = "mmap")]
fn anonymous(len: usize) -> Result<AnonymousMut, TableError> {
    let map =
        MmapMut::map_anon(len.max(1)).map_err(|e| TableError::io("mapping anonymous memory", e))?;
    // Huge pages are an optimisation: a kernel without them (EINVAL) is not an error.
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(map)
}

/// Allocates `len` (at least 1) zeroed bytes on the heap; running out of memory is an error, not an abort.
#[cfg(not(feature = "mmap"))]
fn anonymous(len: usize) -> Result<AnonymousMut, TableError> {
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len.max(1)).map_err(|_| {
        let e = std::io::Error::from(std::io::ErrorKind::OutOfMemory);
        TableError::io("allocating memory", e)
    })?;
    bytes.resize(len.max(1), 0);
    Ok(bytes)
}

/// A zeroed, fixed-size buffer of `T` for a large table built in memory, in anonymous memory
/// advised to use transparent huge pages (Linux): random reads over tens of MB then miss the TLB
/// far less (`SymCorners`' 48 MB of move deltas read about 18 % faster per search node, measured
/// with THP on and off). A heap `Vec` where memory cannot be mapped, and without the `mmap` feature.
pub struct HugeBuffer<T: bytemuck::Pod> {
    /// `Some` when mapped: exactly `len * size_of::<T>()` bytes, page-aligned.
    #[cfg(feature = "mmap")]
    map: Option<MmapMut>,
    /// The buffer when not mapped.
    heap: Vec<T>,
}

impl<T: bytemuck::Pod> HugeBuffer<T> {
    /// `len` zeroed values.
    pub fn zeroed(len: usize) -> HugeBuffer<T> {
        #[cfg(feature = "mmap")]
        {
            let bytes = len.checked_mul(size_of::<T>()).filter(|&n| n > 0);
            if let Some(map) = bytes.and_then(|n| anonymous(n).ok()) {
                return HugeBuffer {
                    map: Some(map),
                    heap: Vec::new(),
                };
            }
        }
        HugeBuffer {
            #[cfg(feature = "mmap")]
            map: None,
            heap: vec![T::zeroed(); len],
        }
    }
}

impl<T: bytemuck::Pod> std::ops::Deref for HugeBuffer<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        #[cfg(feature = "mmap")]
        if let Some(map) = &self.map {
            // A page-aligned map of whole values: the cast cannot fail.
            return bytemuck::cast_slice(map);
        }
        &self.heap
    }
}

impl<T: bytemuck::Pod> std::ops::DerefMut for HugeBuffer<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        #[cfg(feature = "mmap")]
        if let Some(map) = &mut self.map {
            return bytemuck::cast_slice_mut(map);
        }
        &mut self.heap
    }
}

impl<T: bytemuck::Pod> Clone for HugeBuffer<T> {
    fn clone(&self) -> HugeBuffer<T> {
        let mut copy = HugeBuffer::zeroed(self.len());
        copy.copy_from_slice(self);
        copy
    }
}

impl<T: bytemuck::Pod> std::fmt::Debug for HugeBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HugeBuffer")
            .field("len", &self.len())
            .finish_non_exhaustive()
    }
}

/// Gives `file` `len` bytes of real disk blocks, zeroed.
#[cfg(feature = "mmap")]
fn allocate(file: &std::fs::File, len: u64) -> std::io::Result<()> {
    #[cfg(test)]
    if tests::FAIL_ALLOCATION.get() {
        return Err(std::io::ErrorKind::StorageFull.into());
    }
    #[cfg(target_os = "linux")]
    match rustix::fs::fallocate(file, rustix::fs::FallocateFlags::empty(), 0, len) {
        Ok(()) => return Ok(()),
        // The file system cannot allocate without writing: write the zeros below.
        Err(rustix::io::Errno::OPNOTSUPP) => {}
        Err(e) => return Err(e.into()),
    }
    file.set_len(0)?;
    let zeros = vec![0u8; crate::file::hash::CHUNK_LEN];
    let mut writer = std::io::BufWriter::new(file);
    let mut left = len;
    while left > 0 {
        let n = left.min(zeros.len() as u64) as usize;
        std::io::Write::write_all(&mut writer, &zeros[..n])?;
        left -= n as u64;
    }
    std::io::Write::flush(&mut writer)
}

/// Writable, zeroed scratch memory for table generators, anonymous or backed by a file.
///
/// A generator runs its breadth-first search over a byte-per-entry `Scratch`, then packs it into a
/// [`NibbleTable`](crate::NibbleTable) (which may itself sit on a `Scratch`) and hands the bytes to
/// [`write_table`](crate::write_table). Nothing of a multi-GB payload is copied onto the heap.
#[derive(Debug)]
pub struct Scratch {
    map: AnonymousMut,
    len: usize,
    /// The backing file, removed on drop.
    path: Option<PathBuf>,
    /// The backing file, known to a signal handler's `remove_temporary_files`.
    _registered: Option<Registered>,
}

impl Scratch {
    /// `len` zeroed bytes of anonymous memory (backed by RAM and swap), advised to use huge pages.
    ///
    /// # Errors
    ///
    /// `Io` when the system cannot map that much memory.
    pub fn anonymous(len: usize) -> Result<Scratch, TableError> {
        Ok(Scratch {
            map: anonymous(len)?,
            len,
            path: None,
            _registered: None,
        })
    }

    /// `len` zeroed bytes backed by a new file at `path`, which is removed when the scratch is dropped.
    ///
    /// Use it when the scratch is larger than the free RAM: the kernel writes pages back to the file.
    /// The file's blocks are allocated for real (`fallocate`, or zeros written where the file system
    /// has no `fallocate`), so a full disk is an error here rather than a `SIGBUS` when the map is
    /// written.
    ///
    /// # Safety
    ///
    /// No other process may modify or truncate the file at `path` while the scratch is alive.
    ///
    /// # Errors
    ///
    /// `Io` when the file cannot be created, allocated (`StorageFull` on a full disk) or mapped; the file
    /// is removed again. `Io` (`Unsupported`) without the `mmap` feature.
    #[allow(unsafe_code)]
    pub unsafe fn file_backed(path: &Path, len: usize) -> Result<Scratch, TableError> {
        #[cfg(not(feature = "mmap"))]
        {
            let _ = len;
            let e = std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "cube-tables was built without its `mmap` feature; use anonymous scratch",
            );
            Err(TableError::io("mapping the scratch file", e).with_path(path))
        }
        // SAFETY: a propagation of the caller's promise.
        #[cfg(feature = "mmap")]
        unsafe {
            Scratch::map_file(path, len)
        }
    }

    /// [`Scratch::file_backed`] with the `mmap` feature.
    ///
    /// # Safety
    ///
    /// That of [`Scratch::file_backed`].
    #[cfg(feature = "mmap")]
    #[allow(unsafe_code)]
    unsafe fn map_file(path: &Path, len: usize) -> Result<Scratch, TableError> {
        let at = |e: TableError| e.with_path(path);
        // Known to the signal handler before the file exists: a signal during the allocation (a
        // while for the corner database's 88 MB) leaves no scratch file behind.
        let registered = Registered::new(path);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(|e| at(TableError::io("creating the scratch file", e)))?;
        let remove = |e: TableError| {
            let _ = std::fs::remove_file(path);
            at(e)
        };
        allocate(&file, len.max(1) as u64)
            .map_err(|e| remove(TableError::io("allocating the scratch file", e)))?;
        // SAFETY: a propagation of the caller's promise that no one else modifies the file while it is
        // mapped; this process only touches it through the map.
        let map = unsafe { MmapOptions::new().len(len.max(1)).map_mut(&file) }
            .map_err(|e| remove(TableError::io("mapping the scratch file", e)))?;
        Ok(Scratch {
            map,
            len,
            path: Some(path.to_path_buf()),
            _registered: Some(registered),
        })
    }

    /// Writes the scratch back to its file, if it has one (a no-op for anonymous scratch).
    ///
    /// # Errors
    ///
    /// `Io` when the write-back fails.
    pub fn flush(&self) -> Result<(), TableError> {
        match &self.path {
            #[cfg(feature = "mmap")]
            Some(path) => self
                .map
                .flush()
                .map_err(|e| TableError::io("flushing the scratch file", e).with_path(path)),
            #[cfg(not(feature = "mmap"))]
            Some(_) => Ok(()),
            None => Ok(()),
        }
    }

    /// The backing file, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl std::ops::Deref for Scratch {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.map[..self.len]
    }
}

impl std::ops::DerefMut for Scratch {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len]
    }
}

impl AsRef<[u8]> for Scratch {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl AsMut<[u8]> for Scratch {
    fn as_mut(&mut self) -> &mut [u8] {
        self
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::cell::Cell;

    thread_local! {
        /// Makes the scratch allocation of this thread fail as on a full disk.
        pub(crate) static FAIL_ALLOCATION: Cell<bool> = const { Cell::new(false) };
    }

    /// A huge buffer starts zeroed, keeps what is written, clones by value, and may be empty.
    #[test]
    fn huge_buffers_are_zeroed_writable_and_cloned_by_value() {
        let mut buffer = super::HugeBuffer::<u64>::zeroed(1 << 19);
        assert_eq!(buffer.len(), 1 << 19);
        assert!(buffer.iter().all(|&v| v == 0));
        buffer[12345] = u64::MAX;
        let copy = buffer.clone();
        buffer[12345] = 7;
        assert_eq!((copy[12345], buffer[12345]), (u64::MAX, 7));
        assert!(super::HugeBuffer::<u16>::zeroed(0).is_empty());
    }
}
