//! `cube-cli optimal` (and `solve --method optimal`): Korf's optimal solver over the pattern
//! databases, baking the default tier on first use.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use cube_core::{Alg, Cube};
use cube_solvers::korf::{Checkpoint, Korf, KorfOutcome};
use cube_solvers::{Limits, SolveError, Stop};
use cube_tables::pdb::PdbSet;
use cube_tables::{Anonymous, Tier};
use serde_json::json;

use crate::Outcome;
use crate::args::{Global, OptimalArgs};
use crate::cmd::tables;
use crate::input::Input;
use crate::output::{CliError, Report, n_moves};

/// The pattern databases, loaded once per run (a batch solves every line over one copy).
static TABLES: OnceLock<Result<(Tier, PdbSet<Anonymous>), String>> = OnceLock::new();

/// Raised by Ctrl-C: every search polls it and stops within a fraction of a second.
fn stop_flag() -> &'static Stop {
    static STOP: OnceLock<Stop> = OnceLock::new();
    STOP.get_or_init(|| {
        let stop = Stop::new();
        let on_signal = stop.clone();
        // Without a handler (another one is installed), Ctrl-C simply ends the process.
        let _ = ctrlc::set_handler(move || on_signal.stop());
        stop
    })
}

/// The tier to use: the one asked for, else the largest baked, else 6edge. The default tier is
/// baked when missing (the first run); a larger tier asked for and missing is an error that
/// says how to bake it.
fn tables(
    global: &Global,
    args: &OptimalArgs,
) -> Result<&'static (Tier, PdbSet<Anonymous>), CliError> {
    let loaded = TABLES.get_or_init(|| {
        let dir = tables::table_dir(global).map_err(|e| e.to_string())?;
        load(
            &dir,
            args.tier,
            !(args.quiet || global.json),
            args.trust_header,
        )
        .map_err(|e| e.to_string())
    });
    loaded.as_ref().map_err(CliError::tables)
}

/// Loads the tier, hashing every payload as it is read (unless `trust_header`, for benchmarks), so
/// that a corrupt table is refused before any search.
fn load(
    dir: &Path,
    asked: Option<Tier>,
    show_progress: bool,
    trust_header: bool,
) -> Result<(Tier, PdbSet<Anonymous>), CliError> {
    let tier = asked
        .or_else(|| tables::largest_ready_tier(dir))
        .unwrap_or(Tier::Edge6);
    if !tables::tier_ready(dir, tier) {
        // A table that is there but invalid is reported, never silently replaced.
        tables::check_present_tables(dir, tier)?;
        if tier != Tier::Edge6 {
            return Err(CliError::tables(format!(
                "the {tier} pattern databases are not baked in {}: run `cube-cli tables bake --tier {tier}` first ({}), or use --tier 6edge",
                dir.display(),
                tables::tier_cost_text(tier)
            )));
        }
        tables::bake(dir, tier, show_progress)?;
    }
    let set = if trust_header {
        PdbSet::load_anonymous_unchecked(dir, tier)
    } else {
        PdbSet::load_anonymous(dir, tier)
    }
    .map_err(CliError::tables)?;
    Ok((tier, set))
}

pub fn run(global: &Global, input: &Input, args: &OptimalArgs, to: Option<&Cube>) -> Outcome {
    let (_, state) = input.legal_state()?;
    let cube = match to {
        Some(goal) => {
            cube_solvers::relative_to_goal(&state.cube(), goal).map_err(CliError::illegal)?
        }
        None => state.cube(),
    };
    let (tier, set) = tables(global, args)?;
    let limits = Limits {
        n_solutions: if args.all {
            usize::MAX
        } else {
            args.max_solutions.unwrap_or(1).max(1)
        },
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        time_budget: args.timeout.map(Duration::from_secs_f64),
        ..Limits::default()
    };
    // The two-phase upper bound: its tables from the cache rather than built (seconds).
    crate::cmd::tables::install_small_tables(global, "two-phase");
    let korf = Korf::new(set);
    let stop = stop_flag();
    let show_progress = !(args.quiet || global.json || global.batch);
    let mut progress = |p: &cube_solvers::korf::Progress| {
        if show_progress {
            eprintln!("{p}");
        }
    };
    let checkpoint = match &args.checkpoint {
        Some(path) if path.exists() => Some(read_checkpoint(path, &cube)?),
        _ => None,
    };
    let outcome = match &checkpoint {
        Some(checkpoint) => korf.resume(checkpoint, &limits, stop, &mut progress),
        None => korf.search(&cube, &limits, stop, &mut progress),
    }
    .map_err(|e| match e {
        SolveError::Unsolvable(_) => CliError::illegal(e),
        SolveError::Cancelled => CliError::timeout("stopped before any solution was found"),
        _ => CliError::parse(e),
    })?;
    if let Some(path) = &args.checkpoint {
        save_checkpoint(path, &outcome)?;
    }
    report(&outcome, tier)
}

fn read_checkpoint(path: &PathBuf, cube: &Cube) -> Result<Checkpoint, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::io(format!("reading checkpoint {}: {e}", path.display())))?;
    let checkpoint: Checkpoint = text.parse().map_err(|e| {
        CliError::parse(format!(
            "checkpoint {}: {e} (delete it to start again)",
            path.display()
        ))
    })?;
    if checkpoint.cube != *cube {
        return Err(CliError::parse(format!(
            "checkpoint {} belongs to another position (delete it or choose another file)",
            path.display()
        )));
    }
    Ok(checkpoint)
}

/// Writes the checkpoint of an unfinished search, or removes the file once the search is done.
fn save_checkpoint(path: &PathBuf, outcome: &KorfOutcome) -> Result<(), CliError> {
    match &outcome.checkpoint {
        Some(checkpoint) if !outcome.optimal => {
            let tmp = path.with_extension("tmp");
            std::fs::write(&tmp, checkpoint.to_string())
                .and_then(|()| std::fs::rename(&tmp, path))
                .map_err(|e| CliError::io(format!("writing checkpoint {}: {e}", path.display())))
        }
        _ => match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CliError::io(format!(
                "removing finished checkpoint {}: {e}",
                path.display()
            ))),
            _ => Ok(()),
        },
    }
}

fn report(outcome: &KorfOutcome, tier: &Tier) -> Outcome {
    let seconds = outcome.elapsed.as_secs_f64();
    let Some(best) = outcome.solutions.first() else {
        return Err(CliError::timeout(format!(
            "timed out after {seconds:.1} s without a solution; no solution is shorter than {} moves",
            outcome.proven_lower_bound
        )));
    };
    let solutions: Vec<String> = outcome
        .solutions
        .iter()
        .map(|s| Alg::from_moves(&s.moves).to_string())
        .collect();
    let length = best.moves.len();
    let mut text = String::new();
    for solution in &solutions {
        text.push_str(&format!(
            "{solution} ({}{})\n",
            n_moves(length),
            if outcome.optimal { ", optimal" } else { "" }
        ));
    }
    if !outcome.optimal {
        text.push_str(&format!(
            "not proven optimal: stopped after {seconds:.1} s; no solution is shorter than {} moves\n",
            outcome.proven_lower_bound
        ));
    }
    Ok(Report::new(
        text.trim_end(),
        json!({
            "solution": solutions[0],
            "solutions": solutions,
            "length": length,
            "method": "optimal",
            "optimal": outcome.optimal,
            "proven_lower_bound": outcome.proven_lower_bound,
            "nodes": outcome.nodes,
            "seconds": seconds,
            "tier": tier.to_string(),
        }),
    ))
}
