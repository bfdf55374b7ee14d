// The timer, as csTimer users expect it: hold Space (or touch) 0.3 s until the time turns green,
// release to start, any key stops; WCA inspection (15 s, calls at 8 s and 12 s, +2 after 15 s,
// DNF after 17 s, Esc cancels); +2, DNF or delete on any solve; named sessions kept in this
// browser; best single, mo3, ao5, ao12, ao100 with their bests and the mean; CSV and csTimer
// export and import. Statistics follow csTimer: an average of n drops the ceil(5 % of n) best and
// worst (one each for ao5 and ao12, five for ao100), a DNF counts as the worst, and an average
// with more DNFs than it drops is a DNF. Times are kept in milliseconds; a single is shown cut to
// hundredths, an average rounded to them (WCA's rules).
import { api } from "/api.js";

const $ = (id) => document.getElementById(id);
const STORE = "cube-cli-timer";
// The store of earlier versions of this page: one list of solves, taken over as a session.
const OLD_STORE = "cube-cli-solves";
const HOLD_MS = 300;
const DNF = -1;

let data; // { sessions: [{ name, solves: [{ ms, penalty, scramble, date }] }], current }
let phase = "idle"; // idle, inspecting, running
let hold = null; // { since, ready }: Space or a touch held
let ignoreRelease = false;
let started = 0;
let inspectionStart = 0;
let calls = new Set();
let frame = 0;

// ---------------------------------------------------------------- statistics

// A solve's time as it counts: with its +2, Infinity for a DNF.
const counted = (s) => (s.penalty === DNF ? Infinity : s.ms + s.penalty);

// csTimer's average of `times` (all of one window): the ceil(5 %) best and worst dropped.
function trimmedMean(times) {
  const trim = Math.ceil(times.length / 20);
  const kept = [...times].sort((a, b) => a - b).slice(trim, times.length - trim);
  return kept.includes(Infinity) ? Infinity : kept.reduce((a, b) => a + b, 0) / kept.length;
}

const meanOf = (times) => (times.includes(Infinity) ? Infinity : times.reduce((a, b) => a + b, 0) / times.length);

// The statistics of a session: for each kind, the last window and the best window (null when
// there are fewer solves), and the mean of the solves that are not DNF.
function statistics(solves) {
  const times = solves.map(counted);
  const kinds = [
    ["single", 1, (w) => w[0]],
    ["mo3", 3, meanOf],
    ["ao5", 5, trimmedMean],
    ["ao12", 12, trimmedMean],
    ["ao100", 100, trimmedMean],
  ];
  const stats = {};
  for (const [name, n, of] of kinds) {
    if (times.length < n) {
      stats[name] = { current: null, best: null };
      continue;
    }
    let best = Infinity;
    for (let end = n; end <= times.length; end++) best = Math.min(best, of(times.slice(end - n, end)));
    stats[name] = { current: of(times.slice(-n)), best };
  }
  const finished = times.filter((t) => t !== Infinity);
  stats.mean = finished.length ? finished.reduce((a, b) => a + b, 0) / finished.length : null;
  stats.finished = finished.length;
  return stats;
}

function clock(hundredths) {
  const minutes = Math.floor(hundredths / 6000);
  const seconds = ((hundredths % 6000) / 100).toFixed(2);
  return minutes ? `${minutes}:${seconds.padStart(5, "0")}` : seconds;
}
const single = (ms) => (ms === null ? "-" : ms === Infinity ? "DNF" : clock(Math.floor(ms / 10)));
const averaged = (ms) => (ms === null ? "-" : ms === Infinity ? "DNF" : clock(Math.round(ms / 10)));

// ---------------------------------------------------------------- storage

function load() {
  try {
    data = JSON.parse(localStorage.getItem(STORE));
  } catch {
    data = null;
  }
  if (!data || !Array.isArray(data.sessions) || !data.sessions.length) {
    data = { sessions: [{ name: "Session 1", solves: [] }], current: 0 };
    try {
      const old = JSON.parse(localStorage.getItem(OLD_STORE)) || [];
      data.sessions[0].solves = old.map((s) => ({
        ms: Math.round(s.seconds * 1000),
        penalty: s.penalty === "DNF" ? DNF : s.penalty === "+2" ? 2000 : 0,
        scramble: s.scramble || "",
        date: s.date || new Date().toISOString(),
      }));
    } catch {
      // Nothing to take over.
    }
  }
  data.current = Math.min(Math.max(0, data.current | 0), data.sessions.length - 1);
}

