//! Algorithms in the notation cubers write and cubing.js reads.
//!
//! Tokens: face turns `U R F D L B`; wide turns `Uw Rw Fw Dw Lw Bw` and `u r f d l b`; slices
//! `M E S` (M turns like L, E like D, S like F); the second layer named by its number, SiGN's
//! way, as cubing.js reads it on a 3x3x3: `2R` (= `M'`), `2L` (= `M`), `2U` (= `E'`), `2D`
//! (= `E`), `2F` (= `S`), `2B` (= `S'`), and no other layer number (`3R`, `2-3Rw`, `2r` are
//! refused); rotations `x y z`. An amount follows a token: nothing (a clockwise quarter turn), a
//! number from 1 (`R2`, `R3`; `R0` and `R02` are refused), a prime (`R'`), or both (`R2'`).
//! Groups repeat with an amount (`(R U R' U')3`, `(R U)'`); `[A, B]` is the commutator
//! `A B A' B'` and `[A: B]` the conjugate `A B A'`, both may carry an amount too. `//` starts a
//! comment that runs to the end of the line.
//!
//! As in cubing.js, moves are separated: a move, group, bracket or comment that follows a move,
//! group or bracket must have whitespace before it (`R U`, `R' U`, `(R U) R`), while `(`, `[`,
//! `,` and `:` need none after them and `)` and `]` none before (`(R U)`, `[R,U]`). `RU`,
//! `R'U` and `(R U)x2` are refused, so that no text of another format (`UUU`, `UFR1`) is read
//! as juxtaposed moves.
//!
//! Expansion keeps the centres fixed, as the cubie model does: `M = R L'` with the whole cube
//! turned by `x'`, `E = U D'` with `y'`, `S = F' B` with `z`, and a wide turn is the opposite face
//! turn with a rotation (`r = L x`). The rotation so far is tracked, so a letter after a rotation
//! turns the face that is now in that place: `x U` turns the face that was F.

use std::fmt;
use std::str::FromStr;

use crate::centers::Centers;
use crate::cubie::Cube;
use crate::moves::{Face, Move};
use crate::symmetry::Symmetry;

/// The most face turns an algorithm may expand to; longer ones are rejected when parsed, so
/// that no input can make expansion run out of memory.
pub const MAX_EXPANDED_MOVES: u64 = 1_000_000;

/// The deepest groups, commutators and conjugates may nest; deeper ones are rejected when
/// parsed, so that parsing, expanding, printing and dropping an algorithm (which recurse once
/// per level) never overflow a thread's stack.
pub const MAX_NESTING: usize = 256;

/// What one token turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Turn {
    /// An outer face.
    Face(Face),
    /// Two layers; `lower` when written `r` rather than `Rw`.
    Wide { face: Face, lower: bool },
    /// The middle layer: `M` (like L), `E` (like D), `S` (like F).
    Slice(Slice),
    /// The middle layer named by its number from a face, SiGN's way: `2R` turns like R.
    Inner(Face),
    /// The whole cube: `x` (like R), `y` (like U), `z` (like F).
    Rotation(Axis),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Slice {
    M,
    E,
    S,
}

