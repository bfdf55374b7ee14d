//! The JSON API of `cube-cli serve` (docs/api.md): `POST /api/<subcommand>` with a JSON object of
//! the state and the command's options, answered with exactly what `cube-cli <subcommand> --json`
//! prints for them, because it is that: the body becomes the command line (`{"method": "cfop",
//! "explain": true}` is `--method=cfop --explain`), clap parses it by the one definition in
//! `args.rs` into the [`Request`] the command line builds, and [`request::run`] runs it with its
//! reports sent to the request's [`Answer`], rendered as `--json` renders them. So options,
//! defaults, validation and records are the CLI's, and the status is the first record's kind.
//! The routes are the clap tree's subcommands ([`routes`]), but for the few that act on the
//! server's machine ([`LOCAL`]).
//!
//! Not taken over the API: options that name the server's files or read its standard input
//! (`svg`, `checkpoint`, `tables`, STATE `-`), that shape the output (the answer is the record),
//! and how the server holds its tables (`mmap`, `trust_header`). A request's text is only text:
//! a state is never looked up on the server's disk ([`Session::reads_files`]).
//!
//! Every command runs as a [`Job`] on tokio's blocking pool, for one request and nothing else:
//! its own stop flag ([`Session::Request`]), raised when its deadline passes (`--max-search`,
//! and a second more for the solver's own `timeout` to end it first), when the server stops, or
//! when the request's client goes away (hyper then drops the request's future, and the job with
//! it). A search (every `solve`, `optimal`, `fmc solve`, `fmc insert`, `fmc improve`, `scramble`) holds a slot (one per core)
//! for as long as it runs, its client gone or not; one beyond waits for a slot up to
//! [`QUEUE_WAIT`], then gets 503 with `Retry-After`. An optimal search
//! answers as server-sent events (a `progress` event per depth searched, a `tick` every half
//! second, then the `result` record); a client that asks for `application/json` only gets the
//! record, and so does every client when the search ends before its first event.

use std::ffi::OsString;
use std::time::Duration;

use clap::{CommandFactory, Parser};
use cube_solvers::Stop;
use cube_solvers::optimal::Progress;
use cube_solvers::two_phase;
use hyper::header::{self, HeaderValue};
use hyper::{Response, StatusCode};
use serde_json::{Map, Value, json};
use tokio::sync::{OwnedSemaphorePermit, mpsc};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::{App, Body, ChannelBody, error_response, json_response};
use crate::args::{Cli, Method};
use crate::output::{self, Answer, CliError, ErrorKind, ProgressSink};
use crate::request::{self, Checked, Each, Refusal, Request};
use crate::session::Session;

/// The subcommands that act on the server's machine rather than on cubes, which the API does not
/// run (`GET /api/tables` answers `tables status`); every other subcommand of the clap tree that
/// has none of its own is a route (`POST /api/solve`, `POST /api/fmc/insert`).
const LOCAL: [&str; 4] = ["tables", "serve", "completions", "man"];

/// The options of the command line that the API does not take, with the reason. A list with its
/// messages rather than a policy derived from the clap tree: no property of an argument there (its
/// heading, type or value hint) separates `--from`, taken, from `--batch`, not, or the files a
/// request may not name from the values it may send, and each refusal says its own reason.
const NOT_TAKEN: [(&str, &str); 13] = [
    ("json", "the answer is the JSON record"),
    ("color", "the answer is the JSON record"),
    ("quiet", "the answer is the JSON record"),
    ("no-color", "the answer is the JSON record"),
    ("tables", "the server's table directory is its --tables"),
    ("batch", "a request answers the state it sends"),
    ("shard", "a request answers the state it sends"),
    ("svg", "the API writes no files"),
    ("algs", "the API reads no files: the generated set is used"),
    ("checkpoint", "the API writes no files"),
    ("checkpoint-every", "the API writes no files"),
    (
        "mmap",
        "the server holds its tables for every request that asks for them",
    ),
    (
        "trust-header",
        "the server holds its tables for every request that asks for them",
    ),
];

/// The most scrambles one request may ask for (an answer is held in memory until it is sent).
const MAX_SCRAMBLES: usize = 1000;

/// How often a streamed search sends a `tick`.
const TICK: Duration = Duration::from_millis(500);

/// How long a search waits for a slot before it is answered 503.
const QUEUE_WAIT: Duration = Duration::from_secs(10);

