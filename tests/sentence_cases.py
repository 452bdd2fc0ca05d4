"""Moves as the engine words them, on positions of seeded random play, for the page's tests to word
the same moves and compare (tests/js/words.test.mjs): the engine and the page must say a move in
the same words, in every language, or a sentence read on the page could not be typed at the terminal.

Run as a script it prints the cases as JSON (what the node test reads).
"""

from __future__ import annotations

import json
from typing import Any

from cassino.cards import card_name, cards_of
from cassino.moves import format_code
from cassino.sentences import describe, move_languages
from crosscheck_support import random_play

NAMES = ("Ana", "Ben", "Cy", "Dee")
"""The seats' names in the sentences (the node test names them alike)."""


def names(seat: int) -> str:
    return NAMES[seat]


def sentence_cases(seed: int = 7, positions: int = 300, per_position: int = 8) -> list[dict[str, Any]]:
    """Cases ``{language, you, table, line, sentence, played}``: a legal move (``line``) on a table
    with builds, worded from seat ``you``'s side in ``language`` on that table (``sentence``) and
    without it (``played``). Only positions with a build on the table are taken, up to
    ``per_position`` moves of each, evenly spread over its sorted legal moves."""
    cases: list[dict[str, Any]] = []
    seen = 0
    for _, state in random_play(seed):
        if not state.builds:
            continue
        seen += 1
        if seen > positions:
            break
        lines = sorted(format_code(c) for c in state.legal_codes())
        codes = {format_code(c): c for c in state.legal_codes()}
        step = max(1, len(lines) // per_position)
        you = seen % state.players
        table = {
            "loose": [card_name(c) for c in cards_of(state.loose)],
            "builds": [
                {"cards": [card_name(c) for c in cards_of(b.cards)], "value": b.value, "owner": b.owner}
                for b in state.builds
            ],
        }
        for line in lines[::step][:per_position]:
            for language in move_languages():
                code = codes[line]
                cases.append(
                    {
                        "language": language,
                        "you": you,
                        "table": table,
                        "line": line,
                        "sentence": describe(code, state, language, seat=you, names=names),
                        "played": describe(code, None, language, seat=you, names=names),
                    }
                )
    return cases


def cases_json() -> str:
    return json.dumps(sentence_cases(), ensure_ascii=False)


if __name__ == "__main__":
    print(cases_json())
