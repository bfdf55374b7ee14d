//! cubing.js pattern JSON: the `patternData` of a `KPattern` for the 3x3x3.
//!
//! `{"EDGES": {"pieces": [...], "orientation": [...]}, "CORNERS": {...}, "CENTERS": {...}}`,
//! with the pieces in Reid / kpuzzle order (see `testdata/README.md`). `pieces[i]` is
//! the piece at position `i`. The CENTERS pieces show the puzzle orientation. When CENTERS has
//! `"orientationMod": [1, 1, 1, 1, 1, 1]` the centre orientation is not tracked (cubing.js's
//! default pattern); without it (or with all zeros) it is, as on a supercube.
//!
//! The wrapper `KPattern.toJSON()` writes, `{"experimentalPuzzleName": "3x3x3", "patternData":
//! ...}`, is accepted too. Reading is a hand-written parser for documents in the usual shape (any
//! whitespace and key order), which allocates nothing; anything unusual, and every error, goes
//! through a `serde_json::Value`. [`write()`] fills a caller buffer from a template; [`encode`]
//! returns a `String`.

use cube_core::{Centers, Cube, Symmetry};
use serde_json::Value;

use crate::error::DecodeError;
use crate::problem::{Problem, parts_problems};
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
/// [`DecodeError::BadPattern`] for a missing or malformed orbit, a value out of range, or an
/// `orientationMod` other than all 1 or all 0; [`DecodeError::CentresNotARotation`] for
/// centres that no rotation places; [`DecodeError::Illegal`] for pieces that are not a
/// permutation.
pub fn decode_value(value: &Value) -> Result<State, DecodeError> {
    let (pattern, tracked) = read_value::<false>(value)?;
    finish(&pattern, tracked)
}

/// Reads the arrays of a pattern and whether its centre orientation is tracked. `LENIENT`, for
/// [`check_as`](crate::check_as), takes any number below 256 as a piece or an orientation of
/// the pieces and the centres (the centre orientations of a tracked pattern excepted), which
/// the checks then name.
fn read_value<const LENIENT: bool>(value: &Value) -> Result<(Reid, bool), DecodeError> {
    let limit = |strict: u64| Some(if LENIENT { 256 } else { strict });
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
        ep: read_array(edges, "EDGES", "pieces", limit(12))?,
        eo: read_array(edges, "EDGES", "orientation", limit(2))?,
        cp: read_array(corners, "CORNERS", "pieces", limit(8))?,
        co: read_array(corners, "CORNERS", "orientation", limit(3))?,
        centers: read_array(centers, "CENTERS", "pieces", limit(6))?,
        center_ori: if tracked {
            read_array(centers, "CENTERS", "orientation", Some(4))?
        } else {
            read_array::<6>(centers, "CENTERS", "orientation", None)?;
            [0; 6]
        },
    };
    Ok((pattern, tracked))
}

/// The rotation whose centres a pattern shows, if any.
fn rotation_of(centers: &[u8; 6]) -> Option<usize> {
    reid::rotations()
        .transform
        .iter()
        .position(|t| t.centers == *centers)
}

/// Every problem of pattern JSON ([`check_as`](crate::check_as)): of the centres and the
/// pieces as written, or, when they are a rotation and pieces, of the state.
pub(crate) fn problems(text: &str) -> Result<Vec<Problem>, DecodeError> {
    let value: Value = serde_json::from_str(text).map_err(|e| DecodeError::Json(e.to_string()))?;
    let (pattern, tracked) = read_value::<true>(&value)?;
    let parts = pattern.parts();
    let (cp, co, ep, eo) = parts;
    Ok(
        match (
            rotation_of(&pattern.centers),
            Cube::from_parts(cp, co, ep, eo),
        ) {
            (Some(_), Ok(_)) => finish(&pattern, tracked)?.problems(),
            (rotation, _) => {
                let mut problems = parts_problems(parts);
                if rotation.is_none() {
                    problems.insert(0, Problem::CentresNotARotation);
                }
                problems
            }
        },
    )
}

