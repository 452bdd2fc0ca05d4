"""The lobby's seeks in the web app's database (``schema.seeks_table`` and its members), beside the
games and the accounts, so that every server process sees the same seeks.

Whatever takes a seat is one transaction that holds the seek's lock from its first read to its
commit: on PostgreSQL the seek's row (``SELECT ... FOR UPDATE``) and, where a Play now request
looks for a match, an advisory lock on its pool; on SQLite the database's write lock, taken at the
start (``BEGIN IMMEDIATE``). So two people taking the last seat at once are served one after the
other: the first makes the game (in the same transaction, with each seat held by its account),
and the second finds the seek full. Each change tells the other processes on ``LOBBY_CHANNEL``
when it commits (PostgreSQL); the caller tells its own process.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, text, update
from sqlalchemy.exc import IntegrityError

from ..club.errors import NoSuchSeekError, NotYourSeekError, SeekConflictError
from ..club.seeks import AWAY_GRACE, MAX_AGE, MAX_OPEN_PER_ACCOUNT, NOW_GRACE, PLAY_NOW, SEEK, SeekSpec, near
from .notify import LOBBY_CHANNEL
from .schema import (
    NewGame,
    accounts_table,
    lobby_online_table,
    rated_games_table,
    seat_holders_table,
    seek_clocks_table,
    seek_members_table,
    seeks_table,
)
from .store import Store

_seeks = seeks_table.c
_members = seek_members_table.c
_accounts = accounts_table.c
_online = lobby_online_table.c

OPEN = "open"
FULL = "full"
CANCELLED = "cancelled"
EXPIRED = "expired"
MERGED = "merged"


@dataclass(frozen=True, slots=True)
class Member:
    """Who sits at a seek: an account, its place (0: the creator, then the joiners in order), the
    hash of its seat token, its rating when it joined, and since when its lobby is closed."""

    account_id: str
    name: str
    place: int
    token_hash: str
    token_key: str
    rating: float
    joined: float
    away_since: float | None = None


@dataclass(frozen=True, slots=True)
class SeekRow:
    """A seek as stored, with its members in seat order."""

    id: str
    kind: str
    account_id: str
    by: str
    spec: SeekSpec
    pool: str
    rating: float
    provisional: bool
    created: float
    status: str
    game_id: str | None
    away_since: float | None
    members: tuple[Member, ...] = ()
    gone: bool = False
    """Its creator's account was deleted: it is open no more."""

    @property
    def full(self) -> bool:
        """Every seat taken."""
        return len(self.members) >= self.spec.players

    def member(self, account_id: str) -> Member | None:
        """The account's place at the seek, if it has one."""
        return next((m for m in self.members if m.account_id == account_id), None)

    def seat_of(self, account_id: str) -> int | None:
        """The seat the account has (or will have) at the seek's game: its index in seat order."""
        return next((i for i, m in enumerate(self.members) if m.account_id == account_id), None)


@dataclass(frozen=True, slots=True)
class Joiner:
    """An account taking a seat: its id, the hash of the seat token its browser will hold and the
    id that token is derived from (``club.seeks.seat_token``), its rating and whether that is
    provisional."""

    account_id: str
    token_hash: str
    token_key: str
    rating: float
    provisional: bool = True


@dataclass(frozen=True, slots=True)
class NewTable:
    """What a full seek's game stores: the game's rows, its seats' holders (seat, account), and
    the rating pool when it is rated."""

    game: NewGame
    holders: list[tuple[int, str]]
    pool: str | None


@dataclass
class Taken:
    """What taking a seat did: the seek after it, and whether this call made its game."""

    seek: SeekRow
    made_game: bool = False
    changed: set[str] = field(default_factory=set)
    """Other seeks changed on the way (Play now requests merged into this one)."""


MakeTable = Callable[[SeekRow], NewTable]
"""Builds the game of a full seek (its members in seat order): called inside the transaction."""


def lock_key(name: str) -> int:
    """A PostgreSQL advisory lock's key for a name (a signed 64-bit number)."""
    return int.from_bytes(hashlib.sha256(f"cassino-seeks|{name}".encode()).digest()[:8], "big", signed=True)


