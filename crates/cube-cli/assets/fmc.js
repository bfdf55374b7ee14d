// The fewest-moves workspace: a scramble and its inverse, step finders (EO, DR, HTR, the finish,
// on every axis, with NISS) over the server's FMC API, a skeleton built step by step on the
// normal and the inverse side, its unnissed and cleaned-up solution with its move counts, an
// hour's attempt clock, insertions that finish the skeleton, and the write-up as text. Every NISS sum, inverse and count is the
// server's (`/api/fmc/...`); this file keeps the steps and shows them. The work is kept in this
// browser.
import { api } from "/api.js";

const $ = (id) => document.getElementById(id);
const STORE = "cube-cli-fmc";
const HOUR_MS = 60 * 60 * 1000;
const AXES = ["fb", "rl", "ud"];

// The steps of each finder, on each axis (`axis` narrows to one).
const GROUPS = {
  eo: { label: "EO", steps: (axis) => AXES.filter((a) => !axis || a === axis).map((a) => `eo${a}`) },
  dr: {
    label: "DR",
    steps: (axis) => AXES.filter((a) => !axis || a === axis).flatMap((dr) => AXES.filter((eo) => eo !== dr).map((eo) => `dr${dr}-eo${eo}`)),
  },
  htr: { label: "HTR", steps: (axis) => AXES.filter((a) => !axis || a === axis).map((a) => `htr-dr${a}`) },
  // The finish from HTR, else from DR.
  finish: { label: "Finish", steps: () => ["htrfin"], then: (axis) => AXES.filter((a) => !axis || a === axis).map((a) => `dr${a}fin`) },
};

// { scramble, inverse, steps: [{ label, moves, length }], clockStart }
let work;
let version = 0;
let finding = null;
let inserting = null;
let summary = null;
let playOnCube;

const skeleton = () => work.steps.map((s) => s.moves).join(" ");
const stateText = () => `${work.scramble} ${skeleton()}`.trim();

function say(text, kind = "message") {
  $("fmc-message").textContent = kind === "message" ? text : "";
  $("fmc-error").textContent = kind === "error" ? text : "";
}

function sayError(e) {
  if (e && e.name === "AbortError") return;
  say(e.kind === "gone" ? "Not done: the server is not answering (see above)." : e.message, "error");
}

function save() {
  localStorage.setItem(STORE, JSON.stringify(work));
}

// The work changed: answers for the one before are dropped, the summary and write-up redone.
function changed() {
  version++;
  for (const search of [finding, inserting]) if (search) search.abort();
  finding = inserting = null;
  $("fmc-results").textContent = "";
  $("fmc-insertions").textContent = "";
  save();
  draw();
  summarize();
}

async function setScramble(text) {
  const asked = version;
  say("");
  try {
    // The server reads it as a NISS sequence: a scramble has no inverse part.
    const read = await api("fmc/count", { sequence: text });
    if (read.sequence.includes("(")) return say("A scramble is moves on the normal side only, without parentheses.", "error");
    const inverse = await api("fmc/unniss", { sequence: `(${read.sequence})` });
    if (asked !== version) return;
    work = { scramble: read.sequence, inverse: inverse.sequence, steps: [], clockStart: work.clockStart };
    $("fmc-scramble").value = work.scramble;
    changed();
  } catch (e) {
    sayError(e);
  }
}

async function newScramble() {
  try {
    const record = await api("scramble", { event: "333fm" });
    await setScramble(record.scramble);
  } catch (e) {
    sayError(e);
  }
}

