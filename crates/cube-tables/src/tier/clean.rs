//! The files the toolkit keeps in a table directory: [`list_files`] says what each is and the state
//! of its header, [`clean()`] removes a tier's, the method caches' or all of them.
//!
//! Files are known by their names (docs/tables.md, "File names and places"): `<id>.v<N>.tbl` tables
//! (pattern databases, H48 and nx tables by their ids, every other id a method's cached small
//! table), their seeds (`.zst`) and stamps (`.checked`), the scratch of a bake (`<id>.scratch`,
//! `h48-h11.scratch`), temporary files (`.<name>.<pid>-<n>.tmp`), xtask's `bake.log`, the two lock
//! files of `lock.rs` and the per-table lock files that older versions left (`<name>.lock`,
//! `<id>.bake.lock`). Any other file is not the toolkit's and is neither listed nor removed.
//!
//! A clean holds the writers' lock (so it never races a bake, and refuses or waits while one runs),
//! and removes its files in one exclusive step of the read lock (so no reader is between the opens of
//! a tier). It never removes the two persistent lock files; it removes the old per-table ones, which
//! no current writer uses.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{FileKind, family};
use crate::file::error::TableError;
use crate::file::format::TableInfo;
use crate::file::id::{TableSpec, Tier};
use crate::file::lock::{BAKE_LOCK_NAME, BakeLock, READ_LOCK_NAME, exclusive};

/// The state of a file of a table directory, from its header (never from its payload).
#[derive(Debug)]
pub enum FileState {
    /// A table file whose header passes the constant-time checks (against its table's spec for the
    /// pattern databases, H48 and nx tables, against itself for a method cache); `checked` is when
    /// its payload was last checked completely, when the stamp still names this file.
    Sound {
        /// What the header says.
        info: Box<TableInfo>,
        /// The date of the stamp, if it is current.
        checked: Option<SystemTime>,
    },
    /// A table file that fails a header check (another format version among them).
    Bad(TableError),
    /// A file with no header to check.
    NotATable,
}

/// One file of a table directory, as [`list_files`] finds it.
#[derive(Debug)]
pub struct KeptFile {
    /// The file's path.
    pub path: PathBuf,
    /// What it is.
    pub kind: FileKind,
    /// The table (or bake) it belongs to: `korf-edges-7a` for `korf-edges-7a.v1.tbl.checked`,
    /// `h48-h11` for the scratch of the h4..h7 bake; `None` for the bake log and the lock files.
    pub table: Option<String>,
    /// Its size in bytes.
    pub size: u64,
    /// Its state.
    pub state: FileState,
}

/// What [`clean()`] removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clean {
    /// The tables of a tier, with their seeds, stamps, scratch and old lock files. The corner
    /// database goes only when no other tier that needs it has a table left.
    Tier(Tier),
    /// The cached small tables of the methods, with their stamps and temporary files.
    MethodCaches,
    /// Every file of the toolkit but the two persistent lock files.
    All,
}

/// Every file the toolkit keeps in `dir`, sorted by name; an empty list when `dir` does not exist.
///
/// # Errors
///
/// `Io` when the directory cannot be read.
pub fn list_files(dir: &Path) -> Result<Vec<KeptFile>, TableError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(TableError::io("reading the table directory", e).with_path(dir)),
    };
    let mut files = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|e| TableError::io("reading the table directory", e).with_path(dir))?;
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        let Some((kind, table)) = classify(&name) else {
            continue;
        };
        let path = entry.path();
        let size = entry.metadata().map_or(0, |m| m.len());
        let state = match kind {
            FileKind::PatternDatabase | FileKind::H48Table | FileKind::MethodCache => {
                header_state(&path, table.as_deref())
            }
            _ => FileState::NotATable,
        };
        files.push(KeptFile {
            path,
            kind,
            table,
            size,
            state,
        });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// Removes the files of `selection` from `dir` under the writers' lock, failing with `Locked` while a
