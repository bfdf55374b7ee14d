//! `cube-cli tables`: what is baked where (`status`), `bake`, `verify`. The directory, the
//! tiers and the bake itself are in [`crate::table_dir`].

use std::path::Path;
use std::time::SystemTime;

use crate::record::{self, Record};
use cube_tables::{Clean, FileKind, FileState, KeptFile, TableError, TableErrorKind, Tier};

use crate::args::{Global, TablesAction};
use crate::output::{CliError, Report, table_error};
use crate::table_dir::{bake, table_dir, table_state};
use crate::tiers::{file_bytes, size_text, tier_cost_text};
use cube_solvers::MethodTables;
use cube_solvers::two_phase::TwoPhaseTables;
use cube_tables::tier::{self, SpotCheck, TierState};

pub fn run(global: &Global, action: TablesAction) -> Result<u8, CliError> {
    let dir = table_dir(global)?;
    let report = match action {
        TablesAction::Status { all } => {
            let view = if all { View::All } else { View::Present };
            status(&dir, "status", view)
        }
        TablesAction::Bake {
            tier,
            caches,
            force,
        } => {
            bake(&dir, &tier, global.notes(), force)?;
            let mut report = status(&dir, "bake", View::Tiers(&tier));
            if caches {
                crate::method_tables::bake_two_phase(global);
                let state = if TwoPhaseTables::cached_in(&dir) {
                    "cached"
                } else {
                    "not cached"
                };
                let bytes = TwoPhaseTables::SPECS.iter().map(file_bytes).sum();
                report.text = format!(
                    "{}\ntwo-phase tables: {state} ({})",
                    report.text,
                    size_text(bytes)
                );
            }
            report
        }
        TablesAction::Verify { tier } => verify(&dir, tier)?,
        TablesAction::Files => {
            let files = cube_tables::list_files(&dir).map_err(|e| CliError::tables(&e))?;
            files_report(&dir, "files", &files)
        }
        TablesAction::Clean {
            tier,
            caches,
            all,
            wait,
        } => {
            let selection = match (tier, caches, all) {
                (Some(tier), _, _) => Clean::Tier(tier),
                (None, true, _) => Clean::MethodCaches,
                _ => Clean::All,
            };
            let removed =
                cube_tables::clean(&dir, selection, wait).map_err(|e| CliError::tables(&e))?;
            files_report(&dir, "clean", &removed)
        }
    };
    global.printer().report(&Ok(report), None)
}

/// The files of `tables files`, or those `tables clean` removed: one line each, then the total.
fn files_report(dir: &Path, action: &'static str, files: &[KeptFile]) -> Report {
    let mut text = format!("table directory: {}\n", dir.display());
    let mut records = Vec::new();
    for file in files {
        let name = file
            .path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let kind = file_kind(file.kind);
        let state = match &file.state {
            FileState::Sound {
                checked: Some(date),
                ..
            } => format!("ok (payload checked {})", utc_date(*date)),
            FileState::Sound { checked: None, .. } => "header ok".to_string(),
            FileState::Bad(e) => format!("invalid: {e}"),
            FileState::NotATable => "-".to_string(),
        };
        text.push_str(&format!(
            "  {name:<40} {:>10}  {kind:<16} {state}\n",
            size_text(file.size)
        ));
        records.push(record::KeptFile {
            path: file.path.clone(),
            kind,
            table: file.table.clone(),
            bytes: file.size,
            state,
        });
    }
    let total: u64 = files.iter().map(|f| f.size).sum();
    let verb = if action == "clean" {
        "removed"
    } else {
        "total"
    };
    text.push_str(&format!(
        "{verb}: {} file{}, {}",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        size_text(total)
    ));
    Report::new(
        text,
        Record::Tables(record::Tables {
            action,
            dir: dir.to_path_buf(),
            tables: None,
            tiers: None,
            verified: None,
            files: Some(records),
        }),
    )
}

/// The kind of a kept file, as `tables files` names it.
fn file_kind(kind: FileKind) -> &'static str {
    match kind {
        FileKind::PatternDatabase => "pattern-database",
        FileKind::H48Table => "h48-table",
        FileKind::MethodCache => "method-cache",
        FileKind::Seed => "seed",
        FileKind::Stamp => "stamp",
        FileKind::Scratch => "scratch",
        FileKind::Temporary => "temporary",
        FileKind::StaleLock => "stale-lock",
        FileKind::BakeLog => "bake-log",
        FileKind::Lock => "lock",
    }
}

/// Which lines of the status the text shows; the JSON record lists every table and every tier.
enum View<'a> {
    /// Every table and every tier (`tables --all`).
    All,
    /// The tables present and the tiers with a table of their own present, then one line naming
    /// the tiers not baked (`tables`).
    Present,
    /// The tables and the tiers of these tiers (what `tables bake` baked).
    Tiers(&'a [Tier]),
}