impl Slice {
    /// The face the slice turns like.
    fn like(self) -> Face {
        match self {
            Slice::M => Face::L,
            Slice::E => Face::D,
            Slice::S => Face::F,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Axis {
    X,
    Y,
    Z,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Node {
    /// A token turned by `amount` quarter turns (negative = counter-clockwise), as written.
    Turn { turn: Turn, amount: i64 },
    /// `(body)amount`.
    Group { body: Vec<Node>, amount: i64 },
    /// `[a, b]amount`.
    Commutator {
        a: Vec<Node>,
        b: Vec<Node>,
        amount: i64,
    },
    /// `[a: b]amount`.
    Conjugate {
        a: Vec<Node>,
        b: Vec<Node>,
        amount: i64,
    },
}

/// An algorithm as written: a tree of tokens, groups, commutators and conjugates.
///
/// `Display` prints it back in the same notation with single spaces.
///
/// ```
/// use cube_core::{Alg, Move, Symmetry};
/// let alg: Alg = "[R: U] x M2' // a comment".parse().unwrap();
/// assert_eq!(alg.to_string(), "[R: U] x M2'");
/// let expanded = alg.expand();
/// // [R: U] = R U R'; after x, M2' turns R and L (unchanged by x), and the cube by x2.
/// assert_eq!(Alg::from_moves(&expanded.moves).to_string(), "R U R' R2 L2");
/// assert_eq!(expanded.rotation, Symmetry::X.then(Symmetry::X).then(Symmetry::X));
/// assert_eq!(alg.inverse().to_string(), "M2 x' [R: U]'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Alg {
    pub(crate) nodes: Vec<Node>,
}

/// An algorithm expanded to face turns relative to the centres, and the whole-cube rotation it
/// leaves the cube in.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expanded {
    /// The face turns, in order; each token's amount is reduced mod 4 and zero turns dropped.
    pub moves: Vec<Move>,
    /// The net whole-cube rotation (never a mirror): where the centres end up.
    pub rotation: Symmetry,
}

impl Expanded {
    /// The cubie-level state (relative to the centres).
    pub fn cube(&self) -> Cube {
        Cube::SOLVED.apply_moves(&self.moves)
    }

    /// The centre orientation the face turns leave (for supercubes).
    pub fn centers(&self) -> Centers {
        Centers::SOLVED.apply_moves(&self.moves)
    }
}

/// Why a string is not an algorithm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub(crate) kind: ParseErrorKind,
    pub(crate) column: usize,
    pub(crate) token: String,
}

/// The kinds of [`ParseError`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that starts no token.
    UnexpectedCharacter,
    /// A `)` or `]` with nothing open, or the wrong closer.
    UnmatchedClose,
    /// A `(` or `[` never closed.
    Unclosed,
    /// A `[` without `,` or `:` between its two parts, or with more than one.
    BadBracket,
    /// An amount too large to use.
    AmountTooLarge,
    /// The algorithm expands to more than [`MAX_EXPANDED_MOVES`] turns (an empty group or
    /// bracket counts as one turn per repetition, so that repeating nothing is bounded too).
    TooLong,
    /// Groups, commutators or conjugates nest more than [`MAX_NESTING`] deep.
    TooDeep,
    /// Something other than a single face turn where one was expected.
    NotAFaceTurn,
    /// A move, group, bracket or comment right after a move, group or bracket, with no
    /// whitespace between (`RU`, `R'U`, `(R U)x2`): cubing.js reads no juxtaposed moves.
    MissingSpace,
    /// An amount that is 0 or starts with 0 (`L0`, `R02`): a typo far more often than a move
    /// meant to turn nothing.
    ZeroAmount,
    /// A layer number a 3x3x3 does not read (`3R`, `2-3Rw`, `2r`): only the second layer from a
    /// face, `2U 2L 2F 2R 2B 2D`, is named by number, as cubing.js reads it.
    UnsupportedLayer,
}

impl ParseError {
    /// What went wrong.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }

    /// The column (1-based, in characters) where the offending token starts.
    pub fn column(&self) -> usize {
        self.column
    }

    /// The offending token (or character) as written.
    pub fn token(&self) -> &str {
        &self.token
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (col, tok) = (self.column, &self.token);
        match self.kind {
            ParseErrorKind::UnexpectedCharacter => write!(
                f,
                "column {col}: unexpected {tok:?}: expected a move (U R F D L B, Rw or r, M E S, x y z), '(', '[' or '//'"
            ),
            ParseErrorKind::UnmatchedClose => {
                write!(f, "column {col}: {tok:?} closes nothing that is open")
            }
            ParseErrorKind::Unclosed => write!(f, "column {col}: {tok:?} is never closed"),
            ParseErrorKind::BadBracket => write!(
                f,
                "column {col}: {tok:?} must hold two parts separated by ',' (commutator) or ':' (conjugate)"
            ),
            ParseErrorKind::AmountTooLarge => {
                write!(f, "column {col}: amount {tok:?} is too large")
            }
            ParseErrorKind::TooLong => write!(
                f,
                "column {col}: {tok:?} expands to more than {MAX_EXPANDED_MOVES} moves"
            ),
            ParseErrorKind::TooDeep => write!(
                f,
                "column {col}: {tok:?} opens a group nested more than {MAX_NESTING} deep"
            ),
            ParseErrorKind::NotAFaceTurn => write!(
                f,
                "column {col}: {tok:?} is not a single face turn (U R F D L B with an amount)"
            ),
            ParseErrorKind::MissingSpace => write!(
                f,
                "column {col}: missing a space before {tok:?}: moves, groups and brackets are separated by spaces, as in cubing.js (\"R U\", not \"RU\")"
            ),
            ParseErrorKind::ZeroAmount => write!(
                f,
                "column {col}: {tok:?} has an amount that is 0 or starts with 0 (a typo? a quarter turn has no amount: \"R\")"
            ),
            ParseErrorKind::UnsupportedLayer => write!(
                f,
                "column {col}: {tok:?}: a 3x3x3 reads a layer number only as 2U 2L 2F 2R 2B 2D, the middle layer (2R is M'), as cubing.js does"
            ),
        }
    }
}

