"""Leaving a rated game, the grace time, claims and the move clock (``cassino.web.leave``): a person
whose pages all closed may come back within the grace time; after it the others may claim the game
(the leaver forfeits: a rated loss, counted once), and coming back cancels it; a move clock that runs
out makes the game claimable the same way, with a deadline every process agrees on; an unrated game
has no claims; of two claims at once, one forfeit. On SQLite and on PostgreSQL, with a clock the
test moves instead of minutes of sleep."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("argon2")

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select

from account_support import ORIGIN, PASSWORD, QUICK, each_database, error, first_game, stored_accounts
from cassino.club.accounts import Passwords
from cassino.web import create_app
from cassino.web.accounts import COOKIE, csrf_of
from cassino.web.errors import ServiceError
from cassino.web.payloads import state_payload
from cassino.web.rating_store import RatingStore
from cassino.web.ratings import Ratings
from cassino.web.schema import forfeits_table, game_clocks_table, rated_games_table, rating_changes_table
from cassino.web.service import GameService
from cassino.web.store import database_url
from web_support import service_seats, two_services


class Clock:
    """Epoch seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = float(int(time.time()))

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind."""
    return each_database(request.param, tmp_path)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(url: str, clock: Clock) -> Iterator[TestClient]:
    app = create_app(database=url, bot_delay=0, rate_limits=False, passwords=Passwords(QUICK), clock=clock)
    with TestClient(app) as c:
        yield c


class Person:
    """A signed-up account with a browser of its own, whose writes carry its CSRF token."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.name = name
        self.http = TestClient(client.app)
        r = self.http.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.headers = {"origin": ORIGIN, "x-csrf-token": csrf_of(self.http.cookies[COOKIE])}

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body or {}, headers=self.headers)


def seek_game(client: TestClient, **seek: Any) -> tuple[str, dict[int, str]]:
    """A rated game made the lobby's way: Ann posts a seek, Bob joins it; the game and each seat's
    token (Ann's asked of the seek, as her page does)."""
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    r = ann.post("/api/seeks", {"rated": True, **seek})
    assert r.status_code == 201, r.text
    seek_id = r.json()["id"]
    joined = bob.post(f"/api/seeks/{seek_id}/join").json()
    mine = ann.http.get(f"/api/seeks/{seek_id}").json()
    assert mine["game"] == joined["game"]
    return joined["game"], {0: mine["token"], 1: joined["token"]}


def claim(client: TestClient, game: str, token: str | None, body: dict[str, Any] | None = None) -> httpx.Response:
    return client.post(
        f"/api/games/{game}/claim-game", json=body or {}, headers={"x-cassino-token": token} if token else {}
    )


def state(client: TestClient, game: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game}", headers={"x-cassino-token": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def page(client: TestClient, game: str, token: str) -> Any:
    """A page of the seat: its socket, open until the ``with`` ends."""
    ws = client.websocket_connect(f"/api/games/{game}/ws?token={token}")
    return ws


def settle(client: TestClient, game: str, seat: int, where: str) -> None:
    """Wait until the server has marked the seat's presence (a socket's close is seen a moment after)."""
    deadline = time.monotonic() + 5
    while state(client, game)["presence"][seat]["presence"] != where:
        assert time.monotonic() < deadline, f"seat {seat} never became {where}"
        time.sleep(0.01)


