"""The teaching library's answers at the server: hints, the coach's notes, the lessons due and the
review, each for the asker's own seat only.

The coach's searches run in the worker processes of ``thinking.Thinkers`` (never on the event loop,
so no other table waits), one at a time per seat (a coach remembers its last position), and each
position and move is assessed once: the table keeps what was found (``table.Teaching``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from ..learn import Assessment
from ..moves import MoveCode, format_code
from ..view import View
from . import teaching, thinking
from .errors import ServiceError
from .model import LiveGame
from .requests import answer_refusals
from .thinking import Thinkers

log = logging.getLogger("cassino.web")


def _lock(live: LiveGame, seat: int) -> asyncio.Lock:
    """The seat's coach's lock: one search at a time, since a coach is not shared."""
    found = live.coach_locks.get(seat)
    if found is None:
        found = live.coach_locks[seat] = asyncio.Lock()
    return found


Asker = Callable[[str, str | None], tuple[LiveGame, int | None]]
"""The game of an id and the seat a token opens (None: a spectator), or the refusal to say."""


class Coaching:
    """The teaching answers of the games ``asker`` finds, searched by ``thinkers``."""

    def __init__(self, asker: Asker, thinkers: Thinkers) -> None:
        self.asker, self.thinkers = asker, thinkers

    def _person(self, game_id: str, token: str | None, what: str, helps: bool = False) -> tuple[LiveGame, int]:
        """The game and the asker's seat, for what only a seat may ask (403 for a spectator, and
        for help during play at a table whose creator did not allow it)."""
        live, seat = self.asker(game_id, token)
        if seat is None:
            raise ServiceError(403, f"{what} need a seat token: spectators only watch")
        if helps and not live.help_allowed and not live.over:
            raise ServiceError(
                403,
                f"{what} are off at this table: it is a game between people, and its creator did not allow "
                "hints and the coach's notes",
            )
        return live, seat

    async def assess(self, live: LiveGame, seat: int, view: View, code: MoveCode) -> Assessment:
        """The seat's coach on one of its moves, searched in a worker, once per position and move."""
        learner = live.teaching.learner(seat)
        async with _lock(live, seat):
            found = learner.assessed.get((view, code))
            if found is None:
                found = await self.thinkers.run(thinking.assess, learner.coach.seed, view, code)
                live.teaching.keep(seat, view, code, found)
            return found

    def after_move(self, live: LiveGame, seat: int, view: View | None, code: MoveCode) -> None:
        """A coached seat's move is assessed while the game goes on (held on the game so it
        finishes, its failure logged), so that the review at the end is quick; without an event
        loop it is simply assessed when asked for."""
        if view is None:
            return
        work: Coroutine[Any, Any, Any] = self.assess(live, seat, view, code)
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:
            work.close()
            return
        live.learn_tasks.add(task)

        def done(finished: asyncio.Task[Any]) -> None:
            live.learn_tasks.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                log.error("game %s: background assessment failed: %s", live.id, finished.exception())

        task.add_done_callback(done)

    def coached_view(self, live: LiveGame, seat: int) -> View | None:
        """The seat's view before its move, when its moves are assessed as they are made."""
        learner = live.teaching.learners.get(seat)
        return live.view(seat) if learner is not None and learner.coached else None

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The coach's best move for the seat of ``token`` and why, from its own view only;
        ``version`` says which position it is for."""
        live, seat = self._person(game_id, token, "hints", helps=True)
        if live.counting:
            raise ServiceError(409, live.count_reason())
        if live.over or live.state.to_move != seat:
            raise ServiceError(409, "a hint is given only to the seat to move")
        view, version = live.view(seat), live.ply
        async with _lock(live, seat):
            learner = live.teaching.learner(seat)
            move, why = await self.thinkers.run(thinking.hint, learner.coach.seed, view, learner.guided)
        return {"move": format_code(move), "why": why.to_json(), "version": version}

    async def coach(self, game_id: str, token: str | None, ply: Any) -> dict[str, Any]:
        """The coach's note on the asker's own move ``ply`` (None when it cost nothing beyond the
        noise), assessed from the asker's view before it. From now on the seat's moves are assessed
        as they are made, so that the review at the end is quick."""
        live, seat = self._person(game_id, token, "the coach's notes", helps=True)
        with answer_refusals():
            mover, view, code = live.teaching.move_at(ply)
        if mover != seat:
            raise ServiceError(
                403, f"move {ply} was seat {mover}'s: the coach speaks only of your own moves (you are seat {seat})"
            )
        live.teaching.learner(seat).coached = True
        note = live.teaching.note(seat, await self.assess(live, seat, view, code))
        return {"ply": ply, "note": None if note is None else teaching.note_json(note, ply, view)}

    def lessons(self, game_id: str, token: str | None, seen: Any) -> list[dict[str, Any]]:
        """The lessons due for the asker's seat now that are not in ``seen``; a seat that asks for
        lessons is guided from then on (``Teaching.guide``: its coach flags what they teach never to do)."""
        live, seat = self._person(game_id, token, "lessons at the table")
        with answer_refusals():
            due = teaching.due(live, seat, seen)
        live.teaching.guide(seat)
        return due

    async def review(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The review of the asker's game once it is over: every one of its moves assessed (those
        the coach has not yet seen, now), built once and kept on the game."""
        live, seat = self._person(game_id, token, "reviews")
        if not live.over:
            raise ServiceError(409, "the review is made when the game is over: play on to the end first")
        task = live.reviews.get(seat)
        if task is None:
            task = live.reviews[seat] = asyncio.get_running_loop().create_task(self._review(live, seat))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            raise
        except Exception:
            live.reviews.pop(seat, None)
            log.exception("game %s: the review of seat %d failed", live.id, seat)
            raise ServiceError(503, "the review could not be made just now: try again") from None

    async def _review(self, live: LiveGame, seat: int) -> dict[str, Any]:
        assessed = [
            (ply, await self.assess(live, seat, view, code)) for ply, view, code in live.teaching.seat_moves(seat)
        ]
        return teaching.review_json(live, seat, assessed)
