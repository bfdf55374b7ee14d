//! The small tables of two-phase and Thistlethwaite, cached in the table directory.

use std::path::Path;

use crate::cube_cli;

/// Runs `cube-cli` with `--tables dir` and `args`; returns (exit code, stdout, stderr).
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = cube_cli()
        .arg("--tables")
        .arg(dir)
        .args(args)
        .output()
        .expect("run cube-cli");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn cached(dir: &Path, prefix: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|name| name.starts_with(prefix) && name.ends_with(".tbl"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

const SCRAMBLE: &str = "R U2 F' L D B2 R' U F2";

#[test]
fn thistlethwaite_tables_are_cached_and_a_corrupt_one_is_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["solve", "--method", "thistlethwaite", SCRAMBLE];
    let (code, first, err) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    let files = cached(dir.path(), "thistlethwaite-");
    assert_eq!(
        files,
        (1..=4)
            .map(|p| format!("thistlethwaite-phase{p}.v1.tbl"))
            .collect::<Vec<_>>()
    );
    assert!(
        cached(dir.path(), "two-phase-").is_empty(),
        "only the method used is cached"
    );

    // The second run reads the files and solves the same way.
    let phase3 = dir.path().join("thistlethwaite-phase3.v1.tbl");
    let good = std::fs::read(&phase3).unwrap();
    let (code, second, err) = run_in(dir.path(), &args);
    assert_eq!((code, &second), (0, &first), "{err}");

    // A corrupt file is never used: the next run still solves correctly, and rewrites it.
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x5a;
    bad[1000] ^= 0x01;
    std::fs::write(&phase3, &bad).unwrap();
    let (code, third, err) = run_in(dir.path(), &args);
    assert_eq!((code, &third), (0, &first), "{err}");
    assert_eq!(
        std::fs::read(&phase3).unwrap(),
        good,
        "the corrupt file is rewritten"
    );

    // A truncated file too.
    std::fs::write(&phase3, &good[..500]).unwrap();
    let (code, fourth, err) = run_in(dir.path(), &args);
    assert_eq!((code, &fourth), (0, &first), "{err}");
    assert_eq!(std::fs::read(&phase3).unwrap(), good);
}

/// See issue 36: in a new table directory, one state is answered from the small two-phase
/// tables within seconds and nothing is built on disk; a batch builds and caches the large ones,
/// which later one-shot runs use.
#[test]
fn a_first_solve_answers_from_the_small_tables_and_a_batch_caches_the_large() {
    let dir = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    let (code, first, err) = run_in(dir.path(), &["solve", SCRAMBLE]);
    // Generous for a loaded machine; the small tables take a fraction of a second.
    assert!(
        start.elapsed().as_secs_f64() < 10.0,
        "{:?}",
        start.elapsed()
    );
    assert_eq!(code, 0, "{err}");
    let moves: Vec<&str> = first.split(" (").next().unwrap().split(' ').collect();
    assert!(moves.len() <= 20, "{first}");
    let (code, applied, err) = run_in(
        dir.path(),
        &[
            "convert",
            &format!("{SCRAMBLE} {}", moves.join(" ")),
            "--to",
            "facelets",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        applied.trim(),
        "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
    );
    assert!(
        cached(dir.path(), "two-phase-").is_empty(),
        "the large tables were not built"
    );
    // Two states in one run: the large tables are built and cached.
    let batch = format!("{SCRAMBLE}\nR U F");
    let (code, out, err) = run_in(dir.path(), &["solve", &batch]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert_eq!(cached(dir.path(), "two-phase-").len(), 7);
    let (code, second, err) = run_in(dir.path(), &["solve", SCRAMBLE]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(second.lines().next(), out.lines().next(), "{err}");
}

/// See issue 15: an unwritable directory is never said to cache anything.
#[test]
fn an_unwritable_table_directory_still_solves() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, b"not a directory").unwrap();
    let below = file.join("tables");
    for method in ["two-phase", "thistlethwaite"] {
        let (code, out, err) = run_in(&below, &["solve", "--method", method, SCRAMBLE]);
        assert_eq!(code, 0, "{method}: {err}");
        assert!(!out.trim().is_empty(), "{method}");
        assert!(!err.contains("cached the"), "{method}: {err}");
        // One two-phase state is answered from the small tables, which are never cached.
        assert_eq!(
            err.contains(&format!("the {method} tables are not cached")),
            method == "thistlethwaite",
            "{method}: {err}"
        );
    }
}

#[test]
fn cross_tables_are_cached_for_beginner_and_cfop() {
    let dir = tempfile::tempdir().unwrap();
    let (code, first, err) = run_in(dir.path(), &["solve", "--method", "cfop", SCRAMBLE]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cached(dir.path(), "cross-").len(), 15);
    // Corrupt the full cross table: the next run rebuilds it and solves the same way.
    let full = dir.path().join("cross-15.v1.tbl");
    let good = std::fs::read(&full).unwrap();
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x01;
    std::fs::write(&full, &bad).unwrap();
    let (code, second, err) = run_in(dir.path(), &["solve", "--method", "cfop", SCRAMBLE]);
    assert_eq!((code, &second), (0, &first), "{err}");
    assert_eq!(std::fs::read(&full).unwrap(), good);
    let (code, _, err) = run_in(dir.path(), &["solve", "--method", "beginner", SCRAMBLE]);
    assert_eq!(code, 0, "{err}");
}
