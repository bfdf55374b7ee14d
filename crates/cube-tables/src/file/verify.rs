//! The full check of a table: recompute the depth histogram and the payload hash, in one parallel pass.
//!
//! Opening a table checks only its header and lengths, in constant time; `verify` reads every byte. The
//! recomputed histogram is compared with the header and, optionally, with numbers committed to the
//! repository, like nissy-core's `src/solvers/h48/checkdata.h` compares the "distribution from the table
//! preamble" with the "distribution from the actual table".

use rayon::prelude::*;

use crate::file::error::{Kind, TableError};
use crate::file::format::{HISTOGRAM_LEN, Histogram};
use crate::file::hash::{CHUNK_LEN, chunk_hash, combine};
use crate::file::histogram::{chunk_counts, histogram_of_counts};
use crate::file::table::PruneTable;

/// Recomputes the histogram and the payload hash of `table` and compares them with its header, and the
/// histogram also with `expected` when given.
///
/// Runs on the rayon pool; it reads the whole payload once.
///
/// # Errors
///
/// - `PayloadHash` when the payload does not match the hash in the header: it is corrupt.
/// - `HistogramMismatch` when the payload's histogram differs from the header's or from `expected`.
pub fn verify<T: AsRef<[u8]>>(
    table: &PruneTable<T>,
    expected: Option<&Histogram>,
) -> Result<(), TableError> {
    let at = |kind: Kind| table.error(TableError::new(kind));
    let info = table.info();
    let payload = table.payload();
    let (chunk_hashes, counts): (Vec<u64>, Vec<[u64; 256]>) = payload
        .par_chunks(CHUNK_LEN)
        .enumerate()
        .map(|(index, chunk)| {
            (
                chunk_hash(index as u64, chunk),
                chunk_counts(chunk, info.encoding),
            )
        })
        .unzip();
    let computed = combine(&chunk_hashes, payload.len() as u64);
    if computed != info.payload_hash {
        return Err(at(Kind::PayloadHash {
            stored: info.payload_hash,
            computed,
        }));
    }
    let mut total = [0u64; 256];
    for chunk_counts in &counts {
        for (sum, n) in total.iter_mut().zip(chunk_counts) {
            *sum += n;
        }
    }
    let found = histogram_of_counts(
        &total,
        info.encoding,
        info.n_entries,
        payload.last().copied(),
    );
    compare(&found, &info.histogram, "the header").map_err(at)?;
    if let Some(expected) = expected {
        compare(&found, expected, "the expected histogram").map_err(at)?;
    }
    Ok(())
}

fn compare(found: &Histogram, expected: &Histogram, against: &'static str) -> Result<(), Kind> {
    match (0..HISTOGRAM_LEN).find(|&d| found[d] != expected[d]) {
        Some(depth) => Err(Kind::HistogramMismatch {
            depth,
            found: found[depth],
            expected: expected[depth],
            against,
        }),
        None => Ok(()),
    }
}
