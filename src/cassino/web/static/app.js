// The Casino page: a lobby for players, and a table driven by the server's payloads.
// The page never decides what is legal: it shows the legal moves the server sent for this seat,
// and the engine's reasons for what cannot be played. Every word comes from the catalogues.

import {
  t, tn, has, loadLanguage, preferredLanguage, translateStatic, cardText, cardLabel, cardsText, reasonText, valueWord, isRed,
  messageText, numberText,
} from "./i18n.js";
import { moveText, playedText, buildText, parseLine, choiceGroups } from "./words.js";
import { motionOn, snapshot, slideFrom, flyAway, arriveFrom } from "./motion.js";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
};
const img = (name, cls = "card") => el("img", { src: `/cards/${name}.svg`, alt: "", class: cls, draggable: "false" });

let config = null;
let game = null; // { id, token }
let current = null; // the latest state payload
let shown = null; // the payload the table shows now (held back while the count is on screen)
let selection = { card: null, targets: [] };
let socket = null;
let retry = 500;
let hint = null;
let hintWhy = null; // the coach's reason for the hint
let countDismissed = 0; // the number of the last hand whose count this page has closed
const verifiedHands = new Map(); // "game/hand" -> the check of a revealed hand (done: false while it runs)

// ------------------------------------------------------------------ storage of seats and settings
function heldSeats() {
  try { return JSON.parse(localStorage.getItem("cassino.seats") || "{}"); } catch { return {}; }
}
function holdSeat(id, entry) {
  const seats = heldSeats();
  seats[id] = { ...(seats[id] || {}), ...entry, at: Date.now() };
  localStorage.setItem("cassino.seats", JSON.stringify(seats));
}
// Deals: for each game and hand, the commitment this page saw published before the hand was dealt
// and, where this page contributed to it, its contribution and seat (cassino.deal.GAME.HAND).
const DEAL_KEPT_FOR = 90 * 24 * 3600 * 1000;
const dealKey = (id, hand) => `cassino.deal.${id}.${hand}`;
function dealRecord(id, hand) {
  try { return JSON.parse(localStorage.getItem(dealKey(id, hand)) || "null"); } catch { return null; }
}
function keepDeal(id, hand, entry) {
  localStorage.setItem(dealKey(id, hand), JSON.stringify({ ...entry, at: Date.now() }));
}
/** Forget the deals of games last seen long ago (the games themselves are gone from the server). */
function forgetOldDeals() {
  const before = Date.now() - DEAL_KEPT_FOR;
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("cassino.deal.")) continue;
    let at = 0;
    try { at = JSON.parse(localStorage.getItem(key)).at || 0; } catch { /* unreadable: forget it */ }
    if (at < before) localStorage.removeItem(key);
  }
}
function invitesOf(id) {
  try { return JSON.parse(localStorage.getItem(`cassino.invites.${id}`) || "null"); } catch { return null; }
}

function show(view) {
  for (const v of ["lobby", "table-view", "problem"]) $(v).hidden = v !== view;
  const seated = view === "table-view" && Boolean(game?.token);
  $("set-lessons-row").hidden = !seated;
  $("set-coach-row").hidden = !seated;
  if (seated) {
    $("set-lessons").checked = learnSettings(game.id).lessons;
    $("set-coach").checked = learnSettings(game.id).coach;
  }
}

// ------------------------------------------------------------------ lobby
let lobbyChoice = { preset: "classic", players: 2 };

async function showLobby() {
  show("lobby");
  $("turn-banner").textContent = "";
  $("conn").textContent = "";
  config = config || (await (await fetch("/api/config")).json());
  renderLobby();
  renderMyGames();
  const { games } = await (await fetch("/api/games")).json();
  const recent = $("recent");
  recent.replaceChildren();
  for (const g of games.slice(0, 12)) {
    const what = `${presetName(g.rules.preset)} · ${tn("lobby.n_players", g.rules.players)}`;
    const status = g.status === "over" ? t("lobby.status_over") : t("lobby.status_playing");
    recent.append(el("li", {}, el("a", { href: `/#game=${g.game}` }, what), el("span", { class: "about" }, ` · ${status} · ${new Date(g.created * 1000).toLocaleString(document.documentElement.lang)}`)));
  }
  if (!games.length) recent.append(el("li", { class: "about" }, t("lobby.no_games")));
}

function presetList() {
  return config.presets.map((p) => (typeof p === "string" ? p : p.name));
}
function presetValues(name) {
  const p = config.presets.find((x) => (typeof x === "string" ? x : x.name) === name);
  return p.options;
}
const presetName = (p) => (has(`preset.${p}.name`) ? t(`preset.${p}.name`) : p);

function renderLobby() {
  const box = $("presets");
  box.replaceChildren();
  for (const p of presetList()) {
    const id = `preset-${p}`;
    const input = el("input", { type: "radio", name: "preset", id, value: p });
    input.checked = p === lobbyChoice.preset;
    input.addEventListener("change", () => { lobbyChoice.preset = p; renderOptions(); });
    box.append(el("label", { class: "preset", for: id }, input,
      el("span", { class: "preset-name" }, presetName(p)), el("span", { class: "about" }, t(`preset.${p}.about`))));
  }
  const count = $("player-count");
  count.replaceChildren();
  for (const n of [2, 3, 4]) {
    const id = `players-${n}`;
    const input = el("input", { type: "radio", name: "players", id, value: String(n) });
    input.checked = n === lobbyChoice.players;
    input.addEventListener("change", () => { lobbyChoice.players = n; renderSeatRows(); renderOptions(); });
    count.append(input, el("label", { for: id }, tn("lobby.n_players", n)));
  }
  $("partnerships").onchange = () => { renderSeatRows(); renderOptions(); };
  renderSeatRows();
  renderOptions();
  $("create-form").onsubmit = createGame;
}

function sidesNow() {
  return $("partnerships").checked && lobbyChoice.players === 4 ? 2 : lobbyChoice.players;
}

function playerName(p) {
  return has(`player.${p}.name`) ? t(`player.${p}.name`) : p;
}

