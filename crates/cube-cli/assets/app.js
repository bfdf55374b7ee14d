// The page: the cube, the algorithm box, scrambles, solutions played back by stage, the optimal
// search with its progress, and the sticker editor. Every state, move sequence and solution is
// read and made by the server's API (docs/api.md); this file draws and plays.
import { CubeView, COLOURS, COLOUR_NAMES, FACES, SOLVED, parseMoves, inverse } from "/cube.js";
import { startTimer } from "/timer.js";

const $ = (id) => document.getElementById(id);
let cube;
let playback = null; // { moves: [{move, stage}], stages: [...], at, playing }
let paintColour = "U";
let optimalAbort = null;

// POSTs `body` to the API; returns the record, or throws an Error with the error record's message.
export async function api(path, body) {
  const response = await fetch(`/api/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const record = JSON.parse((await response.text()).split("\n")[0]);
  if (record.type === "error") throw new Error(record.error.message);
  return record;
}

function showError(e) {
  $("error").textContent = e ? `${e.message || e}` : "";
}

// The colours of a state in any format, as the server reads it.
async function coloursOf(state) {
  const net = await api("show", { state });
  return [...net.facelets];
}

function stopPlayback() {
  if (playback) playback.playing = false;
  playback = null;
  $("stage").textContent = "";
  $("moves").textContent = "";
  updateButtons();
}

function setColours(colours) {
  stopPlayback();
  cube.setColours(colours);
  drawNet();
  check();
}

async function turn(text) {
  const moves = parseMoves(text);
  if (!moves) return;
  stopPlayback();
  await cube.play(moves);
  drawNet();
  check();
}

// The algorithm box: the server reads it (an error is its message); plain turns are animated
// from the current state, other notation (commutators, groups) is played as the moves of its
// two-phase solution, inverted.
async function playAlgorithm(text) {
  showError();
  try {
    await api("show", { state: text });
    let moves = parseMoves(text);
    if (!moves) {
      const solution = await api("solve", { state: text, method: "two-phase" });
      moves = parseMoves(solution.solution).reverse().map(inverse);
      $("moves").textContent = `played as ${moves.map((m) => m.name).join(" ")}`;
    }
    stopPlayback();
    await cube.play(moves);
    drawNet();
    check();
  } catch (e) {
    showError(e);
  }
}

async function scramble() {
  showError();
  try {
    const record = await api("scramble", { event: $("event").value });
    $("scramble-text").textContent = record.scramble;
    setColours(await coloursOf(record.scramble));
  } catch (e) {
    showError(e);
  }
}

// Plays back a solution record: its stages (or the whole solution as one).
function load(record) {
  const stages = record.stages.length
    ? record.stages
    : [{ label: record.method === "optimal" ? `optimal (${record.length} moves)` : record.method, moves: record.solution }];
  const moves = [];
  stages.forEach((stage, s) => (parseMoves(stage.moves) || []).forEach((move) => moves.push({ move, stage: s })));
  playback = { stages, moves, at: 0, playing: false, start: cube.colours.slice() };
  showPlayback();
}

function showPlayback() {
  if (!playback) return updateButtons();
  const { stages, moves, at } = playback;
  const current = moves[Math.min(at, moves.length - 1)];
  const s = at >= moves.length ? stages.length - 1 : current ? current.stage : 0;
  const done = at >= moves.length;
  $("stage").textContent = moves.length === 0
    ? "Already solved"
    : `${stages[s].label} \u2014 stage ${s + 1} of ${stages.length}${done ? " (solved)" : ""}`;
  const list = $("moves");
  list.textContent = "";
  moves.forEach((m, i) => {
    const span = document.createElement("span");
    span.textContent = m.move.name;
    if (i === at) span.className = "current";
    list.append(span, document.createTextNode(i + 1 < moves.length && moves[i + 1].stage !== m.stage ? " | " : " "));
  });
  updateButtons();
}

function updateButtons() {
  const has = playback && playback.moves.length > 0;
  $("step-back").disabled = !has || playback.at === 0;
  $("step-forward").disabled = !has || playback.at >= playback.moves.length;
  $("play").disabled = !has;
  $("play").textContent = playback && playback.playing ? "Pause" : "Play";
}

async function step(delta) {
  if (!playback) return;
  // A step asked for while the cube turns comes after the turn.
  if (cube.busy) await cube.play([]);
  const p = playback;
  if (!p) return;
  if (delta > 0 && p.at < p.moves.length) {
    const move = p.moves[p.at].move;
    p.at++;
    showPlayback();
    await cube.play([move]);
  } else if (delta < 0 && p.at > 0) {
    p.at--;
    showPlayback();
    await cube.play([inverse(p.moves[p.at].move)]);
  }
  drawNet();
}

async function play() {
  if (!playback) return;
  playback.playing = !playback.playing;
  updateButtons();
  while (playback && playback.playing && playback.at < playback.moves.length) await step(1);
  if (playback) {
    playback.playing = false;
    showPlayback();
  }
}

async function solve() {
  showError();
  try {
    const record = await api("solve", { state: cube.facelets(), method: $("method").value, explain: true });
    load(record);
  } catch (e) {
    showError(e);
  }
}

// The optimal search: progress events as they come, cancelled by the button (closing the
// request cancels the search on the server).
async function optimal() {
  showError();
  optimalAbort = new AbortController();
  $("cancel").disabled = false;
  $("optimal").disabled = true;
  $("optimal-progress").value = 0;
  $("optimal-status").textContent = "searching\u2026";
  try {
    const response = await fetch("/api/optimal", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({ state: cube.facelets() }),
      signal: optimalAbort.signal,
    });
    if (!(response.headers.get("Content-Type") || "").startsWith("text/event-stream")) {
      const record = JSON.parse((await response.text()).split("\n")[0]);
      throw new Error(record.error ? record.error.message : "unexpected answer");
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let depth = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(event)?.[1];
        const data = JSON.parse(/^data: (.*)$/m.exec(event)?.[1] || "null");
        if (name === "progress") {
          depth = `depth ${data.depth} searched: ${(data.total_nodes / 1e6).toFixed(2)} M nodes, ${(data.nodes_per_second / 1e6).toFixed(2)} M nodes/s`;
          $("optimal-progress").value = data.depth;
          $("optimal-status").textContent = `${depth}, ${data.seconds.toFixed(1)} s`;
        } else if (name === "tick") {
          $("optimal-status").textContent = `${depth || "loading the tables"}${depth ? "," : ":"} ${data.seconds.toFixed(1)} s`;
        } else if (name === "result") {
          if (data.type === "error") throw new Error(data.error.message);
          $("optimal-progress").value = data.length;
          $("optimal-status").textContent = `${data.length} moves${data.optimal ? ", optimal" : ", not proven optimal"} (${data.seconds.toFixed(2)} s, ${data.nodes} nodes)`;
          load(data);
        }
      }
    }
  } catch (e) {
    if (e.name === "AbortError") $("optimal-status").textContent = "cancelled";
    else showError(e);
  } finally {
    optimalAbort = null;
    $("cancel").disabled = true;
    $("optimal").disabled = false;
  }
}

// The problems `check` finds in the painted cube, in words.
async function check() {
  const box = $("problems");
  try {
    const record = await api("check", { state: cube.facelets() });
    box.textContent = "";
    if (record.legal) {
      const p = document.createElement("p");
      p.className = "legal";
      p.textContent = "A legal cube: it can be solved.";
      box.append(p);
    } else {
      const list = document.createElement("ul");
      record.problems.forEach((problem) => {
        const li = document.createElement("li");
        li.textContent = problem.message;
        li.dataset.rule = problem.rule;
        list.append(li);
      });
      box.append(list);
    }
  } catch (e) {
    box.textContent = e.message;
  }
}

function paint(index) {
  if (!$("paint").checked || index % 9 === 4) return;
  const colours = cube.colours.slice();
  colours[index] = paintColour;
  setColours(colours);
}

// The net: one button per sticker, U on top, then L F R B, then D.
const NET = { U: [1, 0], L: [0, 1], F: [1, 1], R: [2, 1], B: [3, 1], D: [1, 2] };
function drawNet() {
  const net = $("net");
  net.textContent = "";
  for (const face of FACES) {
    const [col, row] = NET[face];
    for (let i = 0; i < 9; i++) {
      const index = FACES.indexOf(face) * 9 + i;
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.dataset.index = index;
      cell.style.gridColumn = col * 3 + (i % 3) + 1;
      cell.style.gridRow = row * 3 + Math.floor(i / 3) + 1;
      cell.style.background = COLOURS[cube.colours[index]];
      cell.setAttribute("aria-label", `${face}${i + 1}: ${COLOUR_NAMES[cube.colours[index]]}`);
      cell.tabIndex = $("paint").checked ? 0 : -1;
      cell.addEventListener("click", () => paint(index));
      net.append(cell);
    }
  }
}

function palette() {
  const box = $("palette");
  for (const face of FACES) {
    const b = document.createElement("button");
    b.type = "button";
    b.style.background = COLOURS[face];
    b.setAttribute("role", "radio");
    b.setAttribute("aria-label", COLOUR_NAMES[face]);
    b.setAttribute("aria-checked", String(face === paintColour));
    b.dataset.colour = face;
    b.addEventListener("click", () => {
      paintColour = face;
      box.querySelectorAll("button").forEach((x) => x.setAttribute("aria-checked", String(x === b)));
    });
    box.append(b);
  }
}

function keys(e) {
  if (e.target.matches("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  if ($("solve-panel").hidden) return;
  const face = e.key.toUpperCase();
  if (FACES.includes(face) && e.key.length === 1) {
    e.preventDefault();
    turn(e.shiftKey ? `${face}'` : face);
  } else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    e.preventDefault();
    cube.turnView(0, e.key === "ArrowLeft" ? -15 : 15);
  } else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
    e.preventDefault();
    cube.turnView(e.key === "ArrowUp" ? -15 : 15, 0);
  } else if (e.key === ",") step(-1);
  else if (e.key === "/") step(1);
  else if (e.key === ".") play();
}

