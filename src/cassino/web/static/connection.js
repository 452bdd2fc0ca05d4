// The table's connection: one WebSocket to the game (reconnected with growing pauses), the
// messages it brings (states, refusals, hints, coach notes, lessons due, the chat), what the page sends,
// and this seat's contribution to each next deal.

import { $ } from "./dom.js";
import { t, reasonText } from "./i18n.js";
import { state, noSelection } from "./state.js";
import { dealRecord, keepDeal, holdSeat } from "./storage.js";
import { showProblem } from "./views.js";
import { update, renderPlay } from "./table.js";
import { learning, askCoach, askLessons, showCoach, showLesson } from "./learning.js";
import { onChat, onChatHistory, onChatRefused, chatOnState } from "./chat.js";
import { startReplay } from "./replay.js";
import { sealed } from "./result.js";
import { api, offline, openSocket } from "./transport.js";

const sentDeals = new Set(); // "game/hand": the hands this socket has sent a contribution to

export function connect() {
  const game = state.game;
  closeSocket();
  const socket = openSocket(game.id, game.token);
  state.socket = socket;
  sentDeals.clear(); // a new socket: a contribution not yet listed is sent again
  $("conn").textContent = t("conn.connecting");
  $("conn").dataset.state = "connecting";
  socket.onopen = () => {
    $("conn").textContent = t(offline ? "conn.here" : "conn.live"); $("conn").dataset.state = "live"; state.retry = 500;
    send({ type: "chat_history" }); // the table's chat, as this reader may read it (chat.js)
  };
  socket.onmessage = (event) => onMessage(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code === 4404) { showProblem("no_game", game.id); return; }
    if (event.code === 4403) { showProblem("bad_token", game.id); return; }
    $("conn").textContent = t("conn.reconnecting");
    $("conn").dataset.state = "disconnected";
    if (event.code >= 4400) return;
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  };
}

/** Close the socket without reconnecting (another table or the lobby is opened). */
export function closeSocket() {
  if (!state.socket) return;
  state.socket.onclose = null;
  state.socket.close();
  state.socket = null;
}

/** Send a message; false (and a word to the player) when the socket is not open. */
export function send(message) {
  const socket = state.socket;
  if (!socket || socket.readyState !== 1 /* open */) { $("message").textContent = t("conn.not_connected"); return false; }
  socket.send(JSON.stringify(message));
  return true;
}

function onMessage(msg) {
  const game = state.game;
  if (msg.type === "state") {
    const moved = !state.current || msg.version !== state.current.version;
    if (moved) { state.hint = null; state.hintWhy = null; state.lessonShown = null; $("message").textContent = ""; }
    if (state.current && moved) state.selection = noSelection();
    const before = state.current;
    state.current = msg;
    if (msg.you !== null && game.token) holdSeat(game.id, { token: game.token, seat: msg.you, preset: msg.rules.preset, players: msg.rules.players });
    contributeToNext();
    if (offline) showPosition(msg.version);
    update(before);
    askCoach();
    askLessons();
    chatOnState();
    if (game.replay) { // a profile's link: the finished game opens in its replay
      game.replay = false;
      if (msg.status === "over" && !state.replay && !sealed(msg)) startReplay();
    }
  } else if (msg.type === "error") {
    if (msg.status === 404 && !state.current) { showProblem("no_game", game.id); return; }
    if (msg.status === 403 && !state.current) { showProblem("bad_token", game.id); return; }
    if (msg.request?.startsWith("chat")) { onChatRefused(msg); return; } // said in the chat panel
    if (msg.request === "contribute") return; // a late contribution: the hand says whether it was used
    state.coachFor = null; // a refused move has no note to wait for
    $("message").textContent = msg.reason ? reasonText(msg.reason) : msg.error;
  } else if (msg.type === "hint") {
    if (msg.version !== state.current.version) return; // for a position that is gone
    state.hint = msg.move;
    state.hintWhy = msg.why;
    renderPlay();
  } else if (msg.type === "coach") {
    if (msg.note && learning().coach) showCoach(msg.note);
  } else if (msg.type === "lessons") {
    if (msg.version === state.current.version && msg.due.length && learning().lessons) showLesson(msg.due[0]);
  } else if (msg.type === "chat") {
    onChat(msg);
  } else if (msg.type === "chat_history") {
    onChatHistory(msg);
  }
}

/** Offline, the engine is in this page, and so is the whole position of the hand: it is written
 * (canonical JSON, as `cassino moves` reads it) where a checker finds it, never shown. */
async function showPosition(version) {
  const game = state.game;
  const r = await api(`/api/games/${game.id}/position`, { headers: game.token ? { "x-cassino-token": game.token } : {} });
  if (!r.ok || state.game !== game || state.current?.version !== version) return;
  const { position } = await r.json();
  $("position").textContent = JSON.stringify(position);
  $("position").dataset.version = String(version);
}

/** What this page does about the next deal: keep the commitment it sees now, and, for a person's
 * seat held here that has not contributed yet, the contribution to send (the one kept before,
 * after a reload, else a new one). Pure: `kept` is this browser's record of that hand. */
export function nextDealPlan(next, seat, person, kept, newValue) {
  if (!person || next.contributed.includes(seat)) return { keep: kept ? null : { commitment: next.commitment }, send: null };
  if (kept && kept.value) return { keep: null, send: kept.value };
  const entry = { commitment: kept?.commitment || next.commitment, value: newValue(), seat };
  return { keep: entry, send: entry.value };
}

/** The next hand's seed is committed (next_deal): keep the commitment as seen now, before anything
 * is sent, and if this page holds a person's seat that has not contributed yet, contribute, with
 * the same value again after a reload (the server takes one value a seat, and the same again). */
function contributeToNext() {
  const { current, game } = state;
  const next = current.next_deal;
  if (!next || !game) return;
  const me = current.you;
  const person = me !== null && Boolean(game.token) && current.seats[me]?.kind === "human";
  const plan = nextDealPlan(next, me, person, dealRecord(game.id, next.hand), () => window.cassinoDeal.newContribution());
  if (plan.keep) keepDeal(game.id, next.hand, plan.keep);
  if (!plan.send) return;
  const key = `${game.id}/${next.hand}`;
  if (sentDeals.has(key)) return;
  if (send({ type: "contribute", hand: next.hand, value: plan.send })) sentDeals.add(key);
}
