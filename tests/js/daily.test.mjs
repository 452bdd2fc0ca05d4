// The daily deal in the page's words and sums: a score signed, a deal's id read, its variant and
// date, an attempt's score from the game's points, "Played: score +3, rank 2 of 14", the rank with
// the percentile, master's score from the same seat, the bars of the spread of scores, the end of
// a hand nobody won, the leaderboard's request for this browser's attempt, and the page's check of
// a reveal against the server's own derivation (a tampered deck and a wrong seed caught); in
// English and in German from the real catalogues.

import assert from "node:assert/strict";
import { webcrypto } from "node:crypto";
import { beforeEach, describe, test } from "node:test";

import {
  LABELLED, SPAN, attemptScore, boardRequest, dateText, dealParts, dealTitle, distributionBars, masterText, overText,
  playedText, shortHex, signed, standingText, streakText, verifyReveal,
} from "../../src/cassino/web/static/daily.js";
import { setCatalogue } from "../../src/cassino/web/static/i18n.js";
import { state } from "../../src/cassino/web/static/state.js";
import { DEAL_KEPT_FOR, dailyAttempts, keepDailyAttempt } from "../../src/cassino/web/static/storage.js";
import { MemoryStorage, catalogue, dailyReveal } from "./support.mjs";

const english = catalogue("en");
const german = catalogue("de");

describe("a deal and a score in words", () => {
  beforeEach(() => setCatalogue("en", english));

  test("a score, signed as people write it", () => {
    assert.deepEqual([3, -2, 0].map(signed), ["+3", "−2", "±0"]);
  });

  test("a deal's id names its date and variant; anything else names none", () => {
    assert.deepEqual(dealParts("2026-12-05-classic-2"), { date: "2026-12-05", preset: "classic", players: 2, partnerships: false });
    assert.deepEqual(dealParts("2026-12-06-classic-4p"), { date: "2026-12-06", preset: "classic", players: 4, partnerships: true });
    assert.equal(dealParts("nonsense"), null);
    assert.equal(dealTitle(dealParts("2026-12-05-royal-2")), "Royal Casino · 2 players");
    assert.equal(dealTitle(dealParts("2026-12-06-classic-4p")), "Classic · 4 players · partnerships");
    assert.equal(dateText("2026-12-05", "en"), "December 5, 2026");
    assert.equal(shortHex("b6913ab3a4c231da1e0e"), "b6913ab3a4…");
    setCatalogue("de", german);
    assert.equal(dealTitle(dealParts("2026-12-06-classic-4p")), "Klassisch · 4 Spieler · Partnerschaften");
    assert.equal(dateText("2026-12-05", "de"), "5. Dezember 2026");
  });

  test("an attempt's score: its side's points minus the best of the others'", () => {
    assert.equal(attemptScore([7, 4], 0), 3);
    assert.equal(attemptScore([2, 6, 3], 0), -4);
    assert.equal(attemptScore([5, 5], 0), 0);
  });

  test("played, ranked, the percentile, alone, and master from the same seat", () => {
    assert.equal(playedText(3, 2, 14), "Played: score +3, rank 2 of 14");
    assert.equal(playedText(-1), "Played: score −1"); // the rank not known yet
    assert.equal(standingText({ rank: 2, percentile: 66.7 }, 4), "Rank 2 of 4 · better than 66.7% of the other attempts");
    assert.equal(standingText({ rank: 1, percentile: 100 }, 1), "Rank 1 of 1 · the first to finish it");
    assert.equal(masterText(2, 3), "Master from your seat: +2 · you did better than Master");
    assert.equal(masterText(2, 2), "Master from your seat: +2 · the same as Master");
    assert.equal(masterText(-1, -4), "Master from your seat: −1 · Master did better");
    assert.equal(masterText(-1), "Master from your seat: −1");
    assert.equal(streakText(1), "Streak: 1 day");
    assert.equal(streakText(3), "Streak: 3 days in a row");
    setCatalogue("de", german);
    assert.equal(playedText(3, 2, 14), "Gespielt: Ergebnis +3, Rang 2 von 14");
    assert.equal(standingText({ rank: 2, percentile: 66.7 }, 4), "Rang 2 von 4 · besser als 66,7 % der anderen Versuche");
    assert.equal(masterText(2, 3), "Meister auf deinem Platz: +2 · du warst besser als Meister");
  });
});

