//! Issue 33: the fewest-moves front end: subgroup scrambles (`scramble --type`) and the NISS
//! notation commands (`fmc unniss`, `fmc invert`, `fmc cleanup`, `fmc count`).

use cube_core::{Alg, Cube, NissAlg, Subgroup};
use serde_json::Value;

use crate::run;

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

// See: issue 33, item 4.
#[test]
fn i33_4_subgroup_scrambles_make_states_of_the_subgroup() {
    for subgroup in Subgroup::ALL {
        let name = subgroup.name();
        let args = [
            "scramble", "--type", name, "--seed", "33", "--count", "5", "--json",
        ];
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 0, "{name}: {err}");
        let (code, again, err) = run(&args, None);
        assert_eq!(code, 0, "{name}, again: {err}");
        // The seed fixes the states; the moves that write one down may depend on the two-phase
        // tables cached (a state this short has many solutions of the same length).
        let states = |out: &str| -> Vec<Cube> {
            json_lines(out)
                .iter()
                .map(|record| {
                    assert_eq!(record["subgroup"], name);
                    let alg: Alg = record["scramble"].as_str().unwrap().parse().unwrap();
                    Cube::SOLVED.apply_alg(&alg)
                })
                .collect()
        };
        assert_eq!(
            states(&out),
            states(&again),
            "{name}: the seed reproduces the states"
        );
        let records = json_lines(&out);
        assert_eq!(records.len(), 5);
        for state in states(&out) {
            assert!(subgroup.contains(&state), "{name}");
        }
        // Every --format prints the same state.
        let (code, h48, err) = run(
            &[
                "scramble", "--type", name, "--seed", "33", "--format", "h48",
            ],
            None,
        );
        assert_eq!(code, 0, "{err}");
        let first = records[0]["scramble"].as_str().unwrap();
        let (_, expected, _) = run(&["convert", first, "--to", "h48"], None);
        assert_eq!(h48, expected, "{name}");
    }
    // Another seed, another state.
    let (_, a, _) = run(&["scramble", "--type", "dr", "--seed", "1"], None);
    let (_, b, _) = run(&["scramble", "--type", "dr", "--seed", "2"], None);
    assert_ne!(a, b);
}

// See: issue 33, item 4: a bad type is a usage error listing the types; --type and --event do
// not go together (an event's padding or reorientation would leave the subgroup).
#[test]
fn i33_4_bad_scramble_types_are_usage_errors() {
    let (code, out, err) = run(&["scramble", "--type", "drud"], None);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("drud") && err.contains("eo, dr, htr, corners, edges"),
        "{err}"
    );
    let (code, _, err) = run(&["scramble", "--type", "dr", "--event", "333fm"], None);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
}

// See: issue 33, item 5: the notation commands, their text and their JSON, each result checked
// against cube-core's states rather than against strings this code printed.
#[test]
fn i33_5_notation_commands() {
    let sequence = "R U (F' D)";
    let niss: NissAlg = sequence.parse().unwrap();
    let scramble = Cube::SOLVED.apply_alg(&niss.unniss()).inverse();
    let (code, out, err) = run(&["fmc", "unniss", sequence], None);
    assert_eq!((code, out.as_str()), (0, "R U D' F\n"), "{err}");
    let (code, out, _) = run(&["fmc", "invert", sequence], None);
    assert_eq!(code, 0);
    let inverted: NissAlg = out.trim().parse().unwrap();
    // The inverse sequence solves the inverse scramble.
    assert!(
        inverted.normal_side(&scramble.inverse()).is_solved(),
        "{out}"
    );
    let messy = "Rw L' x' (M2 U U D)";
    let (code, out, _) = run(&["fmc", "cleanup", messy], None);
    assert_eq!(code, 0);
    let clean: NissAlg = out.trim().parse().unwrap();
    let messy: NissAlg = messy.parse().unwrap();
    let random = Cube::random(&mut <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(9));
    assert_eq!(clean.normal_side(&random), messy.normal_side(&random));
    assert!(
        out.trim().chars().all(|c| "URFDLB2' ()".contains(c)),
        "{out}"
    );
    // The counts of a sequence with a slice and a half turn, worked out by hand: R 1, U2 1 (2
    // in QTM), M' 2 (1 in STM), F 1.
    let (code, out, _) = run(&["fmc", "count", "R U2 (M' F)"], None);
    assert_eq!((code, out.as_str()), (0, "5 HTM, 6 QTM, 4 STM\n"));
    let (_, out, _) = run(&["fmc", "count", "R U2 (M' F)", "--json"], None);
    let record = &json_lines(&out)[0];
    assert_eq!(
        (&record["htm"], &record["qtm"], &record["stm"]),
        (&Value::from(5), &Value::from(6), &Value::from(4))
    );
}

