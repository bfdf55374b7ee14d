//! `cube-cli serve`: the toolkit as a local web app. One process serves the page (HTML, CSS and
//! JavaScript built into the binary from `assets/`) and the JSON API of [`api`], whose answers
//! are the records `--json` prints, made by running the same commands; the tables are loaded once
//! and shared by every request (the process-wide caches of `method_tables.rs` and
//! `cmd/optimal.rs`).
//!
//! The server is tiny_http's: a thread reads each connection and queues its requests, and a fixed
//! pool of workers answers them (a search runs on a worker, so the searches' threads and the
//! workers bound what runs at once; requests beyond wait in the queue). It is a local service:
//! it listens on loopback unless `--bind` says otherwise (with a warning), and refuses a request
//! whose `Host` is not this server's by address or `localhost` (DNS rebinding: a page of another
//! site whose name is made to resolve to 127.0.0.1) or whose `Origin` is another site's (no
//! cross-site requests, and no CORS headers, so browsers show nothing of the answers to other
//! pages). A signal (Ctrl-C, SIGTERM) stops it: the searches are cancelled, the requests being
//! answered finish, and it exits with 0, the normal end of a server.

mod api;

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, Server};

use crate::args::{Global, ServeArgs};
use crate::output::{self, CliError};
use crate::{method_tables, signals};

/// The files of the page: (path, content type, bytes).
const ASSETS: [(&str, &str, &str); 8] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "/cube.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/cube.js"),
    ),
    (
        "/timer.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/timer.js"),
    ),
    (
        "/model.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/model.js"),
    ),
    (
        "/api.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/api.js"),
    ),
    (
        "/fmc.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/fmc.js"),
    ),
];

/// The page may load only its own files and talk only to this server.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The largest request body read (a state and options are a few hundred bytes).
const MAX_BODY: u64 = 64 << 10;

/// How often an idle worker looks whether a signal asked the server to stop.
const POLL: Duration = Duration::from_millis(200);

/// What every request is answered with: the run's options and the server's limits.
struct App<'a> {
    global: &'a Global,
    /// The address the server listens on (its port chosen when `--port 0`).
    local: SocketAddr,
    /// Searches (optimal) that may start now.
    slots: Slots,
    /// `--max-search`.
    max_search: Duration,
}

pub fn run(global: &Global, args: &ServeArgs) -> Result<u8, CliError> {
    let address = SocketAddr::new(args.bind, args.port);
    let server =
        Server::http(address).map_err(|e| CliError::io(format!("listening on {address}: {e}")))?;
    let local = server
        .server_addr()
        .to_ip()
        .expect("a server started by Server::http listens on TCP");
    if !args.bind.is_loopback() {
        output::note_warning(format_args!(
            "listening on {}: other machines that reach it can use this server (and its CPU); --bind 127.0.0.1 keeps it to this one",
            args.bind
        ));
    }
    // Two-phase serves scrambles, conversions to moves and the optimal solver's first bound:
    // loaded (or built and cached) before the first request rather than during it.
    method_tables::two_phase(global);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let url = format!("http://{}/", host_text(local));
    output::write_line(&format!(
        "cube-cli serve: the web app is at {url} (Ctrl-C stops the server)"
    ))?;
    if args.open {
        open_browser(&url);
    }
    // From now on the first signal raises the stop flag rather than ending the process.
    signals::listen();
    let app = App {
        global,
        local,
        slots: Slots::new(cores),
        max_search: args.max_search,
    };
    // As many workers as searches may run, and more for the quick requests meanwhile.
    let workers = cores + 8;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while !signals::signalled() {
                    match server.recv_timeout(POLL) {
                        Ok(Some(request)) => app.answer(request),
                        Ok(None) => {}
                        // A connection that failed before its request was read: nothing to
                        // answer; a pause keeps a failing listener from spinning.
                        Err(_) => std::thread::sleep(POLL),
                    }
                }
            });
        }
    });
    if signals::signalled() {
        output::note("cube-cli serve: stopped by a signal");
    }
    Ok(0)
}

