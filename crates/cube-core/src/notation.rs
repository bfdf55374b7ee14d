//! Algorithms in the notation cubers write and cubing.js reads.
//!
//! Tokens: face turns `U R F D L B`; wide turns `Uw Rw Fw Dw Lw Bw` and `u r f d l b`; slices
//! `M E S` (M turns like L, E like D, S like F); rotations `x y z`. An amount follows a token:
//! nothing (a clockwise quarter turn), a number (`R2`, `R3`), a prime (`R'`), or both (`R2'`).
//! Groups repeat with an amount (`(R U R' U')3`, `(R U)'`); `[A, B]` is the commutator
//! `A B A' B'` and `[A: B]` the conjugate `A B A'`, both may carry an amount too. `//` starts a
//! comment that runs to the end of the line. Spaces between tokens are optional.
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
    /// The whole cube: `x` (like R), `y` (like U), `z` (like F).
    Rotation(Axis),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Slice {
    M,
    E,
    S,
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

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.pos += 1;
            } else if c == '/' && self.chars.get(self.pos + 1).map(|&(_, c)| c) == Some('/') {
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
    }

    /// An optional amount: digits, then an optional prime. Returns 1 if there is none.
    fn amount(&mut self) -> Result<i64, ParseError> {
        let start = self.pos;
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
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.pos += 1;
                    }
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
        loop {
            self.skip_space();
            let start = self.pos;
            let Some(c) = self.peek() else {
                return match inside {
                    None => Ok((nodes, length)),
                    Some((_, open)) => {
                        Err(self.error_span(ParseErrorKind::Unclosed, open, open + 1))
                    }
                };
            };
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
                    let amount = self.amount()?;
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
                    self.pos += 1;
                    let amount = self.amount()?;
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
                    let Some(turn) = self.turn() else {
                        self.pos += 1;
                        return Err(self.error(ParseErrorKind::UnexpectedCharacter, start));
                    };
                    let amount = self.amount()?;
                    (Node::Turn { turn, amount }, 2)
                }
            };
            length = length.saturating_add(node_length);
            if length > 2 * MAX_EXPANDED_MOVES {
                return Err(self.error(ParseErrorKind::TooLong, start));
            }
            nodes.push(node);
        }
    }

    fn turn(&mut self) -> Option<Turn> {
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
    let (layers, rotation): (&[(Face, u8)], Option<Symmetry>) = match turn {
        Turn::Face(face) => (&[(face, q)], None),
        Turn::Wide { face, .. } => (&[(face.opposite(), q)], Some(rotation_like(face))),
        Turn::Slice(Slice::M) => (
            &[(Face::R, q), (Face::L, 4 - q)],
            Some(rotation_like(Face::L)),
        ),
        Turn::Slice(Slice::E) => (
            &[(Face::U, q), (Face::D, 4 - q)],
            Some(rotation_like(Face::D)),
        ),
        Turn::Slice(Slice::S) => (
            &[(Face::F, 4 - q), (Face::B, q)],
            Some(rotation_like(Face::F)),
        ),
        Turn::Rotation(Axis::X) => (&[], Some(Symmetry::X)),
        Turn::Rotation(Axis::Y) => (&[], Some(Symmetry::Y)),
        Turn::Rotation(Axis::Z) => (&[], Some(Symmetry::Z)),
    };
    let to_centres = frame.inverse();
    for &(face, turns) in layers {
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
            Node::Turn { turn, amount } => Node::Turn {
                turn,
                amount: -amount,
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
    /// order with their amounts negated (`R U2'` becomes `U2 R'`, `(A)3` becomes `(A)3'`).
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
        let alg: Alg = "R U // first\n(R'U')2 // second".parse().unwrap();
        assert_eq!(alg.to_string(), "R U (R' U')2");
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
