//! A headless Chromium driven over the Chrome DevTools Protocol on its WebSocket, by the few lines
//! of client below (no crate): commands, JavaScript, keys and pointer drags as a user makes them,
//! files for an input, downloads, screenshots. JavaScript exceptions of the page are collected.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A headless Chromium and one WebSocket to its first page.
pub struct Browser {
    child: Child,
    socket: TcpStream,
    next_id: u64,
    /// The page's uncaught JavaScript exceptions, as DevTools reported them.
    pub exceptions: Vec<String>,
    profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    /// Starts Chromium with a window of `width` x `height` and opens `url`.
    pub fn open(program: &Path, url: &str, width: u32, height: u32) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(program)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--window-size={width},{height}"))
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start chromium");
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID"
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let port = stderr
            .lines()
            .map_while(Result::ok)
            .find_map(|line| {
                let rest = line
                    .split("DevTools listening on ws://")
                    .nth(1)?
                    .to_string();
                rest.split('/').next().map(str::to_string)
            })
            .expect("chromium prints its DevTools address");
        let targets: Value = serde_json::from_str(&http_get(&port, "/json/list")).unwrap();
        let page = targets
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .expect("a page target");
        let path = page["webSocketDebuggerUrl"]
            .as_str()
            .unwrap()
            .split(&port)
            .nth(1)
            .unwrap()
            .to_string();
        let mut socket = TcpStream::connect(&port).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(90)))
            .unwrap();
        write!(
            socket,
            "GET {path} HTTP/1.1\r\nHost: {port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            let mut byte = [0];
            socket.read_exact(&mut byte).unwrap();
            head.push(byte[0]);
        }
        assert!(head.starts_with(b"HTTP/1.1 101"), "{head:?}");
        // The stderr pipe is left to fill: Chromium writes little once started.
        let mut browser = Browser {
            child,
            socket,
            next_id: 0,
            exceptions: Vec::new(),
            profile,
        };
        browser.call("Runtime.enable", json!({}));
        browser.call("Page.enable", json!({}));
        browser.viewport(width, height);
        browser.navigate(url);
        browser
    }

    /// Loads `url` and waits for the page to be ready and settled.
    pub fn navigate(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for(
            "document.readyState === 'complete' && document.documentElement.dataset.requests === '0'",
        );
    }

    /// Lays the page out at `width` x `height` CSS pixels (a phone's with a narrow width).
    pub fn viewport(&mut self, width: u32, height: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}),
        );
    }

    /// Sends a DevTools command and returns its result (events in between are kept when they are
    /// exceptions, else skipped).
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"id": id, "method": method, "params": params}).to_string();
        send_frame(&mut self.socket, message.as_bytes());
        loop {
            let reply: Value = serde_json::from_slice(&read_message(&mut self.socket)).unwrap();
            if reply["method"] == "Runtime.exceptionThrown" {
                let details = &reply["params"]["exceptionDetails"];
                self.exceptions.push(format!(
                    "{} {}",
                    details["text"], details["exception"]["description"]
                ));
            }
            if reply["id"] == id {
                assert!(reply.get("error").is_none(), "{method}: {reply}");
                return reply["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression (a promise is awaited).
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "awaitPromise": true, "returnByValue": true}),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// The text of the element `id`.
    pub fn text(&mut self, id: &str) -> String {
        self.eval(&format!("document.getElementById('{id}').textContent"))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Clicks the element that `selector` finds (by script, as a keyboard user's Enter does).
    pub fn click(&mut self, selector: &str) {
        let found = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return false; e.click(); return true; }})()"
        ));
        assert_eq!(found, json!(true), "no element {selector}");
    }

    /// Sets the value of the input or select `id` as a user does (with its events).
    pub fn set_value(&mut self, id: &str, value: &str) {
        self.eval(&format!(
            "(() => {{ const e = document.getElementById('{id}'); e.value = {value:?}; \
             e.dispatchEvent(new Event('input', {{bubbles: true}})); e.dispatchEvent(new Event('change', {{bubbles: true}})); }})()"
        ));
    }

    /// Waits until `expression` is true (at most `seconds`).
    pub fn wait_until(&mut self, expression: &str, seconds: u64) {
        let start = Instant::now();
        while self.eval(expression) != json!(true) {
            assert!(
                start.elapsed() < Duration::from_secs(seconds),
                "still not {expression} after {seconds} s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until `expression` is true (at most 30 s).
    pub fn wait_for(&mut self, expression: &str) {
        self.wait_until(expression, 30);
    }

    /// A key pressed and released, as the keyboard sends it: `key` is a DOM key value (`r`, `R`
    /// with `shift`, ` `, `Escape`).
    pub fn key(&mut self, key: &str, shift: bool) {
        self.key_event("keyDown", key, shift);
        self.key_event("keyUp", key, shift);
    }

    /// One key event (`keyDown` or `keyUp`).
    pub fn key_event(&mut self, kind: &str, key: &str, shift: bool) {
        let (code, key_code, text) = match key {
            " " => ("Space".to_string(), 32, " ".to_string()),
            "Escape" => ("Escape".to_string(), 27, String::new()),
            "End" => ("End".to_string(), 35, String::new()),
            letter if letter.len() == 1 && letter.chars().all(|c| c.is_ascii_alphabetic()) => {
                let upper = letter.to_ascii_uppercase();
                (
                    format!("Key{upper}"),
                    u32::from(upper.as_bytes()[0]),
                    letter.to_string(),
                )
            }
            other => (String::new(), 0, other.to_string()),
        };
        let mut params = json!({
            "type": if kind == "keyDown" && text.is_empty() { "rawKeyDown" } else { kind },
            "key": key,
            "code": code,
            "windowsVirtualKeyCode": key_code,
            "modifiers": if shift { 8 } else { 0 },
        });
        if kind == "keyDown" && !text.is_empty() {
            params["text"] = json!(text);
        }
        self.call("Input.dispatchKeyEvent", params);
    }

    /// A drag with the mouse from `from` to `to` (page pixels), in a few steps.
    pub fn drag(&mut self, from: (f64, f64), to: (f64, f64)) {
        let mouse = |kind: &str, (x, y): (f64, f64), buttons: u32| json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1});
        self.call("Input.dispatchMouseEvent", mouse("mousePressed", from, 1));
        for step in 1..=4 {
            let t = f64::from(step) / 4.0;
            let at = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
            self.call("Input.dispatchMouseEvent", mouse("mouseMoved", at, 1));
        }
        self.call("Input.dispatchMouseEvent", mouse("mouseReleased", to, 0));
    }

    /// Gives the file input `selector` the file `path`, as a user choosing it does.
    pub fn set_file(&mut self, selector: &str, path: &Path) {
        let root = self.call("DOM.getDocument", json!({"depth": 0}));
        let node = self.call(
            "DOM.querySelector",
            json!({"nodeId": root["root"]["nodeId"], "selector": selector}),
        );
        self.call(
            "DOM.setFileInputFiles",
            json!({"nodeId": node["nodeId"], "files": [path.to_str().unwrap()]}),
        );
    }

    /// Lets the page download into a directory of the browser's profile, returned.
    pub fn allow_downloads(&mut self) -> PathBuf {
        let dir = self.profile.path().join("downloads");
        std::fs::create_dir_all(&dir).unwrap();
        self.call(
            "Page.setDownloadBehavior",
            json!({"behavior": "allow", "downloadPath": dir.to_str().unwrap()}),
        );
        dir
    }

    /// A PNG of the page as shown, into the target directory, and into `docs/` with
    /// `UPDATE_SCREENSHOTS=1` (the README's pictures).
    pub fn screenshot(&mut self, name: &str) {
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64_decode(shot["data"].as_str().unwrap());
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), &png).unwrap();
        if std::env::var_os("UPDATE_SCREENSHOTS").is_some() {
            let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
            std::fs::write(docs.join(name), &png).unwrap();
        }
    }
}

