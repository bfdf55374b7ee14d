//! The FMC step solvers: nissy-core's own solve tests (`shared/vectors/fmc.json`, its expected
//! solution lists as data), properties of the solutions, and the errors.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use cube_core::{Alg, Cube, NissAlg};
use cube_solvers::fmc::{self, Settings, StepTables};

/// `shared/vectors/fmc.json`, beside the repository.
fn vectors() -> serde_json::Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors/fmc.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).expect("fmc.json is JSON")
}

fn state_of(scramble: &str) -> Cube {
    let alg: Alg = scramble.parse().expect("a scramble of face turns");
    Cube::SOLVED.apply_moves(&alg.moves())
}

/// The tables of each family, built once per test.
#[derive(Default)]
struct Cache(HashMap<&'static str, StepTables>);

impl Cache {
    fn get(&mut self, step: &fmc::Step) -> StepTables {
        self.0
            .entry(step.tables_name())
            .or_insert_with(|| StepTables::build(step))
            .clone()
    }
}

/// Runs the tests of fmc.json whose solver is one of `solvers` (an empty list: every test whose
/// solver this crate has), checking each case's set up to commuting moves and where the inverse
/// part is written.
fn check_vectors(filter: impl Fn(&str) -> bool) -> usize {
    let data = vectors();
    let mut cache = Cache::default();
    let mut checked = 0;
    for test in data["tests"].as_array().expect("a list of tests") {
        let solver = test["solver"].as_str().expect("a solver name");
        if !filter(solver) {
            continue;
        }
        let step = fmc::step(solver).expect("every solver of fmc.json is a step");
        let tables = cache.get(step);
        let settings = Settings {
            niss: test["niss"].as_str().unwrap().parse().unwrap(),
            min_moves: test["min_moves"].as_u64().unwrap() as u8,
            max_moves: test["max_moves"].as_u64().unwrap() as u8,
            max_solutions: test["max_solutions"].as_u64().unwrap() as usize,
            above_optimal: Some(test["above_optimal"].as_u64().unwrap() as u8),
            ..Settings::default()
        };
        for case in test["cases"].as_array().unwrap() {
            let scramble = case["scramble"].as_str().unwrap();
            let expected: Vec<NissAlg> = case["solutions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().parse().unwrap())
                .collect();
            let outcome = fmc::solve(
                step,
                &tables,
                &state_of(scramble),
                &settings,
                &AtomicBool::new(false),
            )
            .unwrap_or_else(|e| panic!("{solver} on {scramble}: {e}"));
            let missing: Vec<String> = expected
                .iter()
                .filter(|e| !outcome.solutions.iter().any(|s| s.equal_up_to_commuting(e)))
                .map(|e| e.to_string())
                .collect();
            let extra: Vec<String> = outcome
                .solutions
                .iter()
                .filter(|s| !expected.iter().any(|e| s.equal_up_to_commuting(e)))
                .map(|s| s.to_string())
                .collect();
            assert!(
                missing.is_empty() && extra.is_empty() && outcome.count == expected.len(),
                "{} ({solver}, {}) on {scramble}: missing {missing:?}, extra {extra:?}",
                test["source"],
                settings.niss
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn vectors_eo() {
    assert_eq!(check_vectors(|s| s.starts_with("eo")), 60);
}

#[test]
fn vectors_dr() {
    assert_eq!(check_vectors(|s| ["drud", "drrl", "drfb"].contains(&s)), 60);
}

#[test]
fn vectors_dr_from_eo() {
    assert_eq!(check_vectors(|s| s.contains("-eo")), 120);
}

#[test]
fn vectors_htr() {
    assert_eq!(check_vectors(|s| s.starts_with("htr")), 10);
}