// The step finder: every step of the group on the chosen axes, searched at once; the
// solutions listed by step, shortest first, each a button that adds it to the skeleton.
async function find() {
  if (!work.scramble) return say("Choose a scramble first (New scramble, or type one and Use).", "error");
  const asked = version;
  const group = GROUPS[$("fmc-step").value];
  const axis = $("fmc-axis").value;
  const body = { state: stateText(), niss: $("fmc-niss").value, solutions: Number($("fmc-count").value) || 5 };
  finding = new AbortController();
  const signal = finding.signal;
  $("fmc-find").disabled = true;
  $("fmc-stop").disabled = false;
  $("fmc-results").textContent = "";
  const started = performance.now();
  const timer = setInterval(() => say(`Searching ${group.label}\u2026 ${((performance.now() - started) / 1000).toFixed(0)} s (a step's first search builds its tables)`), 1000);
  say(`Searching ${group.label}\u2026`);
  // One step at a time (the server gives each search every core), each listed as it comes.
  const answers = [];
  const found = () => answers.filter((a) => a.record).sort((a, b) => (a.record.optimum ?? 99) - (b.record.optimum ?? 99));
  const run = async (steps) => {
    for (const step of steps) {
      const answer = await api("fmc/solve", { step, ...body }, signal).then((record) => ({ step, record }), (error) => ({ step, error }));
      if (answer.error && answer.error.kind !== "requisite") throw answer.error;
      if (asked !== version) return;
      answers.push(answer);
      showResults(group.label, found());
    }
  };
  try {
    await run(group.steps(axis));
    if (group.then && answers.every((a) => a.error)) await run(group.then(axis));
    if (asked !== version) return say("The steps found were for the skeleton before your last change: dropped.");
    if (!found().length) return say(`No ${group.label} step starts here: ${answers.map((a) => a.error.message).join("; ")}`, "error");
    say(`${group.label}: ${found().map((a) => `${a.step} in ${a.record.optimum ?? "none"}`).join(", ")} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (e) {
    if (asked === version) sayError(e);
  } finally {
    clearInterval(timer);
    if (asked === version) finding = null;
    $("fmc-find").disabled = false;
    $("fmc-stop").disabled = true;
  }
}

function showResults(label, found) {
  const box = $("fmc-results");
  box.textContent = "";
  for (const { step, record } of found) {
    const section = document.createElement("section");
    const heading = document.createElement("h3");
    heading.textContent = `${label} ${step}: ${record.count} found${record.optimum !== null ? `, the shortest ${record.optimum}` : ""}`;
    const list = document.createElement("ul");
    list.className = "solutions";
    for (const s of record.solutions) {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "moves";
      button.dataset.step = step;
      button.textContent = `${s.solution || "(nothing to do)"} (${s.length})`;
      button.addEventListener("click", () => {
        addStep(`${label} (${step})`, s.solution, s.length);
        // The next finder is the next step's.
        const select = $("fmc-step");
        select.selectedIndex = Math.min(select.selectedIndex + 1, select.options.length - 1);
      });
      li.append(button);
      list.append(li);
    }
    section.append(heading, list);
    box.append(section);
  }
}

// Insertions into the skeleton (`/api/fmc/insert`, the fewest moves over the generated set,
// proven when the server's time allows): the solution, each insertion with where it goes, and a
// button that takes the solution as the skeleton (one step; removing it gives the steps back).
async function findInsertions() {
  if (!work.scramble) return say("Choose a scramble first (New scramble, or type one and Use).", "error");
  if (!work.steps.length) return say("Build a skeleton first: insertions go into it.", "error");
  const asked = version;
  inserting = new AbortController();
  $("fmc-insert").disabled = true;
  $("fmc-insertions").textContent = "";
  say("Looking for insertions\u2026 (the first time, the server makes its algorithm set: up to a minute)");
  try {
    const record = await api("fmc/insert", { scramble: work.scramble, skeleton: skeleton(), optimal: true }, inserting.signal);
    if (asked !== version) return;
    showInsertions(record);
    say(record.solution === null ? "" : `Insertions: ${record.length} moves${record.optimal ? ", the fewest over the algorithm set" : ""}.`);
  } catch (e) {
    if (asked === version) sayError(e);
  } finally {
    if (asked === version) inserting = null;
    $("fmc-insert").disabled = !work.steps.length;
  }
}

function showInsertions(record) {
  const box = $("fmc-insertions");
  box.textContent = "";
  const heading = document.createElement("h3");
  heading.textContent = `The skeleton (${record.skeleton_length} moves) leaves ${record.leftover.words}`;
  box.append(heading);
  if (record.solution === null) {
    const p = document.createElement("p");
    p.textContent = record.complete ? "No insertion of the algorithm set finishes this skeleton." : "No insertions found in the time given.";
    box.append(p);
    return;
  }
  const list = document.createElement("ol");
  for (const i of record.insertions) {
    const li = document.createElement("li");
    const moves = document.createElement("span");
    moves.className = "moves";
    moves.textContent = i.algorithm;
    li.append(`after move ${i.position}: `, moves, ` (${i.kind.replaceAll("-", " ")}, ${i.cancelled} cancelled)`);
    list.append(li);
  }
  const solution = document.createElement("p");
  const moves = document.createElement("span");
  moves.className = "moves";
  moves.textContent = record.solution;
  const proof = record.optimal ? "the fewest over the algorithm set" : record.complete ? "found greedily" : "the best found in the time given";
  solution.append("Solution: ", moves, ` (${record.length} moves, ${proof})`);
  const take = document.createElement("button");
  take.type = "button";
  take.id = "fmc-take-insertions";
  take.textContent = "Take it as the skeleton";
  take.addEventListener("click", () => {
    const before = work.steps;
    work.steps = [{ label: `Skeleton with ${record.insertions.length} insertion${record.insertions.length === 1 ? "" : "s"}`, moves: record.solution, length: record.length, before }];
    say(`The skeleton is now the solution with insertions (${record.length} moves).`);
    changed();
  });
  box.append(list, solution, take);
}

function addStep(label, moves, length) {
  work.steps.push({ label, moves, length });
  say(`Added ${label}: ${moves || "no moves"}.`);
  changed();
}

async function addOwnMoves(text) {
  try {
    const read = await api("fmc/count", { sequence: text });
    addStep("Moves", read.sequence, read.htm);
    $("fmc-moves").value = "";
  } catch (e) {
    sayError(e);
  }
}

// The skeleton in NISS notation, its sides, unnissed, cleaned up, counted and verified.
async function summarize() {
  const asked = version;
  summary = null;
  if (!work.steps.length || !work.scramble) return drawSummary();
  try {
    const sequence = skeleton();
    const niss = await api("fmc/count", { sequence });
    const unnissed = await api("fmc/unniss", { sequence });
    const cleaned = await api("fmc/cleanup", { sequence: unnissed.sequence });
    const verified = await api("verify", { state: work.scramble, solution: cleaned.sequence });
    if (asked !== version) return;
    summary = { niss, unnissed, cleaned, solves: verified.solves };
  } catch (e) {
    if (asked === version) sayError(e);
  }
  drawSummary();
}

function sides(niss) {
  const m = /^(.*?)\s*(?:\((.*)\))?$/.exec(niss);
  return { normal: m[1], inverse: m[2] || "" };
}

function drawSummary() {
  const dl = $("fmc-summary");
  dl.textContent = "";
  const add = (term, value) => {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.className = "moves";
    dd.textContent = value;
    dl.append(dt, dd);
  };
  if (summary) {
    const { normal, inverse } = sides(summary.niss.sequence);
    add("Normal side", normal || "-");
    add("Inverse side", inverse || "-");
    add("NISS", summary.niss.sequence);
    add("Unnissed", summary.unnissed.sequence);
    const c = summary.cleaned;
    add(summary.solves ? "Solution" : "Cleaned up", `${c.sequence || "-"} (${c.htm} HTM, ${c.qtm} QTM, ${c.stm} STM)${summary.solves ? ", solves the scramble" : ", not solved yet"}`);
  }
  $("fmc-writeup").value = writeup();
}

// The write-up: the scramble, each step with its count and the running total, the solution.
function writeup() {
  if (!work.scramble) return "";
  const lines = [`Scramble: ${work.scramble}`, `Inverse: ${work.inverse}`, ""];
  const width = Math.max(0, ...work.steps.map((s) => s.moves.length));
  let total = 0;
  for (const s of work.steps) {
    total += s.length;
    lines.push(`${s.moves.padEnd(width)}  // ${s.label} (${s.length}/${total})`);
  }
  if (summary) {
    const c = summary.cleaned;
    lines.push("");
    lines.push(summary.solves ? `Solution: ${c.sequence} (${c.htm} moves)` : `Skeleton: ${summary.unnissed.sequence} (${c.htm} moves after cleanup; not a solution yet)`);
  }
  return lines.join("\n");
}

function draw() {
  $("fmc-scramble").value = work.scramble;
  $("fmc-inverse").textContent = work.inverse || "-";
  const list = $("fmc-skeleton");
  list.textContent = "";
  let total = 0;
  for (const s of work.steps) {
    total += s.length;
    const li = document.createElement("li");
    li.innerHTML = "";
    const moves = document.createElement("span");
    moves.className = "moves";
    moves.textContent = s.moves || "-";
    li.append(`${s.label}: `, moves, ` (${s.length}/${total})`);
    list.append(li);
  }
  $("fmc-undo").disabled = !work.steps.length;
  $("fmc-insert").disabled = !work.steps.length;
  $("fmc-clear").disabled = !work.steps.length;
  drawSummary();
}

// ---------------------------------------------------------------- the attempt clock

let calledAt = null;
function clockTick() {
  const button = $("fmc-clock-start");
  if (!work.clockStart) {
    $("fmc-clock").textContent = "60:00";
    button.textContent = "Start the hour";
    return;
  }
  button.textContent = "Stop the clock";
  const left = Math.max(0, HOUR_MS - (Date.now() - work.clockStart));
  const minutes = Math.floor(left / 60000);
  const seconds = Math.floor((left % 60000) / 1000);
  $("fmc-clock").textContent = left ? `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}` : "Time is up";
  $("fmc-clock").classList.toggle("late", left < 5 * 60000);
  // Said to screen readers (the clock itself is not announced every second).
  const mark = left === 0 ? 0 : Math.ceil(left / 60000);
  if (mark !== calledAt && [0, 1, 5, 10, 30].includes(mark)) {
    $("fmc-clock-call").textContent = mark === 0 ? "Time is up" : `${mark} minute${mark === 1 ? "" : "s"} left`;
  }
  calledAt = mark;
}

// ---------------------------------------------------------------- wiring

async function copyWriteup() {
  const text = $("fmc-writeup").value;
  try {
    await navigator.clipboard.writeText(text);
    $("fmc-copy-note").textContent = "Copied.";
  } catch {
    $("fmc-writeup").select();
    $("fmc-copy-note").textContent = document.execCommand("copy") ? "Copied." : "Selected: copy it with Ctrl+C.";
  }
}

export function startFmc({ play }) {
  playOnCube = play;
  try {
    work = JSON.parse(localStorage.getItem(STORE));
  } catch {
    work = null;
  }
  if (!work || typeof work.scramble !== "string" || !Array.isArray(work.steps)) work = { scramble: "", inverse: "", steps: [], clockStart: null };
  $("fmc-scramble-form").addEventListener("submit", (e) => {
    e.preventDefault();
    setScramble($("fmc-scramble").value);
  });
  $("fmc-new").addEventListener("click", newScramble);
  $("fmc-find").addEventListener("click", find);
  $("fmc-stop").addEventListener("click", () => {
    if (finding) finding.abort();
    say("Stopped.");
  });
  $("fmc-moves-form").addEventListener("submit", (e) => {
    e.preventDefault();
    addOwnMoves($("fmc-moves").value);
  });
  $("fmc-insert").addEventListener("click", findInsertions);
  $("fmc-undo").addEventListener("click", () => {
    const last = work.steps.pop();
    // Insertions taken as the skeleton give back the steps they were made from.
    if (last && Array.isArray(last.before)) work.steps = last.before;
    say(last ? `Removed ${last.label}.` : "");
    changed();
  });
  $("fmc-clear").addEventListener("click", () => {
    work.steps = [];
    say("The skeleton is cleared.");
    changed();
  });
  $("fmc-clock-start").addEventListener("click", () => {
    work.clockStart = work.clockStart ? null : Date.now();
    calledAt = null;
    save();
    clockTick();
  });
  $("fmc-copy").addEventListener("click", copyWriteup);
  $("fmc-play").addEventListener("click", () => {
    if (!work.scramble) return say("Choose a scramble first.", "error");
    playOnCube(work.scramble, summary ? summary.cleaned.sequence : "");
  });
  setInterval(clockTick, 1000);
  clockTick();
  draw();
  summarize();
}
