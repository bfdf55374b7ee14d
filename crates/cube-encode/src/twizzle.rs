//! Twizzle Binary 3x3x3: a state in 11 bytes (88 bits), as cubing.js writes it.
//!
//! The fields, most significant bit first: `EP 29 | EO 12 | CP 16 | CO 13 | PO_U 3 | PO_L 2 |
//! MO_Q 1 | MO 12`. EP and CP are lexicographic ranks of the Reid-order permutations; EO is one
//! bit per edge and CO one base-3 digit per corner, all pieces included, so states with an odd
//! flip or twist sum can be written on purpose. PO_U and PO_L give the puzzle orientation
//! (`PO_U = 7`: none); MO_Q says whether MO, the centre orientations in base 4 over the centres
//! `U L F R B D`, is present. Specification: cubing.js, "Twizzle Binary Format", and
//! `testdata/README.md`.
//!
//! Two decoders: [`decode`] checks every field's range, as cubing.js does, but accepts
//! unsolvable states and ignores PO_L when PO_U = 7 and MO when MO_Q = 0. [`decode_solvable`]
//! also requires a solvable state (centres included) and zero ignored fields, so that
//! re-encoding gives the same bytes. Unlike cubing.js, both reject buffers that are not
//! exactly 11 bytes.
//!
//! Encoding and decoding allocate nothing; the permutation ranks use a bit mask and a
//! population count, the unranking a list of nibbles packed in a `u64`.

use cube_core::{Centers, Symmetry};

use crate::error::{DecodeError, Field};
use crate::reid::{self, CENTER_TO_FACE, CORNER_MAP, EDGE_MAP, FACE_TO_CENTER};
use crate::state::State;

/// The length of a Twizzle binary state in bytes.
pub const LEN: usize = 11;
/// The length of its hex form in digits.
pub const HEX_LEN: usize = 22;

const FACT: [u32; 13] = [
    1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880, 3628800, 39916800, 479001600,
];
const POW3: [u32; 9] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// The fields of a Twizzle binary state, as cubing.js's `twizzleBinaryToBinaryComponents`
/// splits them. No range is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Components {
    /// Edge permutation rank (29 bits).
    pub ep: u32,
    /// Edge orientation mask (12 bits), UF most significant.
    pub eo: u32,
    /// Corner permutation rank (16 bits).
    pub cp: u32,
    /// Corner orientation, base 3 (13 bits), UFR most significant.
    pub co: u32,
    /// The centre on U, in `ULFRBD` order; 7 = no orientation (3 bits).
    pub po_u: u32,
    /// The centre on L among the four side centres (2 bits).
    pub po_l: u32,
    /// Whether MO is present (1 bit).
    pub mo_q: u32,
    /// Centre orientations, base 4 over `U L F R B D`, U most significant (12 bits).
    pub mo: u32,
}

impl Components {
    /// Splits 11 bytes into fields.
    pub fn from_bytes(bytes: &[u8; LEN]) -> Components {
        let mut wide = [0u8; 16];
        wide[16 - LEN..].copy_from_slice(bytes);
        let bits = u128::from_be_bytes(wide);
        let field = |shift: u32, width: u32| ((bits >> shift) as u32) & ((1u32 << width) - 1);
        Components {
            ep: field(59, 29),
            eo: field(47, 12),
            cp: field(31, 16),
            co: field(18, 13),
            po_u: field(15, 3),
            po_l: field(13, 2),
            mo_q: field(12, 1),
            mo: field(0, 12),
        }
    }

    /// Joins the fields into 11 bytes; each field is cut to its width.
    pub fn to_bytes(&self) -> [u8; LEN] {
        let put = |value: u32, width: u32| (value & ((1u32 << width) - 1)) as u128;
        let bits = put(self.ep, 29) << 59
            | put(self.eo, 12) << 47
            | put(self.cp, 16) << 31
            | put(self.co, 13) << 18
            | put(self.po_u, 3) << 15
            | put(self.po_l, 2) << 13
            | put(self.mo_q, 1) << 12
            | put(self.mo, 12);
        let wide = bits.to_be_bytes();
        let mut out = [0u8; LEN];
        out.copy_from_slice(&wide[16 - LEN..]);
        out
    }

