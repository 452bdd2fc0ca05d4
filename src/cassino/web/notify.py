"""Changes between server processes sharing one PostgreSQL database: every write that changes a
game also sends a notification on ``CHANNEL`` (delivered when its transaction commits), and every
process listens, so a move made through one process reaches the clients of all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from sqlalchemy.engine import make_url

log = logging.getLogger("cassino.web")

CHANNEL = "cassino"
"""The PostgreSQL notification channel; a payload is ``<game id> <origin> <what>``: the store that
wrote it, and ``move <ply>`` (the game now has that many moves) or ``reset`` (a takeback, a
claimed seat, a press of next). A move's notification carries the move itself
(``move <ply> <seat> <hands> <at> <line>``: the game's moves and hands after it, and when it was
stored), so that a process can play it into its copy without reading the database, and start the
next turn's move clock from the same moment. A person's page coming or going is ``presence <seat>
online|away <since>``, and ``presence?`` asks the processes holding pages of a game to say so again
(a process that has just loaded it)."""
LOBBY_CHANNEL = "cassino_lobby"
"""The lobby's channel (``web.seeks``): ``lobby <origin> seeks`` when the open seeks changed, and
``lobby <origin> ready <seek id>`` when a seek's game was made (its members' pages are told)."""


class Listener:
    r"""A task of the event loop on a connection of its own, ``LISTEN``\ ing on ``CHANNEL`` until
    ``stop``: a notification costs one wake-up of the loop, and no thread competes with it."""

    def __init__(
        self, url: str, origin: str, on_change: Callable[[str | None, str], None], channel: str = CHANNEL
    ) -> None:
        """``channel``: the games' ``CHANNEL``, or another with payloads of the same shape (the
        lobby's ``LOBBY_CHANNEL``)."""
        self.origin = origin
        self.channel = channel
        self.dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.on_change = on_change
        self.listening = asyncio.Event()
        """Set while the connection listens (a test waits for it before making changes)."""
        self.task = asyncio.get_running_loop().create_task(self._run(), name="cassino-listen")

    async def _run(self) -> None:
        import psycopg

        lost = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {self.channel}")
                    self.listening.set()
                    if lost:
                        self.on_change(None, "reset")
                    async for note in conn.notifies():
                        game_id, origin, what = [*note.payload.split(" ", 2), "", ""][:3]
                        if origin != self.origin:
                            self.on_change(game_id, what)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.listening.clear()
                log.error("listening for other processes' changes failed (%s): trying again", exc)
                lost = True
                await asyncio.sleep(1.0)

    async def stop(self) -> None:
        """Stop listening."""
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.task
