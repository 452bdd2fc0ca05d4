"""Tournaments over HTTP (``/api/tournaments``): Swiss and arena, for people with accounts and the
computer players an organiser enters, every table of a deal dealt the same cards (duplicate). The
pairing and scoring are ``cassino.club.pairing`` and ``cassino.club.standings``, the same code as
``cassino tournament``; the storage is ``web.tournament_store``.

- **Entries**: a signed-in account creates a tournament (it is the organiser, and may enter too),
  names its computer entrants (``bots``: levels), and others join while it is open. The organiser
  starts it (at least a table's worth of entrants).
- **A table** is one hand (a board, as in duplicate bridge) of the tournament's preset, dealt from a
  deal committed before any table plays it: a Swiss round's deal, or in an arena the first deal no
  one at the table has played. Every table of a deal gets the same deck (``fair.derive_deck`` of
  the deal's id and seed), each side its entrant in side order (``club.pairing.seat_table``), so a
  seat's cards are the same at every table and the board score compares like with like. A table's
  winner is the side with the most points (equal points: a draw).
- **Rounds**: a Swiss round begins when the last table of the one before ends (whichever process
  sees it, once, under the tournament's lock), until ``rounds`` are played; an arena pairs the free
  entrants again each time a table ends, until ``minutes`` have passed, and ends when its last
  table does.
- **Seats**: each person's seat at every table holds the token its browser derives from its
  session (``club.seeks.seat_token`` of the tournament), so ``GET /api/tournaments/{id}`` tells that
  browser, and only it, the token of its table in play.
- **Sealed**: every deck stays secret until the tournament is over (a table's hand reveal and its
  record answer 403), then the deals' seeds are listed with their commitments.
- **Rated**: a rated tournament's tables between people count in the ratings' pool of its preset.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse

from ..club.accounts import AccountRow, Accounts
from ..club.errors import PairingError, TournamentError, TournamentInputError
from ..club.pairing import BYE_PLAYER, arena_tables, swiss_round
from ..club.ratings import PRESETS, rating_key
from ..club.seeks import seat_token
from ..club.standings import Result, Table, standings
from ..players import level_names
from ..rules import make_rules
from .accounts import COOKIE, json_body, no_store, require_signed_in
from .deals import shared_deal_game
from .errors import ServiceError
from .fair import new_seed, seed_commitment
from .model import LiveGame, tournament_deal_id
from .requests import bot_player, token_hash
from .schema import SeatRow, rated_games_table, seat_holders_table
from .service import GameService
from .store import Store
from .tournament_store import DealRow, EntrantRow, TableRow, TournamentRow, TournamentStore

log = logging.getLogger("cassino.web")

KINDS: Final = ("swiss", "arena")
MAX_ROUNDS: Final = 20
MAX_MINUTES: Final = 24 * 60
MAX_BOTS: Final = 16
LISTED: Final = 50
"""The most tournaments ``GET /api/tournaments`` lists."""
FIELDS: Final = frozenset({"kind", "preset", "players", "partnerships", "rounds", "minutes", "rated", "bots", "starts"})
MAX_AHEAD: Final = 30 * 86400
"""How far ahead a tournament's start may be set (seconds)."""
TICK: Final = 5.0
"""Seconds between two looks for tournaments due to start and arenas whose time is up."""


def computer_name(level: str, taken: set[str]) -> str:
    """A computer entrant's name: its level, marked as a computer (no account name has a space),
    numbered when the level is entered more than once."""
    name, n = f"{level} (computer)", 1
    while name in taken:
        n += 1
        name = f"{level} (computer {n})"
    return name


def bot_seed(seed: str, seat: int) -> int:
    """A computer player's seed at a table: fixed by the deal's seed and the seat, so every table of
    a deal meets the same player in the same seat."""
    return int.from_bytes(hashlib.sha256(f"{seed}/seat/{seat}".encode()).digest()[:4], "big") >> 1


