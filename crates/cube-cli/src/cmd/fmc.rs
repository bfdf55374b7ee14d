//! `cube-cli fmc`: fewest-moves tools: the step solvers of cube-solvers' `fmc` (`solve`,
//! `steps`), its insertions (`insert`, `cycles`, `improve`), and cube-core's NISS sequences
//! ([`NissAlg`]: `unniss`, `invert`, `cleanup`, `count`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use cube_core::{Alg, Cube, NissAlg};
use cube_encode::Format;
use cube_solvers::fmc::insert::{self, AlgSet, InsertError, Leftover};
use cube_solvers::fmc::{self, FmcError, Settings, Step};

use crate::args::Global;
use crate::input::Input;
use crate::output::{self, CliError, Outcome, Report};
use crate::record::{self, Record};
use crate::tiers::size_text;
use crate::{method_tables, signals};

/// The notation commands: what each does to a sequence.
#[derive(Clone, Copy, Debug)]
pub enum Notation {
    Unniss,
    Invert,
    Cleanup,
    Count,
}

impl Notation {
    fn name(self) -> &'static str {
        match self {
            Notation::Unniss => "unniss",
            Notation::Invert => "invert",
            Notation::Cleanup => "cleanup",
            Notation::Count => "count",
        }
    }
}

/// Reads `text` as a NISS sequence and answers `command` for it.
pub fn notation(command: Notation, text: &str) -> Outcome {
    let niss: NissAlg = text.parse().map_err(CliError::parse)?;
    let result = match command {
        Notation::Unniss => NissAlg::new(&niss.unniss(), &Default::default()),
        Notation::Invert => niss.invert(),
        Notation::Cleanup => niss.cleanup(),
        Notation::Count => niss,
    };
    let (htm, qtm, stm) = (result.htm(), result.qtm(), result.stm());
    let text = match command {
        Notation::Count => format!("{htm} HTM, {qtm} QTM, {stm} STM"),
        _ => result.to_string(),
    };
    Ok(Report::new(
        text,
        Record::Sequence(record::Sequence {
            action: command.name(),
            sequence: result.to_string(),
            htm,
            qtm,
            stm,
        }),
    ))
}

/// The settings of `fmc solve`, checked once for every state (by `request.rs`, before any state
/// is read).
#[derive(Debug)]
pub struct SolveRequest {
    pub step: &'static Step,
    pub settings: Settings,
}

impl SolveRequest {
    /// The step named `step` and the settings, or a usage error: an unknown step (with the
    /// nearest names), `--max` below `--min`.
    pub fn new(step: &str, settings: Settings) -> Result<SolveRequest, CliError> {
        let step = fmc::step(step).map_err(|e| CliError::usage(e).about("STEP"))?;
        if settings.max_moves < settings.min_moves {
            return Err(CliError::usage(format!(
                "--max {} is below --min {}",
                settings.max_moves, settings.min_moves
            )));
        }
        Ok(SolveRequest { step, settings })
    }
}

/// The state `fmc solve` works on. A move sequence with parentheses is a scramble and a partial
/// solution in NISS notation, as FMC write-ups and nissy write them (`S R2 F (U2 B)`: the moves in
/// parentheses are done on the inverse scramble), so the state is its normal side; text that only
/// makes sense as cubing.js's grouping (`(R U)2`) is refused saying so. Any other text is a state
/// in any format, as everywhere else.
fn solve_state(global: &Global, input: &Input) -> Result<Cube, CliError> {
    let alg_reading = global.from.is_none_or(|from| from.format() == Format::Alg);
    if alg_reading && input.text.contains(['(', ')']) {
        let niss: NissAlg = input.text.parse().map_err(CliError::parse)?;
        return Ok(niss.normal_side(&Cube::SOLVED));
    }
    let (_, state) = input.legal_state()?;
    Ok(state.cube())
}

