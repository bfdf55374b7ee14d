//! cube-tables' table header reader (`PruneTable::from_bytes`, the constant-time checks every load
//! runs): any bytes are accepted or refused cleanly, and an accepted file's header agrees with the
//! spec asked for and with the bytes' length.
#![no_main]

use cube_tables::{Encoding, HEADER_LEN, PruneTable, TableId, TableSpec, Tier};
use libfuzzer_sys::fuzz_target;

const SPECS: [TableSpec; 3] = [
    TableSpec::new(TableId::from_static("fuzz-nibbles"), Encoding::Nibble, 5),
    TableSpec::new(TableId::from_static("fuzz-bytes"), Encoding::Byte, 3),
    TableSpec::new(TableId::from_static("korf-edges-7a"), Encoding::Nibble, 1001)
        .with_tier(Tier::Edge7),
];

fuzz_target!(|data: &[u8]| {
    for spec in &SPECS {
        if let Ok(table) = PruneTable::from_bytes(data, spec) {
            assert_eq!(table.id(), spec.id);
            assert_eq!(table.tier(), spec.tier);
            assert_eq!(table.len() as u64, spec.n_entries);
            assert_eq!((data.len() - HEADER_LEN) as u64, spec.payload_len());
            for index in 0..table.len() {
                let _ = table.get(index);
            }
        }
    }
});
