"""The lobby's seeks and "Play now" over HTTP and a WebSocket (``/api/seeks``, ``/api/play-now``,
``/api/lobby/socket``): the rules are ``cassino.club.seeks``, the storage ``web.seek_store``.

Only signed-in accounts post, join or press Play now (401 otherwise); anyone may list the seeks.
The game of a full seek is made in the transaction that took its last seat, with each seat held by
its account and each seat's token known only to that account's browser: it is derived from the
browser's session secret (``club.seeks.seat_token``), so the database keeps only its hash and any
server process can hand it to that browser, and to nobody else.

Each lobby page holds a socket. It is sent the open seeks whenever they change (and the page's own
Play now requests), across server processes through ``notify.LOBBY_CHANNEL`` on PostgreSQL, and,
for each seek of its account whose game was made, ``ready`` with the game, the seat and the token.
When an account's last lobby socket in a process closes, its seeks and seats are marked away: a
Play now request is matched no more, and a seek expires after ``AWAY_GRACE`` seconds unless a page
of it comes back (a process holding another page of the account marks it back within a sweep).

Who is online in the lobby is the accounts with a lobby page open in any process: each process
keeps its own rows (``schema.lobby_online_table``), written when a page opens or an account's
last page here closes and seen again at every sweep; rows not seen for three sweeps are dropped,
so the people of a process that was killed go offline within about 15 seconds. Each page is sent
``online`` (the count and the first names) when it opens and whenever that changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from ..club.accounts import AccountRow, Accounts
from ..club.errors import NoSuchSeekError, NotYourSeekError, SeekConflictError, SeekError, SeekInputError
from ..club.seeks import (
    DEFAULT_RATING,
    SEEK,
    level_for_rating,
    play_now_of_request,
    seat_token,
    seek_of_request,
)
from ..rules import make_rules
from .accounts import COOKIE, answer_account_refusals, json_body, no_store, require_signed_in
from .errors import ServiceError
from .fair import deck_text, derive_deck, new_seed, seed_commitment
from .limits import SEEK_RATE, Rate, RateLimit, brief, parse_json
from .notify import LOBBY_CHANNEL, Listener
from .payloads import encode
from .rating_store import RatingStore
from .requests import token_hash
from .rows import HandRow, NewGame, SeatRow
from .seek_store import FULL, Joiner, NewTable, SeekRow, SeekStore, Taken
from .store import Store

log = logging.getLogger("cassino.web")

SEEK_NEXT_AFTER: Final = 30
"""Seconds the count between hands lasts at most at a seek's table: strangers do not wait for ever
for one who went away."""
LISTED: Final = 200
"""The most seeks listed (the oldest first)."""
READY_AGAIN: Final = 600.0
"""Seconds after its game was made that a seek's member's page is told again when it opens (it
was reloading, or its socket was on a process that missed the news)."""
SWEEP_SECONDS: Final = 5.0
"""How often each process expires seeks, gives up the seats of those gone, marks its own pages'
accounts present, and matches Play now requests that have grown near."""
PUSH_DELAY: Final = 0.05
"""Changes within this many seconds are sent to the sockets as one list."""
ONLINE_PACE: Final = 1.0
"""Seconds between two readings of who is online for the pages (changes in between make one)."""
ONLINE_LISTED: Final = 100
"""The most names of people online sent to a page (the count is of all of them)."""
PUSH_PACE: Final = 0.0005
"""Seconds between two lists for each open lobby socket (0.5 s with 1,000 open): with many pages,
a burst of changes makes fewer, later lists rather than one list a page every 50 ms."""


def account_rating(store: Store, account_id: str, pool: str) -> tuple[float, bool]:
    """An account's rating in a pool and whether it is provisional: what a seek shows and what
    Play now matches by; a provisional 1500 before its first rated game there."""
    standing = RatingStore(store.engine).standings(account_id).get(pool)
    return (standing.rating.rating, standing.provisional) if standing else (DEFAULT_RATING, True)


SEEK_ID: Final = re.compile(r"[0-9a-f]{16}")
"""What a seek's id looks like (``secrets.token_hex(8)``): anything else is no seek, unread."""


