//! One test per fault injected into a written table file. Each fault has its own error kind, and every
//! message names the table and the file and says how to fix it.

use std::fs::OpenOptions;

use cube_tables::{
    Encoding, FORMAT_VERSION, HEADER_LEN, PruneTable, TableError, TableErrorKind, TableId,
    TableSpec, Tier, WriteOptions, checked_at, verify, write_check_stamp,
};

use crate::util::{SPEC, assert_open_fails, fixture, flip_bit, open_mapped, patch};

/// The byte offset of the payload's first byte, and of some header fields (docs/tables.md).
const PAYLOAD: u64 = HEADER_LEN as u64;
const VERSION_OFFSET: u64 = 20;
const ENDIAN_OFFSET: u64 = 16;
const HISTOGRAM_OFFSET: u64 = 96;

#[test]
fn missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = SPEC.path_in(dir.path());
    let message = assert_open_fails(&path, &SPEC, TableErrorKind::Missing);
    assert!(message.contains("file not found"), "{message}");
}

#[test]
fn truncated_to_the_header() {
    let fixture = fixture();
    OpenOptions::new()
        .write(true)
        .open(&fixture.path)
        .unwrap()
        .set_len(PAYLOAD)
        .unwrap();
    let message = assert_open_fails(&fixture.path, &SPEC, TableErrorKind::Truncated);
    assert!(
        message.contains("501-byte payload, the file holds 0"),
        "{message}"
    );
}

#[test]
fn truncated_half_payload() {
    let fixture = fixture();
    OpenOptions::new()
        .write(true)
        .open(&fixture.path)
        .unwrap()
        .set_len(PAYLOAD + 250)
        .unwrap();
    assert_open_fails(&fixture.path, &SPEC, TableErrorKind::Truncated);
}

#[test]
fn too_short_for_header() {
    let fixture = fixture();
    let original = std::fs::read(&fixture.path).unwrap();
    for len in [0, 10, 100, PAYLOAD - 1] {
        std::fs::write(&fixture.path, &original[..len as usize]).unwrap();
        let message = assert_open_fails(&fixture.path, &SPEC, TableErrorKind::TooShortForHeader);
        assert!(
            message.contains(&format!(
                "file is {len} bytes, shorter than the 384-byte header"
            )),
            "{message}"
        );
    }
}

#[test]
fn trailing_bytes() {
    let fixture = fixture();
    OpenOptions::new()
        .write(true)
        .open(&fixture.path)
        .unwrap()
        .set_len(PAYLOAD + 502)
        .unwrap();
    assert_open_fails(&fixture.path, &SPEC, TableErrorKind::LengthMismatch);
}

#[test]
fn wrong_version() {
    let fixture = fixture();
    patch(
        &fixture.path,
        VERSION_OFFSET,
        &(FORMAT_VERSION + 1).to_le_bytes(),
    );
    let message = assert_open_fails(&fixture.path, &SPEC, TableErrorKind::VersionMismatch);
    assert_eq!(
        message,
        format!(
            "table korf-edges-7a ({}): format version {}, expected {FORMAT_VERSION} \
             (re-run cube_tables::tier::bake for tier 7edge)",
            fixture.path.display(),
            FORMAT_VERSION + 1
        )
    );
    let err = PruneTable::load(&fixture.path, &SPEC).unwrap_err();
    assert_eq!(
        err.version_mismatch(),
        Some((FORMAT_VERSION, FORMAT_VERSION + 1))
    );
}

#[test]
fn wrong_id() {
    let fixture = fixture();
    let other = TableSpec {
        id: TableId::from_static("korf-edges-7b"),
        ..SPEC
    };
    let message = assert_open_fails(&fixture.path, &other, TableErrorKind::IdMismatch);
    assert!(
        message.contains("file holds table \"korf-edges-7a\""),
        "{message}"
    );
}