function renderSeatRows() {
  const n = lobbyChoice.players;
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
        el("option", { value: "bot" }, t("lobby.computer")), el("option", { value: "human" }, t("lobby.person")));
      kind.value = old.kind || "bot";
      const bot = el("select", { name: `bot-${s}`, "aria-label": t("lobby.which_computer", { seat: label }) });
      for (const p of players) bot.append(el("option", { value: p }, playerName(p)));
      bot.value = players.includes(old.bot) ? old.bot : fallback;
      const about = el("span", { class: "about bot-about" });
      const sync = () => {
        bot.hidden = kind.value !== "bot";
        about.textContent = kind.value === "bot" ? t(`player.${bot.value}.about`) : t("lobby.person_about");
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

/** Do the server's conditions (needs, needs_not, needs_sides) hold for the rules chosen so far? */
function holds(cond, values) {
  for (const [k, v] of Object.entries(cond.needs || {})) if (values[k] !== v) return false;
  for (const [k, v] of Object.entries(cond.needs_not || {})) if (values[k] === v) return false;
  if (cond.needs_sides && sidesNow() !== cond.needs_sides) return false;
  return true;
}

/** Does an option change anything under the rules chosen so far? */
const relevant = (opt, values) => holds(opt, values);

/** Is an option's value one the rules refuse in this combination (e.g. count-out with spade scoring)? */
const refused = (opt, value, values) => (opt.refused || []).some((r) => r.value === value && !holds(r.unless || {}, values));

function currentOptionValues() {
  const values = { ...presetValues(lobbyChoice.preset) };
  for (const opt of config.options) {
    const input = document.querySelector(`#options [name="${opt.name}"]`);
    if (!input || input.dataset.preset !== lobbyChoice.preset) continue;
    values[opt.name] = opt.type === "bool" ? input.checked : opt.type === "int" ? Number(input.value) : input.value;
  }
  return values;
}

function renderOptions() {
  const values = currentOptionValues();
  const box = $("options");
  box.replaceChildren();
  for (const opt of config.options) {
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
    input.dataset.preset = lobbyChoice.preset;
    input.addEventListener("change", renderOptions);
    const on = relevant(opt, values);
    input.disabled = !on;
    const row = el("div", { class: "option" + (on ? "" : " off"), "data-option": opt.name },
      el("label", { for: id }, t(`option.${opt.name}.label`)), input,
      el("p", { class: "about" }, on ? t(`option.${opt.name}.about`) : t("lobby.option_off", { about: t(`option.${opt.name}.about`) })));
    box.append(row);
  }
}

async function createGame(event) {
  event.preventDefault();
  const preset = lobbyChoice.preset;
  const base = presetValues(preset);
  const values = currentOptionValues();
  const options = {};
  for (const opt of config.options) {
    if (!relevant(opt, values)) {
      // it changes nothing here, but the preset's value may clash with the rest: use the plain default
      if (refused(opt, base[opt.name], values)) options[opt.name] = opt.default;
      continue;
    }
    if (values[opt.name] !== base[opt.name]) options[opt.name] = values[opt.name];
  }
  const players = lobbyChoice.players;
  const seats = [];
  let people = 1;
  for (let s = 0; s < players; s++) {
    const name = document.querySelector(`[name="name-${s}"]`).value.trim() || undefined;
    const kind = s === 0 ? "human" : document.querySelector(`[name="kind-${s}"]`).value;
    if (kind === "bot") {
      const bot = document.querySelector(`[name="bot-${s}"]`).value;
      seats.push({ kind, bot, name: name || playerName(bot) });
    } else {
      if (s > 0) people += 1;
      seats.push({ kind, name });
    }
  }
  const body = { preset, players, partnerships: $("partnerships").checked, options, seats };
  if (people > 1) {
    body.listed = $("listed").checked;
    body.next_hand_after = Number($("next-after").value);
  }
  await startGame(body, { lessons: false, coach: false });
}

/** Create a game and open its table, with the teaching settings it starts with. With a person at
 * the table, its first hand is dealt from a seed the server committed before the game existed
 * (POST /api/deals) and this page's own contribution, both kept here to check the hand after it. */
async function startGame(body, learn) {
  $("lobby-error").textContent = "";
  let first = null;
  if ((body.seats || [{ kind: "human" }]).some((s) => s.kind === "human")) {
    const r = await fetch("/api/deals", { method: "POST" });
    const ticket = await r.json().catch(() => ({}));
    if (!r.ok) { $("lobby-error").textContent = ticket.error || t("fair.no_deal"); return; }
    first = { commitment: ticket.commitment, value: window.cassinoDeal.newContribution() };
    body = { ...body, deal: { id: ticket.deal, contribution: first.value } };
  }
  const r = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const made = await r.json();
  if (!r.ok) { $("lobby-error").textContent = made.error; return; }
  localStorage.setItem(`cassino.invites.${made.game}`, JSON.stringify(made));
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
async function learnToPlay() {
  const tutorial = config.tutorial;
  const name = document.querySelector('[name="name-0"]')?.value.trim() || undefined;
  const seats = [{ kind: "human", name }, { kind: "bot", bot: tutorial.opponent, name: playerName(tutorial.opponent) }];
  await startGame({ preset: tutorial.preset, players: tutorial.players, seats }, { lessons: true, coach: true });
}

async function renderMyGames() {
  const list = $("my-games");
  list.replaceChildren();
  const entries = Object.entries(heldSeats()).sort((a, b) => b[1].at - a[1].at).slice(0, 10);
  if (!entries.length) { list.append(el("li", { class: "about" }, t("lobby.no_my_games"))); return; }
  for (const [id, held] of entries) {
    const item = el("li", {}, el("a", { href: `/#game=${id}&token=${held.token}` },
      `${presetName(held.preset || "classic")} · ${tn("lobby.n_players", held.players || 2)}`));
    const info = el("span", { class: "about" }, ` · ${new Date(held.at).toLocaleString(document.documentElement.lang)}`);
    item.append(info);
    list.append(item);
    fetch(`/api/games/${id}`, { headers: { "x-cassino-token": held.token } }).then(async (r) => {
      if (!r.ok) { item.remove(); return; }
      const st = await r.json();
      info.textContent = " · " + (st.status === "over" ? t("lobby.status_over")
        : st.to_move === st.you ? t("lobby.status_your_turn") : t("lobby.status_playing"));
    }).catch(() => {});
  }
}

// ------------------------------------------------------------------ wrong links
function showProblem(kind, id) {
  show("problem");
  $("conn").textContent = "";
  $("turn-banner").textContent = "";
  $("problem-title").textContent = t(`problem.${kind}.title`);
  $("problem-text").textContent = t(`problem.${kind}.text`);
  const watch = $("problem-watch");
  watch.hidden = kind === "no_game";
  watch.href = `/#game=${id}`;
}

async function claim(id, invite) {
  const r = await fetch(`/api/games/${id}/claim`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ invite }) });
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

// ------------------------------------------------------------------ the table: connection
function openGame(id, token) {
  game = { id, token };
  current = null;
  shown = null;
  countDismissed = 0;
  selection = { card: null, targets: [] };
  lessonShown = null;
  askedLessons = null;
  coachFor = null;
  closeCoach();
  show("table-view");
  $("replay").hidden = true;
  $("over").hidden = true;
  $("count").hidden = true;
  $("message").textContent = "";
  renderInvites();
  connect();
}