def table_winner(points: tuple[int, ...]) -> int:
    """The side with the most points in the hand, or -1 when the most is shared (a draw)."""
    best = max(points)
    return points.index(best) if points.count(best) == 1 else -1


def _request(body: dict[str, Any], now: float) -> dict[str, Any]:
    """A create request checked: its settings, or TournamentInputError naming the first bad one."""
    unknown = sorted(set(body) - FIELDS)
    if unknown:
        raise TournamentInputError(
            f"unknown field {unknown[0]!r}: a tournament takes {', '.join(sorted(FIELDS))}", "field"
        )
    kind = body.get("kind", "swiss")
    if kind not in KINDS:
        raise TournamentInputError(f"kind must be 'swiss' or 'arena', not {str(kind)[:20]!r}", "kind")
    preset = body.get("preset", "classic")
    if preset not in PRESETS:
        raise TournamentInputError(f"preset must be one of {', '.join(PRESETS)}, not {str(preset)[:20]!r}", "preset")
    players = body.get("players", 2)
    if not isinstance(players, int) or isinstance(players, bool) or players not in (2, 3, 4):
        raise TournamentInputError(f"players must be 2, 3 or 4, not {str(players)[:20]!r}", "players")
    if body.get("partnerships", False) is not False:
        raise TournamentInputError("tournaments seat players one by one: partnerships are not offered", "partnerships")
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise TournamentInputError("rated must be true or false", "rated")
    rounds = body.get("rounds", 0 if kind == "arena" else 3)
    minutes = body.get("minutes", 0 if kind == "swiss" else 30)
    if kind == "swiss" and (not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS):
        raise TournamentInputError(f"a Swiss needs rounds, 1 to {MAX_ROUNDS}, not {str(rounds)[:20]!r}", "rounds")
    if kind == "arena" and (
        not isinstance(minutes, int | float) or isinstance(minutes, bool) or not 1 <= minutes <= MAX_MINUTES
    ):
        raise TournamentInputError(f"an arena needs minutes, 1 to {MAX_MINUTES}, not {str(minutes)[:20]!r}", "minutes")
    bots = body.get("bots", [])
    if (
        not isinstance(bots, list)
        or len(bots) > MAX_BOTS
        or not all(isinstance(b, str) and 0 < len(b) <= 64 for b in bots)
    ):
        raise TournamentInputError(
            f"bots must be a list of at most {MAX_BOTS} computer players: levels ({', '.join(level_names())}) "
            "or the server's bot programs (bot:FILE)",
            "bots",
        )
    starts = body.get("starts")
    if starts is not None and (
        not isinstance(starts, int | float) or isinstance(starts, bool) or not now < starts <= now + MAX_AHEAD
    ):
        raise TournamentInputError(
            f"starts must be a time (epoch seconds) within the next {MAX_AHEAD // 86400} days, or null for the "
            "organiser to start it",
            "starts",
        )
    return {
        "starts": None if starts is None else float(starts),
        "kind": kind,
        "preset": preset,
        "players": players,
        "rated": rated,
        "rounds": rounds if kind == "swiss" else 0,
        "minutes": float(minutes) if kind == "arena" else 0.0,
        "bots": bots,
    }


