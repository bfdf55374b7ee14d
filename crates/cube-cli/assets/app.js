// The cube panel. The page keeps the state it shows as its model (54 facelets, the orientation
// included, model.js); every action (a turn, an algorithm, a scramble, a load, a paint, a step of
// playback) changes the model through `change`, and the view (cube.js) and the net render it.
// Every request to the server carries the state it was made for, and its answer is applied only
// if that is still the state shown; otherwise it is dropped with a note. Solutions are relative
// to the centres (docs/json.md): they are played from the state they were computed for, named as
// turns of the cube as it is held.
import { SOLVED, FACES, COLOURS, COLOUR_NAMES, parseMove, parseMoves, apply, applyAll, inverse, isSolved, asHeld, faceletsOf, describe, moveName } from "/model.js";
import { CubeView } from "/cube.js";
import { api, search, onServerChange, inFlight } from "/api.js";

const $ = (id) => document.getElementById(id);
const METHODS = { cfop: "CFOP", beginner: "beginner's", "two-phase": "two-phase", thistlethwaite: "Thistlethwaite", optimal: "optimal" };
// A setup longer than this many moves goes into the link as facelets.
const MAX_SETUP_MOVES = 200;

// The model: the facelets shown, a counter of changes, and the setup: a move sequence that makes
// the state from solved (for the link), or null when the state came from stickers.
const model = { facelets: SOLVED, version: 0, setup: "", legal: true };
// The moves being played back: from `start` (made by `startSetup`), `at` of them played.
let player = null;
let view;
let paintColour = "U";
let optimalRun = null;

// What a request was made for; `stale(asked)` once the user has left that state.
const snapshot = () => ({ version: model.version, facelets: model.facelets });
const stale = (asked) => asked.version !== model.version;

function say(text, kind = "message") {
  $("message").textContent = kind === "message" ? text : "";
  $("error").textContent = kind === "error" ? text : "";
}

function sayError(e) {
  if (e && e.name === "AbortError") return;
  if (e && e.kind === "gone") return say("Not done: the server is not answering (see above).", "error");
  say(e ? `${e.message || e}` : "", "error");
}

const dropped = (what) => say(`${what} was for the cube as it was before your last change: dropped.`);

const setupText = (moves) => moves.map((m) => m.name).join(" ");
function join(setup, moves) {
  if (setup === null) return null;
  const text = [setup, setupText(moves)].filter((t) => t).join(" ");
  return text.split(" ").length > MAX_SETUP_MOVES ? null : text;
}

// The one way the cube changes. `move` is drawn turning (else the state is shown at once);
// `inPlayer` keeps the playback (a step of it); every other change ends it. What the change
// supersedes goes: the message, a search for the old state, the problems of the old state.
function change(facelets, { move = null, setup = null, inPlayer = false, keepMessage = false } = {}) {
  model.facelets = facelets;
  model.version++;
  model.setup = setup;
  // Unknown until the server's check of this state answers (a solve asked meanwhile goes out:
  // the server refuses a cube that is not one in its own words).
  model.legal = null;
  if (move) view.turn(move, facelets);
  else view.show(facelets);
  const cube = $("cube");
  cube.dataset.facelets = facelets;
  $("cube-description").textContent = describe(facelets);
  if (optimalRun) stopOptimal("The optimal search was for the cube before your last change: stopped.");
  else if (!inPlayer) {
    // An optimal answer stays with its playback, and goes with it.
    $("optimal-status").textContent = "";
    $("optimal-progress").value = 0;
  }
  if (!inPlayer) player = null;
  if (!keepMessage) say("");
  drawNet();
  showPlayer();
  check();
  updateLink();
}

function turnBy(move) {
  const setup = player ? join(player.startSetup, player.moves.slice(0, player.at).map((m) => m.move)) : model.setup;
  change(apply(model.facelets, move), { move, setup: join(setup, [move]) });
}

// ---------------------------------------------------------------- playback

// Loads moves (turns of the cube as held) to play from the state shown; `stages` name them.
function loadPlayer(moves, { stages = null, title = "", autoplay = false } = {}) {
  const base = moves.map((move) => ({ move, stage: 0 }));
  player = {
    start: model.facelets,
    startSetup: model.setup,
    moves: stages ? stages.flatMap((s, i) => s.moves.map((move) => ({ move, stage: i }))) : base,
    stages: stages ? stages.map((s) => s.label) : [title],
    at: 0,
    // The run of Play going on, if any.
    playing: null,
  };
  showPlayer();
  updateLink();
  if (autoplay) play();
}

