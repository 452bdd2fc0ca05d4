// The sounds a state change calls for (sounds.js's soundsFor): the last move's, then the reader's
// turn; exact lists for each kind of change.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { soundsFor } from "../../src/cassino/web/static/sounds.js";

/** A payload of seat 1's move at version 7 of hand 1, with what changes from test to test. */
function state(changes = {}) {
  return {
    version: 7, hand_number: 1, phase: "play", status: "playing", to_move: 1,
    moves: [{ seat: 0, move: "trail 9c" }], sweeps: [], finished: [],
    table: { loose: ["9c", "5h", "3d"], builds: [] },
    ...changes,
  };
}

/** The state after seat 1 played `line`, with the turn back at seat 0. */
const after = (line, changes = {}) =>
  state({ version: 8, to_move: 0, moves: [{ seat: 0, move: "trail 9c" }, { seat: 1, move: line }], ...changes });

describe("a move's sounds", () => {
  test("a trail and a build are a card played", () => {
    assert.deepEqual(soundsFor(state(), after("trail Kd"), 1), ["card"]);
    assert.deepEqual(soundsFor(state(), after("build 8h 8: 5h 3d"), 1), ["card"]);
  });

  test("a capture, and a capture that sweeps the table", () => {
    assert.deepEqual(soundsFor(state(), after("capture 9s 9: 9c", { table: { loose: ["5h", "3d"], builds: [] } }), 1), ["capture"]);
    assert.deepEqual(soundsFor(state(), after("capture 8h 8: 5h 3d", { table: { loose: ["9c"], builds: [] } }), 1), ["capture"]);
    const swept = after("capture 9s 9: 9c", { table: { loose: [], builds: [] }, sweeps: [1] });
    assert.deepEqual(soundsFor(state({ table: { loose: ["9c"], builds: [] } }), swept, 1), ["capture", "sweep"]);
  });

  test("a sweep made before this move is not heard again", () => {
    const before = state({ sweeps: [0] });
    assert.deepEqual(soundsFor(before, after("capture 9s 9: 9c", { sweeps: [0] }), 1), ["capture"]);
  });

  test("then the reader's turn, when the move was the other seat's", () => {
    assert.deepEqual(soundsFor(state(), after("capture 9s 9: 9c", { sweeps: [1] }), 0), ["capture", "sweep", "turn"]);
    assert.deepEqual(soundsFor(state(), after("trail Kd"), 0), ["card", "turn"]);
    assert.deepEqual(soundsFor(state(), after("trail Kd"), null), ["card"]); // a spectator has no turn
  });
});

describe("a hand's last move", () => {
  // The new state shows the next hand (no moves yet); the finished hand's residue went to the last capturer.
  const ended = (residue) => state({
    version: 8, hand_number: 2, phase: "count", to_move: 1, moves: [], table: { loose: [], builds: [] },
    finished: [{ hand: 1, residue: { seat: 0, cards: residue } }],
  });

  test("a capture leaves only cards that were on the table", () => {
    assert.deepEqual(soundsFor(state(), ended(["5h", "3d"]), 0), ["capture"]);
    assert.deepEqual(soundsFor(state(), ended([]), 0), ["capture"]);
  });

  test("a trail or a build leaves the card played there too", () => {
    assert.deepEqual(soundsFor(state(), ended(["9c", "5h", "3d", "Kd"]), 0), ["card"]);
    assert.deepEqual(soundsFor(state(), ended(["9c", "5h", "3d", "4s"]), 1), ["card"]); // the count: no turn yet
  });
});

describe("no move", () => {
  test("the same version (someone came or left): nothing", () => {
    assert.deepEqual(soundsFor(state({ to_move: 0 }), state({ to_move: 0 }), 0), []);
    assert.deepEqual(soundsFor(state(), state(), 1), []);
  });

  test("the first state seen at the reader's turn: their turn", () => {
    assert.deepEqual(soundsFor(null, state(), 1), ["turn"]);
    assert.deepEqual(soundsFor(null, state(), 0), []);
  });

  test("the next hand starting after the count, at the reader's turn", () => {
    const counting = state({ version: 48, hand_number: 2, phase: "count", moves: [] });
    assert.deepEqual(soundsFor(counting, { ...counting, phase: "play" }, 1), ["turn"]);
  });

  test("a move taken back: the turn again, no move", () => {
    assert.deepEqual(soundsFor(state({ version: 9, to_move: 0 }), state({ version: 7 }), 1), ["turn"]);
  });

  test("the game over: no turn", () => {
    assert.deepEqual(soundsFor(state(), after("trail Kd", { status: "over", to_move: null }), 0), ["card"]);
  });
});
