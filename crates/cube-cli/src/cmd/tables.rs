//! `cube-cli tables`: what is baked where, baking with progress bars, verifying; and the
//! first-run bake that `optimal` relies on.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use cube_tables::h48;
use cube_tables::pdb::{self, BakeOptions, Event, Pdb, SpotCheck};
use cube_tables::{Mapped, PruneTable, TableError, Tier};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

use crate::args::{Global, TablesAction};
use crate::output::{CliError, Report, print_outcome};

/// Disk space and bake time of each tier on a 2-core machine (docs/PERFORMANCE.md), for messages.
fn tier_cost(tier: Tier) -> (&'static str, &'static str) {
    match tier {
        Tier::Edge6 => ("about 85 MB", "about 5 s"),
        Tier::Edge7 => ("about 530 MB", "about 20 s"),
        Tier::Edge8 => ("about 5.1 GB", "about 5 minutes"),
        // The H48 tiers also bake the corner database (44 MB).
        Tier::H0 => ("about 75 MB", "about 20 s"),
        Tier::H4 => ("about 530 MB", "no bake yet"),
        Tier::H5 => ("about 1.0 GB", "no bake yet"),
        Tier::H6 => ("about 2.0 GB", "no bake yet"),
        Tier::H7 => ("about 3.9 GB", "no bake yet"),
    }
}

/// "about 20 s on 2 cores, about 530 MB of disk", for messages.
pub fn tier_cost_text(tier: Tier) -> String {
    let (disk, time) = tier_cost(tier);
    format!("{time} on 2 cores, {disk} of disk")
}

/// The table directory: `--tables`, else `$CUBE_TABLES_DIR`, else the user's cache directory.
pub fn table_dir(global: &Global) -> Result<PathBuf, CliError> {
    cube_tables::resolve_table_dir(global.tables.as_deref()).map_err(CliError::tables)
}

