//! Issue 37: `cube-cli serve`. A server started on a free port over the shared small tables
//! answers each API request with the record the CLI's `--json` prints for the same input, bad
//! input with the same error record and a 4xx, streams optimal searches, refuses other sites,
//! answers 200 concurrent solves correctly and refuses optimal searches beyond one per core.
//! Issue 54: the attacks that crashed it (a huge `Content-Length`), froze it (idle clients), made
//! one request change another's answer (a `qtm` search), ate the machine (an FMC search without a
//! deadline) or let work outlive its client or a signal, each rerun; a state that names a file;
//! every option at its edges; 500 mixed requests at once.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use cube_core::{Alg, Cube};
use serde_json::{Value, json};

use crate::run;

/// A `cube-cli serve` process on a free port, stopped when dropped.
pub(crate) struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub(crate) host: String,
}

impl Server {
    pub(crate) fn start(extra: &[&str]) -> Server {
        Server::start_in(crate::optimal::baked_dir(), extra)
    }

    /// A server over the table directory `tables`.
    pub(crate) fn start_in(tables: &std::path::Path, extra: &[&str]) -> Server {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("cube-cli"))
            .env("NO_COLOR", "1")
            .args(["serve", "--port", "0", "--tables"])
            .arg(tables)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start cube-cli serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let host = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, host }
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends a request (with `Connection: close`) and reads the whole answer: (status, head in
    /// lower case (header names are case-insensitive), body with chunks joined).
    pub(crate) fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (u16, String, String) {
        let mut stream = self.send(method, path, headers, body);
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
        parse_answer(&String::from_utf8(answer).unwrap())
    }

    /// Sends a request and returns the open connection, to read as the answer comes.
    pub(crate) fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> TcpStream {
        let mut stream = TcpStream::connect(&self.host).unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        if !headers.iter().any(|(name, _)| *name == "Host") {
            head.push_str(&format!("Host: {}\r\n", self.host));
        }
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        stream
    }

    /// `POST /api/ROUTE` with `body`: (status, the answer's text).
    pub(crate) fn post(&self, route: &str, body: &Value) -> (u16, String) {
        let (status, _, text) = self.request(
            "POST",
            &format!("/api/{route}"),
            &[("Accept", "application/json")],
            &body.to_string(),
        );
        (status, text)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// (status, head, body) of an HTTP answer, its chunks joined when it is chunked.
fn parse_answer(answer: &str) -> (u16, String, String) {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((answer, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap();
    let head = head.to_ascii_lowercase();
    let chunked = head.contains("transfer-encoding: chunked");
    let body = if chunked {
        let mut rest = body;
        let mut joined = String::new();
        while let Some((size, after)) = rest.split_once("\r\n") {
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if size == 0 {
                break;
            }
            joined.push_str(&after[..size]);
            rest = &after[size + 2..];
        }
        joined
    } else {
        body.to_string()
    };
    (status, head, body)
}

/// A record without the fields that differ from run to run (times; an optimal search's node
/// count, which depends on when its two-phase upper bound arrives).
fn steady(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| {
            let mut value: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON: {line:?}: {e}"));
            if let Some(record) = value.as_object_mut() {
                record.remove("seconds");
                if record.get("method") == Some(&json!("optimal")) {
                    record.remove("nodes");
                    record.remove("cpu_seconds");
                }
            }
            value
        })
        .collect()
}

const SCRAMBLE: &str = "D2 B2 U' L2 U2 B2 U' R2 D' B2 R2 F' D L' B' R' D' B U' F L'";

/// Each request beside the command line that must print the same records.
fn cases() -> Vec<(&'static str, Value, Vec<&'static str>)> {
    let facelets = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD";
    vec![
        ("solve", json!({"state": SCRAMBLE}), vec!["solve", SCRAMBLE]),
        (
            "solve",
            json!({"state": SCRAMBLE, "method": "cfop", "explain": true}),
            vec!["solve", SCRAMBLE, "--method", "cfop", "--explain"],
        ),
        (
            "solve",
            json!({"state": SCRAMBLE, "method": "beginner", "explain": true}),
            vec!["solve", SCRAMBLE, "--method", "beginner", "--explain"],
        ),
        (
            "solve",
            json!({"state": SCRAMBLE, "method": "thistlethwaite"}),
            vec!["solve", SCRAMBLE, "--method", "thistlethwaite"],
        ),
        (
            "solve",
            json!({"state": facelets, "method": "two-phase", "max_length": 22}),
            vec!["solve", facelets, "--max-length", "22"],
        ),
        (
            "solve",
            json!({"state": "R U R' U'", "method": "cfop", "to": "R U"}),
            vec!["solve", "R U R' U'", "--method", "cfop", "--to", "R U"],
        ),
        (
            "optimal",
            json!({"state": "R U2 F' L D"}),
            vec!["optimal", "R U2 F' L D", "--threads", "1"],
        ),
        (
            "solve",
            json!({"state": "R U2 F' L D", "method": "optimal", "all": true}),
            vec![
                "solve",
                "R U2 F' L D",
                "--method",
                "optimal",
                "--all",
                "--threads",
                "1",
            ],
        ),
        ("check", json!({"state": facelets}), vec!["check", facelets]),
        (
            "check",
            json!({"state": "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBF"}),
            vec![
                "check",
                "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBF",
            ],
        ),
        (
            "convert",
            json!({"state": SCRAMBLE, "to": "twizzle"}),
            vec!["convert", SCRAMBLE, "--to", "twizzle"],
        ),
        (
            "convert",
            json!({"state": facelets, "to": "h48"}),
            vec!["convert", facelets, "--to", "h48"],
        ),
        (
            "convert",
            json!({"state": "R U", "to": "alg"}),
            vec!["convert", "R U", "--to", "alg"],
        ),
        (
            "scramble",
            json!({"seed": 37, "count": 3}),
            vec!["scramble", "--seed", "37", "--count", "3"],
        ),
        (
            "scramble",
            json!({"seed": 5, "event": "333fm", "format": "facelets"}),
            vec![
                "scramble", "--seed", "5", "--event", "333fm", "--format", "facelets",
            ],
        ),
        (
            "scramble",
            json!({"seed": 9, "type": "dr"}),
            vec!["scramble", "--seed", "9", "--type", "dr"],
        ),
        (
            "verify",
            json!({"state": "R U", "solution": "U' R'"}),
            vec!["verify", "R U", "U' R'"],
        ),
        (
            "verify",
            json!({"state": "R U", "solution": "R' U'"}),
            vec!["verify", "R U", "R' U'"],
        ),
        ("show", json!({"state": "[R, U]"}), vec!["show", "[R, U]"]),
        (
            "fmc/count",
            json!({"sequence": "R U (F' D)"}),
            vec!["fmc", "count", "R U (F' D)"],
        ),
        (
            "fmc/unniss",
            json!({"sequence": "R U (F' D)"}),
            vec!["fmc", "unniss", "R U (F' D)"],
        ),
        (
            "fmc/cycles",
            json!({"scramble": "R U R' U'", "skeleton": "(U R)"}),
            vec!["fmc", "cycles", "R U R' U'", "(U R)"],
        ),
        (
            "fmc/improve",
            json!({"solution": "D B2 R2 U2 R2 U2 R2 U2 R2 L", "max_length": 8}),
            vec![
                "fmc",
                "improve",
                "D B2 R2 U2 R2 U2 R2 U2 R2 L",
                "--max-length",
                "8",
            ],
        ),
        // Errors: the same records.
        ("solve", json!({"state": "Q"}), vec!["solve", "Q"]),
        (
            "solve",
            json!({"state": "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBF"}),
            vec![
                "solve",
                "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBF",
            ],
        ),
        (
            "solve",
            json!({"state": "R", "method": "fastest"}),
            vec!["solve", "R", "--method", "fastest"],
        ),
        (
            "solve",
            json!({"state": "R", "method": "cfop", "all": true}),
            vec!["solve", "R", "--method", "cfop", "--all"],
        ),
        (
            "verify",
            json!({"state": "R", "solution": "R Q"}),
            vec!["verify", "R", "R Q"],
        ),
    ]
}

/// The status the API answers for a record of the CLI.
fn expected_status(record: &Value) -> u16 {
    match record["error"]["kind"].as_str() {
        None => 200,
        Some("parse" | "usage") => 400,
        Some("illegal" | "requisite" | "timeout" | "no-solution") => 422,
        Some(kind) => panic!("unexpected kind {kind}"),
    }
}

#[test]
fn every_answer_is_the_record_of_json() {
    let server = Server::start(&[]);
    for (route, body, args) in cases() {
        let mut cli_args = args.clone();
        cli_args.push("--json");
        let (_, out, err) = run(&cli_args, None);
        let (status, answer) = server.post(route, &body);
        let cli = steady(&out);
        assert!(!cli.is_empty(), "{args:?}: the CLI printed nothing: {err}");
        assert_eq!(
            steady(&answer),
            cli,
            "{route} {body}\n  api: {answer}\n  cli: {out}"
        );
        assert_eq!(status, expected_status(&cli[0]), "{route} {body}: {answer}");
    }
}

/// Issue 57, item 2: a request whose options the command line refuses gets the same refusal (its
/// kind, its message, the status of its kind) before anything runs: not a state's error first
/// (the state here does not read), as the command run for the request answered before.
#[test]
fn i57_options_are_refused_alike() {
    let server = Server::start(&[]);
    for (args, _, kind, message) in crate::manners::option_refusals() {
        let args: Vec<&str> = args
            .iter()
            .map(|&a| if a == "STATE" { "R U Q" } else { a })
            .collect();
        let mut cli_args = args.clone();
        cli_args.push("--json");
        let (_, out, _) = run(&cli_args, None);
        let cli: Value = serde_json::from_str(out.trim()).expect(&out);
        // The body of the same command: the route, the positionals by name, the options.
        let route_len = if args[0] == "fmc" { 2 } else { 1 };
        let route = args[..route_len].join("/");
        let mut body = serde_json::Map::new();
        let mut rest = args[route_len..].iter();
        let positionals: &[&str] = match route.as_str() {
            "verify" => &["state", "solution"],
            "fmc/solve" => &["step", "state"],
            _ => &["state"],
        };
        for name in positionals {
            body.insert(name.to_string(), json!(rest.next().unwrap()));
        }
        while let (Some(option), Some(value)) = (rest.next(), rest.next()) {
            body.insert(option.trim_start_matches("--").to_string(), json!(value));
        }
        let (status, answer) = server.post(&route, &Value::Object(body.clone()));
        let record: Value = serde_json::from_str(answer.trim()).expect(&answer);
        assert_eq!(record, cli, "{route} {body:?}");
        assert_eq!(record["error"]["kind"], kind, "{route}: {answer}");
        assert!(
            record["error"]["message"]
                .as_str()
                .unwrap()
                .contains(message),
            "{route}: {answer}"
        );
        assert_eq!(status, expected_status(&record), "{route}: {answer}");
    }
}

#[test]
fn bad_requests_get_an_error_record_and_a_4xx() {
    let server = Server::start(&[]);
    let error = |status: u16, text: &str| {
        let record: Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(record["type"], "error", "{text}");
        (
            status,
            record["error"]["kind"].as_str().unwrap().to_string(),
        )
    };
    let cases = [
        ("solve", json!({"state": "-"}), 400, "usage"),
        (
            "show",
            json!({"state": "R", "svg": "/tmp/x.svg"}),
            400,
            "usage",
        ),
        (
            "optimal",
            json!({"state": "R", "checkpoint": "x"}),
            400,
            "usage",
        ),
        ("solve", json!({"state": "R", "tables": "/"}), 400, "usage"),
        (
            "solve",
            json!({"state": "R", "colour": "red"}),
            400,
            "usage",
        ),
        ("solve", json!({"state": ["R"]}), 400, "usage"),
        ("verify", json!({"solution": "R"}), 400, "usage"),
        ("solve", json!({}), 400, "usage"),
        ("scramble", json!({"count": 1001}), 400, "usage"),
    ];
    for (route, body, status, kind) in cases {
        let (got, text) = server.post(route, &body);
        assert_eq!(
            error(got, &text),
            (status, kind.to_string()),
            "{route} {body}"
        );
    }
    let (status, _, text) = server.request("POST", "/api/solve", &[], "not json");
    assert_eq!(error(status, &text), (400, "parse".to_string()));
    let (status, _, text) = server.request("POST", "/api/tables", &[], "{}");
    assert_eq!(error(status, &text), (404, "refused".to_string()));
    let (status, _, text) = server.request("GET", "/etc/passwd", &[], "");
    assert_eq!(error(status, &text), (404, "refused".to_string()));
    let big = format!("{{\"state\": \"{}\"}}", "R ".repeat(40_000));
    let (status, _, text) = server.request("POST", "/api/solve", &[], &big);
    assert_eq!(error(status, &text), (413, "refused".to_string()));
}

#[test]
fn other_sites_are_refused() {
    let server = Server::start(&[]);
    let port = server.host.split(':').nth(1).unwrap().to_string();
    let body = r#"{"state": "R"}"#;
    let refused = |headers: &[(&str, &str)]| {
        let (status, _, text) = server.request("POST", "/api/solve", headers, body);
        assert_eq!(status, 403, "{headers:?}: {text}");
        assert!(text.contains("\"refused\""), "{text}");
    };
    refused(&[("Host", "evil.example")]);
    refused(&[("Host", &format!("evil.example:{port}"))]);
    refused(&[("Host", "localhost:1")]);
    refused(&[("Origin", "http://evil.example")]);
    refused(&[("Origin", &format!("http://evil.example:{port}"))]);
    refused(&[("Origin", "null")]);
    // This server's own names and page are answered.
    for (host, origin) in [
        (
            format!("localhost:{port}"),
            format!("http://localhost:{port}"),
        ),
        (server.host.clone(), format!("http://{}", server.host)),
    ] {
        let (status, _, text) = server.request(
            "POST",
            "/api/solve",
            &[("Host", &host), ("Origin", &origin)],
            body,
        );
        assert_eq!(status, 200, "{host}: {text}");
    }
    // The page itself, with its security headers.
    let (status, head, text) = server.request("GET", "/", &[], "");
    assert_eq!(status, 200);
    assert!(text.contains("<script type=\"module\" src=\"/app.js\">"));
    assert!(
        head.contains("content-security-policy: default-src 'self'"),
        "{head}"
    );
    assert!(!head.contains("access-control-allow-origin"), "{head}");
}

#[test]
fn tables_is_the_tables_listing() {
    let server = Server::start(&[]);
    let (status, _, text) = server.request("GET", "/api/tables", &[], "");
    let (_, out, _) = run(
        &[
            "tables",
            "--json",
            "--tables",
            crate::optimal::baked_dir().to_str().unwrap(),
        ],
        None,
    );
    assert_eq!((status, steady(&text)), (200, steady(&out)));
}

/// The events of an event stream: (name, data).
fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter(|e| !e.trim().is_empty())
        .map(|event| {
            let field = |name: &str| {
                event
                    .lines()
                    .find_map(|l| l.strip_prefix(name))
                    .unwrap_or_else(|| panic!("no {name} in {event:?}"))
                    .to_string()
            };
            (
                field("event: "),
                serde_json::from_str(&field("data: ")).unwrap(),
            )
        })
        .collect()
}

#[test]
fn optimal_streams_its_progress_then_its_record() {
    let server = Server::start(&[]);
    let state = "F2 U' B L2 D R' F U2 L' B2 D' R2 F";
    let (status, head, text) = server.request(
        "POST",
        "/api/optimal",
        &[],
        &json!({"state": state}).to_string(),
    );
    assert_eq!(status, 200, "{text}");
    assert!(head.contains("text/event-stream"), "{head}");
    let events = events(&text);
    let progress: Vec<&Value> = events
        .iter()
        .filter(|(name, _)| name == "progress")
        .map(|(_, data)| data)
        .collect();
    assert!(!progress.is_empty(), "{text}");
    for p in &progress {
        assert!(p["depth"].as_u64().unwrap() <= 13, "{p}");
        assert!(p["nodes_per_second"].as_f64().is_some(), "{p}");
    }
    let (name, result) = events.last().unwrap();
    assert_eq!(name, "result");
    let (_, out, _) = run(&["optimal", state, "--json", "--threads", "1"], None);
    assert_eq!(steady(&result.to_string()), steady(&out));
    assert_eq!(result["length"], 13);
}

/// Whether `solution` solves the state the moves `scramble` make.
fn solves(scramble: &str, solution: &str) -> bool {
    let moves = |text: &str| text.parse::<Alg>().unwrap().expand().moves;
    Cube::SOLVED
        .apply_moves(&moves(scramble))
        .apply_moves(&moves(solution))
        .is_solved()
}

/// The server's resident memory in KiB (Linux: `VmRSS` of /proc/PID/status).
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// 200 solves at once, three times over: every answer correct, and the server's memory flat
/// after the first round (its tables and pools made): what the later rounds add stays under
/// 32 MiB, where a leak of a request's buffers would add hundreds.
#[test]
fn two_hundred_concurrent_solves_are_all_answered_correctly() {
    let server = Server::start(&[]);
    let (_, out, _) = run(&["scramble", "--seed", "200", "--count", "200"], None);
    let scrambles: Vec<&str> = out.lines().collect();
    assert_eq!(scrambles.len(), 200);
    let methods = ["two-phase", "cfop", "beginner"];
    let mut resident = Vec::new();
    for _round in 0..3 {
        std::thread::scope(|scope| {
            let answers: Vec<_> = scrambles
                .iter()
                .enumerate()
                .map(|(i, scramble)| {
                    let server = &server;
                    scope.spawn(move || {
                        let method = methods[i % methods.len()];
                        let body = json!({"state": scramble, "method": method});
                        (scramble, method, server.post("solve", &body))
                    })
                })
                .collect();
            for answer in answers {
                let (scramble, method, (status, text)) = answer.join().unwrap();
                assert_eq!(status, 200, "{method} {scramble}: {text}");
                let record: Value = serde_json::from_str(text.trim()).unwrap();
                assert_eq!(record["method"], method);
                let solution = record["solution"].as_str().unwrap();
                assert!(solves(scramble, solution), "{scramble}: {solution}");
            }
        });
        resident.push(resident_kib(server.pid()));
    }
    assert!(
        resident[2] < resident[0] + 32 * 1024,
        "resident memory after each round of 200 solves, KiB: {resident:?}"
    );
}

/// A state whose optimal search runs for seconds on the 6edge tier (the superflip).
const LONG: &str = "R L U2 F U' D F2 R2 B2 L U2 F' B' U R2 D F2 U R2 U";

/// Reads from a streamed answer until its text holds `what`; returns what was read.
fn read_until(stream: &mut TcpStream, what: &str) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut text = String::new();
    let mut buffer = [0; 4096];
    while !text.contains(what) {
        let n = stream.read(&mut buffer).unwrap();
        assert!(n > 0, "the answer ended without {what:?}: {text}");
        text.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    text
}

#[test]
fn optimal_searches_beyond_one_per_core_get_503_and_a_cancelled_one_frees_its_slot() {
    let server = Server::start(&["--max-search", "30s"]);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let body = json!({"state": LONG}).to_string();
    let mut running: Vec<TcpStream> = (0..cores)
        .map(|_| {
            let mut stream = server.send("POST", "/api/optimal", &[], &body);
            read_until(&mut stream, "event: tick");
            stream
        })
        .collect();
    // 20 more at once: every one refused while the slots are taken, with a retry hint.
    std::thread::scope(|scope| {
        let refused: Vec<_> = (0..20)
            .map(|_| scope.spawn(|| server.request("POST", "/api/optimal", &[], &body)))
            .collect();
        for answer in refused {
            let (status, head, text) = answer.join().unwrap();
            assert_eq!(status, 503, "{text}");
            assert!(head.contains("retry-after: 5"), "{head}");
            assert!(text.contains("\"busy\""), "{text}");
        }
    });
    // A quick request is still answered meanwhile.
    let (status, _) = server.post("check", &json!({"state": "R"}));
    assert_eq!(status, 200);
    // Closing one search's connection cancels it: its slot is free again within a second or so.
    drop(running.pop());
    let start = Instant::now();
    loop {
        let mut stream = server.send("POST", "/api/optimal", &[], &body);
        let mut first = [0; 12];
        stream.read_exact(&mut first).unwrap();
        if &first == b"HTTP/1.1 200" {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the cancelled search still holds its slot"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn sigterm_stops_the_server_and_its_searches() {
    let mut server = Server::start(&[]);
    let mut stream = server.send(
        "POST",
        "/api/optimal",
        &[],
        &json!({"state": LONG}).to_string(),
    );
    read_until(&mut stream, "event: tick");
    // A two-phase search with a long budget and a search answered as JSON alone, running too.
    let budget = server.send(
        "POST",
        "/api/solve",
        &[],
        &json!({"state": LONG, "time_budget": "50s"}).to_string(),
    );
    let json_alone = server.send(
        "POST",
        "/api/optimal",
        &[("Accept", "application/json")],
        &json!({"state": LONG}).to_string(),
    );
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    let status = std::process::Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let code = server.child.wait().unwrap().code();
    assert_eq!(code, Some(0), "a server stopped by a signal exits with 0");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "stopped in {:?}",
        start.elapsed()
    );
    // Each answered with what it had: its best solution, or that it was stopped before it had
    // one.
    for mut stream in [budget, json_alone] {
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(
            answer.contains("\"type\":\"solution\"") || answer.contains("\"kind\":\"interrupted\""),
            "{answer}"
        );
    }
    // The search was cancelled and said so: its best solution, not proven optimal, or that it
    // was stopped before it had one.
    let text = read_until(&mut stream, "event: result");
    let result = text.split("event: result").nth(1).unwrap();
    assert!(
        result.contains("\"optimal\":false") || result.contains("\"kind\":\"interrupted\""),
        "{result}"
    );
    // A result cut short by the server's stopping says so, so that the page does not blame the
    // time limit.
    if result.contains("\"optimal\":false") {
        let before = text.split("event: result").next().unwrap();
        assert!(before.contains("event: stopping"), "{text}");
    }
}

// Issue 54: the attacks that crashed, froze or misled the server, each rerun.

/// Sends `head` (a request's line and headers, without the blank line) and `body` as they are,
/// and reads the answer's status line, or `None` when the server closed without one.
fn raw_status(server: &Server, head: &str, body: &str) -> Option<u16> {
    let mut stream = TcpStream::connect(&server.host).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let _ = stream.write_all(format!("{head}\r\n\r\n{body}").as_bytes());
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    answer.split(' ').nth(1).and_then(|s| s.parse().ok())
}

/// Whether the server process still runs.
fn alive(server: &mut Server) -> bool {
    server.child.try_wait().unwrap().is_none()
}

#[test]
fn a_huge_content_length_is_refused_and_the_server_answers_the_next() {
    let mut server = Server::start(&[]);
    let huge = format!(
        "POST /api/check HTTP/1.1\r\nHost: {}\r\nContent-Length: 1000000000000",
        server.host
    );
    assert_eq!(raw_status(&server, &huge, "{}"), Some(413));
    // Refused for its Host before its body is read: the same body left unread.
    let foreign = "POST /api/check HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 1000000000000";
    assert_eq!(raw_status(&server, foreign, "{}"), Some(403));
    // A body that grows past the bound without a Content-Length (chunked) is cut off too.
    let chunked = format!(
        "POST /api/check HTTP/1.1\r\nHost: {}\r\nTransfer-Encoding: chunked",
        server.host
    );
    let chunk = format!("{:x}\r\n{}\r\n", 40_000, "R".repeat(40_000));
    assert_eq!(raw_status(&server, &chunked, &chunk.repeat(3)), Some(413));
    assert!(alive(&mut server), "the server died");
    let (status, text) = server.post("check", &json!({"state": "R"}));
    assert_eq!(status, 200, "{text}");
}

#[test]
fn idle_clients_do_not_hold_the_server() {
    let server = Server::start(&[]);
    // Twenty connections that never finish their request: half send a head whose body never
    // comes, half send nothing at all.
    let idle: Vec<TcpStream> = (0..20)
        .map(|i| {
            let mut stream = TcpStream::connect(&server.host).unwrap();
            if i % 2 == 0 {
                let head = format!(
                    "POST /api/solve HTTP/1.1\r\nHost: {}\r\nContent-Length: 100\r\n\r\n{{",
                    server.host
                );
                stream.write_all(head.as_bytes()).unwrap();
            }
            stream
        })
        .collect();
    let start = Instant::now();
    let (status, text) = server.post("solve", &json!({"state": SCRAMBLE}));
    assert_eq!(status, 200, "{text}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "a solve beside 20 idle clients took {:?}",
        start.elapsed()
    );
    // And the server lets them go after its timeouts (the half with a head gets a 408).
    for (i, mut stream) in idle.into_iter().enumerate() {
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut answer = Vec::new();
        stream
            .read_to_end(&mut answer)
            .unwrap_or_else(|e| panic!("idle client {i} was never dropped: {e}"));
        let answer = String::from_utf8_lossy(&answer);
        if i % 2 == 0 {
            assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        }
    }
}

/// The HTM optimum of this state is 7 (issue 54's report: an earlier `qtm` request made the
/// server answer 8, labelled optimal).
const SEVEN: &str = "U2 F2 D2 R2 D2 U2 L'";

#[test]
fn one_request_s_options_never_change_another_s_answer() {
    let server = Server::start(&[]);
    // Answered or refused (no quarter-turn table in the tests' directory): either way, the next
    // request is answered by its own options.
    let (status, text) = server.post("optimal", &json!({"state": SEVEN, "metric": "qtm"}));
    assert!(status == 200 || status == 400, "{status} {text}");
    for _ in 0..2 {
        let (status, text) = server.post("optimal", &json!({"state": SEVEN, "metric": "htm"}));
        assert_eq!(status, 200, "{text}");
        let record: Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(record["metric"], "htm", "{text}");
        assert_eq!(record["length"], 7, "{text}");
        assert_eq!(record["optimal"], true, "{text}");
        // One process answers every request: its CPU clock is no one search's.
        assert_eq!(record["cpu_seconds"], Value::Null, "{text}");
    }
    // A tier that is not baked is refused for that request only, with the CLI's message.
    let (status, text) = server.post("optimal", &json!({"state": "R U", "tier": "nx-eo2ep2"}));
    assert_eq!(status, 503, "{text}");
    assert!(text.contains("\"tables\""), "{text}");
    assert!(
        text.contains("cube-cli tables bake --tier nx-eo2ep2"),
        "{text}"
    );
    let (status, text) = server.post("optimal", &json!({"state": "R U", "tier": "6edge"}));
    assert_eq!(status, 200, "{text}");
    let record: Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(
        (record["length"].as_u64(), record["tier"].as_str()),
        (Some(2), Some("6edge"))
    );
}

/// The README's FMC scramble.
const FMC_SCRAMBLE: &str = "R' U' F D2 L2 F R2 U2 R2 B D2 L2 F' R' F2 U2 F' L' U R' U' F";

#[test]
fn an_fmc_search_ends_at_the_deadline_within_bounded_memory() {
    let server = Server::start(&["--max-search", "3s"]);
    let pid = server.pid();
    let done = std::sync::atomic::AtomicBool::new(false);
    let (elapsed, (status, text), peak) = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let mut peak = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(resident_kib(pid));
                std::thread::sleep(Duration::from_millis(50));
            }
            peak
        });
        let start = Instant::now();
        let answer = server.post(
            "fmc/solve",
            &json!({"step": "eofb", "state": FMC_SCRAMBLE, "min": 11, "max": 11}),
        );
        let elapsed = start.elapsed();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        (elapsed, answer, watcher.join().unwrap())
    });
    assert_eq!(status, 200, "{text}");
    let record: Value = serde_json::from_str(text.trim()).unwrap();
    for solution in record["solutions"].as_array().unwrap() {
        assert_eq!(solution["length"], 11, "{text}");
    }
    assert!(
        elapsed < Duration::from_secs(6),
        "a 3 s deadline answered after {elapsed:?}"
    );
    assert!(peak < 500 * 1024, "the server grew to {peak} KiB");
}

