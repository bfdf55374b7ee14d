//! Each subcommand, each input format and each error path.

use crate::run;

const SOLVED_FACELETS: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";

#[test]
fn every_input_format_is_detected() {
    let alg = "R U R' U'";
    let (_, facelets, _) = run(&["convert", alg, "--to", "facelets"], None);
    let (_, h48, _) = run(&["convert", alg, "--to", "h48"], None);
    let (_, hex, _) = run(&["convert", alg, "--to", "twizzle"], None);
    let (_, json, _) = run(&["convert", alg, "--to", "kpattern"], None);
    let (_, b32, _) = run(&["convert", alg, "--to", "b32"], None);
    // nissy-core's README: `R U R' U'` from solved.
    assert_eq!(b32, "WFCDERQH=AECDIFGHBJKL=A\n");
    for input in [
        alg,
        facelets.trim(),
        h48.trim(),
        hex.trim(),
        json.trim(),
        b32.trim(),
        &b32.trim()[..21],
    ] {
        let (code, out, err) = run(&["convert", input, "--to", "facelets"], None);
        assert_eq!(code, 0, "{input}: {err}");
        assert_eq!(out, facelets, "{input}");
    }
    // Forcing the format.
    // H48 records no puzzle orientation, so it converts to the same pieces only.
    let (code, out, _) = run(
        &["convert", "--from", "h48", h48.trim(), "--to", "h48"],
        None,
    );
    assert_eq!((code, out), (0, h48.clone()));
    let (code, _, err) = run(&["convert", "--from", "h48", alg, "--to", "twizzle"], None);
    assert_eq!(code, 1, "{err}");
    // B32 records the orientation: `Fw` is nissy-core's test 512_Fw_solved, and reads back.
    let (code, out, _) = run(&["convert", "Fw", "--to", "b32"], None);
    assert_eq!((code, out.as_str()), (0, "ANCPETGR=AbaDEFGHIJRS=M\n"));
    let (code, out, _) = run(
        &[
            "convert",
            "--from",
            "b32",
            out.trim(),
            "--to",
            "b32",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["output"], "ANCPETGR=AbaDEFGHIJRS=M");
    // Issue 16: `to` and `from` name the formats by their flag values.
    assert_eq!(
        (&value["type"], &value["to"]),
        (&"conversion".into(), &"b32".into())
    );
    assert_eq!(value["from"], "b32");
    let (code, _, err) = run(&["convert", "--from", "b32", alg, "--to", "h48"], None);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("read as b32, as --from asked"), "{err}");
}

#[test]
fn check_names_every_broken_rule() {
    // Twist the URF corner in place (U9 R1 F3: U R F -> F U R).
    let mut twisted: Vec<u8> = SOLVED_FACELETS.bytes().collect();
    twisted[8] = b'F';
    twisted[9] = b'U';
    twisted[20] = b'R';
    let twisted = String::from_utf8(twisted).unwrap();
    let (code, out, _) = run(&["check", &twisted], None);
    assert_eq!(code, 1);
    assert!(out.contains("twisted"), "{out}");
    let (code, out, _) = run(&["check", &twisted, "--json"], None);
    assert_eq!(code, 1);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["legal"], false);
    // Centres not distinct.
    let mut bad: Vec<u8> = SOLVED_FACELETS.bytes().collect();
    bad[13] = b'U';
    let (code, out, _) = run(&["check", std::str::from_utf8(&bad).unwrap()], None);
    assert_eq!(code, 1);
    assert!(out.contains("centres"), "{out}");
    // A legal cube.
    let (code, out, _) = run(&["check", SOLVED_FACELETS], None);
    assert_eq!(
        (code, out.trim()),
        (0, "legal: this is a cube state that can be solved")
    );
}

#[test]
fn bad_algorithm_token_is_located() {
    let (code, out, err) = run(&["convert", "R U Q", "--to", "h48"], None);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("column 5"), "{err}");
    let (code, out, _) = run(&["convert", "R U Q", "--to", "h48", "--json"], None);
    assert_eq!(code, 1);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["error"]["kind"], "parse");
}

