"""Where the server thinks: computer players' moves and the coach's searches, in a bounded pool of
worker processes, so that no search ever holds the event loop (or its interpreter lock) while other
games wait for their moves.

A worker is handed only what the search needs, by value: the player's spec and a seed, or the
coach's seed, and the seat's ``View`` (never the ``State``). It builds the player afresh for each
move from a seed drawn from the seat's seed and the ply, so a move does not depend on which worker
made it or on what that worker did before; coaches are kept per worker by seed, so that a hint and
then an assessment of the same position search once when they meet the same worker.

With ``workers=0`` the searches run in threads of this process instead (tests, and machines where
processes cannot be started): the same answers, without the isolation.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from ..learn import Assessment, Coach, Message
from ..moves import MoveCode
from ..players.base import move_seed as move_seed
from ..players.base import seeded_move
from ..view import View

log = logging.getLogger("cassino.web")

T = TypeVar("T")

DEFAULT_WORKERS = max(1, min(4, (os.cpu_count() or 2) - 1))
"""Worker processes by default: all cores but one (for the event loop), at most four."""
MAX_WORKERS = 64


def think(spec: str, seed: int, ply: int, view: View) -> MoveCode:
    """A computer player's move for ``view`` (runs in a worker): ``players.seeded_move``."""
    return seeded_move(spec, seed, ply, view)


_COACHES: OrderedDict[int, Coach] = OrderedDict()
_KEPT_COACHES = 64


def _coach(seed: int) -> Coach:
    """This worker's coach of ``seed`` (the most recently used few are kept)."""
    found = _COACHES.pop(seed, None) or Coach(seed=seed)
    _COACHES[seed] = found
    while len(_COACHES) > _KEPT_COACHES:
        _COACHES.popitem(last=False)
    return found


def assess(seed: int, view: View, code: MoveCode) -> Assessment:
    """The coach of ``seed`` on a move of ``view`` (runs in a worker)."""
    return _coach(seed).assess(view, code)


def hint(seed: int, view: View, guided: bool = False) -> tuple[MoveCode, Message]:
    """The coach of ``seed``'s best move of ``view`` and why (runs in a worker); for a ``guided``
    learner, never a move its coach would flag."""
    return _coach(seed).hint(view, guided)


def _ready() -> None:
    """A warming task: import what the searches need before the first one is asked."""
    import cassino.players  # noqa: F401


def _start_worker(server: int) -> None:
    """A new worker's set-up: it ends itself once the server that started it is gone, even when
    the server was killed outright (SIGKILL) and could not stop it."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()
    _ready()


class Thinkers:
    """The pool: at most ``workers`` searches at a time, the rest queued in order; started on first
    use and started again if a worker dies (the search it held fails, and is asked again)."""

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        if not 0 <= workers <= MAX_WORKERS:
            raise ValueError(f"workers must be 0 to {MAX_WORKERS}, got {workers}")
        self.workers = workers
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork of a server with threads and an event loop could inherit a held lock
            context = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        return self._pool

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker; a dead worker's pool is replaced and the work asked again once."""
        if self.workers == 0:
            return await asyncio.to_thread(work, *args)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self._executor(), work, *args)
            except concurrent.futures.process.BrokenProcessPool:
                log.error("a worker process died (attempt %d): starting the pool again", attempt)
                self._discard()
        raise RuntimeError("the worker processes keep dying: see the server's log")

    def warm(self) -> None:
        """Start the workers now (at server start), so the first search does not wait for them."""
        if self.workers:
            for _ in range(self.workers):
                self._executor().submit(_ready)

    def _discard(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (what they were thinking about is thought again after a restart)."""
        self._discard()
