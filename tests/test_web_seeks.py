"""The lobby's seeks and Play now (``cassino.club.seeks`` over ``cassino.web.seeks``): posting,
listing, joining and cancelling seeks, the refusals with their words, a 4-player partnership seek
filling seat by seat, two people taking the last seat at once (exactly one game), the game's seats
held by their accounts with each token opening only its own seat, the lobby socket's list and its
``ready`` news, Play now matching two people within the window and offering a computer player of
one's level, the expiry of seeks whose creator left, and two server processes on one PostgreSQL
sharing the seeks. On SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("argon2")

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from account_support import ORIGIN, PASSWORD, QUICK, each_database, error
from cassino.club.accounts import AccountRow, Passwords
from cassino.club.seeks import AWAY_GRACE, MAX_AGE, NOW_GRACE, SeekSpec, level_for_rating, seat_token
from cassino.web import create_app
from cassino.web import seeks as seeks_module
from cassino.web.accounts import COOKIE, csrf_of
from cassino.web.requests import token_hash
from cassino.web.schema import rated_games_table, seat_holders_table
from cassino.web.seek_store import FULL, Joiner, SeekStore
from cassino.web.seeks import Lobby
from cassino.web.store import Store
from web_support import Server, postgres_url

NOT_SIGNED_IN = "you are not signed in (or your session has ended): sign in first"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind."""
    return each_database(request.param, tmp_path)


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    """The app with its lifespan running (the lobby's loop): the sockets are opened through it."""
    with TestClient(create_app(database=url, bot_delay=0, rate_limits=False, passwords=Passwords(QUICK))) as c:
        yield c


class Person:
    """A signed-up account with a browser of its own (its cookies), whose writes carry its CSRF
    token and this site's origin, as the page's do."""

    def __init__(self, client: TestClient, name: str, address: str = "10.0.0.1") -> None:
        self.name = name
        self.http = TestClient(client.app, client=(address, 1000))
        r = self.http.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.session = self.http.cookies[COOKIE]
        self.headers = {"origin": ORIGIN, "x-csrf-token": csrf_of(self.session)}

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body or {}, headers=self.headers)

    def delete(self, path: str) -> httpx.Response:
        return self.http.request("DELETE", path, headers=self.headers)

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def seek(self, **body: Any) -> str:
        """Post a seek; its id."""
        r = self.post("/api/seeks", body)
        assert r.status_code == 201, r.text
        return str(r.json()["id"])

    def cookie(self) -> dict[str, str]:
        """The header that carries this browser's session on a socket."""
        return {"cookie": f"{COOKIE}={self.session}"}


def lobby_of(client: TestClient) -> Lobby:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    assert isinstance(lobby, Lobby)
    return lobby


def receive_until(ws: Any, wanted: Callable[[dict[str, Any]], bool], limit: int = 30) -> dict[str, Any]:
    """The first message of a socket that ``wanted`` accepts (at most ``limit`` messages read)."""
    for _ in range(limit):
        message = ws.receive_json()
        if wanted(message):
            return message  # type: ignore[no-any-return]
    raise AssertionError("the socket did not say it")


def until(done: Callable[[], bool], what: str, limit: float = 5.0) -> None:
    """Wait until ``done`` (the server's loop marks a page's close a moment after it)."""
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, f"waited {limit} s for {what}"
        time.sleep(0.02)


def listed_ids(message: dict[str, Any]) -> list[str]:
    return [s["id"] for s in message["seeks"]]


