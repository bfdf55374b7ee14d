//! `optimal`, `solve --method optimal` and `tables`: the first run bakes the default tier into an
//! empty table directory, later runs reuse it; missing and corrupt tables and timeouts.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::run;

/// The shared table directory, with the 6edge tier baked (by whichever run came first).
pub(crate) fn baked_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let (code, _, err) = run(&["tables", "bake", "--tier", "6edge"], None);
        assert_eq!(code, 0, "{err}");
        crate::shared_tables()
    })
}

fn tables_arg() -> String {
    baked_dir().to_str().unwrap().to_string()
}

#[test]
fn first_run_bakes_into_an_empty_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(
        &["optimal", "R U F", "--tables", dir.path().to_str().unwrap()],
        None,
    );
    assert_eq!(code, 0, "first run: {err}");
    assert_eq!(out.trim(), "F' U' R' (3 moves, optimal)");
    assert!(err.contains("baking the 6edge pattern databases"), "{err}");
    assert!(err.contains("MiB in"), "says where and how much: {err}");
    // The second run finds them.
    let (code, _, err) = run(
        &["optimal", "R U F", "--tables", dir.path().to_str().unwrap()],
        None,
    );
    assert_eq!(code, 0);
    assert!(!err.contains("baking"), "{err}");
}

#[test]
fn first_run_bakes_then_solves_optimally() {
    let dir = tables_arg();
    // The README's main job.
    let (code, out, err) = run(
        &[
            "optimal",
            "F2 U' B L2 D R' F U2 L' B2 D' R2 F",
            "--tables",
            &dir,
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["length"], 13);
    assert_eq!(value["optimal"], true);
    assert!(value["nodes"].as_u64().unwrap() > 0);
    assert!(value["seconds"].as_f64().is_some());
    // The search's CPU time, on a platform that tells it.
    #[cfg(unix)]
    assert!(
        value["cpu_seconds"].as_f64().is_some_and(|cpu| cpu > 0.0),
        "{value}"
    );
    // Progress per depth on standard error.
    let (_, _, err) = run(
        &[
            "optimal",
            "F2 U' B L2 D R' F U2 L' B2 D' R2 F",
            "--tables",
            &dir,
        ],
        None,
    );
    assert!(err.contains("depth 12 exhausted"), "{err}");
}

#[test]
fn all_optimal_solutions_and_solve_method() {
    let dir = tables_arg();
    let (code, out, _) = run(&["optimal", "R U", "--tables", &dir, "--all"], None);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "U' R' (2 moves, optimal)");
    // R L has two optimal solutions: R' L' and L' R' are one canonical sequence, so one line.
    let (code, out, _) = run(
        &[
            "solve", "U2 D2", "--method", "optimal", "--tables", &dir, "--all", "--json",
        ],
        None,
    );
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["length"], 2);
    // Solving to a goal state.
    let (code, out, _) = run(
        &[
            "solve", "R U", "--method", "optimal", "--to", "R", "--tables", &dir,
        ],
        None,
    );
    assert_eq!((code, out.trim()), (0, "U' (1 move, optimal)"));
}

