//! The files of a table directory: the listing of what the toolkit keeps there, and `clean`, which
//! removes a tier's files, the method caches or all, under the directory's lock.

use std::path::Path;
use std::time::Duration;

use cube_tables::{
    Clean, Encoding, FileKind, FileState, PruneTable, TableErrorKind, TableId, TableSpec,
    TableWriter, Tier, WriteOptions, clean, list_files, verify, write_check_stamp,
};

use crate::util::{SPEC, entries, file_names};

/// A method's cached table: a real table file with a stamp of its full check.
const CACHE: TableSpec = TableSpec::new(TableId::from_static("cross-3"), Encoding::Byte, 300);

fn write_cache(dir: &Path) {
    let payload: Vec<u8> = (0..300).map(|i| (i % 7) as u8).collect();
    let histogram = cube_tables::histogram(&payload, Encoding::Byte, 300);
    let path =
        cube_tables::write_table(dir, &CACHE, &histogram, &payload, &WriteOptions::new()).unwrap();
    let table = PruneTable::load(&path, &CACHE).unwrap();
    verify(&table, None).unwrap();
    write_check_stamp(&table).unwrap();
}

fn touch(dir: &Path, names: &[&str]) {
    for name in names {
        std::fs::write(dir.join(name), b"x").unwrap();
    }
}

#[test]
fn the_listing_names_every_file_of_the_toolkit_with_its_state() {
    let dir = tempfile::tempdir().unwrap();
    write_cache(dir.path());
    // The fixture is a sound table file called korf-edges-7a, but not the real one's length.
    let fixture = entries(SPEC.n_entries as usize);
    cube_tables::write_table(
        dir.path(),
        &SPEC,
        &fixture.histogram(),
        fixture.as_bytes(),
        &WriteOptions::new(),
    )
    .unwrap();
    touch(
        dir.path(),
        &[
            "korf-corners.v1.tbl",
            "korf-edges-6a.scratch",
            ".h48-h5.v1.tbl.77-0.tmp",
            "korf-corners.bake.lock",
            "bake.log",
            "notes.txt",
        ],
    );
    let files = list_files(dir.path()).unwrap();
    let seen: Vec<(String, FileKind, u64)> = files
        .iter()
        .map(|f| {
            let name = f.path.file_name().unwrap().to_str().unwrap().to_owned();
            (name, f.kind, f.size)
        })
        .collect();
    let expected = [
        (".bake.lock", FileKind::Lock, 0),
        (".h48-h5.v1.tbl.77-0.tmp", FileKind::Temporary, 1),
        (".lock", FileKind::Lock, 0),
        ("bake.log", FileKind::BakeLog, 1),
        ("cross-3.v1.tbl", FileKind::MethodCache, 384 + 300),
        ("korf-corners.bake.lock", FileKind::StaleLock, 1),
        ("korf-corners.v1.tbl", FileKind::PatternDatabase, 1),
        ("korf-edges-6a.scratch", FileKind::Scratch, 1),
        ("korf-edges-7a.v1.tbl", FileKind::PatternDatabase, 384 + 501),
    ];
    let expected: Vec<(String, FileKind, u64)> = expected
        .iter()
        .map(|&(name, kind, size)| (name.to_owned(), kind, size))
        .collect();
    // The stamp's size is its text's; only its place in the list is checked here.
    let (stamps, rest): (Vec<_>, Vec<_>) = seen
        .into_iter()
        .partition(|(_, kind, _)| *kind == FileKind::Stamp);
    assert_eq!(rest, expected);
    assert_eq!(stamps.len(), 1);
    assert_eq!(stamps[0].0, "cross-3.v1.tbl.checked");

    let state = |name: &str| {
        &files
            .iter()
            .find(|f| f.path.ends_with(name))
            .expect("listed")
            .state
    };
    match state("cross-3.v1.tbl") {
        FileState::Sound { info, checked } => {
            assert_eq!(info.id, CACHE.id);
            assert_eq!(info.n_entries, 300);
            assert!(checked.is_some(), "the stamp is current");
        }
        other => panic!("the cache is sound: {other:?}"),
    }
    match state("korf-corners.v1.tbl") {
        FileState::Bad(e) => assert_eq!(e.kind(), TableErrorKind::TooShortForHeader, "{e}"),
        other => panic!("a one-byte file is bad: {other:?}"),
    }
    // Checked against the real korf-edges-7a, of 510,935,040 entries.
    match state("korf-edges-7a.v1.tbl") {
        FileState::Bad(e) => assert_eq!(e.kind(), TableErrorKind::LengthMismatch, "{e}"),
        other => panic!("the fixture is not the real table: {other:?}"),
    }
    assert!(matches!(state("bake.log"), FileState::NotATable));
    assert!(list_files(&dir.path().join("absent")).unwrap().is_empty());
}