impl std::error::Error for ParseError {}

struct Parser<'a> {
    chars: Vec<(usize, char)>,
    text: &'a str,
    pos: usize,
}

/// Open brackets: what was opened and at which column.
enum Opener {
    Paren,
    Bracket,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|&(_, c)| c)
    }

    /// An error for the token from `start` up to the current position.
    fn error(&self, kind: ParseErrorKind, start: usize) -> ParseError {
        self.error_span(kind, start, self.pos)
    }

    /// An error for the characters `start..end`.
    fn error_span(&self, kind: ParseErrorKind, start: usize, end: usize) -> ParseError {
        let end = end.max(start + 1).min(self.chars.len());
        let token = if start < self.chars.len() {
            let (a, _) = self.chars[start];
            let b = self.chars.get(end).map_or(self.text.len(), |&(i, _)| i);
            self.text[a..b].to_string()
        } else {
            "end of input".to_string()
        };
        ParseError {
            kind,
            column: start + 1,
            token,
        }
    }

    /// Skips whitespace and comments. `crowded` says whether a move, group or bracket ends
    /// right here; returns whether what follows is still crowded against it (nothing was
    /// skipped). A comment needs a space before it too, as in cubing.js.
    fn skip_space(&mut self, crowded: bool) -> Result<bool, ParseError> {
        let mut crowded = crowded;
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.pos += 1;
                crowded = false;
            } else if c == '/' && self.chars.get(self.pos + 1).map(|&(_, c)| c) == Some('/') {
                if crowded {
                    return Err(self.missing_space());
                }
                while let Some(c) = self.peek() {
                    if c == '\n' {
                        break;
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
        Ok(crowded)
    }

    /// A [`ParseErrorKind::MissingSpace`] for the characters from the current position up to
    /// the next whitespace.
    fn missing_space(&self) -> ParseError {
        let end = (self.pos..self.chars.len())
            .find(|&i| self.chars[i].1.is_whitespace())
            .unwrap_or(self.chars.len());
        self.error_span(ParseErrorKind::MissingSpace, self.pos, end)
    }

    /// An optional amount: digits, then an optional prime. Returns 1 if there is none. An
    /// amount that is 0 or starts with 0 is refused, naming the characters from `from` (the
    /// move, or the closer of a group) to the amount's end.
    fn amount(&mut self, from: usize) -> Result<i64, ParseError> {
        let start = self.pos;
        if self.peek() == Some('0') {
            self.digits();
            return Err(self.error(ParseErrorKind::ZeroAmount, from));
        }
        let mut value: Option<i64> = None;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            self.pos += 1;
            let v = value
                .unwrap_or(0)
                .checked_mul(10)
                .and_then(|v| v.checked_add(d as i64));
            match v {
                Some(v) if v <= MAX_EXPANDED_MOVES as i64 => value = Some(v),
                _ => {
                    self.digits();
                    return Err(self.error(ParseErrorKind::AmountTooLarge, start));
                }
            }
        }
        let mut amount = value.unwrap_or(1);
        if matches!(self.peek(), Some('\'' | '’' | '′')) {
            self.pos += 1;
            amount = -amount;
        }
        Ok(amount)
    }

    /// A sequence up to a closer (or the end): returns the nodes and the expanded length (in
    /// half turns: a token counts 2, as it may expand to two face turns).
    ///
    /// `depth` is the number of groups open around it: each level is one recursive call, and
    /// [`MAX_NESTING`] bounds them.
    fn sequence(
        &mut self,
        inside: Option<(&Opener, usize)>,
        depth: usize,
    ) -> Result<(Vec<Node>, u64), ParseError> {
        let mut nodes = Vec::new();
        let mut length = 0u64;
        // Whether a move, group or bracket ends right before, with no space after it.
        let mut crowded = false;
        loop {
            crowded = self.skip_space(crowded)?;
            let start = self.pos;
            let Some(c) = self.peek() else {
                return match inside {
                    None => Ok((nodes, length)),
                    Some((_, open)) => {
                        Err(self.error_span(ParseErrorKind::Unclosed, open, open + 1))
                    }
                };
            };
            if crowded && (c.is_ascii_alphanumeric() || c == '(' || c == '[') {
                return Err(self.missing_space());
            }
            let (node, node_length) = match c {
                ')' | ']' | ',' | ':' => {
                    let expected = match inside {
                        Some((Opener::Paren, _)) => c == ')',
                        Some((Opener::Bracket, _)) => c == ']' || c == ',' || c == ':',
                        None => false,
                    };
                    if !expected {
                        self.pos += 1;
                        let kind = if c == ',' || c == ':' {
                            ParseErrorKind::UnexpectedCharacter
                        } else {
                            ParseErrorKind::UnmatchedClose
                        };
                        return Err(self.error(kind, start));
                    }
                    return Ok((nodes, length));
                }
                '(' | '[' if depth >= MAX_NESTING => {
                    self.pos += 1;
                    return Err(self.error(ParseErrorKind::TooDeep, start));
                }
                '(' => {
                    self.pos += 1;
                    let (body, body_length) =
                        self.sequence(Some((&Opener::Paren, start)), depth + 1)?;
                    self.pos += 1; // ')'
                    let amount = self.amount(self.pos - 1)?;
                    (Node::Group { body, amount }, repeated(body_length, amount))
                }
                '[' => {
                    self.pos += 1;
                    let (a, a_length) =
                        self.sequence(Some((&Opener::Bracket, start)), depth + 1)?;
                    let separator = self.peek();
                    if separator != Some(',') && separator != Some(':') {
                        self.pos += 1;
                        return Err(self.error(ParseErrorKind::BadBracket, start));
                    }
                    self.pos += 1;
                    let (b, b_length) =
                        self.sequence(Some((&Opener::Bracket, start)), depth + 1)?;
                    if self.peek() != Some(']') {
                        self.pos += 1;
                        return Err(self.error(ParseErrorKind::BadBracket, start));
                    }
                    self.pos += 1; // ']'
                    let amount = self.amount(self.pos - 1)?;
                    let once = if separator == Some(',') {
                        2 * a_length + 2 * b_length
                    } else {
                        2 * a_length + b_length
                    };
                    let node = if separator == Some(',') {
                        Node::Commutator { a, b, amount }
                    } else {
                        Node::Conjugate { a, b, amount }
                    };
                    (node, repeated(once, amount))
                }
                _ => {
                    let Some(turn) = self.turn()? else {
                        self.pos += 1;
                        return Err(self.error(ParseErrorKind::UnexpectedCharacter, start));
                    };
                    let amount = self.amount(start)?;
                    (Node::Turn { turn, amount }, 2)
                }
            };
            length = length.saturating_add(node_length);
            if length > 2 * MAX_EXPANDED_MOVES {
                return Err(self.error(ParseErrorKind::TooLong, start));
            }
            nodes.push(node);
            crowded = true;
        }
    }

    /// The turn of the token here, without its amount; `None` (nothing read) when no token
    /// starts here. A token may start with a layer number, as cubing.js reads it: `2R` is the
    /// middle layer turned like R, and a 3x3x3 has no other numbered layer (`3R`, `2-3Rw` and
    /// `2r` are refused).
    fn turn(&mut self) -> Result<Option<Turn>, ParseError> {
        let start = self.pos;
        if !self.digits() {
            return Ok(self.letter_turn());
        }
        // SiGN's `outer-inner` layer range: `2-3Rw`.
        if self.peek() == Some('-') {
            self.pos += 1;
            if !self.digits() {
                self.pos = start;
                return Ok(None);
            }
        }
        let numbered = self.pos - start;
        match self.letter_turn() {
            None => {
                self.pos = start;
                Ok(None)
            }
            Some(Turn::Face(face)) if numbered == 1 && self.chars[start].1 == '2' => {
                Ok(Some(Turn::Inner(face)))
            }
            Some(_) => Err(self.error(ParseErrorKind::UnsupportedLayer, start)),
        }
    }

    /// Skips digits; returns whether there were any.
    fn digits(&mut self) -> bool {
        let from = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        self.pos > from
    }

    /// The turn of a token's letters: `R`, `Rw`, `r`, `M`, `x`.
    fn letter_turn(&mut self) -> Option<Turn> {
        let c = self.peek()?;
        let turn = if let Some(face) = Face::from_letter(c) {
            if self.chars.get(self.pos + 1).map(|&(_, c)| c) == Some('w') {
                self.pos += 1;
                Turn::Wide { face, lower: false }
            } else {
                Turn::Face(face)
            }
        } else if let Some(face) =
            Face::from_letter(c.to_ascii_uppercase()).filter(|_| c.is_ascii_lowercase())
        {
            Turn::Wide { face, lower: true }
        } else {
            match c {
                'M' => Turn::Slice(Slice::M),
                'E' => Turn::Slice(Slice::E),
                'S' => Turn::Slice(Slice::S),
                'x' => Turn::Rotation(Axis::X),
                'y' => Turn::Rotation(Axis::Y),
                'z' => Turn::Rotation(Axis::Z),
                _ => return None,
            }
        };
        self.pos += 1;
        Some(turn)
    }
}

