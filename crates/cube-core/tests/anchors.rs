//! Facts about the cube from the literature that pin the conventions.

use cube_core::{Cube, Edge, FaceletCube};

use crate::cube_of;

#[test]
fn superflip_flips_every_edge_in_place() {
    let cube = cube_of("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
    assert_eq!(cube.corner_perm(), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(cube.corner_ori(), [0; 8]);
    assert_eq!(cube.edge_perm(), std::array::from_fn(|i| i as u8));
    assert_eq!(cube.edge_ori(), [1; 12]);
    // The published facelets of the superflip (REFERENCE.md).
    assert_eq!(
        FaceletCube::from_cube(&cube).to_string(),
        "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB"
    );
    assert_eq!(cube.order(), 2);
    assert_eq!(cube.edge(Edge::UR), (Edge::UR, 1));
}

#[test]
fn orders() {
    assert_eq!(cube_of("R U").order(), 105);
    assert_eq!(cube_of("R U R' U'").order(), 6);
    assert_eq!(cube_of("R").order(), 4);
    assert_eq!(cube_of("R2").order(), 2);
    assert_eq!(Cube::SOLVED.order(), 1);
    // The largest order of an element of the cube group is 1260 (R U2 D' B D').
    assert_eq!(cube_of("R U2 D' B D'").order(), 1260);
}

#[test]
fn slice_h_perm_equals_outer_turn_h_perm() {
    let slices: cube_core::Alg = "M2 U M2 U2 M2 U M2".parse().unwrap();
    let expanded = slices.expand();
    // M2 four times: the net rotation is x'^8 = identity.
    assert_eq!(expanded.rotation, cube_core::Symmetry::IDENTITY);
    assert_eq!(expanded.cube(), cube_of("R2 U2 R U2 R2 U2 R2 U2 R U2 R2"));
}

#[test]
fn parities_and_sums() {
    let t_perm = cube_of("R U R' U' R' F R2 U' R' U' R U R' F'");
    assert!(t_perm.corner_parity_odd());
    assert!(t_perm.edge_parity_odd());
    assert!(t_perm.is_solvable());
    assert_eq!(t_perm.order(), 2);
}
