//! NISS sequences (see [`NissAlg`]).

use std::fmt;
use std::str::FromStr;

use crate::cubie::Cube;
use crate::moves::Move;
use crate::notation::{Alg, Expanded, Node, ParseError, ParseErrorKind};
use crate::symmetry::Symmetry;

/// A NISS sequence: moves done on the scramble and moves done on the inverse scramble, written
/// as FMC write-ups and nissy write them.
///
/// `R U (F' D)` is a sequence whose normal part `R U` is done on the scramble and whose inverse
/// part `F' D` (the moves in parentheses) is done on the inverse scramble. A part may come first
/// or be split: `(F') R U (D)` is the same sequence, each part read in the order written. Printing
/// gives the normal part, then the inverse part in parentheses (`R U (F' D)`); an empty part is
/// left out, and the empty sequence prints as the empty string.
///
/// For a scramble `S`, a normal part `N` and an inverse part `I` (sequence order, as
/// [`Cube::compose`]):
///
/// - the *normal side*, [`NissAlg::normal_side`], is `I⁻¹ S N`: the state reached by doing the
///   inverse of the inverse part, then the scramble, then the normal part;
/// - the *inverse side*, [`NissAlg::inverse_side`], is its inverse `N⁻¹ S⁻¹ I`: the inverse
///   scramble with `N⁻¹` before it and `I` after it;
/// - the sequence solves `S` when either side is solved, and then the plain sequence
///   [`NissAlg::unniss`], `N I⁻¹`, solves `S` too.
///
/// These are nissy-core's: `applymoves` (`src/core/oriented_cube.h`) applies the moves in
/// parentheses to a solved cube, inverts it and composes it before the scramble and the normal
/// moves; its `unniss` variation (`move_variations_unniss` in `src/core/moves.h`) writes the
/// normal moves, then the inverse moves inverted in reverse order.
///
/// Parentheses mean the inverse part only where a command reads this notation (the FMC
/// commands); everywhere else, [`Alg`] gives them cubing.js's meaning, a group. So nested
/// parentheses, a repetition count or a prime after a group (`(R U)2`) and commutators or
/// conjugates (`[R, U]`) are errors here, whose messages say that parentheses are read as NISS.
/// Tokens are those of [`Alg`]: face turns, wide turns, slices and rotations with amounts, and
/// `//` comments.
///
/// States are relative to the centres, as everywhere in this crate: a whole-cube rotation changes
/// how the cube is held, not its state.
///
/// Both parts are flat: tokens only, no groups, commutators or conjugates ([`NissAlg::new`]
/// writes those out). `==` compares the sequences as written; [`NissAlg::equal_up_to_commuting`]
/// compares them up to the order of parallel moves.
///
/// ```
/// use cube_core::{Cube, NissAlg};
///
/// let niss: NissAlg = "(F') R U (D)".parse().unwrap();
/// assert_eq!(niss.to_string(), "R U (F' D)");
/// assert_eq!(niss.unniss().to_string(), "R U D' F");
/// // A scramble that the sequence solves: the inverse of its plain form.
/// let scramble = Cube::SOLVED.apply_alg(&niss.unniss()).inverse();
/// assert!(niss.normal_side(&scramble).is_solved());
/// assert!(niss.inverse_side(&scramble).is_solved());
/// assert_eq!((niss.htm(), niss.qtm(), niss.stm()), (4, 4, 4));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct NissAlg {
    normal: Alg,
    inverse: Alg,
}

/// Why a string is not a NISS sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NissParseError {
    kind: NissParseErrorKind,
    column: usize,
    token: String,
}

/// The kinds of [`NissParseError`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NissParseErrorKind {
    /// An error of the notation of moves (see [`ParseErrorKind`]); a `(` never closed is
    /// [`ParseErrorKind::Unclosed`] and a `)` that closes nothing
    /// [`ParseErrorKind::UnmatchedClose`].
    Notation(ParseErrorKind),
    /// A `(` inside parentheses: the inverse part is not a group and does not nest.
    Nested,
    /// A repetition count or a prime after parentheses (`(R U)2`, `(R U)'`): cubing.js's group,
    /// which NISS notation does not have.
    Repetition,
    /// A `[` or `]`: commutators and conjugates are not NISS notation.
    Bracket,
}

