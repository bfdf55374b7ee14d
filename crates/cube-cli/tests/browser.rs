//! Issues 37 and 55: the web app in a real browser (headless Chromium, Debian's `chromium`, which
//! `.ci/run` installs, driven by `browser/cdp.rs`), used as a cuber would, with keys, drags and
//! clicks. After every action of random sequences (turns by key and by drag, algorithms with
//! rotations and wide turns, every scramble event, loads, paints, solves by each method played
//! back, optimal searches, cancels, scrambles during a search) the cube shown (`data-facelets`,
//! and the stickers drawn) is the state the API computes from the same inputs, and "(solved)"
//! appears exactly when that state is solved. Optimal answers the solved cube and short states
//! with their optimal length, and says so while a first search bakes its tables. An FMC attempt
//! with NISS goes from EO to the finish and its write-up's solution solves the scramble (by
//! `cube-cli verify`). The timer's statistics are csTimer's, computed here. Screenshots go to the
//! target directory, and to `docs/` with `UPDATE_SCREENSHOTS=1` (the README's pictures).
//!
//! Without Chromium the tests fail saying how to install it; `CUBE_CLI_NO_BROWSER=1` skips them
//! knowingly (and says so), for machines that cannot have a browser.

mod cdp;

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::run;
use crate::serve::Server;
use cdp::{Browser, chromium};

const SOLVED: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
const COLOUR_NAMES: [(char, &str); 6] = [
    ('U', "white"),
    ('R', "red"),
    ('F', "green"),
    ('D', "yellow"),
    ('L', "orange"),
    ('B', "blue"),
];

/// No request in flight, no turn being drawn, no playback running.
const SETTLED: &str = "document.documentElement.dataset.requests === '0' \
    && !document.getElementById('cube').hasAttribute('data-turning') \
    && !document.getElementById('cube').hasAttribute('data-playing')";

/// The page of `server` in a browser at `width` x `height`, or `None` when the tests are skipped.
fn open(server: &Server, width: u32, height: u32) -> Option<Browser> {
    let program = chromium()?;
    let port = server.host.split(':').nth(1).unwrap();
    Some(Browser::open(
        &program,
        &format!("http://localhost:{port}/"),
        width,
        height,
    ))
}

