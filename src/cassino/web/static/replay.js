// The replay of a game over, position by position with every hand shown.

import { $, el, img } from "./dom.js";
import { t, tn, cardsText } from "./i18n.js";
import { playedText } from "./words.js";
import { state } from "./state.js";
import { you, seatName } from "./seats.js";

export async function startReplay() {
  const r = await fetch(`/api/games/${state.game.id}/record`);
  const record = await r.json();
  if (!r.ok) { $("message").textContent = record.error; return; }
  state.frames = record.frames;
  state.frameIndex = 0;
  $("replay").hidden = false;
  showFrame();
}

export function showFrame() {
  const { frames, frameIndex } = state;
  const f = frames[frameIndex];
  $("replay-pos").textContent = t("replay.position", { n: frameIndex + 1, total: frames.length, hand: f.hand });
  const box = $("replay-frame");
  box.replaceChildren(el("p", { class: "replay-move" }, f.move ? `${seatName(f.move.seat)}: ${playedText(f.move.move, you(), seatName)}` : t("replay.dealt", { n: f.hand })));
  f.hands.forEach((cards, s) => box.append(el("div", { class: "frame-seat" },
    el("span", {}, `${seatName(s)} (${tn("seat.pile_cards", f.captured[s])})`), el("div", { class: "cards" }, ...cards.map((c) => img(c, "card small"))))));
  const table = el("div", { class: "cards" }, ...f.table.loose.map((c) => img(c, "card small")));
  for (const b of f.table.builds) table.append(el("span", { class: "about" }, ` [${t("build.label_single", { value: b.value, owner: seatName(b.owner) })}: ${cardsText(b.cards)}] `));
  box.append(el("div", { class: "frame-seat" }, el("span", {}, `${t("table.title")} (${tn("table.stock", f.stock)})`), table));
}

/** Move through the replay by delta positions, kept within its first and last. */
export function step(delta) {
  state.frameIndex = Math.max(0, Math.min(state.frames.length - 1, state.frameIndex + delta));
  showFrame();
}
