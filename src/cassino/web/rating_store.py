"""The ratings' storage, in the web app's database beside its games and accounts: each account's
standing per pool, what each rated game did to it, and how each finished game ended.

**Each rated game is counted once**, however many server processes see it end: the process that
counts it first claims its row of ``cassino_rated_games`` (``UPDATE ... SET rated_at WHERE rated_at
IS NULL``: of two at once, the second waits for the first's commit and then matches nothing), and
writes every player's new standing in the same transaction, so a game is either counted whole or
not at all (and then counted by the next process that sees it). The players' rows are locked in one
order (``SELECT ... FOR UPDATE`` on PostgreSQL) before they are read, so two games ending at once
for one player both count, one after the other.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, Row, and_, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..club.ratings import PROVISIONAL_GAMES, Finish, Rating, Standing, rate_game, rating_key
from ..rules import Rules
from .schema import (
    accounts_table,
    activity_table,
    game_results_table,
    games_table,
    rated_games_table,
    rating_changes_table,
    ratings_table,
    seat_holders_table,
    seats_table,
    settings_table,
)

log = logging.getLogger("cassino.web")

_ratings = ratings_table.c
_changes = rating_changes_table.c
_results = game_results_table.c
_rated = rated_games_table.c
_holders = seat_holders_table.c
_games = games_table.c
_accounts = accounts_table.c


@dataclass(frozen=True, slots=True)
class Counted:
    """What counting a finished game did: ``rated`` when this call changed the ratings; else why
    not (``reason``: empty for a game that is not rated at all or was counted before)."""

    rated: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Player:
    """A seat of a game as a profile shows it: the account's name when an account holds it, else
    the name typed at the table (or the computer player's)."""

    seat: int
    name: str
    kind: str
    account: bool


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished game of a player, as a profile lists it."""

    game: str
    seat: int
    rules: Rules
    winner: int
    finished: float
    scores: tuple[int, ...] | None
    """Each side's final points; None for a game whose end was not recorded yet."""
    hands: int | None
    forfeit: int | None
    players: tuple[Player, ...]
    pool: str | None
    """The game's pool when it was rated for this player."""
    rating_before: float | None
    rating_after: float | None

    @property
    def side(self) -> int:
        """The player's side."""
        return self.rules.side_of(self.seat)

    @property
    def result(self) -> str:
        """``win``, ``loss`` or ``draw`` (a game with no winner)."""
        if self.winner < 0:
            return "draw"
        return "win" if self.winner == self.side else "loss"


def _standing(r: Row[Any]) -> Standing:
    """A standing from a row of ``cassino_ratings``."""
    rating = Rating(float(r.rating), float(r.rd), float(r.volatility))
    updated = None if r.updated is None else float(r.updated)
    return Standing(rating, int(r.games), int(r.wins), int(r.points), int(r.hands), updated)


class RatingStore:
    """Ratings, rated games' changes and games' results over the store's SQLAlchemy engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ a game ends
    def count(self, game_id: str, finish: Finish, now: float) -> Counted:
        """Record how a finished game ended and, when it is a rated game not counted yet, count it:
        claim it and write every player's new standing, in one transaction. A rated game that may
        not be rated (a computer player, a seat no account holds, one account at two seats, another
        pool than its own) is claimed all the same, and changes no rating."""
        with self.engine.begin() as conn:
            self._keep_result(conn, game_id, finish, now)
            claim = update(rated_games_table).where(_rated.game_id == game_id, _rated.rated_at.is_(None))
            if conn.execute(claim.values(rated_at=now)).rowcount != 1:
                return Counted(False)
            pool = str(conn.execute(select(_rated.pool).where(_rated.game_id == game_id)).scalar_one())
            kinds = {
                int(r.seat): str(r.kind)
                for r in conn.execute(
                    select(seats_table.c.seat, seats_table.c.kind).where(seats_table.c.game_id == game_id)
                )
            }
            holders = {
                int(r.seat): str(r.account_id)
                for r in conn.execute(select(_holders.seat, _holders.account_id).where(_holders.game_id == game_id))
            }
            rules = Rules.from_json(
                json.loads(conn.execute(select(_games.rules).where(_games.id == game_id)).scalar_one())
            )
            reason = _why_not_rated(pool, rules, kinds, holders, finish)
            if reason:
                log.warning("game %s is not rated: %s", game_id, reason)
                return Counted(False, reason)
            before = self._lock(conn, pool, sorted(set(holders.values())))
            after = rate_game({seat: before[holders[seat]] for seat in finish.seats}, finish, now)
            for seat, standing in after.items():
                account = holders[seat]
                conn.execute(
                    update(ratings_table)
                    .where(_ratings.account_id == account, _ratings.pool == pool)
                    .values(
                        rating=standing.rating.rating,
                        rd=standing.rating.rd,
                        volatility=standing.rating.volatility,
                        games=standing.games,
                        wins=standing.wins,
                        points=standing.points,
                        hands=standing.hands,
                        updated=standing.updated,
                    )
                )
            conn.execute(
                insert(rating_changes_table),
                [
                    {
                        "game_id": game_id,
                        "seat": seat,
                        "account_id": holders[seat],
                        "pool": pool,
                        "rating_before": before[holders[seat]].rating.rating,
                        "rating_after": standing.rating.rating,
                        "rd_after": standing.rating.rd,
                    }
                    for seat, standing in after.items()
                ],
            )
        return Counted(True)

    @staticmethod
    def _keep_result(conn: Connection, game_id: str, finish: Finish, now: float) -> None:
        """How the game ended, unless a process recorded it first."""
        kept = select(_results.game_id).where(_results.game_id == game_id)
        if conn.execute(kept).first() is not None:
            return
        row = {
            "game_id": game_id,
            "scores": json.dumps(list(finish.scores)),
            "hands": finish.hands,
            "forfeit": finish.forfeit,
            "finished": now,
        }
        try:
            with conn.begin_nested():
                conn.execute(insert(game_results_table), row)
        except IntegrityError:  # another process recorded it meanwhile
            pass

    @staticmethod
    def _lock(conn: Connection, pool: str, accounts: Sequence[str]) -> dict[str, Standing]:
        """Every player's standing in the pool, a new player's made first, each row locked until
        the commit (in the accounts' order, so two counts never wait for each other in a circle)."""
        for account in accounts:
            have = select(_ratings.account_id).where(_ratings.account_id == account, _ratings.pool == pool)
            if conn.execute(have).first() is not None:
                continue
            fresh = Standing()
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(ratings_table),
                        {
                            "account_id": account,
                            "pool": pool,
                            "rating": fresh.rating.rating,
                            "rd": fresh.rating.rd,
                            "volatility": fresh.rating.volatility,
                            "games": 0,
                            "wins": 0,
                            "points": 0,
                            "hands": 0,
                            "updated": None,
                        },
                    )
            except IntegrityError:  # another count made it meanwhile
                pass
        rows = conn.execute(
            select(ratings_table)
            .where(_ratings.pool == pool, _ratings.account_id.in_(accounts))
            .order_by(_ratings.account_id)
            .with_for_update()
        )
        return {str(r.account_id): _standing(r) for r in rows}

    def uncounted(self) -> list[str]:
        """Rated games that are over and not counted yet (a process stopped between storing the
        last move and counting it), oldest first."""
        query = (
            select(_rated.game_id)
            .join(games_table, _games.id == _rated.game_id)
            .where(_rated.rated_at.is_(None), _games.status == "over")
            .order_by(_games.created)
        )
        with self.engine.connect() as conn:
            return [str(r.game_id) for r in conn.execute(query)]

    # ------------------------------------------------------------------ reading
    def standings(self, account_id: str) -> dict[str, Standing]:
        """An account's standing in each pool it has played a rated game in, by pool."""
        query = select(ratings_table).where(_ratings.account_id == account_id, _ratings.games > 0)
        with self.engine.connect() as conn:
            return {str(r.pool): _standing(r) for r in conn.execute(query.order_by(_ratings.pool))}

    def leaderboard(self, pool: str, limit: int) -> list[tuple[str, Standing]]:
        """The pool's players, established ones first (fewer than ``PROVISIONAL_GAMES`` is
        provisional), each group by rating, then by games played."""
        provisional = (_ratings.games < PROVISIONAL_GAMES).label("provisional")
        query = (
            select(ratings_table, _accounts.name, provisional)
            .join(accounts_table, _accounts.id == _ratings.account_id)
            .where(_ratings.pool == pool, _ratings.games > 0, _accounts.deleted.is_(None))
            .order_by(provisional, _ratings.rating.desc(), _ratings.games.desc(), _accounts.name_key)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [(str(r.name), _standing(r)) for r in conn.execute(query)]

    def pool_sizes(self) -> dict[str, int]:
        """How many players each pool has (pools without any are left out)."""
        query = (
            select(_ratings.pool, func.count())
            .join(accounts_table, _accounts.id == _ratings.account_id)
            .where(_ratings.games > 0, _accounts.deleted.is_(None))
            .group_by(_ratings.pool)
        )
        with self.engine.connect() as conn:
            return {str(pool): int(n) for pool, n in conn.execute(query)}

    def unrecorded(self, account_id: str, limit: int) -> list[str]:
        """An account's finished games whose end was not recorded (finished before results were
        kept) or that are rated and not counted yet: a profile has them counted first."""
        query = (
            select(_holders.game_id)
            .join(games_table, _games.id == _holders.game_id)
            .outerjoin(game_results_table, _results.game_id == _holders.game_id)
            .outerjoin(rated_games_table, _rated.game_id == _holders.game_id)
            .where(
                _holders.account_id == account_id,
                _games.status == "over",
                or_(_results.game_id.is_(None), and_(_rated.game_id.is_not(None), _rated.rated_at.is_(None))),
            )
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [str(r.game_id) for r in conn.execute(query)]

    def games_of(self, account_id: str, offset: int, limit: int, private: bool = True) -> list[PlayedGame]:
        """An account's finished games, newest first, from ``offset``, at most ``limit``; without
        ``private``, only those rated for it or listed (a game without settings was listed)."""
        finished = func.coalesce(_results.finished, activity_table.c.last_move, _games.created)
        query = (
            select(
                _holders.game_id,
                _holders.seat,
                _games.rules,
                _games.winner,
                finished.label("finished"),
                _results.scores,
                _results.hands,
                _results.forfeit,
                _changes.pool,
                _changes.rating_before,
                _changes.rating_after,
            )
            .join(games_table, _games.id == _holders.game_id)
            .outerjoin(game_results_table, _results.game_id == _holders.game_id)
            .outerjoin(activity_table, activity_table.c.game_id == _holders.game_id)
            .outerjoin(rating_changes_table, and_(_changes.game_id == _holders.game_id, _changes.seat == _holders.seat))
            .outerjoin(settings_table, settings_table.c.game_id == _holders.game_id)
            .where(_holders.account_id == account_id, _games.status == "over")
            .order_by(finished.desc(), _holders.game_id)
            .offset(offset)
            .limit(limit)
        )
        if not private:
            listed = settings_table.c.listed
            query = query.where(or_(_changes.game_id.is_not(None), listed.is_(None), listed.is_(True)))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            ids = [str(r.game_id) for r in rows]
            players = self._players(conn, ids)
        out = []
        for r in rows:
            scores = None if r.scores is None else tuple(int(x) for x in json.loads(r.scores))
            out.append(
                PlayedGame(
                    game=str(r.game_id),
                    seat=int(r.seat),
                    rules=Rules.from_json(json.loads(r.rules)),
                    winner=int(r.winner),
                    finished=float(r.finished),
                    scores=scores,
                    hands=None if r.hands is None else int(r.hands),
                    forfeit=None if r.forfeit is None else int(r.forfeit),
                    players=players.get(str(r.game_id), ()),
                    pool=None if r.pool is None else str(r.pool),
                    rating_before=None if r.rating_before is None else float(r.rating_before),
                    rating_after=None if r.rating_after is None else float(r.rating_after),
                )
            )
        return out

    @staticmethod
    def _players(conn: Connection, game_ids: list[str]) -> dict[str, tuple[Player, ...]]:
        """The seats of some games, each named by its account when one (not deleted) holds it."""
        if not game_ids:
            return {}
        query = (
            select(seats_table.c.game_id, seats_table.c.seat, seats_table.c.kind, seats_table.c.name, _accounts.name)
            .outerjoin(
                seat_holders_table,
                and_(_holders.game_id == seats_table.c.game_id, _holders.seat == seats_table.c.seat),
            )
            .outerjoin(accounts_table, and_(_accounts.id == _holders.account_id, _accounts.deleted.is_(None)))
            .where(seats_table.c.game_id.in_(game_ids))
            .order_by(seats_table.c.game_id, seats_table.c.seat)
        )
        out: dict[str, list[Player]] = {}
        for game, seat, kind, typed, account in conn.execute(query):
            named = account is not None
            out.setdefault(str(game), []).append(Player(int(seat), str(account if named else typed), str(kind), named))
        return {game: tuple(seats) for game, seats in out.items()}


def _why_not_rated(pool: str, rules: Rules, kinds: dict[int, str], holders: dict[int, str], finish: Finish) -> str:
    """Why a game meant to be rated may not be ("" when it may): only people with accounts, one
    account a seat, are rated, and only in the pool of the game's own preset and seating."""
    try:
        own = rating_key(rules.preset, rules.players, rules.partnerships)
    except ValueError as exc:
        return str(exc)
    if pool != own:
        return f"it was marked for pool {pool!r}, but its preset and seating make it {own!r}"
    if sorted(kinds) != list(finish.seats):
        return f"its {len(kinds)} seats do not match the {len(finish.sides)} of its result"
    bots = [seat for seat, kind in kinds.items() if kind != "human"]
    if bots:
        return f"seat {bots[0]} is a computer player"
    empty = [seat for seat in kinds if seat not in holders]
    if empty:
        return f"no account holds seat {empty[0]}"
    if len(set(holders.values())) != len(holders):
        return "one account holds two of its seats"
    return ""
