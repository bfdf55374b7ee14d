//! Writing tables: atomic renames, leftover temporary files, a bake killed half-way, a full disk, and two
//! bakes of the same table at once.

use std::path::Path;
use std::time::{Duration, Instant};

use cube_tables::{PruneTable, TableErrorKind, TableWriter, WriteOptions, verify};

use crate::util::{SPEC, entries, file_names};

fn write_fixture(
    dir: &Path,
    options: &WriteOptions,
) -> Result<std::path::PathBuf, cube_tables::TableError> {
    let table = entries(SPEC.n_entries as usize);
    cube_tables::write_table(dir, &SPEC, &table.histogram(), table.as_bytes(), options)
}

/// A user's `<name>.tmp` is never touched, and a temporary file left by a killed writer never loads
/// and is removed by the next writer of the table. See issue 15.
#[test]
fn leftover_tmp_is_ignored_then_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let users = dir.path().join("korf-edges-7a.v1.tbl.tmp");
    std::fs::write(&users, b"a user's file").unwrap();
    let stale = dir.path().join(".korf-edges-7a.v1.tbl.999999-0.tmp");
    std::fs::write(&stale, vec![0xAB; 10_000]).unwrap();
    let err = PruneTable::load(&SPEC.path_in(dir.path()), &SPEC).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::Missing);
    let path = write_fixture(dir.path(), &WriteOptions::new()).unwrap();
    assert_eq!(
        file_names(dir.path()),
        [
            ".bake.lock",
            ".lock",
            "korf-edges-7a.v1.tbl",
            "korf-edges-7a.v1.tbl.tmp"
        ]
    );
    assert_eq!(std::fs::read(&users).unwrap(), b"a user's file");
    verify(&PruneTable::load(&path, &SPEC).unwrap(), None).unwrap();
}

/// The temporary files of the fixture table in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    file_names(dir)
        .into_iter()
        .filter(|name| name.starts_with(".korf-edges-7a.v1.tbl.") && name.ends_with(".tmp"))
        .collect()
}

/// A bake killed half-way (SIGKILL, in a child process) leaves only its temporary file, and the
/// directory's lock files do not block the next bake: file locks die with the process.
#[test]
fn killed_bake() {
    const CHILD_DIR: &str = "CUBE_TABLES_TEST_KILLED_BAKE_DIR";
    if let Some(dir) = std::env::var_os(CHILD_DIR) {
        // The child: take the lock, write half the payload, say so, and wait to be killed.
        let dir = Path::new(&dir);
        let mut writer = TableWriter::create(dir, &SPEC, &WriteOptions::new()).unwrap();
        writer.write(&[0x11; 250]).unwrap();
        std::fs::write(dir.join("child-ready"), b"").unwrap();
        std::thread::sleep(Duration::from_secs(60));
        panic!("the parent should have killed this process");
    }
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "bake::killed_bake",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !dir.path().join("child-ready").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the child bake never got half-way"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // While the child lives, a second bake is refused.
    let err = write_fixture(dir.path(), &WriteOptions::new()).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::Locked, "{err}");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        temporaries(dir.path()).len(),
        1,
        "{:?}",
        file_names(dir.path())
    );
    assert_eq!(
        file_names(dir.path()).len(),
        4,
        "{:?}",
        file_names(dir.path())
    );
    assert_eq!(
        PruneTable::load(&SPEC.path_in(dir.path()), &SPEC)
            .unwrap_err()
            .kind(),
        TableErrorKind::Missing
    );
    let path = write_fixture(dir.path(), &WriteOptions::new()).unwrap();
    verify(&PruneTable::load(&path, &SPEC).unwrap(), None).unwrap();
    assert_eq!(
        file_names(dir.path()),
        [".bake.lock", ".lock", "child-ready", "korf-edges-7a.v1.tbl"]
    );
}

/// Two bakes into one directory at once: the second fails with `Locked`, or waits when asked to.
#[test]
fn concurrent_bakes() {
    let dir = tempfile::tempdir().unwrap();
    let table = entries(SPEC.n_entries as usize);
    let mut first = TableWriter::create(dir.path(), &SPEC, &WriteOptions::new()).unwrap();
    first.write(&table.as_bytes()[..100]).unwrap();

    let err = write_fixture(dir.path(), &WriteOptions::new()).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::Locked);
    let lock = dir.path().join(".bake.lock");
    assert_eq!(err.path(), Some(lock.as_path()));
    assert_eq!(
        err.to_string(),
        format!(
            "table korf-edges-7a ({}): another bake or clean of this table directory is running \
             (wait for it to finish, or ask to wait for the lock)",
            lock.display()
        )
    );
    // The refused bake must not have touched the first one's temporary file.
    assert_eq!(temporaries(dir.path()).len(), 1);

    let waiting = std::thread::spawn({
        let dir = dir.path().to_path_buf();
        move || write_fixture(&dir, &WriteOptions::new().wait_for_lock(true))
    });
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !waiting.is_finished(),
        "the second bake should wait for the lock"
    );
    first.write(&table.as_bytes()[100..]).unwrap();
    first.finish(&table.histogram()).unwrap();
    let path = waiting.join().unwrap().unwrap();
    verify(&PruneTable::load(&path, &SPEC).unwrap(), None).unwrap();
}

#[test]
fn directory_is_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_dir = dir.path().join("file");
    std::fs::write(&not_a_dir, b"").unwrap();
    let err = write_fixture(&not_a_dir, &WriteOptions::new()).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::Io);
    assert!(
        err.to_string().contains("creating the table directory"),
        "{err}"
    );
    assert!(std::error::Error::source(&err).is_some());
}

#[test]
fn invalid_input() {
    let dir = tempfile::tempdir().unwrap();
    let table = entries(SPEC.n_entries as usize);
    let short = cube_tables::write_table(
        dir.path(),
        &SPEC,
        &table.histogram(),
        &table.as_bytes()[1..],
        &WriteOptions::new(),
    );
    assert_eq!(short.unwrap_err().kind(), TableErrorKind::InvalidInput);
    let mut histogram = table.histogram();
    histogram[3] += 1;
    let bad = cube_tables::write_table(
        dir.path(),
        &SPEC,
        &histogram,
        table.as_bytes(),
        &WriteOptions::new(),
    );
    assert_eq!(bad.unwrap_err().kind(), TableErrorKind::InvalidInput);

    let mut writer = TableWriter::create(dir.path(), &SPEC, &WriteOptions::new()).unwrap();
    writer.write(&table.as_bytes()[..10]).unwrap();
    assert_eq!(
        writer.finish(&table.histogram()).unwrap_err().kind(),
        TableErrorKind::InvalidInput
    );
    let mut writer = TableWriter::create(dir.path(), &SPEC, &WriteOptions::new()).unwrap();
    writer.write(table.as_bytes()).unwrap();
    assert_eq!(
        writer.write(&[0]).unwrap_err().kind(),
        TableErrorKind::InvalidInput
    );
    drop(writer);
    assert_eq!(
        file_names(dir.path()),
        [".bake.lock", ".lock"],
        "no temporary file is left"
    );
}