function renderInvites() {
  const invites = invitesOf(game.id);
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

function connect() {
  if (socket) { socket.onclose = null; socket.close(); }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = game.token ? `?token=${encodeURIComponent(game.token)}` : "";
  socket = new WebSocket(`${proto}://${location.host}/api/games/${game.id}/ws${query}`);
  sentDeals.clear(); // a new socket: a contribution not yet listed is sent again
  $("conn").textContent = t("conn.connecting");
  $("conn").dataset.state = "connecting";
  socket.onopen = () => { $("conn").textContent = t("conn.live"); $("conn").dataset.state = "live"; retry = 500; };
  socket.onmessage = (event) => onMessage(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code === 4404) { showProblem("no_game", game.id); return; }
    if (event.code === 4403) { showProblem("bad_token", game.id); return; }
    $("conn").textContent = t("conn.reconnecting");
    $("conn").dataset.state = "disconnected";
    if (event.code >= 4400) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { $("message").textContent = t("conn.not_connected"); return false; }
  socket.send(JSON.stringify(message));
  return true;
}

function onMessage(msg) {
  if (msg.type === "state") {
    const moved = !current || msg.version !== current.version;
    if (moved) { hint = null; hintWhy = null; lessonShown = null; $("message").textContent = ""; }
    if (current && moved) selection = { card: null, targets: [] };
    const before = current;
    current = msg;
    if (msg.you !== null && game.token) holdSeat(game.id, { token: game.token, seat: msg.you, preset: msg.rules.preset, players: msg.rules.players });
    contributeToNext();
    update(before);
    askCoach();
    askLessons();
  } else if (msg.type === "error") {
    if (msg.status === 404 && !current) { showProblem("no_game", game.id); return; }
    if (msg.status === 403 && !current) { showProblem("bad_token", game.id); return; }
    if (msg.request === "contribute") return; // a late contribution: the hand says whether it was used
    coachFor = null; // a refused move has no note to wait for
    $("message").textContent = msg.reason ? reasonText(msg.reason) : msg.error;
  } else if (msg.type === "hint") {
    if (msg.version !== current.version) return; // for a position that is gone
    hint = msg.move;
    hintWhy = msg.why;
    renderPlay();
  } else if (msg.type === "coach") {
    if (msg.note && learning().coach) showCoach(msg.note);
  } else if (msg.type === "lessons") {
    if (msg.version === current.version && msg.due.length && learning().lessons) showLesson(msg.due[0]);
  }
}

// ------------------------------------------------------------------ the table: contributing to the next deal
const sentDeals = new Set(); // the hands this socket has sent a contribution to

/** The next hand's seed is committed (next_deal): keep the commitment as seen now, before anything
 * is sent, and if this page holds a person's seat that has not contributed yet, contribute, with
 * the same value again after a reload (the server takes one value a seat, and the same again). */
function contributeToNext() {
  const next = current.next_deal;
  if (!next || !game) return;
  const kept = dealRecord(game.id, next.hand);
  const me = current.you;
  const person = me !== null && Boolean(game.token) && current.seats[me]?.kind === "human";
  if (!person || next.contributed.includes(me)) {
    if (!kept) keepDeal(game.id, next.hand, { commitment: next.commitment });
    return;
  }
  let entry = kept;
  if (!entry || !entry.value) {
    entry = { commitment: kept?.commitment || next.commitment, value: window.cassinoDeal.newContribution(), seat: me };
    keepDeal(game.id, next.hand, entry);
  }
  const key = `${game.id}/${next.hand}`;
  if (sentDeals.has(key)) return;
  if (send({ type: "contribute", hand: next.hand, value: entry.value })) {
    sentDeals.add(key);
  }
}

// ------------------------------------------------------------------ the table: who sits where
const you = () => (current.you === null ? null : current.you);
const viewer = () => (current.you === null ? 0 : current.you);
const players = () => current.seats.length;
const sideOf = (s) => current.seats[s].side;

function seatName(s) {
  if (s === null || s === undefined || s < 0) return "";
  return s === you() ? t("seat.you") : current.seats[s].name;
}
function sideName(side) {
  const seats = current.seats.filter((s) => s.side === side).map((s) => s.seat);
  if (seats.includes(you())) return seats.length > 1 ? t("side.you_and", { name: seatName(seats.find((s) => s !== you())) }) : t("seat.you");
  return seats.map(seatName).join(" & ");
}
function isPartner(s) {
  return current.rules.partnerships && you() !== null && s !== you() && sideOf(s) === sideOf(you());
}

function positions() {
  const n = players();
  const order = { 2: ["across"], 3: ["left", "right"], 4: ["left", "across", "right"] }[n];
  return order.map((pos, i) => ({ seat: (viewer() + 1 + i) % n, pos }));
}

function lastMoveOf(seat) {
  for (let i = current.moves.length - 1; i >= 0; i--) if (current.moves[i].seat === seat) return current.moves[i].move;
  return null;
}

function seatBox(s, pos) {
  const st = shown;
  const seat = current.seats[s];
  const toMove = st.to_move === s && st.phase !== "count" && st.status !== "over";
  const badges = [];
  if (s === you()) badges.push(el("span", { class: "badge you" }, t("seat.you_badge")));
  if (isPartner(s)) badges.push(el("span", { class: "badge partner" }, t("seat.partner")));
  if (seat.kind === "bot") badges.push(el("span", { class: "badge bot" }, t("seat.computer")));
  if (st.dealer === s) badges.push(el("span", { class: "badge dealer", title: t("seat.dealer") }, t("seat.dealer_short")));
  const pile = st.captured[s];
  const spades = pile.filter((c) => c[1] === "s").length;
  const held = st.hand_sizes[s];
  const backs = el("div", { class: "backs", "aria-hidden": "true" });
  if (s !== you()) for (let i = 0; i < held; i++) backs.append(img("back", "card back"));
  const last = lastMoveOf(s);
  const label = [seatName(s), tn("seat.holds", held), tn("seat.pile_cards", pile.length), tn("seat.pile_spades", spades)];
  if (toMove) label.push(t("seat.to_move"));
  const box = el("section", { class: `seat seat-${pos}` + (toMove ? " to-move" : "") + (isPartner(s) ? " partner" : ""),
    "data-testid": `seat-${s}`, "data-seat": String(s), "aria-label": label.join(", ") },
  el("div", { class: "seat-head" }, el("strong", { class: "seat-name" }, seat.name), ...badges,
    toMove ? el("span", { class: "turn-dot" }, t("seat.to_move")) : null),
  s !== you() ? el("div", { class: "seat-hand" }, backs, el("span", { class: "count" }, tn("seat.holds", held))) : null,
  el("div", { class: "pile", "data-pile": String(s) },
    el("span", { class: "pile-stack" + (pile.length ? "" : " empty"), "aria-hidden": "true" }),
    el("span", {}, tn("seat.pile_cards", pile.length)), el("span", { class: "spades" }, `${spades} ♠`)),
  el("div", { class: "last-move" }, last ? playedText(last, you(), seatName) : "\u00a0"));
  return box;
}

// ------------------------------------------------------------------ the table: drawing
function update(before) {
  const countHand = countToShow();
  const root = $("table-view");
  const old = motionOn() && shown ? snapshot(root) : null;
  const oldShown = shown;
  shown = current;
  render();
  if (old) animate(old, oldShown, countHand);
  if (countHand) showCount(countHand);
  else $("count").hidden = true;
  yourTurnCue(before);
}

function countToShow() {
  if (!current.finished || !current.finished.length) return null;
  const last = current.finished[current.finished.length - 1];
  if (current.phase === "count") return last;
  if (current.status === "over" && countDismissed < last.hand) return last;
  return null;
}

function render() {
  const st = shown;
  const over = st.status === "over";
  $("table-view").dataset.phase = st.phase || (over ? "over" : "play");
  const status = $("turn-banner");
  let state = "waiting";
  if (over) { status.textContent = t("status.over", { name: sideName(st.winner) }); state = "over"; }
  else if (st.abandoned) { status.textContent = t("status.abandoned"); state = "abandoned"; }
  else if (st.phase === "count") { status.textContent = t("status.count", { n: st.hand_number - 1 }); state = "count"; }
  else if (st.to_move === you()) { status.textContent = t("status.your_turn"); state = "your-move"; }
  else status.textContent = t("status.to_move", { name: seatName(st.to_move) });
  status.dataset.state = state;
  status.dataset.version = String(st.version);
  document.title = (state === "your-move" ? "● " : "") + t("page.title");
  renderSeats();
  renderTable();
  renderPlay();
  renderSide();
  renderLesson();
}

function renderSeats() {
  const box = $("seats-around");
  box.className = `seats-around players-${players()}`;
  box.replaceChildren(...positions().map(({ seat, pos }) => seatBox(seat, pos)));
  $("me-seat").replaceWith(Object.assign(seatBox(viewer(), "me"), { id: "me-seat" }));
}

const buildKey = (b) => "build:" + b.cards.join(" ");

function dealLabel(st) {
  const deals = st.rules.draw ? 1 : { 2: 6, 3: 4, 4: 3 }[st.rules.players];
  if (st.stock === 0) return t("table.last_deal");
  return t("table.deal_of", { n: st.deal, total: deals });
}

function renderTable() {
  const st = shown;
  $("stock").replaceChildren(el("span", { class: "stock-pile", id: "stock-pile", "aria-hidden": "true" }), tn("table.stock", st.stock));
  $("deal-info").textContent = st.phase === "count" ? "" : dealLabel(st);
  const box = $("table-cards");
  box.replaceChildren();
  if (st.phase === "count") { box.append(el("p", { class: "empty-table" }, t("table.hand_over"))); return; }
  const choosing = selection.card && st.to_move === you();
  const fits = choosing ? candidates() : [];
  const targets = new Set(fits.flatMap((m) => m.table));
  const why = (key) => (choosing && current.why_not?.table?.[selection.card]?.[key]) || null;
  for (const name of st.table.loose) {
    const picked = selection.targets.includes(name);
    const usable = targets.has(name);
    const reason = choosing && !usable ? why(name) : null;
    const node = el("button", {
      type: "button", class: "card-btn loose" + (picked ? " picked" : "") + (choosing ? (usable ? " target" : " unusable") : ""),
      "data-card": name, "aria-pressed": picked ? "true" : "false",
      "aria-label": cardLabel(name) + (reason ? ` — ${reasonText(reason)}` : ""), title: reason ? reasonText(reason) : cardText(name),
    }, img(name));
    node.addEventListener("click", () => pickTarget([name], name));
    box.append(node);
  }
  for (const b of st.table.builds) {
    const key = buildKey(b);
    const picked = b.cards.every((c) => selection.targets.includes(c));
    const usable = b.cards.some((c) => targets.has(c));
    const reason = choosing && !usable ? why(key) : null;
    const label = t(b.single ? "build.label_single" : "build.label_multiple", { value: b.value, owner: seatName(b.owner) });
    const node = el("button", {
      type: "button", class: "build" + (picked ? " picked" : "") + (choosing ? (usable ? " target" : " unusable") : "") + (b.owner === you() ? " mine" : ""),
      "data-build": key, "aria-pressed": picked ? "true" : "false",
      "aria-label": `${buildText(b, you(), seatName)}: ${b.cards.map(cardLabel).join(", ")}. ${label}` + (reason ? ` — ${reasonText(reason)}` : ""),
      title: reason ? reasonText(reason) : label,
    },
    el("span", { class: "build-cards" }, ...b.cards.map((c) => img(c))),
    el("span", { class: "build-label" }, el("strong", {}, String(b.value)), " ", label));
    node.querySelectorAll("img").forEach((i, k) => { i.dataset.card = b.cards[k]; });
    node.addEventListener("click", () => pickTarget(b.cards, key));
    box.append(node);
  }
  if (!st.table.loose.length && !st.table.builds.length) box.append(el("p", { class: "empty-table" }, t("table.empty")));
}

function candidates() {
  if (!selection.card || !current.legal) return [];
  return current.legal.filter((m) => m.card === selection.card && selection.targets.every((x) => m.table.includes(x)));
}

function renderPlay() {
  const st = shown;
  const hand = $("hand");
  hand.replaceChildren();
  const spectator = you() === null;
  const myTurn = !spectator && st.to_move === you() && st.status !== "over" && st.phase !== "count";
  $("me").classList.toggle("my-turn", myTurn);
  $("hint-button").hidden = !myTurn;
  $("clear-button").hidden = !myTurn || !selection.card;
  $("undo").hidden = !current.can_undo;
  hand.setAttribute("aria-label", spectator ? t("hand.watching") : t("hand.label"));
  if (spectator) {
    hand.append(el("p", { class: "about" }, t("hand.watching")));
    $("choices").replaceChildren();
    $("prompt").textContent = "";
    $("why-not").hidden = true;
    return;
  }
  const playable = new Set((current.legal || []).map((m) => m.card));
  const cards = st.phase === "count" ? [] : st.hand || [];
  cards.forEach((name, i) => {
    const can = myTurn && playable.has(name);
    const reason = myTurn && !can ? current.why_not?.cards?.[name] : null;
    const node = el("button", {
      type: "button", class: "card-btn" + (myTurn ? (can ? " playable" : " blocked") : "") + (selection.card === name ? " selected" : "") + (pointedAt(name) ? " hinted" : ""),
      "data-card": name, "aria-pressed": selection.card === name ? "true" : "false",
      "aria-label": cardLabel(name) + (reason ? ` — ${t("hand.cannot")}: ${reasonText(reason)}` : can ? ` — ${t("hand.can")}` : ""),
      title: reason ? reasonText(reason) : cardText(name), "data-key": String(i + 1),
    }, img(name));
    if (reason) node.append(el("span", { class: "blocked-mark", "aria-hidden": "true" }, "⊘"));
    node.addEventListener("click", () => pickCard(name));
    hand.append(node);
  });
  const choices = $("choices");
  choices.replaceChildren();
  if (myTurn && selection.card) {
    for (const group of choiceGroups(candidates(), current.table, you(), seatName)) {
      const line = el("div", { class: "choice-group", role: "group", ...(group.label ? { "aria-label": group.label } : {}) });
      if (group.label) line.append(el("span", { class: "choice-label", "aria-hidden": "true" }, group.label));
      for (const m of group.moves) {
        line.append(el("button", { type: "button", class: "choice", "data-testid": "move-choice", "data-move": m.move,
          "aria-label": m.sentence, title: m.sentence, onclick: () => play(m.move) }, m.text));
      }
      choices.append(line);
    }
  }
  let prompt = "";
  if (hint) prompt = t("play.hint_is", { move: playedHint(hint) });
  else if (myTurn && !selection.card) prompt = t("play.choose_card");
  else if (myTurn) prompt = candidates().length > 1 ? t("play.choose_move") : t("play.confirm_move");
  else if (st.status !== "over" && st.phase !== "count") prompt = t("play.wait", { name: seatName(st.to_move) });
  $("prompt").textContent = prompt;
  $("hint-why").textContent = hint && hintWhy ? messageText(hintWhy) : "";
  $("hint-why").hidden = !(hint && hintWhy);
}

/** Is this hand card the one the hint, or the lesson on the table, points at? */
function pointedAt(name) {
  return [hint, lessonShown?.move].some((line) => line && parseLine(line)?.card === name);
}

function playedHint(line) {
  const m = (current.legal || []).find((x) => x.move === line);
  return m ? moveText(m, current.table, you(), seatName) : playedText(line, you(), seatName);
}

function whyNot(text) {
  const box = $("why-not");
  box.textContent = text;
  box.hidden = !text;
}

function pickCard(name) {
  $("message").textContent = "";
  whyNot("");
  if (current.to_move !== you() || current.phase === "count") { whyNot(t("why.not_your_turn")); return; }
  if (!current.legal.some((m) => m.card === name)) {
    const reason = current.why_not?.cards?.[name];
    whyNot(reason ? t("why.card", { card: cardText(name), reason: reasonText(reason) }) : t("why.no_move", { card: cardText(name) }));
    return;
  }
  selection = { card: selection.card === name ? null : name, targets: [] };
  hint = null;
  renderTable();
  renderPlay();
}

function pickTarget(cards, key) {
  $("message").textContent = "";
  whyNot("");
  if (current.to_move !== you()) { whyNot(t("why.not_your_turn")); return; }
  if (!selection.card) { whyNot(t("why.card_first")); return; }
  const all = cards.every((c) => selection.targets.includes(c));
  const next = all ? selection.targets.filter((c) => !cards.includes(c)) : [...new Set([...selection.targets, ...cards])];
  const fits = current.legal.filter((m) => m.card === selection.card && next.every((x) => m.table.includes(x)));
  if (!fits.length) {
    const item = key.startsWith("build:") ? buildText(current.table.builds.find((b) => buildKey(b) === key), you(), seatName) : cardText(key);
    const reason = current.why_not?.table?.[selection.card]?.[key];
    if (reason) whyNot(reasonText(reason));
    else whyNot(t("why.not_together", { item, card: cardText(selection.card), chosen: cardsText(selection.targets) }));
    return;
  }
  selection.targets = next;
  renderTable();
  renderPlay();
}

function play(move) {
  const ply = current.version;
  if (send({ type: "move", move, version: ply })) {
    $("choices").querySelectorAll("button").forEach((b) => { b.disabled = true; });
    closeCoach();
    if (learning().coach) coachFor = ply; // asked once the state shows the move made
  }
}

// ------------------------------------------------------------------ motion
function animate(old, before, countHand) {
  const last = current.moves.length ? current.moves[current.moves.length - 1] : null;
  const handEnded = before && current.hand_number !== before.hand_number;
  const newDeal = before && !handEnded && current.deal !== before.deal;
  const mover = handEnded ? before.to_move : last ? last.seat : null;
  const pileOf = (s) => document.querySelector(`[data-pile="${s}"]`) || $("felt");
  const seatOf = (s) => document.querySelector(`[data-seat="${s}"] .seat-hand`) || document.querySelector(`[data-seat="${s}"]`) || $("felt");
  const residue = new Set(handEnded && countHand?.residue?.cards ? countHand.residue.cards : []);
  const now = new Set();
  let dealt = 0;
  for (const node of document.querySelectorAll("#table-view [data-card]")) {
    const name = node.dataset.card;
    now.add(name);
    const was = old.get(name);
    if (was) slideFrom(node, was.rect, 320);
    else if (node.closest("#hand")) arriveFrom(node, $("stock-pile") || $("felt"), 260, Math.floor(dealt++ / 2) * 110);
    else if (newDeal || (before && before.phase === "count")) arriveFrom(node, $("stock-pile") || $("felt"), 260, Math.floor(dealt++ / 2) * 110);
    else if (mover !== null) arriveFrom(node, seatOf(mover), 320);
  }
  let away = 0;
  for (const [name, was] of old) {
    if (now.has(name)) continue;
    const target = residue.has(name) ? pileOf(countHand.residue.seat) : pileOf(mover);
    flyAway(was, target, 360, residue.has(name) ? 380 : Math.min(away++ * 30, 150));
  }
  for (const s of document.querySelectorAll(".seat.to-move")) s.animate?.([{ boxShadow: "0 0 0 0 #f5c54288" }, { boxShadow: "0 0 0 10px #f5c54200" }], { duration: 400 });
  announce(before, handEnded, countHand);
}

function announce(before, handEnded, countHand) {
  const box = $("announce");
  if (handEnded && countHand?.residue?.cards?.length && countHand.residue.seat !== null) {
    box.textContent = t("announce.residue", { cards: cardsText(countHand.residue.cards), name: seatName(countHand.residue.seat) });
    return;
  }
  const last = current.moves.length ? current.moves[current.moves.length - 1] : null;
  if (!last || !before || before.version === current.version) return;
  const text = playedText(last.move, you(), seatName, before.table);
  box.textContent = t("announce.move", { name: seatName(last.seat), move: text });
}

function yourTurnCue(before) {
  const mine = current.to_move === you() && current.status !== "over" && current.phase !== "count";
  const wasMine = before && before.to_move === you() && before.phase !== "count" && before.version === current.version;
  if (!mine || wasMine || localStorage.getItem("cassino.sound") !== "on") return;
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
  } catch { /* no sound here */ }
}

