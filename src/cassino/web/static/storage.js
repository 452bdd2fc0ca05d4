// What this browser keeps (localStorage, read when asked, never at import): the seats it holds,
// the deals it saw committed and contributed to, the invitations of the games it made, which
// games teach, and its attempts at the daily deals.

/** A stored JSON value, or the fallback when it is missing or unreadable. */
function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

// ------------------------------------------------------------------ seats held
/** The seats this browser holds: game id -> { token, seat, preset, players, at }. */
export function heldSeats() {
  return read("cassino.seats", {});
}

/** Remember (or refresh) the seat held at a game, with when it was last seen. */
export function holdSeat(id, entry) {
  const seats = heldSeats();
  seats[id] = { ...(seats[id] || {}), ...entry, at: Date.now() };
  localStorage.setItem("cassino.seats", JSON.stringify(seats));
}

/** The answer to the game's creation (its seats' links and the spectators' one), for its creator. */
export const invitesOf = (id) => read(`cassino.invites.${id}`, null);
export const keepInvites = (id, made) => localStorage.setItem(`cassino.invites.${id}`, JSON.stringify(made));

// ------------------------------------------------------------------ deals
// For each game and hand, the commitment this page saw published before the hand was dealt and,
// where this page contributed to it, its contribution and seat (cassino.deal.GAME.HAND).
export const DEAL_KEPT_FOR = 90 * 24 * 3600 * 1000;
export const dealKey = (id, hand) => `cassino.deal.${id}.${hand}`;

export const dealRecord = (id, hand) => read(dealKey(id, hand), null);

export function keepDeal(id, hand, entry) {
  localStorage.setItem(dealKey(id, hand), JSON.stringify({ ...entry, at: Date.now() }));
}

/** Forget the deals of games last seen long ago (the games themselves are gone from the server). */
export function forgetOldDeals(now = Date.now()) {
  const before = now - DEAL_KEPT_FOR;
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("cassino.deal.")) continue;
    let at = 0;
    try { at = JSON.parse(localStorage.getItem(key)).at || 0; } catch { /* unreadable: forget it */ }
    if (at < before) localStorage.removeItem(key);
  }
}

// ------------------------------------------------------------------ the daily deal
// This browser's attempts, by deal id: { game, token, commitment, at }. A guest's attempt is known
// only here (its game's seat token names it to the leaderboard); an account's is kept here too, so
// that an unfinished one can be taken up again. Forgotten after DEAL_KEPT_FOR, like the deals.
const DAILY = "cassino.daily";

/** The attempts this browser made, by deal id (those last touched long ago forgotten). */
export function dailyAttempts(now = Date.now()) {
  const all = read(DAILY, {});
  if (!all || typeof all !== "object" || Array.isArray(all)) return {};
  return Object.fromEntries(Object.entries(all).filter(([, a]) => a && typeof a.game === "string" && a.at >= now - DEAL_KEPT_FOR));
}

/** Keep an attempt at a deal (its game, seat token and the commitment seen before it was played). */
export function keepDailyAttempt(deal, entry, now = Date.now()) {
  localStorage.setItem(DAILY, JSON.stringify({ ...dailyAttempts(now), [deal]: { ...entry, at: now } }));
}

// ------------------------------------------------------------------ teaching
/** Whether a game shows lessons, the coach and the cards not seen yet: this browser's choice, per
 * game, each off by default. */
export function learnSettings(id) {
  const all = read("cassino.learn", {});
  return { lessons: false, coach: false, unseen: false, ...((all && all[id]) || {}) };
}

export function setLearn(id, entry) {
  let all = read("cassino.learn", {});
  if (!all || typeof all !== "object") all = {};
  all[id] = { ...learnSettings(id), ...entry };
  localStorage.setItem("cassino.learn", JSON.stringify(all));
}

/** The lessons this browser has shown (so that each is due once). */
export const seenLessons = () => read("cassino.lessons.seen", []);

export function markSeen(id) {
  localStorage.setItem("cassino.lessons.seen", JSON.stringify([...new Set([...seenLessons(), id])]));
}

// ------------------------------------------------------------------ settings
export const soundOn = () => localStorage.getItem("cassino.sound") === "on";
export const setSound = (on) => localStorage.setItem("cassino.sound", on ? "on" : "off");

// ------------------------------------------------------------------ chat
// The seats this browser muted at each game (their messages hidden here, nowhere else), with when
// the list was last changed: a game's list is forgotten after DEAL_KEPT_FOR, like its deals.
const MUTED = "cassino.chat.muted";

/** The seats muted at a game. */
export function mutedSeats(id) {
  const entry = read(MUTED, {})?.[id];
  return Array.isArray(entry?.seats) ? entry.seats.filter(Number.isInteger) : [];
}

/** Mute (or show again) a seat at a game; lists of games last changed long ago are forgotten. */
export function setMuted(id, seat, muted, now = Date.now()) {
  let all = read(MUTED, {});
  if (!all || typeof all !== "object" || Array.isArray(all)) all = {};
  const seats = new Set(mutedSeats(id));
  if (muted) seats.add(seat);
  else seats.delete(seat);
  all[id] = { seats: [...seats].sort((a, b) => a - b), at: now };
  for (const [game, entry] of Object.entries(all)) if (!(entry?.at >= now - DEAL_KEPT_FOR)) delete all[game];
  localStorage.setItem(MUTED, JSON.stringify(all));
}

/** Whether the chat panel is unfolded (this browser's choice, open at first). */
export const chatOpen = () => localStorage.getItem("cassino.chat.open") !== "closed";
export const setChatOpen = (open) => localStorage.setItem("cassino.chat.open", open ? "open" : "closed");
