// The Casino page: a lobby with the variant builder, and the table driven by the server's payloads.
// The page never decides what is legal: it shows the legal moves the server sent for this seat.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
};
const cardImg = (name, extra = "") =>
  el("img", { src: `/cards/${name}.svg`, alt: name, title: name, class: `card ${extra}`.trim(), "data-card": name });

let config = null;
let game = null; // { id, token }
let current = null; // the latest state payload
let selection = { card: null, targets: [] };
let socket = null;
let retry = 500;
const verifiedHands = new Map();

// ------------------------------------------------------------------ lobby
async function showLobby() {
  $("lobby").hidden = false;
  $("table-view").hidden = true;
  config = config || (await (await fetch("/api/config")).json());
  const preset = $("preset");
  if (!preset.options.length) {
    for (const name of Object.keys(config.presets)) preset.append(el("option", { value: name }, name));
    preset.addEventListener("change", fillOptions);
    $("players").addEventListener("change", fillSeats);
    $("partnerships").addEventListener("change", () => {
      if ($("partnerships").checked) $("players").value = "4";
      fillSeats();
    });
    $("create-form").addEventListener("submit", createGame);
    fillOptions();
    fillSeats();
  }
  const recent = $("recent");
  recent.replaceChildren();
  const { games } = await (await fetch("/api/games")).json();
  for (const g of games.slice(0, 15)) {
    const when = new Date(g.created * 1000).toLocaleString();
    const what = `${g.rules.preset}, ${g.rules.players} players` + (g.status === "over" ? `, won by side ${g.winner}` : ", in play");
    recent.append(el("li", {}, el("a", { href: `/#game=${g.game}` }, `${when}: ${what}`), ` (${g.moves} moves)`));
  }
}

function fillOptions() {
  const box = $("options");
  box.replaceChildren();
  const values = config.presets[$("preset").value];
  for (const opt of config.options) {
    const value = values[opt.name];
    let input;
    if (opt.type === "bool") {
      input = el("input", { type: "checkbox", name: opt.name });
      input.checked = value;
    } else if (opt.type === "int") {
      input = el("input", { type: "number", min: "1", name: opt.name, value: String(value), style: "width:5em" });
    } else {
      input = el("select", { name: opt.name });
      for (const c of opt.choices) input.append(el("option", { value: c }, c));
      input.value = value;
    }
    box.append(el("label", {}, opt.name.replaceAll("_", " "), input));
  }
}

function fillSeats() {
  const n = Number($("players").value);
  if (n !== 4) $("partnerships").checked = false;
  const box = $("seats");
  box.replaceChildren();
  for (let s = 0; s < n; s++) {
    const kind = el("select", { name: `kind-${s}`, "aria-label": `seat ${s} player` },
      el("option", { value: "human" }, "Person"), el("option", { value: "bot" }, "Computer"));
    kind.value = s === 0 ? "human" : "bot";
    const bot = el("select", { name: `bot-${s}`, "aria-label": `seat ${s} computer player` });
    for (const p of config.players) bot.append(el("option", { value: p }, p));
    bot.value = config.players.includes("heuristic") ? "heuristic" : config.players[0];
    const name = el("input", { name: `name-${s}`, placeholder: s === 0 ? "you" : `Seat ${s}`, maxlength: "40" });
    const sync = () => { bot.hidden = kind.value !== "bot"; };
    kind.addEventListener("change", sync);
    sync();
    box.append(el("div", { class: "seat-row" }, `Seat ${s}`, kind, bot, name));
  }
}

async function createGame(event) {
  event.preventDefault();
  const values = config.presets[$("preset").value];
  const options = {};
  for (const opt of config.options) {
    const input = document.querySelector(`#options [name="${opt.name}"]`);
    const value = opt.type === "bool" ? input.checked : opt.type === "int" ? Number(input.value) : input.value;
    if (value !== values[opt.name]) options[opt.name] = value;
  }
  const players = Number($("players").value);
  const seats = [];
  for (let s = 0; s < players; s++) {
    const kind = document.querySelector(`[name="kind-${s}"]`).value;
    const name = document.querySelector(`[name="name-${s}"]`).value.trim() || undefined;
    seats.push(kind === "bot" ? { kind, name, bot: document.querySelector(`[name="bot-${s}"]`).value } : { kind, name });
  }
  const body = { preset: $("preset").value, players, partnerships: $("partnerships").checked, options, seats };
  const r = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const made = await r.json();
  if (!r.ok) { $("lobby-error").textContent = made.error; return; }
  sessionStorage.setItem(`invites-${made.game}`, JSON.stringify(made));
  const first = made.seats.find((s) => s.token);
  location.hash = first ? first.link.slice(1) : made.spectate.slice(1);
}

