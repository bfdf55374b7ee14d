// The cube on screen: 26 solid cubies drawn with CSS 3D transforms, each a dark box with a
// sticker on its outer faces. It renders the facelets it is given and animates the moves it is
// handed; it decides nothing: a drag across a sticker or a click on one is reported to the page
// (`onTurn`, `onSticker`), which changes its model and hands the move back to be drawn.
import { PLACES, COLOURS, COLOUR_NAMES, SOLVED, AXIS, turns, turnAbout } from "/model.js";

// The six faces of a cubie box: the outward normal (x right, y up, z front) and its CSS.
const SIDES = [
  [[1, 0, 0], "rotateY(90deg)"],
  [[-1, 0, 0], "rotateY(-90deg)"],
  [[0, 1, 0], "rotateX(90deg)"],
  [[0, -1, 0], "rotateX(-90deg)"],
  [[0, 0, 1], ""],
  [[0, 0, -1], "rotateY(180deg)"],
];
const SIZE = "var(--cubie)";
// A drag shorter than this (in pixels) is a click.
const DRAG = 10;

// The CSS of a vector: its y axis points down.
const css = ([x, y, z]) => [x, -y, z];
const rest = (p) => `translate3d(calc(${p[0]} * ${SIZE}), calc(${-p[1]} * ${SIZE}), calc(${p[2]} * ${SIZE}))`;

export class CubeView {
  constructor(container, { onTurn, onSticker }) {
    this.container = container;
    this.onTurn = onTurn;
    this.onSticker = onSticker;
    this.queue = [];
    this.generation = 0;
    this.running = false;
    this.idleWaiters = [];
    this.quarterMs = 180;
    this.view = { x: -26, y: -36 };
    const scene = document.createElement("div");
    scene.className = "scene";
    this.body = document.createElement("div");
    this.body.className = "cube3d";
    scene.append(this.body);
    container.append(scene);
    this.stickers = [];
    this.cubies = [];
    for (let x = -1; x <= 1; x++)
      for (let y = -1; y <= 1; y++)
        for (let z = -1; z <= 1; z++) {
          if (!x && !y && !z) continue;
          const p = [x, y, z];
          const cubie = document.createElement("div");
          cubie.className = "cubie";
          cubie.style.transform = rest(p);
          for (const [n, turn] of SIDES) {
            const side = document.createElement("div");
            side.className = "side";
            side.style.transform = `${turn} translateZ(calc(${SIZE} / 2))`;
            const index = PLACES.findIndex((s) => `${s.p}` === `${p}` && `${s.n}` === `${n}`);
            if (index >= 0) {
              const sticker = document.createElement("div");
              sticker.className = "sticker";
              sticker.dataset.index = index;
              side.append(sticker);
              this.stickers[index] = sticker;
            }
            cubie.append(side);
          }
          this.body.append(cubie);
          this.cubies.push({ p, el: cubie });
        }
    this.pointer(container);
    this.render(SOLVED);
    this.look();
  }

  render(facelets) {
    this.shown = facelets;
    this.stickers.forEach((el, i) => {
      el.style.background = COLOURS[facelets[i]] || "#777";
      el.title = COLOUR_NAMES[facelets[i]] || facelets[i];
    });
  }

  // Shows `facelets` at once: moves waiting to be drawn are dropped.
  show(facelets) {
    this.generation++;
    this.queue = [];
    (this.animations || []).forEach((a) => a.cancel());
    this.render(facelets);
    this.settle();
  }

  // Draws `move`, after which the cube shows `after`.
  turn(move, after) {
    this.queue.push({ move, after });
    if (!this.running) this.next();
  }

