// Moves in words: what the page writes for each kind of move, from the real English catalogue.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { setCatalogue } from "../../src/cassino/web/static/i18n.js";
import { buildText, choiceGroups, moveText, namedBuilds, parseLine, playedText, splitTargets } from "../../src/cassino/web/static/words.js";
import { catalogue, engineSentences } from "./support.mjs";

const NAMES = ["Ana", "Ben", "Cy", "Dee"];
const seatName = (s) => (s === 0 ? "you" : NAMES[s]);
const YOU = 0;

before(() => setCatalogue("en", catalogue("en")));

/** A legal move as the server lists it (the card, the table cards it takes or joins, its value). */
const move = (line, kind, card, value, table) => ({ move: line, kind, card, value, table });

describe("parseLine", () => {
  test("reads each kind of canonical line", () => {
    assert.deepEqual(parseLine("trail 7d"), { kind: "trail", card: "7d", value: 0, table: [], move: "trail 7d" });
    assert.deepEqual(parseLine("capture 8s 8: 5h 3c"), { kind: "capture", card: "8s", value: 8, table: ["5h", "3c"], move: "capture 8s 8: 5h 3c" });
    assert.deepEqual(parseLine("build 2c 9: 4h 3d"), { kind: "build", card: "2c", value: 9, table: ["4h", "3d"], move: "build 2c 9: 4h 3d" });
  });

  test("a value that is not a number reads as 0, and anything else as no move", () => {
    assert.equal(parseLine("capture Kh K: Kd").value, 0);
    assert.equal(parseLine("play 7d"), null);
    assert.equal(parseLine("trail"), null);
    assert.equal(parseLine(""), null);
  });
});

describe("splitTargets", () => {
  test("a build whose cards are all taken counts as the build; the rest are loose", () => {
    const table = { loose: ["5h", "3c", "2d"], builds: [{ cards: ["4c", "4d"], value: 8, owner: 1, single: true }] };
    const parts = splitTargets({ table: ["5h", "3c", "4c", "4d"] }, table, YOU, seatName);
    assert.deepEqual(parts, { builds: [table.builds[0]], loose: ["5h", "3c"] });
  });

  test("part of a build is not the build", () => {
    const table = { loose: [], builds: [{ cards: ["4c", "4d"], value: 8, owner: 1, single: true }] };
    assert.deepEqual(splitTargets({ table: ["4c"] }, table, YOU, seatName), { builds: [], loose: ["4c"] });
  });
});

describe("buildText", () => {
  const build = (owner, value) => ({ cards: ["4c", "4d"], value, owner, single: true });
  test("the reader's own build, another seat's, and a value written as a word", () => {
    assert.equal(buildText(build(YOU, 8), YOU, seatName), "your eight");
    assert.equal(buildText(build(2, 10), YOU, seatName), "Cy's ten");
    assert.equal(buildText(build(1, 14), YOU, seatName), "Ben's fourteen");
  });
});

describe("moveText", () => {
  const table = {
    loose: ["5h", "3c", "Td"],
    builds: [
      { cards: ["4c", "2h"], value: 6, owner: YOU, single: true },
      { cards: ["6s", "3d"], value: 9, owner: 1, single: true },
    ],
  };

  test("a trail", () => {
    assert.equal(moveText(move("trail 7d", "trail", "7d", 0, []), table, YOU, seatName), "trail 7♦");
  });

  test("a capture of loose cards", () => {
    assert.equal(moveText(move("capture 8s 8: 5h 3c", "capture", "8s", 8, ["5h", "3c"]), table, YOU, seatName), "take 5♥ 3♣ with 8♠");
  });

  test("a capture of a build and a loose card", () => {
    const m = move("capture 9h 9: 6s 3d", "capture", "9h", 9, ["6s", "3d"]);
    assert.equal(moveText(m, table, YOU, seatName), "take Ben's nine with 9♥");
    const both = move("capture Ts 10: Td", "capture", "Ts", 10, ["Td"]);
    assert.equal(moveText(both, table, YOU, seatName), "take 10♦ with 10♠");
  });

  test("a new build, and a build joined with a loose card", () => {
    assert.equal(moveText(move("build 2c 7: 5h", "build", "2c", 7, ["5h"]), table, YOU, seatName), "build seven: 2♣ on 5♥");
    const onto = move("build 3s 9: 6s 3d", "build", "3s", 9, ["6s", "3d"]);
    assert.equal(moveText(onto, table, YOU, seatName), "build nine: 3♠ on Ben's nine");
  });

  test("raising a build, the reader's own and another's", () => {
    const own = move("build 3h 9: 4c 2h", "build", "3h", 9, ["4c", "2h"]);
    assert.equal(moveText(own, table, YOU, seatName), "raise your six to nine with 3♥");
    const other = move("build Ac 10: 6s 3d", "build", "Ac", 10, ["6s", "3d"]);
    assert.equal(moveText(other, table, YOU, seatName), "raise Ben's nine to ten with A♣");
  });

  test("builds whose words are alike are named by their cards, so a sentence names one move", () => {
    const twins = {
      loose: ["Ac"],
      builds: [
        { cards: ["4d", "5d"], value: 9, owner: YOU, single: true },
        { cards: ["2c", "7d"], value: 9, owner: YOU, single: true },
        { cards: ["3h", "3s"], value: 6, owner: 1, single: true },
      ],
    };
    assert.deepEqual(namedBuilds(twins.builds, YOU, seatName), [twins.builds[2]]);
    const take = move("capture 9h 9: 4d 5d", "capture", "9h", 9, ["4d", "5d"]);
    assert.equal(moveText(take, twins, YOU, seatName), "take 4♦ 5♦ with 9♥");
    const onto = move("build 9s 9: 2c 7d", "build", "9s", 9, ["2c", "7d"]);
    assert.equal(moveText(onto, twins, YOU, seatName), "build nine: 9♠ on 2♣ 7♦");
  });

  test("a raise that also joins a build reads as a build, naming both", () => {
    const joined = move("build 3h 9: 4c 2h 6s 3d", "build", "3h", 9, ["4c", "2h", "6s", "3d"]);
    assert.equal(moveText(joined, table, YOU, seatName), "build nine: 3♥ on your six, Ben's nine");
  });

  test("targets split beforehand give the same sentence", () => {
    const m = move("capture 9h 9: 6s 3d", "capture", "9h", 9, ["6s", "3d"]);
    assert.equal(moveText(m, table, YOU, seatName, splitTargets(m, table, YOU, seatName)), "take Ben's nine with 9♥");
  });
});