describe("the spread of scores as bars", () => {
  test("each score from the lowest to the highest, an empty bar where nobody scored, the tallest full", () => {
    const bars = distributionBars([{ score: -3, count: 1 }, { score: -1, count: 4 }, { score: 2, count: 2 }], 2);
    assert.deepEqual(bars.map((b) => [b.score, b.count, b.height, b.mine]), [
      [-3, 1, 25, false], [-2, 0, 0, false], [-1, 4, 100, false], [0, 0, 0, false], [1, 0, 0, false], [2, 2, 50, true],
    ]);
    assert.ok(bars.every((b) => b.label)); // few bars: each has its score under it
  });

  test("a bar of one among many still shows; no score of the attempt's own marks none", () => {
    const bars = distributionBars([{ score: 0, count: 1 }, { score: 1, count: 90 }]);
    assert.deepEqual(bars.map((b) => b.height), [4, 100]);
    assert.ok(bars.every((b) => !b.mine));
    assert.deepEqual(distributionBars([]), []);
  });

  test("a wide spread: only the scores made; many bars: only some scores written under them", () => {
    const wide = distributionBars([{ score: -20, count: 1 }, { score: 20, count: 1 }]);
    assert.deepEqual(wide.map((b) => b.score), [-20, 20]);
    assert.ok(40 >= SPAN);
    const many = distributionBars([{ score: -7, count: 1 }, { score: 8, count: 2 }], 3);
    assert.equal(many.length, 16);
    assert.ok(many.length > LABELLED);
    assert.deepEqual(many.filter((b) => b.label).map((b) => b.score), [-7, -5, 0, 3, 5, 8]);
  });
});

describe("the end of a hand that no side won", () => {
  const seats = [{ seat: 0, side: 0, name: "Ann" }, { seat: 1, side: 1, name: "Magnus" }];

  test("a daily attempt says its score, not a winner; another game of one hand its points", () => {
    setCatalogue("en", english);
    state.current = { you: 0, seats };
    assert.equal(overText({ daily: { deal: "2026-12-05-classic-2", sealed: true }, winner: -1, scores: [7, 4] }, 0), "Daily deal over: score +3");
    assert.equal(overText({ daily: { deal: "2026-12-05-classic-2", sealed: true }, winner: -1, scores: [7, 4] }, 0, true), "Daily deal: +3");
    assert.equal(overText({ daily: null, winner: -1, scores: [7, 4] }, 0), null); // a tournament's table: result.js
    assert.equal(overText({ daily: null, winner: 1, scores: [12, 21] }, 0), null); // a winner: the usual words
    setCatalogue("de", german);
    assert.equal(overText({ daily: { deal: "d", sealed: false }, winner: -1, scores: [2, 6] }, 0), "Tagesblatt beendet: Ergebnis −4");
  });
});

describe("this browser's attempts and the leaderboard's request", () => {
  beforeEach(() => { globalThis.localStorage = new MemoryStorage(); });

  test("an attempt is kept by its deal, and forgotten after 90 days", () => {
    const now = 1_800_000_000_000;
    keepDailyAttempt("2026-12-05-classic-2", { game: "g1", token: "t1", commitment: "c1" }, now - DEAL_KEPT_FOR - 1);
    keepDailyAttempt("2026-12-06-classic-2", { game: "g2", token: "t2", commitment: "c2" }, now);
    assert.deepEqual(dailyAttempts(now), { "2026-12-06-classic-2": { game: "g2", token: "t2", commitment: "c2", at: now } });
    localStorage.setItem("cassino.daily", "[not an object");
    assert.deepEqual(dailyAttempts(now), {});
  });

  test("a guest's attempt is named by its game and seat token; without one, nothing is", () => {
    assert.deepEqual(boardRequest("2026-12-05-classic-2", null), {
      url: "/api/daily/2026-12-05-classic-2/leaderboard", init: { credentials: "same-origin" },
    });
    assert.deepEqual(boardRequest("2026-12-05-classic-2", { game: "ab12", token: "t0k" }), {
      url: "/api/daily/2026-12-05-classic-2/leaderboard?game=ab12",
      init: { credentials: "same-origin", headers: { "x-cassino-token": "t0k" } },
    });
  });
});

describe("the reveal, checked here as the server derives it", () => {
  globalThis.window = globalThis;
  if (!globalThis.crypto) globalThis.crypto = webcrypto;

  test("the seed hashes to the commitment seen and gives the deck; tampering is caught", async () => {
    await import("../../src/cassino/web/static/deal.js"); // a plain script: window.cassinoDeal
    const id = "2026-12-05-classic-2";
    const reveal = dailyReveal(id, "5e".repeat(32));
    const good = await verifyReveal(reveal, reveal.commitment);
    assert.equal(good.ok, true, JSON.stringify(good));
    assert.equal(good.derived, reveal.deck);
    const deck = reveal.deck.split(" ");
    [deck[0], deck[1]] = [deck[1], deck[0]];
    assert.equal((await verifyReveal({ ...reveal, deck: deck.join(" ") }, reveal.commitment)).problem, "deck");
    const other = dailyReveal(id, "7a".repeat(32));
    assert.equal((await verifyReveal(other, reveal.commitment)).problem, "commitment"); // not the one seen before play
    assert.equal((await verifyReveal({ ...reveal, id: "2026-12-06-classic-2" }, reveal.commitment)).problem, "deck"); // another deal's id
  });
});
