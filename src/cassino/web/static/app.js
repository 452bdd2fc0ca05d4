// The Casino page, loaded by index.html: it starts the page and wires its controls to the modules
// that do the work (lobby.js, table.js, connection.js, learning.js, count.js, fairness.js, ...).
// The page never decides what is legal: it shows the legal moves the server sent for this seat,
// and the engine's reasons for what cannot be played. Every word comes from the catalogues.

import { $, el } from "./dom.js";
import { t, loadLanguage, preferredLanguage, setLanguages, languages, translateStatic } from "./i18n.js";
import { motionOn } from "./motion.js";
import { state } from "./state.js";
import { forgetOldDeals, soundOn, setSound, setLearn } from "./storage.js";
import { startAccount, renderAccount, refreshRatings } from "./account.js";
import { startSeeks, stopSeeks, renderSeeks, renderSeekForm, wireSeeks } from "./seeks.js";
import { loadConfig, showLobby, renderLobby, renderMyGames, renderRecent, learnToPlay, claim, openGame, renderInvites } from "./lobby.js";
import { sayAgain } from "./cues.js";
import { closeSocket, send } from "./connection.js";
import { render, clearSelection } from "./table.js";
import { renderSide } from "./side.js";
import { startChat, renderChat } from "./chat.js";
import { countToShow, showCount, countKey } from "./count.js";
import { startReplay, showFrame, step, closeReplay, replayKey, saveRecord } from "./replay.js";
import { offline, keepSite, warmEngine, watchEngine } from "./transport.js";
import { profileNameOf, showProfile, renderProfile, showLeaderboard, renderLeaderboard, startProfiles } from "./profile.js";
import { dailyDealOf, showDailyBoard, renderDailyBoard, loadDaily, renderDaily, renderDailyResult, wireDaily } from "./daily.js";
import { wakeAudio } from "./sounds.js";
import { wireLeave } from "./leave.js";
import {
  tournamentIdOf, showTournament, stopTournament, renderTournament, startTournaments, stopTournaments, renderTournamentsPanel,
  wireTournaments,
} from "./tournaments.js";
import {
  renderLesson, closeLesson, closeCoach, noteText, closeScenes, openLessons, renderLessons, openReview, renderReview,
  setLessonsOn, setCoachOn,
} from "./learning.js";

/** Open what the address names: an invitation or a table (its hash, wherever the path), else a
 * player's profile (/@/NAME), the leaderboards (/leaderboard), a daily deal's (/daily/ID), a
 * tournament (/tournament/ID) or the lobby. A table's link with
 * `replay` opens the finished game's replay at once (a profile's games link so). `moved`: the
 * hash change that called it, if one did. */
function route(moved = null) {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get("game");
  const player = profileNameOf(location.pathname);
  const deal = dailyDealOf(location.pathname);
  const tournament = tournamentIdOf(location.pathname);
  closeSocket();
  // the lobby's socket is the lobby's: leaving it (for a table, a profile, the leaderboards) cancels a Play now wait
  if (id || player || deal || tournament || location.pathname === "/leaderboard") { stopSeeks(); stopTournaments(); }
  if (id || !tournament) stopTournament();
  if (id && params.get("invite")) claim(id, params.get("invite"));
  else if (id) openGame(id, params.get("token"), { replay: params.has("replay") });
  else if (player) showProfile(player);
  else if (location.pathname === "/leaderboard") showLeaderboard();
  else if (deal) showDailyBoard(deal);
  else if (tournament) showTournament(tournament);
  else {
    showLobby();
    if (offline) return; // the page that plays offline has no people, daily deal or tournaments
    startSeeks();
    loadDaily();
    startTournaments();
    if (moved) refreshRatings(); // back in the lobby (a hash change): a rated game may have ended since
  }
}

/** The page that plays offline: keep the site for use without a network, start the engine at
 * once, and say how it is doing (in the lobby, and in the connection line). */
function startOffline() {
  let kept = false;
  watchEngine((engine) => {
    showEngine(engine);
    // kept once the engine has started: the page's own loads are then in the browser's cache,
    // and the service worker's copy of each is a check with the server, not a second download
    if (engine.state !== "ready" || kept) return;
    kept = true;
    keepSite((apply) => {
      $("offline-update").hidden = false;
      $("offline-reload").onclick = apply;
    });
  });
  warmEngine();
}

function showEngine(engine = state.engine) {
  state.engine = engine;
  if (!engine) return;
  const line = engine.state === "ready" ? t("offline.ready", { seconds: engine.seconds.toFixed(1) })
    : engine.state === "failed" ? t("offline.failed", { error: engine.error }) : t("offline.starting");
  $("offline-engine").textContent = line;
  $("offline-engine").dataset.state = engine.state;
}

