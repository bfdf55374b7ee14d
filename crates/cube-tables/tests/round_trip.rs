//! Write a table, read it back every way, and check that all agree with what was written.

use cube_tables::{
    Encoding, HEADER_LEN, PruneTable, TableId, TableSpec, TableWriter, WriteOptions, payload_hash,
    verify,
};

use crate::util::{SPEC, fixture, open_mapped};

#[test]
fn nibbles_three_ways() {
    let fixture = fixture();
    assert_eq!(fixture.path.file_name().unwrap(), "korf-edges-7a.v1.tbl");
    let owned = PruneTable::load(&fixture.path, &SPEC).unwrap();
    let anonymous = PruneTable::load_anonymous(&fixture.path, &SPEC).unwrap();
    let mapped = open_mapped(&fixture.path, &SPEC).unwrap();
    let bytes = std::fs::read(&fixture.path).unwrap();
    let borrowed = PruneTable::from_bytes(&bytes, &SPEC).unwrap();
    for index in 0..fixture.table.len() {
        let want = fixture.table.get(index);
        assert_eq!(owned.get(index), want);
        assert_eq!(anonymous.get(index), want);
        assert_eq!(mapped.get(index), want);
        assert_eq!(borrowed.get(index), want);
        mapped.prefetch(index);
    }
    mapped.prefetch(usize::MAX);
    assert_eq!(owned.len(), 1001);
    assert_eq!(owned.id(), SPEC.id);
    assert_eq!(owned.tier(), SPEC.tier);
    assert_eq!(owned.encoding(), Encoding::Nibble);
    assert_eq!(*owned.histogram(), fixture.table.histogram());
    assert_eq!(owned.info(), mapped.info());
    assert_eq!(owned.info(), anonymous.info());
    assert_eq!(owned.payload(), fixture.table.as_bytes());
    assert_eq!(
        owned.info().payload_hash,
        payload_hash(fixture.table.as_bytes())
    );
    assert_eq!(bytes.len(), HEADER_LEN + 501);
    verify(&owned, None).unwrap();
    verify(&anonymous, Some(&fixture.table.histogram())).unwrap();
    verify(&mapped, None).unwrap();
    verify(&borrowed.to_owned(), None).unwrap();
    // Mapping every page up front changes nothing the table reads.
    let mapped = mapped.into_inner();
    mapped.prefault();
    assert_eq!(mapped.as_ref(), fixture.table.as_bytes());
}

/// A byte table of several hash chunks (of 1 MiB, docs/tables.md), written two ways: from a slice and
/// streamed.
#[test]
fn bytes_across_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let n_entries = 2 * (1 << 20) + 12345;
    let payload: Vec<u8> = (0..n_entries).map(|i| (i % 21 + i % 5) as u8).collect();
    let histogram = cube_tables::histogram(&payload, Encoding::Byte, n_entries as u64);
    let spec = TableSpec::new(
        TableId::from_static("two-phase-slice-twist"),
        Encoding::Byte,
        n_entries as u64,
    );

    let from_slice = cube_tables::write_table(
        dir.path(),
        &spec,
        &histogram,
        &payload,
        &WriteOptions::new(),
    )
    .unwrap();
    let file_bytes = std::fs::read(&from_slice).unwrap();

    let mut writer = TableWriter::create(dir.path(), &spec, &WriteOptions::new()).unwrap();
    for piece in payload.chunks(777_777) {
        writer.write(piece).unwrap();
    }
    let streamed = writer.finish(&histogram).unwrap();
    assert_eq!(streamed, from_slice);
    assert_eq!(std::fs::read(&streamed).unwrap(), file_bytes);

    let table = PruneTable::load_anonymous(&streamed, &spec).unwrap();
    assert_eq!(table.len(), n_entries);
    assert!(
        (0..n_entries)
            .step_by(997)
            .all(|i| table.get(i) == payload[i])
    );
    verify(&table, Some(&histogram)).unwrap();
    assert_eq!(
        crate::util::file_names(dir.path()),
        [".bake.lock", ".lock", "two-phase-slice-twist.v1.tbl"]
    );
}

#[test]
fn empty_table() {
    let dir = tempfile::tempdir().unwrap();
    let spec = TableSpec::new(TableId::from_static("empty"), Encoding::Nibble, 0);
    let path =
        cube_tables::write_table(dir.path(), &spec, &[0; 32], &[], &WriteOptions::new()).unwrap();
    assert!(PruneTable::load(&path, &spec).unwrap().is_empty());
    assert!(PruneTable::load_anonymous(&path, &spec).unwrap().is_empty());
    let mapped = open_mapped(&path, &spec).unwrap();
    assert!(mapped.is_empty());
    verify(&mapped, None).unwrap();
    mapped.into_inner().prefault();
}

/// A generator's path for a big table: a byte-per-entry scratch, packed into a file-backed nibble scratch.
#[test]
fn scratch_to_table() {
    let dir = tempfile::tempdir().unwrap();
    let n_entries = 3_000_001;
    let mut bytes = cube_tables::Scratch::anonymous(n_entries).unwrap();
    for (index, byte) in bytes.iter_mut().enumerate() {
        *byte = (index % 9) as u8;
    }
    let nibble_path = dir.path().join("nibbles.scratch");
    #[allow(unsafe_code)]
    // SAFETY: the scratch file is in a private temporary directory.
    let mut nibbles =
        unsafe { cube_tables::Scratch::file_backed(&nibble_path, n_entries.div_ceil(2)) }.unwrap();
    cube_tables::pack_nibbles_into(&bytes, &mut nibbles);
    let table = cube_tables::NibbleTable::from_storage(nibbles, n_entries).unwrap();
    let spec = TableSpec::new(
        TableId::from_static("korf-corners"),
        Encoding::Nibble,
        n_entries as u64,
    );
    let path = cube_tables::write_table(
        dir.path(),
        &spec,
        &table.histogram(),
        table.as_bytes(),
        &WriteOptions::new(),
    )
    .unwrap();
    drop(table);
    assert!(
        !nibble_path.exists(),
        "a file-backed scratch removes its file"
    );
    let loaded = PruneTable::load(&path, &spec).unwrap();
    verify(&loaded, None).unwrap();
    assert!(
        (0..n_entries)
            .step_by(101)
            .all(|i| loaded.get(i) == (i % 9) as u8)
    );
    assert_eq!(loaded.histogram()[8], (n_entries / 9) as u64);
}
