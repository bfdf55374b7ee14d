//! `cube-cli optimal` (and `solve --method optimal`): the optimal search of a tier's family
//! (cube-solvers' `OptimalTables`: Korf's over a Korf tier, sym48's over an H48 tier, nxopt's over
//! an nx tier, in quarter turns over a `-qtm` one: `--metric`), baking the
//! default tier (and an H48 tier asked for) on first use; this file renders: limits, progress,
//! checkpoints, signals and the report. A tier's tables are loaded once per process, on first use,
//! and shared by every state of the run and every request of `cube-cli serve` that asks for that
//! tier ([`TableCache`]); `--mmap` maps them instead of reading them.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cube_core::{Alg, Cube};
use cube_solvers::optimal::{
    Checkpoint, OptimalSearch, OptimalTables, Outcome, Periodic, Progress,
};
use cube_solvers::two_phase::TwoPhase;
use cube_solvers::{Limits, SolveError};
use cube_tables::tier::{self, ChoiceError, TierState};
use cube_tables::{Anonymous, Mapped, Metric, TableErrorKind, Tier};

use crate::args::{Global, OptimalArgs};
use crate::input::Input;
use crate::output::{CliError, Outcome as CliOutcome, Report, n_moves, with_note};
use crate::record::{self, Record};
use crate::table_dir as tables;

/// A tier's tables, read into memory or mapped (`--mmap`).
enum Tables {
    Read(OptimalTables<Anonymous>),
    Mapped(OptimalTables<Mapped>),
}

impl Tables {
    fn searcher(&self, two_phase: TwoPhase) -> Box<dyn OptimalSearch + '_> {
        match self {
            Tables::Read(tables) => tables.searcher(two_phase),
            Tables::Mapped(tables) => tables.searcher(two_phase),
        }
    }
}

/// The tiers' tables loaded by this process, keyed by what was loaded (the tier, read or mapped):
/// each loaded on first use (the payloads read or mapped and hashed, the corner reduction
/// derived) and shared by every later state and request that asks for the same. An error answers
/// the search that met it and is never kept: the next search tries again. Bounded by memory:
/// loading a tier first drops the least recently used others until the tiers kept, the new one
/// included, fit in [`set_memory_budget`]'s bytes (a search still running on a dropped tier keeps
/// it until it ends).
struct TableCache {
    entries: Vec<CacheEntry>,
    /// Bumped at every use: the entries' `used` order them.
    clock: u64,
}

struct CacheEntry {
    key: (Tier, bool),
    /// Filled by the first search that needs it; its lock keeps two searches from loading the
    /// same tier twice, without holding up searches of other tiers.
    tables: Arc<Mutex<Option<Arc<Tables>>>>,
    used: u64,
}

static CACHE: Mutex<TableCache> = Mutex::new(TableCache {
    entries: Vec::new(),
    clock: 0,
});

/// The most bytes of tables the cache keeps (unbounded unless set).
static MEMORY_BUDGET: AtomicU64 = AtomicU64::new(u64::MAX);

/// Bounds the bytes of the tiers [`TableCache`] keeps loaded (`cube-cli serve`'s `--table-memory`).
pub fn set_memory_budget(bytes: u64) {
    MEMORY_BUDGET.store(bytes, Ordering::Relaxed);
}

/// The tables of `tier` (mapped when `args.mmap`), loaded on first use (see [`TableCache`]).
fn cached_tables(
    dir: &Path,
    tier: Tier,
    args: &OptimalArgs,
    global: &Global,
) -> Result<Arc<Tables>, CliError> {
    let key = (tier, args.mmap);
    let cell = {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        cache.clock += 1;
        let now = cache.clock;
        match cache.entries.iter_mut().find(|e| e.key == key) {
            Some(entry) => {
                entry.used = now;
                Arc::clone(&entry.tables)
            }
            None => {
                let tables = Arc::new(Mutex::new(None));
                cache.entries.push(CacheEntry {
                    key,
                    tables: Arc::clone(&tables),
                    used: now,
                });
                tables
            }
        }
    };
    let mut slot = cell.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(tables) = slot.as_ref() {
        return Ok(Arc::clone(tables));
    }
    make_room(key);
    let tables = Arc::new(load(dir, tier, args, global)?);
    *slot = Some(Arc::clone(&tables));
    Ok(tables)
}