/// The record the API answers to `route` with `body` (which must be a 200).
fn api(server: &Server, route: &str, body: Value) -> Value {
    let (status, text) = server.post(route, &body);
    assert_eq!(status, 200, "{route} {body}: {text}");
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

fn is_solved(facelets: &str) -> bool {
    facelets
        .as_bytes()
        .chunks(9)
        .all(|face| face.iter().all(|&c| c == face[4]))
}

fn settle(browser: &mut Browser) {
    browser.wait_for(SETTLED);
}

fn shown(browser: &mut Browser) -> String {
    browser
        .eval("document.getElementById('cube').dataset.facelets")
        .as_str()
        .unwrap()
        .to_string()
}

/// The moves of the playback, as listed.
fn listed_moves(browser: &mut Browser) -> Vec<String> {
    let moves =
        browser.eval("[...document.querySelectorAll('#moves span')].map(s => s.textContent)");
    moves
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// What the test knows of the cube shown, in the server's terms.
#[derive(Clone, Debug)]
enum Known {
    /// Moves from solved, a text the server reads.
    Moves(String),
    /// Stickers, and whether they are a cube.
    Stickers(String, bool),
}

impl Known {
    fn facelets(&self, server: &Server) -> String {
        match self {
            Known::Moves(moves) if moves.trim().is_empty() => SOLVED.to_string(),
            Known::Moves(moves) => api(server, "show", json!({ "state": moves }))["facelets"]
                .as_str()
                .unwrap()
                .to_string(),
            Known::Stickers(facelets, _) => facelets.clone(),
        }
    }

    /// The same state as moves from solved (a legal one), to add moves to.
    fn moves(&self, server: &Server) -> String {
        match self {
            Known::Moves(moves) => moves.clone(),
            Known::Stickers(facelets, _) => {
                api(server, "convert", json!({"state": facelets, "to": "alg"}))["output"]
                    .as_str()
                    .unwrap()
                    .to_string()
            }
        }
    }

    fn then(&self, server: &Server, moves: &str) -> Known {
        Known::Moves(format!("{} {moves}", self.moves(server)).trim().to_string())
    }

    fn legal(&self) -> bool {
        !matches!(self, Known::Stickers(_, false))
    }
}

/// The cube shown is the state known: `data-facelets`, every sticker drawn, and "(solved)" (or
/// "Solved" with no playback) exactly when it is solved; no error leaks a flag of the command
/// line, no exception was thrown.
fn check(browser: &mut Browser, server: &Server, known: &Known, log: &[String]) {
    settle(browser);
    let expected = known.facelets(server);
    let page = browser.eval(
        "(() => { const text = (id) => document.getElementById(id).textContent; return { \
           facelets: document.getElementById('cube').dataset.facelets, \
           drawn: [...document.querySelectorAll('#cube .sticker')].sort((a, b) => a.dataset.index - b.dataset.index).map(s => s.title).join(' '), \
           stage: text('stage'), messages: [text('error'), text('message'), text('optimal-status')] }; })()",
    );
    assert_eq!(
        page["facelets"],
        json!(expected),
        "data-facelets after {log:#?}"
    );
    let names: Vec<&str> = expected
        .chars()
        .map(|c| COLOUR_NAMES.iter().find(|(l, _)| *l == c).unwrap().1)
        .collect();
    assert_eq!(
        page["drawn"],
        json!(names.join(" ")),
        "stickers drawn after {log:#?}"
    );
    let stage = page["stage"].as_str().unwrap();
    let says_solved = stage.contains("(solved)") || stage == "Solved";
    assert_eq!(
        says_solved,
        is_solved(&expected),
        "{stage:?} for {expected} after {log:#?}"
    );
    for text in page["messages"].as_array().unwrap() {
        let text = text.as_str().unwrap();
        assert!(
            !text.contains(" --") && !text.contains("Failed to fetch"),
            "{text:?} after {log:#?}"
        );
    }
    assert!(browser.exceptions.is_empty(), "{:?}", browser.exceptions);
}

/// A drag across a sticker toward its neighbour on the same face, and the move it makes, as a
/// cuber's thumb makes it (the default view shows U, F and R): on F, along a row to the right is
/// U' E D by row, up a column L' M' R by column; on R (columns going back), toward the back is
/// U' E D, up is F' S' B; on U (rows coming forward), to the right is B' S F by row, toward the
/// back is L' M' R by column. The opposite drags are the inverses.
fn drags() -> Vec<(usize, usize, String)> {
    let inverse = |m: &str| {
        m.strip_suffix('\'')
            .map_or_else(|| format!("{m}'"), str::to_string)
    };
    // (face offset, the moves along a row (toward column 2) by row, the moves up a column (toward
    // row 0) by column).
    let faces: [(usize, [&str; 3], [&str; 3]); 3] = [
        (18, ["U'", "E", "D"], ["L'", "M'", "R"]),
        (9, ["U'", "E", "D"], ["F'", "S'", "B"]),
        (0, ["B'", "S", "F"], ["L'", "M'", "R"]),
    ];
    let mut drags = Vec::new();
    for (offset, rows, columns) in faces {
        for (r, along) in rows.iter().enumerate() {
            for (c, up) in columns.iter().enumerate() {
                let at = offset + 3 * r + c;
                if c < 2 {
                    drags.push((at, at + 1, along.to_string()));
                }
                if c > 0 {
                    drags.push((at, at - 1, inverse(along)));
                }
                if r > 0 {
                    drags.push((at, at - 3, up.to_string()));
                }
                if r < 2 {
                    drags.push((at, at + 3, inverse(up)));
                }
            }
        }
    }
    drags
}

/// The screen centre of the 3D sticker `index`.
fn sticker_centre(browser: &mut Browser, index: usize) -> (f64, f64) {
    let at = browser.eval(&format!(
        "(() => {{ const r = document.querySelector('#cube .sticker[data-index=\"{index}\"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
    ));
    (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())
}

const ALGORITHMS: [&str; 14] = [
    "x R U",
    "R U R' U'",
    "[R, U]",
    "[x: R U R']",
    "(R U)2 y'",
    "Rw U Rw'",
    "r U R' U' r' F R F'",
    "M2 U M2 U2 M2 U M2",
    "z2 L' U2 x'",
    "S E' M",
    "Fw2 Dw' Lw",
    "y2 u' b2",
    "R2 D' // a comment",
    "[F: [R, U]] z",
];

/// A random plain sequence of `n` face turns (no two in a row on one face).
fn random_turns(rng: &mut ChaCha8Rng, n: usize) -> String {
    let mut moves: Vec<String> = Vec::new();
    let mut last = ' ';
    while moves.len() < n {
        let face = "URFDLB".chars().nth(rng.random_range(0..6)).unwrap();
        if face == last {
            continue;
        }
        last = face;
        moves.push(format!("{face}{}", ["", "'", "2"][rng.random_range(0..3)]));
    }
    moves.join(" ")
}

/// Starts a playback (a solution or an algorithm) and checks positions of it, then plays it to
/// the end: returns its moves.
fn play_through(
    browser: &mut Browser,
    server: &Server,
    before: &Known,
    rng: &mut ChaCha8Rng,
    log: &mut Vec<String>,
) -> Vec<String> {
    settle(browser);
    let moves = listed_moves(browser);
    let base = before.moves(server);
    for _ in 0..2 {
        if moves.is_empty() {
            break;
        }
        let at = rng.random_range(0..=moves.len());
        match rng.random_range(0..3) {
            0 => browser.set_value("scrubber", &at.to_string()),
            1 if at > 0 => browser.click(&format!("#moves span[data-at=\"{at}\"]")),
            _ => {
                browser.click("#to-start");
                for _ in 0..at.min(3) {
                    browser.key("/", false);
                }
                browser.key(",", false);
            }
        }
        settle(browser);
        let played = browser
            .eval("Number(document.getElementById('scrubber').value)")
            .as_u64()
            .unwrap() as usize;
        log.push(format!("  at {played} of {}", moves.len()));
        let known = Known::Moves(format!("{base} {}", moves[..played].join(" ")));
        check(browser, server, &known, log);
    }
    browser.click("#to-end");
    moves
}

/// Plays a method's solution of `before` through ([`play_through`]): the cube shown is then what
/// the API computes and is solved, and says "(solved)". Returns what the cube now is.
fn solved_by_playback(
    browser: &mut Browser,
    server: &Server,
    before: &Known,
    rng: &mut ChaCha8Rng,
    log: &mut Vec<String>,
) -> Known {
    let moves = play_through(browser, server, before, rng, log);
    let after = before.then(server, &moves.join(" "));
    check(browser, server, &after, log);
    let stage = browser.text("stage");
    assert!(
        stage.ends_with("(solved)"),
        "{stage:?} {:?} after {log:#?}",
        browser.text("error")
    );
    after
}

/// One random action, checked: returns what the cube now is.
fn act(
    browser: &mut Browser,
    server: &Server,
    known: Known,
    rng: &mut ChaCha8Rng,
    log: &mut Vec<String>,
) -> Known {
    let legal = known.legal();
    let choice = rng.random_range(0..100);
    let known = match choice {
        // A turn by key: a face, a slice or a rotation, Shift for the inverse, W first for wide.
        0..=17 if legal => {
            let letter = "URFDLBMESXYZ".chars().nth(rng.random_range(0..12)).unwrap();
            let shift = rng.random_bool(0.4);
            let wide = "URFDLB".contains(letter) && rng.random_bool(0.3);
            if wide {
                browser.key("w", false);
            }
            let key = if shift {
                letter.to_string()
            } else {
                letter.to_ascii_lowercase().to_string()
            };
            browser.key(&key, shift);
            let name = if "XYZ".contains(letter) {
                letter.to_ascii_lowercase()
            } else {
                letter
            };
            let token = format!(
                "{name}{}{}",
                if wide { "w" } else { "" },
                if shift { "'" } else { "" }
            );
            log.push(format!("key {key:?} (shift {shift}, wide {wide}): {token}"));
            known.then(server, &token)
        }
        // A turn by dragging a sticker.
        18..=33 if legal => {
            let all = drags();
            let (from, to, token) = all[rng.random_range(0..all.len())].clone();
            settle(browser);
            let a = sticker_centre(browser, from);
            let b = sticker_centre(browser, to);
            browser.drag(a, (a.0 + (b.0 - a.0) * 0.9, a.1 + (b.1 - a.1) * 0.9));
            log.push(format!("drag sticker {from} toward {to}: {token}"));
            known.then(server, &token)
        }
        // An algorithm in the box, played to its end.
        34..=45 if legal => {
            let text = if rng.random_bool(0.6) {
                ALGORITHMS[rng.random_range(0..ALGORITHMS.len())].to_string()
            } else {
                let n = rng.random_range(1..7);
                random_turns(rng, n)
            };
            browser.set_value("alg", &text);
            browser.click("#alg-form button");
            settle(browser);
            browser.click("#to-end");
            log.push(format!("algorithm {text:?}"));
            // What a comment says is not moves.
            known.then(server, text.split("//").next().unwrap())
        }
        // A scramble of each event.
        46..=55 => {
            let event = ["333", "333fm", "333bf"][rng.random_range(0..3)];
            browser.set_value("event", event);
            browser.click("#scramble");
            settle(browser);
            let scramble = browser.text("scramble-text");
            log.push(format!("scramble {event}: {scramble}"));
            Known::Moves(scramble)
        }
        // A state loaded: moves, stickers in other letters, or stickers that are not a cube.
        56..=63 => {
            let n = rng.random_range(1..12);
            let moves = random_turns(rng, n);
            let (text, known) = match rng.random_range(0..3) {
                0 => (moves.clone(), Known::Moves(moves)),
                1 => {
                    let facelets = Known::Moves(format!("{moves} y")).facelets(server);
                    let lettered: String = facelets
                        .chars()
                        .map(|c| "WRGYOB".chars().nth("URFDLB".find(c).unwrap()).unwrap())
                        .collect();
                    // Letters other than U R F D L B are named by their centres.
                    let read = api(server, "show", json!({ "state": lettered }))["facelets"]
                        .as_str()
                        .unwrap()
                        .to_string();
                    (lettered, Known::Stickers(read, true))
                }
                _ => {
                    let mut facelets: Vec<char> =
                        Known::Moves(moves).facelets(server).chars().collect();
                    facelets.swap(0, 9);
                    let facelets: String = facelets.into_iter().collect();
                    let legal =
                        api(server, "check", json!({"state": facelets}))["legal"] == json!(true);
                    (facelets.clone(), Known::Stickers(facelets, legal))
                }
            };
            browser.set_value("state", &text);
            browser.click("#state-form button");
            log.push(format!("load {text:?}"));
            known
        }
        // A sticker painted, on the net or on the cube, centres too.
        64..=71 => {
            settle(browser);
            let mut facelets: Vec<char> = known.facelets(server).chars().collect();
            let index = rng.random_range(0..54);
            let colour = "URFDLB".chars().nth(rng.random_range(0..6)).unwrap();
            browser.click("#paint");
            browser.click(&format!("#palette [data-colour=\"{colour}\"]"));
            let on_cube =
                [0, 9, 18].iter().any(|&f| (f..f + 9).contains(&index)) && rng.random_bool(0.5);
            if on_cube {
                let at = sticker_centre(browser, index);
                browser.drag(at, at);
            } else {
                browser.click(&format!("#net .cell[data-index=\"{index}\"]"));
            }
            browser.click("#paint");
            facelets[index] = colour;
            let facelets: String = facelets.into_iter().collect();
            settle(browser);
            let legal = api(server, "check", json!({"state": facelets}))["legal"] == json!(true);
            log.push(format!(
                "paint {index} {colour} (on the cube {on_cube}): legal {legal}"
            ));
            Known::Stickers(facelets, legal)
        }
        // A solve by each method, played back from the state it was for.
        72..=81 if legal => {
            let method =
                ["cfop", "beginner", "two-phase", "thistlethwaite"][rng.random_range(0..4)];
            browser.set_value("method", method);
            browser.click("#solve");
            log.push(format!("solve {method}"));
            solved_by_playback(browser, server, &known, rng, log)
        }
        // Turns queued and Solve pressed while they are drawn: the solution is for the state
        // with them.
        82..=85 if legal => {
            browser.set_value("speed", "420");
            let keys: Vec<char> = (0..3)
                .map(|_| "urfdlb".chars().nth(rng.random_range(0..6)).unwrap())
                .collect();
            for key in &keys {
                browser.key(&key.to_string(), false);
            }
            browser.click("#solve");
            settle(browser);
            browser.set_value("speed", "0");
            let turned = known.then(
                server,
                &keys
                    .iter()
                    .map(|k| k.to_ascii_uppercase().to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            log.push(format!("keys {keys:?} then solve while they turn"));
            solved_by_playback(browser, server, &turned, rng, log)
        }
        // Optimal on a short state, played back.
        86..=90 => {
            let n = rng.random_range(1..8);
            let moves = random_turns(rng, n);
            browser.set_value("state", &moves);
            browser.click("#state-form button");
            settle(browser);
            browser.click("#optimal");
            browser.wait_until("!document.getElementById('optimal').disabled", 60);
            log.push(format!(
                "optimal of {moves}: {}",
                browser.text("optimal-status")
            ));
            assert!(
                browser.text("optimal-status").contains("optimal:"),
                "{log:#?}"
            );
            let before = Known::Moves(moves);
            let played = play_through(browser, server, &before, rng, log);
            assert!(played.len() <= n, "{log:#?}");
            let after = before.then(server, &played.join(" "));
            check(browser, server, &after, log);
            after
        }
        // Optimal on a scramble, then Cancel, or a new scramble while it searches.
        91..=99 => {
            browser.set_value("event", "333");
            browser.click("#scramble");
            settle(browser);
            browser.click("#optimal");
            std::thread::sleep(Duration::from_millis(100));
            let known = if rng.random_bool(0.5) {
                browser.click("#cancel");
                settle(browser);
                assert_eq!(browser.text("optimal-status"), "Cancelled.");
                log.push("optimal of a scramble, cancelled".to_string());
                Known::Moves(browser.text("scramble-text"))
            } else {
                browser.click("#scramble");
                settle(browser);
                assert!(
                    browser.text("optimal-status").contains("stopped"),
                    "{log:#?}"
                );
                log.push("optimal of a scramble, then a new scramble".to_string());
                Known::Moves(browser.text("scramble-text"))
            };
            // Nothing of the search comes later.
            std::thread::sleep(Duration::from_millis(200));
            assert!(listed_moves(browser).is_empty(), "{log:#?}");
            known
        }
        // Back to solved (from stickers that are not a cube, the way on).
        _ => {
            browser.click("#reset");
            log.push("reset".to_string());
            Known::Moves(String::new())
        }
    };
    check(browser, server, &known, log);
    known
}

// See: issue 55 (the page showed states and answers that were not true).
#[test]
fn random_actions_keep_the_cube_shown_true() {
    let server = Server::start(&[]);
    let Some(mut browser) = open(&server, 1280, 800) else {
        return;
    };
    let seed: u64 = std::env::var("BROWSER_SEED").map_or(55, |s| s.parse().unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    browser.set_value("speed", "0");
    for sequence in 0..50 {
        browser.click("#reset");
        let mut known = Known::Moves(String::new());
        let mut log = vec![format!("seed {seed}, sequence {sequence}")];
        for _ in 0..5 {
            known = act(&mut browser, &server, known, &mut rng, &mut log);
        }
    }
}

/// The optimal length of `state` by the API (the record alone, `Accept: application/json`).
fn optimal_length(server: &Server, state: &str) -> u64 {
    api(server, "optimal", json!({ "state": state }))["length"]
        .as_u64()
        .unwrap()
}

// See: issue 55 (Optimal failed on the solved cube and short states, answered as plain JSON).
#[test]
fn optimal_answers_the_solved_cube_and_short_states() {
    let server = Server::start(&[]);
    let Some(mut browser) = open(&server, 1280, 800) else {
        return;
    };
    browser.set_value("speed", "0");
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut states = vec![String::new()];
    states.extend((0..20).map(|i| random_turns(&mut rng, 1 + i % 9)));
    for (i, state) in states.iter().enumerate() {
        // The tables by default (the default baked), or chosen.
        browser.set_value("tier", if i % 2 == 0 { "" } else { "6edge" });
        if state.is_empty() {
            browser.click("#reset");
        } else {
            browser.set_value("state", state);
            browser.click("#state-form button");
        }
        settle(&mut browser);
        browser.click("#optimal");
        browser.wait_until("!document.getElementById('optimal').disabled", 60);
        settle(&mut browser);
        let n = optimal_length(&server, if state.is_empty() { SOLVED } else { state });
        let status = browser.text("optimal-status");
        assert!(
            status.starts_with(&format!(
                "{n} moves, optimal: at least {n} moves proven, {n} found"
            )),
            "{state:?}: {status:?}, expected {n} moves"
        );
        assert!(status.contains("tables 6edge"), "{status}");
        assert!(status.contains("time limit 60 s"), "{status}");
        assert_eq!(listed_moves(&mut browser).len() as u64, n, "{state:?}");
        browser.click("#to-end");
        settle(&mut browser);
        assert!(is_solved(&shown(&mut browser)), "{state:?}");
        assert!(browser.text("stage").ends_with("(solved)"), "{state:?}");
        assert_eq!(browser.text("error"), "", "{state:?}");
    }
    assert!(browser.exceptions.is_empty(), "{:?}", browser.exceptions);

    // A first search over a table directory with nothing baked says that it bakes, how far.
    let fresh = tempfile::tempdir().unwrap();
    let server = Server::start_in(fresh.path(), &[]);
    let port = server.host.split(':').nth(1).unwrap();
    browser.navigate(&format!("http://localhost:{port}/"));
    browser.set_value("state", "R U");
    browser.click("#state-form button");
    settle(&mut browser);
    browser.click("#optimal");
    browser.wait_for("document.getElementById('optimal-status').textContent.startsWith('First use: baking the 6edge tables (once)')");
    browser.wait_until("!document.getElementById('optimal').disabled", 120);
    let status = browser.text("optimal-status");
    assert!(status.starts_with("2 moves, optimal"), "{status}");
}

/// The FMC scramble of the workspace's test (a WCA one: R' U' F first and last).
const FMC_SCRAMBLE: &str =
    "R' U' F L D R' D' F' U2 B2 R2 L' F' L F2 L2 B2 D' B2 U B2 R2 D' R' U' F";

// See: issue 55 (the FMC assistant was not on the page).
#[test]
fn an_fmc_attempt_goes_from_eo_to_the_finish_with_niss() {
    let server = Server::start(&[]);
    let Some(mut browser) = open(&server, 1280, 800) else {
        return;
    };
    browser.click("nav [data-panel=\"fmc-panel\"]");
    // The panel's module loads when it is first opened.
    settle(&mut browser);
    browser.click("#fmc-clock-start");
    browser.set_value("fmc-scramble", FMC_SCRAMBLE);
    browser.click("#fmc-scramble-form button[type=submit]");
    settle(&mut browser);
    let inverse = api(
        &server,
        "fmc/unniss",
        json!({ "sequence": format!("({FMC_SCRAMBLE})") }),
    );
    assert_eq!(
        browser.text("fmc-inverse"),
        inverse["sequence"].as_str().unwrap()
    );
    // Each step's finder on every axis with NISS, its first solution taken.
    for (step, label) in [
        ("eo", "EO"),
        ("dr", "DR"),
        ("htr", "HTR"),
        ("finish", "Finish"),
    ] {
        // Each step taken moves the finder on to the next.
        assert_eq!(
            browser.eval("document.getElementById('fmc-step').value"),
            json!(step)
        );
        browser.click("#fmc-find");
        // Every axis searched, one after the other.
        settle(&mut browser);
        assert_eq!(browser.text("fmc-error"), "", "{step}");
        let found = browser.text("fmc-results");
        assert!(found.starts_with(label), "{step}: {found}");
        browser.click("#fmc-results button");
        settle(&mut browser);
    }
    let skeleton = browser
        .eval("[...document.querySelectorAll('#fmc-skeleton li')].map(li => li.textContent)");
    let skeleton: Vec<&str> = skeleton
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(skeleton.len(), 4, "{skeleton:?}");
    assert!(
        skeleton.iter().any(|s| s.contains('(')),
        "a step on the inverse: {skeleton:?}"
    );
    let writeup = browser.eval("document.getElementById('fmc-writeup').value");
    let writeup = writeup.as_str().unwrap();
    assert!(
        writeup.starts_with(&format!("Scramble: {FMC_SCRAMBLE}\n")),
        "{writeup}"
    );
    let solution = writeup
        .lines()
        .find_map(|line| line.strip_prefix("Solution: "))
        .unwrap_or_else(|| panic!("no solution in {writeup}"));
    let (moves, count) = solution.rsplit_once(" (").unwrap();
    let (code, out, err) = run(&["verify", FMC_SCRAMBLE, moves, "--json"], None);
    assert_eq!(code, 0, "{err}");
    let verified: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(verified["solves"], json!(true), "{writeup}");
    assert_eq!(count, format!("{} moves)", verified["length"]), "{writeup}");
    // The hour runs.
    let clock = browser.text("fmc-clock");
    assert!(clock.starts_with("59:") || clock == "60:00", "{clock}");
    browser.screenshot("serve-fmc.png");
    // Played on the cube from the scramble, it solves it.
    browser.set_value("speed", "0");
    browser.click("#fmc-play");
    settle(&mut browser);
    let scrambled = api(&server, "show", json!({ "state": FMC_SCRAMBLE }));
    assert_eq!(json!(shown(&mut browser)), scrambled["facelets"]);
    browser.click("#to-end");
    settle(&mut browser);
    assert!(is_solved(&shown(&mut browser)));
    // Issue 59: a skeleton leaving a corner 3-cycle, finished by insertions and taken whole.
    let (scramble, skeleton, known) = crate::serve::insertion_cases(&["3c"]).remove(0);
    browser.set_value("fmc-scramble", &scramble);
    browser.click("#fmc-scramble-form button[type=submit]");
    settle(&mut browser);
    browser.set_value("fmc-moves", &skeleton);
    browser.click("#fmc-moves-form button");
    settle(&mut browser);
    browser.click("#fmc-insert");
    // The first search makes the algorithm set (about 10 s on a quiet machine).
    browser.wait_until(SETTLED, 120);
    assert_eq!(browser.text("fmc-error"), "");
    let found = browser.text("fmc-insertions");
    assert!(found.contains("leaves 3 corners"), "{found}");
    assert!(found.contains("corner 3 cycle"), "{found}");
    browser.click("#fmc-take-insertions");
    settle(&mut browser);
    let writeup = browser.eval("document.getElementById('fmc-writeup').value");
    let solution = writeup
        .as_str()
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix("Solution: "))
        .unwrap_or_else(|| panic!("no solution in {writeup}"));
    let (moves, _) = solution.rsplit_once(" (").unwrap();
    assert!(
        moves.split_whitespace().count() <= known.split_whitespace().count(),
        "{moves}: longer than {known}"
    );
    let verified = api(
        &server,
        "verify",
        json!({"state": scramble, "solution": moves}),
    );
    assert_eq!(verified["solves"], json!(true), "{solution}");
    assert!(browser.exceptions.is_empty(), "{:?}", browser.exceptions);
}

/// A solve as csTimer keeps it: the penalty (0, 2000 for +2, -1 for DNF) and the time in ms.
type Solve = (i64, u64);

/// The time a solve counts for, `None` for a DNF.
fn counted(&(penalty, ms): &Solve) -> Option<u64> {
    (penalty >= 0).then(|| ms + penalty as u64)
}

/// csTimer's average of a window: the ceil(5 %) best and worst dropped (a DNF is the worst), a
/// DNF if one is kept; mo3 is the plain mean (a DNF if any).
fn window_average(window: &[Solve], trim: usize) -> Option<f64> {
    let mut times: Vec<Option<u64>> = window.iter().map(counted).collect();
    times.sort_by_key(|t| t.unwrap_or(u64::MAX));
    let kept = &times[trim..times.len() - trim];
    let sum: Option<u64> = kept.iter().copied().sum();
    sum.map(|s| s as f64 / kept.len() as f64)
}

/// A time as the page shows it: hundredths, cut for a single, rounded for an average.
fn shown_time(ms: Option<f64>, single: bool) -> String {
    let Some(ms) = ms else {
        return "DNF".to_string();
    };
    let hundredths = if single {
        (ms / 10.0).floor()
    } else {
        (ms / 10.0).round()
    } as u64;
    let (minutes, rest) = (hundredths / 6000, hundredths % 6000);
    let seconds = format!("{}.{:02}", rest / 100, rest % 100);
    if minutes > 0 {
        format!("{minutes}:{seconds:0>5}")
    } else {
        seconds
    }
}

/// The statistics table as the page should show it: (name, current, best) per row, and the mean.
fn expected_statistics(solves: &[Solve]) -> (Vec<[String; 3]>, String) {
    let mut rows = Vec::new();
    for (name, n) in [
        ("single", 1),
        ("mo3", 3),
        ("ao5", 5),
        ("ao12", 12),
        ("ao100", 100),
    ] {
        if solves.len() < n {
            rows.push([name.to_string(), "-".to_string(), "-".to_string()]);
            continue;
        }
        let of = |window: &[Solve]| {
            if n == 1 {
                counted(&window[0]).map(|t| t as f64)
            } else if n == 3 {
                window_average(window, 0)
            } else {
                window_average(window, n.div_ceil(20))
            }
        };
        let current = of(&solves[solves.len() - n..]);
        let best = solves
            .windows(n)
            .map(of)
            .min_by(|a, b| {
                a.unwrap_or(f64::INFINITY)
                    .total_cmp(&b.unwrap_or(f64::INFINITY))
            })
            .unwrap();
        rows.push([
            name.to_string(),
            shown_time(current, n == 1),
            shown_time(best, n == 1),
        ]);
    }
    let finished: Vec<u64> = solves.iter().filter_map(counted).collect();
    let mean =
        (!finished.is_empty()).then(|| finished.iter().sum::<u64>() as f64 / finished.len() as f64);
    let mean = format!(
        "mean {} ({}/{} solves finished)",
        mean.map_or("-".to_string(), |m| shown_time(Some(m), false)),
        finished.len(),
        solves.len()
    );
    (rows, mean)
}

fn shown_statistics(browser: &mut Browser) -> (Vec<[String; 3]>, String) {
    let rows = browser.eval("[...document.querySelectorAll('#stats tbody tr')].map(tr => [...tr.children].map(c => c.textContent))");
    let rows = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let cells: Vec<String> = row
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            [cells[0].clone(), cells[1].clone(), cells[2].clone()]
        })
        .collect();
    (rows, browser.text("mean"))
}

// See: issue 55 (the timer lacked what csTimer users take for granted).
#[test]
fn the_timer_keeps_cstimer_statistics_sessions_and_files() {
    let server = Server::start(&[]);
    let Some(mut browser) = open(&server, 1280, 800) else {
        return;
    };
    browser.click("nav [data-panel=\"timer-panel\"]");
    // The panel's module loads when it is first opened.
    settle(&mut browser);
    // 104 solves with +2s and DNFs, imported from a csTimer export.
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut solves: Vec<Solve> = (0..104)
        .map(|_| {
            let penalty = match rng.random_range(0..100) {
                0..6 => -1,
                6..14 => 2000,
                _ => 0,
            };
            (penalty, rng.random_range(7000..70000))
        })
        .collect();
    let export = json!({
        "session1": solves.iter().map(|&(p, ms)| json!([[p, ms], "R U R' U'", "", 1_700_000_000])).collect::<Vec<_>>(),
        "properties": {"sessionData": json!({"1": {"name": "club night", "opt": {}, "rank": 1}}).to_string()},
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cstimer.txt");
    std::fs::write(&file, export.to_string()).unwrap();
    browser.set_file("#import", &file);
    browser.wait_for("document.getElementById('timer-message').textContent.startsWith('Imported')");
    assert_eq!(
        browser.text("timer-message"),
        "Imported club night (104 solves)."
    );
    assert_eq!(shown_statistics(&mut browser), expected_statistics(&solves));
    // +2 and DNF on an earlier solve, one deleted: the statistics follow.
    browser.click("#solves li[data-index=\"100\"] button:nth-of-type(2)");
    solves[100].0 = -1;
    browser.click("#solves li[data-index=\"97\"] button:nth-of-type(1)");
    solves[97].0 = if solves[97].0 == 2000 { 0 } else { 2000 };
    browser.click("#solves li[data-index=\"3\"] button:nth-of-type(3)");
    solves.remove(3);
    assert_eq!(shown_statistics(&mut browser), expected_statistics(&solves));

    // Hold Space 0.3 s until green, release, any key stops: one more solve.
    browser.click("#inspection");
    browser.eval("document.getElementById('timer').focus()");
    browser.key_event("keyDown", " ", false);
    std::thread::sleep(Duration::from_millis(150));
    assert_eq!(
        browser.eval("document.getElementById('timer').className"),
        json!("holding")
    );
    std::thread::sleep(Duration::from_millis(250));
    assert_eq!(
        browser.eval("document.getElementById('timer').className"),
        json!("ready")
    );
    browser.key_event("keyUp", " ", false);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        browser.eval("document.getElementById('timer').className"),
        json!("running")
    );
    browser.key("a", false);
    assert_eq!(
        browser.eval("document.querySelectorAll('#solves li').length"),
        json!(104)
    );
    let last = browser.eval(
        "JSON.parse(localStorage.getItem('cube-cli-timer')).sessions.at(-1).solves.at(-1).ms",
    );
    let ms = last.as_u64().unwrap();
    assert!((250..3000).contains(&ms), "{ms}");
    solves.push((0, ms));
    assert_eq!(shown_statistics(&mut browser), expected_statistics(&solves));
    // A release before 0.3 s starts nothing; with inspection, Esc cancels it.
    browser.key_event("keyDown", " ", false);
    browser.key_event("keyUp", " ", false);
    assert_eq!(
        browser.eval("document.getElementById('timer').className"),
        json!("")
    );
    browser.click("#inspection");
    browser.key(" ", false);
    assert_eq!(
        browser.eval("document.getElementById('timer').className"),
        json!("inspecting")
    );
    browser.key("Escape", false);
    assert_eq!(browser.text("timer"), "0.00");
    assert_eq!(
        browser.eval("document.querySelectorAll('#solves li').length"),
        json!(104)
    );
    browser.screenshot("serve-timer.png");

    // Exported for csTimer and imported back: a session with the same statistics.
    let downloads = browser.allow_downloads();
    browser.click("#export-cstimer");
    let exported = downloads.join("cstimer.txt");
    let start = std::time::Instant::now();
    while !exported.is_file() {
        assert!(start.elapsed() < Duration::from_secs(10), "no download");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    browser.set_file("#import", &exported);
    browser.wait_for(
        "document.getElementById('timer-message').textContent.startsWith('Imported Session 1')",
    );
    assert_eq!(shown_statistics(&mut browser), expected_statistics(&solves));
    // And as CSV.
    browser.click("#export-csv");
    let csv = downloads.join("club night.csv");
    let start = std::time::Instant::now();
    while !csv.is_file() {
        assert!(start.elapsed() < Duration::from_secs(10), "no download");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    browser.set_file("#import", &csv);
    browser.wait_for("document.getElementById('timer-message').textContent.startsWith('Imported club night (104')");
    assert_eq!(shown_statistics(&mut browser), expected_statistics(&solves));
    assert!(browser.exceptions.is_empty(), "{:?}", browser.exceptions);
}

// See: issue 55 (stale and contradictory messages; the server stopping showed "Failed to fetch").
#[test]
fn messages_are_current_and_a_stopped_server_is_said_without_losing_anything() {
    let tables = crate::optimal::baked_dir();
    let server = Server::start(&[]);
    let Some(mut browser) = open(&server, 1280, 800) else {
        return;
    };
    // An error in the page's words, gone with the next action.
    browser.set_value("alg", "R Q");
    browser.click("#alg-form button");
    settle(&mut browser);
    let error = browser.text("error");
    assert!(error.starts_with("not an algorithm: column 3"), "{error}");
    assert!(!error.contains("--"), "{error}");
    browser.click("#reset");
    assert_eq!(browser.text("error"), "");
    // Stickers that are not a cube load, to be fixed; what cannot be drawn is refused, and the
    // problems shown stay those of the cube shown.
    let painted = format!("R{}", &SOLVED[1..]);
    browser.set_value("state", &painted);
    browser.click("#state-form button");
    settle(&mut browser);
    assert_eq!(shown(&mut browser), painted);
    assert!(
        browser
            .text("problems")
            .contains("colour 'R' appears 10 times")
    );
    browser.set_value(
        "state",
        "UF2 UF0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR3 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0",
    );
    browser.click("#state-form button");
    settle(&mut browser);
    assert!(
        browser
            .text("error")
            .starts_with("This state cannot be shown"),
        "{}",
        browser.text("error")
    );
    assert_eq!(shown(&mut browser), painted);
    assert!(
        browser
            .text("problems")
            .contains("colour 'R' appears 10 times")
    );
    browser.click("#paint");
    browser.eval("document.getElementById('net').scrollIntoView({block: 'center'})");
    browser.screenshot("serve-editor.png");
    browser.eval("window.scrollTo(0, 0)");
    browser.click("#palette [data-colour=\"U\"]");
    browser.click("#net .cell[data-index=\"0\"]");
    settle(&mut browser);
    assert_eq!(browser.text("error"), "");
    assert_eq!(
        browser.text("problems"),
        "The cube shown is legal: it can be solved."
    );
    browser.click("#paint");
    browser.key("r", false);
    settle(&mut browser);
    let turned = shown(&mut browser);

    // The server stops: the page says so once, with how to start it again, and keeps the cube.
    let port = server.host.split(':').nth(1).unwrap().to_string();
    drop(server);
    browser.click("#scramble");
    browser.wait_for("!document.getElementById('server').hidden");
    let banner = browser.text("server");
    assert!(
        banner.contains(&format!("cube-cli serve --port {port}")),
        "{banner}"
    );
    assert!(banner.contains("kept"), "{banner}");
    settle(&mut browser);
    assert_eq!(
        browser.text("error"),
        "Not done: the server is not answering (see above)."
    );
    assert_eq!(shown(&mut browser), turned);
    let page = browser
        .eval("document.body.textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(!page.contains("Failed to fetch"), "{page}");
    // Started again on its port, it is found again.
    let mut again = std::process::Command::new(assert_cmd::cargo::cargo_bin("cube-cli"))
        .args(["serve", "--port", &port, "--tables"])
        .arg(tables)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    browser.wait_for("document.getElementById('server').hidden");
    browser.click("#scramble");
    settle(&mut browser);
    assert_eq!(browser.text("error"), "");
    assert_ne!(shown(&mut browser), turned);
    let _ = again.kill();
    let _ = again.wait();
    assert!(browser.exceptions.is_empty(), "{:?}", browser.exceptions);
}

// The README's pictures: the cube turning mid-playback at a desktop's and a phone's width.
#[test]
fn screenshots_at_desktop_and_phone_widths() {
    let server = Server::start(&[]);
    let Some(mut browser) = open(&server, 1280, 800) else {
        return;
    };
    for (width, height, name) in [
        (1280, 800, "serve-solve.png"),
        (390, 844, "serve-phone.png"),
    ] {
        browser.viewport(width, height);
        browser.set_value("speed", "0");
        browser.set_value(
            "state",
            "D2 B2 U' L2 U2 B2 U' R2 D' B2 R2 F' D L' B' R' D' B U' F L'",
        );
        browser.click("#state-form button");
        settle(&mut browser);
        browser.set_value("method", "cfop");
        browser.click("#solve");
        settle(&mut browser);
        browser.set_value("scrubber", "9");
        settle(&mut browser);
        assert!(
            browser.text("stage").contains("9 of"),
            "{}",
            browser.text("stage")
        );
        // A turn paused half way: solid cubies.
        browser.set_value("speed", "420");
        browser.click("#step-forward");
        browser.eval("document.getAnimations().forEach(a => { a.pause(); a.currentTime = 160; })");
        browser.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))");
        browser.screenshot(name);
        browser.eval("document.getAnimations().forEach(a => a.finish())");
        settle(&mut browser);
    }
    assert!(browser.exceptions.is_empty(), "{:?}", browser.exceptions);
}

// See: issue 55 (no shareable link): twizzle.net's names, `setup` and `alg`.
#[test]
fn a_link_reopens_the_state_and_the_algorithm() {
    let server = Server::start(&[]);
    let Some(mut browser) = open(&server, 1280, 800) else {
        return;
    };
    let port = server.host.split(':').nth(1).unwrap().to_string();
    browser.set_value("speed", "0");
    // The state made (a bf scramble ends in wide turns) and a solution to play: the address
    // holds both, and opening it shows the same cube with the same moves ready.
    browser.set_value("state", "R U F Rw' x");
    browser.click("#state-form button");
    settle(&mut browser);
    browser.set_value("method", "two-phase");
    browser.click("#solve");
    settle(&mut browser);
    let state = shown(&mut browser);
    let moves = listed_moves(&mut browser);
    let link = browser.eval("location.href").as_str().unwrap().to_string();
    assert!(link.contains("?setup=R+U+F+Rw%27+x&alg="), "{link}");
    browser.navigate(&link);
    settle(&mut browser);
    assert_eq!(shown(&mut browser), state);
    assert_eq!(listed_moves(&mut browser), moves);
    browser.click("#to-end");
    settle(&mut browser);
    assert!(is_solved(&shown(&mut browser)));
    // alg.cubing.net's spelling (`_` for a space, `-` for a prime) reads too, and stickers that
    // came from painting are linked as stickers.
    browser.navigate(&format!("http://localhost:{port}/?setup=R_U-&alg=U_R-"));
    settle(&mut browser);
    assert_eq!(
        json!(shown(&mut browser)),
        api(&server, "show", json!({"state": "R U'"}))["facelets"]
    );
    assert_eq!(listed_moves(&mut browser), ["U", "R'"]);
    browser.click("#paint");
    browser.click("#palette [data-colour=\"R\"]");
    browser.click("#net .cell[data-index=\"4\"]");
    settle(&mut browser);
    let painted = shown(&mut browser);
    assert_eq!(painted.chars().nth(4), Some('R'));
    let link = browser.eval("location.href").as_str().unwrap().to_string();
    assert!(link.ends_with(&format!("?setup={painted}")), "{link}");
    assert!(browser.exceptions.is_empty(), "{:?}", browser.exceptions);
}