/// The length, for [`MAX_EXPANDED_MOVES`], of a body of `length` repeated `amount` times: an
/// empty body counts as 1, since expanding it still loops `amount` times (`(()1000000)1000000`
/// expands to nothing, in 10^12 steps).
fn repeated(length: u64, amount: i64) -> u64 {
    length.max(1).saturating_mul(amount.unsigned_abs())
}

impl FromStr for Alg {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Alg, ParseError> {
        let mut parser = Parser {
            chars: text.char_indices().collect(),
            text,
            pos: 0,
        };
        let (nodes, _) = parser.sequence(None, 0)?;
        Ok(Alg { nodes })
    }
}

impl FromStr for Move {
    type Err = ParseError;

    /// Parses one face turn such as `R`, `R2`, `R'`, `R2'` or `R3`.
    fn from_str(text: &str) -> Result<Move, ParseError> {
        let alg: Alg = text.parse()?;
        let not_a_face_turn = || ParseError {
            kind: ParseErrorKind::NotAFaceTurn,
            column: 1,
            token: text.trim().to_string(),
        };
        match alg.nodes.as_slice() {
            [
                Node::Turn {
                    turn: Turn::Face(face),
                    amount,
                },
            ] => match amount.rem_euclid(4) {
                0 => Err(not_a_face_turn()),
                q => Ok(Move::new(*face, q as u8)),
            },
            _ => Err(not_a_face_turn()),
        }
    }
}

