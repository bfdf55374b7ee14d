//! `cargo xtask verify-tables`: the full check of every table of the chosen tiers, cube-tables'
//! `tier::verify` with a line per table.

use std::path::Path;
use std::time::Instant;

use cube_tables::Tier;
use cube_tables::tier::{self, SpotCheck};

use crate::flags::VerifyFlags;
use crate::{Error, mib, table_dir};

pub(crate) fn run(flags: VerifyFlags) -> Result<(), Error> {
    let dir = table_dir(flags.dir);
    some_tables(&dir, flags.tier)?;
    let spot = SpotCheck {
        n_random: flags.spot,
        ..SpotCheck::default()
    };
    let start = Instant::now();
    let verified = tier::with_threads(flags.threads, || {
        tier::verify(&dir, flags.tier, &spot, &|table| {
            let checks = match &table.spot {
                Some(report) => format!(
                    "verify {:.2} s ({:.0} MiB; {} entries checked against neighbours, {} against a search)",
                    table.check_time.as_secs_f64(),
                    mib(table.payload_bytes),
                    report.n_local,
                    report.n_searched,
                ),
                None => format!(
                    "histograms {:.2} s ({:.0} MiB)",
                    table.check_time.as_secs_f64(),
                    mib(table.payload_bytes),
                ),
            };
            println!(
                "{:<16} ok: read and hash {:.2} ms, {checks}",
                table.id,
                table.read_time.as_secs_f64() * 1e3,
            );
        })
    })??;
    println!(
        "{} tables verified in {:.2} s",
        verified.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Without a tier: an error when `dir` has no corner database (nor its seed), so no tables.
pub(crate) fn some_tables(dir: &Path, tier: Option<Tier>) -> Result<(), Error> {
    if tier.is_none() && !tier::has_tables(dir) {
        return Err(format!(
            "{}: no tables (run cargo xtask bake-tables --tier 6edge)",
            dir.display()
        )
        .into());
    }
    Ok(())
}