/// A job's deadline beyond `--max-search`: the time a solver bounded by it (an optimal search's
/// `timeout`, two-phase's budget) has to end by itself, with its own report, before its stop
/// flag is raised.
const SOLVER_GRACE: Duration = Duration::from_secs(1);

/// Whether `route` (the path after `/api/`, split at `/`) is a command of the API: the path of a
/// subcommand of the clap tree, by name, that has no subcommands and is not [`LOCAL`].
pub fn routes(route: &[String]) -> bool {
    let Some(first) = route.first() else {
        return false;
    };
    if LOCAL.contains(&first.as_str()) {
        return false;
    }
    let command = Cli::command();
    let mut sub = &command;
    for name in route {
        match sub.get_subcommands().find(|s| s.get_name() == name) {
            Some(found) => sub = found,
            None => return false,
        }
    }
    !sub.has_subcommands()
}

/// Answers the command `route` (`["solve"]`, `["fmc", "solve"]`, `["tables"]`) for `body`.
pub(super) async fn answer(
    app: std::sync::Arc<App>,
    route: Vec<String>,
    body: Option<String>,
    accepts_json: bool,
) -> Response<Body> {
    let route: Vec<&str> = route.iter().map(String::as_str).collect();
    let request = match request_of(&app, &route, body.as_deref().unwrap_or("{}")) {
        Ok(request) => request,
        Err(e) => return error_response(status(e.kind()), &e),
    };
    let slot = if is_search(&request) {
        let slots = std::sync::Arc::clone(&app.slots);
        match tokio::time::timeout(QUEUE_WAIT, slots.acquire_owned()).await {
            Ok(Ok(slot)) => Some(slot),
            _ => return busy(&app),
        }
    } else {
        None
    };
    if is_optimal(&request) && !accepts_json {
        return stream(&app, request, slot).await;
    }
    let mut job = Job::start(&app, request, slot, None);
    let answer = job.finish().await;
    if answer.lines().is_empty() {
        let e = CliError::internal("the command answered nothing (a bug: please report it)");
        return error_response(status(e.kind()), &e);
    }
    respond(&answer)
}

/// The JSON answer of a finished command: its records, with the status of the first.
fn respond(answer: &Answer) -> Response<Body> {
    let status = answer.first_error().map_or(StatusCode::OK, status);
    json_response(status, answer.body())
}

/// The answer when every slot is taken.
fn busy(app: &App) -> Response<Body> {
    let e = CliError::busy(format!(
        "all {} search slots stayed taken for {} s (one search per core): try again in a few seconds",
        app.total_slots,
        QUEUE_WAIT.as_secs()
    ));
    let mut response = error_response(status(e.kind()), &e);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    response
}

/// One request's command, running on the blocking pool. Dropping it (the request's future
/// dropped: its client has gone) raises its stop flag, so that its search ends within a poll;
/// its slot is given back when the command returns.
struct Job {
    stop: Stop,
    handle: JoinHandle<Answer>,
    deadline: Instant,
    stopping: tokio::sync::watch::Receiver<bool>,
    /// Whether the server's stopping ended the command (not its deadline, not its own end).
    ended_by_server: bool,
}

