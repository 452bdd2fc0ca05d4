// Words for people: the message catalogue of the chosen language (served from the server's
// gettext catalogues), plurals, and cards, builds and reasons written with suit symbols.

import { api } from "./transport.js";

let known = []; // the page's languages, [{code, name}], English first: from /api/config
let messages = {};
let lang = "en";
let plural = new Intl.PluralRules("en");

export function language() {
  return lang;
}

/** The languages the server has catalogues for, as GET /api/config lists them. */
export function setLanguages(list) {
  known = list;
}

export function languages() {
  return known;
}

/** The language to start in, of `codes`: the one chosen before, else the first of the browser's
 * (by its base: de-AT is de), else the first listed. */
export function pickLanguage(codes, saved, wanted) {
  if (codes.includes(saved)) return saved;
  for (const l of wanted) {
    const base = l.slice(0, 2).toLowerCase();
    if (codes.includes(base)) return base;
  }
  return codes[0];
}

/** The language to start in: the one chosen before, else the browser's, else the first listed. */
export function preferredLanguage() {
  return pickLanguage(known.map((l) => l.code), localStorage.getItem("cassino.lang"), navigator.languages || []);
}

/** Use a language's messages (as GET /api/i18n/CODE serves them) for every word from now on. */
export function setCatalogue(code, catalogue) {
  messages = catalogue;
  lang = code;
  plural = new Intl.PluralRules(code);
}

export async function loadLanguage(code) {
  const r = await api(`/api/i18n/${code}`);
  if (!r.ok) throw new Error(`no catalogue for ${code}`);
  setCatalogue(code, (await r.json()).messages);
  localStorage.setItem("cassino.lang", code);
  document.documentElement.lang = code;
}

/** A message with its {placeholders} filled; a missing key shows as itself (a test catches it). */
export function t(key, params = {}) {
  const text = messages[key];
  if (text === undefined) {
    console.warn(`missing message ${key}`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A message with a count: KEY.one or KEY.other, as the language's plural rules choose. */
export function tn(key, count, params = {}) {
  const form = plural.select(count) === "one" ? "one" : "other";
  return t(`${key}.${form}`, { n: count, ...params });
}

export function has(key) {
  return key in messages;
}

const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** A rank as people write it: 10 for T; court letters from the catalogue. */
export function rankText(r) {
  if (r === "T") return "10";
  if ("AJQK".includes(r)) return t(`card.rank.${r}`);
  return r;
}

/** A card with its suit symbol: 10♦, K♠ (canonical name in, words out). */
export function cardText(name) {
  return rankText(name[0]) + SUIT_SYMBOLS[name[1]];
}

export function isRed(name) {
  return name[1] === "d" || name[1] === "h";
}

/** A card for a screen reader: "ten of diamonds". */
export function cardLabel(name) {
  return t("card.label", { rank: t(`card.rank_name.${name[0]}`), suit: t(`card.suit.${name[1]}`) });
}

export function cardsText(names) {
  return names.map(cardText).join(" ");
}

/** A build value as a word (eight, acht, delapan). */
export function valueWord(v) {
  return has(`value.${v}`) ? t(`value.${v}`) : String(v);
}

/** A number as the page's language writes it: 2.4 in English, 2,4 in German; one decimal at most. */
export function numberText(n) {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(n);
}

/** A structured message in this language: the engine's reasons (key reason.CODE) and the teaching
 * library's messages (their own key, learn.CODE); params are numbers, {cards}, {rank} or {word}
 * (another message's key). Without a catalogue entry, the English text that came with it. */
export function messageText(msg, extra = {}) {
  if (!msg) return "";
  const key = msg.key || `reason.${msg.code}`;
  if (!has(key)) return msg.text;
  const params = {};
  for (const [k, v] of Object.entries(msg.params || {})) {
    if (v && typeof v === "object" && Array.isArray(v.cards)) params[k] = cardsText(v.cards);
    else if (v && typeof v === "object" && typeof v.rank === "string") params[k] = rankText(v.rank);
    else if (v && typeof v === "object" && typeof v.word === "string") params[k] = t(v.word);
    else if (typeof v === "number") params[k] = numberText(v);
    else params[k] = v;
  }
  return t(key, { ...params, ...extra });
}

/** The engine's structured reason for a refused move, in this language. */
export const reasonText = messageText;

/** Put the catalogue's words into every element marked data-i18n (text) or data-i18n-attr. */
export function translateStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.setAttribute("title", t(node.dataset.i18nTitle));
  document.title = t("page.title");
}
