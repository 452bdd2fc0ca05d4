// The end of a table in words. A game is won by the side that reaches the target; a table of one
// hand (a tournament's) may end with no side there: then no winner of the game is claimed, only
// the hand's points and who had the most, which is what the tournament counts.

import { $ } from "./dom.js";
import { t } from "./i18n.js";

/** Whether a game over ended with no winner of the game (its one hand counted, no forfeit). */
export const handOnly = (st) => st.status === "over" && !st.forfeit && !(st.winner >= 0);

/** The sides with the most points. */
export function leaders(scores) {
  const best = Math.max(...scores);
  return scores.flatMap((p, side) => (p === best ? [side] : []));
}

/** The banner once the game is over: who won, or the hand's end and who had the most points. */
export function overStatus(st, sideName) {
  if (!handOnly(st)) return t("status.over", { name: sideName(st.winner) });
  const top = leaders(st.scores);
  return top.length === 1 ? t("status.hand_most", { name: sideName(top[0]) }) : t("status.hand_drawn");
}

/** The over panel's title: who won and the scores, or the hand's points side by side, the
 * reader's side (`first`) first, and who had the most ("You 7 · Ann 4"). */
export function overTitle(st, sideName, first = null) {
  if (!handOnly(st)) return t("over.title", { name: sideName(st.winner), scores: st.scores.join(" : ") });
  const order = st.scores.map((_, side) => side).sort((a, b) => (b === first) - (a === first));
  const scores = order.map((side) => `${sideName(side)} ${st.scores[side]}`).join(" · ");
  const top = leaders(st.scores);
  return top.length === 1 ? t("over.hand_most", { name: sideName(top[0]), scores }) : t("over.hand_drawn", { scores });
}

/** Whether the game's deck is one others are still to play (a daily deal's until its day is
 * over, a tournament table's until the tournament is): its record, so its replay, waits. */
export const sealed = (st) => Boolean(st.daily?.sealed || st.tournament?.sealed);

/** The over panel's links: back to the tournament of a tournament's table, and the replay only
 * once the deck is no longer sealed. */
export function renderOverLinks(st) {
  const tour = st.tournament;
  const back = $("over-tournament");
  back.hidden = !tour;
  if (tour) back.href = `/tournament/${encodeURIComponent(tour.id)}`;
  $("replay-button").hidden = sealed(st);
  $("record-button").hidden = sealed(st);
}