class Tournaments:
    """The tournaments of one server process: the requests and what follows each table's end."""

    def __init__(self, service: GameService, accounts: Accounts, store: Store) -> None:
        """``store``: the database the service's games are in (a tournament's tables are made in its
        transactions)."""
        self.service = service
        self.store = TournamentStore(store)
        self.accounts = accounts
        self.clock = service.clock
        self.over_seen: set[str] = set()
        service.on_over.append(self.game_over)
        service.replicas.seals = self.seal_of

    def seal_of(self, tournament_id: str) -> Callable[[], bool]:
        """What says a tournament's decks are still secret: until it is over (then for good)."""

        def sealed() -> bool:
            if tournament_id in self.over_seen:
                return False
            if self.store.over(tournament_id):
                self.over_seen.add(tournament_id)
                return False
            return True

        return sealed

    # ------------------------------------------------------------------ requests
    def _signed_in(self, request: Request) -> tuple[AccountRow, str]:
        """The signed-in account and its session's secret; 401 without one."""
        return require_signed_in(self.accounts, request)

    def create(self, request: Request, body: dict[str, Any]) -> dict[str, Any]:
        """A new tournament, open for entries, its organiser the asker."""
        account, _ = self._signed_in(request)
        with answer_tournament_refusals():
            settings = _request(body, self.clock())
        for spec in dict.fromkeys(settings["bots"]):
            bot_player(spec, 0, self.service.programs)  # a refusal names the players that may sit
        tournament_id = secrets.token_hex(8)
        row = TournamentRow(
            tournament_id,
            settings["kind"],
            settings["preset"],
            settings["players"],
            settings["rated"],
            settings["rounds"],
            settings["minutes"],
            account.id,
            "open",
            0,
            self.clock(),
            None,
            None,
            settings["starts"],
        )
        taken: set[str] = set()
        bots = []
        for place, level in enumerate(settings["bots"]):
            name = computer_name(level, taken)
            taken.add(name)
            bots.append(EntrantRow(place, name, None, level, None))
        self.store.add(row, bots)
        return {"id": tournament_id}

    def _row(self, tournament_id: str) -> TournamentRow:
        row = self.store.tournament(tournament_id) if len(tournament_id) <= 32 else None
        if row is None:
            raise ServiceError(404, f"no tournament {tournament_id[:40]!r} here", code="no_tournament")
        return row

    def join(self, request: Request, tournament_id: str) -> dict[str, Any]:
        """Enter the asker: its place in the seeding order."""
        account, session = self._signed_in(request)
        self._row(tournament_id)
        digest = token_hash(seat_token(session, f"tournament:{tournament_id}"))
        with answer_tournament_refusals():
            entrant = self.store.join(tournament_id, account.name, account.id, digest)
        return {"id": tournament_id, "name": entrant.name, "place": entrant.place}

    def start(self, request: Request, tournament_id: str) -> dict[str, Any]:
        """The organiser starts it: the first round's (or the arena's first) tables are dealt."""
        account, _ = self._signed_in(request)
        row = self._row(tournament_id)
        if row.organiser != account.id:
            raise ServiceError(403, "only the tournament's organiser starts it", code="not_organiser")
        with answer_tournament_refusals():
            self._begin(tournament_id)
        return self.view(request, tournament_id)

    def _begin(self, tournament_id: str, timed: bool = False) -> None:
        """Start an open tournament: its first tables dealt. TournamentInputError when it has begun
        or has too few entrants; at its set time (``timed``) too few entrants cancel it instead."""
        made: list[str] = []
        with self.store.locked(tournament_id) as conn:
            row = self.store.tournament(tournament_id, conn)
            if row is None or row.status != "open":
                if timed:
                    return  # another process started it
                raise TournamentInputError(f"tournament {tournament_id} has begun already", "started")
            entrants = self.store.entrants(tournament_id, conn)
            if len(entrants) < row.players:
                if timed:
                    self.store.set_state(conn, tournament_id, status="cancelled")
                    return
                raise TournamentInputError(
                    f"a table seats {row.players}: the tournament needs at least {row.players} entrants, "
                    f"it has {len(entrants)}",
                    "too_few",
                )
            now = self.clock()
            ends = now + row.minutes * 60 if row.kind == "arena" else None
            self.store.set_state(conn, tournament_id, status="running", started=now, ends=ends)
            row = self.store.tournament(tournament_id, conn) or row
            made = self._deal_tables(conn, row, now)
        self._adopt(made)

    # ------------------------------------------------------------------ the clock
    async def run(self) -> None:
        """Every ``TICK`` seconds: start the tournaments whose set time has come, and end the arenas
        whose time is up and whose last table has ended (any process may; each once, under the lock)."""
        while True:
            await asyncio.sleep(TICK)
            try:
                self.tick()
            except Exception:
                log.exception("the tournaments' clock failed; it looks again")

    def tick(self) -> None:
        """One look of ``run``."""
        now = self.clock()
        for tournament_id in self.store.due(now):
            self._begin(tournament_id, timed=True)
        for tournament_id in self.store.out_of_time(now):
            self.advance(tournament_id)

    # ------------------------------------------------------------------ the tables
    def _deal_tables(self, conn: Any, row: TournamentRow, now: float) -> list[str]:
        """Under the lock: the tables to start now (the next Swiss round, or the free arena entrants
        paired), their deals committed first; the ids of the games made. Ends the tournament when
        nothing is left to play."""
        entrants = self.store.entrants(row.id, conn)
        names = [e.name for e in entrants]
        tables = self.store.tables(row.id, conn)
        deals = self.store.deals(row.id, conn)
        results = [_result(t, deals) for t in tables if t.scores is not None]
        playing = [_table(t, deals) for t in tables if t.scores is None]
        if row.kind == "swiss":
            if playing:
                return []
            if row.round >= row.rounds:
                self.store.set_state(conn, row.id, status="over")
                return []
            number = row.round + 1
            deal = self._commit(conn, row.id, number)
            try:
                pairs = swiss_round(names, results, number, deal.commitment, size=row.players, rounds=row.rounds)
            except PairingError:
                self.store.set_state(conn, row.id, status="over")  # nobody has a new opponent left
                return []
            self.store.set_state(conn, row.id, round=number)
            return [self._make(conn, row, entrants, t, deal) for t in pairs]
        if row.ends is not None and now >= row.ends:
            if not playing:
                self.store.set_state(conn, row.id, status="over")
            return []
        busy = {name for t in playing for name in t.entrants()}
        free = [n for n in sorted(names, key=lambda n: (-_last_end(n, tables), names.index(n))) if n not in busy]
        most = max((sum(name in t.sides for t in tables) for name in names), default=0)  # tables of the busiest
        needed = 2 * most + 2  # a table takes the first deal none at it has played
        while len(deals) < needed:
            deals.append(self._commit(conn, row.id, len(deals) + 1))
        pairs = arena_tables(free, names, results, [d.commitment for d in deals], playing=playing, size=row.players)
        self.store.set_state(conn, row.id, round=len(deals))
        return [self._make(conn, row, entrants, t, deals[t.round - 1]) for t in pairs]

    def _commit(self, conn: Any, tournament_id: str, number: int) -> DealRow:
        """A new deal: a secret seed and its commitment, stored before any table is dealt it."""
        seed = new_seed()
        deal = DealRow(number, seed, seed_commitment(seed))
        self.store.add_deal(conn, tournament_id, deal)
        return deal

    def _make(self, conn: Any, row: TournamentRow, entrants: list[EntrantRow], table: Table, deal: DealRow) -> str:
        """One table's game, stored in the tournament's transaction: each side's entrant (a person
        with the tournament's seat token, a computer player seeded by the deal and the seat), the
        deal's deck, one hand; its people's seats held by their accounts."""
        rules = make_rules(row.preset, players=row.players)
        by_name = {e.name: e for e in entrants}
        seats: list[SeatRow] = []
        holders: list[tuple[int, str]] = []
        for seat, name in enumerate(table.seats):
            entrant = by_name.get(name)
            if seat in table.computers or entrant is None:
                seats.append(
                    SeatRow(
                        seat,
                        "bot",
                        computer_name(BYE_PLAYER, set()),
                        bot=BYE_PLAYER,
                        bot_seed=bot_seed(deal.seed, seat),
                    )
                )
            elif entrant.bot is not None:
                seats.append(SeatRow(seat, "bot", name, bot=entrant.bot, bot_seed=bot_seed(deal.seed, seat)))
            else:
                seats.append(SeatRow(seat, "human", name, token_hash=entrant.token_hash or ""))
                if entrant.account_id is not None:
                    holders.append((seat, entrant.account_id))
        now = self.clock()
        game = shared_deal_game(rules, seats, tournament_deal_id(row.id, deal.number), deal.seed, now)
        game_id = game.id
        self.store.store.create_games([game], within=conn)
        self.store.add_table(
            conn,
            row.id,
            TableRow(game_id, table.round, table.number, deal.number, table.seats, table.computers, None, None, None),
        )
        for seat, account_id in holders:
            conn.execute(
                seat_holders_table.insert(), {"game_id": game_id, "seat": seat, "account_id": account_id, "since": now}
            )
        if row.rated and len(holders) == rules.players:
            pool = rating_key(row.preset, row.players, False)
            conn.execute(rated_games_table.insert(), {"game_id": game_id, "pool": pool, "rated_at": None})
        return game_id

    def game_over(self, live: LiveGame) -> None:
        """A table's hand is over: its result, recorded once, and the next tables dealt if they are due."""
        if live.tournament is None or not live.game.hands or live.game.hands[0].result is None:
            return
        points = tuple(live.game.hands[0].result.points)
        tournament_id = self.store.finish_table(live.id, points, table_winner(points), self.clock())
        if tournament_id is not None:
            self.advance(tournament_id)

    def advance(self, tournament_id: str) -> None:
        """Deal whatever is due now (a Swiss round after the last, an arena's free entrants), or end it."""
        made: list[str] = []
        with self.store.locked(tournament_id) as conn:
            row = self.store.tournament(tournament_id, conn)
            if row is None or row.status != "running":
                return
            made = self._deal_tables(conn, row, self.clock())
        self._adopt(made)

    def recover(self) -> int:
        """At start-up: the running tournaments' tables that ended unrecorded (a process stopped
        between a table's last move and its result) are recorded, and what is due is dealt; how
        many tournaments were looked at."""
        running = self.store.running()
        for tournament_id in running:
            self._adopt(self.store.unrecorded(tournament_id))
            try:
                self.advance(tournament_id)
            except Exception:
                log.exception("tournament %s could not be taken up again", tournament_id)
        return len(running)

    def _adopt(self, game_ids: list[str]) -> None:
        """Tables with no result recorded (just dealt here, or left by a process that stopped):
        loaded here, so that their computer players play (a move is stored once, whichever process
        makes it), and recorded if they are over."""
        for game_id in game_ids:
            try:
                live = self.service.get(game_id)
                if live.over:
                    self.game_over(live)
            except Exception:
                log.exception("tournament game %s could not be taken up", game_id)

    # ------------------------------------------------------------------ reading
    def listed(self) -> dict[str, Any]:
        """The tournaments the lobby lists: open and running first, then the last ones over."""
        return {
            "tournaments": [{**_settings(row), "entrants": entrants} for row, entrants in self.store.listed(LISTED)]
        }

    def view(self, request: Request, tournament_id: str) -> dict[str, Any]:
        """Status, round, standings and pairings; for an entrant's browser its tables in play with
        their tokens; once over, every deal's seed."""
        row = self._row(tournament_id)
        if row.status in ("open", "running") and self.clock() >= min(row.starts or math.inf, row.ends or math.inf):
            self.tick()  # its start or end came before the clock looked
            row = self._row(tournament_id)
        entrants = self.store.entrants(tournament_id)
        names = [e.name for e in entrants]
        tables = self.store.tables(tournament_id)
        deals = self.store.deals(tournament_id)
        results = [_result(t, deals) for t in tables if t.scores is not None]
        # tables in play that no process here plays (the one that dealt them stopped) are taken up
        self._adopt([t.game_id for t in tables if t.scores is None and t.game_id not in self.service.games])
        out: dict[str, Any] = {
            **_settings(row),
            "entrants": names,
            "standings": [s.to_json() for s in standings(names, results)] if names else [],
            "pairings": [
                {
                    **_table(t, deals).to_json(),
                    "round": t.round,
                    "game": t.game_id,
                    "scores": None if t.scores is None else list(t.scores),
                    "winner": t.winner,
                }
                for t in tables
            ],
            "deals": [
                {"number": d.number, "commitment": d.commitment, **({"seed": d.seed} if row.status == "over" else {})}
                for d in deals
            ],
        }
        session = request.cookies.get(COOKIE)
        account = self.accounts.session(session)
        if account is not None and session is not None:
            mine = next((e for e in entrants if e.account_id == account.id), None)
            out["organiser"] = row.organiser == account.id
            if mine is not None:
                token = seat_token(session, f"tournament:{tournament_id}")
                ours = token_hash(token) == mine.token_hash
                out["you"] = mine.name
                out["mine"] = [
                    {"game": t.game_id, "seat": t.sides.index(mine.name), "token": token if ours else None}
                    for t in tables
                    if t.scores is None and mine.name in t.sides
                ]
        return out


