"""The server's background work at each table: computer players' turns and the count's timer.

Each game has at most one task of each: the computer players move one after another (each after
``bot_delay``, so people can follow), thinking in the worker processes of ``thinking.Thinkers``
unless they are quick enough for the event loop; a move thought about a position the table has left
(a move, an undo, the count ended meanwhile) is thought again. The count's timer ends the count at
its deadline unless everyone pressed next before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from ..moves import MoveCode
from ..players.errors import PlayerFaultError
from ..table import BotTurn
from . import thinking
from .errors import ServiceError
from .model import LiveGame
from .programs import PREFIX, Programs, think_program
from .thinking import Thinkers

log = logging.getLogger("cassino.web")

FAST_BOTS = ("random", "greedy", "beginner", "novice")
"""Computer players quick enough (well under a millisecond a move) to move on the event loop; the
others think in the worker processes of ``thinking.Thinkers``."""


def current_task() -> asyncio.Task[Any] | None:
    """The task running now, or None outside a running event loop."""
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


def cancel(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel these tasks, but never the one running now (which is ending by itself)."""
    for task in tasks:
        if task is not None and not task.done() and task is not current_task():
            task.cancel()


class Background:
    """The computer players' and timers' tasks of ``games``: a computer player's move is made with
    ``commit`` (as a person's), the count is ended with ``end_count``."""

    def __init__(
        self,
        games: dict[str, LiveGame],
        thinkers: Thinkers,
        commit: Callable[[LiveGame, int, MoveCode], None],
        end_count: Callable[[LiveGame], None],
        forfeit: Callable[[LiveGame, int, str], object],
        bot_delay: float,
        programs: Programs | None = None,
    ) -> None:
        self.programs = programs
        self.games, self.thinkers, self.commit, self.end_count = games, thinkers, commit, end_count
        self.forfeit = forfeit
        self.bot_delay = bot_delay

    def resume(self, live: LiveGame) -> None:
        """Start whatever the game now waits for: a computer player's move, the count's timer."""
        self.schedule_bots(live)
        self.schedule_timer(live)

    def schedule_bots(self, live: LiveGame) -> None:
        """Start the game's computer players if one is to move and none is at work."""
        if live.bot_turn() is None or (live.bot_task is not None and not live.bot_task.done()):
            return
        try:
            live.bot_task = asyncio.get_running_loop().create_task(self._run_bots(live))
        except RuntimeError:
            live.bot_task = None  # no loop (a synchronous caller): started on the next request

    async def _think(self, live: LiveGame, turn: BotTurn) -> MoveCode:
        if turn.spec in FAST_BOTS:
            return live.bot_move(turn)
        seed = thinking.move_seed(turn.seed, turn.ply)
        if turn.spec.startswith(PREFIX) and self.programs is not None:
            return await self.thinkers.run(think_program, self.programs, turn.spec, seed, turn.view)
        return await self.thinkers.run(thinking.think, turn.spec, turn.seed, turn.ply, turn.view)

    async def _run_bots(self, live: LiveGame) -> None:
        while live.bot_turn() is not None and self.games.get(live.id) is live:
            await asyncio.sleep(self.bot_delay)
            turn = live.bot_turn()
            if turn is None:
                return
            try:
                code = await self._think(live, turn)
            except PlayerFaultError as fault:  # its program hung, crashed or answered no legal move
                if live.epoch == turn.epoch and self.games.get(live.id) is live:
                    self.forfeit(live, turn.seat, fault.reason)
                return
            except Exception:
                log.exception("game %s: computer player in seat %d failed", live.id, turn.seat)
                return
            if live.epoch != turn.epoch or self.games.get(live.id) is not live:
                continue  # the game changed while it thought (a move, an undo, a count): think again
            try:
                self.commit(live, turn.seat, code)
            except ServiceError as exc:
                if exc.status == 409:  # another process stored this turn first: this copy caught up
                    continue
                if exc.status == 400:  # the move is no legal move here: the player is at fault
                    self.forfeit(live, turn.seat, f"it answered an illegal move: {exc.message}")
                    return
                log.error("game %s: computer player in seat %d: %s", live.id, turn.seat, exc.message)
                return

    def schedule_timer(self, live: LiveGame) -> None:
        """Start the count's timer if the game counts with one and none is running."""
        if not live.counting or live.deadline is None or live.abandoned:
            return
        if live.timer_task is not None and not live.timer_task.done():
            return
        try:
            live.timer_task = asyncio.get_running_loop().create_task(self._count_timer(live, live.epoch))
        except RuntimeError:
            live.timer_task = None  # no loop: ``get`` ends the count once its deadline has passed

    async def _count_timer(self, live: LiveGame, epoch: int) -> None:
        """End the count at its deadline, unless everyone pressed next before (the epoch moved)."""
        while live.counting and live.epoch == epoch and live.deadline is not None:
            left = live.deadline - live.clock()
            if left <= 0:
                if self.games.get(live.id) is live and not live.abandoned:
                    self.end_count(live)
                return
            await asyncio.sleep(left)

    async def stop(self) -> None:
        """Stop every game's tasks (what they would have done is simply done after a restart)."""
        games = self.games.values()
        tasks = [t for g in games for t in (g.bot_task, g.timer_task, *g.learn_tasks) if t is not None and not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
