// The timer: a scramble from the server, 15 s of inspection (WCA: +2 after 15 s, DNF after 17 s),
// the solve, and the solves kept in this browser (localStorage) with mean, ao5 and ao12 (the
// best and worst of the last 5 or 12 dropped, the rest averaged) and a CSV export.
const $ = (id) => document.getElementById(id);
const STORE = "cube-cli-solves";
let state = "idle"; // idle, inspecting, running
let started = 0;
let inspectionStart = 0;
let frame = 0;
let api;

function solves() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || [];
  } catch {
    return [];
  }
}

function save(list) {
  localStorage.setItem(STORE, JSON.stringify(list));
}

// A solve's time in seconds as counted (with its +2), Infinity for a DNF.
const counted = (s) => (s.penalty === "DNF" ? Infinity : s.seconds + (s.penalty === "+2" ? 2 : 0));
const show = (t) => (t === Infinity ? "DNF" : t === null ? "-" : t.toFixed(2));

export function average(list, n) {
  if (list.length < n) return null;
  const times = list.slice(-n).map(counted).sort((a, b) => a - b);
  const kept = times.slice(1, -1);
  return kept.includes(Infinity) ? Infinity : kept.reduce((a, b) => a + b, 0) / kept.length;
}

function mean(list) {
  if (!list.length) return null;
  const times = list.map(counted);
  return times.includes(Infinity) ? Infinity : times.reduce((a, b) => a + b, 0) / times.length;
}

function draw() {
  const list = solves();
  $("stats").textContent = `solves ${list.length}  mean ${show(mean(list))}  ao5 ${show(average(list, 5))}  ao12 ${show(average(list, 12))}`;
  const ol = $("solves");
  ol.textContent = "";
  list.slice().reverse().forEach((s) => {
    const li = document.createElement("li");
    li.textContent = `${show(counted(s))}${s.penalty ? ` (${s.penalty})` : ""}  ${s.scramble}`;
    ol.append(li);
  });
}

async function newScramble() {
  try {
    $("timer-scramble").textContent = (await api("scramble", {})).scramble;
  } catch (e) {
    $("timer-scramble").textContent = e.message;
  }
}

function tick() {
  const now = performance.now();
  if (state === "inspecting") {
    const left = 15 - (now - inspectionStart) / 1000;
    $("timer").textContent = left > 0 ? Math.ceil(left) : left > -2 ? "+2" : "DNF";
  } else if (state === "running") {
    $("timer").textContent = ((now - started) / 1000).toFixed(2);
  }
  frame = requestAnimationFrame(tick);
}

function press() {
  const timer = $("timer");
  if (state === "idle") {
    state = "inspecting";
    inspectionStart = performance.now();
    timer.className = "inspecting";
  } else if (state === "inspecting") {
    const over = (performance.now() - inspectionStart) / 1000 - 15;
    timer.dataset.penalty = over > 2 ? "DNF" : over > 0 ? "+2" : "";
    state = "running";
    started = performance.now();
    timer.className = "ready";
  } else if (state === "running") {
    const seconds = (performance.now() - started) / 1000;
    state = "idle";
    timer.className = "";
    timer.textContent = seconds.toFixed(2);
    const list = solves();
    list.push({ seconds: Math.round(seconds * 100) / 100, penalty: timer.dataset.penalty || "", scramble: $("timer-scramble").textContent, date: new Date().toISOString() });
    save(list);
    draw();
    newScramble();
  }
}

function exportCsv() {
  const rows = [["n", "seconds", "penalty", "counted", "scramble", "date"]];
  solves().forEach((s, i) => rows.push([i + 1, s.seconds.toFixed(2), s.penalty, show(counted(s)), s.scramble, s.date]));
  const csv = rows.map((r) => r.map((v) => `"${String(v).replace(/"/g, '""')}"`).join(",")).join("\n") + "\n";
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
  a.download = "solves.csv";
  a.click();
  URL.revokeObjectURL(a.href);
}

export function startTimer(apiCall) {
  api = apiCall;
  $("timer").addEventListener("click", press);
  document.addEventListener("keydown", (e) => {
    if ($("timer-panel").hidden || e.target.matches("input, select, textarea")) return;
    if (e.key === " " || state === "running") {
      e.preventDefault();
      if (!e.repeat) press();
    }
  });
  $("export").addEventListener("click", exportCsv);
  $("clear").addEventListener("click", () => {
    if (confirm("Remove every solve kept in this browser?")) {
      save([]);
      draw();
    }
  });
  draw();
  newScramble();
  frame = requestAnimationFrame(tick);
}
