//! Issue 14: every input read as what it is or refused with its reason; no crash, hang or
//! silent merge on any input or output. One test per item of the issue (item 6, a FIFO as a
//! table or checkpoint, is in `optimal.rs`, with the baked tables; `cube-tables`' `faults.rs`
//! tests the open itself).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{cube_cli, run};

const SOLVED_FACELETS: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
const SOLVED_H48: &str =
    "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0";
const SOLVED_REID: &str = "UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR";

/// Runs `cube-cli` with `args` and raw bytes on standard input.
fn run_bytes(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let out = cube_cli()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .expect("run cube-cli");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The built binary as a `std::process::Command`, for pipes and files.
fn binary() -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("cube-cli"));
    cmd.env("NO_COLOR", "1")
        .env("CUBE_TABLES_DIR", crate::shared_tables());
    cmd
}

// See: issue 14, item 1 (a malformed structured state was answered for another cube).
#[test]
fn i14_1_structured_text_is_never_read_as_moves() {
    let h48_tokens: Vec<&str> = SOLVED_H48.split(' ').collect();
    // (A piece twice or an orientation out of range reads as H48, and is an illegal cube:
    // issue 31, item 7, `commands::i31_7_*`.)
    let cases = [
        (h48_tokens[..19].join(" "), "h48"),
        (format!("{SOLVED_H48} UF0"), "h48"),
        (SOLVED_FACELETS[1..].to_string(), "facelets"),
        (format!("{SOLVED_FACELETS}U"), "facelets"),
        (SOLVED_REID.replace("URB", "URX"), "reid"),
        ("ffffffffffffffffffffff".to_string(), "twizzle"),
        ("ABCDEFGH=ABCDEFGHIJKL=Y".to_string(), "b32"),
        ("ABCDEFGHABCDEFGHIJKL=A".to_string(), "b32"),
        ("RURURURURURURU".to_string(), "facelets"),
    ];
    for (text, format) in cases {
        for command in ["solve", "convert", "check"] {
            let mut args = vec![command, &text];
            if command == "convert" {
                args.extend(["--to", "h48"]);
            }
            let (code, out, err) = run(&args, None);
            assert_eq!(code, 1, "{command} {text}: {out}");
            assert!(out.is_empty(), "{command} {text}: {out}");
            assert!(
                err.contains(&format!("read as {format}")) && err.contains("--from"),
                "{command} {text}: {err}"
            );
            assert!(!err.contains("also not"), "{err}");
        }
    }
    // `check` of 53 letters is not "legal".
    let (code, out, err) = run(&["check", &SOLVED_FACELETS[1..]], None);
    assert_eq!(code, 1);
    assert!(!out.contains("legal"), "{out}");
    assert!(err.contains("53 facelets"), "{err}");
    // What people paste reads: facelets by face or one face per line, Reid piece strings.
    let r_u = run(&["convert", "R U", "--to", "facelets"], None).1;
    let faces: Vec<&str> = (0..6).map(|f| &r_u.trim()[f * 9..f * 9 + 9]).collect();
    for text in [faces.join(" "), faces.join("\n")] {
        let (code, out, err) = run(&["convert", &text, "--to", "facelets"], None);
        assert_eq!((code, out.as_str()), (0, r_u.as_str()), "{text}: {err}");
    }
    let (code, reid, _) = run(&["convert", "R U", "--to", "reid"], None);
    assert_eq!(code, 0);
    let (code, out, err) = run(&["convert", reid.trim(), "--to", "facelets"], None);
    assert_eq!((code, out.as_str()), (0, r_u.as_str()), "{err}");
    // `--from` still forces a reading: the move reader's, which since issue 31 refuses
    // juxtaposed moves (this read as 14 face turns before).
    let (code, out, err) = run(
        &["convert", "--from", "alg", "RURURURURURURU", "--to", "h48"],
        None,
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        err.contains("missing a space") && err.contains("as --from asked"),
        "{err}"
    );
}

