"""The daily deal in the web app's database (``schema.daily_deals_table`` and its attempts), so
that every server process sees the same day, the same seeds and the same leaderboard.

A day's deals are made by whichever process is first asked for them: each insert that finds its
row already there (another process won) reads that one instead, so the seed drawn first is the
only one ever committed. An attempt's game and its row are written in one transaction, and the
unique constraint on (deal, account) refuses a second attempt of an account even when two
requests race.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..club.daily import DailySpec
from ..club.errors import AlreadyPlayedError
from .fair import new_seed, seed_commitment
from .schema import (
    NewGame,
    accounts_table,
    daily_attempts_table,
    daily_deals_table,
    daily_master_table,
    seat_holders_table,
)
from .store import Store

_deals = daily_deals_table.c
_attempts = daily_attempts_table.c
_accounts = accounts_table.c


@dataclass(frozen=True, slots=True)
class DealRow:
    """A daily deal as stored: its id, date, secret seed and published commitment."""

    id: str
    date: str
    seed: str
    commitment: str


@dataclass(frozen=True, slots=True)
class Result:
    """A finished attempt as a profile lists it: its deal, game and score, its rank among the
    deal's finished attempts (equal scores share one) and how many there are."""

    deal: str
    game: str
    score: int
    rank: int
    count: int


@dataclass(frozen=True, slots=True)
class AttemptRow:
    """An attempt: its game, deal, the account's name (None: a guest), its score once over."""

    game: str
    deal: str
    name: str | None
    score: int | None
    started: float


class DailyStore:
    """The days' deals and their attempts over the store's engine."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def deals(self, specs: list[DailySpec], now: float) -> list[DealRow]:
        """The rows of these deals (one day's), each made with a new seed the first time it is asked for."""
        found = self._read([s.id for s in specs])
        for spec in specs:
            if spec.id in found:
                continue
            seed = new_seed()
            row = {"id": spec.id, "date": spec.date, "seed": seed, "commitment": seed_commitment(seed), "created": now}
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(daily_deals_table), row)
            except IntegrityError:
                pass  # another process made it first: its seed is the one
        found = self._read([s.id for s in specs])
        return [found[s.id] for s in specs]

    def _read(self, ids: list[str]) -> dict[str, DealRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(daily_deals_table).where(_deals.id.in_(ids)))
            return {r.id: DealRow(r.id, r.date, r.seed, r.commitment) for r in rows}

    def deal(self, deal_id: str) -> DealRow | None:
        """A deal made earlier, or None."""
        return self._read([deal_id]).get(deal_id)

    def start(self, deal_id: str, account_id: str | None, game: NewGame, seat: int, now: float) -> None:
        """The attempt's game and its row in one transaction (with the seat held by the account);
        ``AlreadyPlayedError`` when the account has one at this deal."""
        try:
            with self.engine.begin() as conn:
                self.store.create_games([game], within=conn)
                conn.execute(
                    insert(daily_attempts_table),
                    {"game_id": game.id, "deal_id": deal_id, "account_id": account_id, "started": now},
                )
                if account_id is not None:
                    conn.execute(
                        insert(seat_holders_table),
                        {"game_id": game.id, "seat": seat, "account_id": account_id, "since": now},
                    )
        except IntegrityError:
            raise AlreadyPlayedError(deal_id) from None

    def adopt(self, account_id: str, game_ids: list[str]) -> int:
        """A guest's attempts at these games become the account's, each unless the account has an
        attempt at that deal already (one attempt a deal); how many did."""
        adopted = 0
        for game_id in game_ids:
            try:
                with self.engine.begin() as conn:
                    done = conn.execute(
                        update(daily_attempts_table)
                        .where(_attempts.game_id == game_id, _attempts.account_id.is_(None))
                        .values(account_id=account_id)
                    )
                    adopted += int(done.rowcount or 0)
            except IntegrityError:
                pass  # the account played that deal itself: this attempt stays a guest's
        return adopted

    def attempt_of(self, deal_id: str, account_id: str) -> AttemptRow | None:
        """The account's attempt at a deal, if it made one."""
        rows = self._attempts(and_(_attempts.deal_id == deal_id, _attempts.account_id == account_id))
        return rows[0] if rows else None

    def attempt(self, game_id: str) -> AttemptRow | None:
        """The attempt a game is, or None for any other game."""
        rows = self._attempts(_attempts.game_id == game_id)
        return rows[0] if rows else None

    def deal_of_game(self, game_id: str) -> str | None:
        """The daily deal a game is an attempt at, or None for any other game."""
        with self.engine.connect() as conn:
            found = conn.execute(select(_attempts.deal_id).where(_attempts.game_id == game_id)).first()
        return None if found is None else str(found.deal_id)

    def finish(self, game_id: str, score: int, now: float) -> bool:
        """Record an attempt's score once (the first process to see it over); True when this did."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(daily_attempts_table)
                .where(_attempts.game_id == game_id, _attempts.score.is_(None))
                .values(score=score, finished=now)
            )
            return bool(done.rowcount)

    def finished(self, deal_id: str) -> list[AttemptRow]:
        """The deal's finished attempts, in the order they finished."""
        return self._attempts(and_(_attempts.deal_id == deal_id, _attempts.score.is_not(None)))

    def results_of(self, account_id: str) -> list[AttemptRow]:
        """An account's finished attempts, the latest deal first."""
        rows = self._attempts(and_(_attempts.account_id == account_id, _attempts.score.is_not(None)))
        return sorted(rows, key=lambda r: r.deal, reverse=True)

    def history(self, account_id: str, limit: int) -> list[Result]:
        """An account's finished attempts, the latest deal first (at most ``limit``), each with its
        rank and the number of finished attempts at its deal, in one query."""
        other = daily_attempts_table.alias("other")
        same_deal = and_(other.c.deal_id == _attempts.deal_id, other.c.score.is_not(None))
        better = select(func.count()).where(same_deal, other.c.score > _attempts.score).scalar_subquery()
        count = select(func.count()).where(same_deal).scalar_subquery()
        query = (
            select(_attempts.deal_id, _attempts.game_id, _attempts.score, better.label("better"), count.label("n"))
            .where(_attempts.account_id == account_id, _attempts.score.is_not(None))
            .order_by(_attempts.deal_id.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [Result(r.deal_id, r.game_id, r.score, r.better + 1, r.n) for r in conn.execute(query)]

    def master(self, deal_id: str) -> int | None:
        """How ``master`` scored from the person's seat on a deal, once worked out."""
        with self.engine.connect() as conn:
            found = conn.execute(select(daily_master_table.c.score).where(daily_master_table.c.deal_id == deal_id))
            return found.scalar_one_or_none()

    def keep_master(self, deal_id: str, score: int, now: float) -> None:
        """Keep ``master``'s score on a deal; another process that kept it first wins (the same
        number: it is deterministic)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(daily_master_table), {"deal_id": deal_id, "score": score, "computed": now})
        except IntegrityError:
            pass

    def _attempts(self, condition: object) -> list[AttemptRow]:
        query = (
            select(_attempts.game_id, _attempts.deal_id, _attempts.score, _attempts.started, _accounts.name)
            .select_from(daily_attempts_table.outerjoin(accounts_table, _accounts.id == _attempts.account_id))
            .where(condition)  # type: ignore[arg-type]
            .order_by(_attempts.finished, _attempts.started, _attempts.game_id)
        )
        with self.engine.connect() as conn:
            return [AttemptRow(r.game_id, r.deal_id, r.name, r.score, r.started) for r in conn.execute(query)]
