//! Headers: everything written comes back, and no single flipped header bit ever loads.

use cube_tables::{Encoding, PruneTable, TableId, TableSpec, Tier, WriteOptions};
use proptest::prelude::*;

fn spec() -> impl Strategy<Value = TableSpec> {
    (
        "[a-z0-9][a-z0-9-]{0,31}",
        prop_oneof![
            Just(None),
            Just(Some(Tier::Edge6)),
            Just(Some(Tier::Edge7)),
            Just(Some(Tier::Edge8)),
            Just(Some(Tier::H0)),
            Just(Some(Tier::H7))
        ],
        prop_oneof![
            Just(Encoding::Nibble),
            Just(Encoding::Byte),
            (0u8..16).prop_map(|base| Encoding::Line2 { base })
        ],
        0u64..3000,
    )
        .prop_map(|(id, tier, encoding, n_entries)| {
            // 2-bit lines come in whole blocks of 512 slots.
            let n_entries = match encoding {
                Encoding::Line2 { .. } => n_entries % 6 * 512,
                _ => n_entries,
            };
            TableSpec {
                tier,
                ..TableSpec::new(TableId::new(&id).unwrap(), encoding, n_entries)
            }
        })
}

/// A payload for `spec` whose entries are drawn from `seed`.
fn payload(spec: &TableSpec, seed: u64) -> Vec<u8> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    match spec.encoding {
        Encoding::Byte => (0..spec.n_entries).map(|_| next() as u8).collect(),
        Encoding::Line2 { .. } => (0..spec.payload_len()).map(|_| next() as u8).collect(),
        Encoding::Nibble => {
            let entries: Vec<u8> = (0..spec.n_entries).map(|_| (next() % 16) as u8).collect();
            cube_tables::pack_nibbles(&entries)
        }
    }
}

fn write(spec: &TableSpec, seed: u64) -> (tempfile::TempDir, Vec<u8>, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let payload = payload(spec, seed);
    let histogram = cube_tables::histogram(&payload, spec.encoding, spec.n_entries);
    let path =
        cube_tables::write_table(dir.path(), spec, &histogram, &payload, &WriteOptions::new())
            .unwrap();
    let file = std::fs::read(path).unwrap();
    (dir, payload, file)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_trip(spec in spec(), seed in any::<u64>()) {
        let (_dir, payload, file) = write(&spec, seed);
        let table = PruneTable::from_bytes(&file, &spec).unwrap();
        let info = table.info();
        prop_assert_eq!(info.id, spec.id);
        prop_assert_eq!(info.tier, spec.tier);
        prop_assert_eq!(info.encoding, spec.encoding);
        prop_assert_eq!(info.n_entries, spec.n_entries);
        prop_assert_eq!(info.payload_len, spec.payload_len());
        prop_assert_eq!(info.payload_hash, cube_tables::payload_hash(&payload));
        prop_assert_eq!(info.histogram, cube_tables::histogram(&payload, spec.encoding, spec.n_entries));
        prop_assert_eq!(table.payload(), &payload[..]);
        prop_assert!(cube_tables::verify(&table, None).is_ok());
    }

    #[test]
    fn flipped_header_bit_never_loads(spec in spec(), seed in any::<u64>(), bit in 0..cube_tables::HEADER_LEN * 8) {
        let (_dir, _payload, mut file) = write(&spec, seed);
        file[bit / 8] ^= 1 << (bit % 8);
        prop_assert!(PruneTable::from_bytes(&file, &spec).is_err());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1000), spec in spec()) {
        let _ = PruneTable::from_bytes(&bytes, &spec);
    }
}