// See: issue 31, item 1 (structured text outside detection's shapes was read as juxtaposed
// moves: `optimal` "solved" 53 stickers by row). Each is refused with exit code 1 by its own
// format's reader, or, too short to be a state (`UFR1`, `BL0`), by the move reader.
#[test]
fn i31_1_structured_text_is_refused_by_its_reader() {
    let by_row = "UUU UUU UUU RRR RRR RRR FFF FFF FFF DDD DDD DDD LLL LLL LLL BBB BBB BB";
    let (code, out, err) = run(&["optimal", by_row], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("found 53 facelets, expected 54") && err.contains("read as facelets"),
        "{err}"
    );
    let h48_tokens: Vec<&str> = SOLVED_H48.split(' ').collect();
    let reid_tokens: Vec<&str> = SOLVED_REID.split(' ').collect();
    let faces: Vec<&str> = (0..6).map(|f| &SOLVED_FACELETS[9 * f..9 * f + 9]).collect();
    let cases = [
        (
            h48_tokens[..14].join(" "),
            "read as h48",
            "14 pieces, expected 20",
        ),
        (SOLVED_H48.to_lowercase(), "read as h48", ""),
        (reid_tokens[..10].join(" "), "read as reid", ""),
        (
            "9c14df40000".to_string(),
            "read as twizzle",
            "11 hex digits",
        ),
        (
            "d3d275788b2c83a5680000 R U".to_string(),
            "read as twizzle",
            "",
        ),
        ("OCVATEJH=K".to_string(), "read as b32", ""),
        (
            format!("{} {}", faces[..5].join(" "), &faces[5][..5]),
            "read as facelets",
            "found 50 facelets, expected 54",
        ),
        ("UFR1".to_string(), "move sequence", "missing a space"),
        ("BL0".to_string(), "move sequence", "missing a space"),
        (
            "L0".to_string(),
            "move sequence",
            "\"L0\" has an amount that is 0",
        ),
    ];
    for (text, format, message) in cases {
        for command in ["optimal", "solve", "convert"] {
            let mut args = vec![command, &text];
            if command == "convert" {
                args.extend(["--to", "h48"]);
            }
            let (code, out, err) = run(&args, None);
            assert_eq!(code, 1, "{command} {text}: {out}");
            assert!(out.is_empty(), "{command} {text}: {out}");
            assert!(
                err.contains(format) && err.contains(message),
                "{command} {text}: {err}"
            );
        }
    }
    // A face split into a 4- and a 5-sticker token is the same facelets.
    let split = format!(
        "{} {} {}",
        &SOLVED_FACELETS[..4],
        &SOLVED_FACELETS[4..9],
        faces[1..].join(" ")
    );
    let (code, out, err) = run(&["convert", &split, "--to", "h48"], None);
    assert_eq!((code, out.trim()), (0, SOLVED_H48), "{err}");
}

// See: issue 31, item 9 (`(R U R' U')x6` read as the group then x6; SiGN `2R` refused). As
// cubing.js: a move right after a group needs a space ("missing a space?"), and `2R` is its
// 3x3x3's derived move `r R'`, the slice M'.
#[test]
fn i31_9_cubing_js_spacing_and_numbered_layers() {
    let (code, out, err) = run(&["convert", "(R U R' U')x6", "--to", "h48"], None);
    assert_eq!(code, 1, "{out}");
    assert!(
        err.contains("column 12") && err.contains("missing a space before \"x6\""),
        "{err}"
    );
    for (numbered, derived) in [
        ("2R", "r R'"),
        ("2L", "l L'"),
        ("2U", "u U'"),
        ("2D", "d D'"),
        ("2F", "f F'"),
        ("2B", "b B'"),
    ] {
        let (code, out, err) = run(&["convert", numbered, "--to", "kpattern"], None);
        assert_eq!(code, 0, "{numbered}: {err}");
        let (_, expected, _) = run(&["convert", derived, "--to", "kpattern"], None);
        assert_eq!(out, expected, "{numbered}");
    }
    let (code, _, err) = run(&["convert", "R 3R", "--to", "h48"], None);
    assert_eq!(code, 1);
    assert!(err.contains("column 3") && err.contains("\"3R\""), "{err}");
}