// Goes to `at` moves played: one step forward or back is drawn turning, a jump at once.
function seek(at) {
  const p = player;
  if (!p) return;
  at = Math.max(0, Math.min(p.moves.length, at));
  if (at === p.at) return;
  let move = null;
  if (at === p.at + 1) move = p.moves[p.at].move;
  if (at === p.at - 1) move = inverse(p.moves[at].move);
  p.at = at;
  const facelets = applyAll(p.start, p.moves.slice(0, at).map((m) => m.move));
  change(facelets, { move, setup: model.setup, inPlayer: true, keepMessage: true });
}

async function play() {
  const p = player;
  if (!p) return;
  if (p.playing) {
    p.playing = null;
    $("cube").removeAttribute("data-playing");
    return showPlayer();
  }
  if (p.at >= p.moves.length) seek(0);
  // This run of Play: a pause and a new Play start another, and this one ends.
  const run = {};
  p.playing = run;
  $("cube").dataset.playing = "";
  showPlayer();
  while (player === p && p.playing === run && p.at < p.moves.length) {
    seek(p.at + 1);
    await view.idle();
    if (view.quarterMs === 0) await new Promise((resolve) => setTimeout(resolve, 30));
  }
  if (p.playing !== run) return;
  p.playing = null;
  $("cube").removeAttribute("data-playing");
  if (player === p) showPlayer();
}

// The stage line, the move list with the move just played highlighted, the controls.
function showPlayer() {
  const p = player;
  const solved = isSolved(model.facelets);
  const has = !!p && p.moves.length > 0;
  ["to-start", "step-back"].forEach((id) => ($(id).disabled = !has || p.at === 0));
  ["to-end", "step-forward"].forEach((id) => ($(id).disabled = !has || p.at >= p.moves.length));
  $("play").disabled = !has;
  $("play").textContent = p && p.playing ? "Pause" : "Play";
  $("scrubber").disabled = !has;
  $("scrubber").max = p ? p.moves.length : 0;
  $("scrubber").value = p ? p.at : 0;
  $("scrubber").setAttribute("aria-valuetext", p ? `${p.at} of ${p.moves.length} moves played` : "no moves");
  const list = $("moves");
  list.textContent = "";
  if (!p) {
    $("stage").textContent = solved ? "Solved" : "";
    return;
  }
  const { moves, stages, at } = p;
  const stage = moves.length === 0 ? 0 : moves[Math.max(0, at - 1)].stage;
  const label = stages[stage] || "";
  // Labels of the beginner's method and Thistlethwaite's already say which stage they are.
  const count = stages.length > 1 && !/\bof \d/.test(label) ? ` \u2014 stage ${stage + 1} of ${stages.length}` : "";
  $("stage").textContent = `${label}${count}: ${at} of ${moves.length} moves${solved ? " (solved)" : ""}`;
  moves.forEach((m, i) => {
    const span = document.createElement("span");
    span.textContent = m.move.name;
    span.dataset.at = i + 1;
    if (i === at - 1) {
      span.className = "current";
      span.setAttribute("aria-current", "step");
    }
    span.addEventListener("click", () => seek(i + 1));
    list.append(span, document.createTextNode(i + 1 < moves.length && moves[i + 1].stage !== m.stage ? " | " : " "));
  });
}

// ---------------------------------------------------------------- actions

// An algorithm typed in the box, played from the state shown. The server reads it first (its
// errors are its own words); plain moves are played as typed, other notation (commutators,
// groups, other formats) as the moves the server makes of it.
async function playAlgorithm(text) {
  if (!text.trim()) return say("Type an algorithm first, such as R U R' U'.", "error");
  const asked = snapshot();
  say("Reading the algorithm\u2026");
  try {
    const net = await api("show", { state: text });
    let moves = parseMoves(text);
    let note = "";
    if (!moves || applyAll(SOLVED, moves) !== net.facelets) {
      const converted = await api("convert", { state: text, to: "alg" });
      moves = parseMoves(converted.output) || [];
      note = `Played as ${converted.output || "no moves (it does nothing)"}.`;
    }
    if (stale(asked)) return dropped("The algorithm");
    say(note);
    loadPlayer(moves, { title: "Algorithm", autoplay: true });
  } catch (e) {
    if (stale(asked)) return;
    sayError(e);
  }
}

