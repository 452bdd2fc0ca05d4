// The count scene's plan: the steps turned up with each side's running points, when they come, the
// score bars, the target, the keys that skip it, and what screen readers hear.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { setCatalogue } from "../../src/cassino/web/static/i18n.js";
import { countSteps, scoreBars, skipsCount, summaryText, targetOf, timeline } from "../../src/cassino/web/static/countplan.js";
import { catalogue, serverConfig } from "./support.mjs";

const english = catalogue("en");
const german = catalogue("de");
before(() => setCatalogue("en", english));

/** Hand 2 of a game for two, as finished_hands gives it: seat 0 took the last three cards, seat 1
 * swept once; the game stood 4 to 6 before it. */
const HAND = {
  hand: 2,
  points: [7, 5],
  scores: [11, 11],
  checksum: 11,
  expected: 11,
  count: [
    { item: "cards", side: 0, points: 3, counts: [30, 22] },
    { item: "spades", side: 1, points: 1, counts: [6, 7] },
    { item: "big_casino", side: 0, points: 2, card: "Td" },
    { item: "little_casino", side: 1, points: 1, card: "2s" },
    { item: "ace", side: 0, points: 1, card: "As" },
    { item: "ace", side: 1, points: 1, card: "Ac" },
    { item: "ace", side: 0, points: 1, card: "Ah" },
    { item: "ace", side: 1, points: 1, card: "Ad" },
    { item: "sweep", side: 1, points: 1, seat: 1 },
  ],
  residue: { seat: 0, cards: ["3h", "9c", "Kd"] },
};

describe("the steps of the count", () => {
  test("the residue first, then every item in the payload's order, with each side's running points", () => {
    assert.deepEqual(countSteps(HAND), [
      { kind: "residue", seat: 0, cards: ["3h", "9c", "Kd"], tally: [0, 0] },
      { kind: "item", item: "cards", side: 0, points: 3, counts: [30, 22], tally: [3, 0] },
      { kind: "item", item: "spades", side: 1, points: 1, counts: [6, 7], tally: [3, 1] },
      { kind: "item", item: "big_casino", side: 0, points: 2, card: "Td", tally: [5, 1] },
      { kind: "item", item: "little_casino", side: 1, points: 1, card: "2s", tally: [5, 2] },
      { kind: "item", item: "ace", side: 0, points: 1, card: "As", tally: [6, 2] },
      { kind: "item", item: "ace", side: 1, points: 1, card: "Ac", tally: [6, 3] },
      { kind: "item", item: "ace", side: 0, points: 1, card: "Ah", tally: [7, 3] },
      { kind: "item", item: "ace", side: 1, points: 1, card: "Ad", tally: [7, 4] },
      { kind: "item", item: "sweep", side: 1, points: 1, seat: 1, tally: [7, 5] },
    ]);
  });

  test("no residue step when the last capture cleared the table; items for nobody score nothing", () => {
    const hand = {
      hand: 1, points: [0, 0, 2], scores: [0, 0, 2],
      count: [
        { item: "cards", side: -1, points: 0, counts: [20, 20, 12] },
        { item: "big_casino", side: 2, points: 2, card: "Td" },
        { item: "sweep", side: -1, points: 0, seat: 0 },
      ],
      residue: { seat: 2, cards: [] },
    };
    assert.deepEqual(countSteps(hand).map((s) => [s.kind, s.item, s.tally]), [
      ["item", "cards", [0, 0, 0]],
      ["item", "big_casino", [0, 0, 2]],
      ["item", "sweep", [0, 0, 2]],
    ]);
  });

  test("cards nobody captured stay on the table: the residue is nobody's", () => {
    const hand = { hand: 1, points: [0, 0], scores: [0, 0], count: [], residue: { seat: null, cards: ["As", "2c"] } };
    assert.deepEqual(countSteps(hand), [{ kind: "residue", seat: null, cards: ["As", "2c"], tally: [0, 0] }]);
  });

  test("each step comes after the last one; the check and the bars after them all", () => {
    assert.deepEqual(timeline(countSteps(HAND)), {
      at: [700, 1150, 1600, 2050, 2500, 2950, 3400, 3850, 4300, 4750],
      check: 5200,
      bars: 5200,
      end: 5600,
    });
    assert.deepEqual(timeline([]), { at: [], check: 700, bars: 700, end: 1100 });
  });
});

describe("the score line", () => {
  test("each side's bar from the score before the hand to the score after, out of the target", () => {
    assert.deepEqual(scoreBars(HAND, 21), [
      { side: 0, from: 4, to: 11, target: 21, fromShare: 4 / 21, toShare: 11 / 21, reached: false },
      { side: 1, from: 6, to: 11, target: 21, fromShare: 6 / 21, toShare: 11 / 21, reached: false },
    ]);
  });

  test("a score past the target fills the bar", () => {
    const hand = { points: [9, 2], scores: [25, 14] };
    assert.deepEqual(scoreBars(hand, 21).map((b) => [b.from, b.to, b.fromShare, b.toShare, b.reached]), [
      [16, 25, 16 / 21, 1, true],
      [12, 14, 12 / 21, 14 / 21, false],
    ]);
  });

  test("the target: the table's own, else its preset's in the server's config", () => {
    const config = serverConfig();
    assert.equal(targetOf({ preset: "classic", players: 2 }, config), 21);
    assert.equal(targetOf({ preset: "spade", players: 2 }, config), 61);
    assert.equal(targetOf({ preset: "classic", players: 2, target: 7 }, config), 7);
    assert.equal(targetOf({ preset: "classic", players: 2 }, null), null);
  });
});

describe("skipping to the end", () => {
  test("Space, Enter and Escape on the table; Escape alone on a button; none in a text field", () => {
    const keys = [" ", "Enter", "Escape", "a", "1", "ArrowLeft"];
    assert.deepEqual(keys.map((k) => skipsCount(k, "none")), [true, true, true, false, false, false]);
    assert.deepEqual(keys.map((k) => skipsCount(k, "control")), [false, false, true, false, false, false]);
    assert.deepEqual(keys.map((k) => skipsCount(k, "field")), [false, false, false, false, false, false]);
  });
});

describe("what screen readers hear", () => {
  const names = (side) => ["You", "Greedy"][side];

  test("each side's points of the hand and the game score, once", () => {
    assert.equal(summaryText(HAND, names), "Hand 2: You: 7 points, Greedy: 5 points. Game score: You 11, Greedy 11.");
    assert.equal(summaryText({ hand: 1, points: [1, 0], scores: [1, 0] }, names),
      "Hand 1: You: 1 point, Greedy: 0 points. Game score: You 1, Greedy 0.");
  });

  test("in German", () => {
    setCatalogue("de", german);
    try {
      assert.equal(summaryText(HAND, (side) => ["Du", "Greedy"][side]),
        "Runde 2: Du: 7 Punkte, Greedy: 5 Punkte. Spielstand: Du 11, Greedy 11.");
    } finally {
      setCatalogue("en", english);
    }
  });
});