def known_seek(seek_id: str) -> str:
    """A seek id of the right shape, or ``NoSuchSeekError`` (404) without asking the database."""
    if not SEEK_ID.fullmatch(seek_id):
        raise NoSuchSeekError(f"no seek {seek_id[:40]!r} here", "no_seek")
    return seek_id


REFUSAL_STATUS: tuple[tuple[type[SeekError], int], ...] = (
    (SeekInputError, 400),
    (NotYourSeekError, 403),
    (NoSuchSeekError, 404),
    (SeekConflictError, 409),
)


@contextmanager
def answer_seek_refusals() -> Iterator[None]:
    """The club's refusals of seeks (and of a missing session) as ``ServiceError`` with their HTTP
    status, their words and their ``code``."""
    with answer_account_refusals():
        try:
            yield
        except SeekError as exc:
            status = next((code for kind, code in REFUSAL_STATUS if isinstance(exc, kind)), 400)
            raise ServiceError(status, exc.message, code=exc.code) from None


def seek_json(seek: SeekRow, viewer: str | None = None) -> dict[str, Any]:
    """A seek as the lobby lists it: public, with ``yours`` and ``joined`` for the viewer's account."""
    out: dict[str, Any] = {
        "id": seek.id,
        **seek.spec.to_json(),
        "pool": seek.pool,
        "by": seek.by,
        "rating": round(seek.rating),
        "provisional": seek.provisional,
        "seats": len(seek.members),
        "needed": seek.spec.players,
        "created": seek.created,
    }
    if viewer is not None:
        out["yours"] = seek.account_id == viewer
        out["joined"] = seek.member(viewer) is not None and seek.account_id != viewer
    return out


@dataclass(eq=False)
class LobbySocket:
    """A lobby page's socket: its account (None: nobody signed in), its session's secret (for its
    seats' tokens) and the queue its writer sends."""

    account: AccountRow | None
    session: str | None
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)