def _settings(row: TournamentRow) -> dict[str, Any]:
    """A tournament's settings and where it stands, as the list and its own page show them."""
    return {
        "id": row.id,
        "kind": row.kind,
        "preset": row.preset,
        "players": row.players,
        "rated": row.rated,
        "rounds": row.rounds,
        "minutes": row.minutes,
        "status": row.status,
        "round": row.round,
        "created": row.created,
        "starts": row.starts,
        "ends": row.ends,
    }


def _table(t: TableRow, deals: list[DealRow]) -> Table:
    """A stored table as the club's pairing and standings read it."""
    commitment = next(d.commitment for d in deals if d.number == t.deal)
    return Table(t.round, t.number, t.sides, commitment, t.computers)


def _result(t: TableRow, deals: list[DealRow]) -> Result:
    assert t.scores is not None and t.winner is not None
    return Result(_table(t, deals), t.scores, t.winner)


def _last_end(name: str, tables: list[TableRow]) -> float:
    """When an entrant's last table ended (0: never): the longest waiting is paired first."""
    return -max((t.finished or 0.0 for t in tables if name in t.sides), default=0.0)


@contextmanager
def answer_tournament_refusals() -> Iterator[None]:
    """The club's refusals of tournaments as ``ServiceError`` with their status and ``code``:
    409 for what conflicts with the tournament's state, 400 for a bad request."""
    try:
        yield
    except TournamentError as exc:
        status = 409 if exc.code in CONFLICTS else 400
        raise ServiceError(status, exc.message, code=exc.code) from None