    /// The first field out of its range, in the order EP, CP, CO, PO_U (as cubing.js lists
    /// them). EO, PO_L, MO_Q and MO cannot be out of range: every value of their bits is valid.
    ///
    /// # Errors
    /// [`DecodeError::FieldOutOfRange`].
    pub fn check_ranges(&self) -> Result<(), DecodeError> {
        let out = |field, value| Err(DecodeError::FieldOutOfRange { field, value });
        if self.ep >= FACT[12] {
            return out(Field::Ep, self.ep);
        }
        if self.cp >= FACT[8] {
            return out(Field::Cp, self.cp);
        }
        if self.co >= POW3[8] {
            return out(Field::Co, self.co);
        }
        if self.po_u == 6 {
            return out(Field::PoU, self.po_u);
        }
        Ok(())
    }
}

/// Population counts of 12-bit masks: the default x86-64 target has no `popcnt` instruction,
/// and `count_ones` becomes a dozen bit operations.
const POPCOUNT12: [u8; 4096] = {
    let mut t = [0u8; 4096];
    let mut i = 0;
    while i < 4096 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// Lexicographic rank of a permutation of `0..N` (Jaap Scherphuis's method): the sum of
/// `#{j > i : p[j] < p[i]} * (N - 1 - i)!`, where the count is `p[i]` minus the smaller pieces
/// already seen. A sum of independent products rather than Horner's scheme, so that the
/// multiplications do not wait for each other.
#[inline]
fn rank<const N: usize>(perm: &[u8; N]) -> u32 {
    let mut seen = 0u32;
    let mut index = 0u32;
    for i in 0..N - 1 {
        let p = perm[i] as u32 & 15;
        let smaller_seen = POPCOUNT12[(seen & ((1u32 << p) - 1)) as usize] as u32;
        index += (p - smaller_seen) * FACT[N - 1 - i];
        seen |= 1 << p;
    }
    index
}

/// The permutation of `0..N` with lexicographic rank `index` (`index < N!`, `N <= 12`).
#[inline]
fn unrank<const N: usize>(index: u32) -> [u8; N] {
    // The factorial-base digits, `index = sum digits[i] * (N - 1 - i)!`, each computed on its
    // own (the divisors are constants once the loop is unrolled, so they become
    // multiplications), so that the first digit is ready at once rather than at the end of a
    // chain of divisions.
    let mut digits = [0u8; N];
    for i in 0..N - 1 {
        digits[i] = (index / FACT[N - 1 - i] % (N - i) as u32) as u8;
    }
    // The unused pieces in increasing order, one nibble each; taking one out shifts the nibbles
    // above it down.
    let mut list: u64 = 0xfedc_ba98_7654_3210;
    let mut out = [0u8; N];
    for i in 0..N {
        let shift = 4 * digits[i] as u32;
        out[i] = ((list >> shift) & 15) as u8;
        let below = (1u64 << shift) - 1;
        list = (list & below) | ((list >> 4) & !below);
    }
    out
}

/// The fields of `state`.
pub fn components(state: &State) -> Components {
    let cube = state.cube();
    let (cp_k, co_k, ep_k, eo_k) = (
        cube.corner_perm(),
        cube.corner_ori(),
        cube.edge_perm(),
        cube.edge_ori(),
    );
    let mut ep = [0u8; 12];
    let mut eo = 0u32;
    for k in 0..12 {
        let i = EDGE_MAP[k] as usize;
        ep[i] = EDGE_MAP[ep_k[k] as usize & 15];
        eo |= (eo_k[k] as u32 & 1) << (11 - i);
    }
    let mut cp = [0u8; 8];
    let mut co = 0u32;
    for k in 0..8 {
        let i = CORNER_MAP[k] as usize;
        cp[i] = CORNER_MAP[cp_k[k] as usize & 7];
        co += co_k[k] as u32 * POW3[7 - i];
    }
    let (po_u, po_l) = match state.orientation() {
        Some(r) => {
            let (u, l) = reid::rotations().po[r.index() % 24];
            (u as u32, l as u32)
        }
        None => (7, 0),
    };
    let (mo_q, mo) = match state.centers() {
        Some(centers) => {
            let turns = centers.turns();
            let mut mo = 0u32;
            for (face, &t) in turns.iter().enumerate() {
                mo |= (t as u32 & 3) << (2 * (5 - FACE_TO_CENTER[face] as u32));
            }
            (1, mo)
        }
        None => (0, 0),
    };
    Components {
        ep: rank(&ep),
        eo,
        cp: rank(&cp),
        co,
        po_u,
        po_l,
        mo_q,
        mo,
    }
}

/// Encodes a state in 11 bytes.
///
/// ```
/// use cube_core::Alg;
/// use cube_encode::{State, twizzle};
/// let bytes = twizzle::encode(&State::from_alg(&"x".parse::<Alg>().unwrap()));
/// assert_eq!(twizzle::to_hex(&bytes), "0000000000000000012000");
/// ```
#[inline]
pub fn encode(state: &State) -> [u8; LEN] {
    components(state).to_bytes()
}

/// The state of fields already checked by [`Components::check_ranges`].
fn state_of(c: &Components) -> Result<State, DecodeError> {
    let ep: [u8; 12] = unrank(c.ep);
    let cp: [u8; 8] = unrank(c.cp);
    let mut cp_k = [0u8; 8];
    let mut co_k = [0u8; 8];
    let mut ep_k = [0u8; 12];
    let mut eo_k = [0u8; 12];
    for k in 0..12 {
        let i = EDGE_MAP[k] as usize;
        ep_k[k] = EDGE_MAP[ep[i] as usize];
        eo_k[k] = ((c.eo >> (11 - i)) & 1) as u8;
    }
    for k in 0..8 {
        let i = CORNER_MAP[k] as usize;
        cp_k[k] = CORNER_MAP[cp[i] as usize];
        co_k[k] = ((c.co / POW3[7 - i]) % 3) as u8;
    }
    let cube = cube_core::Cube::from_parts(cp_k, co_k, ep_k, eo_k)?;
    let orientation = match c.po_u {
        7 => None,
        u => Some(reid::rotations().from_po[(u * 4 + c.po_l) as usize]),
    };
    let centers = (c.mo_q == 1).then(|| {
        let mut turns = [0u8; 6];
        for (center, face) in CENTER_TO_FACE.iter().enumerate() {
            turns[face.index()] = ((c.mo >> (2 * (5 - center))) & 3) as u8;
        }
        Centers::new(turns)
    });
    Ok(State::new(cube)
        .with_orientation(orientation)
        .with_centers(centers))
}

fn exact(bytes: &[u8]) -> Result<&[u8; LEN], DecodeError> {
    bytes.try_into().map_err(|_| DecodeError::WrongLength {
        unit: "bytes",
        expected: LEN,
        found: bytes.len(),
    })
}

/// Decodes 11 bytes, checking the range of every field as cubing.js does. Unsolvable states
/// are accepted; PO_L is ignored when PO_U = 7, and MO when MO_Q = 0.
///
/// # Errors
/// [`DecodeError::WrongLength`] unless there are exactly 11 bytes;
/// [`DecodeError::FieldOutOfRange`] for EP `>= 12!`, CP `>= 8!`, CO `>= 3^8` or PO_U = 6.
#[inline]
pub fn decode(bytes: &[u8]) -> Result<State, DecodeError> {
    let c = Components::from_bytes(exact(bytes)?);
    c.check_ranges()?;
    state_of(&c)
}

/// Decodes 11 bytes that must be the canonical encoding of a state reachable on a real cube
/// (a real supercube when MO_Q = 1).
///
/// # Errors
/// As [`decode`]; also [`DecodeError::NonCanonical`] for PO_L `!= 0` with PO_U = 7 or MO
/// `!= 0` with MO_Q = 0, [`DecodeError::Illegal`] for an unsolvable state, and
/// [`DecodeError::CentreParity`] for centre turns whose parity differs from the corner
/// permutation's.
pub fn decode_solvable(bytes: &[u8]) -> Result<State, DecodeError> {
    let c = Components::from_bytes(exact(bytes)?);
    c.check_ranges()?;
    if c.po_u == 7 && c.po_l != 0 {
        return Err(DecodeError::NonCanonical {
            field: Field::PoL,
            value: c.po_l,
        });
    }
    if c.mo_q == 0 && c.mo != 0 {
        return Err(DecodeError::NonCanonical {
            field: Field::Mo,
            value: c.mo,
        });
    }
    let state = state_of(&c)?;
    state.validate()?;
    Ok(state)
}

/// The two lowercase hex digits of each byte value, high digit first.
const HEX_PAIRS: [[u8; 2]; 256] = {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut t = [[0u8; 2]; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = [HEX[b >> 4], HEX[b & 15]];
        b += 1;
    }
    t
};

/// Not a hex digit, in [`HEX_VALUES`]: the high bit marks it, so one OR over all digits finds
/// any bad one.
const NOT_HEX: u8 = 0x80;

/// The value of each byte as a hex digit (either case), or [`NOT_HEX`].
const HEX_VALUES: [u8; 256] = {
    let mut t = [NOT_HEX; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => NOT_HEX,
        };
        b += 1;
    }
    t
};