# ---------------------------------------------------------------------- the grace and the claim
def test_a_leaver_may_be_claimed_after_the_grace_and_loses_the_rated_game(client: TestClient, clock: Clock) -> None:
    game, tokens = seek_game(client)
    with page(client, game, tokens[1]):
        with page(client, game, tokens[0]):
            settle(client, game, 0, "online")
            assert state(client, game, tokens[1])["claims"] == []
        settle(client, game, 0, "away")
        left = clock.now
        st = state(client, game, tokens[1])
        assert (st["rated"], st["claims"]) == (True, [{"seat": 0, "why": "left", "from": left + 180}])
        clock.advance(100)
        r = claim(client, game, tokens[1])
        assert r.status_code == 409 and r.json() == {
            "error": "Ann's grace runs for 1 more minute",
            "claim": {"seat": 0, "why": "left", "from": left + 180},
        }
        clock.advance(60)
        assert error(claim(client, game, tokens[1])) == (409, "Ann's grace runs for 20 more seconds")
        clock.advance(20)
        assert error(claim(client, game, None)) == (403, "claiming the game needs a seat token: spectators only watch")
        assert error(claim(client, game, tokens[0])) == (
            403,
            "it is your own seat that may be claimed: only the others may claim the game",
        )
        assert error(claim(client, "f" * 16, tokens[1])) == (404, f"no game {'f' * 16!r} here")
        assert error(claim(client, game, tokens[1], {"seat": "0"})) == (
            400,
            "seat must be the number of the seat to claim the game from, or absent",
        )
        r = claim(client, game, tokens[1])
        assert r.status_code == 200, r.text
        over = r.json()
        assert (over["status"], over["winner"], over["claims"]) == ("over", 1, [])
        assert over["forfeit"] == {
            "seat": 0,
            "reason": "left the table and did not come back within 3 minutes",
            "claimed": {"why": "left", "within": "3 minutes"},
        }
        assert error(claim(client, game, tokens[1])) == (409, "the game is over: there is nothing to claim")
    # the ratings: the leaver lost, the claimer won, counted once
    ann = client.get("/api/users/Ann").json()
    bob = client.get("/api/users/Bob").json()
    assert ann["ratings"]["classic-2"]["rating"] == pytest.approx(first_game(0.0)[0], abs=0.01)
    assert bob["ratings"]["classic-2"]["rating"] == pytest.approx(first_game(1.0)[0], abs=0.01)
    assert (ann["games"][0]["result"], ann["games"][0]["forfeit"], ann["games"][0]["rated"]) == ("loss", 0, True)
    assert (bob["games"][0]["result"], bob["games"][0]["forfeit"]) == ("win", 0)
    with client.app.state.service.store.engine.connect() as conn:  # type: ignore[attr-defined]
        changes = conn.execute(
            select(func.count()).select_from(rating_changes_table).where(rating_changes_table.c.game_id == game)
        )
        assert changes.scalar_one() == 2


def test_coming_back_within_the_grace_cancels_the_claim(client: TestClient, clock: Clock) -> None:
    game, tokens = seek_game(client)
    with page(client, game, tokens[1]):
        with page(client, game, tokens[0]):
            settle(client, game, 0, "online")
        settle(client, game, 0, "away")
        clock.advance(170)
        assert [c["seat"] for c in state(client, game)["claims"]] == [0]
        with page(client, game, tokens[0]):  # back in time
            settle(client, game, 0, "online")
            assert state(client, game)["claims"] == []
            clock.advance(600)
            assert error(claim(client, game, tokens[1])) == (
                409,
                "nobody has left the table and no move clock has run out: there is nothing to claim",
            )
            assert state(client, game)["status"] == "playing"


def test_an_unrated_game_has_no_claims(client: TestClient, clock: Clock) -> None:
    made = client.post("/api/games", json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]}).json()
    game = made["game"]
    r = client.post(f"/api/games/{game}/claim", json={"invite": made["seats"][1]["invite"], "name": "Bob"})
    tokens = {0: made["seats"][0]["token"], 1: r.json()["token"]}
    with page(client, game, tokens[1]):
        with page(client, game, tokens[0]):
            settle(client, game, 0, "online")
        settle(client, game, 0, "away")
        clock.advance(3600)
        st = state(client, game, tokens[1])
        assert (st["rated"], st["claims"], st["move_seconds"], st["move_deadline"]) == (False, [], 0, None)
        assert error(claim(client, game, tokens[1])) == (
            409,
            "this game is not rated, so nobody may claim it: wait for the others to come back (claims are for rated games)",
        )
        assert error(claim(client, game, None)) == (403, "claiming the game needs a seat token: spectators only watch")
        assert state(client, game)["status"] == "playing"


