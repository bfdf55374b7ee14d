// The cube the page shows, as data: 54 facelets in Kociemba order (U R F D L B, nine each,
// centres included, so a whole-cube rotation is part of the state) and the moves that change
// them. Pure functions, no page: the page keeps one such state as its model and every view
// renders it. The server reads every notation; this file knows only plain moves (face turns,
// wide turns, slices and rotations with an amount), which it can turn without a request.

export const FACES = "URFDLB";
export const SOLVED = [...FACES].map((f) => f.repeat(9)).join("");
export const COLOURS = { U: "#ffffff", R: "#c41e3a", F: "#009e60", D: "#ffd500", L: "#ff5800", B: "#0051ba" };
export const COLOUR_NAMES = { U: "white", R: "red", F: "green", D: "yellow", L: "orange", B: "blue" };
const FACE_NAMES = { U: "up", R: "right", F: "front", D: "down", L: "left", B: "back" };

// The place of sticker (row r, column c) of `face` as Kociemba numbers them: its cubie's position
// p (x right, y up, z to the front, each -1, 0 or 1) and the outward normal n.
function placeOf(face, r, c) {
  switch (face) {
    case "U": return { p: [c - 1, 1, r - 1], n: [0, 1, 0] };
    case "R": return { p: [1, 1 - r, 1 - c], n: [1, 0, 0] };
    case "F": return { p: [c - 1, 1 - r, 1], n: [0, 0, 1] };
    case "D": return { p: [c - 1, -1, 1 - r], n: [0, -1, 0] };
    case "L": return { p: [-1, 1 - r, c - 1], n: [-1, 0, 0] };
    default: return { p: [1 - c, 1 - r, -1], n: [0, 0, -1] };
  }
}

export const PLACES = [];
for (const face of FACES) for (let i = 0; i < 9; i++) PLACES.push(placeOf(face, Math.floor(i / 3), i % 3));
const key = (p, n) => `${p}|${n}`;
const INDEX = new Map(PLACES.map((s, i) => [key(s.p, s.n), i]));

// Each face's axis (0 x, 1 y, 2 z) and the sign of its outward normal.
export const AXIS = { U: [1, 1], D: [1, -1], R: [0, 1], L: [0, -1], F: [2, 1], B: [2, -1] };
const FACE_OF = (axis, sign) => [...FACES].find((f) => AXIS[f][0] === axis && AXIS[f][1] === sign);

// A clockwise quarter turn (looking at `face`) of the vector v: -90 degrees about the normal a,
// v' = (a.v) a - a x v.
function quarter(face, [x, y, z]) {
  const [axis, sign] = AXIS[face];
  const a = [0, 0, 0];
  a[axis] = sign;
  const dot = a[0] * x + a[1] * y + a[2] * z;
  const cross = [a[1] * z - a[2] * y, a[2] * x - a[0] * z, a[0] * y - a[1] * x];
  return [dot * a[0] - cross[0], dot * a[1] - cross[1], dot * a[2] - cross[2]].map((v) => v + 0);
}

