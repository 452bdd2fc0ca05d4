// Ratings and profiles: a player's page at /@/NAME (the name, when they joined, a rating per pool
// with its games, wins and points a hand, their daily deals with their streak, and their finished
// games, each opening its replay), the
// leaderboards at /leaderboard (?pool=classic-2), and the signed-in player's ratings in the lobby.
// A rating still provisional (fewer than 10 rated games) is shown with "?", as in "1500?".

import { $, el } from "./dom.js";
import { t, tn, language } from "./i18n.js";
import { presetName } from "./options.js";
import { show } from "./views.js";
import { dateText as dayText, dealParts, dealTitle, signed, streakText } from "./daily.js";

// ------------------------------------------------------------------ words (no page needed)
/** A rating as people read it: rounded, with "?" while provisional. */
export const ratingText = (r) => `${Math.round(r.rating)}${r.provisional ? "?" : ""}`;

/** The player a path names (/@/NAME), or null for any other path. */
export function profileNameOf(pathname) {
  const found = /^\/@\/([^/]+)\/?$/.exec(pathname);
  if (!found) return null;
  try {
    return decodeURIComponent(found[1]);
  } catch {
    return null;
  }
}

/** A pool's parts: "royal-4p" is the royal preset, 4 players, in partnerships. */
export function poolParts(pool) {
  const [, preset, players, p] = /^(.+)-(\d)(p?)$/.exec(pool) || [null, pool, "2", ""];
  return { preset, players: Number(players), partnerships: p === "p" };
}

/** A pool in words: "Classic · 2 players", "Royal · Partnerships". */
export function poolLabel(pool) {
  const { preset, players, partnerships } = poolParts(pool);
  return `${presetName(preset)} · ${partnerships ? t("lobby.partnerships") : tn("lobby.n_players", players)}`;
}

/** What a game did to a rating, signed: +162, −12, ±0. */
export function changeText(before, after) {
  const change = Math.round(after) - Math.round(before);
  return change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0";
}

/** A game's points, the player's side first: "11–7", "4–11–6". */
export function scoreText(game) {
  if (!game.scores) return "";
  const others = game.scores.filter((_, side) => side !== game.side);
  return [game.scores[game.side], ...others].join("–");
}

/** What a finished game was for the player, in a line: the result (a daily deal's attempt, a hand
 * with no winner, says so), the score, the others, the variant, and what it did to their rating. */
export function gameLine(game) {
  const names = (people) => people.map((p) => p.name).join(", ");
  const parts = [game.daily ? t("daily.profile_game") : t(`profile.result.${game.result}`)];
  const score = scoreText(game);
  if (score) parts.push(score);
  if (game.forfeit !== null && game.forfeit !== undefined) parts.push(t(game.forfeit === game.seat ? "profile.forfeit_mine" : "profile.forfeit_theirs"));
  if (game.opponents.length) parts.push(t("profile.against", { names: names(game.opponents) }));
  if (game.partners.length) parts.push(t("profile.with", { names: names(game.partners) }));
  parts.push(`${presetName(game.preset)} · ${game.partnerships ? t("lobby.partnerships") : tn("lobby.n_players", game.players)}`);
  parts.push(game.rated
    ? t("profile.rated", { before: Math.round(game.rating_before), after: Math.round(game.rating_after), change: changeText(game.rating_before, game.rating_after) })
    : t("profile.unrated"));
  return parts.join(" · ");
}

const dateText = (seconds) => new Date(seconds * 1000).toLocaleDateString(language(), { year: "numeric", month: "long", day: "numeric" });
const whenText = (seconds) => new Date(seconds * 1000).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });

// ------------------------------------------------------------------ the profile
let profile = null; // { name, data (the first answer), games (every page loaded), page, more, missing }

/** Open a player's page: their ratings and their finished games, newest first. */
export async function showProfile(name) {
  show("profile-view");
  $("turn-banner").textContent = "";
  $("conn").textContent = "";
  profile = { name, data: null, games: [], page: 0, more: false, missing: false };
  renderProfile();
  await loadGames();
}

async function loadGames() {
  const asked = profile;
  const r = await fetch(`/api/users/${encodeURIComponent(asked.name)}?page=${asked.page + 1}`).catch(() => null);
  if (profile !== asked) return; // another page opened meanwhile
  if (!r || !r.ok) {
    asked.missing = true;
    renderProfile();
    return;
  }
  const data = await r.json();
  asked.data = asked.data || data;
  asked.games.push(...data.games);
  asked.page = data.page;
  asked.more = data.more;
  renderProfile();
}

/** A daily result in a line: the deal's date and variant, the score and the rank among its attempts. */
export function dailyLine(result) {
  const parts = dealParts(result.deal);
  const what = parts ? [dayText(parts.date), dealTitle(parts)] : [result.deal];
  return [...what, t("daily.score", { score: signed(result.score) }), t("daily.rank_in_line", { rank: result.rank, count: result.count })].join(" · ");
}