# ---------------------------------------------------------------------- the move clock
def test_a_move_clock_that_runs_out_makes_the_game_claimable(client: TestClient, clock: Clock) -> None:
    made = clock.now
    game, tokens = seek_game(client, move_seconds=60)
    with page(client, game, tokens[0]), page(client, game, tokens[1]):
        settle(client, game, 0, "online")
        settle(client, game, 1, "online")
        st = state(client, game, tokens[0])
        mover = st["to_move"]
        other = 1 - mover
        assert (st["move_seconds"], st["move_deadline"]) == (60, made + 60)
        assert st["claims"] == [{"seat": mover, "why": "time", "from": made + 60}]
        clock.advance(30)
        assert error(claim(client, game, tokens[other])) == (
            409,
            "Ann's move clock runs for 30 more seconds".replace("Ann", ["Ann", "Bob"][mover]),
        )
        # a move starts the other's clock from the time it was stored
        mine = state(client, game, tokens[mover])
        r = client.post(
            f"/api/games/{game}/moves",
            json={"move": mine["legal"][0]["move"], "version": mine["version"]},
            headers={"x-cassino-token": tokens[mover]},
        )
        assert r.status_code == 200, r.text
        moved = clock.now
        st = state(client, game)
        assert (st["to_move"], st["move_deadline"]) == (other, moved + 60)
        clock.advance(61)
        assert error(claim(client, game, tokens[other])) == (
            403,
            "it is your own seat that may be claimed: only the others may claim the game",
        )
        r = claim(client, game, tokens[mover])
        assert r.status_code == 200, r.text
        assert r.json()["forfeit"] == {
            "seat": other,
            "reason": "ran out of time: 60 s a move",
            "claimed": {"why": "time", "seconds": 60},
        }
        assert r.json()["winner"] == mover


