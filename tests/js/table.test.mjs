// The table's logic apart from drawing it: who sits where and how seats and sides are named, which
// count is on screen, the count's items, the deal and the rules in words, the moves that fit a
// choice, this page's part in the next deal, and a checked deal's summary.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { setCatalogue } from "../../src/cassino/web/static/i18n.js";
import { state } from "../../src/cassino/web/static/state.js";
import { isPartner, lastMoveOf, positions, seatName, seatPositions, sideName } from "../../src/cassino/web/static/seats.js";
import { countToShow, itemLabel } from "../../src/cassino/web/static/count.js";
import { buildKey, dealLabel, faceOf, movesFitting, pileDepth } from "../../src/cassino/web/static/table.js";
import { rulesText, withPeople } from "../../src/cassino/web/static/side.js";
import { nextDealPlan } from "../../src/cassino/web/static/connection.js";
import { fairSummary, problemText } from "../../src/cassino/web/static/fairness.js";
import { itemName } from "../../src/cassino/web/static/learning.js";
import { catalogue } from "./support.mjs";

const english = catalogue("en");
before(() => setCatalogue("en", english));

/** A payload's seats for four in partnerships (seats 0 and 2 against 1 and 3), read from `you`. */
function fourSeats(you) {
  const seats = ["Ana", "Ben", "Cy", "Dee"].map((name, seat) => ({ seat, name, side: seat % 2, kind: seat ? "bot" : "human" }));
  return { you, seats, rules: { partnerships: true }, moves: [] };
}

describe("who sits where", () => {
  test("the other seats around the viewer, in playing order", () => {
    assert.deepEqual(seatPositions(2, 0), [{ seat: 1, pos: "across" }]);
    assert.deepEqual(seatPositions(3, 2), [{ seat: 0, pos: "left" }, { seat: 1, pos: "right" }]);
    assert.deepEqual(seatPositions(4, 1), [{ seat: 2, pos: "left" }, { seat: 3, pos: "across" }, { seat: 0, pos: "right" }]);
  });

  test("a spectator sees the table from seat 0", () => {
    state.current = fourSeats(null);
    assert.deepEqual(positions(), [{ seat: 1, pos: "left" }, { seat: 2, pos: "across" }, { seat: 3, pos: "right" }]);
  });

  test("names as the reader says them: themselves, their side, their partner", () => {
    state.current = fourSeats(0);
    assert.deepEqual([0, 1, 2, 3, null, -1].map(seatName), ["You", "Ben", "Cy", "Dee", "", ""]);
    assert.deepEqual([0, 1].map(sideName), ["You & Cy", "Ben & Dee"]);
    assert.deepEqual([0, 1, 2, 3].map(isPartner), [false, false, true, false]);
    state.current = fourSeats(null);
    assert.deepEqual([0, 1].map(sideName), ["Ana & Cy", "Ben & Dee"]);
    assert.equal(isPartner(2), false);
  });

  test("a side of one that is the reader's is just 'You'", () => {
    state.current = { you: 1, seats: [{ seat: 0, name: "Ana", side: 0 }, { seat: 1, name: "Ben", side: 1 }], rules: {}, moves: [] };
    assert.deepEqual([0, 1].map(sideName), ["Ana", "You"]);
  });

  test("a seat's last move of the hand", () => {
    state.current = { ...fourSeats(0), moves: [{ seat: 1, move: "trail 2c" }, { seat: 2, move: "trail 3c" }, { seat: 1, move: "trail 4c" }] };
    assert.deepEqual([0, 1, 2].map(lastMoveOf), [null, "trail 4c", "trail 3c"]);
  });
});

describe("the count", () => {
  const hand = (n) => ({ hand: n, points: [3, 8] });

  test("the last hand's count while the game counts, or at its end until closed", () => {
    assert.equal(countToShow({ finished: [], phase: "play", status: "playing" }, 0), null);
    assert.equal(countToShow({ finished: [hand(1)], phase: "play", status: "playing" }, 0), null);
    assert.deepEqual(countToShow({ finished: [hand(1), hand(2)], phase: "count", status: "playing" }, 2), hand(2));
    assert.deepEqual(countToShow({ finished: [hand(1), hand(2)], phase: null, status: "over" }, 1), hand(2));
    assert.equal(countToShow({ finished: [hand(1), hand(2)], phase: null, status: "over" }, 2), null);
  });

  test("each item in words, with its card", () => {
    assert.equal(itemLabel({ item: "cards", side: 0, points: 3 }), "Most cards");
    assert.equal(itemLabel({ item: "ace", card: "As", side: 1, points: 1 }), "Ace A♠");
    assert.equal(itemLabel({ item: "big_casino", card: "Td", side: 1, points: 2 }), "Big Casino 10♦");
  });

  test("the review names points in the plural where it has its own word", () => {
    assert.equal(itemName("ace"), "Aces");
    assert.equal(itemName("cards"), "Most cards");
  });
});

describe("the table in words", () => {
  test("which deal of the hand", () => {
    assert.equal(dealLabel({ rules: { draw: false, players: 3 }, stock: 20, deal: 2 }), "Deal 2 of 4");
    assert.equal(dealLabel({ rules: { draw: false, players: 2 }, stock: 40, deal: 1 }), "Deal 1 of 6");
    assert.equal(dealLabel({ rules: { draw: true, players: 2 }, stock: 30, deal: 1 }), "Deal 1 of 1");
    assert.equal(dealLabel({ rules: { draw: false, players: 4 }, stock: 0, deal: 3 }), "Last deal");
  });

  test("the rules: variant, players, then each option the catalogue names", () => {
    const rules = { preset: "spade", players: 4, partnerships: true, sweeps: true, scoring: "spade", target: 61, seed_scheme: "x" };
    assert.equal(rulesText(rules), "Spade Casino · 4 players · Partnerships · Sweeps score: on · Scoring: spades: every spade scores · Points to win: 61");
  });

  test("a build's key is its cards", () => {
    assert.equal(buildKey({ cards: ["2c", "4h"], value: 6 }), "build:2c 4h");
  });
});

