//! The table directory that every command shares: where it is, the tables of each tier and their
//! costs, which tiers are ready, and the bake with progress bars that `tables bake` and the first
//! run of `optimal` use. A Korf tier is the corner database and two edge databases; an H48 tier is
//! the corner database (the sym48 search derives its corner deltas from it) and one `h48-hN` table.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cube_tables::h48;
use cube_tables::pdb::{self, BakeOptions, Event, LevelStats};
use cube_tables::{HEADER_LEN, TableError, TableSpec, Tier};
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::Global;
use crate::output::{self, CliError};

/// The bake time of each tier on this project's 2-core machine, as measured in
/// docs/PERFORMANCE.md ("cube-tables: pattern databases", "the H48 tables", "the h4..h7 bake in
/// one pass"), for messages, the help of `--tier` and the README's table of tiers (the test
/// `readme::the_tier_table_is_the_cli_s` keeps the README equal to it); `None` while it is not
/// measured.
fn bake_time(tier: Tier) -> Option<&'static str> {
    match tier {
        // 3.59 s, corners included.
        Tier::Edge6 => Some("about 4 s"),
        // 15.3 s at load 2.9 (39 s at load 6).
        Tier::Edge7 => Some("about 15 s"),
        // 310 s.
        Tier::Edge8 => Some("about 5 minutes"),
        // 16.8 s with the corner database.
        Tier::H0 => Some("about 17 s"),
        // One pass bakes any of them or all four: 599.5 s for all four.
        Tier::H4 | Tier::H5 | Tier::H6 | Tier::H7 => Some("about 10 minutes"),
    }
}

/// "about 20 s on 2 cores" or "bake time to be measured".
fn bake_time_text(tier: Tier) -> String {
    bake_time(tier).map_or_else(
        || "bake time to be measured".to_string(),
        |time| format!("{time} on 2 cores"),
    )
}

/// The specs of every table of `tier`: the corner database, then the two edge databases of a
/// Korf tier or the H48 table of an H48 tier.
pub fn tier_specs(tier: Tier) -> Vec<TableSpec> {
    let mut specs: Vec<TableSpec> = pdb::tier_tables(tier).iter().map(|t| t.spec).collect();
    specs.extend(h48::spec(tier));
    specs
}

/// The size of the file of `spec`: the header and the payload.
pub fn file_bytes(spec: &TableSpec) -> u64 {
    HEADER_LEN as u64 + spec.payload_len()
}

/// The disk space of `tier`'s tables, from their specs.
pub fn tier_bytes(tier: Tier) -> u64 {
    tier_specs(tier).iter().map(file_bytes).sum()
}

/// `83 MiB`, `1.8 GiB`.
pub fn size_text(bytes: u64) -> String {
    let mib = bytes as f64 / (1u64 << 20) as f64;
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else {
        format!("{mib:.0} MiB")
    }
}

/// "about 20 s on 2 cores, 529 MiB of disk", for messages.
pub fn tier_cost_text(tier: Tier) -> String {
    format!(
        "{}, {} of disk",
        bake_time_text(tier),
        size_text(tier_bytes(tier))
    )
}

/// What `tier` is, for the possible values of `--tier`: "Korf, 83 MiB, about 4 s on 2 cores".
pub fn tier_summary(tier: Tier) -> String {
    let method = if tier.h48_flips().is_some() {
        "sym48"
    } else {
        "Korf"
    };
    let test = if tier == Tier::H0 { ", for tests" } else { "" };
    format!(
        "{method}{test}: {} of disk, bake {}",
        size_text(tier_bytes(tier)),
        bake_time_text(tier)
    )
}

/// The table directory: `--tables`, else `$CUBE_TABLES_DIR`, else the user's cache directory.
pub fn table_dir(global: &Global) -> Result<PathBuf, CliError> {
    cube_tables::resolve_table_dir(global.tables.as_deref()).map_err(CliError::tables)
}

/// The state of one table file: its size (`None` when there is no such name in `dir`; a symbolic
/// link that leads nowhere or in a loop is there, with its own size) and whether its header checks
/// out.
pub fn table_state(dir: &Path, spec: &TableSpec) -> (PathBuf, Option<u64>, Result<(), TableError>) {
    let path = spec.path_in(dir);
    let size = std::fs::metadata(&path)
        .or_else(|_| std::fs::symlink_metadata(&path))
        .ok()
        .map(|m| m.len());
    let valid = cube_tables::check_header(&path, spec);
    (path, size, valid)
}

/// Whether every table of `tier` is present with a sound header.
pub fn tier_ready(dir: &Path, tier: Tier) -> bool {
    tier_specs(tier)
        .iter()
        .all(|spec| table_state(dir, spec).2.is_ok())
}

/// An error for the first table of `tier` that is present but invalid (corrupt, truncated,
/// another version), naming the file and the fix.
pub fn check_present_tables(dir: &Path, tier: Tier) -> Result<(), CliError> {
    for spec in tier_specs(tier) {
        if let (_, Some(_), Err(e)) = table_state(dir, &spec) {
            return Err(CliError::tables(e));
        }
    }
    Ok(())
}

/// The tier `optimal` uses without `--tier`: the largest H48 tier of h4 to h7 whose tables are
/// all present and valid, else the largest such Korf tier. h0 is a test tier, used only when asked
/// for by name.
pub fn largest_ready_tier(dir: &Path) -> Option<Tier> {
    let h48 = Tier::H48.into_iter().filter(|&tier| tier != Tier::H0);
    h48.rev()
        .chain(Tier::ALL.into_iter().rev())
        .find(|&tier| tier_ready(dir, tier))
}

