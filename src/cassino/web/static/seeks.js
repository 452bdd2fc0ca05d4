// The lobby's "Play with people": Play now, the open seeks (join, cancel your own, leave one you
// joined) and posting a seek. Only for a signed-in account: the lobby's socket (/api/lobby/socket,
// opened with the session's cookie) sends the open seeks whenever they change and, when a seek of
// this account becomes a game, this browser's own seat and token ("ready"); the page then opens
// the table as it opens a seat it holds. Leaving the lobby closes the socket, which tells the
// server that this page is gone (its Play now request is matched no more).

import { $, el } from "./dom.js";
import { has, t, tn } from "./i18n.js";
import { playerName, presetName } from "./options.js";
import { state } from "./state.js";
import { heldSeats, holdSeat } from "./storage.js";
import { onAccountChange, signedIn, writeInit } from "./account.js";
import { startGame } from "./lobby.js";

export const WAITS = [10, 20, 30, 60]; // seconds before a computer player is offered
export const DEFAULT_WAIT = 20;
const INPUT_CODES = ["preset", "players", "partnerships", "rated", "wait", "move_seconds", "field"]; // a field refused

let socket = null;
let wanted = false; // the lobby is shown: keep a socket open
let retry = 500;
let seeks = []; // the open seeks, as the socket sent them
let playing = []; // this account's open Play now requests
let waiting = null; // { id, yours, level, wait, started, seen } while this page waits for Play now
let ticker = null;
let refusal = null; // the last refusal: { status, body } or { note: KEY }
let online = null; // who has a lobby page open: { count, names } as the socket sent it

// ------------------------------------------------------------------ words and requests (pure)
/** A seek's variant in words: "Royal · 4 players · partnerships". */
export function variantText(seek) {
  const parts = [presetName(seek.preset), tn("lobby.n_players", seek.players)];
  if (seek.partnerships) parts.push(t("seeks.partnerships"));
  return parts.join(" · ");
}

/** A seek's line in the list: its variant, rated or casual, who posted it and their rating, and
 * the seats taken. */
export function seekText(seek) {
  const who = t(seek.provisional ? "seeks.by_provisional" : "seeks.by", { name: seek.by, rating: seek.rating });
  const seats = t("seeks.seats", { n: seek.seats, needed: seek.needed });
  const clock = seek.move_seconds ? [t("seeks.move_clock", { n: seek.move_seconds })] : [];
  return [variantText(seek), t(seek.rated ? "seeks.rated" : "seeks.casual"), ...clock, who, seats].join(" · ");
}

/** Who is online in words: the label with the count, the names to show (at most `most`) and how
 * many more there are beyond them. */
export function onlineParts(message, most = 12) {
  const names = message.names.slice(0, most);
  return { label: tn("seeks.online", message.count), names, more: Math.max(0, message.count - names.length) };
}

/** The move clocks a rated game may have (seconds a move; 0: none), as the server takes them. */
export const MOVE_CLOCKS = [0, 30, 60, 120];

/** A move clock's choice in words: "No move clock", "60 s a move". */
export const clockText = (seconds) => (seconds ? t("seeks.move_clock", { n: seconds }) : t("seeks.no_clock"));

/** What this account may do with a seek: cancel its own, leave one it joined, or join. */
export const seekAction = (seek) => (seek.yours ? "cancel" : seek.joined ? "leave" : "join");

/** The body of Play now, from the lobby's choice of variant and players. */
export function playNowBody(choice, partnerships, wait, moveSeconds = 0) {
  const body = { preset: choice.preset, players: choice.players, partnerships: Boolean(partnerships && choice.players === 4), wait };
  if (moveSeconds) body.move_seconds = moveSeconds;
  return body;
}

/** The seats of a game against computer players of one level instead: this account, then the level. */
export function botSeats(name, level, players) {
  return [{ kind: "human", name }, ...Array.from({ length: players - 1 }, () => ({ kind: "bot", bot: level }))];
}