#[test]
fn timeout_reports_what_was_proven() {
    let dir = tables_arg();
    let superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
    let (code, out, err) = run(
        &[
            "optimal",
            superflip,
            "--tables",
            &dir,
            "--timeout",
            "0.5",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["optimal"], false);
    assert_eq!(
        value["length"], 20,
        "the two-phase solution is known at once"
    );
    assert!(value["proven_lower_bound"].as_u64().unwrap() >= 10);
}

// See: issue 14, item 9 (a not-proven result added a second line to text batch output).
#[test]
fn not_proven_optimal_stays_on_its_line_in_a_batch() {
    let dir = tables_arg();
    let superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
    let (code, out, err) = run(
        &[
            "optimal",
            "-",
            "--tables",
            &dir,
            "--timeout",
            "0.5",
            "--quiet",
        ],
        Some(&format!("{superflip}\nR\n")),
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("(20 moves); not proven optimal"), "{out}");
    assert_eq!(lines[1], "R' (1 move, optimal)");
}

#[test]
fn missing_larger_tier_says_how_to_bake_it() {
    let dir = tables_arg();
    let (code, _, err) = run(
        &["optimal", "R U", "--tables", &dir, "--tier", "8edge"],
        None,
    );
    assert_eq!(code, 3);
    assert!(err.contains("cube-cli tables bake --tier 8edge"), "{err}");
    let (code, out, _) = run(&["tables", "--tables", &dir], None);
    assert_eq!(code, 0);
    assert!(out.contains("tier 6edge: ready"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("not baked: ") && l.contains(" 8edge,")),
        "{out}"
    );
}

// See: issue 58 (`tables` printed 45 lines with one tier baked, and `tables bake` printed them
// again): `tables` shows what is there and one line for the rest, `--all` every table and tier
// (as JSON always does), `tables bake` what it baked.
#[test]
fn tables_shows_what_is_baked_and_one_line_for_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    for id in ["korf-corners", "korf-edges-6a", "korf-edges-6b"] {
        let name = format!("{id}.v1.tbl");
        std::fs::copy(baked_dir().join(&name), dir.path().join(&name)).unwrap();
    }
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = run(&["tables", "--tables", d], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    for (line, id) in lines[1..4]
        .iter()
        .zip(["korf-corners", "korf-edges-6a", "korf-edges-6b"])
    {
        assert!(line.trim_start().starts_with(id), "{out}");
    }
    assert!(lines[4].starts_with("tier 6edge: baked"), "{out}");
    assert!(
        lines[5].starts_with("not baked: 7edge, 8edge, h0, h4,")
            && lines[5].contains("nx-eo2ep2-qtm")
            && lines[5].contains("cube-cli tables --all"),
        "{out}"
    );
    // Every tier, as before: a line each, the same as `tables status --all`.
    let (code, all, err) = run(&["tables", "--all", "--tables", d], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        run(&["tables", "status", "--all", "--tables", d], None).1,
        all
    );
    assert!(
        all.contains("tier 8edge: not baked (cube-cli tables bake --tier 8edge: about")
            && all
                .lines()
                .any(|l| l.trim_start().starts_with("korf-edges-8a")),
        "{all}"
    );
    let (_, json, _) = run(&["tables", "--json", "--tables", d], None);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        json["tiers"].as_array().unwrap().len(),
        all.lines().filter(|l| l.starts_with("tier ")).count()
    );
    // A bake reports the tier it baked, not the whole directory.
    let (code, out, err) = run(&["tables", "bake", "--tier", "6edge", "--tables", d], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 5, "{out}");
    assert!(
        out.contains("tier 6edge: ") && !out.contains("not baked"),
        "{out}"
    );
    let (code, _, err) = run(&["tables", "--all", "files", "--tables", d], None);
    assert_eq!(code, 2, "{err}");
}

/// A missing nx tier is called a table, and the tier offered instead is the small nx tier of the
/// same metric (the Korf default would not search in quarter turns).
#[test]
fn a_missing_nx_tier_offers_the_small_nx_tier_of_its_metric() {
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    for (tier, small) in [
        ("nx-eo3ep1", "nx-eo1ep1"),
        ("nx-eo2ep1-qtm", "nx-eo1ep1-qtm"),
    ] {
        let (code, _, err) = run(
            &["optimal", "R U", "--tables", dir_arg, "--tier", tier],
            None,
        );
        assert_eq!(code, 3, "{err}");
        assert!(
            err.contains(&format!("the {tier} table is not baked"))
                && err.contains(&format!("cube-cli tables bake --tier {tier}"))
                && err.contains(&format!("or use --tier {small}")),
            "{err}"
        );
    }
}

