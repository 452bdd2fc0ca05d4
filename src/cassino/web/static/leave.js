// Leaving a rated game, and its move clock, at the table: the line that says who left (or ran out of
// time) and from when the game may be claimed, the "Claim the game" and "Wait" buttons beside the
// prompt, and the clock of the seat to move. The server decides what may be claimed (its payload's
// `claims`, each with the seat, why and from when); the page counts down to it and asks.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { state } from "./state.js";
import { you, seatName } from "./seats.js";
import { send } from "./connection.js";

const URGENT = 10; // seconds: the clock turns red

let ticking = null;
let waited = null; // the claim this reader chose to wait on ("seat why from")

/** m:ss of a number of seconds, rounded up, never below 0:00. */
export function clockTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The claim the seat `seat` may make, or will be able to, in state `st` at `now` (epoch seconds):
 * the first due of the claims on another side, with how long is left; or its own seat's, when its
 * own clock ran out (`own`); null for a spectator, a game over, or nothing to claim. */
export function claimFor(st, seat, now) {
  if (seat === null || seat === undefined || st.status === "over") return null;
  const sideOf = (s) => st.seats[s].side;
  const claims = [...(st.claims || [])].sort((a, b) => a.from - b.from);
  const theirs = claims.find((c) => sideOf(c.seat) !== sideOf(seat));
  if (theirs) return { ...theirs, left: Math.max(0, theirs.from - now), due: theirs.from <= now, own: false };
  const mine = claims.find((c) => c.seat === seat && c.why === "time" && c.from <= now);
  return mine ? { ...mine, left: 0, due: true, own: true } : null;
}

/** What the claim line says: null when it shows nothing (a clock not run out yet: the clock says it). */
export function claimText(claim, name, waiting) {
  if (!claim) return null;
  if (claim.own) return t("leave.own_time");
  if (!claim.due) return claim.why === "left" ? t("leave.left_soon", { name, time: clockTime(claim.left) }) : null;
  if (waiting) return t("leave.waiting", { name });
  return t(claim.why === "left" ? "leave.left_claim" : "leave.time_claim", { name });
}

/** The clock of the seat to move: its seat, seconds left and whether they are its last ten. */
export function clockFor(st, now) {
  if (st.move_deadline === null || st.move_deadline === undefined || st.status === "over") return null;
  const left = Math.max(0, st.move_deadline - now);
  return { seat: st.to_move, left, urgent: left <= URGENT };
}

/** A seat's clock, for its box on the table (null when it is not its turn or there is no clock). */
export function seatClock(st, seat) {
  const clock = clockFor(st, Date.now() / 1000);
  if (!clock || clock.seat !== seat || st.phase === "count") return null;
  return el("span", { class: "move-clock" + (clock.urgent ? " urgent" : ""), "data-testid": "clock",
    "data-deadline": String(st.move_deadline), "aria-label": t("leave.clock_label", { time: clockTime(clock.left) }) },
  clockTime(clock.left));
}

const key = (c) => `${c.seat} ${c.why} ${c.from}`;

/** Draw the claim line, the buttons and this reader's own clock, now; and keep them ticking. */
export function renderLeave() {
  const st = state.current;
  const box = $("claim");
  if (!st || !box) return;
  const now = Date.now() / 1000;
  const claim = claimFor(st, you(), now);
  const text = claimText(claim, claim ? seatName(claim.seat) : "", claim && waited === key(claim));
  box.hidden = text === null;
  $("claim-text").textContent = text || "";
  $("claim-button").hidden = !claim || !claim.due || claim.own;
  $("claim-wait").hidden = $("claim-button").hidden || waited === key(claim);
  box.dataset.seat = claim ? String(claim.seat) : "";
  const mine = $("my-clock");
  const clock = clockFor(st, now);
  const myTurn = clock && clock.seat === you() && st.phase !== "count";
  mine.hidden = !myTurn;
  if (myTurn) {
    mine.textContent = t("leave.my_clock", { time: clockTime(clock.left) });
    mine.dataset.deadline = String(st.move_deadline);
    mine.classList.toggle("urgent", clock.urgent);
  }
  for (const node of document.querySelectorAll('[data-testid="clock"][data-deadline]')) {
    const left = Math.max(0, Number(node.dataset.deadline) - now);
    node.textContent = clockTime(left);
    node.classList.toggle("urgent", left <= URGENT);
  }
  const running = Boolean(clock) || Boolean(claim && !claim.due);
  if (running && !ticking) ticking = setInterval(renderLeave, 1000);
  if (!running && ticking) { clearInterval(ticking); ticking = null; }
}

/** Wire the buttons once (the page's start). */
export function wireLeave() {
  $("claim-button").addEventListener("click", () => {
    const claim = claimFor(state.current, you(), Date.now() / 1000);
    if (claim) send({ type: "claim", seat: claim.seat });
  });
  $("claim-wait").addEventListener("click", () => {
    const claim = claimFor(state.current, you(), Date.now() / 1000);
    waited = claim ? key(claim) : null;
    renderLeave();
    $("claim-button").focus();
  });
}