/// The body of `GET path` from `host` (DevTools' HTTP server keeps the connection open: the body
/// is read by its length).
fn http_get(host: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    String::from_utf8(body).unwrap()
}

/// Sends one masked text frame (RFC 6455, section 5.2: a client masks what it sends).
fn send_frame(socket: &mut TcpStream, payload: &[u8]) {
    let mask = [0x37, 0x5a, 0x11, 0xc3];
    let mut frame = vec![0x81];
    match payload.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n if n < 1 << 16 => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(0x80 | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    socket.write_all(&frame).unwrap();
}

/// Reads one message (its frames joined; the server does not mask).
fn read_message(socket: &mut TcpStream) -> Vec<u8> {
    let mut message = Vec::new();
    loop {
        let mut head = [0; 2];
        socket.read_exact(&mut head).unwrap();
        let len = match head[1] & 0x7f {
            126 => {
                let mut n = [0; 2];
                socket.read_exact(&mut n).unwrap();
                u16::from_be_bytes(n) as usize
            }
            127 => {
                let mut n = [0; 8];
                socket.read_exact(&mut n).unwrap();
                u64::from_be_bytes(n) as usize
            }
            n => n as usize,
        };
        let mut payload = vec![0; len];
        socket.read_exact(&mut payload).unwrap();
        message.extend_from_slice(&payload);
        if head[0] & 0x80 != 0 {
            return message;
        }
    }
}

/// Standard base64 (RFC 4648), as DevTools sends screenshots.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    digits
        .chunks(4)
        .flat_map(|chunk| {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
            let bytes = n.to_be_bytes();
            bytes[1..chunk.len()].to_vec()
        })
        .collect()
}

/// Chromium, or `None` when `CUBE_CLI_NO_BROWSER` asks to skip; a failure saying how to get it
/// otherwise.
pub fn chromium() -> Option<PathBuf> {
    let skip = std::env::var_os("CUBE_CLI_NO_BROWSER").is_some_and(|v| v != "0");
    let names = ["chromium", "chromium-browser", "google-chrome"];
    let found = std::env::var_os("CHROMIUM").map(PathBuf::from).or_else(|| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .flat_map(|dir| names.map(|name| dir.join(name)))
            .find(|candidate| candidate.is_file())
    });
    match found {
        Some(program) => Some(program),
        None if skip => {
            // To the process's standard error, which the test harness does not capture (it
            // captures `eprintln!`): the skip shows beside the test's "ok" in every run.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: the browser test of `cube-cli serve` did not run (CUBE_CLI_NO_BROWSER is set and no chromium was found)"
            );
            None
        }
        None => panic!(
            "the browser test of `cube-cli serve` needs Chromium: `apt-get install chromium` (Debian), \
             or CHROMIUM=/path/to/chrome; CUBE_CLI_NO_BROWSER=1 skips this test knowingly"
        ),
    }
}