/// Emits the face turns of `amount` quarter turns of `turn` in frame `frame` (the rotation so
/// far), and returns the new frame.
fn emit(turn: Turn, amount: i64, frame: Symmetry, out: &mut Vec<Move>) -> Symmetry {
    let q = amount.rem_euclid(4) as u8;
    if q == 0 {
        return frame;
    }
    // Outer layers turned (spatial face, quarter turns) and the whole-cube rotation.
    let (layers, rotation) = match turn {
        Turn::Face(face) => ([Some((face, q)), None], None),
        Turn::Wide { face, .. } => (
            [Some((face.opposite(), q)), None],
            Some(rotation_like(face)),
        ),
        Turn::Slice(slice) => middle(slice.like(), q),
        Turn::Inner(face) => middle(face, q),
        Turn::Rotation(Axis::X) => ([None, None], Some(Symmetry::X)),
        Turn::Rotation(Axis::Y) => ([None, None], Some(Symmetry::Y)),
        Turn::Rotation(Axis::Z) => ([None, None], Some(Symmetry::Z)),
    };
    let to_centres = frame.inverse();
    for (face, turns) in layers.into_iter().flatten() {
        out.push(Move::new(to_centres.map_face(face), turns));
    }
    let mut frame = frame;
    if let Some(r) = rotation {
        for _ in 0..q {
            frame = frame.then(r);
        }
    }
    frame
}

/// The outer layers and the rotation of `q` quarter turns of the middle layer that turns like
/// `face`: the opposite face turned `q` and `face` turned back (in the order U R F D L B, as
/// [`simplify`] writes them), and the whole cube turned like `face`.
fn middle(face: Face, q: u8) -> ([Option<(Face, u8)>; 2], Option<Symmetry>) {
    let mut layers = [(face.opposite(), q), (face, 4 - q)];
    layers.sort_by_key(|&(face, _)| face);
    (layers.map(Some), Some(rotation_like(face)))
}

/// The whole-cube rotation that turns like `face` (x for R, x' for L, ...).
fn rotation_like(face: Face) -> Symmetry {
    let (r, inverse) = match face {
        Face::R => (Symmetry::X, false),
        Face::L => (Symmetry::X, true),
        Face::U => (Symmetry::Y, false),
        Face::D => (Symmetry::Y, true),
        Face::F => (Symmetry::Z, false),
        Face::B => (Symmetry::Z, true),
    };
    if inverse { r.inverse() } else { r }
}

