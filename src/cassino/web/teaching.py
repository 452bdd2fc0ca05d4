"""The teaching library at the table: lessons for a seat's position, the coach's word on the seat's
own moves, and the review after the game, each from that seat's view alone.

A move is named by its *ply*: its number in the game, the ``version`` the game was at before it.
Its position is rebuilt from its hand's first deal and the moves before it, and only the seat that
made it hears about it, from what that seat saw then. Nothing here is stored: after a restart the
coach (seeded from the game and the seat) assesses again and gets the same values.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterator, Sequence
from typing import Any

from ..learn import (
    TUTORIAL_OPPONENT,
    TUTORIAL_RULES,
    Assessment,
    Coach,
    CoachNote,
    all_lessons,
    count_lesson,
    due_lessons,
    review,
)
from ..moves import MoveCode
from ..rules import Rules
from ..scoring import CountItem
from ..state import State
from ..view import View, view_of
from .errors import ServiceError
from .model import Learner, LiveGame
from .payloads import table_json

LESSON_IDS = tuple(lesson.id for lesson in all_lessons())
"""Every lesson's id, in teaching order (what a seat may say it has seen)."""


def tutorial() -> dict[str, Any]:
    """The guided first game, for the lobby's "Learn to play": its rules and its opponent."""
    rules = TUTORIAL_RULES.to_json()
    return {"preset": rules["preset"], "players": rules["players"], "opponent": TUTORIAL_OPPONENT}


def lessons_json(rules: Rules) -> list[dict[str, Any]]:
    """Every lesson, as ``rules`` word them, to read at any time."""
    return [lesson.to_json() for lesson in all_lessons(rules)]


def coach_seed(game_id: str, seat: int) -> int:
    """The seed of a seat's coach, from the game and the seat: the same after a restart, so the
    same view always gets the same values (the seed only draws worlds, it knows no card)."""
    return int.from_bytes(hashlib.sha256(f"{game_id}/{seat}".encode()).digest()[:4], "big")


def learner(live: LiveGame, seat: int) -> Learner:
    """The teaching state of a person's seat, made at its first request."""
    found = live.learners.get(seat)
    if found is None:
        found = live.learners[seat] = Learner(Coach(seed=coach_seed(live.id, seat)))
    return found


def checked_seen(seen: Any) -> set[str]:
    """The lesson ids a seat has seen, checked: a list of known ids."""
    if seen is None:
        return set()
    if not isinstance(seen, list) or not all(isinstance(s, str) for s in seen):
        raise ServiceError(400, 'seen must be a list of lesson ids, e.g. ["trailing", "pairing"]')
    unknown = sorted(set(seen) - set(LESSON_IDS))
    if unknown:
        raise ServiceError(400, f"no lesson {unknown[0]!r}: the lessons are {', '.join(LESSON_IDS)}")
    return set(seen)


def due(live: LiveGame, seat: int, seen: Collection[str]) -> list[dict[str, Any]]:
    """The lessons due for ``seat`` now, in teaching order: the count's lesson once a hand has been
    counted, then (at its turn in play) those its position shows."""
    out = []
    finished = live.game.hand_results
    if finished and "count" not in seen:
        out.append(count_lesson(live.rules, finished[-1].count, seat).to_json())
    state = live.game.state
    if live.phase == "play" and state.to_move == seat:
        out += [note.to_json() for note in due_lessons(view_of(state, seat), seen)]
    return out


def _moves(live: LiveGame) -> Iterator[tuple[int, State, int]]:
    """Every hand of the game with the ply of its first move and its number of moves."""
    start = 0
    for hand in live.game.hands:
        yield start, hand, hand.moves_played
        start += hand.moves_played


def move_at(live: LiveGame, ply: Any) -> tuple[int, View, MoveCode]:
    """The seat that made move ``ply``, its view just before it, and the move; 400 or 404 when
    there is no such move."""
    if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
        raise ServiceError(400, "ply must be the number of a move: the game's version before it was made, from 0")
    for start, hand, count in _moves(live):
        if ply < start + count:
            index = ply - start
            state = _before(hand, index)
            seat = hand.movers()[index]
            return seat, view_of(state, seat), hand.history()[index]
    raise ServiceError(404, f"game {live.id} has no move {ply}: {live.ply} moves have been made")


def _before(hand: State, index: int) -> State:
    """The position of a hand before its move ``index``, replayed from its first deal."""
    state = hand.root()
    for code in hand.history()[:index]:
        state.push(code)
    return state


def seat_moves(live: LiveGame, seat: int) -> list[tuple[int, View, MoveCode]]:
    """Every move ``seat`` made in the game: its ply, the seat's view before it, and the move."""
    out = []
    for start, hand, _count in _moves(live):
        state = hand.root()
        for index, (mover, code) in enumerate(zip(hand.movers(), hand.history(), strict=True)):
            if mover == seat:
                out.append((start + index, view_of(state, seat), code))
            state.push(code)
    return out


def note_json(note: CoachNote, ply: int, view: View) -> dict[str, Any]:
    """A coach's note for the page, with the move's ply and the table it was made on (public), so
    the page can word the better move as it words any move."""
    return {**note.to_json(), "ply": ply, "table": table_json(view)}


def counts(live: LiveGame) -> list[Sequence[CountItem]]:
    """Each finished hand's count, in order."""
    return [result.count for result in live.game.hand_results]


def review_json(live: LiveGame, seat: int, assessed: Sequence[tuple[int, Assessment]]) -> dict[str, Any]:
    """The review of ``seat``'s game from the assessments of its moves (by ply), each costly move
    with its ply and its table."""
    rules = live.rules
    made = review([a for _, a in assessed], counts(live), seat, rules, learner(live, seat).coach.margin)
    out = made.to_json()
    out["costly"] = []
    for note in made.costly:
        ply, a = next((p, a) for p, a in assessed if (a.move, a.best, a.loss) == (note.move, note.better, note.loss))
        out["costly"].append(note_json(note, ply, a.view))
    out.update(seat=seat, side=rules.side_of(seat), moves=len(assessed))
    return out