#[test]
fn wrong_tier() {
    let fixture = fixture();
    let other = SPEC.with_tier(Tier::Edge8);
    let message = assert_open_fails(&fixture.path, &other, TableErrorKind::TierMismatch);
    assert!(
        message.contains("file holds tier 7edge, expected 8edge"),
        "{message}"
    );
    assert!(
        message.ends_with("(re-run cube_tables::tier::bake for tier 8edge)"),
        "{message}"
    );
}

#[test]
fn wrong_encoding_or_size() {
    let fixture = fixture();
    let bytes = TableSpec {
        encoding: Encoding::Byte,
        ..SPEC
    };
    assert_open_fails(&fixture.path, &bytes, TableErrorKind::EncodingMismatch);
    let bigger = TableSpec {
        n_entries: 1002,
        ..SPEC
    };
    assert_open_fails(&fixture.path, &bigger, TableErrorKind::LengthMismatch);
}

/// A flipped payload bit passes the constant-time open (the map), and the loaders, which hash the
/// payload as they read it, and `verify` find it. See issue 15.
#[test]
fn flipped_payload_bit() {
    let fixture = fixture();
    flip_bit(&fixture.path, PAYLOAD + 300, 5);
    let owned = PruneTable::load(&fixture.path, &SPEC).map(drop);
    let anonymous = PruneTable::load_anonymous(&fixture.path, &SPEC).map(drop);
    let mapped = open_mapped(&fixture.path, &SPEC).unwrap();
    for err in [owned, anonymous, verify(&mapped, None)].map(Result::unwrap_err) {
        assert_eq!(err.kind(), TableErrorKind::PayloadHash, "{err}");
        let message = err.to_string();
        assert!(message.starts_with(&format!(
            "table korf-edges-7a ({}): payload hash",
            fixture.path.display()
        )));
        assert!(
            message.ends_with(
                "the payload is corrupt (re-run cube_tables::tier::bake for tier 7edge)"
            ),
            "{message}"
        );
    }
    // The header-trusting load, for benchmarks, does not look.
    PruneTable::load_anonymous_unchecked(&fixture.path, &SPEC).unwrap();
}

/// See issue 15: a check stamp names the version of the file that was checked. A payload byte
/// flipped in place after the table was read (during the spot checks of `tables verify`, say) is
/// not stamped as checked; an unchanged file is, and loses its stamp when changed later.
#[test]
fn a_file_changed_during_its_check_is_not_stamped() {
    let fixture = fixture();
    type Load = fn(&std::path::Path, &TableSpec) -> Result<PruneTable<Vec<u8>>, TableError>;
    let loads: [Load; 2] = [PruneTable::load, |path, spec| {
        PruneTable::load_anonymous(path, spec).map(|t| t.to_owned())
    }];
    for load in loads {
        let table = load(&fixture.path, &SPEC).unwrap();
        verify(&table, None).unwrap();
        flip_bit(&fixture.path, PAYLOAD + 300, 5);
        // A modification time certainly after the one the load saw.
        modified_later(&fixture.path, 2);
        write_check_stamp(&table).unwrap();
        assert_eq!(
            checked_at(&fixture.path),
            None,
            "the changed file is not stamped"
        );
        flip_bit(&fixture.path, PAYLOAD + 300, 5);
    }
    let table = PruneTable::load(&fixture.path, &SPEC).unwrap();
    write_check_stamp(&table).unwrap();
    assert!(
        checked_at(&fixture.path).is_some(),
        "the unchanged file is stamped"
    );
    flip_bit(&fixture.path, PAYLOAD + 300, 5);
    modified_later(&fixture.path, 4);
    assert_eq!(checked_at(&fixture.path), None, "a stamp goes stale");
}

/// Moves the modification time of `path` `secs` seconds on.
fn modified_later(path: &std::path::Path, secs: u64) {
    let later =
        std::fs::metadata(path).unwrap().modified().unwrap() + std::time::Duration::from_secs(secs);
    OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(later)
        .unwrap();
}

