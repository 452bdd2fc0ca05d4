// The lobby: the variants and their rules, the seats, creating a game (with this page's part of
// its first deal), "Learn to play", the games this browser holds and those to watch; opening a
// table, and the invitations of a game this page made.

import { $, el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { presetNames, presetValues, presetName, playerName, relevant, optionsToSend } from "./options.js";
import { state, noSelection } from "./state.js";
import { heldSeats, holdSeat, invitesOf, keepInvites, keepDeal, setLearn } from "./storage.js";
import { show, showProblem } from "./views.js";
import { connect } from "./connection.js";
import { closeCoach } from "./learning.js";
import { forgetAnnouncement } from "./cues.js";
import { forgetReplay } from "./replay.js";
import { hideCount } from "./count.js";
import { writeInit } from "./account.js";
import { api, offline } from "./transport.js";

/** What the lobby offers (fetched once: the page's languages come from it too). */
/** The catalogue key of what a computer player is like: the server names it for a bot program. */
const aboutKey = (config, name) => config.players.find((p) => p.name === name)?.about || `player.${name}.about`;

export async function loadConfig() {
  state.config = state.config || (await (await api("/api/config")).json());
  return state.config;
}

export async function showLobby() {
  show("lobby");
  $("turn-banner").textContent = "";
  $("conn").textContent = "";
  await loadConfig();
  renderLobby();
  renderMyGames();
  state.recentGames = (await (await api("/api/games")).json()).games;
  renderRecent();
}

/** The games to watch, in the language now chosen. */
export function renderRecent() {
  const games = state.recentGames || [];
  const recent = $("recent");
  recent.replaceChildren();
  for (const g of games.slice(0, 12)) {
    const what = `${presetName(g.rules.preset)} · ${tn("lobby.n_players", g.rules.players)}`;
    const status = g.status === "over" ? t("lobby.status_over") : t("lobby.status_playing");
    recent.append(el("li", {}, el("a", { href: `#game=${g.game}` }, what), el("span", { class: "about" }, ` · ${status} · ${new Date(g.created * 1000).toLocaleString(document.documentElement.lang)}`)));
  }
  if (!games.length) recent.append(el("li", { class: "about" }, t("lobby.no_games")));
}

export function renderLobby() {
  const choice = state.lobbyChoice;
  const box = $("presets");
  box.replaceChildren();
  for (const p of presetNames(state.config)) {
    const id = `preset-${p}`;
    const input = el("input", { type: "radio", name: "preset", id, value: p });
    input.checked = p === choice.preset;
    input.addEventListener("change", () => { choice.preset = p; renderOptions(); });
    box.append(el("label", { class: "preset", for: id }, input,
      el("span", { class: "preset-name" }, presetName(p)), el("span", { class: "about" }, t(`preset.${p}.about`))));
  }
  const count = $("player-count");
  count.replaceChildren();
  for (const n of [2, 3, 4]) {
    const id = `players-${n}`;
    const input = el("input", { type: "radio", name: "players", id, value: String(n) });
    input.checked = n === choice.players;
    input.addEventListener("change", () => { choice.players = n; renderSeatRows(); renderOptions(); });
    count.append(input, el("label", { for: id }, tn("lobby.n_players", n)));
  }
  $("partnerships").onchange = () => { renderSeatRows(); renderOptions(); };
  renderSeatRows();
  renderOptions();
  $("create-form").onsubmit = createGame;
}

/** How many sides the chosen seats make (two in partnerships of four). */
function sidesNow() {
  return $("partnerships").checked && state.lobbyChoice.players === 4 ? 2 : state.lobbyChoice.players;
}

function renderSeatRows() {
  const n = state.lobbyChoice.players;
  const config = state.config;
  $("partner-label").hidden = n !== 4;
  $("partner-about").hidden = n !== 4;
  if (n !== 4) $("partnerships").checked = false;
  const box = $("seats");
  const before = [...box.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector("[name^=kind]")?.value, bot: row.querySelector("[name^=bot]")?.value,
    name: row.querySelector("[name^=name]")?.value,
  }));
  box.replaceChildren();
  const partners = $("partnerships").checked;
  const players = config.players.map((p) => (typeof p === "string" ? p : p.name));
  const fallback = players.includes(config.default_player) ? config.default_player : players[0];
  for (let s = 0; s < n; s++) {
    const old = before[s] || {};
    const label = s === 0 ? t("lobby.seat_you") : partners && s === 2 ? t("lobby.seat_partner") : t("lobby.seat_opponent", { n: s });
    const name = el("input", { name: `name-${s}`, maxlength: "40", "aria-label": t("lobby.name_of", { seat: label }),
      placeholder: s === 0 ? t("lobby.your_name") : t("lobby.name") });
    name.value = old.name || "";
    const row = el("div", { class: "seat-row" }, el("span", { class: "seat-label" }, label));
    if (s === 0) {
      row.append(name);
    } else {
      const kind = el("select", { name: `kind-${s}`, "aria-label": t("lobby.who_sits", { seat: label }) },
        el("option", { value: "bot" }, t("lobby.computer")),
        ...(offline ? [] : [el("option", { value: "human" }, t("lobby.person"))])); // offline: nobody to invite
      kind.value = old.kind || "bot";
      const bot = el("select", { name: `bot-${s}`, "aria-label": t("lobby.which_computer", { seat: label }) });
      for (const p of players) bot.append(el("option", { value: p }, playerName(p)));
      bot.value = players.includes(old.bot) ? old.bot : fallback;
      const about = el("span", { class: "about bot-about" });
      const sync = () => {
        bot.hidden = kind.value !== "bot";
        about.textContent = kind.value === "bot" ? t(aboutKey(config, bot.value)) : t("lobby.person_about");
        name.placeholder = kind.value === "bot" ? playerName(bot.value) : t("lobby.name");
        $("people-settings").hidden = !box.querySelector("select[name^=kind] option[value=human]:checked");
      };
      kind.addEventListener("change", sync);
      bot.addEventListener("change", sync);
      row.append(kind, bot, name, about);
      box.append(row);
      sync();
      continue;
    }
    box.append(row);
  }
  $("people-settings").hidden = !box.querySelector("select[name^=kind] option[value=human]:checked");
}

