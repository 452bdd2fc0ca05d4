// The side panels: the scores hand by hand, the rules of this table in words, this hand's moves,
// and the result once the game is over (the fair deals have their own module).

import { $, el } from "./dom.js";
import { t, tn, has } from "./i18n.js";
import { playedText } from "./words.js";
import { presetName } from "./options.js";
import { state } from "./state.js";
import { you, viewer, sideOf, seatName, sideName } from "./seats.js";
import { renderFair } from "./fairness.js";
import { learnSettings } from "./storage.js";
import { unseenView } from "./tracker.js";
import { overText } from "./daily.js";
import { overTitle, renderOverLinks } from "./result.js";

export function renderSide() {
  const st = state.shown;
  const scores = $("scores");
  scores.replaceChildren(el("table", { class: "score-table" },
    el("tr", {}, el("th", {}, ""), ...st.scores.map((_, side) => el("th", { class: side === sideOf(viewer()) ? "ours" : "" }, sideName(side)))),
    ...st.finished.map((h) => el("tr", {}, el("td", {}, t("side.hand_n", { n: h.hand })), ...h.points.map((p) => el("td", {}, String(p))))),
    el("tr", { class: "total" }, el("td", {}, t("side.total")), ...st.scores.map((p) => el("td", {}, String(p))))));
  $("rules-text").textContent = rulesText(st.rules);
  const list = $("moves");
  list.replaceChildren(...st.moves.map((m) => el("li", {}, el("strong", {}, seatName(m.seat)), " ", playedText(m.move, you(), seatName))));
  list.scrollTop = list.scrollHeight;
  $("over").hidden = st.status !== "over";
  $("review-button").hidden = st.status !== "over" || you() === null;
  if (st.status === "over") {
    const first = you() === null ? null : sideOf(you());
    $("over-title").textContent = (st.daily && overText(st, viewer())) || overTitle(st, sideName, first);
    renderOverLinks(st);
  }
  const forfeit = $("over-forfeit");
  forfeit.hidden = !st.forfeit;
  if (st.forfeit) forfeit.textContent = t("over.forfeit", { name: seatName(st.forfeit.seat), reason: forfeitReason(st.forfeit) });
  renderFold();
  renderUnseen();
  renderFair();
}

/** The cards not seen yet, for a learner who asked for them: never where hints are off (a game
 * between people whose creator did not allow help). */
function renderUnseen() {
  const st = state.shown;
  const allowed = you() !== null && state.current.help !== false && Boolean(state.game);
  $("set-unseen-row").hidden = !allowed;
  const on = allowed && learnSettings(state.game.id).unseen && st.status !== "over" && st.phase !== "count";
  $("unseen-panel").hidden = !on;
  if (on) $("unseen").replaceWith(unseenView(st));
}

/** Does anyone else sit at this table as a person (not a computer player)? */
export const withPeople = (seats, me) => seats.some((seat, s) => s !== me && seat.kind !== "bot");

/** The fairness and invitation panels: open at a table with other people (who check the deals and
 * need the links), folded into one line that opens them in a game against the computer. */
function renderFold() {
  const fold = $("fair-fold");
  const people = withPeople(state.current.seats, you());
  fold.classList.toggle("unfolded", people);
  if (people) fold.open = true;
}

/** A table's rules in one line: the variant, the players, then each option the catalogue names. */
export function rulesText(rules) {
  const parts = [presetName(rules.preset), tn("lobby.n_players", rules.players)];
  if (rules.partnerships) parts.push(t("lobby.partnerships"));
  for (const [k, v] of Object.entries(rules)) {
    if (["preset", "players", "partnerships"].includes(k) || !has(`option.${k}.label`)) continue;
    const value = typeof v === "boolean" ? t(v ? "rules.on" : "rules.off") : has(`option.${k}.choice.${v}`) ? t(`option.${k}.choice.${v}`) : String(v);
    parts.push(`${t(`option.${k}.label`)}: ${value}`);
  }
  return parts.join(" · ");
}

/** Why a seat forfeited, in the page's language when the game was claimed from it (it left the
 * table, or its move clock ran out), else as the server said it (a bot program's fault). */
export function forfeitReason(forfeit) {
  const claimed = forfeit.claimed;
  if (claimed?.why === "left") return t("leave.reason_left");
  if (claimed?.why === "time") return t("leave.reason_time", { n: claimed.seconds });
  return forfeit.reason;
}