/// A region of the payload filled with one value (a torn write, a zeroed block) is refused by the
/// loaders. See issue 15.
#[test]
fn filled_payload_region() {
    for fill in [0x00, 0xFF] {
        let fixture = fixture();
        patch(&fixture.path, PAYLOAD + 64, &[fill; 200]);
        for err in [
            PruneTable::load(&fixture.path, &SPEC).map(drop),
            PruneTable::load_anonymous(&fixture.path, &SPEC).map(drop),
        ]
        .map(Result::unwrap_err)
        {
            assert_eq!(err.kind(), TableErrorKind::PayloadHash, "{err}");
        }
    }
}

/// A directory, a FIFO or a symbolic-link loop where the table should be: a specific error with its
/// fix, and the FIFO never blocks the open. See issue 15.
#[cfg(unix)]
#[test]
fn not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = SPEC.path_in(dir.path());
    std::fs::create_dir(&path).unwrap();
    let message = assert_open_fails(&path, &SPEC, TableErrorKind::NotAFile);
    assert!(
        message.contains("is a directory, not a regular file (move it out of the way, then re-run"),
        "{message}"
    );
    std::fs::remove_dir(&path).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(status.success());
    let message = assert_open_fails(&path, &SPEC, TableErrorKind::NotAFile);
    assert!(
        message.contains("is a fifo, not a regular file"),
        "{message}"
    );
    std::fs::remove_file(&path).unwrap();
    let other = dir.path().join("other");
    std::os::unix::fs::symlink(&other, &path).unwrap();
    std::os::unix::fs::symlink(&path, &other).unwrap();
    let message = assert_open_fails(&path, &SPEC, TableErrorKind::NotAFile);
    assert!(message.contains("is a symbolic-link loop"), "{message}");
}

/// A FIFO in place of the directory's read lock (`.lock`): a reader loads the table without the
/// lock, as it does when there is no lock file, instead of blocking forever in the open of the
/// FIFO. See issue 14, item 6.
#[cfg(unix)]
#[test]
fn a_fifo_as_the_read_lock_never_blocks_a_reader() {
    let fixture = fixture();
    let lock = fixture.path.with_file_name(cube_tables::READ_LOCK_NAME);
    std::fs::remove_file(&lock).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(&lock)
        .status()
        .unwrap();
    assert!(status.success());
    let (sender, receiver) = std::sync::mpsc::channel();
    let path = fixture.path.clone();
    // A blocked open would hang this thread, not the test: the test waits a bounded time.
    std::thread::spawn(move || {
        let _ = sender.send(PruneTable::load(&path, &SPEC).map(|t| t.payload().to_vec()));
    });
    let loaded = receiver
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the load returns instead of blocking on the FIFO");
    assert_eq!(loaded.unwrap(), fixture.table.as_bytes());
}

#[test]
fn flipped_header_bits() {
    let fixture = fixture();
    let original = std::fs::read(&fixture.path).unwrap();
    // Past the frozen prefix, every bit is covered by the checksum (or is the checksum).
    for offset in [
        24,
        28,
        33,
        64,
        72,
        80,
        88,
        HISTOGRAM_OFFSET + 8,
        360,
        376,
        383,
    ] {
        for bit in [0, 7] {
            std::fs::write(&fixture.path, &original).unwrap();
            flip_bit(&fixture.path, offset, bit);
            let message = assert_open_fails(&fixture.path, &SPEC, TableErrorKind::HeaderChecksum);
            assert!(message.contains("the header is corrupt"), "{message}");
        }
    }
    std::fs::write(&fixture.path, &original).unwrap();
    flip_bit(&fixture.path, 3, 1);
    assert_open_fails(&fixture.path, &SPEC, TableErrorKind::BadMagic);
}

#[test]
fn other_byte_order() {
    let fixture = fixture();
    patch(&fixture.path, ENDIAN_OFFSET, &0xFEFFu32.to_be_bytes());
    let message = assert_open_fails(&fixture.path, &SPEC, TableErrorKind::EndianMismatch);
    assert!(message.contains("other byte order"), "{message}");
}