/// bake or another clean runs, or waiting for it when `wait` is set; returns what it removed. A
/// directory that does not exist is left so: nothing is created.
///
/// # Errors
///
/// - `Locked` when a bake or clean of `dir` is running and `wait` is not set.
/// - `Io` when the directory cannot be read or a file cannot be removed (the files before it are
///   removed).
pub fn clean(dir: &Path, selection: Clean, wait: bool) -> Result<Vec<KeptFile>, TableError> {
    // Nothing to remove from a directory that is not there, and the lock would create it.
    if std::fs::symlink_metadata(dir).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        return Ok(Vec::new());
    }
    let lock = BakeLock::acquire(dir, wait)?;
    let files = list_files(dir)?;
    let keep_corners = match selection {
        Clean::Tier(tier) => other_tier_present(&files, tier),
        Clean::MethodCaches | Clean::All => false,
    };
    let chosen: Vec<KeptFile> = files
        .into_iter()
        .filter(|file| selected(file, selection, keep_corners))
        .collect();
    exclusive(lock.dir(), || {
        for file in &chosen {
            match std::fs::remove_file(&file.path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(TableError::io("removing", e).with_path(&file.path)),
            }
        }
        Ok(())
    })??;
    Ok(chosen)
}

/// Whether `file` is in `selection`.
fn selected(file: &KeptFile, selection: Clean, keep_corners: bool) -> bool {
    match selection {
        Clean::All => file.kind != FileKind::Lock,
        Clean::MethodCaches => match file.kind {
            FileKind::MethodCache => true,
            FileKind::Stamp | FileKind::Temporary | FileKind::StaleLock => file
                .table
                .as_deref()
                .is_some_and(|id| known_table(id).is_none()),
            _ => false,
        },
        Clean::Tier(tier) => file.table.as_deref().is_some_and(|id| {
            let corners = id == crate::pdb::CORNERS.spec.id.as_str();
            own_ids(tier).iter().any(|own| own == id) || (corners && !keep_corners)
        }),
    }
}

/// Whether a tier other than `tier` that needs the corner database has a table in `files`.
fn other_tier_present(files: &[KeptFile], tier: Tier) -> bool {
    Tier::ALL
        .into_iter()
        .filter(|&other| other != tier)
        .any(|other| {
            files.iter().any(|file| {
                matches!(file.kind, FileKind::PatternDatabase | FileKind::H48Table)
                    && file
                        .table
                        .as_deref()
                        .is_some_and(|id| own_ids(other).iter().any(|own| own == id))
            })
        })
}

/// The ids of the files that belong to `tier` alone (its edge tables, or its H48 or nx table, and
/// for h4..h7 the name of the bake that writes them), the shared corner database aside.
fn own_ids(tier: Tier) -> Vec<String> {
    let mut ids: Vec<String> = super::specs(tier)
        .iter()
        .filter(|spec| spec.id != crate::pdb::CORNERS.spec.id)
        .map(|spec| spec.id.to_string())
        .collect();
    // The scratch (and old lock) of a pass that bakes it with other tiers (h4..h7's).
    let scratch = family(tier.family()).scratch_ids(tier);
    ids.extend(scratch.iter().map(|id| (*id).to_owned()));
    ids
}

/// The spec of a pattern database, H48 or nx table by id (`None` for a family's bake scratch),
/// with its kind; `None` for any other id.
fn known_table(id: &str) -> Option<(FileKind, Option<TableSpec>)> {
    if id == crate::pdb::CORNERS.spec.id.as_str() {
        return Some((FileKind::PatternDatabase, Some(crate::pdb::CORNERS.spec)));
    }
    Tier::ALL.into_iter().find_map(|tier| {
        let owner = family(tier.family());
        if owner.scratch_ids(tier).contains(&id) {
            return Some((owner.file_kind(), None));
        }
        let spec = owner
            .tables(tier)
            .into_iter()
            .find(|spec| spec.id.as_str() == id)?;
        Some((owner.file_kind(), Some(spec)))
    })
}

/// The state of the table file at `path`, whose id (from its name) is `id`.
fn header_state(path: &Path, id: Option<&str>) -> FileState {
    let known = id.and_then(known_table).and_then(|(_, spec)| spec);
    let result = match known {
        Some(spec) => crate::file::table::open_checked(path, &spec)
            .map(|(_, info)| info)
            .map_err(|e| e.at(spec.id, path, &spec.fix, spec.tier)),
        None => crate::file::table::check_own_header(path).map_err(|e| e.with_path(path)),
    };
    match result {
        Ok(info) => FileState::Sound {
            info: Box::new(info),
            checked: crate::file::stamp::checked_at(path),
        },
        Err(e) => FileState::Bad(e),
    }
}

