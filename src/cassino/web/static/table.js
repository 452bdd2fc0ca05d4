// The table: the banner, the seats around it, the cards and builds on it, the reader's hand and the
// choice of a move. The page never decides what is legal: it offers the legal moves the server sent
// for this seat, and says the engine's reasons for what cannot be played.

import { $, el, img } from "./dom.js";
import { t, tn, cardText, cardLabel, cardsText, reasonText, messageText } from "./i18n.js";
import { moveText, playedText, buildText, parseLine, choiceGroups } from "./words.js";
import { motionOn, snapshot } from "./motion.js";
import { state, noSelection } from "./state.js";
import { you, viewer, players, seatName, sideName, isPartner, positions, lastMoveOf } from "./seats.js";
import { send } from "./connection.js";
import { countToShow, showCount, hideCount } from "./count.js";
import { animate, announce, soundCues } from "./cues.js";
import { renderSide } from "./side.js";
import { trackerView } from "./tracker.js";
import { learning, renderLesson, closeCoach } from "./learning.js";
import { showFrame } from "./replay.js";
import { renderLeave, seatClock } from "./leave.js";
import { overText, renderDailyResult } from "./daily.js";
import { overStatus } from "./result.js";

/** A new state arrived: draw it (moving the cards from where they were), and its count if a hand ended. */
export function update(before) {
  if (state.replay) { showFrame(); return; } // the replay keeps the table until it is closed
  const countHand = countToShow(state.current, state.countDismissed);
  const root = $("table-view");
  const old = motionOn() && state.shown ? snapshot(root) : null;
  const oldShown = state.shown;
  state.shown = state.current;
  render();
  if (old) animate(old, oldShown, countHand);
  announce(oldShown, countHand);
  if (countHand) showCount(countHand);
  else hideCount();
  soundCues(before);
}

export function render() {
  const st = state.shown;
  const over = st.status === "over";
  $("table-view").dataset.phase = st.phase || (over ? "over" : "play");
  const status = $("turn-banner");
  let mode = "waiting";
  if (over) { status.textContent = (st.daily && overText(st, viewer(), true)) || overStatus(st, sideName); mode = "over"; }
  else if (st.abandoned) { status.textContent = t("status.abandoned"); mode = "abandoned"; }
  else if (st.phase === "count") { status.textContent = t("status.count", { n: st.hand_number - 1 }); mode = "count"; }
  else if (st.to_move === you()) { status.textContent = t("status.your_turn"); mode = "your-move"; }
  else status.textContent = t("status.to_move", { name: seatName(st.to_move) });
  status.dataset.state = mode;
  status.dataset.version = String(st.version);
  document.title = (mode === "your-move" ? "● " : "") + t("page.title");
  renderSeats();
  renderTable();
  renderPlay();
  renderSide();
  renderLesson();
  renderLeave();
  renderDailyResult();
}

function renderSeats() {
  const box = $("seats-around");
  box.className = `seats-around players-${players()}`;
  box.replaceChildren(...positions().map(({ seat, pos }) => seatBox(seat, pos)));
  $("me-seat").replaceWith(Object.assign(seatBox(viewer(), "me"), { id: "me-seat" }));
}

function seatBox(s, pos) {
  const st = state.shown;
  const seat = state.current.seats[s];
  const toMove = st.to_move === s && st.phase !== "count" && st.status !== "over";
  const badges = [];
  if (isPartner(s)) badges.push(el("span", { class: "badge partner" }, t("seat.partner")));
  if (seat.kind === "bot") badges.push(el("span", { class: "badge bot" }, t("seat.computer")));
  const presence = presenceOf(s);
  if (seat.kind !== "bot" && s !== you()) badges.push(el("span", { class: `badge presence ${presence}` }, t(`seat.presence.${presence}`)));
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
    "data-testid": `seat-${s}`, "data-seat": String(s), "data-presence": presence, "aria-label": label.join(", ") },
  el("div", { class: "seat-head" }, face(seat.name), el("strong", { class: "seat-name", title: seat.name }, seatName(s)), ...badges,
    toMove ? el("span", { class: "turn-dot" }, t("seat.to_move")) : null, toMove ? seatClock(st, s) : null),
  s !== you() ? el("div", { class: "seat-hand" }, backs, el("span", { class: "count" }, tn("seat.holds", held))) : null,
  el("div", { class: "pile", "data-pile": String(s) }, pileStack(pile.length, st.sweeps.filter((x) => x === s).length),
    el("span", {}, tn("seat.pile_cards", pile.length)), el("span", { class: "spades" }, `${spades} ♠`)),
  el("div", { class: "last-move" }, last ? playedText(last, you(), seatName) : "\u00a0"));
  return box;
}