/// Solves the request's step on one state.
pub fn solve(global: &Global, input: &Input, request: &SolveRequest) -> Outcome {
    let cube = solve_state(global, input)?;
    let step = request.step;
    let tables = method_tables::fmc_step(global, step);
    let stop = global.session.search_stop();
    let start = Instant::now();
    let outcome =
        fmc::solve(step, &tables, &cube, &request.settings, stop.flag()).map_err(|e| match e {
            FmcError::Requisite { .. } => CliError::requisite(e),
            _ => CliError::usage(e),
        })?;
    let seconds = start.elapsed().as_secs_f64();
    let solutions: Vec<record::FmcSolution> = outcome
        .solutions
        .iter()
        .map(|s| record::FmcSolution {
            solution: s.to_string(),
            normal: s.normal_part().to_string(),
            inverse: s.inverse_part().to_string(),
            length: s.htm(),
        })
        .collect();
    let mut lines: Vec<String> = if request.settings.count_only {
        vec![format!(
            "{} solution{}",
            outcome.count,
            if outcome.count == 1 { "" } else { "s" }
        )]
    } else {
        solutions
            .iter()
            .map(|s| format!("{} // {}", s.solution, s.length))
            .collect()
    };
    if lines.is_empty() {
        lines.push(format!(
            "no solution of {} to {} moves",
            request.settings.min_moves, request.settings.max_moves
        ));
    }
    match outcome.cut {
        None => {}
        Some(fmc::Cut::Stopped) if global.session.is_request() => {
            lines.push("incomplete: stopped at the request's time limit".to_string());
        }
        Some(fmc::Cut::Stopped) => lines.push("incomplete: stopped by a signal".to_string()),
        Some(fmc::Cut::Memory) => lines.push(format!(
            "incomplete: more solutions would take more than {} of memory; these are the first {} \
             (ask for fewer with -n, or count them with --count)",
            size_text(request.settings.max_memory as u64),
            outcome.count
        )),
    }
    let report = Report::new(
        lines.join("\n"),
        Record::FmcSolutions(record::FmcSolutions {
            step: step.name(),
            niss: request.settings.niss.to_string(),
            count: outcome.count,
            optimum: outcome.optimum,
            complete: outcome.complete,
            incomplete: (outcome.cut == Some(fmc::Cut::Memory)).then_some("memory"),
            seconds,
            solutions,
        }),
    );
    // A list cut short exits as optimal's does: 130 after a signal, 4 (a search's bound: a
    // request's time limit, the memory bound) else.
    Ok(match outcome.cut {
        None => report,
        Some(fmc::Cut::Stopped) if !global.session.is_request() => {
            report.with_exit(signals::EXIT_SIGNAL)
        }
        Some(fmc::Cut::Stopped) => report.with_exit(crate::output::EXIT_TIMEOUT),
        Some(fmc::Cut::Memory) => report.with_exit(crate::output::EXIT_TIMEOUT),
    })
}

/// `fmc steps`: one report per step.
pub fn steps(global: &Global) -> Result<u8, CliError> {
    for step in fmc::steps() {
        let aliases = match step.aliases() {
            [] => String::new(),
            aliases => format!(" ({})", aliases.join(", ")),
        };
        let text = format!(
            "{}{aliases}: {}; moves {}; needs {}; tables {} ({})",
            step.name(),
            step.goal(),
            step.moveset(),
            step.requisite(),
            step.tables_name(),
            size_text(step.table_bytes()),
        );
        let report = Report::new(
            text,
            Record::Step(record::Step {
                name: step.name(),
                aliases: step.aliases().to_vec(),
                goal: step.goal(),
                moveset: step.moveset(),
                requisite: step.requisite(),
                niss: step.niss_allowed(),
                tables: step.tables_name(),
                table_bytes: step.table_bytes(),
            }),
        );
        global.printer().report(&Ok(report), None)?;
    }
    Ok(0)
}

/// The scramble state and the skeleton of `fmc insert` and `fmc cycles`.
fn scramble_and_skeleton(
    global: &Global,
    scramble: &str,
    skeleton: &str,
) -> Result<(Cube, NissAlg), CliError> {
    let (_, state) = Input::new(global.from, scramble)
        .legal_state()
        .map_err(|e| e.about("SCRAMBLE"))?;
    let skeleton: NissAlg = skeleton
        .parse()
        .map_err(|e| CliError::parse(e).about("SKELETON"))?;
    Ok((state.cube(), skeleton))
}