/// Installs the small tables of `method` (`two-phase`, `thistlethwaite`, `cross`) from the table directory,
/// once per run: each file that is missing, stale or corrupt is built and rewritten. Caching only
/// saves time, so when the directory cannot be found or written the solver simply builds its
/// tables in memory, as it would without a cache.
pub fn install_small_tables(global: &Global, method: &str) {
    static DONE: [OnceLock<()>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let sets = cube_solvers::small_tables();
    let Some(index) = sets.iter().position(|set| set.method == method) else {
        return;
    };
    let set = sets[index];
    DONE[index].get_or_init(|| {
        if let Ok(dir) = table_dir(global) {
            // The big two-phase tables take seconds to build: say why the wait.
            if !global.json && set.specs.iter().any(|spec| !spec.path_in(&dir).exists()) {
                eprintln!(
                    "cube-cli: building the {method} tables (once; cached in {})",
                    dir.display()
                );
            }
            // Caching only saves time: on an error the solver builds its tables in memory.
            let _ = set.load_or_build(&dir);
        }
    });
}

pub fn run(global: &Global, action: TablesAction) -> Result<u8, CliError> {
    let dir = table_dir(global)?;
    let report = match action {
        TablesAction::Status => status(&dir),
        TablesAction::Bake { tier } => {
            bake(&dir, tier, !global.json)?;
            status(&dir)
        }
        TablesAction::Verify { tier } => verify(&dir, tier)?,
    };
    print_outcome(global, &Ok(report), false)
        .map_err(|e| CliError::io(format!("writing output: {e}")))
}

/// The state of one table file: its size and whether its header checks out.
fn table_state(dir: &Path, table: &Pdb) -> (PathBuf, Option<u64>, Result<(), TableError>) {
    let path = table.spec.path_in(dir);
    let size = std::fs::metadata(&path).ok().map(|m| m.len());
    let valid = open(dir, table).map(|_| ());
    (path, size, valid)
}

/// Maps one table file, validating its header, size and id in constant time.
#[allow(unsafe_code)]
fn open(dir: &Path, table: &Pdb) -> Result<PruneTable<Mapped>, TableError> {
    // SAFETY: tables are write-once files from `cube-cli tables bake` or `cargo xtask
    // bake-tables`, replaced only by an atomic rename, never modified in place.
    unsafe { PruneTable::open_mapped(&table.spec.path_in(dir), &table.spec) }
}

/// Whether every table of `tier` is present and valid.
pub fn tier_ready(dir: &Path, tier: Tier) -> bool {
    pdb::tier_tables(tier)
        .iter()
        .all(|table| table_state(dir, table).2.is_ok())
}

/// An error for the first table of `tier` that is present but invalid (corrupt, truncated,
/// another version), naming the file and the fix.
pub fn check_present_tables(dir: &Path, tier: Tier) -> Result<(), CliError> {
    for table in pdb::tier_tables(tier) {
        if let (_, Some(_), Err(e)) = table_state(dir, &table) {
            return Err(CliError::tables(e));
        }
    }
    Ok(())
}

/// The largest tier whose tables are all present and valid.
pub fn largest_ready_tier(dir: &Path) -> Option<Tier> {
    Tier::ALL
        .into_iter()
        .rev()
        .find(|&tier| tier_ready(dir, tier))
}

fn status(dir: &Path) -> Report {
    let mut text = format!("table directory: {}\n", dir.display());
    let mut tables = Vec::new();
    let mut all = vec![pdb::CORNERS];
    for tier in Tier::ALL {
        all.extend(pdb::edge_tables(tier));
    }
    for table in &all {
        let (path, size, valid) = table_state(dir, table);
        let state = match (&size, &valid) {
            (None, _) => "missing".to_string(),
            (Some(_), Ok(())) => "ok".to_string(),
            (Some(_), Err(e)) => format!("invalid: {e}"),
        };
        let size_text = size.map_or("-".to_string(), |s| {
            format!("{:.1} MiB", s as f64 / (1 << 20) as f64)
        });
        text.push_str(&format!(
            "  {:<15} {:>10}  {state}\n",
            table.id().as_str(),
            size_text
        ));
        tables.push(json!({ "id": table.id().as_str(), "path": path, "bytes": size, "ok": valid.is_ok(), "state": state }));
    }
    let mut tiers = Vec::new();
    for tier in Tier::ALL {
        let ready = tier_ready(dir, tier);
        let line = if ready {
            format!("tier {tier}: ready")
        } else {
            format!(
                "tier {tier}: not baked (cube-cli tables bake --tier {tier}: {})",
                tier_cost_text(tier)
            )
        };
        text.push_str(&line);
        text.push('\n');
        tiers.push(json!({ "tier": tier.to_string(), "ready": ready }));
    }
    Report::new(
        text.trim_end(),
        json!({ "dir": dir, "tables": tables, "tiers": tiers }),
    )
}

/// Bakes `tier` (corners included) into `dir`, with a progress bar per table on standard error
/// when `show_progress`; says where the tables went and how much space they take.
pub fn bake(dir: &Path, tier: Tier, show_progress: bool) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        CliError::tables(format!(
            "{}: creating the table directory: {e}",
            dir.display()
        ))
    })?;
    let start = Instant::now();
    let bar = std::sync::Mutex::new(None::<ProgressBar>);
    let progress = |event: &Event<'_>| {
        if !show_progress {
            return;
        }
        let mut bar = bar.lock().expect("the progress bar is never poisoned");
        match event {
            Event::Started { table } => {
                let new = ProgressBar::new(table.n_entries() as u64);
                new.set_style(
                    ProgressStyle::with_template(
                        "{prefix:>15} [{bar:30}] {percent:>3}% {elapsed_precise} ETA {eta} {msg}",
                    )
                    .expect("the template is valid")
                    .progress_chars("=> "),
                );
                new.set_prefix(table.id().to_string());
                new.enable_steady_tick(Duration::from_millis(200));
                *bar = Some(new);
            }
            Event::Level { table, stats } => {
                if let Some(bar) = &*bar {
                    bar.set_position(table.n_entries() as u64 - stats.unassigned);
                    bar.set_message(format!("depth {}", stats.depth));
                }
            }
            Event::Written { .. } | Event::Skipped { .. } => {
                if let Some(bar) = bar.take() {
                    bar.finish_and_clear();
                }
            }
            _ => {}
        }
    };
    if show_progress {
        let (disk, time) = tier_cost(tier);
        eprintln!(
            "baking the {tier} pattern databases into {} ({disk}, {time} on 2 cores; once)",
            dir.display()
        );
    }
    pdb::bake_tier(
        dir,
        tier,
        &BakeOptions {
            wait_for_lock: true,
            ..BakeOptions::default()
        },
        &progress,
    )
    .map_err(CliError::tables)?;
    if tier.h48_flips().is_some() {
        let options = h48::BakeOptions {
            wait_for_lock: true,
            ..h48::BakeOptions::default()
        };
        h48::bake(dir, tier, &options, &|_| {}).map_err(CliError::tables)?;
    }
    if show_progress {
        let bytes: u64 = pdb::tier_tables(tier)
            .iter()
            .filter_map(|t| table_state(dir, t).1)
            .sum();
        eprintln!(
            "baked tier {tier} in {:.1} s: {:.0} MiB in {}",
            start.elapsed().as_secs_f64(),
            bytes as f64 / (1 << 20) as f64,
            dir.display()
        );
    }
    Ok(())
}

fn verify(dir: &Path, tier: Option<Tier>) -> Result<Report, CliError> {
    let tables = pdb::tables_to_check(dir, tier);
    let mut text = String::new();
    let mut results: Vec<Value> = Vec::new();
    for table in &tables {
        let start = Instant::now();
        let mapped = open(dir, table).map_err(CliError::tables)?;
        pdb::verify_table(&mapped, table, &SpotCheck::default()).map_err(CliError::tables)?;
        let seconds = start.elapsed().as_secs_f64();
        text.push_str(&format!(
            "{:<15} ok ({seconds:.2} s)\n",
            table.id().as_str()
        ));
        results.push(json!({ "id": table.id().as_str(), "ok": true, "seconds": seconds }));
    }
    Ok(Report::new(
        text.trim_end(),
        json!({ "dir": dir, "verified": results }),
    ))
}
