//! The H48 tiers from the command line (issue 13, item 5): `optimal --tier h0` runs the sym48
//! search and gives Korf's lengths and solutions, with the same record, timeouts and checkpoints;
//! an H48 tier asked for is baked on first use; `tables` lists, bakes and verifies the H48 tiers.
//! The h0 tier (71 MiB with the corner database, about 15 s) is baked once into a cached
//! directory under the target directory that every test here shares.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::optimal::baked_dir;
use crate::run;

/// The directory of the h0 tier: the first test that needs it runs `optimal --tier h0` there,
/// which bakes h0 and the corner database on first use.
fn h0_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-h48");
        let fresh = !dir.join("h48-h0.v1.tbl").exists();
        let (code, out, err) = run(
            &[
                "optimal",
                "R U F",
                "--tier",
                "h0",
                "--tables",
                dir.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.trim(), "F' U' R' (3 moves, optimal)");
        if fresh {
            assert!(
                err.contains("baking the H48 tables of h0 with the corner database"),
                "a missing H48 tier asked for is baked on first use: {err}"
            );
            assert!(err.contains("baked H48 h0 in"), "{err}");
        }
        dir
    })
}

fn h0_arg() -> String {
    h0_dir().to_str().unwrap().to_string()
}

/// Short scrambles, solved by Korf's 6edge tier as the oracle.
const SCRAMBLES: [&str; 6] = [
    "R U R' U'",
    "F2 U' B L2 D R' F",
    "L D2 R' F U2 B' D L2",
    "U F' R2 D' B L U' R2 F D",
    "B2 R F' D L2 U' B R' D2 F' L",
    "F2 U' B L2 D R' F U2 L' B2 D' R2 F",
];

/// One JSON record per scramble, from a batch run of `optimal` with `args`.
fn solve_batch(tables: &str, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["optimal", "-", "--batch", "--json", "--tables", tables];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all, Some(&SCRAMBLES.join("\n")));
    assert_eq!(code, 0, "{err}");
    let records: Vec<Value> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(records.len(), SCRAMBLES.len(), "{out}");
    records
}

#[test]
fn h0_gives_the_lengths_of_korf() {
    let korf = solve_batch(baked_dir().to_str().unwrap(), &["--tier", "6edge"]);
    let sym48 = solve_batch(&h0_arg(), &["--tier", "h0"]);
    for ((scramble, korf), sym48) in SCRAMBLES.iter().zip(&korf).zip(&sym48) {
        assert_eq!(sym48["tier"], "h0", "{sym48}");
        assert_eq!(korf["tier"], "6edge", "{korf}");
        assert_eq!(sym48["optimal"], true, "{scramble}: {sym48}");
        assert_eq!(
            sym48["length"], korf["length"],
            "{scramble}: {sym48} {korf}"
        );
        // The solution solves the scramble.
        let solution = sym48["solution"].as_str().unwrap();
        let (code, out, err) = run(&["verify", scramble, solution], None);
        assert_eq!(code, 0, "{scramble}: {solution} {out} {err}");
    }
    // Lengths at most the scramble's, and the one of 4 moves is 4.
    assert_eq!(sym48[0]["length"], 4);
    assert_eq!(sym48[5]["length"], 13, "the README's scramble is 13 moves");
}