impl Job {
    fn start(
        app: &App,
        request: Request,
        slot: Option<OwnedSemaphorePermit>,
        progress: Option<ProgressSink>,
    ) -> Job {
        let stop = Stop::new();
        let answer = std::sync::Arc::new(std::sync::Mutex::new(Answer::default()));
        let session = Session::Request {
            stop: stop.clone(),
            progress,
            answer: std::sync::Arc::clone(&answer),
        };
        let handle = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            let result = request::run(&request, &session);
            let mut answered = answer.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = result {
                answered.push_error(&e);
            }
            std::mem::take(&mut *answered)
        });
        Job {
            stop,
            handle,
            deadline: Instant::now() + app.max_search + SOLVER_GRACE,
            stopping: app.stopping.subscribe(),
            ended_by_server: false,
        }
    }

    /// The command's answer. At the deadline or when the server stops, the stop flag is raised
    /// and the command's answer (what it found so far) awaited.
    async fn finish(&mut self) -> Answer {
        tokio::select! {
            done = &mut self.handle => return joined(done),
            _ = tokio::time::sleep_until(self.deadline) => self.stop.stop(),
            _ = self.stopping.wait_for(|&s| s) => {
                self.ended_by_server = true;
                self.stop.stop();
            }
        }
        joined((&mut self.handle).await)
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

/// The answer of a finished job; a command that panicked is an `internal` error record.
fn joined(done: Result<Answer, tokio::task::JoinError>) -> Answer {
    done.unwrap_or_else(|e| {
        Answer::failed(&CliError::internal(format!(
            "the command failed: {e} (a bug: please report it)"
        )))
    })
}

/// Runs an optimal search as a stream of events: the `progress` of each depth as it comes, a
/// `tick` every [`TICK`], then the `result`. An answer that comes before the first event (a
/// refused state, a short search) is a plain JSON answer with its status. When the client goes
/// away, the stream's next send fails and the job is dropped, which stops the search.
async fn stream(app: &App, request: Request, slot: Option<OwnedSemaphorePermit>) -> Response<Body> {
    let (events, mut received) = mpsc::unbounded_channel::<String>();
    let progress: ProgressSink = std::sync::Arc::new(move |p: &Progress| {
        let _ = events.send(progress_event(p));
    });
    let begun = std::time::Instant::now();
    let mut job = Job::start(app, request, slot, Some(progress));
    let first = tokio::select! {
        // A search that has reported a depth streams, however soon it ends.
        biased;
        Some(first) = received.recv() => event("progress", &first),
        answer = job.finish() => return respond(&answer),
        () = tokio::time::sleep(TICK) => tick(begun),
    };
    let (chunks, body) = mpsc::channel::<bytes::Bytes>(16);
    tokio::spawn(async move {
        let mut next = Some(first);
        loop {
            if let Some(chunk) = next.take()
                && chunks.send(chunk).await.is_err()
            {
                // The client has gone: dropping the job stops the search.
                return;
            }
            tokio::select! {
                // The events in the order they were sent: every progress before the result.
                biased;
                Some(progress) = received.recv() => next = Some(event("progress", &progress)),
                answer = job.finish() => {
                    let mut rest: Vec<bytes::Bytes> = std::iter::from_fn(|| received.try_recv().ok())
                        .map(|progress| event("progress", &progress))
                        .collect();
                    // A result cut short by the server stopping says so first (not the time limit).
                    if job.ended_by_server {
                        rest.push(event("stopping", "{}"));
                    }
                    rest.extend(answer.lines().iter().map(|line| event("result", line)));
                    for chunk in rest {
                        if chunks.send(chunk).await.is_err() {
                            return;
                        }
                    }
                    return;
                }
                () = tokio::time::sleep(TICK) => next = Some(tick(begun)),
            }
        }
    });
    let mut response = Response::new(http_body_util::BodyExt::boxed(ChannelBody(body)));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    super::common_headers(headers);
    response
}

/// A `tick` event: the seconds since the request began.
fn tick(begun: std::time::Instant) -> bytes::Bytes {
    let seconds = begun.elapsed().as_secs_f64();
    event(
        "tick",
        &json!({"type": "tick", "seconds": seconds}).to_string(),
    )
}

/// One event (`data` is one line of JSON).
fn event(name: &str, data: &str) -> bytes::Bytes {
    bytes::Bytes::from(format!("event: {name}\ndata: {data}\n\n"))
}

/// The [`Request`] of a request's body, parsed by clap and checked as the command line is, with the
/// server's bounds on searches: the body's keys are the long options (`max_length` or
/// `max-length`) and the positional arguments by name (`state`, `solution`, `step`,
/// `sequence`); `true` is a flag given, `false` and `null` one not given.
fn request_of(app: &App, route: &[&str], body: &str) -> Result<Request, CliError> {
    let body: Map<String, Value> = match serde_json::from_str(body) {
        Ok(Value::Object(map)) => map,
        Ok(_) => {
            return Err(CliError::parse(
                "the request body is not a JSON object (such as {\"state\": \"R U R' U'\"})",
            ));
        }
        Err(e) => return Err(CliError::parse(format!("the request body: {e}"))),
    };
    let mut command = Cli::command();
    command.build();
    let mut sub = &command;
    for name in route {
        sub = sub
            .find_subcommand(name)
            .expect("every route names a subcommand");
    }
    let mut argv: Vec<OsString> = vec!["cube-cli".into(), "--json".into(), "--quiet".into()];
    if let Some(dir) = &app.global.tables {
        argv.push("--tables".into());
        argv.push(dir.into());
    }
    argv.extend(route.iter().map(OsString::from));
    let positionals: Vec<&clap::Arg> = sub.get_positionals().collect();
    let mut values: Vec<Option<String>> = vec![None; positionals.len()];
    for (key, value) in &body {
        let long = key.replace('_', "-");
        let id = key.replace('-', "_");
        if let Some(i) = positionals.iter().position(|a| a.get_id() == id.as_str()) {
            let text = scalar(key, value)?.unwrap_or_default();
            if text == "-" {
                return Err(CliError::usage(format!(
                    "{key}: `-` reads standard input on the command line; send the text itself"
                )));
            }
            values[i] = Some(text);
            continue;
        }
        if let Some((_, why)) = NOT_TAKEN.iter().find(|(name, _)| *name == long) {
            return Err(CliError::usage(format!(
                "{key}: not taken over the API: {why}"
            )));
        }
        let Some(arg) = sub
            .get_arguments()
            .find(|a| a.get_long() == Some(long.as_str()))
        else {
            return Err(CliError::usage(format!(
                "{key}: not an option of {} (it takes {})",
                route.join(" "),
                options_of(sub)
            )));
        };
        let takes_value = arg.get_action().takes_values();
        match (value, takes_value) {
            (Value::Null | Value::Bool(false), false) | (Value::Null, true) => {}
            (Value::Bool(true), false) => argv.push(format!("--{long}").into()),
            (_, false) => {
                return Err(CliError::usage(format!(
                    "{key}: a flag, true or false (not {value})"
                )));
            }
            (_, true) => {
                let text = scalar(key, value)?.unwrap_or_default();
                argv.push(format!("--{long}={text}").into());
            }
        }
    }
    // The positional arguments in order, after `--` so that none reads as an option.
    argv.push("--".into());
    for (i, (arg, value)) in positionals.iter().zip(&values).enumerate() {
        match value {
            Some(value) => argv.push(value.into()),
            // A later one given: this one cannot be left out.
            None if values[i + 1..].iter().any(Option::is_some) => {
                return Err(CliError::usage(format!(
                    "the body has no {:?}",
                    arg.get_id().as_str()
                )));
            }
            None => {}
        }
    }
    let cli = Cli::try_parse_from(argv).map_err(|e| output::clap_usage(&e))?;
    let mut request = Request::new(cli).map_err(Refusal::into_error)?;
    if let Checked::Scramble { count, .. } = request.command()
        && *count > MAX_SCRAMBLES
    {
        return Err(CliError::usage(format!(
            "count: at most {MAX_SCRAMBLES} scrambles per request"
        )));
    }
    bound_searches(request.command_mut(), app.max_search);
    Ok(request)
}

/// A JSON value as the text of an option: a string, a number or a boolean; `None` for `null`.
fn scalar(key: &str, value: &Value) -> Result<Option<String>, CliError> {
    match value {
        Value::String(text) => Ok(Some(text.clone())),
        Value::Number(n) => Ok(Some(n.to_string())),
        Value::Bool(b) => Ok(Some(b.to_string())),
        Value::Null => Ok(None),
        Value::Array(_) | Value::Object(_) => Err(CliError::usage(format!(
            "{key}: a string, a number or a boolean (not {value})"
        ))),
    }
}

/// The options of a subcommand the API takes, for an error message.
fn options_of(sub: &clap::Command) -> String {
    let names: Vec<String> = sub
        .get_positionals()
        .map(|a| a.get_id().as_str().to_string())
        .chain(
            sub.get_arguments()
                .filter_map(|a| a.get_long())
                .filter(|long| !NOT_TAKEN.iter().any(|(name, _)| name == long))
                .filter(|long| !["help", "version"].contains(long))
                .map(str::to_string),
        )
        .collect();
    names.join(", ")
}

/// Whether the command is a search, which holds a slot while it runs.
fn is_search(request: &Request) -> bool {
    matches!(
        request.command(),
        Checked::States {
            each: Each::Optimal(_) | Each::Solve(_) | Each::FmcSolve(_),
            ..
        } | Checked::Scramble { .. }
            | Checked::FmcInsert(_)
            | Checked::FmcImprove(_)
    )
}

/// Whether the command is an optimal search (`optimal`, `solve` with `method: optimal`), which
/// streams its progress.
fn is_optimal(request: &Request) -> bool {
    match request.command() {
        Checked::States { each, .. } => match each {
            Each::Optimal(_) => true,
            Each::Solve(solve) => solve.method == Method::Optimal,
            _ => false,
        },
        _ => false,
    }
}

/// The server's bounds: an FMC step search, insertions and improvements use at most one thread
/// per core; no search runs longer than `max` (two-phase's default of 10 s is kept when it is
/// shorter; insertions and improvements end by themselves at it, with what they found); an
/// optimal search runs on one thread unless the request asks for more (at most one per core),
/// since as many run at once as there are cores.
fn bound_searches(command: &mut Checked, max: Duration) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let bound_optimal = |optimal: &mut crate::args::OptimalArgs| {
        optimal.timeout = Some(optimal.timeout.map_or(max, |t| t.min(max)));
        optimal.threads = Some(optimal.threads.map_or(1, |t| t.min(cores)));
    };
    let bound_time = |budget: &mut Option<Duration>| {
        *budget = Some(budget.map_or(max, |t| t.min(max)));
    };
    match command {
        Checked::States { each, .. } => match each {
            Each::Optimal(optimal) => bound_optimal(optimal),
            Each::Solve(solve) if solve.method == Method::Optimal => {
                bound_optimal(&mut solve.optimal);
            }
            Each::Solve(solve) if solve.method == Method::TwoPhase => {
                // Only a budget given or a default beyond the bound is set: a budget given makes
                // two-phase look for shorter solutions until it is spent.
                let default = two_phase::Config::default().default_time_budget;
                let budget = &mut solve.limits.time_budget;
                match budget {
                    Some(given) => *given = (*given).min(max),
                    None if default > max => *budget = Some(max),
                    None => {}
                }
            }
            Each::FmcSolve(request) => {
                request.settings.threads = request.settings.threads.min(cores);
            }
            _ => {}
        },
        Checked::FmcInsert(request) => {
            request.settings.threads = request.settings.threads.min(cores);
            bound_time(&mut request.settings.time_budget);
        }
        Checked::FmcImprove(request) => {
            request.threads = Some(request.threads.map_or(cores, |t| t.min(cores)));
            bound_time(&mut request.budget);
        }
        _ => {}
    }
}

