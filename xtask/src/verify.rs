//! `cargo xtask verify-tables`: the full check of every table of the chosen tiers.

use std::path::Path;
use std::time::Instant;

use cube_tables::h48;
use cube_tables::pdb::{self, Pdb, SpotCheck};
use cube_tables::{Anonymous, PruneTable, TableError, Tier};

use crate::flags::VerifyFlags;
use crate::{Error, mib, table_dir};

pub(crate) fn run(flags: VerifyFlags) -> Result<(), Error> {
    let dir = table_dir(flags.dir);
    let tables = chosen_tables(&dir, flags.tier)?;
    let h48_specs = h48::specs_to_check(&dir, flags.tier);
    let spot = SpotCheck {
        n_random: flags.spot,
        ..SpotCheck::default()
    };
    let start = Instant::now();
    pdb::with_threads(flags.threads, || -> Result<(), Error> {
        for table in &tables {
            let open_start = Instant::now();
            let loaded = open(&dir, table)?;
            let open_time = open_start.elapsed();
            let verify_start = Instant::now();
            let report = pdb::verify_table(&loaded, table, &spot)?;
            // A stamp that cannot be written only costs `cube-cli tables status` its "checked" date.
            let _ = cube_tables::write_check_stamp(&loaded);
            println!(
                "{:<16} ok: read and hash {:.2} ms, verify {:.2} s ({:.0} MiB; {} entries checked against neighbours, {} against a search)",
                table.id(),
                open_time.as_secs_f64() * 1e3,
                verify_start.elapsed().as_secs_f64(),
                mib(loaded.payload().len() as u64),
                report.n_local,
                report.n_searched,
            );
        }
        for spec in &h48_specs {
            let verify_start = Instant::now();
            let loaded = PruneTable::load_anonymous(&spec.path_in(&dir), spec)?;
            h48::verify_table(&loaded)?;
            let _ = cube_tables::write_check_stamp(&loaded);
            println!(
                "{:<16} ok: read, hash and histograms {:.2} s ({:.0} MiB)",
                spec.id,
                verify_start.elapsed().as_secs_f64(),
                mib(loaded.payload().len() as u64),
            );
        }
        Ok(())
    })??;
    println!(
        "{} tables verified in {:.2} s",
        tables.len() + h48_specs.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The corners and the edge tables of `tier`, or of every tier with a table present (the H48
/// tables of `tier`, or every one present, are checked after them).
pub(crate) fn chosen_tables(dir: &Path, tier: Option<Tier>) -> Result<Vec<Pdb>, Error> {
    let tables = pdb::tables_to_check(dir, tier);
    if tier.is_none() && tables.len() == 1 && !pdb::CORNERS.spec.path_in(dir).exists() {
        return Err(format!(
            "{}: no tables (run cargo xtask bake-tables --tier 6edge)",
            dir.display()
        )
        .into());
    }
    Ok(tables)
}

/// Reads one table file into memory (installing its seed first when only the seed is there), hashing
/// its payload on the way. It is read, not loaded, so a file truncated during the check is an error,
/// not a `SIGBUS`.
fn open(dir: &Path, table: &Pdb) -> Result<PruneTable<Anonymous>, TableError> {
    let path = table.spec.path_in(dir);
    if !path.exists() {
        pdb::install_seed(dir, table, &cube_tables::WriteOptions::new())?;
    }
    PruneTable::load_anonymous(&path, &table.spec)
}
