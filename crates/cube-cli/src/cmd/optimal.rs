//! `cube-cli optimal` (and `solve --method optimal`): the optimal search of a tier's family
//! (cube-solvers' `OptimalTables`: Korf's over a Korf tier, sym48's over an H48 tier, nxopt's over
//! an nx tier, in quarter turns over a `-qtm` one: `--metric`), baking the
//! default tier (and an H48 tier asked for) on first use; this file renders: limits, progress,
//! checkpoints, signals and the report. The tables are loaded once per process and shared by
//! every state of the run; `--mmap` maps them instead of reading them.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use cube_core::{Alg, Cube};
use cube_solvers::optimal::{
    Checkpoint, OptimalSearch, OptimalTables, Outcome, Periodic, Progress,
};
use cube_solvers::two_phase::TwoPhase;
use cube_solvers::{Limits, SolveError, Stop};
use cube_tables::tier::{self, TierState};
use cube_tables::{Anonymous, Mapped, Metric, TableErrorKind, Tier};

use crate::args::{Global, OptimalArgs};
use crate::input::Input;
use crate::output::{CliError, Outcome as CliOutcome, Report, n_moves, with_note};
use crate::record::{self, Record};
use crate::table_dir as tables;

/// The tables of the run, loaded once per process (the payloads read or mapped and hashed, the
/// corner reduction derived) and shared by every state of a batch or of standard input, with the
/// two-phase solver of the upper bound.
static TABLES: OnceLock<Result<(Tables, TwoPhase), CliError>> = OnceLock::new();

/// A tier's tables, read into memory or mapped (`--mmap`).
enum Tables {
    Read(OptimalTables<Anonymous>),
    Mapped(OptimalTables<Mapped>),
}

impl Tables {
    fn tier(&self) -> Tier {
        match self {
            Tables::Read(tables) => tables.tier(),
            Tables::Mapped(tables) => tables.tier(),
        }
    }

    fn searcher(&self, two_phase: TwoPhase) -> Box<dyn OptimalSearch + '_> {
        match self {
            Tables::Read(tables) => tables.searcher(two_phase),
            Tables::Mapped(tables) => tables.searcher(two_phase),
        }
    }
}

/// Who watches a search: the command line (progress lines on standard error, stopped by a
/// signal) or a request of `cube-cli serve` (progress to its client, stopped when the client
/// goes away or the server stops).
#[derive(Clone, Copy, Default)]
pub enum Watcher<'a> {
    #[default]
    Terminal,
    Client {
        stop: &'a Stop,
        progress: &'a (dyn Fn(&Progress) + Sync),
    },
}

/// Warnings to print after the results (a checkpoint that could not be written): printed by
/// [`print_warnings`] once the answer is out, so that it is never lost behind an error.
static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn warn(message: String) {
    WARNINGS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(message);
}

/// Prints the warnings collected during the run on standard error.
pub fn print_warnings() {
    for warning in WARNINGS.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
        crate::output::note_warning(warning);
    }
}

/// The tier of the run and its search (see [`load`]); the tables are loaded on the first call.
fn solver(global: &Global, args: &OptimalArgs) -> Result<(Tier, Box<dyn OptimalSearch>), CliError> {
    let loaded = TABLES.get_or_init(|| {
        let dir = tables::table_dir(global)?;
        // The two-phase upper bound: its tables from the cache rather than built (seconds).
        let two_phase = crate::method_tables::two_phase_solver(global);
        Ok((load(&dir, args, global.notes())?, two_phase))
    });
    let (tables, two_phase) = loaded.as_ref().map_err(Clone::clone)?;
    Ok((tables.tier(), tables.searcher(two_phase.clone())))
}