/** The rules as the form shows them: the preset's values, with what was changed under this preset. */
function currentOptionValues() {
  const preset = state.lobbyChoice.preset;
  const values = { ...presetValues(state.config, preset) };
  for (const opt of state.config.options) {
    const input = document.querySelector(`#options [name="${opt.name}"]`);
    if (!input || input.dataset.preset !== preset) continue;
    values[opt.name] = opt.type === "bool" ? input.checked : opt.type === "int" ? Number(input.value) : input.value;
  }
  return values;
}

function renderOptions() {
  const values = currentOptionValues();
  const sides = sidesNow();
  const box = $("options");
  box.replaceChildren();
  for (const opt of state.config.options) {
    const value = values[opt.name];
    const id = `opt-${opt.name}`;
    let input;
    if (opt.type === "bool") {
      input = el("input", { type: "checkbox", name: opt.name, id });
      input.checked = value;
    } else if (opt.type === "int") {
      input = el("input", { type: "number", min: "1", max: "999", name: opt.name, id, value: String(value) });
    } else {
      input = el("select", { name: opt.name, id });
      for (const c of opt.choices) input.append(el("option", { value: c }, t(`option.${opt.name}.choice.${c}`)));
      input.value = value;
    }
    input.dataset.preset = state.lobbyChoice.preset;
    input.addEventListener("change", renderOptions);
    const on = relevant(opt, values, sides);
    input.disabled = !on;
    const row = el("div", { class: "option" + (on ? "" : " off"), "data-option": opt.name },
      el("label", { for: id }, t(`option.${opt.name}.label`)), input,
      el("p", { class: "about" }, on ? t(`option.${opt.name}.about`) : t("lobby.option_off", { about: t(`option.${opt.name}.about`) })));
    box.append(row);
  }
}

async function createGame(event) {
  event.preventDefault();
  const preset = state.lobbyChoice.preset;
  const options = optionsToSend(state.config, preset, currentOptionValues(), sidesNow());
  const players = state.lobbyChoice.players;
  const seats = [];
  let people = 1;
  for (let s = 0; s < players; s++) {
    const name = document.querySelector(`[name="name-${s}"]`).value.trim() || undefined;
    const kind = s === 0 ? "human" : document.querySelector(`[name="kind-${s}"]`).value;
    if (kind === "bot") {
      const bot = document.querySelector(`[name="bot-${s}"]`).value;
      seats.push(name ? { kind, bot, name } : { kind, bot }); // no name: the server seats one of its characters
    } else {
      if (s > 0) people += 1;
      seats.push({ kind, name });
    }
  }
  const body = { preset, players, partnerships: $("partnerships").checked, options, seats };
  if (people > 1) {
    body.listed = $("listed").checked;
    body.help = $("allow-help").checked;
    body.next_hand_after = Number($("next-after").value);
    if ($("create-chat-free").checked) body.chat = "free"; // free text between the people invited
  }
  await startGame(body, { lessons: false, coach: false });
}

/** Create a game and open its table, with the teaching settings it starts with. With a person at
 * the table, its first hand is dealt from a seed the server committed before the game existed
 * (POST /api/deals) and this page's own contribution, both kept here to check the hand after it. */
