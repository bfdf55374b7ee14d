//! `cube-cli solve`: a solution by the chosen method, with its labelled stages on request.

use std::time::{Duration, Instant};

use cube_core::{Alg, Cube};
use cube_solvers::beginner::Beginner;
use cube_solvers::cfop::Cfop;
use cube_solvers::thistlethwaite::Thistlethwaite;
use cube_solvers::{Limits, Solution, SolveError, Solver, Stop};
use serde_json::json;

use crate::Outcome;
use crate::args::{Global, Method, OptimalArgs};
use crate::input::Input;
use crate::method_tables;
use crate::output::{CliError, Report, n_moves};

/// What `solve` was asked, validated once for every state of a batch.
pub struct Request<'a> {
    pub method: Method,
    pub limits: Limits,
    pub to: Option<Cube>,
    pub explain: bool,
    pub optimal: &'a OptimalArgs,
}

impl<'a> Request<'a> {
    pub fn new(
        global: &Global,
        method: Method,
        max_length: Option<usize>,
        time_budget: Option<u64>,
        to: Option<&str>,
        explain: bool,
        optimal: &'a OptimalArgs,
    ) -> Result<Request<'a>, CliError> {
        let to = match to {
            None => None,
            Some(text) => {
                let input = Input::new(global, text);
                let (_, state) = input
                    .legal_state()
                    .map_err(|e| CliError::parse(format!("--to: {e}")))?;
                Some(state.cube())
            }
        };
        let limits = Limits {
            max_length,
            time_budget: time_budget.map(Duration::from_millis),
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

fn method_name(method: Method) -> &'static str {
    match method {
        Method::TwoPhase => "two-phase",
        Method::Thistlethwaite => "thistlethwaite",
        Method::Beginner => "beginner",
        Method::Cfop => "cfop",
        Method::Optimal => "optimal",
    }
}

pub fn run(global: &Global, input: &Input, request: &Request<'_>) -> Outcome {
    if request.method == Method::Optimal {
        return crate::cmd::optimal::run(global, input, request.optimal, request.to.as_ref());
    }
    let (_, state) = input.legal_state()?;
    let solver: Box<dyn Solver> = match request.method {
        Method::TwoPhase => Box::new(method_tables::two_phase_solver()),
        Method::Thistlethwaite => Box::new(Thistlethwaite::new(method_tables::thistlethwaite())),
        Method::Beginner => Box::new(Beginner::new(method_tables::cross())),
        Method::Cfop => Box::new(Cfop::new(method_tables::cross())),
        Method::Optimal => unreachable!("handled above"),
    };
    let start = Instant::now();
    let stop = Stop::new();
    let result = match &request.to {
        Some(goal) => solver.solve_to(&state.cube(), goal, &request.limits, &stop),
        None => solver.solve(&state.cube(), &request.limits, &stop),
    };
    let seconds = start.elapsed().as_secs_f64();
    let solutions = result.map_err(|e| match e {
        SolveError::Unsolvable(_) => CliError::illegal(e),
        _ => CliError::parse(e),
    })?;
    let Some(solution) = solutions.into_iter().next() else {
        return Err(CliError::no_solution(format!(
            "{}: no solution within the limits (raise --max-length or --time-budget)",
            method_name(request.method)
        )));
    };
    Ok(report(
        &solution,
        method_name(request.method),
        seconds,
        request.explain,
    ))
}

/// The text and JSON of one solution.
pub fn report(solution: &Solution, method: &str, seconds: f64, explain: bool) -> Report {
    let moves = Alg::from_moves(&solution.moves).to_string();
    let length = solution.moves.len();
    let stages: Vec<_> = solution
        .stages
        .iter()
        .map(|s| json!({ "label": s.label, "moves": Alg::from_moves(&s.moves).to_string(), "length": s.moves.len() }))
        .collect();
    let mut text = format!("{moves} ({})", n_moves(length));
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
        json!({ "solution": moves, "length": length, "method": method, "seconds": seconds, "stages": stages }),
    )
}
