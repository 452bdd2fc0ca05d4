// The chat's logic apart from the page (chat.js draws it): a message in the reader's words, the
// messages kept and those a reader sees (none from a muted seat), what screen readers hear of
// new ones (one at a time when they are few, counted when many come together), a text checked as
// the server checks it, and a refusal in the reader's language. Nothing here touches the page.

import { t, tn, has } from "./i18n.js";

/** Messages kept, as the server keeps them (cassino.club.chat.HISTORY). */
export const KEEP = 100;

/** Milliseconds between two announcements: messages that come within it are said together. */
export const ANNOUNCE_GAP = 4000;

/** A message's words in the reader's language: a phrase from the catalogue, a text as written
 * (the page shows it with textContent, never as markup). */
export function messageWords(msg) {
  if (msg.phrase === undefined || msg.phrase === null) return msg.text ?? "";
  const key = `chat.phrase.${msg.phrase}`;
  return has(key) ? t(key) : msg.phrase;
}

/** The list with one more message: once by its id (a message heard twice is one), in the order of
 * their ids, the last KEEP. */
export function addMessage(list, msg) {
  if (list.some((m) => m.id === msg.id)) return list;
  return [...list, msg].sort((a, b) => a.id - b.id).slice(-KEEP);
}

/** The messages a reader sees: none from a seat it muted. */
export const shownMessages = (messages, muted) => messages.filter((m) => !muted.includes(m.seat));

/** Whether a message should reach the reader's attention (counted unread, said aloud): another
 * seat's, not muted. */
export const isNews = (msg, me, muted) => msg.seat !== me && !muted.includes(msg.seat);

/** What screen readers hear of messages that came together: one said whole ("Ann: Good luck!"),
 * several counted, with the last said whole. `nameOf(msg)` is the sender as the reader names it. */
export function announcement(batch, nameOf) {
  if (!batch.length) return "";
  const last = batch[batch.length - 1];
  const params = { name: nameOf(last), message: messageWords(last) };
  return batch.length === 1 ? t("chat.said", params) : tn("chat.said_many", batch.length, params);
}

/** Says new messages politely, not every one when many come: the first after a quiet spell at
 * once, then those within ANNOUNCE_GAP of the last announcement together, when the gap is over.
 * `say(text)` puts the words in the live region; `now` and `later` are the clock and the timer. */
export class Announcer {
  constructor(say, nameOf, { gap = ANNOUNCE_GAP, now = () => Date.now(), later = (f, ms) => setTimeout(f, ms), cancel = (h) => clearTimeout(h) } = {}) {
    Object.assign(this, { say, nameOf, gap, now, later, cancel });
    this.pending = [];
    this.timer = null;
    this.last = -Infinity;
  }

  add(msg) {
    this.pending.push(msg);
    if (this.timer !== null) return;
    const wait = this.last + this.gap - this.now();
    if (wait <= 0) this.flush();
    else this.timer = this.later(() => this.flush(), wait);
  }

  flush() {
    this.timer = null;
    if (!this.pending.length) return;
    this.say(announcement(this.pending, this.nameOf));
    this.pending = [];
    this.last = this.now();
  }

  /** Forget what was waiting (another table opened). */
  stop() {
    if (this.timer !== null) this.cancel(this.timer);
    this.timer = null;
    this.pending = [];
  }
}

// Characters a text may not hold, as the server refuses them (cassino.club.chat.forbidden_character):
// control characters (line breaks and tabs too), lone surrogates, line and paragraph separators, and
// the marks that reorder the text around them.
const FORBIDDEN = /[\p{Cc}\p{Cs}\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f]/u;

/** Why a text cannot be sent (a chat.error code), checked as the server checks it; null when it can. */
export function textProblem(text, max) {
  const trimmed = text.trim();
  if (!trimmed) return "empty_text";
  if ([...trimmed].length > max) return "long_text";
  if (FORBIDDEN.test(trimmed)) return "control_character";
  return null;
}

/** A refusal of the chat in the reader's words, from its code (with the wait or the limit filled
 * in); the server's English when the code is not known here. */
export function refusalText(refusal, max) {
  const key = `chat.error.${refusal.code}`;
  if (!refusal.code || !has(key)) return refusal.error || "";
  return t(key, { n: refusal.retry_after ?? "", max: refusal.max ?? max });
}

/** When a message was sent, as the reader's language writes a time of day (14:05, 2:05 PM). */
export function timeText(at, language) {
  return new Intl.DateTimeFormat(language, { hour: "numeric", minute: "2-digit" }).format(new Date(at * 1000));
}