/// Drops the least recently used loaded tiers other than `key` until `key`'s tier fits in the
/// budget beside the ones kept.
fn make_room(key: (Tier, bool)) {
    let budget = MEMORY_BUDGET.load(Ordering::Relaxed);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let loaded_bytes = |entry: &CacheEntry| {
        // One being loaded by another search counts as loaded.
        let empty = matches!(entry.tables.try_lock(), Ok(tables) if tables.is_none());
        if empty {
            0
        } else {
            tier::disk_bytes(entry.key.0)
        }
    };
    loop {
        let kept: u64 = cache
            .entries
            .iter()
            .filter(|e| e.key != key)
            .map(loaded_bytes)
            .sum();
        if kept.saturating_add(tier::disk_bytes(key.0)) <= budget {
            return;
        }
        let oldest = cache
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.key != key && loaded_bytes(e) > 0)
            .min_by_key(|(_, e)| e.used)
            .map(|(i, _)| i);
        match oldest {
            Some(i) => {
                cache.entries.swap_remove(i);
            }
            None => return,
        }
    }
}

/// The tier of a search with `args`: the one asked for, which must count in `--metric` if that is
/// given; else the tier of [`tier::choose`] (the baked tier measured cheapest per GB in the
/// metric, else 6edge in the half-turn metric). No quarter-turn tier baked is a usage error
/// naming the tier to bake (a tier of the other metric was refused by [`check`]).
fn tier_of(dir: &Path, args: &OptimalArgs) -> Result<Tier, CliError> {
    tier::choose(dir, args.tier, args.metric.map(Metric::from)).map_err(|e| choice_error(e, dir))
}

/// Refuses the optimal solver's options that contradict each other, before any state or table is
/// read (`request.rs`): a tier asked for in a metric it does not count in, as a usage error naming
/// the tier to use.
pub fn check(args: &OptimalArgs) -> Result<(), CliError> {
    match (args.tier, args.metric) {
        // With a tier asked for, `choose` reads no directory: only the metrics are compared.
        (Some(_), Some(_)) => tier_of(Path::new(""), args).map(|_| ()),
        _ => Ok(()),
    }
}

/// The usage error of a tier that cannot be chosen (`dir` is the table directory looked in).
fn choice_error(e: ChoiceError, dir: &Path) -> CliError {
    CliError::usage(match e {
        ChoiceError::OtherMetric {
            tier,
            metric,
            twin,
            has_twin: true,
        } => format!(
            "--tier {tier} counts in {}, not {metric}: use --tier {twin} with --metric {metric}",
            tier.metric()
        ),
        ChoiceError::OtherMetric {
            tier, metric, twin, ..
        } => {
            format!("--tier {tier} has no {metric} table: use --tier {twin} with --metric {metric}")
        }
        ChoiceError::NoneReady { metric, bake } => format!(
            "--metric {metric}: no quarter-turn table is baked in {}: cube-cli tables bake --tier {bake} (or give --tier {bake}, which a search bakes on first use)",
            dir.display(),
        ),
    })
}

/// Loads the tier of [`tier_of`]. Every payload is hashed as it is read or mapped (unless `--trust-header`, for
/// benchmarks), so that a corrupt table is refused before any search. The default tier and an
/// H48 tier asked for are baked when missing (the first run); a larger Korf tier asked for and
/// missing is an error that says how to bake it.
fn load(dir: &Path, tier: Tier, args: &OptimalArgs, global: &Global) -> Result<Tables, CliError> {
    match tier::state(dir, tier) {
        TierState::Ready => {}
        // A table that is there but invalid is reported, never silently replaced.
        TierState::Invalid(e) => return Err(CliError::tables(&e)),
        TierState::Missing if !bakes_on_first_use(tier, global) => {
            return Err(CliError::tables_text(format!(
                "the {tier} {} not baked in {}: run `cube-cli tables bake --tier {tier}` first ({}), or use --tier {}",
                tier.family().tables_are(),
                dir.display(),
                crate::tiers::tier_cost_text(tier),
                if global.session.is_request() {
                    // The server bakes no large tier for a request.
                    tier::fallback(Metric::Htm)
                } else {
                    tier::first_use_alternative(tier)
                }
            )));
        }
        TierState::Missing => tables::bake(dir, &[tier], global.notes(), false)?,
    }
    if args.mmap {
        global.printer().note(format_args!(
            "cube-cli: mapping the {tier} tables from {} (--mmap: one copy in the page cache, shared by the processes that map it)",
            dir.display()
        ));
        // SAFETY: tables are write-once files from `cube-cli tables bake` (a new bake renames a
        // new file over the old one, which leaves the mapped one intact); the user who asks for
        // --mmap promises not to write into them or truncate them while this process runs.
        #[allow(unsafe_code)]
        let tables = unsafe { OptimalTables::open_mapped(dir, tier) };
        return tables.map(Tables::Mapped).map_err(|e| CliError::tables(&e));
    }
    OptimalTables::load_anonymous(dir, tier, !args.trust_header)
        .map(Tables::Read)
        .map_err(|e| CliError::tables(&e))
}