/// The first constructed insertion case of each kind in `kinds`
/// (`benches/positions/insertions.txt`, made by cube-solvers' `insert_cases` example): the
/// scramble, the skeleton and the known solution (the skeleton with its splices).
pub(crate) fn insertion_cases(kinds: &[&str]) -> Vec<(String, String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../benches/positions/insertions.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    kinds
        .iter()
        .map(|kind| {
            let line = text
                .lines()
                .find(|line| line.split('\t').next() == Some(kind))
                .unwrap_or_else(|| panic!("no {kind} case"));
            let fields: Vec<&str> = line.split('\t').collect();
            (
                fields[1].to_string(),
                fields[2].to_string(),
                fields[4].to_string(),
            )
        })
        .collect()
}

#[test]
fn fmc_insertions_solve_the_scramble_and_say_where_each_goes() {
    let server = Server::start(&[]);
    for (scramble, skeleton, known) in insertion_cases(&["3c", "3e", "3c3e", "2t"]) {
        let (status, text) = server.post(
            "fmc/insert",
            &json!({"scramble": scramble, "skeleton": skeleton, "optimal": true}),
        );
        assert_eq!(status, 200, "{text}");
        let record: Value = serde_json::from_str(text.trim()).unwrap();
        let solution = record["solution"].as_str().unwrap();
        assert!(solves(&scramble, solution), "{solution} of {scramble}");
        let length = record["length"].as_u64().unwrap() as usize;
        assert_eq!(length, solution.split_whitespace().count(), "{text}");
        assert!(
            length <= known.split_whitespace().count(),
            "{length} moves, longer than the known {known}"
        );
        assert_eq!(record["optimal"], true, "{text}");
        // Replaying the insertions, each where it says, makes the solution.
        let mut sequence: Vec<cube_core::Move> = record["skeleton"]
            .as_str()
            .unwrap()
            .parse::<Alg>()
            .unwrap()
            .moves();
        for insertion in record["insertions"].as_array().unwrap() {
            let into: Vec<cube_core::Move> = insertion["sequence"]
                .as_str()
                .unwrap()
                .parse::<Alg>()
                .unwrap()
                .moves();
            assert_eq!(cube_core::simplify(&into), sequence, "{text}");
            let at = insertion["position"].as_u64().unwrap() as usize;
            let algorithm = insertion["algorithm"]
                .as_str()
                .unwrap()
                .parse::<Alg>()
                .unwrap()
                .moves();
            let next = cube_core::simplify(&[&into[..at], &algorithm, &into[at..]].concat());
            assert_eq!(
                into.len() + algorithm.len() - next.len(),
                insertion["cancelled"].as_u64().unwrap() as usize,
                "{text}"
            );
            sequence = next;
        }
        assert_eq!(Alg::from_moves(&sequence).to_string(), solution, "{text}");
    }
}

