//! The H48 tables: h0 baked once per test process into `target/tmp` (the bake really runs),
//! then checked: its histograms, the file checks, lower bounds on every position of known
//! optimal length, and the table's symmetry.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use cube_core::{Alg, Cube, Move, Symmetry};
use cube_tables::h48::{self, BakeOptions, Cocsep, H48Table};
use cube_tables::{PruneTable, TableErrorKind, Tier};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// h0, baked once per test process (a previous run's table is deleted first). The lock file
/// keeps two test processes from baking at once.
fn baked() -> &'static Path {
    static DIR: OnceLock<(PathBuf, File)> = OnceLock::new();
    let (dir, _lock) = DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("h48-h0");
        std::fs::create_dir_all(&dir).expect("the cache directory can be created");
        let lock = File::create(dir.join("test.lock")).expect("the test lock can be created");
        lock.lock().expect("the test lock can be taken");
        let _ = std::fs::remove_file(h48::H0.path_in(&dir));
        let start = Instant::now();
        let report = h48::bake(&dir, Tier::H0, &BakeOptions::default(), &|level| {
            eprintln!(
                "h0 depth {:2}: {:>10} entries, {:?}, {:.2?}",
                level.depth, level.entries, level.direction, level.elapsed
            );
        })
        .expect("h0 bakes");
        eprintln!(
            "h0 baked in {:.2?} (search {:.2?})",
            start.elapsed(),
            report.search_time
        );
        assert!(!report.skipped);
        (dir, lock)
    });
    dir
}

fn table() -> &'static H48Table<Vec<u8>> {
    static TABLE: OnceLock<H48Table<Vec<u8>>> = OnceLock::new();
    TABLE.get_or_init(|| H48Table::load(baked(), Tier::H0).expect("h0 loads"))
}

#[test]
fn h0_histograms_are_the_published_ones() {
    let table = table();
    let histogram = table.table().histogram();
    assert_eq!(histogram[..4], h48::H0_CODES);
    assert_eq!(histogram[..4].iter().sum::<u64>(), 3393 * 34650);
    assert_eq!(histogram[16..].iter().sum::<u64>(), 3393 * 70 * 8);
    cube_tables::verify(table.table(), None).expect("h0 verifies");
    assert_eq!(table.table().payload().len(), 30_401_280);
}

/// See issue 15: a bake killed after writing its tables and before removing its scratch leaves
/// no scratch after the next bake, even one that skips every table; the skip stamps nothing new
/// and keeps the table.
#[test]
fn the_next_bake_removes_a_killed_bake_s_scratch_even_when_it_skips() {
    let dir = tempfile::tempdir().unwrap();
    let path = h48::H0.path_in(dir.path());
    std::fs::copy(h48::H0.path_in(baked()), &path).unwrap();
    let scratches = ["h48-h11.scratch", "h48-h0.scratch"].map(|name| dir.path().join(name));
    for scratch in &scratches {
        std::fs::write(scratch, vec![0xA5; 4096]).unwrap();
    }
    let reports = h48::bake_tiers(dir.path(), &[Tier::H0], &BakeOptions::default(), &|_| {})
        .expect("a baked h0 is skipped");
    assert!(reports[0].skipped);
    for scratch in &scratches {
        assert!(!scratch.exists(), "{} is left", scratch.display());
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(h48::H0.path_in(baked())).unwrap()
    );
}

/// The tables loads the three ways, and a Korf tier is refused.
#[test]
fn h0_loads_every_way_and_rejects_korf_tiers() {
    let dir = baked();
    let owned = table();
    let anonymous = H48Table::load_anonymous(dir, Tier::H0).expect("h0 loads");
    assert_eq!(anonymous.table().payload(), owned.table().payload());
    assert_eq!(owned.base(), 8);
    assert_eq!(owned.tier(), Tier::H0);
    let err = H48Table::load(dir, Tier::Edge6).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::InvalidInput, "{err}");
    // The file under the spec of another base is refused as another encoding.
    let other = cube_tables::TableSpec {
        encoding: cube_tables::Encoding::Line2 { base: 7 },
        ..h48::H0
    };
    let err = PruneTable::load(&h48::H0.path_in(dir), &other).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::EncodingMismatch, "{err}");
    assert!(err.to_string().contains("base 8"), "{err}");
    // A second bake finds the table valid and skips it.
    let report = h48::bake(dir, Tier::H0, &BakeOptions::default(), &|_| {}).unwrap();
    assert!(report.skipped);
}