// ------------------------------------------------------------------ the count
let countShownFor = null;
let countTimer = null;

function itemLabel(item) {
  const base = t(`count.item.${item.item}`);
  return item.card ? `${base} ${cardText(item.card)}` : base;
}

function showCount(hand) {
  const box = $("count");
  box.hidden = false;
  $("count-title").textContent = t("count.title", { n: hand.hand });
  const list = $("count-items");
  const fresh = countShownFor !== hand.hand;
  if (fresh) {
    countShownFor = hand.hand;
    list.replaceChildren();
    const items = hand.count || [];
    items.forEach((item, i) => {
      const who = item.side < 0 ? t(item.item === "cards" || item.item === "spades" ? "count.tie" : "count.nobody") : sideName(item.side);
      const detail = item.counts ? el("span", { class: "about" }, ` (${item.counts.join(" : ")})`) : null;
      const row = el("li", { class: "count-item" + (item.side === sideOf(viewer()) ? " ours" : ""), "data-item": item.item },
        el("span", { class: "what" }, itemLabel(item), detail), el("span", { class: "who" }, who),
        el("span", { class: "points" }, item.points ? `+${item.points}` : "0"));
      list.append(row);
      if (motionOn()) row.animate([{ opacity: 0, transform: "translateY(8px) rotateX(80deg)" }, { opacity: 1, transform: "none" }],
        { duration: 300, delay: i * 180, fill: "backwards" });
    });
    const totals = $("count-totals");
    totals.replaceChildren(el("table", { class: "totals" },
      el("tr", {}, el("th", {}, ""), ...hand.points.map((_, side) => el("th", {}, sideName(side)))),
      el("tr", {}, el("td", {}, t("count.hand_points")), ...hand.points.map((p) => el("td", {}, String(p)))),
      el("tr", {}, el("td", {}, t("count.game_score")), ...hand.scores.map((p) => el("td", {}, String(p))))));
    const ok = hand.checksum === hand.expected;
    $("count-check").textContent = t(ok ? "count.check_ok" : "count.check_off", { n: hand.checksum, expected: hand.expected });
  }
  renderNext(hand);
}

