// The cube of the page: 54 stickers in Kociemba order (U R F D L B, nine each), drawn with CSS 3D
// transforms, turned by moves and animated. Each sticker has a place (its cubie's position,
// x right, y up, z to the front, each -1, 0 or 1) and a normal; a move turns the stickers of
// its layers about its axis. The server reads every notation; this file only draws and turns.

export const FACES = "URFDLB";
export const COLOURS = { U: "#ffffff", R: "#c41e3a", F: "#009e60", D: "#ffd500", L: "#ff5800", B: "#0051ba" };
export const COLOUR_NAMES = { U: "white", R: "red", F: "green", D: "yellow", L: "orange", B: "blue" };

// The place and normal of sticker `i` of face `face` (row r, column c), as Kociemba numbers them.
function placeOf(face, r, c) {
  switch (face) {
    case "U": return { p: [c - 1, 1, r - 1], n: [0, 1, 0] };
    case "R": return { p: [1, 1 - r, 1 - c], n: [1, 0, 0] };
    case "F": return { p: [c - 1, 1 - r, 1], n: [0, 0, 1] };
    case "D": return { p: [c - 1, -1, 1 - r], n: [0, -1, 0] };
    case "L": return { p: [-1, 1 - r, c - 1], n: [-1, 0, 0] };
    case "B": return { p: [1 - c, 1 - r, -1], n: [0, 0, -1] };
  }
}

export const PLACES = [];
for (const face of FACES) for (let i = 0; i < 9; i++) PLACES.push(placeOf(face, Math.floor(i / 3), i % 3));

const key = (p, n) => p.join() + "|" + n.join();
const INDEX = new Map(PLACES.map((s, i) => [key(s.p, s.n), i]));

// A quarter turn clockwise (looking at the face) of the vector v, about each face's axis.
const QUARTER = {
  U: ([x, y, z]) => [-z, y, x],
  D: ([x, y, z]) => [z, y, -x],
  R: ([x, y, z]) => [x, z, -y],
  L: ([x, y, z]) => [x, -z, y],
  F: ([x, y, z]) => [y, -x, z],
  B: ([x, y, z]) => [-y, x, z],
};
// The axis coordinate and sign of each face: U is y = 1.
const AXIS = { U: [1, 1], D: [1, -1], R: [0, 1], L: [0, -1], F: [2, 1], B: [2, -1] };

