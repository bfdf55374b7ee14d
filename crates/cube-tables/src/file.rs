//! The table file format and everything that touches a table file, the root of the `file/`
//! folder, which uses nothing else of the crate (the coordinates and the pattern databases use
//! it): ids and specs (`id.rs`), the 384-byte header (`format.rs`), the payload hash (`hash.rs`),
//! the errors (`error.rs`), writers (`store.rs`) over [`AtomicFile`](crate::AtomicFile)
//! (`atomic.rs`), the one read-side table type and its loads (`table.rs`) with the read views of
//! 4-bit entries (`nibble.rs`) and of the 2-bit line layout (`lines.rs`), mapping (`mmap.rs`),
//! verification (`verify.rs`, over the histograms of `histogram.rs`) and its stamps
//! (`stamp.rs`), the prefetch (`prefetch.rs`), the directory's locks (`lock.rs`), the
//! opening of regular files (`open.rs`), the table directory (`dirs.rs`) and the on-disk cache of
//! small tables (`cache.rs`). docs/tables.md describes the format byte by byte.

pub(crate) mod atomic;
pub(crate) mod bake;
pub(crate) mod cache;
pub(crate) mod dirs;
pub(crate) mod error;
pub(crate) mod format;
pub(crate) mod hash;
pub(crate) mod histogram;
pub(crate) mod id;
pub(crate) mod lines;
pub(crate) mod lock;
pub(crate) mod mmap;
pub(crate) mod nibble;
pub(crate) mod open;
pub(crate) mod prefetch;
pub(crate) mod stamp;
pub(crate) mod store;
pub(crate) mod table;
pub(crate) mod temporaries;
pub(crate) mod verify;
