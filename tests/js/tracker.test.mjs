// The tracker's tallies: what each side has taken this hand, from the payload's piles by seat.

import assert from "node:assert/strict";
import { test } from "node:test";

import { tallies, unseenCards } from "../../src/cassino/web/static/tracker.js";

test("each side's cards, spades, sweeps, aces and casinos, partners' piles together", () => {
  const st = {
    seats: [0, 1, 2, 3].map((seat) => ({ seat, side: seat % 2 })),
    captured: [["As", "2s", "5h"], ["Td", "Ah", "Kd"], ["Ac", "9s"], []],
    sweeps: [2, 1, 2],
  };
  assert.deepEqual(tallies(st), [
    { side: 0, cards: 5, spades: 3, sweeps: 2, aces: ["Ac", "As"], casinos: ["2s"] },
    { side: 1, cards: 3, spades: 0, sweeps: 1, aces: ["Ah"], casinos: ["Td"] },
  ]);
});

test("a side per seat without partnerships, and an empty hand", () => {
  const st = { seats: [0, 1, 2].map((seat) => ({ seat, side: seat })), captured: [[], ["Ad"], []], sweeps: [] };
  assert.deepEqual(tallies(st).map((s) => [s.cards, s.spades, s.sweeps, s.aces]), [[0, 0, 0, []], [1, 0, 0, ["Ad"]], [0, 0, 0, []]]);
});

test("the cards not seen yet: all but the hand, the table (builds too) and every pile, by suit", () => {
  const st = {
    hand: ["As", "Td"],
    table: { loose: ["2c"], builds: [{ cards: ["3h", "5h"] }] },
    captured: [["Ks", "Qs"], ["Ac", "Ah", "Ad"]],
  };
  const unseen = unseenCards(st);
  assert.deepEqual(unseen.map((s) => s.suit), ["s", "h", "d", "c"]);
  assert.deepEqual(unseen[0].cards, ["2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js"]);
  assert.deepEqual(unseen[1].cards, ["2h", "4h", "6h", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh"]);
  assert.deepEqual(unseen[2].cards, ["2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "Jd", "Qd", "Kd"]);
  assert.equal(unseen[3].cards.length, 11);
  assert.equal(unseen.flatMap((s) => s.cards).length, 52 - 10);
});
