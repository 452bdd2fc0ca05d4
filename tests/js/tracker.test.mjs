// The tracker's tallies: what each side has taken this hand, from the payload's piles by seat.

import assert from "node:assert/strict";
import { test } from "node:test";

import { tallies } from "../../src/cassino/web/static/tracker.js";

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
