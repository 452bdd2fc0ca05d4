// The count after each hand: its items one by one (who took the most cards, the spades, each ace,
// the casinos, the sweeps), the points of the hand and of the game, the 11-point check, and the
// button to the next hand with who is still to press it.

import { $, el } from "./dom.js";
import { t, tn, cardText } from "./i18n.js";
import { motionOn } from "./motion.js";
import { state } from "./state.js";
import { you, viewer, sideOf, seatName, sideName } from "./seats.js";
import { send } from "./connection.js";
import { render } from "./table.js";

/** The hand whose count is on screen: the last one while the game counts, or the game's last
 * until this page has closed it; null when none is. */
export function countToShow(st, dismissed) {
  if (!st.finished || !st.finished.length) return null;
  const last = st.finished[st.finished.length - 1];
  if (st.phase === "count") return last;
  if (st.status === "over" && dismissed < last.hand) return last;
  return null;
}

/** An item of the count in words: "Most cards", "Ace A♠". */
export function itemLabel(item) {
  const base = t(`count.item.${item.item}`);
  return item.card ? `${base} ${cardText(item.card)}` : base;
}

export function showCount(hand) {
  const box = $("count");
  box.hidden = false;
  $("count-title").textContent = t("count.title", { n: hand.hand });
  const list = $("count-items");
  const fresh = state.countShownFor !== hand.hand;
  if (fresh) {
    state.countShownFor = hand.hand;
    list.replaceChildren();
    const items = hand.count || [];
    items.forEach((item, i) => {
      const who = item.side < 0 ? t(item.item === "cards" || item.item === "spades" ? "count.tie" : "count.nobody") : sideName(item.side);
      const detail = item.counts ? el("span", { class: "about" }, ` (${item.counts.join(" : ")})`) : null;
      const row = el("li", { class: "count-item" + (item.side === sideOf(viewer()) ? " ours" : ""), "data-item": item.item },
        el("span", { class: "what" }, itemLabel(item), detail), el("span", { class: "who" }, who),
        el("span", { class: "points" }, item.points ? `+${item.points}` : "0"));
      list.append(row);
      if (motionOn()) row.animate([{ opacity: 0, transform: "translateY(8px) rotateX(80deg)" }, { opacity: 1, transform: "none" }],
        { duration: 300, delay: i * 180, fill: "backwards" });
    });
    const totals = $("count-totals");
    totals.replaceChildren(el("table", { class: "totals" },
      el("tr", {}, el("th", {}, ""), ...hand.points.map((_, side) => el("th", {}, sideName(side)))),
      el("tr", {}, el("td", {}, t("count.hand_points")), ...hand.points.map((p) => el("td", {}, String(p)))),
      el("tr", {}, el("td", {}, t("count.game_score")), ...hand.scores.map((p) => el("td", {}, String(p))))));
    const ok = hand.checksum === hand.expected;
    $("count-check").textContent = t(ok ? "count.check_ok" : "count.check_off", { n: hand.checksum, expected: hand.expected });
  }
  renderNext(hand);
}

function renderNext(hand) {
  const current = state.current;
  const button = $("next-hand");
  const waiting = $("count-waiting");
  clearInterval(state.countTimer);
  if (current.status === "over") {
    button.hidden = false;
    button.disabled = false;
    button.textContent = t("count.see_result");
    button.onclick = () => { state.countDismissed = hand.hand; $("count").hidden = true; render(); };
    waiting.textContent = t("status.over", { name: sideName(current.winner) });
    return;
  }
  const me = you();
  const pressed = me !== null && (current.ready || []).includes(me);
  button.hidden = me === null;
  button.disabled = pressed;
  button.textContent = pressed ? t("count.waiting") : t("count.next");
  button.onclick = () => { if (send({ type: "next" })) { button.disabled = true; button.textContent = t("count.waiting"); } };
  const others = (current.waiting_for || []).filter((s) => s !== me);
  const tick = () => {
    const parts = [];
    if (others.length) parts.push(t("count.waiting_for", { names: others.map(seatName).join(", ") }));
    if (current.next_deadline) {
      const left = Math.max(0, Math.round(current.next_deadline - Date.now() / 1000));
      parts.push(tn("count.starts_in", left));
    }
    waiting.textContent = parts.join(" · ");
  };
  tick();
  if (current.next_deadline) state.countTimer = setInterval(tick, 1000);
}
