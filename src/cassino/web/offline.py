"""The server of the page that plays offline, run in the page's Web Worker on Pyodide: the same
``GameService`` the server runs, over a ``MemoryStore`` the browser keeps (IndexedDB), answering the
same requests and socket messages (``answers``) that the page would send to ``cassino serve``.

Only the transport differs: a worker message instead of an HTTP request or a WebSocket frame. The
worker (``static/worker.js``) calls ``request``, ``open``, ``receive`` and ``close``; this sends each
socket's messages with ``send(socket, text)``, closes a refused one with ``shut(socket, code)``, and
hands every changed game to ``keep(game, json)``.
No FastAPI, no database and no thread here: Pyodide has none, so searches run in the worker's one
thread (``InlineThinkers``), which the page's own thread never waits for.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from urllib.parse import parse_qsl

from ..notation import dumps_position
from .answers import Searches, answer_message, created, error_frame, lessons
from .errors import ServiceError, StoreError
from .limits import brief, parse_json
from .memory_store import MemoryStore
from .model import LiveGame, Subscriber
from .payloads import state_payload
from .service import GameService
from .thinking import Thinkers

T = TypeVar("T")

BOT_DELAY = 0.5
"""Seconds a computer player waits before its move, as at the server, so each move can be seen."""

_GAME = re.compile(r"^/api/games/([0-9a-f]{1,32})(/[a-z]+(?:/[0-9]+)?)?$")


class InlineThinkers(Thinkers):
    """Searches in this thread: a worker has no processes and no threads to give them."""

    def __init__(self) -> None:
        super().__init__(workers=0)

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        await asyncio.sleep(0)  # what was put on the sockets before the search goes out first
        return work(*args)


class _Socket:
    """One open socket of the page: its game, seat and token, its queue's sender, its searches."""

    def __init__(self, live: LiveGame, sub: Subscriber, token: str | None, sender: asyncio.Task[None]) -> None:
        self.live, self.sub, self.token, self.sender = live, sub, token, sender
        self.searches = Searches(live.id, sub.queue.put_nowait)


class Offline:
    """The games of one page: ``send(socket, text)`` delivers a socket's message to the page,
    ``keep(game, json)`` keeps a changed game in the browser, ``shut(socket, code)`` closes a
    socket as the server closes a refused WebSocket."""

    def __init__(
        self,
        send: Callable[[int, str], object],
        keep: Callable[[str, str], object],
        shut: Callable[[int, int], object],
        bot_delay: float = BOT_DELAY,
    ) -> None:
        self.send, self.keep, self.shut = send, keep, shut
        self.store = MemoryStore(on_change=self._changed)
        self.service = GameService(
            self.store,
            bot_delay=bot_delay,
            expire_after=float("inf"),
            thinkers=InlineThinkers(),
            site="cassino in the browser, offline",
        )
        self.sockets: dict[int, _Socket] = {}
        """The open sockets, by the page's number (their client is the empty key: the page's one
        person is never rate limited)."""

    def _changed(self, game_id: str) -> None:
        self.keep(game_id, json.dumps(self.store.saved(game_id), separators=(",", ":")))

    def restore(self, text: str) -> str:
        """Bring back a game the browser kept; returns its id (``StoreError`` if it is not one)."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise StoreError(f"a kept game is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise StoreError("a kept game must be a JSON object")
        return self.store.restore(data)

    # ------------------------------------------------------------------ requests
    async def request(self, method: str, path: str, query: str, body: str, token: str | None) -> str:
        """Answer a request as the server's route would: ``{"status": N, "body": JSON}``, with the
        server's error JSON (``{"error": ...}``) for a refusal."""
        try:
            status, answer = 200, await self._route(method, path, dict(parse_qsl(query)), body, token)
            if method == "POST" and path in ("/api/games", "/api/deals"):
                status = 201
        except ServiceError as exc:
            status, answer = exc.status, {"error": brief(exc.message), **exc.extra}
        except Exception as exc:  # a bug: said, never a traceback to the page
            status, answer = 500, {"error": f"internal error ({type(exc).__name__})"}
        return json.dumps({"status": status, "body": answer}, separators=(",", ":"))

    async def _route(
        self, method: str, path: str, query: Mapping[str, str], body: str, token: str | None
    ) -> dict[str, Any]:
        service = self.service
        if (method, path) == ("GET", "/api/games"):
            return {"games": self.store.recent()}
        if (method, path) == ("GET", "/api/lessons"):
            return lessons(service, query)
        if (method, path) == ("POST", "/api/deals"):
            return service.deals.new_deal()
        if (method, path) == ("POST", "/api/games"):
            live, tokens, invites = service.create(parse_json(body) if body.strip() else {})
            return created(service, live, tokens, invites)
        found = _GAME.match(path)
        if found is None:
            raise ServiceError(404, f"{method} {path} is not offered by the page that plays offline")
        game_id, rest = found.group(1), found.group(2) or ""
        if (method, rest) == ("GET", ""):
            live = service.get(game_id)
            return state_payload(live, service.seat_of(live, token))
        if (method, rest) == ("GET", "/position"):
            return self.position(game_id, token)
        if (method, rest) == ("GET", "/review"):
            return await service.coaching.review(game_id, token)
        if (method, rest) == ("GET", "/record"):
            return service.record(game_id)
        if method == "GET" and rest.startswith("/hands/"):
            return service.reveal(game_id, int(rest.rsplit("/", 1)[1]))
        raise ServiceError(404, f"{method} {path} is not offered by the page that plays offline")

    def position(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The hand's whole position in the canonical notation, for the seat of ``token`` only: the
        engine runs in this page, so its player may read what the engine reads (and check it with
        ``cassino moves``); the version says which state it belongs to."""
        live = self.service.get(game_id)
        if self.service.seat_of(live, token) is None:
            raise ServiceError(403, "the position is shown only to the page's own seat")
        return {"version": live.ply, "position": json.loads(dumps_position(live.state))}

    # ------------------------------------------------------------------ sockets
    def open(self, number: int, game_id: str, token: str | None) -> bool:
        """Open socket ``number`` (the page's) to a game as the server's WebSocket route does. A
        refusal is sent on it as an error frame, and it is shut with code 4000 + status (False)."""
        try:
            live = self.service.get(game_id)
            seat = self.service.seat_of(live, token)
        except ServiceError as exc:
            self.send(number, json.dumps(error_frame(exc)))
            self.shut(number, 4000 + exc.status)
            return False
        sub = self.service.subscribe(live, seat)
        sender = asyncio.get_running_loop().create_task(self._drain(number, sub))
        self.sockets[number] = _Socket(live, sub, token, sender)
        return True

    async def _drain(self, number: int, sub: Subscriber) -> None:
        while True:
            self.send(number, await sub.queue.get())

    def receive(self, number: int, text: str) -> None:
        """A message the page sent on socket ``number``."""
        socket = self.sockets.get(number)
        if socket is None:
            return
        live, seat = socket.live, socket.sub.seat
        answer_message(
            self.service, live, seat, socket.token, "", text, socket.sub.queue.put_nowait, socket.searches.later
        )

    def close(self, number: int) -> None:
        """The page closed socket ``number``."""
        socket = self.sockets.pop(number, None)
        if socket is None:
            return
        socket.sender.cancel()
        socket.searches.cancel()
        self.service.unsubscribe(socket.live, socket.sub)
