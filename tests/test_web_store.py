"""Storage on SQLite and on a real PostgreSQL server (CASSINO_TEST_POSTGRES): rows round-trip,
a move is stored once, and a fresh service rebuilds every game exactly from the database."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from cassino.web.errors import ServiceError
from cassino.web.payloads import state_payload
from cassino.web.schema import HandRow, MoveRow, SeatRow
from cassino.web.service import GameService
from cassino.web.store import Store, StoreError, database_url
from web_support import postgres_url, service_seats


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    url = database_url(None, tmp_path) if request.param == "sqlite" else database_url(postgres_url())
    s = Store(url)
    assert s.dialect == request.param
    yield s
    s.close()


def test_rows_round_trip_and_a_move_is_stored_once(store: Store) -> None:
    seats = [SeatRow(0, "human", "Ann", token_hash="ab" * 32), SeatRow(1, "bot", "Bo", "greedy", 77)]
    store.create_game(
        "g1", {"preset": "classic", "players": 2, "partnerships": False}, seats, HandRow(1, "d1", "s1", "c1")
    )
    store.add_move("g1", MoveRow(0, 1, 1, "trail 3d"), None, "playing", -1)
    store.add_move("g1", MoveRow(1, 1, 0, "trail 4d"), HandRow(2, "d2", "s2", "c2"), "over", 0)
    with pytest.raises(StoreError, match="it is no longer at move 1, so the move was not stored"):
        store.add_move("g1", MoveRow(1, 1, 0, "trail 5d"), None, "playing", -1)
    with pytest.raises(StoreError, match="it is no longer at move 5, so the move was not stored"):
        store.add_move("g1", MoveRow(5, 1, 0, "trail 5d"), None, "playing", -1)
    game = store.load_game("g1")
    assert game is not None and game.status == "over" and game.winner == 0
    assert game.seats == seats
    assert game.hands == [HandRow(1, "d1", "s1", "c1"), HandRow(2, "d2", "s2", "c2")]
    assert game.moves == [MoveRow(0, 1, 1, "trail 3d"), MoveRow(1, 1, 0, "trail 4d")]
    assert store.load_game("nope") is None and store.unfinished() == [] and store.count_moves("g1") == 2
    assert [g["game"] for g in store.recent()] == ["g1"]


def test_a_fresh_service_rebuilds_games_from_the_database(store: Store) -> None:
    async def scenario() -> None:
        service = GameService(store, bot_delay=0)
        live, creator, invites = service.create(
            {"players": 3, "seats": [{"kind": "human"}] * 3, "options": {"target": 21}}
        )
        tokens = service_seats(service, live, creator, invites)
        rng = random.Random(2)
        for ply in range(60):
            if ply == 48:  # hand 1 is over: the count, until all three press next
                assert live.phase == "count" and live.waiting_for == [0, 1, 2]
                for token in tokens.values():
                    service.press_next(live.id, token)
            assert live.phase == "play"
            seat = live.game.state.to_move
            move = rng.choice(state_payload(live, seat)["legal"])["move"]
            service.play(live.id, tokens[seat], move)
        with pytest.raises(ServiceError, match="illegal move"):
            service.play(live.id, tokens[live.game.state.to_move], "build Ac 14: 2c")
        assert store.unfinished() == [live.id] and store.count_moves(live.id) == 60
        again = GameService(store, bot_delay=0)
        assert await again.start() == 1
        rebuilt = again.get(live.id)
        assert rebuilt is not live and rebuilt.ply == 60 and len(rebuilt.hands) == len(live.hands) == 2
        for who in (0, 1, 2, None):
            assert state_payload(rebuilt, who) == state_payload(live, who)
        assert rebuilt.game.state == live.game.state

    asyncio.run(scenario())


def test_postgres_urls_use_psycopg() -> None:
    assert database_url("postgresql://u:p@h:5/db") == "postgresql+psycopg://u:p@h:5/db"
    assert database_url("postgres://h/db") == "postgresql+psycopg://h/db"
    assert database_url(None, Path("/x")) == "sqlite:////x/web.sqlite3"


@pytest.mark.parametrize("durable", [False, True])
def test_durability_setting(store: Store, durable: bool) -> None:
    from sqlalchemy import text

    other = Store(store.url, durable=durable)
    with other.engine.connect() as conn:
        if other.dialect == "sqlite":
            assert conn.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
            assert conn.execute(text("PRAGMA synchronous")).scalar_one() == (2 if durable else 1)  # FULL / NORMAL
        else:
            assert conn.execute(text("SHOW synchronous_commit")).scalar_one() == ("on" if durable else "off")
    other.close()


def test_a_move_the_database_refuses_is_not_made(store: Store) -> None:
    from sqlalchemy import insert

    from cassino.web.schema import moves_table

    async def scenario() -> None:
        service = GameService(store, bot_delay=0)
        live, creator, invites = service.create({"seats": [{"kind": "human"}, {"kind": "human"}]})
        tokens = service_seats(service, live, creator, invites)
        seat = live.game.state.to_move
        move = state_payload(live, seat)["legal"][0]["move"]
        before = state_payload(live, seat)
        with store.engine.begin() as conn:  # a row in the way: the move's insert fails, its transaction rolls back
            conn.execute(insert(moves_table).values(game_id=live.id, ply=0, hand=1, seat=seat, move="trail Ac"))
        with pytest.raises(ServiceError, match="could not be saved, so it was not made") as refused:
            service.play(live.id, tokens[seat], move)
        assert refused.value.status == 503
        assert state_payload(live, seat) == before and live.ply == 0
        with store.engine.begin() as conn:
            conn.execute(moves_table.delete().where(moves_table.c.game_id == live.id))
        again = service.play(live.id, tokens[seat], move)  # read again from the store, then played
        assert again is live and again.ply == 1 and store.count_moves(live.id) == 1

    asyncio.run(scenario())
