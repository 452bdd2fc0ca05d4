// The daily deal (GET /api/daily, docs/web.md "The daily deal"): one hand a day per variant, the
// same cards for everyone, against the computer player master. The lobby's panel lists today's
// deals with their commitments and a Play button each (one attempt: then its score and rank); the
// table's end shows an attempt's result (score, rank, percentile, the spread of scores, how master
// scored from the same seat); a deal's leaderboard is the page at /daily/ID, and once its day is
// over it offers the best game's replay and the deck's reveal, checked here (deal.js) against the
// commitment published before anyone played. A guest's attempt is known to this browser only
// (storage.js): its game and seat token name it to the leaderboard.

import { $, el } from "./dom.js";
import { t, tn, language, numberText, cardText, isRed } from "./i18n.js";
import { playerName, presetName } from "./options.js";
import { state } from "./state.js";
import { dailyAttempts, holdSeat, keepDailyAttempt, keepDeal } from "./storage.js";
import { onAccountChange, signedIn, writeInit } from "./account.js";
import { show } from "./views.js";
import { problemText } from "./fairness.js";
import { you, viewer, sideOf } from "./seats.js";
import { countToShow } from "./count.js";

export const OPPONENT = "master";

// ------------------------------------------------------------------ words (no page needed)
/** A score as people read it, signed: +3, −2, ±0. */
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");

/** What a deal's id says: its date and its pool ("2026-12-05-classic-4p": classic, 4 players, in
 * partnerships); null for anything else. */
export function dealParts(id) {
  const found = /^(\d{4}-\d{2}-\d{2})-(.+)-(\d)(p?)$/.exec(String(id));
  if (!found) return null;
  return { date: found[1], preset: found[2], players: Number(found[3]), partnerships: found[4] === "p" };
}

/** A deal's variant in words: "Classic · 2 players", "Classic · 4 players · partnerships". */
export function dealTitle(deal) {
  const parts = [presetName(deal.preset), tn("lobby.n_players", deal.players)];
  if (deal.partnerships) parts.push(t("daily.partnerships"));
  return parts.join(" · ");
}