/// What the file called `name` is, and the table it belongs to; `None` for a file that is not the
/// toolkit's.
fn classify(name: &str) -> Option<(FileKind, Option<String>)> {
    if name == BAKE_LOCK_NAME || name == READ_LOCK_NAME {
        return Some((FileKind::Lock, None));
    }
    if name == "bake.log" {
        return Some((FileKind::BakeLog, None));
    }
    // `.<name>.<pid>-<n>.tmp`: AtomicFile's temporaries, of tables and of their stamps and seeds.
    if let Some(inner) = name
        .strip_prefix('.')
        .and_then(|rest| rest.strip_suffix(".tmp"))
    {
        let (file, tag) = inner.rsplit_once('.')?;
        let (pid, n) = tag.split_once('-')?;
        if !is_number(pid) || !is_number(n) {
            return None;
        }
        // A stamp's or a seed's temporary belongs to the stamp's or the seed's table.
        let file = [".checked", ".zst"]
            .into_iter()
            .find_map(|suffix| file.strip_suffix(suffix))
            .unwrap_or(file);
        return Some((FileKind::Temporary, Some(table_of(file)?.to_owned())));
    }
    let suffixed = [
        (".zst", FileKind::Seed),
        (".checked", FileKind::Stamp),
        (".lock", FileKind::StaleLock),
    ];
    for (suffix, kind) in suffixed {
        if let Some(file) = name.strip_suffix(suffix)
            && let Some(id) = table_of(file)
        {
            return Some((kind, Some(id.to_owned())));
        }
    }
    if let Some(id) = name.strip_suffix(".bake.lock").filter(|id| valid_id(id)) {
        return Some((FileKind::StaleLock, Some(id.to_owned())));
    }
    if let Some(id) = name.strip_suffix(".scratch").filter(|id| valid_id(id)) {
        return Some((FileKind::Scratch, Some(id.to_owned())));
    }
    let id = table_of(name)?;
    let kind = known_table(id).map_or(FileKind::MethodCache, |(kind, _)| kind);
    Some((kind, Some(id.to_owned())))
}

/// The id of a table file name `<id>.v<N>.tbl` (any version).
fn table_of(name: &str) -> Option<&str> {
    let (id, version) = name.strip_suffix(".tbl")?.rsplit_once(".v")?;
    (is_number(version) && valid_id(id)).then_some(id)
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

fn valid_id(id: &str) -> bool {
    crate::file::id::TableId::new(id).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let kind = |name| classify(name).map(|(kind, table)| (kind, table.unwrap_or_default()));
        let of = |kind, table: &str| Some((kind, table.to_owned()));
        assert_eq!(
            kind("korf-corners.v1.tbl"),
            of(FileKind::PatternDatabase, "korf-corners")
        );
        assert_eq!(kind("h48-h5.v1.tbl"), of(FileKind::H48Table, "h48-h5"));
        assert_eq!(
            kind("two-phase-edge-slice.v1.tbl"),
            of(FileKind::MethodCache, "two-phase-edge-slice")
        );
        assert_eq!(
            kind("korf-edges-6a.v1.tbl.zst"),
            of(FileKind::Seed, "korf-edges-6a")
        );
        assert_eq!(
            kind("cross-15.v1.tbl.checked"),
            of(FileKind::Stamp, "cross-15")
        );
        assert_eq!(
            kind(".h48-h0.v1.tbl.123-4.tmp"),
            of(FileKind::Temporary, "h48-h0")
        );
        assert_eq!(
            kind(".korf-corners.v1.tbl.checked.9-0.tmp"),
            of(FileKind::Temporary, "korf-corners")
        );
        assert_eq!(
            kind("korf-corners.v1.tbl.lock"),
            of(FileKind::StaleLock, "korf-corners")
        );
        assert_eq!(
            kind("h48-h11.bake.lock"),
            of(FileKind::StaleLock, "h48-h11")
        );
        assert_eq!(kind("h48-h11.scratch"), of(FileKind::Scratch, "h48-h11"));
        assert_eq!(kind(".bake.lock"), of(FileKind::Lock, ""));
        assert_eq!(kind(".lock"), of(FileKind::Lock, ""));
        assert_eq!(kind("bake.log"), of(FileKind::BakeLog, ""));
        for foreign in [
            "notes.txt",
            "korf-corners.v1.tbl.tmp",
            "test.lock",
            ".x.tmp",
            "Korf.v1.tbl",
        ] {
            assert_eq!(kind(foreign), None, "{foreign}");
        }
    }
}