#[test]
fn batch_keeps_order_and_reports_bad_lines() {
    let input = "R U\nQ\nF2\n";
    let (code, out, _) = run(&["convert", "-", "--to", "h48", "--json"], Some(input));
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].contains("output"));
    assert!(lines[1].contains("error"));
    assert!(lines[2].contains("output"));
    let (code, out, _) = run(
        &["convert", "-", "--to", "h48", "--batch"],
        Some("R\n\nU\n"),
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2);
}

#[test]
fn verify_exit_codes() {
    assert_eq!(run(&["verify", "R U", "U' R'"], None).0, 0);
    let (code, out, _) = run(&["verify", "R U", "U R'"], None);
    assert_eq!(code, 1);
    assert!(out.contains("does not solve"));
    let (code, _, err) = run(&["verify", "R U", "U' R' Q"], None);
    assert_eq!(code, 1);
    assert!(err.contains("solution"), "{err}");
}

#[test]
fn show_writes_svg() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("net.svg");
    let (code, out, _) = run(&["show", "R", "--svg", path.to_str().unwrap()], None);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 9);
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"));
    assert_eq!(svg.matches("<rect").count(), 54);
}

/// See issue 36: `--svg -` writes the picture to standard output (and no file named `-`), and
/// `--no-color` with `--color` is a usage error.
#[test]
fn show_svg_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::cube_cli()
        .current_dir(dir.path())
        .args(["show", "R", "--svg", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let svg = String::from_utf8(out.stdout).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert_eq!(svg.matches("<rect").count(), 54);
    assert!(!dir.path().join("-").exists());
    let (code, _, err) = run(&["show", "R", "--no-color", "--color", "always"], None);
    assert_eq!(code, 2, "{err}");
}

#[cfg(unix)]
#[test]
fn show_svg_replaces_a_file_whole_and_keeps_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("net.svg");
    std::fs::write(&target, "x".repeat(100_000)).unwrap();
    let link = dir.path().join("link.svg");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let (code, _, err) = run(&["show", "R", "--svg", link.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let svg = std::fs::read_to_string(&target).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert!(!svg.contains("xxxxxxxxxx"), "the old content is gone");
    // Nothing but the two files is left beside them.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn show_svg_into_a_missing_directory_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing").join("net.svg");
    let (code, out, err) = run(&["show", "R", "--svg", path.to_str().unwrap()], None);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("writing") && err.contains("net.svg"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["frobnicate"], None).0, 2);
    assert_eq!(run(&["convert", "R"], None).0, 2);
    assert_eq!(run(&["convert", "R", "--to", "png"], None).0, 2);
}

// See: issue 58 (half turns were written `R2'`, which cubers never write).
#[test]
fn convert_to_alg_reproduces_the_state() {
    const SUPERFLIP: &str = "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB";
    for input in ["R U R' U'", "x", "y2 R", "M2 E S'", "z' R U2 Fw", SUPERFLIP] {
        let (code, alg, err) = run(&["convert", input, "--to", "alg"], None);
        assert_eq!(code, 0, "{input}: {err}");
        assert!(!alg.contains("2'"), "{input} -> {alg}");
        let (_, expected, _) = run(&["convert", input, "--to", "facelets"], None);
        let (_, got, _) = run(&["convert", alg.trim(), "--to", "facelets"], None);
        assert_eq!(got, expected, "{input} -> {alg}");
    }
    let (code, out, _) = run(&["convert", SOLVED_FACELETS, "--to", "alg"], None);
    assert_eq!((code, out.trim()), (0, ""));
}

#[test]
fn illegal_cubes_of_each_kind() {
    let facelets = |changes: &[(usize, u8)]| {
        let mut bytes: Vec<u8> = SOLVED_FACELETS.bytes().collect();
        for &(i, c) in changes {
            bytes[i] = c;
        }
        String::from_utf8(bytes).unwrap()
    };
    let cases = [
        // A flipped edge: UR's stickers U6 R2 swapped.
        (facelets(&[(5, b'R'), (10, b'U')]), "flipped"),
        // Two edges swapped: UR and UF.
        (
            facelets(&[(5, b'U'), (10, b'F'), (7, b'U'), (19, b'R')]),
            "swapped",
        ),
        // A piece no cube has: URF shows U F R (mirror image).
        (facelets(&[(9, b'F'), (20, b'R')]), "no corner piece has"),
        // A duplicate edge: UL painted as UR, FR as FL.
        (facelets(&[(37, b'R'), (12, b'L')]), "appears twice"),
    ];
    for (input, words) in cases {
        let (code, out, _) = run(&["check", &input], None);
        assert_eq!(code, 1, "{input}");
        assert!(out.contains(words), "{input}: {out}");
        // Solving an illegal cube is refused with the same words.
        let (code, _, err) = run(&["solve", &input], None);
        assert_eq!(code, 1, "{input}");
        assert!(err.contains("error:"), "{err}");
    }
    // H48 with a twisted corner: read, then refused by check.
    let twisted =
        "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR1 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0";
    let (code, out, _) = run(&["check", twisted], None);
    assert_eq!(code, 1);
    assert!(out.contains("twisted"), "{out}");
    let (code, _, err) = run(&["optimal", twisted], None);
    assert_eq!(code, 1);
    assert!(err.contains("twisted"), "{err}");
}

#[test]
fn scramble_is_reproducible_and_scrambles() {
    let (code, first, err) = run(&["scramble", "--seed", "7", "--count", "3"], None);
    assert_eq!(code, 0, "{err}");
    let (_, again, _) = run(&["scramble", "--seed", "7", "--count", "3"], None);
    assert_eq!(first, again);
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 3);
    for line in &lines {
        let moves = line.split_whitespace().count();
        assert!((2..=21).contains(&moves), "{line}");
        // Every scramble is a legal, unsolved state.
        let (code, out, _) = run(&["check", line], None);
        assert_eq!(code, 0, "{line}: {out}");
    }
    // 333fm is padded with R' U' F on both sides.
    let (_, fm, _) = run(&["scramble", "--event", "333fm", "--seed", "7"], None);
    assert!(
        fm.starts_with("R' U' F ") && fm.trim_end().ends_with("R' U' F"),
        "{fm}"
    );
    // Other formats print the scrambled state; JSON carries the seed.
    let (_, json, _) = run(
        &["scramble", "--seed", "7", "--json", "--format", "h48"],
        None,
    );
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["seed"], 7);
    let (_, h48, _) = run(
        &[
            "convert",
            value["scramble"].as_str().unwrap(),
            "--to",
            "h48",
        ],
        None,
    );
    assert_eq!(value["output"].as_str().unwrap(), h48.trim());
    // A bad event is a usage error.
    assert_eq!(run(&["scramble", "--event", "444"], None).0, 2);
}

