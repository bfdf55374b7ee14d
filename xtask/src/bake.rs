//! `cargo xtask bake-tables`: progress bars, a per-level log, and a summary of time and memory.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use cube_tables::Tier;
use cube_tables::tier::{self, BakeOptions, BakeView, LevelStats, ScratchKind};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

use crate::flags::{BakeFlags, ScratchFlag};
use crate::{Error, Memory, mib, table_dir};

pub(crate) fn run(flags: BakeFlags) -> Result<(), Error> {
    let dir = table_dir(flags.dir);
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("{}: creating the table directory: {e}", dir.display()))?;
    let options = BakeOptions {
        scratch: match flags.scratch {
            ScratchFlag::File => ScratchKind::File,
            ScratchFlag::Memory => ScratchKind::Memory,
        },
        force: flags.force,
        wait_for_lock: false,
        backward_factor: flags.backward_factor,
        ..BakeOptions::default()
    };
    let mut tiers: Vec<Tier> = Vec::new();
    for &tier in &flags.tier {
        if !tiers.contains(&tier) {
            tiers.push(tier);
        }
    }
    let names = tiers
        .iter()
        .map(Tier::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let threads = flags
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let ui = Ui::new(&dir)?;
    ui.line(&format!(
        "baking tier {names} into {} with {threads} threads",
        dir.display()
    ));
    let start = Instant::now();
    // One bake rule for every front end: the corner database, the Korf tiers, one H48 pass.
    let baked = tier::with_threads(flags.threads, || tier::bake(&dir, &tiers, &options, &ui))??;
    let total = start.elapsed();
    let memory = Memory::now();
    ui.multi.clear().ok();
    println!("summary, tier {names}:");
    for table in &baked {
        let (id, report) = (table.id.as_str(), &table.report);
        if report.skipped {
            println!("  {id:<16} already baked and valid");
        } else {
            println!(
                "  {id:<16} search {:>7.2} s, check + pack + write {:>6.2} s, {} levels",
                report.search_time.as_secs_f64(),
                report.write_time.as_secs_f64(),
                report.levels.len()
            );
        }
        for note in &report.notes {
            println!("  {:<16} {note}", "");
        }
    }
    println!(
        "  total {:.2} s; peak RSS (VmHWM) {:.0} MiB, of which at most {:.0} MiB anonymous (sampled per level), the rest mapped scratch pages",
        total.as_secs_f64(),
        mib(memory.peak_rss),
        mib(ui.peak_anon.load(Relaxed).max(memory.anon)),
    );
    ui.log(&format!(
        "tier {names} total {:.2} s, VmHWM {:.0} MiB, peak RssAnon {:.0} MiB",
        total.as_secs_f64(),
        mib(memory.peak_rss),
        mib(ui.peak_anon.load(Relaxed).max(memory.anon))
    ));
    Ok(())
}

/// Progress bars and the log file `<dir>/bake.log`.
struct Ui {
    multi: MultiProgress,
    bar: Mutex<Option<ProgressBar>>,
    log: Mutex<File>,
    peak_anon: AtomicU64,
}

impl Ui {
    fn new(dir: &Path) -> Result<Ui, Error> {
        let path = dir.join("bake.log");
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("{}: opening the bake log: {e}", path.display()))?;
        Ok(Ui {
            multi: MultiProgress::new(),
            bar: Mutex::new(None),
            log: Mutex::new(log),
            peak_anon: AtomicU64::new(0),
        })
    }

    fn line(&self, line: &str) {
        if self.multi.is_hidden() {
            eprintln!("{line}");
        } else {
            let _ = self.multi.println(line);
        }
        self.log(line);
    }

    fn log(&self, line: &str) {
        let mut log = self.log.lock().expect("the log is never poisoned");
        let _ = writeln!(log, "{line}");
    }
}

/// The bars and the log of `bake-tables`: a bar per search (a spinner
/// when its cells are not known ahead), a log line per level with the memory in use.
impl BakeView for Ui {
    fn search(&self, name: &str, cells: Option<u64>) {
        let new = match cells {
            Some(cells) => {
                let new = self.multi.add(ProgressBar::new(cells));
                new.set_style(
                    ProgressStyle::with_template(
                        "{prefix:>14} [{bar:30}] {percent:>3}% {elapsed_precise} ETA {eta:>4} {msg}",
                    )
                    .expect("the template is valid")
                    .progress_chars("=> "),
                );
                new
            }
            None => {
                let new = self.multi.add(ProgressBar::new_spinner());
                new.set_style(
                    ProgressStyle::with_template("{prefix:>14} {spinner} {elapsed_precise} {msg}")
                        .expect("the template is valid"),
                );
                new
            }
        };
        new.set_prefix(name.to_string());
        new.enable_steady_tick(Duration::from_millis(200));
        *self.bar.lock().expect("the bar is never poisoned") = Some(new);
    }

    fn work(&self, work: &dyn std::fmt::Display) {
        if let Some(bar) = &*self.bar.lock().expect("the bar is never poisoned") {
            bar.set_message(work.to_string());
        }
    }

    fn level(&self, name: &str, cells: Option<u64>, stats: &LevelStats) {
        let memory = Memory::now();
        self.peak_anon.fetch_max(memory.anon, Relaxed);
        if let Some(bar) = &*self.bar.lock().expect("the bar is never poisoned") {
            if let Some(cells) = cells {
                bar.set_position(cells - stats.unassigned);
            }
            bar.set_message(stats.to_string());
        }
        self.line(&format!(
            "{name:>14} {stats}, rss {:.0} MiB anon + {:.0} MiB file",
            mib(memory.anon),
            mib(memory.file),
        ));
    }

    fn finished(&self, _name: &str, line: Option<&dyn std::fmt::Display>) {
        if let Some(bar) = self.bar.lock().expect("the bar is never poisoned").take() {
            bar.finish_and_clear();
        }
        if let Some(line) = line {
            self.line(&line.to_string());
        }
    }
}
