//! `Cube`: a state read from any format the CLI reads, written to every format; `check` and
//! `convert`.

use cube_core::{Alg, Cube};
use cube_encode::{
    Checked, DecodeError, Format, State, b32, facelet, h48, kpattern, reid, twizzle,
};
use cube_solvers::scramble::Scrambler;
use cube_solvers::two_phase::TwoPhase;
use cube_solvers::{Limits, Solver, Stop};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::args::Int;
use crate::errors::{IllegalCube, ParseError, solve_error};

/// The format names of the CLI's `--from` and `--to`.
const FORMATS: [(&str, Format); 7] = [
    ("alg", Format::Alg),
    ("facelets", Format::Facelets),
    ("h48", Format::H48),
    ("reid", Format::Reid),
    ("b32", Format::B32),
    ("twizzle", Format::TwizzleHex),
    ("kpattern", Format::PatternJson),
];

fn format_named(name: &str) -> PyResult<Format> {
    FORMATS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, f)| f)
        .ok_or_else(|| {
            let names: Vec<&str> = FORMATS.iter().map(|(n, _)| *n).collect();
            ParseError::new_err(format!(
                "unknown format {name:?}: expected one of {}",
                names.join(", ")
            ))
        })
}

fn name_of(format: Format) -> &'static str {
    FORMATS
        .iter()
        .find(|(_, f)| *f == format)
        .map_or("alg", |(n, _)| n)
}

/// The reader's refusal of `text` as `format`, in the CLI's words.
fn refusal(e: &DecodeError, format: Format, forced: bool) -> PyErr {
    let name = name_of(format);
    ParseError::new_err(match (forced, format) {
        (true, _) => format!("{e} (read as {name}, as format= asked)"),
        (false, Format::Alg) => format!(
            "{e} (read as a move sequence, since it has the shape of no other format; format=NAME reads it as another)"
        ),
        (false, _) => {
            format!("{e} (read as {name}, by its shape; format=NAME reads it as another format)")
        }
    })
}

/// Reads `text` as `format`, or in the format its shape says, with every rule checked
/// (cube-encode's `check`, as the CLI reads).
fn read(text: &str, format: Option<&str>) -> PyResult<(Format, Checked)> {
    match format {
        Some(name) => {
            let format = format_named(name)?;
            let checked =
                cube_encode::check_as(format, text).map_err(|e| refusal(&e, format, true))?;
            Ok((format, checked))
        }
        None => match cube_encode::check(text) {
            Ok(found) => Ok(found),
            Err(DecodeError::Detected { format, error }) => Err(refusal(&error, format, false)),
            Err(e) => Err(refusal(&e, Format::Alg, false)),
        },
    }
}

/// The refusal of a state that breaks rules: every one, as `check` lists them.
fn illegal(problems: &[cube_encode::Problem]) -> PyErr {
    IllegalCube::new_err(cube_encode::illegal_cube(problems))
}

/// Reads `text` as [`read`] does: the state, or `IllegalCube` naming every problem.
pub fn parse(text: &str, format: Option<&str>) -> PyResult<(Format, State)> {
    let (format, checked) = read(text, format)?;
    match checked.state {
        Some(state) => Ok((format, state)),
        None => Err(illegal(&checked.problems)),
    }
}

/// A state argument: a `Cube` or a text in any format.
#[derive(FromPyObject)]
pub enum StateArg {
    /// A `Cube`.
    Cube(PyCube),
    /// A text, read by its shape.
    Text(String),
}

impl StateArg {
    /// The state, as given or read.
    pub fn state(&self) -> PyResult<State> {
        match self {
            StateArg::Cube(cube) => Ok(cube.state),
            StateArg::Text(text) => Ok(parse(text, None)?.1),
        }
    }

    /// Every rule the state breaks (none: a legal cube).
    fn problems(&self) -> PyResult<Vec<cube_encode::Problem>> {
        match self {
            StateArg::Cube(cube) => Ok(cube.state.problems()),
            StateArg::Text(text) => Ok(read(text, None)?.1.problems),
        }
    }

    /// The state, which must be solvable: the pieces relative to the centres.
    pub fn legal_cube(&self) -> PyResult<Cube> {
        let problems = self.problems()?;
        if !problems.is_empty() {
            return Err(illegal(&problems));
        }
        Ok(self.state()?.cube())
    }
}