fn expand_nodes(nodes: &[Node], sign: i64, frame: Symmetry, out: &mut Vec<Move>) -> Symmetry {
    let mut frame = frame;
    let ordered: Box<dyn Iterator<Item = &Node>> = if sign > 0 {
        Box::new(nodes.iter())
    } else {
        Box::new(nodes.iter().rev())
    };
    for node in ordered {
        frame = expand_node(node, sign, frame, out);
    }
    frame
}

fn expand_node(node: &Node, sign: i64, frame: Symmetry, out: &mut Vec<Move>) -> Symmetry {
    let mut frame = frame;
    match node {
        Node::Turn { turn, amount } => return emit(*turn, sign * amount, frame, out),
        Node::Group { body, amount } => {
            let s = sign * amount.signum();
            for _ in 0..amount.unsigned_abs() {
                frame = expand_nodes(body, s, frame, out);
            }
        }
        Node::Commutator { a, b, amount } => {
            // [A, B] = A B A' B'; its inverse is B A B' A'.
            let (first, second) = if sign * amount.signum() > 0 {
                (a, b)
            } else {
                (b, a)
            };
            for _ in 0..amount.unsigned_abs() {
                frame = expand_nodes(first, 1, frame, out);
                frame = expand_nodes(second, 1, frame, out);
                frame = expand_nodes(first, -1, frame, out);
                frame = expand_nodes(second, -1, frame, out);
            }
        }
        Node::Conjugate { a, b, amount } => {
            // [A: B] = A B A'; its inverse is A B' A'.
            let s = sign * amount.signum();
            for _ in 0..amount.unsigned_abs() {
                frame = expand_nodes(a, 1, frame, out);
                frame = expand_nodes(b, s, frame, out);
                frame = expand_nodes(a, -1, frame, out);
            }
        }
    }
    frame
}

fn invert_nodes(nodes: &[Node]) -> Vec<Node> {
    nodes
        .iter()
        .rev()
        .map(|node| match node.clone() {
            // A half turn is its own inverse, written `R2` as cubers write it, never `R2'`.
            Node::Turn { turn, amount } => Node::Turn {
                turn,
                amount: if amount.rem_euclid(4) == 2 {
                    amount.abs()
                } else {
                    -amount
                },
            },
            Node::Group { body, amount } => Node::Group {
                body,
                amount: -amount,
            },
            Node::Commutator { a, b, amount } => Node::Commutator {
                a,
                b,
                amount: -amount,
            },
            Node::Conjugate { a, b, amount } => Node::Conjugate {
                a,
                b,
                amount: -amount,
            },
        })
        .collect()
}

impl Alg {
    /// The algorithm of face turns `moves`.
    pub fn from_moves(moves: &[Move]) -> Alg {
        let nodes = moves
            .iter()
            .map(|m| Node::Turn {
                turn: Turn::Face(m.face()),
                amount: if m.amount() == 3 {
                    -1
                } else {
                    m.amount() as i64
                },
            })
            .collect();
        Alg { nodes }
    }

    /// Whether the algorithm has no tokens.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Face turns relative to the centres, and the net whole-cube rotation.
    pub fn expand(&self) -> Expanded {
        let mut moves = Vec::new();
        let rotation = expand_nodes(&self.nodes, 1, Symmetry::IDENTITY, &mut moves);
        Expanded { moves, rotation }
    }

    /// The face turns relative to the centres (the net rotation is dropped).
    pub fn moves(&self) -> Vec<Move> {
        self.expand().moves
    }

    /// The algorithm that undoes this one, written in the same notation: tokens in reverse
    /// order with their amounts negated (`R U'` becomes `U R'`, `(A)3` becomes `(A)3'`), except
    /// that a half turn, its own inverse, is written as cubers write it (`R2'` and `R2` both
    /// become `R2`).
    pub fn inverse(&self) -> Alg {
        Alg {
            nodes: invert_nodes(&self.nodes),
        }
    }

    /// The expansion with turns of the same face merged and cancelled, across commuting
    /// opposite faces too (`R L R'` becomes `L`), in canonical order (see [`simplify`]).
    pub fn simplified(&self) -> Alg {
        Alg::from_moves(&simplify(&self.moves()))
    }
}