class Lobby:
    """The seeks of one server process: the requests, the sockets, the sweep and the news from
    the other processes."""

    def __init__(
        self,
        store: Store,
        accounts: Accounts,
        clock: Callable[[], float],
        rate: Rate = SEEK_RATE,
        sweep_seconds: float = SWEEP_SECONDS,
    ) -> None:
        self.store = store
        self.seeks = SeekStore(store)
        self.accounts = accounts
        self.clock = clock
        self.limit = RateLimit(rate, "seek requests", clock)
        self.sweep_seconds = sweep_seconds
        self.sockets: dict[str, set[LobbySocket]] = {}
        """This process's lobby sockets by account id ("" for those signed out)."""
        self.listener: Listener | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        """The loop the sockets and the lobby's tasks live on (the server's)."""
        self.sweeper: asyncio.Task[None] | None = None
        self.pushing: asyncio.Task[None] | None = None
        self.pushed = 0.0
        """When the last lists were sent (``time.monotonic``)."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.online: str | None = None
        """The last ``online`` message sent to the pages (what a new page is sent at once)."""
        self.online_due = False
        self.reading_online: asyncio.Task[None] | None = None
        self.marker: ThreadPoolExecutor | None = None
        """On PostgreSQL, the one thread that marks accounts away and back and sweeps, in the order
        asked (a page closed and opened again must end marked back), so that the event loop does
        not wait on those writes: a thousand lobby pages closing at once would hold up every table's
        socket for a minute. SQLite has one writer at a time, so there the loop does them itself."""

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Listen to the other processes (PostgreSQL) and sweep now and then."""
        self.loop = asyncio.get_running_loop()
        if self.store.shared:
            self.listener = Listener(self.store.url, self.store.origin, self.heard, channel=LOBBY_CHANNEL)
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep_forever(), name="cassino-seeks")

    async def stop(self) -> None:
        """Stop the sweep, the pushes and the listener."""
        for task in [self.sweeper, self.pushing, self.reading_online, *self.tasks]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self.listener is not None:
            await self.listener.stop()
        if self.marker is not None:
            self.marker.shutdown(wait=False)
            self.marker = None

    async def _in_order(self, work: Callable[..., None], *args: Any) -> None:
        """Run ``work`` after what was asked before it: on the marking thread (PostgreSQL), else now."""
        if not self.store.shared:
            work(*args)
            return
        if self.marker is None:
            self.marker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cassino-lobby")
        await asyncio.get_running_loop().run_in_executor(self.marker, work, *args)

    # ------------------------------------------------------------------ who asks
    def _signed_in(self, request: Request) -> tuple[AccountRow, str]:
        """The signed-in account and its session's secret; 401 without one."""
        return require_signed_in(self.accounts, request)

    def _joiner(self, account: AccountRow, session: str, key: str, pool: str) -> Joiner:
        """An account taking a seat with this browser: the hash of the token its session derives
        from ``key`` (the seek's id, or its own Play now request's) and its rating in the pool."""
        rating, provisional = account_rating(self.store, account.id, pool)
        return Joiner(account.id, token_hash(seat_token(session, key)), key, rating, provisional)

    # ------------------------------------------------------------------ making a full seek's game
    def _table(self, seek: SeekRow) -> NewTable:
        """The game of a full seek: its preset and seating, each member at its seat (in the order
        they came) holding the token its browser derives, unlisted, no hints (a contest), the count
        between hands at most ``SEEK_NEXT_AFTER`` seconds; rated in the seek's pool when it was, with
        its move clock."""
        spec = seek.spec
        rules = make_rules(spec.preset, players=spec.players, partnerships=spec.partnerships)
        game_id = secrets.token_hex(8)
        seed = new_seed()
        deck = derive_deck(game_id, 1, seed, {})
        first = HandRow(1, deck_text(deck), seed, seed_commitment(seed))
        seats = [SeatRow(i, "human", m.name, token_hash=m.token_hash) for i, m in enumerate(seek.members)]
        game = NewGame(
            game_id,
            rules.to_json(),
            seats,
            first,
            listed=False,
            next_hand_after=SEEK_NEXT_AFTER,
            created=self.clock(),
            seeds={1: seed, 2: new_seed()},
            help_allowed=False,
            move_seconds=spec.move_seconds if spec.rated else 0,
        )
        holders = [(i, m.account_id) for i, m in enumerate(seek.members)]
        return NewTable(game, holders, seek.pool if spec.rated else None)

    def _seat_answer(self, seek: SeekRow, account: AccountRow, session: str) -> dict[str, Any]:
        """What a member of a seek learns of its own seat: the seat, and once the game is made the
        game and the seat's token (null when this browser's session is not the one that joined)."""
        seat = seek.seat_of(account.id)
        member = seek.member(account.id)
        out: dict[str, Any] = {"seat": seat}
        if seek.status == FULL and seek.game_id is not None and member is not None:
            token = seat_token(session, member.token_key)
            out["game"] = seek.game_id
            out["token"] = token if token_hash(token) == member.token_hash else None
        return out

    def _taken_answer(self, taken: Taken, account: AccountRow, session: str) -> tuple[int, dict[str, Any]]:
        """200 with the game, the seat and the token once the table is full; 202 waiting before."""
        seek = taken.seek
        if seek.status == FULL:
            return 200, {"id": seek.id, **self._seat_answer(seek, account, session)}
        return 202, {"id": seek.id, "waiting": True, "seats": len(seek.members), "needed": seek.spec.players}

    # ------------------------------------------------------------------ requests
    def create(self, request: Request, body: dict[str, Any], client: str) -> dict[str, Any]:
        """Post a seek → its id and how it is listed."""
        account, session = self._signed_in(request)
        self.limit.take(client)
        seek_id = secrets.token_hex(8)
        with answer_seek_refusals():
            spec = seek_of_request(body)
            seek = self.seeks.add(seek_id, spec, self._joiner(account, session, seek_id, spec.pool), self.clock())
        self.changed("seeks")
        return seek_json(seek, account.id)

    def listed(self, request: Request) -> list[dict[str, Any]]:
        """The open seeks, with ``yours`` and ``joined`` for a signed-in asker."""
        account = self.accounts.session(request.cookies.get(COOKIE))
        viewer = account.id if account is not None else None
        return [seek_json(s, viewer) for s in self.seeks.open_seeks(self.clock(), LISTED)]

    def one(self, request: Request, seek_id: str) -> dict[str, Any]:
        """A seek and its status; for one of its members, its own seat (and game and token)."""
        with answer_seek_refusals():
            seek = self.seeks.seek(known_seek(seek_id))
            if seek is None:
                raise NoSuchSeekError(f"no seek {seek_id!r} here", "no_seek")
        account = self.accounts.session(request.cookies.get(COOKIE))
        out = {**seek_json(seek, account.id if account else None), "kind": seek.kind, "status": seek.status}
        if account is not None and seek.member(account.id) is not None:
            out.update(self._seat_answer(seek, account, request.cookies.get(COOKIE) or ""))
        return out

    def join(self, request: Request, seek_id: str, client: str) -> tuple[int, dict[str, Any]]:
        """Take a seat at a seek: 200 with the game when this was the last seat, else 202."""
        account, session = self._signed_in(request)
        self.limit.take(client)
        with answer_seek_refusals():
            found = self.seeks.seek(known_seek(seek_id))
            pool = found.pool if found is not None else ""
            taken = self.seeks.join(seek_id, self._joiner(account, session, seek_id, pool), self.clock(), self._table)
        self._after(taken)
        return self._taken_answer(taken, account, session)

    def cancel(self, request: Request, seek_id: str, client: str) -> dict[str, Any]:
        """Cancel one's own open seek (or Play now request)."""
        account, _ = self._signed_in(request)
        self.limit.take(client)
        with answer_seek_refusals():
            self.seeks.cancel(known_seek(seek_id), account.id, self.clock())
        self.changed("seeks")
        return {"id": seek_id, "cancelled": True}

    def leave(self, request: Request, seek_id: str, client: str) -> dict[str, Any]:
        """Give up one's seat at a seek one joined, before its table is full."""
        account, _ = self._signed_in(request)
        self.limit.take(client)
        with answer_seek_refusals():
            self.seeks.leave(known_seek(seek_id), account.id, self.clock())
        self.changed("seeks")
        return {"id": seek_id, "left": True}

    def play_now(self, request: Request, body: dict[str, Any], client: str) -> tuple[int, dict[str, Any]]:
        """Meet a waiting person of a near rating in the pool (200 once the table is full), or wait
        (202) with the computer player of one's level to offer after ``wait`` seconds."""
        account, session = self._signed_in(request)
        self.limit.take(client)
        request_id = secrets.token_hex(8)
        with answer_seek_refusals():
            spec, wait = play_now_of_request(body)
            joiner = self._joiner(account, session, request_id, spec.pool)
            taken = self.seeks.play_now(request_id, spec, joiner, self.clock(), self._table)
        self._after(taken)
        status, answer = self._taken_answer(taken, account, session)
        if status == 202:  # yours: false when it took a seat at another's request (3 or 4 players)
            yours = taken.seek.account_id == account.id
            level = level_for_rating(joiner.rating)
            answer.update({"yours": yours, "wait": wait, "rating": round(joiner.rating), "level": level})
        return status, answer

    def _after(self, taken: Taken) -> None:
        """Tell this process's pages what a seat taken changed: the list, and the members of a
        seek whose game was just made."""
        if taken.made_game:
            self.changed(f"ready {taken.seek.id}")
        else:
            self.changed("seeks")

    # ------------------------------------------------------------------ news
    def changed(self, what: str) -> None:
        """A change made here or heard of: ``seeks`` (send the list again), ``ready ID`` (tell the
        members of seek ID too) or ``online`` (who is online changed). The pages are told on the
        lobby's loop, whichever thread asks."""
        kind, _, seek_id = what.partition(" ")

        def tell() -> None:
            if kind == "online":
                self._online_soon()
                return
            if kind == "ready" and seek_id:
                self._later(self._tell_ready(seek_id))
            self._push_soon()

        self._on_loop(tell)

    def _on_loop(self, work: Callable[[], None]) -> None:
        """Run ``work`` on the lobby's loop: now when called there, else as soon as it can."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return  # not started: no page to tell
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            work()
        else:
            loop.call_soon_threadsafe(work)

    def heard(self, _game: str | None, what: str) -> None:
        """Another process's change (``LOBBY_CHANNEL``); ``reset``: the listener was lost a while,
        so every page is sent the list again and told again of games made meanwhile."""
        if what == "reset" or _game is None:
            for sockets in list(self.sockets.values()):
                for sock in sockets:
                    self._later(self._tell_made(sock))
            self._push_soon()
            self._online_soon()
            return
        self.changed(what)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of the lobby (on its loop), kept until it is done."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _push_soon(self) -> None:
        """Send the list to every socket shortly (changes close together make one list)."""
        if self.pushing is None or self.pushing.done():
            self.pushing = asyncio.get_running_loop().create_task(self._push())

    async def _push(self) -> None:
        """Send the lists once the changes close together are in (``PUSH_DELAY``), and no sooner
        after the last lists than the open sockets' pace allows (``PUSH_PACE`` each)."""
        sockets = sum(len(group) for group in self.sockets.values())
        await asyncio.sleep(max(PUSH_DELAY, self.pushed + PUSH_PACE * sockets - time.monotonic()))
        self.pushed = time.monotonic()
        try:
            self._send_lists(self.seeks.live(self.clock(), 10 * LISTED))
        except Exception:
            log.exception("the lobby's seeks could not be read to send them")

    def _send_lists(self, live: list[SeekRow], only: LobbySocket | None = None) -> None:
        """Each socket's list: the listed seeks (marked ``yours`` and ``joined``) and its account's
        own Play now requests. Each seek is written once as JSON for a viewer who is not in it and
        once for each of its members, and a socket's message is put together from those pieces, so
        a thousand pages cost a thousand joins of strings, not a thousand lists written."""
        listed = [s for s in live if s.kind == SEEK][:LISTED]
        targets = [only] if only is not None else [s for group in self.sockets.values() for s in group]
        outside = [encode(seek_json(s, "")) for s in listed]  # as a viewer in none of them sees it
        anonymous = '{"type":"seeks","seeks":[' + ",".join(encode(seek_json(s)) for s in listed) + '],"play_now":[]}'
        involved: dict[str, list[int]] = {}  # by account: the listed seeks it posted or joined
        for i, seek in enumerate(listed):
            for account in {seek.account_id, *(m.account_id for m in seek.members)}:
                involved.setdefault(account, []).append(i)
        waiting: dict[str, list[dict[str, Any]]] = {}  # by account: its own Play now requests
        for seek in live:
            if seek.kind != SEEK:
                for member in seek.members:
                    waiting.setdefault(member.account_id, []).append(
                        {
                            **seek_json(seek, member.account_id),
                            "kind": seek.kind,
                            "level": level_for_rating(member.rating),
                        }
                    )
        built: dict[str | None, str] = {None: anonymous}
        for sock in targets:
            viewer = sock.account.id if sock.account is not None else None
            if viewer not in built:
                account = viewer or ""
                pieces = list(outside)
                for i in involved.get(account, ()):
                    pieces[i] = encode(seek_json(listed[i], account))
                mine = json.dumps(waiting.get(account, []), separators=(",", ":"))
                built[viewer] = '{"type":"seeks","seeks":[' + ",".join(pieces) + '],"play_now":' + mine + "}"
            sock.queue.put_nowait(built[viewer])

    async def _tell_ready(self, seek_id: str) -> None:
        """Tell the pages here of the members of a seek whose game was made."""
        try:
            seek = self.seeks.seek(seek_id)
        except Exception:
            log.exception("seek %s: could not be read to tell its members", seek_id)
            return
        if seek is None or seek.status != FULL:
            return
        for member in seek.members:
            for sock in list(self.sockets.get(member.account_id, ())):
                self._send_ready(sock, seek)

    def _send_ready(self, sock: LobbySocket, seek: SeekRow) -> None:
        """Tell one page of a member that its seek's game is made, with its own seat and token."""
        if sock.account is None:
            return
        answer = self._seat_answer(seek, sock.account, sock.session or "")
        if "game" in answer:
            sock.queue.put_nowait(encode({"type": "ready", "seek": seek.id, **seek.spec.to_json(), **answer}))

    async def _tell_made(self, sock: LobbySocket) -> None:
        """Tell a page of its account's games made from seeks a short while ago."""
        if sock.account is None:
            return
        try:
            made = self.seeks.made_since(sock.account.id, self.clock() - READY_AGAIN)
        except Exception:
            log.exception("the games made for a lobby page could not be read")
            return
        for seek in made:
            self._send_ready(sock, seek)

    # ------------------------------------------------------------------ presence and the sweep
    def _present(self, accounts: list[str], since: float | None) -> None:
        """Mark accounts away (``since``) or back (None); a failure is logged: the sweep tries again."""
        try:
            if self.seeks.set_away(accounts, since):
                self.changed("seeks")
        except Exception:
            log.exception("the lobby could not mark accounts %s", "away" if since is not None else "back")

    def _arrived(self, account_id: str) -> None:
        """An account's first lobby page here opened: its seeks and seats back, and it is online."""
        self._present([account_id], None)
        try:
            self.seeks.came(account_id, self.clock())
        except Exception:
            log.exception("the lobby could not mark an account online")
        self.changed("online")

    def _left(self, account_id: str, since: float) -> None:
        """An account's last lobby page here closed: its seeks and seats away, and it is offline
        here (a page of it in another process keeps it online)."""
        self._present([account_id], since)
        try:
            self.seeks.went(account_id)
        except Exception:
            log.exception("the lobby could not mark an account offline")
        self.changed("online")

    def _online_soon(self) -> None:
        """Read who is online again shortly and send it to the pages if it changed (on the loop;
        changes within ``ONLINE_PACE`` make one reading)."""
        self.online_due = True
        if self.reading_online is None or self.reading_online.done():
            self.reading_online = asyncio.get_running_loop().create_task(self._read_online_soon())

    async def _read_online_soon(self) -> None:
        """Read who is online after ``ONLINE_PACE``, again while changes came meanwhile."""
        while self.online_due:
            await asyncio.sleep(ONLINE_PACE)
            self.online_due = False
            try:
                await self._in_order(self._read_online)
            except Exception:
                log.exception("who is online in the lobby could not be read")

    def _read_online(self) -> None:
        """Who is online in every process: sent to the pages here when it changed (any thread)."""
        count, names = self.seeks.online(self.clock() - self._online_for(), ONLINE_LISTED)
        message = encode({"type": "online", "count": count, "names": names})
        if message != self.online:
            self.online = message
            self._on_loop(lambda: self._send_all(message))

    def _online_for(self) -> float:
        """Seconds a row of who is online lasts without being seen again: three sweeps."""
        return 3 * self.sweep_seconds

    def _send_all(self, message: str) -> None:
        """Put one message in every lobby socket's queue here."""
        for group in self.sockets.values():
            for sock in group:
                sock.queue.put_nowait(message)

    async def _sweep_forever(self) -> None:
        """``sweep`` every ``sweep_seconds``, whatever one of them met."""
        while True:
            await asyncio.sleep(self.sweep_seconds)
            here = self._here()  # read on the loop
            try:
                await self._in_order(self.sweep, here)
            except Exception:
                log.exception("the lobby's sweep failed; it runs again")

    def _here(self) -> list[str]:
        """The accounts with a lobby page open in this process."""
        return [a for a, group in self.sockets.items() if a and group]

    def sweep(self, here: list[str] | None = None) -> None:
        """Mark the accounts with a page here present and online (``here``, read from the sockets
        when not given), expire what is due, and match the Play now requests that have grown near.
        Any thread: the pages are told on the loop."""
        now = self.clock()
        here = self._here() if here is None else here
        self._present(here, None)
        try:
            self.seeks.beat(here, now, now - self._online_for())
            self._read_online()
        except Exception:
            log.exception("the lobby could not mark who is online")
        if self.seeks.sweep(now):
            self.changed("seeks")
        for pool in self.seeks.pools_waiting(now):
            for taken in self.seeks.match_waiting(pool, now, self._table):
                self._after(taken)

    # ------------------------------------------------------------------ sockets
    async def serve(self, websocket: WebSocket) -> None:
        """A lobby page's socket: the list at once and at every change, ``ready`` for its account's
        games; it may send ``{"type": "seeks"}`` to be sent the list again."""
        session = websocket.cookies.get(COOKIE)
        try:
            account = self.accounts.session(session)
        except Exception:
            log.exception("a lobby socket's session could not be read")
            await websocket.close(code=1011)
            return
        sock = LobbySocket(account, session if account is not None else None)
        key = account.id if account is not None else ""
        first = not self.sockets.get(key)
        self.sockets.setdefault(key, set()).add(sock)
        try:
            if account is not None and first:
                await self._in_order(self._arrived, account.id)
            self._send_lists(self.seeks.live(self.clock(), 10 * LISTED), only=sock)
            if self.online is not None:
                sock.queue.put_nowait(self.online)
            await self._tell_made(sock)
        except Exception:
            log.exception("a lobby socket could not be opened")
            await websocket.close(code=1011)
            self._forget(sock, key)
            return

        async def writer() -> None:
            """Send the socket's queue in order."""
            while True:
                await websocket.send_text(await sock.queue.get())

        sending = asyncio.create_task(writer())
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                try:
                    if frame.get("text") is None:
                        raise ServiceError(400, "messages must be text frames holding a JSON object, not binary")
                    message = parse_json(frame["text"], "a message")
                    if message.get("type") != "seeks":
                        raise ServiceError(400, "the lobby's socket answers one message type: 'seeks'")
                    self._send_lists(self.seeks.live(self.clock(), 10 * LISTED), only=sock)
                except ServiceError as exc:
                    sock.queue.put_nowait(encode({"type": "error", "status": exc.status, "error": brief(exc.message)}))
                except Exception:
                    log.exception("a lobby socket's message failed")
                    sock.queue.put_nowait(encode({"type": "error", "status": 500, "error": "internal error"}))
        except WebSocketDisconnect:
            pass
        finally:
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sending
            self._forget(sock, key)

    def _forget(self, sock: LobbySocket, key: str) -> None:
        """A page closed: its account's seeks and seats are away once its last page here closed."""
        group = self.sockets.get(key, set())
        group.discard(sock)
        if not group:
            self.sockets.pop(key, None)
            if key:
                self._later(self._in_order(self._left, key, self.clock()))