/** A seat's pile as it lies: thicker as it grows (a layer for every four cards, up to eight), with a
 * card turned crosswise in it for each sweep, as players mark sweeps at a real table. */
function pileStack(cards, sweeps) {
  const stack = el("span", { class: "pile-stack" + (cards ? "" : " empty"), "aria-hidden": "true" });
  stack.style.setProperty("--depth", String(pileDepth(cards)));
  for (let i = 0; i < sweeps; i++) stack.append(el("span", { class: "sweep-mark" }));
  return stack;
}

/** How many layers a pile of n cards shows. */
export const pileDepth = (n) => (n ? Math.min(8, 1 + Math.floor(n / 4)) : 0);

const FACES = 8;

/** A face for a name: its initial on a colour of its own (the same name, the same face). */
export function faceOf(name) {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)) % 9973;
  return { initial: [...name][0]?.toUpperCase() || "?", colour: hash % FACES };
}

function face(name) {
  const { initial, colour } = faceOf(name);
  return el("span", { class: `face face-${colour}`, "aria-hidden": "true" }, initial);
}

/** A seat's presence: `joined` (a computer player), `waiting` (its invitation not yet opened),
 * `online` or `away` (a page of it open or not), from the latest payload. */
export function presenceOf(s) {
  return state.current.presence?.[s]?.presence || (state.current.seats[s].kind === "bot" ? "joined" : "online");
}

/** What the table waits for: a computer player or a person at the table thinks; a person who has
 * not opened the invitation, or whose page is closed, is said to be so. */
export function waitingText(s) {
  const presence = presenceOf(s);
  if (presence === "waiting") return t("play.wait_join", { name: seatName(s) });
  if (presence === "away") return t("play.wait_away", { name: seatName(s) });
  return t("play.wait", { name: seatName(s) });
}

/** The key a build is picked and explained by: its cards. */
export const buildKey = (b) => "build:" + b.cards.join(" ");

/** "Deal 2 of 6", or "Last deal" once the stock is empty (one deal only when cards are drawn). */
export function dealLabel(st) {
  const deals = st.rules.draw ? 1 : { 2: 6, 3: 4, 4: 3 }[st.rules.players];
  if (st.stock === 0) return t("table.last_deal");
  return t("table.deal_of", { n: st.deal, total: deals });
}

