// The count after each hand, as a scene in the felt's place: the last cards on the table going to
// the last capturer, then each item turned up with its card (most cards and spades with what each
// side took, each casino and ace, each sweep), each point popping onto its side's tally, the
// 11-point check, and each side's game score moving along a bar to the target. A key or a tap
// shows it all at once, and so does a page with motion off. Below it, the button to the next hand
// with who is still to press it. The plan (steps, times, bars) is countplan.js's.

import { $, el, img } from "./dom.js";
import { t, tn, cardText, cardsText } from "./i18n.js";
import { motionOn, MAX_MS } from "./motion.js";
import { state } from "./state.js";
import { you, viewer, sideOf, seatName, sideName } from "./seats.js";
import { send } from "./connection.js";
import { render, faceOf } from "./table.js";
import { countSteps, timeline, scoreBars, targetOf, skipsCount, summaryText } from "./countplan.js";
import { overText } from "./daily.js";
import { overStatus } from "./result.js";

/** The hand whose count is on screen: the last one while the game counts, or the game's last
 * until this page has closed it; null when none is. */
export function countToShow(st, dismissed) {
  if (!st.finished || !st.finished.length) return null;
  const last = st.finished[st.finished.length - 1];
  if (st.phase === "count") return last;
  if (st.status === "over" && dismissed < last.hand) return last;
  return null;
}

/** An item of the count in words: "Most cards", "Ace A♠". */
export function itemLabel(item) {
  const base = t(`count.item.${item.item}`);
  return item.card ? `${base} ${cardText(item.card)}` : base;
}

let scene = null; // the scene drawn: { hand, timers (its steps to come), done }
let played = null; // the count ("game/hand") this page has turned up once: drawn again, it is whole
let summaryTimer = null;

export function showCount(hand) {
  $("count").hidden = false;
  const key = `${state.game?.id}/${hand.hand}`;
  if (state.countShownFor !== key) {
    state.countShownFor = key;
    drawScene(hand, motionOn() && played !== key);
    played = key;
    inView($("count"));
  }
  renderNext(hand);
}

/** A page scrolled down to its hand (a phone) sees the count whole: from the top of the page when
 * it fits there, the seats above it too. */
function inView(box) {
  if (box.getBoundingClientRect().bottom + window.scrollY <= window.innerHeight) window.scrollTo(0, 0);
  else box.scrollIntoView({ block: "nearest" });
}

/** Put the count away (the next hand is on the table, or another game is opened): its turning up,
 * its spoken summary and its "next hand starts in" tick stopped, so none of them runs on without it. */
export function hideCount() {
  stop();
  clearTimeout(summaryTimer);
  clearInterval(state.countTimer);
  $("count").hidden = true;
}

/** A key pressed on the table: Space, Enter or Escape shows the whole count while it is being
 * turned up, unless the focus is on something the key belongs to. True when the key was taken. */
export function countKey(event) {
  if (!scene || scene.done || $("count").hidden) return false;
  const on = event.target instanceof Element ? event.target : null;
  const focus = on?.closest("input, select, textarea, [contenteditable]") ? "field"
    : on?.closest("button, a[href], summary, [tabindex]") ? "control" : "none";
  if (!skipsCount(event.key, focus)) return false;
  event.preventDefault();
  finish();
  return true;
}

