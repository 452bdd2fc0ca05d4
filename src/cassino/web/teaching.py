"""The teaching library at the web's tables, as the page receives it: lessons, the coach's notes
and the review in JSON, each with the plies and tables the page needs to word the moves it names.

What is taught, to whom and when is the table's (``table.Teaching``): this module only shapes it.
Nothing here is stored: after a restart the coach (seeded from the game and the seat) assesses again
and gets the same values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..learn import TUTORIAL_OPPONENT, TUTORIAL_RULES, Assessment, CoachNote, all_lessons
from ..rules import Rules
from ..table import checked_seen
from ..view import View
from .model import LiveGame
from .payloads import table_json


def tutorial() -> dict[str, Any]:
    """The guided first game, for the lobby's "Learn to play": its rules and its opponent."""
    rules = TUTORIAL_RULES.to_json()
    return {"preset": rules["preset"], "players": rules["players"], "opponent": TUTORIAL_OPPONENT}


def lessons_json(rules: Rules) -> list[dict[str, Any]]:
    """Every lesson, as ``rules`` word them, to read at any time."""
    return [lesson.to_json() for lesson in all_lessons(rules)]


def due(live: LiveGame, seat: int, seen: Any) -> list[dict[str, Any]]:
    """The lessons due for ``seat`` now that are not in ``seen`` (checked: a list of lesson ids)."""
    return [note.to_json() for note in live.teaching.lessons_due(seat, checked_seen(seen))]


def note_json(note: CoachNote, ply: int, view: View) -> dict[str, Any]:
    """A coach's note for the page, with the move's ply and the table it was made on (public), so
    the page can word the better move as it words any move."""
    return {**note.to_json(), "ply": ply, "table": table_json(view)}


def review_json(live: LiveGame, seat: int, assessed: Sequence[tuple[int, Assessment]]) -> dict[str, Any]:
    """The review of ``seat``'s game from the assessments of its moves (by ply), each costly move
    with its ply and its table."""
    made = live.teaching.review(seat, assessed)
    out = made.to_json()
    out["costly"] = []
    for note in made.costly:
        ply, a = next((p, a) for p, a in assessed if (a.move, a.best, a.loss) == (note.move, note.better, note.loss))
        out["costly"].append(note_json(note, ply, a.view))
    out.update(seat=seat, side=live.rules.side_of(seat), moves=len(assessed))
    return out