function renderNext(hand) {
  const button = $("next-hand");
  const waiting = $("count-waiting");
  clearInterval(countTimer);
  if (current.status === "over") {
    button.hidden = false;
    button.disabled = false;
    button.textContent = t("count.see_result");
    button.onclick = () => { countDismissed = hand.hand; $("count").hidden = true; render(); };
    waiting.textContent = t("status.over", { name: sideName(current.winner) });
    return;
  }
  const me = you();
  const pressed = me !== null && (current.ready || []).includes(me);
  button.hidden = me === null;
  button.disabled = pressed;
  button.textContent = pressed ? t("count.waiting") : t("count.next");
  button.onclick = () => { if (send({ type: "next" })) { button.disabled = true; button.textContent = t("count.waiting"); } };
  const others = (current.waiting_for || []).filter((s) => s !== me);
  const tick = () => {
    const parts = [];
    if (others.length) parts.push(t("count.waiting_for", { names: others.map(seatName).join(", ") }));
    if (current.next_deadline) {
      const left = Math.max(0, Math.round(current.next_deadline - Date.now() / 1000));
      parts.push(tn("count.starts_in", left));
    }
    waiting.textContent = parts.join(" · ");
  };
  tick();
  if (current.next_deadline) countTimer = setInterval(tick, 1000);
}