impl NissParseError {
    /// What went wrong.
    pub fn kind(&self) -> &NissParseErrorKind {
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

/// How the commands that read this notation take parentheses, for the error messages.
const NISS_READING: &str = "this command reads NISS notation, where the moves in parentheses \
                            are done on the inverse scramble";

impl fmt::Display for NissParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (col, tok) = (self.column, &self.token);
        match &self.kind {
            NissParseErrorKind::Notation(ParseErrorKind::UnexpectedCharacter) => write!(
                f,
                "column {col}: unexpected {tok:?}: expected a move (U R F D L B, Rw or r, M E S, \
                 x y z), '(' (moves done on the inverse scramble) or '//'"
            ),
            NissParseErrorKind::Notation(kind) => ParseError {
                kind: kind.clone(),
                column: col,
                token: tok.clone(),
            }
            .fmt(f),
            NissParseErrorKind::Nested => write!(
                f,
                "column {col}: {tok:?} inside parentheses: {NISS_READING} (not cubing.js's \
                 groups), and these parentheses do not nest"
            ),
            NissParseErrorKind::Repetition => write!(
                f,
                "column {col}: {tok:?}: a count or a prime after parentheses repeats or inverts \
                 a cubing.js group, but {NISS_READING}: write the moves out"
            ),
            NissParseErrorKind::Bracket => write!(
                f,
                "column {col}: {tok:?}: commutators and conjugates are cubing.js notation, but \
                 {NISS_READING}: write the moves out"
            ),
        }
    }
}

impl std::error::Error for NissParseError {}

/// Whether `c` may continue an amount after a `)` (a digit or a prime).
fn is_amount_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '\'' | '’' | '′')
}

/// Parses the characters `start..end` of `text` (`chars` its `char_indices`) as moves, with the
/// columns of errors counted in the whole text.
fn parse_segment(
    text: &str,
    chars: &[(usize, char)],
    start: usize,
    end: usize,
) -> Result<Alg, NissParseError> {
    let byte = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
    text[byte(start)..byte(end)]
        .parse::<Alg>()
        .map_err(|e| NissParseError {
            kind: NissParseErrorKind::Notation(e.kind().clone()),
            column: e.column() + start,
            token: e.token().to_string(),
        })
}

impl FromStr for NissAlg {
    type Err = NissParseError;

    /// Reads NISS notation: moves as [`Alg`] reads them, and moves in parentheses for the
    /// inverse part; the parts may be split and come in any order.
    fn from_str(text: &str) -> Result<NissAlg, NissParseError> {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let error = |kind, start: usize, end: usize| {
            let a = chars[start].0;
            let b = chars.get(end).map_or(text.len(), |&(b, _)| b);
            NissParseError {
                kind,
                column: start + 1,
                token: text[a..b].to_string(),
            }
        };
        let mut normal = Vec::new();
        let mut inverse = Vec::new();
        // The `(` open, and where the text not yet parsed starts.
        let mut open: Option<usize> = None;
        let mut start = 0;
        let mut i = 0;
        while i < chars.len() {
            match chars[i].1 {
                '/' if chars.get(i + 1).map(|&(_, c)| c) == Some('/') => {
                    // A comment runs to the end of the line; the notation parser skips it.
                    while i < chars.len() && chars[i].1 != '\n' {
                        i += 1;
                    }
                    continue;
                }
                '(' => {
                    if open.is_some() {
                        return Err(error(NissParseErrorKind::Nested, i, i + 1));
                    }
                    normal.extend(parse_segment(text, &chars, start, i)?.nodes);
                    open = Some(i);
                    start = i + 1;
                }
                ')' => {
                    let Some(opened) = open else {
                        return Err(error(
                            NissParseErrorKind::Notation(ParseErrorKind::UnmatchedClose),
                            i,
                            i + 1,
                        ));
                    };
                    let mut end = i + 1;
                    while end < chars.len() && is_amount_char(chars[end].1) {
                        end += 1;
                    }
                    if end > i + 1 {
                        return Err(error(NissParseErrorKind::Repetition, opened, end));
                    }
                    inverse.extend(parse_segment(text, &chars, start, i)?.nodes);
                    open = None;
                    start = i + 1;
                }
                '[' | ']' => return Err(error(NissParseErrorKind::Bracket, i, i + 1)),
                _ => {}
            }
            i += 1;
        }
        if let Some(opened) = open {
            return Err(error(
                NissParseErrorKind::Notation(ParseErrorKind::Unclosed),
                opened,
                opened + 1,
            ));
        }
        normal.extend(parse_segment(text, &chars, start, chars.len())?.nodes);
        Ok(NissAlg {
            normal: Alg { nodes: normal },
            inverse: Alg { nodes: inverse },
        })
    }
}

