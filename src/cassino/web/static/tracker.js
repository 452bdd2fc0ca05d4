// What each side has taken this hand, as every strong player counts it: the cards and spades of its
// piles, the aces and casinos won and the sweeps. All of it is public (every captured card was face
// up), read from the payload alone.

import { el } from "./dom.js";
import { cardText, t, tn } from "./i18n.js";

const ACES = ["Ac", "Ad", "Ah", "As"];
const CASINOS = ["Td", "2s"];

/** Each side's tally of this hand: { side, cards, spades, sweeps, aces: [names], casinos: [names] },
 * from the payload's piles by seat (`captured`), its seats' sides and the seats that swept. */
export function tallies(st) {
  const sides = Math.max(...st.seats.map((s) => s.side)) + 1;
  const out = Array.from({ length: sides }, (_, side) => ({ side, cards: 0, spades: 0, sweeps: 0, aces: [], casinos: [] }));
  st.seats.forEach((seat, s) => {
    const side = out[seat.side];
    for (const card of st.captured[s]) {
      side.cards += 1;
      if (card[1] === "s") side.spades += 1;
      if (ACES.includes(card)) side.aces.push(card);
      if (CASINOS.includes(card)) side.casinos.push(card);
    }
  });
  for (const s of st.sweeps) out[st.seats[s].side].sweeps += 1;
  for (const side of out) {
    side.aces.sort((a, b) => ACES.indexOf(a) - ACES.indexOf(b));
    side.casinos.sort((a, b) => CASINOS.indexOf(a) - CASINOS.indexOf(b));
  }
  return out;
}

const SUITS = ["s", "h", "d", "c"];
const RANKS = "A23456789TJQK";

/** The cards a seat has not seen yet, by suit (spades, hearts, diamonds, clubs), each in rank
 * order: every card but its hand, the table's (loose and in builds) and every captured pile's. */
export function unseenCards(st) {
  const seen = new Set([...(st.hand || []), ...st.table.loose, ...st.table.builds.flatMap((b) => b.cards), ...st.captured.flat()]);
  return SUITS.map((suit) => ({ suit, cards: [...RANKS].map((r) => r + suit).filter((c) => !seen.has(c)) }));
}

/** The list of the cards not seen yet, a line per suit. */
export function unseenView(st) {
  return el("div", { class: "unseen", id: "unseen" }, ...unseenCards(st).map(({ suit, cards }) =>
    el("p", { class: `unseen-suit suit-${suit}`, "data-suit": suit },
      el("span", { class: "unseen-sign" }, { s: "♠", h: "♥", d: "♦", c: "♣" }[suit]),
      ...cards.map((card) => el("span", { class: "unseen-card", "data-card": card, title: cardText(card) }, card[0] === "T" ? "10" : card[0])),
      cards.length ? null : el("span", { class: "about" }, "—"))));
}

/** The tracker on the table: one line per side (`data-side`, with its numbers as data), named as
 * the reader says it (`sideName`). */
export function trackerView(st, sideName) {
  return el("div", { class: "tracker", "data-testid": "tracker", role: "group", "aria-label": t("tracker.title") },
    ...tallies(st).map((tally) => el("div", {
      class: "tracker-side", "data-side": String(tally.side), "data-cards": String(tally.cards),
      "data-spades": String(tally.spades), "data-sweeps": String(tally.sweeps),
    },
    el("strong", {}, sideName(tally.side)),
    el("span", {}, tn("tracker.cards", tally.cards)),
    el("span", {}, t("tracker.spades", { n: tally.spades })),
    tally.sweeps ? el("span", {}, tn("tracker.sweeps", tally.sweeps)) : null,
    ...[...tally.aces, ...tally.casinos].map((card) => el("span", { class: "tracker-card", "data-card": card }, cardText(card))))));
}
