// The count scene's plan apart from drawing it: the steps turned up one by one (the last cards on
// the table going to the last capturer, then each item as the rules count it) with each side's
// running points, when each step comes, the score bars from the old game score to the new, the
// target they run to, the keys that skip to the end, and the summary screen readers hear.

import { t, tn } from "./i18n.js";

/** The steps of a finished hand's count, in order: the residue when cards were left on the table
 * ({kind: "residue", seat, cards}; seat null when nobody captured), then every item of `count`
 * as the payload has it ({kind: "item", item, side, points, and card, seat or counts}). Each step
 * carries `tally`, every side's points of this hand once it is turned up. */
export function countSteps(hand) {
  const tally = hand.points.map(() => 0);
  const steps = [];
  const residue = hand.residue || { seat: null, cards: [] };
  if (residue.cards.length) steps.push({ kind: "residue", seat: residue.seat, cards: [...residue.cards], tally: [...tally] });
  for (const item of hand.count || []) {
    if (item.side >= 0) tally[item.side] += item.points;
    steps.push({ kind: "item", ...item, tally: [...tally] });
  }
  return steps;
}

export const FIRST_MS = 700; // the residue's cards fly to the pile first (cues.js), then the scene turns up
export const STEP_MS = 450;
export const BARS_MS = 400; // motion.js's longest animation

/** When each step is turned up (ms after the scene appears), when the check and the bars come, and
 * when the scene is at its end. */
export function timeline(steps) {
  const at = steps.map((_, i) => FIRST_MS + i * STEP_MS);
  const check = FIRST_MS + steps.length * STEP_MS;
  return { at, check, bars: check, end: check + BARS_MS };
}

/** The score line of each side: the game score before and after the hand, the target, and how
 * much of the bar each fills (0 to 1, a score past the target fills it). */
export function scoreBars(hand, target) {
  return hand.scores.map((to, side) => {
    const from = to - hand.points[side];
    const share = (n) => Math.max(0, Math.min(1, n / target));
    return { side, from, to, target, fromShare: share(from), toShare: share(to), reached: to >= target };
  });
}

/** The score a game is played to: the table's rules name it when it differs from the preset's
 * (Rules.to_json), else the preset's value in the lobby's config. */
export function targetOf(rules, config) {
  if (typeof rules.target === "number") return rules.target;
  const preset = config?.presets?.find((p) => p.name === rules.preset);
  return preset ? preset.options.target : null;
}

/** Does a key pressed on the table skip the count to its end? Space, Enter and Escape do, unless
 * the focus is on something that uses them itself: `focus` is "field" (a text field or menu: every
 * key is its own), "control" (a button or link: Space and Enter press it) or "none". */
export function skipsCount(key, focus) {
  if (focus === "field") return false;
  if (key === "Escape") return true;
  return (key === " " || key === "Enter") && focus === "none";
}

/** What screen readers hear once, politely: each side's points of the hand and the game score. */
export function summaryText(hand, sideName) {
  const points = hand.points.map((n, side) => tn("count.side_points", n, { name: sideName(side) })).join(", ");
  const scores = hand.scores.map((n, side) => `${sideName(side)} ${n}`).join(", ");
  return t("count.summary", { n: hand.hand, points, scores });
}