/// A 3x3x3 cube state.
///
/// ``Cube(text)`` reads any format the CLI reads, by the text's shape: a move sequence,
/// 54 facelets, H48, Reid, B32, Twizzle hex or cubing.js pattern JSON; ``format=`` forces one
/// (``"alg"``, ``"facelets"``, ``"h48"``, ``"reid"``, ``"b32"``, ``"twizzle"``, ``"kpattern"``).
/// ``Cube()`` is the solved cube.
///
/// >>> from cube_toolkit import Cube
/// >>> Cube("R U").twizzle
/// '9c14df400001baa5280000'
/// >>> Cube("R U R' U'") == Cube("R U R' U'").inverse().inverse()
/// True
///
/// Two cubes are equal when their pieces, puzzle orientation (none recorded counts as the
/// identity) and centre orientation are.
#[pyclass(module = "cube_toolkit", name = "Cube", frozen, eq, hash)]
#[derive(Clone)]
pub struct PyCube {
    pub state: State,
}

impl PyCube {
    /// What equality and hashing compare.
    fn key(&self) -> (Cube, cube_core::Symmetry, Option<cube_core::Centers>) {
        let state = &self.state;
        (
            state.cube(),
            state.orientation().unwrap_or(cube_core::Symmetry::IDENTITY),
            state.centers(),
        )
    }
}

impl PartialEq for PyCube {
    fn eq(&self, other: &PyCube) -> bool {
        self.key() == other.key()
    }
}

impl Eq for PyCube {}

impl std::hash::Hash for PyCube {
    fn hash<H: std::hash::Hasher>(&self, hasher: &mut H) {
        self.key().hash(hasher);
    }
}

#[pymethods]
impl PyCube {
    #[new]
    #[pyo3(signature = (text = None, format = None))]
    fn new(text: Option<&str>, format: Option<&str>) -> PyResult<PyCube> {
        let state = match text {
            None => State::SOLVED,
            Some(text) => parse(text, format)?.1,
        };
        Ok(PyCube { state })
    }

    /// A uniformly random legal state (the same ``seed``, 0 to 2**64 - 1, gives the same state).
    #[staticmethod]
    #[pyo3(signature = (seed = None))]
    fn random(seed: Option<Int>) -> PyResult<PyCube> {
        let seed = seed.map(|s| s.within("seed", 0, u64::MAX)).transpose()?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed.unwrap_or_else(rand::random));
        Ok(PyCube {
            state: State::new(Scrambler::random_state(&mut rng)),
        })
    }

    /// The 54 facelets in Kociemba's order U R F D L B, in the letters ``URFDLB``.
    #[getter]
    fn facelets(&self) -> String {
        facelet::encode(&self.state)
    }

    /// nissy-core's H48 text (the pieces only).
    #[getter]
    fn h48(&self) -> String {
        h48::encode(&self.state)
    }

    /// Twizzle binary as 22 hex digits (pieces, orientation and centres).
    #[getter]
    fn twizzle(&self) -> String {
        twizzle::encode_hex(&self.state)
    }

    /// cubing.js pattern JSON.
    #[getter]
    fn kpattern(&self) -> String {
        kpattern::encode(&self.state)
    }

    /// nissy-core's B32 text.
    #[getter]
    fn b32(&self) -> String {
        b32::encode(&self.state)
    }

    /// Reid's piece string.
    #[getter]
    fn reid(&self) -> String {
        reid::encode(&self.state)
    }

    /// Whether the pieces are solved relative to the centres.
    #[getter]
    fn is_solved(&self) -> bool {
        self.state.cube().is_solved()
    }

    /// The state after the move sequence ``alg`` (cube-core's notation, rotations included:
    /// a turn after ``x`` is the turn of the face then on top). The centre orientation of a
    /// supercube state is not carried.
    fn apply(&self, alg: &str) -> PyResult<PyCube> {
        let alg: Alg = alg
            .parse()
            .map_err(|e| ParseError::new_err(format!("{e} (in the algorithm {alg:?})")))?;
        let expanded = alg.expand();
        let frame = self
            .state
            .orientation()
            .unwrap_or(cube_core::Symmetry::IDENTITY);
        // The moves are turns of the faces as the cube now sits: in the centres' frame, each is
        // conjugated by the orientation the cube has.
        let moves: Vec<_> = expanded
            .moves
            .iter()
            .map(|&m| frame.conjugate_move(m))
            .collect();
        let cube = self.state.cube().apply_moves(&moves);
        let rotation = frame.then(expanded.rotation);
        let orientation = match self.state.orientation() {
            None if rotation == cube_core::Symmetry::IDENTITY => None,
            _ => Some(rotation),
        };
        Ok(PyCube {
            state: State::new(cube).with_orientation(orientation),
        })
    }

    /// The inverse of the pieces relative to the centres (no orientation is kept).
    fn inverse(&self) -> PyCube {
        PyCube {
            state: State::new(self.state.cube().inverse()),
        }
    }

    fn __repr__(&self) -> String {
        format!("Cube({:?})", self.twizzle())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> crate::Reduce<'py, (String, &'static str)> {
        (py.get_type::<PyCube>(), (self.twizzle(), "twizzle"))
    }
}

