// Tournaments in words and requests: a tournament's address, its settings and where it stands,
// entrants' names (the server's computer players in the page's language), the standings' rows,
// the body the lobby's form sends, the pairings by round with each table's result, each revealed
// seed checked against its commitment, refusals; and the end of a table of one hand, which claims
// no winner of the game. In English and German, from the real catalogues.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";

import { setCatalogue } from "../../src/cassino/web/static/i18n.js";
import {
  boardText, botCount, checkSeeds, createBody, detailsText, entrantLabel, listLine, refusalText, roundsOf, settingsText,
  standingRows, statusText, tableResult, tableText, titleText, tournamentIdOf,
} from "../../src/cassino/web/static/tournaments.js";
import { handOnly, leaders, overStatus, overTitle } from "../../src/cassino/web/static/result.js";
import { catalogue } from "./support.mjs";

const english = catalogue("en");
const german = catalogue("de");
setCatalogue("en", english);

const swiss = { id: "ab12", kind: "swiss", preset: "classic", players: 2, rated: false, rounds: 3, minutes: 0, status: "open", round: 0, entrants: 4, ends: null };
const sha256 = async (text) => createHash("sha256").update(text).digest("hex");

describe("a tournament's address", () => {
  test("/tournament/ID names it; other paths do not", () => {
    assert.equal(tournamentIdOf("/tournament/3f9a0c1d2e3b4a5c"), "3f9a0c1d2e3b4a5c");
    assert.equal(tournamentIdOf("/tournament/3f9a/"), "3f9a");
    assert.equal(tournamentIdOf("/tournament/"), null);
    assert.equal(tournamentIdOf("/tournament/a/b"), null);
    assert.equal(tournamentIdOf("/@/ann"), null);
    assert.equal(tournamentIdOf("/"), null);
  });
});

describe("settings and status words", () => {
  test("a Swiss and an arena in a line", () => {
    assert.equal(settingsText(swiss), "Swiss · Classic · 2 players · 3 rounds · casual");
    const arena = { ...swiss, kind: "arena", preset: "royal", players: 3, rated: true, rounds: 0, minutes: 30 };
    assert.equal(settingsText(arena), "Arena · Royal Casino · 3 players · 30 minutes · rated");
    assert.equal(settingsText({ ...swiss, rounds: 1 }), "Swiss · Classic · 2 players · 1 round · casual");
    assert.equal(titleText(arena), "Arena · Royal Casino"); // the page's title, its details below it
    assert.equal(detailsText(arena), "3 players · 30 minutes · rated");
  });

  test("open, a Swiss's round, an arena's minutes left, over", () => {
    assert.equal(statusText(swiss), "open for entries");
    assert.equal(statusText({ ...swiss, status: "running", round: 2 }), "round 2 of 3");
    const arena = { ...swiss, kind: "arena", status: "running", minutes: 30, ends: 1000 + 125 };
    assert.equal(statusText(arena, 1000), "in play, 3 minutes left");
    assert.equal(statusText(arena, 1000 + 100), "in play, 1 minute left");
    assert.equal(statusText(arena, 2000), "time is up: the last tables finish");
    assert.equal(statusText({ ...swiss, status: "over", round: 3 }), "over");
  });

  test("the lobby's line", () => {
    assert.equal(listLine(swiss), "Swiss · Classic · 2 players · 3 rounds · casual · 4 entrants · open for entries");
    assert.equal(listLine({ ...swiss, entrants: 1 }), "Swiss · Classic · 2 players · 3 rounds · casual · 1 entrant · open for entries");
  });

  test("in German", () => {
    setCatalogue("de", german);
    assert.equal(listLine({ ...swiss, status: "running", round: 1 }), "Schweizer System · Klassisch · 2 Spieler · 3 Runden · ungewertet · 4 Teilnehmer · Runde 1 von 3");
    assert.equal(entrantLabel("casual (computer)"), "Gelegenheitsspieler (Computer)");
    setCatalogue("en", english);
  });
});

describe("names", () => {
  test("the server's computer entrants, in the page's words; people as they are", () => {
    assert.equal(entrantLabel("casual (computer)"), "Casual player (computer)");
    assert.equal(entrantLabel("novice (computer 2)"), "Novice (computer 2)");
    assert.equal(entrantLabel("ann_t"), "ann_t");
    assert.equal(entrantLabel("nobody (computer)"), "nobody (computer)"); // no such level: left alone
    assert.equal(entrantLabel("casual", true), "Casual player (computer, for a bye)");
  });
});

describe("the standings", () => {
  const view = {
    you: "ann_t",
    standings: [
      { rank: 1, name: "casual (computer)", points: 2, buchholz: 1.5, board: 9.5, games: 2, wins: 2, byes: 0 },
      { rank: 2, name: "ann_t", points: 1.5, buchholz: 2, board: -3.25, games: 2, wins: 1, byes: 0 },
      { rank: 3, name: "bob_t", points: 0, buchholz: 3.5, board: 0, games: 2, wins: 0, byes: 0 },
    ],
  };

  test("each row's rank, name as read, points, Buchholz, signed board, games, and the reader's", () => {
    assert.deepEqual(standingRows(view).map((r) => [r.rank, r.label, r.points, r.buchholz, r.board, r.games, r.you]), [
      ["1", "Casual player (computer)", "2", "1.5", "+9.5", "2", false],
      ["2", "ann_t", "1.5", "2", "−3.25", "2", true],
      ["3", "bob_t", "0", "3.5", "0", "2", false],
    ]);
    assert.deepEqual(standingRows({ standings: [] }), []);
    assert.equal(standingRows({ ...view, you: undefined }).some((r) => r.you), false); // signed out
  });

  test("numbers as the language writes them", () => {
    setCatalogue("de", german);
    assert.equal(standingRows(view)[1].points, "1,5");
    assert.equal(boardText(-3.25), "−3,25");
    setCatalogue("en", english);
    assert.equal(boardText(0.001), "0");
    assert.equal(boardText(12), "+12");
  });
});

