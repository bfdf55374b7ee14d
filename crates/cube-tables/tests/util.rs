//! Shared fixtures: a written table, opening it every way, and corrupting files.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use cube_tables::{
    Encoding, NibbleTable, PruneTable, TableError, TableErrorKind, TableId, TableSpec, Tier,
    WriteOptions,
};
use tempfile::TempDir;

/// The fixture table: an odd number of nibbles, so the padding nibble is exercised, in the 7edge tier.
pub const SPEC: TableSpec = TableSpec::new(
    TableId::from_static("korf-edges-7a"),
    Encoding::Nibble,
    1001,
)
.with_tier(Tier::Edge7);

/// A temporary directory holding the fixture table.
pub struct Fixture {
    /// Kept alive so the directory outlives the test.
    pub _dir: TempDir,
    pub path: PathBuf,
    pub table: NibbleTable,
}

/// The fixture's entries: a deterministic spread of depths 0 to 12.
pub fn entries(n_entries: usize) -> NibbleTable {
    let mut table = NibbleTable::new(n_entries);
    for index in 0..n_entries {
        table.set(index, ((index * 7 + index / 13) % 13) as u8);
    }
    table
}

pub fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("a temporary directory can be created");
    let table = entries(SPEC.n_entries as usize);
    let path = cube_tables::write_table(
        dir.path(),
        &SPEC,
        &table.histogram(),
        table.as_bytes(),
        &WriteOptions::new(),
    )
    .expect("the fixture table is written");
    Fixture {
        _dir: dir,
        path,
        table,
    }
}

/// Opens `path` the three ways; each must fail with the same kind. Returns the error of `load`.
pub fn open_err(path: &Path, spec: &TableSpec) -> TableError {
    let owned = PruneTable::load(path, spec).expect_err("load should fail");
    let anonymous = PruneTable::load_anonymous(path, spec).expect_err("load_anonymous should fail");
    let mapped = open_mapped(path, spec).expect_err("open_mapped should fail");
    assert_eq!(owned.kind(), anonymous.kind(), "{owned} / {anonymous}");
    assert_eq!(owned.kind(), mapped.kind(), "{owned} / {mapped}");
    assert_eq!(owned.to_string(), mapped.to_string());
    owned
}

/// Asserts that opening `path` fails with `kind` the three ways, and that the message names the table,
/// the file and the fix. Returns the message.
pub fn assert_open_fails(path: &Path, spec: &TableSpec, kind: TableErrorKind) -> String {
    let err = open_err(path, spec);
    assert_eq!(err.kind(), kind, "{err}");
    assert_eq!(err.path(), Some(path));
    assert_eq!(err.table_id(), Some(spec.id));
    let message = err.to_string();
    let prefix = format!("table {} ({}): ", spec.id, path.display());
    let rest = message
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("no table and file in {message:?}"));
    let tier = spec.tier.expect("the test specs have a tier");
    assert!(
        rest.ends_with(&format!("re-run cube_tables::tier::bake for tier {tier})")),
        "{message}"
    );
    assert_eq!(rest, rest.to_lowercase(), "messages are lowercase");
    assert!(!rest.ends_with('.'), "{message}");
    message
}

#[allow(unsafe_code)]
pub fn open_mapped(
    path: &Path,
    spec: &TableSpec,
) -> Result<PruneTable<cube_tables::Mapped>, TableError> {
    // SAFETY: test files live in a private temporary directory and are not modified while mapped.
    unsafe { PruneTable::open_mapped(path, spec) }
}

/// Flips bit `bit` of the byte at `offset` of the file at `path`.
pub fn flip_bit(path: &Path, offset: u64, bit: u8) {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .expect("the file exists");
    let mut byte = [0u8];
    file.seek(SeekFrom::Start(offset)).unwrap();
    file.read_exact(&mut byte).unwrap();
    byte[0] ^= 1 << bit;
    file.seek(SeekFrom::Start(offset)).unwrap();
    file.write_all(&byte).unwrap();
}

/// Overwrites the bytes at `offset` of the file at `path`.
pub fn patch(path: &Path, offset: u64, bytes: &[u8]) {
    let mut file = OpenOptions::new()
        .write(true)
        .open(path)
        .expect("the file exists");
    file.seek(SeekFrom::Start(offset)).unwrap();
    file.write_all(bytes).unwrap();
}

/// The names of the files in `dir`, sorted.
pub fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}
