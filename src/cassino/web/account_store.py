"""The accounts' storage (``club.accounts.AccountRecords``) in the web app's database, beside its
games: accounts, sessions (by their token's SHA-256), the seats accounts hold and the sign-in
failures, in the tables of ``schema``. Everything is in the database, so any number of server
processes on one PostgreSQL share the sessions and the counts of wrong passwords; each method is
one transaction.
"""

from __future__ import annotations

from sqlalchemy import Connection, Engine, case, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..club.accounts import FAILURE_WINDOW, AccountRow
from .requests import token_hash
from .schema import (
    accounts_table,
    lobby_online_table,
    seat_holders_table,
    seats_table,
    sessions_table,
    sign_in_failures_table,
)

_accounts = accounts_table.c
_sessions = sessions_table.c
_holders = seat_holders_table.c
_failures = sign_in_failures_table.c


class AccountStore:
    """``AccountRecords`` over the store's SQLAlchemy engine (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add_account(self, row: AccountRow, key: str) -> bool:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(accounts_table),
                    {
                        "id": row.id,
                        "name": row.name,
                        "name_key": key,
                        "password_hash": row.password_hash,
                        "joined": row.joined,
                    },
                )
        except IntegrityError:  # the name's key is taken (by a request that came first)
            return False
        return True

    def account_named(self, key: str) -> AccountRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts_table).where(_accounts.name_key == key, _accounts.deleted.is_(None))
            ).first()
        return None if row is None else AccountRow(row.id, row.name, row.password_hash, row.joined)

    def set_password(self, account_id: str, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(accounts_table).where(_accounts.id == account_id).values(password_hash=password_hash))

    def erase_account(self, account_id: str, anonymous: str, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(_sessions.account_id == account_id))
            conn.execute(delete(lobby_online_table).where(lobby_online_table.c.account_id == account_id))
            conn.execute(
                update(accounts_table)
                .where(_accounts.id == account_id)
                .values(name=anonymous, name_key=anonymous, password_hash="", deleted=now)
            )

    def add_session(self, digest: str, account_id: str, now: float, expires: float) -> None:
        """Also forgets expired sessions and counts of wrong passwords whose window is over (here,
        at a sign-in, rather than at each wrong password, where it would contend with others)."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(_sessions.expires <= now))
            conn.execute(delete(sign_in_failures_table).where(_failures.since <= now - FAILURE_WINDOW))
            conn.execute(
                insert(sessions_table),
                {"token_hash": digest, "account_id": account_id, "created": now, "expires": expires},
            )

    def session_account(self, digest: str, now: float) -> AccountRow | None:
        query = (
            select(_accounts.id, _accounts.name, _accounts.password_hash, _accounts.joined)
            .join(sessions_table, _sessions.account_id == _accounts.id)
            .where(_sessions.token_hash == digest, _sessions.expires > now, _accounts.deleted.is_(None))
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else AccountRow(row.id, row.name, row.password_hash, row.joined)

    def end_session(self, digest: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(_sessions.token_hash == digest))

    def end_sessions(self, account_id: str, keep: str | None) -> None:
        condition = _sessions.account_id == account_id
        if keep is not None:
            condition &= _sessions.token_hash != keep
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(condition))

    def count_failure(self, key: str, now: float, window: float) -> tuple[int, float]:
        with self.engine.begin() as conn:
            stale = (_failures.key == key) & (_failures.since <= now - window)
            conn.execute(delete(sign_in_failures_table).where(stale))  # its window is over: count afresh
            if not self._bump(conn, key):
                try:
                    with conn.begin_nested():
                        conn.execute(insert(sign_in_failures_table), {"key": key, "failures": 1, "since": now})
                except IntegrityError:  # another process counted the first one meanwhile
                    self._bump(conn, key)
            row = conn.execute(select(_failures.failures, _failures.since).where(_failures.key == key)).one()
        return int(row.failures), float(row.since)

    @staticmethod
    def _bump(conn: Connection, key: str) -> bool:
        """One more failure for a counted key (the update locks its row until the commit)."""
        done = conn.execute(
            update(sign_in_failures_table).where(_failures.key == key).values(failures=_failures.failures + 1)
        )
        return bool(done.rowcount)

    def forgive_failure(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(sign_in_failures_table)
                .where(_failures.key == key)
                .values(failures=case((_failures.failures > 0, _failures.failures - 1), else_=0))
            )

    def seat_opened_by(self, game_id: str, token: str) -> int | None:
        query = select(seats_table.c.seat).where(
            seats_table.c.game_id == game_id,
            seats_table.c.kind == "human",
            seats_table.c.token_hash == token_hash(token),
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else int(row.seat)

    def hold_seat(self, account_id: str, game_id: str, seat: int, now: float) -> bool:
        holder = select(_holders.account_id).where(_holders.game_id == game_id, _holders.seat == seat)
        with self.engine.begin() as conn:
            held = conn.execute(holder).first()
            if held is None:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            insert(seat_holders_table),
                            {"game_id": game_id, "seat": seat, "account_id": account_id, "since": now},
                        )
                    return True
                except IntegrityError:  # another account brought it meanwhile
                    held = conn.execute(holder).first()
            return held is not None and held.account_id == account_id

    def holders(self, game_id: str) -> dict[int, str]:
        """The names of the accounts holding a game's seats, by seat."""
        query = (
            select(_holders.seat, _accounts.name)
            .join(accounts_table, _accounts.id == _holders.account_id)
            .where(_holders.game_id == game_id)
        )
        with self.engine.connect() as conn:
            return {int(r.seat): str(r.name) for r in conn.execute(query)}
