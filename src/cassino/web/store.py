r"""Storage: games, seats, decks, salts and moves in SQL through SQLAlchemy (SQLite or PostgreSQL).

A game's position is never stored: it is rebuilt by replaying the stored moves through the engine
on the stored decks, so whatever was committed is exactly what a restarted server resumes. Each move
is one transaction (with the next hand's deck when the move ends a hand). Seat tokens and seat
invitations are stored only as SHA-256 hashes, and decks stay in the database until their hand is over.

Several server processes may share one PostgreSQL database: every write that changes a game also
sends a notification (``NOTIFY cassino``, delivered when the transaction commits) naming the game,
which every process ``listen``\ s for, so a move made through one process reaches the clients of all
of them. A move is stored only if the game's move count is still the ply it was made at (a
conditional update, which takes the game row's lock until the commit): of two processes playing the
same computer player's move, or two people's moves at once, exactly one is stored and the other is
told (``StaleGameError``). SQLite stays a single process's database.

The tables and the rows are in ``schema``; the accounts' part of the store is ``account_store``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url

from .account_store import AccountStore
from .chat_store import ChatStore
from .errors import StaleDealError as StaleDealError
from .errors import StaleGameError as StaleGameError
from .errors import StoreError as StoreError
from .notify import CHANNEL, Listener
from .schema import (
    MAX_REASON,
    TICKET_SECONDS,
    HandRow,
    InviteRow,
    MoveRow,
    NewGame,
    Progress,
    SeatRow,
    StoredGame,
    activity_table,
    contributions_table,
    daily_attempts_table,
    forfeits_table,
    game_clocks_table,
    games_table,
    hands_table,
    help_table,
    invites_table,
    metadata,
    moves_table,
    rated_games_table,
    ready_table,
    seats_table,
    seeds_table,
    settings_table,
    tickets_table,
    tournament_games_table,
)

log = logging.getLogger("cassino.web")

_SCHEMA_LOCK = 0x636173736E  # "cassn": the advisory lock under which a process creates the tables

# The statements of a move, built once: a move is the hot path of the server.
_ADVANCE = (
    update(games_table)
    .where(games_table.c.id == bindparam("g"), games_table.c.moves == bindparam("ply_before"))
    .values(moves=bindparam("ply_after"), status=bindparam("new_status"), winner=bindparam("new_winner"))
)
_INSERT_MOVE = insert(moves_table)
_INSERT_HAND = insert(hands_table)
_SET_DEADLINE = (
    update(settings_table).where(settings_table.c.game_id == bindparam("g")).values(count_deadline=bindparam("dl"))
)
_TOUCH = update(activity_table).where(activity_table.c.game_id == bindparam("g")).values(last_move=bindparam("at"))
_INSERT_ACTIVITY = insert(activity_table)


def default_data_dir() -> Path:
    """``$CASSINO_HOME``, else ``$XDG_DATA_HOME/cassino`` or ``~/.local/share/cassino``."""
    home = os.environ.get("CASSINO_HOME")
    if home:
        return Path(home)
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "cassino"


def database_url(database: str | None, data_dir: Path | None = None) -> str:
    """The SQLAlchemy URL: ``--database`` as given (``postgresql://`` uses psycopg 3), else SQLite."""
    if database:
        if database.startswith(("postgresql://", "postgres://")):
            return "postgresql+psycopg://" + database.split("://", 1)[1]
        return database
    folder = data_dir or default_data_dir()
    return f"sqlite:///{folder / 'web.sqlite3'}"


def _sqlite_pragmas(durable: bool) -> Any:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # WAL: a commit is in the log before it returns, so a killed process loses nothing, and
        # readers never block the writer. FULL also syncs the log to disk at every commit.
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return on_connect


def _postgres_session(dbapi_connection: Any, _record: Any) -> None:
    # The server has a commit once it returns (a killed app loses nothing); without waiting for the
    # disk flush, a crash of the database machine itself may lose its last fraction of a second.
    with dbapi_connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO off")
    dbapi_connection.commit()


class Store:
    """The repository of games over one SQLAlchemy engine; creates its tables on first use."""

    def __init__(self, url: str, durable: bool = False) -> None:
        """``durable``: every commit waits for the disk (survives a power cut, at a cost in speed);
        without it a commit survives the app being killed, which is what a restart needs."""
        parsed = make_url(url)
        self.url = url
        self.dialect = parsed.get_backend_name()
        if self.dialect == "sqlite":
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = create_engine(url, connect_args={"check_same_thread": False})
            event.listen(self.engine, "connect", _sqlite_pragmas(durable))
        else:
            self.engine = create_engine(url, pool_pre_ping=True)
            if self.dialect == "postgresql" and not durable:
                event.listen(self.engine, "connect", _postgres_session)
        with self.engine.begin() as conn:
            if self.dialect == "postgresql":  # servers starting at once on a new database: one creates
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
            metadata.create_all(conn)
        self._writer: Connection | None = None
        self.origin = secrets.token_hex(4)
        """This store's mark on its notifications, so that it does not hear its own changes."""
        self.shared = self.dialect == "postgresql"
        """True when other server processes may use the same database (PostgreSQL): they are then
        told of every change (``listen``)."""
        self.accounts = AccountStore(self.engine)
        """The accounts, their sessions and the seats they hold, in the same database."""
        self.chat = ChatStore(self.engine, self._notify)
        """The chat at each table (``chat_store``), in the same database."""

    def _notify(self, conn: Connection, game_id: str, what: str) -> None:
        """Tell the other processes, when this transaction commits, that ``game_id`` changed."""
        if self.shared:
            conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{game_id} {self.origin} {what}"})

    def announce(self, game_id: str, what: str) -> None:
        """Tell the other processes of a change that is not stored (a person's page came or went);
        nothing on SQLite, which one process uses. A failure is logged, never raised: presence is
        a courtesy, not a record."""
        if not self.shared:
            return
        try:
            with self.engine.begin() as conn:
                self._notify(conn, game_id, what)
        except Exception as exc:  # the next change of presence is announced again
            log.warning("game %s: could not announce %r: %s", game_id, what, exc)

    def close(self) -> None:
        """Release the database connections."""
        self._drop_writer()
        self.engine.dispose()

    def _write_connection(self) -> Connection:
        """The connection moves are written on, kept open: a move is the server's hot path, and
        every write comes from the one event-loop thread."""
        if self._writer is None or self._writer.closed or self._writer.invalidated:
            self._writer = self.engine.connect()
        return self._writer

    def _drop_writer(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):  # a broken connection: the next write opens a fresh one
                self._writer.close()
            self._writer = None

    def describe(self) -> str:
        """The database in words, without any password."""
        return make_url(self.url).render_as_string(hide_password=True)

    # ------------------------------------------------------------------ writing
    def create_game(
        self,
        game_id: str,
        rules: dict[str, Any],
        seats: list[SeatRow],
        first: HandRow,
        invites: list[InviteRow] | None = None,
        listed: bool = True,
        next_hand_after: int = 0,
        created: float | None = None,
        seeds: dict[int, str] | None = None,
        contributions: dict[int, str] | None = None,
        help_allowed: bool = True,
    ) -> None:
        """A new game with its seats, invitations, settings, first hand's deck and the seeds (with
        the first hand's contributions), in one transaction."""
        game = NewGame(
            game_id,
            rules,
            seats,
            first,
            invites or [],
            listed,
            next_hand_after,
            created,
            seeds or {},
            contributions or {},
            help_allowed,
        )
        self.create_games([game])

    def new_ticket(self, ticket: str, seed: str, now: float) -> None:
        """Keep a seed committed before its game exists (and forget the tickets nobody used)."""
        with self.engine.begin() as conn:
            conn.execute(delete(tickets_table).where(tickets_table.c.created < now - TICKET_SECONDS))
            conn.execute(insert(tickets_table), {"id": ticket, "seed": seed, "created": now})

    def take_ticket(self, ticket: str, now: float) -> str | None:
        """The seed of a ticket, used up by this call; None for one unknown, used or too old."""
        with self.engine.begin() as conn:
            row = conn.execute(select(tickets_table).where(tickets_table.c.id == ticket)).first()
            if row is None:
                return None
            if conn.execute(delete(tickets_table).where(tickets_table.c.id == ticket)).rowcount != 1:
                return None  # another request took it in the meantime
            return None if row.created < now - TICKET_SECONDS else str(row.seed)

    def contribute(self, game_id: str, hand: int, seat: int, value: str) -> bool:
        """Store ``seat``'s contribution to ``hand``; False (nothing stored) once the hand is dealt.
        The game's row is locked first, as a move's commit locks it, so a contribution is either in
        before the deal reads them or refused after it. StoreError if refused otherwise."""
        try:
            with self.engine.begin() as conn:
                moves = games_table.c.moves
                conn.execute(update(games_table).where(games_table.c.id == game_id).values(moves=moves))
                dealt = conn.execute(
                    select(func.count()).where(hands_table.c.game_id == game_id, hands_table.c.number >= hand)
                ).scalar_one()
                if dealt:
                    return False
                conn.execute(
                    insert(contributions_table), {"game_id": game_id, "hand": hand, "seat": seat, "value": value}
                )
                self._notify(conn, game_id, "reset")
            return True
        except Exception as exc:
            raise StoreError(f"game {game_id}: the database refused seat {seat}'s contribution: {exc}") from exc

    def create_games(self, games: list[NewGame], within: Connection | None = None) -> None:
        """Several new games in one transaction, one statement per table (an import, or a test);
        in the transaction of ``within`` when given (a full seek's game, made in the transaction
        that takes its last seat: ``web.seek_store``)."""
        now = time.time()
        created = {g.id: now if g.created is None else g.created for g in games}
        tables: list[tuple[Table, list[dict[str, Any]]]] = [
            (
                games_table,
                [
                    {
                        "id": g.id,
                        "created": created[g.id],
                        "rules": json.dumps(g.rules),
                        "status": "playing",
                        "winner": -1,
                        "moves": 0,
                    }
                    for g in games
                ],
            ),
            (
                seats_table,
                [
                    {
                        "game_id": g.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "bot": s.bot,
                        "bot_seed": s.bot_seed,
                        "token_hash": s.token_hash,
                    }
                    for g in games
                    for s in g.seats
                ],
            ),
            (hands_table, [{"game_id": g.id, **_hand_values(g.first)} for g in games]),
            (
                settings_table,
                [{"game_id": g.id, "listed": g.listed, "next_hand_after": g.next_hand_after} for g in games],
            ),
            (activity_table, [{"game_id": g.id, "last_move": created[g.id]} for g in games]),
            (help_table, [{"game_id": g.id, "allowed": g.help_allowed} for g in games]),
            (game_clocks_table, [{"game_id": g.id, "move_seconds": g.move_seconds} for g in games if g.move_seconds]),
            (seeds_table, [{"game_id": g.id, "hand": h, "seed": seed} for g in games for h, seed in g.seeds.items()]),
            (
                contributions_table,
                [
                    {"game_id": g.id, "hand": 1, "seat": seat, "value": v}
                    for g in games
                    for seat, v in g.contributions.items()
                ],
            ),
            (
                invites_table,
                [
                    {"game_id": g.id, "seat": i.seat, "code_hash": i.code_hash, "claimed": None}
                    for g in games
                    for i in g.invites
                ],
            ),
        ]
        with contextlib.nullcontext(within) if within is not None else self.engine.begin() as conn:
            for table, rows in tables:
                if rows:
                    conn.execute(insert(table), rows)

    def claim_seat(self, game_id: str, seat: int, token_hash: str, name: str) -> bool:
        """Use a seat's invitation: the seat gets its token's hash (and name); False if it was
        already used (by another request in the meantime), and then nothing changes."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(invites_table)
                .where(
                    invites_table.c.game_id == game_id,
                    invites_table.c.seat == seat,
                    invites_table.c.claimed.is_(None),
                )
                .values(claimed=time.time())
            )
            if done.rowcount != 1:
                return False
            conn.execute(
                update(seats_table)
                .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                .values(token_hash=token_hash, name=name)
            )
            self._notify(conn, game_id, "reset")
        return True

    def press_next(self, game_id: str, hand: int, seat: int, count_ended: float | None = None) -> None:
        """``seat`` is ready for ``hand`` (pressed next in the count before it); pressing again is
        nothing new. ``count_ended``: this press ends the count of a game with a move clock, whose
        first turn begins then (kept with the clock, so that every process counts from it).
        StoreError if refused."""
        try:
            with self.engine.begin() as conn:
                pressed = select(ready_table.c.seat).where(
                    ready_table.c.game_id == game_id, ready_table.c.hand == hand, ready_table.c.seat == seat
                )
                if conn.execute(pressed).first() is None:
                    conn.execute(insert(ready_table), {"game_id": game_id, "hand": hand, "seat": seat})
                if count_ended is not None:
                    conn.execute(
                        update(game_clocks_table)
                        .where(game_clocks_table.c.game_id == game_id)
                        .values(count_ended=count_ended)
                    )
                self._notify(conn, game_id, "reset")
        except Exception as exc:
            raise StoreError(f"game {game_id}: the database refused seat {seat}'s press of next: {exc}") from exc

    def forfeit(self, game_id: str, ply: int, seat: int, reason: str, winner: int) -> None:
        """End the game at ``ply``: ``seat`` forfeited it (why: ``reason``) and side ``winner``
        won. StaleGameError when the game is no longer at ``ply`` or already over (another process
        moved or ended it first); StoreError if refused."""
        try:
            conn = self._write_connection()
            with conn.begin():
                done = conn.execute(
                    update(games_table)
                    .where(games_table.c.id == game_id, games_table.c.moves == ply, games_table.c.status == "playing")
                    .values(status="over", winner=winner)
                )
                if done.rowcount != 1:
                    raise StaleGameError(
                        f"game {game_id}: it is no longer at move {ply}, so the forfeit was not stored"
                    )
                conn.execute(insert(forfeits_table), {"game_id": game_id, "seat": seat, "reason": reason[:MAX_REASON]})
                self._notify(conn, game_id, "reset")
        except StoreError:
            raise
        except Exception as exc:
            self._drop_writer()
            raise StoreError(f"game {game_id}: the database refused seat {seat}'s forfeit: {exc}") from exc

    def undo_moves(self, game_id: str, keep: int, ply_now: int) -> None:
        """Delete the moves from ply ``keep`` on (the game must be at ``ply_now``); StoreError if
        refused. Only moves of the hand in play are taken back, so no deck is ever deleted."""
        try:
            with self.engine.begin() as conn:
                done = conn.execute(
                    update(games_table)
                    .where(games_table.c.id == game_id, games_table.c.moves == ply_now)
                    .values(moves=keep)
                )
                if done.rowcount != 1:
                    raise StaleGameError(f"game {game_id}: it is not at move {ply_now}, so nothing was taken back")
                conn.execute(delete(moves_table).where(moves_table.c.game_id == game_id, moves_table.c.ply >= keep))
                self._notify(conn, game_id, "reset")
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"game {game_id}: the database refused to take back moves {keep}..: {exc}") from exc

    def add_move(
        self,
        game_id: str,
        move: MoveRow,
        new_hand: HandRow | None,
        status: str,
        winner: int,
        count_deadline: float | None = None,
        moved_at: float | None = None,
        next_seed: str | None = None,
        contributed: frozenset[int] | None = None,
    ) -> None:
        """Commit one move (and the next hand's deck when it starts one, with when the count before
        it ends if it has a timer) and when it was made (None: now); StoreError if refused.

        The move's ply is part of the key and the game's move count must match it, so two writers
        can never both append the same move. A move that deals a hand of ``fair.SCHEME`` names the
        seats whose contributions its deck used (``contributed``) and stores the seed of the hand
        after it (``next_seed``); if another contribution came in first, ``StaleDealError``.
        """
        try:
            conn = self._write_connection()
            with conn.begin():
                done = conn.execute(
                    _ADVANCE,
                    {
                        "g": game_id,
                        "ply_before": move.ply,
                        "ply_after": move.ply + 1,
                        "new_status": status,
                        "new_winner": winner,
                    },
                )
                if done.rowcount != 1:
                    raise StaleGameError(
                        f"game {game_id}: it is no longer at move {move.ply}, so the move was not stored"
                    )
                conn.execute(
                    _INSERT_MOVE,
                    {"game_id": game_id, "ply": move.ply, "hand": move.hand, "seat": move.seat, "move": move.move},
                )
                if new_hand is not None:
                    if contributed is not None:
                        stored = conn.execute(
                            select(contributions_table.c.seat).where(
                                contributions_table.c.game_id == game_id, contributions_table.c.hand == new_hand.number
                            )
                        )
                        if {int(r.seat) for r in stored} != contributed:
                            raise StaleDealError(f"game {game_id}: a contribution to hand {new_hand.number} came in")
                    if next_seed is not None:
                        conn.execute(
                            insert(seeds_table), {"game_id": game_id, "hand": new_hand.number + 1, "seed": next_seed}
                        )
                    conn.execute(_INSERT_HAND, {"game_id": game_id, **_hand_values(new_hand)})
                    if count_deadline is not None:
                        conn.execute(_SET_DEADLINE, {"g": game_id, "dl": count_deadline})
                at = time.time() if moved_at is None else moved_at
                if conn.execute(_TOUCH, {"g": game_id, "at": at}).rowcount != 1:  # a game from before the table
                    conn.execute(_INSERT_ACTIVITY, {"game_id": game_id, "last_move": at})
                hands = move.hand if new_hand is None else new_hand.number
                self._notify(conn, game_id, f"move {move.ply + 1} {move.seat} {hands} {at!r} {move.move}")
        except StoreError:
            raise
        except Exception as exc:
            self._drop_writer()
            raise StoreError(f"game {game_id}: the database refused move {move.ply}: {exc}") from exc

    # ------------------------------------------------------------------ reading
    def load_game(self, game_id: str) -> StoredGame | None:
        """A game with its seats, hands and moves, or None when there is no such game."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            game = StoredGame(
                id=row.id, created=row.created, rules=json.loads(row.rules), status=row.status, winner=row.winner
            )
            last = conn.execute(select(activity_table.c.last_move).where(activity_table.c.game_id == game_id)).first()
            game.last_move = None if last is None else last.last_move
            seats = conn.execute(
                select(seats_table).where(seats_table.c.game_id == game_id).order_by(seats_table.c.seat)
            )
            game.seats = [SeatRow(r.seat, r.kind, r.name, r.bot, r.bot_seed, r.token_hash) for r in seats]
            hands = conn.execute(
                select(hands_table).where(hands_table.c.game_id == game_id).order_by(hands_table.c.number)
            )
            game.hands = [HandRow(r.number, r.deck, r.salt, r.commitment) for r in hands]
            moves = conn.execute(
                select(moves_table).where(moves_table.c.game_id == game_id).order_by(moves_table.c.ply)
            )
            game.moves = [MoveRow(r.ply, r.hand, r.seat, r.move) for r in moves]
            invites = conn.execute(
                select(invites_table).where(invites_table.c.game_id == game_id).order_by(invites_table.c.seat)
            )
            game.invites = [InviteRow(r.seat, r.code_hash, r.claimed) for r in invites]
            settings = conn.execute(select(settings_table).where(settings_table.c.game_id == game_id)).first()
            if settings is not None:
                game.listed = bool(settings.listed)
                game.next_hand_after = int(settings.next_hand_after)
                game.count_deadline = settings.count_deadline
            ready = conn.execute(
                select(ready_table.c.seat).where(
                    ready_table.c.game_id == game_id, ready_table.c.hand == len(game.hands)
                )
            )
            game.ready = {int(r.seat) for r in ready}
            seeds = conn.execute(select(seeds_table).where(seeds_table.c.game_id == game_id))
            game.seeds = {int(r.hand): str(r.seed) for r in seeds}
            given = conn.execute(select(contributions_table).where(contributions_table.c.game_id == game_id))
            for r in given:
                game.contributions.setdefault(int(r.hand), {})[int(r.seat)] = str(r.value)
            helped = conn.execute(select(help_table.c.allowed).where(help_table.c.game_id == game_id)).first()
            game.help_allowed = True if helped is None else bool(helped.allowed)
            lost = conn.execute(select(forfeits_table).where(forfeits_table.c.game_id == game_id)).first()
            game.forfeit = None if lost is None else (int(lost.seat), str(lost.reason))
            rated = select(rated_games_table.c.game_id).where(rated_games_table.c.game_id == game_id)
            game.rated = conn.execute(rated).first() is not None
            clock = conn.execute(select(game_clocks_table).where(game_clocks_table.c.game_id == game_id)).first()
            if clock is not None:
                game.move_seconds, game.count_ended = int(clock.move_seconds), clock.count_ended
            daily = select(daily_attempts_table.c.deal_id).where(daily_attempts_table.c.game_id == game_id)
            game.daily = conn.execute(daily).scalar_one_or_none()
            table = conn.execute(
                select(tournament_games_table.c.tournament_id, tournament_games_table.c.deal).where(
                    tournament_games_table.c.game_id == game_id
                )
            ).first()
            game.tournament = None if table is None else (str(table.tournament_id), int(table.deal))
        return game

    def progress(self, game_id: str, ply: int) -> Progress:
        """The moves of a game from ``ply`` on and how many hands it has dealt: what another process
        stored since this one last looked, read without replaying the whole game."""
        with self.engine.connect() as conn:
            moves = conn.execute(
                select(moves_table)
                .where(moves_table.c.game_id == game_id, moves_table.c.ply >= ply)
                .order_by(moves_table.c.ply)
            )
            rows = [MoveRow(r.ply, r.hand, r.seat, r.move) for r in moves]
            hands = conn.execute(select(func.count()).where(hands_table.c.game_id == game_id)).scalar_one()
            last = conn.execute(select(activity_table.c.last_move).where(activity_table.c.game_id == game_id)).first()
            return Progress(rows, int(hands), None if last is None else float(last.last_move))

    def listen(self, on_change: Callable[[str | None, str], None]) -> Listener | None:
        """Call ``on_change(game_id, what)`` (on the running event loop) for each change another
        process (or this one) commits, ``what`` as in ``CHANNEL``, and ``on_change(None, "reset")``
        after the listening connection was lost and made again, when changes may have been missed;
        None on SQLite, which one process uses. This store's own changes are not reported."""
        if not self.shared:
            return None
        return Listener(self.url, self.origin, on_change)

    def unfinished(self) -> list[str]:
        """The ids of games still being played, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id).where(games_table.c.status == "playing").order_by(games_table.c.created)
            )
            return [str(r.id) for r in rows]

    def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        """Public summaries of the latest listed games, newest first (no tokens, no decks); a game
        without settings (made before they existed) is listed."""
        query = (
            select(games_table)
            .outerjoin(settings_table, settings_table.c.game_id == games_table.c.id)
            .where(or_(settings_table.c.listed.is_(None), settings_table.c.listed.is_(True)))
            .order_by(games_table.c.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            {
                "game": r.id,
                "created": r.created,
                "rules": json.loads(r.rules),
                "status": r.status,
                "winner": r.winner,
                "moves": r.moves,
            }
            for r in rows
        ]

    def count_moves(self, game_id: str) -> int:
        """How many moves of a game are stored."""
        with self.engine.connect() as conn:
            value = conn.execute(select(func.count()).where(moves_table.c.game_id == game_id)).scalar_one()
        return int(value)


def _hand_values(hand: HandRow) -> dict[str, Any]:
    return {"number": hand.number, "deck": hand.deck, "salt": hand.salt, "commitment": hand.commitment}
