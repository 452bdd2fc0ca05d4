"""Ratings and profiles over HTTP: counting each rated game when the server sees it end, the
ratings of ``/api/me``, a player's profile (``/api/users/{name}``: ratings and finished games,
newest first, a page at a time), the leaderboards (``/api/leaderboard/{pool}``), and the page's
own addresses for them (``/@/NAME``, ``/leaderboard``: the page, which routes on its path).

The rules are ``cassino.club.ratings``; the storage ``rating_store``. A game is counted when any
process's copy of it is seen over (``GameService.on_over``), again at start-up for any rated game a
stopped process left uncounted, and before a profile lists a game whose end was not recorded; the
store makes sure each counts once.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI
from fastapi.responses import FileResponse

from ..club.accounts import AccountRow
from ..club.ratings import POOLS, Standing, finish_of
from .errors import ServiceError
from .model import LiveGame
from .rating_store import Counted, PlayedGame, Player, RatingStore
from .service import GameService

log = logging.getLogger("cassino.web")

PAGE_SIZE: Final = 20
"""Games a profile lists at a time."""
MAX_PAGE: Final = 10_000
LEADERBOARD_SIZE: Final = 50
"""Players a leaderboard shows."""
SEEN_KEPT: Final = 4096
"""Games this process remembers having counted, so that seeing one over again costs no query."""


def rating_json(standing: Standing) -> dict[str, Any]:
    """A rating as ``/api/me`` shows it (its figures to two decimals)."""
    return {
        "rating": round(standing.rating.rating, 2),
        "rd": round(standing.rating.rd, 2),
        "games": standing.games,
        "provisional": standing.provisional,
    }


def standing_json(standing: Standing) -> dict[str, Any]:
    """A rating as a profile or a leaderboard shows it: with the wins and the points a hand."""
    return {**rating_json(standing), "wins": standing.wins, "points_per_hand": round(standing.points_per_hand, 2)}


def game_json(played: PlayedGame) -> dict[str, Any]:
    """One of a player's finished games: its result for them (``win``, ``loss`` or ``draw``, their
    side's points and every side's), the others at the table, and what it did to their rating."""
    rules = played.rules
    mine = played.side
    others = [p for p in played.players if p.seat != played.seat]

    def person(seat: Player) -> dict[str, Any]:
        return {"name": seat.name, "account": seat.account, "kind": seat.kind}

    return {
        "game": played.game,
        "rated": played.pool is not None,
        "result": played.result,
        "seat": played.seat,
        "side": mine,
        "points": None if played.scores is None else played.scores[mine],
        "scores": None if played.scores is None else list(played.scores),
        "hands": played.hands,
        "forfeit": played.forfeit,
        "opponents": [person(p) for p in others if rules.side_of(p.seat) != mine],
        "partners": [person(p) for p in others if rules.side_of(p.seat) == mine],
        "preset": rules.preset,
        "players": rules.players,
        "partnerships": rules.partnerships,
        "finished": played.finished,
        "pool": played.pool,
        "rating_before": None if played.rating_before is None else round(played.rating_before, 2),
        "rating_after": None if played.rating_after is None else round(played.rating_after, 2),
    }


def page_of(query: Mapping[str, str]) -> int:
    """The page a profile asks for (``?page=``, from 1); 400 for anything else."""
    raw = query.get("page", "1")
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE:
        raise ServiceError(400, f"page must be a whole number from 1 to {MAX_PAGE}", code="bad_page")
    return int(raw)


class Ratings:
    """Counts the rated games a ``GameService`` sees end, and answers ratings, profiles and
    leaderboards from ``RatingStore``."""

    def __init__(self, store: RatingStore, service: GameService, clock: Callable[[], float]) -> None:
        self.store = store
        self.service = service
        self.clock = clock
        self.seen: OrderedDict[str, None] = OrderedDict()
        """Games this process counted or found counted (the newest ``SEEN_KEPT``)."""
        service.on_over.append(self.game_over)

    # ------------------------------------------------------------------ counting
    def game_over(self, live: LiveGame) -> Counted | None:
        """A game seen over: record how it ended, and count it if it is rated and not counted
        yet (None: this process did so before)."""
        if live.id in self.seen:
            return None
        counted = self.store.count(live.id, finish_of(live), self.clock())
        self.seen[live.id] = None
        while len(self.seen) > SEEN_KEPT:
            self.seen.popitem(last=False)
        return counted

    def recover(self) -> int:
        """Count the rated games a stopped process left uncounted (at start-up); how many were."""
        done = 0
        for game_id in self.store.uncounted():
            done += self._count_stored(game_id)
        return done

    def _count_stored(self, game_id: str) -> bool:
        """Load a finished game and count it; a game that cannot be read is logged and left."""
        try:
            live = self.service.get(game_id)
            if not live.over:
                return False
            self.seen.pop(game_id, None)
            counted = self.game_over(live)
        except Exception:
            log.exception("game %s: its end could not be counted", game_id)
            return False
        return counted is not None and counted.rated

    # ------------------------------------------------------------------ answers
    def ratings_of(self, account: AccountRow) -> dict[str, Any]:
        """An account's ratings by pool, as ``/api/me`` shows them."""
        return {pool: rating_json(s) for pool, s in self.store.standings(account.id).items()}

    def profile_of(self, account: AccountRow, query: Mapping[str, str], viewer: AccountRow | None) -> dict[str, Any]:
        """A profile's ratings (with wins and points a hand) and a page of finished games, newest
        first; ``more`` says whether an older page has games. Anyone sees the rated games and the
        listed ones; a game its creator kept unlisted only the player, signed in (its id would let
        anyone watch it). Games whose end was not recorded yet are counted first."""
        page = page_of(query)
        for game_id in self.store.unrecorded(account.id, PAGE_SIZE):
            self._count_stored(game_id)
        private = viewer is not None and viewer.id == account.id
        games = self.store.games_of(account.id, (page - 1) * PAGE_SIZE, PAGE_SIZE + 1, private)
        return {
            "ratings": {pool: standing_json(s) for pool, s in self.store.standings(account.id).items()},
            "games": [game_json(g) for g in games[:PAGE_SIZE]],
            "page": page,
            "more": len(games) > PAGE_SIZE,
        }

    def leaderboard(self, pool: str) -> dict[str, Any]:
        """A pool's best players: established ratings first, each group by rating."""
        if pool not in POOLS:
            raise ServiceError(404, f"no rating pool {pool[:40]!r}: the pools are {', '.join(POOLS)}", code="no_pool")
        board = self.store.leaderboard(pool, LEADERBOARD_SIZE)
        players = [{"rank": n, "name": name, **standing_json(s)} for n, (name, s) in enumerate(board, 1)]
        return {"pool": pool, "players": players}

    def pools(self) -> dict[str, Any]:
        """Every pool, in order, with how many players it has."""
        sizes = self.store.pool_sizes()
        return {"pools": [{"pool": pool, "players": sizes.get(pool, 0)} for pool in POOLS]}


def add_rating_routes(app: FastAPI, ratings: Ratings, index: Path) -> None:
    """The leaderboards' routes, and the page (``index``) at the addresses of a profile and of the
    leaderboards (the page reads its path to show them)."""

    @app.get("/api/leaderboard")
    async def pools() -> dict[str, Any]:
        return ratings.pools()

    @app.get("/api/leaderboard/{pool}")
    async def leaderboard(pool: str) -> dict[str, Any]:
        return ratings.leaderboard(pool)

    @app.get("/@/{name}")
    async def profile_page(name: str) -> FileResponse:
        return FileResponse(index)

    @app.get("/leaderboard")
    async def leaderboard_page() -> FileResponse:
        return FileResponse(index)