/// The tier of a search with `args`: the one asked for, which must count in `--metric` if that is
/// given; else in the half-turn metric the largest baked (of h4 to h7, else of the Korf tiers),
/// else 6edge; in the quarter-turn metric the largest baked `-qtm` tier. A tier of the other
/// metric, or no quarter-turn tier baked, is a usage error naming the tier to use or bake.
fn tier_of(dir: &Path, args: &OptimalArgs) -> Result<Tier, CliError> {
    let metric = args.metric.map(Metric::from);
    match (args.tier, metric) {
        (Some(tier), Some(metric)) if tier.metric() != metric => {
            Err(CliError::usage(match tier.in_metric(metric) {
                Some(twin) => format!(
                    "--tier {tier} counts in {}, not {metric}: use --tier {twin} with --metric {metric}",
                    tier.metric()
                ),
                None => format!(
                    "--tier {tier} has no {metric} table: use --tier {} with --metric {metric}",
                    Tier::NxEo1Ep1Qtm
                ),
            }))
        }
        (Some(tier), _) => Ok(tier),
        (None, None | Some(Metric::Htm)) => {
            Ok(tier::largest_ready(dir).unwrap_or(Tier::Edge6))
        }
        (None, Some(Metric::Qtm)) => tier::largest_ready_in(dir, Metric::Qtm).ok_or_else(|| {
            CliError::usage(format!(
                "--metric qtm: no quarter-turn table is baked in {}: cube-cli tables bake --tier {} (or give --tier {1}, which a search bakes on first use)",
                dir.display(),
                Tier::NxEo1Ep1Qtm
            ))
        }),
    }
}

/// Loads the tier of [`tier_of`]. Every payload is hashed as it is read or mapped (unless `--trust-header`, for
/// benchmarks), so that a corrupt table is refused before any search. The default tier and an
/// H48 tier asked for are baked when missing (the first run); a larger Korf tier asked for and
/// missing is an error that says how to bake it.
fn load(dir: &Path, args: &OptimalArgs, show_progress: bool) -> Result<Tables, CliError> {
    let tier = tier_of(dir, args)?;
    match tier::state(dir, tier) {
        TierState::Ready => {}
        // A table that is there but invalid is reported, never silently replaced.
        TierState::Invalid(e) => return Err(CliError::tables(&e)),
        TierState::Missing if !tier::baked_on_first_use(tier) => {
            return Err(CliError::tables_text(format!(
                "the {tier} {} not baked in {}: run `cube-cli tables bake --tier {tier}` first ({}), or use --tier {}",
                tier.family().tables_are(),
                dir.display(),
                crate::tiers::tier_cost_text(tier),
                tier::first_use_alternative(tier)
            )));
        }
        TierState::Missing => tables::bake(dir, &[tier], show_progress, false)?,
    }
    if args.mmap {
        if show_progress {
            crate::output::note(format_args!(
                "cube-cli: mapping the {tier} tables from {} (--mmap: one copy in the page cache, shared by the processes that map it)",
                dir.display()
            ));
        }
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

pub fn run(
    global: &Global,
    input: &Input,
    args: &OptimalArgs,
    to: Option<&Cube>,
    watcher: Watcher<'_>,
) -> CliOutcome {
    let (_, state) = input.legal_state()?;
    let cube = match to {
        Some(goal) => {
            cube_solvers::relative_to_goal(&state.cube(), goal).map_err(CliError::illegal)?
        }
        None => state.cube(),
    };
    let (tier, search) = solver(global, args)?;
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
    let show_progress = global.notes() && !global.batch;
    let on_terminal = |p: &Progress| {
        if show_progress {
            crate::output::note(p);
        }
    };
    let (stop, report_progress): (&Stop, &(dyn Fn(&Progress) + Sync)) = match watcher {
        Watcher::Terminal => (crate::signals::listen(), &on_terminal),
        Watcher::Client { stop, progress } => (stop, progress),
    };
    let mut progress = |p: &Progress| report_progress(p);
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
            warn(e);
        }
    };
    let periodic = checkpoint_path.as_ref().map(|_| Periodic {
        every,
        save: &mut save,
    });
    let outcome = search
        .search_checkpointed(
            &cube,
            checkpoint.as_ref(),
            &limits,
            stop,
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
            warn(e);
        }
    }
    let report = report(&outcome, &tier, checkpoint_path.is_some());
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

/// The report of a search. A list of solutions cut short by a timeout or a signal says so, and
/// exits as a timeout does (4; 130 after a signal): an answer that is not all that was asked.
fn report(outcome: &Outcome, tier: &Tier, checkpointed: bool) -> CliOutcome {
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