// A move: the face whose quarter turn it repeats, the layers it turns (by the coordinate along
// that face's axis, seen from the face: 1 is the face's own layer), and the quarter turns.
// Face turns, wide turns (Rw, r), slices (M E S) and rotations (x y z).
const MOVE = /^([URFDLB]w?|[urfdlb]|[MESxyz])(2|3)?('?)$/;
export function parseMove(token) {
  const m = MOVE.exec(token);
  if (!m) return null;
  let [, name, amount, prime] = m;
  let quarters = amount === "2" ? 2 : amount === "3" ? 3 : 1;
  if (prime) quarters = 4 - quarters;
  const base = name[0].toUpperCase();
  const slice = { M: ["L", [0]], E: ["D", [0]], S: ["F", [0]], x: ["R", [1, 0, -1]], y: ["U", [1, 0, -1]], z: ["F", [1, 0, -1]] };
  if (slice[name]) return { name: token, face: slice[name][0], layers: slice[name][1], quarters };
  const wide = name.length === 2 || name !== base;
  return { name: token, face: base, layers: wide ? [1, 0] : [1], quarters };
}

// Splits a plain move sequence into moves, or null when it has other notation (the server's
// reading then decides what it means).
export function parseMoves(text) {
  const tokens = text.trim().split(/\s+/).filter((t) => t);
  const moves = tokens.map(parseMove);
  return moves.every((m) => m) ? moves : null;
}

export function inverse(move) {
  return { ...move, name: invertName(move.name), quarters: (4 - move.quarters) % 4 };
}

function invertName(name) {
  if (name.endsWith("2")) return name;
  if (name.endsWith("2'")) return name.slice(0, -1);
  return name.endsWith("'") ? name.slice(0, -1) : name + "'";
}

// Whether the sticker at place `s` turns with `move`.
function turns(s, move) {
  const [axis, sign] = AXIS[move.face];
  return move.layers.includes(s.p[axis] * sign);
}

// The stickers after `move`: colours[i] is where sticker i's colour goes.
export function applyMove(colours, move) {
  const out = colours.slice();
  PLACES.forEach((s, i) => {
    if (!turns(s, move)) return;
    let p = s.p, n = s.n;
    for (let q = 0; q < move.quarters; q++) {
      p = QUARTER[move.face](p);
      n = QUARTER[move.face](n);
    }
    out[INDEX.get(key(p, n))] = colours[i];
  });
  return out;
}

export const SOLVED = [...FACES].flatMap((f) => Array(9).fill(f));

// The drawn cube, in `container`.
export class CubeView {
  constructor(container, onSticker) {
    this.colours = SOLVED.slice();
    this.queue = [];
    this.busy = false;
    this.speed = 180;
    this.view = { x: -28, y: -38 };
    this.scene = document.createElement("div");
    this.scene.className = "scene";
    this.cube = document.createElement("div");
    this.cube.className = "cube3d";
    this.scene.append(this.cube);
    container.append(this.scene);
    this.stickers = PLACES.map((s, i) => {
      const el = document.createElement("div");
      el.className = "sticker";
      el.dataset.index = i;
      el.addEventListener("click", () => onSticker && onSticker(i));
      this.cube.append(el);
      return el;
    });
    this.drag(container);
    this.render();
  }

  // The transform of a sticker: its place, then its face's orientation, then `turn`.
  transform(s, turn) {
    const size = 3.1; // em per cubie
    const [x, y, z] = s.p.map((v, k) => v * size + s.n[k] * size / 2);
    const [nx, ny] = s.n;
    const face = ny ? `rotateX(${ny * 90}deg)` : nx ? `rotateY(${nx * 90}deg)` : s.n[2] < 0 ? "rotateY(180deg)" : "";
    return `${turn} translate3d(${x}em, ${-y}em, ${z}em) ${face}`;
  }

  render() {
    this.cube.style.transform = `rotateX(${this.view.x}deg) rotateY(${this.view.y}deg)`;
    this.stickers.forEach((el, i) => {
      el.style.transition = "none";
      el.style.transform = this.transform(PLACES[i], "rotate3d(1, 0, 0, 0deg)");
      el.style.background = COLOURS[this.colours[i]] || "#444";
      el.title = `${FACES[Math.floor(i / 9)]}${(i % 9) + 1}: ${COLOUR_NAMES[this.colours[i]] || this.colours[i]}`;
    });
  }

  setColours(colours) {
    this.queue = [];
    this.colours = colours.slice();
    this.render();
  }

  facelets() {
    return this.colours.join("");
  }

  // Queues moves; resolves when they have all been played.
  play(moves) {
    return new Promise((resolve) => {
      moves.forEach((m) => this.queue.push(m));
      this.queue.push({ done: resolve });
      if (!this.busy) this.next();
    });
  }

  next() {
    const move = this.queue.shift();
    if (!move) {
      this.busy = false;
      return;
    }
    this.busy = true;
    if (move.done) {
      move.done();
      return this.next();
    }
    if (move.quarters === 0) return this.next();
    const [axis, sign] = AXIS[move.face];
    const vector = [0, 0, 0];
    vector[axis] = 1;
    // CSS's y axis points down: a clockwise quarter of U, looked at from above, is +90deg there.
    const cssSign = axis === 1 ? 1 : -1;
    const angle = -sign * cssSign * 90 * (move.quarters === 3 ? -1 : move.quarters);
    const moving = this.stickers.filter((el, i) => turns(PLACES[i], move));
    const time = this.speed * (move.quarters === 2 ? 1.4 : 1);
    moving.forEach((el) => {
      const i = Number(el.dataset.index);
      el.style.transition = `transform ${time}ms ease-in-out`;
      el.style.transform = this.transform(PLACES[i], `rotate3d(${vector.join(",")}, ${angle}deg)`);
    });
    setTimeout(() => {
      this.colours = applyMove(this.colours, move);
      this.render();
      this.next();
    }, time + 20);
  }

  drag(container) {
    let start = null;
    container.addEventListener("pointerdown", (e) => {
      if (e.target.classList.contains("sticker") && container.classList.contains("painting")) return;
      start = { x: e.clientX, y: e.clientY, view: { ...this.view } };
    });
    window.addEventListener("pointermove", (e) => {
      if (!start) return;
      this.view.y = start.view.y + (e.clientX - start.x) * 0.5;
      this.view.x = Math.max(-89, Math.min(89, start.view.x - (e.clientY - start.y) * 0.5));
      this.cube.style.transform = `rotateX(${this.view.x}deg) rotateY(${this.view.y}deg)`;
    });
    window.addEventListener("pointerup", () => (start = null));
  }

  turnView(dx, dy) {
    this.view.y += dy;
    this.view.x = Math.max(-89, Math.min(89, this.view.x + dx));
    this.cube.style.transform = `rotateX(${this.view.x}deg) rotateY(${this.view.y}deg)`;
  }
}
