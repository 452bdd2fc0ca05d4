// What the page holds between events, in one object every module reads and writes: all of it in
// one place, where opening a table resets it at once (lobby.js's openGame).

export const state = {
  config: null, // GET /api/config: presets, options, seats, players, languages, the tutorial
  lobbyChoice: { preset: "classic", players: 2 }, // the lobby's preset and number of players
  recentGames: [], // GET /api/games: the games to watch, drawn again in another language

  game: null, // { id, token } of the table open
  socket: null,
  retry: 500, // ms before the next reconnection (doubles up to 8 s)
  current: null, // the latest state payload
  shown: null, // the payload the table shows now (held back while the count is on screen)
  selection: { card: null, targets: [] }, // the hand card chosen and the table cards picked for it
  hint: null, // the move the hint names
  hintWhy: null, // the coach's reason for the hint

  countDismissed: 0, // the number of the last hand whose count this page has closed
  countShownFor: null, // the hand whose count is drawn (its items appear once)
  countTimer: null, // the tick of "next hand starts in"

  replay: null, // the replay on the table: { game, frames, at (the frame shown), opener (focused before) }
  record: null, // { game, frames }: the last game over's positions, fetched once
  reviewNotes: null, // { game, costly }: the review's costly moves, noted again in the replay

  dailyResult: null, // { game, board, done }: a daily attempt's leaderboard, asked once when its hand is over

  lessonShown: null, // the lesson note on the table now
  askedLessons: null, // the version lessons were last asked for
  coachFor: null, // the ply of this seat's move whose note is to be asked for
  coachNote: null, // the note in the bubble
  coachTimer: null,
  reviewShown: null, // the review on screen
  lessonsShown: null, // the list of every lesson on screen
};

/** No hand card chosen, no table card picked. */
export function noSelection() {
  return { card: null, targets: [] };
}
