//! `cube-cli serve`: the toolkit as a local web app. One process serves the page (HTML, CSS and
//! JavaScript built into the binary from `assets/`) and the JSON API of [`api`], whose answers
//! are the records `--json` prints, made by running the same commands; the tables are loaded on
//! first use and shared by every request (the process-wide caches of `method_tables.rs` and
//! `cmd/optimal.rs`, keyed by what they load), and nothing else passes from one request to the
//! next.
//!
//! The HTTP side is hyper's HTTP/1.1 server on a tokio runtime started here (and only here: the
//! other commands start no runtime): a connection costs a task, not a thread, so idle or slow
//! clients hold no worker. Its bounds (docs/api.md, "Bounds"): at most [`MAX_CONNECTIONS`] connections
//! (more wait in the listen queue); the request head within [`HEADER_TIMEOUT`] and the body
//! within [`BODY_TIMEOUT`] (else the connection is dropped, or answered 408); bodies of at most
//! [`MAX_BODY`] bytes, refused by their `Content-Length` before a byte is read and counted while
//! reading otherwise, so nothing is ever allocated for what a header claims. The commands run on
//! tokio's blocking pool, each under a deadline and a stop flag of its own (`api.rs`).
//!
//! It is a local service: it listens on loopback unless `--bind` says otherwise (with a
//! warning), and refuses a request whose `Host` is not this server's by address or `localhost`
//! (DNS rebinding: a page of another site whose name is made to resolve to 127.0.0.1) or whose
//! `Origin` is another site's (no cross-site requests, and no CORS headers, so browsers show
//! nothing of the answers to other pages). A signal (Ctrl-C, SIGTERM) stops it: every search is
//! cancelled, the answers under way end with what was found, and it exits with 0, the normal end
//! of a server, within [`GRACE`].

mod api;

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Body as _, Frame, Incoming};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::sync::{Semaphore, mpsc, watch};

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
const MAX_BODY: usize = 64 << 10;

/// The most connections served at once; more wait in the listen queue.
const MAX_CONNECTIONS: usize = 256;

/// A request's head (its line and headers) must arrive within this, from the connection's start
/// or the end of its previous answer: an idle or slow client is dropped after it.
const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// A request's body must arrive within this after its head (else 408).
const BODY_TIMEOUT: Duration = Duration::from_secs(5);

/// After a signal, how long the answers under way have to end before the process exits anyway.
const GRACE: Duration = Duration::from_millis(1500);

/// How often the server looks whether a signal asked it to stop.
const POLL: Duration = Duration::from_millis(100);

/// A response's body: a whole answer, or the events of a streamed search.
type Body = BoxBody<Bytes, Infallible>;

/// What every request is answered with: the run's options and the server's limits.
struct App {
    global: Global,
    /// The address the server listens on (its port chosen when `--port 0`).
    local: SocketAddr,
    /// One permit per search that may run at once (one per core).
    slots: Arc<Semaphore>,
    /// As many as `slots` has permits.
    total_slots: usize,
    /// `--max-search`: the deadline of every request.
    max_search: Duration,
    /// Turns true when a signal asks the server to stop.
    stopping: watch::Sender<bool>,
}

pub fn run(global: &Global, args: &ServeArgs) -> Result<u8, CliError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores.min(4))
        .thread_name("cube-cli-serve")
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| CliError::io(format!("starting the server's runtime: {e}")))?;
    let address = SocketAddr::new(args.bind, args.port);
    let listener = {
        let _runtime = runtime.enter();
        listen(address).map_err(|e| listen_error(address, &e))?
    };
    let local = listener
        .local_addr()
        .map_err(|e| CliError::io(format!("listening on {address}: {e}")))?;
    if !args.bind.is_loopback() {
        output::note_warning(format_args!(
            "listening on {}: other machines that reach it can use this server (and its CPU); --bind 127.0.0.1 keeps it to this one",
            args.bind
        ));
    }
    crate::cmd::optimal::set_memory_budget(args.table_memory.unwrap_or_else(half_the_memory));
    // Two-phase serves scrambles, conversions to moves and the optimal solver's first bound:
    // loaded (or built and cached) before the first request rather than during it.
    method_tables::two_phase(global);
    let url = format!("http://{}/", host_text(local));
    output::write_line(&format!(
        "cube-cli serve: the web app is at {url} (Ctrl-C stops the server)"
    ))?;
    if args.open {
        open_browser(&url);
    }
    // From now on the first signal raises the stop flag rather than ending the process.
    signals::listen();
    let app = Arc::new(App {
        global: global.clone(),
        local,
        slots: Arc::new(Semaphore::new(cores)),
        total_slots: cores,
        max_search: args.max_search,
        stopping: watch::Sender::new(false),
    });
    runtime.block_on(serve(listener, app));
    // The searches were told to stop; one that has not yet is not waited for.
    runtime.shutdown_timeout(Duration::from_millis(100));
    if signals::signalled() {
        output::note("cube-cli serve: stopped by a signal");
    }
    Ok(0)
}