function panels() {
  document.querySelectorAll("nav button").forEach((b) =>
    b.addEventListener("click", () => {
      document.querySelectorAll("nav button").forEach((x) => {
        x.setAttribute("aria-pressed", String(x === b));
        $(x.dataset.panel).hidden = x !== b;
      });
    }),
  );
}

function init() {
  cube = new CubeView($("cube"), paint);
  palette();
  drawNet();
  panels();
  $("paint").addEventListener("change", () => {
    $("cube").classList.toggle("painting", $("paint").checked);
    drawNet();
  });
  document.querySelectorAll("[data-move]").forEach((b) => b.addEventListener("click", () => turn(b.dataset.move)));
  $("alg-form").addEventListener("submit", (e) => {
    e.preventDefault();
    playAlgorithm($("alg").value);
  });
  $("state-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    showError();
    try {
      setColours(await coloursOf($("state").value));
    } catch (err) {
      showError(err);
    }
  });
  $("scramble").addEventListener("click", scramble);
  $("reset").addEventListener("click", () => setColours(SOLVED));
  $("solve").addEventListener("click", solve);
  $("step-forward").addEventListener("click", () => step(1));
  $("step-back").addEventListener("click", () => step(-1));
  $("play").addEventListener("click", play);
  $("optimal").addEventListener("click", optimal);
  $("cancel").addEventListener("click", () => optimalAbort && optimalAbort.abort());
  document.addEventListener("keydown", keys);
  startTimer(api);
  check();
}

init();
