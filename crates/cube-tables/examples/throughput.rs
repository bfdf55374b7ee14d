//! Measures the payload hash, `verify`, and random lookups in a file map against anonymous huge pages.
//!
//! Run with `cargo run --release -p cube-tables --example throughput -- [MiB]` (default 1024 MiB). It
//! writes one table of that size to a temporary directory.

use std::hint::black_box;
use std::time::Instant;

use cube_tables::{Encoding, PruneTable, TableId, TableSpec, WriteOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mib: usize = std::env::args()
        .nth(1)
        .map_or(Ok(1024), |arg| arg.parse())?;
    let len = mib << 20;
    let threads = rayon::current_num_threads();
    println!("payload {mib} MiB, {threads} rayon threads");

    let mut payload = cube_tables::Scratch::anonymous(len)?;
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for byte in payload.iter_mut() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *byte = (state as u8) & 0x77;
    }

    let start = Instant::now();
    let hash = black_box(cube_tables::payload_hash(&payload));
    report("payload_hash", len, start);

    let start = Instant::now();
    let histogram = cube_tables::histogram(&payload, Encoding::Nibble, 2 * len as u64);
    report("histogram", len, start);

    let dir = tempfile::tempdir()?;
    let spec = TableSpec::new(
        TableId::from_static("throughput"),
        Encoding::Nibble,
        2 * len as u64,
    );
    let start = Instant::now();
    let path = cube_tables::write_table(
        dir.path(),
        &spec,
        &histogram,
        &payload,
        &WriteOptions::new(),
    )?;
    report("write_table (hash, write, fsync)", len, start);
    drop(payload);

    let start = Instant::now();
    let anonymous = PruneTable::load_anonymous(&path, &spec)?;
    report("load_anonymous", len, start);
    assert_eq!(anonymous.info().payload_hash, hash);

    let start = Instant::now();
    cube_tables::verify(&anonymous, None)?;
    report("verify (hash + histogram)", len, start);

    #[allow(unsafe_code)]
    // SAFETY: the table is in a private temporary directory and nothing writes to it.
    let mapped = unsafe { PruneTable::open_mapped(&path, &spec)? };
    // Touch every page once, so both runs start from memory.
    black_box(
        mapped
            .payload()
            .iter()
            .step_by(4096)
            .map(|&b| u64::from(b))
            .sum::<u64>(),
    );

    if let Ok(smaps) = std::fs::read_to_string("/proc/self/smaps_rollup") {
        let huge = smaps.lines().find(|line| line.starts_with("AnonHugePages"));
        println!("{}", huge.unwrap_or("AnonHugePages: unknown"));
    }

    // Dependent lookups: each index depends on the entry read before, as in a search, so this measures
    // latency (cache and TLB misses), not memory-level parallelism.
    let n_lookups = 10_000_000;
    let mask = (table_len_pow2(anonymous.len())) - 1;
    for (name, table) in [
        ("mapped file", mapped.as_ref()),
        ("anonymous huge pages", anonymous.as_ref()),
    ] {
        let mut state = 12345u64;
        let mut index = 0;
        let start = Instant::now();
        for _ in 0..n_lookups {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15) ^ u64::from(table.get(index));
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            index = (z ^ (z >> 31)) as usize & mask;
        }
        black_box(index);
        let elapsed = start.elapsed();
        println!(
            "dependent random lookups, {name}: {:.1} ns each",
            elapsed.as_nanos() as f64 / n_lookups as f64
        );
    }
    Ok(())
}

fn report(what: &str, len: usize, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    println!("{what}: {:.3} s, {:.2} GB/s", secs, len as f64 / secs / 1e9);
}

/// The largest power of two not above `len`.
fn table_len_pow2(len: usize) -> usize {
    1 << (usize::BITS - 1 - len.leading_zeros())
}
