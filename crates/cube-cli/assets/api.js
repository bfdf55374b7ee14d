// The page's calls to the server (docs/api.md): a record, or an error in the page's words. When
// the server cannot be reached the page says so once, keeps everything the user has, and looks
// every few seconds whether it is back.
const $ = (id) => document.getElementById(id);

// An error record of the server: its kind and its message, in the page's words.
class ApiError extends Error {
  constructor(kind, message, status, retryAfter) {
    super(pageWords(message));
    this.kind = kind;
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

// The server did not answer (stopped, or the network is down).
class ServerGone extends Error {
  constructor() {
    super("the server is not answering");
    this.kind = "gone";
  }
}

// The command line's hints, said as the page says them: the page sets these through its own
// controls, and a flag means nothing in a browser. A command in backquotes is left as it is
// (one to type in a terminal, as a bake of large tables is).
const FLAGS = [
  [/;?\s*--from FORMAT reads it as another( format)?/g, ""],
  [/,? or use --tier (\S+)/g, ", or choose the tables $1"],
  [/--tier (\S+)/g, "the tables $1"],
  [/--max-length/g, "the length limit"],
  [/--time-budget|--timeout/g, "the time limit"],
  [/--metric (\S+)/g, "the $1 metric"],
];

function pageWords(message) {
  return message
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith("`") ? part : FLAGS.reduce((text, [pattern, words]) => text.replace(pattern, words), part)))
    .join("")
    .replace(/run (`cube-cli [^`]*`) first/g, "run $1 in a terminal first")
    .replace(/`--method optimal`/g, "Optimal")
    .replace(/\s*\(\s*\)/g, "");
}

let gone = false;
let watching = 0;
const listeners = [];

// `f(gone)` is called when the server goes away and when it is back.
export function onServerChange(f) {
  listeners.push(f);
}

function serverGone() {
  if (!gone) {
    gone = true;
    const port = location.port && location.port !== "7733" ? ` --port ${location.port}` : "";
    $("server").hidden = false;
    $("server-text").textContent =
      `The server is not answering: it has stopped or cannot be reached. Start it again in a terminal with ` +
      `cube-cli serve${port} and this page carries on by itself; your cube, solves and FMC work are kept.`;
    listeners.forEach((f) => f(true));
    watching = setInterval(async () => {
      try {
        await fetch("/", { method: "HEAD", cache: "no-store" });
        serverBack();
      } catch {
        // still gone
      }
    }, 2000);
  }
  return new ServerGone();
}

function serverBack() {
  if (!gone) return;
  gone = false;
  clearInterval(watching);
  $("server").hidden = true;
  listeners.forEach((f) => f(false));
}

// Requests in flight, on the page's root element (`data-requests`): the page is settled at 0.
let requests = 0;
function count(delta) {
  requests += delta;
  document.documentElement.dataset.requests = requests;
}
count(0);

// Counts `promise` (a request, a module loading) in flight until it settles.
export async function inFlight(promise) {
  count(1);
  try {
    return await promise;
  } finally {
    count(-1);
  }
}

async function request(path, body, accept, signal) {
  const init = { headers: { Accept: accept }, signal };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  try {
    const response = await fetch(`/api/${path}`, init);
    serverBack();
    return response;
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw serverGone();
  }
}

// The record of a JSON answer (the first line; a refusal is thrown as an ApiError).
async function record(response) {
  let text;
  try {
    text = await response.text();
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw serverGone();
  }
  let first;
  try {
    first = JSON.parse(text.split("\n")[0]);
  } catch {
    throw new ApiError("internal", `the server answered ${response.status} with something that is not a record`, response.status);
  }
  if (first.type === "error") {
    // The server is stopping: it will not answer the next request either.
    if (first.error.kind === "interrupted") throw serverGone();
    throw new ApiError(first.error.kind, first.error.message, response.status, Number(response.headers.get("Retry-After")) || 0);
  }
  return first;
}

// POST /api/PATH with `body` (GET without one): the record.
export function api(path, body, signal) {
  return inFlight(request(path, body, "application/json", signal).then(record));
}

// An optimal search: `onEvent(name, data)` for each progress and tick event, then the result
// record. The server answers with an event stream, or with plain JSON when the answer comes
// before the first event (a short or refused state): both are read, by their Content-Type.
export function search(path, body, signal, onEvent) {
  return inFlight(stream(path, body, signal, onEvent));
}

async function stream(path, body, signal, onEvent) {
  const response = await request(path, body, "text/event-stream", signal);
  if (!(response.headers.get("Content-Type") || "").startsWith("text/event-stream")) return record(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (e) {
      if (e.name === "AbortError") throw e;
      throw serverGone();
    }
    if (chunk.done) break;
    buffer += chunk.value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(event)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(event)?.[1] || "null");
      if (name === "result") {
        if (data.type === "error" && data.error.kind === "interrupted") throw serverGone();
        if (data.type === "error") throw new ApiError(data.error.kind, data.error.message, 200);
        return data;
      }
      onEvent(name, data);
    }
  }
  // The stream ended without its result: the server stopped in the middle.
  throw serverGone();
}