/// A listener on `address` whose queue holds [`MAX_CONNECTIONS`] clients waiting to be accepted
/// (so that a burst of connections beyond those served waits rather than retries).
fn listen(address: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = match address {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(MAX_CONNECTIONS as u32 * 4)
}

/// The error of a port that cannot be listened on, with what to do about it.
fn listen_error(address: SocketAddr, e: &std::io::Error) -> CliError {
    let hint = match e.kind() {
        std::io::ErrorKind::AddrInUse => format!(
            ": another program (perhaps another cube-cli serve) uses port {}; give another with --port N, or --port 0 for a free one",
            address.port()
        ),
        std::io::ErrorKind::PermissionDenied if address.port() < 1024 => {
            ": ports below 1024 need privileges; give --port 7733 or --port 0 for a free one"
                .to_string()
        }
        std::io::ErrorKind::AddrNotAvailable => {
            format!(": {} is not an address of this machine", address.ip())
        }
        _ => String::new(),
    };
    CliError::io(format!("listening on {address}: {e}{hint}"))
}

/// Half of this machine's memory (8 GiB when it cannot be read): the default of
/// `--table-memory`.
fn half_the_memory() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib << 10)
        });
    total.map_or(8 << 30, |bytes| bytes / 2)
}

/// Accepts connections until a signal, then lets the answers under way end (at most [`GRACE`]).
async fn serve(listener: tokio::net::TcpListener, app: Arc<App>) {
    // The signal handler raises a flag; this turns it into the server's `stopping`.
    let watcher = Arc::clone(&app);
    tokio::spawn(async move {
        while !signals::signalled() {
            tokio::time::sleep(POLL).await;
        }
        watcher.stopping.send_replace(true);
    });
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let graceful = GracefulShutdown::new();
    let mut stopping = app.stopping.subscribe();
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&connections).acquire_owned() => permit.expect("never closed"),
            _ = stopping.wait_for(|&s| s) => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors, a connection reset before it was accepted: a pause
                // keeps a failing listener from spinning.
                Err(_) => {
                    tokio::time::sleep(POLL).await;
                    continue;
                }
            },
            _ = stopping.wait_for(|&s| s) => break,
        };
        let _ = stream.set_nodelay(true);
        let app = Arc::clone(&app);
        let service = service_fn(move |request| {
            let app = Arc::clone(&app);
            async move { Ok::<_, Infallible>(app.answer(request).await) }
        });
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(HEADER_TIMEOUT)
            .max_buf_size(MAX_BODY + (16 << 10))
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that breaks the protocol or goes away ends its connection: nothing to do.
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(GRACE, graceful.shutdown()).await;
}