/// One rule a state breaks: a stable ``code`` (the rule's name) and the CLI's ``message``.
#[pyclass(module = "cube_toolkit", name = "Problem", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct Problem {
    /// The rule's code, as the CLI's ``check --json`` gives it, such as ``colour-count`` or
    /// ``twisted-corner`` (docs/json.md lists them).
    code: String,
    /// The CLI's sentence for it.
    message: String,
}

#[pymethods]
impl Problem {
    #[new]
    fn new(code: String, message: String) -> Problem {
        Problem { code, message }
    }

    fn __repr__(&self) -> String {
        format!("Problem({:?}, {:?})", self.code, self.message)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> crate::Reduce<'py, (String, String)> {
        (
            py.get_type::<Problem>(),
            (self.code.clone(), self.message.clone()),
        )
    }
}

/// The rules ``state`` breaks, as the CLI's ``check`` lists them; empty for a legal cube.
///
/// A text that reads as no state at all raises ``ParseError``.
///
/// >>> from cube_toolkit import check
/// >>> check("R U R' U'")
/// []
/// >>> [p.code for p in check("UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBR")]
/// ['colour-count', 'colour-count']
/// >>> [p.code for p in check("UF2 UF0 DB0 DF0 UR0 UL0 DL0 DR0 FR0 FL0 BL0 BR0 UFR0 UBL0 DFL0 DBR0 UFL0 UBR0 DFR0 DBL0")]
/// ['orientation-out-of-range', 'edges-not-a-permutation']
#[pyfunction]
pub fn check(state: StateArg) -> PyResult<Vec<Problem>> {
    Ok(state
        .problems()?
        .iter()
        .map(|p| Problem {
            code: p.rule().to_string(),
            message: p.to_string(),
        })
        .collect())
}

/// ``state`` in the format ``to``: ``"facelets"``, ``"h48"``, ``"reid"``, ``"b32"``,
/// ``"twizzle"``, ``"kpattern"`` or ``"alg"`` (a move sequence that makes it from solved: the
/// inverse of a two-phase solution; for a legal state without a puzzle rotation).
///
/// >>> from cube_toolkit import convert
/// >>> convert("R U", "h48")
/// 'FR0 UL0 DB0 DF0 UB0 UF0 DL0 BR0 DR0 FL0 BL0 UR0 UFR1 UFL0 DFL0 UBR2 DFR2 UBL0 DBR1 DBL0'
#[pyfunction]
pub fn convert(py: Python<'_>, state: StateArg, to: &str) -> PyResult<String> {
    let state = state.state()?;
    Ok(match format_named(to)? {
        Format::Facelets => facelet::encode(&state),
        Format::H48 => h48::encode(&state),
        Format::Reid => reid::encode(&state),
        Format::B32 => b32::encode(&state),
        Format::TwizzleHex => twizzle::encode_hex(&state),
        Format::PatternJson => kpattern::encode(&state),
        Format::Alg => {
            if state
                .orientation()
                .is_some_and(|r| r != cube_core::Symmetry::IDENTITY)
            {
                return Err(ParseError::new_err(
                    "alg: this state has a puzzle rotation, which convert does not write as moves (the CLI's convert does)",
                ));
            }
            let cube = state.cube();
            let problems = State::new(cube).problems();
            if !problems.is_empty() {
                return Err(IllegalCube::new_err(format!(
                    "{} (only legal states have a move sequence)",
                    cube_encode::illegal_cube(&problems)
                )));
            }
            let solutions = py
                .allow_threads(|| {
                    TwoPhase::new(crate::tables::two_phase()).solve(
                        &cube,
                        &Limits::default(),
                        &Stop::new(),
                    )
                })
                .map_err(solve_error)?;
            let moves = solutions
                .into_iter()
                .next()
                .map(|s| s.moves)
                .unwrap_or_default();
            Alg::from_moves(&moves).inverse().to_string()
        }
    })
}
