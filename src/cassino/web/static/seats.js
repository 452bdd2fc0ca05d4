// Who sits where, from the latest payload: the reader's seat, names as the reader says them ("you",
// "you and Ana"), partners, and where each other seat is drawn around the table.

import { t } from "./i18n.js";
import { state } from "./state.js";

/** The reader's seat, or null for a spectator. */
export const you = () => (state.current.you === null ? null : state.current.you);
/** The seat the table is drawn from (a spectator sees it from seat 0). */
export const viewer = () => (state.current.you === null ? 0 : state.current.you);
export const players = () => state.current.seats.length;
export const sideOf = (s) => state.current.seats[s].side;

/** A seat's name as the reader says it: "you" for their own. */
export function seatName(s) {
  if (s === null || s === undefined || s < 0) return "";
  return s === you() ? t("seat.you") : state.current.seats[s].name;
}

/** A side's name: "you", "you and Ana", or its seats' names joined. */
export function sideName(side) {
  const seats = state.current.seats.filter((s) => s.side === side).map((s) => s.seat);
  if (seats.includes(you())) return seats.length > 1 ? t("side.you_and", { name: seatName(seats.find((s) => s !== you())) }) : t("seat.you");
  return seats.map(seatName).join(" & ");
}

export function isPartner(s) {
  return state.current.rules.partnerships && you() !== null && s !== you() && sideOf(s) === sideOf(you());
}

/** The other seats around a table of n drawn from the viewer's, in playing order: across from two,
 * left and right of three, left, across and right of four. */
export function seatPositions(n, viewerSeat) {
  const order = { 2: ["across"], 3: ["left", "right"], 4: ["left", "across", "right"] }[n];
  return order.map((pos, i) => ({ seat: (viewerSeat + 1 + i) % n, pos }));
}

export const positions = () => seatPositions(players(), viewer());

/** A seat's last move of this hand (its canonical line), or null. */
export function lastMoveOf(seat) {
  const moves = state.current.moves;
  for (let i = moves.length - 1; i >= 0; i--) if (moves[i].seat === seat) return moves[i].move;
  return null;
}
