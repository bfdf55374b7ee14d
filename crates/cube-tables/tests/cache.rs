//! `load_or_build`: the on-disk cache of small tables.

use std::cell::Cell;
use std::path::Path;

use cube_tables::{
    CacheOutcome, Encoding, FORMAT_VERSION, HEADER_LEN, PruneTable, TableErrorKind, TableId,
    TableSpec, load_or_build, load_or_build_with_outcome, verify,
};

use crate::util::{file_names, flip_bit, patch};

/// A small byte table, outside the tiers, as two-phase and Thistlethwaite cache them.
const SPEC: TableSpec = TableSpec::new(TableId::from_static("cache-test"), Encoding::Byte, 5000);

fn payload() -> Vec<u8> {
    (0..SPEC.n_entries).map(|i| (i % 13) as u8).collect()
}

/// Calls `load_or_build` with a builder that counts its calls; returns the payload and the count.
fn load(dir: &Path) -> (Vec<u8>, u32) {
    let calls = Cell::new(0);
    let bytes = load_or_build(dir, &SPEC, || {
        calls.set(calls.get() + 1);
        payload()
    })
    .expect("the cache never fails for a well-built payload");
    (bytes, calls.get())
}

/// A way to damage a table file.
type Corruption<'a> = &'a dyn Fn(&Path);

/// The cached file holds the payload and passes every check.
fn assert_cached(dir: &Path) {
    let table = PruneTable::load(&SPEC.path_in(dir), &SPEC).expect("the cached file loads");
    verify(&table, None).expect("the cached file verifies");
    assert_eq!(table.payload(), payload().as_slice());
}

#[test]
fn missing_is_built_and_written_then_loaded() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(load(dir.path()), (payload(), 1));
    assert_cached(dir.path());
    assert!(file_names(dir.path()).contains(&SPEC.id.file_name()));
    // The second call reads the file and never builds.
    assert_eq!(load(dir.path()), (payload(), 0));
    let (_, outcome) =
        load_or_build_with_outcome(dir.path(), &SPEC, || unreachable!("cached")).unwrap();
    assert!(matches!(outcome, CacheOutcome::Loaded), "{outcome:?}");
}

#[test]
fn a_missing_directory_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("a").join("b");
    assert_eq!(load(&nested), (payload(), 1));
    assert_cached(&nested);
}

#[test]
fn corrupt_files_are_rebuilt_and_rewritten() {
    let path_of = |dir: &Path| SPEC.path_in(dir);
    let corruptions: [(&str, Corruption<'_>); 6] = [
        ("payload bit flip", &|p| {
            flip_bit(p, HEADER_LEN as u64 + 1234, 3)
        }),
        ("header bit flip", &|p| flip_bit(p, 40, 0)),
        ("truncated", &|p| {
            let file = std::fs::OpenOptions::new().write(true).open(p).unwrap();
            file.set_len(HEADER_LEN as u64 + 100).unwrap();
        }),
        ("too short for a header", &|p| {
            std::fs::write(p, b"cube").unwrap()
        }),
        ("other format version", &|p| {
            patch(p, 20, &(FORMAT_VERSION + 1).to_ne_bytes())
        }),
        ("another table's file", &|p| {
            let other = TableSpec::new(TableId::from_static("other"), Encoding::Byte, 5000);
            let dir = p.parent().unwrap();
            let written = cube_tables::write_table(
                dir,
                &other,
                &cube_tables::histogram(&payload(), Encoding::Byte, 5000),
                &payload(),
                &cube_tables::WriteOptions::new(),
            )
            .unwrap();
            std::fs::rename(written, p).unwrap();
        }),
    ];
    for (what, corrupt) in corruptions {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()), (payload(), 1), "{what}");
        corrupt(&path_of(dir.path()));
        let bad = PruneTable::load(&path_of(dir.path()), &SPEC)
            .map_err(|e| e.kind())
            .and_then(|t| verify(&t, None).map_err(|e| e.kind()));
        assert!(bad.is_err(), "{what}: the corruption is detected");
        assert_eq!(load(dir.path()), (payload(), 1), "{what}: rebuilt");
        assert_cached(dir.path());
        assert_eq!(load(dir.path()), (payload(), 0), "{what}: rewritten");
    }
}

#[test]
fn an_unwritable_directory_still_gives_the_table() {
    let dir = tempfile::tempdir().unwrap();
    // A directory below a regular file can be neither created nor written, even by root.
    let file = dir.path().join("plain-file");
    std::fs::write(&file, b"not a directory").unwrap();
    let below = file.join("tables");
    assert_eq!(load(&below), (payload(), 1));
    assert_eq!(load(&below), (payload(), 1), "nothing was cached");
    let (table, outcome) = load_or_build_with_outcome(&below, &SPEC, payload).unwrap();
    assert_eq!(table.payload(), payload());
    assert!(
        matches!(outcome, CacheOutcome::NotWritten(_)),
        "{outcome:?}"
    );
}

#[test]
fn a_wrong_length_payload_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = load_or_build(dir.path(), &SPEC, || vec![0; 10]).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::InvalidInput);
    assert!(
        file_names(dir.path()).is_empty(),
        "{:?}",
        file_names(dir.path())
    );
}
