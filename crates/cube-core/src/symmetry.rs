//! The 48 symmetries of the cube: 24 rotations, each with and without a mirror.
//!
//! Every symmetry is derived from geometry: a signed 3x3 permutation matrix acting on the
//! stickers' positions and normals (x towards R, y towards U, z towards F). Nothing here is
//! typed in by hand except the names.
//!
//! Names follow the H48 format of nissy-core: `XY` is the rotation that brings face `X` to U and
//! face `Y` to F (`UF` is the identity, `FD` is `x`, `UR` is `y`, `LF` is `z`), and `XYm` is the
//! mirror in the M plane (R and L swap) followed by that rotation (checked against all of
//! nissy-core's transformation tests, in cube-encode). Conjugating a cube `C` by a
//! symmetry `S` gives the state of the sequence "S, then C, then S⁻¹": each move of `C` is
//! replaced by the move `S` maps it to (reversed in direction for a mirror).

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::cubie::Cube;
use crate::facelet::FaceletCube;
use crate::moves::{Face, Move};

/// A vector of the cube's geometry: x towards R, y towards U, z towards F.
type Vec3 = [i8; 3];

/// A signed permutation matrix: `(m * v)[k] = sign[k] * v[axis[k]]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Matrix {
    axis: [u8; 3],
    sign: [i8; 3],
}

impl Matrix {
    const IDENTITY: Matrix = Matrix {
        axis: [0, 1, 2],
        sign: [1, 1, 1],
    };
    /// The mirror in the M plane: x -> -x.
    const MIRROR_M: Matrix = Matrix {
        axis: [0, 1, 2],
        sign: [-1, 1, 1],
    };

    fn apply(&self, v: Vec3) -> Vec3 {
        std::array::from_fn(|k| self.sign[k] * v[self.axis[k] as usize])
    }

    /// `self * other`: apply `other` first.
    fn mul(&self, other: &Matrix) -> Matrix {
        let mut axis = [0; 3];
        let mut sign = [0; 3];
        for k in 0..3 {
            axis[k] = other.axis[self.axis[k] as usize];
            sign[k] = self.sign[k] * other.sign[self.axis[k] as usize];
        }
        Matrix { axis, sign }
    }

    fn transpose(&self) -> Matrix {
        let mut axis = [0; 3];
        let mut sign = [0; 3];
        for k in 0..3 {
            axis[self.axis[k] as usize] = k as u8;
            sign[self.axis[k] as usize] = self.sign[k];
        }
        Matrix { axis, sign }
    }

    #[cfg(test)]
    fn is_mirror(&self) -> bool {
        // The determinant of a signed permutation matrix: the permutation's sign times the signs.
        let perm_odd = crate::perm::permutation_parity_odd(&self.axis);
        let negatives = self.sign.iter().filter(|&&s| s < 0).count();
        perm_odd ^ (negatives % 2 == 1)
    }
}

fn normal(face: Face) -> Vec3 {
    match face {
        Face::U => [0, 1, 0],
        Face::R => [1, 0, 0],
        Face::F => [0, 0, 1],
        Face::D => [0, -1, 0],
        Face::L => [-1, 0, 0],
        Face::B => [0, 0, -1],
    }
}