#[test]
fn foreign_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = SPEC.path_in(dir.path());
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.resize(4096, 0x42);
    std::fs::write(&path, &png).unwrap();
    let message = assert_open_fails(&path, &SPEC, TableErrorKind::BadMagic);
    assert!(message.contains("not a cube table file"), "{message}");
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let random: Vec<u8> = (0..1000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    std::fs::write(&path, &random).unwrap();
    assert_open_fails(&path, &SPEC, TableErrorKind::BadMagic);
}

/// A header whose histogram disagrees with the payload, and an expected histogram that disagrees with both.
#[test]
fn histogram_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    let table = crate::util::entries(SPEC.n_entries as usize);
    let mut wrong = table.histogram();
    wrong[0] += 1;
    wrong[12] -= 1;
    let path = cube_tables::write_table(
        dir.path(),
        &SPEC,
        &wrong,
        table.as_bytes(),
        &WriteOptions::new(),
    )
    .unwrap();
    let loaded = PruneTable::load(&path, &SPEC).unwrap();
    let err = verify(&loaded, None).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::HistogramMismatch);
    assert!(
        err.to_string()
            .contains("depth 0 has 77 entries in the payload, the header says 78"),
        "{err}"
    );

    let path = cube_tables::write_table(
        dir.path(),
        &SPEC,
        &table.histogram(),
        table.as_bytes(),
        &WriteOptions::new(),
    )
    .unwrap();
    let loaded = PruneTable::load(&path, &SPEC).unwrap();
    let err = verify(&loaded, Some(&wrong)).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::HistogramMismatch);
    assert!(
        err.to_string().contains("the expected histogram says 78"),
        "{err}"
    );
}

/// The fix travels with the error: its kind and the table's tier, worded by `Display` in the
/// library's functions and by [`TableError::message`] in a program's commands, with no setting
/// shared by the process (two wordings of the same error side by side).
#[test]
fn the_fix_is_carried_by_the_error_and_worded_by_the_caller() {
    use cube_tables::{Fix, FixCommands, tier};
    let dir = tempfile::tempdir().unwrap();
    let ours = FixCommands {
        bake: "our-bake --tier {tier}",
    };
    let [corners, h5] = tier::specs(Tier::H5)[..] else {
        panic!("h5 has the corner database and one table")
    };
    let err = cube_tables::check_header(&h5.path_in(dir.path()), &h5).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::Missing);
    assert_eq!((err.fix(), err.tier()), (Some(Fix::Bake), Some(Tier::H5)));
    assert!(
        err.to_string()
            .ends_with("file not found (re-run cube_tables::tier::bake for tier h5)"),
        "{err}"
    );
    let worded = err.message(&ours);
    assert!(
        worded.ends_with("file not found (re-run our-bake --tier h5)"),
        "{worded}"
    );
    assert_eq!(
        err.to_string(),
        err.message(&FixCommands::LIBRARY),
        "Display is the library's wording"
    );

    // The corner database, baked by any tier: the words name 6edge, the smallest.
    let err = cube_tables::check_header(&corners.path_in(dir.path()), &corners).unwrap_err();
    assert_eq!(err.fix(), Some(Fix::BakeAnyTier));
    assert!(
        err.message(&ours)
            .ends_with("(re-run our-bake --tier 6edge (any tier bakes the corners))"),
        "{}",
        err.message(&ours)
    );

    // A message that opens its fix's parenthesis itself, in both wordings.
    std::fs::create_dir(h5.path_in(dir.path())).unwrap();
    let err = cube_tables::check_header(&h5.path_in(dir.path()), &h5).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::NotAFile);
    assert!(
        err.message(&ours).ends_with(
            "not a regular file (move it out of the way, then re-run our-bake --tier h5)"
        ),
        "{}",
        err.message(&ours)
    );
    assert!(
        err.to_string().ends_with(
            "not a regular file (move it out of the way, then re-run cube_tables::tier::bake for tier h5)"
        ),
        "{err}"
    );

    // An error that asks for no fix has none to word.
    let err = TableId::new("Bad").unwrap_err();
    assert_eq!((err.fix(), err.tier()), (None, None));
    assert_eq!(err.message(&ours), err.to_string());
}
