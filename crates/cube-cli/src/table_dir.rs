//! The table directory that every command shares: where it is, and the
//! rendering of a bake (progress bars and notes) that `tables bake` and the first run of
//! `optimal` use. Which tables a tier has, whether they are ready and how they are baked is
//! cube-tables' `tier` module.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use cube_tables::pdb::{BakeOptions, Event};
use cube_tables::tier::{self, BakeEvent};
use cube_tables::{TableError, TableSpec, Tier};
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::Global;
use crate::output::{self, CliError};
use crate::tiers::{bake_time_text, file_bytes, size_text, tier_cost_text};

/// The table directory: `--tables`, else `$CUBE_TABLES_DIR`, else the user's cache directory.
pub fn table_dir(global: &Global) -> Result<PathBuf, CliError> {
    cube_tables::resolve_table_dir(global.tables.as_deref()).map_err(|e| CliError::tables(&e))
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

    /// Moves the bar `n` units on (nothing for a spinner or a hidden bar).
    pub fn advance(&self, n: u64) {
        if let Some(bar) = &*self.lock() {
            bar.inc(n);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Follows a bake: a bar per pattern database and per nx table, a spinner for the H48 pass; a
    /// note when the first edge table of a Korf tier, the H48 pass or an nx table starts.
    fn event(&self, dir: &Path, event: &BakeEvent<'_>, announced: &Mutex<Vec<Tier>>) {
        if !self.show {
            return;
        }
        match event {
            BakeEvent::Pdb(Event::Started { table }) => {
                if let Some(tier) = table.spec.tier {
                    let mut announced = announced.lock().unwrap_or_else(|e| e.into_inner());
                    if !announced.contains(&tier) {
                        announced.push(tier);
                        output::note(format_args!(
                            "baking the {tier} pattern databases into {} ({}; once)",
                            dir.display(),
                            tier_cost_text(tier)
                        ));
                    }
                }
                self.start(table.id().as_str(), Some(table.n_entries() as u64));
            }
            BakeEvent::Pdb(Event::Level { table, stats }) => {
                if let Some(bar) = &*self.lock() {
                    bar.set_position(table.n_entries() as u64 - stats.unassigned);
                    bar.set_message(stats.to_string());
                }
            }
            BakeEvent::Pdb(Event::Written { .. } | Event::Skipped { .. }) => self.finish(),
            BakeEvent::H48Started { tiers } => {
                let names = names(tiers);
                // The slowest tier's time, as they are baked together.
                let time = bake_time_text(*tiers.iter().max().expect("one H48 tier or more"));
                let mut specs = vec![cube_tables::pdb::CORNERS.spec];
                specs.extend(
                    tiers
                        .iter()
                        .flat_map(|&t| tier::specs(t).into_iter().skip(1)),
                );
                output::note(format_args!(
                    "baking the H48 tables of {names} with the corner database into {} ({time}, {} of disk; once)",
                    dir.display(),
                    size_text(specs.iter().map(file_bytes).sum())
                ));
                self.start(&format!("h48 {names}"), None);
            }
            BakeEvent::H48Level(stats) => {
                if let Some(bar) = &*self.lock() {
                    bar.set_message(stats.to_string());
                }
            }
            BakeEvent::NxStarted { tier } => {
                output::note(format_args!(
                    "baking the {tier} table into {} ({}; once)",
                    dir.display(),
                    tier_cost_text(*tier)
                ));
                self.start(&tier.to_string(), nx_cosets(*tier));
            }
            BakeEvent::NxLevel(stats) => {
                if let Some(bar) = &*self.lock() {
                    if let Some(len) = bar.length() {
                        bar.set_position(len - stats.unassigned);
                    }
                    bar.set_message(stats.to_string());
                }
            }
            BakeEvent::H48Finished | BakeEvent::NxFinished => self.finish(),
            BakeEvent::Pdb(Event::Work { .. } | Event::Writing { .. }) => {}
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = self.lock().take() {
            bar.finish_and_clear();
        }
    }
}

/// The cosets an nx tier's search assigns (its bar's length): 9,930 corner classes times the
/// edge coordinates.
fn nx_cosets(tier: Tier) -> Option<u64> {
    let subgroup = cube_tables::nx::subgroup(tier)?;
    Some((cube_tables::nx::N_CORNER_CLASSES * subgroup.n_edges()) as u64)
}

/// "h0, h4".
fn names(tiers: &[Tier]) -> String {
    tiers
        .iter()
        .map(Tier::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Bakes `tiers` into `dir` ([`tier::bake`]: the corner database, the Korf tiers, one H48 pass),
/// with a progress bar per table on standard error when `show_progress`; with `force`, even the
/// tables present and sound; says how long each tier took and how much space it takes.
pub fn bake(dir: &Path, tiers: &[Tier], show_progress: bool, force: bool) -> Result<(), CliError> {
    let bar = Bar::new(show_progress);
    let announced = Mutex::new(Vec::new());
    let options = BakeOptions {
        wait_for_lock: true,
        force,
        ..BakeOptions::default()
    };
    let baked = tier::bake(dir, tiers, &options, &|event| {
        bar.event(dir, event, &announced);
    })
    .map_err(|e| CliError::tables(&e))?;
    if show_progress {
        // Per tier, its tables' times (the corner database's with the first tier).
        let mut done: Vec<(Tier, Duration)> = Vec::new();
        for table in &baked {
            for note in &table.report.notes {
                output::note(format_args!("{}: {note}", table.id));
            }
            let time = table.report.search_time + table.report.write_time;
            match done.iter_mut().find(|(tier, _)| *tier == table.tier) {
                Some((_, elapsed)) => *elapsed += time,
                None => done.push((table.tier, time)),
            }
        }
        for (tier, elapsed) in done {
            let bytes: u64 = tier::specs(tier)
                .iter()
                .filter_map(|spec| table_state(dir, spec).1)
                .sum();
            output::note(format_args!(
                "baked {} {tier} in {:.1} s: {:.0} MiB in {}",
                tier.family(),
                elapsed.as_secs_f64(),
                bytes as f64 / (1 << 20) as f64,
                dir.display()
            ));
        }
    }
    Ok(())
}