fn face_of_normal(n: Vec3) -> Face {
    Face::ALL
        .into_iter()
        .find(|&f| normal(f) == n)
        .expect("a unit axis vector is a face normal")
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The position (cubie centre) and outward normal of each of the 54 facelets.
fn facelet_geometry(index: usize) -> (Vec3, Vec3) {
    let face = Face::from_index(index / 9);
    let (r, c) = ((index % 9 / 3) as i8, (index % 3) as i8);
    let pos = match face {
        Face::U => [c - 1, 1, r - 1],
        Face::R => [1, 1 - r, 1 - c],
        Face::F => [c - 1, 1 - r, 1],
        Face::D => [c - 1, -1, 1 - r],
        Face::L => [-1, 1 - r, c - 1],
        Face::B => [1 - c, 1 - r, -1],
    };
    (pos, normal(face))
}

/// One of the 48 symmetries of the cube.
///
/// Indices 0..24 are the rotations and 24..48 the mirrored symmetries, both in nissy-core's order
/// (`UF UL UB UR DF DL DB DR RU RF RD RB LU LF LD LB FU FR FD FL BU BR BD BL`).
///
/// ```
/// use cube_core::{Cube, Move, Symmetry};
/// let x: Symmetry = "FD".parse().unwrap();
/// assert_eq!(x, Symmetry::X);
/// // x, then U, then x' turns the front face.
/// assert_eq!(x.conjugate_move(Move::U1), Move::F1);
/// assert_eq!(x.conjugate(&Cube::from_move(Move::U1)), Cube::from_move(Move::F1));
/// // The mirror turns U into U'.
/// let m: Symmetry = "UFm".parse().unwrap();
/// assert_eq!(m.conjugate_move(Move::U1), Move::U3);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symmetry(u8);

/// The faces brought to U and F by each rotation, in index order.
const ROTATION_NAMES: [(Face, Face); 24] = {
    use Face::*;
    [
        (U, F),
        (U, L),
        (U, B),
        (U, R),
        (D, F),
        (D, L),
        (D, B),
        (D, R),
        (R, U),
        (R, F),
        (R, D),
        (R, B),
        (L, U),
        (L, F),
        (L, D),
        (L, B),
        (F, U),
        (F, R),
        (F, D),
        (F, L),
        (B, U),
        (B, R),
        (B, D),
        (B, L),
    ]
};

/// Everything derived from the geometry of one symmetry.
struct SymmetryData {
    matrix: Matrix,
    /// `face_map[f]`: the face that `f` is carried to.
    face_map: [Face; 6],
    /// `facelet_map[p]`: the facelet position that `p` is carried to.
    facelet_map: [u8; 54],
}

struct Tables {
    data: Vec<SymmetryData>,
    /// `product[a][b]`: the symmetry "a, then b".
    product: [[u8; 48]; 48],
    inverse: [u8; 48],
    /// `move_conj[s][m]`: the move `m` conjugated by `s`.
    move_conj: [[u8; 18]; 48],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn build_tables() -> Tables {
    let geometry: Vec<(Vec3, Vec3)> = (0..54).map(facelet_geometry).collect();
    let data: Vec<SymmetryData> = (0..48)
        .map(|index| {
            let (top, front) = ROTATION_NAMES[index % 24];
            // The inverse maps U to `top`, F to `front` and R to top x front (rotations preserve
            // the cross product, and U x F = R); the rotation is its transpose.
            let (n_top, n_front) = (normal(top), normal(front));
            let right = cross(n_top, n_front);
            let mut inverse = Matrix::IDENTITY;
            for (k, column) in [right, n_top, n_front].into_iter().enumerate() {
                // Column k of the inverse is `column`: (inverse * e_k) = column.
                let axis = column.iter().position(|&x| x != 0).expect("a unit vector");
                inverse.axis[axis] = k as u8;
                inverse.sign[axis] = column[axis];
            }
            let rotation = inverse.transpose();
            let matrix = if index < 24 {
                rotation
            } else {
                rotation.mul(&Matrix::MIRROR_M)
            };
            let face_map = Face::ALL.map(|f| face_of_normal(matrix.apply(normal(f))));
            let facelet_map = std::array::from_fn(|p| {
                let (pos, n) = geometry[p];
                let target = (matrix.apply(pos), matrix.apply(n));
                geometry
                    .iter()
                    .position(|g| *g == target)
                    .expect("symmetries permute facelets") as u8
            });
            SymmetryData {
                matrix,
                face_map,
                facelet_map,
            }
        })
        .collect();
    let find = |m: Matrix| {
        data.iter()
            .position(|d| d.matrix == m)
            .expect("closed under product") as u8
    };
    let mut product = [[0u8; 48]; 48];
    let mut inverse = [0u8; 48];
    let mut move_conj = [[0u8; 18]; 48];
    for a in 0..48 {
        for b in 0..48 {
            // "a, then b" carries a point by a first.
            product[a][b] = find(data[b].matrix.mul(&data[a].matrix));
        }
        inverse[a] = find(data[a].matrix.transpose());
        for m in Move::ALL {
            // "S, then m, then S⁻¹": the face m turns, seen after S, is S⁻¹(face).
            let face = data[inverse[a] as usize].face_map[m.face().index()];
            let amount = if a >= 24 { 4 - m.amount() } else { m.amount() };
            move_conj[a][m.index()] = Move::new(face, amount).index() as u8;
        }
    }
    Tables {
        data,
        product,
        inverse,
        move_conj,
    }
}

impl Symmetry {
    /// The number of symmetries.
    pub const COUNT: usize = 48;
    /// The identity (`UF`).
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// The whole-cube rotation `x` (turns the cube like `R`; `FD`).
    pub const X: Symmetry = Symmetry(18);
    /// The whole-cube rotation `y` (turns the cube like `U`; `UR`).
    pub const Y: Symmetry = Symmetry(3);
    /// The whole-cube rotation `z` (turns the cube like `F`; `LF`).
    pub const Z: Symmetry = Symmetry(13);
    /// The mirror in the M plane (`UFm`).
    pub const MIRROR: Symmetry = Symmetry(24);

    /// All 48 symmetries in index order.
    pub fn all() -> impl Iterator<Item = Symmetry> {
        (0..48).map(Symmetry)
    }

    /// The 24 rotations in index order.
    pub fn rotations() -> impl Iterator<Item = Symmetry> {
        (0..24).map(Symmetry)
    }

    /// The symmetry with index `index` (0..48).
    ///
    /// # Panics
    /// If `index >= 48`.
    pub const fn from_index(index: usize) -> Symmetry {
        assert!(index < 48, "symmetry index out of range");
        Symmetry(index as u8)
    }

    /// The index, 0..48.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this symmetry includes a mirror (reverses the direction of turns).
    pub const fn is_mirror(self) -> bool {
        self.0 >= 24
    }

    /// The face that `face` is carried to (`Symmetry::X.map_face(Face::F) == Face::U`).
    pub fn map_face(self, face: Face) -> Face {
        tables().data[self.index()].face_map[face.index()]
    }

    /// The facelet position that facelet `index` (0..54) is carried to.
    pub fn map_facelet(self, index: usize) -> usize {
        tables().data[self.index()].facelet_map[index] as usize
    }

    /// "self, then other".
    pub fn then(self, other: Symmetry) -> Symmetry {
        Symmetry(tables().product[self.index()][other.index()])
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        Symmetry(tables().inverse[self.index()])
    }

    /// The move of "self, then `m`, then self⁻¹" (a mirror reverses the direction).
    pub fn conjugate_move(self, m: Move) -> Move {
        Move::from_index(tables().move_conj[self.index()][m.index()] as usize)
    }

    /// The state of the sequence "self, then `cube`, then self⁻¹".
    ///
    /// This works on stickers, so it is correct for every state but not fast (about a
    /// microsecond); solvers precompute what they need from it.
    pub fn conjugate(self, cube: &Cube) -> Cube {
        let colours = *FaceletCube::from_cube(cube).colours();
        let data = &tables().data[self.inverse().index()];
        let out = std::array::from_fn(|p| {
            let colour = colours[tables().data[self.index()].facelet_map[p] as usize];
            let face = Face::from_letter(colour as char).expect("from_cube uses face letters");
            data.face_map[face.index()].letter() as u8
        });
        FaceletCube::new(out)
            .to_cube()
            .expect("a symmetry maps pieces to pieces")
    }

    /// The H48 name: two faces, then `m` for a mirrored symmetry (`UF`, `FD`, `RBm`).
    pub fn name(self) -> String {
        let (top, front) = ROTATION_NAMES[self.index() % 24];
        format!("{top}{front}{}", if self.is_mirror() { "m" } else { "" })
    }
}

/// An unknown symmetry name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSymmetryError(String);

impl fmt::Display for ParseSymmetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown symmetry {:?}: expected two faces of different axes such as UF or RB, optionally followed by r (rotation) or m (mirrored)",
            self.0
        )
    }
}

