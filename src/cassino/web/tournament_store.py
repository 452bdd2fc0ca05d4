"""Tournaments in the web app's database (``schema.tournaments_table`` and its entrants, deals and
tables), so that every server process sees the same entries, pairings and standings.

Whatever changes a running tournament (a round begun, a table's result, the end) is one
transaction that holds the tournament's lock from its first read to its commit: an advisory lock
on PostgreSQL, the database's write lock on SQLite (``BEGIN IMMEDIATE``). So two processes that see
the last table of a round end at once pair the next round once: the second finds it begun.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from ..club.errors import TournamentInputError
from .schema import (
    tournament_deals_table,
    tournament_entrants_table,
    tournament_games_table,
    tournaments_table,
)
from .store import Store

_t = tournaments_table.c
_entrants = tournament_entrants_table.c
_deals = tournament_deals_table.c
_games = tournament_games_table.c


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament as stored."""

    id: str
    kind: str
    preset: str
    players: int
    rated: bool
    rounds: int
    minutes: float
    organiser: str
    status: str
    round: int
    created: float
    started: float | None
    ends: float | None
    starts: float | None = None


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """An entrant in the seeding order: a person (``account_id``, its seat token's hash) or a
    computer player (``bot``, its level)."""

    place: int
    name: str
    account_id: str | None
    bot: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class DealRow:
    """A tournament's deal: its number, secret seed and published commitment."""

    number: int
    seed: str
    commitment: str


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table of a tournament: its game, round, number, deal, the name on each side, the sides of a
    bye's computer player, and its result once over (scores by side, winner or -1)."""

    game_id: str
    round: int
    number: int
    deal: int
    sides: tuple[str, ...]
    computers: tuple[int, ...]
    scores: tuple[int, ...] | None
    winner: int | None
    finished: float | None


def _lock_key(tournament_id: str) -> int:
    """The PostgreSQL advisory lock of a tournament (a signed 64-bit number)."""
    return int.from_bytes(
        hashlib.sha256(f"cassino-tournament|{tournament_id}".encode()).digest()[:8], "big", signed=True
    )


