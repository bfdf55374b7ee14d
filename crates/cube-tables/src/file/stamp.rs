//! Payload-check stamps: `<file>.checked`, written after a full check of a table file, so that a status
//! report can say "payload checked" without reading gigabytes.
//!
//! A stamp names the file's size, modification time and (on Unix) inode, and the payload hash in its
//! header, as they were when the file was opened for the check; it is written only if the file is
//! still that version when the check ends, so a change during the check (a write in place, a
//! truncation) is never stamped as checked. Any change of the file (a rewrite, a truncation, a touch,
//! a new bake renamed over it) makes the stamp stale, and [`checked_at`] then returns `None`. A stamp is
//! a report, not a proof: loaders for a search still hash the payload
//! ([`PruneTable::load_anonymous`](crate::PruneTable::load_anonymous)).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::file::atomic::AtomicFile;
use crate::file::error::TableError;
use crate::file::format::HEADER_LEN;

const MAGIC: &str = "cube-tables payload check 1";

/// The stamp of the table file at `path`: `<path>.checked`.
pub fn stamp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".checked");
    PathBuf::from(name)
}

/// What identifies one version of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Identity {
    size: u64,
    modified: Duration,
    inode: u64,
    payload_hash: u64,
}

impl Identity {
    /// The identity of the file at `path` now, read through one handle (so all from the same inode).
    fn of(path: &Path) -> Option<Identity> {
        let mut file = crate::file::open::open_regular(path).ok()?;
        let mut header = [0u8; HEADER_LEN];
        file.read_exact(&mut header).ok()?;
        // Offset 88 (docs/tables.md).
        Identity::of_file(&file, u64::from_ne_bytes(header[88..96].try_into().ok()?))
    }

    /// The identity of the open `file`, whose header announces `payload_hash`.
    pub(crate) fn of_file(file: &std::fs::File, payload_hash: u64) -> Option<Identity> {
        let metadata = file.metadata().ok()?;
        Some(Identity {
            size: metadata.len(),
            modified: metadata
                .modified()
                .ok()?
                .duration_since(SystemTime::UNIX_EPOCH)
                .ok()?,
            inode: inode(&metadata),
            payload_hash,
        })
    }
}

#[cfg(unix)]
fn inode(metadata: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(metadata)
}

#[cfg(not(unix))]
fn inode(_metadata: &std::fs::Metadata) -> u64 {
    0
}

/// Stamps the file at `path` as checked now if it is still the version `opened`, the one whose
/// payload was checked.
pub(crate) fn stamp_if_unchanged(path: &Path, opened: Option<&Identity>) -> Result<(), TableError> {
    match (opened, Identity::of(path)) {
        (Some(opened), Some(now)) if *opened == now => write(path, &now),
        _ => Ok(()),
    }
}

/// Stamps the file at `path` as checked now, whatever it holds: for a writer that just hashed the
/// payload it wrote.
pub(crate) fn write_stamp(path: &Path) -> Result<(), TableError> {
    match Identity::of(path) {
        Some(identity) => write(path, &identity),
        None => Ok(()),
    }
}

fn write(path: &Path, identity: &Identity) -> Result<(), TableError> {
    let checked = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let text = format!(
        "{MAGIC}\nsize {}\nmtime {}.{:09}\ninode {}\nhash {:#018x}\nchecked {}\n",
        identity.size,
        identity.modified.as_secs(),
        identity.modified.subsec_nanos(),
        identity.inode,
        identity.payload_hash,
        checked.as_secs()
    );
    let stamp = stamp_path(path);
    let io = |e| TableError::io("writing the payload-check stamp", e).with_path(&stamp);
    let mut file = AtomicFile::create(&stamp).map_err(io)?;
    file.write_all(text.as_bytes()).map_err(io)?;
    file.commit().map_err(io)
}

/// When the payload of the table file at `path` was last checked completely, if its stamp is there and
/// still names this very file (size, modification time, inode and header hash).
pub fn checked_at(path: &Path) -> Option<SystemTime> {
    let file = crate::file::open::open_regular(&stamp_path(path)).ok()?;
    let mut text = String::new();
    file.take(1024).read_to_string(&mut text).ok()?;
    let mut lines = text.lines();
    if lines.next()? != MAGIC {
        return None;
    }
    let mut field = |key: &str| lines.next()?.strip_prefix(key)?.strip_prefix(' ');
    let size = field("size")?.parse().ok()?;
    let (secs, nanos) = field("mtime")?.split_once('.')?;
    let modified = Duration::new(secs.parse().ok()?, nanos.parse().ok()?);
    let inode = field("inode")?.parse().ok()?;
    let payload_hash = u64::from_str_radix(field("hash")?.strip_prefix("0x")?, 16).ok()?;
    let checked = Duration::from_secs(field("checked")?.parse().ok()?);
    let stamped = Identity {
        size,
        modified,
        inode,
        payload_hash,
    };
    (Identity::of(path)? == stamped).then(|| SystemTime::UNIX_EPOCH + checked)
}
