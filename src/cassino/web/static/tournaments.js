// Tournaments: the lobby's panel (the list, and for a signed-in account the form to create one)
// and a tournament's page at /tournament/ID (its settings, entrants, Join and Start, the standings
// live while it runs, the pairings round by round with each table's result, every deal's
// commitment, your table in play, and once over every seed checked against its commitment here).
// The page asks GET /api/tournaments/ID every couple of seconds while it is shown and the browser
// tab is visible: a round's tables end at other tables, so no event of this page says when.

import { $, el } from "./dom.js";
import { t, tn, language, has } from "./i18n.js";
import { presetName, playerName } from "./options.js";
import { state } from "./state.js";
import { holdSeat } from "./storage.js";
import { onAccountChange, signedIn, writeInit } from "./account.js";
import { show } from "./views.js";

export const LEVELS = ["beginner", "novice", "casual", "club", "expert", "master"]; // the computer entrants, weakest first
export const ROUNDS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
export const MINUTES = [5, 10, 15, 20, 30, 45, 60, 90, 120];
export const MOST_OF_A_LEVEL = 4; // the form offers 0..4 of each level (the server takes 16 in all)
export const POLL_MS = 2000; // a tournament's page asks again this often while it runs
export const LIST_POLL_MS = 10000; // the lobby's list, this often while the lobby is shown
const INPUT_CODES = ["field", "kind", "preset", "players", "partnerships", "rated", "rounds", "minutes", "bots"];

// ------------------------------------------------------------------ words and requests (pure)
/** The tournament a path names (/tournament/ID), or null for any other path. */
export function tournamentIdOf(pathname) {
  const found = /^\/tournament\/([0-9a-zA-Z_-]{1,32})\/?$/.exec(pathname);
  return found ? found[1] : null;
}

/** A number of points as the page's language writes it: 1.5, 1,5; at most two decimals. */
export const pointsText = (n) => new Intl.NumberFormat(language(), { maximumFractionDigits: 2 }).format(n);

/** A board score, signed: +9.5, −9.5, 0. */
export function boardText(n) {
  const rounded = Math.round(n * 100) / 100;
  if (rounded === 0) return "0";
  return (rounded > 0 ? "+" : "−") + pointsText(Math.abs(rounded));
}

/** A tournament's kind and variant, its page's title: "Swiss · Classic". */
export const titleText = (tour) => `${t(`tournaments.kind.${tour.kind}`)} · ${presetName(tour.preset)}`;

/** The rest of its settings: "2 players · 3 rounds · casual", an arena's minutes for its rounds. */
export function detailsText(tour) {
  const length = tour.kind === "arena" ? tn("tournaments.n_minutes", Math.round(tour.minutes)) : tn("tournaments.n_rounds", tour.rounds);
  return [tn("lobby.n_players", tour.players), length, t(tour.rated ? "tournaments.rated" : "tournaments.casual")].join(" · ");
}

/** A tournament's settings in a line: "Swiss · Classic · 2 players · 3 rounds · casual". */
export const settingsText = (tour) => `${titleText(tour)} · ${detailsText(tour)}`;

/** Where a tournament stands, in words: open for entries, a Swiss's round of its rounds, an
 * arena's minutes left (`now` in epoch seconds), or over. */
export function statusText(tour, now = Date.now() / 1000) {
  if (tour.status === "open") return t("tournaments.status.open");
  if (tour.status === "over") return t("tournaments.status.over");
  if (tour.kind === "arena") {
    const left = tour.ends ? Math.max(0, Math.ceil((tour.ends - now) / 60)) : 0;
    return left ? tn("tournaments.status.arena", left) : t("tournaments.status.arena_ending");
  }
  return t("tournaments.status.round", { n: tour.round, rounds: tour.rounds });
}

/** A tournament's line in the lobby's list: its settings, its entrants and where it stands. */
export const listLine = (tour) => [settingsText(tour), tn("tournaments.n_entrants", tour.entrants), statusText(tour)].join(" · ");

/** An entrant's or a seat's name in the page's language: the server names its computer players
 * "casual (computer)", "casual (computer 2)"; a bye's computer player is its level alone. */
