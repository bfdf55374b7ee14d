//! cubing.js pattern JSON: the `patternData` of a `KPattern` for the 3x3x3.
//!
//! `{"EDGES": {"pieces": [...], "orientation": [...]}, "CORNERS": {...}, "CENTERS": {...}}`,
//! with the pieces in Reid / kpuzzle order (see `shared/vectors/README.md`). `pieces[i]` is
//! the piece at position `i`. The CENTERS pieces show the puzzle orientation. When CENTERS has
//! `"orientationMod": [1, 1, 1, 1, 1, 1]` the centre orientation is not tracked (cubing.js's
//! default pattern); without it (or with all zeros) it is, as on a supercube.
//!
//! The wrapper `KPattern.toJSON()` writes, `{"experimentalPuzzleName": "3x3x3", "patternData":
//! ...}`, is accepted too. Reading is a hand-written parser for documents in the usual shape (any
//! whitespace and key order), which allocates nothing; anything unusual, and every error, goes
//! through a `serde_json::Value`. [`write()`] fills a caller buffer from a template; [`encode`]
//! returns a `String`.

use cube_core::{Centers, Symmetry};
use serde_json::Value;

use crate::error::DecodeError;
use crate::reid::{self, CENTER_TO_FACE, FACE_TO_CENTER, Reid};
use crate::state::State;

fn bad(path: &str, reason: impl Into<String>) -> DecodeError {
    DecodeError::BadPattern {
        path: path.to_string(),
        reason: reason.into(),
    }
}

/// Reads `len` small non-negative integers (each `< limit`, unless `limit` is `None`).
fn read_array<const N: usize>(
    orbit: &Value,
    orbit_name: &str,
    key: &str,
    limit: Option<u64>,
) -> Result<[u8; N], DecodeError> {
    let path = format!("{orbit_name}.{key}");
    let items = orbit
        .get(key)
        .ok_or_else(|| bad(&path, "missing"))?
        .as_array()
        .ok_or_else(|| bad(&path, "not an array"))?;
    if items.len() != N {
        return Err(bad(
            &path,
            format!("has {} entries, expected {N}", items.len()),
        ));
    }
    let mut out = [0u8; N];
    for (i, item) in items.iter().enumerate() {
        let value = item
            .as_u64()
            .ok_or_else(|| bad(&path, format!("entry {i} is not a non-negative integer")))?;
        if let Some(limit) = limit
            && value >= limit
        {
            return Err(bad(
                &path,
                format!("entry {i} is {value}, expected less than {limit}"),
            ));
        }
        out[i] = value.min(255) as u8;
    }
    Ok(out)
}

fn orbit<'a>(data: &'a Value, name: &str) -> Result<&'a Value, DecodeError> {
    let orbit = data.get(name).ok_or_else(|| bad(name, "missing"))?;
    if !orbit.is_object() {
        return Err(bad(name, "not an object"));
    }
    Ok(orbit)
}

/// Reads a pattern that is already JSON.
///
/// # Errors
/// [`DecodeError::BadPattern`] for a missing or malformed orbit, a value out of range, centres
/// that no rotation places, or an `orientationMod` other than all 1 or all 0;
/// [`DecodeError::Illegal`] for pieces that are not a permutation.
pub fn decode_value(value: &Value) -> Result<State, DecodeError> {
    let data = match value.get("patternData") {
        Some(data) => {
            if let Some(name) = value.get("experimentalPuzzleName")
                && name != "3x3x3"
            {
                return Err(bad("experimentalPuzzleName", "not \"3x3x3\""));
            }
            data
        }
        None => value,
    };
    if !data.is_object() {
        return Err(bad("pattern", "not an object"));
    }
    let edges = orbit(data, "EDGES")?;
    let corners = orbit(data, "CORNERS")?;
    let centers = orbit(data, "CENTERS")?;
    let tracked = match centers.get("orientationMod") {
        None => true,
        Some(_) => {
            let m: [u8; 6] = read_array(centers, "CENTERS", "orientationMod", None)?;
            match m {
                [1, 1, 1, 1, 1, 1] => false,
                [0, 0, 0, 0, 0, 0] => true,
                _ => {
                    return Err(bad(
                        "CENTERS.orientationMod",
                        "only all 1 (untracked) or all 0 (tracked) are supported",
                    ));
                }
            }
        }
    };
    let pattern = Reid {
        ep: read_array(edges, "EDGES", "pieces", Some(12))?,
        eo: read_array(edges, "EDGES", "orientation", Some(2))?,
        cp: read_array(corners, "CORNERS", "pieces", Some(8))?,
        co: read_array(corners, "CORNERS", "orientation", Some(3))?,
        centers: read_array(centers, "CENTERS", "pieces", Some(6))?,
        center_ori: if tracked {
            read_array(centers, "CENTERS", "orientation", Some(4))?
        } else {
            read_array::<6>(centers, "CENTERS", "orientation", None)?;
            [0; 6]
        },
    };
    finish(&pattern, tracked)
}