function save() {
  localStorage.setItem(STORE, JSON.stringify(data));
}

const session = () => data.sessions[data.current];

// ---------------------------------------------------------------- drawing

function row(name, stat, format) {
  const tr = document.createElement("tr");
  const th = document.createElement("th");
  th.scope = "row";
  th.textContent = name;
  tr.append(th);
  for (const value of [stat.current, stat.best]) {
    const td = document.createElement("td");
    td.textContent = format(value);
    tr.append(td);
  }
  tr.dataset.stat = name;
  return tr;
}

function draw() {
  const select = $("session");
  select.textContent = "";
  data.sessions.forEach((s, i) => {
    const option = document.createElement("option");
    option.value = i;
    option.textContent = `${s.name} (${s.solves.length})`;
    select.append(option);
  });
  select.value = data.current;
  const solves = session().solves;
  const stats = statistics(solves);
  const body = $("stats").tBodies[0];
  body.textContent = "";
  body.append(row("single", stats.single, single));
  for (const name of ["mo3", "ao5", "ao12", "ao100"]) body.append(row(name, stats[name], averaged));
  $("mean").textContent = `mean ${averaged(stats.mean)} (${stats.finished}/${solves.length} solves finished)`;
  const list = $("solves");
  list.textContent = "";
  solves.forEach((s, i) => list.prepend(solveItem(s, i)));
  $("last-solve").hidden = solves.length === 0;
}

function solveItem(s, i) {
  const li = document.createElement("li");
  li.dataset.index = i;
  const time = document.createElement("span");
  time.className = "time";
  time.textContent = s.penalty === DNF ? `DNF (${single(s.ms)})` : `${single(counted(s))}${s.penalty ? " (+2)" : ""}`;
  time.title = s.scramble;
  li.append(time);
  for (const [label, penalty] of [["+2", 2000], ["DNF", DNF]]) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.setAttribute("aria-pressed", String(s.penalty === penalty));
    b.setAttribute("aria-label", `${label} on solve ${i + 1}`);
    b.addEventListener("click", () => setPenalty(i, s.penalty === penalty ? 0 : penalty));
    li.append(b);
  }
  const del = document.createElement("button");
  del.type = "button";
  del.textContent = "\u00d7";
  del.setAttribute("aria-label", `Delete solve ${i + 1}`);
  del.addEventListener("click", () => remove(i));
  li.append(del);
  return li;
}

function setPenalty(i, penalty) {
  session().solves[i].penalty = penalty;
  save();
  draw();
}

function remove(i) {
  session().solves.splice(i, 1);
  save();
  draw();
}

// ---------------------------------------------------------------- timing

async function newScramble() {
  $("timer-scramble").textContent = "";
  try {
    $("timer-scramble").textContent = (await api("scramble", {})).scramble;
  } catch (e) {
    $("timer-scramble").textContent = e.kind === "gone" ? "No scramble: the server is not answering (the timer works without it)." : e.message;
  }
}

function call(text) {
  $("timer-call").textContent = text;
}

function show(className, text) {
  const timer = $("timer");
  timer.className = className;
  if (text !== undefined) timer.textContent = text;
}

function tick() {
  const now = performance.now();
  if (phase === "inspecting") {
    const seconds = (now - inspectionStart) / 1000;
    for (const at of [8, 12]) {
      if (seconds >= at && !calls.has(at)) {
        calls.add(at);
        call(`${at} seconds`);
      }
    }
    if (!hold) show("inspecting", seconds < 15 ? String(Math.ceil(15 - seconds)) : seconds < 17 ? "+2" : "DNF");
  } else if (phase === "running") {
    $("timer").textContent = single(now - started);
  }
  if (phase !== "idle") frame = requestAnimationFrame(tick);
}

function startInspection() {
  phase = "inspecting";
  inspectionStart = performance.now();
  calls = new Set();
  call("Inspection: 15 seconds");
  show("inspecting", "15");
  frame = requestAnimationFrame(tick);
}

function cancelInspection() {
  phase = "idle";
  hold = null;
  cancelAnimationFrame(frame);
  call("Inspection cancelled");
  show("", "0.00");
}

