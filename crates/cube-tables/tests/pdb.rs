//! The Korf pattern databases: the corner database and the 6edge tier, baked once per test run into
//! `target/tmp` and then checked against the published histograms, the index functions against cubie-level
//! moves, the heuristic against true distances, and a killed bake against a re-run.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cube_core::{Cube, Move};
use cube_tables::pdb::{
    self, BakeOptions, CornerCoord, CornerMoves, EdgeMoveMaps, EdgeSubset, PdbSet, SpotCheck,
};
use cube_tables::{PruneTable, TableErrorKind, Tier};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The 6edge tier and the corners, baked once per test process (the bake really runs: the tables of a
/// previous run are deleted first). The lock file keeps two test processes from baking at once.
fn baked() -> &'static Path {
    static DIR: OnceLock<(PathBuf, File)> = OnceLock::new();
    let (dir, _lock) = DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pdb-6edge");
        std::fs::create_dir_all(&dir).expect("the cache directory can be created");
        let lock = File::create(dir.join("test.lock")).expect("the test lock can be created");
        lock.lock().expect("the test lock can be taken");
        for spec in cube_tables::tier::specs(Tier::Edge6) {
            let _ = std::fs::remove_file(spec.path_in(&dir));
        }
        let reports = pdb::bake_tier(&dir, Tier::Edge6, &BakeOptions::default(), &|_| {})
            .expect("the 6edge tier bakes");
        assert!(reports.iter().all(|report| !report.skipped));
        (dir, lock)
    });
    dir
}

fn set() -> &'static PdbSet<Vec<u8>> {
    static SET: OnceLock<PdbSet<Vec<u8>>> = OnceLock::new();
    SET.get_or_init(|| PdbSet::load(baked(), Tier::Edge6).expect("the 6edge tier loads"))
}

fn random_moves(rng: &mut StdRng, n: usize) -> Vec<Move> {
    (0..n).map(|_| Move::ALL[rng.random_range(0..18)]).collect()
}

#[test]
fn histograms_are_the_published_ones() {
    let set = set();
    assert_eq!(set.corners().histogram()[..12], pdb::expected::CORNERS);
    assert_eq!(set.edges()[0].histogram()[..11], pdb::expected::EDGES_6A);
    assert_eq!(set.edges()[1].histogram()[..11], pdb::expected::EDGES_6B);
    assert!(set.corners().histogram()[12..].iter().all(|&n| n == 0));
}

/// Every entry of the corner database is read back through the symmetry reduction: the maps
/// and the class representatives are right, and the baked table is symmetric.
#[test]
fn symmetry_reduced_corners_equal_the_full_table() {
    let corners = set().corners();
    let reduced = pdb::SymCorners::new(corners);
    for perm in 0..pdb::CORNER_PERM_COUNT {
        for twist in 0..pdb::TWIST_COUNT {
            let full = corners.get(perm * pdb::TWIST_COUNT + twist);
            assert_eq!(
                reduced.get(reduced.index(perm, twist)),
                full,
                "{perm} {twist}"
            );
        }
    }
    // The move deltas of every seventh twist, against the full table after each move.
    let moves = CornerMoves::get();
    for perm in 0..pdb::CORNER_PERM_COUNT as u16 {
        for twist in (usize::from(perm) % 7..pdb::TWIST_COUNT).step_by(7) {
            let coord = CornerCoord {
                perm,
                twist: twist as u16,
            };
            let (index, k) = reduced.locate(perm.into(), twist);
            let deltas = reduced.deltas(index);
            let conj = reduced.conj_moves(k);
            for m in Move::ALL {
                let after = corners.get(coord.apply(m, moves).index());
                let delta = (deltas >> (2 * conj[m.index()])) & 3;
                assert_eq!(
                    u64::from(after) + 1,
                    u64::from(corners.get(coord.index())) + delta,
                    "{perm} {twist} {m}"
                );
            }
        }
    }
}

