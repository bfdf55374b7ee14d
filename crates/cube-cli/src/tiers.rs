//! What each optimal tier costs, in words: its bake time on this project's machine, its size,
//! the summary of `--tier`'s help. A leaf of the crate (cube-tables' `tier` only), which the
//! clap definition (`args.rs`) and the table directory's messages (`table_dir.rs`) both use.

use cube_tables::tier;
use cube_tables::{HEADER_LEN, TableSpec, Tier};

/// "about 20 s on 2 cores".
pub fn bake_time_text(tier: Tier) -> String {
    format!("{} on 2 cores", tier::bake_time(tier))
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
    tiers_cost_text(&[tier])
}

/// What a bake of `tiers` together costs, for messages: the time of the slowest, the disk of
/// their tables (the corner database once).
pub fn tiers_cost_text(tiers: &[Tier]) -> String {
    let mut specs: Vec<TableSpec> = Vec::new();
    for spec in tiers.iter().flat_map(|&t| tier::specs(t)) {
        if !specs.contains(&spec) {
            specs.push(spec);
        }
    }
    let time = tiers
        .iter()
        .max()
        .map_or_else(String::new, |&t| bake_time_text(t));
    format!(
        "{time}, {} of disk",
        size_text(specs.iter().map(file_bytes).sum())
    )
}

/// What `tier` is, for the possible values of `--tier`: "Korf, 83 MiB, about 4 s on 2 cores".
pub fn tier_summary(tier: Tier) -> String {
    let method = tier.family().method();
    let note = tier.row().note;
    let note = if note.is_empty() {
        String::new()
    } else {
        format!(", {note}")
    };
    format!(
        "{method}{note}: {} of disk, bake {}",
        size_text(tier::disk_bytes(tier)),
        bake_time_text(tier)
    )
}
