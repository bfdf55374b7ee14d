//! The table families through the public API: [`load_or_build`] in an empty directory builds and
//! writes every table, a second call reads them and builds nothing, a corrupt file or a file the
//! family refuses is rebuilt, a directory that cannot be written only means building; payloads
//! under a wrong name or of a wrong length are refused with an error.

use std::path::PathBuf;

use cube_solvers::beginner::{BeginnerTables, CrossTables};
use cube_solvers::cfop::CfopTables;
use cube_solvers::thistlethwaite::ThistlethwaiteTables;
use cube_solvers::two_phase::TwoPhaseTables;
use cube_solvers::{MethodTables, PayloadError, Payloads, load_or_build};
use cube_tables::{TableId, WriteOptions, histogram, write_table};

/// A path of this test's own under the target directory, with nothing there.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("method-tables")
        .join(name);
    // A test leaves a plain file where a directory would be.
    if dir.is_dir() {
        std::fs::remove_dir_all(&dir).expect("the old test directory can be removed");
    } else if dir.exists() {
        std::fs::remove_file(&dir).expect("the old test file can be removed");
    }
    dir
}

fn round_trip<T: MethodTables>() {
    let dir = fresh_dir(T::NAME);
    let first = load_or_build::<T>(&dir).expect("builds");
    assert_eq!(first.built, T::SPECS.len(), "{}", T::NAME);
    assert!(first.not_written.is_none(), "{:?}", first.not_written);
    for spec in T::SPECS {
        assert!(spec.path_in(&dir).is_file(), "{}", spec.id);
    }
    let second = load_or_build::<T>(&dir).expect("loads");
    assert_eq!(second.built, 0, "{}", T::NAME);
    for spec in T::SPECS {
        assert_eq!(
            second.tables.payload(spec.id),
            first.tables.payload(spec.id),
            "{}",
            spec.id
        );
    }
    // A corrupt file (one payload byte changed: its hash no longer matches) is rebuilt alone.
    let path = T::SPECS[0].path_in(&dir);
    let mut bytes = std::fs::read(&path).expect("the table file reads");
    *bytes.last_mut().expect("a payload") ^= 1;
    std::fs::write(&path, bytes).expect("the table file writes");
    assert_eq!(load_or_build::<T>(&dir).expect("rebuilds").built, 1);
    assert_eq!(load_or_build::<T>(&dir).expect("loads").built, 0);
}

#[test]
fn load_or_build_writes_then_reads() {
    round_trip::<ThistlethwaiteTables>();
    round_trip::<CrossTables>();
    round_trip::<BeginnerTables>();
    round_trip::<CfopTables>();
}

#[test]
fn the_beginner_and_cfop_families_read_the_cross_files() {
    let dir = fresh_dir("cross-shared");
    assert_eq!(
        load_or_build::<CrossTables>(&dir).expect("builds").built,
        CrossTables::SPECS.len()
    );
    let beginner = load_or_build::<BeginnerTables>(&dir).expect("loads");
    let cfop = load_or_build::<CfopTables>(&dir).expect("loads");
    assert_eq!((beginner.built, cfop.built), (0, 0));
    for spec in CrossTables::SPECS {
        assert_eq!(
            beginner.tables.payload(spec.id),
            cfop.tables.payload(spec.id),
            "{}",
            spec.id
        );
    }
}

/// A file that passes every file check (its hash is right) but holds a payload the family refuses
/// (written by an incompatible build, say) is rebuilt with the rest of the family.
#[test]
fn payloads_the_family_refuses_are_rebuilt() {
    let dir = fresh_dir("refused");
    let spec = CrossTables::SPECS[14];
    let payload = vec![0u8; spec.payload_len() as usize];
    let histogram = histogram(&payload, spec.encoding, spec.n_entries);
    write_table(&dir, &spec, &histogram, &payload, &WriteOptions::new()).expect("writes");
    let loaded = load_or_build::<CrossTables>(&dir).expect("builds");
    assert_eq!(loaded.built, 15, "14 missing, one refused");
    let again = load_or_build::<CrossTables>(&dir).expect("loads");
    assert_eq!(again.built, 0);
    assert_eq!(
        again.tables.payload(spec.id),
        CrossTables::build().payload(spec.id)
    );
}

#[test]
fn a_directory_that_cannot_be_written_only_means_building() {
    let file = fresh_dir("not-a-directory");
    std::fs::create_dir_all(file.parent().expect("a parent")).expect("creates");
    std::fs::write(&file, "a file where the directory would be").expect("writes");
    let loaded = load_or_build::<CrossTables>(&file.join("tables")).expect("builds");
    assert_eq!(loaded.built, 15);
    assert!(loaded.not_written.is_some());
    assert_eq!(
        loaded.tables.payload(CrossTables::SPECS[3].id),
        CrossTables::build().payload(CrossTables::SPECS[3].id)
    );
}

#[test]
fn payloads_of_a_wrong_name_or_length_are_refused() {
    let payloads = Payloads::of(&CrossTables::build());
    let stranger = TableId::from_static("cross-16");
    let mut extra = payloads.clone();
    extra.insert(stranger, vec![0; 24]);
    let error = CrossTables::from_payloads(extra).expect_err("an unknown name");
    assert_eq!(error, PayloadError::Unexpected { id: stranger });
    assert_eq!(
        error.to_string(),
        "table cross-16: not a table of this method"
    );
    let cross_1 = CrossTables::SPECS[0].id;
    let mut missing = payloads.clone();
    missing
        .take(&CrossTables::SPECS[0])
        .expect("cross-1 is there");
    assert_eq!(
        CrossTables::from_payloads(missing).expect_err("one missing"),
        PayloadError::Missing { id: cross_1 }
    );
    let mut short = payloads;
    short.insert(cross_1, vec![0; 23]);
    let error = CrossTables::from_payloads(short).expect_err("a short payload");
    assert_eq!(
        error.to_string(),
        "table cross-1: payload of 23 bytes, expected 24"
    );
    // The payloads of one family are no payloads of another.
    let error = ThistlethwaiteTables::from_payloads(Payloads::of(&CrossTables::build()))
        .expect_err("another family");
    assert_eq!(
        error,
        PayloadError::Missing {
            id: ThistlethwaiteTables::SPECS[0].id
        }
    );
}

/// The cache the two-phase tests share: read again, nothing is built and the tables are large.
#[test]
fn two_phase_tables_are_read_back_from_the_cache() {
    let first = crate::two_phase::large_tables();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("two-phase");
    let again = load_or_build::<TwoPhaseTables>(&dir).expect("loads");
    assert_eq!(again.built, 0);
    assert!(again.tables.is_large());
    for spec in TwoPhaseTables::SPECS {
        assert_eq!(again.tables.payload(spec.id), first.payload(spec.id));
    }
}