/// Every tier, Korf's then the H48 ones.
pub fn all_tiers() -> impl Iterator<Item = Tier> {
    Tier::ALL.into_iter().chain(Tier::H48)
}

/// The progress bar of a build on standard error, one table at a time (none when hidden, and
/// drawn only on a terminal).
pub struct Bar {
    show: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Bar {
    pub fn new(show: bool) -> Bar {
        Bar {
            show,
            bar: Mutex::new(None),
        }
    }

    /// Starts a bar for `id`, of `len` entries (a spinner when `None`), when shown.
    pub fn start(&self, id: &str, len: Option<u64>) {
        if !self.show {
            return;
        }
        let new = match len {
            Some(len) => {
                let bar = ProgressBar::new(len);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{prefix:>15} [{bar:30}] {percent:>3}% {elapsed_precise} ETA {eta} {msg}",
                    )
                    .expect("the template is valid")
                    .progress_chars("=> "),
                );
                bar
            }
            None => {
                let bar = ProgressBar::new_spinner();
                bar.set_style(
                    ProgressStyle::with_template("{prefix:>15} {spinner} {elapsed_precise} {msg}")
                        .expect("the template is valid"),
                );
                bar
            }
        };
        new.set_prefix(id.to_string());
        new.enable_steady_tick(Duration::from_millis(200));
        *self.lock() = Some(new);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Follows a pattern database bake.
    fn event(&self, event: &Event<'_>) {
        if !self.show {
            return;
        }
        match event {
            Event::Started { table } => {
                self.start(table.id().as_str(), Some(table.n_entries() as u64));
            }
            Event::Level { table, stats } => {
                if let Some(bar) = &*self.lock() {
                    bar.set_position(table.n_entries() as u64 - stats.unassigned);
                    bar.set_message(stats.to_string());
                }
            }
            Event::Written { .. } | Event::Skipped { .. } => self.finish(),
            _ => {}
        }
    }

    /// Follows a level of an H48 bake.
    fn level(&self, stats: &LevelStats) {
        if let Some(bar) = &*self.lock() {
            bar.set_message(stats.to_string());
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = self.lock().take() {
            bar.finish_and_clear();
        }
    }
}

/// Bakes `tiers` (each with the corner database) into `dir`, with a progress bar per table on
/// standard error when `show_progress`; with `force`, even the tables present and sound; says where the tables went and how much space they take.
/// The H48 tiers are baked together, by one call of [`h48::bake_tiers`].
pub fn bake(dir: &Path, tiers: &[Tier], show_progress: bool, force: bool) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        CliError::tables(format!(
            "{}: creating the table directory: {e}",
            dir.display()
        ))
    })?;
    let mut unique: Vec<Tier> = Vec::new();
    for &tier in tiers {
        if !unique.contains(&tier) {
            unique.push(tier);
        }
    }
    let (h48_tiers, korf_tiers): (Vec<Tier>, Vec<Tier>) = unique
        .into_iter()
        .partition(|tier| tier.h48_flips().is_some());
    let bar = Bar::new(show_progress);
    let options = BakeOptions {
        wait_for_lock: true,
        force,
        ..BakeOptions::default()
    };
    let mut baked: Vec<(String, Vec<TableSpec>, Duration)> = Vec::new();
    for &tier in &korf_tiers {
        let start = Instant::now();
        if show_progress {
            output::note(format_args!(
                "baking the {tier} pattern databases into {} ({}; once)",
                dir.display(),
                tier_cost_text(tier)
            ));
        }
        pdb::bake_tier(dir, tier, &options, &|event| bar.event(event)).map_err(CliError::tables)?;
        baked.push((format!("tier {tier}"), tier_specs(tier), start.elapsed()));
    }
    if !h48_tiers.is_empty() {
        let start = Instant::now();
        let names = h48_tiers
            .iter()
            .map(Tier::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let mut specs = vec![pdb::CORNERS.spec];
        specs.extend(h48_tiers.iter().filter_map(|&tier| h48::spec(tier)));
        if show_progress {
            // The slowest tier's time, as they are baked together.
            let time = bake_time_text(*h48_tiers.iter().max().expect("one H48 tier or more"));
            output::note(format_args!(
                "baking the H48 tables of {names} with the corner database into {} ({time}, {} of disk; once)",
                dir.display(),
                size_text(specs.iter().map(file_bytes).sum())
            ));
        }
        pdb::bake(dir, &pdb::CORNERS, &options, &|event| bar.event(event))
            .map_err(CliError::tables)?;
        let h48_options = h48::BakeOptions {
            wait_for_lock: true,
            force,
            ..h48::BakeOptions::default()
        };
        bar.start(&format!("h48 {names}"), None);
        let result = h48::bake_tiers(dir, &h48_tiers, &h48_options, &|stats| bar.level(stats));
        bar.finish();
        result.map_err(CliError::tables)?;
        baked.push((format!("H48 {names}"), specs, start.elapsed()));
    }
    if show_progress {
        for (what, specs, elapsed) in &baked {
            let bytes: u64 = specs
                .iter()
                .filter_map(|spec| table_state(dir, spec).1)
                .sum();
            output::note(format_args!(
                "baked {what} in {:.1} s: {:.0} MiB in {}",
                elapsed.as_secs_f64(),
                bytes as f64 / (1 << 20) as f64,
                dir.display()
            ));
        }
    }
    Ok(())
}