/// The record of what a skeleton leaves.
fn leftover_record(leftover: &Leftover) -> record::FmcLeftover {
    record::FmcLeftover {
        code: leftover.code(),
        words: leftover.words(),
        insertions: leftover.insertions(),
        parity: leftover.parity(),
        cycles: leftover
            .cycles()
            .iter()
            .map(|c| record::FmcCycle {
                orbit: c.orbit.name(),
                positions: c.position_names(),
                twist: c.twist,
            })
            .collect(),
    }
}

/// The text of what a skeleton leaves: its words, the insertions it needs and each cycle.
fn leftover_text(leftover: &Leftover) -> String {
    let n = leftover.insertions();
    let mut text = format!(
        "{} ({n} insertion{} at least)",
        leftover.words(),
        if n == 1 { "" } else { "s" }
    );
    for cycle in leftover.cycles() {
        text.push_str(&format!("\n  {cycle}"));
    }
    text
}

/// `fmc cycles SCRAMBLE SKELETON`.
pub fn cycles(global: &Global, scramble: &str, skeleton: &str) -> Outcome {
    let (state, skeleton) = scramble_and_skeleton(global, scramble, skeleton)?;
    let moves = insert::plain(&skeleton);
    let leftover = Leftover::of(&state.apply_moves(&moves));
    Ok(Report::new(
        leftover_text(&leftover),
        Record::FmcCycles(record::FmcCycles {
            skeleton: Alg::from_moves(&moves).to_string(),
            skeleton_length: moves.len(),
            leftover: leftover_record(&leftover),
        }),
    ))
}

/// What `fmc insert` is asked.
#[derive(Debug)]
pub struct InsertRequest {
    pub scramble: String,
    pub skeleton: String,
    pub settings: insert::Settings,
    pub algs: Option<PathBuf>,
}

/// `fmc insert SCRAMBLE SKELETON`.
pub fn insert(global: &Global, request: &InsertRequest) -> Outcome {
    let (state, skeleton) = scramble_and_skeleton(global, &request.scramble, &request.skeleton)?;
    // The user's set, or the generated one held for the whole run (not copied per request).
    let (own, generated);
    let (set, algorithms): (&AlgSet, String) = match &request.algs {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::io(format!("cannot read {}: {e}", path.display())))?;
            own = AlgSet::from_text(&text)
                .map_err(|e| CliError::parse(format!("{}: {e}", path.display())))?;
            (&own, path.display().to_string())
        }
        None => {
            generated = method_tables::insertions(global);
            (generated.set(), "generated".to_string())
        }
    };
    let stop = global.session.search_stop();
    let start = Instant::now();
    let outcome = insert::insert(set, &state, &skeleton, &request.settings, stop.flag()).map_err(
        |e| match e {
            InsertError::Settings(_) => CliError::usage(e),
            _ => CliError::requisite(e),
        },
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let text_of = |moves: &[cube_core::Move]| Alg::from_moves(moves).to_string();
    let mut lines = vec![format!(
        "skeleton: {} // {}, leaves {}",
        text_of(&outcome.skeleton),
        outcome.skeleton.len(),
        leftover_text(&outcome.leftover)
    )];
    for (i, insertion) in outcome.insertions.iter().enumerate() {
        let (before, after) = insertion.sequence.split_at(insertion.position);
        let place = [text_of(before), "[@]".to_string(), text_of(after)]
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        lines.push(format!(
            "insertion {}: {place}\n  @ = {} ({}, {} cancelled)",
            i + 1,
            text_of(&insertion.algorithm),
            insertion.kind,
            insertion.cancelled
        ));
    }
    let verdict = match (&outcome.solution, outcome.proven, outcome.complete) {
        (None, _, true) => "no insertion of the set finishes this skeleton".to_string(),
        (None, _, false) => "no solution found in the time given".to_string(),
        (Some(s), true, _) => format!(
            "solution: {} // {}, the fewest over the set",
            text_of(s),
            s.len()
        ),
        (Some(s), false, true) => format!("solution: {} // {}", text_of(s), s.len()),
        (Some(s), false, false) => format!(
            "solution: {} // {} (stopped before the search ended)",
            text_of(s),
            s.len()
        ),
    };
    lines.push(verdict);
    let record = Record::FmcInsertions(record::FmcInsertions {
        skeleton: text_of(&outcome.skeleton),
        skeleton_length: outcome.skeleton.len(),
        leftover: leftover_record(&outcome.leftover),
        solution: outcome.solution.as_deref().map(text_of),
        length: outcome.solution.as_ref().map(Vec::len),
        insertions: outcome
            .insertions
            .iter()
            .map(|i| record::FmcInsertion {
                position: i.position,
                sequence: text_of(&i.sequence),
                algorithm: text_of(&i.algorithm),
                kind: i.kind.name(),
                cancelled: i.cancelled,
            })
            .collect(),
        optimal: outcome.proven,
        complete: outcome.complete,
        algorithms,
        seconds,
    });
    let report = Report::new(lines.join("\n"), record);
    Ok(if stop.is_stopped() && !global.session.is_request() {
        report.with_exit(signals::EXIT_SIGNAL)
    } else if outcome.solution.is_none() {
        report.with_exit(output::EXIT_TIMEOUT)
    } else {
        report
    })
}