/** A refusal of the seeks' requests in the page's words, from the server's code. */
export function refusalText(status, body) {
  const code = body && typeof body.code === "string" ? body.code : "";
  if (code === "csrf" || code === "cross_site") return t("account.error.cross_site");
  if (INPUT_CODES.includes(code)) return t("seeks.error.input");
  if (code && has(`seeks.error.${code}`)) return t(`seeks.error.${code}`);
  if (status === 0) return t("account.error.network");
  return t("account.error.other", { status });
}

/** Where the lobby's socket is, for a page at `where` (its location). */
export const socketUrl = (where) => `${where.protocol === "https:" ? "wss" : "ws"}://${where.host}/api/lobby/socket`;

// ------------------------------------------------------------------ the socket
/** Show the panel as things stand and, signed in, keep the lobby's socket open. */
export function startSeeks() {
  wanted = true;
  renderSeeks();
  if (signedIn()) connect();
}

/** The lobby is left: close the socket (the server then knows this page is gone). */
export function stopSeeks() {
  wanted = false;
  stopWaiting();
  closeSeekSocket();
}

function closeSeekSocket() {
  if (!socket) return;
  socket.onclose = null;
  socket.close();
  socket = null;
}

function connect() {
  closeSeekSocket();
  const opened = new WebSocket(socketUrl(location));
  socket = opened;
  opened.onopen = () => { retry = 500; };
  opened.onmessage = (event) => onMessage(JSON.parse(event.data));
  opened.onclose = () => {
    if (socket !== opened) return;
    socket = null;
    if (!wanted || !signedIn()) return;
    setTimeout(() => { if (wanted && !socket && signedIn()) connect(); }, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function onMessage(msg) {
  if (msg.type === "seeks") {
    seeks = msg.seeks;
    playing = msg.play_now || [];
    followWaiting();
    renderSeeks();
  } else if (msg.type === "ready") {
    openReady(msg);
  } else if (msg.type === "online") {
    online = { count: msg.count, names: msg.names };
    renderOnline();
  }
}

/** A game of this account's is ready: open it, unless this browser holds it already. */
function openReady(msg) {
  if (heldSeats()[msg.game]) return;
  if (!msg.token) { refusal = { note: "seeks.elsewhere" }; renderSeeks(); return; }
  holdSeat(msg.game, { token: msg.token, seat: msg.seat, preset: msg.preset, players: msg.players });
  stopWaiting();
  location.hash = `game=${msg.game}&token=${msg.token}`;
}

/** The socket's list says whether this page's Play now request still waits; one that is gone
 * without news of its game (its page reloaded, the news missed) is asked for once. */
function followWaiting() {
  const mine = playing.find((p) => p.kind === "now");
  if (!waiting && mine) {
    waiting = { id: mine.id, yours: mine.yours, level: mine.level, wait: Number($("play-now-wait").value), started: mine.created * 1000, seen: true };
    tick();
    return;
  }
  if (!waiting) return;
  if (playing.some((p) => p.id === waiting.id)) { waiting.seen = true; return; }
  if (!waiting.seen) return; // sent before the request was listed
  const gone = waiting.id;
  fetch(`/api/seeks/${gone}`, { credentials: "same-origin" }).then((r) => r.json()).then((seek) => {
    if (seek.game && seek.token) openReady({ ...seek, seek: gone });
    else if (seek.status !== "merged" && waiting && waiting.id === gone) { stopWaiting(); refusal = { note: "seeks.expired" }; renderSeeks(); }
  }).catch(() => {});
}

// ------------------------------------------------------------------ the panel
/** The panel in the language now chosen: the invitation to sign in, or Play now, the open seeks
 * and the form to post one. */
export function renderSeeks() {
  if (!$("seeks")) return;
  const account = signedIn();
  $("seeks-out").hidden = Boolean(account);
  $("seeks-in").hidden = !account;
  if (!account) return;
  const choice = state.lobbyChoice;
  const variant = variantText({ ...choice, partnerships: choice.players === 4 && $("partnerships")?.checked });
  $("play-now-about").textContent = t("seeks.play_now_about", { variant });
  $("play-now").hidden = Boolean(waiting);
  $("play-now-waiting").hidden = !waiting;
  renderWaiting();
  const list = $("seek-list");
  list.replaceChildren();
  for (const seek of seeks) list.append(seekItem(seek));
  if (!seeks.length) list.append(el("li", { class: "about" }, t("seeks.none")));
  $("seeks-error").textContent = !refusal ? "" : refusal.note ? t(refusal.note) : refusalText(refusal.status, refusal.body);
  renderOnline();
}

/** Who else is in the lobby now, each name a link to their profile. */
function renderOnline() {
  const line = $("seeks-online");
  if (!line) return;
  line.hidden = !online || !online.count;
  if (line.hidden) return;
  const parts = onlineParts(online);
  const links = parts.names.flatMap((name, i) => [i ? ", " : "", el("a", { href: `/@/${encodeURIComponent(name)}`, "data-testid": "online-name" }, name)]);
  const more = parts.more ? [" ", t("seeks.online_more", { n: parts.more })] : [];
  line.replaceChildren(`${parts.label}: `, ...links, ...more);
}

function seekItem(seek) {
  const action = seekAction(seek);
  const text = seekText(seek);
  const button = el("button", { type: "button", class: action === "join" ? "primary" : "", "aria-label": t(`seeks.${action}_label`, { seek: text }) }, t(`seeks.${action}`));
  button.addEventListener("click", () => act(action, seek, button));
  const mark = seek.yours ? t("seeks.yours") : seek.joined ? t("seeks.joined") : null;
  return el("li", { class: "seek", "data-testid": "seek", "data-seek": seek.id },
    el("span", { class: "seek-text" }, text, mark ? el("span", { class: "about" }, ` · ${mark}`) : null), button);
}

function renderWaiting() {
  if (!waiting) return;
  const seconds = Math.floor((Date.now() - waiting.started) / 1000);
  $("play-now-status").textContent = t("seeks.waiting", { seconds });
  const offer = $("play-now-bot");
  offer.hidden = seconds < waiting.wait;
  offer.textContent = t("seeks.bot_offer", { level: playerName(waiting.level) });
}

function tick() {
  clearInterval(ticker);
  ticker = setInterval(() => { if (waiting) renderWaiting(); else clearInterval(ticker); }, 1000);
  renderSeeks();
}

function stopWaiting() {
  waiting = null;
  clearInterval(ticker);
  ticker = null;
}

// ------------------------------------------------------------------ requests
async function send(method, url, body) {
  const init = { method };
  if (body !== undefined) Object.assign(init, { headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  try {
    const r = await fetch(url, writeInit(init));
    return { status: r.status, body: await r.json().catch(() => ({})) };
  } catch {
    return { status: 0, body: {} };
  }
}

/** A game this page's request was answered with: hold its seat and open it. */
function openAnswer(answer, spec) {
  holdSeat(answer.game, { token: answer.token, seat: answer.seat, preset: spec.preset, players: spec.players });
  stopWaiting();
  location.hash = `game=${answer.game}&token=${answer.token}`;
}

async function act(action, seek, button) {
  refusal = null;
  button.disabled = true;
  const r = action === "join" ? await send("POST", `/api/seeks/${seek.id}/join`, {})
    : action === "leave" ? await send("POST", `/api/seeks/${seek.id}/leave`, {})
      : await send("DELETE", `/api/seeks/${seek.id}`);
  button.disabled = false;
  if (r.status === 200 && r.body.game) { openAnswer(r.body, seek); return; }
  if (r.status >= 400 || r.status === 0) refusal = { status: r.status, body: r.body };
  renderSeeks();
}

async function playNow() {
  refusal = null;
  const wait = Number($("play-now-wait").value);
  const body = playNowBody(state.lobbyChoice, $("partnerships")?.checked, wait, Number($("play-now-clock").value));
  $("play-now").disabled = true;
  const r = await send("POST", "/api/play-now", body);
  $("play-now").disabled = false;
  if (r.status === 200) { openAnswer(r.body, body); return; }
  if (r.status === 202) {
    waiting = { id: r.body.id, yours: r.body.yours, level: r.body.level, wait, started: Date.now(), seen: false };
    tick();
    $("play-now-cancel").focus();
    return;
  }
  refusal = { status: r.status, body: r.body };
  renderSeeks();
}

/** Stop waiting for a person; `thenBot`: play the computer player of this account's level. */
async function cancelWaiting(thenBot) {
  if (!waiting) return;
  const { id, level, yours } = waiting;
  // one's own request is withdrawn; a seat taken at another's (3 or 4 players) is given up
  const r = yours ? await send("DELETE", `/api/seeks/${id}`) : await send("POST", `/api/seeks/${id}/leave`, {});
  if (r.status === 409) { // matched meanwhile: its game is this page's
    const seek = await (await fetch(`/api/seeks/${id}`, { credentials: "same-origin" })).json().catch(() => ({}));
    if (seek.game && seek.token) { openAnswer(seek, seek); return; }
  }
  stopWaiting();
  renderSeeks();
  if (!thenBot) { $("play-now").focus(); return; }
  const choice = state.lobbyChoice;
  const partnerships = Boolean($("partnerships")?.checked && choice.players === 4);
  const seats = botSeats(signedIn().name, level, choice.players);
  await startGame({ preset: choice.preset, players: choice.players, partnerships, seats }, { lessons: false, coach: false });
}

async function postSeek(event) {
  event.preventDefault();
  refusal = null;
  const players = Number($("seek-players").value);
  const body = {
    preset: $("seek-preset").value, players,
    partnerships: players === 4 && $("seek-partnerships").checked, rated: $("seek-rated").checked,
  };
  const clock = Number($("seek-clock").value);
  if (clock && body.rated) body.move_seconds = clock;
  const r = await send("POST", "/api/seeks", body);
  if (r.status !== 201) refusal = { status: r.status, body: r.body };
  renderSeeks();
}

/** The form's choices, in the language now chosen (the presets from the server's config). */
export function renderSeekForm() {
  if (!$("seek-preset") || !state.config) return;
  const preset = $("seek-preset");
  const chosen = preset.value || "classic";
  preset.replaceChildren(...state.config.presets.map((p) => el("option", { value: p.name }, presetName(p.name))));
  preset.value = chosen;
  const players = $("seek-players");
  const count = players.value || "2";
  players.replaceChildren(...[2, 3, 4].map((n) => el("option", { value: String(n) }, tn("lobby.n_players", n))));
  players.value = count;
  $("seek-partnerships").disabled = players.value !== "4";
  const wait = $("play-now-wait");
  const seconds = wait.value || String(DEFAULT_WAIT);
  wait.replaceChildren(...WAITS.map((s) => el("option", { value: String(s) }, tn("seeks.seconds", s))));
  wait.value = seconds;
  for (const id of ["seek-clock", "play-now-clock"]) {
    const select = $(id);
    const kept = select.value || "0";
    select.replaceChildren(...MOVE_CLOCKS.map((s) => el("option", { value: String(s) }, clockText(s))));
    select.value = kept;
  }
  $("seek-clock").disabled = !$("seek-rated").checked;
}

/** Wire the panel once (the page's start). */
export function wireSeeks() {
  $("play-now").addEventListener("click", playNow);
  $("play-now-cancel").addEventListener("click", () => cancelWaiting(false));
  $("play-now-bot").addEventListener("click", () => cancelWaiting(true));
  $("seek-form").addEventListener("submit", postSeek);
  $("seek-players").addEventListener("change", () => {
    $("seek-partnerships").disabled = $("seek-players").value !== "4";
    if ($("seek-players").value !== "4") $("seek-partnerships").checked = false;
  });
  $("seek-rated").addEventListener("change", () => { $("seek-clock").disabled = !$("seek-rated").checked; });
  $("seeks-sign-in").addEventListener("click", () => { $("account-show-sign-in").click(); });
  $("seeks-sign-up").addEventListener("click", () => { $("account-show-sign-up").click(); });
  $("create-form").addEventListener("change", renderSeeks); // Play now plays the variant chosen there
  renderSeekForm();
  onAccountChange(() => {
    seeks = [];
    playing = [];
    stopWaiting();
    refusal = null;
    if (wanted && signedIn()) connect();
    else closeSeekSocket();
    renderSeeks();
  });
}