impl App<'_> {
    /// Answers one request: refused, a file of the page, or the API.
    fn answer(&self, mut request: Request) {
        if let Err(e) = self.check_site(&request) {
            return respond_error(request, 403, &e);
        }
        let url = request.url().to_string();
        let path = url.split(['?', '#']).next().unwrap_or_default();
        let method = request.method().clone();
        if let Some(route) = path.strip_prefix("/api/") {
            let route: Vec<&str> = route.split('/').collect();
            return match (method, route.as_slice()) {
                (Method::Get, ["tables"]) => api::answer(self, request, &["tables"], None),
                (Method::Post, route) if api::routes(route) => match read_body(&mut request) {
                    Ok(body) => api::answer(self, request, route, Some(&body)),
                    Err((status, e)) => respond_error(request, status, &e),
                },
                (method, _) => respond_error(
                    request,
                    404,
                    &CliError::refused(format!(
                        "no API route {method} {path} (docs/api.md lists them: POST /api/solve, ..., GET /api/tables)"
                    )),
                ),
            };
        }
        match (method, ASSETS.iter().find(|(p, _, _)| *p == path)) {
            (Method::Get | Method::Head, Some((_, content_type, text))) => {
                let mut response = Response::from_data(text.as_bytes())
                    .with_header(header("Content-Type", content_type))
                    .with_header(header("Content-Security-Policy", CONTENT_SECURITY_POLICY))
                    .with_header(header("X-Frame-Options", "DENY"));
                for (name, value) in COMMON_HEADERS {
                    response.add_header(header(name, value));
                }
                let _ = request.respond(response);
            }
            _ => respond_error(
                request,
                404,
                &CliError::refused(format!("no page {path}: the app is at /")),
            ),
        }
    }

    /// Refuses a request for another site: its `Host` must name this server (`localhost` or its
    /// address, with its port), and its `Origin`, if any, must be this server's page.
    fn check_site(&self, request: &Request) -> Result<(), CliError> {
        let host = header_value(request, "Host").ok_or_else(|| {
            CliError::refused("the request has no Host header (HTTP/1.1 requires one)")
        })?;
        if !self.names_this_server(host) {
            return Err(CliError::refused(format!(
                "Host {host:?} is not this server (it answers to localhost and {}): a name that resolves here without being this server's is how DNS rebinding reaches a local service",
                host_text(self.local)
            )));
        }
        if let Some(origin) = header_value(request, "Origin") {
            let own = origin
                .strip_prefix("http://")
                .is_some_and(|host| self.names_this_server(host));
            if !own {
                return Err(CliError::refused(format!(
                    "Origin {origin:?} is another site: only this server's own page may call its API"
                )));
            }
        }
        Ok(())
    }

    /// Whether `host` (a `Host` header, or the host of an `Origin`) names this server:
    /// `localhost`, or an address it listens on, with its port (80 when none is written).
    fn names_this_server(&self, host: &str) -> bool {
        let (name, port) = match host.rsplit_once(':') {
            Some((name, port)) if !port.contains(']') => (name, port.parse::<u16>().ok()),
            _ => (host, Some(80)),
        };
        if port != Some(self.local.port()) {
            return false;
        }
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        let name = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .unwrap_or(name);
        let Ok(ip) = name.parse::<IpAddr>() else {
            return false;
        };
        let bound = self.local.ip();
        ip == bound
            || (bound.is_loopback() && ip.is_loopback())
            // Listening on every address: any address literal is one of this machine's (a
            // name is not: that is what DNS rebinding forges).
            || bound.is_unspecified()
    }
}

/// How many searches may start; a taken slot is given back when its [`Slot`] drops.
struct Slots {
    free: AtomicUsize,
    total: usize,
}

impl Slots {
    fn new(total: usize) -> Slots {
        Slots {
            free: AtomicUsize::new(total),
            total,
        }
    }

    /// A slot, if one is free.
    fn take(&self) -> Option<Slot<'_>> {
        self.free
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .ok()
            .map(|_| Slot(self))
    }
}

/// A search slot, held while the search runs.
struct Slot<'a>(&'a Slots);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.free.fetch_add(1, Ordering::SeqCst);
    }
}

/// The headers of every answer: nothing cached, no type guessed, no referrer sent.
const COMMON_HEADERS: [(&str, &str); 3] = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
];

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .expect("header names and values are ASCII")
}

fn header_value<'r>(request: &'r Request, name: &str) -> Option<&'r str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}

/// An address as a URL writes it: `127.0.0.1:7733`, `[::1]:7733`.
fn host_text(address: SocketAddr) -> String {
    match address.ip() {
        IpAddr::V4(ip) => format!("{ip}:{}", address.port()),
        IpAddr::V6(ip) => format!("[{ip}]:{}", address.port()),
    }
}

/// The body of a request, at most [`MAX_BODY`] bytes of UTF-8.
fn read_body(request: &mut Request) -> Result<String, (u16, CliError)> {
    use std::io::Read;
    let too_large = || {
        (
            413,
            CliError::refused(format!(
                "the request body is larger than {} KiB",
                MAX_BODY >> 10
            )),
        )
    };
    if request.body_length().is_some_and(|n| n as u64 > MAX_BODY) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut body)
        .map_err(|e| (400, CliError::io(format!("reading the request body: {e}"))))?;
    if body.len() as u64 > MAX_BODY {
        return Err(too_large());
    }
    String::from_utf8(body)
        .map_err(|_| (400, CliError::parse("the request body is not UTF-8 text")))
}

/// Answers `bytes` (JSON) with `status`.
fn respond_json(request: Request, status: u16, bytes: Vec<u8>, extra: &[(&str, &str)]) {
    let mut response = Response::from_data(bytes)
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json"));
    for (name, value) in COMMON_HEADERS.iter().chain(extra) {
        response.add_header(header(name, value));
    }
    let _ = request.respond(response);
}

/// Answers the error record of `e` with `status`.
fn respond_error(request: Request, status: u16, e: &CliError) {
    let mut line = serde_json::to_vec(&e.to_record()).expect("a record serializes");
    line.push(b'\n');
    respond_json(request, status, line, &[]);
}

/// Opens `url` in the default browser, or says why not.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        vec!["open"]
    } else if cfg!(windows) {
        vec!["cmd", "/C", "start", ""]
    } else {
        vec!["xdg-open"]
    };
    let spawned = std::process::Command::new(opener[0])
        .args(&opener[1..])
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        output::note_warning(format_args!(
            "--open: could not start {} ({e}): open {url} yourself",
            opener[0]
        ));
    }
}