/// What `fmc improve` is asked.
#[derive(Debug)]
pub struct ImproveRequest {
    pub solution: String,
    /// The longest segment replaced.
    pub max_length: usize,
    /// How many improvements are shown.
    pub shown: usize,
    pub budget: Option<Duration>,
    pub threads: Option<usize>,
}

/// `fmc improve SOLUTION`.
pub fn improve(global: &Global, request: &ImproveRequest) -> Outcome {
    let (max_length, shown, budget) = (request.max_length, request.shown, request.budget);
    let niss: NissAlg = request
        .solution
        .parse()
        .map_err(|e| CliError::parse(e).about("SOLUTION"))?;
    let moves = insert::plain(&niss);
    let stop = global.session.search_stop();
    let start = Instant::now();
    let run = || insert::improve(&moves, max_length, budget, stop.flag());
    let threads = request.threads.unwrap_or_else(rayon::current_num_threads);
    let (improvements, complete) = cube_solvers::in_pool(threads, run).map_err(CliError::usage)?;
    let seconds = start.elapsed().as_secs_f64();
    let text_of = |moves: &[cube_core::Move]| Alg::from_moves(moves).to_string();
    let shown: Vec<&insert::Improvement> = improvements.iter().take(shown).collect();
    let mut lines: Vec<String> = shown
        .iter()
        .map(|i| {
            format!(
                "{} // {} (moves {}-{}: {} -> {})",
                text_of(&i.solution),
                i.solution.len(),
                i.start + 1,
                i.end,
                text_of(&moves[i.start..i.end]),
                text_of(&i.replacement)
            )
        })
        .collect();
    if lines.is_empty() {
        lines.push(format!(
            "no segment of up to {max_length} moves has a shorter replacement ({} moves)",
            moves.len()
        ));
    }
    if !complete {
        lines.push("incomplete: stopped before every segment was searched".to_string());
    }
    let record = Record::FmcImprovements(record::FmcImprovements {
        solution: text_of(&moves),
        length: moves.len(),
        improvements: shown
            .iter()
            .map(|i| record::FmcImprovement {
                start: i.start,
                end: i.end,
                segment: text_of(&moves[i.start..i.end]),
                replacement: text_of(&i.replacement),
                solution: text_of(&i.solution),
                length: i.solution.len(),
            })
            .collect(),
        complete,
        seconds,
    });
    let report = Report::new(lines.join("\n"), record);
    Ok(if stop.is_stopped() && !global.session.is_request() {
        report.with_exit(signals::EXIT_SIGNAL)
    } else {
        report
    })
}