/** The profile as loaded, in the language now chosen. */
export function renderProfile() {
  if (!profile) return;
  const { data, missing } = profile;
  $("profile-name").textContent = data ? data.name : profile.name;
  $("profile-missing").hidden = !missing;
  $("profile-missing").textContent = missing ? t("profile.missing", { name: profile.name }) : "";
  $("profile-body").hidden = !data;
  if (!data) return;
  $("profile-joined").textContent = t("profile.joined", { date: dateText(data.joined) });
  const pools = Object.entries(data.ratings);
  $("profile-ratings").hidden = !pools.length;
  $("profile-no-ratings").hidden = Boolean(pools.length);
  $("profile-ratings-body").replaceChildren(...pools.map(([pool, r]) => el("tr", { "data-pool": pool },
    el("th", { scope: "row" }, poolLabel(pool)),
    el("td", { "data-testid": "profile-rating" }, ratingText(r)),
    el("td", {}, String(r.games)),
    el("td", {}, String(r.wins)),
    el("td", {}, new Intl.NumberFormat(language(), { maximumFractionDigits: 2 }).format(r.points_per_hand)))));
  const daily = data.daily || [];
  $("profile-streak").textContent = streakText(data.streak || 0);
  $("profile-daily").replaceChildren(...daily.map((d) => el("li", { "data-deal": d.deal },
    el("span", { class: "game-line" }, dailyLine(d)), el("span", { class: "about" }, " · "),
    el("a", { href: `/daily/${encodeURIComponent(d.deal)}`, "data-testid": "profile-daily-board" }, t("daily.board")))));
  $("profile-no-daily").hidden = daily.length > 0;
  const list = $("profile-games");
  list.replaceChildren(...profile.games.map((g) => el("li", { "data-game": g.game },
    el("span", { class: "game-line" }, gameLine(g)),
    el("span", { class: "about" }, ` · ${whenText(g.finished)}`),
    g.sealed ? null : el("span", { class: "about" }, " · "), // a daily attempt's replay waits for the end of its day
    g.sealed ? null : el("a", { href: `/#game=${encodeURIComponent(g.game)}&replay=1`, "data-testid": "profile-replay" }, t("profile.replay")))));
  $("profile-no-games").hidden = profile.games.length > 0;
  $("profile-more").hidden = !profile.more;
}

// ------------------------------------------------------------------ the leaderboards
let board = null; // { pools: [{pool, players}], pool, players, missing }

/** The pool a leaderboard address asks for (?pool=), if it names one. */
export function poolAsked(search, pools) {
  const asked = new URLSearchParams(search).get("pool");
  return pools.some((p) => p.pool === asked) ? asked : null;
}

/** Open the leaderboards: the pool the address names, else the first with players. */
export async function showLeaderboard() {
  show("leaderboard-view");
  $("turn-banner").textContent = "";
  $("conn").textContent = "";
  board = { pools: [], pool: null, players: [], missing: false };
  const r = await fetch("/api/leaderboard").catch(() => null);
  if (!r || !r.ok) { board.missing = true; renderLeaderboard(); return; }
  board.pools = (await r.json()).pools;
  const pool = poolAsked(location.search, board.pools) || board.pools.find((p) => p.players)?.pool || board.pools[0].pool;
  await loadBoard(pool);
}

async function loadBoard(pool) {
  const asked = board;
  asked.pool = pool;
  const r = await fetch(`/api/leaderboard/${encodeURIComponent(pool)}`).catch(() => null);
  if (board !== asked) return;
  asked.missing = !r || !r.ok;
  asked.players = asked.missing ? [] : (await r.json()).players;
  renderLeaderboard();
}

/** The leaderboard as loaded, in the language now chosen. */
export function renderLeaderboard() {
  if (!board) return;
  const select = $("leaderboard-pool");
  select.replaceChildren(...board.pools.map((p) =>
    el("option", { value: p.pool }, `${poolLabel(p.pool)} (${tn("leaderboard.players", p.players)})`)));
  if (board.pool) select.value = board.pool;
  $("leaderboard-table").hidden = !board.players.length;
  $("leaderboard-empty").hidden = board.players.length > 0;
  $("leaderboard-empty").textContent = board.missing ? t("leaderboard.missing") : t("leaderboard.empty");
  $("leaderboard-body").replaceChildren(...board.players.map((p) => el("tr", {},
    el("td", {}, String(p.rank)),
    el("th", { scope: "row" }, el("a", { href: `/@/${encodeURIComponent(p.name)}` }, p.name)),
    el("td", {}, ratingText(p)),
    el("td", {}, String(p.games)),
    el("td", {}, String(p.wins)))));
}

// ------------------------------------------------------------------ the lobby's part
/** The signed-in player's ratings and the links to their page and the leaderboards. */
export function renderMyRatings(account) {
  const box = $("account-ratings");
  if (!box) return;
  box.hidden = !account;
  if (!account) return;
  const pools = Object.entries(account.ratings || {});
  $("account-ratings-list").replaceChildren(...pools.map(([pool, r]) => el("li", { "data-pool": pool },
    `${poolLabel(pool)}: `, el("strong", {}, ratingText(r)), ` (${tn("account.rated_games", r.games)})`)));
  $("account-ratings-list").hidden = !pools.length;
  $("account-no-ratings").hidden = Boolean(pools.length);
  $("account-profile").href = `/@/${encodeURIComponent(account.name)}`;
}

/** Wire the profile's and the leaderboards' controls. */
export function startProfiles() {
  $("profile-more").addEventListener("click", () => { if (profile?.more) loadGames(); });
  $("leaderboard-pool").addEventListener("change", () => {
    const pool = $("leaderboard-pool").value;
    history.replaceState(null, "", `/leaderboard?pool=${encodeURIComponent(pool)}`);
    loadBoard(pool);
  });
}