/// Whether a search asked for `tier` bakes it when it is missing: on the command line the tiers of
/// [`tier::baked_on_first_use`]; a request of `cube-cli serve` only the default tier (seconds),
/// never a larger one (minutes of the server's cores and gigabytes of its disk).
fn bakes_on_first_use(tier: Tier, global: &Global) -> bool {
    if global.session.is_request() {
        tier == tier::fallback(Metric::Htm)
    } else {
        tier::baked_on_first_use(tier)
    }
}

pub fn run(global: &Global, input: &Input, args: &OptimalArgs, to: Option<&Cube>) -> CliOutcome {
    let (_, state) = input.legal_state()?;
    let cube = match to {
        Some(goal) => {
            cube_solvers::relative_to_goal(&state.cube(), goal).map_err(CliError::illegal)?
        }
        None => state.cube(),
    };
    let dir = tables::table_dir(global)?;
    let tier = tier_of(&dir, args)?;
    let tables = cached_tables(&dir, tier, args, global)?;
    // The two-phase upper bound: its tables from the cache rather than built (seconds).
    let search = tables.searcher(crate::method_tables::two_phase_solver(global));
    let limits = Limits {
        n_solutions: if args.all {
            usize::MAX
        } else {
            args.max_solutions.unwrap_or(1)
        },
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        time_budget: args.timeout,
        ..Limits::default()
    };
    let printer = global.printer();
    let stop = global.session.search_stop();
    let mut progress = |p: &Progress| printer.progress(p, !global.batch);
    // One checkpoint per state: with several states, line N's is `FILE.N`.
    let checkpoint_path = args.checkpoint.as_ref().map(|path| match input.line {
        Some(line) => {
            let mut name = path.clone().into_os_string();
            name.push(format!(".{line}"));
            PathBuf::from(name)
        }
        None => path.clone(),
    });
    let checkpoint = match &checkpoint_path {
        Some(path) => read_checkpoint(path)?,
        None => None,
    };
    let every = args.checkpoint_every.unwrap_or(Duration::from_secs(60));
    // Periodic checkpoints: a failure to write one is reported once, after the result.
    let mut periodic_failed = false;
    let mut save = |checkpoint: &Checkpoint| {
        if let Some(path) = &checkpoint_path
            && let Err(e) = write_checkpoint(path, checkpoint)
            && !std::mem::replace(&mut periodic_failed, true)
        {
            printer.warning(e);
        }
    };
    let periodic = checkpoint_path.as_ref().map(|_| Periodic {
        every,
        save: &mut save,
    });
    // A server runs several requests in one process: its CPU clock is not this search's.
    let cpu_before = process_cpu().filter(|_| !global.session.is_request());
    let outcome = search
        .search_checkpointed(
            &cube,
            checkpoint.as_ref(),
            &limits,
            &stop,
            &mut progress,
            periodic,
        )
        .map_err(|e| match e {
            SolveError::BadCheckpoint(e) => CliError::parse(format!(
                "checkpoint {}: {e} (delete it to start again, or choose another file)",
                checkpoint_path
                    .as_deref()
                    .unwrap_or(Path::new("-"))
                    .display()
            )),
            e => CliError::solve(e),
        })?;
    if let Some(path) = &checkpoint_path {
        // The result is printed whatever happens to the checkpoint.
        if let Err(e) = save_checkpoint(path, &outcome) {
            printer.warning(e);
        }
    }
    let cpu = process_cpu()
        .zip(cpu_before)
        .map(|(after, before)| after.saturating_sub(before));
    let report = report(&outcome, &tier, checkpoint_path.is_some(), cpu);
    if crate::signals::signalled() {
        report.map(|r| r.with_exit(crate::signals::EXIT_SIGNAL))
    } else {
        report
    }
}

/// The most bytes a checkpoint may have (one holding `Checkpoint::MAX_SOLUTIONS` solutions of 20
/// moves is about 7 MB).
const MAX_CHECKPOINT_LEN: u64 = 16 << 20;

/// The checkpoint at `path`, or `None` when there is none yet. It is read as untrusted input:
/// only a regular file, of a bounded size, checked field by field.
fn read_checkpoint(path: &Path) -> Result<Option<Checkpoint>, CliError> {
    let file = match cube_tables::open_regular(path) {
        Ok(file) => file,
        Err(e) if e.kind() == TableErrorKind::Missing => return Ok(None),
        Err(e) => return Err(CliError::io(format!("checkpoint {e}"))),
    };
    let mut text = String::new();
    file.take(MAX_CHECKPOINT_LEN + 1)
        .read_to_string(&mut text)
        .map_err(|e| CliError::io(format!("reading checkpoint {}: {e}", path.display())))?;
    if text.len() as u64 > MAX_CHECKPOINT_LEN {
        return Err(CliError::parse(format!(
            "checkpoint {}: more than {} MiB, not a checkpoint (delete it to start again)",
            path.display(),
            MAX_CHECKPOINT_LEN >> 20
        )));
    }
    let checkpoint: Checkpoint = text.parse().map_err(|e| {
        CliError::parse(format!(
            "checkpoint {}: {e} (delete it to start again)",
            path.display()
        ))
    })?;
    Ok(Some(checkpoint))
}