describe("choosing a move", () => {
  const legal = [
    { move: "capture 8s 8: 5h 3c", card: "8s", table: ["5h", "3c"] },
    { move: "capture 8s 8: 8d", card: "8s", table: ["8d"] },
    { move: "trail 8s", card: "8s", table: [] },
    { move: "capture 5c 5: 5h", card: "5c", table: ["5h"] },
  ];

  test("the chosen card's moves that take every table card picked", () => {
    assert.deepEqual(movesFitting(legal, "8s", []).map((m) => m.move), ["capture 8s 8: 5h 3c", "capture 8s 8: 8d", "trail 8s"]);
    assert.deepEqual(movesFitting(legal, "8s", ["5h"]).map((m) => m.move), ["capture 8s 8: 5h 3c"]);
    assert.deepEqual(movesFitting(legal, "8s", ["5h", "8d"]), []);
    assert.deepEqual(movesFitting(legal, null, []), []);
    assert.deepEqual(movesFitting(null, "8s", []), []);
  });
});

describe("the next deal", () => {
  const next = { hand: 2, commitment: "c2", contributed: [1] };
  const fresh = () => "v-new";

  test("a spectator, a computer's seat or a seat that contributed: only the commitment is kept", () => {
    assert.deepEqual(nextDealPlan(next, null, false, null, fresh), { keep: { commitment: "c2" }, send: null });
    assert.deepEqual(nextDealPlan(next, 1, true, null, fresh), { keep: { commitment: "c2" }, send: null });
    assert.deepEqual(nextDealPlan(next, 1, true, { commitment: "c-seen" }, fresh), { keep: null, send: null });
  });

  test("a person's seat contributes a new value, kept with the commitment first seen", () => {
    assert.deepEqual(nextDealPlan(next, 0, true, null, fresh), { keep: { commitment: "c2", value: "v-new", seat: 0 }, send: "v-new" });
    assert.deepEqual(nextDealPlan(next, 0, true, { commitment: "c-seen" }, fresh),
      { keep: { commitment: "c-seen", value: "v-new", seat: 0 }, send: "v-new" });
  });

  test("after a reload the same value is sent again", () => {
    assert.deepEqual(nextDealPlan(next, 0, true, { commitment: "c2", value: "v-old", seat: 0 }, fresh), { keep: null, send: "v-old" });
  });
});

describe("a checked deal", () => {
  const res = (contributions, scheme = "cassino-deal-v1") => ({ hand: { scheme, contributions } });

  test("whose randomness it was dealt from", () => {
    state.current = fourSeats(0);
    assert.equal(fairSummary(res([]), "commit-v0"), "Dealt from the server's seed alone: nobody contributed.");
    assert.equal(fairSummary(res([{ seat: 0, value: "a" }]), "commit-v0"), "Dealt from the server's seed and your contribution.");
    assert.equal(fairSummary(res([{ seat: 0, value: "a" }, { seat: 2, value: "b" }, { seat: 3, value: "c" }]), "commit-v0"),
      "Dealt from the server's seed, your contribution and those of Cy, Dee.");
    assert.equal(fairSummary(res([{ seat: 1, value: "b" }]), "commit-v0"), "Dealt from the server's seed and the contributions of Ben.");
    assert.equal(fairSummary(res(undefined, "commit-v0"), "commit-v0"), "The server alone chose this deck (the game began before "
      + "decks took contributions): its fingerprint shows only that the deck did not change during the hand.");
  });

  test("why a check failed", () => {
    state.current = fourSeats(0);
    assert.equal(problemText({ problem: "contribution", seat: 3 }), "the contribution of Dee is not 64 hex digits");
    assert.equal(problemText({ problem: "scheme", scheme: "v9" }), "this page does not know this way of dealing (v9)");
    assert.equal(problemText({ problem: "unused" }), "your contribution was not used");
  });
});

describe("faces", () => {
  test("a face is the name's initial on a colour of its own, the same for the same name", () => {
    assert.deepEqual(faceOf("Sam"), faceOf("Sam"));
    assert.equal(faceOf("lena").initial, "L");
    assert.equal(faceOf("").initial, "?");
    const colours = new Set(["Sam", "Lena", "Joe", "Maya", "Pip", "Dot", "Bea", "Tully"].map((n) => faceOf(n).colour));
    assert.ok(colours.size >= 4 && [...colours].every((c) => Number.isInteger(c) && c >= 0 && c < 8));
  });
});

test("a pile thickens a layer for every four cards, up to eight layers", () => {
  assert.deepEqual([0, 1, 3, 4, 7, 8, 27, 28, 40, 52].map(pileDepth), [0, 1, 1, 2, 2, 3, 7, 8, 8, 8]);
});

test("the fairness panels open at a table with other people only", () => {
  const bot = { kind: "bot" }, person = { kind: "human" };
  assert.equal(withPeople([person, bot], 0), false);
  assert.equal(withPeople([person, bot, bot, bot], 0), false);
  assert.equal(withPeople([person, person], 0), true);
  assert.equal(withPeople([bot, person, bot, person], 1), true);
  assert.equal(withPeople([person, bot], null), true); // a spectator watches people play
  assert.equal(withPeople([bot, bot], null), false);
});
