// What this browser keeps: seats held, deals seen and contributed to (and forgotten after 90 days),
// the teaching settings per game and the lessons seen, on an in-memory localStorage.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import {
  DEAL_KEPT_FOR, dealKey, dealRecord, forgetOldDeals, heldSeats, holdSeat, invitesOf, keepDeal, keepInvites, learnSettings,
  markSeen, seenLessons, setLearn,
} from "../../src/cassino/web/static/storage.js";
import { MemoryStorage } from "./support.mjs";

beforeEach(() => { globalThis.localStorage = new MemoryStorage(); });

describe("deals", () => {
  test("one record per game and hand, under its own key", () => {
    assert.equal(dealKey("a1b2", 3), "cassino.deal.a1b2.3");
    assert.equal(dealRecord("a1b2", 3), null);
    keepDeal("a1b2", 3, { commitment: "c0ffee", value: "v", seat: 1 });
    const kept = JSON.parse(localStorage.getItem("cassino.deal.a1b2.3"));
    assert.deepEqual(Object.keys(kept), ["commitment", "value", "seat", "at"]);
    assert.deepEqual(dealRecord("a1b2", 3), kept);
    assert.equal(dealRecord("a1b2", 4), null);
  });

  test("an unreadable record reads as none", () => {
    localStorage.setItem(dealKey("g", 1), "{not json");
    assert.equal(dealRecord("g", 1), null);
  });

  test("deals last seen over 90 days ago are forgotten, with unreadable ones; nothing else is", () => {
    const now = 1_700_000_000_000;
    localStorage.setItem(dealKey("old", 1), JSON.stringify({ commitment: "x", at: now - DEAL_KEPT_FOR - 1 }));
    localStorage.setItem(dealKey("edge", 1), JSON.stringify({ commitment: "x", at: now - DEAL_KEPT_FOR }));
    localStorage.setItem(dealKey("new", 2), JSON.stringify({ commitment: "y", at: now - 1000 }));
    localStorage.setItem(dealKey("bad", 1), "garbage");
    localStorage.setItem(dealKey("timeless", 1), JSON.stringify({ commitment: "z" }));
    localStorage.setItem("cassino.seats", JSON.stringify({ old: { at: 0 } }));
    forgetOldDeals(now);
    const left = [];
    for (let i = 0; i < localStorage.length; i++) left.push(localStorage.key(i));
    assert.deepEqual(left.sort(), ["cassino.deal.edge.1", "cassino.deal.new.2", "cassino.seats"]);
  });
});

describe("seats and invitations", () => {
  test("a seat held is merged with what was known, and stamped", () => {
    assert.deepEqual(heldSeats(), {});
    holdSeat("g1", { token: "t", seat: 0, preset: "royal", players: 3 });
    holdSeat("g1", { token: "t", seat: 0 });
    const held = heldSeats().g1;
    assert.deepEqual({ ...held, at: 0 }, { token: "t", seat: 0, preset: "royal", players: 3, at: 0 });
    assert.equal(typeof held.at, "number");
  });

  test("invitations as the creation answered them", () => {
    assert.equal(invitesOf("g1"), null);
    keepInvites("g1", { game: "g1", seats: [{ seat: 1, link: "/#game=g1&invite=x" }], spectate: "/#game=g1" });
    assert.deepEqual(invitesOf("g1").seats, [{ seat: 1, link: "/#game=g1&invite=x" }]);
  });
});

describe("teaching", () => {
  test("off unless chosen, per game; a setting changed keeps the other", () => {
    assert.deepEqual(learnSettings("g1"), { lessons: false, coach: false, unseen: false });
    setLearn("g1", { lessons: true, coach: true });
    setLearn("g1", { coach: false, unseen: true });
    assert.deepEqual(learnSettings("g1"), { lessons: true, coach: false, unseen: true });
    assert.deepEqual(learnSettings("g2"), { lessons: false, coach: false, unseen: false });
  });

  test("unreadable settings are the defaults, and are written afresh", () => {
    localStorage.setItem("cassino.learn", "null");
    assert.deepEqual(learnSettings("g1"), { lessons: false, coach: false, unseen: false });
    setLearn("g1", { lessons: true });
    assert.deepEqual(JSON.parse(localStorage.getItem("cassino.learn")), { g1: { lessons: true, coach: false, unseen: false } });
  });

  test("each lesson seen is kept once", () => {
    assert.deepEqual(seenLessons(), []);
    markSeen("trailing");
    markSeen("pairing");
    markSeen("trailing");
    assert.deepEqual(seenLessons(), ["trailing", "pairing"]);
  });
});