#[test]
fn h0_gives_every_optimal_solution_of_korf() {
    let set = |tables: &str, tier: &str, scramble: &str| -> BTreeSet<String> {
        let (code, out, err) = run(
            &[
                "optimal", scramble, "--tables", tables, "--tier", tier, "--all", "--json",
            ],
            None,
        );
        assert_eq!(code, 0, "{err}");
        let value: Value = serde_json::from_str(&out).unwrap();
        value["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    for scramble in [
        "R2 U2 R2 U2 R2 U2",
        "F R U R' U' F' D2 L",
        "U2 D2 R2 L2 F2 B2",
    ] {
        let korf = set(baked_dir().to_str().unwrap(), "6edge", scramble);
        let sym48 = set(&h0_arg(), "h0", scramble);
        assert!(korf.len() > 1, "{scramble}: several solutions {korf:?}");
        assert_eq!(sym48, korf, "{scramble}");
    }
    // Up to N.
    let (code, out, err) = run(
        &[
            "optimal",
            "U2 D2 R2 L2 F2 B2",
            "--tables",
            &h0_arg(),
            "--tier",
            "h0",
            "--max-solutions",
            "2",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
}

#[test]
fn h0_record_has_the_korf_shape_and_progress_per_bound() {
    let scramble = "F2 U' B L2 D R' F U2 L' B2 D' R2 F";
    let record = |tables: &str, tier: &str| -> Value {
        let (code, out, err) = run(
            &[
                "optimal", scramble, "--tables", tables, "--tier", tier, "--json",
            ],
            None,
        );
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let korf = record(baked_dir().to_str().unwrap(), "6edge");
    let sym48 = record(&h0_arg(), "h0");
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&sym48), keys(&korf));
    assert_eq!(sym48["method"], "optimal");
    assert_eq!(sym48["tier"], "h0");
    assert_eq!(sym48["proven_lower_bound"], 13);
    assert!(sym48["nodes"].as_u64().unwrap() > 0, "{sym48}");
    assert!(sym48["seconds"].as_f64().is_some());
    // Progress per bound on standard error.
    let (code, _, err) = run(
        &["optimal", scramble, "--tables", &h0_arg(), "--tier", "h0"],
        None,
    );
    assert_eq!(code, 0);
    assert!(err.contains("depth 12 exhausted"), "{err}");
    // `solve --method optimal` goes the same way.
    let (code, out, err) = run(
        &[
            "solve",
            "R U",
            "--method",
            "optimal",
            "--tier",
            "h0",
            "--tables",
            &h0_arg(),
        ],
        None,
    );
    assert_eq!((code, out.trim()), (0, "U' R' (2 moves, optimal)"), "{err}");
}

/// The superflip, 20 moves: no search proves it in a test's time (and it is in the h0 coset of
/// the solved cube).
const SUPERFLIP: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

#[test]
fn h0_timeout_checkpoint_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("superflip.checkpoint");
    let checkpoint_arg = checkpoint.to_str().unwrap();
    let args = |timeout: &'static str| {
        vec![
            "optimal",
            SUPERFLIP,
            "--json",
            "--threads",
            "2",
            "--timeout",
            timeout,
            "--checkpoint",
            checkpoint_arg,
        ]
    };
    let mut first = args("0.5");
    first.extend(["--tables", h0_dir().to_str().unwrap(), "--tier", "h0"]);
    let (code, out, err) = run(&first, None);
    assert_eq!(code, 0, "{err}");
    let value: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["optimal"], false);
    assert_eq!(
        value["length"], 20,
        "the two-phase solution is known at once"
    );
    // h0 knows nothing of flips: the superflip's h0 value is 0, its bound comes from the search.
    assert!(value["proven_lower_bound"].as_u64().unwrap() >= 1, "{out}");
    let nodes = value["nodes"].as_u64().unwrap();
    let saved = std::fs::read_to_string(&checkpoint).unwrap();
    assert!(saved.contains("\ntier h0\n"), "{saved}");
    assert!(saved.contains(&format!("\nnodes {nodes}\n")), "{saved}");
    // Resumed, the node count goes on.
    let (code, out, err) = run(&first, None);
    assert_eq!(code, 0, "{err}");
    let value: Value = serde_json::from_str(&out).unwrap();
    assert!(value["nodes"].as_u64().unwrap() > nodes, "{out}");
    // The Korf tier refuses it, naming the tier.
    let mut korf = args("0.5");
    korf.extend(["--tables", baked_dir().to_str().unwrap(), "--tier", "6edge"]);
    let (code, out, err) = run(&korf, None);
    assert_eq!(code, 1, "{out} {err}");
    // With --json, the error is the record.
    assert!(
        out.contains("taken with the h0 tables, this search uses 6edge"),
        "{out}"
    );
}

#[test]
fn a_corrupt_h0_table_is_refused_before_any_search() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["korf-corners.v1.tbl", "h48-h0.v1.tbl"] {
        std::fs::copy(h0_dir().join(name), dir.path().join(name)).unwrap();
    }
    let path = dir.path().join("h48-h0.v1.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x04;
    std::fs::write(&path, bytes).unwrap();
    let d = dir.path().to_str().unwrap();
    crate::corrupt_payload_is_refused(d, "h0", "h48-h0", "flipped byte");
    let (code, _, err) = run(&["tables", "verify", "--tables", d], None);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("h48-h0") && err.contains("the payload is corrupt"),
        "{err}"
    );
}

#[test]
fn without_tier_h0_is_never_chosen() {
    // The h0 directory has no tier of h4 to h7 and no Korf tier at first: the default is 6edge
    // (baked on first use there), never the test tier h0.
    let (code, out, err) = run(&["optimal", "R U", "--tables", &h0_arg(), "--json"], None);
    assert_eq!(code, 0, "{err}");
    let value: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["tier"], "6edge", "{out}");
}