/// The state of a pattern whose arrays have been read and range-checked: both readers end
/// here, so they agree on everything after the syntax.
#[inline]
fn finish(pattern: &Reid, tracked: bool) -> Result<State, DecodeError> {
    const HOME: [u8; 6] = [0, 1, 2, 3, 4, 5];
    let rot = reid::rotations();
    let (r, normalized) = if pattern.centers == HOME {
        // The identity: the inverse transformation would change nothing.
        (0, *pattern)
    } else {
        let r = rot
            .transform
            .iter()
            .position(|t| t.centers == pattern.centers)
            .ok_or_else(|| bad("CENTERS.pieces", "no rotation puts the centres there"))?;
        (r, pattern.apply(&rot.transform[rot.inverse[r] as usize]))
    };
    debug_assert_eq!(normalized.centers, HOME);
    let cube = normalized.to_cube()?;
    let centers = tracked.then(|| {
        let mut turns = [0u8; 6];
        for (center, face) in CENTER_TO_FACE.iter().enumerate() {
            turns[face.index()] = normalized.center_ori[center];
        }
        Centers::new(turns)
    });
    Ok(State::new(cube)
        .with_orientation(Some(Symmetry::from_index(r)))
        .with_centers(centers))
}

/// Reads pattern JSON (bare or wrapped); pieces may be unsolvable.
///
/// # Errors
/// [`DecodeError::Json`] if the text is not JSON, otherwise as [`decode_value`].
pub fn decode(text: &str) -> Result<State, DecodeError> {
    match fast::read(text.as_bytes()) {
        Some(result) => result,
        None => decode_general(text),
    }
}

/// [`decode`] through a `serde_json::Value`: any JSON, and the error of every bad input.
fn decode_general(text: &str) -> Result<State, DecodeError> {
    let value: Value = serde_json::from_str(text).map_err(|e| DecodeError::Json(e.to_string()))?;
    decode_value(&value)
}

/// The fast reader: a hand-written parser for the JSON documents that are patterns, in any
/// whitespace and key order, that does not build a `serde_json::Value`.
///
/// It reads the subset of JSON that patterns are written in: objects whose keys are the
/// known names (`EDGES`, `pieces`, `orientationMod`, ...) without escapes, each at most once;
/// arrays of at most 12 integers `0..=255` without sign, fraction or exponent; the string
/// `"3x3x3"` for `experimentalPuzzleName`. It gives up (`None`) on anything else, and on
/// every pattern that is wrong, so that [`decode_general`] reads the unusual documents and
/// names every error; when it does read a document, it checks what [`decode_value`] checks and
/// ends in the same [`finish`], so the two agree (a property test holds them to it).
mod fast {
    use super::{DecodeError, Reid, State, finish};

    /// The most entries an array of a pattern has.
    const MAX_ENTRIES: usize = 12;

    /// An array of small integers as read.
    #[derive(Clone, Copy)]
    struct List {
        len: usize,
        items: [u8; MAX_ENTRIES],
    }

    impl List {
        /// The entries, if there are exactly `N` and each is below `limit`.
        #[inline]
        fn exact<const N: usize>(list: Option<List>, limit: u8) -> Option<[u8; N]> {
            let list = list?;
            if list.len != N {
                return None;
            }
            let mut out = [0u8; N];
            out.copy_from_slice(&list.items[..N]);
            out.iter().all(|&v| v < limit).then_some(out)
        }
    }

    /// The arrays of one orbit, as read.
    #[derive(Clone, Copy, Default)]
    struct Orbit {
        pieces: Option<List>,
        orientation: Option<List>,
        orientation_mod: Option<List>,
    }

