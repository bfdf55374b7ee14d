//! `cargo xtask pack-tables`: zstd seeds of the baked tables, for distribution.

use std::cell::Cell;
use std::time::Instant;

use cube_tables::tier;

use crate::flags::PackFlags;
use crate::verify::some_tables;
use crate::{Error, mib, table_dir};

pub(crate) fn run(flags: PackFlags) -> Result<(), Error> {
    let dir = table_dir(flags.dir);
    some_tables(&dir, flags.tier)?;
    // Each seed's time: from the previous one's end.
    let start = Cell::new(Instant::now());
    tier::pack_seeds(&dir, flags.tier, &|table, seed| {
        let size = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |m| m.len());
        println!(
            "{:<16} {:.0} MiB -> {} ({:.0} MiB) in {:.2} s",
            table.id,
            mib(size(&table.path_in(&dir))),
            seed.display(),
            mib(size(seed)),
            start.replace(Instant::now()).elapsed().as_secs_f64()
        );
    })?;
    Ok(())
}