/// The HTTP status of an error kind ([`ErrorKind::http_status`]).
fn status(kind: ErrorKind) -> StatusCode {
    StatusCode::from_u16(kind.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The `progress` event of a depth searched.
fn progress_event(p: &Progress) -> String {
    json!({
        "type": "progress",
        "depth": p.bound,
        "exhausted": p.exhausted,
        "solutions": p.solutions,
        "nodes": p.nodes,
        "total_nodes": p.total_nodes,
        "nodes_per_second": p.nodes_per_second(),
        "seconds": p.elapsed.as_secs_f64(),
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::routes;
    use crate::args::Cli;

    fn route(path: &str) -> Vec<String> {
        path.split('/').map(str::to_string).collect()
    }

    #[test]
    fn the_routes_are_the_commands_docs_api_md_lists() {
        let command = Cli::command();
        let mut served: Vec<String> = Vec::new();
        for sub in command.get_subcommands() {
            let paths: Vec<String> = if sub.has_subcommands() {
                sub.get_subcommands()
                    .map(|action| format!("{}/{}", sub.get_name(), action.get_name()))
                    .collect()
            } else {
                vec![sub.get_name().to_string()]
            };
            served.extend(paths.into_iter().filter(|path| routes(&route(path))));
        }
        served.sort();
        // docs/api.md: `POST /api/<subcommand>` for solve, optimal, check, convert, scramble,
        // verify and show; `POST /api/fmc/<action>` for the nine fmc actions.
        let mut documented = [
            "solve",
            "optimal",
            "check",
            "convert",
            "scramble",
            "verify",
            "show",
            "fmc/solve",
            "fmc/steps",
            "fmc/insert",
            "fmc/cycles",
            "fmc/improve",
            "fmc/unniss",
            "fmc/invert",
            "fmc/cleanup",
            "fmc/count",
        ];
        documented.sort_unstable();
        assert_eq!(served, documented);
        for path in [
            "",
            "tables",
            "tables/status",
            "fmc",
            "help",
            "fmc/help",
            "solve/x",
            "man",
        ] {
            assert!(!routes(&route(path)), "{path}");
        }
    }
}