export function entrantLabel(name, bye = false) {
  if (bye) return t("tournaments.bye_computer", { level: playerName(name) });
  const found = /^([a-z]+) \(computer(?: (\d+))?\)$/.exec(name);
  if (!found || !has(`player.${found[1]}.name`)) return name;
  const level = playerName(found[1]);
  return found[2] ? t("tournaments.computer_n", { level, n: found[2] }) : t("tournaments.computer", { level });
}

/** The standings as the page's table shows them: each row's rank, name as read, points, Buchholz,
 * board (signed), games, and whether it is the reader's. */
export function standingRows(view) {
  return (view.standings || []).map((s) => ({
    rank: String(s.rank),
    name: s.name,
    label: entrantLabel(s.name),
    points: pointsText(s.points),
    buchholz: pointsText(s.buchholz),
    board: boardText(s.board),
    games: String(s.games),
    you: Boolean(view.you) && s.name === view.you,
  }));
}

/** The body of a new tournament, from the form's values: the kind with its rounds or minutes,
 * and the computer entrants as a list of levels (`bots`: level -> how many), weakest first. */
export function createBody(form) {
  const body = { kind: form.kind, preset: form.preset, players: Number(form.players), rated: Boolean(form.rated) };
  if (form.kind === "arena") body.minutes = Number(form.minutes);
  else body.rounds = Number(form.rounds);
  body.bots = LEVELS.flatMap((level) => Array.from({ length: Number(form.bots?.[level] || 0) }, () => level));
  return body;
}

/** How many entrants a new tournament would have before anyone joins (its computer players). */
export const botCount = (bots) => LEVELS.reduce((n, level) => n + Number(bots?.[level] || 0), 0);

/** The pairings grouped by round (a Swiss's round, an arena's deal), in order: [{round, tables}]. */
export function roundsOf(view) {
  const rounds = new Map();
  for (const p of view.pairings || []) {
    if (!rounds.has(p.round)) rounds.set(p.round, []);
    rounds.get(p.round).push(p);
  }
  return [...rounds.entries()].sort((a, b) => a[0] - b[0]).map(([round, tables]) => ({ round, tables: tables.sort((a, b) => a.table - b.table) }));
}

/** A table's sides in words, each with its points once over: "ann 7 – 4 Casual player (computer)"
 * for two, "ann 7 · bob 4 · cyd 2" for more; the reader's own name is theirs, as written. */
export function tableText(pairing) {
  const names = pairing.seats.map((name, side) => entrantLabel(name, (pairing.computers || []).includes(side)));
  if (!pairing.scores) return names.join(pairing.seats.length === 2 ? ` ${t("tournaments.versus")} ` : " · ");
  if (names.length === 2) return `${names[0]} ${pairing.scores[0]} – ${pairing.scores[1]} ${names[1]}`;
  return names.map((n, side) => `${n} ${pairing.scores[side]}`).join(" · ");
}

/** A table's result in words: in play, who took it (the most points in the hand), or a draw. */
export function tableResult(pairing) {
  if (!pairing.scores) return t("tournaments.table_playing");
  if (pairing.winner === null || pairing.winner === undefined || pairing.winner < 0) return t("tournaments.table_drawn");
  const side = pairing.winner;
  return t("tournaments.table_won", { name: entrantLabel(pairing.seats[side], (pairing.computers || []).includes(side)) });
}

/** Each revealed deal checked: SHA-256 of its seed (`sha256`: text -> hex, async) against the
 * commitment published before its tables were dealt. [{number, commitment, seed, ok}]. */
export async function checkSeeds(deals, sha256) {
  const out = [];
  for (const d of deals) {
    if (typeof d.seed !== "string") { out.push({ ...d, ok: null }); continue; }
    out.push({ ...d, ok: (await sha256(d.seed)) === d.commitment });
  }
  return out;
}

/** A refusal of the tournaments' requests in the page's words, from the server's code. */
export function refusalText(status, body) {
  const code = body && typeof body.code === "string" ? body.code : "";
  if (code === "csrf" || code === "cross_site") return t("account.error.cross_site");
  if (code === "not_signed_in") return t("account.error.not_signed_in");
  if (INPUT_CODES.includes(code)) return t("tournaments.error.input");
  if (code && has(`tournaments.error.${code}`)) return t(`tournaments.error.${code}`);
  if (status === 0) return t("account.error.network");
  return t("account.error.other", { status });
}

