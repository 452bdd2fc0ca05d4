// Deals no server can choose (scheme cassino-deal-v1, as src/cassino/web/fair.py describes it):
// a person's contribution, the deck a hand's seed and contributions give, and the check of a
// revealed hand. A plain script (no module) so that it can be loaded, and tested, on its own:
// everything is on window.cassinoDeal. SHA-256 by crypto.subtle, else sha256.js's sha256Hex.
"use strict";
(function () {
  const SCHEME = "cassino-deal-v1";
  const LEGACY = "commit-v0";
  const RANKS = "A23456789TJQK";
  const SUITS = "cdhs";
  const CARDS = Array.from({ length: 52 }, (_, c) => RANKS[c >> 2] + SUITS[c & 3]);
  const HEX64 = /^[0-9a-f]{64}$/;

  const isValue = (text) => typeof text === "string" && HEX64.test(text);
  const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const fromHex = (hex) => Uint8Array.from(hex.match(/../g), (h) => parseInt(h, 16));

  /** The 32 bytes of SHA-256 of ASCII text. */
  async function digest(text) {
    const subtle = window.crypto && window.crypto.subtle;
    if (subtle) return new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(text)));
    return fromHex(window.sha256Hex(text));
  }

  /** SHA-256 of ASCII text as 64 lower-case hex digits. */
  async function sha256(text) {
    return toHex(await digest(text));
  }

  /** A contribution: 32 bytes from the browser's random source, as 64 lower-case hex digits. */
  function newContribution() {
    return toHex(crypto.getRandomValues(new Uint8Array(32)));
  }

  /** What is published of a seed before its hand: SHA-256 of its 64 hex digits. */
  function commitmentOf(seed) {
    return sha256(seed);
  }

  /** Contributions as a map seat -> value, from {seat: value} or [{seat, value}]. */
  function bySeat(contributions) {
    const out = new Map();
    if (Array.isArray(contributions)) for (const c of contributions) out.set(Number(c.seat), c.value);
    else for (const [seat, value] of Object.entries(contributions || {})) out.set(Number(seat), value);
    return out;
  }

  /** The hex digest every random byte of a hand's shuffle comes from. */
  function dealRoot(gameId, hand, seed, contributions) {
    const given = [...bySeat(contributions)].sort((a, b) => a[0] - b[0]).map(([s, v]) => `${s}=${v}`).join(",");
    return sha256(`${SCHEME}|${gameId}|${hand}|${seed}|${given}`);
  }

  /** The deck of a hand, top card first, as the server writes it: card names, one space between. */
  async function deriveDeck(gameId, hand, seed, contributions) {
    const root = await dealRoot(gameId, hand, seed, contributions);
    let bytes = new Uint8Array(0);
    let at = 0;
    let block = 0;
    const next = async () => {
      if (at === bytes.length) { bytes = await digest(`${root}|${block++}`); at = 0; }
      return bytes[at++];
    };
    const deck = CARDS.slice();
    for (let i = 51; i > 0; i--) {
      const n = i + 1;
      const limit = 256 - (256 % n);
      let b = await next();
      while (b >= limit) b = await next();
      const j = b % n;
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    return deck.join(" ");
  }

  /**
   * Check a revealed hand (GET /api/games/{game}/hands/{n}). `published`: the commitment this page
   * saw before the hand (else the reveal's own); `mine`: {seat, value} when this page contributed.
   * Returns {ok, scheme, problem, seat, mineUsed, derived}: problem is null when it holds, else one of
   * seed, commitment, contribution (with its seat), deck, unused (the deck holds, but without this
   * page's contribution), legacy (a commit-v0 hand whose salt and deck miss the commitment) or scheme.
   */
  async function verifyHand(gameId, reveal, published, mine) {
    const commit = String(published || reveal.commitment || "").toLowerCase();
    const result = { ok: false, scheme: reveal.scheme, problem: null, seat: null, mineUsed: null, derived: null };
    const fail = (problem, seat = null) => Object.assign(result, { problem, seat });
    if (reveal.scheme === LEGACY) {
      const ok = (await sha256(String(reveal.salt) + String(reveal.deck))) === commit;
      return ok ? Object.assign(result, { ok: true }) : fail("legacy");
    }
    if (reveal.scheme !== SCHEME) return fail("scheme");
    if (!isValue(reveal.salt)) return fail("seed");
    if ((await commitmentOf(reveal.salt)) !== commit || String(reveal.commitment).toLowerCase() !== commit) return fail("commitment");
    const given = Array.isArray(reveal.contributions) ? reveal.contributions : [];
    for (const c of given) if (!isValue(c.value)) return fail("contribution", Number(c.seat));
    result.derived = await deriveDeck(gameId, reveal.hand, reveal.salt, given);
    if (result.derived !== reveal.deck) return fail("deck");
    if (mine && mine.value) {
      result.mineUsed = given.some((c) => Number(c.seat) === Number(mine.seat) && c.value === mine.value);
      if (!result.mineUsed) return fail("unused", Number(mine.seat));
    }
    result.ok = true;
    return result;
  }

  window.cassinoDeal = { SCHEME, LEGACY, CARDS, isValue, sha256, newContribution, commitmentOf, dealRoot, deriveDeck, verifyHand };
})();
