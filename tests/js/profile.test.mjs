// Ratings and profiles in the page's words: a rating with "?" while provisional, the player a path
// names, a pool and a finished game in a line, in English and in German from the real catalogues.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import {
  changeText, dailyLine, gameLine, poolAsked, poolLabel, poolParts, profileNameOf, ratingText, scoreText,
} from "../../src/cassino/web/static/profile.js";
import { setCatalogue } from "../../src/cassino/web/static/i18n.js";
import { catalogue } from "./support.mjs";

const english = catalogue("en");
const german = catalogue("de");

/** A finished game as GET /api/users/NAME lists it. */
const played = (more = {}) => ({
  game: "g1", rated: true, result: "win", seat: 0, side: 0, points: 11, scores: [11, 7], hands: 3, forfeit: null,
  opponents: [{ name: "Bob", account: true, kind: "human" }], partners: [], preset: "classic", players: 2,
  partnerships: false, finished: 0, pool: "classic-2", rating_before: 1500, rating_after: 1662.21, ...more,
});

describe("a rating", () => {
  test("rounded, with ? while provisional", () => {
    assert.equal(ratingText({ rating: 1500, provisional: true }), "1500?");
    assert.equal(ratingText({ rating: 1662.5, provisional: true }), "1663?");
    assert.equal(ratingText({ rating: 1837.49, provisional: false }), "1837");
  });

  test("a game's change, signed", () => {
    assert.equal(changeText(1500, 1662.21), "+162");
    assert.equal(changeText(1712.4, 1700.1), "−12");
    assert.equal(changeText(1500.2, 1499.9), "±0");
  });
});

describe("the addresses", () => {
  test("a profile's path names its player", () => {
    assert.equal(profileNameOf("/@/Ann_42"), "Ann_42");
    assert.equal(profileNameOf("/@/Ann/"), "Ann");
    assert.equal(profileNameOf("/@/%41nn"), "Ann");
    assert.equal(profileNameOf("/@/%E0%A4"), null); // not UTF-8
    for (const path of ["/", "/leaderboard", "/@/", "/@/a/b", "/x/@/Ann"]) assert.equal(profileNameOf(path), null, path);
  });

  test("a leaderboard's pool, when it is one", () => {
    const pools = [{ pool: "classic-2", players: 3 }, { pool: "royal-4p", players: 0 }];
    assert.equal(poolAsked("?pool=royal-4p", pools), "royal-4p");
    assert.equal(poolAsked("?pool=nope", pools), null);
    assert.equal(poolAsked("", pools), null);
  });
});

describe("in words", () => {
  beforeEach(() => setCatalogue("en", english));

  test("a pool", () => {
    assert.deepEqual(poolParts("royal-4p"), { preset: "royal", players: 4, partnerships: true });
    assert.deepEqual(poolParts("classic-3"), { preset: "classic", players: 3, partnerships: false });
    assert.equal(poolLabel("classic-2"), `${english["preset.classic.name"]} · 2 players`);
    assert.equal(poolLabel("royal-4p"), `${english["preset.royal.name"]} · Partnerships`);
    setCatalogue("de", german);
    assert.equal(poolLabel("classic-3"), `${german["preset.classic.name"]} · 3 Spieler`);
  });

  test("a game's points, the player's side first", () => {
    assert.equal(scoreText(played({ side: 1, scores: [11, 7] })), "7–11");
    assert.equal(scoreText(played({ side: 1, scores: [4, 11, 6] })), "11–4–6");
    assert.equal(scoreText(played({ scores: null })), "");
  });

  test("a rated game won, and the same in German", () => {
    const classic = english["preset.classic.name"];
    assert.equal(gameLine(played()), `Won · 11–7 · against Bob · ${classic} · 2 players · rated: 1500 → 1662 (+162)`);
    setCatalogue("de", german);
    assert.equal(gameLine(played()), `Gewonnen · 11–7 · gegen Bob · ${german["preset.classic.name"]} · 2 Spieler · gewertet: 1500 → 1662 (+162)`);
  });

  test("a game of partners lost by a forfeit, not rated", () => {
    const line = gameLine(played({
      result: "loss", seat: 1, side: 1, scores: [3, 2], forfeit: 1, rated: false, pool: null, rating_before: null,
      rating_after: null, players: 4, partnerships: true,
      opponents: [{ name: "Ann", account: true, kind: "human" }, { name: "Gus", account: false, kind: "bot" }],
      partners: [{ name: "Cleo", account: true, kind: "human" }],
    }));
    assert.equal(line, `Lost · 2–3 · forfeited · against Ann, Gus · with Cleo · ${english["preset.classic.name"]} · Partnerships · not rated`);
    assert.match(gameLine(played({ forfeit: 1 })), / · an opponent forfeited · /);
    assert.match(gameLine(played({ result: "draw" })), /^Drawn · /);
  });
});

describe("the daily deals on a profile", () => {
  test("a result in a line: the deal's date and variant, the score and the rank among its attempts", () => {
    setCatalogue("en", english);
    const result = { deal: "2026-12-06-classic-4p", score: -2, rank: 3, count: 14, game: null };
    assert.equal(dailyLine(result), "December 6, 2026 · Classic · 4 players · partnerships · score −2 · rank 3 of 14");
    setCatalogue("de", german);
    assert.equal(dailyLine({ ...result, score: 4, rank: 1 }), "6. Dezember 2026 · Klassisch · 4 Spieler · Partnerschaften · Ergebnis +4 · Rang 1 von 14");
  });

  test("a daily attempt among the finished games is said to be one, not a draw", () => {
    setCatalogue("en", english);
    const attempt = played({ result: "draw", scores: [4, 7], rated: false, pool: null, opponents: [{ name: "Magnus", account: false, kind: "bot" }], daily: "2026-12-05-classic-2" });
    assert.equal(gameLine(attempt), "Daily deal · 4–7 · against Magnus · Classic · 2 players · not rated");
  });
});