// See: issue 33, item 1: cubing.js text in an FMC command says which reading the command uses.
#[test]
fn i33_5_cubing_js_text_is_refused_with_the_reading() {
    for bad in ["(R U)2", "(R (U))", "[R, U]", "(R U)'"] {
        let (code, out, err) = run(&["fmc", "unniss", bad], None);
        assert_eq!(code, 1, "{bad}: {out}");
        assert!(
            err.contains("reads NISS notation") && err.contains("inverse scramble"),
            "{bad}: {err}"
        );
    }
    let (code, _, err) = run(&["fmc", "count", "R Q"], None);
    assert_eq!(code, 1);
    assert!(err.contains("column 3"), "{err}");
}

// See: issue 33, item 5: one sequence per line, in input order, with index and input; shards.
#[test]
fn i33_5_notation_reads_lines_and_shards() {
    let input = "R U (F)\n# a comment\n(R U)2\n\nx R\n";
    let (code, out, _) = run(&["fmc", "unniss", "-"], Some(input));
    assert_eq!(code, 1, "a bad line sets the exit code");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "R U F'");
    assert!(lines[1].starts_with("error: "), "{out}");
    assert_eq!(lines[2], "x R");
    let (code, out, _) = run(&["fmc", "count", "-", "--json"], Some(input));
    assert_eq!(code, 1);
    let indexes: Vec<u64> = json_lines(&out)
        .iter()
        .map(|r| r["index"].as_u64().unwrap())
        .collect();
    assert_eq!(indexes, [0, 2, 4]);
    let (code, out, _) = run(&["fmc", "count", "-", "--shard", "0/4"], Some(input));
    assert_eq!(
        (code, out.as_str()),
        (0, "3 HTM, 3 QTM, 3 STM\n1 HTM, 1 QTM, 1 STM\n"),
        "lines 0 and 4 only"
    );
    // --batch answers a single sequence with its index.
    let (_, out, _) = run(&["fmc", "invert", "R U", "--batch", "--json"], None);
    assert_eq!(json_lines(&out)[0]["index"], 0);
}

/// A scramble of 22 moves (a WCA-style FMC scramble) that EO is not solved on.
const SCRAMBLE: &str = "R' U' F D2 L2 F R2 U2 R2 B D2 L2 F' R' F2 U2 F' L' U R' U' F";