/// `action` is `status` or `bake` (which reports the status after the bake), `view` what its text
/// shows.
fn status(dir: &Path, action: &'static str, view: View<'_>) -> Report {
    let mut text = format!("table directory: {}\n", dir.display());
    let mut tables = Vec::new();
    let all = tier::all_specs();
    // The tables there, whatever their state.
    let mut present = Vec::new();
    for spec in &all {
        let (path, size, valid) = table_state(dir, spec);
        if size.is_some() {
            present.push(*spec);
        }
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
            (Some(_), Err(e), _) if unreadable(e) => format!("unreadable: {}", table_error(e)),
            (Some(_), Err(e), _) => format!("invalid: {}", table_error(e)),
        };
        let size_text = size.map_or("-".to_string(), |s| {
            format!("{:.1} MiB", s as f64 / (1 << 20) as f64)
        });
        let shown = match view {
            View::All => true,
            View::Present => size.is_some(),
            View::Tiers(baked) => baked.iter().any(|&t| tier::specs(t).contains(spec)),
        };
        if shown {
            text.push_str(&format!(
                "  {:<15} {:>10}  {state}\n",
                spec.id.as_str(),
                size_text
            ));
        }
        tables.push(record::TableFile {
            id: spec.id.as_str().to_string(),
            path,
            bytes: size,
            expected_bytes: file_bytes(spec),
            ok: valid.is_ok() && checked.is_some(),
            header_ok: valid.is_ok(),
            payload_checked: checked.map(utc_date),
            state,
        });
    }
    let mut tiers = Vec::new();
    let mut not_baked = Vec::new();
    for tier in Tier::ALL {
        let ready = matches!(tier::state(dir, tier), TierState::Ready);
        let unreadable_table =
            tier::specs(tier)
                .into_iter()
                .find_map(|spec| match table_state(dir, &spec) {
                    (_, Some(_), Err(e)) if unreadable(&e) => Some(e),
                    _ => None,
                });
        let checked = ready
            && tier::specs(tier)
                .iter()
                .all(|spec| cube_tables::checked_at(&spec.path_in(dir)).is_some());
        let bytes = tier::disk_bytes(tier);
        let unreadable = unreadable_table.is_some();
        let line = match (ready, unreadable_table) {
            (true, _) if checked => format!("tier {tier}: ready ({})", size_text(bytes)),
            (true, _) => format!(
                "tier {tier}: baked, payload not checked (run `cube-cli tables verify --tier {tier}`)"
            ),
            (false, Some(e)) => format!("tier {tier}: unreadable ({})", table_error(&e)),
            (false, None) => format!(
                "tier {tier}: not baked (cube-cli tables bake --tier {tier}: {})",
                tier_cost_text(tier)
            ),
        };
        // A tier not baked shows on a line of its own when one of its own tables (the corner
        // database aside, which every tier shares) is there.
        let own_table_present = tier::specs(tier)
            .iter()
            .skip(1)
            .any(|spec| present.contains(spec));
        let shown = match view {
            View::All => true,
            View::Present => ready || unreadable || own_table_present,
            View::Tiers(baked) => baked.contains(&tier),
        };
        if shown {
            text.push_str(&line);
            text.push('\n');
        } else if matches!(view, View::Present) {
            not_baked.push(tier.to_string());
        }
        tiers.push(record::TierState {
            tier: tier.to_string(),
            ready,
            payload_checked: checked,
            bytes,
        });
    }
    if !not_baked.is_empty() {
        text.push_str(&format!(
            "not baked: {} (`cube-cli tables --all` gives each one's size and bake time)",
            not_baked.join(", ")
        ));
    }
    Report::new(
        text.trim_end(),
        Record::Tables(record::Tables {
            action,
            dir: dir.to_path_buf(),
            tables: Some(tables),
            tiers: Some(tiers),
            verified: None,
            files: None,
        }),
    )
}

/// Whether a table error says the file is there but cannot be read (rather than bad inside).
fn unreadable(e: &TableError) -> bool {
    matches!(
        e.kind(),
        TableErrorKind::PermissionDenied
            | TableErrorKind::NotAFile
            | TableErrorKind::Io
            // A symbolic link to nowhere.
            | TableErrorKind::Missing
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

/// The full check of the tables, cube-tables' [`tier::verify`]: each is read (not mapped, so a
/// file truncated meanwhile is an error, not a signal), hashed, its histogram compared (and for a
/// pattern database its spot checks run); then stamped as checked. The tables are the corner
/// database and those of `tier`, or of every tier with a table present and then every method
/// cache ([`tier::verify_caches`]); a directory of method caches and no tier file has only its
/// caches checked (one with neither is the tiers' error: the corner database is missing).
fn verify(dir: &Path, tier: Option<Tier>) -> Result<Report, CliError> {
    let check_tiers = || tier::verify(dir, tier, &SpotCheck::default(), &|_| {});
    let tier_files = cube_tables::list_files(dir)
        .map_err(|e| CliError::tables(&e))?
        .iter()
        .any(|file| {
            matches!(
                file.kind,
                FileKind::PatternDatabase | FileKind::H48Table | FileKind::Seed
            )
        });
    let mut verified = Vec::new();
    if tier.is_some() || tier_files {
        verified = check_tiers().map_err(|e| CliError::tables(&e))?;
    }
    if tier.is_none() {
        verified.extend(tier::verify_caches(dir, &|_| {}).map_err(|e| CliError::tables(&e))?);
        if verified.is_empty() {
            // Nothing at all: the tiers' error (the corner database is missing, and how to bake).
            check_tiers().map_err(|e| CliError::tables(&e))?;
        }
    }
    let mut text = String::new();
    let mut results: Vec<record::Verified> = Vec::new();
    for table in &verified {
        let seconds = (table.read_time + table.check_time).as_secs_f64();
        let stamp = match &table.stamp {
            Ok(()) => String::new(),
            Err(e) => format!("; not stamped: {e}"),
        };
        text.push_str(&format!(
            "{:<15} ok ({seconds:.2} s{stamp})\n",
            table.id.as_str()
        ));
        results.push(record::Verified {
            id: table.id.as_str().to_string(),
            ok: true,
            seconds,
        });
    }
    Ok(Report::new(
        text.trim_end(),
        Record::Tables(record::Tables {
            action: "verify",
            dir: dir.to_path_buf(),
            tables: None,
            tiers: None,
            verified: Some(results),
            files: None,
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
