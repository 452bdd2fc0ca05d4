// What a move shows and says besides the new table: the cards travelling (from a hand to the
// table, from the table to a pile, from the stock at a deal), the move announced for screen
// readers, and its sounds (a card, a capture, a sweep, the reader's turn) for a reader who turned them on.

import { $ } from "./dom.js";
import { t, cardsText } from "./i18n.js";
import { playedText } from "./words.js";
import { slideFrom, flyAway, arriveFrom } from "./motion.js";
import { state } from "./state.js";
import { you, seatName } from "./seats.js";
import { soundOn } from "./storage.js";
import { soundsFor, playSounds } from "./sounds.js";

/** Move each card from where it was (`old`, a snapshot) to where the new state put it. */
export function animate(old, before, countHand) {
  const current = state.current;
  const last = current.moves.length ? current.moves[current.moves.length - 1] : null;
  const handEnded = before && current.hand_number !== before.hand_number;
  const newDeal = before && !handEnded && current.deal !== before.deal;
  const mover = handEnded ? before.to_move : last ? last.seat : null;
  const pileOf = (s) => document.querySelector(`[data-pile="${s}"]`) || $("felt");
  const seatOf = (s) => document.querySelector(`[data-seat="${s}"] .seat-hand`) || document.querySelector(`[data-seat="${s}"]`) || $("felt");
  const residue = new Set(handEnded && countHand?.residue?.cards ? countHand.residue.cards : []);
  const now = new Set();
  let dealt = 0;
  for (const node of document.querySelectorAll("#table-view [data-card]")) {
    if (node.closest("[data-still]")) continue;
    const name = node.dataset.card;
    now.add(name);
    const was = old.get(name);
    if (was) slideFrom(node, was.rect, 320);
    else if (node.closest("#hand")) arriveFrom(node, $("stock-pile") || $("felt"), 260, Math.floor(dealt++ / 2) * 110);
    else if (newDeal || (before && before.phase === "count")) arriveFrom(node, $("stock-pile") || $("felt"), 260, Math.floor(dealt++ / 2) * 110);
    else if (mover !== null) arriveFrom(node, seatOf(mover), 320);
  }
  let away = 0;
  for (const [name, was] of old) {
    if (now.has(name)) continue;
    const target = residue.has(name) ? pileOf(countHand.residue.seat) : pileOf(mover);
    flyAway(was, target, 360, residue.has(name) ? 380 : Math.min(away++ * 30, 150));
  }
  for (const s of document.querySelectorAll(".seat.to-move")) s.animate?.([{ boxShadow: "0 0 0 0 #f5c54288" }, { boxShadow: "0 0 0 10px #f5c54200" }], { duration: 400 });
}

/** What the last-move line says, as a function of the language, so that it is said again in
 * another language when the reader switches (`sayAgain`). */
let said = null;

/** Say the last move (or where the hand's last cards went) on the line under the felt, which
 * screen readers read too: with motion or without. */
export function announce(before, countHand) {
  const current = state.current;
  const handEnded = before && current.hand_number !== before.hand_number;
  if (handEnded && countHand?.residue?.cards?.length && countHand.residue.seat !== null) {
    const { cards, seat } = countHand.residue;
    said = () => t("announce.residue", { cards: cardsText(cards), name: seatName(seat) });
  } else {
    const last = current.moves.length ? current.moves[current.moves.length - 1] : null;
    if (!last || !before || before.version === current.version) return;
    const table = before.table;
    said = () => t("announce.move", { name: seatName(last.seat), move: playedText(last.move, you(), seatName, table) });
  }
  sayAgain();
}

/** Say the last move again, in the language now chosen. */
export function sayAgain() {
  $("announce").textContent = said ? said() : "";
}

/** A new table: nothing said yet. */
export function forgetAnnouncement() {
  said = null;
  sayAgain();
}

/** The sounds of the new state, when the reader has turned them on (sounds.js). */
export function soundCues(before) {
  if (soundOn()) playSounds(soundsFor(before, state.current, you()));
}
