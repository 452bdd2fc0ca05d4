// Moves, builds and rules in words ("take 5♥ 3♣ with 8♠", "raise your six to nine with 3♣").
// The canonical line (data-move) stays what is sent to the server; this is only what people read.
// The engine words moves by the same rules from the same catalogue entries (cassino.sentences), so
// a sentence read here can be typed at the terminal; tests/js/words.test.mjs checks the two agree.

import { t, cardText, cardsText, valueWord } from "./i18n.js";

/** The builds a sentence names as builds: those whose words ("your eight") no other build on the
 * table shares, since two of "your nine" would not say which; the others are named by their cards. */
export function namedBuilds(builds, you, seatName) {
  const texts = builds.map((b) => buildText(b, you, seatName));
  return builds.filter((b, i) => texts.indexOf(texts[i]) === texts.lastIndexOf(texts[i]));
}

/** The builds a move's table cards take or join (of those a sentence names), and the other cards. */
export function splitTargets(move, table, you, seatName) {
  const chosen = new Set(move.table);
  const builds = namedBuilds(table.builds, you, seatName).filter((b) => b.cards.every((c) => chosen.has(c)));
  const inBuilds = new Set(builds.flatMap((b) => b.cards));
  const loose = move.table.filter((c) => !inBuilds.has(c));
  return { builds, loose };
}

/** A build in words, from the reader's seat: "your eight", "Ana's eight". */
export function buildText(build, you, seatName) {
  const value = valueWord(build.value);
  if (build.owner === you) return t("build.own", { value });
  return t("build.other", { value, name: seatName(build.owner) });
}

function items(loose, builds, you, seatName) {
  const parts = [];
  if (loose.length) parts.push(cardsText(loose));
  for (const b of builds) parts.push(buildText(b, you, seatName));
  return parts.join(t("list.separator"));
}

/** A legal move of the reader's hand as a sentence; `parts`: its targets already split (splitTargets).
 * A raise reads as one when the raised build is the only build the move names. */
export function moveText(move, table, you, seatName, parts = null) {
  const card = cardText(move.card);
  if (move.kind === "trail") return t("move.trail", { card });
  const { builds, loose } = parts || splitTargets(move, table, you, seatName);
  if (move.kind === "capture") return t("move.capture", { items: items(loose, builds, you, seatName), card });
  const raised = builds.length === 1 && builds[0].value !== move.value ? builds[0] : null;
  if (raised) {
    const cards = cardsText([move.card, ...loose]);
    const from = valueWord(raised.value);
    const to = valueWord(move.value);
    if (raised.owner === you) return t("move.raise_own", { from, to, cards });
    return t("move.raise_other", { from, to, cards, name: seatName(raised.owner) });
  }
  return t("move.build", { value: valueWord(move.value), card, items: items(loose, builds, you, seatName) });
}

/** The moves of one hand card as people choose among them: a line for each kind and value
 * ("take with 10♣:", "build ten with 5♠:") whose buttons name only what the move takes or joins on
 * the table, so that many choices fit a phone; each move keeps its whole sentence for its label. */
export function choiceGroups(moves, table, you, seatName) {
  const groups = new Map();
  const captureValues = new Set(moves.filter((m) => m.kind === "capture").map((m) => m.value));
  for (const m of moves) {
    const key = m.kind === "trail" ? "trail" : `${m.kind} ${m.value}`;
    if (!groups.has(key)) {
      const card = cardText(m.card);
      const value = valueWord(m.value);
      let label = "";
      if (m.kind === "capture") label = captureValues.size > 1 ? t("choice.take_as", { card, value }) : t("choice.take", { card });
      else if (m.kind === "build") label = t("choice.build", { card, value });
      groups.set(key, { label, moves: [] });
    }
    const parts = m.kind === "trail" ? null : splitTargets(m, table, you, seatName); // split once, for both texts
    const sentence = moveText(m, table, you, seatName, parts);
    const text = parts ? items(parts.loose, parts.builds, you, seatName) : sentence;
    groups.get(key).moves.push({ move: m.move, text, sentence });
  }
  return [...groups.values()];
}

/** A move someone made, from the canonical line and the table it was made on (for the log). */
export function playedText(line, you, seatName, tableBefore) {
  const m = parseLine(line);
  if (!m) return line;
  if (tableBefore) return moveText(m, tableBefore, you, seatName);
  const card = cardText(m.card);
  if (m.kind === "trail") return t("move.trail", { card });
  if (m.kind === "capture") return t("move.capture", { items: cardsText(m.table), card });
  return t("move.build", { value: valueWord(m.value), card, items: cardsText(m.table) });
}

/** A canonical move line ("capture 8c 8: 2d 3h") as the parts the page reads. */
export function parseLine(line) {
  const m = /^(trail|capture|build) (\w\w)(?: (\w+): (.*))?$/.exec(line);
  if (!m) return null;
  const value = m[3] === undefined ? 0 : /^\d+$/.test(m[3]) ? Number(m[3]) : 0;
  return { kind: m[1], card: m[2], value, table: m[4] ? m[4].split(" ") : [], move: line };
}
