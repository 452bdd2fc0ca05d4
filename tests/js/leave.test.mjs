// Leaving a rated game at the table: which claim this reader may make and when (the first due on
// another side; its own only when its own clock ran out), what the claim line says in English and
// German, the clock of the seat to move (red in its last ten seconds), and a seek's move clock in words.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { setCatalogue } from "../../src/cassino/web/static/i18n.js";
import { claimFor, claimText, clockFor, clockTime } from "../../src/cassino/web/static/leave.js";
import { clockText, playNowBody, seekText } from "../../src/cassino/web/static/seeks.js";
import { catalogue } from "./support.mjs";

const english = catalogue("en");
const german = catalogue("de");

const seats = [0, 1, 2, 3].map((s) => ({ seat: s, side: s % 2 }));
const st = (claims, extra = {}) => ({ status: "playing", phase: "play", seats, claims, move_deadline: null, to_move: 0, ...extra });

describe("claims", () => {
  test("the first claim on the other side, counted down, then due", () => {
    const state = st([{ seat: 2, why: "left", from: 1100 }, { seat: 1, why: "left", from: 1200 }]);
    assert.deepEqual(claimFor(state, 0, 1000), { seat: 1, why: "left", from: 1200, left: 200, due: false, own: false });
    assert.equal(claimFor(state, 0, 1200).due, true);
    assert.equal(claimFor(state, 1, 1000).seat, 2); // seat 1's side claims from seat 2
    assert.equal(claimFor(state, null, 1300), null); // a spectator claims nothing
    assert.equal(claimFor({ ...state, status: "over" }, 0, 1300), null);
  });

  test("one's own clock run out: the line says so, with no button", () => {
    const state = st([{ seat: 0, why: "time", from: 1000 }]);
    assert.equal(claimFor(state, 0, 999), null);
    assert.deepEqual(claimFor(state, 0, 1000), { seat: 0, why: "time", from: 1000, left: 0, due: true, own: true });
  });

  test("the line in words", () => {
    setCatalogue("en", english);
    const soon = { seat: 1, why: "left", from: 1161, left: 161, due: false, own: false };
    assert.equal(claimText(soon, "Ben", false), "Ben left the table: you may claim the game in 2:41");
    assert.equal(claimText({ ...soon, left: 0, due: true }, "Ben", false), "Ben left the table and has not come back: you may claim the game, or wait");
    assert.equal(claimText({ ...soon, left: 0, due: true }, "Ben", true), "You are waiting for Ben: you may still claim the game");
    assert.equal(claimText({ ...soon, why: "time" }, "Ben", false), null); // the clock says it
    assert.equal(claimText({ ...soon, why: "time", due: true }, "Ben", false), "Ben ran out of time: you may claim the game, or wait");
    setCatalogue("de", german);
    assert.equal(claimText(soon, "Ben", false), "Ben hat den Tisch verlassen: In 2:41 kannst du das Spiel beanspruchen");
  });
});

describe("the move clock", () => {
  test("m:ss, rounded up, never below 0:00", () => {
    assert.deepEqual([clockTime(161), clockTime(59.2), clockTime(0), clockTime(-3)], ["2:41", "1:00", "0:00", "0:00"]);
  });

  test("the seat to move, red in its last ten seconds", () => {
    assert.equal(clockFor(st([]), 1000), null);
    assert.deepEqual(clockFor(st([], { move_deadline: 1060, to_move: 1 }), 1000), { seat: 1, left: 60, urgent: false });
    assert.deepEqual(clockFor(st([], { move_deadline: 1060, to_move: 1 }), 1050), { seat: 1, left: 10, urgent: true });
  });

  test("a seek's clock in words and in Play now's body", () => {
    setCatalogue("en", english);
    assert.deepEqual([clockText(0), clockText(60)], ["No move clock", "60 s a move"]);
    const seek = { preset: "classic", players: 2, partnerships: false, rated: true, move_seconds: 60, by: "Ann", rating: 1500, provisional: false, seats: 1, needed: 2 };
    assert.equal(seekText(seek), "Classic · 2 players · rated · 60 s a move · by Ann (1500) · 1 of 2 seats");
    assert.deepEqual(playNowBody({ preset: "classic", players: 2 }, false, 20, 30), { preset: "classic", players: 2, partnerships: false, wait: 20, move_seconds: 30 });
    assert.deepEqual(playNowBody({ preset: "classic", players: 2 }, false, 20), { preset: "classic", players: 2, partnerships: false, wait: 20 });
  });
});
