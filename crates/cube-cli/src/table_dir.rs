//! The table directory that every command shares: where it is, and the
//! rendering of a bake (progress bars and notes) that `tables bake` and the first run of
//! `optimal` use. Which tables a tier has, whether they are ready and how they are baked is
//! cube-tables' `tier` module.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use cube_tables::tier::{self, BakeOptions, BakeView, LevelStats};
use cube_tables::{TableError, TableSpec, Tier};
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::Global;
use crate::output::{self, CliError};
use crate::tiers::tiers_cost_text;

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

    pub fn finish(&self) {
        if let Some(bar) = self.lock().take() {
            bar.finish_and_clear();
        }
    }
}

/// What `tables bake` and a first run show of a bake of `dir`: a note when a family starts baking
/// tiers (what, how long, how much disk), a bar per search (a spinner when its cells are not known
/// ahead); nothing when the bar is hidden.
struct Shown<'a> {
    bar: &'a Bar,
    dir: &'a Path,
}

impl BakeView for Shown<'_> {
    fn started(&self, tiers: &[Tier], what: &str) {
        if self.bar.show {
            output::note(format_args!(
                "baking {what} into {} ({}; once)",
                self.dir.display(),
                tiers_cost_text(tiers)
            ));
        }
    }

    fn search(&self, name: &str, cells: Option<u64>) {
        self.bar.start(name, cells);
    }

    fn level(&self, _name: &str, cells: Option<u64>, stats: &LevelStats) {
        if let Some(bar) = &*self.bar.lock() {
            if let Some(cells) = cells {
                bar.set_position(cells - stats.unassigned);
            }
            bar.set_message(stats.to_string());
        }
    }

    fn finished(&self, _name: &str, _line: Option<&dyn std::fmt::Display>) {
        self.bar.finish();
    }
}

/// Bakes `tiers` into `dir` ([`tier::bake`]: the corner database, then each family's tables),
/// with a progress bar per table on standard error when `show_progress`; with `force`, even the
/// tables present and sound; says how long each tier took and how much space it takes.
pub fn bake(dir: &Path, tiers: &[Tier], show_progress: bool, force: bool) -> Result<(), CliError> {
    let bar = Bar::new(show_progress);
    let options = BakeOptions {
        wait_for_lock: true,
        force,
        ..BakeOptions::default()
    };
    let baked = tier::bake(dir, tiers, &options, &Shown { bar: &bar, dir })
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