impl fmt::Display for NissAlg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.normal)?;
        if !self.inverse.is_empty() {
            if !self.normal.is_empty() {
                f.write_str(" ")?;
            }
            write!(f, "({})", self.inverse)?;
        }
        Ok(())
    }
}

/// Writes out the groups, commutators and conjugates of `nodes` into `out`, token by token.
fn flatten(nodes: &[Node], out: &mut Vec<Node>) {
    let inverse = |nodes: &[Node]| {
        Alg {
            nodes: nodes.to_vec(),
        }
        .inverse()
        .nodes
    };
    for node in nodes {
        match node {
            Node::Turn { .. } => out.push(node.clone()),
            Node::Group { body, amount } => {
                let once = if *amount < 0 {
                    inverse(body)
                } else {
                    body.clone()
                };
                for _ in 0..amount.unsigned_abs() {
                    flatten(&once, out);
                }
            }
            Node::Commutator { a, b, amount } => {
                // [A, B] = A B A' B'; its inverse is [B, A].
                let (a, b) = if *amount < 0 { (b, a) } else { (a, b) };
                let once = [a.clone(), b.clone(), inverse(a), inverse(b)].concat();
                for _ in 0..amount.unsigned_abs() {
                    flatten(&once, out);
                }
            }
            Node::Conjugate { a, b, amount } => {
                // [A: B] = A B A'; its inverse is [A: B'].
                let b = if *amount < 0 { inverse(b) } else { b.clone() };
                let once = [a.clone(), b, inverse(a)].concat();
                for _ in 0..amount.unsigned_abs() {
                    flatten(&once, out);
                }
            }
        }
    }
}

/// What one token does on its own: its face turns relative to the centres and its rotation.
fn effect(token: &Node) -> Expanded {
    Alg {
        nodes: vec![token.clone()],
    }
    .expand()
}

/// The axis of a token (0 for U/D, 1 for R/L, 2 for F/B, as [`Face::axis`](crate::Face::axis)),
/// and what it does (its face turns and rotation, in a form that orders); `None` for a token
/// that does nothing (`R4`).
fn commuting_key(token: &Node) -> Option<(usize, Vec<Move>, usize)> {
    let Expanded { moves, rotation } = effect(token);
    let axis = match moves.first() {
        Some(m) => m.face().axis(),
        None if rotation == Symmetry::IDENTITY => return None,
        None => rotation_axis(rotation),
    };
    Some((axis, moves, rotation.index()))
}

/// The axis of a turn of the whole cube about one axis (a power of x, y or z).
fn rotation_axis(rotation: Symmetry) -> usize {
    let powers = |r: Symmetry| [r, r.then(r), r.inverse()];
    if powers(Symmetry::Y).contains(&rotation) {
        0
    } else if powers(Symmetry::X).contains(&rotation) {
        1
    } else {
        debug_assert!(powers(Symmetry::Z).contains(&rotation));
        2
    }
}

/// The tokens of one part with those that do nothing dropped, and each run of tokens on one
/// axis (which commute) sorted.
fn commuting_canonical(part: &Alg) -> Vec<(usize, Vec<Move>, usize)> {
    let mut keys: Vec<_> = part.nodes.iter().filter_map(commuting_key).collect();
    let mut start = 0;
    while start < keys.len() {
        let axis = keys[start].0;
        let end = start + keys[start..].iter().take_while(|key| key.0 == axis).count();
        keys[start..end].sort();
        start = end;
    }
    keys
}

/// Rotation tokens (at most two) that turn the whole cube by `rotation` (not a mirror).
fn rotation_alg(rotation: Symmetry) -> Alg {
    const SINGLE: [&str; 9] = ["x", "x2", "x'", "y", "y2", "y'", "z", "z2", "z'"];
    let candidates = std::iter::once(String::new())
        .chain(SINGLE.iter().map(|s| s.to_string()))
        .chain(
            SINGLE
                .iter()
                .flat_map(|a| SINGLE.iter().map(move |b| format!("{a} {b}"))),
        );
    for text in candidates {
        let alg: Alg = text.parse().expect("rotation tokens parse");
        if alg.expand().rotation == rotation {
            return alg;
        }
    }
    unreachable!("every rotation is at most two turns of x, y or z")
}