def test_the_move_clock_is_chosen_on_a_seek_and_on_play_now(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    seek = ann.post("/api/seeks", {"rated": True, "move_seconds": 120}).json()
    assert seek["move_seconds"] == 120
    listed = client.get("/api/seeks").json()["seeks"]
    assert [(s["id"], s["move_seconds"]) for s in listed] == [(seek["id"], 120)]
    assert bob.post("/api/seeks", {"move_seconds": 30}).json()["error"] == (
        "a move clock is for rated games only: set rated to true, or move_seconds to 0"
    )
    assert bob.post("/api/play-now", {"move_seconds": 45}).status_code == 400
    # Play now meets only a request with the same clock
    first = ann.post("/api/play-now", {"move_seconds": 60})
    assert first.status_code == 202, first.text
    assert bob.post("/api/play-now", {"move_seconds": 30}).status_code == 202
    cleo = Person(client, "Cleo")
    met = cleo.post("/api/play-now", {"move_seconds": 60})
    assert met.status_code == 200, met.text
    assert state(client, met.json()["game"])["move_seconds"] == 60


# ---------------------------------------------------------------------- several processes
def _rated_game(service: GameService, move_seconds: int = 0) -> tuple[str, dict[int, str]]:
    """A rated game of two accounts made through a service (as a seek's would be), with its move
    clock; forgotten by the service, so that it is read from the database as any other process would."""
    holders = stored_accounts(service, ["Ann", "Bob"])
    live, creator, invites = service.create({"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]})
    tokens = service_seats(service, live, creator, invites)
    for seat, account in enumerate(holders):
        assert service.store.accounts.hold_seat(account, live.id, seat, 0.0)
    with service.store.engine.begin() as conn:
        conn.execute(insert(rated_games_table), {"game_id": live.id, "pool": "classic-2", "rated_at": None})
        if move_seconds:
            conn.execute(insert(game_clocks_table), {"game_id": live.id, "move_seconds": move_seconds})
    del service.games[live.id]
    return live.id, tokens


async def _until(predicate: Any, what: str, limit: float = 10) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def test_the_deadline_is_the_same_in_two_processes_and_a_claim_ends_the_game_in_both() -> None:
    clock = Clock()

    async def scenario() -> None:
        with two_services() as (a, b):
            a.clock = b.clock = clock
            a.replicas.clock = b.replicas.clock = clock
            ratings = [Ratings(RatingStore(s.store.engine), s, clock) for s in (a, b)]
            await a.start()
            await b.start()
            assert a.listener is not None and b.listener is not None
            await _until(lambda: a.listener.listening.is_set() and b.listener.listening.is_set(), "the listeners")
            created = clock.now
            game, tokens = _rated_game(a, move_seconds=30)
            clock.advance(5)
            here, there = a.get(game), b.get(game)
            assert state_payload(here, None)["move_deadline"] == state_payload(there, None)["move_deadline"]
            assert state_payload(there, None)["move_deadline"] == created + 30
            clock.advance(7)  # b's clock reads later than a's move: the deadline still counts from the move
            mover = here.game.state.to_move
            a.play(game, tokens[mover], state_payload(here, mover)["legal"][0]["move"])
            moved = clock.now
            await _until(lambda: there.ply == 1, "the move on the other process")
            clock.advance(3)
            assert (
                state_payload(there, None)["move_deadline"] == moved + 30 == state_payload(here, None)["move_deadline"]
            )
            clock.advance(30)
            claimer = mover  # the other seat ran out of time
            b.claim_game(game, tokens[claimer], {})
            await _until(lambda: here.over, "the forfeit on the other process")
            assert here.game.forfeited is not None and here.game.forfeited.seat == 1 - mover
            assert here.game.forfeited.reason == "ran out of time: 30 s a move"
            # both processes saw the end and tried to count it: it counts once, a loss for the forfeiter
            await _until(lambda: all(game in r.seen for r in ratings), "both processes to see the end")
            with a.store.engine.connect() as conn:
                after = dict(
                    conn.execute(
                        select(rating_changes_table.c.seat, rating_changes_table.c.rating_after).where(
                            rating_changes_table.c.game_id == game
                        )
                    ).all()
                )
            assert after == pytest.approx({mover: first_game(1.0)[0], 1 - mover: first_game(0.0)[0]}, abs=0.01)
            for service in (a, b):
                await service.stop()

    asyncio.run(scenario())


def test_two_claims_at_the_same_moment_make_one_forfeit() -> None:
    """Two processes, each asked at the same moment to claim the same game from the seat whose clock
    ran out: the forfeit is conditional on the game's ply and on its being in play, so exactly one
    is stored and the other is told the game is over."""
    clock = Clock()
    with two_services() as (a, b):
        for service in (a, b):
            service.clock = service.replicas.clock = clock
        game, tokens = _rated_game(a, move_seconds=30)
        mover = a.get(game).game.state.to_move
        b.get(game)
        clock.advance(31)
        barrier = threading.Barrier(2)
        answers: list[str] = []

        def claim_through(service: GameService) -> None:
            barrier.wait()
            try:
                service.claim_game(game, tokens[1 - mover], {})
                answers.append("claimed")
            except ServiceError as exc:
                answers.append(f"{exc.status} {exc.message}")

        threads = [threading.Thread(target=claim_through, args=(s,)) for s in (a, b)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == ["409 the game is over already: it was claimed or ended meanwhile", "claimed"]
        with a.store.engine.connect() as conn:
            rows = conn.execute(select(forfeits_table.c.seat).where(forfeits_table.c.game_id == game)).all()
        assert [r.seat for r in rows] == [mover]


def test_two_claims_in_one_process_make_one_forfeit(tmp_path: Path) -> None:
    from cassino.web.store import Store

    clock = Clock()
    store = Store(database_url(None, tmp_path))
    try:
        service = GameService(store, bot_delay=0, clock=clock, grace=2)
        game, tokens = _rated_game(service)
        live = service.get(game)
        clock.advance(2)
        claimer = 1
        service.claim_game(game, tokens[claimer], {"seat": 0})
        assert live.over and live.game.forfeited is not None and live.game.forfeited.seat == 0
        with pytest.raises(ServiceError) as refused:
            service.claim_game(game, tokens[claimer], {"seat": 0})
        assert (refused.value.status, refused.value.message) == (409, "the game is over: there is nothing to claim")
        assert live.game.forfeited.reason == "left the table and did not come back within 2 s"
    finally:
        store.close()