// ------------------------------------------------------------------ the side panels
function renderSide() {
  const st = shown;
  const scores = $("scores");
  scores.replaceChildren(el("table", { class: "score-table" },
    el("tr", {}, el("th", {}, ""), ...st.scores.map((_, side) => el("th", { class: side === sideOf(viewer()) ? "ours" : "" }, sideName(side)))),
    ...st.finished.map((h) => el("tr", {}, el("td", {}, t("side.hand_n", { n: h.hand })), ...h.points.map((p) => el("td", {}, String(p))))),
    el("tr", { class: "total" }, el("td", {}, t("side.total")), ...st.scores.map((p) => el("td", {}, String(p))))));
  $("rules-text").textContent = rulesText(st.rules);
  const list = $("moves");
  list.replaceChildren(...st.moves.map((m) => el("li", {}, el("strong", {}, seatName(m.seat)), " ", playedText(m.move, you(), seatName))));
  list.scrollTop = list.scrollHeight;
  $("over").hidden = st.status !== "over";
  $("review-button").hidden = st.status !== "over" || you() === null;
  if (st.status === "over") {
    const scoresText = st.scores.join(" : ");
    $("over-title").textContent = t("over.title", { name: sideName(st.winner), scores: scoresText });
  }
  renderFair();
}

function rulesText(rules) {
  const parts = [presetName(rules.preset), tn("lobby.n_players", rules.players)];
  if (rules.partnerships) parts.push(t("lobby.partnerships"));
  for (const [k, v] of Object.entries(rules)) {
    if (["preset", "players", "partnerships"].includes(k) || !has(`option.${k}.label`)) continue;
    const value = typeof v === "boolean" ? t(v ? "rules.on" : "rules.off") : has(`option.${k}.choice.${v}`) ? t(`option.${k}.choice.${v}`) : String(v);
    parts.push(`${t(`option.${k}.label`)}: ${value}`);
  }
  return parts.join(" · ");
}

// ------------------------------------------------------------------ fair deals: checked here
// Each hand's check, once its deck is revealed: the seed against the commitment this page saw
// before the hand (kept in this browser, else the one in the state), the deck against the one
// deal.js derives from the seed and the contributions, and this page's contribution among them.

const fairOpen = new Set(); // the details (by key) a person has opened: kept open across redraws

function checkHand(number, published) {
  const key = `${game.id}/${number}`;
  if (verifiedHands.has(key)) return verifiedHands.get(key);
  const id = game.id;
  const kept = dealRecord(id, number);
  const mine = kept && kept.value ? { seat: kept.seat ?? you(), value: kept.value } : null;
  const pending = { done: false };
  verifiedHands.set(key, pending);
  (async () => {
    const r = await fetch(`/api/games/${id}/hands/${number}`);
    const hand = await r.json();
    if (!r.ok) throw new Error(hand.error || String(r.status));
    const seen = kept?.commitment || published;
    return { hand, mine, seen, ...(await window.cassinoDeal.verifyHand(id, hand, seen, mine)) };
  })().then((res) => Object.assign(pending, res, { done: true }), (e) => Object.assign(pending, { done: true, error: e.message }))
    .then(() => { if (game && game.id === id && shown) renderFair(); });
  return pending;
}

function keepOpen(node, key) {
  node.open = fairOpen.has(key);
  node.addEventListener("toggle", () => { if (node.open) fairOpen.add(key); else fairOpen.delete(key); });
  return node;
}

const shortHex = (hex) => el("code", { title: hex }, `${String(hex).slice(0, 12)}…`);