#[test]
fn a_bad_skeleton_gets_400_saying_what_is_wrong() {
    let server = Server::start(&[]);
    let scramble = "R U R' U'";
    for (route, body, status, words) in [
        (
            "fmc/insert",
            json!({"scramble": scramble, "skeleton": "R U Q"}),
            400,
            "SKELETON: ",
        ),
        (
            "fmc/cycles",
            json!({"scramble": scramble, "skeleton": "R (U"}),
            400,
            "SKELETON: ",
        ),
        (
            "fmc/insert",
            json!({"scramble": scramble, "skeleton": "U R U' R'"}),
            422,
            "the skeleton already solves the scramble",
        ),
        (
            "fmc/insert",
            json!({"scramble": scramble, "skeleton": "", "algs": "algs.txt"}),
            400,
            "algs: not taken over the API",
        ),
        (
            "fmc/improve",
            json!({"solution": "R U", "max_length": 11}),
            400,
            "11",
        ),
    ] {
        let (got, text) = server.post(route, &body);
        assert_eq!(got, status, "{route} {body}: {text}");
        let record: Value = serde_json::from_str(text.trim()).unwrap();
        let message = record["error"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{route} {body}: {message}");
    }
}

#[test]
fn a_long_insertion_search_is_cut_at_the_deadline() {
    let server = Server::start(&["--max-search", "2s"]);
    // Three 3-cycles: the optimal search over the generated set takes about 20 s.
    let (scramble, skeleton, _) = insertion_cases(&["three"]).remove(0);
    let (scramble, skeleton) = (scramble.as_str(), skeleton.as_str());
    let start = Instant::now();
    let (status, text) = server.post(
        "fmc/insert",
        &json!({"scramble": scramble, "skeleton": skeleton, "optimal": true}),
    );
    let elapsed = start.elapsed();
    assert_eq!(status, 200, "{text}");
    let record: Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(record["complete"], false, "{text}");
    assert_eq!(record["optimal"], false, "{text}");
    // The greedy answer came first: the best found is a solution.
    assert!(
        solves(scramble, record["solution"].as_str().unwrap()),
        "{text}"
    );
    assert!(
        elapsed < Duration::from_secs(5),
        "a 2 s deadline answered after {elapsed:?}"
    );
}

#[test]
fn a_disconnected_search_frees_its_slot_within_a_second() {
    let server = Server::start(&["--max-search", "60s"]);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let body = json!({"state": LONG}).to_string();
    let json = [("Accept", "application/json")];
    // Every slot taken by a search whose client waits for the record alone.
    let mut running: Vec<TcpStream> = (0..cores)
        .map(|_| server.send("POST", "/api/optimal", &json, &body))
        .collect();
    let taken = |server: &Server| {
        let mut stream = server.send("POST", "/api/optimal", &[], &body);
        let mut first = [0; 12];
        stream.read_exact(&mut first).unwrap();
        &first != b"HTTP/1.1 200"
    };
    std::thread::sleep(Duration::from_millis(500));
    assert!(taken(&server), "the slots are not taken");
    drop(running.pop());
    // A new search waits for a slot (up to 10 s): it starts as soon as the slot is free.
    let start = Instant::now();
    assert!(
        !taken(&server),
        "the disconnected search still holds its slot"
    );
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "the slot was freed after {:?}",
        start.elapsed()
    );
}