function drawScene(hand, play) {
  stop();
  clearTimeout(summaryTimer);
  const box = $("count");
  const steps = countSteps(hand);
  $("count-title").textContent = t("count.title", { n: hand.hand });
  const nodes = steps.map((step) => (step.kind === "residue" ? residueView(step) : itemView(step)));
  const residue = steps[0]?.kind === "residue" ? nodes[0] : null;
  $("count-residue").replaceChildren(...(residue ? [residue] : []));
  $("count-residue").hidden = !residue;
  $("count-items").replaceChildren(...nodes.filter((n) => n !== residue));
  box.classList.toggle("many", nodes.length > 12);
  const ok = hand.checksum === hand.expected;
  const check = $("count-check");
  check.className = "count-check " + (ok ? "ok" : "off");
  check.replaceChildren(el("span", { class: "count-mark", "aria-hidden": "true" }, ok ? "✓" : "✗"), " ",
    t(ok ? "count.check_ok" : "count.check_off", { n: hand.checksum, expected: hand.expected }));
  const target = targetOf(state.current.rules, state.config) ?? Math.max(1, ...hand.scores);
  $("count-sides").replaceChildren(...sidesView(hand, target));
  // said once, a moment after the scene appears, so that the live region is heard
  const summary = $("count-summary");
  summary.textContent = "";
  summaryTimer = setTimeout(() => { summary.textContent = summaryText(hand, sideName); }, 150);
  box.onclick = (event) => { if (!scene.done && !event.target.closest("button, a")) finish(); };
  scene = { hand, timers: [], done: false };
  if (!play) { finish(); return; }
  box.dataset.state = "playing";
  for (const node of [...nodes, check, ...box.querySelectorAll(".count-score")]) node.classList.add("pending");
  for (const tally of box.querySelectorAll("[data-tally]")) tally.textContent = "+0";
  for (const bar of box.querySelectorAll(".count-bar-new")) bar.style.width = bar.dataset.from;
  box.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 250 });
  const times = timeline(steps);
  const now = scene;
  const at = (ms, fn) => now.timers.push(setTimeout(() => { if (scene === now && !now.done) fn(); }, ms));
  steps.forEach((step, i) => at(times.at[i], () => turnUp(step, nodes[i])));
  at(times.check, () => {
    check.classList.remove("pending");
    for (const score of box.querySelectorAll(".count-score")) score.classList.remove("pending");
    for (const bar of box.querySelectorAll(".count-bar-new")) {
      bar.animate([{ width: bar.dataset.from }, { width: bar.dataset.to }], { duration: MAX_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
      bar.style.width = bar.dataset.to;
    }
  });
  at(times.end, finish);
}

/** One step turned up: the tile flips over; its points fly to the side's tally, which pops. */
function turnUp(step, node) {
  node.classList.remove("pending");
  node.animate([{ opacity: 0, transform: "rotateY(80deg) scale(.9)" }, { opacity: 1, transform: "none" }],
    { duration: 300, easing: "cubic-bezier(.2,.7,.3,1)" });
  if (step.kind !== "item" || step.side < 0 || !step.points) return;
  const tally = $("count").querySelector(`[data-tally="${step.side}"]`);
  const from = node.querySelector(".count-points").getBoundingClientRect();
  const to = tally.getBoundingClientRect();
  const chip = el("span", { class: "count-fly", "aria-hidden": "true" }, `+${step.points}`);
  Object.assign(chip.style, { left: `${from.left}px`, top: `${from.top}px` });
  $("count").append(chip);
  const now = scene;
  const fly = chip.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${to.left - from.left}px, ${to.top - from.top}px) scale(.8)`, opacity: 0.6 }],
    { duration: 380, delay: 120, easing: "cubic-bezier(.4,0,.6,1)", fill: "both" });
  fly.finished.then(() => {
    chip.remove();
    if (scene !== now || now.done) return;
    tally.textContent = `+${step.tally[step.side]}`;
    tally.animate([{ transform: "scale(1)" }, { transform: "scale(1.5)" }, { transform: "scale(1)" }], { duration: 280 });
  }, () => chip.remove());
}

/** The scene at its end: every step up, the tallies and bars at the hand's points and new scores. */
function finish() {
  if (!scene) return;
  stop();
  const box = $("count");
  box.dataset.state = "done";
  for (const node of box.querySelectorAll(".pending")) node.classList.remove("pending");
  scene.hand.points.forEach((n, side) => { box.querySelector(`[data-tally="${side}"]`).textContent = `+${n}`; });
  for (const bar of box.querySelectorAll(".count-bar-new")) bar.style.width = bar.dataset.to;
}

function stop() {
  if (!scene) return;
  scene.done = true;
  scene.timers.forEach(clearTimeout);
  for (const a of $("count").getAnimations({ subtree: true })) a.finish();
  for (const chip of $("count").querySelectorAll(".count-fly")) chip.remove();
}

function residueView(step) {
  const n = step.cards.length;
  const fan = el("span", { class: "count-fan", "aria-hidden": "true" },
    ...step.cards.map((c) => el("span", { class: "count-fan-card", "data-card": c }, img(c, ""))));
  const text = step.seat === null ? tn("count.residue_nobody", n) : tn("count.residue", n, { name: seatName(step.seat) });
  return el("div", { class: "count-step", "data-step": "residue", "data-seat": String(step.seat ?? -1) },
    fan, el("p", {}, text, el("span", { class: "sr-only" }, ` (${cardsText(step.cards)})`)));
}

const WIDE = ["cards", "spades"];

function itemView(step) {
  const won = step.side >= 0;
  const ours = won && step.side === sideOf(viewer());
  const who = step.item === "sweep" ? seatName(step.seat)
    : won ? sideName(step.side) : t(WIDE.includes(step.item) ? "count.tie" : "count.nobody");
  let face;
  if (step.card) face = img(step.card, "");
  else if (step.counts) face = splitView(step);
  else face = seatFace(step.seat);
  return el("li", {
    class: "count-item" + (WIDE.includes(step.item) ? " wide" : "") + (won ? "" : " unscored") + (ours ? " ours" : ""),
    "data-item": step.item, "data-side": String(step.side), "data-points": String(step.points),
    ...(step.card ? { "data-card": step.card } : {}),
  },
  el("span", { class: "count-face" }, face),
  // the card is in the picture; its name is said, not written twice
  el("span", { class: "count-what" }, t(`count.item.${step.item}`), step.card ? el("span", { class: "sr-only" }, ` ${cardText(step.card)}`) : null),
  el("span", { class: "count-who", title: who }, who),
  el("span", { class: "count-points" }, step.points ? `+${step.points}` : "0"));
}

/** What each side took, for most cards and most spades: a bar each, the most the longest. */
function splitView(step) {
  const most = Math.max(1, ...step.counts);
  return el("span", { class: "count-split" }, ...step.counts.map((n, side) => {
    const bar = el("span", { class: "count-split-bar" });
    bar.style.width = `${Math.round((100 * n) / most)}%`;
    return el("span", { class: "count-split-side" + (side === step.side ? " top" : "") },
      el("span", { class: "count-split-name" }, sideName(side)), el("span", { class: "count-split-track" }, bar),
      el("span", { class: "count-split-n" }, String(n)));
  }));
}

/** A sweep's picture: the face of the seat that made it on an empty felt. */
function seatFace(seat) {
  const seatInfo = state.current.seats[seat];
  const { initial, colour } = faceOf(seatInfo ? seatInfo.name : "?");
  return el("span", { class: "count-sweep", "aria-hidden": "true" }, el("span", { class: `face face-${colour}` }, initial));
}

/** Each side's tally of the hand and its game score on a bar from 0 to the target. */
function sidesView(hand, target) {
  const head = el("div", { class: "count-sides-head", "aria-hidden": "true" },
    el("span", {}), el("span", {}, t("count.hand_points")), el("span", { class: "count-sides-score" }, t("count.game_score")));
  const rows = scoreBars(hand, target).map((b) => {
    const bar = el("span", { class: "count-bar-new", "data-from": `${100 * b.fromShare}%`, "data-to": `${100 * b.toShare}%` });
    bar.style.width = bar.dataset.to;
    const old = el("span", { class: "count-bar-old" });
    old.style.width = `${100 * b.fromShare}%`;
    return el("div", { class: "count-side" + (b.side === sideOf(viewer()) ? " ours" : "") + (b.reached ? " reached" : ""),
      "data-side": String(b.side), "data-from": String(b.from), "data-to": String(b.to) },
    el("span", { class: "count-side-name" }, sideName(b.side)),
    el("span", { class: "count-tally", "data-tally": String(b.side) }, `+${hand.points[b.side]}`),
    el("span", { class: "count-bar", "aria-hidden": "true" }, bar, old),
    el("span", { class: "count-score" }, t("count.score_line", { from: b.from, to: b.to, target: b.target })));
  });
  return [head, ...rows];
}

function renderNext(hand) {
  const current = state.current;
  const button = $("next-hand");
  const waiting = $("count-waiting");
  clearInterval(state.countTimer);
  if (current.status === "over") {
    button.hidden = false;
    button.disabled = false;
    button.textContent = t("count.see_result");
    button.onclick = () => { state.countDismissed = hand.hand; hideCount(); render(); };
    waiting.textContent = (current.daily && overText(current, viewer())) || overStatus(current, sideName);
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
  if (current.next_deadline) state.countTimer = setInterval(tick, 1000);
}
