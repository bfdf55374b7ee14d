//! `NibbleTable` and `pack_nibbles`, exhaustively on small tables.

use cube_tables::{NibbleTable, Scratch, pack_nibbles};

/// Every (length, index, value): setting one entry changes that entry and no other.
#[test]
fn set_get_exhaustive() {
    for n_entries in 0..=9 {
        let mut table = NibbleTable::new(n_entries);
        // A background where neighbours differ, so a stray write shows.
        for index in 0..n_entries {
            table.set(index, (index as u8 * 5 + 3) % 16);
        }
        for index in 0..n_entries {
            for value in 0..16 {
                let before = table.clone();
                table.set(index, value);
                for other in 0..n_entries {
                    let want = if other == index {
                        value
                    } else {
                        before.get(other)
                    };
                    assert_eq!(
                        table.get(other),
                        want,
                        "n {n_entries} set {index} = {value}, read {other}"
                    );
                }
                table.set(index, before.get(index));
            }
        }
        assert_eq!(table.as_bytes().len(), n_entries.div_ceil(2));
        if n_entries % 2 == 1 {
            assert_eq!(
                table.as_bytes()[n_entries / 2] >> 4,
                0,
                "the padding nibble stays zero"
            );
        }
    }
}

/// `pack_nibbles` agrees with setting entries one by one, for every 3-entry input.
#[test]
fn pack_exhaustive() {
    for code in 0..16 * 16 * 16 {
        let bytes = [code % 16, code / 16 % 16, code / 256];
        let bytes = bytes.map(|b| b as u8);
        let mut table = NibbleTable::new(3);
        for (index, &b) in bytes.iter().enumerate() {
            table.set(index, b);
        }
        assert_eq!(pack_nibbles(&bytes), table.as_bytes());
        assert_eq!(pack_nibbles(&bytes[..2]), &table.as_bytes()[..1]);
    }
}

#[test]
fn over_scratch() {
    let scratch = Scratch::anonymous(5).unwrap();
    let mut table = NibbleTable::from_storage(scratch, 9).unwrap();
    table.set(8, 15);
    table.set(0, 1);
    assert_eq!(table.as_bytes(), &[0x01, 0, 0, 0, 0x0F]);
    assert_eq!(table.histogram()[0], 7);
    let err = NibbleTable::from_storage(vec![0u8; 5], 11).unwrap_err();
    assert_eq!(err.kind(), cube_tables::TableErrorKind::InvalidInput);
}