function start() {
  const over = phase === "inspecting" ? (performance.now() - inspectionStart) / 1000 - 15 : -1;
  start.penalty = over > 2 ? DNF : over > 0 ? 2000 : 0;
  phase = "running";
  started = performance.now();
  call("");
  show("running", "0.00");
  cancelAnimationFrame(frame);
  frame = requestAnimationFrame(tick);
}

function stop() {
  const ms = Math.round(performance.now() - started);
  phase = "idle";
  cancelAnimationFrame(frame);
  const solve = { ms, penalty: start.penalty, scramble: $("timer-scramble").textContent, date: new Date().toISOString() };
  session().solves.push(solve);
  save();
  show("", single(counted(solve)));
  call(`Solve: ${solve.penalty === DNF ? "DNF" : single(counted(solve))}`);
  draw();
  newScramble();
}

// Space or a touch pressed: stops a solve, else starts holding.
function press() {
  if (phase === "running") {
    ignoreRelease = true;
    return stop();
  }
  if (hold) return;
  hold = { since: performance.now(), ready: false };
  const held = hold;
  if (phase === "idle" && $("inspection").checked) return;
  show("holding");
  setTimeout(() => {
    if (hold !== held) return;
    held.ready = true;
    show("ready");
    call("Ready");
  }, HOLD_MS);
}

// Released: inspection starts, or the solve if the hold was long enough.
function release() {
  if (ignoreRelease) {
    ignoreRelease = false;
    return;
  }
  const held = hold;
  hold = null;
  if (!held) return;
  if (phase === "idle" && $("inspection").checked) return startInspection();
  if (held.ready) return start();
  show(phase === "inspecting" ? "inspecting" : "");
}

function keyTarget(e) {
  return !$("timer-panel").hidden && !e.target.matches("input, select, textarea, button");
}

// ---------------------------------------------------------------- sessions, export, import

function download(name, type, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

const quote = (v) => `"${String(v).replace(/"/g, '""')}"`;

function toCsv(solves) {
  const rows = [["No.", "Time", "Penalty", "Scramble", "Date"]];
  solves.forEach((s, i) => rows.push([i + 1, (s.ms / 1000).toFixed(3), s.penalty === DNF ? "DNF" : s.penalty ? "+2" : "", s.scramble, s.date]));
  return rows.map((r) => r.map(quote).join(",")).join("\n") + "\n";
}

// csTimer's export: "session1": [[[penalty, ms], scramble, comment, unix seconds], ...], with the
// names in properties.sessionData (a JSON text).
function toCsTimer(sessions) {
  const out = {};
  const names = {};
  sessions.forEach((s, i) => {
    out[`session${i + 1}`] = s.solves.map((x) => [[x.penalty, x.ms], x.scramble, "", Math.floor(Date.parse(x.date) / 1000) || 0]);
    names[i + 1] = { name: s.name, opt: {}, rank: i + 1 };
  });
  out.properties = { sessionData: JSON.stringify(names) };
  return JSON.stringify(out);
}

function parseCsv(text) {
  const rows = [];
  const pattern = /("(?:[^"]|"")*"|[^,\n]*)(,|\n|$)/g;
  let row = [];
  let m;
  while ((m = pattern.exec(text)) && m[0] !== "") {
    row.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
    if (m[2] !== ",") {
      rows.push(row);
      row = [];
    }
  }
  return rows.filter((r) => r.some((v) => v.trim()));
}