impl App {
    /// Answers one request: refused, a file of the page, or the API.
    async fn answer(self: Arc<Self>, request: Request<Incoming>) -> Response<Body> {
        if let Err(e) = self.check_site(request.headers()) {
            return error_response(StatusCode::FORBIDDEN, &e);
        }
        let path = request.uri().path().to_string();
        let method = request.method().clone();
        if let Some(route) = path.strip_prefix("/api/") {
            let route: Vec<String> = route.split('/').map(str::to_string).collect();
            let accepts_json = request
                .headers()
                .get(header::ACCEPT)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|accept| accept.contains("application/json"));
            return match (&method, route.as_slice()) {
                (&Method::GET, [tables]) if tables == "tables" => {
                    api::answer(self, vec!["tables".to_string()], None, accepts_json).await
                }
                (&Method::POST, route) if api::routes(route) => match read_body(request).await {
                    Ok(body) => api::answer(self, route.to_vec(), Some(body), accepts_json).await,
                    Err((status, e)) => error_response(status, &e),
                },
                _ => error_response(
                    StatusCode::NOT_FOUND,
                    &CliError::refused(format!(
                        "no API route {method} {path} (docs/api.md lists them: POST /api/solve, ..., GET /api/tables)"
                    )),
                ),
            };
        }
        match (&method, ASSETS.iter().find(|(p, _, _)| *p == path)) {
            (&Method::GET | &Method::HEAD, Some((_, content_type, text))) => {
                let mut response = Response::new(full(text.as_bytes().to_vec()));
                let headers = response.headers_mut();
                headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
                headers.insert(
                    header::CONTENT_SECURITY_POLICY,
                    HeaderValue::from_static(CONTENT_SECURITY_POLICY),
                );
                headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
                common_headers(headers);
                response
            }
            _ => error_response(
                StatusCode::NOT_FOUND,
                &CliError::refused(format!("no page {path}: the app is at /")),
            ),
        }
    }

    /// Refuses a request for another site: its `Host` must name this server (`localhost` or its
    /// address, with its port), and its `Origin`, if any, must be this server's page.
    fn check_site(&self, headers: &HeaderMap) -> Result<(), CliError> {
        let text = |name| {
            headers
                .get(name)
                .map(|v| v.to_str().unwrap_or("(not text)"))
        };
        let host = text(header::HOST).ok_or_else(|| {
            CliError::refused("the request has no Host header (HTTP/1.1 requires one)")
        })?;
        if !self.names_this_server(host) {
            return Err(CliError::refused(format!(
                "Host {host:?} is not this server (it answers to localhost and {}): a name that resolves here without being this server's is how DNS rebinding reaches a local service",
                host_text(self.local)
            )));
        }
        if let Some(origin) = text(header::ORIGIN) {
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

/// The body of a request: at most [`MAX_BODY`] bytes of UTF-8, within [`BODY_TIMEOUT`]. A
/// `Content-Length` beyond the bound is refused before anything is read.
async fn read_body(request: Request<Incoming>) -> Result<String, (StatusCode, CliError)> {
    let too_large = || {
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            CliError::refused(format!(
                "the request body is larger than {} KiB",
                MAX_BODY >> 10
            )),
        )
    };
    let body = request.into_body();
    if body.size_hint().lower() > MAX_BODY as u64 {
        return Err(too_large());
    }
    let read = tokio::time::timeout(BODY_TIMEOUT, Limited::new(body, MAX_BODY).collect()).await;
    let bytes = match read {
        Err(_) => {
            return Err((
                StatusCode::REQUEST_TIMEOUT,
                CliError::refused(format!(
                    "the request body did not arrive within {} s",
                    BODY_TIMEOUT.as_secs()
                )),
            ));
        }
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => return Err(too_large()),
        Ok(Err(e)) => {
            return Err((
                StatusCode::BAD_REQUEST,
                CliError::io(format!("reading the request body: {e}")),
            ));
        }
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    String::from_utf8(bytes.to_vec()).map_err(|_| {
        (
            StatusCode::BAD_REQUEST,
            CliError::parse("the request body is not UTF-8 text"),
        )
    })
}

/// The headers of every answer: nothing cached, no type guessed, no referrer sent.
fn common_headers(headers: &mut HeaderMap) {
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
}

/// A whole body.
fn full(bytes: Vec<u8>) -> Body {
    Full::new(Bytes::from(bytes)).boxed()
}

/// Answers `bytes` (JSON) with `status`.
fn json_response(status: StatusCode, bytes: Vec<u8>) -> Response<Body> {
    let mut response = Response::new(full(bytes));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    common_headers(headers);
    response
}

/// Answers the error record of `e` with `status`. A refusal before the body was read closes the
/// connection, so that the unread body is never read.
fn error_response(status: StatusCode, e: &CliError) -> Response<Body> {
    let mut line = serde_json::to_vec(&e.to_record()).expect("a record serializes");
    line.push(b'\n');
    let mut response = json_response(status, line);
    if status.is_client_error() {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// The body of a streamed answer: the chunks sent on a channel, ended when its sender is
/// dropped. When the client goes away hyper drops the body, and the sender's next send fails.
struct ChannelBody(mpsc::Receiver<Bytes>);

impl hyper::body::Body for ChannelBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0
            .poll_recv(cx)
            .map(|chunk| chunk.map(|bytes| Ok(Frame::data(bytes))))
    }
}

/// An address as a URL writes it: `127.0.0.1:7733`, `[::1]:7733`.
fn host_text(address: SocketAddr) -> String {
    match address.ip() {
        IpAddr::V4(ip) => format!("{ip}:{}", address.port()),
        IpAddr::V6(ip) => format!("[{ip}]:{}", address.port()),
    }
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