impl NissAlg {
    /// The sequence with normal part `normal` and inverse part `inverse`, their groups,
    /// commutators and conjugates written out token by token (`[R, U]` becomes `R U R' U'`).
    pub fn new(normal: &Alg, inverse: &Alg) -> NissAlg {
        let mut normal_nodes = Vec::new();
        flatten(&normal.nodes, &mut normal_nodes);
        let mut inverse_nodes = Vec::new();
        flatten(&inverse.nodes, &mut inverse_nodes);
        NissAlg {
            normal: Alg {
                nodes: normal_nodes,
            },
            inverse: Alg {
                nodes: inverse_nodes,
            },
        }
    }

    /// The sequence of face turns `normal` on the scramble and `inverse` on the inverse
    /// scramble.
    pub fn from_moves(normal: &[Move], inverse: &[Move]) -> NissAlg {
        NissAlg {
            normal: Alg::from_moves(normal),
            inverse: Alg::from_moves(inverse),
        }
    }

    /// The moves done on the scramble.
    pub fn normal_part(&self) -> &Alg {
        &self.normal
    }

    /// The moves done on the inverse scramble (written in parentheses).
    pub fn inverse_part(&self) -> &Alg {
        &self.inverse
    }

    /// Whether both parts are empty.
    pub fn is_empty(&self) -> bool {
        self.normal.is_empty() && self.inverse.is_empty()
    }

    /// The state of the normal side: `I⁻¹ S N` for the scramble `S` (the inverse of the inverse
    /// part, then the scramble, then the normal part). The sequence solves `S` when it is
    /// solved.
    pub fn normal_side(&self, scramble: &Cube) -> Cube {
        let normal = self.normal.expand().cube();
        let inverse = self.inverse.expand().cube();
        inverse.inverse().compose(scramble).compose(&normal)
    }

    /// The state of the inverse side: `N⁻¹ S⁻¹ I` for the scramble `S` (the inverse of the
    /// normal part, then the inverse scramble, then the inverse part), the inverse of
    /// [`NissAlg::normal_side`].
    pub fn inverse_side(&self, scramble: &Cube) -> Cube {
        self.normal_side(scramble).inverse()
    }

    /// The plain sequence: the normal part, then the inverse of the inverse part (`R U (F' D)`
    /// gives `R U D' F`; a half turn stays as written, `R2` rather than `R2'`). It solves the
    /// scrambles the NISS sequence solves.
    ///
    /// Where a part turns the whole cube (rotations, wide turns, slices), rotations are written
    /// between the two, so that the plain sequence makes the states of the NISS sequence: the
    /// inverse part was done on the inverse scramble held as given, and its inverse undoes it
    /// from where it leaves the cube. So `x R (U)` gives `x R x' U'`, and `(x U)` gives
    /// `x U' x'`. (nissy-core's `unniss` variation writes nothing there.)
    ///
    /// ```
    /// use cube_core::NissAlg;
    /// let niss: NissAlg = "R U R (B D2 F')".parse().unwrap();
    /// assert_eq!(niss.unniss().to_string(), "R U R F D2 B'");
    /// let rotated: NissAlg = "Rw U (F)".parse().unwrap();
    /// assert_eq!(rotated.unniss().to_string(), "Rw U x' F'");
    /// ```
    pub fn unniss(&self) -> Alg {
        let mut nodes = self.normal.nodes.clone();
        if !self.inverse.is_empty() {
            // The inverse of the inverse part undoes it from where it leaves the cube: turn
            // the cube there from where the normal part leaves it.
            let from = self.normal.expand().rotation;
            let to = self.inverse.expand().rotation;
            let rotation = from.inverse().then(to);
            if rotation != Symmetry::IDENTITY {
                nodes.extend(rotation_alg(rotation).nodes);
            }
            // A half turn is its own inverse: `R2` stays `R2`, not `R2'`.
            nodes.extend(
                self.inverse
                    .inverse()
                    .nodes
                    .into_iter()
                    .map(|node| match node {
                        Node::Turn { turn, amount: -2 } => Node::Turn { turn, amount: 2 },
                        node => node,
                    }),
            );
        }
        Alg { nodes }
    }