#[test]
fn tables_status_lists_the_h48_tiers_with_their_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = run(&["tables", "--all", "--tables", d], None);
    assert_eq!(code, 0, "{err}");
    for id in ["h48-h0", "h48-h4", "h48-h5", "h48-h6", "h48-h7"] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(id) && l.ends_with("missing")),
            "{id}: {out}"
        );
    }
    // Sizes from the specs: h4 is 486,420,480 bytes of payload (design note), with the 42 MiB
    // corner database 506 MiB.
    assert!(
        out.contains("tier h4: not baked (cube-cli tables bake --tier h4: about 10 minutes on 2 cores, 506 MiB of disk)"),
        "{out}"
    );
    assert!(out.contains("tier h7: not baked"), "{out}");
    let (code, out, _) = run(&["tables", "--tables", d, "--json"], None);
    assert_eq!(code, 0);
    let value: Value = serde_json::from_str(&out).unwrap();
    let table = |id: &str| {
        value["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .unwrap_or_else(|| panic!("{id} in {out}"))
            .clone()
    };
    // The header is 384 bytes (docs/tables.md).
    assert_eq!(table("h48-h4")["expected_bytes"], 486_420_480 + 384);
    assert_eq!(table("h48-h7")["expected_bytes"], 3_891_363_840_u64 + 384);
    let tiers: Vec<&str> = value["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tier"].as_str().unwrap())
        .collect();
    assert_eq!(
        tiers,
        [
            "6edge",
            "7edge",
            "8edge",
            "h0",
            "h4",
            "h5",
            "h6",
            "h7",
            "nx-eo1ep1",
            "nx-eo2ep1",
            "nx-eo1ep2",
            "nx-eo1ep3",
            "nx-eo3ep1",
            "nx-eo2ep2",
            "nx-eo1ep1-qtm",
            "nx-eo2ep1-qtm",
            "nx-eo1ep2-qtm",
            "nx-eo1ep3-qtm",
            "nx-eo3ep1-qtm",
            "nx-eo2ep2-qtm",
        ]
    );
}

#[test]
fn tables_bake_h0_then_status_and_verify_are_ok() {
    let d = h0_arg();
    let (code, out, err) = run(&["tables", "bake", "--tier", "h0", "--tables", &d], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("tier h0: ready (71 MiB)"), "{out}");
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("h48-h0"))
        .unwrap();
    assert!(line.contains("29.0 MiB  ok (payload checked"), "{line}");
    let (code, out, err) = run(&["tables", "verify", "--tier", "h0", "--tables", &d], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("korf-corners") && out.contains("h48-h0"),
        "{out}"
    );
    assert!(!out.contains("korf-edges"), "{out}");
}

#[test]
fn a_bad_tier_list_is_a_usage_error_naming_the_tiers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for args in [
        vec!["tables", "bake", "--tier", "h4,h9", "--tables", d],
        vec!["tables", "bake", "--tier", "h4,", "--tables", d],
        vec!["optimal", "R U", "--tier", "h3", "--tables", d],
    ] {
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{out}");
        // Issue 16: the tiers are clap's possible values.
        assert!(
            err.contains(
                "[possible values: 6edge, 7edge, 8edge, h0, h4, h5, h6, h7, nx-eo1ep1, nx-eo2ep1, \
                 nx-eo1ep2, nx-eo1ep3, nx-eo3ep1, nx-eo2ep2, nx-eo1ep1-qtm, nx-eo2ep1-qtm, \
                 nx-eo1ep2-qtm, nx-eo1ep3-qtm, nx-eo3ep1-qtm, nx-eo2ep2-qtm]"
            ),
            "{args:?}: {err}"
        );
    }
    // Nothing was baked.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A table error ends with its fix in the CLI's words (the front end words the fix the error
/// carries; no library function named): a corrupt H48 table, refused by `optimal` with exit 3 and
/// listed by `tables`.
#[test]
fn a_bad_h48_table_names_the_cli_bake() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    std::fs::write(dir.path().join("h48-h0.v1.tbl"), b"not a table".repeat(100)).unwrap();
    let (code, _, err) = run(&["optimal", "R U", "--tables", d, "--tier", "h0"], None);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("table h48-h0") && err.contains("(re-run cube-cli tables bake --tier h0)"),
        "{err}"
    );
    assert!(!err.contains("cube_tables::"), "{err}");
    let (_, out, _) = run(&["tables", "--tables", d], None);
    let line = out
        .lines()
        .find(|l| l.contains("h48-h0"))
        .unwrap_or_default();
    assert!(
        line.contains("invalid: ") && line.ends_with("(re-run cube-cli tables bake --tier h0)"),
        "{out}"
    );
}