// See: issue 14, item 2 (several lines became one state when their concatenation parsed).
#[test]
fn i14_2_standard_input_is_one_state_per_line() {
    let (_, scrambles, _) = run(&["scramble", "--count", "3", "--seed", "5"], None);
    let (code, out, err) = run(&["solve", "-"], Some(&scrambles));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 3, "{out}");
    for (scramble, solution) in scrambles.lines().zip(out.lines()) {
        let moves = solution.split(" (").next().unwrap();
        assert_eq!(run(&["verify", scramble, moves], None).0, 0, "{solution}");
    }
    let (code, out, _) = run(&["convert", "-", "--to", "alg"], Some("R\nU\n"));
    assert_eq!((code, out.as_str()), (0, "R\nU\n"));
    // A B32 line and a line of moves, whose concatenation has the shape of B32, are two states.
    let (code, out, err) = run(
        &["convert", "-", "--to", "b32"],
        Some("ABCDEFGH=ABCDEFGHIJKL=B\nR\n"),
    );
    assert_eq!(
        (code, out.as_str()),
        (0, "ABCDEFGH=ABCDEFGHIJKL=B\nWBCVEILH=ABCDIFGLHJKE=A\n"),
        "{err}"
    );
    // A state on one line and a line of moves are two states, though together they have the
    // shape of one state with a mistake (22 tokens of mostly H48 or Reid pieces, 23 hex digits).
    for (state, moves) in [
        (SOLVED_H48, "R U"),
        (SOLVED_REID, "R U"),
        ("9c14df400001baa5280000", "F"),
        ("9c14df400001baa5280000", "R"),
    ] {
        let (_, first, _) = run(&["convert", state, "--to", "alg"], None);
        let (_, second, _) = run(&["convert", moves, "--to", "alg"], None);
        for (text, expected) in [
            (format!("{state}\n{moves}\n"), format!("{first}{second}")),
            (format!("{moves}\n{state}\n"), format!("{second}{first}")),
        ] {
            let (code, out, err) = run(&["convert", "-", "--to", "alg"], Some(&text));
            assert_eq!(
                (code, out.as_str()),
                (0, expected.as_str()),
                "{text}: {err}"
            );
        }
    }
    // Comments and blank lines are skipped; JSON records say which line they answer.
    let (code, out, _) = run(
        &["convert", "-", "--to", "h48", "--json"],
        Some("# two states\nR\n\nU\n"),
    );
    assert_eq!(code, 0);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    assert_eq!(
        (records[0]["index"].as_u64(), records[1]["index"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(records[1]["input"], "U");
    // One state over several lines stays one state: pretty-printed JSON, H48 over two lines.
    let (_, json, _) = run(&["convert", "R U", "--to", "kpattern"], None);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    let (_, expected, _) = run(&["convert", "R U", "--to", "h48"], None);
    let h48_lines = expected.trim().replacen(" UFR", "\nUFR", 1);
    for text in [pretty, h48_lines] {
        let (code, out, err) = run(&["convert", "-", "--to", "h48"], Some(&text));
        assert_eq!(
            (code, out.as_str()),
            (0, expected.as_str()),
            "{text}: {err}"
        );
    }
}

// See: issue 14, "Lines": every subcommand that reads states skips comments (a line starting
// with `#`, after leading whitespace) and blank lines, and its JSON records say which line they
// answer.
#[test]
fn i14_lines_comments_and_blank_lines_in_every_subcommand() {
    let input = "# two states\nR\n\n   \nU\n  # the end\r\n";
    let commands: [&[&str]; 6] = [
        &["solve", "-"],
        &["optimal", "-", "--quiet"],
        &["check", "-"],
        &["convert", "-", "--to", "b32"],
        &["show", "-", "--no-color"],
        &["verify", "-", "R'"],
    ];
    for command in commands {
        let (_, out, err) = run(command, Some(input));
        assert_eq!(out.lines().count(), 2, "{command:?}: {out} {err}");
        for batch in [&[][..], &["--batch"]] {
            let mut args = command.to_vec();
            args.push("--json");
            args.extend(batch);
            let (_, out, err) = run(&args, Some(input));
            let records: Vec<serde_json::Value> = out
                .lines()
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
                .collect();
            assert_eq!(records.len(), 2, "{args:?}: {out} {err}");
            assert_eq!(records[0]["index"], 1, "{args:?}: {out}");
            assert_eq!(records[0]["input"], "R", "{args:?}: {out}");
            assert_eq!(records[1]["index"], 4, "{args:?}: {out}");
            assert_eq!(records[1]["input"], "U", "{args:?}: {out}");
            assert!(records.iter().all(|r| r.get("error").is_none()), "{out}");
        }
    }
    // A comment before one state split over lines keeps it one state.
    let (_, expected, _) = run(&["convert", "R U", "--to", "b32"], None);
    let (_, facelets, _) = run(&["convert", "R U", "--to", "facelets"], None);
    let faces: Vec<&str> = (0..6).map(|f| &facelets.trim()[f * 9..f * 9 + 9]).collect();
    let text = format!("# R U, by face\n{}\n", faces.join("\n"));
    let (code, out, err) = run(&["convert", "-", "--to", "b32"], Some(&text));
    assert_eq!((code, out.as_str()), (0, expected.as_str()), "{err}");
}

// See: issue 14, item 3 (deep nesting overflowed the stack, also on rayon workers and in
// `verify`'s solution; an empty body repeated 10^12 times looped).
#[test]
fn i14_3_deep_nesting_and_empty_repetition_are_refused() {
    let deep = format!("{}R{}", "(".repeat(20_000), ")".repeat(20_000));
    let brackets = format!("{}R{}", "[R, ".repeat(20_000), "]".repeat(20_000));
    let batch = format!("{deep}\n{brackets}\nR\n");
    let (code, out, err) = run(&["convert", "-", "--to", "h48"], Some(&batch));
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].contains("more than 256 deep"), "{}", lines[0]);
    assert!(lines[1].contains("more than 256 deep"), "{}", lines[1]);
    let (code, _, err) = run(&["verify", "R", &deep], None);
    assert_eq!(code, 1);
    assert!(err.contains("solution") && err.contains("256"), "{err}");
    let start = Instant::now();
    let (code, _, err) = run(&["convert", "(()1000000)1000000", "--to", "h48"], None);
    assert_eq!(code, 1);
    assert!(err.contains("expands to more than"), "{err}");
    assert!(start.elapsed() < Duration::from_secs(10));
}