    /// The inverse sequence: the two parts swap (`R U (F' D)` gives `F' D (R U)`).
    ///
    /// It solves the inverse scramble when `self` solves the scramble, its sides are those of
    /// `self` swapped (`self.invert().normal_side(&s.inverse()) == self.inverse_side(&s)`), and
    /// its plain form is the inverse of the plain form of `self`; inverting twice gives `self`
    /// back. For the plain inverse write `self.invert().unniss()` (`R U` gives `U' R'`).
    ///
    /// nissy's `invert` (nissy-classic, `inverse_alg` in `src/alg.c`) inverts each part in
    /// place instead; that agrees for plain sequences (up to the form) but, for a sequence with
    /// both parts, gives a state conjugate to the inverse rather than the inverse.
    pub fn invert(&self) -> NissAlg {
        NissAlg {
            normal: self.inverse.clone(),
            inverse: self.normal.clone(),
        }
    }

    /// Each part as outer face turns relative to the centres, cancellations merged and in
    /// canonical order ([`Alg::simplified`]): rotations, wide turns and slices are expanded, and
    /// the net rotation of each part is dropped. The states are those of `self`.
    ///
    /// ```
    /// use cube_core::NissAlg;
    /// let niss: NissAlg = "Rw L' x' (M2 U U D)".parse().unwrap();
    /// assert_eq!(niss.cleanup().to_string(), "(R2 L2 U D2)");
    /// ```
    pub fn cleanup(&self) -> NissAlg {
        NissAlg {
            normal: self.normal.simplified(),
            inverse: self.inverse.simplified(),
        }
    }

    /// Sums `weight` over the face turns each token does.
    fn count(&self, weight: impl Fn(&Expanded) -> usize) -> usize {
        self.normal
            .nodes
            .iter()
            .chain(&self.inverse.nodes)
            .map(|token| weight(&effect(token)))
            .sum()
    }

    /// The move count in the half-turn metric, as written (both parts): a face or wide turn
    /// counts 1, a slice 2 (two outer turns), a rotation 0; each token by what it does, so `R3`
    /// counts 1 and `R4` nothing. This is the count of the WCA's fewest-moves rules (outer block
    /// turns) and of nissy-core's `countmoves`. Nothing cancels: `R R` counts 2 (see
    /// [`NissAlg::cleanup`]).
    pub fn htm(&self) -> usize {
        self.count(|e| e.moves.len())
    }

    /// The move count in the quarter-turn metric, as written: as [`NissAlg::htm`], with half
    /// turns counting 2 (`R2` 2, `M2` 4).
    pub fn qtm(&self) -> usize {
        self.count(|e| e.moves.iter().map(|m| 1 + m.is_half_turn() as usize).sum())
    }

    /// The move count in the slice-turn metric, as written: a face, wide or slice turn of any
    /// amount counts 1, a rotation 0. Count before [`NissAlg::cleanup`], which expands slices to
    /// two outer turns.
    pub fn stm(&self) -> usize {
        self.count(|e| usize::from(!e.moves.is_empty()))
    }