async function scramble() {
  const asked = snapshot();
  say("Scrambling\u2026");
  try {
    const record = await api("scramble", { event: $("event").value });
    if (stale(asked)) return dropped("The scramble");
    change(applyAll(SOLVED, parseMoves(record.scramble)), { setup: record.scramble });
    $("scramble-text").textContent = record.scramble;
  } catch (e) {
    if (!stale(asked)) sayError(e);
  }
}

// A state in any format: a legal one as the server reads it, stickers that are not a cube as
// they are (to be fixed by painting).
async function loadState(text) {
  const asked = snapshot();
  if (!text.trim()) return say("Type a state first: 54 facelets, moves or any format the toolkit reads.", "error");
  try {
    const record = await api("check", { state: text });
    let facelets;
    if (record.legal) facelets = (await api("show", { state: text })).facelets;
    else facelets = faceletsOf(text);
    if (stale(asked)) return dropped("The state loaded");
    if (!facelets) {
      const problems = record.problems.map((p) => p.message).join("; ");
      return say(`This state cannot be shown: ${problems} (stickers that are not a cube load, to be fixed by painting; this is not 54 stickers)`, "error");
    }
    // Plain moves stay the setup of the link; anything else is linked by its facelets.
    const moves = record.legal && record.from === "alg" ? parseMoves(text) : null;
    change(facelets, { setup: moves ? join("", moves) : null });
    $("scramble-text").textContent = "";
  } catch (e) {
    if (!stale(asked)) sayError(e);
  }
}

async function solve() {
  if (model.legal === false) return say("This cube cannot be solved: fix the problems listed under the editor first.", "error");
  const asked = snapshot();
  const method = $("method").value;
  say(`Solving with ${METHODS[method]}\u2026`);
  try {
    const record = await api("solve", { state: asked.facelets, method, explain: true });
    if (stale(asked)) return dropped(`The ${METHODS[method]} solution`);
    say("");
    playSolution(record, asked.facelets);
  } catch (e) {
    if (!stale(asked)) sayError(e);
  }
}

// Loads a solution record computed for `facelets` (the state shown): stage by stage, as turns
// of the cube as held.
function playSolution(record, facelets) {
  const title = record.method === "optimal" ? `optimal (${record.length} moves)` : `${METHODS[record.method] || record.method} (${record.length} moves)`;
  const parts = record.stages.filter((s) => s.length > 0);
  const stages = parts.length ? parts : [{ label: title, moves: record.solution }];
  let state = facelets;
  const held = stages.map((s) => {
    const moves = asHeld(state, parseMoves(s.moves) || []);
    state = applyAll(state, moves);
    return { label: s.label, moves };
  });
  loadPlayer([], { stages: held });
  if (record.length === 0 && isSolved(model.facelets)) say("Already solved: no moves to play.");
}

// ---------------------------------------------------------------- optimal

function stopOptimal(note) {
  if (!optimalRun) return;
  optimalRun.abort.abort();
  optimalRun = null;
  $("optimal").disabled = false;
  $("cancel").disabled = true;
  $("optimal-status").textContent = note;
}

// The bar and its words: the lower bound proven against the length found.
function showOptimal(run, words) {
  const found = run.found ?? 20;
  $("optimal-progress").max = found || 1;
  $("optimal-progress").value = Math.min(run.lower, found);
  const limit = `time limit ${run.limit} s`;
  const tier = run.tier ? `tables ${run.tier}` : "the default tables (the cheapest baked)";
  const bound = `at least ${run.lower} moves proven${run.found !== null ? `, ${run.found} found` : ""}`;
  $("optimal-status").textContent = `${words ? `${words} ` : ""}${bound} \u00b7 ${tier} \u00b7 ${limit} \u00b7 ${run.seconds.toFixed(1)} s`;
}