/// The solved cube's pattern JSON with `edit` applied: `(orbit, key, position, value)`;
/// `tracked`: centre orientation tracked (no `orientationMod`).
fn pattern(edits: &[(&str, &str, usize, u64)], tracked: bool) -> String {
    let mut v = serde_json::json!({
        "EDGES": {"pieces": (0..12).collect::<Vec<u64>>(), "orientation": vec![0; 12]},
        "CORNERS": {"pieces": (0..8).collect::<Vec<u64>>(), "orientation": vec![0; 8]},
        "CENTERS": {"pieces": (0..6).collect::<Vec<u64>>(), "orientation": vec![0; 6]},
    });
    if !tracked {
        v["CENTERS"]["orientationMod"] = serde_json::json!(vec![1; 6]);
    }
    for &(orbit, key, at, value) in edits {
        v[orbit][key][at] = value.into();
    }
    v.to_string()
}

/// Issue 31, item 7: `check --json` names every rule it documents, each from an input that
/// breaks it (duplicate pieces, orientations and pieces out of range, centres no rotation
/// gives included, which were `error` records), and text mode prints the same messages.
#[test]
fn i31_7_check_reports_every_rule() {
    let facelets = |changes: &[(usize, u8)]| {
        let mut bytes: Vec<u8> = SOLVED_FACELETS.bytes().collect();
        for &(i, c) in changes {
            bytes[i] = c;
        }
        String::from_utf8(bytes).unwrap()
    };
    let h48 = |changes: &[(&str, &str)]| {
        let mut text = "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0".to_string();
        for (from, to) in changes {
            text = text.replacen(from, to, 1);
        }
        text
    };
    let cases: Vec<(&str, String)> = vec![
        (
            "corner-out-of-range",
            pattern(&[("CORNERS", "pieces", 7, 9)], false),
        ),
        ("edge-out-of-range", "ABCDEFGH=NBCDEFGHIJKL=A".to_string()),
        ("corners-not-a-permutation", h48(&[("UBL0", "UFR0")])),
        ("edges-not-a-permutation", h48(&[("UB0", "UF0")])),
        ("orientation-out-of-range", h48(&[("UF0", "UF2")])),
        (
            "orientation-out-of-range",
            pattern(&[("CORNERS", "orientation", 0, 3)], false),
        ),
        ("twisted-corner", h48(&[("UFR0", "UFR1")])),
        ("flipped-edge", h48(&[("UF0", "UF1")])),
        (
            "parity",
            facelets(&[(5, b'F'), (10, b'U'), (7, b'R'), (19, b'U')]),
        ),
        ("centres-not-distinct", facelets(&[(13, b'U')])),
        ("unknown-colour", facelets(&[(53, b'X')])),
        ("colour-count", facelets(&[(53, b'R')])),
        ("invalid-corner", facelets(&[(9, b'F'), (20, b'R')])),
        ("invalid-edge", facelets(&[(8, b'F'), (19, b'U')])),
        (
            "duplicate-corner",
            "UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL UFR DFL DFL DLB DBR".to_string(),
        ),
        ("duplicate-edge", facelets(&[(37, b'R'), (12, b'L')])),
        ("centres-misplaced", facelets(&[(4, b'R'), (13, b'U')])),
        (
            "centre-parity",
            pattern(&[("CENTERS", "orientation", 0, 1)], true),
        ),
        (
            "centres-not-a-rotation",
            pattern(&[("CENTERS", "pieces", 1, 0)], false),
        ),
        (
            "centres-not-a-rotation",
            "UUUUUUUUULLLLLLLLLFFFFFFFFFDDDDDDDDDRRRRRRRRRBBBBBBBBB".to_string(),
        ),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (rule, input) in &cases {
        let (code, out, err) = run(&["check", input, "--json"], None);
        assert_eq!(code, 1, "{rule}: {input}: {err}");
        let record: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(record["type"], "check", "{rule}: {out}");
        assert_eq!(record["legal"], false, "{rule}: {out}");
        let problems = record["problems"].as_array().unwrap();
        assert!(
            problems.iter().any(|p| p["rule"] == *rule),
            "{rule}: {input}: {out}"
        );
        // Text mode: the same problems, one per line.
        let (code, text, _) = run(&["check", input], None);
        assert_eq!(code, 1, "{rule}");
        assert!(text.starts_with("illegal: "), "{rule}: {text}");
        for p in problems {
            let message = p["message"].as_str().unwrap();
            assert!(text.contains(&format!("  - {message}\n")), "{rule}: {text}");
        }
        seen.insert(*rule);
    }
    // Every rule the docs list but `illegal` (kept for rules added later).
    let docs = include_str!("../../../docs/json.md");
    let section = &docs[docs.find("| rule |").unwrap()..docs.find("## `conversion`").unwrap()];
    for line in section.lines().skip(2) {
        let Some(rule) = line.split('`').nth(1) else {
            continue;
        };
        assert!(
            rule == "illegal" || seen.contains(rule),
            "no case for {rule}"
        );
    }
}

/// Issue 31, item 7: a command that needs a legal cube names every problem `check` names, as
/// an `illegal` error; and a stray colour is named as such.
#[test]
fn i31_7_solve_names_every_problem() {
    let h48 =
        "UF2 UF0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR3 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0";
    let (_, out, _) = run(&["check", h48, "--json"], None);
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    let messages: Vec<&str> = record["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 3, "{out}");
    for command in ["solve", "optimal", "verify", "convert"] {
        let mut args = vec![command, h48, "--json"];
        match command {
            "verify" => args.push("R"),
            "convert" => args.extend(["--to", "facelets"]),
            _ => {}
        }
        let (code, out, _) = run(&args, None);
        assert_eq!(code, 1, "{command}: {out}");
        let error: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(error["error"]["kind"], "illegal", "{command}: {out}");
        assert_eq!(
            error["error"]["message"],
            format!("illegal cube: {}", messages.join("; ")),
            "{command}"
        );
    }
    let stray = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBX";
    let (code, _, err) = run(&["solve", stray], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("sticker B9 is 'X', a colour that no centre has")
            && !err.contains("appears 8 times"),
        "{err}"
    );
}

/// Issue 31, item 9: `solve --to` with an illegal cube is an `illegal` error, as the same
/// cube as STATE is; one that does not read is a `parse` error.
#[test]
fn i31_9_solve_to_an_illegal_cube_is_illegal() {
    let twisted =
        "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR1 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0";
    let (code, out, _) = run(&["solve", twisted, "--json"], None);
    assert_eq!(code, 1);
    let state: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (code, out, _) = run(&["solve", "R U", "--to", twisted, "--json"], None);
    assert_eq!(code, 1);
    let to: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(to["error"]["kind"], "illegal", "{out}");
    assert_eq!(state["error"]["kind"], "illegal");
    assert_eq!(
        to["error"]["message"],
        format!("--to: {}", state["error"]["message"].as_str().unwrap())
    );
    let (code, out, _) = run(&["solve", "R U", "--to", "R U Q", "--json"], None);
    assert_eq!(code, 1);
    let to: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(to["error"]["kind"], "parse", "{out}");
}

/// The first position of the repository's `testdata/positions/<name>` (scrambles with a known
/// optimal length).
fn first_position(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/positions")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().next().expect("a position").trim().to_string()
}

// See: issue 31, item 3 (`solve` of a 16-mover with `--max-length 15 --time-budget 2s` ran for
// ever: the budget counted only once a first solution was found).
#[test]
fn i31_3_solve_below_the_optimum_ends_within_the_time_budget() {
    let sixteen = first_position("nissy-core-optimal-16.txt");
    // The two-phase tables are built (once) before the clock starts; a run that reads them and
    // solves at once measures the start-up, which the budget does not count.
    assert_eq!(run(&["solve", "R U"], None).0, 0);
    let start = std::time::Instant::now();
    assert_eq!(run(&["solve", "R U"], None).0, 0);
    let start_up = start.elapsed();
    for json in [false, true] {
        let mut cmd = crate::cube_cli();
        cmd.args([
            "solve",
            &sixteen,
            "--max-length",
            "15",
            "--time-budget",
            "2s",
        ]);
        if json {
            cmd.arg("--json");
        }
        // Fails rather than hangs if the search does not end.
        cmd.timeout(std::time::Duration::from_secs(60));
        let start = std::time::Instant::now();
        let out = cmd.output().expect("run cube-cli");
        let took = start.elapsed();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(4), "{stdout} {stderr}");
        let within = start_up + std::time::Duration::from_secs(3);
        assert!(took < within, "{took:?}, started in {start_up:?}");
        let message = if json { &stdout } else { &stderr };
        assert!(
            message.contains("two-phase: no solution of at most 15 moves found in 2."),
            "{message}"
        );
        if json {
            let value: serde_json::Value = serde_json::from_str(stdout.trim()).expect(&stdout);
            assert_eq!(value["error"]["kind"], "no-solution", "{stdout}");
        }
    }
    // A bound the position meets is answered within the same budget.
    let (code, out, err) = run(
        &[
            "solve",
            &sixteen,
            "--max-length",
            "20",
            "--time-budget",
            "2s",
        ],
        None,
    );
    assert_eq!(code, 0, "{out} {err}");
}

/// A solved cube's solution is said as `(0 moves)`, with no space before it (issue 36, item 6),
/// by every method and by `optimal`.
#[test]
fn i36_6_a_solved_cube_prints_no_leading_space() {
    for args in [
        vec!["solve", "R R'"],
        vec!["solve", "R R'", "--method", "cfop"],
        vec!["optimal", "R R'"],
    ] {
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 0, "{args:?}: {err}");
        let first = out.lines().next().unwrap();
        assert!(first.starts_with("(0 moves"), "{args:?}: {out:?}");
    }
}