    /// Whether the two sequences are the same up to the order of parallel moves, which commute
    /// (`U D (R L)` and `D U (L R)`), part by part, as nissy-core's `nissy_comparemoves`.
    ///
    /// Tokens compare by what they do: `Rw` and `r`, `R'` and `R3` are the same move, and a
    /// token that does nothing (`R4`) is left out. Moves on one axis commute whatever their
    /// kind (`R`, `L`, `M`, `Rw`, `x`). Nothing cancels (`R R'` is not the empty sequence;
    /// compare the [`NissAlg::cleanup`]s for that).
    ///
    /// ```
    /// use cube_core::NissAlg;
    /// let a: NissAlg = "U D R (F B' z)".parse().unwrap();
    /// let b: NissAlg = "D U R (z B' F)".parse().unwrap();
    /// assert!(a.equal_up_to_commuting(&b));
    /// let c: NissAlg = "U R D (F B' z)".parse().unwrap();
    /// assert!(!a.equal_up_to_commuting(&c));
    /// ```
    pub fn equal_up_to_commuting(&self, other: &NissAlg) -> bool {
        commuting_canonical(&self.normal) == commuting_canonical(&other.normal)
            && commuting_canonical(&self.inverse) == commuting_canonical(&other.inverse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn niss(text: &str) -> NissAlg {
        text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn err(text: &str) -> (NissParseErrorKind, usize, String) {
        let e = text.parse::<NissAlg>().unwrap_err();
        (e.kind().clone(), e.column(), e.token().to_string())
    }

    fn cube(text: &str) -> Cube {
        Cube::SOLVED.apply_alg(&text.parse().unwrap())
    }

    #[test]
    fn parts_may_be_split_and_come_first() {
        let x = niss("(F') R U (D)");
        assert_eq!(x.normal_part().to_string(), "R U");
        assert_eq!(x.inverse_part().to_string(), "F' D");
        assert_eq!(x, niss("R U (F' D)"));
        assert_eq!(x, niss("R (F') U (D)"));
        assert_eq!(x, niss("  R U(F' D)  // a comment (with parentheses)"));
        assert_eq!(x, niss("R U (F'\n// a comment ) \nD)"));
    }

    #[test]
    fn printing() {
        assert_eq!(niss("(F') R U (D)").to_string(), "R U (F' D)");
        assert_eq!(niss("R U").to_string(), "R U");
        assert_eq!(niss("(R U)").to_string(), "(R U)");
        assert_eq!(niss("").to_string(), "");
        assert_eq!(niss("()").to_string(), "");
        assert!(niss("() // nothing").is_empty());
        assert_eq!(
            niss("Rw r2' M' x3 (u E2)").to_string(),
            "Rw r2' M' x3 (u E2)"
        );
    }

    #[test]
    fn parse_errors_say_which_reading() {
        assert_eq!(
            err("R (U (F))"),
            (NissParseErrorKind::Nested, 6, "(".into())
        );
        assert_eq!(
            err("R U (F D"),
            (
                NissParseErrorKind::Notation(ParseErrorKind::Unclosed),
                5,
                "(".into()
            )
        );
        assert_eq!(
            err("R U) F"),
            (
                NissParseErrorKind::Notation(ParseErrorKind::UnmatchedClose),
                4,
                ")".into()
            )
        );
        assert_eq!(
            err("F (R U)2 D"),
            (NissParseErrorKind::Repetition, 3, "(R U)2".into())
        );
        assert_eq!(err("(R U)'").0, NissParseErrorKind::Repetition);
        assert_eq!(err("(R U)2'").2, "(R U)2'");
        assert_eq!(
            err("R [U, F]"),
            (NissParseErrorKind::Bracket, 3, "[".into())
        );
        // An error inside a part is the notation's, at its column in the whole text.
        assert_eq!(
            err("R U (F Q)"),
            (
                NissParseErrorKind::Notation(ParseErrorKind::UnexpectedCharacter),
                8,
                "Q".into()
            )
        );
        assert_eq!(
            err("R, U").0,
            NissParseErrorKind::Notation(ParseErrorKind::UnexpectedCharacter)
        );
        let message = "(R U)2".parse::<NissAlg>().unwrap_err().to_string();
        assert!(message.contains("column 1"), "{message}");
        assert!(message.contains("NISS"), "{message}");
        assert!(message.contains("inverse scramble"), "{message}");
        assert!(message.contains("cubing.js"), "{message}");
        let message = "R (U (F))".parse::<NissAlg>().unwrap_err().to_string();
        assert!(message.contains("do not nest"), "{message}");
        let message = "R U (F Q)".parse::<NissAlg>().unwrap_err().to_string();
        assert!(
            message.starts_with("column 8: unexpected \"Q\""),
            "{message}"
        );
        assert!(!message.contains('['), "{message}");
        let message = "R (U".parse::<NissAlg>().unwrap_err().to_string();
        assert_eq!(message, "column 3: \"(\" is never closed");
    }

    #[test]
    fn sides_and_unniss() {
        let x = niss("R U (F' D)");
        let s = cube("L2 B D' R F2");
        let expected = cube("D' F L2 B D' R F2 R U");
        assert_eq!(x.normal_side(&s), expected);
        assert_eq!(x.inverse_side(&s), expected.inverse());
        assert_eq!(x.unniss().to_string(), "R U D' F");
        assert_eq!(niss("R U").unniss().to_string(), "R U");
        assert_eq!(niss("(R U)").unniss().to_string(), "U' R'");
        // A rotation left by the normal part is undone before the inverse part.
        assert_eq!(niss("x y R (U)").unniss().to_string(), "x y R x' z' U'");
        assert_eq!(niss("x y R").unniss().to_string(), "x y R");
        assert_eq!(niss("x R (U)").unniss().to_string(), "x R x' U'");
        assert_eq!(niss("(x U)").unniss().to_string(), "x U' x'");
        assert_eq!(niss("x (x U)").unniss().to_string(), "x U' x'");
        for text in ["x R (U)", "(x U)", "Rw (Uw F)", "M (E S2 y)"] {
            let x = niss(text);
            let plain = x.unniss();
            assert!(
                x.normal_side(&Cube::SOLVED.apply_alg(&plain).inverse())
                    .is_solved(),
                "{text}"
            );
        }
    }

    #[test]
    fn invert_swaps_the_parts() {
        let x = niss("R U (F' D)");
        assert_eq!(x.invert().to_string(), "F' D (R U)");
        assert_eq!(x.invert().invert(), x);
        assert_eq!(niss("R U").invert().unniss().to_string(), "U' R'");
        let s = cube("L2 B D' R F2");
        assert_eq!(x.invert().normal_side(&s.inverse()), x.inverse_side(&s));
    }

    #[test]
    fn cleanup_expands_and_cancels() {
        let x = niss("Rw L' x' (M2 U U D) F F'");
        assert_eq!(x.cleanup().to_string(), "(R2 L2 U D2)");
        let y = niss("y R (z U) D U'");
        // After y, R turns the face that was B; after z, U turns the face that was L.
        assert_eq!(y.cleanup().to_string(), "B U' D (L)");
        let s = cube("F2 U' L");
        assert_eq!(y.cleanup().normal_side(&s), y.normal_side(&s));
    }

    #[test]
    fn counts() {
        // nissy-core test/032_countmoves/05_niss: 7.
        let x = niss("R2 M Uw (Fw2 M2 y2)");
        assert_eq!(x.htm(), 7);
        assert_eq!(x.qtm(), 2 + 2 + 1 + 2 + 4);
        assert_eq!(x.stm(), 5);
        let y = niss("R3 R4 r' x E2' (U2 D')");
        assert_eq!(
            (y.htm(), y.qtm(), y.stm()),
            (1 + 1 + 2 + 1 + 1, 1 + 1 + 4 + 2 + 1, 5)
        );
        assert_eq!(niss("").htm(), 0);
    }

    #[test]
    fn equal_up_to_commuting() {
        let same = [
            ("U D", "D U"),
            ("R L M Rw x", "x Rw M L R"),
            ("R r' F (U D2)", "R Rw' F (D2 U)"),
            ("R3 U4 L", "L R'"),
            ("U D R (F)", "D U R (F)"),
        ];
        for (a, b) in same {
            assert!(niss(a).equal_up_to_commuting(&niss(b)), "{a} = {b}");
        }
        let different = [
            ("U R D", "D R U"),
            ("R R'", ""),
            ("U (D)", "D (U)"),
            ("U D", "U D'"),
            ("x U", "U x"),
        ];
        for (a, b) in different {
            assert!(!niss(a).equal_up_to_commuting(&niss(b)), "{a} != {b}");
        }
    }

    #[test]
    fn new_writes_groups_out() {
        let normal: Alg = "[R, U] (F D)2'".parse().unwrap();
        let inverse: Alg = "[L: B2]'".parse().unwrap();
        let x = NissAlg::new(&normal, &inverse);
        assert_eq!(x.to_string(), "R U R' U' D' F' D' F' (L B2 L')");
        assert_eq!(x.normal_part().moves(), normal.moves());
        assert_eq!(x.inverse_part().moves(), inverse.moves());
        let c: Alg = "[R, U]2'".parse().unwrap();
        let y = NissAlg::new(&c, &Alg::default());
        assert_eq!(y.to_string(), "U R U' R' U R U' R'");
        assert_eq!(
            NissAlg::from_moves(&[Move::R1, Move::U3], &[Move::F2]).to_string(),
            "R U' (F2)"
        );
    }

    #[test]
    fn every_rotation_is_written() {
        for r in Symmetry::rotations() {
            assert_eq!(rotation_alg(r).expand().rotation, r);
        }
    }
}
