// The account area's logic: the seats a sign-in brings, the headers of the page's writes (its
// origin, and the CSRF token while signed in), and each refusal in the page's words, in English and
// in German, from the real catalogues.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import { MAX_SEATS, signInMark, refusalText, seatsToBring, writeInit } from "../../src/cassino/web/static/account.js";
import { setCatalogue } from "../../src/cassino/web/static/i18n.js";
import { catalogue } from "./support.mjs";

const english = catalogue("en");
const german = catalogue("de");

describe("the seats a sign-in brings", () => {
  test("the ones held, most recently used first, as game and token", () => {
    const held = {
      old: { token: "t1", seat: 0, at: 100 },
      newer: { token: "t2", seat: 1, at: 300 },
      middle: { token: "t3", seat: 0, at: 200 },
    };
    assert.deepEqual(seatsToBring(held), [
      { game: "newer", token: "t2" },
      { game: "middle", token: "t3" },
      { game: "old", token: "t1" },
    ]);
  });

  test("entries without a token are left out; none held brings none", () => {
    assert.deepEqual(seatsToBring({ a: { seat: 0, at: 1 }, b: null, c: { token: "", at: 2 }, d: { token: 7 } }), []);
    assert.deepEqual(seatsToBring({}), []);
    assert.deepEqual(seatsToBring(null), []);
  });

  test("at most the server's number, the latest kept", () => {
    const held = Object.fromEntries(Array.from({ length: MAX_SEATS + 5 }, (_, i) => [`g${i}`, { token: `t${i}`, at: i }]));
    const brought = seatsToBring(held);
    assert.equal(brought.length, MAX_SEATS);
    assert.deepEqual(brought[0], { game: `g${MAX_SEATS + 4}`, token: `t${MAX_SEATS + 4}` });
    assert.equal(brought.at(-1).game, "g5");
  });
});

describe("whether to ask who is signed in", () => {
  test("only when the server's mark is among the cookies; the mark tells one sign-in from another", () => {
    assert.equal(signInMark("cassino.x=1; cassino_account=0a1b2c3d4e5f6071"), "0a1b2c3d4e5f6071");
    assert.equal(signInMark("cassino_account=ff"), "ff");
    assert.equal(signInMark(""), null);
    assert.equal(signInMark("other=cassino_account=1; cassino_accounts=1"), null);
  });
});

describe("the page's writes", () => {
  test("signed in: the CSRF token, the origin sent, the request's own headers kept", () => {
    const init = writeInit({ method: "POST", headers: { "content-type": "application/json" }, body: "{}" }, { name: "Ann", csrf: "c0ffee" });
    assert.deepEqual(init, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": "c0ffee" },
      body: "{}",
      credentials: "same-origin",
      referrerPolicy: "same-origin",
    });
  });

  test("signed out: no token", () => {
    assert.deepEqual(writeInit({ method: "DELETE" }, null), {
      method: "DELETE", headers: {}, credentials: "same-origin", referrerPolicy: "same-origin",
    });
    assert.deepEqual(writeInit({ method: "POST" }), { method: "POST", headers: {}, credentials: "same-origin", referrerPolicy: "same-origin" });
  });
});

describe("refusals in words", () => {
  beforeEach(() => setCatalogue("en", english));

  test("each code of the server in the page's own message", () => {
    assert.equal(refusalText(401, { error: "wrong name or password", code: "wrong_password" }), "Wrong name or password.");
    assert.equal(refusalText(409, { code: "name_taken" }), "This name is taken: choose another.");
    assert.equal(refusalText(400, { code: "short_password" }), "The password must be at least 8 characters long.");
    assert.equal(refusalText(400, { code: "bad_name" }), "A name has 3 to 20 letters, digits, _ or -.");
    assert.equal(refusalText(403, { code: "csrf" }), refusalText(403, { code: "cross_site" }));
  });

  test("too many wrong passwords: the wait the server named", () => {
    assert.equal(refusalText(429, { code: "too_many" }, "840"), "Too many wrong passwords: try again in 840 s.");
  });

  test("anything else: the status; no answer at all: the network", () => {
    assert.equal(refusalText(503, { error: "the database refused" }), "That did not work (error 503): try again.");
    assert.equal(refusalText(500, { code: "no_such_code" }), "That did not work (error 500): try again.");
    assert.equal(refusalText(0, {}), "The server could not be reached: try again.");
  });

  test("in German", () => {
    setCatalogue("de", german);
    assert.equal(refusalText(401, { code: "wrong_password" }), "Falscher Name oder falsches Passwort.");
    assert.equal(refusalText(429, { code: "too_many" }, "12"), "Zu viele falsche Passwörter: versuche es in 12 s noch einmal.");
  });
});
