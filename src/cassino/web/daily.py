"""The daily deal over HTTP (``/api/daily``): the rules are ``cassino.club.daily``, the storage
``web.daily_store``.

Anyone may play a deal of today, once per account (a second attempt is 409); a guest's attempt is
kept by its browser (the seat's token) and shown on the leaderboard as a guest. Each attempt is a
game of one hand (``Table.last_hand``), the person at ``daily.SEAT`` and ``daily.OPPONENT`` in
every other seat, dealt the deck of the deal's seed and id (``fair.derive_deck``, no
contributions: the deck is the same for everyone, and nobody knows it before the day is over);
its deck stays sealed until then even in the finished game (``LiveGame.sealed``). The day and the
reveal follow the server's clock (``cassino serve --clock-offset`` moves it).

How ``master`` scored from the person's seat (``club.daily.master_score``) is worked out once per
deal, in a worker, the first time a leaderboard is asked by one whose attempt is over (or by anyone
once the day is over), and kept (``cassino_daily_master``): a number that tells nothing of the cards
beyond what that person saw. A guest names its attempt by its game and the seat's token.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse

from ..club.accounts import AccountRow, Accounts
from ..club.daily import (
    OPPONENT,
    SEAT,
    DailySpec,
    day_of,
    deal_reveal_after,
    deals_of,
    distribution,
    master_score,
    opponent_seed,
    percentile,
    ranked,
    score,
    spec_of,
    streak,
)
from ..club.errors import AlreadyPlayedError
from ..rules import make_rules
from ..table import default_names
from .accounts import COOKIE, ProfileOf, no_store
from .daily_store import AttemptRow, DailyStore, DealRow
from .deals import shared_deal_game
from .errors import ServiceError
from .fair import SCHEME, deck_text, derive_deck
from .model import LiveGame
from .requests import token_hash
from .rows import SeatRow
from .service import GameService
from .store import Store

log = logging.getLogger("cassino.web")

GUEST = "Guest"
"""A guest's name at the table (on the leaderboard a guest has none)."""
HISTORY: Final = 60
"""The most daily results a profile lists."""
INDEX = Path(__file__).parent / "static" / "index.html"
"""The page, served at a deal's leaderboard's address too."""


