//! Group laws and round trips, searched by proptest.

use cube_core::{Alg, Cube, FaceletCube, Move, Symmetry};
use proptest::prelude::*;
use rand::SeedableRng;

fn cube() -> impl Strategy<Value = Cube> {
    any::<u64>().prop_map(|seed| Cube::random(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)))
}

fn moves() -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec((0usize..18).prop_map(Move::from_index), 0..30)
}

proptest! {
    #[test]
    fn associativity(a in cube(), b in cube(), c in cube()) {
        prop_assert_eq!(a.compose(&b).compose(&c), a.compose(&b.compose(&c)));
    }

    #[test]
    fn identity_and_inverse(a in cube()) {
        prop_assert_eq!(a.compose(&Cube::SOLVED), a);
        prop_assert_eq!(Cube::SOLVED.compose(&a), a);
        prop_assert!(a.compose(&a.inverse()).is_solved());
        prop_assert!(a.inverse().compose(&a).is_solved());
        prop_assert_eq!(a.inverse().inverse(), a);
    }

    #[test]
    fn random_states_are_solvable_and_order_holds(a in cube()) {
        prop_assert!(a.is_solvable());
        let order = a.order();
        let mut power = Cube::SOLVED;
        for i in 1..=order {
            power = power.compose(&a);
            prop_assert_eq!(power.is_solved(), i == order);
        }
    }

    #[test]
    fn facelets_round_trip(a in cube()) {
        let stickers = FaceletCube::from_cube(&a);
        prop_assert_eq!(stickers.to_cube_solvable(), Ok(a));
        prop_assert!(stickers.problems().is_empty());
    }

    #[test]
    fn alg_inverse_undoes(ms in moves()) {
        let alg = Alg::from_moves(&ms);
        let cube = Cube::SOLVED.apply_alg(&alg).apply_alg(&alg.inverse());
        prop_assert!(cube.is_solved());
        let reparsed: Alg = alg.to_string().parse().unwrap();
        prop_assert_eq!(reparsed, alg);
    }

    #[test]
    fn simplify_keeps_state_and_is_canonical(ms in moves()) {
        let simple = cube_core::simplify(&ms);
        prop_assert_eq!(Cube::SOLVED.apply_moves(&simple), Cube::SOLVED.apply_moves(&ms));
        prop_assert!(cube_core::is_canonical(&simple));
        prop_assert!(simple.len() <= ms.len());
        prop_assert_eq!(cube_core::simplify(&simple), simple.clone());
    }

    #[test]
    fn conjugation_by_moves_matches_conjugation_of_cube(ms in moves(), s in 0usize..48) {
        let s = Symmetry::from_index(s);
        let mapped: Vec<Move> = ms.iter().map(|&m| s.conjugate_move(m)).collect();
        prop_assert_eq!(s.conjugate(&Cube::SOLVED.apply_moves(&ms)), Cube::SOLVED.apply_moves(&mapped));
    }
}