    /// The orbits of a pattern, as read.
    #[derive(Clone, Copy, Default)]
    struct Orbits {
        edges: Option<Orbit>,
        corners: Option<Orbit>,
        centers: Option<Orbit>,
    }

    /// The keys the fast reader knows.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Key {
        Edges,
        Corners,
        Centers,
        Pieces,
        Orientation,
        OrientationMod,
        PatternData,
        PuzzleName,
    }

    /// A position in the text; `peek` gives 0 past the end (a NUL byte is never valid where
    /// the reader looks, so both make it give up).
    struct Cursor<'a> {
        text: &'a [u8],
        at: usize,
    }

    impl Cursor<'_> {
        #[inline(always)]
        fn peek(&self) -> u8 {
            self.text.get(self.at).copied().unwrap_or(0)
        }

        /// Skips JSON whitespace (exactly space, tab, line feed and carriage return).
        #[inline(always)]
        fn skip_whitespace(&mut self) {
            while matches!(self.peek(), b' ' | b'\n' | b'\t' | b'\r') {
                self.at += 1;
            }
        }

        /// Skips whitespace, then `byte`.
        #[inline(always)]
        fn eat(&mut self, byte: u8) -> Option<()> {
            self.skip_whitespace();
            if self.peek() == byte {
                self.at += 1;
                Some(())
            } else {
                None
            }
        }

        /// After an entry of an object or array: `true` at a comma, `false` at `close`.
        #[inline(always)]
        fn next_or_close(&mut self, close: u8) -> Option<bool> {
            self.skip_whitespace();
            let b = self.peek();
            self.at += 1;
            match b {
                b',' => Some(true),
                _ if b == close => Some(false),
                _ => None,
            }
        }

        /// A string without escapes: the bytes between the quotes.
        #[inline(always)]
        fn plain_string(&mut self) -> Option<&[u8]> {
            self.eat(b'"')?;
            let rest = self.text.get(self.at..)?;
            let len = rest.iter().position(|&b| b == b'"')?;
            self.at += len + 1;
            let name = &rest[..len];
            // A backslash could escape the quote found; control characters are invalid JSON.
            name.iter()
                .all(|&b| b != b'\\' && b >= 0x20)
                .then_some(name)
        }

        /// A known key and its colon.
        #[inline(always)]
        fn key(&mut self) -> Option<Key> {
            let key = match self.plain_string()? {
                b"EDGES" => Key::Edges,
                b"CORNERS" => Key::Corners,
                b"CENTERS" => Key::Centers,
                b"pieces" => Key::Pieces,
                b"orientation" => Key::Orientation,
                b"orientationMod" => Key::OrientationMod,
                b"patternData" => Key::PatternData,
                b"experimentalPuzzleName" => Key::PuzzleName,
                _ => return None,
            };
            self.eat(b':')?;
            Some(key)
        }

        /// An integer `0..=255` in JSON's syntax, not followed by a fraction or an exponent.
        #[inline(always)]
        fn small_integer(&mut self) -> Option<u8> {
            let first = self.peek().wrapping_sub(b'0');
            if first > 9 {
                return None;
            }
            self.at += 1;
            let mut value = first as u32;
            if first != 0 {
                // At most two more digits: 999 is the largest value looked at.
                for _ in 0..2 {
                    let digit = self.peek().wrapping_sub(b'0');
                    if digit > 9 {
                        break;
                    }
                    value = value * 10 + digit as u32;
                    self.at += 1;
                }
            }
            // A leading zero followed by a digit, a fourth digit, a fraction or an exponent.
            if matches!(self.peek(), b'0'..=b'9' | b'.' | b'e' | b'E') || value > 255 {
                return None;
            }
            Some(value as u8)
        }

        /// An array of small integers (empty, or up to [`MAX_ENTRIES`]).
        #[inline]
        fn list(&mut self) -> Option<List> {
            self.eat(b'[')?;
            let mut list = List {
                len: 0,
                items: [0; MAX_ENTRIES],
            };
            self.skip_whitespace();
            if self.peek() == b']' {
                self.at += 1;
                return Some(list);
            }
            loop {
                self.skip_whitespace();
                let value = self.small_integer()?;
                *list.items.get_mut(list.len)? = value;
                list.len += 1;
                if !self.next_or_close(b']')? {
                    return Some(list);
                }
            }
        }

        /// An orbit's object: `pieces`, `orientation` and `orientationMod`, each at most once.
        #[inline]
        fn orbit(&mut self) -> Option<Orbit> {
            self.eat(b'{')?;
            let mut orbit = Orbit::default();
            loop {
                let slot = match self.key()? {
                    Key::Pieces => &mut orbit.pieces,
                    Key::Orientation => &mut orbit.orientation,
                    Key::OrientationMod => &mut orbit.orientation_mod,
                    _ => return None,
                };
                if slot.is_some() {
                    return None;
                }
                *slot = Some(self.list()?);
                if !self.next_or_close(b'}')? {
                    return Some(orbit);
                }
            }
        }

        /// One orbit entry of an object: stores it unless it is there already.
        #[inline]
        fn orbit_into(&mut self, key: Key, orbits: &mut Orbits) -> Option<()> {
            let slot = match key {
                Key::Edges => &mut orbits.edges,
                Key::Corners => &mut orbits.corners,
                Key::Centers => &mut orbits.centers,
                _ => return None,
            };
            if slot.is_some() {
                return None;
            }
            *slot = Some(self.orbit()?);
            Some(())
        }

        /// The `patternData` object: the three orbits.
        fn orbits(&mut self) -> Option<Orbits> {
            self.eat(b'{')?;
            let mut orbits = Orbits::default();
            loop {
                let key = self.key()?;
                self.orbit_into(key, &mut orbits)?;
                if !self.next_or_close(b'}')? {
                    return Some(orbits);
                }
            }
        }
    }

    /// The text [`super::write()`] writes, with or without the wrapper, read with fixed
    /// expectations: each key and bracket must be next, each number one digit or two.
    struct Canonical<'a> {
        text: &'a [u8],
        at: usize,
    }

    impl Canonical<'_> {
        #[inline(always)]
        fn literal(&mut self, expected: &[u8]) -> Option<()> {
            let end = self.at + expected.len();
            if self.text.get(self.at..end)? == expected {
                self.at = end;
                Some(())
            } else {
                None
            }
        }

        /// `N` one-digit numbers separated by commas, and the closing bracket: `M = 2 * N`
        /// bytes, checked without a branch per entry.
        #[inline(always)]
        fn digits<const N: usize, const M: usize>(&mut self) -> Option<List> {
            let bytes = self.text.get(self.at..)?.first_chunk::<M>()?;
            let mut list = List {
                len: N,
                items: [0; MAX_ENTRIES],
            };
            let mut ok = true;
            for i in 0..N {
                let digit = bytes[2 * i].wrapping_sub(b'0');
                ok &= digit <= 9;
                list.items[i] = digit;
                ok &= bytes[2 * i + 1] == if i + 1 < N { b',' } else { b']' };
            }
            self.at += M;
            ok.then_some(list)
        }

        /// The edge pieces as every permutation of `0..12` writes them: 12 numbers of one or
        /// two digits (no leading zero) in exactly 25 bytes, separated by commas, and the
        /// closing bracket. The commas are found all at once, as a bit mask, so that finding
        /// each number does not wait for the one before.
        #[inline(always)]
        fn edge_pieces(&mut self) -> Option<List> {
            const WIDTH: usize = 25;
            let window = self.text.get(self.at..)?.first_chunk::<{ WIDTH + 1 }>()?;
            let (mut commas, mut digits) = (0u32, 0u32);
            for (j, &b) in window[..WIDTH].iter().enumerate() {
                commas |= ((b == b',') as u32) << j;
                digits |= ((b.wrapping_sub(b'0') <= 9) as u32) << j;
            }
            if window[WIDTH] != b']' || commas | digits != (1 << WIDTH) - 1 {
                return None;
            }
            let mut list = List {
                len: 12,
                items: [0; MAX_ENTRIES],
            };
            let mut ends = commas | 1 << WIDTH;
            let (mut start, mut ok) = (0usize, true);
            for item in &mut list.items {
                let end = ends.trailing_zeros() as usize;
                ends &= ends.wrapping_sub(1);
                let len = end.wrapping_sub(start);
                let first = window[start.min(WIDTH)].wrapping_sub(b'0');
                let second = window[(start + 1).min(WIDTH)].wrapping_sub(b'0');
                let two = (len == 2) as u8;
                ok &= (len == 1 || len == 2) && !(two == 1 && first == 0);
                *item = first
                    .wrapping_add(two.wrapping_mul(first.wrapping_mul(9).wrapping_add(second)));
                start = end + 1;
            }
            ok &= start == WIDTH + 1;
            self.at += WIDTH + 1;
            ok.then_some(list)
        }

        /// `{"pieces":[...],"orientation":[...]` of an orbit of `N` pieces (`M = 2 * N`),
        /// the pieces in one digit each unless `WIDE` (the edges).
        #[inline(always)]
        fn orbit<const N: usize, const M: usize, const WIDE: bool>(&mut self) -> Option<Orbit> {
            self.literal(br#"{"pieces":["#)?;
            let pieces = if WIDE {
                self.edge_pieces()?
            } else {
                self.digits::<N, M>()?
            };
            self.literal(br#","orientation":["#)?;
            let orientation = self.digits::<N, M>()?;
            Some(Orbit {
                pieces: Some(pieces),
                orientation: Some(orientation),
                orientation_mod: None,
            })
        }

        fn read(text: &[u8]) -> Option<Orbits> {
            const WRAPPER: &[u8] = br#"{"experimentalPuzzleName":"3x3x3","patternData":"#;
            let mut c = Canonical { text, at: 0 };
            let wrapped = c.literal(WRAPPER).is_some();
            c.literal(br#"{"EDGES":"#)?;
            let edges = c.orbit::<12, 24, true>()?;
            c.literal(br#"},"CORNERS":"#)?;
            let corners = c.orbit::<8, 16, false>()?;
            c.literal(br#"},"CENTERS":"#)?;
            let mut centers = c.orbit::<6, 12, false>()?;
            if c.literal(br#","orientationMod":["#).is_some() {
                centers.orientation_mod = Some(c.digits::<6, 12>()?);
            }
            c.literal(if wrapped { b"}}}" } else { b"}}" })?;
            (c.at == text.len()).then_some(Orbits {
                edges: Some(edges),
                corners: Some(corners),
                centers: Some(centers),
            })
        }
    }

    /// Reads `text` in any layout: the orbits of the pattern, or `None`.
    fn flexible(text: &[u8]) -> Option<Orbits> {
        let mut cursor = Cursor { text, at: 0 };
        cursor.eat(b'{')?;
        let mut top = Orbits::default();
        let mut pattern_data = None;
        let mut has_name = false;
        loop {
            match cursor.key()? {
                Key::PatternData if pattern_data.is_none() => {
                    pattern_data = Some(cursor.orbits()?);
                }
                Key::PuzzleName if !has_name => {
                    if cursor.plain_string()? != b"3x3x3" {
                        return None;
                    }
                    has_name = true;
                }
                key @ (Key::Edges | Key::Corners | Key::Centers) => {
                    cursor.orbit_into(key, &mut top)?;
                }
                _ => return None,
            }
            if !cursor.next_or_close(b'}')? {
                break;
            }
        }
        cursor.skip_whitespace();
        if cursor.at != text.len() {
            return None;
        }
        // With `patternData`, orbits beside it would be ignored: rare enough to leave to the
        // general reader.
        match pattern_data {
            Some(data) if top.edges.is_none() && top.corners.is_none() && top.centers.is_none() => {
                Some(data)
            }
            Some(_) => None,
            None => Some(top),
        }
    }

    /// Reads `text`: `None` when [`super::decode_general`] must (unusual syntax, any error
    /// before the pieces are turned into a cube).
    pub(super) fn read(text: &[u8]) -> Option<Result<State, DecodeError>> {
        let data = match Canonical::read(text) {
            Some(data) => data,
            None => flexible(text)?,
        };
        let (edges, corners, centers) = (data.edges?, data.corners?, data.centers?);
        let tracked = match centers.orientation_mod {
            None => true,
            Some(m) => match List::exact::<6>(Some(m), u8::MAX)? {
                [1, 1, 1, 1, 1, 1] => false,
                [0, 0, 0, 0, 0, 0] => true,
                _ => return None,
            },
        };
        // The limit `u8::MAX` excludes 255, which the general reader accepts: harmless, as
        // that reader then reads it.
        let center_ori = if tracked {
            List::exact::<6>(centers.orientation, 4)?
        } else {
            List::exact::<6>(centers.orientation, u8::MAX)?;
            [0; 6]
        };
        let pattern = Reid {
            ep: List::exact(edges.pieces, 12)?,
            eo: List::exact(edges.orientation, 2)?,
            cp: List::exact(corners.pieces, 8)?,
            co: List::exact(corners.orientation, 3)?,
            centers: List::exact(centers.pieces, 6)?,
            center_ori,
        };
        Some(finish(&pattern, tracked))
    }
}

/// Reads pattern JSON of a solvable state (and, with centres, a real supercube).
///
/// # Errors
/// As [`decode`], and as [`State::validate`].
pub fn decode_strict(text: &str) -> Result<State, DecodeError> {
    let state = decode(text)?;
    state.validate()?;
    Ok(state)
}

/// The pattern of a state, in kpuzzle form (no orientation: the identity).
pub(crate) fn pattern_of(state: &State) -> Reid {
    let mut center_ori = [0u8; 6];
    if let Some(c) = state.centers() {
        for (face, &t) in c.turns().iter().enumerate() {
            center_ori[FACE_TO_CENTER[face] as usize] = t;
        }
    }
    let normalized = Reid::from_cube(&state.cube(), center_ori);
    let mut pattern = match state.orientation() {
        // The identity transformation would change nothing: every value is in range.
        None | Some(Symmetry::IDENTITY) => normalized,
        Some(r) => normalized.apply(&reid::rotations().transform[r.index() % 24]),
    };
    if state.centers().is_none() {
        pattern.center_ori = [0; 6];
    }
    pattern
}

/// The length of the longest pattern JSON [`write()`] writes (a state without centres; with
/// centres it is 222 bytes).
pub const MAX_LEN: usize = 253;

/// What [`write()`] writes for a state without centres, with every list in place: the pieces
/// of the solved cube, orientations 0. Every list but the edge pieces has one-digit entries, and
/// the edge pieces are a permutation (two of them, 10 and 11, take two digits), so every list
/// has the same length for every state and only digits change.
const TEMPLATE: &[u8; MAX_LEN] = br#"{"EDGES":{"pieces":[0,1,2,3,4,5,6,7,8,9,10,11],"orientation":[0,0,0,0,0,0,0,0,0,0,0,0]},"CORNERS":{"pieces":[0,1,2,3,4,5,6,7],"orientation":[0,0,0,0,0,0,0,0]},"CENTERS":{"pieces":[0,1,2,3,4,5],"orientation":[0,0,0,0,0,0],"orientationMod":[1,1,1,1,1,1]}}"#;

/// Where the first digit of each list is in [`TEMPLATE`].
const EP_AT: usize = 20;
const EO_AT: usize = 62;
const CP_AT: usize = 109;
const CO_AT: usize = 141;
const CENTERS_AT: usize = 180;
const CENTER_ORI_AT: usize = 208;
/// Where `,"orientationMod"` starts: a state with centres ends the text here with `}}`.
const MOD_AT: usize = 220;

/// The text of an edge piece number and the byte after it when it is not the last: `[digit,
/// ',']` below 10, `[b'1', digit]` for 10 and 11 (whose comma comes one byte later).
const EP_TEXT: [[u8; 2]; 16] = {
    let mut t = [[b'?', b',']; 16];
    let mut v = 0;
    while v < 16 {
        t[v] = if v < 10 {
            [b'0' + v as u8, b',']
        } else {
            [b'1', b'0' + (v % 10) as u8]
        };
        v += 1;
    }
    t
};

/// Writes one-digit entries at every other byte from `at`.
#[inline(always)]
fn write_digits(out: &mut [u8; MAX_LEN], at: usize, items: &[u8]) {
    for (i, &v) in items.iter().enumerate() {
        out[at + 2 * i] = b'0' + v;
    }
}

/// Writes the pattern JSON of a state into `out`: the same text as [`encode`], without
/// allocating.
pub fn write<'a>(state: &State, out: &'a mut [u8; MAX_LEN]) -> &'a str {
    let p = pattern_of(state);
    *out = *TEMPLATE;
    // Without a branch per entry: 10 and 11 come at unpredictable places.
    let mut at = EP_AT;
    for &v in &p.ep {
        let [first, second] = EP_TEXT[v as usize & 15];
        out[at] = first;
        out[at + 1] = second;
        out[at + 2] = b',';
        at += 2 + (v >= 10) as usize;
    }
    // The last entry's comma lands on the closing bracket (after 10 or 11) or just after it,
    // where the template has a comma anyway.
    out[EP_AT + 25] = b']';
    write_digits(out, EO_AT, &p.eo);
    write_digits(out, CP_AT, &p.cp);
    write_digits(out, CO_AT, &p.co);
    write_digits(out, CENTERS_AT, &p.centers);
    write_digits(out, CENTER_ORI_AT, &p.center_ori);
    let len = if state.centers().is_some() {
        out[MOD_AT] = b'}';
        out[MOD_AT + 1] = b'}';
        MOD_AT + 2
    } else {
        MAX_LEN
    };
    std::str::from_utf8(&out[..len]).expect("pattern JSON is ASCII")
}

/// The pattern JSON (`patternData`) of a state, compact, keys in cubing.js's order. Without
/// centres, CENTERS carries `"orientationMod":[1,1,1,1,1,1]`; a missing orientation is
/// written as the identity.
///
/// ```
/// use cube_encode::{State, kpattern};
/// let json = kpattern::encode(&State::SOLVED);
/// assert!(json.starts_with(r#"{"EDGES":{"pieces":[0,1,2,3,4,5,6,7,8,9,10,11],"#));
/// assert_eq!(kpattern::decode(&json).unwrap().cube(), cube_core::Cube::SOLVED);
/// ```
pub fn encode(state: &State) -> String {
    let mut out = [0u8; MAX_LEN];
    write(state, &mut out).to_string()
}

/// The pattern as a JSON value.
pub fn encode_value(state: &State) -> Value {
    serde_json::from_str(&encode(state)).expect("encode writes valid JSON")
}

/// The pattern wrapped as `KPattern.toJSON()` writes it:
/// `{"experimentalPuzzleName":"3x3x3","patternData":...}`.
pub fn encode_wrapped(state: &State) -> String {
    format!(
        r#"{{"experimentalPuzzleName":"3x3x3","patternData":{}}}"#,
        encode(state)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_core::Cube;
    use proptest::prelude::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The writer before the template one: `write!` per entry into a `String`.
    fn encode_reference(state: &State) -> String {
        use std::fmt::Write as _;
        fn list(out: &mut String, items: &[u8]) {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write!(out, "{v}").unwrap();
            }
            out.push(']');
        }
        let p = pattern_of(state);
        let mut out = String::new();
        out.push_str(r#"{"EDGES":{"pieces":"#);
        list(&mut out, &p.ep);
        out.push_str(r#","orientation":"#);
        list(&mut out, &p.eo);
        out.push_str(r#"},"CORNERS":{"pieces":"#);
        list(&mut out, &p.cp);
        out.push_str(r#","orientation":"#);
        list(&mut out, &p.co);
        out.push_str(r#"},"CENTERS":{"pieces":"#);
        list(&mut out, &p.centers);
        out.push_str(r#","orientation":"#);
        list(&mut out, &p.center_ori);
        if state.centers().is_none() {
            out.push_str(r#","orientationMod":[1,1,1,1,1,1]"#);
        }
        out.push_str("}}");
        out
    }

    fn random_state(seed: u64, orientation: usize, centers: Option<[u8; 6]>) -> State {
        let cube = Cube::random(&mut ChaCha8Rng::seed_from_u64(seed));
        State::new(cube)
            .with_orientation((orientation < 24).then(|| Symmetry::from_index(orientation)))
            .with_centers(centers.map(Centers::new))
    }

    /// JSON whitespace, sometimes none.
    fn whitespace(rng: &mut ChaCha8Rng, out: &mut String) {
        for _ in 0..rng.random_range(0..3) {
            out.push([' ', '\t', '\n', '\r'][rng.random_range(0..4)]);
        }
    }

    /// `value` as JSON with its keys shuffled and whitespace between every two tokens.
    fn emit(value: &Value, rng: &mut ChaCha8Rng, out: &mut String) {
        whitespace(rng, out);
        match value {
            Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.shuffle(rng);
                out.push('{');
                for (i, (key, v)) in entries.into_iter().enumerate() {
                    if i > 0 {
                        whitespace(rng, out);
                        out.push(',');
                    }
                    whitespace(rng, out);
                    out.push_str(&Value::String(key.clone()).to_string());
                    whitespace(rng, out);
                    out.push(':');
                    emit(v, rng, out);
                }
                whitespace(rng, out);
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        whitespace(rng, out);
                        out.push(',');
                    }
                    emit(v, rng, out);
                }
                whitespace(rng, out);
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
        whitespace(rng, out);
    }

    proptest! {
        #[test]
        fn writer_matches_the_reference(
            seed in any::<u64>(),
            orientation in 0usize..25,
            centers in proptest::option::of(proptest::array::uniform6(0u8..4)),
        ) {
            let state = random_state(seed, orientation, centers);
            prop_assert_eq!(encode(&state), encode_reference(&state));
        }

        /// Any whitespace, any key order, with or without the wrapper: the fast reader reads
        /// it, with the general reader's result.
        #[test]
        fn fast_reader_reads_every_layout(
            seed in any::<u64>(),
            orientation in 0usize..25,
            centers in proptest::option::of(proptest::array::uniform6(0u8..4)),
            wrapped in any::<bool>(),
        ) {
            let state = random_state(seed, orientation, centers);
            let compact = if wrapped { encode_wrapped(&state) } else { encode(&state) };
            let value: Value = serde_json::from_str(&compact).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
            let mut spaced = String::new();
            emit(&value, &mut rng, &mut spaced);
            for text in [&compact, &spaced] {
                let general = decode_general(text);
                prop_assert!(general.is_ok());
                prop_assert_eq!(fast::read(text.as_bytes()), Some(general), "{}", text);
            }
        }

        /// Texts with a few bytes changed, dropped or inserted: the same result, error
        /// included, as the general reader.
        #[test]
        fn fast_reader_agrees_on_corrupted_text(
            seed in any::<u64>(),
            centers in proptest::option::of(proptest::array::uniform6(0u8..4)),
            spaced in any::<bool>(),
            edits in proptest::collection::vec((any::<usize>(), 0u8..3, any::<u8>()), 1..4),
        ) {
            let state = random_state(seed, (seed % 25) as usize, centers);
            let mut text = encode(&state);
            if spaced {
                let value: Value = serde_json::from_str(&text).unwrap();
                let mut out = String::new();
                emit(&value, &mut ChaCha8Rng::seed_from_u64(seed), &mut out);
                text = out;
            }
            let mut bytes = text.into_bytes();
            const ALPHABET: &[u8] = b"0123456789,:[]{} \\\"-.eEx\n";
            for (at, kind, b) in edits {
                let at = at % (bytes.len() + 1);
                let b = ALPHABET[b as usize % ALPHABET.len()];
                match kind {
                    0 if at < bytes.len() => bytes[at] = b,
                    1 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, b),
                }
            }
            let text = String::from_utf8(bytes).unwrap();
            let general = decode_general(&text);
            if let Some(fast) = fast::read(text.as_bytes()) {
                prop_assert_eq!(&fast, &general, "{}", text);
            }
            prop_assert_eq!(decode(&text), general, "{}", text);
        }
    }

    #[test]
    fn unusual_but_valid_documents_fall_back() {
        let text = encode(&State::SOLVED);
        // An extra key, an escaped key, a duplicate key, a number with an exponent.
        let extra = text.replacen('{', r#"{"extra":[1,{"a":null}],"#, 1);
        let escaped = text.replacen("EDGES", r"\u0045DGES", 1);
        let duplicate = text.replacen(
            r#""orientationMod""#,
            r#""pieces":[0,1,2,3,4,5],"orientationMod""#,
            1,
        );
        let exponent = text.replacen("[0,1,2,3,4,5,6,7]", "[0,1,2,3,4,5,6,7e0]", 1);
        for text in [extra, escaped, duplicate, exponent] {
            assert_eq!(fast::read(text.as_bytes()), None, "{text}");
            assert_eq!(decode(&text), decode_general(&text), "{text}");
        }
    }
}