class Daily:
    """The daily deal of one server process: its requests and what follows an attempt's end."""

    def __init__(self, service: GameService, accounts: Accounts, store: Store) -> None:
        """``store``: the database the service's games are in."""
        self.service = service
        self.store = DailyStore(store)
        self.accounts = accounts
        self.clock = service.clock
        self.masters: dict[str, asyncio.Task[int]] = {}
        """``master``'s score of each deal being worked out in this process, shared by its askers."""
        service.on_over.append(self.game_over)

    # ------------------------------------------------------------------ reading
    def today(self, request: Request) -> dict[str, Any]:
        """Today's deals with their commitments, made now if nobody asked before; for a signed-in
        asker, its attempt at each (game and score) and its streak."""
        now = self.clock()
        date = day_of(now)
        specs = deals_of(date)
        rows = self.store.deals(specs, now)
        account = self.accounts.session(request.cookies.get(COOKIE))
        deals = []
        for spec, row in zip(specs, rows, strict=True):
            entry = {
                **spec.to_json(),
                "commitment": row.commitment,
                "opponent": OPPONENT,
                "reveal_after": deal_reveal_after(spec.id),
            }
            if account is not None:
                mine = self.store.attempt_of(spec.id, account.id)
                entry["played"] = None if mine is None else {"game": mine.game, "score": mine.score}
            deals.append(entry)
        out: dict[str, Any] = {"date": date, "deals": deals}
        if account is not None:
            out["streak"] = streak((r.deal[:10] for r in self.store.results_of(account.id)), date)
        return out

    def _deal(self, deal_id: str) -> tuple[DailySpec, DealRow]:
        """A deal that was made (its day came), or 404."""
        spec = spec_of(deal_id) if len(deal_id) <= 32 else None
        row = self.store.deal(deal_id) if spec is not None else None
        if spec is None or row is None:
            raise ServiceError(404, f"no daily deal {deal_id[:40]!r} here", code="no_deal")
        return spec, row

    async def leaderboard(self, request: Request, deal_id: str) -> dict[str, Any]:
        """The finished attempts ranked (accounts by name, guests with none), the spread of scores,
        the asker's own rank and percentile and how ``master`` scored from its seat (once its
        attempt is over), and once the day is over the best attempt's game and ``master``'s score
        for everyone."""
        spec, row = self._deal(deal_id)
        attempts = self.store.finished(deal_id)
        entries = ranked((a.name, a.score or 0, a.game) for a in attempts)
        scores = [e.score for e in entries]
        over = self.clock() >= deal_reveal_after(deal_id)
        mine = self._asker(request, deal_id)
        out: dict[str, Any] = {
            "id": deal_id,
            "entries": [
                {
                    "name": e.name,
                    "score": e.score,
                    "rank": e.rank,
                    **({"you": True} if mine and e.game == mine.game else {}),
                }
                for e in entries
            ],
            "count": len(entries),
            "distribution": distribution(scores),
            "over": over,
        }
        if over and entries:
            best = entries[0]
            out["best"] = {"name": best.name, "score": best.score, "game": best.game}
        if mine is not None and mine.score is not None:
            rank = next(e.rank for e in entries if e.game == mine.game)
            out["you"] = {"score": mine.score, "rank": rank, "percentile": percentile(scores, mine.score)}
        if "you" in out or over:
            try:
                out["master"] = await self.master(spec, row)
            except Exception:  # a bug or a dead worker: the leaderboard is answered without it
                log.exception("daily deal %s: master's score could not be worked out", deal_id)
        return out

    def _asker(self, request: Request, deal_id: str) -> AttemptRow | None:
        """The asker's attempt at a deal: its account's, else the one a guest names (``?game=``
        with its seat's token, ``x-cassino-token``: 403 for a wrong token), else None."""
        account = self.accounts.session(request.cookies.get(COOKIE))
        mine = self.store.attempt_of(deal_id, account.id) if account is not None else None
        game = request.query_params.get("game")
        if mine is not None or not game or len(game) > 32:
            return mine
        named = self.store.attempt(game)
        if named is None or named.deal != deal_id:
            return None
        token = request.headers.get("x-cassino-token") or request.query_params.get("token")
        if self.service.seat_of(self.service.get(game), token) != SEAT:
            return None
        return named

    async def master(self, spec: DailySpec, row: DealRow) -> int:
        """How ``master`` scored from the person's seat on a deal: kept, else worked out in a worker
        (once in this process however many ask meanwhile) and kept."""
        kept = self.store.master(spec.id)
        if kept is not None:
            return kept
        task = self.masters.get(spec.id)
        if task is None:
            task = self.masters[spec.id] = asyncio.get_running_loop().create_task(self._work_out(spec, row))
            task.add_done_callback(lambda _done: self.masters.pop(spec.id, None))
        return await asyncio.shield(task)

    async def _work_out(self, spec: DailySpec, row: DealRow) -> int:
        """Play the deal's hand with master at every seat in a worker (seconds of search: never on
        the event loop) and keep the score; another process's, kept first, is the same number."""
        rules = make_rules(spec.preset, players=spec.players, partnerships=spec.partnerships)
        deck = derive_deck(spec.id, 1, row.seed, {})
        worked = await self.service.thinkers.run(master_score, rules, deck, row.seed)
        self.store.keep_master(spec.id, worked, self.clock())
        kept = self.store.master(spec.id)
        log.info("daily deal %s: master scored %d from the person's seat", spec.id, worked)
        return worked if kept is None else kept

    def with_history(self, profile_of: ProfileOf) -> ProfileOf:
        """A profile that lists the account's daily results, the latest deal first, and its streak
        besides what ``profile_of`` shows, and marks its finished games that were daily attempts
        with their deal (a hand nobody won) and whether its record is still sealed. An attempt's
        game id (its replay, and a watcher's view of its cards) is shown to others only once the
        deal's day is over."""

        def both(account: AccountRow, query: Mapping[str, str], viewer: AccountRow | None) -> dict[str, Any]:
            out = profile_of(account, query, viewer)
            now = self.clock()
            mine = viewer is not None and viewer.id == account.id
            out["daily"] = [
                {
                    "deal": r.deal,
                    "score": r.score,
                    "rank": r.rank,
                    "count": r.count,
                    "game": r.game if mine or now >= deal_reveal_after(r.deal) else None,
                }
                for r in self.store.history(account.id, HISTORY)
            ]
            attempts = {r.game: r.deal for r in self.store.results_of(account.id)}
            out["streak"] = streak((deal[:10] for deal in attempts.values()), day_of(now))
            for game in out.get("games", []):
                if game.get("game") in attempts:
                    deal = attempts[game["game"]]
                    game.update(daily=deal, sealed=now < deal_reveal_after(deal))
            return out

        return both

    def reveal(self, deal_id: str) -> dict[str, Any]:
        """The seed and the deck once the day is over (403 before): its SHA-256 is the commitment
        published at the start of the day, and the deck is the one derived from it and the id."""
        spec, row = self._deal(deal_id)
        if self.clock() < deal_reveal_after(deal_id):
            raise ServiceError(
                403,
                f"daily deal {deal_id} is revealed when its day is over: others are still to play it",
                code="sealed",
            )
        return {
            **spec.to_json(),
            "scheme": SCHEME,
            "commitment": row.commitment,
            "seed": row.seed,
            "deck": deck_text(derive_deck(spec.id, 1, row.seed, {})),
        }

    # ------------------------------------------------------------------ playing
    def play(self, request: Request, deal_id: str, client: str) -> dict[str, Any]:
        """Start an attempt at a deal of today: 201 with the game, the seat and its token; 409 for
        a second attempt of an account, or a deal of another day."""
        spec, row = self._deal(deal_id)
        if spec.date != day_of(self.clock()):
            raise ServiceError(
                409, f"daily deal {deal_id} is not today's: only today's deals are played", code="not_today"
            )
        account = self.accounts.session(request.cookies.get(COOKIE))
        if account is not None and self.store.attempt_of(deal_id, account.id) is not None:
            raise ServiceError(409, f"you have played daily deal {deal_id} already: one attempt a day", code="played")
        self.service.create_limit.take(client)
        rules = make_rules(spec.preset, players=spec.players, partnerships=spec.partnerships)
        token = secrets.token_hex(16)
        kinds: list[str | None] = [None if s == SEAT else OPPONENT for s in range(rules.players)]
        given: list[str | None] = [
            account.name if account is not None and s == SEAT else None for s in range(rules.players)
        ]
        if account is None:
            given[SEAT] = GUEST
        names = default_names(kinds, given)
        seats = [
            SeatRow(s, "human", names[s], token_hash=token_hash(token))
            if s == SEAT
            else SeatRow(s, "bot", names[s], bot=OPPONENT, bot_seed=opponent_seed(row.seed, s))
            for s in range(rules.players)
        ]
        now = self.clock()
        game = shared_deal_game(rules, seats, spec.id, row.seed, now)
        game_id = game.id
        try:
            self.store.start(deal_id, account.id if account is not None else None, game, SEAT, now)
        except AlreadyPlayedError:
            raise ServiceError(
                409, f"you have played daily deal {deal_id} already: one attempt a day", code="played"
            ) from None
        live = self.service.get(game_id)  # loaded as a game of one hand, its computer players started
        return {
            "game": game_id,
            "seat": SEAT,
            "token": token,
            "deal": deal_id,
            "commitment": row.commitment,
            "over": live.over,
        }

    def claimed(self, account: AccountRow, seats: list[tuple[str, int]]) -> None:
        """Seats a sign-up or sign-in brought: a guest's daily attempt among them becomes the
        account's (so it counts as its one attempt, with its name on the leaderboard)."""
        try:
            self.store.adopt(account.id, [game for game, _ in seats])
        except Exception:
            log.exception("the daily attempts of account %s could not be adopted", account.id)

    def game_over(self, live: LiveGame) -> None:
        """An attempt's hand is over: its score, recorded once (whichever process sees it first)."""
        if live.daily is None or not live.game.hands or live.game.hands[0].result is None:
            return
        points = live.game.hands[0].result.points
        if self.store.finish(live.id, score(points, live.rules.side_of(SEAT)), self.clock()):
            log.info("daily deal %s: game %s scored", live.daily, live.id)


def add_daily_routes(app: FastAPI, daily: Daily, client_of: Callable[[Request], str]) -> None:
    """The daily deal's routes on the app."""

    @app.get("/api/daily")
    async def daily_today(request: Request) -> JSONResponse:
        return no_store(200, daily.today(request))

    @app.post("/api/daily/{deal_id}/play")
    async def daily_play(deal_id: str, request: Request) -> JSONResponse:
        return no_store(201, daily.play(request, deal_id, client_of(request)))

    @app.get("/api/daily/{deal_id}/leaderboard")
    async def daily_leaderboard(deal_id: str, request: Request) -> JSONResponse:
        return no_store(200, await daily.leaderboard(request, deal_id))

    @app.get("/api/daily/{deal_id}/reveal")
    async def daily_reveal(deal_id: str) -> JSONResponse:
        return no_store(200, daily.reveal(deal_id))

    @app.get("/daily/{deal_id}")
    async def daily_page(deal_id: str) -> FileResponse:
        """The page, at a deal's leaderboard's address (the page reads its path to show it)."""
        return FileResponse(INDEX)
