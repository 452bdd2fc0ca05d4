"""No client can exhaust the server: only the named computer players sit at a table, targets are
capped, start-up loads no game (each is loaded when first asked for), forgotten games expire, and
each client's new games and moves are rate limited."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from cassino.game import Game
from cassino.rules import make_rules
from cassino.web.errors import ServiceError
from cassino.web.fair import commitment, deck_text, new_salt, secure_deck
from cassino.web.limits import Rate
from cassino.web.model import LiveGame
from cassino.web.payloads import state_payload
from cassino.web.requests import TABLE_BOTS
from cassino.web.schema import HandRow, NewGame, SeatRow
from cassino.web.service import GameService
from cassino.web.store import Store, database_url

ALLOWED = "the computer players are: beginner, novice, casual, club, expert, master, random, greedy, heuristic, search"
HUMAN_VS_GREEDY = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
BOTS_ONLY = {"seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(database_url(None, tmp_path))
    yield s
    s.close()


class Clock:
    """A fake epoch clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


# ----------------------------------------------------------------------------- players and targets


@pytest.mark.parametrize(
    ("bot", "why"),
    [
        ("search:time=25", "computer player 'search:time=25' has settings, and only plain names sit at a table"),
        ("search:worlds=-5", "computer player 'search:worlds=-5' has settings, and only plain names sit at a table"),
        ("expert:miss=0", "computer player 'expert:miss=0' has settings, and only plain names sit at a table"),
        ("fallible", "computer player 'fallible' does not sit at a table"),
        ("cheater", "computer player 'cheater' sees every card, so it may not sit at a table"),
        ("oracle", "unknown player 'oracle'"),
    ],
)
def test_only_named_players_sit_at_a_table(store: Store, bot: str, why: str) -> None:
    service = GameService(store)
    with pytest.raises(ServiceError) as exc:
        service.create({"seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}]})
    assert exc.value.status == 400 and exc.value.message == f"{why}; {ALLOWED}"
    assert store.recent() == []


def test_every_allowed_player_sits(store: Store) -> None:
    service = GameService(store)
    for bot in TABLE_BOTS:
        live, _, _ = service.create({"seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}], "listed": True})
        assert live.seats[1].bot == bot and live.seats[1].player is not None
    assert len(store.recent()) == len(TABLE_BOTS) == 10


@pytest.mark.parametrize("target", [1001, 10**30])
def test_a_far_target_is_refused(store: Store, target: int) -> None:
    with pytest.raises(ServiceError) as exc:
        GameService(store).create({"options": {"target": target}})
    assert exc.value.status == 400 and exc.value.message == "target must be at most 1000 points here"


def test_the_highest_target_is_played(store: Store) -> None:
    live, _, _ = GameService(store).create({"options": {"target": 1000}})
    assert live.rules.target == 1000


def test_a_stored_game_seating_a_refused_player_is_shown_but_never_played(store: Store) -> None:
    """A game made before the limits, with a player that would think for 25 s a move."""
    deck = secure_deck()
    salt = new_salt()
    rules = make_rules("classic")
    seats = [SeatRow(0, "bot", "slow", "search:time=25", 1), SeatRow(1, "bot", "fast", "greedy", 2)]
    store.create_game("old", rules.to_json(), seats, HandRow(1, deck_text(deck), salt, commitment(salt, deck)))

    async def scenario() -> None:
        service = GameService(store, bot_delay=0)
        live = service.get("old")
        assert live.abandoned == "its computer player 'search:time=25' no longer sits at a table"
        assert live.bot_task is None and state_payload(live, None)["version"] == 0
        await asyncio.sleep(0.05)
        assert store.count_moves("old") == 0

    asyncio.run(scenario())


# ----------------------------------------------------------------------------- lazy loading


def _unfinished_games(count: int) -> list[NewGame]:
    rules = make_rules("classic").to_json()
    games = []
    for i in range(count):
        deck = secure_deck()
        salt = new_salt()
        seats = [SeatRow(0, "human", "Ann", token_hash=f"{i:064x}"), SeatRow(1, "bot", "Bo", "greedy", i)]
        games.append(NewGame(f"g{i:04d}", rules, seats, HandRow(1, deck_text(deck), salt, commitment(salt, deck))))
    return games


def test_start_up_with_a_thousand_unfinished_games_is_quick(store: Store) -> None:
    games = _unfinished_games(1000)
    store.create_games(games)
    assert len(store.unfinished()) == 1000

    async def scenario() -> None:
        service = GameService(store, bot_delay=0)
        began = time.perf_counter()
        assert await service.start() == 1000
        assert time.perf_counter() - began < 2.0
        assert service.games == {}  # nothing replayed at start-up
        wanted = games[567]
        live = service.get(wanted.id)
        assert list(service.games) == [wanted.id]
        fresh = Game(make_rules("classic"), decks=[live.game.decks[0]])
        assert deck_text(live.game.decks[0]) == wanted.first.deck and live.ply == 0
        assert live.game.state == fresh.state and live.seats[1].bot == "greedy" and not live.abandoned
        assert state_payload(live, 0)["version"] == 0 and state_payload(live, 0)["status"] == "playing"
        await service.stop()

    asyncio.run(scenario())


def test_computer_players_resume_on_first_access_not_at_start(store: Store) -> None:
    made, _, _ = GameService(store).create(BOTS_ONLY)  # no event loop: its players have not moved

    async def scenario() -> None:
        service = GameService(store, bot_delay=0)
        await service.start()
        await asyncio.sleep(0.05)
        assert store.count_moves(made.id) == 0 and service.games == {}
        live = service.get(made.id)
        assert live.bot_task is not None
        for _ in range(500):
            if store.count_moves(made.id) >= 4:
                break
            await asyncio.sleep(0.01)
        assert store.count_moves(made.id) >= 4
        await service.stop()

    asyncio.run(scenario())


# ----------------------------------------------------------------------------- expiry


def _two_people(service: GameService) -> tuple[LiveGame, dict[int, str]]:
    live, tokens, invites = service.create({"seats": [{"kind": "human"}, {"kind": "human"}]})
    return live, {0: tokens[0], 1: service.claim(live.id, {"invite": invites[1]})[1]}


def _move(service: GameService, live: LiveGame, tokens: dict[int, str], client: str = "") -> None:
    seat = live.game.state.to_move
    service.play(live.id, tokens[seat], state_payload(live, seat)["legal"][0]["move"], client=client)


def test_a_game_without_a_move_for_expire_after_refuses_moves(store: Store) -> None:
    clock = Clock()
    service = GameService(store, expire_after=60, clock=clock)
    live, tokens = _two_people(service)
    clock.now += 59
    _move(service, live, tokens)
    stored = store.load_game(live.id)
    assert stored is not None and stored.last_move == clock.now
    clock.now += 59
    _move(service, live, tokens)
    clock.now += 60
    message = f"game {live.id} is abandoned (no move was made in it for 1 minute): start a new one"
    for refused_call in (lambda: _move(service, live, tokens), lambda: service.press_next(live.id, tokens[0])):
        with pytest.raises(ServiceError) as exc:
            refused_call()
        assert exc.value.status == 410 and exc.value.message == message
    assert service.get(live.id).abandoned == "no move was made in it for 1 minute"
    assert store.count_moves(live.id) == live.ply == 2
    shown = state_payload(live, live.game.state.to_move)
    assert shown["abandoned"] == "no move was made in it for 1 minute" and shown["legal"] == []
    assert "why_not" not in shown and state_payload(live, None)["abandoned"] == shown["abandoned"]
    restarted = GameService(store, expire_after=60, clock=clock)
    again = restarted.get(live.id)  # after a restart too
    assert again.abandoned == "no move was made in it for 1 minute" and again.ply == 2
    assert live.id not in restarted.games  # nothing will change in it: not kept in memory


def test_an_expired_game_is_not_resumed_on_access(store: Store) -> None:
    clock = Clock()
    made, _, _ = GameService(store, clock=clock).create(BOTS_ONLY)

    async def scenario() -> None:
        clock.now += 3 * 24 * 3600  # the default expiry: three days
        service = GameService(store, bot_delay=0, clock=clock)
        live = service.get(made.id)
        assert live.abandoned == "no move was made in it for 3 days" and live.bot_task is None
        await asyncio.sleep(0.05)
        assert store.count_moves(made.id) == 0

    asyncio.run(scenario())


# ----------------------------------------------------------------------------- rate limits


def test_new_games_are_rate_limited_per_client(store: Store) -> None:
    clock = Clock()
    service = GameService(store, create_rate=Rate(burst=2, per_second=0.5), clock=clock)
    service.create({}, client="10.0.0.1")
    service.create({}, client="10.0.0.1")
    with pytest.raises(ServiceError) as exc:
        service.create({}, client="10.0.0.1")
    assert exc.value.status == 429
    assert exc.value.message == "too many new games: at most 2 at once, then one every 2 s; try again in 2 s"
    service.create({}, client="10.0.0.2")  # another client has its own bucket
    for _ in range(5):
        service.create({})  # a caller naming no client (the server itself) is not limited
    clock.now += 2
    service.create({}, client="10.0.0.1")
    assert len(store.unfinished()) == 9


def test_moves_are_rate_limited_per_client(store: Store) -> None:
    clock = Clock()
    service = GameService(store, move_rate=Rate(burst=1, per_second=2), clock=clock)
    live, tokens = _two_people(service)
    _move(service, live, tokens, "10.0.0.1")
    with pytest.raises(ServiceError) as exc:
        _move(service, live, tokens, "10.0.0.1")
    assert exc.value.status == 429
    assert exc.value.message == "too many moves: at most 1 at once, then 2 a second; try again in 1 s"
    with pytest.raises(ServiceError) as exc:
        service.undo(live.id, tokens[0], client="10.0.0.1")
    assert exc.value.status == 429 and live.ply == 1
    _move(service, live, tokens, "10.0.0.2")
    clock.now += 0.5
    _move(service, live, tokens, "10.0.0.1")
    assert live.ply == 3 and store.count_moves(live.id) == 3


@pytest.mark.parametrize("limited", [True, False])
def test_the_app_limits_each_client_by_its_address_unless_told_not_to(tmp_path: Path, limited: bool) -> None:
    """Through HTTP the client's address is the key: the 21st new game at once is refused with 429
    naming the limit; with ``rate_limits=False`` (benchmarks, tests) every one is made."""
    from fastapi.testclient import TestClient

    from cassino.web.app import create_app

    app = create_app(database=f"sqlite:///{tmp_path / 'w.sqlite3'}", bot_delay=0, rate_limits=limited)
    with TestClient(app) as client:
        codes = [client.post("/api/games", json=HUMAN_VS_GREEDY).status_code for _ in range(21)]
        assert codes[:20] == [201] * 20
        if limited:
            refused = client.post("/api/games", json=HUMAN_VS_GREEDY)
            assert codes[20] == 429 and refused.status_code == 429
            assert refused.json()["error"].startswith("too many new games: at most 20 at once, then one every 30 s")
        else:
            assert codes[20] == 201
