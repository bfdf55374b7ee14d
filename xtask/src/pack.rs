//! `cargo xtask pack-tables`: zstd seeds of the baked tables, for distribution.

use std::time::Instant;

use cube_tables::pdb;

use crate::flags::PackFlags;
use crate::verify::chosen_tables;
use crate::{Error, mib, table_dir};

pub(crate) fn run(flags: PackFlags) -> Result<(), Error> {
    let dir = table_dir(flags.dir);
    for table in chosen_tables(&dir, flags.tier)? {
        let start = Instant::now();
        let seed = pdb::pack_seed(&dir, &table)?;
        let size = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |m| m.len());
        println!(
            "{:<16} {:.0} MiB -> {} ({:.0} MiB) in {:.2} s",
            table.id(),
            mib(size(&table.spec.path_in(&dir))),
            seed.display(),
            mib(size(&seed)),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