/** A deal's date (UTC, as its id names it) as the page's language writes a date. */
export function dateText(date, lang = language()) {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(lang, { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
}

/** A commitment shortened for a list (the whole is a tap away). */
export const shortHex = (hex) => `${String(hex).slice(0, 10)}…`;

/** An attempt's score from the game's points: the person's side's minus the best of the others'. */
export function attemptScore(scores, side) {
  return scores[side] - Math.max(...scores.filter((_, s) => s !== side));
}

/** "Played: score +3, rank 2 of 14" (the rank once known). */
export function playedText(score, rank, count) {
  return rank ? t("daily.played_rank", { score: signed(score), rank, count }) : t("daily.played", { score: signed(score) });
}

/** Where an attempt stands among the others: its rank and the share of the others it beat. */
export function standingText(mine, count) {
  const rank = t("daily.rank", { rank: mine.rank, count });
  if (count <= 1) return `${rank} · ${t("daily.only_one")}`;
  return `${rank} · ${t("daily.percentile", { percentile: numberText(mine.percentile) })}`;
}

/** How master did from the same seat on the same deck, and how the attempt compares. */
export function masterText(master, score) {
  const name = playerName(OPPONENT);
  const line = t("daily.master", { name, score: signed(master) });
  if (score === undefined || score === null) return line;
  const than = score > master ? "daily.beat_master" : score === master ? "daily.tied_master" : "daily.below_master";
  return `${line} · ${t(than, { name })}`;
}

/** A streak of days in words. */
export const streakText = (days) => tn("daily.streak", days);

/** The most scores the chart spans with a bar each, the scores nobody made included: beyond it,
 * only the scores made are drawn (a chart of slivers says nothing). */
export const SPAN = 31;

/** Bars that each carry their score under them; with more, only the ends, the attempt's own and
 * every fifth score do (the bars are too narrow for every number). */
export const LABELLED = 12;

/** The bars of the spread of scores, lowest first: each score's count, its height as a share of
 * the tallest (at least a sliver, so a bar of one shows; none for a score nobody made), whether it
 * is the attempt's own and whether its score is written under it. Scores between the lowest and
 * the highest that nobody made get an empty bar, so that the chart's shape is the spread's. */
export function distributionBars(distribution, mine = null) {
  const counts = new Map(distribution.map((d) => [d.score, d.count]));
  const scores = distribution.map((d) => d.score);
  const low = Math.min(...scores);
  const high = Math.max(...scores);
  const every = scores.length && high - low < SPAN ? Array.from({ length: high - low + 1 }, (_, i) => low + i) : scores;
  const most = Math.max(1, ...counts.values());
  return every.map((score, i) => {
    const count = counts.get(score) || 0;
    const own = mine !== null && score === mine;
    const label = every.length <= LABELLED || own || i === 0 || i === every.length - 1 || score % 5 === 0;
    return { score, count, height: count ? Math.max(4, Math.round((100 * count) / most)) : 0, mine: own, label };
  });
}

/** The end of a daily attempt, where the end of a game names its winner (the banner in a few
 * words: `short`): the person's score; null for any other game (result.js words those). */
export function overText(st, seat, short = false) {
  if (!st.daily) return null;
  return t(short ? "daily.over_short" : "daily.over", { score: signed(attemptScore(st.scores, sideOf(seat))) });
}

/** Check a deal's reveal here: the seed's SHA-256 is the commitment this page saw (else the
 * reveal's own) and the seed gives the deck (the deal's id in place of a game's, no contributions). */
export async function verifyReveal(reveal, seen, deal = globalThis.window?.cassinoDeal) {
  const hand = { scheme: reveal.scheme, salt: reveal.seed, commitment: reveal.commitment, contributions: [], hand: 1, deck: reveal.deck };
  return deal.verifyHand(reveal.id, hand, seen || reveal.commitment, null);
}

/** The leaderboard's address for this browser: its own attempt named by game and token when it
 * made one (a guest's is known no other way). */
export function boardRequest(id, attempt) {
  const url = `/api/daily/${encodeURIComponent(id)}/leaderboard`;
  if (!attempt) return { url, init: { credentials: "same-origin" } };
  return { url: `${url}?game=${encodeURIComponent(attempt.game)}`, init: { credentials: "same-origin", headers: { "x-cassino-token": attempt.token } } };
}

/** A leaderboard, for this browser's attempt if it made one (asked again without it when the
 * seat's token is refused); null when it cannot be had. */
async function loadBoard(id) {
  const attempt = dailyAttempts()[id];
  for (const asked of attempt ? [attempt, null] : [null]) {
    const { url, init } = boardRequest(id, asked);
    const r = await fetch(url, init).catch(() => null);
    if (r && r.ok) return r.json();
    if (!r || r.status !== 403) return null;
  }
  return null;
}

/** The spread of scores as a small bar chart (plain HTML: a list, each bar named for screen readers). */
export function chart(distribution, mine, count) {
  const bars = distributionBars(distribution, mine);
  const list = el("ol", { class: "daily-bars" }, ...bars.map((b) => {
    const fill = el("span", { class: "daily-bar-fill" });
    fill.style.setProperty("--h", `${b.height}%`);
    const said = tn("daily.bar", b.count, { score: signed(b.score) }) + (b.mine ? ` (${t("daily.yours")})` : "");
    return el("li", { class: "daily-bar" + (b.mine ? " mine" : "") + (b.count ? "" : " none"), "data-score": String(b.score), "data-count": String(b.count) },
      el("span", { class: "daily-bar-track", "aria-hidden": "true" }, el("span", { class: "daily-bar-n" }, b.count ? String(b.count) : ""), fill),
      el("span", { class: "daily-bar-score", "aria-hidden": "true" }, b.label ? signed(b.score) : ""),
      b.count ? el("span", { class: "sr-only" }, said) : null);
  }));
  return el("figure", { class: "daily-chart", "data-testid": "daily-chart" },
    el("figcaption", {}, tn("daily.chart", count)), list);
}

// ------------------------------------------------------------------ the lobby's panel
let today = null; // GET /api/daily as last answered
let boards = {}; // deal id -> its leaderboard, for the attempts this page shows the rank of
let refusal = null; // { deal, key } of the last refused Play

/** Ask for today's deals and draw the panel (the lobby is shown, or who is signed in changed). */
export async function loadDaily() {
  const r = await fetch("/api/daily", { credentials: "same-origin" }).catch(() => null);
  today = r && r.ok ? await r.json() : null;
  boards = {};
  renderDaily();
  for (const deal of today?.deals || []) {
    const mine = attemptOf(deal);
    if (!mine) continue;
    loadBoard(deal.id).then((board) => { if (board) { boards[deal.id] = board; renderDaily(); } });
  }
}

/** This page's word on an attempt at a deal: the account's (the server's `played`), else one this
 * browser made; null when neither. */
function attemptOf(deal) {
  const kept = dailyAttempts()[deal.id];
  if (deal.played) return { game: deal.played.game, score: deal.played.score, token: kept?.game === deal.played.game ? kept.token : null };
  return kept ? { game: kept.game, score: null, token: kept.token } : null;
}

/** The panel, in the language now chosen. */
export function renderDaily() {
  const list = $("daily-deals");
  if (!list) return;
  $("daily-streak").hidden = !(signedIn() && today && typeof today.streak === "number");
  if (today && typeof today.streak === "number") $("daily-streak").textContent = streakText(today.streak);
  $("daily-about").textContent = t("daily.about", { name: playerName(OPPONENT) });
  $("daily-missing").hidden = Boolean(today);
  list.replaceChildren(...(today?.deals || []).map(dealItem));
}

function dealItem(deal) {
  const title = dealTitle(deal);
  const commitment = el("details", { class: "daily-commitment" },
    el("summary", {}, t("daily.committed"), " ", el("code", {}, shortHex(deal.commitment))),
    el("code", { class: "daily-hex", "data-testid": "daily-commitment" }, deal.commitment),
    el("p", { class: "about" }, t("daily.commitment_about")));
  const item = el("li", { class: "daily-deal", "data-deal": deal.id, "data-testid": "daily-deal" },
    el("div", { class: "daily-deal-head" }, el("strong", {}, title), " ",
      el("span", { class: "about" }, t("daily.against", { name: playerName(deal.opponent || OPPONENT) }))),
    commitment);
  const mine = attemptOf(deal);
  const board = boards[deal.id];
  const score = board?.you?.score ?? mine?.score;
  const actions = el("div", { class: "actions" });
  if (mine && score !== null && score !== undefined) {
    item.append(el("p", { class: "daily-played", "data-testid": "daily-played" },
      playedText(score, board?.you?.rank, board?.count)));
  } else if (mine) {
    item.append(el("p", { class: "about" }, t("daily.in_play")));
    if (mine.token) actions.append(el("a", { class: "button primary", href: `/#game=${mine.game}&token=${mine.token}`, "data-testid": "daily-continue" }, t("daily.continue")));
  } else {
    actions.append(el("button", { type: "button", class: "primary", "data-testid": "daily-play", "aria-label": t("daily.play_label", { deal: title }),
      onclick: (event) => play(deal, event.currentTarget) }, t("daily.play")));
  }
  actions.append(el("a", { class: "button", href: `/daily/${encodeURIComponent(deal.id)}`, "data-testid": "daily-board-link",
    "aria-label": t("daily.board_label", { deal: title }) }, t("daily.board")));
  item.append(actions);
  if (refusal?.deal === deal.id) item.append(el("p", { class: "error", role: "alert" }, t(refusal.key)));
  return item;
}

/** Play a deal: the attempt's seat held like any other, its commitment kept (the table's check of
 * the deal compares the reveal with it), and the table opened. */
async function play(deal, button) {
  refusal = null;
  button.disabled = true;
  const r = await fetch(`/api/daily/${encodeURIComponent(deal.id)}/play`, writeInit({ method: "POST" })).catch(() => null);
  const body = r ? await r.json().catch(() => ({})) : {};
  button.disabled = false;
  if (r && r.status === 201) {
    keepDailyAttempt(deal.id, { game: body.game, token: body.token, commitment: deal.commitment });
    keepDeal(body.game, 1, { commitment: deal.commitment });
    holdSeat(body.game, { token: body.token, seat: body.seat, preset: deal.preset, players: deal.players });
    location.hash = `game=${body.game}&token=${body.token}`;
    return;
  }
  const code = body && typeof body.code === "string" ? body.code : "";
  refusal = { deal: deal.id, key: ["played", "not_today"].includes(code) ? `daily.error.${code}` : r ? "daily.error.other" : "daily.error.network" };
  await loadDaily();
}

/** Wire the panel once: it follows who is signed in (each account its own attempts and streak). */
export function wireDaily() {
  onAccountChange(() => { if (!$("lobby").hidden) loadDaily(); });
}

// ------------------------------------------------------------------ the table's end
/** An attempt's result where the table was, once its hand's count is closed: the score, the rank
 * and percentile, master from the same seat, the spread of scores, the leaderboard and the review. */
export function renderDailyResult() {
  const box = $("daily-result");
  const st = state.current;
  const showing = Boolean(st && st.daily && st.status === "over" && you() !== null && !state.replay
    && !countToShow(st, state.countDismissed));
  box.hidden = !showing;
  $("table-view").classList.toggle("daily-done", showing);
  if (!showing) return;
  const deal = st.daily.deal;
  const score = attemptScore(st.scores, sideOf(you()));
  const asked = state.dailyResult;
  if (!asked || asked.game !== state.game.id) {
    const mine = { game: state.game.id, token: state.game.token };
    state.dailyResult = { game: state.game.id, board: null, done: false };
    const { url, init } = boardRequest(deal, mine);
    fetch(url, init).then((r) => (r.ok ? r.json() : null)).catch(() => null).then((board) => {
      if (state.dailyResult?.game !== mine.game) return;
      Object.assign(state.dailyResult, { board, done: true });
      renderDailyResult();
    });
  }
  const { board, done } = state.dailyResult;
  const parts = dealParts(deal);
  $("daily-result-title").textContent = t("daily.result_title", { deal: parts ? dealTitle(parts) : deal });
  $("daily-result-score").textContent = t("daily.your_score", { score: signed(score) });
  $("daily-result-points").textContent = t("daily.points", { scores: st.scores.join(" : ") });
  const standing = $("daily-result-rank");
  const master = $("daily-result-master");
  standing.textContent = board?.you ? standingText(board.you, board.count) : done ? t("daily.no_board") : t("daily.loading");
  master.hidden = typeof board?.master !== "number";
  master.textContent = master.hidden ? "" : masterText(board.master, score);
  $("daily-result-chart").replaceChildren(...(board ? [chart(board.distribution, score, board.count)] : []));
  $("daily-result-board").href = `/daily/${encodeURIComponent(deal)}`;
  $("daily-result-review").hidden = $("review-button").hidden;
}

// ------------------------------------------------------------------ a deal's leaderboard (/daily/ID)
let view = null; // { id, board, reveal, check, missing }

/** The deal a path names (/daily/ID), or null for any other path. */
export function dailyDealOf(pathname) {
  const found = /^\/daily\/([^/]+)\/?$/.exec(pathname);
  if (!found) return null;
  try {
    return decodeURIComponent(found[1]);
  } catch {
    return null;
  }
}

/** Open a deal's leaderboard; once its day is over, its reveal too, checked here. */
export async function showDailyBoard(id) {
  show("daily-view");
  $("turn-banner").textContent = "";
  $("conn").textContent = "";
  const asked = view = { id, board: null, reveal: null, check: null, missing: false };
  renderDailyBoard();
  const board = await loadBoard(id);
  if (view !== asked) return;
  asked.board = board;
  asked.missing = !board;
  renderDailyBoard();
  if (!board?.over) return;
  const r = await fetch(`/api/daily/${encodeURIComponent(id)}/reveal`).catch(() => null);
  if (view !== asked || !r || !r.ok) return;
  asked.reveal = await r.json();
  renderDailyBoard();
  const seen = dailyAttempts()[id]?.commitment;
  asked.check = await verifyReveal(asked.reveal, seen).catch((e) => ({ ok: false, error: e.message }));
  if (view === asked) renderDailyBoard();
}

/** The leaderboard as loaded, in the language now chosen. */
export function renderDailyBoard() {
  if (!view) return;
  const { id, board, missing } = view;
  const parts = dealParts(id);
  $("daily-board-title").textContent = parts ? t("daily.board_title", { deal: dealTitle(parts) }) : t("daily.title");
  $("daily-board-what").textContent = parts
    ? `${dateText(parts.date)} · ${t("daily.against", { name: playerName(OPPONENT) })}` : "";
  $("daily-board-missing").hidden = !missing;
  $("daily-board-body").hidden = !board;
  if (!board) return;
  const mine = board.you;
  $("daily-board-you").hidden = !mine;
  if (mine) {
    $("daily-board-score").textContent = t("daily.your_score", { score: signed(mine.score) });
    $("daily-board-rank").textContent = standingText(mine, board.count);
  }
  $("daily-board-master").hidden = typeof board.master !== "number";
  $("daily-board-master").textContent = typeof board.master === "number" ? masterText(board.master, mine?.score) : "";
  $("daily-board-chart").replaceChildren(...(board.count ? [chart(board.distribution, mine?.score ?? null, board.count)] : []));
  $("daily-board-table").hidden = !board.entries.length;
  $("daily-board-empty").hidden = board.entries.length > 0;
  $("daily-board-rows").replaceChildren(...board.entries.map((e) => el("tr", { class: e.you ? "mine" : "", "data-testid": e.you ? "daily-board-mine" : null, ...(e.you ? { "aria-current": "true" } : {}) },
    el("td", {}, String(e.rank)),
    el("th", { scope: "row" }, e.name ? el("a", { href: `/@/${encodeURIComponent(e.name)}` }, e.name) : t("daily.guest"),
      e.you ? el("span", { class: "badge yours" }, t("daily.you")) : null),
    el("td", {}, signed(e.score)))));
  $("daily-board-sealed").hidden = board.over;
  if (!board.over && parts) $("daily-board-sealed").textContent = t("daily.sealed", { when: revealTime(parts.date) });
  $("daily-board-over").hidden = !board.over;
  if (board.over) renderOver(board);
}

/** When a day's deals are revealed (the start of the next UTC day), in this reader's time. */
function revealTime(date) {
  const next = new Date(`${date}T00:00:00Z`).getTime() + 86_400_000;
  return new Date(next).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

function renderOver(board) {
  const best = $("daily-board-best");
  best.hidden = !board.best;
  if (board.best) {
    best.href = `/#game=${encodeURIComponent(board.best.game)}&replay=1`;
    best.textContent = t("daily.best_replay", { score: signed(board.best.score), name: board.best.name || t("daily.guest") });
  }
  const { reveal, check } = view;
  const status = $("daily-board-check");
  status.dataset.result = !check ? "" : check.ok ? "verified" : check.problem || "error";
  status.replaceChildren(!reveal ? t("daily.revealing") : !check ? t("daily.checking")
    : check.ok ? el("span", { class: "verified" }, "✓ ", t("daily.verified"))
      : el("span", { class: "mismatch" }, "✗ ", check.error ? t("fair.not_checked", { error: check.error }) : t("fair.not_verified", { why: problemText(check) })));
  const facts = $("daily-board-facts");
  facts.hidden = !reveal;
  if (!reveal) return;
  $("daily-board-commitment").textContent = reveal.commitment;
  $("daily-board-seed").textContent = reveal.seed;
  $("daily-board-deck").replaceChildren(...deckWords(reveal.deck));
}

/** A deck in words, top card first, each red card marked (as the table's fair deals show it). */
function deckWords(deck) {
  const cards = String(deck).split(" ");
  if (!cards.every((c) => /^[2-9TJQKA][cdhs]$/.test(c))) return [String(deck)];
  return cards.flatMap((c, i) => [i ? " " : null, el("span", { class: isRed(c) ? "red" : "" }, cardText(c))]).filter(Boolean);
}
