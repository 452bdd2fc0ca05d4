// Fair deals, checked here: each hand's check once its deck is revealed: the seed against the
// commitment this page saw before the hand (kept in this browser, else the one in the state), the
// deck against the one deal.js derives from the seed and the contributions, and this page's
// contribution among them.

import { $, el } from "./dom.js";
import { t, tn, cardText, isRed } from "./i18n.js";
import { playedText } from "./words.js";
import { state } from "./state.js";
import { you, seatName } from "./seats.js";
import { dealRecord } from "./storage.js";
import { api } from "./transport.js";

const verifiedHands = new Map(); // "game/hand" -> the check of a revealed hand (done: false while it runs)
const fairOpen = new Set(); // the details (by key) a person has opened: kept open across redraws

/** A revealed hand's check: started once, redrawn when done. */
function checkHand(number, published) {
  const id = state.game.id;
  const key = `${id}/${number}`;
  if (verifiedHands.has(key)) return verifiedHands.get(key);
  const kept = dealRecord(id, number);
  const mine = kept && kept.value ? { seat: kept.seat ?? you(), value: kept.value } : null;
  const pending = { done: false };
  verifiedHands.set(key, pending);
  (async () => {
    const r = await api(`/api/games/${id}/hands/${number}`);
    const hand = await r.json();
    if (!r.ok) throw new Error(hand.error || String(r.status));
    const seen = kept?.commitment || published;
    const from = state.current?.daily?.deal || id; // a daily deal's deck is derived from the deal's id
    return { hand, mine, seen, ...(await window.cassinoDeal.verifyHand(from, hand, seen, mine)) };
  })().then((res) => Object.assign(pending, res, { done: true }), (e) => Object.assign(pending, { done: true, error: e.message }))
    .then(() => { if (state.game && state.game.id === id && state.shown) renderFair(); });
  return pending;
}

function keepOpen(node, key) {
  node.open = fairOpen.has(key);
  node.addEventListener("toggle", () => { if (node.open) fairOpen.add(key); else fairOpen.delete(key); });
  return node;
}

const shortHex = (hex) => el("code", { title: hex }, `${String(hex).slice(0, 12)}…`);

/** Why a hand's check failed, in words. */
export function problemText(res) {
  if (res.problem === "contribution") return t("fair.problem.contribution", { name: seatName(res.seat) });
  if (res.problem === "scheme") return t("fair.problem.scheme", { scheme: String(res.scheme) });
  return t(`fair.problem.${res.problem}`);
}

function fairStatus(res) {
  if (res.error) return el("span", { class: "mismatch" }, t("fair.not_checked", { error: res.error }));
  if (!res.ok) return el("span", { class: "mismatch" }, "✗ ", t("fair.not_verified", { why: problemText(res) }));
  return el("span", { class: "verified" }, "✓ ", res.mineUsed ? t("fair.verified_yours") : t("fair.verified"));
}

function fairFacts(res) {
  const hand = res.hand;
  const fact = (label, ...value) => [el("dt", {}, label), el("dd", {}, ...value)];
  const named = typeof hand.deck === "string" && /^([2-9TJQKA][cdhs] ){51}[2-9TJQKA][cdhs]$/.test(hand.deck);
  const cards = named ? hand.deck.split(" ").flatMap((c, i) => [i ? " " : null, el("span", { class: isRed(c) ? "red" : "" }, cardText(c))]).filter(Boolean)
    : [String(hand.deck)];
  const facts = [...fact(t("fair.commitment"), el("code", {}, String(res.seen || hand.commitment)))];
  if (hand.scheme === window.cassinoDeal.LEGACY) {
    facts.push(...fact(t("fair.salt"), el("code", {}, String(hand.salt))));
  } else {
    facts.push(...fact(t("fair.seed"), el("code", {}, String(hand.salt))));
    const given = Array.isArray(hand.contributions) ? hand.contributions : [];
    const rows = given.map((c) => {
      const yours = c.seat === you();
      return el("div", { class: "fair-given" + (yours ? " mine" : ""), "data-seat": String(c.seat) },
        yours ? el("span", { class: "badge yours" }, t("fair.yours")) : el("strong", {}, seatName(c.seat)), el("code", {}, String(c.value)));
    });
    if (res.mine && !res.mineUsed) {
      rows.push(el("div", { class: "fair-given mine missing" }, el("span", { class: "badge unused" }, t("fair.yours_sent")), el("code", {}, res.mine.value)));
    }
    facts.push(...fact(t("fair.contributions"), ...(rows.length ? rows : [t("fair.none")])));
  }
  facts.push(...fact(t("fair.deck"), el("span", { class: "fair-deck" }, ...cards)));
  return el("dl", { class: "fair-facts" }, ...facts);
}