function renderTable() {
  const st = state.shown;
  const { current, selection } = state;
  $("stock").replaceChildren(el("span", { class: "stock-pile", id: "stock-pile", "aria-hidden": "true" }), tn("table.stock", st.stock));
  $("deal-info").textContent = st.phase === "count" ? "" : dealLabel(st);
  $("tracker").replaceWith(Object.assign(trackerView(st, sideName), { id: "tracker" }));
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

/** The legal moves of the chosen card that take every table card picked so far. */
export function movesFitting(legal, card, targets) {
  if (!card || !legal) return [];
  return legal.filter((m) => m.card === card && targets.every((x) => m.table.includes(x)));
}

const candidates = () => movesFitting(state.current.legal, state.selection.card, state.selection.targets);

export function renderPlay() {
  const st = state.shown;
  const { current, selection, hint, hintWhy } = state;
  const hand = $("hand");
  const focused = focusedPlay(); // drawn again (the same position resent, a hint): the keys go on where they were
  hand.replaceChildren();
  const spectator = you() === null;
  const myTurn = !spectator && st.to_move === you() && st.status !== "over" && st.phase !== "count";
  $("me").classList.toggle("my-turn", myTurn);
  $("hint-button").hidden = !myTurn || current.help === false; // a contest between people: no engine help
  $("help-off").hidden = spectator || current.help !== false;
  const helpOff = current.daily ? "daily.help_off" : current.tournament ? "tournaments.help_off" : "play.help_off";
  $("help-off").textContent = t(helpOff); // the daily deal, a tournament: everyone on their own
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
  refocus(focused);
  let prompt = "";
  if (myTurn && !selection.card) prompt = t("play.choose_card");
  else if (myTurn) prompt = candidates().length > 1 ? t("play.choose_move") : t("play.confirm_move");
  else if (st.status !== "over" && st.phase !== "count") prompt = waitingText(st.to_move);
  $("prompt").textContent = prompt;
  $("hint-note").hidden = !hint;
  $("hint-text").textContent = hint ? playedHint(hint) : "";
  $("hint-why").textContent = hint && hintWhy ? messageText(hintWhy) : "";
  $("hint-why").hidden = !(hint && hintWhy);
}

/** The hand card or move choice that has the keyboard's focus, as a selector to find it again by. */
function focusedPlay() {
  const at = document.activeElement;
  if (!(at instanceof HTMLElement)) return null;
  if (at.dataset.testid === "move-choice") return `#choices [data-move="${CSS.escape(at.dataset.move)}"]`;
  if (at.classList.contains("card-btn") && at.closest("#hand")) return `#hand [data-card="${CSS.escape(at.dataset.card)}"]`;
  return null;
}

function refocus(selector) {
  if (selector) document.querySelector(selector)?.focus({ preventScroll: true });
}

/** Is this hand card the one the hint, or the lesson on the table, points at? */
function pointedAt(name) {
  return [state.hint, state.lessonShown?.move].some((line) => line && parseLine(line)?.card === name);
}

function playedHint(line) {
  const m = (state.current.legal || []).find((x) => x.move === line);
  return m ? moveText(m, state.current.table, you(), seatName) : playedText(line, you(), seatName);
}

function whyNot(text) {
  const box = $("why-not");
  box.textContent = text;
  box.hidden = !text;
}

/** Put the chosen card back (Escape, or the Clear button). */
export function clearSelection() {
  state.selection = noSelection();
  whyNot("");
  renderTable();
  renderPlay();
}

function pickCard(name) {
  const current = state.current;
  $("message").textContent = "";
  whyNot("");
  if (current.to_move !== you() || current.phase === "count") { whyNot(t("why.not_your_turn")); return; }
  if (!current.legal.some((m) => m.card === name)) {
    const reason = current.why_not?.cards?.[name];
    whyNot(reason ? t("why.card", { card: cardText(name), reason: reasonText(reason) }) : t("why.no_move", { card: cardText(name) }));
    return;
  }
  state.selection = { card: state.selection.card === name ? null : name, targets: [] };
  state.hint = null;
  renderTable();
  renderPlay();
}

function pickTarget(cards, key) {
  const { current, selection } = state;
  $("message").textContent = "";
  whyNot("");
  if (current.to_move !== you()) { whyNot(t("why.not_your_turn")); return; }
  if (!selection.card) { whyNot(t("why.card_first")); return; }
  const all = cards.every((c) => selection.targets.includes(c));
  const next = all ? selection.targets.filter((c) => !cards.includes(c)) : [...new Set([...selection.targets, ...cards])];
  if (!movesFitting(current.legal, selection.card, next).length) {
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
  const ply = state.current.version;
  if (send({ type: "move", move, version: ply })) {
    $("choices").querySelectorAll("button").forEach((b) => { b.disabled = true; });
    closeCoach();
    if (learning().coach) state.coachFor = ply; // asked once the state shows the move made
  }
}