// A move: the face whose clockwise quarter turn it repeats, the layers it turns (by the
// coordinate along that face's normal: 1 is the face's own layer, 0 the middle, -1 the
// opposite face) and the number of quarter turns (0 to 3). Slices follow cubing.js: M turns as
// L, E as D, S as F; x as R, y as U, z as F.
const SLICE = { M: "L", E: "D", S: "F" };
const ROTATION = { x: "R", y: "U", z: "F" };
const MOVE = /^(?:([URFDLB])(w?)|([urfdlb])|([MES])|([xyz]))(\d*)('?)$/;

// The move a token names, or null when it is not a plain move (the server reads the rest).
export function parseMove(token) {
  const m = MOVE.exec(token);
  if (!m) return null;
  const [, face, w, lower, slice, rotation, digits, prime] = m;
  const amount = digits === "" ? 1 : Number(digits);
  if (!(amount > 0) || digits.startsWith("0")) return null;
  let quarters = amount % 4;
  if (prime) quarters = (4 - quarters) % 4;
  if (face) return { name: token, face, layers: w ? [1, 0] : [1], quarters };
  if (lower) return { name: token, face: lower.toUpperCase(), layers: [1, 0], quarters };
  if (slice) return { name: token, face: SLICE[slice], layers: [0], quarters };
  return { name: token, face: ROTATION[rotation], layers: [1, 0, -1], quarters };
}

// The moves of a plain sequence, or null when it has anything else (groups, commutators,
// comments, NISS parentheses: the server's reading decides what those mean).
export function parseMoves(text) {
  const tokens = text.trim().split(/\s+/).filter((t) => t);
  const moves = tokens.map(parseMove);
  return moves.every((m) => m) ? moves : null;
}

const OPPOSITE = { U: "D", D: "U", R: "L", L: "R", F: "B", B: "F" };
const AMOUNT = ["", "", "2", "'"];

// The usual name of a move: a face turn (R), a wide turn (Rw), a slice (M) or a rotation (x).
export function moveName(face, layers, quarters) {
  const inverse = (q) => (4 - q) % 4;
  const set = [...layers].sort().join();
  if (set === "1") return face + AMOUNT[quarters];
  if (set === "0,1") return `${face}w${AMOUNT[quarters]}`;
  if (set === "0") {
    const slice = Object.keys(SLICE).find((s) => SLICE[s] === face || SLICE[s] === OPPOSITE[face]);
    return slice + AMOUNT[SLICE[slice] === face ? quarters : inverse(quarters)];
  }
  const rotation = Object.keys(ROTATION).find((r) => ROTATION[r] === face || ROTATION[r] === OPPOSITE[face]);
  return rotation + AMOUNT[ROTATION[rotation] === face ? quarters : inverse(quarters)];
}

const named = (face, layers, quarters) => ({ name: moveName(face, layers, quarters), face, layers, quarters });

export function inverse(move) {
  return named(move.face, move.layers, (4 - move.quarters) % 4);
}

// The sticker permutation of each (face, layers) quarter turn: out[to[i]] = in[i].
const PERMUTATIONS = new Map();
function permutation(face, layers) {
  const id = face + layers;
  if (!PERMUTATIONS.has(id)) {
    const [axis, sign] = AXIS[face];
    PERMUTATIONS.set(id, PLACES.map((s, i) => (layers.includes(s.p[axis] * sign) ? INDEX.get(key(quarter(face, s.p), quarter(face, s.n))) : i)));
  }
  return PERMUTATIONS.get(id);
}

// Whether the cubie at position p turns with `move`.
export function turns(p, move) {
  const [axis, sign] = AXIS[move.face];
  return move.layers.includes(p[axis] * sign);
}

// The facelets after `move`.
export function apply(facelets, move) {
  let colours = [...facelets];
  const to = permutation(move.face, move.layers);
  for (let q = 0; q < move.quarters; q++) {
    const out = colours.slice();
    to.forEach((j, i) => (out[j] = colours[i]));
    colours = out;
  }
  return colours.join("");
}

export const applyAll = (facelets, moves) => moves.reduce(apply, facelets);

// Solved in any orientation: every face of one colour.
export function isSolved(facelets) {
  return [0, 1, 2, 3, 4, 5].every((f) => facelets.slice(f * 9, f * 9 + 9).split("").every((c) => c === facelets[f * 9 + 4]));
}

// A solution of the server is relative to the centres (a state is solved in its standard
// orientation): its R turns the face whose centre is R. These are the same moves named as they
// are made on the cube as it is held (with `facelets` before the first), so that played from
// `facelets` they do what the solution says.
export function asHeld(facelets, moves) {
  let state = facelets;
  return moves.map((move) => {
    const at = FACES[[0, 1, 2, 3, 4, 5].find((f) => state[f * 9 + 4] === move.face)];
    const held = named(at, move.layers, move.quarters);
    state = apply(state, held);
    return held;
  });
}

// The move that turns, by +90 degrees about the axis (axis 0 x, 1 y, 2 z; sign +1 or -1), the
// layer at coordinate k along it (1 the face the axis points out of, -1 the opposite one, 0 the
// middle): what a drag across a sticker asks for.
export function turnAbout(axis, sign, k) {
  const face = FACE_OF(axis, sign);
  if (k === 1) return named(face, [1], 3);
  if (k === -1) return named(OPPOSITE[face], [1], 1);
  return named(face, [0], 3);
}

// 54 stickers in any six letters (the centres say which face each letter is) written in the
// letters U R F D L B, or null when the centres are not six different letters. Legality is the
// server's to judge: a state that is not a cube can still be shown and painted.
export function faceletsOf(text) {
  const letters = text.replace(/\s+/g, "");
  if (letters.length !== 54) return null;
  const centres = [0, 1, 2, 3, 4, 5].map((f) => letters[f * 9 + 4]);
  if (new Set(centres).size !== 6) return null;
  const out = [...letters].map((c) => FACES[centres.indexOf(c)]);
  return out.includes(undefined) ? null : out.join("");
}

// The cube in words, face by face, for screen readers.
export function describe(facelets) {
  return [...FACES]
    .map((f, i) => {
      const stickers = [...facelets.slice(i * 9, i * 9 + 9)].map((c) => COLOUR_NAMES[c] || c);
      const rows = [0, 3, 6].map((r) => stickers.slice(r, r + 3).join(" "));
      return `${FACE_NAMES[f]} face: ${rows.join(", ")}`;
    })
    .join(". ");
}
