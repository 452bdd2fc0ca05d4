// The page's words: which language it starts in, messages with placeholders and plurals, cards,
// numbers and the engine's structured reasons, in English and in German, from the real catalogues.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  cardLabel, cardText, cardsText, has, languages, messageText, numberText, pickLanguage, preferredLanguage, setCatalogue,
  setLanguages, t, tn, valueWord,
} from "../../src/cassino/web/static/i18n.js";
import { catalogue, MemoryStorage, serverConfig } from "./support.mjs";

const english = catalogue("en");
const german = catalogue("de");

describe("the language to start in", () => {
  const codes = ["en", "de", "id"];

  test("the one chosen before wins", () => {
    assert.equal(pickLanguage(codes, "id", ["de-DE", "en"]), "id");
  });

  test("else the browser's first listed language, by its base", () => {
    assert.equal(pickLanguage(codes, null, ["fr-FR", "de-AT", "en"]), "de");
    assert.equal(pickLanguage(codes, "xx", ["ID-id"]), "id");
  });

  test("else the first the server lists", () => {
    assert.equal(pickLanguage(codes, null, ["fr", "pt-BR"]), "en");
    assert.equal(pickLanguage(["de", "en"], null, []), "de");
  });

  test("from the languages of /api/config, this browser's storage and its languages", () => {
    const listed = serverConfig().languages;
    setLanguages(listed);
    assert.deepEqual(languages(), [
      { code: "en", name: "English" }, { code: "de", name: "Deutsch" }, { code: "id", name: "Bahasa Indonesia" },
    ]);
    globalThis.localStorage = new MemoryStorage();
    Object.defineProperty(globalThis, "navigator", { value: { languages: ["id-ID", "en-GB"] }, configurable: true });
    assert.equal(preferredLanguage(), "id");
    localStorage.setItem("cassino.lang", "de");
    assert.equal(preferredLanguage(), "de");
  });
});

describe("messages", () => {
  test("placeholders are filled; one not given stays as written", () => {
    setCatalogue("en", english);
    assert.equal(t("move.capture", { items: "5♥ 3♣", card: "8♠" }), "take 5♥ 3♣ with 8♠");
    assert.equal(t("move.capture", { card: "8♠" }), "take {items} with 8♠");
  });

  test("a missing key shows as itself", (context) => {
    setCatalogue("en", english);
    context.mock.method(console, "warn", () => {});
    assert.equal(has("no.such.key"), false);
    assert.equal(t("no.such.key"), "no.such.key");
    assert.equal(console.warn.mock.calls[0].arguments[0], "missing message no.such.key");
  });

  test("plurals by the language's rules", () => {
    setCatalogue("en", english);
    assert.deepEqual([0, 1, 2].map((n) => tn("seat.holds", n)), ["0 cards in hand", "1 card in hand", "2 cards in hand"]);
    setCatalogue("de", german);
    assert.deepEqual([1, 5].map((n) => tn("table.stock", n)), ["noch 1 Karte zu geben", "noch 5 Karten zu geben"]);
  });
});

describe("cards and numbers", () => {
  test("cards with suit symbols, court letters from the catalogue", () => {
    setCatalogue("en", english);
    assert.deepEqual(["Td", "Kd", "Jc", "As", "7h"].map(cardText), ["10♦", "K♦", "J♣", "A♠", "7♥"]);
    assert.equal(cardsText(["5h", "3c"]), "5♥ 3♣");
    setCatalogue("de", german);
    assert.equal(cardText("Jc"), "B♣");
  });

  test("a card for a screen reader, in each language's order", () => {
    setCatalogue("en", english);
    assert.equal(cardLabel("Td"), "ten of diamonds");
    setCatalogue("de", german);
    assert.equal(cardLabel("Jc"), "Kreuz Bube");
  });

  test("build values as words; a value with no word as its number", () => {
    setCatalogue("en", english);
    assert.deepEqual([2, 8, 14, 1].map(valueWord), ["two", "eight", "fourteen", "1"]);
  });

  test("numbers as the language writes them, one decimal at most", () => {
    setCatalogue("en", english);
    assert.deepEqual([2.4, 1234.5, 3, 0.04].map(numberText), ["2.4", "1,234.5", "3", "0"]);
    setCatalogue("de", german);
    assert.deepEqual([2.4, 1234.5].map(numberText), ["2,4", "1.234,5"]);
  });
});

describe("structured messages", () => {
  const reason = { code: "capture_value", params: { card: { cards: ["8c"] }, allowed: 8, value: 7 }, text: "English from the engine" };

  test("an engine's reason in the page's language, its params worded", () => {
    setCatalogue("en", english);
    assert.equal(messageText(reason), "8♣ captures as 8, not 7");
    setCatalogue("de", german);
    assert.equal(messageText(reason), "8♣ schlägt als 8, nicht als 7");
  });

  test("ranks, other messages and decimals as parameters", () => {
    setCatalogue("en", english);
    const note = { key: "learn.coach.note", params: { move: { word: "value.8" }, loss: 2.4, why: { rank: "K" } } };
    assert.equal(messageText(note), "Better: eight, about 2.4 points more. K");
  });

  test("without a catalogue entry, the English that came with it; nothing for no message", () => {
    setCatalogue("en", english);
    assert.equal(messageText({ key: "learn.not_a_message", text: "As the server said it" }), "As the server said it");
    assert.equal(messageText(null), "");
  });
});
