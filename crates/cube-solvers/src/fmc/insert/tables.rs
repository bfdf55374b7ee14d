//! The generated algorithm set as a family of tables: made once by [`AlgSet::generate`] and
//! cached in the table directory like the FMC step tables ([`crate::load_or_build`]).

use cube_tables::{Encoding, TableId, TableSpec};

use super::algs::{AlgSet, Kind};
use crate::{MethodTables, PayloadError, Payloads};

/// The lengths of the generated set: every algorithm of each kind up to these many moves.
///
/// | kind | up to | algorithms | cases (of all) |
/// |---|---:|---:|---:|
/// | corner 3-cycle | 10 | 14,448 | 944 (of 1,008) |
/// | edge 3-cycle | 10 | 59,424 | 1,464 (of 1,760) |
/// | corner twist (two corners) | 12 | 144 | 32 (of 56) |
/// | edge flip (two edges) | 12 | 0 | 0 (of 66) |
/// | corner swaps (two pairs) | 11 | 5,064 | 354 (of 5,670) |
/// | edge swaps (two pairs) | 10 | 76,776 | 1,641 (of 11,880) |
/// | parity (a corner swap and an edge swap) | 11 | 7,728 | 1,152 (of 11,088) |
///
/// No two edges flip in 12 moves or fewer: a flip is finished by two edge 3-cycles, as a twist
/// of two corners that no 12-move twist covers is by two corner 3-cycles.
pub const GENERATED_LENGTHS: &[(Kind, usize)] = &[
    (Kind::CornerCycle, 10),
    (Kind::EdgeCycle, 10),
    (Kind::CornerTwist, 12),
    (Kind::EdgeFlip, 12),
    (Kind::CornerSwaps, 11),
    (Kind::EdgeSwaps, 10),
    (Kind::Parity, 11),
];

/// A small set, made in a few seconds on two cores, for tests and examples: corner and edge
/// 3-cycles up to 9 moves, corner swaps and parities up to 10, edge swaps up to 8 (17,952
/// algorithms). Twists and flips are finished by two 3-cycles.
pub const SMALL_LENGTHS: &[(Kind, usize)] = &[
    (Kind::CornerCycle, 9),
    (Kind::EdgeCycle, 9),
    (Kind::CornerSwaps, 10),
    (Kind::EdgeSwaps, 8),
    (Kind::Parity, 10),
];

/// The generated set's algorithms and cases.
const N_ALGS: u64 = 163_584;
const N_CASES: u64 = 5_587;

/// The generated algorithm set ([`GENERATED_LENGTHS`]), one table: `insert-algs` (1.3 MB), the
/// cases (a kind and a count each) and the algorithms, packed (see [`AlgSet`]'s payload). Made
/// with about 80 s of CPU (about 40 s on two cores).
#[derive(Clone, Debug)]
pub struct InsertTables {
    set: AlgSet,
    payload: Vec<u8>,
}

impl InsertTables {
    /// The set.
    pub fn set(&self) -> &AlgSet {
        &self.set
    }
}

impl MethodTables for InsertTables {
    const NAME: &'static str = "insertions";
    const SPECS: &'static [TableSpec] = &[TableSpec::new(
        TableId::from_static("insert-algs"),
        Encoding::Byte,
        AlgSet::payload_len(N_CASES, N_ALGS),
    )];

    fn build() -> InsertTables {
        let set = AlgSet::generate(GENERATED_LENGTHS).expect("the generated lengths are in range");
        let payload = set.to_payload();
        InsertTables { set, payload }
    }

    fn payload(&self, id: TableId) -> Option<&[u8]> {
        (id == Self::SPECS[0].id).then_some(&self.payload[..])
    }

    fn from_payloads(mut payloads: Payloads) -> Result<InsertTables, PayloadError> {
        let spec = &Self::SPECS[0];
        let payload = payloads.take(spec)?;
        if let Some(id) = payloads.ids().next() {
            return Err(PayloadError::Unexpected { id });
        }
        let set = AlgSet::from_payload(&payload)
            .map_err(|why| PayloadError::Unsound { id: spec.id, why })?;
        Ok(InsertTables { set, payload })
    }
}