// See: issue 14, item 4 (`--timeout nan` and others panicked in Duration::from_secs_f64).
#[test]
fn i14_4_bad_timeouts_are_usage_errors() {
    for timeout in ["nan", "-1", "inf", "1e30", "0", "soon"] {
        let (code, out, err) = run(&["optimal", "R", "--timeout", timeout], None);
        assert_eq!(code, 2, "{timeout}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("--timeout"), "{timeout}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Runs `args` with standard output to `/dev/full`.
fn to_full_disk(args: &[&str]) -> (i32, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = binary().args(args).stdout(full).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Starts `args` with every stream piped, and a thread writing `stdin` to it (a write error, once
/// the command has stopped reading, is ignored).
fn spawn_fed(args: &[&str], stdin: &str) -> (std::process::Child, std::thread::JoinHandle<()>) {
    let mut child = binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_string();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(stdin.as_bytes());
    });
    (child, writer)
}

/// Runs `args`, reads one line of its output and closes the pipe, as `| head -1` does.
fn first_line_then_close(args: &[&str], stdin: &str) -> (i32, String, String) {
    let (mut child, writer) = spawn_fed(args, stdin);
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    // The pipe is closed here: every later write fails with EPIPE.
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        line,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// See: issue 14, item 5 (a closed pipe or a full disk panicked, or was an error, or was
// silently ignored).
#[test]
fn i14_5_closed_pipes_end_quietly_and_full_disks_are_errors() {
    let many = "R U\n".repeat(30_000);
    for (args, stdin) in [
        (vec!["scramble", "--count", "20000", "--seed", "1"], ""),
        (vec!["scramble", "--count", "20000", "--json"], ""),
        (vec!["convert", "-", "--to", "h48"], many.as_str()),
        (vec!["check", "-", "--json"], many.as_str()),
    ] {
        let (code, line, err) = first_line_then_close(&args, stdin);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!line.is_empty(), "{args:?}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
    for args in [
        &["--help"][..],
        &["--version"],
        &["scramble", "--json"],
        &["convert", "R", "--to", "h48"],
        &["check", "R", "--json"],
        &["convert", "Q", "--to", "h48", "--json"],
    ] {
        let (code, err) = to_full_disk(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Runs `args` with standard output a pipe closed before anything is read, so that every write
/// fails with EPIPE: (exit code, standard error).
fn closed_at_once(args: &[&str], stdin: &str) -> (i32, String) {
    let (mut child, writer) = spawn_fed(args, stdin);
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// See: issue 14, "Proof": `| head -1` on every subcommand that prints many lines ends it with
// exit code 0 and nothing on standard error, whether the reader closes after the first line or
// before reading anything (every write then fails with EPIPE).
#[test]
fn i14_5_every_subcommand_that_prints_many_lines_ends_quietly_on_a_closed_pipe() {
    crate::optimal::baked_dir();
    let lines = "R U\nF2 D'\n".repeat(1000);
    let few = "R U\nF2 D'\n".repeat(20);
    let commands: [(&[&str], &str); 16] = [
        (&["scramble", "--count", "500"], ""),
        (&["solve", "-", "--quiet"], &lines),
        (&["solve", "-", "--quiet", "--json"], &lines),
        (&["optimal", "-", "--quiet"], &few),
        (&["check", "-"], &lines),
        (&["convert", "-", "--to", "facelets"], &lines),
        (&["show", "R U", "--no-color"], ""),
        (&["show", "-", "--no-color"], &lines),
        (&["verify", "-", "U' R'"], &lines),
        (&["tables"], ""),
        (&["tables", "--json"], ""),
        (&["tables", "files"], ""),
        (&["completions", "bash"], ""),
        (&["man"], ""),
        (&["--help"], ""),
        (&["optimal", "--help"], ""),
    ];
    for (args, stdin) in commands {
        let (code, line, err) = first_line_then_close(args, stdin);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!line.is_empty(), "{args:?}");
        assert!(err.is_empty(), "{args:?}: {err}");
        let (code, err) = closed_at_once(args, stdin);
        assert_eq!(code, 0, "{args:?}, closed at once: {err}");
        assert!(err.is_empty(), "{args:?}, closed at once: {err}");
    }
}

// See: issue 14, item 7 (one invalid UTF-8 byte rejected the whole batch).
#[test]
fn i14_7_a_line_that_is_not_utf8_fails_alone() {
    let (code, out, _) = run_bytes(&["convert", "-", "--to", "h48"], b"R\nU \xff\nF\n");
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("FR0") || lines[0].contains("0 "),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("column 3") && lines[1].contains("UTF-8"),
        "{}",
        lines[1]
    );
    assert!(!lines[2].starts_with("error"), "{}", lines[2]);
}

// See: issue 14, item 8 (doubled prefixes, no "parity", swapped centres as eight errors,
// the wrong format blamed, an irrelevant "(also not ...)").
#[test]
fn i14_8_messages_say_what_is_wrong_once() {
    let swap = |pairs: &[(usize, usize)]| {
        let mut bytes: Vec<u8> = SOLVED_FACELETS.bytes().collect();
        for &(a, b) in pairs {
            bytes.swap(a, b);
        }
        String::from_utf8(bytes).unwrap()
    };
    // UF and UR swapped: a parity error, said once.
    let parity = swap(&[(5, 7), (10, 19)]);
    for command in ["solve", "optimal", "verify"] {
        let mut args = vec![command, parity.as_str()];
        if command == "verify" {
            args.push("R");
        }
        let (code, _, err) = run(&args, None);
        assert_eq!(code, 1, "{command}");
        assert!(err.contains("parity"), "{command}: {err}");
        assert_eq!(err.matches("illegal").count(), 1, "{command}: {err}");
        assert!(
            !err.contains("also not") && !err.contains("--from"),
            "{err}"
        );
    }
    let (code, out, _) = run(&["check", &parity], None);
    assert_eq!(code, 1);
    assert!(out.contains("parity"), "{out}");
    assert!(out.ends_with('\n'), "{out:?}");
    // Swapped centres: one problem that says so.
    let centres = swap(&[(4, 13)]);
    let (code, out, _) = run(&["check", &centres], None);
    assert_eq!(code, 1);
    assert!(out.starts_with("illegal: 1 problem\n"), "{out}");
    assert!(out.contains("centres are not in their places"), "{out}");
    assert!(out.ends_with('\n'), "{out:?}");
    let (_, _, err) = run(&["solve", &centres], None);
    assert!(err.contains("centres are not in their places"), "{err}");
    // An algorithm too long is blamed on the move reader.
    let (_, _, err) = run(&["solve", "(R U)1000000"], None);
    assert!(
        err.contains("expands to more than") && err.contains("move sequence"),
        "{err}"
    );
    assert!(!err.contains("h48"), "{err}");
}

// See: issue 14, item 9 (text --batch output was not one line per input line).
#[test]
fn i14_9_batch_text_is_one_line_per_input_line() {
    let twisted = SOLVED_H48.replace("UFR0", "UFR1").replace("UBL0", "UBL1");
    let flipped = SOLVED_H48.replace("UF0", "UF1");
    let input = format!("{twisted}\nR U\n{flipped}\n");
    for batch in [&["--batch"][..], &[]] {
        let mut args = vec!["check", "-"];
        args.extend(batch);
        let (code, out, _) = run(&args, Some(&input));
        assert_eq!(code, 1);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(
            lines[0].starts_with("illegal: 1 problem: ") && lines[0].contains("twisted"),
            "{out}"
        );
        assert!(lines[1].starts_with("legal"), "{out}");
        assert!(lines[2].contains("flipped"), "{out}");
    }
}

/// The rule of `output.rs`: it is the only file of cube-cli that prints.
#[test]
fn nothing_prints_outside_the_writer() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![src.clone()];
    let mut checked = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.file_name().unwrap() == "output.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for macro_name in ["println!", "print!", "eprintln!", "eprint!", "dbg!"] {
            assert!(
                !text.contains(macro_name),
                "{} uses {macro_name}",
                path.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "{checked} files");
}

/// A file name given as STATE (`--batch states.txt`) is not read as moves (which failed at its
/// first `/` with a parse error): a usage error says how to give the file.
#[test]
fn a_file_name_as_state_says_to_use_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("states.txt");
    std::fs::write(&path, "R U\nF2\n").unwrap();
    let path = path.to_str().unwrap();
    for args in [vec!["solve", "--batch", path], vec!["solve", path]] {
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 2, "{out}{err}");
        assert!(
            err.contains("is a file name, not a state") && err.contains(&format!("- < {path}")),
            "{err}"
        );
    }
    // A path that is not a file is still read as a state, and refused as one.
    let (code, _, err) = run(&["solve", "no/such.file"], None);
    assert_ne!(code, 0);
    assert!(!err.contains("is a file name"), "{err}");
}
