//! What each optimal tier costs, in words: its bake time on this project's machine, its size,
//! the summary of `--tier`'s help. A leaf of the crate (cube-tables' `tier` only), which the
//! clap definition (`args.rs`) and the table directory's messages (`table_dir.rs`) both use.

use cube_tables::tier;
use cube_tables::{HEADER_LEN, TableSpec, Tier};

/// The bake time of each tier on this project's 2-core machine, as measured in docs/perf-log/
/// (bakes.md: "cube-tables: pattern databases", "the H48 tables", "the h4..h7 bake in one pass";
/// optimal-nx.md for the nx tiers; the current figures in docs/PERFORMANCE.md, "Table bakes, per
/// tier"), for messages, the help of `--tier` and the README's table of tiers (the test
/// `readme::the_tier_table_is_the_cli_s` keeps the README equal to it).
fn bake_time(tier: Tier) -> &'static str {
    match tier {
        // 3.59 s, corners included.
        Tier::Edge6 => "about 4 s",
        // 15.3 s at load 2.9 (39 s at load 6).
        Tier::Edge7 => "about 15 s",
        // 310 s.
        Tier::Edge8 => "about 5 minutes",
        // 16.8 s with the corner database.
        Tier::H0 => "about 17 s",
        // One pass bakes any of them or all four: 599.5 s for all four.
        Tier::H4 | Tier::H5 | Tier::H6 | Tier::H7 => "about 10 minutes",
        // 22.3 s and 20.3 s, without the corner database.
        Tier::NxEo1Ep1 | Tier::NxEo1Ep1Qtm => "about 25 s",
        // Quiet, the corner database there: 30.7 s and 23.7 s; 48.1 s and 39.9 s; 131 s and
        // 128 s.
        Tier::NxEo2Ep1 | Tier::NxEo2Ep1Qtm => "about 30 s",
        Tier::NxEo1Ep2 | Tier::NxEo1Ep2Qtm => "about 50 s",
        Tier::NxEo1Ep3 | Tier::NxEo1Ep3Qtm => "about 2 minutes",
        // Quiet, the corner database there, each dense row written by one worker: 156 s and
        // 130 s (docs/perf-log/optimal-nx.md; 396 s and 322 s before, on a machine with half the
        // L3).
        Tier::NxEo3Ep1 | Tier::NxEo3Ep1Qtm => "about 3 minutes",
        // Four bits per coset on 24 GiB: 19 min 47 s (the search 1,149 s, the pack and write
        // 38 s; 18.0 GiB peak) and 13 min 55 s (18.4 GiB peak).
        Tier::NxEo2Ep2 => "about 20 minutes",
        Tier::NxEo2Ep2Qtm => "about 15 minutes",
    }
}

/// "about 20 s on 2 cores".
pub fn bake_time_text(tier: Tier) -> String {
    format!("{} on 2 cores", bake_time(tier))
}

/// The size of the file of `spec`: the header and the payload.
pub fn file_bytes(spec: &TableSpec) -> u64 {
    HEADER_LEN as u64 + spec.payload_len()
}

/// `126 B`, `945 KiB`, `83 MiB`, `1.8 GiB`.
pub fn size_text(bytes: u64) -> String {
    let mib = bytes as f64 / (1u64 << 20) as f64;
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else if bytes >= 1 << 20 {
        format!("{mib:.0} MiB")
    } else if bytes >= 1 << 10 {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} B")
    }
}

/// "about 20 s on 2 cores, 529 MiB of disk", for messages.
pub fn tier_cost_text(tier: Tier) -> String {
    format!(
        "{}, {} of disk",
        bake_time_text(tier),
        size_text(tier::disk_bytes(tier))
    )
}

/// What `tier` is, for the possible values of `--tier`: "Korf, 83 MiB, about 4 s on 2 cores".
pub fn tier_summary(tier: Tier) -> String {
    let method = tier.family().method();
    let test = if tier == Tier::H0 { ", for tests" } else { "" };
    format!(
        "{method}{test}: {} of disk, bake {}",
        size_text(tier::disk_bytes(tier)),
        bake_time_text(tier)
    )
}

/// Every tier, Korf's then the H48 ones.
pub fn all_tiers() -> impl Iterator<Item = Tier> {
    Tier::ALL.into_iter()
}
