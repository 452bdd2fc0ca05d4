// The chat at the table (docs/web.md, "Chat"): a panel in the side column (below the table on a
// phone) that folds, shown where two people or more sit. It holds the messages, each with its
// sender's face and name; the phrases for a seat (never for a spectator); the text field where
// free text is on for this reader, with the switch that turns it off; and a mute per other
// person, kept in this browser. Folded, it counts what came meanwhile; new messages are said
// politely to screen readers, several at once counted. Every message is put in the page as text
// (textContent), never as markup. The logic is chatlog.js's.

import { $, el } from "./dom.js";
import { t, tn, language } from "./i18n.js";
import { state } from "./state.js";
import { send } from "./connection.js";
import { faceOf } from "./table.js";
import { mutedSeats, setMuted, chatOpen, setChatOpen } from "./storage.js";
import { Announcer, addMessage, isNews, messageWords, refusalText, shownMessages, textProblem, timeText } from "./chatlog.js";

let chat = null; // the chat of the table open: { game, table, free_text, phrases, max_text, messages }
let unread = 0;
let drawnFor = ""; // the seats and language the panel's controls were last drawn for
const announcer = new Announcer((text) => { $("chat-said").textContent = text; }, (msg) => senderName(msg));

const me = () => (state.current && state.current.you !== null ? state.current.you : null);
const senderName = (msg) => (msg.seat === me() ? t("seat.you") : msg.name);
const muted = () => (chat ? mutedSeats(chat.game) : []);

/** Wire the panel's controls, once, when the page starts. */
export function startChat() {
  const panel = $("chat");
  panel.open = chatOpen();
  panel.addEventListener("toggle", () => {
    setChatOpen(panel.open);
    if (panel.open) { unread = 0; renderUnread(); scrollToEnd(); }
  });
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-text");
    const problem = textProblem(input.value, chat?.max_text ?? 200);
    if (problem) { $("chat-error").textContent = refusalText({ code: problem }, chat?.max_text ?? 200); return; }
    if (send({ type: "chat", text: input.value.trim() })) input.value = "";
  });
  $("chat-free").addEventListener("change", () => send({ type: "chat_settings", free_text: $("chat-free").checked }));
}

/** The chat as the server sent it for this reader (when the socket opens, and after the reader's
 * setting changed): everything drawn again, nothing said aloud. */
export function onChatHistory(msg) {
  const game = state.game?.id;
  if (!chat || chat.game !== game) { unread = 0; announcer.stop(); }
  chat = { ...msg, game, messages: msg.messages.reduce(addMessage, []) };
  $("chat-error").textContent = "";
  renderChat();
}

/** A new message at the table. */
export function onChat(msg) {
  if (!chat || chat.game !== state.game?.id) return;
  const before = chat.messages;
  chat.messages = addMessage(chat.messages, msg);
  if (chat.messages === before) return;
  if (msg.seat === me()) $("chat-error").textContent = "";
  if (isNews(msg, me(), muted())) {
    announcer.add(msg);
    if (!$("chat").open) unread += 1;
  }
  renderLog();
  renderUnread();
}

/** A chat request refused: said in the panel, in the reader's language. */
export function onChatRefused(msg) {
  $("chat-error").textContent = refusalText(msg, chat?.max_text ?? 200);
}

/** Draw the controls again when the seats, the reader or the language changed (a new state). */
export function chatOnState() {
  const key = chatKey();
  if (key !== drawnFor) renderChat();
}

function chatKey() {
  const seats = state.current ? state.current.seats.map((s) => `${s.kind}:${s.name}`).join("|") : "";
  return `${state.game?.id}/${chat?.game}/${me()}/${language()}/${seats}`;
}

/** Draw the whole panel: shown where two people or more sit, for the table open. */
export function renderChat() {
  const panel = $("chat");
  const people = state.current ? state.current.seats.filter((s) => s.kind !== "bot").length : 0;
  panel.hidden = !chat || !state.current || chat.game !== state.game?.id || people < 2;
  drawnFor = chatKey();
  if (panel.hidden) return;
  const seated = me() !== null;
  $("chat-phrases").hidden = !seated;
  $("chat-phrases").replaceChildren(...chat.phrases.map((id) => el("button", {
    type: "button", class: "chat-phrase", "data-testid": "chat-phrase", "data-phrase": id,
    onclick: () => send({ type: "chat", phrase: id }),
  }, messageWords({ phrase: id }))));
  $("chat-form").hidden = !seated || !chat.free_text;
  $("chat-text").maxLength = chat.max_text;
  $("chat-free-row").hidden = !seated || chat.table !== "free";
  $("chat-free").checked = chat.free_text;
  $("chat-free-about").hidden = $("chat-free-row").hidden;
  const note = !seated ? t("chat.watching") : chat.table !== "free" ? t("chat.phrases_only") : "";
  $("chat-note").textContent = note;
  $("chat-note").hidden = !note;
  renderMutes();
  renderLog();
  renderUnread();
}

/** A mute for each other person: their messages hidden here (and kept, to show again). */
function renderMutes() {
  const off = muted();
  const others = state.current.seats.filter((s) => s.kind !== "bot" && s.seat !== me());
  $("chat-mutes").replaceChildren(...others.map((s) => el("button", {
    type: "button", class: "chat-mute", "data-testid": `chat-mute-${s.seat}`, "aria-pressed": String(off.includes(s.seat)),
    onclick: () => { setMuted(chat.game, s.seat, !muted().includes(s.seat)); renderMutes(); renderLog(); },
  }, t("chat.mute", { name: s.name }))));
}

function renderLog() {
  const shown = shownMessages(chat.messages, muted());
  const lang = language();
  $("chat-log").replaceChildren(...shown.map((m) => {
    const { initial, colour } = faceOf(m.name);
    const words = el("span", { class: "chat-words" });
    words.textContent = messageWords(m); // as text, never as markup
    const name = el("strong", { class: "chat-name" });
    name.textContent = senderName(m);
    return el("li", { class: "chat-msg" + (m.seat === me() ? " mine" : ""), "data-testid": "chat-message", "data-seat": String(m.seat),
      "data-phrase": m.phrase ?? undefined },
    el("span", { class: `face face-${colour}`, "aria-hidden": "true" }, initial), name, " ",
    el("time", { class: "chat-time", datetime: new Date(m.at * 1000).toISOString() }, timeText(m.at, lang)), " ", words);
  }));
  $("chat-empty").hidden = shown.length > 0;
  scrollToEnd();
}

function renderUnread() {
  const badge = $("chat-unread");
  badge.hidden = unread === 0 || $("chat").open;
  badge.replaceChildren(el("span", { "aria-hidden": "true" }, String(unread)), el("span", { class: "sr-only" }, tn("chat.unread", unread)));
}

function scrollToEnd() {
  const log = $("chat-log");
  log.scrollTop = log.scrollHeight;
}