/// The length of cubing.js's spaced form: 11 pairs of digits separated by single spaces.
const SPACED_LEN: usize = 3 * LEN - 1;

/// The 22 lowercase hex digits of 11 bytes, written into `out`.
pub fn write_hex<'a>(bytes: &[u8; LEN], out: &'a mut [u8; HEX_LEN]) -> &'a str {
    for (pair, &b) in out.chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&HEX_PAIRS[b as usize]);
    }
    std::str::from_utf8(out).expect("hex digits are ASCII")
}

/// The 22 lowercase hex digits of 11 bytes.
pub fn to_hex(bytes: &[u8; LEN]) -> String {
    let mut out = [0u8; HEX_LEN];
    write_hex(bytes, &mut out).to_string()
}

/// A state as 22 lowercase hex digits.
pub fn encode_hex(state: &State) -> String {
    to_hex(&encode(state))
}

/// Reads 22 hex digits (either case) into 11 bytes; ASCII whitespace anywhere is skipped, so
/// cubing.js's spaced form `00 00 ...` reads too, and a leading `0x` (after any whitespace) is
/// allowed.
///
/// # Errors
/// [`DecodeError::BadHexDigit`] for any other character, [`DecodeError::WrongLength`] unless
/// there are exactly 22 digits (an odd count is not padded).
pub fn parse_hex(text: &str) -> Result<[u8; LEN], DecodeError> {
    match parse_hex_common(text.as_bytes()) {
        Some(out) => Ok(out),
        None => parse_hex_general(text),
    }
}

