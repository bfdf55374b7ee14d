//! `cube-cli fmc`: fewest-moves tools: the step solvers of cube-solvers' `fmc` (`solve`,
//! `steps`) and cube-core's NISS sequences ([`NissAlg`]: `unniss`, `invert`, `cleanup`, `count`).

use std::time::Instant;

use cube_core::{Cube, NissAlg};
use cube_encode::Format;
use cube_solvers::fmc::{self, FmcError, Settings, Step};

use crate::args::{FmcAction, Global};
use crate::input::Input;
use crate::output::{CliError, Outcome, Report, print_outcome};
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
    /// The notation command of `action` and its SEQUENCE argument.
    pub fn of(action: &FmcAction) -> (Notation, &str) {
        match action {
            FmcAction::Unniss { sequence, .. } => (Notation::Unniss, sequence),
            FmcAction::Invert { sequence, .. } => (Notation::Invert, sequence),
            FmcAction::Cleanup { sequence, .. } => (Notation::Cleanup, sequence),
            FmcAction::Count { sequence, .. } => (Notation::Count, sequence),
            FmcAction::Solve { .. } | FmcAction::Steps => {
                unreachable!("solve and steps are not notation commands")
            }
        }
    }

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

/// The settings of `fmc solve`, checked once for every state.
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
        print_outcome(global, &Ok(report), None)?;
    }
    Ok(0)
}