function problemText(res) {
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

function fairSummary(res) {
  const hand = res.hand;
  if (hand.scheme === window.cassinoDeal.LEGACY) return t("fair.legacy");
  const given = Array.isArray(hand.contributions) ? hand.contributions : [];
  if (!given.length) return t("fair.seed_only");
  const mine = given.some((c) => c.seat === you());
  const names = given.filter((c) => c.seat !== you()).map((c) => seatName(c.seat)).join(", ");
  if (mine) return names ? t("fair.mixed_you_and", { names }) : t("fair.mixed_you");
  return t("fair.mixed", { names });
}

function renderFair() {
  const list = $("fair");
  const history = $("history");
  const items = [];
  const earlier = [];
  for (const d of shown.deals) {
    const head = el("div", { class: "fair-head" }, el("span", { class: "fair-n" }, t("side.hand_n", { n: d.hand })));
    const item = el("li", { class: "fair-hand", "data-hand": String(d.hand) }, head);
    items.push(item);
    if (!d.revealed) {
      head.append(el("span", { class: "about" }, t("fair.in_play")));
      item.append(el("p", { class: "about fair-what" }, t("fair.committed"), " ", shortHex(d.commitment)));
      continue;
    }
    const res = checkHand(d.hand, d.commitment);
    if (!res.done) { head.append(el("span", { class: "about" }, t("fair.checking"))); continue; }
    head.append(fairStatus(res));
    if (res.error) continue;
    item.dataset.result = res.ok ? "verified" : res.problem;
    item.append(el("p", { class: "about fair-what" }, fairSummary(res)),
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
}

// ------------------------------------------------------------------ replay
let frames = [];
let frameIndex = 0;

async function startReplay() {
  const r = await fetch(`/api/games/${game.id}/record`);
  const record = await r.json();
  if (!r.ok) { $("message").textContent = record.error; return; }
  frames = record.frames;
  frameIndex = 0;
  $("replay").hidden = false;
  showFrame();
}

function showFrame() {
  const f = frames[frameIndex];
  $("replay-pos").textContent = t("replay.position", { n: frameIndex + 1, total: frames.length, hand: f.hand });
  const box = $("replay-frame");
  box.replaceChildren(el("p", { class: "replay-move" }, f.move ? `${seatName(f.move.seat)}: ${playedText(f.move.move, you(), seatName)}` : t("replay.dealt", { n: f.hand })));
  f.hands.forEach((cards, s) => box.append(el("div", { class: "frame-seat" },
    el("span", {}, `${seatName(s)} (${tn("seat.pile_cards", f.captured[s])})`), el("div", { class: "cards" }, ...cards.map((c) => img(c, "card small"))))));
  const table = el("div", { class: "cards" }, ...f.table.loose.map((c) => img(c, "card small")));
  for (const b of f.table.builds) table.append(el("span", { class: "about" }, ` [${t("build.label_single", { value: b.value, owner: seatName(b.owner) })}: ${cardsText(b.cards)}] `));
  box.append(el("div", { class: "frame-seat" }, el("span", {}, `${t("table.title")} (${tn("table.stock", f.stock)})`), table));
}

function step(delta) {
  frameIndex = Math.max(0, Math.min(frames.length - 1, frameIndex + delta));
  showFrame();
}

// ------------------------------------------------------------------ teaching: lessons, coach, review
// The server's teaching library says everything as structured messages (learn.CODE and params);
// the page words them in its language. Which games teach is this browser's choice, per game.

let lessonShown = null; // the lesson note on the table now
let askedLessons = null; // the version lessons were last asked for
let coachFor = null; // the ply of this seat's move whose note is to be asked for
let coachNote = null; // the note in the bubble
let coachTimer = null;
let reviewShown = null;
let lessonsShown = null;

function learnSettings(id) {
  try { return { lessons: false, coach: false, ...(JSON.parse(localStorage.getItem("cassino.learn") || "{}")[id] || {}) }; } catch { return { lessons: false, coach: false }; }
}
function setLearn(id, entry) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem("cassino.learn") || "{}"); } catch { /* start afresh */ }
  all[id] = { ...learnSettings(id), ...entry };
  localStorage.setItem("cassino.learn", JSON.stringify(all));
}
const learning = () => (game && game.token && current && you() !== null ? learnSettings(game.id) : { lessons: false, coach: false });
function seenLessons() {
  try { return JSON.parse(localStorage.getItem("cassino.lessons.seen") || "[]"); } catch { return []; }
}
function markSeen(id) {
  localStorage.setItem("cassino.lessons.seen", JSON.stringify([...new Set([...seenLessons(), id])]));
}

/** At this seat's turn, with lessons on: ask which lessons are due (once per position). */
function askLessons() {
  const mine = current.to_move === you() && current.phase === "play" && current.status !== "over";
  if (!learning().lessons || !mine || askedLessons === current.version) return;
  askedLessons = current.version;
  send({ type: "lessons", seen: seenLessons() });
}

function showLesson(note) {
  lessonShown = note;
  markSeen(note.id);
  renderLesson();
  renderPlay();
}

function renderLesson() {
  $("lesson").hidden = !lessonShown;
  if (!lessonShown) return;
  $("lesson-title").textContent = messageText(lessonShown.title);
  $("lesson-text").textContent = messageText(lessonShown.text);
  $("lesson-example").textContent = messageText(lessonShown.example);
}

function closeLesson() {
  lessonShown = null;
  renderLesson();
  if (current) renderPlay();
}

/** Once the state shows this seat's move made, ask the coach about it. */
function askCoach() {
  if (coachFor === null || current.version <= coachFor) return;
  if (learning().coach) send({ type: "coach", ply: coachFor });
  coachFor = null;
}

/** A move the coach names, in the page's own words, on the table it was made on. */
const notedMove = (line, table) => { const m = parseLine(line); return m ? moveText(m, table, you(), seatName) : line; };

/** The coach's note: the better move, about how many points more, and why. */
function noteText(note) {
  return t("learn.coach.note", { move: notedMove(note.best, note.table), loss: numberText(note.loss), why: messageText(note.why) });
}

function showCoach(note) {
  coachNote = note;
  $("coach-text").textContent = noteText(note);
  $("coach").hidden = false;
  clearTimeout(coachTimer);
  coachTimer = setTimeout(closeCoach, 20000);
}

function closeCoach() {
  clearTimeout(coachTimer);
  coachNote = null;
  $("coach").hidden = true;
}

function openScene(id) {
  const scene = $(id);
  scene.hidden = false;
  scene.querySelector(".scene-close").focus({ preventScroll: true });
  scene.querySelector(".count-card").scrollTop = 0;
}

function closeScenes() {
  for (const id of ["lessons", "review"]) $(id).hidden = true;
  lessonsShown = null;
  reviewShown = null;
}

/** Every lesson, to read at any time: worded for this game's rules at a table, else the first game's. */
async function openLessons() {
  $("settings-menu").open = false;
  const query = game && !$("table-view").hidden ? `?game=${encodeURIComponent(game.id)}` : "";
  const r = await fetch(`/api/lessons${query}`);
  const body = await r.json();
  if (!r.ok) { $("message").textContent = body.error; return; }
  lessonsShown = body.lessons;
  renderLessons();
  openScene("lessons");
}

