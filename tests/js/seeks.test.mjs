// The lobby's seeks in words and requests: a seek's line (variant, rated or casual, who posted it
// and their rating, the seats taken), what this account may do with it, the body of Play now from
// the lobby's choice, the seats of a game against a computer player of one's level instead, and
// each refusal in the page's words, in English and in German, from the real catalogues.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { setCatalogue } from "../../src/cassino/web/static/i18n.js";
import {
  botSeats, onlineParts, playNowBody, refusalText, seekAction, seekText, socketUrl, variantText,
} from "../../src/cassino/web/static/seeks.js";
import { catalogue } from "./support.mjs";

const english = catalogue("en");
const german = catalogue("de");

const seek = {
  id: "s1", preset: "royal", players: 4, partnerships: true, rated: true, by: "Ann", rating: 1500,
  provisional: true, seats: 2, needed: 4, yours: false, joined: false,
};

describe("a seek in words", () => {
  test("its variant, rated, its creator's provisional rating and the seats taken", () => {
    setCatalogue("en", english);
    assert.equal(variantText(seek), "Royal Casino · 4 players · partnerships");
    assert.equal(seekText(seek), "Royal Casino · 4 players · partnerships · rated · by Ann (1500, provisional) · 2 of 4 seats");
    const casual = { ...seek, preset: "classic", players: 2, partnerships: false, rated: false, provisional: false, rating: 1712, seats: 1, needed: 2 };
    assert.equal(seekText(casual), "Classic · 2 players · casual · by Ann (1712) · 1 of 2 seats");
  });

  test("in German", () => {
    setCatalogue("de", german);
    assert.equal(seekText(seek), "Royal Casino · 4 Spieler · Partnerschaften · gewertet · von Ann (1500, vorläufig) · 2 von 4 Plätzen");
    setCatalogue("en", english);
  });

  test("join a stranger's, cancel one's own, leave one joined", () => {
    assert.equal(seekAction(seek), "join");
    assert.equal(seekAction({ ...seek, yours: true }), "cancel");
    assert.equal(seekAction({ ...seek, joined: true }), "leave");
  });
});

describe("Play now", () => {
  test("plays the lobby's variant and players, partnerships only with four", () => {
    assert.deepEqual(playNowBody({ preset: "spade", players: 4 }, true, 20), { preset: "spade", players: 4, partnerships: true, wait: 20 });
    assert.deepEqual(playNowBody({ preset: "classic", players: 3 }, true, 10), { preset: "classic", players: 3, partnerships: false, wait: 10 });
  });

  test("a computer player of one's level in every other seat", () => {
    assert.deepEqual(botSeats("Ann", "club", 3), [
      { kind: "human", name: "Ann" }, { kind: "bot", bot: "club" }, { kind: "bot", bot: "club" },
    ]);
  });

  test("the socket is on the page's own host, wss under https", () => {
    assert.equal(socketUrl({ protocol: "https:", host: "cassino.example" }), "wss://cassino.example/api/lobby/socket");
    assert.equal(socketUrl({ protocol: "http:", host: "127.0.0.1:8000" }), "ws://127.0.0.1:8000/api/lobby/socket");
  });
});

describe("refusals in the page's words", () => {
  test("from the server's codes, a refused field, the network and any other status", () => {
    setCatalogue("en", english);
    assert.equal(refusalText(409, { code: "one_per_pool" }), "You have an open seek of this kind already: cancel it to post another.");
    assert.equal(refusalText(400, { code: "players" }), "These choices cannot make a game: choose others.");
    assert.equal(refusalText(403, { code: "csrf" }), english["account.error.cross_site"]);
    assert.equal(refusalText(0, {}), "The server could not be reached: try again.");
    assert.equal(refusalText(503, {}), "That did not work (error 503): try again.");
    setCatalogue("de", german);
    assert.equal(refusalText(409, { code: "not_open" }), "Dieses Gesuch ist nicht mehr offen.");
    setCatalogue("en", english);
  });
});

describe("who is online in the lobby", () => {
  test("the count, the first names and how many more, in English, German and Indonesian", () => {
    setCatalogue("en", english);
    const names = Array.from({ length: 14 }, (_, i) => `p${i}`);
    assert.deepEqual(onlineParts({ count: 20, names }), { label: "Online in the lobby (20)", names: names.slice(0, 12), more: 8 });
    assert.deepEqual(onlineParts({ count: 1, names: ["Ann"] }), { label: "Online in the lobby (1)", names: ["Ann"], more: 0 });
    setCatalogue("de", german);
    assert.equal(onlineParts({ count: 2, names: ["Ann", "Bob"] }).label, "In der Lobby online (2)");
    setCatalogue("id", catalogue("id"));
    assert.equal(onlineParts({ count: 2, names: ["Ann", "Bob"] }, 1).more, 1);
    assert.equal(onlineParts({ count: 2, names: ["Ann", "Bob"] }).label, "Daring di lobi (2)");
    setCatalogue("en", english);
  });
});

