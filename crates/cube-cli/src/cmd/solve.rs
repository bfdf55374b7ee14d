//! `cube-cli solve`: a solution by the chosen method, with its labelled stages on request.

use std::time::{Duration, Instant};

use cube_core::{Alg, Cube};
use cube_solvers::beginner::Beginner;
use cube_solvers::cfop::Cfop;
use cube_solvers::thistlethwaite::Thistlethwaite;
use cube_solvers::two_phase;
use cube_solvers::{Limits, Solution, Solver};

use crate::args::{Global, Method, OptimalArgs, StateFormat};
use crate::input::Input;
use crate::method_tables;
use crate::output::{CliError, Outcome, Report, n_moves, with_note};
use crate::record::{self, Record};

/// What `solve` was asked, checked once for every state of a batch (by `request.rs`, before
/// any state is read).
#[derive(Debug)]
pub struct Request {
    pub method: Method,
    pub limits: Limits,
    pub to: Option<Cube>,
    pub explain: bool,
    pub optimal: OptimalArgs,
}

impl Request {
    /// The request, or the refusal of `--to` (a state that does not read, or an illegal one:
    /// `parse` or `illegal`, as the same refusal of STATE) or of the optimal solver's options
    /// ([`crate::cmd::optimal::check`]). `from` is `--from`, which `--to` is read with too.
    pub fn new(
        from: Option<StateFormat>,
        method: Method,
        max_length: Option<usize>,
        time_budget: Option<Duration>,
        to: Option<&str>,
        explain: bool,
        optimal: OptimalArgs,
    ) -> Result<Request, CliError> {
        let to = match to {
            None => None,
            Some(text) => {
                let (_, state) = Input::new(from, text)
                    .legal_state()
                    .map_err(|e| e.about("--to"))?;
                Some(state.cube())
            }
        };
        if method == Method::Optimal {
            crate::cmd::optimal::check(&optimal)?;
        }
        let limits = Limits {
            max_length,
            time_budget,
            ..Limits::default()
        };
        Ok(Request {
            method,
            limits,
            to,
            explain,
            optimal,
        })
    }
}

pub fn run(global: &Global, input: &Input, request: &Request) -> Outcome {
    if request.method == Method::Optimal {
        return crate::cmd::optimal::run(global, input, &request.optimal, request.to.as_ref());
    }
    let (_, state) = input.legal_state()?;
    let solver: Box<dyn Solver> = match request.method {
        Method::TwoPhase => Box::new(method_tables::two_phase_solver(global)),
        Method::Thistlethwaite => {
            Box::new(Thistlethwaite::new(method_tables::thistlethwaite(global)))
        }
        Method::Beginner => Box::new(Beginner::new(method_tables::beginner(global))),
        Method::Cfop => Box::new(Cfop::new(method_tables::cfop(global))),
        Method::Optimal => unreachable!("handled above"),
    };
    let start = Instant::now();
    let stop = global.session.quick_stop();
    let result = match &request.to {
        Some(goal) => solver.solve_to(&state.cube(), goal, &request.limits, &stop),
        None => solver.solve(&state.cube(), &request.limits, &stop),
    };
    let elapsed = start.elapsed();
    let solutions = result.map_err(CliError::solve)?;
    let Some(solution) = solutions.into_iter().next() else {
        return Err(CliError::no_solution(no_solution(request, elapsed)));
    };
    Ok(report(
        &solution,
        &request.method.name(),
        elapsed.as_secs_f64(),
        request.explain,
    ))
}

/// The message of a solve that found nothing: what was not found, and which limit to raise.
fn no_solution(request: &Request, elapsed: Duration) -> String {
    let hint = match (request.method, request.limits.time_budget) {
        (Method::TwoPhase, Some(_)) => "raise --max-length or --time-budget".to_string(),
        (Method::TwoPhase, None) => format!(
            "two-phase searches for {} s without --time-budget: raise --max-length or --time-budget",
            two_phase::Config::default().default_time_budget.as_secs()
        ),
        _ => "its solution is longer: raise --max-length".to_string(),
    };
    format!(
        "{}: {} ({hint}; `--method optimal` finds the optimal length)",
        request.method.name(),
        request.limits.not_found(elapsed)
    )
}

/// The text and JSON of one solution.
pub fn report(solution: &Solution, method: &str, seconds: f64, explain: bool) -> Report {
    let moves = Alg::from_moves(&solution.moves).to_string();
    let length = solution.moves.len();
    let stages: Vec<_> = solution
        .stages
        .iter()
        .map(|s| record::Stage {
            label: s.label.to_string(),
            moves: Alg::from_moves(&s.moves).to_string(),
            length: s.moves.len(),
        })
        .collect();
    let mut text = with_note(&moves, &n_moves(length));
    if explain {
        if solution.stages.is_empty() {
            text.push_str(&format!("\n  {method}: {moves}"));
        }
        for stage in &solution.stages {
            text.push_str(&format!(
                "\n  {}: {} ({})",
                stage.label,
                Alg::from_moves(&stage.moves),
                stage.moves.len()
            ));
        }
    }
    Report::new(
        text,
        Record::Solution(record::Solution {
            solution: moves,
            length,
            method: method.to_string(),
            seconds,
            stages,
            optimal: None,
        }),
    )
}
