//! [`State`]: what every format reads and writes.

use cube_core::{Alg, Centers, Cube, FaceletCube, Symmetry};

use crate::error::DecodeError;
use crate::problem::Problem;

/// A cube state as the formats of this crate carry it: the pieces relative to the centres, and
/// optionally where the centres are (the puzzle orientation) and how they are turned.
///
/// - `cube`: the corners and edges relative to the centres, as [`Alg::expand`] gives them.
/// - `orientation`: the whole-cube rotation (never a mirror) the centres have been turned by,
///   if the format records it. The physical state is `cube`, then this rotation.
/// - `centers`: the centre orientation, for supercubes, if the format records it.
///
/// Which parts a format keeps: Twizzle binary and [`compact`](crate::compact) keep all three
/// (an absent orientation is PO_U = 7, absent centres MO_Q = 0); cubing.js patterns keep all
/// three, but always have an orientation; facelet strings keep the orientation when written in
/// the letters `URFDLB`; B32 keeps `cube` and the orientation (an absent one is written as
/// `UF`, and read back as such); H48 keeps only `cube`.
///
/// ```
/// use cube_core::{Alg, Move, Symmetry};
/// use cube_encode::State;
/// let state = State::from_alg(&"x U".parse::<Alg>().unwrap());
/// // U after x turns the face that was F.
/// assert_eq!(state.cube(), cube_core::Cube::from_move(Move::F1));
/// assert_eq!(state.orientation(), Some(Symmetry::X));
/// assert_eq!(state.centers(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct State {
    cube: Cube,
    orientation: Option<Symmetry>,
    centers: Option<Centers>,
}

impl State {
    /// The solved state with no orientation and no centres recorded.
    pub const SOLVED: State = State {
        cube: Cube::SOLVED,
        orientation: None,
        centers: None,
    };

    /// A state with only the pieces: no orientation, no centre orientation.
    pub const fn new(cube: Cube) -> State {
        State {
            cube,
            orientation: None,
            centers: None,
        }
    }

    /// The state `alg` makes from solved, with its net rotation; centres are not tracked.
    pub fn from_alg(alg: &Alg) -> State {
        let expanded = alg.expand();
        State {
            cube: expanded.cube(),
            orientation: Some(expanded.rotation),
            centers: None,
        }
    }

    /// The state `alg` makes from solved on a supercube: with its net rotation and the centre
    /// orientation its face turns leave.
    pub fn from_alg_supercube(alg: &Alg) -> State {
        let expanded = alg.expand();
        State {
            cube: expanded.cube(),
            orientation: Some(expanded.rotation),
            centers: Some(expanded.centers()),
        }
    }

    /// The same state with the given puzzle orientation (`None`: not recorded).
    ///
    /// # Panics
    /// If `rotation` is a mirror symmetry; [`State::try_with_orientation`] returns `None` then.
    #[inline]
    pub fn with_orientation(self, rotation: Option<Symmetry>) -> State {
        self.try_with_orientation(rotation)
            .expect("a puzzle orientation is a rotation, not a mirror")
    }

    /// The same state with the given puzzle orientation, or `None` if it is a mirror.
    #[inline]
    pub fn try_with_orientation(self, rotation: Option<Symmetry>) -> Option<State> {
        match rotation {
            Some(r) if r.is_mirror() => None,
            _ => Some(State {
                orientation: rotation,
                ..self
            }),
        }
    }

    /// The same state with the given centre orientation (`None`: not recorded).
    pub const fn with_centers(self, centers: Option<Centers>) -> State {
        State { centers, ..self }
    }

    /// The same state with other pieces.
    pub const fn with_cube(self, cube: Cube) -> State {
        State { cube, ..self }
    }

    /// The corners and edges, relative to the centres.
    pub const fn cube(&self) -> Cube {
        self.cube
    }

    /// The puzzle orientation (a rotation), if recorded.
    pub const fn orientation(&self) -> Option<Symmetry> {
        self.orientation
    }

    /// The centre orientation, if recorded.
    pub const fn centers(&self) -> Option<Centers> {
        self.centers
    }

    /// Checks that the state is reachable by turning: the pieces are solvable and, with
    /// centres, the parity of the centre quarter turns equals the corner permutation's (each
    /// quarter turn changes both).
    ///
    /// # Errors
    /// [`DecodeError::Illegal`] with cube-core's reason, or [`DecodeError::CentreParity`].
    pub fn validate(&self) -> Result<(), DecodeError> {
        self.cube.validate()?;
        if !self.centre_parity_ok() {
            return Err(DecodeError::CentreParity);
        }
        Ok(())
    }

    /// Every rule [`State::validate`] checks that the state breaks, in its order: empty
    /// exactly when it succeeds.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out: Vec<Problem> = self
            .cube
            .violations()
            .into_iter()
            .map(Problem::Pieces)
            .collect();
        if !self.centre_parity_ok() {
            out.push(Problem::CentreParity);
        }
        out
    }

    /// Whether the parity of the centre quarter turns, if recorded, equals the corner
    /// permutation's.
    fn centre_parity_ok(&self) -> bool {
        self.centers.is_none_or(|centers| {
            let turns: u32 = centers.turns().iter().map(|&t| t as u32).sum();
            (turns % 2 == 1) == self.cube.corner_parity_odd()
        })
    }

    /// The stickers as they look in space (the orientation applied; none means identity),
    /// in the letters `URFDLB`.
    pub fn facelets(&self) -> FaceletCube {
        match self.orientation {
            None => FaceletCube::from_cube(&self.cube),
            Some(r) => FaceletCube::from_cube_in_frame(&self.cube, r),
        }
    }
}

impl From<Cube> for State {
    fn from(cube: Cube) -> State {
        State::new(cube)
    }
}