def live_condition(now: float) -> Any:
    """The open seeks that have not expired by now (those the sweep has not yet marked)."""
    deleted = select(_accounts.id).where(_accounts.deleted.is_not(None))
    return and_(
        _seeks.status == OPEN,
        _seeks.created > now - MAX_AGE,
        _seeks.account_id.not_in(deleted),
        or_(
            _seeks.away_since.is_(None),
            and_(_seeks.kind != PLAY_NOW, _seeks.away_since > now - AWAY_GRACE),
            and_(_seeks.kind == PLAY_NOW, _seeks.away_since > now - NOW_GRACE),
        ),
    )


def alive(seek: SeekRow, now: float) -> bool:
    """``live_condition`` of one seek read already."""
    if seek.status != OPEN or seek.created <= now - MAX_AGE or seek.gone:
        return False
    grace = NOW_GRACE if seek.kind == PLAY_NOW else AWAY_GRACE
    return seek.away_since is None or seek.away_since > now - grace


def present(seek: SeekRow) -> bool:
    """Whether every person at a seek has a lobby page open (only such Play now requests match)."""
    return seek.away_since is None and all(m.away_since is None for m in seek.members)


class SeekStore:
    """The seeks over a ``Store``'s engine (SQLite or PostgreSQL)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        self.postgres = store.dialect == "postgresql"

    # ------------------------------------------------------------------ transactions
    @contextmanager
    def _writing(self, *locks: str) -> Iterator[Connection]:
        """A write transaction holding the named advisory locks (PostgreSQL, in a fixed order, so
        that no two transactions wait on each other) or the database's write lock (SQLite)."""
        with self.engine.begin() as conn:
            if self.postgres:
                for name in sorted(set(locks)):
                    conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": lock_key(name)})
            else:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            yield conn

    def _notify(self, conn: Connection, what: str) -> None:
        """Tell the other processes when this transaction commits (PostgreSQL)."""
        if self.store.shared:
            conn.execute(
                text("SELECT pg_notify(:c, :p)"), {"c": LOBBY_CHANNEL, "p": f"lobby {self.store.origin} {what}"}
            )

    # ------------------------------------------------------------------ reading
    def _rows(self, conn: Connection, condition: Any, lock: bool = False, limit: int | None = None) -> list[SeekRow]:
        """Seeks with their members, oldest first; ``lock`` locks their rows (PostgreSQL)."""
        query = (
            select(
                seeks_table,
                _accounts.name.label("by"),
                _accounts.deleted.label("gone"),
                seek_clocks_table.c.move_seconds,
            )
            .join(accounts_table, _accounts.id == _seeks.account_id)
            .outerjoin(seek_clocks_table, seek_clocks_table.c.seek_id == _seeks.id)
            .where(condition)
            .order_by(_seeks.created, _seeks.id)
        )
        if limit is not None:
            query = query.limit(limit)
        if lock and self.postgres:
            query = query.with_for_update(of=seeks_table)
        rows = conn.execute(query).all()
        if not rows:
            return []
        ids = [r.id for r in rows]
        members: dict[str, list[Member]] = {i: [] for i in ids}
        found = conn.execute(
            select(seek_members_table, _accounts.name)
            .join(accounts_table, _accounts.id == _members.account_id)
            .where(_members.seek_id.in_(ids))
            .order_by(_members.place)
        )
        for m in found:
            members[m.seek_id].append(
                Member(m.account_id, m.name, m.place, m.token_hash, m.token_key, m.rating, m.joined, m.away_since)
            )
        return [
            SeekRow(
                r.id,
                r.kind,
                r.account_id,
                r.by,
                SeekSpec(r.preset, r.players, bool(r.partnerships), bool(r.rated), int(r.move_seconds or 0)),
                r.pool,
                r.rating,
                bool(r.provisional),
                r.created,
                r.status,
                r.game_id,
                r.away_since,
                tuple(members[r.id]),
                r.gone is not None,
            )
            for r in rows
        ]

    def seek(self, seek_id: str) -> SeekRow | None:
        """A seek by its id, whatever its status."""
        with self.engine.connect() as conn:
            found = self._rows(conn, _seeks.id == seek_id)
        return found[0] if found else None

    def open_seeks(self, now: float, limit: int) -> list[SeekRow]:
        """The listed seeks still open, oldest first, at most ``limit``."""
        with self.engine.connect() as conn:
            return self._rows(conn, and_(live_condition(now), _seeks.kind != PLAY_NOW), limit=limit)

    def live(self, now: float, limit: int) -> list[SeekRow]:
        """Every open seek and Play now request, oldest first, at most ``limit``."""
        with self.engine.connect() as conn:
            return self._rows(conn, live_condition(now), limit=limit)

    def made_since(self, account_id: str, since: float) -> list[SeekRow]:
        """The account's seeks whose game was made since ``since``: their pages are told again
        when they open (a page that was reloading when its game was made)."""
        mine = select(_members.seek_id).where(_members.account_id == account_id)
        with self.engine.connect() as conn:
            return self._rows(conn, and_(_seeks.status == FULL, _seeks.ended > since, _seeks.id.in_(mine)))

    # ------------------------------------------------------------------ writing
    def _open_count(self, conn: Connection, account_id: str, now: float) -> int:
        """How many open seeks and Play now requests the account made or joined."""
        mine = select(_members.seek_id).where(_members.account_id == account_id)
        query = select(func.count()).select_from(seeks_table).where(live_condition(now), _seeks.id.in_(mine))
        return int(conn.execute(query).scalar_one())

    def _too_many(self, conn: Connection, account_id: str, now: float) -> None:
        """The 409 for one more seek than ``MAX_OPEN_PER_ACCOUNT``: a bound on what one account holds."""
        if self._open_count(conn, account_id, now) >= MAX_OPEN_PER_ACCOUNT:
            raise SeekConflictError(
                f"you have {MAX_OPEN_PER_ACCOUNT} open seeks and Play now requests already (made or joined), the "
                "most an account may have: cancel one or wait for a game",
                "too_many_seeks",
            )

    def _insert(self, conn: Connection, seek_id: str, kind: str, spec: SeekSpec, who: Joiner, now: float) -> None:
        """A new open seek with its creator at place 0; the 409 when the account has an open one of
        the kind in the pool (the unique ``open_slot``)."""
        self._too_many(conn, who.account_id, now)
        try:
            with conn.begin_nested():
                conn.execute(
                    insert(seeks_table),
                    {
                        "id": seek_id,
                        "kind": kind,
                        "account_id": who.account_id,
                        "preset": spec.preset,
                        "players": spec.players,
                        "partnerships": spec.partnerships,
                        "rated": spec.rated,
                        "pool": spec.pool,
                        "rating": who.rating,
                        "provisional": who.provisional,
                        "created": now,
                        "status": OPEN,
                        "open_slot": f"{kind}:{spec.pool}",
                    },
                )
        except IntegrityError:
            what = "a Play now request" if kind == PLAY_NOW else "an open seek"
            raise SeekConflictError(
                f"you have {what} for {spec.pool} already: one per pool (cancel it to post another)", "one_per_pool"
            ) from None
        if spec.move_seconds:
            conn.execute(insert(seek_clocks_table), {"seek_id": seek_id, "move_seconds": spec.move_seconds})
        conn.execute(
            insert(seek_members_table),
            {
                "seek_id": seek_id,
                "account_id": who.account_id,
                "place": 0,
                "token_hash": who.token_hash,
                "token_key": who.token_key,
                "rating": who.rating,
                "joined": now,
            },
        )

    def _expire_stale(self, conn: Connection, now: float) -> int:
        """Mark open seeks that have expired by now; how many."""
        stale = and_(_seeks.status == OPEN, ~live_condition(now))
        done = conn.execute(update(seeks_table).where(stale).values(status=EXPIRED, open_slot=None, ended=now))
        return int(done.rowcount or 0)

    def add(self, seek_id: str, spec: SeekSpec, who: Joiner, now: float) -> SeekRow:
        """Post a listed seek; ``SeekConflictError`` for a second in its pool or one too many."""
        with self._writing(f"account:{who.account_id}") as conn:
            self._expire_stale(conn, now)  # an expired seek of the pool no longer holds its slot
            self._insert(conn, seek_id, SEEK, spec, who, now)
            self._notify(conn, "seeks")
            return self._rows(conn, _seeks.id == seek_id)[0]

    def join(self, seek_id: str, who: Joiner, now: float, make: MakeTable) -> Taken:
        """Take the next seat of an open seek, and make its game when that was the last one, all in
        one transaction holding the seek's lock."""
        with self._writing() as conn:
            found = self._rows(conn, and_(_seeks.id == seek_id, _seeks.kind != PLAY_NOW), lock=True)
            if not found:
                raise NoSuchSeekError(f"no seek {seek_id[:40]!r} here", "no_seek")
            seek = found[0]
            if seek.account_id == who.account_id:
                raise SeekConflictError("this is your own seek: wait for others to join it", "own_seek")
            if seek.member(who.account_id) is not None:
                raise SeekConflictError(f"you have joined seek {seek_id} already: wait for its table to fill", "joined")
            self._check_open(conn, seek, now)
            self._too_many(conn, who.account_id, now)
            taken = self._take(conn, seek, [who], now, make)
            self._notify(conn, f"ready {seek_id}" if taken.made_game else "seeks")
            return taken

    def _check_open(self, conn: Connection, seek: SeekRow, now: float) -> None:
        """The 409 saying why a seek may not be joined, left or cancelled: it is full, cancelled,
        matched or expired (one found expired is marked so now)."""
        if seek.status == OPEN and seek.full:  # cannot stay so: the seat that filled it made the game
            raise SeekConflictError(f"seek {seek.id} is full", "full")
        if alive(seek, now):
            return
        status = seek.status
        if status == OPEN:
            self._expire_stale(conn, now)
            status = EXPIRED
        why = {
            FULL: "its table is full and its game has begun",
            CANCELLED: "its creator cancelled it",
            EXPIRED: "its creator's account was deleted"
            if seek.gone
            else "it expired (its creator left the lobby, or it waited too long)",
            MERGED: "it was matched",
        }.get(status, status)
        raise SeekConflictError(f"seek {seek.id} is no longer open: {why}", "not_open")

    def _take(self, conn: Connection, seek: SeekRow, joiners: list[Joiner], now: float, make: MakeTable) -> Taken:
        """Seat the joiners after the seek's members; make the game when it is full."""
        place = max((m.place for m in seek.members), default=-1) + 1
        for offset, who in enumerate(joiners):
            conn.execute(
                insert(seek_members_table),
                {
                    "seek_id": seek.id,
                    "account_id": who.account_id,
                    "place": place + offset,
                    "token_hash": who.token_hash,
                    "token_key": who.token_key,
                    "rating": who.rating,
                    "joined": now,
                },
            )
        seek = self._rows(conn, _seeks.id == seek.id)[0]
        if not seek.full:
            return Taken(seek)
        table = make(seek)
        self.store.create_games([table.game], within=conn)
        conn.execute(
            insert(seat_holders_table),
            [{"game_id": table.game.id, "seat": s, "account_id": a, "since": now} for s, a in table.holders],
        )
        if table.pool is not None:
            conn.execute(insert(rated_games_table), {"game_id": table.game.id, "pool": table.pool, "rated_at": None})
        conn.execute(
            update(seeks_table)
            .where(_seeks.id == seek.id)
            .values(status=FULL, game_id=table.game.id, open_slot=None, ended=now)
        )
        return Taken(self._rows(conn, _seeks.id == seek.id)[0], made_game=True)

    def cancel(self, seek_id: str, account_id: str, now: float) -> SeekRow:
        """Cancel an open seek: only its creator may (403), and only while it is open (409)."""
        with self._writing() as conn:
            found = self._rows(conn, _seeks.id == seek_id, lock=True)
            if not found:
                raise NoSuchSeekError(f"no seek {seek_id[:40]!r} here", "no_seek")
            seek = found[0]
            if seek.account_id != account_id:
                raise NotYourSeekError("only the seek's creator may cancel it", "not_yours")
            self._check_open(conn, seek, now)
            conn.execute(
                update(seeks_table).where(_seeks.id == seek_id).values(status=CANCELLED, open_slot=None, ended=now)
            )
            self._notify(conn, "seeks")
            return self._rows(conn, _seeks.id == seek_id)[0]

    def leave(self, seek_id: str, account_id: str, now: float) -> SeekRow:
        """Give up one's seat at a seek one joined, while it is open; its creator cancels instead."""
        with self._writing() as conn:
            found = self._rows(conn, _seeks.id == seek_id, lock=True)
            if not found:
                raise NoSuchSeekError(f"no seek {seek_id[:40]!r} here", "no_seek")
            seek = found[0]
            if seek.account_id == account_id:
                raise SeekConflictError("this is your own seek: cancel it instead", "own_seek")
            if seek.member(account_id) is None:
                raise SeekConflictError(f"you have no seat at seek {seek_id}", "not_joined")
            self._check_open(conn, seek, now)
            conn.execute(
                delete(seek_members_table).where(_members.seek_id == seek_id, _members.account_id == account_id)
            )
            self._notify(conn, "seeks")
            return self._rows(conn, _seeks.id == seek_id)[0]

    def play_now(self, seek_id: str, spec: SeekSpec, who: Joiner, now: float, make: MakeTable) -> Taken:
        """Join the oldest Play now request of the pool whose rating is near (and whose people are
        all still there), or wait as a new one; under the pool's lock, so that two people pressing at
        once meet instead of both waiting. Pressing again while waiting answers the same request."""
        with self._writing(f"pool:{spec.pool}") as conn:
            self._expire_stale(conn, now)
            pool = and_(live_condition(now), _seeks.kind == PLAY_NOW, _seeks.pool == spec.pool)
            waiting = self._rows(conn, pool, lock=True)
            mine = next((s for s in waiting if s.member(who.account_id) is not None), None)
            if mine is not None:
                return Taken(mine)
            for seek in waiting:
                if seek.full or not present(seek) or seek.spec.move_seconds != spec.move_seconds:
                    continue
                if near(who.rating, seek.rating, now - seek.created):
                    self._too_many(conn, who.account_id, now)
                    taken = self._take(conn, seek, [who], now, make)
                    self._notify(conn, f"ready {seek.id}" if taken.made_game else "seeks")
                    return taken
            self._insert(conn, seek_id, PLAY_NOW, spec, who, now)
            self._notify(conn, "seeks")
            return Taken(self._rows(conn, _seeks.id == seek_id)[0])

    def match_waiting(self, pool: str, now: float, make: MakeTable) -> list[Taken]:
        """Join Play now requests of a pool that have grown near as they waited (the window widens
        with time): each younger request's people move to the oldest near one that has room."""
        done: list[Taken] = []
        with self._writing(f"pool:{pool}") as conn:
            found = self._rows(conn, and_(live_condition(now), _seeks.kind == PLAY_NOW, _seeks.pool == pool), lock=True)
            waiting = [s for s in found if present(s)]
            gone: set[str] = set()
            for i, older in enumerate(waiting):
                if older.id in gone:
                    continue
                for younger in waiting[i + 1 :]:
                    if younger.id in gone or older.full:
                        continue
                    room = older.spec.players - len(older.members)
                    accounts = {m.account_id for m in older.members}
                    if len(younger.members) > room or accounts & {m.account_id for m in younger.members}:
                        continue
                    if younger.spec.move_seconds != older.spec.move_seconds:
                        continue
                    if not near(older.rating, younger.rating, now - older.created):
                        continue
                    conn.execute(
                        update(seeks_table)
                        .where(_seeks.id == younger.id)
                        .values(status=MERGED, open_slot=None, ended=now)
                    )
                    conn.execute(delete(seek_members_table).where(_members.seek_id == younger.id))
                    joiners = [Joiner(m.account_id, m.token_hash, m.token_key, m.rating) for m in younger.members]
                    taken = self._take(conn, older, joiners, now, make)
                    taken.changed.add(younger.id)
                    gone.add(younger.id)
                    older = taken.seek
                    done.append(taken)
                    self._notify(conn, f"ready {older.id}" if taken.made_game else "seeks")
        return done

    def pools_waiting(self, now: float) -> list[str]:
        """The pools with two or more Play now requests open (some may match as they wait)."""
        query = (
            select(_seeks.pool)
            .where(live_condition(now), _seeks.kind == PLAY_NOW)
            .group_by(_seeks.pool)
            .having(func.count() > 1)
        )
        with self.engine.connect() as conn:
            return [str(r.pool) for r in conn.execute(query)]

    # ------------------------------------------------------------------ presence and expiry
    def set_away(self, accounts: list[str], since: float | None) -> int:
        """Mark the accounts' open seeks and seats as away since ``since`` (their last lobby page
        closed) or back (None: a page of theirs is open); how many rows changed."""
        if not accounts:
            return 0
        open_ids = select(_seeks.id).where(_seeks.status == OPEN)
        was = _members.away_since.is_(None) if since is not None else _members.away_since.is_not(None)
        to_change = select(func.count()).where(_members.account_id.in_(accounts), _members.seek_id.in_(open_ids), was)
        with self.engine.connect() as conn:
            if not conn.execute(to_change).scalar_one():
                return 0  # nothing to mark: no write lock taken
        changed = 0
        with self._writing() as conn:
            moved = _seeks.away_since.is_(None) if since is not None else _seeks.away_since.is_not(None)
            done = conn.execute(
                update(seeks_table)
                .where(_seeks.status == OPEN, _seeks.account_id.in_(accounts), moved)
                .values(away_since=since)
            )
            changed += int(done.rowcount or 0)
            done = conn.execute(
                update(seek_members_table)
                .where(_members.account_id.in_(accounts), _members.seek_id.in_(open_ids), was)
                .values(away_since=since)
            )
            changed += int(done.rowcount or 0)
            if changed:
                self._notify(conn, "seeks")
        return changed

    def sweep(self, now: float) -> bool:
        """Expire the seeks whose time is up or whose creator left, and give up the seats of joiners
        who left; True when anything changed."""
        with self.engine.connect() as conn:
            opened = conn.execute(select(func.count()).select_from(seeks_table).where(_seeks.status == OPEN))
            if not opened.scalar_one():
                return False  # nothing open: no write lock taken
        with self._writing() as conn:
            changed = self._expire_stale(conn, now)
            open_ids = select(_seeks.id).where(_seeks.status == OPEN)
            gone = conn.execute(
                delete(seek_members_table).where(
                    _members.seek_id.in_(open_ids),
                    _members.place > 0,
                    _members.away_since.is_not(None),
                    or_(
                        _members.away_since <= now - AWAY_GRACE,
                        and_(
                            _members.away_since <= now - NOW_GRACE,
                            _members.seek_id.in_(select(_seeks.id).where(_seeks.kind == PLAY_NOW)),
                        ),
                    ),
                )
            )
            changed += int(gone.rowcount or 0)
            if changed:
                self._notify(conn, "seeks")
        return bool(changed)

    # ------------------------------------------------------------------ who is online in the lobby
    def came(self, account_id: str, now: float) -> None:
        """A lobby page of the account opened in this process (its first here): its row, seen now."""
        mine = and_(_online.account_id == account_id, _online.origin == self.store.origin)
        with self._writing() as conn:
            if not conn.execute(update(lobby_online_table).where(mine).values(seen=now)).rowcount:
                conn.execute(
                    insert(lobby_online_table), {"account_id": account_id, "origin": self.store.origin, "seen": now}
                )
                self._notify(conn, "online")

    def went(self, account_id: str) -> None:
        """The account's last lobby page in this process closed: its row here is gone."""
        mine = and_(_online.account_id == account_id, _online.origin == self.store.origin)
        with self._writing() as conn:
            if conn.execute(delete(lobby_online_table).where(mine)).rowcount:
                self._notify(conn, "online")

    def beat(self, accounts: list[str], now: float, stale: float) -> None:
        """The accounts with a lobby page open in this process, seen now (rows added and dropped to
        match), and every process's rows not seen since ``stale`` gone: a killed process's people."""
        mine = _online.origin == self.store.origin
        wanted = set(accounts)
        with self._writing() as conn:
            held = set(conn.execute(select(_online.account_id).where(mine)).scalars())
            gone, new = held - wanted, wanted - held
            if gone:
                conn.execute(delete(lobby_online_table).where(mine, _online.account_id.in_(gone)))
            conn.execute(update(lobby_online_table).where(mine).values(seen=now))
            if new:
                rows = [{"account_id": a, "origin": self.store.origin, "seen": now} for a in sorted(new)]
                conn.execute(insert(lobby_online_table), rows)
            dropped = conn.execute(delete(lobby_online_table).where(_online.seen < stale)).rowcount
            if gone or new or dropped:
                self._notify(conn, "online")

    def online(self, since: float, limit: int) -> tuple[int, list[str]]:
        """How many accounts have a lobby page open in any process (seen since ``since``), and the
        first ``limit`` of their names in alphabetical order."""
        alive = select(_online.account_id).where(_online.seen >= since)
        who = and_(_accounts.id.in_(alive), _accounts.deleted.is_(None))
        with self.engine.connect() as conn:
            count = conn.execute(select(func.count()).select_from(accounts_table).where(who)).scalar_one()
            names = conn.execute(
                select(_accounts.name).where(who).order_by(func.lower(_accounts.name), _accounts.name).limit(limit)
            )
            return int(count), [str(n) for n in names.scalars()]
