//! The JSON API of `cube-cli serve` (docs/api.md): `POST /api/<subcommand>` with a JSON object of
//! the state and the command's options, answered with exactly what `cube-cli <subcommand> --json`
//! prints for them, because it is that: the body becomes the command line (`{"method": "cfop",
//! "explain": true}` is `--method=cfop --explain`), clap parses it by the one definition in
//! `args.rs`, and the command runs as in a terminal with its standard output captured
//! ([`output::capture`]). So options, defaults, validation and error records are the CLI's.
//!
//! Not taken over the API: options that name the server's files or read its standard input
//! (`svg`, `checkpoint`, `tables`, STATE `-`), that shape the output (the answer is the record),
//! and that choose the tables loaded once for the whole server (`tier`, `mmap`). The server bounds
//! every search by `--max-search`, and optimal searches by one slot per core: a search beyond
//! gets 503 with `Retry-After`. An optimal search answers as server-sent events (a `progress`
//! event per depth searched, a `tick` every half second, then the `result` record), and is
//! cancelled when its client goes away; a client that asks for `application/json` only gets the
//! record.

use std::ffi::OsString;
use std::io::Write;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::{CommandFactory, Parser};
use cube_solvers::Stop;
use cube_solvers::optimal::Progress;
use cube_solvers::two_phase;
use serde_json::{Map, Value, json};
use tiny_http::Request;

use super::{App, respond_error, respond_json};
use crate::args::{Cli, Command, FmcAction, Method};
use crate::cmd::optimal::Watcher;
use crate::output::{self, CliError};
use crate::signals;

/// The subcommands the API runs (`POST /api/NAME`), and `fmc`'s (`POST /api/fmc/NAME`).
const COMMANDS: [&str; 7] = [
    "solve", "optimal", "check", "convert", "scramble", "verify", "show",
];
const FMC_ACTIONS: [&str; 6] = ["solve", "steps", "unniss", "invert", "cleanup", "count"];

/// The options of the command line that the API does not take, with the reason.
const NOT_TAKEN: [(&str, &str); 13] = [
    ("json", "the answer is the JSON record"),
    ("color", "the answer is the JSON record"),
    ("quiet", "the answer is the JSON record"),
    ("no-color", "the answer is the JSON record"),
    ("tables", "the server's table directory is its --tables"),
    ("batch", "a request answers the state it sends"),
    ("shard", "a request answers the state it sends"),
    ("svg", "the API writes no files"),
    ("checkpoint", "the API writes no files"),
    ("checkpoint-every", "the API writes no files"),
    (
        "tier",
        "the server searches one tier for every request, the largest baked",
    ),
    (
        "mmap",
        "the server loaded its tables once, for every request",
    ),
    (
        "trust-header",
        "the server loaded its tables once, for every request",
    ),
];

/// The most scrambles one request may ask for (an answer is held in memory until it is sent).
const MAX_SCRAMBLES: usize = 1000;

/// How often a streamed search sends a `tick` (and so finds out that its client has gone).
const TICK: Duration = Duration::from_millis(500);

/// Whether `route` (the path after `/api/`) is a command of the API.
pub fn routes(route: &[&str]) -> bool {
    match route {
        [name] => COMMANDS.contains(name),
        ["fmc", action] => FMC_ACTIONS.contains(action),
        _ => false,
    }
}

/// Answers the command `route` (`["solve"]`, `["fmc", "solve"]`, `["tables"]`) for `body`.
pub(super) fn answer(app: &App<'_>, request: Request, route: &[&str], body: Option<&str>) {
    let cli = match command_line(app, route, body.unwrap_or("{}")) {
        Ok(cli) => cli,
        Err(e) => return respond_error(request, status(e.kind()), &e),
    };
    if !is_search(&cli) {
        let (_, bytes) = output::capture(|| crate::execute(cli, Watcher::Terminal));
        let status = status_of_output(&bytes);
        return respond_json(request, status, bytes, &[]);
    }
    let Some(_slot) = app.slots.take() else {
        let e = CliError::busy(format!(
            "all {} search slots are taken (one optimal search per core): try again in a few seconds",
            app.slots.total
        ));
        let mut line = serde_json::to_vec(&e.to_record()).expect("a record serializes");
        line.push(b'\n');
        return respond_json(request, 503, line, &[("Retry-After", "5")]);
    };
    let streamed = super::header_value(&request, "Accept")
        .is_none_or(|accept| !accept.contains("application/json"));
    stream(request, cli, streamed);
}

