//! Unit tests of the H48 coordinate.

use cube_core::{Cube, Move, Symmetry};
use rand::SeedableRng;

use super::cocsep::{COCSEP_CLASSES, COCSEP_COUNT};
use super::edges::N_PLACEMENTS;
use super::*;
use crate::Lines2;
use crate::file::lines::{BLOCK_BYTES, LINE_BYTES, line_histogram};

#[test]
fn cocsep_classes_and_distances() {
    let table = Cocsep::get();
    assert_eq!(table.n_classes(), COCSEP_CLASSES);
    // nissy-core `src/solvers/h48/checkdata.h`, `expected_cocsep`: raw values per depth.
    let mut per_depth = [0u64; 10];
    for raw in 0..COCSEP_COUNT as u32 {
        per_depth[usize::from(table.entry(raw).distance())] += 1;
    }
    assert_eq!(
        per_depth,
        [1, 6, 63, 468, 3068, 15438, 53814, 71352, 8784, 96]
    );
}

fn random_cubes(n: usize, seed: u64) -> Vec<Cube> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..n).map(|_| Cube::random(&mut rng)).collect()
}

#[test]
fn edge_lanes_conjugate_like_cube_core() {
    let syms = EdgeSyms::get();
    for cube in random_cubes(200, 1) {
        for s in Symmetry::all() {
            assert_eq!(
                syms.conjugate(s.index(), &cube.packed_edges()),
                s.conjugate(&cube).packed_edges(),
                "{}",
                s.name()
            );
        }
    }
}

#[test]
fn fast_scalar_and_plain_indexes_agree() {
    for n_flips in [0, 4, 7, 11] {
        let coord = Coordinate::new(n_flips);
        for cube in random_cubes(if n_flips == 0 { 100_000 } else { 5_000 }, 2) {
            let plain = coord.index_plain(&cube);
            assert_eq!(coord.index(&cube), plain);
            assert_eq!(coord.index_scalar(&cube), plain);
            assert!(plain < coord.n_slots());
        }
    }
}

#[test]
fn index_is_invariant_under_symmetry_and_half_turns_first() {
    let coord = Coordinate::new(7);
    let half_turns = [Move::U2, Move::D2, Move::R2, Move::L2, Move::F2, Move::B2];
    for cube in random_cubes(500, 3) {
        let index = coord.index(&cube);
        let canonical = coord.canonical_index(&cube);
        let stabilizer = Cocsep::get().stabilizer(Cocsep::get().of_cube(&cube).class());
        for s in Symmetry::all() {
            let conjugated = s.conjugate(&cube);
            assert_eq!(
                coord.canonical_index(&conjugated),
                canonical,
                "{}",
                s.name()
            );
            if stabilizer == 1 {
                assert_eq!(coord.index(&conjugated), index, "{}", s.name());
            }
        }
        for m in half_turns {
            assert_eq!(
                coord.index(&Cube::from_move(m).compose(&cube)),
                index,
                "{m}"
            );
        }
    }
}

#[test]
fn slots_skip_the_line_minima() {
    let slots: Vec<u32> = (0..N_PLACEMENTS as u32).map(slot).collect();
    assert_eq!(slots[0], 2);
    assert_eq!(slots[61], 63);
    assert_eq!(slots[62], 66);
    assert_eq!(*slots.last().unwrap(), 510);
    assert!(slots.windows(2).all(|w| w[0] < w[1]));
    assert!(slots.iter().all(|&s| s % 64 >= 2));
}

#[test]
fn line_values_and_histogram() {
    // One block: every code 2, line minima 0..8, the last slot code 1.
    let mut block = [0xAAu8; BLOCK_BYTES];
    for line in 0..8 {
        block[line * LINE_BYTES] = 0xA0 | line as u8;
    }
    block[BLOCK_BYTES - 1] = 0x6A;
    let histogram = line_histogram(&block);
    assert_eq!(histogram[2], 495);
    assert_eq!(histogram[..4].iter().sum::<u64>(), 495);
    assert_eq!(histogram[16..24], [1; 8]);
    assert_eq!(Lines2::new(&block, 8).get(2), 10);
    block[0] = 0xA3 & !0x30; // slot 2 gets code 0: the line minimum, 3.
    assert_eq!(Lines2::new(&block, 8).get(2), 3);
    assert_eq!(Lines2::new(&block, 8).get(3), 10);
}

/// See issue 15: an H48 bake into a directory with too little free space is refused before any
/// search, with the figures, the directory and the fix, and leaves nothing behind.
#[test]
fn too_little_free_space_is_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    crate::file::bake::tests::FREE_SPACE.set(Some(10 << 20));
    let start = std::time::Instant::now();
    let err = bake_tiers(
        dir.path(),
        &[crate::Tier::H0],
        &BakeOptions::default(),
        &|_| {},
    )
    .unwrap_err();
    crate::file::bake::tests::FREE_SPACE.set(None);
    assert!(
        start.elapsed() < std::time::Duration::from_secs(2),
        "no search ran"
    );
    // The fix names the library's own function for an H48 tier.
    crate::file::bake::tests::assert_no_space(
        &err,
        dir.path(),
        "10 MiB free, the bake needs 29 MiB",
        "then re-run cube_tables::tier::bake for tier h0)",
    );
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| !name.ends_with("lock"))
        .collect();
    assert!(names.is_empty(), "left behind: {names:?}");
}
