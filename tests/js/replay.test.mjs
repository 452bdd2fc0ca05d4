// The replay's positions apart from the page: which frame comes just before a move of the review,
// how many moves a frame has seen, the move played next, and the payload the table draws for a frame.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { framePayload, frameBefore, movesMade, nextMove } from "../../src/cassino/web/static/replay.js";

/** Two hands of two seats: hand 1 dealt, three moves (the last ends it), hand 2 dealt, two moves. */
function frames() {
  const frame = (hand, move, extra = {}) => ({
    hand, move, hands: [["Ac", "2c"], ["3d", "4d"]], table: { loose: ["5h"], builds: [] }, stock: 40,
    captured: [0, 0], piles: [[], []], sweeps: [], dealer: 1, deal: 1, scores: [0, 0], to_move: 0, ...extra,
  });
  return [
    frame(1, null),
    frame(1, { seat: 0, move: "trail Ac" }, { to_move: 1 }),
    frame(1, { seat: 1, move: "capture 5d 5: 5h" }, { piles: [[], ["5d", "5h"]], captured: [0, 2] }),
    frame(1, { seat: 0, move: "trail 2c" }, { to_move: null, scores: [1, 3] }),
    frame(2, null, { dealer: 0, to_move: 1, scores: [1, 3] }),
    frame(2, { seat: 1, move: "trail 3d" }, { scores: [1, 3] }),
    frame(2, { seat: 0, move: "trail 4d" }, { scores: [1, 3], deal: 2 }),
  ];
}

describe("the replay's positions", () => {
  test("the frame just before each move of the game, by its ply", () => {
    assert.deepEqual([0, 1, 2, 3, 4].map((ply) => frameBefore(frames(), ply)), [0, 1, 2, 4, 5]);
    assert.equal(frameBefore(frames(), 5), null);
  });

  test("the moves made at each frame: a deal adds none", () => {
    assert.deepEqual(frames().map((_, at) => movesMade(frames(), at)), [0, 1, 2, 3, 3, 4, 5]);
  });

  test("the move played next, none at a hand's end or the game's", () => {
    assert.deepEqual(frames().map((_, at) => nextMove(frames(), at)?.move ?? null),
      ["trail Ac", "capture 5d 5: 5h", "trail 2c", null, "trail 3d", "trail 4d", null]);
  });
});

describe("the payload of a frame", () => {
  const live = {
    you: 0, status: "over", phase: "over", seats: [{ name: "Ana" }, { name: "Ben" }], version: 5, hand_number: 2, to_move: null,
    moves: [{ seat: 1, move: "trail 3d" }, { seat: 0, move: "trail 4d" }], legal: [], can_undo: false,
    finished: [{ hand: 1, points: [1, 3] }, { hand: 2, points: [0, 0] }], hand: [],
  };

  test("the frame's table, hands and piles with the live game's seats; this hand's moves so far", () => {
    const p = framePayload(live, frames(), 2);
    assert.deepEqual(p.seats, live.seats);
    assert.equal(p.status, "over");
    assert.equal(p.to_move, 0);
    assert.deepEqual(p.moves, [{ seat: 0, move: "trail Ac" }, { seat: 1, move: "capture 5d 5: 5h" }]);
    assert.deepEqual(p.captured, [[], ["5d", "5h"]]);
    assert.deepEqual(p.hand, ["Ac", "2c"]);
    assert.deepEqual(p.hand_sizes, [2, 2]);
    assert.deepEqual(p.finished, []); // hand 1 not yet counted
  });

  test("a hand's count belongs to its last frame on, and a new hand starts with no moves", () => {
    assert.deepEqual(framePayload(live, frames(), 3).finished, [{ hand: 1, points: [1, 3] }]);
    const dealt = framePayload(live, frames(), 4);
    assert.deepEqual(dealt.moves, []);
    assert.equal(dealt.hand_number, 2);
    assert.equal(dealt.dealer, 0);
    assert.deepEqual(framePayload(live, frames(), 6).moves, [{ seat: 1, move: "trail 3d" }, { seat: 0, move: "trail 4d" }]);
  });

  test("a spectator's payload holds no hand of its own", () => {
    assert.deepEqual(framePayload({ ...live, you: null }, frames(), 2).hand, []);
  });
});