/// The code is the same for every conjugate of a position, the index for a half turn done first,
/// and the value is at most the length of any sequence that makes it (the corner distance too).
#[test]
fn h0_values_are_symmetric_and_bounded_by_scramble_lengths() {
    let table = table();
    let mut rng = StdRng::seed_from_u64(48);
    for n_moves in 0..=14 {
        for _ in 0..200 {
            let moves: Vec<Move> = (0..n_moves)
                .map(|_| Move::ALL[rng.random_range(0..18)])
                .collect();
            let cube = Cube::SOLVED.apply_moves(&moves);
            let value = table.value(&cube);
            assert!(usize::from(value) <= n_moves, "{moves:?}: {value}");
            assert!(
                usize::from(table.value(&cube.inverse())) <= n_moves,
                "{moves:?}"
            );
            assert!(usize::from(Cocsep::get().of_cube(&cube).distance()) <= n_moves);
            // Conjugates hold the same code; they share the entry (and so the line minimum of
            // code 0) unless the class representative has symmetries of its own.
            let code = table.code_at(table.index(&cube));
            let self_symmetric = Cocsep::get().of_cube(&cube).self_symmetric();
            for s in Symmetry::all() {
                let conjugated = s.conjugate(&cube);
                assert_eq!(
                    table.code_at(table.index(&conjugated)),
                    code,
                    "{moves:?} {}",
                    s.name()
                );
                if !self_symmetric {
                    assert_eq!(table.value(&conjugated), value, "{moves:?} {}", s.name());
                }
            }
            for m in [Move::U2, Move::R2, Move::F2, Move::D2, Move::L2, Move::B2] {
                assert_eq!(table.value(&Cube::from_move(m).compose(&cube)), value);
            }
        }
    }
    assert_eq!(table.value(&Cube::SOLVED), 0);
    assert_eq!(table.value(&Cube::from_move(Move::R1)), 1);
}

/// The file `path` of the repository's `testdata/`.
fn testdata(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `value(x) <= L` and `value(x⁻¹) <= L` for every position of known optimal length L:
/// nissy-core's optimal sets of 16 to 20 moves and the superflip (20) in `testdata/positions`;
/// and for every face-turn vector of `testdata/vectors`, whose sequence length bounds its distance.
#[test]
fn h0_is_a_lower_bound_on_known_positions() {
    let table = table();
    let mut checked = 0;
    let mut check = |cube: Cube, length: usize, what: &str| {
        for (side, x) in [("position", cube), ("inverse", cube.inverse())] {
            let value = table.value(&x);
            assert!(
                usize::from(value) <= length,
                "{what} ({side}): {value} > {length}"
            );
        }
        checked += 1;
    };
    for (file, length) in [
        ("nissy-core-optimal-16.txt", 16),
        ("nissy-core-optimal-17.txt", 17),
        ("nissy-core-optimal-18.txt", 18),
        ("nissy-core-optimal-19.txt", 19),
        ("nissy-core-optimal-20.txt", 20),
        ("superflip.txt", 20),
    ] {
        let text = testdata(&format!("positions/{file}"));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let alg: Alg = line
                .parse()
                .unwrap_or_else(|e| panic!("{file}: {line:?}: {e}"));
            assert_eq!(alg.moves().len(), length, "{file}: {line}");
            check(Cube::SOLVED.apply_alg(&alg), length, line);
        }
    }
    let text = testdata("vectors/facelets.json");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let face_turn = |token: &str| {
        let mut chars = token.chars();
        chars.next().is_some_and(|c| "URFDLB".contains(c))
            && ["", "2", "'"].contains(&chars.as_str())
    };
    let mut vectors = 0;
    for vector in json["vectors"].as_array().unwrap() {
        let moves = vector["moves"].as_str().unwrap();
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        if tokens.iter().all(|t| face_turn(t)) {
            let alg: Alg = moves.parse().unwrap();
            check(
                Cube::SOLVED.apply_alg(&alg),
                tokens.len(),
                vector["id"].as_str().unwrap(),
            );
            vectors += 1;
        }
    }
    assert!(vectors > 200, "{vectors} face-turn vectors");
    assert!(checked > 300, "{checked}");
}

/// The one pass of h4..h7: the h11 counts at depths <= 8 and <= 10 (and = 11 with
/// `H48_COUNT_11=1`, which slows the pass) and the four code histograms are checked inside the
/// bake against the published ones. About 4.3 GB of scratch and 7.3 GB of tables in
/// `$H48_BAKE_DIR` (default `target/tmp/h48-h4-h7`); minutes on two cores. Run with
/// `H48_BAKE_DIR=DIR cargo test --release -p cube-tables --test integration -- --ignored --nocapture h4_to_h7`.
#[test]
#[ignore = "bakes 7.3 GB of tables over 4.3 GB of scratch"]
fn h4_to_h7_bake_in_one_pass_with_the_published_counts() {
    let dir = std::env::var_os("H48_BAKE_DIR").map_or_else(
        || Path::new(env!("CARGO_TARGET_TMPDIR")).join("h48-h4-h7"),
        PathBuf::from,
    );
    let options = BakeOptions {
        force: true,
        count_last_level: std::env::var_os("H48_COUNT_11").is_some(),
        ..BakeOptions::default()
    };
    let start = Instant::now();
    let tiers = [Tier::H4, Tier::H5, Tier::H6, Tier::H7];
    let reports = h48::bake_tiers(&dir, &tiers, &options, &|level| {
        eprintln!(
            "h11 depth {:2}: {:>12} cosets, {:.2?}",
            level.depth, level.entries, level.elapsed
        );
    })
    .expect("h4..h7 bake with the published counts");
    eprintln!("h4..h7 baked in {:.2?}", start.elapsed());
    for note in &reports[0].notes {
        eprintln!("note: {note}");
    }
    for report in &reports {
        eprintln!(
            "{}: search {:.2?}, write {:.2?}",
            report.path.display(),
            report.search_time,
            report.write_time
        );
    }
    for tier in tiers {
        let table = H48Table::load(&dir, tier).expect("a baked tier loads");
        assert_eq!(table.value(&Cube::SOLVED), 0);
    }
    assert!(
        std::fs::read_dir(&dir).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains("scratch")),
        "the scratch is removed"
    );
}
