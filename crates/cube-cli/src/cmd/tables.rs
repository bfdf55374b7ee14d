//! `cube-cli tables`: what is baked where, baking with progress bars, verifying; and the
//! first-run bake that `optimal` relies on. A Korf tier is the corner database and two edge
//! databases; an H48 tier is the corner database (the sym48 search derives its corner deltas from
//! it) and one `h48-hN` table.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use cube_tables::h48;
use cube_tables::pdb::{self, BakeOptions, Event, LevelStats, SpotCheck};
use cube_tables::{HEADER_LEN, PruneTable, TableError, TableErrorKind, TableSpec, Tier};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

use crate::args::{Global, TablesAction};
use crate::output::{self, CliError, Report, print_outcome};

/// The bake time of each tier on a 2-core machine (docs/PERFORMANCE.md), for messages; `None`
/// while it is not measured.
fn bake_time(tier: Tier) -> Option<&'static str> {
    match tier {
        Tier::Edge6 => Some("about 5 s"),
        Tier::Edge7 => Some("about 20 s"),
        Tier::Edge8 => Some("about 5 minutes"),
        // With the corner database.
        Tier::H0 => Some("about 20 s"),
        // One pass bakes any of them or all four; measured 10.0 minutes for all four.
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
fn file_bytes(spec: &TableSpec) -> u64 {
    HEADER_LEN as u64 + spec.payload_len()
}

/// The disk space of `tier`'s tables, from their specs.
fn tier_bytes(tier: Tier) -> u64 {
    tier_specs(tier).iter().map(file_bytes).sum()
}

/// `83 MiB`, `1.8 GiB`.
fn size_text(bytes: u64) -> String {
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
            bake(&dir, &tier, !global.json)?;
            status(&dir)
        }
        TablesAction::Verify { tier } => verify(&dir, tier)?,
    };
    print_outcome(global, &Ok(report), None)
}

/// The state of one table file: its size and whether its header checks out.
fn table_state(dir: &Path, spec: &TableSpec) -> (PathBuf, Option<u64>, Result<(), TableError>) {
    let path = spec.path_in(dir);
    let size = std::fs::metadata(&path).ok().map(|m| m.len());
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
fn all_tiers() -> impl Iterator<Item = Tier> {
    Tier::ALL.into_iter().chain(Tier::H48)
}

fn status(dir: &Path) -> Report {
    let mut text = format!("table directory: {}\n", dir.display());
    let mut tables = Vec::new();
    let mut all = vec![pdb::CORNERS.spec];
    for tier in all_tiers() {
        all.extend(tier_specs(tier).into_iter().skip(1));
    }
    for spec in &all {
        let (path, size, valid) = table_state(dir, spec);
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
            spec.id.as_str(),
            size_text
        ));
        tables.push(json!({ "id": spec.id.as_str(), "path": path, "bytes": size, "expected_bytes": file_bytes(spec), "ok": valid.is_ok() && checked.is_some(), "header_ok": valid.is_ok(), "payload_checked": checked.map(utc_date), "state": state }));
    }
    let mut tiers = Vec::new();
    for tier in all_tiers() {
        let ready = tier_ready(dir, tier);
        let unreadable_table =
            tier_specs(tier)
                .into_iter()
                .find_map(|spec| match table_state(dir, &spec) {
                    (_, Some(_), Err(e)) if unreadable(&e) => Some(e),
                    _ => None,
                });
        let checked = ready
            && tier_specs(tier)
                .iter()
                .all(|spec| cube_tables::checked_at(&spec.path_in(dir)).is_some());
        let bytes = tier_bytes(tier);
        let line = match (ready, unreadable_table) {
            (true, _) if checked => format!("tier {tier}: ready ({})", size_text(bytes)),
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
        tiers.push(json!({ "tier": tier.to_string(), "ready": ready, "payload_checked": checked, "bytes": bytes }));
    }
    Report::new(
        text.trim_end(),
        json!({ "dir": dir, "tables": tables, "tiers": tiers }),
    )
}

/// The progress bar of a bake on standard error, one table at a time (none when hidden).
struct Bar {
    show: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Bar {
    fn new(show: bool) -> Bar {
        Bar {
            show,
            bar: Mutex::new(None),
        }
    }

    /// Starts a bar for `id`, of `len` entries (a spinner when `None`).
    fn start(&self, id: &str, len: Option<u64>) {
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

    fn finish(&self) {
        if let Some(bar) = self.lock().take() {
            bar.finish_and_clear();
        }
    }
}

/// Bakes `tiers` (each with the corner database) into `dir`, with a progress bar per table on
/// standard error when `show_progress`; says where the tables went and how much space they take.
/// The H48 tiers are baked together, by one call of [`h48::bake_tiers`].
pub fn bake(dir: &Path, tiers: &[Tier], show_progress: bool) -> Result<(), CliError> {
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
/// error, not a signal), hashed, its histogram compared (and for a pattern database its spot
/// checks run); then stamped as checked. The tables are the corner database and those of `tier`,
/// or of every tier with a table present.
fn verify(dir: &Path, tier: Option<Tier>) -> Result<Report, CliError> {
    let pdbs = pdb::tables_to_check(dir, tier);
    let h48_specs = h48::specs_to_check(dir, tier);
    let mut text = String::new();
    let mut results: Vec<Value> = Vec::new();
    let mut check =
        |spec: &TableSpec,
         verify: &dyn Fn(&PruneTable<cube_tables::Anonymous>) -> Result<(), CliError>|
         -> Result<(), CliError> {
            let start = Instant::now();
            let loaded =
                PruneTable::load_anonymous(&spec.path_in(dir), spec).map_err(CliError::tables)?;
            verify(&loaded)?;
            let seconds = start.elapsed().as_secs_f64();
            let stamp = match cube_tables::write_check_stamp(&loaded) {
                Ok(()) => String::new(),
                Err(e) => format!("; not stamped: {e}"),
            };
            text.push_str(&format!(
                "{:<15} ok ({seconds:.2} s{stamp})\n",
                spec.id.as_str()
            ));
            results.push(json!({ "id": spec.id.as_str(), "ok": true, "seconds": seconds }));
            Ok(())
        };
    for table in &pdbs {
        check(&table.spec, &|loaded| {
            pdb::verify_table(loaded, table, &SpotCheck::default())
                .map(drop)
                .map_err(CliError::tables)
        })?;
    }
    for spec in &h48_specs {
        check(spec, &|loaded| {
            h48::verify_table(loaded).map_err(CliError::tables)
        })?;
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
