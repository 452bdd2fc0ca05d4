// Moves, builds and rules in words ("take 5♥ 3♣ with 8♠", "raise your six to nine with 3♣").
// The canonical line (data-move) stays what is sent to the server; this is only what people read.

import { t, cardText, cardsText, valueWord } from "./i18n.js";

/** The builds a move's table cards take or join, and the loose cards left over. */
export function splitTargets(move, table) {
  const chosen = new Set(move.table);
  const builds = table.builds.filter((b) => b.cards.every((c) => chosen.has(c)));
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

/** A legal move of the reader's hand as a sentence; `parts`: its targets already split (splitTargets). */
export function moveText(move, table, you, seatName, parts = null) {
  const card = cardText(move.card);
  if (move.kind === "trail") return t("move.trail", { card });
  const { builds, loose } = parts || splitTargets(move, table);
  if (move.kind === "capture") return t("move.capture", { items: items(loose, builds, you, seatName), card });
  const raised = builds.find((b) => b.value !== move.value);
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
    const parts = m.kind === "trail" ? null : splitTargets(m, table); // split once, for both texts
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