/// Cancels and merges face turns: the result is canonical (no face twice in a row, U before D,
/// R before L, F before B when adjacent) and gives the same state.
///
/// ```
/// use cube_core::{Alg, Move};
/// let alg: Alg = "R L R' U U2 D U".parse().unwrap();
/// let simple = cube_core::simplify(&alg.moves());
/// assert_eq!(Alg::from_moves(&simple).to_string(), "L D");
/// ```
pub fn simplify(moves: &[Move]) -> Vec<Move> {
    // The output stack holds canonical moves; each new move merges with the last one or the
    // last two (when those are the two faces of its axis).
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for &m in moves {
        let face = m.face();
        let mut q = m.amount();
        // Find the turn of the same face among the trailing moves on the same axis.
        let n = out.len();
        let same_axis_tail = out
            .iter()
            .rev()
            .take_while(|o| o.face().axis() == face.axis())
            .count();
        let found = (n - same_axis_tail..n).find(|&i| out[i].face() == face);
        if let Some(i) = found {
            q = (q + out[i].amount()) % 4;
            out.remove(i);
        }
        if q != 0 {
            out.push(Move::new(face, q));
        }
        // Keep the two faces of an axis in canonical order.
        let n = out.len();
        if n >= 2
            && out[n - 1].face().axis() == out[n - 2].face().axis()
            && out[n - 1].face() < out[n - 2].face()
        {
            out.swap(n - 1, n - 2);
        }
    }
    out
}

fn write_amount(f: &mut fmt::Formatter<'_>, amount: i64) -> fmt::Result {
    match amount {
        1 => Ok(()),
        -1 => f.write_str("'"),
        a if a < 0 => write!(f, "{}'", -a),
        a => write!(f, "{a}"),
    }
}

fn write_nodes(f: &mut fmt::Formatter<'_>, nodes: &[Node]) -> fmt::Result {
    for (i, node) in nodes.iter().enumerate() {
        if i > 0 {
            f.write_str(" ")?;
        }
        match node {
            Node::Turn { turn, amount } => {
                match *turn {
                    Turn::Face(face) => write!(f, "{face}")?,
                    Turn::Wide { face, lower: false } => write!(f, "{face}w")?,
                    Turn::Wide { face, lower: true } => {
                        write!(f, "{}", face.letter().to_ascii_lowercase())?
                    }
                    Turn::Slice(s) => write!(f, "{s:?}")?,
                    Turn::Inner(face) => write!(f, "2{face}")?,
                    Turn::Rotation(a) => write!(f, "{}", format!("{a:?}").to_lowercase())?,
                }
                write_amount(f, *amount)?;
            }
            Node::Group { body, amount } => {
                f.write_str("(")?;
                write_nodes(f, body)?;
                f.write_str(")")?;
                write_amount(f, *amount)?;
            }
            Node::Commutator { a, b, amount } | Node::Conjugate { a, b, amount } => {
                f.write_str("[")?;
                write_nodes(f, a)?;
                f.write_str(if matches!(node, Node::Commutator { .. }) {
                    ", "
                } else {
                    ": "
                })?;
                write_nodes(f, b)?;
                f.write_str("]")?;
                write_amount(f, *amount)?;
            }
        }
    }
    Ok(())
}

impl fmt::Display for Alg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_nodes(f, &self.nodes)
    }
}