def add_seek_routes(
    app: FastAPI,
    lobby: Lobby,
    client_of: Callable[[Request], str],
    may_connect: Callable[[WebSocket], bool],
) -> None:
    """The lobby's routes on the app; ``may_connect`` is the app's check of a socket's origin."""

    @app.get("/api/seeks")
    async def list_seeks(request: Request) -> JSONResponse:
        return no_store(200, {"seeks": lobby.listed(request)})

    @app.post("/api/seeks")
    async def post_seek(request: Request) -> JSONResponse:
        return no_store(201, lobby.create(request, await json_body(request), client_of(request)))

    @app.get("/api/seeks/{seek_id}")
    async def get_seek(seek_id: str, request: Request) -> JSONResponse:
        return no_store(200, lobby.one(request, seek_id))

    @app.post("/api/seeks/{seek_id}/join")
    async def join_seek(seek_id: str, request: Request) -> JSONResponse:
        return no_store(*lobby.join(request, seek_id, client_of(request)))

    @app.post("/api/seeks/{seek_id}/leave")
    async def leave_seek(seek_id: str, request: Request) -> JSONResponse:
        return no_store(200, lobby.leave(request, seek_id, client_of(request)))

    @app.delete("/api/seeks/{seek_id}")
    async def cancel_seek(seek_id: str, request: Request) -> JSONResponse:
        return no_store(200, lobby.cancel(request, seek_id, client_of(request)))

    @app.post("/api/play-now")
    async def play_now(request: Request) -> JSONResponse:
        return no_store(*lobby.play_now(request, await json_body(request), client_of(request)))

    @app.websocket("/api/lobby/socket")
    async def lobby_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        if not may_connect(websocket):
            await websocket.close(code=1008, reason="this page's origin may not open the lobby's socket")
            return
        await lobby.serve(websocket)
