// The engine of the page that plays offline: a module Web Worker that starts Pyodide (vendored,
// vendor/pyodide), installs the engine's pure-Python wheel from the site's own folder, and runs
// cassino.web.offline, the server's game service over games this browser keeps in IndexedDB.
// The page (transport.js) sends it requests and socket messages; it answers as the server would.

import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

const root = new URL("../", import.meta.url); // the site's folder: this file is static/worker.js
const DB = "cassino-offline";
const GAMES = "games";

/** The browser's store of this page's games (one record a game, its JSON by id). */
function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(GAMES);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function keptGames(db) {
  return new Promise((resolve, reject) => {
    const request = db.transaction(GAMES).objectStore(GAMES).getAll();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let db = null;
let host = null;

/** Keep a changed game (the last write wins; a failed one is said in the console, the game goes on). */
function keep(game, text) {
  const request = db.transaction(GAMES, "readwrite").objectStore(GAMES).put(text, game);
  request.onerror = () => console.error(`game ${game} could not be kept in this browser: ${request.error}`);
}

const send = (socket, text) => postMessage({ kind: "socket", socket, text });
const shut = (socket, code) => postMessage({ kind: "shut", socket, code });

async function start() {
  const began = performance.now();
  db = await openDb();
  const site = await (await fetch(new URL("site.json", root))).json();
  const [pyodide, wheel] = await Promise.all([
    loadPyodide({ indexURL: new URL("static/vendor/pyodide/", root).href, packages: [] }),
    fetch(new URL(site.wheel, root)).then((r) => { if (!r.ok) throw new Error(`${site.wheel}: ${r.status}`); return r.arrayBuffer(); }),
  ]);
  pyodide.unpackArchive(wheel, "wheel");
  const offline = pyodide.pyimport("cassino.web.offline");
  host = offline.Offline(send, keep, shut);
  for (const text of await keptGames(db)) {
    try { host.restore(text); } catch (error) { console.error(`a kept game could not be read back: ${error}`); }
  }
  postMessage({ kind: "ready", seconds: (performance.now() - began) / 1000 });
}

const started = start().catch((error) => {
  postMessage({ kind: "failed", error: String(error && error.message ? error.message : error) });
  throw error;
});

onmessage = async ({ data }) => {
  try { await started; } catch { return; }
  if (data.kind === "request") {
    const answer = JSON.parse(await host.request(data.method, data.path, data.query, data.body, data.token));
    postMessage({ kind: "answer", id: data.id, ...answer });
  } else if (data.kind === "open") {
    if (host.open(data.socket, data.game, data.token)) postMessage({ kind: "opened", socket: data.socket });
  } else if (data.kind === "send") {
    host.receive(data.socket, data.text);
  } else if (data.kind === "close") {
    host.close(data.socket);
  }
};