class TournamentStore:
    """The tournaments over the store's engine."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    @contextmanager
    def locked(self, tournament_id: str) -> Iterator[Connection]:
        """A write transaction holding the tournament's lock (see the module's note)."""
        with self.engine.begin() as conn:
            if self.store.shared:
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _lock_key(tournament_id)})
            else:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            yield conn

    # ------------------------------------------------------------------ writing
    def add(self, row: TournamentRow, bots: list[EntrantRow]) -> None:
        """A new tournament, open for entries, with the computer players its organiser entered."""
        with self.engine.begin() as conn:
            values = {f: getattr(row, f) for f in TournamentRow.__slots__}
            conn.execute(insert(tournaments_table), values)
            for bot in bots:
                conn.execute(insert(tournament_entrants_table), {"tournament_id": row.id, **_entrant(bot)})

    def join(self, tournament_id: str, name: str, account_id: str, token_hash: str) -> EntrantRow:
        """Enter an account (the next place in the seeding order); TournamentInputError when it is in
        already or the tournament no longer takes entries."""
        with self.locked(tournament_id) as conn:
            row = self._tournament(conn, tournament_id)
            if row is None or row.status != "open":
                raise TournamentInputError(f"tournament {tournament_id} takes no more entries: it has begun", "started")
            place = conn.execute(
                select(func.coalesce(func.max(_entrants.place), -1)).where(_entrants.tournament_id == tournament_id)
            ).scalar_one()
            entrant = EntrantRow(int(place) + 1, name, account_id, None, token_hash)
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(tournament_entrants_table), {"tournament_id": tournament_id, **_entrant(entrant)}
                    )
            except IntegrityError:
                raise TournamentInputError(f"you are in tournament {tournament_id} already", "joined") from None
        return entrant

    def add_deal(self, conn: Connection, tournament_id: str, deal: DealRow) -> None:
        conn.execute(
            insert(tournament_deals_table),
            {"tournament_id": tournament_id, "number": deal.number, "seed": deal.seed, "commitment": deal.commitment},
        )

    def add_table(self, conn: Connection, tournament_id: str, table: TableRow) -> None:
        conn.execute(
            insert(tournament_games_table),
            {
                "game_id": table.game_id,
                "tournament_id": tournament_id,
                "round": table.round,
                "table_no": table.number,
                "deal": table.deal,
                "sides": json.dumps(list(table.sides)),
                "computers": json.dumps(list(table.computers)),
            },
        )

    def set_state(self, conn: Connection, tournament_id: str, **values: Any) -> None:
        conn.execute(update(tournaments_table).where(_t.id == tournament_id).values(**values))

    def finish_table(self, game_id: str, scores: tuple[int, ...], winner: int, now: float) -> str | None:
        """Record a table's result once (the first process to see it over); its tournament's id when
        this did, None when it was recorded before or is no tournament's."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tournament_games_table)
                .where(_games.game_id == game_id, _games.scores.is_(None))
                .values(scores=json.dumps(list(scores)), winner=winner, finished=now)
            )
            if not done.rowcount:
                return None
            found = conn.execute(select(_games.tournament_id).where(_games.game_id == game_id)).scalar_one()
            return str(found)

    # ------------------------------------------------------------------ reading
    def tournament(self, tournament_id: str, conn: Connection | None = None) -> TournamentRow | None:
        if conn is not None:
            return self._tournament(conn, tournament_id)
        with self.engine.connect() as c:
            return self._tournament(c, tournament_id)

    def _tournament(self, conn: Connection, tournament_id: str) -> TournamentRow | None:
        r = conn.execute(select(tournaments_table).where(_t.id == tournament_id)).first()
        if r is None:
            return None
        return TournamentRow(*(getattr(r, f) for f in TournamentRow.__slots__))

    def entrants(self, tournament_id: str, conn: Connection | None = None) -> list[EntrantRow]:
        query = (
            select(tournament_entrants_table).where(_entrants.tournament_id == tournament_id).order_by(_entrants.place)
        )
        with _reading(self, conn) as c:
            return [EntrantRow(r.place, r.name, r.account_id, r.bot, r.token_hash) for r in c.execute(query)]

    def deals(self, tournament_id: str, conn: Connection | None = None) -> list[DealRow]:
        query = select(tournament_deals_table).where(_deals.tournament_id == tournament_id).order_by(_deals.number)
        with _reading(self, conn) as c:
            return [DealRow(r.number, r.seed, r.commitment) for r in c.execute(query)]

    def tables(self, tournament_id: str, conn: Connection | None = None) -> list[TableRow]:
        query = (
            select(tournament_games_table)
            .where(_games.tournament_id == tournament_id)
            .order_by(_games.round, _games.table_no, _games.game_id)
        )
        with _reading(self, conn) as c:
            return [
                TableRow(
                    r.game_id,
                    r.round,
                    r.table_no,
                    r.deal,
                    tuple(json.loads(r.sides)),
                    tuple(json.loads(r.computers)),
                    None if r.scores is None else tuple(json.loads(r.scores)),
                    r.winner,
                    r.finished,
                )
                for r in c.execute(query)
            ]

    def listed(self, limit: int) -> list[tuple[TournamentRow, int]]:
        """Tournaments open for entries or running, then those over, the newest first in each, with
        their number of entrants."""
        entrants = select(_entrants.tournament_id, func.count().label("n")).group_by(_entrants.tournament_id).subquery()
        query = (
            select(tournaments_table, func.coalesce(entrants.c.n, 0).label("entrants"))
            .select_from(tournaments_table.outerjoin(entrants, entrants.c.tournament_id == _t.id))
            .order_by((_t.status == "over").asc(), _t.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [
                (TournamentRow(*(getattr(r, f) for f in TournamentRow.__slots__)), int(r.entrants))
                for r in conn.execute(query)
            ]

    def due(self, now: float) -> list[str]:
        """Tournaments open for entries whose set start time has come."""
        query = select(_t.id).where(_t.status == "open", _t.starts.is_not(None), _t.starts <= now)
        with self.engine.connect() as conn:
            return [str(r) for r in conn.execute(query).scalars()]

    def out_of_time(self, now: float) -> list[str]:
        """Running arenas whose time is up (they end once their last table does)."""
        query = select(_t.id).where(_t.status == "running", _t.ends.is_not(None), _t.ends <= now)
        with self.engine.connect() as conn:
            return [str(r) for r in conn.execute(query).scalars()]

    def running(self) -> list[str]:
        """The tournaments under way (what a process starting up looks at)."""
        with self.engine.connect() as conn:
            return [str(r) for r in conn.execute(select(_t.id).where(_t.status == "running")).scalars()]

    def unrecorded(self, tournament_id: str) -> list[str]:
        """The tournament's tables with no result recorded (over or not)."""
        query = select(_games.game_id).where(_games.tournament_id == tournament_id, _games.scores.is_(None))
        with self.engine.connect() as conn:
            return [str(g) for g in conn.execute(query).scalars()]

    def over(self, tournament_id: str) -> bool:
        """Whether the tournament is over (its decks may be shown)."""
        row = self.tournament(tournament_id)
        return row is not None and row.status == "over"


@contextmanager
def _reading(store: TournamentStore, conn: Connection | None) -> Iterator[Connection]:
    """``conn`` when given (inside a locked transaction), else a connection of its own."""
    if conn is not None:
        yield conn
        return
    with store.engine.connect() as c:
        yield c


def _entrant(e: EntrantRow) -> dict[str, Any]:
    return {"place": e.place, "name": e.name, "account_id": e.account_id, "bot": e.bot, "token_hash": e.token_hash}
