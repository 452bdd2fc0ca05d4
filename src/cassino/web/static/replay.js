// The replay of a game over, on the main table: every position (each deal and each move) drawn as
// the live table draws it, every hand face up since the game is over, stepped through with buttons
// or the arrow keys. The review's costly moves open it at the position just before the move, with
// the move marked and the coach's note beside it.

import { $, el, img } from "./dom.js";
import { t, cardLabel } from "./i18n.js";
import { playedText, parseLine } from "./words.js";
import { motionOn, snapshot } from "./motion.js";
import { state } from "./state.js";
import { you, viewer, seatName } from "./seats.js";
import { render } from "./table.js";
import { animate, sayAgain } from "./cues.js";
import { noteText } from "./learning.js";
import { api } from "./transport.js";

// ------------------------------------------------------------------ positions (no page needed)
/** How many moves had been made at each frame: a deal adds none. */
export function movesMade(frames, at) {
  let n = 0;
  for (let i = 1; i <= at; i++) if (frames[i].move) n += 1;
  return n;
}

/** The frame just before the game's move `ply` (0-based, as the review numbers moves), or null. */
export function frameBefore(frames, ply) {
  let n = 0;
  for (let i = 0; i < frames.length; i++) {
    if (!frames[i].move) continue;
    if (n === ply) return i - 1;
    n += 1;
  }
  return null;
}

/** The move played from frame `at`: the next frame's, when that is in the same hand. */
export const nextMove = (frames, at) => (at + 1 < frames.length ? frames[at + 1].move : null);

/** The payload the table draws for frame `at`: the live one's seats, rules and names with the
 * frame's table, hands, piles and scores; nothing to play, since the game is over. */
export function framePayload(live, frames, at) {
  const f = frames[at];
  let start = at;
  while (start > 0 && frames[start].move) start -= 1;
  const handOver = f.to_move === null;
  return {
    ...live,
    phase: "play",
    status: "over",
    hand_number: f.hand,
    deal: f.deal,
    dealer: f.dealer,
    to_move: f.to_move,
    table: f.table,
    hand_sizes: f.hands.map((h) => h.length),
    captured: f.piles,
    sweeps: f.sweeps,
    stock: f.stock,
    scores: f.scores,
    moves: frames.slice(start + 1, at + 1).map((x) => x.move),
    finished: (live.finished || []).filter((h) => h.hand < f.hand || (handOver && h.hand === f.hand)),
    hand: live.you === null ? [] : f.hands[live.you],
    legal: [],
    why_not: null,
    can_undo: false,
  };
}

// ------------------------------------------------------------------ on the page
/** The game's frames, asked once per game (the record of a game over never changes). */
async function loadFrames() {
  const id = state.game.id;
  if (state.replay?.game === id) return state.replay.frames;
  if (state.record?.game === id) return state.record.frames;
  const r = await api(`/api/games/${id}/record`);
  const record = await r.json();
  if (!r.ok) { $("message").textContent = record.error; return null; }
  state.record = { game: id, frames: record.frames, text: record.record };
  return record.frames;
}