/// `--metric qtm` with no quarter-turn table baked, or with a tier of the other metric, is a
/// usage error naming the tier to bake or use, before anything is baked. See: issue 58 (the
/// message offered `--tier <table directory>`).
#[test]
fn a_quarter_turn_search_without_its_table_names_the_tier() {
    let dir = tempfile::tempdir().unwrap();
    let dir_arg = dir.path().to_str().unwrap();
    let optimal = |extra: &[&str]| {
        let mut args = vec!["optimal", "R U", "--tables", dir_arg];
        args.extend_from_slice(extra);
        run(&args, None)
    };
    let (code, _, err) = optimal(&["--metric", "qtm"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no quarter-turn table is baked")
            && err.contains("cube-cli tables bake --tier nx-eo1ep1-qtm")
            && err.contains("(or give --tier nx-eo1ep1-qtm,")
            && !err.contains(&format!("--tier {dir_arg}")),
        "{err}"
    );
    let (code, _, err) = optimal(&["--metric", "qtm", "--tier", "nx-eo2ep1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("use --tier nx-eo2ep1-qtm"), "{err}");
    let (code, _, err) = optimal(&["--metric", "qtm", "--tier", "7edge"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--tier 7edge has no qtm table") && err.contains("nx-eo1ep1-qtm"),
        "{err}"
    );
    let (code, _, err) = optimal(&["--metric", "htm", "--tier", "nx-eo1ep1-qtm"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("use --tier nx-eo1ep1 with --metric htm"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `--metric qtm` (the default baked -qtm tier) and `--tier nx-eo1ep1-qtm`: lengths in quarter
/// turns, printed with `q` (R U2 is 3, R2 U2 is 4: a position 2 face turns from solved that no
/// single face turn solves is at least 2 quarter turns per half turn it needs); the JSON record
/// says its metric, `htm` for a half-turn search.
#[test]
fn the_quarter_turn_metric_prints_quarter_turns() {
    let (code, _, err) = run(&["tables", "bake", "--tier", "nx-eo1ep1-qtm"], None);
    assert_eq!(code, 0, "{err}");
    let dir = crate::shared_tables();
    let dir = dir.to_str().unwrap();
    let (code, out, err) = run(
        &["optimal", "R U2", "--tables", dir, "--metric", "qtm"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "U2 R' (3q, optimal)");
    let (code, out, err) = run(
        &[
            "optimal",
            "R2 U2",
            "--tables",
            dir,
            "--tier",
            "nx-eo1ep1-qtm",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(record["metric"], "qtm", "{record}");
    assert_eq!(record["tier"], "nx-eo1ep1-qtm", "{record}");
    assert_eq!(record["length"], 4, "{record}");
    assert_eq!(record["proven_lower_bound"], 4, "{record}");
    assert_eq!(record["solution"], "U2 R2", "{record}");
    let (code, out, err) = run(&["optimal", "R2 U2", "--tables", dir, "--json"], None);
    assert_eq!(code, 0, "{err}");
    let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(record["metric"], "htm", "{record}");
    assert_eq!(record["length"], 2, "{record}");
}

#[test]
fn corrupt_table_is_refused_with_the_fix() {
    let source = baked_dir();
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(source).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "tbl") {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    // Cut the corner database short: the header no longer matches the file.
    let corners = dir.path().join("korf-corners.v1.tbl");
    let bytes = std::fs::read(&corners).unwrap();
    std::fs::write(&corners, &bytes[..bytes.len() / 2]).unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, _) = run(&["tables", "--tables", d], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("korf-corners") && out.contains("invalid"),
        "{out}"
    );
    let (code, _, err) = run(
        &[
            "optimal", "R U", "--tables", d, "--tier", "6edge", "--quiet",
        ],
        None,
    );
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("korf-corners"), "{err}");
}

/// A copy of the baked 6edge tier's table files (no stamps: a copy is not the checked file).
fn copy_of_baked() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(baked_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "tbl") {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// The line of `tables status` about `id`.
fn status_line(dir: &str, id: &str) -> String {
    let (code, out, err) = run(&["tables", "--tables", dir], None);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .find(|line| line.trim_start().starts_with(id))
        .unwrap_or_else(|| panic!("no line for {id} in {out}"))
        .to_string()
}

/// See issue 15: a corrupt payload under a valid header (one flipped byte, a filled region) in any
/// table of the 6edge tier is refused by `optimal` with exit 3 before any search, and `tables
/// status` does not call it ok.
#[test]
fn corrupt_payloads_are_refused_before_any_search() {
    for id in ["korf-corners", "korf-edges-6a", "korf-edges-6b"] {
        for fault in ["flipped byte", "filled region"] {
            let dir = copy_of_baked();
            let d = dir.path().to_str().unwrap();
            assert!(status_line(d, id).contains("header ok, payload not checked"));
            let path = dir.path().join(format!("{id}.v1.tbl"));
            let mut bytes = std::fs::read(&path).unwrap();
            let middle = bytes.len() / 2;
            match fault {
                "flipped byte" => bytes[middle] ^= 0x04,
                _ => bytes[middle..middle + 65536].fill(0),
            }
            std::fs::write(&path, bytes).unwrap();
            for err in crate::corrupt_payload_is_refused(d, "6edge", id, &format!("{id}, {fault}"))
            {
                assert!(err.contains("cube-cli tables bake --tier 6edge"), "{err}");
            }
            let line = status_line(d, id);
            assert!(!line.contains("ok (payload checked"), "{line}");
            assert!(line.contains("payload not checked"), "{line}");
            let (code, _, err) = run(
                &["tables", "verify", "--tier", "6edge", "--tables", d],
                None,
            );
            assert_eq!(code, 3, "{err}");
            assert!(err.contains("the payload is corrupt"), "{err}");
        }
    }
}

/// See issue 15: `tables verify` stamps the files it checked, `tables status` reports the check,
/// and a changed file loses its stamp.
#[test]
fn status_reports_the_payload_check() {
    let dir = copy_of_baked();
    let d = dir.path().to_str().unwrap();
    let (_, out, _) = run(&["tables", "--tables", d], None);
    assert!(
        out.contains("tier 6edge: baked, payload not checked"),
        "{out}"
    );
    let (code, _, err) = run(
        &["tables", "verify", "--tier", "6edge", "--tables", d],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(status_line(d, "korf-edges-6a").contains("ok (payload checked 2"));
    let (_, out, _) = run(&["tables", "--tables", d], None);
    assert!(out.contains("tier 6edge: ready"), "{out}");
    // Touching the file (same bytes, new time) is enough to need a new check.
    let path = dir.path().join("korf-edges-6a.v1.tbl");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, bytes).unwrap();
    assert!(status_line(d, "korf-edges-6a").contains("payload not checked"));
}

/// See issue 15: a corrupt table is baked again by `tables bake`, not skipped.
#[test]
fn a_bake_replaces_a_corrupt_table() {
    let dir = copy_of_baked();
    let d = dir.path().to_str().unwrap();
    let path = dir.path().join("korf-edges-6b.v1.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(&path, bytes).unwrap();
    let (code, _, err) = run(&["tables", "bake", "--tier", "6edge", "--tables", d], None);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&["optimal", "R U F", "--tables", d, "--quiet"], None);
    assert_eq!(
        (code, out.trim()),
        (0, "F' U' R' (3 moves, optimal)"),
        "{err}"
    );
}

/// See issue 15: a directory where a table should be is "unreadable", with the fix, not "not
/// baked"; `optimal` refuses it with exit 3.
#[test]
fn a_directory_in_place_of_a_table() {
    let dir = copy_of_baked();
    let d = dir.path().to_str().unwrap();
    let path = dir.path().join("korf-edges-6a.v1.tbl");
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    let (_, out, _) = run(&["tables", "--tables", d], None);
    assert!(out.contains("tier 6edge: unreadable"), "{out}");
    assert!(out.contains("is a directory, not a regular file (move it out of the way, then re-run cube-cli tables bake --tier 6edge)"), "{out}");
    let (code, _, err) = run(&["optimal", "R U", "--tables", d, "--tier", "6edge"], None);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("is a directory"), "{err}");
}

/// See issue 15: a symbolic-link loop where a table should be is "unreadable", with the fix, not
/// "missing"; `optimal` refuses it with exit 3 rather than bake over it.
#[cfg(unix)]
#[test]
fn a_symlink_loop_in_place_of_a_table() {
    let dir = copy_of_baked();
    let d = dir.path().to_str().unwrap();
    let path = dir.path().join("korf-edges-6a.v1.tbl");
    let other = dir.path().join("other");
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(&other, &path).unwrap();
    std::os::unix::fs::symlink(&path, &other).unwrap();
    let line = status_line(d, "korf-edges-6a");
    assert!(line.contains("unreadable: table korf-edges-6a"), "{line}");
    assert!(line.contains("is a symbolic-link loop, not a regular file (move it out of the way, then re-run cube-cli tables bake --tier 6edge)"), "{line}");
    let (_, out, _) = run(&["tables", "--tables", d], None);
    assert!(out.contains("tier 6edge: unreadable"), "{out}");
    let (code, out, err) = run(&["optimal", "R U", "--tables", d, "--tier", "6edge"], None);
    assert_eq!(code, 3, "{out} {err}");
    assert!(err.contains("is a symbolic-link loop"), "{err}");
    assert!(!err.contains("baking"), "{err}");
}

/// A hard position: the superflip, 20 moves.
const SUPERFLIP: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

/// See issue 15: with `--checkpoint`, the state is written while the search runs; SIGTERM prints
/// what is known, writes the checkpoint and exits 130; a run with the same file goes on from it
/// (the node count goes on).
#[cfg(unix)]
#[test]
fn sigterm_writes_a_checkpoint_and_resuming_goes_on() {
    let tables = tables_arg();
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("superflip.checkpoint");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("cube-cli"))
        .args([
            "optimal",
            SUPERFLIP,
            "--tables",
            &tables,
            "--json",
            "--threads",
            "2",
        ])
        .arg("--checkpoint")
        .arg(&checkpoint)
        .args(["--checkpoint-every", "0.2"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !checkpoint.exists() {
        assert!(
            start.elapsed().as_secs() < 60,
            "no periodic checkpoint was written"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let periodic = std::fs::read_to_string(&checkpoint).unwrap();
    assert!(periodic.starts_with("korf-checkpoint 4\n"), "{periodic}");
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(value["optimal"], false);
    assert_eq!(value["length"], 20, "the two-phase solution is printed");
    let nodes = value["nodes"].as_u64().unwrap();
    let saved = std::fs::read_to_string(&checkpoint).unwrap();
    assert!(saved.contains(&format!("\nnodes {nodes}\n")), "{saved}");

    let (code, out, err) = run(
        &[
            "optimal",
            SUPERFLIP,
            "--tables",
            &tables,
            "--json",
            "--timeout",
            "0.3",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(value["nodes"].as_u64().unwrap() > nodes, "{out}");
}

/// See issue 14, "No panic on any output or option": SIGINT (Ctrl-C) in the middle of a search, once
/// its progress shows it under way and long before a periodic checkpoint is due, prints the best
/// solution and the bound proven, writes the checkpoint with that bound, and exits 130.
#[cfg(unix)]
#[test]
fn sigint_prints_the_best_solution_and_bound_and_writes_the_checkpoint() {
    use std::io::BufRead;
    let tables = tables_arg();
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("superflip.checkpoint");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("cube-cli"))
        .args(["optimal", SUPERFLIP, "--tables", &tables, "--threads", "2"])
        .arg("--checkpoint")
        .arg(&checkpoint)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (under_way, progress) = std::sync::mpsc::channel();
    let drain = std::thread::spawn(move || {
        let mut text = String::new();
        for line in std::io::BufReader::new(stderr).lines() {
            let line = line.unwrap();
            if line.starts_with("depth ") {
                let _ = under_way.send(());
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    progress
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the search reports its progress");
    assert!(!checkpoint.exists(), "no periodic checkpoint is due yet");
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = drain.join().unwrap();
    assert_eq!(out.status.code(), Some(130), "{stdout} {stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].ends_with(" (20 moves)"), "{stdout}");
    let solution = lines[0].trim_end_matches(" (20 moves)");
    assert_eq!(
        run(&["verify", SUPERFLIP, solution], None).0,
        0,
        "{solution}"
    );
    let bound = lines[1]
        .strip_prefix("not proven optimal: stopped after ")
        .and_then(|rest| rest.split("; no solution is shorter than ").nth(1))
        .and_then(|rest| rest.strip_suffix(" moves"))
        .unwrap_or_else(|| panic!("no bound in {stdout}"));
    let saved = std::fs::read_to_string(&checkpoint).expect("the checkpoint is written");
    assert!(saved.starts_with("korf-checkpoint 4\n"), "{saved}");
    assert!(
        saved.contains(&format!("\nbound {bound}\n")),
        "{bound}: {saved}"
    );
}

/// See issue 15: a checkpoint that cannot be written costs a warning after the result, never the
/// result.
#[test]
fn an_unwritable_checkpoint_still_prints_the_solution() {
    let tables = tables_arg();
    let (code, out, err) = run(
        &[
            "optimal",
            SUPERFLIP,
            "--tables",
            &tables,
            "--timeout",
            "0.3",
            "--checkpoint",
            "/nonexistent-directory/superflip.checkpoint",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(20 moves)"), "{out}");
    assert!(
        err.contains("warning: writing checkpoint /nonexistent-directory/superflip.checkpoint"),
        "{err}"
    );
}

/// See issue 15: a damaged or edited checkpoint is refused with the field, never believed.
#[test]
fn a_damaged_checkpoint_is_refused() {
    let tables = tables_arg();
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("cp");
    let (code, _, err) = run(
        &[
            "optimal",
            SUPERFLIP,
            "--tables",
            &tables,
            "--timeout",
            "0.3",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&checkpoint).unwrap();
    let bound = text
        .lines()
        .find(|l| l.starts_with("bound "))
        .unwrap()
        .to_string();
    std::fs::write(&checkpoint, text.replacen(&bound, "bound 99", 1)).unwrap();
    let (code, out, err) = run(
        &[
            "optimal",
            SUPERFLIP,
            "--tables",
            &tables,
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 1, "{out} {err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("(checksum)") && err.contains("delete it to start again"),
        "{err}"
    );
    // A directory in its place.
    std::fs::remove_file(&checkpoint).unwrap();
    std::fs::create_dir(&checkpoint).unwrap();
    let (code, _, err) = run(
        &[
            "optimal",
            "R U",
            "--tables",
            &tables,
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is a directory, not a regular file"), "{err}");
}

/// Runs `cube-cli` with `args`, killed after `limit`: (exit code, stdout, stderr), or a failure
/// that says it hung.
#[cfg(unix)]
fn run_within(args: &[&str], limit: std::time::Duration) -> (i32, String, String) {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("cube-cli"));
    cmd.args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null());
    let out = crate::output_within(cmd, limit, &format!("cube-cli {args:?}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

// See: issue 14, item 6 (a FIFO given as a table or a checkpoint blocked forever): each command
// that opens it says it is not a regular file, and returns well within the test's own limit.
#[cfg(unix)]
#[test]
fn i14_6_a_fifo_as_table_or_checkpoint_is_refused_without_blocking() {
    let limit = std::time::Duration::from_secs(60);
    let dir = copy_of_baked();
    let d = dir.path().to_str().unwrap();
    let table = dir.path().join("korf-edges-6a.v1.tbl");
    std::fs::remove_file(&table).unwrap();
    mkfifo(&table);
    let (code, out, err) = run_within(&["tables", "--tables", d], limit);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("tier 6edge: unreadable"), "{out}");
    assert!(out.contains("is a fifo, not a regular file"), "{out}");
    let (code, out, err) = run_within(&["tables", "verify", "--tables", d], limit);
    assert_ne!(code, 0, "{out}");
    assert!(
        format!("{out}{err}").contains("is a fifo, not a regular file"),
        "{out} {err}"
    );
    let (code, out, err) = run_within(
        &[
            "optimal", "R U", "--tables", d, "--tier", "6edge", "--quiet",
        ],
        limit,
    );
    assert_eq!(code, 3, "{out} {err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("is a fifo, not a regular file"), "{err}");

    let tables = tables_arg();
    let checkpoint = dir.path().join("cp.fifo");
    mkfifo(&checkpoint);
    let (code, out, err) = run_within(
        &[
            "optimal",
            "R U",
            "--tables",
            &tables,
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ],
        limit,
    );
    assert_eq!(code, 1, "{out} {err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("is a fifo, not a regular file"), "{err}");
}

/// The inode of `path`, which a bake changes (it renames a new file over the old one).
fn inode(path: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).unwrap().ino()
}

// See: issue 16, "tables bake --force": a sound table is kept by a bake, baked again with
// --force, to the same bytes.
#[test]
fn i16_force_bakes_sound_tables_again() {
    let dir = copy_of_baked();
    let d = dir.path().to_str().unwrap();
    let path = dir.path().join("korf-edges-6a.v1.tbl");
    let (before, bytes) = (inode(&path), std::fs::read(&path).unwrap());
    let (code, _, err) = run(&["tables", "bake", "--tier", "6edge", "--tables", d], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(inode(&path), before, "a sound table is kept");
    let (code, out, err) = run(
        &[
            "tables", "bake", "--tier", "6edge", "--force", "--tables", d,
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_ne!(inode(&path), before, "--force bakes it again");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    assert!(out.contains("tier 6edge: ready"), "{out}");
}

// See: issue 16, "--mmap": the tables mapped instead of read give the same answers, and the
// progress says so.
#[test]
fn i16_mmap_maps_the_tables_and_says_so() {
    let dir = tables_arg();
    let (code, out, err) = run(
        &[
            "optimal", "R U F", "--tables", &dir, "--tier", "6edge", "--mmap",
        ],
        None,
    );
    assert_eq!(
        (code, out.trim()),
        (0, "F' U' R' (3 moves, optimal)"),
        "{err}"
    );
    assert!(err.contains("mapping the 6edge tables"), "{err}");
    let (code, out, err) = run(
        &[
            "optimal", "-", "--batch", "--tables", &dir, "--mmap", "--quiet",
        ],
        Some("R U F\nU2 D2\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(err.is_empty(), "{err}");
}

/// The solutions, `complete` and exit code of one `optimal --all --json` run.
fn all_solutions(extra: &[&str], state: &str) -> (i32, Vec<String>, Option<bool>, String) {
    // (Not proven optimal yet, the answer is the two-phase solution, as without --all.)
    let dir = tables_arg();
    let mut args = vec!["optimal", state, "--tables", &dir, "--all", "--json", "-q"];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args, None);
    let value: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| {
        panic!("one JSON record: {e}: {out:?} {err}");
    });
    let solutions = value["solutions"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default();
    (code, solutions, value["complete"].as_bool(), out)
}

/// Issue 31, item 2: `optimal --all` cut by `--timeout` prints the solutions it has as
/// incomplete (`"complete": false`, exit 4 as a timeout) and keeps its checkpoint; running the
/// same command again goes on from it, and the run that finishes the list prints the whole list
/// of an uninterrupted run and removes the checkpoint.
#[test]
fn i31_2_an_all_list_cut_by_a_timeout_is_incomplete_and_keeps_its_checkpoint() {
    // The twister pattern: 72 optimal solutions of 14 moves, over a second of search.
    let twister = "F R' U L F' L' F U' R U L' U' L F'";
    let (code, full, complete, out) = all_solutions(&[], twister);
    assert_eq!((code, complete), (0, Some(true)), "{out}");
    assert_eq!(full.len(), 72, "{out}");
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("twister.checkpoint");
    let checkpoint_arg = checkpoint.to_str().unwrap();
    let mut partial_lists = 0;
    let mut runs = 0;
    let last = loop {
        runs += 1;
        assert!(runs <= 30, "30 runs did not finish the list");
        // Longer and longer runs, each going on from the last one's checkpoint.
        let timeout = format!("{}ms", 250 * runs);
        let (code, solutions, complete, out) = all_solutions(
            &["--timeout", &timeout, "--checkpoint", checkpoint_arg],
            twister,
        );
        let value: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        if code == 0 && value["optimal"] == true {
            assert_eq!(complete, Some(true), "{out}");
            break solutions;
        }
        assert!(checkpoint.exists(), "run {runs} kept its checkpoint: {out}");
        assert_eq!(complete, Some(false), "{out}");
        if value["optimal"] == true {
            assert_eq!(code, 4, "a cut list exits as a timeout: {out}");
            assert!(solutions.iter().all(|s| full.contains(s)), "{out}");
            partial_lists += 1;
        }
    };
    assert!(
        partial_lists > 0 || runs == 1,
        "some run stopped in the middle of the list"
    );
    assert_eq!(
        last, full,
        "the list completed by the reruns is the whole list"
    );
    assert!(
        !checkpoint.exists(),
        "a finished list removes its checkpoint"
    );

    // In text, the cut list says so on a line of its own.
    let (code, out, _) = run(
        &[
            "optimal",
            twister,
            "--tables",
            &tables_arg(),
            "--all",
            "-q",
            "--timeout",
            "0.3s",
        ],
        None,
    );
    if code == 4 && out.contains("optimal)") {
        let last_line = out.trim_end().lines().last().unwrap();
        assert!(last_line.starts_with("incomplete: stopped after"), "{out}");
        assert!(last_line.contains("--checkpoint"), "{out}");
    }
}

/// Issue 31, item 4: `optimal --batch --checkpoint FILE` with several states gives each line its
/// own checkpoint, `FILE.<line>` (the line's 0-based number, its record's `index`), so that no
/// two searches write one file; a rerun goes on from each.
#[test]
fn i31_4_one_checkpoint_per_state_of_a_batch() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("batch.checkpoint");
    let superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
    let four_spots_inverse = "D U' L2 R2 D' U B2 F2";
    let input = format!("{superflip}\n# a comment\n{superflip}\n{four_spots_inverse}\n");
    let tables = tables_arg();
    let args = [
        "optimal",
        "-",
        "--batch",
        "--tables",
        &tables,
        "--json",
        "-q",
        "--threads",
        "1",
        "--timeout",
        "0.5s",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
    ];
    let (code, out, err) = run(&args, Some(&input));
    assert_eq!(
        code, 0,
        "the superflips end not proven, not in error: {out} {err}"
    );
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3, "{out}");
    assert_eq!(records[0]["index"], 0);
    assert_eq!(records[1]["index"], 2);
    assert_eq!(records[2]["optimal"], true, "{out}");
    let file = |line: usize| dir.path().join(format!("batch.checkpoint.{line}"));
    assert!(
        file(0).exists() && file(2).exists(),
        "one checkpoint per stopped line"
    );
    assert!(!file(3).exists(), "the solved line's is removed");
    assert!(!checkpoint.exists(), "no line writes FILE itself");
    let first = std::fs::read_to_string(file(0)).unwrap();
    // A rerun goes on from each line's own checkpoint (a checkpoint of another cube would be
    // refused as such).
    let (code, out, err) = run(&args, Some(&input));
    assert_eq!(code, 0, "{out} {err}");
    assert!(!out.contains("\"error\""), "{out}");
    assert_ne!(
        std::fs::read_to_string(file(0)).unwrap(),
        first,
        "line 0 went on"
    );
}

/// The temporary files in `dir`: names ending in `.tmp` or `.scratch`.
#[cfg(unix)]
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp") || name.ends_with(".scratch"))
        .collect()
}

/// Runs cube-cli with `args`, sends `signal` as soon as a temporary file whose name contains
/// `marker` is in `dir`, and returns the exit code, the temporary files left and how long the
/// process took to end after the signal.
#[cfg(unix)]
fn signal_when_temporary(
    args: &[&str],
    dir: &Path,
    marker: &str,
    signal: &str,
) -> (Option<i32>, Vec<String>, std::time::Duration) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("cube-cli"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !temporaries(dir).iter().any(|name| name.contains(marker)) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before a temporary file with {marker:?} appeared"
        );
        assert!(start.elapsed().as_secs() < 120, "no {marker:?} appeared");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let status = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let signalled = std::time::Instant::now();
    let status = child.wait().unwrap();
    (status.code(), temporaries(dir), signalled.elapsed())
}

/// Issue 31, item 5: SIGINT or SIGTERM during a bake (`tables bake`, and the first-use bake of
/// `optimal`, which took no signal before its search) ends it with exit 130 at once, and leaves
/// neither the corner scratch file nor a half-written table.
#[cfg(unix)]
#[test]
fn i31_5_a_signal_during_a_bake_leaves_nothing_behind() {
    for (args, signal) in [
        (vec!["tables", "bake", "--tier", "6edge"], "-INT"),
        (vec!["tables", "bake", "--tier", "6edge"], "-TERM"),
        (vec!["optimal", "R U F"], "-INT"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut all = args.clone();
        all.extend(["--tables", dir.path().to_str().unwrap()]);
        let (code, left, took) = signal_when_temporary(&all, dir.path(), "scratch", signal);
        assert_eq!(code, Some(130), "{args:?} {signal}");
        assert!(left.is_empty(), "{args:?} {signal} left {left:?}");
        assert!(took.as_secs() < 5, "{args:?} {signal} took {took:?}");
    }
    // The H48 table's temporary file, written at the end of an h0 bake.
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "tables",
        "bake",
        "--tier",
        "h0",
        "--tables",
        dir.path().to_str().unwrap(),
    ];
    let (code, left, _) = signal_when_temporary(&args, dir.path(), ".h48-", "-TERM");
    assert_eq!(code, Some(130));
    assert!(left.is_empty(), "left {left:?}");
}

/// Issue 31, item 8: `--tables` naming what cannot be a table directory (a file, a device, a
/// symbolic-link loop) is one error naming it and the fix, exit 3, at once: `tables` no longer
/// lists every table as missing, `optimal` no longer bakes for 40 s before "File exists".
#[cfg(unix)]
#[test]
fn i31_8_a_table_directory_that_cannot_be_one_is_said_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("afile");
    std::fs::write(&file, b"").unwrap();
    let looped = dir.path().join("loop");
    std::os::unix::fs::symlink(&looped, &looped).unwrap();
    for (bad, why) in [
        (file.to_str().unwrap(), "it is a file"),
        ("/dev/null", "it is a device"),
        (looped.to_str().unwrap(), "symbolic-link loop"),
    ] {
        for args in [
            vec!["tables"],
            vec!["tables", "bake", "--tier", "6edge"],
            vec!["optimal", "R U F"],
        ] {
            let mut all = args.clone();
            all.extend(["--tables", bad]);
            let start = std::time::Instant::now();
            let (code, out, err) = run(&all, None);
            assert_eq!(code, 3, "{all:?}: {out} {err}");
            assert!(start.elapsed().as_secs() < 5, "{all:?} at once");
            assert!(out.is_empty(), "{all:?}: {out}");
            assert_eq!(err.trim().lines().count(), 1, "{all:?}: one error: {err}");
            assert!(err.contains(bad) && err.contains(why), "{all:?}: {err}");
            assert!(err.contains("cannot be the table directory"), "{err}");
        }
    }
    // `solve` keeps answering, its tables built in memory, and says why.
    let (code, out, err) = run(
        &[
            "solve",
            "R U",
            "--method",
            "thistlethwaite",
            "--tables",
            "/dev/null",
        ],
        None,
    );
    assert_eq!(code, 0, "{out} {err}");
    assert!(out.contains("moves)"), "{out}");
    assert!(err.contains("cannot be the table directory"), "{err}");
}