impl Cube {
    /// The state after `alg` (relative to the centres: a net rotation is dropped).
    pub fn apply_alg(&self, alg: &Alg) -> Cube {
        self.apply_moves(&alg.moves())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> (ParseErrorKind, usize, String) {
        let e = text.parse::<Alg>().unwrap_err();
        (e.kind().clone(), e.column(), e.token().to_string())
    }

    #[test]
    fn parse_errors_name_token_and_column() {
        assert_eq!(
            err("R U Q"),
            (ParseErrorKind::UnexpectedCharacter, 5, "Q".into())
        );
        assert_eq!(err("R (U"), (ParseErrorKind::Unclosed, 3, "(".into()));
        assert_eq!(err("R U)"), (ParseErrorKind::UnmatchedClose, 4, ")".into()));
        assert_eq!(
            err("[R U]"),
            (ParseErrorKind::BadBracket, 1, "[R U]".into())
        );
        assert_eq!(err("[R, U, F]").0, ParseErrorKind::BadBracket);
        assert_eq!(
            err("(R)99999999999999999999").0,
            ParseErrorKind::AmountTooLarge
        );
        assert_eq!(err("((R U)1000)1000").0, ParseErrorKind::TooLong);
        assert_eq!(err("R, U").0, ParseErrorKind::UnexpectedCharacter);
        assert_eq!(err("R U (F]").0, ParseErrorKind::UnmatchedClose);
    }

    #[test]
    fn amounts() {
        let alg: Alg = "R R2 R' R2' R3 R4 R’".parse().unwrap();
        assert_eq!(
            Alg::from_moves(&alg.moves()).to_string(),
            "R R2 R' R2 R' R'"
        );
        assert_eq!(alg.to_string(), "R R2 R' R2' R3 R4 R'");
    }

    #[test]
    fn comments_and_spacing() {
        let alg: Alg = "R U // first\n(R' U')2 // second\n[R,U]\t(R)"
            .parse()
            .unwrap();
        assert_eq!(alg.to_string(), "R U (R' U')2 [R, U] (R)");
    }

    // See: issue 31, item 1 (juxtaposed moves read `UUU`, `UFR1` and any structured text
    // outside detection's shapes as an algorithm). cubing.js: "Are you missing a space?".
    #[test]
    fn moves_need_a_space_between_them() {
        for (text, column, token) in [
            ("RU", 2, "U"),
            ("UUU", 2, "UU"),
            ("R'U", 3, "U"),
            ("R2U", 3, "U"),
            ("UFR1", 2, "FR1"),
            ("R U BL0", 6, "L0"),
            ("Rw2r", 4, "r"),
            ("(R U R' U')x6", 12, "x6"),
            ("(R U)(R U)", 6, "(R"),
            ("R(U)", 2, "(U)"),
            ("[R, U]R", 7, "R"),
            ("R[R: U]", 2, "[R:"),
            ("R'2", 3, "2"),
            ("R U// comment", 4, "//"),
            ("2R2U", 4, "U"),
        ] {
            assert_eq!(
                err(text),
                (ParseErrorKind::MissingSpace, column, token.into()),
                "{text}"
            );
        }
        let message = "UUU".parse::<Alg>().unwrap_err().to_string();
        assert!(
            message.contains("column 2") && message.contains("\"UU\"") && message.contains("space"),
            "{message}"
        );
        // Closers and separators need no space, nor what follows an opener.
        for text in [
            "(R U)",
            "[R,U]",
            "[R:U]2",
            "((R) U)",
            "[(R), [U: F]]'",
            "R\nU",
            "R\tU",
        ] {
            assert!(text.parse::<Alg>().is_ok(), "{text}");
        }
    }

    // See: issue 31, item 1 (`L0` read as no turn).
    #[test]
    fn zero_amounts_are_refused() {
        for (text, column, token) in [
            ("L0", 1, "L0"),
            ("R U L0'", 5, "L0"),
            ("R02", 1, "R02"),
            ("(R U)0", 5, ")0"),
            ("[R, U]00", 6, "]00"),
        ] {
            assert_eq!(
                err(text),
                (ParseErrorKind::ZeroAmount, column, token.into()),
                "{text}"
            );
        }
        let message = "L0".parse::<Alg>().unwrap_err().to_string();
        assert!(
            message.contains("column 1") && message.contains("\"L0\"") && message.contains("is 0"),
            "{message}"
        );
        assert!("R10 (R)20".parse::<Alg>().is_ok());
    }

    // See: issue 31, item 9 (SiGN layer numbers). cubing.js's 3x3x3 defines `2R` as `r R'`
    // (its derivedMoves) and no other numbered layer.
    #[test]
    fn numbered_layers_as_cubing_js_reads_them() {
        let alg: Alg = "2R 2L2 2U' 2D2' 2F 2B3".parse().unwrap();
        assert_eq!(alg.to_string(), "2R 2L2 2U' 2D2' 2F 2B3");
        assert_eq!(alg.inverse().to_string(), "2B3' 2F' 2D2 2U 2L2 2R'");
        for (text, column, token) in [
            ("3R", 1, "3R"),
            ("R 2-3Rw", 3, "2-3Rw"),
            ("2r", 1, "2r"),
            ("2Rw", 1, "2Rw"),
            ("1R", 1, "1R"),
            ("02R", 1, "02R"),
            ("2M", 1, "2M"),
            ("2x", 1, "2x"),
        ] {
            assert_eq!(
                err(text),
                (ParseErrorKind::UnsupportedLayer, column, token.into()),
                "{text}"
            );
        }
        assert_eq!(err("R 2").0, ParseErrorKind::UnexpectedCharacter);
        assert_eq!(err("2-R").0, ParseErrorKind::UnexpectedCharacter);
    }

    #[test]
    fn simplify_cancels() {
        let cases = [
            ("R R'", ""),
            ("R L R", "R2 L"),
            ("D U", "U D"),
            ("U D U'", "D"),
            ("R2 R2 L", "L"),
        ];
        for (input, expected) in cases {
            let alg: Alg = input.parse().unwrap();
            assert_eq!(alg.simplified().to_string(), expected, "{input}");
        }
    }
}