/// The two common forms, 22 digits or 11 pairs separated by single spaces, by table lookups
/// without a branch per digit; `None` for anything else (other whitespace, a bad digit, another
/// length), which [`parse_hex_general`] reads or names the error of.
#[inline]
fn parse_hex_common(text: &[u8]) -> Option<[u8; LEN]> {
    let stride = match text.len() {
        HEX_LEN => 2,
        SPACED_LEN => 3,
        _ => return None,
    };
    let mut out = [0u8; LEN];
    let mut bad = 0u8;
    for (i, byte) in out.iter_mut().enumerate() {
        let at = stride * i;
        let high = HEX_VALUES[text[at] as usize];
        let low = HEX_VALUES[text[at + 1] as usize];
        bad |= high | low;
        *byte = high << 4 | low;
    }
    if stride == 3 {
        for i in 0..LEN - 1 {
            bad |= (text[3 * i + 2] != b' ') as u8 * NOT_HEX;
        }
    }
    (bad & NOT_HEX == 0).then_some(out)
}

/// Any form: digits and ASCII whitespace in any arrangement, one byte at a time; names the
/// first bad character or the wrong digit count.
fn parse_hex_general(text: &str) -> Result<[u8; LEN], DecodeError> {
    let mut out = [0u8; LEN];
    let mut n_digits = 0usize;
    let trimmed = text.trim_start_matches([' ', '\t', '\n', '\r']);
    let start = match trimmed.as_bytes() {
        [b'0', b'x' | b'X', ..] => text.len() - trimmed.len() + 2,
        _ => 0,
    };
    for (i, &b) in text.as_bytes().iter().enumerate().skip(start) {
        let value = HEX_VALUES[b as usize];
        if value == NOT_HEX {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                continue;
            }
            let found = text[i..].chars().next().unwrap_or('\u{fffd}');
            return Err(DecodeError::BadHexDigit {
                column: i + 1,
                found,
            });
        }
        if n_digits < HEX_LEN {
            out[n_digits / 2] |= value << (4 * (1 - n_digits % 2));
        }
        n_digits += 1;
    }
    if n_digits != HEX_LEN {
        return Err(DecodeError::WrongLength {
            unit: "hex digits",
            expected: HEX_LEN,
            found: n_digits,
        });
    }
    Ok(out)
}