#[test]
fn a_state_is_text_never_a_file() {
    let server = Server::start(&[]);
    let dir = tempfile::tempdir().unwrap();
    let existing = dir.path().join("state.txt");
    std::fs::write(&existing, "R U R' U'\n").unwrap();
    let missing = dir.path().join("other.txt");
    for route in ["check", "solve", "show"] {
        let answers: Vec<(u16, String)> = [&existing, &missing]
            .iter()
            .map(|path| {
                let text = path.to_str().unwrap().replace("state.txt", "other.txt");
                // The same text names the existing file in the first request only.
                let text = if path == &&existing {
                    path.to_str().unwrap().to_string()
                } else {
                    text
                };
                let (status, answer) = server.post(route, &json!({ "state": text }));
                (status, answer.replace("state.txt", "other.txt"))
            })
            .collect();
        assert_eq!(answers[0], answers[1], "{route}");
        assert_eq!(answers[0].0, 400, "{route}: {}", answers[0].1);
    }
}

#[test]
fn every_option_at_its_edges_gets_a_record_never_a_500() {
    let server = Server::start(&["--max-search", "2s"]);
    let options: [(&str, &[&str]); 5] = [
        (
            "solve",
            &[
                "method",
                "max_length",
                "time_budget",
                "to",
                "explain",
                "from",
                "tier",
                "metric",
                "all",
                "max_solutions",
                "threads",
                "timeout",
            ],
        ),
        (
            "optimal",
            &[
                "tier",
                "metric",
                "all",
                "max_solutions",
                "threads",
                "timeout",
            ],
        ),
        ("scramble", &["event", "type", "count", "seed", "format"]),
        ("convert", &["to", "from"]),
        (
            "fmc/solve",
            &[
                "niss",
                "solutions",
                "min",
                "max",
                "optimal",
                "above_optimal",
                "count",
                "threads",
            ],
        ),
    ];
    let edges = [
        json!(0),
        json!(-1),
        json!(""),
        json!("x"),
        json!(1e300),
        json!(18446744073709551616u128.to_string()),
        json!(true),
    ];
    for (route, keys) in options {
        for key in keys {
            for edge in &edges {
                let mut body = match route {
                    "scramble" => json!({"seed": 1}),
                    "fmc/solve" => json!({"step": "eofb", "state": "R U F"}),
                    _ => json!({"state": "R U F"}),
                };
                body[*key] = edge.clone();
                let (status, text) = server.post(route, &body);
                assert!(
                    status == 200 || (400..500).contains(&status),
                    "{route} {body}: {status} {text}"
                );
                let record: Value = serde_json::from_str(text.lines().next().unwrap_or(""))
                    .unwrap_or_else(|e| panic!("{route} {body}: not a record: {text:?}: {e}"));
                assert_eq!(
                    record["type"] == "error",
                    status != 200,
                    "{route} {body}: {text}"
                );
            }
        }
    }
}