describe("playedText", () => {
  const before = { loose: ["5h", "3c"], builds: [{ cards: ["4c", "4d"], value: 8, owner: 1, single: true }] };

  test("with the table it was played on: builds named", () => {
    assert.equal(playedText("capture 8s 8: 4c 4d", YOU, seatName, before), "take Ben's eight with 8♠");
  });

  test("without the table: the cards alone", () => {
    assert.equal(playedText("capture 8s 8: 4c 4d", YOU, seatName), "take 4♣ 4♦ with 8♠");
    assert.equal(playedText("build 2c 7: 5h", YOU, seatName), "build seven: 2♣ on 5♥");
    assert.equal(playedText("trail Kd", YOU, seatName), "trail K♦");
  });

  test("a line that is no move is shown as it came", () => {
    assert.equal(playedText("pass", YOU, seatName), "pass");
  });
});

describe("choiceGroups", () => {
  const table = { loose: ["5h", "3c", "8d", "Ah"], builds: [{ cards: ["6s", "2d"], value: 8, owner: 1, single: true }] };
  const moves = [
    move("capture 8s 8: 5h 3c", "capture", "8s", 8, ["5h", "3c"]),
    move("capture 8s 8: 8d", "capture", "8s", 8, ["8d"]),
    move("capture 8s 8: 6s 2d", "capture", "8s", 8, ["6s", "2d"]),
    move("build 8s 9: Ah", "build", "8s", 9, ["Ah"]),
    move("trail 8s", "trail", "8s", 0, []),
  ];

  test("a line for each kind and value; buttons name the table's part, labels the whole move", () => {
    assert.deepEqual(choiceGroups(moves, table, YOU, seatName), [
      {
        label: "take with 8♠:",
        moves: [
          { move: "capture 8s 8: 5h 3c", text: "5♥ 3♣", sentence: "take 5♥ 3♣ with 8♠" },
          { move: "capture 8s 8: 8d", text: "8♦", sentence: "take 8♦ with 8♠" },
          { move: "capture 8s 8: 6s 2d", text: "Ben's eight", sentence: "take Ben's eight with 8♠" },
        ],
      },
      { label: "build nine with 8♠:", moves: [{ move: "build 8s 9: Ah", text: "A♥", sentence: "build nine: 8♠ on A♥" }] },
      { label: "", moves: [{ move: "trail 8s", text: "trail 8♠", sentence: "trail 8♠" }] },
    ]);
  });

  test("an ace taking as one and as fourteen: each line says which (one is a number: no value.1 word)", () => {
    const aces = { loose: ["Ad", "9c", "5h"], builds: [] };
    const groups = choiceGroups([
      move("capture Ac 1: Ad", "capture", "Ac", 1, ["Ad"]),
      move("capture Ac 14: 9c 5h", "capture", "Ac", 14, ["9c", "5h"]),
    ], aces, YOU, seatName);
    assert.deepEqual(groups.map((g) => g.label), ["take as 1 with A♣:", "take as fourteen with A♣:"]);
    assert.deepEqual(groups.map((g) => g.moves.map((m) => m.text)), [["A♦"], ["9♣ 5♥"]]);
  });

  test("each move's targets are split once", () => {
    let reads = 0;
    const counted = { loose: table.loose, get builds() { reads += 1; return table.builds; } };
    choiceGroups(moves, counted, YOU, seatName);
    assert.equal(reads, 4); // one for each move that takes or joins something; none for the trail
  });
});

describe("the engine's words", () => {
  test("every move the engine words on random tables, the page words alike, in every language", () => {
    const cases = engineSentences();
    const names = ["Ana", "Ben", "Cy", "Dee"];
    const seatName = (s) => names[s];
    const languages = new Set(cases.map((c) => c.language));
    assert.deepEqual([...languages], ["en", "de", "id"]);
    assert.ok(cases.length > 1000 && cases.some((c) => /raise|erhöhen|naikkan/.test(c.sentence)));
    try {
      for (const language of languages) {
        setCatalogue(language, catalogue(language));
        for (const c of cases.filter((c) => c.language === language)) {
          assert.equal(moveText(parseLine(c.line), c.table, c.you, seatName), c.sentence, `${language}: ${c.line}`);
          assert.equal(playedText(c.line, c.you, seatName), c.played, `${language}: ${c.line}`);
        }
      }
    } finally {
      setCatalogue("en", catalogue("en"));
    }
  });
});