function renderLessons() {
  const seen = new Set(seenLessons());
  $("lessons-list").replaceChildren(...lessonsShown.map((l) => el("li", { "data-lesson": l.id, class: seen.has(l.id) ? "seen" : "" },
    el("h3", {}, messageText(l.title)), el("p", {}, messageText(l.text)))));
}

async function openReview() {
  reviewShown = null;
  $("review-body").replaceChildren(el("p", { class: "about" }, t("teach.reviewing")));
  openScene("review");
  const r = await fetch(`/api/games/${game.id}/review`, { headers: { "x-cassino-token": game.token } });
  const body = await r.json();
  if ($("review").hidden) return; // closed while it was worked out
  if (!r.ok) { $("review-body").replaceChildren(el("p", { class: "error" }, body.error)); return; }
  reviewShown = body;
  renderReview();
}

const itemName = (item) => t(has(`teach.item.${item}`) ? `teach.item.${item}` : `count.item.${item}`);

function renderReview() {
  const r = reviewShown;
  const total = (key) => r.points.reduce((sum, p) => sum + p[key], 0);
  const points = el("table", { class: "totals review-points" },
    el("tr", {}, el("th", {}, t("teach.review_item")), el("th", {}, sideName(r.side)), el("th", {}, t("teach.review_them"))),
    ...r.points.map((p) => el("tr", { "data-item": p.item }, el("td", {}, itemName(p.item)), el("td", { class: p.yours > p.theirs ? "ours" : "" }, numberText(p.yours)), el("td", {}, numberText(p.theirs)))),
    el("tr", { class: "total" }, el("td", {}, t("side.total")), el("td", {}, numberText(total("yours"))), el("td", {}, numberText(total("theirs")))));
  const costly = r.costly.length
    ? el("ol", { class: "review-costly" }, ...r.costly.map((c) => el("li", { "data-ply": String(c.ply) },
      el("strong", {}, t("teach.review_played", { move: notedMove(c.move, c.table) })), " ", noteText(c))))
    : el("p", {}, t("teach.review_clean"));
  const advice = (list) => el("ul", { class: "review-advice" }, ...list.map((a) => el("li", { "data-category": a.category }, messageText(a.message))));
  const kinds = el("table", { class: "totals review-kinds" },
    el("tr", {}, el("th", {}, t("teach.review_kind")), el("th", {}, t("teach.review_moves")), el("th", {}, t("teach.review_lost_col"))),
    ...r.categories.filter((c) => c.moves).map((c) => el("tr", { "data-category": c.category },
      el("td", {}, t(`learn.category.${c.category}`)), el("td", {}, numberText(c.moves)), el("td", {}, numberText(c.lost)))));
  $("review-body").replaceChildren(...[
    el("p", { class: "review-summary" }, tn("teach.review_lost", r.moves, { lost: numberText(r.lost) })),
    el("div", { class: "review-grid" },
      el("section", {}, el("h3", {}, t("teach.review_points")), points),
      el("section", {}, el("h3", {}, t("teach.review_by_kind")), kinds)),
    el("h3", {}, t("teach.review_costly")), costly,
    r.strengths.length ? el("h3", {}, t("teach.review_strengths")) : null, r.strengths.length ? advice(r.strengths) : null,
    r.habits.length ? el("h3", {}, t("teach.review_habits")) : null, r.habits.length ? advice(r.habits) : null,
    r.strengths.length || r.habits.length ? null : el("p", { class: "about" }, t("teach.review_none")),
  ].filter(Boolean));
}

// ------------------------------------------------------------------ start
function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get("game");
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
  if (id && params.get("invite")) claim(id, params.get("invite"));
  else if (id) openGame(id, params.get("token"));
  else showLobby();
}

function rerender() {
  translateStatic();
  if (!$("lobby").hidden && config) { renderLobby(); renderMyGames(); }
  if (!$("table-view").hidden && current) {
    render();
    renderInvites();
    countShownFor = null;
    const hand = countToShow();
    if (hand) showCount(hand);
    if (!$("replay").hidden) showFrame();
    renderLesson();
    if (coachNote) $("coach-text").textContent = noteText(coachNote);
    if (reviewShown) renderReview();
    $("conn").textContent = t(`conn.${$("conn").dataset.state === "live" ? "live" : $("conn").dataset.state === "connecting" ? "connecting" : "reconnecting"}`);
  }
  if (!$("problem").hidden) route();
  if (lessonsShown) renderLessons();
}

function keys(event) {
  if (event.key === "Escape" && (!$("lessons").hidden || !$("review").hidden)) { closeScenes(); return; }
  if (event.target.closest("input, select, textarea") || $("table-view").hidden) return;
  if (event.key === "Escape") { selection = { card: null, targets: [] }; whyNot(""); renderTable(); renderPlay(); }
  else if (/^[1-9]$/.test(event.key)) document.querySelector(`#hand [data-key="${event.key}"]`)?.click();
}

async function start() {
  forgetOldDeals();
  await loadLanguage(preferredLanguage());
  translateStatic();
  const select = $("language");
  select.value = document.documentElement.lang;
  select.addEventListener("change", async () => { await loadLanguage(select.value); rerender(); });
  const motion = $("set-motion");
  motion.checked = motionOn();
  motion.addEventListener("change", () => localStorage.setItem("cassino.motion", motion.checked ? "on" : "off"));
  const sound = $("set-sound");
  sound.checked = localStorage.getItem("cassino.sound") === "on";
  sound.addEventListener("change", () => localStorage.setItem("cassino.sound", sound.checked ? "on" : "off"));
  $("hint-button").addEventListener("click", () => send({ type: "hint" }));
  $("clear-button").addEventListener("click", () => { selection = { card: null, targets: [] }; whyNot(""); renderTable(); renderPlay(); });
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("replay-button").addEventListener("click", startReplay);
  $("review-button").addEventListener("click", openReview);
  $("learn-to-play").addEventListener("click", learnToPlay);
  $("lobby-lessons").addEventListener("click", openLessons);
  $("lessons-button").addEventListener("click", openLessons);
  for (const b of document.querySelectorAll(".scene-close")) b.addEventListener("click", closeScenes);
  $("lesson-ok").addEventListener("click", closeLesson);
  $("coach-close").addEventListener("click", closeCoach);
  $("set-lessons").addEventListener("change", () => {
    setLearn(game.id, { lessons: $("set-lessons").checked });
    askedLessons = null;
    if ($("set-lessons").checked) askLessons(); else closeLesson();
  });
  $("set-coach").addEventListener("change", () => {
    setLearn(game.id, { coach: $("set-coach").checked });
    if (!$("set-coach").checked) closeCoach();
  });
  $("replay-first").addEventListener("click", () => step(-1e9));
  $("replay-prev").addEventListener("click", () => step(-1));
  $("replay-next").addEventListener("click", () => step(1));
  $("replay-last").addEventListener("click", () => step(1e9));
  document.addEventListener("keydown", keys);
  window.addEventListener("hashchange", route);
  route();
}

start();