/// The reduction through its cache files: derived and written on first use, read back on the
/// next, and rebuilt when a file is damaged; every entry and every move delta as derived.
#[test]
fn symmetry_reduced_corners_are_cached_beside_the_tables() {
    let corners = set().corners();
    let derived = pdb::SymCorners::new(corners);
    let dir = tempfile::tempdir().unwrap();
    let same = |cached: &pdb::SymCorners| {
        for index in 0..cube_tables::corners::CORNER_PERM_CLASSES * pdb::TWIST_COUNT {
            assert_eq!(cached.get(index), derived.get(index), "{index}");
            assert_eq!(cached.deltas(index), derived.deltas(index), "{index}");
        }
    };
    let [table, deltas] = cube_tables::corners::SYM_CORNERS_SPECS;
    same(&pdb::SymCorners::load_or_build(dir.path(), corners).unwrap());
    assert!(table.path_in(dir.path()).is_file() && deltas.path_in(dir.path()).is_file());
    // Read back, not derived: handed a corner database of zeros, the reduction is still right.
    let zeros = vec![0; corners.payload().len()];
    let zeros = PruneTable::from_payload(&pdb::CORNERS.spec, zeros).unwrap();
    same(&pdb::SymCorners::load_or_build(dir.path(), &zeros).unwrap());
    // One byte of the deltas changed: the file is refused and rebuilt.
    let path = deltas.path_in(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    same(&pdb::SymCorners::load_or_build(dir.path(), corners).unwrap());
    assert_ne!(
        std::fs::read(&path).unwrap(),
        bytes,
        "the damaged file was rewritten"
    );
    // Damaged again, and handed the zeros: the deltas are derived from them (every move keeps
    // distance 0: delta 0 + 1 for each of the 18 moves), so the damaged file was not trusted.
    std::fs::write(&path, &bytes).unwrap();
    let from_zeros = pdb::SymCorners::load_or_build(dir.path(), &zeros).unwrap();
    assert_eq!(from_zeros.deltas(0), 0x5_5555_5555);
}

#[test]
fn verify_rescans_and_spot_checks() {
    let set = set();
    let spot = SpotCheck {
        n_random: 2000,
        n_walks: 60,
        ..SpotCheck::default()
    };
    let tables = [pdb::CORNERS, pdb::EDGES_6A, pdb::EDGES_6B];
    for (table, pdb) in [set.corners(), &set.edges()[0], &set.edges()[1]]
        .into_iter()
        .zip(&tables)
    {
        let report = pdb::verify_table(table, pdb, &spot).expect("the table verifies");
        assert_eq!(report.n_local, 2001);
        assert!(report.n_searched > 30, "{report:?}");
    }
}

#[test]
fn corrupt_entry_fails_verify() {
    let set = set();
    let mut payload = set.edges()[0].payload().to_vec();
    // Swap two nibbles of different depth: the histogram stays, the hash does not.
    let byte = payload.iter().position(|&b| b & 0xF != b >> 4).unwrap();
    payload[byte] = payload[byte].rotate_left(4);
    let table = &pdb::EDGES_6A;
    let bytes = std::fs::read(table.spec.path_in(baked())).unwrap();
    let mut file = bytes[..cube_tables::HEADER_LEN].to_vec();
    file.extend_from_slice(&payload);
    let corrupt = PruneTable::from_bytes(&file, &table.spec).unwrap();
    let err = pdb::verify_table(&corrupt, table, &SpotCheck::default()).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::PayloadHash, "{err}");
}

#[test]
fn corner_index_round_trips_and_moves() {
    let tables = CornerMoves::get();
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..2000 {
        let cube = Cube::random(&mut rng);
        let coord = CornerCoord::from_cube(&cube);
        assert_eq!(CornerCoord::from_index(coord.index()), coord);
        assert_eq!(pdb::corner_perm_unrank(coord.perm), cube.corner_perm());
        assert_eq!(pdb::twist_unrank(coord.twist), cube.corner_ori());
        for m in Move::ALL {
            assert_eq!(
                coord.apply(m, tables),
                CornerCoord::from_cube(&cube.apply_move(m)),
                "move {m}"
            );
        }
    }
}

#[test]
fn edge_index_round_trips_and_moves() {
    let maps = EdgeMoveMaps::get();
    let mut rng = StdRng::seed_from_u64(2);
    let subsets = [
        EdgeSubset::EDGES_6A,
        EdgeSubset::EDGES_6B,
        EdgeSubset::EDGES_7A,
        EdgeSubset::EDGES_7B,
        EdgeSubset::EDGES_8A,
        EdgeSubset::EDGES_8B,
    ];
    for subset in subsets {
        assert_eq!(subset.index(&Cube::SOLVED), subset.solved().index());
        for _ in 0..500 {
            let cube = Cube::random(&mut rng);
            let coord = subset.coord(&cube);
            let index = coord.index();
            assert!(index < subset.n_entries());
            assert_eq!(subset.coord_of_index(index), coord);
            assert_eq!(subset.index(&subset.cube_of(&coord)), index);
            for m in Move::ALL {
                assert_eq!(
                    coord.apply(m, maps),
                    subset.coord(&cube.apply_move(m)),
                    "{subset:?} move {m}"
                );
            }
        }
        // Random indexes round trip through a cube too.
        for _ in 0..500 {
            let index = rng.random_range(0..subset.n_entries());
            let coord = subset.coord_of_index(index);
            assert_eq!(subset.index(&subset.cube_of(&coord)), index);
        }
    }
}

