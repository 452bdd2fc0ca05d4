// The page's views (the lobby, a table, a wrong link's explanation, a player's profile, the
// leaderboards, a daily deal's leaderboard, a tournament), one shown at a time.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { state } from "./state.js";
import { learnSettings } from "./storage.js";

const VIEWS = ["lobby", "table-view", "problem", "profile-view", "leaderboard-view", "daily-view", "tournament-view"];

/** Show one view; a seat at a table also gets its teaching settings in the menu. */
export function show(view) {
  const switching = $(view).hidden;
  for (const v of VIEWS) $(v).hidden = v !== view;
  if (switching) window.scrollTo(0, 0); // a new scene opens at its top, not at the last one's scroll
  const game = state.game;
  const seated = view === "table-view" && Boolean(game?.token);
  $("set-lessons-row").hidden = !seated;
  $("set-coach-row").hidden = !seated;
  $("set-unseen-row").hidden = !seated;
  if (seated) {
    $("set-lessons").checked = learnSettings(game.id).lessons;
    $("set-coach").checked = learnSettings(game.id).coach;
    $("set-unseen").checked = learnSettings(game.id).unseen;
  }
}

/** A link that leads nowhere (no such game, a wrong token, an invitation used or wrong), said plainly. */
export function showProblem(kind, id) {
  show("problem");
  $("conn").textContent = "";
  $("turn-banner").textContent = "";
  $("problem-title").textContent = t(`problem.${kind}.title`);
  $("problem-text").textContent = t(`problem.${kind}.text`);
  const watch = $("problem-watch");
  watch.hidden = kind === "no_game";
  watch.href = `/#game=${id}`;
}
