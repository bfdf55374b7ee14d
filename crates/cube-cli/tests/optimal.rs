//! `optimal`, `solve --method optimal` and `tables`: the first run bakes the default tier into an
//! empty table directory, later runs reuse it; missing and corrupt tables and timeouts.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::run;

/// The shared table directory, with the 6edge tier baked (by whichever run came first).
fn baked_dir() -> &'static Path {
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
    assert!(out.contains("tier 8edge: not baked"), "{out}");
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