/// [`parse_hex`], then [`decode`].
///
/// # Errors
/// As both.
pub fn decode_hex(text: &str) -> Result<State, DecodeError> {
    decode(&parse_hex(text)?)
}

/// [`parse_hex`], then [`decode_solvable`].
///
/// # Errors
/// As both.
pub fn decode_hex_solvable(text: &str) -> Result<State, DecodeError> {
    decode_solvable(&parse_hex(text)?)
}

/// The `(PO_U, PO_L)` of a rotation, or `None` for a mirror.
pub fn puzzle_orientation(rotation: Symmetry) -> Option<(u8, u8)> {
    (!rotation.is_mirror()).then(|| reid::rotations().po[rotation.index()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The common forms of random bytes: the fast path reads them, as the general one does.
        #[test]
        fn common_hex_forms_take_the_fast_path(bytes in proptest::array::uniform11(any::<u8>()), upper in any::<bool>()) {
            let mut out = [0u8; HEX_LEN];
            let plain = write_hex(&bytes, &mut out).to_string();
            let plain = if upper { plain.to_uppercase() } else { plain };
            let spaced = (0..LEN).map(|i| &plain[2 * i..2 * i + 2]).collect::<Vec<_>>().join(" ");
            for text in [plain, spaced] {
                prop_assert_eq!(parse_hex_common(text.as_bytes()), Some(bytes));
                prop_assert_eq!(parse_hex(&text), parse_hex_general(&text));
            }
        }

        /// Text near the hex forms: the same bytes or the same error as the general path.
        #[test]
        fn parse_hex_agrees_with_the_general_path(text in "[0-9a-fA-FgG \t\n\r\x0b\u{e9}]{18,34}") {
            let general = parse_hex_general(&text);
            if let Some(fast) = parse_hex_common(text.as_bytes()) {
                prop_assert_eq!(Ok(fast), general.clone());
            }
            prop_assert_eq!(parse_hex(&text), general);
        }
    }

    #[test]
    fn rank_unrank_exhaustive_for_eight() {
        for i in 0..FACT[8] {
            let p: [u8; 8] = unrank(i);
            assert_eq!(rank(&p), i);
        }
    }

    /// The fast rank and unrank are cube-core's reference Lehmer rank (`cube_core::perm`): on every
    /// permutation of eight and a sample of twelve.
    #[test]
    fn ranks_agree_with_the_reference() {
        use cube_core::perm::{rank_permutation, unrank_permutation};
        for i in 0..FACT[8] {
            let mut reference = [0u8; 8];
            unrank_permutation(u64::from(i), &mut reference);
            assert_eq!(unrank::<8>(i), reference);
            assert_eq!(u64::from(rank(&reference)), rank_permutation(&reference));
        }
        for i in (0..FACT[12]).step_by(99_991) {
            let mut reference = [0u8; 12];
            unrank_permutation(u64::from(i), &mut reference);
            assert_eq!(unrank::<12>(i), reference);
        }
    }

    #[test]
    fn rank_unrank_twelve_samples() {
        let mut i = 0u32;
        while i < FACT[12] {
            let p: [u8; 12] = unrank(i);
            assert_eq!(rank(&p), i);
            i += 9973;
        }
        let last: [u8; 12] = unrank(FACT[12] - 1);
        assert_eq!(last, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    }

    #[test]
    fn components_round_trip() {
        let c = Components {
            ep: 12345,
            eo: 3,
            cp: 77,
            co: 5,
            po_u: 7,
            po_l: 0,
            mo_q: 0,
            mo: 0,
        };
        assert_eq!(Components::from_bytes(&c.to_bytes()), c);
    }
}