// The sessions of an imported file: this page's CSV (one session, named after the file) or
// csTimer's export (its sessions and names). Throws an Error saying what is wrong.
function fromFile(name, text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    const json = JSON.parse(trimmed);
    let names = {};
    try {
      names = JSON.parse(json.properties?.sessionData || "{}");
    } catch {
      names = {};
    }
    const sessions = Object.keys(json)
      .filter((k) => /^session\d+$/.test(k) && Array.isArray(json[k]))
      .sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)))
      .map((k) => ({
        name: String(names[k.slice(7)]?.name ?? `Session ${k.slice(7)}`),
        solves: json[k].map((x) => {
          const [penalty, ms] = x[0];
          if (!Number.isFinite(ms) || ![0, 2000, DNF].includes(penalty)) throw new Error(`${name}: a solve of ${k} is not csTimer's [[penalty, time], ...]`);
          return { ms, penalty, scramble: String(x[1] ?? ""), date: new Date((x[3] || 0) * 1000).toISOString() };
        }),
      }));
    if (!sessions.length) throw new Error(`${name}: no csTimer sessions in it ("session1": [...])`);
    return sessions;
  }
  const rows = parseCsv(text);
  const head = rows.shift() || [];
  if (head[0] !== "No." || head[1] !== "Time") throw new Error(`${name}: not a CSV of this page (No.,Time,Penalty,Scramble,Date) nor a csTimer export`);
  const solves = rows.map((r, i) => {
    const ms = Math.round(Number(r[1]) * 1000);
    if (!Number.isFinite(ms)) throw new Error(`${name}: line ${i + 2}: the time ${JSON.stringify(r[1])} is not a number of seconds`);
    return { ms, penalty: r[2] === "DNF" ? DNF : r[2] === "+2" ? 2000 : 0, scramble: r[3] || "", date: r[4] || new Date().toISOString() };
  });
  return [{ name: name.replace(/\.[^.]*$/, ""), solves }];
}

async function importFile(file) {
  try {
    const sessions = fromFile(file.name, await file.text());
    data.sessions.push(...sessions);
    data.current = data.sessions.length - 1;
    save();
    draw();
    $("timer-message").textContent = `Imported ${sessions.map((s) => `${s.name} (${s.solves.length} solves)`).join(", ")}.`;
  } catch (e) {
    $("timer-message").textContent = `Not imported: ${e.message}`;
  }
  $("import").value = "";
}

function sessions() {
  $("session").addEventListener("change", () => {
    data.current = Number($("session").value);
    save();
    draw();
  });
  $("session-new").addEventListener("click", () => {
    data.sessions.push({ name: `Session ${data.sessions.length + 1}`, solves: [] });
    data.current = data.sessions.length - 1;
    save();
    draw();
  });
  $("session-rename").addEventListener("click", () => {
    const name = prompt("The session's name", session().name);
    if (name && name.trim()) {
      session().name = name.trim();
      save();
      draw();
    }
  });
  let armed = 0;
  $("session-delete").addEventListener("click", () => {
    const button = $("session-delete");
    if (!armed) {
      button.textContent = `Delete ${session().name} and its ${session().solves.length} solves?`;
      armed = setTimeout(() => {
        armed = 0;
        button.textContent = "Delete";
      }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = 0;
    button.textContent = "Delete";
    data.sessions.splice(data.current, 1);
    if (!data.sessions.length) data.sessions.push({ name: "Session 1", solves: [] });
    data.current = Math.min(data.current, data.sessions.length - 1);
    save();
    draw();
  });
}

export function startTimer() {
  load();
  const timer = $("timer");
  document.addEventListener("keydown", (e) => {
    if ($("timer-panel").hidden) return;
    if (phase === "running" && !e.repeat) {
      e.preventDefault();
      ignoreRelease = e.key === " ";
      return stop();
    }
    if (e.key === "Escape" && (phase === "inspecting" || hold)) {
      e.preventDefault();
      return phase === "inspecting" ? cancelInspection() : ((hold = null), show(""));
    }
    if (e.key === " " && keyTarget(e)) {
      e.preventDefault();
      if (!e.repeat) press();
    }
  });
  document.addEventListener("keyup", (e) => {
    if (e.key === " " && !$("timer-panel").hidden && (keyTarget(e) || ignoreRelease || hold)) {
      e.preventDefault();
      release();
    }
  });
  timer.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    press();
  });
  timer.addEventListener("pointerup", release);
  $("last-solve").addEventListener("click", (e) => {
    const solves = session().solves;
    if (!solves.length || e.target.tagName !== "BUTTON") return;
    if (e.target.dataset.delete !== undefined) remove(solves.length - 1);
    else setPenalty(solves.length - 1, Number(e.target.dataset.penalty));
    timer.focus();
  });
  $("export-csv").addEventListener("click", () => download(`${session().name}.csv`, "text/csv", toCsv(session().solves)));
  $("export-cstimer").addEventListener("click", () => download("cstimer.txt", "application/json", toCsTimer(data.sessions)));
  $("import").addEventListener("change", () => $("import").files[0] && importFile($("import").files[0]));
  sessions();
  draw();
  newScramble();
}