/// The state of a pattern whose arrays have been read and range-checked: both readers end
/// here, so they agree on everything after the syntax.
#[inline(always)]
fn finish(pattern: &Reid, tracked: bool) -> Result<State, DecodeError> {
    const HOME: [u8; 6] = [0, 1, 2, 3, 4, 5];
    let rot = reid::rotations();
    // Neither case copies the pattern: reading back as a whole what was just stored byte by
    // byte would stall.
    let rotated;
    let (r, normalized) = if pattern.centers == HOME {
        // The identity: the inverse transformation would change nothing.
        (0, pattern)
    } else {
        let r = rotation_of(&pattern.centers).ok_or(DecodeError::CentresNotARotation)?;
        rotated = pattern.apply(&rot.transform[rot.inverse[r] as usize]);
        (r, &rotated)
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
///
/// Before parsing, [`canonical`](fast::canonical) tries the text [`write()`] writes: compared
/// with the template a vector of bytes at a time, its digits gathered and checked a word at a
/// time.
mod fast {
    use super::{
        CENTER_ORI_AT, CENTERS_AT, CO_AT, CP_AT, DecodeError, EO_AT, EP_AT, EP_WIDTH, MAX_LEN,
        MOD_AT, Reid, State, TEMPLATE, TRACKED_LEN, finish,
    };
    use crate::reid::first_bytes;

    /// A 1 in every byte of a word.
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    /// A 1 in every byte of a double word.
    const ONES2: u128 = u128::from_le_bytes([1; 16]);

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

    /// How the canonical reader sees a text that [`super::write()`] writes: `N` is
    /// [`MAX_LEN`] without centres, [`TRACKED_LEN`] with them.
    struct Shape<const N: usize> {
        /// [`TEMPLATE`] (ended by `}}` where the centres are tracked), masked.
        expect: [u8; N],
        /// The bits of each byte that every text of this shape shares with `expect`: all of
        /// them in the keys and punctuation, none in the edge pieces (whose layout depends on
        /// where 10 and 11 are), and for the other digits the bits that keep them in range
        /// (`0b1111_1110` allows `0` and `1`); the corner orientations (`0..=3`) and centres
        /// (`0..=7`) are narrowed to their range afterwards.
        mask: [u8; N],
    }

    /// Sets `mask` for `count` entries, every other byte from `at`.
    const fn mark<const N: usize>(mask: &mut [u8; N], at: usize, count: usize, bits: u8) {
        let mut i = 0;
        while i < count {
            mask[at + 2 * i] = bits;
            i += 1;
        }
    }

    impl<const N: usize> Shape<N> {
        const fn new() -> Shape<N> {
            let mut expect = [0u8; N];
            let mut mask = [0xffu8; N];
            let mut i = 0;
            while i < N {
                // With centres, the text ends at `MOD_AT` with `}}`.
                expect[i] = if N == MAX_LEN || i < MOD_AT {
                    TEMPLATE[i]
                } else {
                    b'}'
                };
                i += 1;
            }
            let mut i = EP_AT;
            while i < EP_AT + EP_WIDTH {
                mask[i] = 0;
                i += 1;
            }
            mark(&mut mask, EO_AT, 12, 0xfe);
            mark(&mut mask, CP_AT, 8, 0xf8);
            mark(&mut mask, CO_AT, 8, 0xfc);
            mark(&mut mask, CENTERS_AT, 6, 0xf8);
            mark(&mut mask, CENTER_ORI_AT, 6, 0xfc);
            let mut i = 0;
            while i < N {
                expect[i] &= mask[i];
                i += 1;
            }
            Shape { expect, mask }
        }

        /// Whether `text` has this shape (a loop the compiler turns into vector operations).
        #[inline(always)]
        fn matches(&self, text: &[u8; N]) -> bool {
            let diff = (text.iter().zip(&self.expect).zip(&self.mask))
                .fold(0, |diff, ((&t, &e), &m)| diff | (t ^ e) & m);
            diff == 0
        }
    }

    static UNTRACKED: Shape<MAX_LEN> = Shape::new();
    static TRACKED: Shape<TRACKED_LEN> = Shape::new();

    /// One bit per byte of `x`: the high bits of `x`, gathered (bit `i` from byte `i`).
    #[inline(always)]
    fn high_bits(x: u64) -> u32 {
        (((x >> 7) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    }

    /// The edge pieces of a text [`super::write()`] writes, in Reid order: 12 numbers of
    /// one or two digits in exactly [`EP_WIDTH`] bytes from `EP_AT`, separated by commas, of
    /// which two are 10 and 11. The commas and digits are found all at once, as bit masks;
    /// every number's place then follows from where the two two-digit ones are.
    #[inline(always)]
    fn edge_pieces(text: &[u8; TRACKED_LEN]) -> Option<[u8; 12]> {
        const LOW7: u64 = 0x7f * ONES;
        let window = &text[EP_AT..EP_AT + 34];
        let (mut commas, mut digits) = (0u32, 0u32);
        for i in 0..4 {
            let x = word(window, 8 * i);
            // Per byte, the top bit apart, so that no sum carries into the next byte: a zero
            // `x ^ ','` is a comma, `0x30..0x3a` a digit.
            let low = x & LOW7;
            let comma = !((((x ^ (b',' as u64 * ONES)) & LOW7) + LOW7) | x);
            let digit = (low + 0x50 * ONES) & !(low + 0x46 * ONES) & !x;
            commas |= high_bits(comma) << (8 * i);
            digits |= high_bits(digit) << (8 * i);
        }
        const ALL: u32 = (1 << EP_WIDTH) - 1;
        let (commas, digits) = (commas & ALL, digits & ALL);
        // Numbers of one or two digits separated by single commas, 12 of them.
        let ok = commas | digits == ALL
            && digits & 1 != 0
            && digits >> (EP_WIDTH - 1) != 0
            && commas & commas >> 1 == 0
            && digits & digits >> 1 & digits >> 2 == 0
            && commas.count_ones() == 11;
        if !ok {
            return None;
        }
        // The two two-digit numbers are entries `a` and `b`: every entry before `a` takes two
        // bytes with its comma, so entry `k` starts at byte `2k` up to `a`, `2k + 1` up to `b`
        // and `2k + 2` after it. The bytes at `2k`, `2k + 1` and `2k + 2`, for every `k` at
        // once, pick its first digit, and the second digits of `a` and `b`.
        let pairs = digits & digits >> 1;
        let a = pairs.trailing_zeros() / 2;
        let b = (pairs & pairs.wrapping_sub(1)).trailing_zeros() / 2;
        let (at_2k, at_2k1) = (every_other(window, 0), every_other(window, 1));
        let at_2k2 = at_2k >> 8;
        let (after_a, after_b) = (u128::MAX << (8 * (a + 1)), u128::MAX << (8 * (b + 1)));
        let first = at_2k & !after_a | at_2k1 & after_a & !after_b | at_2k2 & after_b;
        let (entry_a, entry_b) = (0xff << (8 * a), 0xff << (8 * b));
        let second = at_2k1 & entry_a | at_2k2 & entry_b;
        let two = entry_a | entry_b;
        // A two-digit number is 10 or 11: `1`, then `0` or `1`.
        if (first ^ (b'1' as u128 * ONES2) | (second ^ (b'0' as u128 * ONES2)) & !ONES2) & two != 0
        {
            return None;
        }
        Some(first_bytes(
            first & (0x0f * ONES2) & !two | ((0x0a * ONES2) | second & ONES2) & two,
        ))
    }

    /// The eight bytes of `bytes` from `at`.
    #[inline(always)]
    fn word(bytes: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(*bytes[at..].first_chunk().expect("8 bytes from `at`"))
    }

    /// Bytes `from`, `from + 2`, ... of `window`, 16 of them.
    #[inline(always)]
    fn every_other(window: &[u8], from: usize) -> u128 {
        let mut bytes = 0u128;
        for i in 0..4 {
            bytes |= u128::from(even_bytes(word(window, from + 8 * i))) << (32 * i);
        }
        bytes
    }

    /// Bytes 0, 2, 4 and 6 of `word`, as its low four bytes.
    #[inline(always)]
    fn even_bytes(word: u64) -> u64 {
        let w = word & 0x00ff_00ff_00ff_00ff;
        let w = (w | w >> 8) & 0x0000_ffff_0000_ffff;
        (w | w >> 16) & 0xffff_ffff
    }

    /// The `N` one-digit entries at every other byte from `at` of a text of its shape (whose
    /// digits are `0x30` or-ed with the value), one per byte, gathered four at a time.
    #[inline(always)]
    fn digits<const N: usize>(text: &[u8; TRACKED_LEN], at: usize) -> u128 {
        let mut values = 0u128;
        for group in 0..N.div_ceil(4) {
            // A last group of two overlaps the one before rather than read past the list.
            let from = (8 * group).min(2 * N - 8);
            let w = even_bytes(word(text, at + from)) & 0x0f0f_0f0f;
            values |= u128::from(w) << (4 * from);
        }
        values
    }

    /// Reads the text [`super::write()`] writes, with or without the wrapper, and nothing
    /// else: the pattern, in range, and whether the centres are tracked.
    #[inline(always)]
    pub(super) fn canonical(text: &[u8]) -> Option<(Reid, bool)> {
        const WRAPPER: &[u8] = br#"{"experimentalPuzzleName":"3x3x3","patternData":"#;
        let body = match text.len() {
            MAX_LEN | TRACKED_LEN => text,
            _ => text.strip_prefix(WRAPPER)?.strip_suffix(b"}")?,
        };
        let tracked = match body.len() {
            MAX_LEN if UNTRACKED.matches(body.first_chunk()?) => false,
            TRACKED_LEN if TRACKED.matches(body.first_chunk()?) => true,
            _ => return None,
        };
        let t: &[u8; TRACKED_LEN] = body.first_chunk()?;
        // The shape has left the corner orientations `0..=3` and the centres `0..=7`: no 3,
        // no 6 or 7.
        let co = digits::<8>(t, CO_AT);
        let centers = digits::<6>(t, CENTERS_AT);
        if (co & co >> 1 | centers >> 1 & centers >> 2) & ONES2 != 0 {
            return None;
        }
        let pattern = Reid {
            ep: edge_pieces(t)?,
            eo: first_bytes(digits::<12>(t, EO_AT)),
            cp: first_bytes(digits::<8>(t, CP_AT)),
            co: first_bytes(co),
            centers: first_bytes(centers),
            center_ori: if tracked {
                first_bytes(digits::<6>(t, CENTER_ORI_AT))
            } else {
                [0; 6]
            },
        };
        Some((pattern, tracked))
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
    #[inline(always)]
    pub(super) fn read(text: &[u8]) -> Option<Result<State, DecodeError>> {
        match canonical(text) {
            Some((pattern, tracked)) => Some(finish(&pattern, tracked)),
            None => read_flexible(text),
        }
    }

    /// [`read`] for the texts [`canonical`] does not read.
    fn read_flexible(text: &[u8]) -> Option<Result<State, DecodeError>> {
        let data = flexible(text)?;
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
pub fn decode_solvable(text: &str) -> Result<State, DecodeError> {
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
    let mut pattern = Reid::from_cube(&state.cube(), center_ori);
    // The identity transformation would change nothing: every value is in range.
    if let Some(r) = state.orientation()
        && r != Symmetry::IDENTITY
    {
        pattern = pattern.apply(&reid::rotations().transform[r.index() % 24]);
    }
    if state.centers().is_none() {
        pattern.center_ori = [0; 6];
    }
    pattern
}

/// The length of the longest pattern JSON [`write()`] writes (a state without centres; with
/// centres it is `TRACKED_LEN`, 222 bytes).
pub const MAX_LEN: usize = 253;

/// What [`write()`] writes for a state without centres, with every list in place: the edge
/// pieces of the solved cube, every other entry `0` (so that a digit is written by or-ing its
/// value in). Every list but the edge pieces has one-digit entries, and the edge pieces are a
/// permutation (two of them, 10 and 11, take two digits), so every list has the same length for
/// every state and only digits change.
const TEMPLATE: &[u8; MAX_LEN] = br#"{"EDGES":{"pieces":[0,1,2,3,4,5,6,7,8,9,10,11],"orientation":[0,0,0,0,0,0,0,0,0,0,0,0]},"CORNERS":{"pieces":[0,0,0,0,0,0,0,0],"orientation":[0,0,0,0,0,0,0,0]},"CENTERS":{"pieces":[0,0,0,0,0,0],"orientation":[0,0,0,0,0,0],"orientationMod":[1,1,1,1,1,1]}}"#;

/// Where the first digit of each list is in [`TEMPLATE`].
const EP_AT: usize = 20;
const EO_AT: usize = 62;
const CP_AT: usize = 109;
const CO_AT: usize = 141;
const CENTERS_AT: usize = 180;
const CENTER_ORI_AT: usize = 208;
/// The bytes the edge pieces take, from `EP_AT`: 12 numbers, two of them of two digits, and
/// the commas between them.
const EP_WIDTH: usize = 25;
/// Where `,"orientationMod"` starts: a state with centres ends the text here with `}}`.
const MOD_AT: usize = 220;
/// The length of the text of a state with centres.
const TRACKED_LEN: usize = MOD_AT + 2;

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

// `write` relies on these being ASCII for its text to be UTF-8.
const _: () = assert!(TEMPLATE.is_ascii() && EP_TEXT.as_flattened().is_ascii());

/// Writes one-digit entries at every other byte from `at`, four at a time: each group of four
/// values, spread to every other byte, or-ed into the `0`s of [`TEMPLATE`] (the mask keeps even
/// a wrong value from `0` to `?`, ASCII). Past the list's end the template is written back.
#[inline(always)]
fn write_digits<const N: usize>(out: &mut [u8; MAX_LEN], at: usize, items: &[u8; N]) {
    for (g, group) in items.chunks(4).enumerate() {
        let mut values = [0u8; 4];
        values[..group.len()].copy_from_slice(group);
        let mut spread = u64::from(u32::from_le_bytes(values) & 0x0f0f_0f0f);
        spread = (spread | spread << 16) & 0x0000_ffff_0000_ffff;
        spread = (spread | spread << 8) & 0x00ff_00ff_00ff_00ff;
        let word = &mut out[at + 8 * g..][..8];
        let template = u64::from_le_bytes(*TEMPLATE[at + 8 * g..].first_chunk().expect("in"));
        word.copy_from_slice(&(template | spread).to_le_bytes());
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
    out[EP_AT + EP_WIDTH] = b']';
    write_digits(out, EO_AT, &p.eo);
    write_digits(out, CP_AT, &p.cp);
    write_digits(out, CO_AT, &p.co);
    write_digits(out, CENTERS_AT, &p.centers);
    write_digits(out, CENTER_ORI_AT, &p.center_ori);
    let len = if state.centers().is_some() {
        out[MOD_AT] = b'}';
        out[MOD_AT + 1] = b'}';
        TRACKED_LEN
    } else {
        MAX_LEN
    };
    // `str::from_utf8` would add 10 to 15 ns (of 65) to the `kpattern_write` bench: reading
    // back bytes just stored one by one stalls.
    #[allow(unsafe_code)]
    // SAFETY: every byte of `out` is ASCII, so `out[..len]` is UTF-8: `*out = *TEMPLATE` and
    // `EP_TEXT` are ASCII (asserted at compile time above), and the other bytes stored are `]`,
    // `,`, `}` and `write_digits`'s, a template byte or-ed with a value masked below 16 (a
    // `0` then, giving `0` to `?`).
    unsafe {
        std::str::from_utf8_unchecked(&out[..len])
    }
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

    /// The bytes that matter to the readers, to corrupt texts with.
    const ALPHABET: &[u8] = b"0123456789,:[]{} \\\"-.eEx\n";

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

    /// What `write` writes, the fast path reads: every rotation, with and without centres,
    /// with and without the wrapper, and the edge pieces 10 and 11 at every pair of places.
    #[test]
    fn canonical_reads_what_write_writes() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut states: Vec<State> = (0..25)
            .flat_map(|orientation| {
                [None, Some([1, 2, 3, 0, 1, 2])]
                    .map(|centers| random_state(rng.random(), orientation, centers))
            })
            .collect();
        // Cycling the last three edges of positions `i`, `j` and 11 puts them anywhere.
        let ep: [u8; 12] = std::array::from_fn(|i| i as u8);
        for i in 0..12 {
            for j in 0..12 {
                let mut ep = ep;
                ep.swap(i, 10);
                ep.swap(j, 11);
                if let Ok(cube) = Cube::from_parts([0, 1, 2, 3, 4, 5, 6, 7], [0; 8], ep, [0; 12]) {
                    states.push(State::new(cube));
                }
            }
        }
        let mut buf = [0u8; MAX_LEN];
        for state in states {
            for text in [write(&state, &mut buf).to_string(), encode_wrapped(&state)] {
                assert!(fast::canonical(text.as_bytes()).is_some(), "{text}");
                assert_eq!(decode(&text), decode_general(&text), "{text}");
            }
        }
    }

    /// Every byte of texts `write` writes replaced by each byte that matters to the readers:
    /// the same result, error included, as the general reader.
    #[test]
    fn every_single_byte_change_agrees() {
        for (seed, orientation, centers) in [(1, 24, None), (2, 5, Some([3, 0, 1, 2, 3, 0]))] {
            let text = encode(&random_state(seed, orientation, centers));
            for at in 0..text.len() {
                for &b in ALPHABET {
                    let mut bytes = text.clone().into_bytes();
                    bytes[at] = b;
                    let changed = String::from_utf8(bytes).unwrap();
                    assert_eq!(decode(&changed), decode_general(&changed), "{changed}");
                }
            }
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