async function optimal() {
  if (model.legal === false) return say("This cube cannot be solved: fix the problems listed under the editor first.", "error");
  const asked = snapshot();
  const run = { abort: new AbortController(), lower: 0, found: null, tier: $("tier").value, limit: Number($("time-limit").value), seconds: 0, baking: null };
  optimalRun = run;
  say("");
  $("optimal").disabled = true;
  $("cancel").disabled = false;
  $("optimal-progress").value = 0;
  $("optimal-status").textContent = "Starting the search\u2026";
  const live = () => optimalRun === run && !stale(asked);
  // The length found so far: two-phase's, in a few milliseconds.
  api("solve", { state: asked.facelets, method: "two-phase" }, run.abort.signal)
    .then((r) => {
      if (live() && (run.found === null || r.length < run.found)) {
        run.found = r.length;
        showOptimal(run, run.baking);
      }
    })
    .catch(() => {});
  // A first use bakes the tables: said, with how far it is.
  firstBake(run, live);
  const body = { state: asked.facelets, timeout: `${run.limit}s` };
  if (run.tier) body.tier = run.tier;
  for (;;) {
    try {
      const record = await search("optimal", body, run.abort.signal, (name, data) => {
        if (!live()) return;
        run.seconds = data.seconds;
        if (name === "progress") {
          run.baking = null;
          if (data.solutions > 0) run.found = data.depth;
          else if (data.exhausted) run.lower = Math.max(run.lower, data.depth + 1);
        }
        showOptimal(run, run.baking || "Searching:");
      });
      if (!live()) return;
      optimalRun = null;
      $("optimal").disabled = false;
      $("cancel").disabled = true;
      run.lower = record.proven_lower_bound;
      run.found = record.length;
      run.tier = record.tier;
      run.seconds = record.seconds;
      const cut = record.serverStopped ? "The server stopped during the search" : "Stopped at the time limit";
      showOptimal(run, record.optimal ? `${record.length} moves, optimal:` : `${cut}, not proven optimal:`);
      playSolution(record, asked.facelets);
      return;
    } catch (e) {
      if (!live()) return;
      if (e.kind === "busy") {
        $("optimal-status").textContent = `Every search slot of the server is busy: trying again in ${e.retryAfter || 5} s (Cancel stops).`;
        await new Promise((resolve) => setTimeout(resolve, (e.retryAfter || 5) * 1000));
        if (!live()) return;
        continue;
      }
      optimalRun = null;
      $("optimal").disabled = false;
      $("cancel").disabled = true;
      $("optimal-status").textContent = e.name === "AbortError" ? "Cancelled." : "";
      sayError(e);
      return;
    }
  }
}

// While the search's tables are not baked, the server bakes them first: the status says so, with
// the share of the tables written, polled from the table listing.
async function firstBake(run, live) {
  let tables;
  try {
    tables = await api("tables");
  } catch {
    return;
  }
  const wanted = run.tier ? tables.tiers.filter((t) => t.tier === run.tier) : tables.tiers;
  if (wanted.some((t) => t.ready) || !live()) return;
  const tier = run.tier || "6edge";
  const total = (tables.tiers.find((t) => t.tier === tier) || {}).bytes || 1;
  const before = new Set(tables.tables.filter((t) => t.ok).map((t) => t.id));
  while (live() && run.lower === 0) {
    const done = tables.tables.filter((t) => t.ok && !before.has(t.id)).reduce((sum, t) => sum + t.expected_bytes, 0);
    run.baking = `First use: baking the ${tier} tables (once), ${Math.min(99, Math.round((100 * done) / total))} % written.`;
    showOptimal(run, run.baking);
    await new Promise((resolve) => setTimeout(resolve, 700));
    try {
      tables = await api("tables");
    } catch {
      return;
    }
    if (tables.tiers.some((t) => t.tier === tier && t.ready)) break;
  }
  run.baking = null;
}

// The tiers baked, for the tables menu.
async function listTiers() {
  try {
    const tables = await api("tables");
    const select = $("tier");
    tables.tiers.filter((t) => t.ready).forEach((t) => {
      const option = document.createElement("option");
      option.value = t.tier;
      option.textContent = t.tier;
      select.append(option);
    });
  } catch {
    // The menu keeps its default.
  }
}

// ---------------------------------------------------------------- legality and the editor

// The problems `check` finds in the state shown, in words; Solve and Optimal need a legal cube.
async function check() {
  const asked = snapshot();
  const box = $("problems");
  try {
    const record = await api("check", { state: asked.facelets });
    if (stale(asked)) return;
    model.legal = record.legal;
    box.textContent = "";
    if (record.legal) {
      const p = document.createElement("p");
      p.className = "legal";
      p.textContent = "The cube shown is legal: it can be solved.";
      box.append(p);
    } else {
      const lead = document.createElement("p");
      lead.textContent = "The cube shown is not one that turns can make:";
      const list = document.createElement("ul");
      record.problems.forEach((problem) => {
        const li = document.createElement("li");
        li.textContent = problem.message;
        li.dataset.rule = problem.rule;
        list.append(li);
      });
      box.append(lead, list);
    }
  } catch (e) {
    if (!stale(asked)) box.textContent = e.kind === "gone" ? "" : e.message;
  }
}