// ------------------------------------------------------------------ the table
function openGame(id, token) {
  game = { id, token };
  current = null;
  selection = { card: null, targets: [] };
  $("lobby").hidden = true;
  $("table-view").hidden = false;
  $("replay").hidden = true;
  $("over").hidden = true;
  $("message").textContent = "";
  const invites = JSON.parse(sessionStorage.getItem(`invites-${id}`) || "null");
  $("invite-panel").hidden = !invites;
  if (invites) {
    $("invites").replaceChildren(...invites.seats.filter((s) => s.token).map((s) =>
      el("li", {}, `${s.name} (seat ${s.seat}): `, el("a", { href: location.origin + s.link }, "link"))),
      el("li", {}, "spectators: ", el("a", { href: location.origin + invites.spectate }, "link")));
  }
  connect();
}

function connect() {
  if (socket) { socket.onclose = null; socket.close(); }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = game.token ? `?token=${encodeURIComponent(game.token)}` : "";
  socket = new WebSocket(`${proto}://${location.host}/api/games/${game.id}/ws${query}`);
  $("conn").textContent = "connecting...";
  socket.onopen = () => { $("conn").textContent = "live"; retry = 500; };
  socket.onmessage = (event) => onMessage(JSON.parse(event.data));
  socket.onclose = (event) => {
    $("conn").textContent = "disconnected: reconnecting";
    if (event.code >= 4400) return; // a refused token or an unknown game: no point retrying
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function onMessage(msg) {
  if (msg.type === "state") {
    if (current && msg.version !== current.version) selection = { card: null, targets: [] };
    if (!current || msg.version !== current.version) $("hint").textContent = "";
    current = msg;
    render();
  } else if (msg.type === "error") {
    $("message").textContent = msg.error;
  } else if (msg.type === "hint") {
    $("hint").textContent = `Hint: ${msg.move}`;
    document.querySelectorAll(".hinted").forEach((n) => n.classList.remove("hinted"));
    const card = msg.move.split(" ")[1];
    document.querySelector(`#hand [data-card="${card}"]`)?.classList.add("hinted");
  }
}

const seatName = (s) => current.seats[s].name + (s === current.you ? " (you)" : "");
const sideName = (side) => current.seats.filter((s) => s.side === side).map((s) => seatName(s.seat)).join(" & ");

function render() {
  const st = current;
  $("rules-text").textContent = st.rules_text;
  $("scores").textContent = "Scores: " + st.scores.map((p, side) => `${sideName(side)} ${p}`).join(" · ");
  const status = $("status");
  status.classList.toggle("your-turn", st.to_move !== null && st.to_move === st.you);
  if (st.status === "over") status.textContent = `Game over: ${sideName(st.winner)} won`;
  else if (st.to_move === st.you) status.textContent = `Hand ${st.hand_number}, deal ${st.deal}: your move`;
  else status.textContent = `Hand ${st.hand_number}, deal ${st.deal}: ${seatName(st.to_move)} to move`;
  status.dataset.version = String(st.version);
  status.dataset.state = st.status === "over" ? "over" : st.to_move === st.you ? "your-move" : "waiting";
  $("stock").textContent = `(stock: ${st.stock} cards, dealer: ${seatName(st.dealer)})`;
  renderOthers();
  renderTable();
  renderHand();
  renderMoves();
  renderBreakdown();
  renderFair();
  $("over").hidden = st.status !== "over";
  if (st.status === "over") $("over-title").textContent = `${sideName(st.winner)} won, ${st.scores.join(" to ")}`;
}

function lastMoveOf(seat) {
  for (let i = current.moves.length - 1; i >= 0; i--) if (current.moves[i].seat === seat) return current.moves[i].move;
  return "";
}

function renderOthers() {
  const box = $("others");
  box.replaceChildren();
  for (const seat of current.seats) {
    if (seat.seat === current.you) continue;
    const backs = el("div", { class: "backs" });
    for (let i = 0; i < current.hand_sizes[seat.seat]; i++) backs.append(el("img", { src: "/cards/back.svg", alt: "card", class: "card small" }));
    const who = seat.kind === "bot" ? `computer: ${seat.bot}` : "person";
    box.append(el("div", { class: "other" + (current.to_move === seat.seat ? " to-move" : "") },
      el("strong", {}, seat.name), el("span", { class: "muted" }, ` seat ${seat.seat}, ${who}`), backs,
      el("div", { class: "muted" }, `captured ${current.captured[seat.seat].length}`),
      el("div", {}, lastMoveOf(seat.seat) ? `last: ${lastMoveOf(seat.seat)}` : "")));
  }
}

function candidates() {
  if (!selection.card) return [];
  return current.legal.filter((m) => m.card === selection.card && selection.targets.every((t) => m.table.includes(t)));
}

function renderTable() {
  const box = $("table");
  box.replaceChildren();
  const targets = new Set(candidates().flatMap((m) => m.table));
  for (const name of current.table.loose) {
    const img = cardImg(name, (targets.has(name) ? "target " : "") + (selection.targets.includes(name) ? "picked" : ""));
    img.addEventListener("click", () => pickTarget([name]));
    box.append(img);
  }
  for (const b of current.table.builds) {
    const cls = (b.cards.some((c) => targets.has(c)) ? " target" : "") + (b.cards.every((c) => selection.targets.includes(c)) ? " picked" : "");
    const node = el("div", { class: "build" + cls, "data-build": b.cards.join(" ") },
      el("div", { class: "cards" }, ...b.cards.map((c) => cardImg(c))),
      el("div", { class: "label" }, `build ${b.value} · ${b.single ? "single" : "multiple"} · ${seatName(b.owner)}`));
    node.addEventListener("click", () => pickTarget(b.cards));
    box.append(node);
  }
  if (!current.table.loose.length && !current.table.builds.length) box.append(el("span", { class: "muted" }, "(the table is empty)"));
}

function renderHand() {
  const box = $("hand");
  box.replaceChildren();
  const spectator = current.you === null;
  $("hand-title").textContent = spectator ? "Watching (public information only)" : `Your hand: ${seatName(current.you)}`;
  $("hint-button").hidden = spectator;
  $("clear-button").hidden = spectator;
  if (spectator) { $("choices").replaceChildren(); return; }
  const playable = new Set(current.legal.map((m) => m.card));
  for (const name of current.hand) {
    const img = cardImg(name, (playable.has(name) ? "playable " : "") + (selection.card === name ? "selected" : ""));
    img.addEventListener("click", () => pickCard(name));
    box.append(img);
  }
  const choices = $("choices");
  choices.replaceChildren();
  for (const m of candidates()) {
    choices.append(el("button", { type: "button", "data-move": m.move, onclick: () => send(m.move) }, m.move));
  }
}

function pickCard(name) {
  $("message").textContent = "";
  if (current.to_move !== current.you) { $("message").textContent = "Wait for your turn."; return; }
  if (!current.legal.some((m) => m.card === name)) {
    $("message").textContent = `${name} has no legal move now.`;
    return;
  }
  selection = { card: selection.card === name ? null : name, targets: [] };
  render();
}

function pickTarget(cards) {
  $("message").textContent = "";
  if (!selection.card) { $("message").textContent = "Choose a card from your hand first."; return; }
  const all = cards.every((c) => selection.targets.includes(c));
  const next = all ? selection.targets.filter((c) => !cards.includes(c)) : [...new Set([...selection.targets, ...cards])];
  const fits = current.legal.filter((m) => m.card === selection.card && next.every((t) => m.table.includes(t)));
  if (!fits.length) {
    $("message").textContent = `No move of ${selection.card} takes or builds on ${cards.join(" ")} together with what you chose.`;
    return;
  }
  selection.targets = next;
  if (fits.length === 1) { send(fits[0].move); return; }  // the targets say which move: play it
  render();  // several fit: the list shows them, more clicks narrow it
}

function send(move) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { $("message").textContent = "Not connected: reconnecting..."; return; }
  socket.send(JSON.stringify({ type: "move", move, version: current.version }));
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren(...current.moves.map((m) => el("li", {}, `${seatName(m.seat)}: ${m.move}`)));
  list.scrollTop = list.scrollHeight; // the latest move in view
}

function renderBreakdown() {
  const box = $("breakdown");
  box.replaceChildren();
  if (!current.finished.length) { box.append(el("p", { class: "muted" }, "No hand finished yet.")); return; }
  for (const h of current.finished) {
    const cats = Object.keys(h.breakdown[0]);
    const head = el("tr", {}, el("th", {}, `Hand ${h.hand}`), ...h.points.map((_, side) => el("th", {}, sideName(side))));
    const rows = cats.map((c) => el("tr", {}, el("td", {}, c), ...h.breakdown.map((b) => el("td", {}, String(b[c])))));
    rows.push(el("tr", {}, el("td", {}, "cards / spades taken"), ...h.cards.map((n, i) => el("td", {}, `${n} / ${h.spades[i]}`))));
    rows.push(el("tr", {}, el("th", {}, "hand points"), ...h.points.map((p) => el("th", {}, String(p)))));
    rows.push(el("tr", {}, el("th", {}, "game score"), ...h.scores.map((p) => el("th", {}, String(p)))));
    box.append(el("table", { class: "breakdown" }, head, ...rows));
  }
}

async function sha256(text) {
  if (window.crypto && crypto.subtle) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  }
  return sha256Hex(text);
}

