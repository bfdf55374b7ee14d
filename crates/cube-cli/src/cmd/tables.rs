//! `cube-cli tables`: what is baked where, baking with progress bars, verifying; and the
//! first-run bake that `optimal` relies on.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime};

use cube_tables::h48;
use cube_tables::pdb::{self, BakeOptions, Event, Pdb, SpotCheck};
use cube_tables::{PruneTable, TableError, TableErrorKind, Tier};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

use crate::args::{Global, TablesAction};
use crate::output::{self, CliError, Report, print_outcome};

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
            let tell = !global.json && set.specs.iter().any(|spec| !spec.path_in(&dir).exists());
            if tell {
                output::note(format_args!("cube-cli: building the {method} tables (once)"));
            }
            // Caching only saves time: on an error the solver builds its tables in memory.
            if let Ok(outcome) = set.load_or_build(&dir)
                && tell
                && outcome.built > 0
            {
                match outcome.not_written {
                    None => output::note(format_args!(
                        "cube-cli: cached the {method} tables in {}",
                        dir.display()
                    )),
                    Some(e) => output::note(format_args!(
                        "cube-cli: warning: the {method} tables are not cached, they will be built again next time: {e}"
                    )),
                }
            }
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
    print_outcome(global, &Ok(report), None)
}

/// The state of one table file: its size and whether its header checks out.
fn table_state(dir: &Path, table: &Pdb) -> (PathBuf, Option<u64>, Result<(), TableError>) {
    let path = table.spec.path_in(dir);
    let size = std::fs::metadata(&path).ok().map(|m| m.len());
    let valid = cube_tables::pdb::check_header(&path, table);
    (path, size, valid)
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
        let checked = valid
            .as_ref()
            .ok()
            .and_then(|()| cube_tables::checked_at(&path));
        let state = match (&size, &valid, checked) {
            (None, _, _) => "missing".to_string(),
            (Some(_), Ok(()), Some(date)) => format!("ok (payload checked {})", utc_date(date)),
            (Some(_), Ok(()), None) => {
                "header ok, payload not checked (run `cube-cli tables verify`)".to_string()
            }
            (Some(_), Err(e), _) if unreadable(e) => format!("unreadable: {e}"),
            (Some(_), Err(e), _) => format!("invalid: {e}"),
        };
        let size_text = size.map_or("-".to_string(), |s| {
            format!("{:.1} MiB", s as f64 / (1 << 20) as f64)
        });
        text.push_str(&format!(
            "  {:<15} {:>10}  {state}\n",
            table.id().as_str(),
            size_text
        ));
        tables.push(json!({ "id": table.id().as_str(), "path": path, "bytes": size, "ok": valid.is_ok() && checked.is_some(), "header_ok": valid.is_ok(), "payload_checked": checked.map(utc_date), "state": state }));
    }
    let mut tiers = Vec::new();
    for tier in Tier::ALL {
        let ready = tier_ready(dir, tier);
        let unreadable_table =
            pdb::tier_tables(tier)
                .into_iter()
                .find_map(|table| match table_state(dir, &table) {
                    (_, Some(_), Err(e)) if unreadable(&e) => Some(e),
                    _ => None,
                });
        let checked = ready
            && pdb::tier_tables(tier)
                .iter()
                .all(|table| cube_tables::checked_at(&table.spec.path_in(dir)).is_some());
        let line = match (ready, unreadable_table) {
            (true, _) if checked => format!("tier {tier}: ready"),
            (true, _) => format!(
                "tier {tier}: baked, payload not checked (run `cube-cli tables verify --tier {tier}`)"
            ),
            (false, Some(e)) => format!("tier {tier}: unreadable ({e})"),
            (false, None) => format!(
                "tier {tier}: not baked (cube-cli tables bake --tier {tier}: {})",
                tier_cost_text(tier)
            ),
        };
        text.push_str(&line);
        text.push('\n');
        tiers.push(json!({ "tier": tier.to_string(), "ready": ready, "payload_checked": checked }));
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
        output::note(format_args!(
            "baking the {tier} pattern databases into {} ({disk}, {time} on 2 cores; once)",
            dir.display()
        ));
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
        output::note(format_args!(
            "baked tier {tier} in {:.1} s: {:.0} MiB in {}",
            start.elapsed().as_secs_f64(),
            bytes as f64 / (1 << 20) as f64,
            dir.display()
        ));
    }
    Ok(())
}

/// Whether a table error says the file is there but cannot be read (rather than bad inside).
fn unreadable(e: &TableError) -> bool {
    matches!(
        e.kind(),
        TableErrorKind::PermissionDenied | TableErrorKind::NotAFile | TableErrorKind::Io
    )
}

/// `2026-12-01 09:59 UTC`.
fn utc_date(time: SystemTime) -> String {
    let secs = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Howard Hinnant's `civil_from_days`, for the proleptic Gregorian calendar.
    let days = (secs / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    let minutes = secs % 86_400 / 60;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        minutes / 60,
        minutes % 60
    )
}

/// The full check of the tables: each is read (not mapped, so a file truncated meanwhile is an
/// error, not a signal), hashed, its histogram and spot checks compared; then stamped as checked.
fn verify(dir: &Path, tier: Option<Tier>) -> Result<Report, CliError> {
    let tables = pdb::tables_to_check(dir, tier);
    let mut text = String::new();
    let mut results: Vec<Value> = Vec::new();
    for table in &tables {
        let start = Instant::now();
        let loaded = PruneTable::load_anonymous(&table.spec.path_in(dir), &table.spec)
            .map_err(CliError::tables)?;
        pdb::verify_table(&loaded, table, &SpotCheck::default()).map_err(CliError::tables)?;
        let seconds = start.elapsed().as_secs_f64();
        let stamp = match cube_tables::write_check_stamp(&loaded) {
            Ok(()) => String::new(),
            Err(e) => format!("; not stamped: {e}"),
        };
        text.push_str(&format!(
            "{:<15} ok ({seconds:.2} s{stamp})\n",
            table.id().as_str()
        ));
        results.push(json!({ "id": table.id().as_str(), "ok": true, "seconds": seconds }));
    }
    Ok(Report::new(
        text.trim_end(),
        json!({ "dir": dir, "verified": results }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        let at = |secs| utc_date(SystemTime::UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01 00:00 UTC");
        // `date -u -d @951782400`: Tue Feb 29 00:00:00 UTC 2000.
        assert_eq!(at(951_782_400), "2000-02-29 00:00 UTC");
        // `date -u -d @1796119140`: Tue Dec  1 09:59:00 UTC 2026.
        assert_eq!(at(1_796_119_140), "2026-12-01 09:59 UTC");
    }
}