function paint(index) {
  if (!$("paint").checked) return;
  const colours = [...model.facelets];
  colours[index] = paintColour;
  change(colours.join(""), { setup: null });
  $("scramble-text").textContent = "";
}

// The net: one button per sticker, U on top, then L F R B, then D.
const NET = { U: [1, 0], L: [0, 1], F: [1, 1], R: [2, 1], B: [3, 1], D: [1, 2] };
function drawNet() {
  const net = $("net");
  if (!net.children.length) {
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
        cell.addEventListener("click", () => paint(index));
        net.append(cell);
      }
    }
  }
  for (const cell of net.children) {
    const index = Number(cell.dataset.index);
    const colour = model.facelets[index];
    cell.style.background = COLOURS[colour] || "#777";
    cell.setAttribute("aria-label", `${FACES[Math.floor(index / 9)]}${(index % 9) + 1}: ${COLOUR_NAMES[colour] || colour}`);
    cell.tabIndex = $("paint").checked ? 0 : -1;
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

// ---------------------------------------------------------------- the link

// The address holds the state and the algorithm with twizzle.net's names: `setup` (the cube
// shown is the setup's state; moves, or the 54 facelets when it came from stickers) and `alg`
// (the moves ready to play from it).
function updateLink() {
  const params = new URLSearchParams();
  const setup = player ? player.startSetup : model.setup;
  const text = setup === null ? (player ? player.start : model.facelets) : setup;
  if (text) params.set("setup", text);
  if (player && player.moves.length) params.set("alg", player.moves.map((m) => m.move.name).join(" "));
  const query = params.toString();
  const url = `${location.pathname}${query ? `?${query}` : ""}${location.hash}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, "", url);
}

// The state and algorithm of the address (ours, or alg.cubing.net's `_` and `-`).
async function openLink() {
  const params = new URLSearchParams(location.search);
  const read = (name) => {
    const value = params.get(name);
    return value && !/\s/.test(value) && /[_-]/.test(value) ? value.replace(/_/g, " ").replace(/-/g, "'") : value;
  };
  const setup = read("setup") ?? read("setup-alg");
  const alg = read("alg");
  if (setup) {
    const moves = parseMoves(setup);
    if (moves) change(applyAll(SOLVED, moves), { setup: setupText(moves) });
    else if (/^[URFDLB]{54}$/.test(setup)) change(setup, { setup: null });
    else await loadState(setup);
  }
  if (alg) {
    $("alg").value = alg;
    const moves = parseMoves(alg);
    if (moves) loadPlayer(moves, { title: "Algorithm" });
    else await playAlgorithm(alg);
  }
}

async function copyLink() {
  try {
    await navigator.clipboard.writeText(location.href);
    $("link-note").textContent = "Copied.";
  } catch {
    $("link-note").textContent = `Copy it from the address bar.`;
  }
}

// ---------------------------------------------------------------- keys and wiring

const modifiers = { prime: false, wide: false };
function setModifier(name, on) {
  modifiers[name] = on;
  $(name).setAttribute("aria-pressed", String(on));
}

// The move of a key or button: a face, slice or rotation letter, the inverse with Shift (or the
// ' button), a wide turn after W (or the w button).
function keyMove(letter, shift) {
  const face = letter.toUpperCase();
  let token = "URFDLB".includes(face) ? face : "MES".includes(face) ? face : "XYZ".includes(face) ? face.toLowerCase() : null;
  if (!token) return null;
  if (modifiers.wide && "URFDLB".includes(token)) token += "w";
  const move = parseMove(token);
  const prime = shift !== modifiers.prime;
  setModifier("wide", false);
  setModifier("prime", false);
  return prime ? inverse(move) : { ...move, name: moveName(move.face, move.layers, move.quarters) };
}

function keys(e) {
  if (e.target.matches("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  if ($("cube-panel").hidden) return;
  const key = e.key;
  if (key.length === 1 && /[a-z]/i.test(key)) {
    if (key.toLowerCase() === "w") {
      e.preventDefault();
      return setModifier("wide", !modifiers.wide);
    }
    const move = keyMove(key, e.shiftKey);
    if (move) {
      e.preventDefault();
      turnBy(move);
    }
    return;
  }
  const actions = {
    ArrowLeft: () => view.turnView(0, -15),
    ArrowRight: () => view.turnView(0, 15),
    ArrowUp: () => view.turnView(-15, 0),
    ArrowDown: () => view.turnView(15, 0),
    ",": () => player && seek(player.at - 1),
    "/": () => player && seek(player.at + 1),
    ".": () => play(),
    Home: () => player && seek(0),
    End: () => player && seek(player.moves.length),
  };
  if (actions[key]) {
    e.preventDefault();
    actions[key]();
  }
}

// The panels other than the cube's are modules of their own, loaded when first opened (the
// page's first paint needs only the cube's).
const PANELS = {
  "timer-panel": () => import("/timer.js").then((m) => m.startTimer()),
  "fmc-panel": () =>
    import("/fmc.js").then((m) =>
      m.startFmc({
        // The FMC panel's solution, played on this cube from its scramble.
        play(scrambleText, solution) {
          const moves = parseMoves(solution) || [];
          change(applyAll(SOLVED, parseMoves(scrambleText)), { setup: scrambleText });
          $("scramble-text").textContent = scrambleText;
          loadPlayer(moves, { title: `FMC solution (${moves.length} moves)` });
          document.querySelector('nav [data-panel="cube-panel"]').click();
        },
      }),
    ),
};
const loaded = {};

function panels() {
  const buttons = document.querySelectorAll("nav button");
  const open = (id) => {
    buttons.forEach((x) => {
      x.setAttribute("aria-pressed", String(x.dataset.panel === id));
      $(x.dataset.panel).hidden = x.dataset.panel !== id;
    });
    if (PANELS[id] && !loaded[id]) {
      loaded[id] = inFlight(PANELS[id]()).catch(() => {
        loaded[id] = null;
        $(id).querySelector("[role=status]").textContent = "This panel could not be loaded: the server is not answering. Start it again (cube-cli serve) and open the panel again.";
      });
    }
  };
  buttons.forEach((b) =>
    b.addEventListener("click", () => {
      open(b.dataset.panel);
      history.replaceState(null, "", `${location.pathname}${location.search}${b.dataset.panel === "cube-panel" ? "" : `#${b.dataset.panel.replace("-panel", "")}`}`);
    }),
  );
  const hash = location.hash.slice(1);
  if (hash && $(`${hash}-panel`)) open(`${hash}-panel`);
}

function init() {
  view = new CubeView($("cube"), { onTurn: turnBy, onSticker: paint });
  $("cube").dataset.facelets = model.facelets;
  $("cube-description").textContent = describe(model.facelets);
  palette();
  drawNet();
  panels();
  $("paint").addEventListener("change", () => {
    $("cube").classList.toggle("painting", $("paint").checked);
    drawNet();
  });
  document.querySelectorAll("[data-turn]").forEach((b) =>
    b.addEventListener("click", () => turnBy(keyMove(b.dataset.turn, false))),
  );
  $("prime").addEventListener("click", () => setModifier("prime", !modifiers.prime));
  $("wide").addEventListener("click", () => setModifier("wide", !modifiers.wide));
  $("alg-form").addEventListener("submit", (e) => {
    e.preventDefault();
    playAlgorithm($("alg").value);
  });
  $("state-form").addEventListener("submit", (e) => {
    e.preventDefault();
    loadState($("state").value);
  });
  $("scramble").addEventListener("click", scramble);
  $("reset").addEventListener("click", () => {
    change(SOLVED, { setup: "" });
    $("scramble-text").textContent = "";
  });
  $("solve").addEventListener("click", solve);
  $("optimal").addEventListener("click", optimal);
  $("cancel").addEventListener("click", () => stopOptimal("Cancelled."));
  $("step-forward").addEventListener("click", () => player && seek(player.at + 1));
  $("step-back").addEventListener("click", () => player && seek(player.at - 1));
  $("to-start").addEventListener("click", () => player && seek(0));
  $("to-end").addEventListener("click", () => player && seek(player.moves.length));
  $("play").addEventListener("click", play);
  $("scrubber").addEventListener("input", () => player && seek(Number($("scrubber").value)));
  $("speed").addEventListener("change", () => (view.quarterMs = Number($("speed").value)));
  view.quarterMs = Number($("speed").value);
  $("copy-link").addEventListener("click", copyLink);
  document.addEventListener("keydown", keys);
  onServerChange((gone) => {
    if (gone && optimalRun) stopOptimal("Stopped: the server is not answering.");
    if (!gone) check();
  });
  showPlayer();
  listTiers();
  check();
  openLink();
}

init();