# ---------------------------------------------------------------------- posting, listing, joining, cancelling
def test_post_list_join_a_rated_seek(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    r = ann.post("/api/seeks", {"preset": "classic", "players": 2, "partnerships": False, "rated": True})
    assert r.status_code == 201, r.text
    seek = r.json()["id"]
    listed = client.get("/api/seeks").json()["seeks"]
    assert len(listed) == 1
    entry = listed[0]
    assert {k: entry[k] for k in ("id", "preset", "players", "partnerships", "rated", "by", "rating")} == {
        "id": seek,
        "preset": "classic",
        "players": 2,
        "partnerships": False,
        "rated": True,
        "by": "Ann",
        "rating": 1500,
    }
    assert (entry["seats"], entry["needed"], entry["pool"], entry["provisional"]) == (1, 2, "classic-2", True)
    assert "yours" not in entry  # nobody signed in asked
    assert ann.get("/api/seeks").json()["seeks"][0]["yours"] is True
    assert bob.get("/api/seeks").json()["seeks"][0]["yours"] is False
    joined = bob.post(f"/api/seeks/{seek}/join")
    assert joined.status_code == 200, joined.text
    body = joined.json()
    assert set(body) == {"id", "game", "seat", "token"} and body["seat"] == 1
    game = body["game"]
    assert body["token"] == seat_token(bob.session, seek)
    assert client.get("/api/seeks").json()["seeks"] == []
    # the creator learns its own seat and token; Bob sees his again; nobody else sees either
    mine = ann.get(f"/api/seeks/{seek}").json()
    assert (mine["status"], mine["game"], mine["seat"], mine["token"]) == (FULL, game, 0, seat_token(ann.session, seek))
    assert bob.get(f"/api/seeks/{seek}").json()["token"] == body["token"]
    cleo = Person(client, "Cleo")
    for outsider in (cleo.get(f"/api/seeks/{seek}").json(), client.get(f"/api/seeks/{seek}").json()):
        assert outsider["status"] == FULL and not {"game", "seat", "token"} & set(outsider)
    # the game: both seats held by the accounts, rated in its pool, each token opening its own seat only
    store = client.app.state.service.store  # type: ignore[attr-defined]
    assert store.accounts.holders(game) == {0: "Ann", 1: "Bob"}
    with store.engine.connect() as conn:
        rated = conn.execute(select(rated_games_table).where(rated_games_table.c.game_id == game)).one()
    assert (rated.pool, rated.rated_at) == ("classic-2", None)
    for seat, token in ((0, mine["token"]), (1, body["token"])):
        state = client.get(f"/api/games/{game}", headers={"x-cassino-token": token}).json()
        assert state["you"] == seat and [s["name"] for s in state["seats"]] == ["Ann", "Bob"]
        assert state["help"] is False and state["next_hand_after"] == 30
    wrong = client.get(f"/api/games/{game}", headers={"x-cassino-token": seat_token(cleo.session, seek)})
    assert wrong.status_code == 403
    assert store.load_game(game).seats[0].token_hash == token_hash(mine["token"])


def test_a_casual_seek_is_not_rated_and_cancelling(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    seek = ann.seek(preset="royal", players=2, rated=False)
    assert bob.delete(f"/api/seeks/{seek}").status_code == 403
    assert error(bob.delete(f"/api/seeks/{seek}")) == (403, "only the seek's creator may cancel it")
    r = ann.delete(f"/api/seeks/{seek}")
    assert (r.status_code, r.json()) == (200, {"id": seek, "cancelled": True})
    assert client.get("/api/seeks").json()["seeks"] == []
    assert error(bob.post(f"/api/seeks/{seek}/join")) == (
        409,
        f"seek {seek} is no longer open: its creator cancelled it",
    )
    assert error(ann.delete(f"/api/seeks/{seek}"))[0] == 409
    again = ann.seek(preset="royal", players=2)  # the pool is free again
    made = bob.post(f"/api/seeks/{again}/join").json()
    store = client.app.state.service.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        assert (
            conn.execute(select(rated_games_table).where(rated_games_table.c.game_id == made["game"])).first() is None
        )
    assert client.get(f"/api/games/{made['game']}").json()["rules"]["preset"] == "royal"


def test_the_refusals_say_what_is_wrong(client: TestClient) -> None:
    anonymous = client.post("/api/seeks", json={"preset": "classic"})
    assert (anonymous.status_code, anonymous.json()) == (401, {"error": NOT_SIGNED_IN, "code": "not_signed_in"})
    assert error(client.post("/api/play-now", json={}))[0] == 401
    assert error(client.post("/api/seeks/0123456789abcdef/join"))[0] == 401
    assert error(client.delete("/api/seeks/0123456789abcdef"))[0] == 401
    ann = Person(client, "Ann")
    bad = {
        "preset": ({"preset": "whist"}, "preset must be one of classic, royal, spade, draw"),
        "players": ({"players": 5}, "players must be 2, 3 or 4"),
        "players bool": ({"players": True}, "players must be 2, 3 or 4"),
        "partnerships": ({"players": 3, "partnerships": True}, "partnerships need 4 players, not 3"),
        "partnerships type": ({"partnerships": "yes"}, "partnerships must be true or false"),
        "rated": ({"rated": 1}, "rated must be true or false"),
        "unknown": (
            {"options": {}},
            "unknown field 'options' for a seek; the fields are: preset, players, partnerships, rated, move_seconds",
        ),
        "move clock": (
            {"rated": True, "move_seconds": 45},
            "move_seconds must be 0, 30, 60 or 120 (seconds a move; 0: no clock)",
        ),
        "move clock type": (
            {"rated": True, "move_seconds": True},
            "move_seconds must be 0, 30, 60 or 120 (seconds a move; 0: no clock)",
        ),
        "move clock unrated": (
            {"move_seconds": 60},
            "a move clock is for rated games only: set rated to true, or move_seconds to 0",
        ),
    }
    for what, (body, message) in bad.items():
        r = ann.post("/api/seeks", body)
        assert (r.status_code, r.json()["error"]) == (400, message), what
    assert error(ann.post("/api/play-now", {"wait": -1})) == (
        400,
        "wait must be a whole number of seconds from 0 to 600",
    )
    assert error(ann.post("/api/seeks/0123456789abcdef/join")) == (404, "no seek '0123456789abcdef' here")
    assert error(ann.delete("/api/seeks/0123456789abcdef")) == (404, "no seek '0123456789abcdef' here")
    assert client.get("/api/seeks/0123456789abcdef").status_code == 404
    seek = ann.seek(preset="classic", players=2, rated=True)
    assert error(ann.post("/api/seeks", {"preset": "classic", "players": 2})) == (
        409,
        "you have an open seek for classic-2 already: one per pool (cancel it to post another)",
    )
    assert error(ann.post(f"/api/seeks/{seek}/join")) == (409, "this is your own seek: wait for others to join it")
    for preset in ("royal", "spade", "draw"):
        ann.seek(preset=preset)
    ann.seek(preset="classic", players=3)
    r = ann.post("/api/seeks", {"preset": "classic", "players": 4})
    assert r.status_code == 409 and r.json()["code"] == "too_many_seeks"
    assert r.json()["error"].startswith("you have 5 open seeks and Play now requests already")
    # a write with the session cookie but not from the page: the cross-site guard, before any route
    r = ann.http.post("/api/seeks", json={"preset": "classic"})
    assert r.status_code == 403 and r.json()["code"] == "cross_site"
    # junk bodies are words, never a traceback
    r = ann.http.post("/api/seeks", content=b"[1, 2", headers={**ann.headers, "content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("the request body must be a JSON object")


def test_a_four_player_partnership_seek_fills_seat_by_seat(client: TestClient) -> None:
    people = [Person(client, name) for name in ("Ann", "Bob", "Cleo", "Dan")]
    ann, bob, cleo, dan = people
    seek = ann.seek(preset="classic", players=4, partnerships=True, rated=True)
    with client.websocket_connect("/api/lobby/socket", headers=bob.cookie()) as bob_ws:
        receive_until(bob_ws, lambda m: m["type"] == "seeks" and listed_ids(m) == [seek])
        r = bob.post(f"/api/seeks/{seek}/join")
        assert (r.status_code, r.json()) == (202, {"id": seek, "waiting": True, "seats": 2, "needed": 4})
        assert error(bob.post(f"/api/seeks/{seek}/join")) == (
            409,
            f"you have joined seek {seek} already: wait for its table to fill",
        )
        assert bob.get(f"/api/seeks/{seek}").json()["seat"] == 1
        r = cleo.post(f"/api/seeks/{seek}/join")
        assert (r.status_code, r.json()["seats"]) == (202, 3)
        listed = receive_until(bob_ws, lambda m: m["type"] == "seeks" and m["seeks"] and m["seeks"][0]["seats"] == 3)
        assert listed["seeks"][0]["joined"] is True
        last = dan.post(f"/api/seeks/{seek}/join")
        assert last.status_code == 200 and last.json()["seat"] == 3
        ready = receive_until(bob_ws, lambda m: m["type"] == "ready")
        assert ready == {
            "type": "ready",
            "seek": seek,
            "preset": "classic",
            "players": 4,
            "partnerships": True,
            "rated": True,
            "move_seconds": 0,
            "seat": 1,
            "game": last.json()["game"],
            "token": seat_token(bob.session, seek),
        }
    game = last.json()["game"]
    state = client.get(f"/api/games/{game}").json()
    assert [s["name"] for s in state["seats"]] == ["Ann", "Bob", "Cleo", "Dan"]
    assert [s["side"] for s in state["seats"]] == [0, 1, 0, 1]  # the creator and the second joiner are partners
    assert client.app.state.service.store.accounts.holders(game) == {0: "Ann", 1: "Bob", 2: "Cleo", 3: "Dan"}  # type: ignore[attr-defined]
    for seat, person in enumerate(people):
        token = person.get(f"/api/seeks/{seek}").json()["token"]
        assert client.get(f"/api/games/{game}", headers={"x-cassino-token": token}).json()["you"] == seat


def test_a_joiner_may_leave_before_the_table_fills(client: TestClient) -> None:
    ann, bob, cleo = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cleo")
    seek = ann.seek(players=3)
    assert bob.post(f"/api/seeks/{seek}/join").status_code == 202
    assert error(ann.post(f"/api/seeks/{seek}/leave")) == (409, "this is your own seek: cancel it instead")
    assert error(cleo.post(f"/api/seeks/{seek}/leave")) == (409, f"you have no seat at seek {seek}")
    assert bob.post(f"/api/seeks/{seek}/leave").json() == {"id": seek, "left": True}
    assert client.get("/api/seeks").json()["seeks"][0]["seats"] == 1
    assert cleo.post(f"/api/seeks/{seek}/join").json()["seats"] == 2
    assert bob.post(f"/api/seeks/{seek}/join").status_code == 200


def test_a_deleted_accounts_seek_is_open_no_more(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    seek = ann.seek(preset="classic")
    r = ann.http.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=ann.headers)
    assert r.status_code == 200, r.text
    assert client.get("/api/seeks").json()["seeks"] == []
    assert error(bob.post(f"/api/seeks/{seek}/join")) == (
        409,
        f"seek {seek} is no longer open: its creator's account was deleted",
    )


def test_junk_is_refused_in_words_never_a_traceback(client: TestClient) -> None:
    """Every seek endpoint, with a signed-in page's headers and bodies of every wrong shape."""
    ann = Person(client, "Ann")
    seek = Person(client, "Bob").seek()
    bodies: list[Any] = [[], "x", 3, None, {"preset": None}, {"players": "2"}, {"wait": 1.5}, {"rated": "yes"}]
    bodies += [{"preset": "classic" * 100}, {"players": 10**30}, {"partnerships": [True]}, {"x": {"y": [1]}}]
    for path in ("/api/seeks", "/api/play-now", f"/api/seeks/{seek}/join", "/api/seeks/" + "9" * 300 + "/join"):
        for body in bodies:
            r = ann.http.post(path, json=body, headers=ann.headers)
            assert r.status_code < 500, (path, body, r.text)
            assert r.status_code < 400 or set(r.json()) <= {"error", "code"}, (path, body, r.text)
    for path in ("/api/seeks/" + "x" * 300, "/api/seeks/%00", "/api/seeks/..%2f"):
        assert client.get(path).status_code in (404, 400)
        assert ann.delete(path).status_code in (404, 400, 405)
    foreign = {"origin": "https://elsewhere.example"}  # another site's page may not listen
    with (
        client.websocket_connect("/api/lobby/socket", headers=foreign) as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_json()
    assert closed.value.code == 1008


def test_seek_requests_spend_the_clients_rate(url: str) -> None:
    # a clock that stands still: however long the 30 requests take, no token comes back meanwhile
    with TestClient(create_app(database=url, passwords=Passwords(QUICK), clock=lambda: 1.8e9)) as c:
        ann = Person(c, "Ann", address="10.9.9.9")
        for _ in range(30):
            assert ann.post("/api/seeks/0123456789abcdef/join").status_code == 404
        r = ann.post("/api/seeks/0123456789abcdef/join")
        assert r.status_code == 429 and 0 < int(r.headers["retry-after"]) <= 5
        assert r.json()["error"] == "too many seek requests: at most 30 at once, then one every 5 s; try again in 5 s"


# ---------------------------------------------------------------------- one last seat, taken at once
def test_two_people_taking_the_last_seat_at_once_make_one_game(client: TestClient) -> None:
    """Through the API, from threads: exactly one of two joins of the last seat wins."""
    ann = Person(client, "Ann")
    others = [Person(client, f"Joiner{i}", address=f"10.0.1.{i}") for i in range(4)]
    seek = ann.seek(players=3)
    assert others[0].post(f"/api/seeks/{seek}/join").status_code == 202
    barrier = threading.Barrier(3)

    def join(person: Person) -> httpx.Response:
        barrier.wait()
        return person.post(f"/api/seeks/{seek}/join")

    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(join, others[1:]))
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 409, 409], [r.text for r in answers]
    winner = next(r.json() for r in answers if r.status_code == 200)
    assert all(
        r.json()["error"] == f"seek {seek} is no longer open: its table is full and its game has begun"
        for r in answers
        if r.status_code == 409
    )
    state = client.get(f"/api/games/{winner['game']}").json()
    assert [s["seat"] for s in state["seats"]] == [0, 1, 2] and winner["seat"] == 2


def _account(store: Store, name: str) -> str:
    account_id = f"id-{name}"
    assert store.accounts.add_account(AccountRow(account_id, name, "x", 0.0), name.lower())
    return account_id


def test_the_store_serves_simultaneous_joins_one_after_the_other(url: str) -> None:
    """Eight processes' stores (each its own connections) join the last seat of one seek at the same
    instant: one makes the game, seven find it full; on SQLite and on PostgreSQL."""
    stores = [Store(url) for _ in range(8)]
    lobby_store = SeekStore(stores[0])
    try:
        creator = _account(stores[0], "Ann")
        joiners = [_account(stores[0], f"J{i}") for i in range(8)]
        spec = SeekSpec("classic", 2, False, True)
        lobby_store.add("s1", spec, Joiner(creator, token_hash("t-ann"), "s1", 1500.0), time.time())
        barrier = threading.Barrier(8)
        made: list[str] = []

        def make(seek: Any) -> Any:
            made.append(seek.id)
            lobby = Lobby.__new__(Lobby)
            lobby.clock = time.time
            return Lobby._table(lobby, seek)

        def join(i: int) -> str:
            mine = SeekStore(stores[i])
            barrier.wait()
            try:
                taken = mine.join("s1", Joiner(joiners[i], token_hash(f"t{i}"), "s1", 1500.0), time.time(), make)
            except Exception as exc:
                return type(exc).__name__ + ": " + str(exc)
            return "made" if taken.made_game else "waiting"

        with ThreadPoolExecutor(8) as pool:
            outcomes = list(pool.map(join, range(8)))
        assert sorted(outcomes) == [
            "SeekConflictError: seek s1 is no longer open: its table is full and its game has begun"
        ] * 7 + ["made"], outcomes
        assert made == ["s1"]
        seek = lobby_store.seek("s1")
        assert seek is not None and seek.status == FULL and seek.game_id is not None
        assert seek.members[0].account_id == creator and len(seek.members) == 2
        with stores[0].engine.connect() as conn:
            held = conn.execute(select(seat_holders_table).where(seat_holders_table.c.game_id == seek.game_id)).all()
        assert sorted((h.seat, h.account_id) for h in held) == [(0, creator), (1, seek.members[1].account_id)]
    finally:
        for store in stores:
            store.close()


# ---------------------------------------------------------------------- the lobby's socket
def test_the_socket_lists_each_change_and_tells_the_creator(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    with (
        client.websocket_connect("/api/lobby/socket", headers=ann.cookie()) as ann_ws,
        client.websocket_connect("/api/lobby/socket") as watcher,
    ):
        assert ann_ws.receive_json() == {"type": "seeks", "seeks": [], "play_now": []}
        assert watcher.receive_json() == {"type": "seeks", "seeks": [], "play_now": []}
        started = time.monotonic()
        seek = ann.seek(preset="spade", rated=True)
        seen = receive_until(watcher, lambda m: m["type"] == "seeks" and listed_ids(m) == [seek])
        assert time.monotonic() - started < 2
        assert seen["seeks"][0]["by"] == "Ann" and "yours" not in seen["seeks"][0]
        assert receive_until(ann_ws, lambda m: m["type"] == "seeks" and listed_ids(m) == [seek])["seeks"][0]["yours"]
        made = bob.post(f"/api/seeks/{seek}/join").json()
        ready = receive_until(ann_ws, lambda m: m["type"] == "ready")
        assert (ready["game"], ready["seat"], ready["token"]) == (made["game"], 0, seat_token(ann.session, seek))
        assert receive_until(watcher, lambda m: m["type"] == "seeks")["seeks"] == []
        ann_ws.send_text("not json")
        assert receive_until(ann_ws, lambda m: m["type"] == "error")["status"] == 400
        ann_ws.send_json({"type": "seeks"})
        assert receive_until(ann_ws, lambda m: m["type"] == "seeks")["seeks"] == []
    # a page opened again soon after is told again (it was reloading when the game was made)
    with client.websocket_connect("/api/lobby/socket", headers=ann.cookie()) as again:
        assert receive_until(again, lambda m: m["type"] == "ready")["game"] == made["game"]


# ---------------------------------------------------------------------- Play now
def test_play_now_matches_two_people_and_offers_a_computer_player(client: TestClient) -> None:
    ann, bob, cleo = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cleo")
    with client.websocket_connect("/api/lobby/socket", headers=ann.cookie()) as ann_ws:
        receive_until(ann_ws, lambda m: m["type"] == "seeks")
        first = ann.post("/api/play-now", {"preset": "classic", "players": 2, "partnerships": False, "wait": 20})
        assert first.status_code == 202
        waiting = first.json()
        assert {k: waiting[k] for k in ("waiting", "yours", "seats", "needed", "wait", "rating", "level")} == {
            "waiting": True,
            "yours": True,
            "seats": 1,
            "needed": 2,
            "wait": 20,
            "rating": 1500,
            "level": "casual",
        }
        listed = receive_until(ann_ws, lambda m: m["type"] == "seeks" and m["play_now"])
        assert listed["seeks"] == [] and [p["id"] for p in listed["play_now"]] == [waiting["id"]]
        assert client.get("/api/seeks").json()["seeks"] == []  # Play now requests are never listed
        assert ann.post("/api/play-now", {"preset": "classic"}).json()["id"] == waiting["id"]  # pressing again
        other_pool = cleo.post("/api/play-now", {"preset": "royal"})
        assert other_pool.status_code == 202  # another pool: no match
        matched = bob.post("/api/play-now", {"preset": "classic", "players": 2})
        assert matched.status_code == 200, matched.text
        game = matched.json()["game"]
        assert (matched.json()["seat"], matched.json()["id"]) == (1, waiting["id"])
        ready = receive_until(ann_ws, lambda m: m["type"] == "ready")
        assert (ready["game"], ready["seat"]) == (game, 0)
    state = client.get(f"/api/games/{game}", headers={"x-cassino-token": ready["token"]}).json()
    assert state["you"] == 0 and [s["name"] for s in state["seats"]] == ["Ann", "Bob"]
    with client.app.state.service.store.engine.connect() as conn:  # type: ignore[attr-defined]
        assert (
            conn.execute(select(rated_games_table.c.pool).where(rated_games_table.c.game_id == game)).scalar()
            == "classic-2"
        )
    # Cleo's wait is over: she stops waiting and plays the computer player of her level
    offer = other_pool.json()
    assert (offer["wait"], offer["level"]) == (20, level_for_rating(1500))
    assert cleo.delete(f"/api/seeks/{offer['id']}").json()["cancelled"] is True
    body = {"preset": "royal", "seats": [{"kind": "human", "name": "Cleo"}, {"kind": "bot", "bot": offer["level"]}]}
    against = cleo.post("/api/games", body)
    assert against.status_code == 201 and against.json()["seats"][1]["bot"] == "casual"


def test_play_now_for_three_fills_seat_by_seat(client: TestClient) -> None:
    ann, bob, cleo, dan = (Person(client, n) for n in ("Ann", "Bob", "Cleo", "Dan"))
    body = {"preset": "classic", "players": 3}
    first = ann.post("/api/play-now", body).json()
    assert (first["seats"], first["needed"], first["yours"]) == (1, 3, True)
    assert error(dan.post(f"/api/seeks/{first['id']}/join")) == (404, f"no seek '{first['id']}' here")  # never listed
    second = bob.post("/api/play-now", body).json()
    assert (second["id"], second["seats"], second["yours"]) == (first["id"], 2, False)
    assert bob.post(f"/api/seeks/{first['id']}/leave").json()["left"] is True  # Bob stops waiting
    assert cleo.post("/api/play-now", body).json()["seats"] == 2
    last = dan.post("/api/play-now", body)
    assert last.status_code == 200 and last.json()["seat"] == 2
    names = [s["name"] for s in client.get(f"/api/games/{last.json()['game']}").json()["seats"]]
    assert names == ["Ann", "Cleo", "Dan"]


def test_rating_bands_and_the_widening_window(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    assert [level_for_rating(r) for r in (900, 1200, 1450, 1650, 1999, 2000)] == [
        "beginner",
        "novice",
        "casual",
        "club",
        "expert",
        "master",
    ]
    ratings = {"Ann": 1500.0, "Bob": 1900.0}
    names = {}
    monkeypatch.setattr(seeks_module, "account_rating", lambda _s, account, _p: (ratings[names[account]], False))
    lobby = lobby_of(client)
    now = [1_000_000.0]
    lobby.clock = lambda: now[0]
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    store = client.app.state.service.store  # type: ignore[attr-defined]
    for person in (ann, bob):
        names[store.accounts.account_named(person.name.lower()).id] = person.name
    first = ann.post("/api/play-now", {"preset": "draw"})
    assert first.status_code == 202 and first.json()["level"] == "casual"
    now[0] += 1
    second = bob.post("/api/play-now", {"preset": "draw"})  # 400 apart: more than 310 after 1 s
    assert second.status_code == 202 and second.json()["level"] == "expert"
    now[0] += 5  # 360 after 6 s of waiting: still apart
    lobby.sweep()
    assert ann.get(f"/api/seeks/{first.json()['id']}").json()["status"] == "open"
    now[0] += 5  # 410 after 11 s: near now
    lobby.sweep()
    merged = ann.get(f"/api/seeks/{first.json()['id']}").json()
    assert (
        merged["status"] == FULL
        and merged["seat"] == 0
        and merged["token"] == seat_token(ann.session, first.json()["id"])
    )
    bob_view = bob.get(f"/api/seeks/{first.json()['id']}").json()
    assert bob_view["seat"] == 1 and bob_view["token"] == seat_token(bob.session, second.json()["id"])
    assert bob.get(f"/api/seeks/{second.json()['id']}").json()["status"] == "merged"
    game = merged["game"]
    assert client.get(f"/api/games/{game}", headers={"x-cassino-token": bob_view["token"]}).json()["you"] == 1


def test_leaving_the_page_cancels_a_play_now_request(client: TestClient) -> None:
    lobby = lobby_of(client)
    now = [2_000_000.0]
    lobby.clock = lambda: now[0]
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    with client.websocket_connect("/api/lobby/socket", headers=ann.cookie()) as ann_ws:
        receive_until(ann_ws, lambda m: m["type"] == "seeks")
        waiting = ann.post("/api/play-now", {"preset": "classic"}).json()
    # the page closed: the request is matched no more, and expires after NOW_GRACE
    store = SeekStore(client.app.state.service.store)  # type: ignore[attr-defined]
    until(lambda: store.seek(waiting["id"]).away_since is not None, "the closed page marked away")  # type: ignore[union-attr]
    other = bob.post("/api/play-now", {"preset": "classic"})
    assert other.status_code == 202 and other.json()["id"] != waiting["id"]
    now[0] += NOW_GRACE + 1
    lobby.sweep()
    assert ann.get(f"/api/seeks/{waiting['id']}").json()["status"] == "expired"


def test_seeks_expire_when_their_creator_leaves_or_after_half_an_hour(client: TestClient) -> None:
    lobby = lobby_of(client)
    now = [3_000_000.0]
    lobby.clock = lambda: now[0]
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    old = ann.seek(preset="classic")
    with client.websocket_connect("/api/lobby/socket", headers=bob.cookie()) as bob_ws:
        receive_until(bob_ws, lambda m: m["type"] == "seeks" and listed_ids(m) == [old])
        now[0] += MAX_AGE + 1
        assert client.get("/api/seeks").json()["seeks"] == []
        lobby.sweep()
        receive_until(bob_ws, lambda m: m["type"] == "seeks" and m["seeks"] == [])
    assert error(bob.post(f"/api/seeks/{old}/join")) == (
        409,
        f"seek {old} is no longer open: it expired (its creator left the lobby, or it waited too long)",
    )
    with client.websocket_connect("/api/lobby/socket", headers=ann.cookie()) as ann_ws:
        receive_until(ann_ws, lambda m: m["type"] == "seeks")
        seek = ann.seek(preset="royal")
    store = SeekStore(client.app.state.service.store)  # type: ignore[attr-defined]
    until(lambda: store.seek(seek).away_since is not None, "the closed page marked away")  # type: ignore[union-attr]
    now[0] += AWAY_GRACE - 5
    assert [s["id"] for s in client.get("/api/seeks").json()["seeks"]] == [seek]  # back within a minute: kept
    now[0] += 10
    lobby.sweep()
    assert client.get("/api/seeks").json()["seeks"] == []
    assert ann.get(f"/api/seeks/{seek}").json()["status"] == "expired"


# ---------------------------------------------------------------------- who is online in the lobby
def online_is(names: list[str]) -> Callable[[dict[str, Any]], bool]:
    """A lobby socket's ``online`` message naming exactly these people."""
    return lambda m: m["type"] == "online" and m["names"] == names and m["count"] == len(names)


def test_who_is_online_in_the_lobby(client: TestClient, url: str) -> None:
    """Each lobby page is told who has a lobby page open, when it opens and at every change; a
    signed-out page is told but not counted; another process's people count until their rows have
    not been seen for three sweeps (that process was killed)."""
    lobby = lobby_of(client)
    now = [4_000_000.0]
    lobby.clock = lambda: now[0]
    ann, bob = Person(client, "ann"), Person(client, "Bob")
    Person(client, "cyd")  # signed up; her page is in another process
    with client.websocket_connect("/api/lobby/socket", headers=ann.cookie()) as ann_ws:
        receive_until(ann_ws, online_is(["ann"]))
        with client.websocket_connect("/api/lobby/socket", headers=bob.cookie()) as bob_ws:
            receive_until(ann_ws, online_is(["ann", "Bob"]))  # in alphabetical order, any case
            receive_until(bob_ws, online_is(["ann", "Bob"]))
            with client.websocket_connect("/api/lobby/socket") as nobody_ws:
                receive_until(nobody_ws, online_is(["ann", "Bob"]))
        receive_until(ann_ws, online_is(["ann"]))
        # cyd's page is open through another process, which then stops being seen
        other = SeekStore(Store(url))
        cyd_row = other.store.accounts.account_named("cyd")
        assert cyd_row is not None
        other.came(cyd_row.id, now[0])
        lobby.sweep()
        receive_until(ann_ws, online_is(["ann", "cyd"]))
        now[0] += 3 * lobby.sweep_seconds - 1
        lobby.sweep()
        assert other.online(now[0] - 3 * lobby.sweep_seconds, 100) == (2, ["ann", "cyd"])
        now[0] += 2
        lobby.sweep()
        receive_until(ann_ws, online_is(["ann"]))
        assert other.online(0, 100) == (1, ["ann"])  # the stale row is gone, not only unread
    until(lambda: lobby.seeks.online(0, 100) == (0, []), "the closed page offline")


# ---------------------------------------------------------------------- two server processes
def test_two_processes_share_the_seeks() -> None:
    """A seek posted through one process is announced on the other's socket, listed there and
    joined through it; the game opens on both for each seat's own token."""
    websockets = pytest.importorskip("websockets.sync.client")
    database = postgres_url()
    first, second = Server(database), Server(database)
    try:
        people = {}
        for name, server in (("Ann", first), ("Bob", second)):
            made = httpx.post(f"{server.url}/api/accounts", json={"name": name, "password": PASSWORD}, timeout=30)
            assert made.status_code == 201, made.text
            people[name] = (made.cookies[COOKIE], made.json()["csrf"], server)

        def write(name: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
            session, csrf, server = people[name]
            headers = {"origin": server.url, "x-csrf-token": csrf}
            return httpx.post(
                server.url + path, json=body or {}, cookies={COOKIE: session}, headers=headers, timeout=10
            )

        socket_url = second.url.replace("http://", "ws://") + "/api/lobby/socket"
        with websockets.connect(socket_url, additional_headers={"cookie": f"{COOKIE}={people['Bob'][0]}"}) as ws:
            import json

            assert json.loads(ws.recv(timeout=10))["type"] == "seeks"
            started = time.monotonic()
            seek = write("Ann", "/api/seeks", {"preset": "classic", "players": 2, "rated": True}).json()["id"]
            while True:
                message = json.loads(ws.recv(timeout=5))
                if message["type"] == "seeks" and [s["id"] for s in message["seeks"]] == [seek]:
                    break
            assert time.monotonic() - started < 2
            assert message["seeks"][0]["by"] == "Ann" and message["seeks"][0]["yours"] is False
        assert [s["id"] for s in httpx.get(f"{second.url}/api/seeks", timeout=10).json()["seeks"]] == [seek]
        joined = write("Bob", f"/api/seeks/{seek}/join")
        assert joined.status_code == 200, joined.text
        game = joined.json()["game"]
        ann_view = httpx.get(f"{first.url}/api/seeks/{seek}", cookies={COOKIE: people["Ann"][0]}, timeout=10).json()
        assert (ann_view["game"], ann_view["seat"]) == (game, 0)
        for server in (first, second):
            for seat, token in ((0, ann_view["token"]), (1, joined.json()["token"])):
                state = httpx.get(f"{server.url}/api/games/{game}", headers={"x-cassino-token": token}, timeout=10)
                assert state.json()["you"] == seat
        assert httpx.get(f"{first.url}/api/seeks", timeout=10).json()["seeks"] == []
    finally:
        first.stop()
        second.stop()


def test_two_processes_agree_on_who_is_online_and_drop_a_killed_ones() -> None:
    """Ann's lobby page on one process and Bob's on another: both pages name both within seconds;
    when Ann's process is killed (no shutdown code runs), Bob's page drops her once her row has
    gone unseen for three sweeps."""
    websockets = pytest.importorskip("websockets.sync.client")
    import json

    database = postgres_url()
    first, second = Server(database), Server(database)
    try:
        with contextlib.ExitStack() as opened:
            sockets = []
            for name, server in (("Ann", first), ("Bob", second)):
                made = httpx.post(f"{server.url}/api/accounts", json={"name": name, "password": PASSWORD}, timeout=30)
                assert made.status_code == 201, made.text
                url = server.url.replace("http://", "ws://") + "/api/lobby/socket"
                cookie = {"cookie": f"{COOKIE}={made.cookies[COOKIE]}"}
                sockets.append(opened.enter_context(websockets.connect(url, additional_headers=cookie)))

            def names_on(ws: Any, names: list[str], limit: float) -> float:
                """Seconds until the socket says exactly ``names`` are online."""
                started = time.monotonic()
                while True:
                    left = limit - (time.monotonic() - started)
                    assert left > 0, f"not told {names} within {limit} s"
                    message = json.loads(ws.recv(timeout=left))
                    if online_is(names)(message):
                        return time.monotonic() - started

            assert names_on(sockets[0], ["Ann", "Bob"], 5) < 5
            assert names_on(sockets[1], ["Ann", "Bob"], 5) < 5
            first.kill()
            waited = names_on(sockets[1], ["Bob"], 3 * seeks_module.SWEEP_SECONDS + 10)
            assert waited > 2 * seeks_module.SWEEP_SECONDS  # dropped by age, not by a page closing
    finally:
        first.stop()
        second.stop()