/** Whose randomness a checked hand was dealt from, in words; `legacy` is deal.js's old scheme's name. */
export function fairSummary(res, legacy) {
  const hand = res.hand;
  if (hand.scheme === legacy) return t("fair.legacy");
  const given = Array.isArray(hand.contributions) ? hand.contributions : [];
  if (!given.length) return t("fair.seed_only");
  const mine = given.some((c) => c.seat === you());
  const names = given.filter((c) => c.seat !== you()).map((c) => seatName(c.seat)).join(", ");
  if (mine) return names ? t("fair.mixed_you_and", { names }) : t("fair.mixed_you");
  return t("fair.mixed", { names });
}

export function renderFair() {
  const { shown, game } = state;
  const list = $("fair");
  const history = $("history");
  const items = [];
  const earlier = [];
  for (const d of shown.deals) {
    const head = el("div", { class: "fair-head" }, el("span", { class: "fair-n" }, t("side.hand_n", { n: d.hand })));
    const item = el("li", { class: "fair-hand", "data-hand": String(d.hand) }, head);
    items.push(item);
    if (!d.revealed) {
      head.append(el("span", { class: "about" }, t(shown.daily?.sealed && shown.status === "over" ? "daily.sealed_hand" : "fair.in_play")));
      item.append(el("p", { class: "about fair-what" }, t("fair.committed"), " ", shortHex(d.commitment)));
      continue;
    }
    const res = checkHand(d.hand, d.commitment);
    if (!res.done) { head.append(el("span", { class: "about" }, t("fair.checking"))); continue; }
    head.append(fairStatus(res));
    if (res.error) continue;
    item.dataset.result = res.ok ? "verified" : res.problem;
    item.append(el("p", { class: "about fair-what" }, fairSummary(res, window.cassinoDeal.LEGACY)),
      keepOpen(el("details", { class: "fair-details" }, el("summary", {}, t("fair.details")), fairFacts(res)), `deal/${game.id}/${d.hand}`));
    earlier.push(keepOpen(el("details", {}, el("summary", {}, `${t("side.hand_n", { n: d.hand })} (${tn("side.n_moves", res.hand.moves.length)})`),
      el("ol", { class: "moves" }, ...res.hand.moves.map((m) => el("li", {}, el("strong", {}, seatName(m.seat)), " ", playedText(m.move, you(), seatName))))),
    `moves/${game.id}/${d.hand}`));
  }
  const next = shown.next_deal;
  if (next) {
    const me = you();
    const yours = me !== null && next.contributed.includes(me);
    items.push(el("li", { class: "fair-hand fair-next", "data-hand": String(next.hand), "data-next": "" },
      el("div", { class: "fair-head" }, el("span", { class: "fair-n" }, t("side.hand_n", { n: next.hand })),
        el("span", { class: yours ? "verified" : "about" }, yours ? t("fair.next_yours") : t("fair.next"))),
      el("p", { class: "about fair-what" }, t("fair.committed"), " ", shortHex(next.commitment))));
  }
  list.replaceChildren(...items);
  history.replaceChildren(...earlier);
  // a deal that failed its check is never left folded away
  if (items.some((item) => item.dataset.result && item.dataset.result !== "verified")) $("fair-fold").open = true;
}
