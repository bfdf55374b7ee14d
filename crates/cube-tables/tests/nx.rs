//! The nx tables: `nx-eo1ep1` and `nx-eo1ep1-qtm` baked once into `target/tmp/nx` (kept between
//! runs: a sound table is skipped), then checked against nxopt's published average depths
//! (`cube20src/nxopt.md`, "Average depths") and against scramble lengths.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use cube_core::{Cube, Move, Symmetry};
use cube_tables::nx::{self, BakeOptions, NxTable};
use cube_tables::{Metric, PruneTable, Tier, tier};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The directory of the two test tiers, baked once per test process unless sound there. The
/// lock file keeps two test processes from baking at once.
pub fn baked() -> &'static Path {
    static DIR: OnceLock<(PathBuf, File)> = OnceLock::new();
    let (dir, _lock) = DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nx");
        std::fs::create_dir_all(&dir).expect("the cache directory can be created");
        let lock = File::create(dir.join("test.lock")).expect("the test lock can be created");
        lock.lock().expect("the test lock can be taken");
        for tier in [Tier::NxEo1Ep1, Tier::NxEo1Ep1Qtm] {
            let start = Instant::now();
            let report = nx::bake(&dir, tier, &BakeOptions::default(), &|level| {
                eprintln!("{tier} {level}");
            })
            .expect("the nx test tiers bake");
            eprintln!("{tier} baked or found in {:.2?}", start.elapsed());
            nx::verify_table(&PruneTable::load(&report.path, &nx::spec(tier).unwrap()).unwrap())
                .expect("the table verifies");
        }
        (dir, lock)
    });
    dir
}

fn table(tier: Tier) -> &'static NxTable<Vec<u8>> {
    static TABLES: OnceLock<[NxTable<Vec<u8>>; 2]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        [Tier::NxEo1Ep1, Tier::NxEo1Ep1Qtm].map(|tier| {
            let spec = tier::specs(tier)[1];
            NxTable::new(PruneTable::load(&spec.path_in(baked()), &spec).unwrap()).unwrap()
        })
    });
    &tables[usize::from(tier == Tier::NxEo1Ep1Qtm)]
}

/// nxopt's average1 and average6 over seeded random positions, within 0.01: 1,000,000 positions
/// (a standard error near 0.001).
#[test]
fn averages_are_nxopt_s() {
    for (tier, average1, average6) in [
        (Tier::NxEo1Ep1, 8.90627, 9.84321),
        (Tier::NxEo1Ep1Qtm, 9.88396, 10.9947),
    ] {
        check_averages(table(tier), average1, average6);
    }
}

/// nxopt's averages of the larger half-turn tiers (`cube20src/nxopt.md`, "Average depths"), checked
/// once on a machine that holds the table: `NX_TIER=nx-eo3ep1 NX_TABLES=DIR cargo test --release
/// -p cube-tables --test integration nx::averages_of_a_larger_tier -- --ignored --nocapture`, DIR
/// holding the baked tier.
#[test]
#[ignore = "needs a baked larger tier: NX_TIER and NX_TABLES"]
fn averages_of_a_larger_tier() {
    let name = std::env::var("NX_TIER").expect("NX_TIER names the tier, e.g. nx-eo3ep1");
    let dir = std::env::var("NX_TABLES").expect("NX_TABLES is the directory holding it");
    let tier: Tier = name.parse().expect("NX_TIER is a tier");
    let (average1, average6) = match tier {
        Tier::NxEo2Ep1 => (9.88681, 10.8274),
        Tier::NxEo1Ep2 => (9.92374, 10.9551),
        Tier::NxEo1Ep3 => (10.2745, 11.1472),
        Tier::NxEo3Ep1 => (10.6748, 11.5986),
        Tier::NxEo2Ep2 => (10.9391, 11.8728),
        _ => panic!("nxopt publishes no averages for {tier} beyond the test tiers"),
    };
    let spec = tier::specs(tier)[1];
    let table = PruneTable::load(&spec.path_in(Path::new(&dir)), &spec).expect("the tier is baked");
    check_averages(&NxTable::new(table).unwrap(), average1, average6);
}