// ------------------------------------------------------------------ requests
async function send(url) {
  try {
    const r = await fetch(url, writeInit({ method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
    return { status: r.status, body: await r.json().catch(() => ({})) };
  } catch {
    return { status: 0, body: {} };
  }
}

// ------------------------------------------------------------------ the lobby's panel
let listed = null; // GET /api/tournaments's list, once loaded
let listTimer = null;
let listWanted = false;
let panelRefusal = null;

/** The lobby is shown: load the list, and again every LIST_POLL_MS while it stays shown. */
export function startTournaments() {
  listWanted = true;
  renderTournamentsPanel();
  loadList();
}

/** The lobby is left. */
export function stopTournaments() {
  listWanted = false;
  clearTimeout(listTimer);
  listTimer = null;
}

async function loadList() {
  clearTimeout(listTimer);
  if (!listWanted) return;
  if (!document.hidden) {
    const r = await fetch("/api/tournaments").catch(() => null);
    if (r && r.ok) listed = (await r.json()).tournaments;
    if (!listWanted) return;
    renderTournamentsPanel();
  }
  listTimer = setTimeout(loadList, LIST_POLL_MS);
}

/** The panel in the language now chosen: the list, and the form (signed in) or an invitation to sign in. */
export function renderTournamentsPanel() {
  if (!$("tournaments")) return;
  const list = $("tournament-list");
  const items = (listed || []).map((tour) => el("li", { class: "tournament-item", "data-tournament": tour.id, "data-status": tour.status },
    el("a", { href: `/tournament/${encodeURIComponent(tour.id)}`, "data-testid": "tournament-link" }, settingsText(tour)),
    el("span", { class: "about" }, ` · ${tn("tournaments.n_entrants", tour.entrants)} · ${statusText(tour)}`),
    el("span", { class: "about tournament-when" }, ` · ${new Date(tour.created * 1000).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" })}`)));
  if (listed && !items.length) items.push(el("li", { class: "about" }, t("tournaments.none")));
  list.replaceChildren(...items);
  const account = signedIn();
  $("tournaments-sign-in").hidden = Boolean(account);
  $("tournament-new").hidden = !account;
  renderForm();
  $("tournaments-error").textContent = panelRefusal ? refusalText(panelRefusal.status, panelRefusal.body) : "";
}

/** The form's choices, in the language now chosen (kept as chosen). */
function renderForm() {
  if (!state.config) return;
  const keep = (id, options) => {
    const select = $(id);
    const kept = select.value;
    select.replaceChildren(...options.map(([value, text]) => el("option", { value: String(value) }, text)));
    if (kept && options.some(([value]) => String(value) === kept)) select.value = kept;
    return select;
  };
  keep("tournament-kind", ["swiss", "arena"].map((k) => [k, t(`tournaments.kind.${k}`)]));
  keep("tournament-preset", state.config.presets.map((p) => [p.name, presetName(p.name)]));
  keep("tournament-players", [2, 3, 4].map((n) => [n, tn("lobby.n_players", n)]));
  const rounds = $("tournament-rounds").value ? null : "3";
  keep("tournament-rounds", ROUNDS.map((n) => [n, tn("tournaments.n_rounds", n)]));
  if (rounds) $("tournament-rounds").value = rounds;
  const minutes = $("tournament-minutes").value ? null : "30";
  keep("tournament-minutes", MINUTES.map((n) => [n, tn("tournaments.n_minutes", n)]));
  if (minutes) $("tournament-minutes").value = minutes;
  const box = $("tournament-bots");
  if (!box.children.length) {
    box.append(...LEVELS.map((level) => el("label", { class: "tournament-bot" },
      el("span", { "data-level-name": level }), el("select", { name: `bots-${level}`, "data-level": level, "data-testid": `tournament-bots-${level}` },
        ...Array.from({ length: MOST_OF_A_LEVEL + 1 }, (_, n) => el("option", { value: String(n) }, String(n)))))));
  }
  for (const span of box.querySelectorAll("[data-level-name]")) span.textContent = playerName(span.dataset.levelName);
  syncForm();
}

/** The rounds for a Swiss, the minutes for an arena; the kind's few words. */
function syncForm() {
  const arena = $("tournament-kind").value === "arena";
  $("tournament-rounds-row").hidden = arena;
  $("tournament-minutes-row").hidden = !arena;
  $("tournament-kind-about").textContent = t(`tournaments.kind_about.${arena ? "arena" : "swiss"}`);
}

function formValues() {
  const bots = {};
  for (const select of $("tournament-bots").querySelectorAll("select")) bots[select.dataset.level] = Number(select.value);
  return {
    kind: $("tournament-kind").value, preset: $("tournament-preset").value, players: $("tournament-players").value,
    rounds: $("tournament-rounds").value, minutes: $("tournament-minutes").value, rated: $("tournament-rated").checked, bots,
  };
}

async function createTournament(event) {
  event.preventDefault();
  panelRefusal = null;
  const button = $("tournament-create");
  button.disabled = true;
  let r;
  try {
    const f = await fetch("/api/tournaments", writeInit({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(createBody(formValues())) }));
    r = { status: f.status, body: await f.json().catch(() => ({})) };
  } catch {
    r = { status: 0, body: {} };
  }
  button.disabled = false;
  if (r.status === 201 && r.body.id) { location.assign(`/tournament/${encodeURIComponent(r.body.id)}`); return; }
  panelRefusal = r;
  renderTournamentsPanel();
}

// ------------------------------------------------------------------ a tournament's page
let page = null; // { id, view (the last answer), missing, refusal, checks (the seeds checked), busy }
let pollTimer = null;

/** Open a tournament's page, and keep it live while it is shown. */
export async function showTournament(id) {
  show("tournament-view");
  $("turn-banner").textContent = "";
  $("conn").textContent = "";
  page = { id, view: null, missing: false, refusal: null, checks: null, busy: false };
  renderTournament();
  await poll();
}

/** The page is left (for a table, the lobby): its polling stops. */
export function stopTournament() {
  clearTimeout(pollTimer);
  pollTimer = null;
  page = null;
}

async function load() {
  const asked = page;
  const r = await fetch(`/api/tournaments/${encodeURIComponent(asked.id)}`, { credentials: "same-origin" }).catch(() => null);
  if (page !== asked) return;
  if (r && r.status === 404) { asked.missing = true; asked.view = null; }
  else if (r && r.ok) { asked.missing = false; asked.view = await r.json(); }
  if (page !== asked) return;
  if (asked.view && asked.view.status === "over" && !asked.checks) {
    asked.checks = await checkSeeds(asked.view.deals, window.cassinoDeal.sha256);
  }
  renderTournament();
}

/** Ask again now, then every POLL_MS while the page is shown, the tab visible and the tournament
 * not over; a call while another waits for its answer takes over from it (one chain of asks). */
async function poll() {
  clearTimeout(pollTimer);
  const asked = page;
  if (!asked) return;
  const turn = (asked.polls = (asked.polls || 0) + 1);
  if (!document.hidden) await load();
  if (page !== asked || asked.polls !== turn || asked.missing || asked.view?.status === "over") return;
  pollTimer = setTimeout(poll, POLL_MS);
}

/** The tournament as loaded, in the language now chosen. */
export function renderTournament() {
  if (!page) return;
  const { view, missing } = page;
  $("tournament-missing").hidden = !missing;
  $("tournament-missing").textContent = missing ? t("tournaments.missing") : "";
  $("tournament-title").textContent = view ? titleText(view) : t("tournaments.title");
  for (const id of ["tournament-body", "tournament-standings-panel", "tournament-pairings-panel", "tournament-fair-panel"]) $(id).hidden = !view;
  if (!view) return;
  $("tournament-settings").textContent = detailsText(view);
  const status = $("tournament-status");
  status.textContent = statusText(view);
  status.dataset.status = view.status;
  status.dataset.round = String(view.round);
  renderActions(view);
  renderEntrants(view);
  renderStandings(view);
  renderRounds(view);
  renderFairDeals(view);
}

function renderActions(view) {
  const account = signedIn();
  const entered = Boolean(view.you);
  const join = $("tournament-join");
  join.hidden = !(account && view.status === "open" && !entered);
  const start = $("tournament-start");
  start.hidden = !(view.organiser && view.status === "open");
  start.disabled = (view.entrants || []).length < view.players;
  const notes = [];
  if (!account && view.status === "open") notes.push(t("tournaments.sign_in_to_join"));
  const place = (view.standings || []).find((s) => s.name === view.you);
  if (entered && view.status === "over" && place) notes.push(t("tournaments.your_place", { rank: place.rank, n: view.standings.length }));
  else if (entered) notes.push(t("tournaments.you_are_in", { name: view.you }));
  if (view.status === "open") {
    if (view.organiser) notes.push((view.entrants || []).length < view.players ? tn("tournaments.start_needs", view.players) : t("tournaments.start_when"));
    else notes.push(t("tournaments.waiting_start"));
  }
  $("tournament-note").textContent = notes.join(" ");
  $("tournament-sign-in").hidden = Boolean(account) || view.status !== "open";
  $("tournament-error").textContent = page.refusal ? refusalText(page.refusal.status, page.refusal.body) : "";
  // your tables in play: a button that takes the seat, or a word where another browser holds it
  const mine = view.mine || [];
  const box = $("tournament-play");
  box.hidden = !mine.length;
  box.replaceChildren(...mine.map((table) => {
    const pairing = (view.pairings || []).find((p) => p.game === table.game);
    const where = pairing ? t("tournaments.where", { round: pairing.round, table: pairing.table }) : "";
    if (!table.token) return el("p", { class: "about" }, t("tournaments.elsewhere", { where }));
    return el("div", { class: "tournament-play-row" },
      el("button", { type: "button", class: "primary big", "data-testid": "tournament-play-table", "data-game": table.game, onclick: () => playTable(view, table) }, t("tournaments.play_table")),
      el("span", { class: "about" }, `${where}${pairing ? ` · ${tableText(pairing)}` : ""}`));
  }));
  if (view.status === "running" && entered && !mine.length) {
    box.hidden = false;
    box.replaceChildren(el("p", { class: "about", "data-testid": "tournament-waiting" }, t("tournaments.waiting_table")));
  }
}

/** Take the seat of a table of yours (its token, from this session) and open it. */
function playTable(view, table) {
  holdSeat(table.game, { token: table.token, seat: table.seat, preset: view.preset, players: view.players, tournament: view.id });
  location.hash = `game=${table.game}&token=${table.token}`;
}

function renderEntrants(view) {
  const names = view.entrants || [];
  $("tournament-entrants-title").textContent = `${t("tournaments.entrants")} (${names.length})`;
  $("tournament-entrants").replaceChildren(...names.map((name) => el("li", { class: name === view.you ? "yours" : "" },
    /\(computer/.test(name) ? entrantLabel(name) : el("a", { href: `/@/${encodeURIComponent(name)}` }, name))));
  $("tournament-no-entrants").hidden = names.length > 0;
}

function renderStandings(view) {
  const panel = $("tournament-standings-panel");
  panel.hidden = view.status === "open";
  $("tournament-standings-title").textContent = t(view.status === "over" ? "tournaments.final_standings" : "tournaments.standings");
  $("tournament-standings-body").replaceChildren(...standingRows(view).map((row) => el("tr", { class: row.you ? "yours" : "", "data-name": row.name },
    el("td", {}, row.rank),
    el("th", { scope: "row" }, row.label, row.you ? el("span", { class: "badge yours" }, t("tournaments.you")) : null),
    el("td", { "data-col": "points" }, row.points),
    el("td", { "data-col": "buchholz" }, row.buchholz),
    el("td", { "data-col": "board" }, row.board),
    el("td", { "data-col": "games" }, row.games))));
}

const shortHex = (hex) => el("code", { title: hex }, `${String(hex).slice(0, 12)}…`);

function renderRounds(view) {
  const rounds = roundsOf(view);
  $("tournament-pairings-panel").hidden = !rounds.length;
  const deals = new Map((view.deals || []).map((d) => [d.commitment, d]));
  const over = view.status === "over";
  $("tournament-pairings").replaceChildren(...rounds.slice().reverse().map(({ round, tables }) => {
    const commitment = tables[0].deal;
    const heading = t(view.kind === "arena" ? "tournaments.deal_n" : "tournaments.round_n", { n: round });
    return el("section", { class: "tournament-round", "data-round": String(round), "aria-label": heading },
      el("h3", {}, heading),
      el("p", { class: "about" }, t("tournaments.committed", { n: deals.get(commitment)?.number ?? round }), " ", shortHex(commitment)),
      el("ol", { class: "tournament-tables" }, ...tables.map((p) => {
        const mine = view.you && p.seats.includes(view.you);
        // a table over: its replay once the decks are revealed, else its last position; one in play:
        // watch it (yours is played from the button above)
        const link = p.scores && over ? el("a", { href: `/#game=${encodeURIComponent(p.game)}&replay=1`, "data-testid": "tournament-replay" }, t("tournaments.replay"))
          : p.scores || !mine ? el("a", { href: `/#game=${encodeURIComponent(p.game)}`, "data-testid": "tournament-watch" }, t(p.scores ? "tournaments.see_table" : "tournaments.watch"))
            : null;
        return el("li", { class: "tournament-table" + (mine ? " yours" : ""), "data-table": String(p.table), "data-game": p.game, "data-done": p.scores ? "yes" : "no" },
          el("span", { class: "tournament-table-n" }, t("tournaments.table_n", { n: p.table })),
          el("span", { class: "tournament-table-sides" }, tableText(p)),
          el("span", { class: "about" }, tableResult(p)), link);
      })));
  }));
}

function renderFairDeals(view) {
  const over = view.status === "over";
  $("tournament-fair-panel").hidden = !(view.deals || []).length;
  $("tournament-fair-about").textContent = t(over ? "tournaments.fair_over" : "tournaments.fair_sealed");
  const checks = page.checks || view.deals.map((d) => ({ ...d, ok: null }));
  $("tournament-deals").replaceChildren(...checks.map((d) => {
    const facts = [el("dt", {}, t("tournaments.fingerprint")), el("dd", {}, el("code", {}, d.commitment))];
    if (typeof d.seed === "string") facts.push(el("dt", {}, t("tournaments.seed")), el("dd", {}, el("code", {}, d.seed)));
    const verdict = d.ok === true ? el("span", { class: "verified" }, "✓ ", t("tournaments.seed_ok"))
      : d.ok === false ? el("span", { class: "mismatch" }, "✗ ", t("tournaments.seed_bad"))
        : el("span", { class: "about" }, t(over ? "fair.checking" : "tournaments.seed_sealed"));
    return el("li", { class: "tournament-deal", "data-deal": String(d.number), "data-result": d.ok === true ? "verified" : d.ok === false ? "mismatch" : "sealed" },
      el("div", { class: "fair-head" }, el("span", { class: "fair-n" }, t("tournaments.deal_n", { n: d.number })), verdict),
      el("dl", { class: "fair-facts" }, ...facts));
  }));
}

async function act(what) {
  const asked = page;
  if (!asked || asked.busy) return;
  asked.busy = true;
  asked.refusal = null;
  const button = $(`tournament-${what}`);
  button.disabled = true;
  const r = await send(`/api/tournaments/${encodeURIComponent(asked.id)}/${what}`);
  button.disabled = false;
  asked.busy = false;
  if (page !== asked) return;
  if (r.status !== 200) asked.refusal = r;
  await poll();
  renderTournament();
}

/** Wire the panel's and the page's controls once (the page's start). */
export function wireTournaments() {
  $("tournament-form").addEventListener("submit", createTournament);
  $("tournament-kind").addEventListener("change", syncForm);
  $("tournament-join").addEventListener("click", () => act("join"));
  $("tournament-start").addEventListener("click", () => act("start"));
  onAccountChange(() => { panelRefusal = null; renderTournamentsPanel(); });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) return;
    if (page && !$("tournament-view").hidden) poll(); // back to the tab: news at once
    if (listWanted) loadList();
  });
}