/// The command line of a request, parsed by clap and checked as `main` checks it, with the
/// server's bounds on searches: the body's keys are the long options (`max_length` or
/// `max-length`) and the positional arguments by name (`state`, `solution`, `step`,
/// `sequence`); `true` is a flag given, `false` and `null` one not given.
fn command_line(app: &App<'_>, route: &[&str], body: &str) -> Result<Cli, CliError> {
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
    let mut cli = Cli::try_parse_from(argv).map_err(|e| output::clap_usage(&e))?;
    crate::check_options(&cli).map_err(|e| output::clap_usage(&e))?;
    if let Command::Scramble { count, .. } = &cli.command
        && *count > MAX_SCRAMBLES
    {
        return Err(CliError::usage(format!(
            "count: at most {MAX_SCRAMBLES} scrambles per request"
        )));
    }
    bound_searches(&mut cli, app.max_search);
    Ok(cli)
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

/// Whether the command is an optimal search (`optimal`, `solve` with `method: optimal`).
fn is_search(cli: &Cli) -> bool {
    matches!(
        &cli.command,
        Command::Optimal { .. }
            | Command::Solve {
                method: Method::Optimal,
                ..
            }
    )
}

/// The server's bounds: an FMC step search uses at most one thread per core; no search runs
/// longer than `max` (two-phase's default of 10 s is kept when it is shorter); an optimal search runs on one thread
/// unless the request asks for more (at most one per core), since as many run at once as there
/// are cores.
fn bound_searches(cli: &mut Cli, max: Duration) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let bound_optimal = |optimal: &mut crate::args::OptimalArgs| {
        optimal.timeout = Some(optimal.timeout.map_or(max, |t| t.min(max)));
        optimal.threads = Some(optimal.threads.map_or(1, |t| t.min(cores)));
    };
    match &mut cli.command {
        Command::Optimal { optimal, .. }
        | Command::Solve {
            method: Method::Optimal,
            optimal,
            ..
        } => bound_optimal(optimal),
        Command::Solve {
            method: Method::TwoPhase,
            time_budget,
            ..
        } => {
            // Only a budget given or a default beyond the bound is set: a budget given makes
            // two-phase look for shorter solutions until it is spent.
            let default = two_phase::Config::default().default_time_budget;
            match time_budget {
                Some(budget) => *budget = (*budget).min(max),
                None if default > max => *time_budget = Some(max),
                None => {}
            }
        }
        Command::Fmc {
            action: FmcAction::Solve { threads, .. },
        } => *threads = Some(threads.map_or(cores, |t| t.min(cores))),
        _ => {}
    }
}

/// The HTTP status of an error kind.
fn status(kind: &str) -> u16 {
    match kind {
        "parse" | "usage" => 400,
        "refused" => 403,
        "illegal" | "requisite" | "timeout" | "no-solution" => 422,
        "tables" | "busy" | "interrupted" => 503,
        _ => 500,
    }
}

/// The status of a command's output: 200, or the status of the error its first line is.
fn status_of_output(bytes: &[u8]) -> u16 {
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    match serde_json::from_slice::<Value>(first) {
        Ok(record) if record["type"] == "error" => {
            status(record["error"]["kind"].as_str().unwrap_or_default())
        }
        Ok(_) => 200,
        Err(_) => 500,
    }
}

/// Runs an optimal search for `request`. Streamed: the events as they come, a `tick` every
/// [`TICK`] (a write to a client that has gone fails, which cancels the search), then the
/// result; an answer that comes before the first event (a refused state) is a plain JSON answer
/// with its status. Not streamed: the record alone. A signal to the server cancels the search.
fn stream(request: Request, cli: Cli, streamed: bool) {
    let stop = Stop::new();
    let start = Instant::now();
    let (events, received) = mpsc::channel::<(&str, String)>();
    std::thread::scope(|scope| {
        let search = scope.spawn(|| {
            let progress = move |p: &Progress| {
                let _ = events.send(("progress", progress_event(p)));
            };
            let watcher = Watcher::Client {
                stop: &stop,
                progress: &progress,
            };
            output::capture(|| crate::execute(cli, watcher)).1
        });
        let mut request = Some(request);
        let mut client: Option<Box<dyn Write + Send>> = None;
        let mut gone = false;
        loop {
            let (name, event) = match received.recv_timeout(TICK) {
                Ok(event) => event,
                Err(mpsc::RecvTimeoutError::Timeout) => (
                    "tick",
                    json!({"type": "tick", "seconds": start.elapsed().as_secs_f64()}).to_string(),
                ),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            if signals::signalled() {
                stop.stop();
            }
            if !streamed || gone {
                continue;
            }
            if client.is_none() {
                client = request.take().map(open_event_stream);
            }
            let sent = client
                .as_mut()
                .is_some_and(|c| send_event(c, name, &event).is_ok());
            if !sent {
                gone = true;
                stop.stop();
            }
        }
        let bytes = search.join().expect("the search thread does not panic");
        match (request, client) {
            (Some(request), _) => {
                let status = status_of_output(&bytes);
                respond_json(request, status, bytes, &[]);
            }
            (None, Some(mut client)) if !gone => {
                for line in String::from_utf8_lossy(&bytes).lines() {
                    let _ = send_event(&mut client, "result", line);
                }
                // The last chunk: the answer is complete.
                let _ = client.write_all(b"0\r\n\r\n").and_then(|()| client.flush());
            }
            _ => {}
        }
    });
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

/// Answers `request` with the head of an event stream, sent in chunks (one per event, then the
/// empty one), so that the answer has an end; the stream is the writer returned.
fn open_event_stream(request: Request) -> Box<dyn Write + Send> {
    let mut client = request.into_writer();
    let mut head = String::from("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n");
    for (name, value) in super::COMMON_HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
    // A failure shows at the first event.
    let _ = client
        .write_all(head.as_bytes())
        .and_then(|()| client.flush());
    client
}

/// Sends one event (`data` is one line of JSON), as one chunk.
fn send_event(client: &mut Box<dyn Write + Send>, name: &str, data: &str) -> std::io::Result<()> {
    let event = format!("event: {name}\ndata: {data}\n\n");
    write!(client, "{:x}\r\n{event}\r\n", event.len())?;
    client.flush()
}