CONFLICTS: Final = frozenset({"started", "joined", "too_few"})
"""Refusals that are about the tournament's state, not the request (409)."""


def add_tournament_routes(app: FastAPI, tournaments: Tournaments, index: Path) -> None:
    """The tournaments' routes on the app, and the page (``index``) at a tournament's address,
    ``/tournament/ID`` (the page reads its path to show it)."""

    @app.get("/api/tournaments")
    async def list_tournaments() -> JSONResponse:
        return no_store(200, tournaments.listed())

    @app.post("/api/tournaments")
    async def create_tournament(request: Request) -> JSONResponse:
        return no_store(201, tournaments.create(request, await json_body(request)))

    @app.post("/api/tournaments/{tournament_id}/join")
    async def join_tournament(tournament_id: str, request: Request) -> JSONResponse:
        return no_store(200, tournaments.join(request, tournament_id))

    @app.post("/api/tournaments/{tournament_id}/start")
    async def start_tournament(tournament_id: str, request: Request) -> JSONResponse:
        return no_store(200, tournaments.start(request, tournament_id))

    @app.get("/api/tournaments/{tournament_id}")
    async def get_tournament(tournament_id: str, request: Request) -> JSONResponse:
        return no_store(200, tournaments.view(request, tournament_id))

    @app.get("/tournament/{tournament_id}")
    async def tournament_page(tournament_id: str) -> FileResponse:
        return FileResponse(index)