/** Another language was chosen: draw everything on screen again in it. */
function rerender() {
  translateStatic();
  if (!$("lobby").hidden && state.config) { renderLobby(); renderMyGames(); renderRecent(); renderDaily(); }
  if (offline) showEngine();
  renderAccount();
  if (!$("profile-view").hidden) renderProfile();
  if (!$("leaderboard-view").hidden) renderLeaderboard();
  if (!$("daily-view").hidden) renderDailyBoard();
  renderSeekForm();
  renderSeeks();
  renderTournamentsPanel();
  if (!$("tournament-view").hidden) renderTournament();
  if (!$("table-view").hidden && state.current) {
    render();
    renderInvites();
    state.countShownFor = null;
    const hand = countToShow(state.current, state.countDismissed);
    if (hand) showCount(hand);
    if (state.replay) showFrame();
    renderLesson();
    sayAgain();
    if (state.coachNote) $("coach-text").textContent = noteText(state.coachNote);
    if (state.reviewShown) renderReview();
    renderDailyResult();
    renderChat();
    if (offline) showEngine();
    const conn = $("conn").dataset.state;
    $("conn").textContent = t(`conn.${conn === "live" ? (offline ? "here" : "live") : conn === "connecting" ? "connecting" : "reconnecting"}`);
  }
  if (!$("problem").hidden) route();
  if (state.lessonsShown) renderLessons();
}

function keys(event) {
  if (event.key === "Escape" && (!$("lessons").hidden || !$("review").hidden)) { closeScenes(); return; }
  if (event.target.closest("input, select, textarea") || $("table-view").hidden) return;
  if (replayKey(event)) return;
  if (countKey(event)) return; // a key shows the whole count while it is being turned up
  if (event.key === "Escape") clearSelection();
  else if (/^[1-9]$/.test(event.key)) digit(Number(event.key), event);
  else if (ARROWS[event.key] && moveChoices().length) { stepChoice(ARROWS[event.key]); event.preventDefault(); }
}

const ARROWS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
const moveChoices = () => [...document.querySelectorAll("#choices [data-testid=move-choice]")];

/** A move in three keys: a digit picks the card (its first move is then ready for Enter), a second
 * digit (or an arrow) the move, Enter plays it; Escape goes back to the cards. */
function digit(n, event) {
  const choices = moveChoices();
  if (state.selection.card && choices.length) {
    choices[n - 1]?.focus();
  } else {
    document.querySelector(`#hand [data-key="${n}"]`)?.click();
    moveChoices()[0]?.focus();
  }
  event.preventDefault();
}

function stepChoice(by) {
  const choices = moveChoices();
  const at = choices.indexOf(document.activeElement);
  choices[(at + by + choices.length) % choices.length]?.focus();
}

/** The language menu, from the languages the server lists (each named in itself). */
function languageMenu() {
  const select = $("language");
  select.replaceChildren(...languages().map(({ code, name }) => el("option", { value: code, lang: code }, name)));
  select.value = document.documentElement.lang;
  select.addEventListener("change", async () => { await loadLanguage(select.value); rerender(); });
}

async function start() {
  forgetOldDeals();
  setLanguages((await loadConfig()).languages); // before any word: the languages come with the config
  await loadLanguage(preferredLanguage());
  translateStatic();
  languageMenu();
  const motion = $("set-motion");
  motion.checked = motionOn();
  motion.addEventListener("change", () => localStorage.setItem("cassino.motion", motion.checked ? "on" : "off"));
  const sound = $("set-sound");
  sound.checked = soundOn();
  sound.addEventListener("change", () => { setSound(sound.checked); wakeAudio(); });
  for (const gesture of ["pointerdown", "keydown"]) document.addEventListener(gesture, wakeAudio, { capture: true });
  $("hint-button").addEventListener("click", () => send({ type: "hint" }));
  $("clear-button").addEventListener("click", clearSelection);
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("replay-button").addEventListener("click", startReplay);
  $("record-button").addEventListener("click", saveRecord);
  $("review-button").addEventListener("click", openReview);
  $("daily-result-review").addEventListener("click", openReview);
  $("learn-to-play").addEventListener("click", learnToPlay);
  $("lobby-lessons").addEventListener("click", openLessons);
  $("lessons-button").addEventListener("click", openLessons);
  for (const b of document.querySelectorAll(".scene-close")) b.addEventListener("click", closeScenes);
  $("lesson-ok").addEventListener("click", closeLesson);
  $("coach-close").addEventListener("click", closeCoach);
  $("set-lessons").addEventListener("change", () => setLessonsOn($("set-lessons").checked));
  $("set-coach").addEventListener("change", () => setCoachOn($("set-coach").checked));
  $("set-unseen").addEventListener("change", () => { setLearn(state.game.id, { unseen: $("set-unseen").checked }); renderSide(); });
  $("replay-first").addEventListener("click", () => step(-1e9));
  $("replay-prev").addEventListener("click", () => step(-1));
  $("replay-next").addEventListener("click", () => step(1));
  $("replay-last").addEventListener("click", () => step(1e9));
  $("replay-close").addEventListener("click", closeReplay);
  startChat();
  document.addEventListener("keydown", keys);
  startProfiles();
  window.addEventListener("hashchange", route);
  wireSeeks(); // before the account is known: the panel follows who signs in
  wireDaily();
  wireTournaments();
  wireLeave();
  if (offline) startOffline();
  else await startAccount(); // before any write: a signed-in page sends its CSRF token with each
  route();
}

start();