/** Save the finished game's record (the text `cassino record check` reads) as a file. */
export async function saveRecord() {
  const id = state.game.id;
  if (state.record?.game !== id) {
    const r = await api(`/api/games/${id}/record`);
    const record = await r.json();
    if (!r.ok) { $("message").textContent = record.error; return; }
    state.record = { game: id, frames: record.frames, text: record.record };
  }
  const url = URL.createObjectURL(new Blob([state.record.text], { type: "text/plain" }));
  const link = el("a", { href: url, download: `casino-${state.record.game}.txt`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** Open the replay at the start ("Replay with every hand shown"). */
export const startReplay = () => openReplay(null);

/** Open the replay just before the game's move `ply` (a move of the review), that move marked. */
export const openReplayAt = (ply) => openReplay(ply);

async function openReplay(ply) {
  const opener = document.activeElement;
  const frames = await loadFrames();
  if (!frames) return;
  const at = ply === null ? 0 : frameBefore(frames, ply);
  if (at === null) return;
  state.replay = { game: state.game.id, frames, at, opener };
  $("replay").hidden = false;
  $("table-view").classList.add("replaying");
  showFrame();
  window.scrollTo(0, 0);
  $("replay").scrollIntoView({ block: "nearest" }); // the table from its top, and its controls in view
  $("replay-next").focus({ preventScroll: true });
}

/** A new table: no replay on it. */
export function forgetReplay() {
  state.replay = null;
  $("replay").hidden = true;
  $("table-view").classList.remove("replaying");
  delete $("hand").dataset.replayHand;
}

/** Back to the finished game as it stands. */
export function closeReplay() {
  const replay = state.replay;
  if (!replay) return;
  forgetReplay();
  state.shown = state.current;
  render();
  sayAgain();
  const back = replay.opener && replay.opener.isConnected && !replay.opener.closest("[hidden]") ? replay.opener : $("replay-button");
  back.focus({ preventScroll: true });
}

/** Draw the replay's position on the table, with motion when it moved one step forward. */
export function showFrame(from = null) {
  const { frames, at } = state.replay;
  const live = state.current;
  const old = from !== null && at === from + 1 && motionOn() ? snapshot($("table-view")) : null;
  const before = old ? framePayload(live, frames, from) : null;
  state.current = framePayload(live, frames, at); // the table's modules read the position from here
  try {
    state.shown = state.current;
    render();
    reveal(frames, at);
    if (old) animate(old, before, null);
  } finally {
    state.current = live;
  }
  say(frames, at);
}

/** Every hand face up, the table's cards inert (nothing is played in a replay), the move about to
 * be played marked, and the seat to move outlined as at the live table. */
function reveal(frames, at) {
  const f = frames[at];
  const next = nextMove(frames, at);
  const move = next ? parseLine(next.move) : null;
  const marked = new Set(move ? [move.card, ...move.table] : []);
  for (const node of [...document.querySelectorAll("#table-cards > button")]) node.replaceWith(inert(node, marked));
  const hand = $("hand");
  hand.dataset.replayHand = String(viewer());
  hand.setAttribute("aria-label", you() === null ? t("replay.hand_of", { name: seatName(viewer()) }) : t("hand.label"));
  hand.replaceChildren(...cardsOf(f.hands[viewer()], marked));
  for (const box of document.querySelectorAll("#seats-around [data-seat]")) {
    const s = Number(box.dataset.seat);
    box.querySelector(".backs")?.replaceWith(el("div", { class: "replay-hand", "data-replay-hand": String(s), role: "group",
      "aria-label": t("replay.hand_of", { name: seatName(s) }) }, ...cardsOf(f.hands[s], marked)));
  }
  if (f.to_move !== null) for (const box of document.querySelectorAll(`[data-seat="${f.to_move}"]`)) box.classList.add("to-move");
}

/** Cards face up as the table draws them, each named for screen readers; `marked`: the next move's. */
function cardsOf(names, marked) {
  return names.map((name) => el("span", { class: "card-btn" + (marked.has(name) ? " replay-mark" : ""), "data-card": name,
    role: "img", "aria-label": cardLabel(name) }, img(name)));
}

/** A table card or build as drawn, without its button: the same look, nothing to press. */
function inert(button, marked) {
  const node = el(button.classList.contains("build") ? "div" : "span", { class: button.className, role: "img",
    "aria-label": button.getAttribute("aria-label") });
  for (const key of ["card", "build"]) if (button.dataset[key]) node.dataset[key] = button.dataset[key];
  node.append(...button.childNodes);
  const cards = node.dataset.card ? [node.dataset.card] : [...node.querySelectorAll("[data-card]")].map((i) => i.dataset.card);
  if (cards.some((c) => marked.has(c))) node.classList.add("replay-mark");
  return node;
}

/** Say where the replay is: the move count, the move that led here, the move played next and,
 * at one of the review's costly moves, the coach's note on it. */
function say(frames, at) {
  const f = frames[at];
  const total = movesMade(frames, frames.length - 1);
  const made = movesMade(frames, at);
  $("replay-pos").textContent = t("replay.position", { n: made, total, hand: f.hand });
  const tableBefore = at > 0 ? frames[at - 1].table : null;
  $("replay-move").textContent = f.move
    ? t("announce.move", { name: seatName(f.move.seat), move: playedText(f.move.move, you(), seatName, tableBefore) })
    : t("replay.dealt", { n: f.hand });
  const next = nextMove(frames, at);
  $("replay-next-move").textContent = next
    ? t("replay.next_move", { name: seatName(next.seat), move: playedText(next.move, you(), seatName, f.table) })
    : "";
  const notes = state.reviewNotes?.game === state.replay.game ? state.reviewNotes.costly : [];
  const costly = next && notes.find((c) => c.ply === made);
  $("replay-note").textContent = costly ? noteText(costly) : "";
  $("replay-note").hidden = !costly;
  for (const [id, off] of [["replay-first", at === 0], ["replay-prev", at === 0], ["replay-next", at === frames.length - 1], ["replay-last", at === frames.length - 1]]) {
    $(id).setAttribute("aria-disabled", off ? "true" : "false");
  }
}

/** Move through the replay by delta positions, kept within its first and last. */
export function step(delta) {
  const replay = state.replay;
  if (!replay) return;
  const from = replay.at;
  replay.at = Math.max(0, Math.min(replay.frames.length - 1, from + delta));
  if (replay.at !== from) showFrame(from);
}

const KEYS = { ArrowLeft: -1, ArrowRight: 1, Home: -1e9, End: 1e9 };

/** The replay's keys: the arrows step, Home and End go to the first and last, Escape closes it.
 * True when the key was the replay's. */
export function replayKey(event) {
  if (!state.replay || event.altKey || event.ctrlKey || event.metaKey) return false;
  if (event.key === "Escape") { closeReplay(); return true; }
  if (!(event.key in KEYS)) return false;
  step(KEYS[event.key]);
  event.preventDefault();
  return true;
}