#[test]
fn heuristic_is_zero_only_at_solved_and_admissible() {
    let set = set();
    assert_eq!(set.h(&Cube::SOLVED), 0);
    let mut rng = StdRng::seed_from_u64(3);
    let corners = CornerMoves::get();
    let edges = EdgeMoveMaps::get();
    for length in 1..=12 {
        for _ in 0..200 {
            let moves = random_moves(&mut rng, length);
            let cube = Cube::SOLVED.apply_moves(&moves);
            let h = set.h(&cube);
            assert!(usize::from(h) <= length, "h {h} > {length} for {moves:?}");
            assert_eq!(h == 0, cube.is_solved());
            // The incremental coordinates agree with the cube.
            let coord = moves.iter().fold(set.coord(&Cube::SOLVED), |coord, &m| {
                coord.apply(m, corners, edges)
            });
            assert_eq!(coord.index(), set.index(&cube));
            set.prefetch(&coord.index());
            assert_eq!(set.h_at(&coord.index()), h);
        }
    }
    // One move from solved is exactly 1 in some table.
    for m in Move::ALL {
        assert_eq!(set.h(&Cube::SOLVED.apply_move(m)), 1);
    }
}

#[test]
fn mapped_and_anonymous_agree_with_owned() {
    let dir = baked();
    let anonymous = PdbSet::load_anonymous(dir, Tier::Edge6).unwrap();
    // SAFETY: the test tables are write-once files no test modifies while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { PdbSet::open_mapped(dir, Tier::Edge6) }.unwrap();
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..1000 {
        let cube = Cube::random(&mut rng);
        let h = set().h(&cube);
        assert_eq!(anonymous.h(&cube), h);
        assert_eq!(mapped.h(&cube), h);
    }
}

#[test]
fn missing_tier_names_the_bake_command() {
    let dir = tempfile::tempdir().unwrap();
    let err = PdbSet::load(dir.path(), Tier::Edge7).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::Missing);
    let message = err.to_string();
    assert!(message.contains("korf-corners"), "{message}");
    assert!(
        message.ends_with(
            "(re-run cube_tables::tier::bake for tier 6edge (any tier bakes the corners))"
        ),
        "{message}"
    );
}

/// A bake killed half-way leaves a scratch file and a temporary file: nothing loads, and a re-run
/// recovers (and cleans up). The corner table stands for all: the code path is the same. See issue
/// 15: a bake killed between the rename and the scratch removal leaves no scratch after the next
/// bake, which skips the table.
#[test]
fn killed_bake_is_not_loadable_and_a_rerun_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let table = &pdb::CORNERS;
    let path = table.spec.path_in(dir.path());
    let scratch = dir.path().join("korf-corners.scratch");
    let tmp = dir.path().join(".korf-corners.v1.tbl.999999-0.tmp");
    std::fs::write(&scratch, vec![0xFF; 4096]).unwrap();
    // A temporary file holding a whole valid table, as if killed between write and rename.
    std::fs::copy(table.spec.path_in(baked()), &tmp).unwrap();
    let err = PruneTable::load(&path, &table.spec).unwrap_err();
    assert_eq!(err.kind(), TableErrorKind::Missing);

    let report = pdb::bake(dir.path(), table, &BakeOptions::default(), &|_| {}).unwrap();
    assert!(!report.skipped);
    assert!(!scratch.exists() && !tmp.exists());
    let loaded = PruneTable::load(&path, &table.spec).unwrap();
    assert_eq!(loaded.payload(), set().corners().payload());

    // A second run skips the valid table, and removes a scratch that a bake killed after its
    // rename left.
    std::fs::write(&scratch, vec![0xFF; 4096]).unwrap();
    let again = pdb::bake(dir.path(), table, &BakeOptions::default(), &|_| {}).unwrap();
    assert!(again.skipped);
    assert!(!scratch.exists());
}

/// A seed installs into a table identical to the original; a corrupt seed installs nothing.
#[test]
fn seeds_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let table = &pdb::EDGES_6B;
    std::fs::copy(table.spec.path_in(baked()), table.spec.path_in(dir.path())).unwrap();
    let seed = pdb::pack_seed(dir.path(), table).unwrap();
    let original = std::fs::read(table.spec.path_in(dir.path())).unwrap();
    std::fs::remove_file(table.spec.path_in(dir.path())).unwrap();
    let installed = pdb::install_seed(dir.path(), table, &Default::default())
        .unwrap()
        .unwrap();
    assert_eq!(std::fs::read(&installed).unwrap(), original);

    std::fs::remove_file(&installed).unwrap();
    let mut bytes = std::fs::read(&seed).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&seed, bytes).unwrap();
    assert!(pdb::install_seed(dir.path(), table, &Default::default()).is_err());
    assert!(!installed.exists());
}
