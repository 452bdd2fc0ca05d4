// Where the page's requests and its game socket go. Served by `cassino serve`, to the server
// (fetch, WebSocket). In the page that plays offline (index.html marked data-mode="offline"), to
// the engine in a Web Worker (worker.js), which answers the same requests and socket messages as
// the server would: the rest of the page cannot tell the two apart.

export const offline = globalThis.document?.documentElement.dataset.mode === "offline";

const root = offline ? new URL("./", location.href) : null; // the offline site's folder (its index page's)
const OPEN = 1;
const CLOSED = 3;

let worker = null;
let asked = 0;
const answers = new Map(); // request number -> its promise's resolve
const sockets = new Map(); // socket number -> WorkerSocket
let lastSocket = 0;
const watchers = new Set(); // what the page shows of the engine's start (engineState)
let engineNow = { state: "idle" };

/** The engine's state: idle, starting, ready, or failed (with its error); `fn` hears each change. */
export function watchEngine(fn) { watchers.add(fn); fn(engineNow); }

function setEngine(now) { engineNow = now; for (const fn of watchers) fn(now); }

function engine() {
  if (worker) return worker;
  setEngine({ state: "starting" });
  worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    if (data.kind === "answer") { answers.get(data.id)?.(data); answers.delete(data.id); }
    else if (data.kind === "socket") sockets.get(data.socket)?.heard(data.text);
    else if (data.kind === "opened") sockets.get(data.socket)?.opened();
    else if (data.kind === "shut") sockets.get(data.socket)?.shut(data.code);
    else if (data.kind === "ready") setEngine({ state: "ready", seconds: data.seconds });
    else if (data.kind === "failed") {
      setEngine({ state: "failed", error: data.error });
      for (const [id, resolve] of answers) resolve({ status: 503, body: { error: data.error } });
      answers.clear();
    }
  };
  return worker;
}

/** Ask the engine: a request as the server would answer it ({status, body}). */
function ask(message) {
  const id = ++asked;
  return new Promise((resolve) => {
    answers.set(id, resolve);
    engine().postMessage({ ...message, id });
  });
}

/** A request to the page's API: `fetch` at the server; offline, the lobby's settings and the
 * catalogues from the site's files, anything else answered by the engine as a Response. */
export async function api(path, init = {}) {
  if (!offline) return fetch(path, init);
  const url = new URL(path, location.origin);
  if (url.pathname === "/api/config") return fetch(new URL("config.json", root));
  const language = url.pathname.match(/^\/api\/i18n\/([A-Za-z-]+)$/);
  if (language) return fetch(new URL(`i18n/${language[1]}.json`, root));
  const headers = new Headers(init.headers || {});
  const answer = await ask({
    kind: "request", method: init.method || "GET", path: url.pathname, query: url.search.slice(1),
    body: typeof init.body === "string" ? init.body : "", token: headers.get("x-cassino-token"),
  });
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
}

/** A game's socket: a WebSocket at the server; offline, the same messages through the engine. */
export function openSocket(game, token) {
  if (!offline) {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    return new WebSocket(`${proto}://${location.host}/api/games/${game}/ws${query}`);
  }
  return new WorkerSocket(game, token);
}

/** What a WebSocket offers the page (readyState, send, close, onopen, onmessage, onclose), over
 * the worker. */
class WorkerSocket {
  constructor(game, token) {
    this.readyState = 0;
    this.onopen = null; this.onmessage = null; this.onclose = null;
    this.number = ++lastSocket;
    sockets.set(this.number, this);
    engine().postMessage({ kind: "open", socket: this.number, game, token: token || null });
  }

  opened() { this.readyState = OPEN; this.onopen?.(); }

  heard(text) { if (this.readyState !== CLOSED) this.onmessage?.({ data: text }); }

  shut(code) {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    sockets.delete(this.number);
    this.onclose?.({ code });
  }

  send(text) { if (this.readyState === OPEN) worker.postMessage({ kind: "send", socket: this.number, text }); }

  close() {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    sockets.delete(this.number);
    worker.postMessage({ kind: "close", socket: this.number });
  }
}

/** Start the engine now (the lobby of the offline page), so the first game does not wait for it. */
export function warmEngine() { if (offline) engine(); }

/** Offline: keep the site for use without a network (its service worker), and say when a new
 * version has been kept and is waiting, through `onUpdate(apply)`. */
export async function keepSite(onUpdate) {
  if (!offline || !("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname });
  const waiting = (sw) => onUpdate(() => { sessionStorage.setItem("cassino.update", "asked"); sw.postMessage("take-over"); });
  if (registration.waiting && navigator.serviceWorker.controller) waiting(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const sw = registration.installing;
    sw?.addEventListener("statechange", () => {
      if (sw.state === "installed" && navigator.serviceWorker.controller) waiting(sw);
    });
  });
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading || !navigator.serviceWorker.controller) return;
    reloading = true;
    if (sessionStorage.getItem("cassino.update") === "asked") { sessionStorage.removeItem("cassino.update"); location.reload(); }
  });
}