/// Writes `checkpoint` to `path` atomically; the error is a message for a warning.
fn write_checkpoint(path: &Path, checkpoint: &Checkpoint) -> Result<(), String> {
    crate::output::write_file(path, checkpoint.to_string().as_bytes())
        .map_err(|e| format!("writing checkpoint {}: {e}", path.display()))
}

/// Writes the checkpoint of an unfinished search, or removes the file once the search is done: its
/// length proven and its list of solutions complete (a stopped `--all` keeps its checkpoint, so
/// that a rerun completes the list).
fn save_checkpoint(path: &Path, outcome: &Outcome) -> Result<(), String> {
    match &outcome.checkpoint {
        Some(checkpoint) if !outcome.complete => write_checkpoint(path, checkpoint),
        _ => match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!(
                "removing finished checkpoint {}: {e}",
                path.display()
            )),
            _ => Ok(()),
        },
    }
}

/// The CPU time of this process so far, every thread's (a search's threads and its two-phase
/// helper), where the platform tells it.
fn process_cpu() -> Option<Duration> {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
        Some(Duration::new(
            u64::try_from(t.tv_sec).unwrap_or(0),
            u32::try_from(t.tv_nsec).unwrap_or(0),
        ))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The report of a search (`cpu`: the process's CPU time during it, if known). A list of
/// solutions cut short by a timeout or a signal says so, and exits as a timeout does (4; 130
/// after a signal): an answer that is not all that was asked.
fn report(outcome: &Outcome, tier: &Tier, checkpointed: bool, cpu: Option<Duration>) -> CliOutcome {
    let seconds = outcome.elapsed.as_secs_f64();
    let metric = outcome.metric;
    let Some(best) = outcome.solutions.first() else {
        return Err(CliError::timeout(format!(
            "timed out after {seconds:.1} s without a solution; no solution is shorter than {}",
            length_text(outcome.proven_lower_bound, metric)
        )));
    };
    let solutions: Vec<String> = outcome
        .solutions
        .iter()
        .map(|s| Alg::from_moves(&s.moves).to_string())
        .collect();
    let length = metric.length(&best.moves);
    let mut text = String::new();
    for solution in &solutions {
        let note = format!(
            "{}{}",
            length_text(length, metric),
            if outcome.optimal { ", optimal" } else { "" }
        );
        text.push_str(&with_note(solution, &note));
        text.push('\n');
    }
    if !outcome.optimal {
        text.push_str(&format!(
            "not proven optimal: stopped after {seconds:.1} s; no solution is shorter than {}\n",
            length_text(outcome.proven_lower_bound, metric)
        ));
    } else if !outcome.complete {
        text.push_str(&format!(
            "incomplete: stopped after {seconds:.1} s with {} of {}; there may be more ({})\n",
            n_solutions(solutions.len()),
            length_text(length, metric),
            if checkpointed {
                "run again with the same --checkpoint to complete the list"
            } else {
                "give --checkpoint FILE to keep the work and complete the list by a rerun"
            }
        ));
    }
    let exit = if outcome.optimal && !outcome.complete {
        crate::output::EXIT_TIMEOUT
    } else {
        0
    };
    Ok(Report::new(
        text.trim_end(),
        Record::Solution(record::Solution {
            solution: solutions[0].clone(),
            length,
            method: "optimal".to_string(),
            seconds,
            stages: Vec::new(),
            optimal: Some(record::Optimal {
                solutions,
                optimal: outcome.optimal,
                complete: outcome.complete,
                proven_lower_bound: outcome.proven_lower_bound,
                nodes: outcome.nodes,
                cpu_seconds: cpu.map(|cpu| cpu.as_secs_f64()),
                tier: tier.to_string(),
                metric: metric.to_string(),
            }),
        }),
    )
    .with_exit(exit))
}

/// A length in `metric`: "1 move", "13 moves" in face turns, "24q" in quarter turns.
fn length_text(n: usize, metric: Metric) -> String {
    match metric {
        Metric::Htm => n_moves(n),
        Metric::Qtm => format!("{n}q"),
    }
}

/// "1 solution", "9 solutions".
fn n_solutions(n: usize) -> String {
    if n == 1 {
        "1 solution".to_string()
    } else {
        format!("{n} solutions")
    }
}