impl std::error::Error for ParseSymmetryError {}

impl FromStr for Symmetry {
    type Err = ParseSymmetryError;

    /// Parses `XY`, `XYr` (rotation) or `XYm` (mirrored).
    fn from_str(s: &str) -> Result<Symmetry, ParseSymmetryError> {
        let err = || ParseSymmetryError(s.to_string());
        let mut chars = s.chars();
        let top = chars.next().and_then(Face::from_letter).ok_or_else(err)?;
        let front = chars.next().and_then(Face::from_letter).ok_or_else(err)?;
        let mirror = match (chars.next(), chars.next()) {
            (None, _) | (Some('r'), None) => false,
            (Some('m'), None) => true,
            _ => return Err(err()),
        };
        let rotation = ROTATION_NAMES
            .iter()
            .position(|&n| n == (top, front))
            .ok_or_else(err)?;
        Ok(Symmetry((rotation + if mirror { 24 } else { 0 }) as u8))
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Symmetry({})", self.name())
    }
}

impl FaceletCube {
    /// The stickers of `cube` as seen after the whole cube has been turned by `rotation`
    /// (centres included), as a physical cube looks after an algorithm with rotations or slices.
    ///
    /// ```
    /// use cube_core::{Cube, FaceletCube, Symmetry};
    /// let seen = FaceletCube::from_cube_in_frame(&Cube::SOLVED, Symmetry::X);
    /// assert!(seen.to_string().starts_with("FFFFFFFFFRRR"));
    /// ```
    pub fn from_cube_in_frame(cube: &Cube, rotation: Symmetry) -> FaceletCube {
        let colours = *FaceletCube::from_cube(cube).colours();
        let mut out = [0u8; 54];
        for (p, &c) in colours.iter().enumerate() {
            out[rotation.map_facelet(p)] = c;
        }
        FaceletCube::new(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_rotations_are_proper() {
        for s in Symmetry::all() {
            assert_eq!(s.name().parse::<Symmetry>(), Ok(s));
            assert_eq!(
                tables().data[s.index()].matrix.is_mirror(),
                s.is_mirror(),
                "{s}"
            );
        }
        assert!("UU".parse::<Symmetry>().is_err());
        assert!("UFx".parse::<Symmetry>().is_err());
        assert_eq!("FDr".parse::<Symmetry>(), Ok(Symmetry::X));
    }

    #[test]
    fn named_rotations() {
        assert_eq!(Symmetry::X.map_face(Face::F), Face::U);
        assert_eq!(Symmetry::Y.map_face(Face::R), Face::F);
        assert_eq!(Symmetry::Z.map_face(Face::U), Face::R);
    }
}