/// 500 requests at once, of every kind: each answer is the right one.
#[test]
fn five_hundred_concurrent_mixed_requests_are_all_answered_correctly() {
    let server = Server::start(&[]);
    let (_, out, _) = run(&["scramble", "--seed", "500", "--count", "100"], None);
    let scrambles: Vec<&str> = out.lines().collect();
    let short = ["R U", "F2 D'", "R U F", "L' B2", "U R2 F'"];
    std::thread::scope(|scope| {
        let answers: Vec<_> = (0..500)
            .map(|i| {
                let server = &server;
                let scramble = scrambles[i % scrambles.len()];
                scope.spawn(move || {
                    let (route, body) = match i % 7 {
                        0 => ("solve", json!({"state": scramble})),
                        1 => ("solve", json!({"state": scramble, "method": "cfop"})),
                        2 => ("check", json!({"state": scramble})),
                        3 => ("verify", json!({"state": scramble, "solution": "R"})),
                        4 => ("optimal", json!({"state": short[i % short.len()]})),
                        5 => ("fmc/count", json!({"sequence": scramble})),
                        _ => ("convert", json!({"state": scramble, "to": "facelets"})),
                    };
                    (route, body.clone(), scramble, server.post(route, &body))
                })
            })
            .collect();
        for answer in answers {
            let (route, body, scramble, (status, text)) = answer.join().unwrap();
            assert_eq!(status, 200, "{route} {body}: {text}");
            let record: Value = serde_json::from_str(text.trim()).unwrap();
            match route {
                "solve" => {
                    let solution = record["solution"].as_str().unwrap();
                    assert!(solves(scramble, solution), "{body}: {text}");
                }
                "check" => assert_eq!(record["legal"], true, "{text}"),
                "verify" => assert_eq!(record["solves"], false, "{text}"),
                "optimal" => {
                    let state = body["state"].as_str().unwrap();
                    let solution = record["solution"].as_str().unwrap();
                    assert!(solves(state, solution), "{body}: {text}");
                    let moves = state.split_whitespace().count();
                    assert_eq!(record["length"], moves, "{body}: {text}");
                    assert_eq!(record["optimal"], true, "{text}");
                }
                "fmc/count" => {
                    assert_eq!(record["htm"], scramble.split_whitespace().count(), "{text}")
                }
                _ => {
                    let facelets = record["output"].as_str().unwrap();
                    let (_, expected, _) = run(&["convert", scramble, "--to", "facelets"], None);
                    assert_eq!(facelets, expected.trim(), "{text}");
                }
            }
        }
    });
}