  // Resolves when every move handed over has been drawn.
  idle() {
    return this.running ? new Promise((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  settle() {
    this.running = false;
    this.container.removeAttribute("data-turning");
    this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }

  async next() {
    const item = this.queue.shift();
    if (!item) return this.settle();
    this.running = true;
    this.container.dataset.turning = "";
    const { move, after } = item;
    // Moves waiting make this one quicker, so the drawing never lags far behind.
    const ms = (this.quarterMs * (move.quarters === 2 ? 1.5 : 1)) / (1 + this.queue.length);
    if (move.quarters === 0 || ms < 20 || matchMedia("(prefers-reduced-motion: reduce)").matches) {
      this.render(after);
      return this.next();
    }
    const [axis, sign] = AXIS[move.face];
    const vector = [0, 0, 0];
    vector[axis] = sign;
    const [vx, vy, vz] = css(vector);
    // Clockwise seen from the face is -90 degrees about its normal; CSS's mirrored y axis
    // flips the angle.
    const angle = 90 * (move.quarters === 3 ? -1 : move.quarters);
    const generation = this.generation;
    this.animations = this.cubies
      .filter((c) => turns(c.p, move))
      .map((c) =>
        c.el.animate(
          [
            { transform: `rotate3d(${vx}, ${vy}, ${vz}, 0deg) ${rest(c.p)}` },
            { transform: `rotate3d(${vx}, ${vy}, ${vz}, ${angle}deg) ${rest(c.p)}` },
          ],
          { duration: ms, easing: "ease-in-out", fill: "forwards" },
        ),
      );
    try {
      await Promise.all(this.animations.map((a) => a.finished));
    } catch {
      return; // cancelled by show()
    }
    if (generation !== this.generation) return;
    this.render(after);
    this.animations.forEach((a) => a.cancel());
    this.animations = [];
    this.next();
  }

  look() {
    this.body.style.transform = `rotateX(${this.view.x}deg) rotateY(${this.view.y}deg)`;
  }

  turnView(dx, dy) {
    this.view.x = Math.max(-89, Math.min(89, this.view.x + dx));
    this.view.y += dy;
    this.look();
  }

  // Where a model direction points on screen (the perspective left out).
  onScreen(v) {
    const m = new DOMMatrix().rotateSelf(this.view.x, 0, 0).rotateSelf(0, this.view.y, 0);
    const q = m.transformPoint(new DOMPoint(...css(v)));
    return [q.x, q.y];
  }

  // The move a drag `d` (screen pixels) across sticker `index` asks for: the sticker moves
  // along the direction of its face that the drag follows most closely, which turns the layer
  // through it about the axis perpendicular to both.
  dragged(index, d) {
    const { p, n } = PLACES[index];
    let best = null;
    for (let j = 0; j < 3; j++) {
      if (n[j]) continue;
      const t = [0, 0, 0];
      t[j] = 1;
      const [sx, sy] = this.onScreen(t);
      const along = (d[0] * sx + d[1] * sy) / Math.hypot(sx, sy);
      if (!best || Math.abs(along) > Math.abs(best.along)) best = { t, along };
    }
    const t = best.t.map((v) => v * Math.sign(best.along));
    const a = [n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0]];
    const axis = a.findIndex((v) => v);
    const sign = a[axis];
    return turnAbout(axis, sign, p[axis] * sign);
  }

  pointer(container) {
    let start = null;
    container.addEventListener("pointerdown", (e) => {
      if (e.button) return;
      const index = e.target.dataset.index;
      start = { x: e.clientX, y: e.clientY, view: { ...this.view }, index: index === undefined ? null : Number(index), done: false };
      container.setPointerCapture(e.pointerId);
    });
    container.addEventListener("pointermove", (e) => {
      if (!start || start.done) return;
      const d = [e.clientX - start.x, e.clientY - start.y];
      if (start.index !== null && !container.classList.contains("painting")) {
        if (Math.hypot(...d) < DRAG) return;
        start.done = true;
        this.onTurn(this.dragged(start.index, d));
        return;
      }
      start.moved = start.moved || Math.hypot(...d) >= DRAG;
      this.view.y = start.view.y + d[0] * 0.5;
      this.view.x = Math.max(-89, Math.min(89, start.view.x - d[1] * 0.5));
      this.look();
    });
    const end = () => {
      if (start && !start.done && !start.moved && start.index !== null) this.onSticker(start.index);
      start = null;
    };
    container.addEventListener("pointerup", end);
    container.addEventListener("pointercancel", () => (start = null));
  }
}
