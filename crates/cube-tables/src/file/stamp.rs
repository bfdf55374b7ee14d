//! Payload-check stamps: `<file>.checked`, written after a full check of a table file (its payload
//! hash and its histogram against the header), so that a status report can say "payload checked"
//! without reading gigabytes, and a loader need not check the same bytes again.
//!
//! A stamp names the file's size, modification time, status-change time and (on Unix) inode, and the
//! payload hash in its header, as they were when the file was opened for the check; it is written only
//! if the file is still that version when the check ends, so a change during the check (a write in
//! place, a truncation) is never stamped as checked. Any change of the file (a rewrite, a truncation,
//! a touch, a new bake renamed over it) makes the stamp stale, and [`checked_at`] then returns `None`.
//! The status-change time (`ctime`) is what makes this honest against a write in place that keeps
//! the size and puts the modification time back (`touch -r`, `set_modified`): no program can set it,
//! and every write, truncation, rename or change of times moves it.
//!
//! What "checked" then means: this inode's bytes were hashed and counted by a full check, and the
//! file system has recorded no change to them since. Loaders ([`PruneTable::load_anonymous`](crate::PruneTable::load_anonymous), the
//! method caches of `load_or_build`) skip the hash of a file whose stamp names it (its first use,
//! `tables verify` and every bake write the stamp), and hash every other file; `tables verify` always
//! hashes. A stamp vouches for a version only if that version had been unchanged for two seconds
//! when the check saw it (`SETTLED`: file times are coarse, and a write in the same clock tick as
//! the change before it moves none of them); a load soon after a bake or a copy therefore hashes
//! once more, and stamps the file again. A stamp cannot see a change made below the file system (a disk that flips a bit, an image
//! edited offline with the times restored): `tables verify` is the check for those.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::file::atomic::AtomicFile;
use crate::file::error::TableError;
use crate::file::format::HEADER_LEN;

const MAGIC: &str = "cube-tables payload check 2";

/// The stamp of the table file at `path`: `<path>.checked`.
pub(crate) fn stamp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".checked");
    PathBuf::from(name)
}

/// How long after a file's last change its identity must have been seen for a stamp of it to
/// vouch for its bytes. File times are coarse (a clock tick of a few milliseconds on Linux, a second
/// or two on older file systems), so a write in the same tick as the change before it leaves every
/// time as it was; once this long has passed since that change, any later write moves the times.
const SETTLED: Duration = Duration::from_secs(2);

/// What identifies one version of a file, and when it was seen.
#[derive(Clone, Debug)]
pub(crate) struct Identity {
    size: u64,
    modified: Duration,
    changed: Duration,
    inode: u64,
    payload_hash: u64,
    /// When these were read (not part of the version: two identities of one version are equal).
    seen: Duration,
}

impl PartialEq for Identity {
    fn eq(&self, other: &Identity) -> bool {
        (
            self.size,
            self.modified,
            self.changed,
            self.inode,
            self.payload_hash,
        ) == (
            other.size,
            other.modified,
            other.changed,
            other.inode,
            other.payload_hash,
        )
    }
}

/// The time now, since the Unix epoch.
fn now() -> Duration {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
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
            changed: changed(&metadata),
            inode: inode(&metadata),
            payload_hash,
            seen: now(),
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

/// The status-change time (`ctime`), which no program can set back.
#[cfg(unix)]
fn changed(metadata: &std::fs::Metadata) -> Duration {
    use std::os::unix::fs::MetadataExt;
    Duration::new(
        u64::try_from(metadata.ctime()).unwrap_or(0),
        u32::try_from(metadata.ctime_nsec()).unwrap_or(0),
    )
}

/// No status-change time off Unix: the size, the modification time and the hash must do.
#[cfg(not(unix))]
fn changed(_metadata: &std::fs::Metadata) -> Duration {
    Duration::ZERO
}

/// Stamps the file at `path` as checked now if it is still the version `opened`, the one whose
/// payload was checked.
pub(crate) fn stamp_if_unchanged(path: &Path, opened: Option<&Identity>) -> Result<(), TableError> {
    match (opened, Identity::of(path)) {
        (Some(opened), Some(now)) if *opened == now => write(path, opened),
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
    let time = |t: Duration| format!("{}.{:09}", t.as_secs(), t.subsec_nanos());
    let text = format!(
        "{MAGIC}\nsize {}\nmtime {}\nctime {}\ninode {}\nhash {:#018x}\nseen {}\nchecked {}\n",
        identity.size,
        time(identity.modified),
        time(identity.changed),
        identity.inode,
        identity.payload_hash,
        time(identity.seen),
        now().as_secs()
    );
    let stamp = stamp_path(path);
    let io = |e| TableError::io("writing the payload-check stamp", e).with_path(&stamp);
    let mut file = AtomicFile::create(&stamp).map_err(io)?;
    file.write_all(text.as_bytes()).map_err(io)?;
    file.commit().map_err(io)
}

/// When the payload of the table file at `path` was last checked completely, if its stamp is there and
/// still names this very file (size, modification and status-change times, inode and header hash).
pub fn checked_at(path: &Path) -> Option<SystemTime> {
    let (stamped, checked) = read(path)?;
    (Identity::of(path)? == stamped).then_some(checked)
}

/// What the stamp of the table file at `path` says of `opened`, the version of the file a loader
/// opened, from one read of the stamp: `None` when it names no stamp or another version;
/// `Some(true)` when it vouches for it (it names that version, whose payload was checked
/// completely, and that version had been [`SETTLED`] since its last change when it was seen, so
/// no write since can hide in its times); `Some(false)` when it names it but was written too soon
/// after its last change to vouch.
pub(crate) fn standing(path: &Path, opened: Option<&Identity>) -> Option<bool> {
    let opened = opened?;
    let (stamped, _) = read(path)?;
    (stamped == *opened).then(|| stamped.seen >= stamped.modified.max(stamped.changed) + SETTLED)
}

/// Whether the stamp of the table file at `path` vouches for `opened` ([`standing`]).
pub(crate) fn vouches_for(path: &Path, opened: Option<&Identity>) -> bool {
    standing(path, opened) == Some(true)
}

/// The identity the stamp of `path` names and when it was written.
fn read(path: &Path) -> Option<(Identity, SystemTime)> {
    let file = crate::file::open::open_regular(&stamp_path(path)).ok()?;
    let mut text = String::new();
    file.take(1024).read_to_string(&mut text).ok()?;
    let mut lines = text.lines();
    if lines.next()? != MAGIC {
        return None;
    }
    let mut field = |key: &str| lines.next()?.strip_prefix(key)?.strip_prefix(' ');
    let time = |text: &str| -> Option<Duration> {
        let (secs, nanos) = text.split_once('.')?;
        Some(Duration::new(secs.parse().ok()?, nanos.parse().ok()?))
    };
    let size = field("size")?.parse().ok()?;
    let modified = time(field("mtime")?)?;
    let changed = time(field("ctime")?)?;
    let inode = field("inode")?.parse().ok()?;
    let payload_hash = u64::from_str_radix(field("hash")?.strip_prefix("0x")?, 16).ok()?;
    let seen = time(field("seen")?)?;
    let checked = Duration::from_secs(field("checked")?.parse().ok()?);
    let stamped = Identity {
        size,
        modified,
        changed,
        inode,
        payload_hash,
        seen,
    };
    Some((stamped, SystemTime::UNIX_EPOCH + checked))
}
