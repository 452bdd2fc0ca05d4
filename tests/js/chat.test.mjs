// The chat's logic (chatlog.js) and what the browser keeps of it (storage.js): messages in the
// reader's language from the real catalogues, the messages kept and shown (mutes), what screen
// readers hear when one or many messages come, texts checked exactly as the server checks them,
// refusals in words, and the seats muted per game.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import { setCatalogue } from "../../src/cassino/web/static/i18n.js";
import {
  ANNOUNCE_GAP, Announcer, KEEP, addMessage, announcement, isNews, messageWords, refusalText, shownMessages, textProblem, timeText,
} from "../../src/cassino/web/static/chatlog.js";
import { DEAL_KEPT_FOR, chatOpen, mutedSeats, setChatOpen, setMuted } from "../../src/cassino/web/static/storage.js";
import { MemoryStorage, catalogue, chatProblems } from "./support.mjs";

const english = catalogue("en");
const german = catalogue("de");
const ann = { type: "chat", id: 1, seat: 0, name: "Ann", at: 1_700_000_000, phrase: "good_luck" };
const ben = { type: "chat", id: 2, seat: 1, name: "Ben", at: 1_700_000_005, text: "<b>hi</b> & bye" };

describe("messages in the reader's words", () => {
  test("a phrase in the reader's language, a text as written", () => {
    setCatalogue("en", english);
    assert.equal(messageWords(ann), "Good luck!");
    assert.equal(messageWords(ben), "<b>hi</b> & bye");
    setCatalogue("de", german);
    assert.equal(messageWords(ann), "Viel Glück!");
    assert.equal(messageWords({ ...ann, phrase: "well_played" }), "Gut gespielt!");
    assert.equal(messageWords(ben), "<b>hi</b> & bye");
  });

  test("a time of day in the reader's way", () => {
    const at = Date.UTC(2024, 5, 1, 14, 5) / 1000;
    const offset = new Date(at * 1000).getTimezoneOffset();
    if (offset === 0) {
      assert.equal(timeText(at, "de"), "14:05");
      assert.equal(timeText(at, "en"), "2:05 PM");
    }
    assert.match(timeText(at, "id"), /^\d{1,2}[.:]\d{2}$/);
  });
});

describe("the messages kept and shown", () => {
  test("each once, in the order of their ids, the last KEEP", () => {
    let list = addMessage([], ben);
    list = addMessage(list, ann);
    assert.deepEqual(list.map((m) => m.id), [1, 2]);
    assert.equal(addMessage(list, ann), list);
    for (let id = 3; id <= KEEP + 10; id++) list = addMessage(list, { ...ann, id });
    assert.equal(list.length, KEEP);
    assert.deepEqual([list[0].id, list.at(-1).id], [11, KEEP + 10]);
  });

  test("a muted seat's messages are not shown, and are no news", () => {
    assert.deepEqual(shownMessages([ann, ben], [1]), [ann]);
    assert.deepEqual(shownMessages([ann, ben], []), [ann, ben]);
    assert.equal(isNews(ben, 0, []), true);
    assert.equal(isNews(ben, 0, [1]), false);
    assert.equal(isNews(ann, 0, []), false); // one's own
    assert.equal(isNews(ann, null, []), true); // a spectator's news
  });
});