export async function startGame(body, learn) {
  $("lobby-error").textContent = "";
  let first = null;
  if ((body.seats || [{ kind: "human" }]).some((s) => s.kind === "human")) {
    const r = await api("/api/deals", writeInit({ method: "POST" }));
    const ticket = await r.json().catch(() => ({}));
    if (!r.ok) { $("lobby-error").textContent = ticket.error || t("fair.no_deal"); return; }
    first = { commitment: ticket.commitment, value: window.cassinoDeal.newContribution() };
    body = { ...body, deal: { id: ticket.deal, contribution: first.value } };
  }
  const r = await api("/api/games", writeInit({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  const made = await r.json();
  if (!r.ok) { $("lobby-error").textContent = made.error; return; }
  keepInvites(made.game, made);
  setLearn(made.game, learn);
  const mine = made.seats.find((s) => s.token);
  if (first && mine) keepDeal(made.game, 1, { ...first, seat: mine.seat });
  if (mine) {
    holdSeat(made.game, { token: mine.token, seat: mine.seat, preset: body.preset, players: body.players });
    location.hash = `game=${made.game}&token=${mine.token}`;
  } else location.hash = `game=${made.game}`;
}

/** "Learn to play": the guided first game the server names, you against its gentlest player,
 * with the lessons and the coach on. */
export async function learnToPlay() {
  const tutorial = state.config.tutorial;
  const name = document.querySelector('[name="name-0"]')?.value.trim() || undefined;
  const seats = [{ kind: "human", name }, { kind: "bot", bot: tutorial.opponent, name: playerName(tutorial.opponent) }];
  await startGame({ preset: tutorial.preset, players: tutorial.players, seats }, { lessons: true, coach: true });
}

export async function renderMyGames() {
  const list = $("my-games");
  list.replaceChildren();
  const entries = Object.entries(heldSeats()).sort((a, b) => b[1].at - a[1].at).slice(0, 10);
  if (!entries.length) { list.append(el("li", { class: "about" }, t("lobby.no_my_games"))); return; }
  for (const [id, held] of entries) {
    const item = el("li", {}, el("a", { href: `#game=${id}&token=${held.token}` },
      `${presetName(held.preset || "classic")} · ${tn("lobby.n_players", held.players || 2)}`));
    const info = el("span", { class: "about" }, ` · ${new Date(held.at).toLocaleString(document.documentElement.lang)}`);
    item.append(info);
    list.append(item);
    api(`/api/games/${id}`, { headers: { "x-cassino-token": held.token } }).then(async (r) => {
      if (!r.ok) { item.remove(); return; }
      const st = await r.json();
      info.textContent = " · " + (st.status === "over" ? t("lobby.status_over")
        : st.to_move === st.you ? t("lobby.status_your_turn") : t("lobby.status_playing"));
    }).catch(() => {});
  }
}

// ------------------------------------------------------------------ invitations and opening a table
/** An invitation link: take its seat (once), or go back to the seat this browser took with it. */
export async function claim(id, invite) {
  const r = await api(`/api/games/${id}/claim`, writeInit({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ invite }) }));
  const body = await r.json().catch(() => ({}));
  if (r.ok) {
    holdSeat(id, { token: body.token, seat: body.seat });
    location.replace(`#game=${id}&token=${body.token}`);
    return;
  }
  const held = heldSeats()[id];
  if (r.status === 410 && held) { location.replace(`#game=${id}&token=${held.token}`); return; }
  showProblem(r.status === 404 ? "no_game" : r.status === 410 ? "used_invite" : "bad_invite", id);
}

/** Open a game's table (a seat with its token, else as a spectator), from a fresh start; with
 * `replay`, a finished game opens in its replay (no count shown first). */
export function openGame(id, token, { replay = false } = {}) {
  Object.assign(state, {
    game: { id, token, replay }, current: null, shown: null, countDismissed: replay ? Infinity : 0, selection: noSelection(),
    lessonShown: null, askedLessons: null, coachFor: null,
  });
  closeCoach();
  forgetAnnouncement();
  show("table-view");
  forgetReplay();
  $("over").hidden = true;
  hideCount(); // the last game's count stops with it: its timers read the state set aside above
  $("message").textContent = "";
  forgetLastTable();
  renderInvites();
  connect();
}

/** Nothing of the last table stays on show until this game's first state is drawn: not its
 * banner (a stale "your move"), its hand and choices, nor its position (offline). */
function forgetLastTable() {
  const banner = $("turn-banner");
  banner.textContent = "";
  banner.dataset.state = "opening";
  delete banner.dataset.version;
  $("hand").replaceChildren();
  $("choices").replaceChildren();
  $("position").textContent = "";
  delete $("position").dataset.version;
}

/** The links of the seats still to take and for spectators, for the game's creator to send. */
export function renderInvites() {
  const invites = invitesOf(state.game.id);
  const seats = invites ? invites.seats.filter((s) => s.invite || (s.link && !s.token)) : [];
  $("invite-panel").hidden = !invites;
  if (!invites) return;
  const items = seats.map((s) => el("li", {}, `${s.name}: `, copyLink(location.origin + s.link)));
  items.push(el("li", {}, `${t("invite.watchers")}: `, copyLink(location.origin + invites.spectate)));
  $("invites").replaceChildren(...items);
}

function copyLink(url) {
  const input = el("input", { value: url, readonly: true, "aria-label": t("invite.link") });
  const button = el("button", { type: "button", onclick: () => { input.select(); navigator.clipboard?.writeText(url); button.textContent = t("invite.copied"); } }, t("invite.copy"));
  return el("span", { class: "copy" }, input, button);
}