describe("the form's body", () => {
  const bots = { beginner: 1, novice: 1, casual: 1, club: 0, expert: 0, master: 0 };

  test("a Swiss: its rounds, the computer entrants weakest first", () => {
    const form = { kind: "swiss", preset: "classic", players: "2", rounds: "3", minutes: "30", rated: false, bots: { ...bots, casual: 2 } };
    assert.deepEqual(createBody(form), {
      kind: "swiss", preset: "classic", players: 2, rated: false, rounds: 3, bots: ["beginner", "novice", "casual", "casual"],
    });
    assert.equal(botCount(form.bots), 4);
  });

  test("an arena: its minutes, no rounds", () => {
    const form = { kind: "arena", preset: "spade", players: "4", rounds: "3", minutes: "45", rated: true, bots: {} };
    assert.deepEqual(createBody(form), { kind: "arena", preset: "spade", players: 4, rated: true, minutes: 45, bots: [] });
  });
});

describe("the pairings", () => {
  const view = {
    pairings: [
      { round: 2, table: 1, seats: ["ann_t", "casual (computer)"], deal: "c2", computers: [], game: "g3", scores: null, winner: null },
      { round: 1, table: 2, seats: ["bob_t", "casual"], deal: "c1", computers: [1], game: "g2", scores: [5, 5], winner: -1 },
      { round: 1, table: 1, seats: ["ann_t", "novice (computer)"], deal: "c1", computers: [], game: "g1", scores: [7, 4], winner: 0 },
    ],
  };

  test("by round, each round's tables in order", () => {
    assert.deepEqual(roundsOf(view).map((r) => [r.round, r.tables.map((p) => p.game)]), [[1, ["g1", "g2"]], [2, ["g3"]]]);
    assert.deepEqual(roundsOf({}), []);
  });

  test("each table's sides and points, and its result", () => {
    const [first, bye, playing] = [view.pairings[2], view.pairings[1], view.pairings[0]];
    assert.equal(tableText(first), "ann_t 7 – 4 Novice (computer)");
    assert.equal(tableResult(first), "ann_t took the table");
    assert.equal(tableText(bye), "bob_t 5 – 5 Casual player (computer, for a bye)");
    assert.equal(tableResult(bye), "a draw");
    assert.equal(tableText(playing), "ann_t against Casual player (computer)");
    assert.equal(tableResult(playing), "in play");
    const three = { seats: ["a", "b", "c"], computers: [], scores: [6, 3, 2], winner: 0 };
    assert.equal(tableText(three), "a 6 · b 3 · c 2");
  });
});

describe("the seeds, once revealed", () => {
  test("each seed's SHA-256 against its commitment; a sealed one unchecked", async () => {
    const seed = "9f".repeat(32);
    const commitment = await sha256(seed);
    const checked = await checkSeeds([
      { number: 1, commitment, seed },
      { number: 2, commitment, seed: "00".repeat(32) },
      { number: 3, commitment },
    ], sha256);
    assert.deepEqual(checked.map((d) => [d.number, d.ok]), [[1, true], [2, false], [3, null]]);
  });
});

describe("refusals", () => {
  test("the server's codes in the page's words", () => {
    assert.equal(refusalText(409, { code: "started" }), "The tournament has begun: it takes no more entries.");
    assert.equal(refusalText(409, { code: "joined" }), "You are in this tournament already.");
    assert.equal(refusalText(403, { code: "not_organiser" }), "Only the organiser starts the tournament.");
    assert.equal(refusalText(400, { code: "rounds" }), "The tournament's settings were refused: choose again.");
    assert.equal(refusalText(0, {}), english["account.error.network"]);
    assert.equal(refusalText(500, {}), english["account.error.other"].replace("{status}", "500"));
  });
});

describe("the end of a table of one hand", () => {
  const names = ["You", "Ann", "Bob"];
  const sideName = (s) => names[s];
  const over = { status: "over", winner: -1, forfeit: null, scores: [7, 4] };

  test("no winner of the game: the hand's points and who had the most", () => {
    assert.equal(handOnly(over), true);
    assert.equal(overStatus(over, sideName), "Hand over: most points to You");
    assert.equal(overTitle(over, sideName), "Hand over: You 7 · Ann 4. Most points: You");
    const second = (s) => ["Ann", "You"][s]; // the reader at side 1: their points first
    assert.equal(overTitle({ ...over, scores: [4, 7] }, second, 1), "Hand over: You 7 · Ann 4. Most points: You");
  });

  test("equal points at the top", () => {
    const level = { ...over, scores: [5, 5, 1] };
    assert.deepEqual(leaders(level.scores), [0, 1]);
    assert.equal(overStatus(level, sideName), "Hand over: equal points");
    assert.equal(overTitle(level, sideName), "Hand over: You 5 · Ann 5 · Bob 1. Equal points at the top");
  });

  test("a game won is still a game won", () => {
    const won = { status: "over", winner: 1, forfeit: null, scores: [12, 21] };
    assert.equal(handOnly(won), false);
    assert.equal(overStatus(won, sideName), "Game over: Ann won");
    assert.equal(overTitle(won, sideName), "Ann won, 12 : 21");
    assert.equal(handOnly({ ...over, forfeit: { seat: 0 }, winner: 1 }), false);
  });

  test("in German", () => {
    setCatalogue("de", german);
    assert.equal(overTitle(over, sideName), "Spiel vorbei: You 7 · Ann 4. Die meisten Punkte: You");
    setCatalogue("en", english);
  });
});