describe("what screen readers hear", () => {
  const nameOf = (m) => m.name;

  test("one message whole, several counted with the last", () => {
    setCatalogue("en", english);
    assert.equal(announcement([ann], nameOf), "Ann: Good luck!");
    assert.equal(announcement([ann, ben], nameOf), "2 new messages; the last from Ben: <b>hi</b> & bye");
    setCatalogue("de", german);
    assert.equal(announcement([ben, ann], nameOf), "2 neue Nachrichten; die letzte von Ann: Viel Glück!");
    assert.equal(announcement([], nameOf), "");
  });

  test("the first at once, those that follow within the gap together when it is over", () => {
    setCatalogue("en", english);
    let now = 0;
    const timers = [];
    const said = [];
    const announcer = new Announcer((text) => said.push(text), nameOf, {
      now: () => now, later: (f, ms) => timers.push({ f, at: now + ms }) - 1, cancel: () => {},
    });
    announcer.add(ann);
    assert.deepEqual(said, ["Ann: Good luck!"]);
    now = 1000;
    announcer.add(ben);
    announcer.add({ ...ann, id: 3, phrase: "thanks" });
    assert.deepEqual(said, ["Ann: Good luck!"]); // not every one
    assert.equal(timers.length, 1);
    assert.equal(timers[0].at, ANNOUNCE_GAP);
    now = timers[0].at;
    timers[0].f();
    assert.deepEqual(said, ["Ann: Good luck!", "2 new messages; the last from Ann: Thanks!"]);
    now += ANNOUNCE_GAP;
    announcer.add(ben);
    assert.equal(said.at(-1), "Ben: <b>hi</b> & bye");
    assert.equal(timers.length, 1);
  });

  test("stopping forgets what was waiting", () => {
    const said = [];
    let now = 0;
    const announcer = new Announcer((text) => said.push(text), nameOf, { now: () => now, later: () => 7, cancel: () => {} });
    announcer.add(ann);
    announcer.add(ben);
    announcer.stop();
    now = ANNOUNCE_GAP;
    announcer.flush();
    assert.equal(said.length, 1);
  });
});

describe("texts checked as the server checks them", () => {
  const texts = [
    "hello", "  padded  ", "", "   ", "x".repeat(200), "x".repeat(201), " ".repeat(5) + "x".repeat(200) + " ",
    "🂡".repeat(200), "🂡".repeat(201), "two\nlines", "tab\there", "bell\u0007", "abc\u202edcba", "line\u2028sep",
    "<script>alert(1)</script>", "é ü ß 日本語", "\u0000", "lone \ud800 surrogate",
  ];

  test("the same refusal, or none, for every text", () => {
    const server = chatProblems(texts);
    assert.deepEqual(texts.map((text) => textProblem(text, 200)), server);
    assert.deepEqual(server.slice(0, 6), [null, null, "empty_text", "empty_text", null, "long_text"]);
  });

  test("a refusal in the reader's words, with its wait or limit", () => {
    setCatalogue("en", english);
    assert.equal(refusalText({ code: "too_many", retry_after: 4, error: "too many chat messages: ..." }, 200), "Too many messages at once: try again in 4 s.");
    assert.equal(refusalText({ code: "long_text", max: 200 }, 200), "A message has at most 200 characters.");
    setCatalogue("de", german);
    assert.equal(refusalText({ code: "free_off", error: "free text is off" }, 200), "Freier Text ist an diesem Tisch aus: nur kurze Sätze.");
    assert.equal(refusalText({ code: "nothing_known", error: "the server's words" }, 200), "the server's words");
    assert.equal(refusalText({ error: "no code" }, 200), "no code");
  });
});

describe("what the browser keeps", () => {
  beforeEach(() => { globalThis.localStorage = new MemoryStorage(); });

  test("the seats muted, per game", () => {
    assert.deepEqual(mutedSeats("g1"), []);
    setMuted("g1", 2, true, 1000);
    setMuted("g1", 0, true, 1000);
    setMuted("g2", 1, true, 1000);
    assert.deepEqual(mutedSeats("g1"), [0, 2]);
    assert.deepEqual(mutedSeats("g2"), [1]);
    setMuted("g1", 2, false, 1000);
    assert.deepEqual(mutedSeats("g1"), [0]);
  });

  test("a game's list changed long ago is forgotten; an unreadable one reads as none", () => {
    setMuted("old", 1, true, 0);
    setMuted("new", 1, true, DEAL_KEPT_FOR + 1);
    assert.deepEqual(mutedSeats("old"), []);
    assert.deepEqual(mutedSeats("new"), [1]);
    localStorage.setItem("cassino.chat.muted", "{broken");
    assert.deepEqual(mutedSeats("new"), []);
    setMuted("new", 3, true, 5);
    assert.deepEqual(mutedSeats("new"), [3]);
  });

  test("the panel open at first, then as left", () => {
    assert.equal(chatOpen(), true);
    setChatOpen(false);
    assert.equal(chatOpen(), false);
    setChatOpen(true);
    assert.equal(chatOpen(), true);
  });
});
