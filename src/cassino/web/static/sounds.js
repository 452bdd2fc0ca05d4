// Sounds at the table, off unless the reader turns them on: a card played, a capture, a sweep and
// the reader's turn. Each is synthesised with the Web Audio API (oscillators under short gain
// envelopes): no audio file, nothing fetched. Browsers let audio start only after a gesture, so the
// audio context is made at the first click or key press with sound on, never at load.

import { soundOn } from "./storage.js";

/** The sounds a new state calls for, from the state before it (null for the first one seen) and
 * the reader's seat (null for a spectator): the last move's ("card" for a trail or a build,
 * "capture", and "sweep" after it when the capture swept the table), then "turn" when the move is
 * now the reader's. */
export function soundsFor(before, current, you) {
  const out = [];
  if (before && current.version > before.version) out.push(...moveSounds(before, current));
  const mine = you !== null && current.to_move === you && current.status !== "over" && current.phase !== "count";
  const wasMine = before && before.to_move === you && before.phase !== "count" && before.version === current.version;
  if (mine && !wasMine) out.push("turn");
  return out;
}

function moveSounds(before, current) {
  if (current.hand_number !== before.hand_number) {
    // The hand's last move: the new state shows the next hand, but what was left on the table went
    // to the last capturer, so a capture left only cards that were on the table before it.
    const residue = current.finished?.[current.finished.length - 1]?.residue?.cards || [];
    const table = new Set([...before.table.loose, ...before.table.builds.flatMap((b) => b.cards)]);
    return residue.length < table.size && residue.every((c) => table.has(c)) ? ["capture"] : ["card"];
  }
  const last = current.moves.length ? current.moves[current.moves.length - 1].move : "";
  if (!last.startsWith("capture")) return ["card"];
  return current.sweeps.length > before.sweeps.length ? ["capture", "sweep"] : ["capture"];
}

// Each sound: its notes as [start s, frequency Hz, end frequency Hz, length s, wave], and how long
// it lasts before the next sound of the same change starts.
const NOTES = {
  card: { notes: [[0, 320, 150, 0.09, "triangle"]], length: 0.1 },
  capture: { notes: [[0, 523, 523, 0.12, "sine"], [0.07, 784, 784, 0.14, "sine"]], length: 0.22 },
  sweep: { notes: [[0, 659, 659, 0.12, "sine"], [0.06, 880, 880, 0.12, "sine"], [0.12, 1175, 1175, 0.12, "sine"], [0.18, 1319, 1319, 0.22, "sine"]], length: 0.42 },
  turn: { notes: [[0, 880, 880, 0.3, "sine"], [0, 1320, 1320, 0.18, "sine"]], length: 0.32 },
};
const VOLUME = 0.18;
const KEPT = 20; // changes the in-page log keeps

let context = null;

/** Make the audio context, from a gesture and with sound on (browsers refuse one made before). */
export function wakeAudio() {
  if (context || !soundOn()) return;
  const Audio = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Audio) return;
  try { context = new Audio(); } catch { context = null; }
}

/** Play sounds one after another, and note them in the page's log (#sound-log, one item per change). */
export function playSounds(names) {
  if (!names.length || !soundOn()) return;
  const log = globalThis.document?.getElementById("sound-log");
  if (log) {
    const item = document.createElement("li");
    item.textContent = names.join(" ");
    log.append(item);
    while (log.children.length > KEPT) log.firstElementChild.remove();
    log.dataset.lastSound = names.join(" ");
  }
  if (!context) return;
  if (context.state === "suspended") context.resume().catch(() => {});
  let at = context.currentTime + 0.02;
  for (const name of names) {
    for (const note of NOTES[name].notes) tone(at, ...note);
    at += NOTES[name].length;
  }
}

/** One note: a quick rise and an exponential fall, so it neither clicks nor rings on. */
function tone(at, start, from, to, length, wave) {
  const osc = context.createOscillator();
  const gain = context.createGain();
  const t0 = at + start;
  osc.type = wave;
  osc.frequency.setValueAtTime(from, t0);
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, t0 + length);
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(VOLUME, t0 + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(gain).connect(context.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}