async function verifyHand(number) {
  const r = await fetch(`/api/games/${game.id}/hands/${number}`);
  const hand = await r.json();
  if (!r.ok) throw new Error(hand.error);
  const digest = await sha256(hand.salt + hand.deck);
  return { hand, ok: digest === hand.commitment };
}

function renderFair() {
  const list = $("fair");
  list.replaceChildren();
  const history = $("history");
  history.replaceChildren();
  for (const d of current.deals) {
    const item = el("li", { "data-hand": String(d.hand) }, `Hand ${d.hand}: `, el("code", {}, d.commitment), " ");
    list.append(item);
    if (!d.revealed) { item.append(el("span", { class: "muted" }, "in play: revealed when it ends")); continue; }
    const key = `${game.id}/${d.hand}`;
    const show = (res) => {
      item.append(el("span", { class: res.ok ? "verified" : "mismatch" }, res.ok ? "verified" : "MISMATCH: the deck is not the one committed"));
      item.append(el("details", {}, el("summary", {}, "salt and deck"), el("div", {}, "salt: ", el("code", {}, res.hand.salt)),
        el("div", {}, "deck: ", el("code", {}, res.hand.deck))));
      if (d.hand < current.hand_number || current.status === "over") {
        history.append(el("details", {}, el("summary", {}, `Hand ${d.hand} (${res.hand.moves.length} moves)`),
          el("ol", { class: "moves" }, ...res.hand.moves.map((m) => el("li", {}, `${seatName(m.seat)}: ${m.move}`)))));
      }
    };
    if (verifiedHands.has(key)) show(verifiedHands.get(key));
    else verifyHand(d.hand).then((res) => { verifiedHands.set(key, res); renderFair(); }).catch((e) => item.append(e.message));
  }
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
  $("replay-pos").textContent = `step ${frameIndex + 1} of ${frames.length}, hand ${f.hand}`;
  const box = $("replay-frame");
  box.replaceChildren(el("p", {}, f.move ? `${seatName(f.move.seat)}: ${f.move.move}` : `Hand ${f.hand} dealt`));
  f.hands.forEach((cards, s) => box.append(el("div", { class: "frame-seat" },
    `${seatName(s)} (captured ${f.captured[s]}):`, el("div", { class: "cards" }, ...cards.map((c) => cardImg(c, "small"))))));
  const table = el("div", { class: "cards" }, ...f.table.loose.map((c) => cardImg(c, "small")));
  for (const b of f.table.builds) table.append(el("span", { class: "muted" }, ` [build ${b.value}: ${b.cards.join(" ")}] `));
  box.append(el("div", { class: "frame-seat" }, `Table (stock ${f.stock}):`, table));
  box.append(el("p", {}, `Scores: ${f.scores.join(" · ")}`));
}

function step(delta) {
  frameIndex = Math.max(0, Math.min(frames.length - 1, frameIndex + delta));
  showFrame();
}

// ------------------------------------------------------------------ start
function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("game")) openGame(params.get("game"), params.get("token"));
  else {
    if (socket) { socket.onclose = null; socket.close(); socket = null; }
    showLobby();
  }
}

$("hint-button").addEventListener("click", () => socket?.send(JSON.stringify({ type: "hint" })));
$("clear-button").addEventListener("click", () => { selection = { card: null, targets: [] }; render(); });
$("replay-button").addEventListener("click", startReplay);
$("replay-first").addEventListener("click", () => step(-1e9));
$("replay-prev").addEventListener("click", () => step(-1));
$("replay-next").addEventListener("click", () => step(1));
$("replay-last").addEventListener("click", () => step(1e9));
window.addEventListener("hashchange", route);
route();
