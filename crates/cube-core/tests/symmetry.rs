//! The 48 symmetries as a group, and their action on moves and cubes.

use cube_core::{Cube, Move, Symmetry};

use crate::cube_of;

#[test]
fn closed_under_product_with_inverses() {
    for a in Symmetry::all() {
        assert_eq!(a.then(a.inverse()), Symmetry::IDENTITY, "{a}");
        assert_eq!(a.inverse().then(a), Symmetry::IDENTITY, "{a}");
        assert_eq!(a.then(Symmetry::IDENTITY), a);
        for b in Symmetry::all() {
            let ab = a.then(b);
            assert_eq!(ab.is_mirror(), a.is_mirror() != b.is_mirror());
        }
    }
    // The products hit each symmetry exactly 48 times.
    let mut counts = [0; 48];
    for a in Symmetry::all() {
        for b in Symmetry::all() {
            counts[a.then(b).index()] += 1;
        }
    }
    assert!(counts.iter().all(|&c| c == 48));
}

#[test]
fn conjugating_a_face_turn_gives_a_face_turn() {
    for s in Symmetry::all() {
        let mut images = std::collections::HashSet::new();
        for m in Move::ALL {
            let image = s.conjugate_move(m);
            assert_eq!(
                s.conjugate(&Cube::from_move(m)),
                Cube::from_move(image),
                "{s} {m}"
            );
            assert_eq!(image.is_half_turn(), m.is_half_turn());
            images.insert(image);
        }
        assert_eq!(images.len(), 18, "{s} permutes the moves");
    }
}

#[test]
fn conjugation_is_an_action() {
    let cube = cube_of("R U2 D' B D' F L");
    for a in Symmetry::all() {
        for b in [
            Symmetry::X,
            Symmetry::Y,
            Symmetry::Z,
            Symmetry::MIRROR,
            Symmetry::from_index(37),
        ] {
            assert_eq!(
                a.then(b).conjugate(&cube),
                a.conjugate(&b.conjugate(&cube)),
                "{a} {b}"
            );
        }
        // Conjugation is a group automorphism.
        let other = cube_of("F2 L' U");
        assert_eq!(
            a.conjugate(&cube.compose(&other)),
            a.conjugate(&cube).compose(&a.conjugate(&other))
        );
    }
}

#[test]
fn named_rotations_match_notation() {
    // "x U x'" turns F; the rotation FD is x.
    for (name, rotation) in [("FD", "x"), ("UR", "y"), ("LF", "z"), ("DF", "z2")] {
        let s: Symmetry = name.parse().unwrap();
        let alg: cube_core::Alg = rotation.parse().unwrap();
        assert_eq!(alg.expand().rotation, s, "{name}");
        let conj = format!("{rotation} R U F' {rotation}'");
        assert_eq!(s.conjugate(&cube_of("R U F'")), cube_of(&conj), "{name}");
    }
}
