"""Several server processes over one PostgreSQL database serve the same games: a move made through
one reaches the clients of the other (LISTEN/NOTIFY), each computer player's move is stored exactly
once however many processes run it, presses of next made through different processes end one count,
and a process killed with SIGKILL mid-game loses nothing: the game finishes through the other."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("psycopg")

import httpx

from cassino.web.errors import ServiceError
from cassino.web.fair import SCHEME
from cassino.web.model import LiveGame
from cassino.web.payloads import state_payload
from cassino.web.store import Store, database_url
from web_support import Server, check_hand, postgres_url, replay, service_seats, two_services


async def _until(predicate: Callable[[], bool], what: str, limit: float = 30) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def _moves(store: Store, game_id: str) -> list[tuple[int, int, str]]:
    stored = store.load_game(game_id)
    assert stored is not None
    return [(m.ply, m.seat, m.move) for m in stored.moves]


def test_two_services_on_one_database_keep_one_game_in_step() -> None:
    async def scenario() -> None:
        with two_services() as (a, b):
            await a.start()
            await b.start()
            assert a.listener is not None and b.listener is not None
            await _until(lambda: a.listener.listening.is_set() and b.listener.listening.is_set(), "the listeners")
            body = {"options": {"target": 11}, "seats": [{"kind": "human"}, {"kind": "human"}]}
            live, creator, invites = a.create(body)
            tokens = service_seats(a, live, creator, invites)
            there = b.get(live.id)
            watcher = b.subscribe(there, 1)
            rng = random.Random(3)
            served = {0: a, 1: b}
            copies: dict[int, LiveGame] = {0: live, 1: there}
            counts = 0
            while not live.over:
                if live.counting:  # each person presses next on their own process
                    counts += 1
                    for seat in (0, 1):
                        await _until(lambda seat=seat: copies[seat].counting, "the count on the other process")
                        served[seat].press_next(live.id, tokens[seat])
                    await _until(lambda: not live.counting and not there.counting, "the end of the count on both")
                    continue
                seat = live.game.state.to_move
                mine = copies[seat]
                await _until(lambda mine=mine: mine.ply == live.ply == there.ply, "both copies at one ply")
                move = rng.choice(state_payload(mine, seat)["legal"])["move"]
                served[seat].play(live.id, tokens[seat], move, version=mine.ply)
                await _until(lambda: live.ply == there.ply, "the move on the other process")
                assert state_payload(live, 0) == state_payload(there, 0)
                assert state_payload(live, 1) == state_payload(there, 1)
            await _until(lambda: there.over, "the end on the other process")
            # every hand but the last went through a count (the deals are random: a game may end in one)
            assert counts == len(live.game.hands) - 1 and live.game.scores == there.game.scores
            assert watcher.queue.qsize() > 10  # seat 1's socket on process b heard every move made through a
            stored = _moves(a.store, live.id)
            assert [m[0] for m in stored] == list(range(live.ply))
            # a move for a version another process has already passed is refused, and changes nothing
            with pytest.raises(
                ServiceError, match=f"the game has moved on: it is at version {live.ply}, your move was for 0"
            ):
                b.play(live.id, tokens[1], "trail Ac", version=0)
            assert _moves(b.store, live.id) == stored
            for service in (a, b):
                await service.stop()

    asyncio.run(scenario())


def test_a_stale_copy_refuses_the_move_then_catches_up() -> None:
    async def scenario() -> None:
        with two_services() as (a, b):
            live, creator, invites = a.create({"seats": [{"kind": "human"}, {"kind": "human"}]})
            tokens = service_seats(a, live, creator, invites)
            there = b.get(live.id)  # no listener started: b is not told of a's moves
            seat = live.game.state.to_move
            a.play(live.id, tokens[seat], state_payload(live, seat)["legal"][0]["move"])
            other = 1 - seat
            with pytest.raises(ServiceError) as refused:  # b thinks it is still seat `seat`'s turn
                b.play(live.id, tokens[seat], state_payload(there, seat)["legal"][0]["move"])
            assert refused.value.status == 409 and "the game has moved on (it is at version 1)" in refused.value.message
            assert there.ply == 1 and state_payload(there, other) == state_payload(live, other)
            assert len(_moves(a.store, live.id)) == 1

    asyncio.run(scenario())


def test_computer_players_run_by_two_services_move_exactly_once() -> None:
    async def scenario() -> None:
        with two_services() as (a, b):
            await a.start()
            await b.start()
            body = {
                "options": {"target": 11},
                "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
            }
            live, _, _ = a.create(body)
            there = b.get(live.id)  # both processes now run both computer players
            await _until(lambda: live.over and there.over, "the computer players to finish", limit=120)
            stored = _moves(a.store, live.id)
            assert [m[0] for m in stored] == list(range(len(stored)))  # no ply twice, none missing
            assert live.ply == there.ply == len(stored) and live.game.scores == there.game.scores
            for service in (a, b):
                await service.stop()

    asyncio.run(scenario())


# ------------------------------------------------------------------ real processes, one killed


def _state(server: Server, game: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/games/{game}", headers={"x-cassino-token": token}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _step(server: Server, game: str, seat: int, token: str, rng: random.Random, made: dict[int, str]) -> str:
    """One look by the client of ``seat`` at its server: a move or a press of next when it is its
    turn; returns the game's status. A 409 (its server has not heard of the last move yet) is tried
    again at the next look."""
    mine = _state(server, game, token)
    headers = {"x-cassino-token": token}
    if mine["status"] == "over":
        return "over"
    if mine["phase"] == "count" and seat in mine["waiting_for"]:
        r = httpx.post(f"{server.url}/api/games/{game}/next", headers=headers, timeout=10)
        assert r.status_code in (200, 409), r.text
    elif mine["phase"] == "play" and mine["to_move"] == seat and mine["legal"]:
        move = rng.choice(mine["legal"])["move"]
        body = {"move": move, "version": mine["version"]}
        r = httpx.post(f"{server.url}/api/games/{game}/moves", json=body, headers=headers, timeout=10)
        assert r.status_code in (200, 409), r.text
        if r.status_code == 200:
            made[mine["version"]] = move
    return str(mine["status"])


def test_two_processes_one_killed_mid_game_lose_nothing() -> None:
    database = postgres_url()
    first, second = Server(database, bot_delay=0.01), Server(database, bot_delay=0.01)
    try:
        body = {
            "players": 4,
            "partnerships": True,
            "options": {"target": 11},
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "bot": "greedy"},
                {"kind": "human"},
                {"kind": "bot", "bot": "casual"},
            ],
        }
        made = httpx.post(f"{first.url}/api/games", json=body, timeout=10).json()
        game = made["game"]
        tokens = {0: made["seats"][0]["token"]}
        claimed = httpx.post(
            f"{second.url}/api/games/{game}/claim", json={"invite": made["seats"][2]["invite"]}, timeout=10
        )
        assert claimed.status_code == 200, claimed.text
        tokens[2] = claimed.json()["token"]
        servers = {0: first, 2: second}  # the two people's seats on different processes
        rng = random.Random(11)
        moved: dict[int, str] = {}
        killed_at = None
        deadline = time.monotonic() + 240
        status = "playing"
        while status != "over":
            assert time.monotonic() < deadline, "the game did not finish"
            for seat in (0, 2):
                status = _step(servers[seat], game, seat, tokens[seat], rng, moved)
            if killed_at is None and len(moved) >= 8:
                killed_at = _state(second, game, tokens[2])["version"]
                first.kill()  # SIGKILL: the computer players' moves of the first process stop mid-thought
                servers[0] = second  # seat 0's client reconnects to the process still serving
            time.sleep(0.01)
        assert killed_at is not None
        record = httpx.get(f"{second.url}/api/games/{game}/record", timeout=10).json()
        for hand in record["hands"]:
            assert check_hand(hand["game"], hand) is None and hand["scheme"] == SCHEME
        final = _state(second, game, tokens[0])
        again = replay(record["hands"], final["rules"])  # every move in order, each by the seat to move
        assert again.over and list(again.scores) == final["scores"]
        stored = [m["move"] for h in record["hands"] for m in h["moves"]]
        assert len(stored) == final["version"] > killed_at
        plays = [(p, m) for p, m in sorted(moved.items())]
        assert all(stored[p] == m for p, m in plays)  # no move a person was told was made is lost
    finally:
        first.stop()
        second.stop()


def test_servers_starting_at_once_on_a_new_database_both_start() -> None:
    """Each creates the tables under one advisory lock: without it, two ``CREATE TABLE`` at once
    fail one server's start."""
    import threading

    url = database_url(postgres_url())  # the tables dropped: a new database
    stores: list[Store] = []
    failed: list[BaseException] = []
    barrier = threading.Barrier(4)

    def start() -> None:
        barrier.wait()
        try:
            stores.append(Store(url))
        except BaseException as exc:  # what the test reports
            failed.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed and len(stores) == 4
    assert stores[0].unfinished() == []
    for store in stores:
        store.close()
