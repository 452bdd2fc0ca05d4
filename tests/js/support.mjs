// What the page's tests share: where the page's modules are, and the server's own catalogues and
// lobby config, asked of its Python (so the tests read the words people read, not a copy of them).

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The Python that runs the server: CASSINO_PYTHON, else the checkout's .venv, else python3. */
function python() {
  if (process.env.CASSINO_PYTHON) return process.env.CASSINO_PYTHON;
  const venv = path.join(ROOT, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

/** The JSON a line of Python prints, run against this checkout's source. */
function fromServer(code) {
  const src = path.join(ROOT, "src");
  const env = { ...process.env, PYTHONPATH: [src, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter) };
  return JSON.parse(execFileSync(python(), ["-c", code], { env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }));
}

/** A language's messages, as GET /api/i18n/LANG serves them. */
export const catalogue = (language) =>
  fromServer(`from cassino.web.i18n import catalogue_json\nprint(catalogue_json(${JSON.stringify(language)}))`).messages;

/** Moves the engine words on positions of seeded random play (tests/sentence_cases.py), for the
 * page's words to be compared with: [{language, you, table, line, sentence, played}]. */
export const engineSentences = () =>
  fromServer(`import sys\nsys.path.insert(0, ${JSON.stringify(path.join(ROOT, "tests"))})\nfrom sentence_cases import cases_json\nprint(cases_json())`);

/** What GET /api/config serves. */
export const serverConfig = () => fromServer("import json\nfrom cassino.web.page_config import config\nprint(json.dumps(config()))");

/** localStorage as a browser keeps it, in memory (installed as globalThis.localStorage by a test). */
export class MemoryStorage {
  #items = new Map();
  get length() { return this.#items.size; }
  key(i) { return [...this.#items.keys()][i] ?? null; }
  getItem(k) { return this.#items.has(k) ? this.#items.get(k) : null; }
  setItem(k, v) { this.#items.set(k, String(v)); }
  removeItem(k) { this.#items.delete(k); }
  clear() { this.#items.clear(); }
}

/** What the server says of each chat text (cassino.club.chat.message_of): null when it would be
 * sent, else the code of its refusal. */
export const chatProblems = (texts) =>
  fromServer(`import json
from cassino.club.chat import message_of
from cassino.club.errors import ChatError
out = []
for text in json.loads(${JSON.stringify(JSON.stringify(texts))}):
    try:
        message_of({"text": text})
        out.append(None)
    except ChatError as exc:
        out.append(exc.code)
print(json.dumps(out))`);

/** A daily deal's reveal as GET /api/daily/ID/reveal gives it, for a seed of the test's: the
 * server's own commitment and deck (cassino.web.fair), for the page's check to be held against. */
export const dailyReveal = (id, seed) =>
  fromServer(`import json
from cassino.web.fair import SCHEME, deck_text, derive_deck, seed_commitment
seed = ${JSON.stringify(seed)}
print(json.dumps({"id": ${JSON.stringify(id)}, "scheme": SCHEME, "commitment": seed_commitment(seed), "seed": seed,
                  "deck": deck_text(derive_deck(${JSON.stringify(id)}, 1, seed, {}))}))`);
