//! Coordinates, move tables, pruning tables and pattern databases for the 3x3x3 cube.
//!
//! This crate also owns the table files: versioned, checksummed files of a fixed 384-byte header and a
//! payload of 4-bit or 8-bit entries (docs/tables.md describes the format byte by byte).
//!
//! - [`write_table`] and [`TableWriter`] (for a payload streamed in pieces) write a table atomically: to a
//!   temporary file under the directory's [`BakeLock`], then `fsync` and rename. [`NibbleTable`], [`Scratch`] and [`pack_nibbles`]
//!   help generators build the payload.
//! - [`PruneTable`] reads one back: [`PruneTable::load`] into a `Vec`, [`PruneTable::load_anonymous`]
//!   into huge pages (the fast path for large tables), or [`PruneTable::open_mapped`] as a file map. All
//!   three check the header and the lengths in constant time. A search reads it through a typed view
//!   without a branch on the encoding: [`Nibbles`] (4-bit entries) or [`Lines2`] (the 2-bit lines of the
//!   H48 and nx tables). [`HugeBuffer`] holds a large table built in memory in transparent huge
//!   pages.
//! - [`verify()`] recomputes the depth histogram and the payload hash in parallel.
//! - [`resolve_table_dir`] finds the table directory.
//! - [`tier`] is the optimal tiers as families ([`Family`], [`Tier::family`]): which tables a tier
//!   has, whether they are ready, the one bake of any tiers and the one full check of their
//!   tables ([`tier::verify`]); [`list_files`] lists every file the
//!   toolkit keeps in a table directory, with its header's state; [`clean`] removes a tier's, the
//!   method caches' or all of them, under the directory's lock.
//!
//! The coordinates and tables over them: [`m12`] (the 12-edge permutation as M12 x S7),
//! [`sym_coord`] (symmetry-reduced coordinates), [`phase1`] (the exact phase-1 distance of the
//! two-phase method); the optimal solvers' tables: [`corners`] (the corner index and its reduction
//! by symmetry, which the families share), [`pdb`] (Korf's pattern databases), [`h48`] (the
//! 2-bit H48 tables) and [`nx`] (nxopt's 2-bit tables over the cosets of its subgroups, in the
//! half-turn and the quarter-turn metric).
//!
//! Every failure is a [`TableError`] whose message names the table and the file and says what to do.
//!
//! # Example
//!
//! Write a small table, load it back and verify it:
//!
//! ```
//! use cube_tables::{Encoding, NibbleTable, PruneTable, TableId, TableSpec, WriteOptions};
//!
//! const SPEC: TableSpec = TableSpec::new(TableId::from_static("doc-example"), Encoding::Nibble, 1000);
//!
//! let dir = tempfile::tempdir()?;
//! let mut payload = NibbleTable::new(1000);
//! for index in 0..1000 {
//!     payload.set(index, (index % 11) as u8);
//! }
//! let path = cube_tables::write_table(
//!     dir.path(),
//!     &SPEC,
//!     &payload.histogram(),
//!     payload.as_bytes(),
//!     &WriteOptions::new(),
//! )?;
//! assert_eq!(path, dir.path().join("doc-example.v1.tbl"));
//!
//! let table = PruneTable::load_anonymous(&path, &SPEC)?;
//! assert_eq!(table.get(123), 2);
//! assert_eq!(table.histogram()[10], 90);
//! cube_tables::verify(&table, None)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

// The folders, imports pointing one way (`coord` uses `file`; `corners` those two; `pdb`, `h48`
// and `nx`, siblings that never use each other, those three; never back: xtask's `tidy` test checks it).
// `tier` sits above them all: it knows which tables each tier has, and bakes them.
mod coord;
pub mod corners;
mod file;
pub mod h48;
pub mod nx;
pub mod pdb;
pub mod tier;

pub use crate::file::atomic::AtomicFile;
pub use crate::file::cache::{
    CacheOutcome, Cached, MAP_FROM, load_or_build, load_or_build_with_outcome,
};
pub use crate::file::dirs::{TABLES_DIR_ENV, check_table_dir, resolve_table_dir};
pub use crate::file::error::{TableError, TableErrorKind};
pub use crate::file::format::{HEADER_LEN, HISTOGRAM_LEN, Histogram, TableInfo};
pub use crate::file::hash::payload_hash;
pub use crate::file::histogram::histogram;
pub use crate::file::id::{
    Encoding, FORMAT_VERSION, Fix, FixCommands, Metric, TableId, TableSpec, Tier,
};
pub use crate::file::lines::Lines2;
pub use crate::file::lock::{BakeLock, READ_LOCK_NAME};
pub use crate::file::mmap::{Anonymous, HugeBuffer, Mapped, Scratch};
pub use crate::file::nibble::{NibbleTable, Nibbles, pack_nibbles, pack_nibbles_into};
pub use crate::file::open::open_regular;
pub use crate::file::stamp::checked_at;
pub use crate::file::store::{TableWriter, WriteOptions, write_table};
pub use crate::file::table::{PruneTable, check_header, write_check_stamp};
pub use crate::file::temporaries::remove_temporary_files;
pub use crate::file::verify::verify;
pub use crate::tier::{
    Clean, Family, FileKind, FileState, KeptFile, ParseTierError, TIERS, TierRow, clean, list_files,
};

pub use crate::coord::move_table::{MoveTable, Product, Space};
pub use crate::coord::prune::DistanceTable;
pub use crate::coord::{Coord, CornerPerm, Flip, SlicePerm, Twist, UdEdgePerm, UdSlice};
pub use crate::coord::{m12, phase1, sym_coord};

/// The examples of the crate's README.md, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