#[test]
fn clean_removes_a_tier_the_method_caches_or_all() {
    let dir = tempfile::tempdir().unwrap();
    write_cache(dir.path());
    touch(
        dir.path(),
        &[
            "korf-corners.v1.tbl",
            "korf-corners.v1.tbl.checked",
            "korf-edges-6a.v1.tbl",
            "korf-edges-6a.v1.tbl.checked",
            "korf-edges-6b.v1.tbl",
            "korf-edges-6b.v1.tbl.zst",
            "korf-edges-6b.v1.tbl.lock",
            "korf-edges-7a.v1.tbl",
            "h48-h0.v1.tbl",
            "h48-h11.scratch",
            "bake.log",
            "notes.txt",
        ],
    );
    let removed = |cleaned: Vec<cube_tables::KeptFile>| -> Vec<String> {
        let mut names: Vec<String> = cleaned
            .iter()
            .map(|f| f.path.file_name().unwrap().to_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    };
    // 7edge and h0 still need the corners.
    assert_eq!(
        removed(clean(dir.path(), Clean::Tier(Tier::Edge6), false).unwrap()),
        [
            "korf-edges-6a.v1.tbl",
            "korf-edges-6a.v1.tbl.checked",
            "korf-edges-6b.v1.tbl",
            "korf-edges-6b.v1.tbl.lock",
            "korf-edges-6b.v1.tbl.zst"
        ]
    );
    assert_eq!(
        removed(clean(dir.path(), Clean::Tier(Tier::Edge7), false).unwrap()),
        ["korf-edges-7a.v1.tbl"]
    );
    // The last tier takes the corners with it.
    assert_eq!(
        removed(clean(dir.path(), Clean::Tier(Tier::H0), false).unwrap()),
        [
            "h48-h0.v1.tbl",
            "korf-corners.v1.tbl",
            "korf-corners.v1.tbl.checked"
        ]
    );
    assert_eq!(
        removed(clean(dir.path(), Clean::MethodCaches, false).unwrap()),
        ["cross-3.v1.tbl", "cross-3.v1.tbl.checked"]
    );
    assert_eq!(
        removed(clean(dir.path(), Clean::All, false).unwrap()),
        ["bake.log", "h48-h11.scratch"]
    );
    // Only the two persistent lock files and the file that is not the toolkit's are left.
    assert_eq!(file_names(dir.path()), [".bake.lock", ".lock", "notes.txt"]);
}

/// A clean refuses while a bake holds the directory, or waits for it when asked to; the lock files
/// are the two persistent ones before and after.
#[test]
fn clean_refuses_or_waits_during_a_bake() {
    let dir = tempfile::tempdir().unwrap();
    let table = entries(SPEC.n_entries as usize);
    let mut bake = TableWriter::create(dir.path(), &SPEC, &WriteOptions::new()).unwrap();
    bake.write(&table.as_bytes()[..100]).unwrap();

    let err = clean(dir.path(), Clean::All, false).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::Locked, "{err}");
    assert_eq!(err.path(), Some(dir.path().join(".bake.lock").as_path()));

    let waiting = std::thread::spawn({
        let dir = dir.path().to_path_buf();
        move || clean(&dir, Clean::All, true)
    });
    std::thread::sleep(Duration::from_millis(200));
    assert!(!waiting.is_finished(), "the clean waits for the bake");
    bake.write(&table.as_bytes()[100..]).unwrap();
    let path = bake.finish(&table.histogram()).unwrap();
    let cleaned = waiting.join().unwrap().unwrap();
    assert!(cleaned.iter().any(|f| f.path == path), "{cleaned:?}");
    assert_eq!(file_names(dir.path()), [".bake.lock", ".lock"]);
}
