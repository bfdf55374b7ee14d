//! Issue 16: every JSON record type the binary prints validates against `docs/json.schema.json`,
//! and so does every example of `docs/json.md`.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::run;

fn docs(name: &str) -> String {
    let path = format!("{}/../../docs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Validates every line of `out` against the schema; returns the `type`s seen.
fn validate(validator: &jsonschema::Validator, what: &str, out: &str) -> BTreeSet<String> {
    let mut types = BTreeSet::new();
    for line in out.lines() {
        let record: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{what}: {e}: {line}"));
        let errors: Vec<String> = validator
            .iter_errors(&record)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{what}: {line}: {errors:?}");
        types.insert(record["type"].as_str().expect("a type").to_string());
    }
    types
}

// See: issue 16, "JSON Lines with one schema".
#[test]
fn i16_records_validate() {
    let schema: Value =
        serde_json::from_str(&docs("json.schema.json")).expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema is a valid schema");
    let tables = crate::optimal::baked_dir().to_str().unwrap().to_string();
    let twisted =
        "UF0 UB0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR1 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0";
    // A one-algorithm list, so that `fmc insert` runs without the generated set.
    let dir = tempfile::tempdir().unwrap();
    let algs = dir.path().join("algs.txt");
    std::fs::write(&algs, "R U R' D R U' R' D'\n").unwrap();
    let algs = algs.to_str().unwrap().to_string();
    let runs: Vec<(Vec<&str>, Option<&str>)> = vec![
        (
            vec!["solve", "R U R' U'", "--method", "cfop", "--explain"],
            None,
        ),
        (vec!["solve", "-", "--batch"], Some("R U\nQ\n")),
        (
            vec![
                "optimal", "R U F", "--all", "--tables", &tables, "--tier", "6edge",
            ],
            None,
        ),
        (
            vec![
                "scramble", "--count", "2", "--format", "kpattern", "--seed", "1",
            ],
            None,
        ),
        (
            vec!["check", "-"],
            Some("R U\nUUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBR\n"),
        ),
        (vec!["check", twisted], None),
        (
            vec!["convert", "-", "--to", "reid"],
            Some("R\n# a comment\n9c14df400001baa5280000\nQ\n"),
        ),
        (vec!["show", "R"], None),
        (vec!["verify", "R U", "U R'"], None),
        (vec!["fmc", "unniss", "-"], Some("R U (F' D)\n(R U)2\n")),
        (vec!["fmc", "count", "R U2 (M' F)"], None),
        (
            vec!["fmc", "solve", "eofb", "R U F", "--niss", "all", "-n", "3"],
            None,
        ),
        (vec!["fmc", "solve", "drud-eofb", "R U F"], None),
        (vec!["fmc", "steps"], None),
        (
            vec![
                "fmc",
                "insert",
                "D R U R' D' R U' R' F2 B2",
                "B2 F2",
                "--algs",
                &algs,
            ],
            None,
        ),
        (vec!["fmc", "cycles", "R U R' U'", "(U R)"], None),
        (
            vec![
                "fmc",
                "improve",
                "R2 U2 R2 U2 R2 U2 R2",
                "--max-length",
                "8",
            ],
            None,
        ),
        (vec!["scramble", "--type", "htr", "--seed", "3"], None),
        (vec!["tables", "--tables", &tables], None),
        (vec!["tables", "files", "--tables", &tables], None),
        (
            vec!["tables", "verify", "--tier", "6edge", "--tables", &tables],
            None,
        ),
        (
            vec!["optimal", "R", "--tier", "8edge", "--tables", &tables],
            None,
        ),
        (vec!["solve", "R", "--method", "cfop", "--all"], None),
        (vec!["frobnicate"], None),
    ];
    let mut seen = BTreeSet::new();
    for (mut args, stdin) in runs {
        args.push("--json");
        let (_, out, err) = run(&args, stdin);
        assert!(!out.is_empty(), "{args:?}: {err}");
        seen.extend(validate(&validator, &format!("{args:?}"), &out));
    }
    let all = [
        "solution",
        "scramble",
        "check",
        "conversion",
        "net",
        "verification",
        "sequence",
        "fmc-solutions",
        "fmc-insertions",
        "fmc-cycles",
        "fmc-improvements",
        "step",
        "tables",
        "error",
    ];
    assert_eq!(seen, all.iter().map(|t| t.to_string()).collect());
    // The examples of docs/json.md, one or more of every type.
    let guide = docs("json.md");
    let mut examples = String::new();
    let mut in_json = false;
    for line in guide.lines() {
        match line {
            "```json" => in_json = true,
            "```" => in_json = false,
            _ if in_json => {
                examples.push_str(line);
                examples.push('\n');
            }
            _ => {}
        }
    }
    let documented = validate(&validator, "docs/json.md", &examples);
    assert_eq!(
        documented, seen,
        "docs/json.md has an example of every type"
    );
    // A record that breaks the schema is caught (the test can fail).
    let bad: Value =
        serde_json::json!({"type": "check", "legal": "yes", "from": "alg", "problems": []});
    assert!(!validator.is_valid(&bad));
}