/// The mean of one probe and of the six-probe heuristic over 1,000,000 seeded random positions,
/// within 0.01 of nxopt's `average1` and `average6`.
fn check_averages(table: &NxTable<Vec<u8>>, average1: f64, average6: f64) {
    let tier = table.tier();
    let n = 1_000_000;
    let (sum1, sum6) = (0..n / 1000)
        .map(|chunk| {
            let mut rng = StdRng::seed_from_u64(35_000 + chunk);
            (0..1000).fold((0u64, 0u64), |(s1, s6), _| {
                let cube = Cube::random(&mut rng);
                (
                    s1 + u64::from(table.value(&cube)),
                    s6 + u64::from(six(table, &cube)),
                )
            })
        })
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let (mean1, mean6) = (sum1 as f64 / n as f64, sum6 as f64 / n as f64);
    eprintln!("{tier}: average1 {mean1:.5}, average6 {mean6:.5}");
    assert!(
        (mean1 - average1).abs() < 0.01,
        "{tier}: {mean1} against {average1}"
    );
    assert!(
        (mean6 - average6).abs() < 0.01,
        "{tier}: {mean6} against {average6}"
    );
}

/// nxopt's six probes: three axes of the position and of its inverse, each side raised by one when
/// its three values are equal.
fn six(table: &NxTable<Vec<u8>>, cube: &Cube) -> u8 {
    let side = |x: &Cube| {
        let [a, b, c] = table.axis_values(x);
        a.max(b).max(c) + u8::from(a == b && b == c && a > 0)
    };
    side(cube).max(side(&cube.inverse()))
}

/// Every value, on every axis and of the inverse, is at most the length of a sequence that makes
/// the position (in the table's metric), and so is that of its conjugates.
#[test]
fn values_are_bounded_by_scramble_lengths() {
    let mut rng = StdRng::seed_from_u64(35);
    for tier in [Tier::NxEo1Ep1, Tier::NxEo1Ep1Qtm] {
        let table = table(tier);
        for n_moves in 0..=14 {
            for _ in 0..100 {
                let moves: Vec<Move> = (0..n_moves)
                    .map(|_| Move::ALL[rng.random_range(0..18)])
                    .collect();
                let length = tier.metric().length(&moves);
                let cube = Cube::SOLVED.apply_moves(&moves);
                let bound = table.bound(&cube);
                assert!(usize::from(bound) <= length, "{tier} {moves:?}: {bound}");
                // A conjugate has the same distance; its probes may read another twin entry of
                // a self-symmetric corner class (another line minimum), so only the bound holds.
                for s in [Symmetry::X, Symmetry::MIRROR, Symmetry::Y] {
                    let conjugate = table.bound(&s.conjugate(&cube));
                    assert!(usize::from(conjugate) <= length, "{moves:?} {}", s.name());
                }
            }
        }
        assert_eq!(table.bound(&Cube::SOLVED), 0);
        assert_eq!(table.metric(), tier.metric());
    }
    assert_eq!(table(Tier::NxEo1Ep1Qtm).metric(), Metric::Qtm);
}

/// The bound (six probes, the (x, x, x) rule, QTM parity) is at most the known optimal length of
/// every position of `testdata/positions/` (half turns; quarter turns: at most twice that).
#[test]
fn bounds_are_admissible_on_known_positions() {
    let htm = table(Tier::NxEo1Ep1);
    let qtm = table(Tier::NxEo1Ep1Qtm);
    let mut checked = 0;
    for (file, length) in [
        ("nissy-core-optimal-16.txt", 16),
        ("nissy-core-optimal-17.txt", 17),
        ("nissy-core-optimal-18.txt", 18),
        ("nissy-core-optimal-19.txt", 19),
        ("nissy-core-optimal-20.txt", 20),
        ("superflip.txt", 20),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/positions")
            .join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let alg: cube_core::Alg = line.parse().unwrap();
            let moves = alg.moves();
            assert_eq!(moves.len(), length, "{file}: {line}");
            let cube = Cube::SOLVED.apply_alg(&alg);
            assert!(usize::from(htm.bound(&cube)) <= length, "{line}");
            assert!(
                usize::from(qtm.bound(&cube)) <= Metric::Qtm.length(&moves),
                "{line}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 126);
}