// See: issue 33, item 5: `fmc solve` prints solutions that do what the step asks, checked
// with cube-core's states (the solution sets themselves are cube-solvers' tests, against
// nissy-core's).
#[test]
fn i33_5_solve_prints_solutions_of_the_step() {
    let scramble = Cube::SOLVED.apply_alg(&SCRAMBLE.parse::<Alg>().unwrap());
    let args = [
        "fmc",
        "solve",
        "coord_EO_UF",
        SCRAMBLE,
        "--niss",
        "all",
        "-n",
        "20",
        "--json",
    ];
    let (code, out, err) = run(&args, None);
    assert_eq!(code, 0, "{err}");
    let record = &json_lines(&out)[0];
    assert_eq!(record["step"], "eofb", "an alias reads as its step");
    let solutions = record["solutions"].as_array().unwrap();
    assert_eq!(solutions.len(), 20);
    let mut last = 0;
    for s in solutions {
        let niss: NissAlg = s["solution"].as_str().unwrap().parse().unwrap();
        assert!(Subgroup::Eo.contains(&niss.normal_side(&scramble)), "{s}");
        assert_eq!(s["length"].as_u64().unwrap() as usize, niss.htm());
        assert_eq!(niss.normal_part().to_string(), s["normal"]);
        assert_eq!(niss.inverse_part().to_string(), s["inverse"]);
        let length = niss.htm();
        assert!(length >= last, "shortest first");
        last = length;
    }
    assert_eq!(record["optimum"], solutions[0]["length"]);
    // Text: one solution per line, with `// length`, that reads back as a sequence.
    let (_, text, _) = run(&["fmc", "solve", "eofb", SCRAMBLE, "-n", "3"], None);
    for line in text.lines() {
        let niss: NissAlg = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(
            Subgroup::Eo.contains(&niss.normal_side(&scramble)),
            "{line}"
        );
    }
    // --count counts, --optimal keeps the shortest only.
    let (_, out, _) = run(
        &[
            "fmc",
            "solve",
            "eofb",
            SCRAMBLE,
            "--optimal",
            "-n",
            "1000",
            "--json",
        ],
        None,
    );
    let optimal = &json_lines(&out)[0];
    let lengths: Vec<&Value> = optimal["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["length"])
        .collect();
    assert!(
        lengths.iter().all(|&l| *l == record["optimum"]),
        "{lengths:?}"
    );
    let (_, out, _) = run(
        &[
            "fmc",
            "solve",
            "eofb",
            SCRAMBLE,
            "--optimal",
            "-n",
            "1000",
            "--count",
        ],
        None,
    );
    assert_eq!(out.trim(), format!("{} solutions", lengths.len()));
}

// See: issue 33, proof: the errors of `fmc solve`, each specific, with the CLI's exit codes.
#[test]
fn i33_5_solve_errors() {
    let cases: [(&[&str], i32, &str); 6] = [
        (
            &["fmc", "solve", "drud-eofb", SCRAMBLE],
            1,
            "needs edge orientation solved on F/B",
        ),
        (&["fmc", "solve", "eofbb", SCRAMBLE], 2, "did you mean eofb"),
        (
            &["fmc", "solve", "eofb", SCRAMBLE, "--min", "5", "--max", "3"],
            2,
            "--max 3 is below --min 5",
        ),
        (&["fmc", "solve", "eofb", ""], 1, "empty"),
        (
            &["fmc", "solve", "eofb", SCRAMBLE, "--niss", "sideways"],
            2,
            "normal, inverse, linear, mixed, all",
        ),
        (&["fmc", "solve", "eofb", SCRAMBLE, "--max", "21"], 2, "21"),
    ];
    for (args, code, message) in cases {
        let (got, out, err) = run(args, None);
        assert_eq!(got, code, "{args:?}: {out} {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    // A state out of the subgroup in a batch is an error for its line only.
    let (code, out, _) = run(
        &["fmc", "solve", "htr-drud", "-", "--json"],
        Some("R2 U\nR U\n"),
    );
    assert_eq!(code, 1);
    let records = json_lines(&out);
    assert_eq!(records[0]["type"], "fmc-solutions");
    assert_eq!(records[1]["error"]["kind"], "requisite");
}

// See: issue 33, item 5: `fmc steps` lists every step with its aliases, moveset, requisite and
// table size.
#[test]
fn i33_5_steps_lists_every_step() {
    let (code, out, _) = run(&["fmc", "steps", "--json"], None);
    assert_eq!(code, 0);
    let names: Vec<String> = json_lines(&out)
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    for name in [
        "eofb",
        "eorl",
        "eoud",
        "drud",
        "drrl",
        "drfb",
        "drud-eofb",
        "htr-drud",
    ] {
        assert!(names.iter().any(|n| n == name), "{name}: {names:?}");
    }
    for record in json_lines(&out) {
        assert!(record["table_bytes"].as_u64().unwrap() > 0, "{record}");
    }
}

// See: issue 33, item 1: the FMC commands read their scrambles and partial solutions in NISS
// notation; `fmc solve` too.
#[test]
fn i33_1_solve_reads_a_partial_solution_with_niss() {
    // The scramble, then an EO found with NISS: `R2 F` on the scramble, `U2 B` on its inverse. The
    // state it leaves is the inverse of the inverse part, the scramble, then the normal part.
    let skeleton = format!("{SCRAMBLE} R2 F (U2 B)");
    let written_out = format!("B' U2 {SCRAMBLE} R2 F");
    let solve = |state: &str| {
        let (code, out, err) = run(
            &["fmc", "solve", "drud-eofb", state, "-n", "5", "--json"],
            None,
        );
        assert_eq!(code, 0, "{state}: {err}");
        json_lines(&out)[0]["solutions"].clone()
    };
    let by_niss = solve(&skeleton);
    assert!(!by_niss.as_array().unwrap().is_empty());
    assert_eq!(by_niss, solve(&written_out));
    // cubing.js's grouping is refused, saying which reading the command uses.
    let (code, _, err) = run(&["fmc", "solve", "eofb", "(R U)2"], None);
    assert_eq!(code, 1);
    assert!(err.contains("NISS notation"), "{err}");
}

// See: issue 58 (work on first use said nothing before it began): the first `fmc solve` of a
// table directory says it builds its step's tables, how big and where, before it does, and that
// it cached them; the next one says nothing.
#[test]
fn i58_the_first_fmc_solve_says_it_builds_its_tables() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = run(&["fmc", "solve", "eofb", "R U F", "--tables", d], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "F // 1");
    let building = format!("cube-cli: building the fmc-eo tables (once; 74 KiB in {d})");
    let cached = format!("cube-cli: cached the fmc-eo tables in {d}");
    assert_eq!(err.lines().collect::<Vec<_>>(), [building, cached], "{err}");
    let (code, _, err) = run(&["fmc", "solve", "eofb", "R U F", "--tables", d], None);
    assert_eq!((code, err.as_str()), (0, ""));
}

// See: issue 54, item 4: one EO of 11 moves, far above the optimum (4), is the first of its
// length, found without the shorter ones or the others of its length (the run before held every
// solution of 11 moves: it was killed at 23 GB).
#[test]
fn i54_4_a_long_minimum_gives_the_first_solution_of_its_length() {
    let args = [
        "fmc", "solve", "eofb", SCRAMBLE, "--min", "11", "--max", "11", "-n", "1",
    ];
    let (code, out, err) = run(&args, None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "U R U R U R U F2 D' L B // 11");
}

// See: issue 54, item 2: a list that would take more memory than the solver's bound (128 MiB) is
// cut to its first solutions, saying so, with exit code 4; --count holds no solution.
#[test]
fn i54_2_the_memory_bound_cuts_a_long_list() {
    let args = [
        "fmc",
        "solve",
        "eofb",
        SCRAMBLE,
        "--niss",
        "all",
        "--max",
        "8",
        "-n",
        "100000000",
    ];
    let (code, out, err) = run(&[&args[..], &["--json"]].concat(), None);
    assert_eq!(code, 4, "{err}");
    let record = &json_lines(&out)[0];
    assert_eq!(record["complete"], false);
    assert_eq!(record["incomplete"], "memory");
    let count = record["count"].as_u64().unwrap();
    assert_eq!(record["solutions"].as_array().unwrap().len() as u64, count);
    assert!(count > 100_000, "{count}");
    let (code, text, _) = run(&args, None);
    assert_eq!(code, 4);
    let last = text.lines().last().unwrap();
    assert_eq!(
        last,
        format!(
            "incomplete: more solutions would take more than 128 MiB of memory; these are the \
             first {count} (ask for fewer with -n, or count them with --count)"
        )
    );
    let (code, out, err) = run(&[&args[..], &["--count"]].concat(), None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "358132 solutions");
}
