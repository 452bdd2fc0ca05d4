// Teaching: the lessons shown at the table when one is due, the coach's note after a costly move,
// every lesson to read at any time, and the review of a game over. The server's teaching library
// says everything as structured messages (learn.CODE and params); the page words them in its
// language. Which games teach is this browser's choice, per game. Each costly move of the review
// opens the replay on the table just before it.

import { $, el } from "./dom.js";
import { t, tn, has, messageText, numberText } from "./i18n.js";
import { moveText, parseLine } from "./words.js";
import { state } from "./state.js";
import { you, seatName, sideName } from "./seats.js";
import { learnSettings, setLearn, seenLessons, markSeen } from "./storage.js";
import { send } from "./connection.js";
import { renderPlay } from "./table.js";
import { openReplayAt } from "./replay.js";
import { sealed } from "./result.js";
import { api } from "./transport.js";

const OFF = { lessons: false, coach: false };

/** This table's teaching settings: off for spectators and before the first state. */
export const learning = () => (state.game && state.game.token && state.current && you() !== null ? learnSettings(state.game.id) : OFF);

// ------------------------------------------------------------------ lessons at the table
/** At this seat's turn, with lessons on: ask which lessons are due (once per position). */
export function askLessons() {
  const current = state.current;
  const mine = current.to_move === you() && current.phase === "play" && current.status !== "over";
  if (!learning().lessons || !mine || state.askedLessons === current.version) return;
  state.askedLessons = current.version;
  send({ type: "lessons", seen: seenLessons() });
}

export function showLesson(note) {
  state.lessonShown = note;
  markSeen(note.id);
  renderLesson();
  renderPlay();
}

export function renderLesson() {
  const note = state.lessonShown;
  $("lesson").hidden = !note;
  if (!note) return;
  $("lesson-title").textContent = messageText(note.title);
  $("lesson-text").textContent = messageText(note.text);
  $("lesson-example").textContent = messageText(note.example);
}

export function closeLesson() {
  state.lessonShown = null;
  renderLesson();
  if (state.current) renderPlay();
}

/** The menu's "Lessons during play" for this game: on asks at once, off closes the one shown. */
export function setLessonsOn(on) {
  setLearn(state.game.id, { lessons: on });
  state.askedLessons = null;
  if (on) askLessons(); else closeLesson();
}

// ------------------------------------------------------------------ the coach
/** Once the state shows this seat's move made, ask the coach about it. */
export function askCoach() {
  if (state.coachFor === null || state.current.version <= state.coachFor) return;
  if (learning().coach) send({ type: "coach", ply: state.coachFor });
  state.coachFor = null;
}

/** A move the coach names, in the page's own words, on the table it was made on. */
const notedMove = (line, table) => { const m = parseLine(line); return m ? moveText(m, table, you(), seatName) : line; };

/** The coach's note: the better move, about how many points more (not for a careless trail the
 * tutorial flags, whose template says no points), and why. */
export function noteText(note) {
  return t(note.template || "learn.coach.note", { move: notedMove(note.best, note.table), loss: numberText(note.loss), why: messageText(note.why) });
}

export function showCoach(note) {
  state.coachNote = note;
  $("coach-text").textContent = noteText(note);
  $("coach").hidden = false;
  clearTimeout(state.coachTimer);
  state.coachTimer = setTimeout(closeCoach, 20000);
}

export function closeCoach() {
  clearTimeout(state.coachTimer);
  state.coachNote = null;
  $("coach").hidden = true;
}

/** The menu's "Coach after my moves" for this game. */
export function setCoachOn(on) {
  setLearn(state.game.id, { coach: on });
  if (!on) closeCoach();
}

// ------------------------------------------------------------------ every lesson, and the review
function openScene(id) {
  const scene = $(id);
  scene.hidden = false;
  scene.querySelector(".scene-close").focus({ preventScroll: true });
  scene.querySelector(".count-card").scrollTop = 0;
}

export function closeScenes() {
  for (const id of ["lessons", "review"]) $(id).hidden = true;
  state.lessonsShown = null;
  state.reviewShown = null;
}

/** Every lesson, to read at any time: worded for this game's rules at a table, else the first game's. */
export async function openLessons() {
  $("settings-menu").open = false;
  const query = state.game && !$("table-view").hidden ? `?game=${encodeURIComponent(state.game.id)}` : "";
  const r = await api(`/api/lessons${query}`);
  const body = await r.json();
  if (!r.ok) { $("message").textContent = body.error; return; }
  state.lessonsShown = body.lessons;
  renderLessons();
  openScene("lessons");
}

export function renderLessons() {
  const seen = new Set(seenLessons());
  $("lessons-list").replaceChildren(...state.lessonsShown.map((l) => el("li", { "data-lesson": l.id, class: seen.has(l.id) ? "seen" : "" },
    el("h3", {}, messageText(l.title)), el("p", {}, messageText(l.text)))));
}

export async function openReview() {
  const game = state.game;
  state.reviewShown = null;
  $("review-body").replaceChildren(el("p", { class: "about" }, t("teach.reviewing")));
  openScene("review");
  const r = await api(`/api/games/${game.id}/review`, { headers: { "x-cassino-token": game.token } });
  const body = await r.json();
  if ($("review").hidden) return; // closed while it was worked out
  if (!r.ok) { $("review-body").replaceChildren(el("p", { class: "error" }, body.error)); return; }
  state.reviewShown = body;
  state.reviewNotes = { game: game.id, costly: body.costly };
  renderReview();
}

/** A point of the game as the review names it (its own word where it has one, else the count's). */
export const itemName = (item) => t(has(`teach.item.${item}`) ? `teach.item.${item}` : `count.item.${item}`);

/** A costly move of the review as a button that opens the replay on the table just before it. */
function reviewMove(c) {
  const played = t("teach.review_played", { move: notedMove(c.move, c.table) });
  if (state.current && sealed(state.current)) return el("strong", {}, played); // no replay while the deck is sealed
  return el("button", { type: "button", class: "review-move", "data-testid": "review-move", "data-ply": String(c.ply),
    onclick: () => { closeScenes(); openReplayAt(c.ply); } },
  el("strong", {}, played), " ", el("span", { class: "review-see" }, t("replay.see")));
}

export function renderReview() {
  const r = state.reviewShown;
  const total = (key) => r.points.reduce((sum, p) => sum + p[key], 0);
  const points = el("table", { class: "totals review-points" },
    el("tr", {}, el("th", {}, t("teach.review_item")), el("th", {}, sideName(r.side)), el("th", {}, t("teach.review_them"))),
    ...r.points.map((p) => el("tr", { "data-item": p.item }, el("td", {}, itemName(p.item)), el("td", { class: p.yours > p.theirs ? "ours" : "" }, numberText(p.yours)), el("td", {}, numberText(p.theirs)))),
    el("tr", { class: "total" }, el("td", {}, t("side.total")), el("td", {}, numberText(total("yours"))), el("td", {}, numberText(total("theirs")))));
  const costly = r.costly.length
    ? el("ol", { class: "review-costly" }, ...r.costly.map((c) => el("li", { "data-ply": String(c.ply) }, reviewMove(c), " ", noteText(c))))
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
