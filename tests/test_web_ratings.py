"""Ratings and profiles at the web app (``cassino.web.ratings`` over ``cassino.club.ratings``): a
rated game between two accounts played to its end through the API moves both ratings exactly as
Glicko-2 says (worked out here from the paper's formulas, not by the app's module); each rated game
is counted once, however many server processes see it end; a game with a computer player or a seat
no account holds is never rated; a forfeit is a loss; a profile lists a player's finished games
with their results, a page at a time; the leaderboards put established ratings first; a game left
uncounted by a stopped process is counted at the next start. On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
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

from account_support import PASSWORD, QUICK, each_database, first_game, stored_accounts
from cassino.club.accounts import Passwords
from cassino.club.ratings import POOLS, Finish
from cassino.web import create_app
from cassino.web.accounts import COOKIE, csrf_of
from cassino.web.rating_store import Counted, RatingStore
from cassino.web.ratings import PAGE_SIZE, Ratings
from cassino.web.schema import rated_games_table, rating_changes_table, ratings_table
from cassino.web.service import GameService
from cassino.web.store import Store, database_url
from web_support import Server, create, get, postgres_url, service_seats, two_services

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind."""
    return each_database(request.param, tmp_path)


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(database=url, bot_delay=0, rate_limits=False, passwords=Passwords(QUICK))) as c:
        yield c


# ---------------------------------------------------------------------- helpers
def writes(c: TestClient) -> dict[str, str]:
    return {"origin": "http://testserver", "x-csrf-token": csrf_of(c.cookies[COOKIE])} if COOKIE in c.cookies else {}


def person(app: Any, name: str, seats: list[dict[str, str]] | None = None) -> TestClient:
    """A browser of its own (its own cookies) with a new account bringing ``seats``."""
    c = TestClient(app)
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD, "seats": seats or []})
    assert r.status_code == 201, r.text
    return c


def bring(c: TestClient, name: str, game: str, token: str) -> None:
    """Sign in again, bringing one more seat."""
    r = c.post(
        "/api/session",
        json={"name": name, "password": PASSWORD, "seats": [{"game": game, "token": token}]},
        headers=writes(c),
    )
    assert r.status_code == 200 and r.json()["claimed"], r.text


def people_game(c: TestClient, **body: Any) -> tuple[str, dict[int, str]]:
    """A game of people made through the API, every invitation claimed: its id and seat tokens."""
    made = create(c, seats=body.pop("seats", TWO_PEOPLE), options={"target": 11}, **body)
    tokens = {0: made["seats"][0]["token"]}
    for seat in made["seats"][1:]:
        if "invite" in seat:
            r = c.post(f"/api/games/{made['game']}/claim", json={"invite": seat["invite"]})
            assert r.status_code == 200, r.text
            tokens[seat["seat"]] = r.json()["token"]
    return made["game"], tokens


def mark_rated(app: Any, game: str, pool: str = "classic-2") -> None:
    """What the lobby does for a game made from a rated seek: its row in ``cassino_rated_games``."""
    with app.state.service.store.engine.begin() as conn:
        conn.execute(insert(rated_games_table), {"game_id": game, "pool": pool, "rated_at": None})


def play_to_end(c: TestClient, game: str, tokens: dict[int, str], seed: int = 1) -> dict[str, Any]:
    """Random legal moves by each person, and each count's presses of next, until the game is
    over (computer players move by themselves); the final state."""
    rng = random.Random(seed)
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the game did not finish"
        st = get(c, game, tokens[min(tokens)])
        if st["status"] == "over":
            return st
        if st["phase"] == "count":
            for seat in st["waiting_for"]:
                r = c.post(f"/api/games/{game}/next", headers={"x-cassino-token": tokens[seat]})
                assert r.status_code == 200, r.text
            continue
        seat = st["to_move"]
        if seat not in tokens:  # a computer player's turn
            time.sleep(0.01)
            continue
        mine = get(c, game, tokens[seat])
        move = rng.choice(mine["legal"])["move"]
        r = c.post(
            f"/api/games/{game}/moves",
            json={"move": move, "version": mine["version"]},
            headers={"x-cassino-token": tokens[seat]},
        )
        assert r.status_code == 200, r.text


def forfeit(app: Any, game: str, seat: int) -> None:
    """End a game at once: ``seat`` forfeits it (as a player who could not go on)."""
    service = app.state.service
    service.forfeit(service.get(game), seat, "left the table")
    assert service.get(game).over


def count_rows(app: Any, table: Any, **where: Any) -> int:
    with app.state.service.store.engine.connect() as conn:
        query = select(func.count()).select_from(table)
        for column, value in where.items():
            query = query.where(table.c[column] == value)
        return int(conn.execute(query).scalar_one())


# ---------------------------------------------------------------------- a rated game
def test_a_rated_game_between_two_accounts(client: TestClient) -> None:
    app = client.app
    game, tokens = people_game(client)
    mark_rated(app, game)
    ann = person(app, "Ann", [{"game": game, "token": tokens[0]}])
    bob = person(app, "Bob", [{"game": game, "token": tokens[1]}])
    assert ann.get("/api/me").json()["ratings"] == {}  # nothing before the game ends
    final = play_to_end(client, game, tokens)
    winner = final["winner"]
    names = ["Ann", "Bob"]
    for seat, browser in ((0, ann), (1, bob)):
        rating, rd = first_game(1.0 if seat == winner else 0.0)
        me = browser.get("/api/me").json()
        assert set(me) == {"name", "csrf", "ratings"} and me["name"] == names[seat]
        assert list(me["ratings"]) == ["classic-2"]
        mine = me["ratings"]["classic-2"]
        assert set(mine) == {"rating", "rd", "games", "provisional"}
        assert mine["rating"] == pytest.approx(rating, abs=0.006)
        assert mine["rd"] == pytest.approx(rd, abs=0.006)
        assert (mine["games"], mine["provisional"]) == (1, True)
    assert first_game(1.0)[0] == pytest.approx(1662.21, abs=0.01)  # the figures, for the reader
    assert first_game(0.0)[0] == pytest.approx(1337.79, abs=0.01) and first_game(1.0)[1] == pytest.approx(
        290.23, abs=0.01
    )
    # the profile: the rating with its wins and points a hand, and the game with its result
    profile = client.get(f"/api/users/{names[winner].lower()}").json()
    assert profile["name"] == names[winner] and profile["page"] == 1 and profile["more"] is False
    standing = profile["ratings"]["classic-2"]
    hands = len(final["finished"])
    assert standing["wins"] == 1 and standing["games"] == 1
    assert standing["points_per_hand"] == pytest.approx(final["scores"][winner] / hands, abs=0.005)
    [played] = profile["games"]
    loser = 1 - winner
    assert played["game"] == game and played["rated"] is True and played["result"] == "win"
    assert (played["seat"], played["points"], played["scores"]) == (winner, final["scores"][winner], final["scores"])
    assert played["opponents"] == [{"name": names[loser], "account": True, "kind": "human"}]
    assert played["partners"] == [] and played["hands"] == hands and played["forfeit"] is None
    assert (played["preset"], played["players"], played["partnerships"], played["pool"]) == (
        "classic",
        2,
        False,
        "classic-2",
    )
    assert played["rating_before"] == 1500.0 and played["rating_after"] == standing["rating"]
    other = client.get(f"/api/users/{names[loser]}").json()["games"][0]
    assert (other["result"], other["rated"], other["points"]) == ("loss", True, final["scores"][loser])
    # the leaderboard: both provisional, the winner first
    board = client.get("/api/leaderboard/classic-2").json()
    assert board["pool"] == "classic-2"
    assert [(p["rank"], p["name"], p["provisional"], p["games"]) for p in board["players"]] == [
        (1, names[winner], True, 1),
        (2, names[loser], True, 1),
    ]
    # counted once: seeing the game over again changes nothing
    ratings: Ratings = app.state.ratings
    ratings.seen.clear()
    assert ratings.game_over(app.state.service.get(game)) == Counted(False)
    assert ann.get("/api/me").json()["ratings"]["classic-2"]["games"] == 1
    assert count_rows(app, rating_changes_table, game_id=game) == 2


def ticking(start: float = 1_000_000.0) -> Callable[[], float]:
    """A clock one second further at each reading: games end in a known order."""
    now = [start]

    def clock() -> float:
        now[0] += 1.0
        return now[0]

    return clock


# ---------------------------------------------------------------------- never rated
def test_a_game_with_a_computer_player_is_never_rated(client: TestClient) -> None:
    app = client.app
    made = create(
        client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy", "name": "Gus"}], options={"target": 11}
    )
    game, token = made["game"], made["seats"][0]["token"]
    mark_rated(app, game)  # even if a row said so
    ann = person(app, "Ann", [{"game": game, "token": token}])
    final = play_to_end(client, game, {0: token})
    assert ann.get("/api/me").json()["ratings"] == {}
    assert count_rows(app, rating_changes_table) == count_rows(app, ratings_table) == 0
    with app.state.service.store.engine.connect() as conn:
        assert conn.execute(select(rated_games_table.c.rated_at)).scalar_one() is not None  # looked at, once
    [played] = ann.get("/api/users/Ann").json()["games"]  # Ann herself: her unlisted game
    assert client.get("/api/users/Ann").json()["games"] == []  # others: unlisted and not rated, not shown
    assert played["rated"] is False and played["pool"] is None and played["rating_after"] is None
    assert played["result"] == ("win" if final["winner"] == 0 else "loss")
    assert played["opponents"] == [{"name": "Gus", "account": False, "kind": "bot"}]


def test_a_seat_no_account_holds_one_account_at_two_seats_or_another_pool_is_never_rated(client: TestClient) -> None:
    app = client.app
    game, tokens = people_game(client)
    mark_rated(app, game)
    ann = person(app, "Ann", [{"game": game, "token": tokens[0]}])  # seat 1 is a person without an account
    forfeit(app, game, 1)
    both, both_tokens = people_game(client)
    mark_rated(app, both)
    bob = person(app, "Bob", [{"game": both, "token": t} for t in both_tokens.values()])
    forfeit(app, both, 0)
    elsewhere, elsewhere_tokens = people_game(client)  # marked for another variant's pool
    mark_rated(app, elsewhere, "royal-2")
    bring(ann, "Ann", elsewhere, elsewhere_tokens[0])
    bring(bob, "Bob", elsewhere, elsewhere_tokens[1])
    forfeit(app, elsewhere, 0)
    assert ann.get("/api/me").json()["ratings"] == bob.get("/api/me").json()["ratings"] == {}
    assert count_rows(app, rating_changes_table) == 0
    played = ann.get("/api/users/Ann").json()["games"][-1]
    assert (played["game"], played["result"], played["rated"], played["forfeit"]) == (game, "win", False, 1)
    typed = get(client, game)["seats"][1]["name"]  # the name at the table: no account's
    assert played["opponents"] == [{"name": typed, "account": False, "kind": "human"}]


def test_a_forfeit_is_a_loss_for_the_forfeiter(client: TestClient) -> None:
    app = client.app
    game, tokens = people_game(client)
    mark_rated(app, game)
    ann = person(app, "Ann", [{"game": game, "token": tokens[0]}])
    bob = person(app, "Bob", [{"game": game, "token": tokens[1]}])
    forfeit(app, game, 0)
    assert ann.get("/api/me").json()["ratings"]["classic-2"]["rating"] == pytest.approx(first_game(0.0)[0], abs=0.006)
    assert bob.get("/api/me").json()["ratings"]["classic-2"]["rating"] == pytest.approx(first_game(1.0)[0], abs=0.006)
    played = client.get("/api/users/Ann").json()["games"][0]
    assert (played["result"], played["forfeit"], played["scores"], played["hands"]) == ("loss", 0, [0, 0], 1)


# ---------------------------------------------------------------------- leaderboards
def test_the_leaderboard_puts_established_ratings_first(client: TestClient) -> None:
    app = client.app
    browsers: dict[str, TestClient] = {}

    def rated(winner: str, loser: str) -> None:
        game, tokens = people_game(client)
        mark_rated(app, game)
        for name, token in ((winner, tokens[0]), (loser, tokens[1])):
            if name in browsers:
                bring(browsers[name], name, game, token)
            else:
                browsers[name] = person(app, name, [{"game": game, "token": token}])
        forfeit(app, game, 1)

    for _ in range(10):
        rated("Ann", "Bob")
    rated("Cleo", "Dan")
    board = client.get("/api/leaderboard/classic-2").json()["players"]
    assert [(p["name"], p["provisional"], p["games"], p["wins"]) for p in board] == [
        ("Ann", False, 10, 10),
        ("Bob", False, 10, 0),
        ("Cleo", True, 1, 1),
        ("Dan", True, 1, 0),
    ]
    assert board[0]["rating"] > board[2]["rating"] > board[1]["rating"]  # one lucky win: not established yet
    assert [p["rank"] for p in board] == [1, 2, 3, 4]
    me = browsers["Bob"].get("/api/me").json()["ratings"]["classic-2"]
    assert me == {"rating": board[1]["rating"], "rd": board[1]["rd"], "games": 10, "provisional": False}
    pools = client.get("/api/leaderboard").json()["pools"]
    assert [p["pool"] for p in pools] == list(POOLS)
    assert {p["pool"]: p["players"] for p in pools if p["players"]} == {"classic-2": 4}
    # a deleted account leaves the board
    dan = browsers["Dan"]
    gone = dan.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=writes(dan))
    assert gone.status_code == 200, gone.text
    assert [p["name"] for p in client.get("/api/leaderboard/classic-2").json()["players"]] == ["Ann", "Bob", "Cleo"]
    assert client.get("/api/leaderboard/royal-2").json() == {"pool": "royal-2", "players": []}
    for pool in ("classic", "classic-5", "x" * 300):
        r = client.get(f"/api/leaderboard/{pool}")
        assert r.status_code == 404
        assert r.json() == {
            "error": f"no rating pool {pool[:40]!r}: the pools are {', '.join(POOLS)}",
            "code": "no_pool",
        }


# ---------------------------------------------------------------------- profiles
def test_a_profile_lists_finished_games_newest_first_a_page_at_a_time(client: TestClient) -> None:
    """The player sees all their finished games; anyone else the listed ones and the rated ones
    (an unlisted game's id would let anyone watch it)."""
    app = client.app
    app.state.ratings.clock = ticking()
    ann: TestClient | None = None
    order = []
    public = []
    for n in range(PAGE_SIZE + 3):
        listed = n % 4 == 0
        game, tokens = people_game(client, listed=listed)
        if ann is None:
            ann = person(app, "Ann", [{"game": game, "token": tokens[0]}])
        else:
            bring(ann, "Ann", game, tokens[0])
        if n == 5:
            mark_rated(app, game)
            person(app, "Bob", [{"game": game, "token": tokens[1]}])
        forfeit(app, game, n % 2)
        order.append(game)
        if listed or n == 5:
            public.append(game)
    assert ann is not None
    playing, playing_tokens = people_game(client, listed=True)  # not over: not listed
    bring(ann, "Ann", playing, playing_tokens[0])
    first = ann.get("/api/users/Ann").json()
    assert (first["page"], first["more"], len(first["games"])) == (1, True, PAGE_SIZE)
    assert [g["game"] for g in first["games"]] == order[::-1][:PAGE_SIZE]
    assert [g["result"] for g in first["games"][:2]] == [
        "win" if n % 2 else "loss" for n in (PAGE_SIZE + 2, PAGE_SIZE + 1)
    ]
    assert all(g["finished"] > h["finished"] for g, h in zip(first["games"], first["games"][1:], strict=False))
    second = ann.get("/api/users/Ann?page=2").json()
    assert (second["page"], second["more"]) == (2, False)
    assert [g["game"] for g in second["games"]] == order[::-1][PAGE_SIZE:]
    assert ann.get("/api/users/Ann?page=3").json()["games"] == []
    seen = client.get("/api/users/Ann").json()
    assert [g["game"] for g in seen["games"]] == public[::-1] and seen["more"] is False
    assert [g["rated"] for g in seen["games"]] == [g == order[5] for g in public[::-1]]
    for bad in ("0", "x", "-1", "10001", "1.5", "", "１"):
        r = client.get("/api/users/Ann", params={"page": bad})
        assert (r.status_code, r.json()) == (
            400,
            {"error": "page must be a whole number from 1 to 10000", "code": "bad_page"},
        ), bad


def test_the_pages_addresses_serve_the_page(client: TestClient) -> None:
    for path in ("/@/Ann", "/@/no-such-player", "/leaderboard"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/static/app.js"></script>' in r.text


# ---------------------------------------------------------------------- counted once, whatever happens
def test_a_game_left_uncounted_is_counted_at_the_next_start_or_by_its_profile(url: str) -> None:
    app = create_app(database=url, bot_delay=0, rate_limits=False, passwords=Passwords(QUICK))
    with TestClient(app) as c:
        app.state.service.on_over.clear()  # the process stops between the last move and the count
        games = []
        for _ in range(2):
            game, tokens = people_game(c)
            mark_rated(app, game)
            if not games:
                person(app, "Ann", [{"game": game, "token": tokens[0]}])
                person(app, "Bob", [{"game": game, "token": tokens[1]}])
            else:
                for name, token in (("Ann", tokens[0]), ("Bob", tokens[1])):
                    bring(TestClient(app), name, game, token)
            forfeit(app, game, 1)
            games.append(game)
        assert count_rows(app, rating_changes_table) == 0
    again = create_app(database=url, bot_delay=0, rate_limits=False, passwords=Passwords(QUICK))
    with TestClient(again) as c:
        assert c.get("/api/users/Ann").json()["ratings"]["classic-2"]["games"] == 2  # counted at start-up
        again.state.service.on_over.clear()
        game, tokens = people_game(c)
        mark_rated(again, game)
        for name, token in (("Ann", tokens[0]), ("Bob", tokens[1])):
            bring(TestClient(again), name, game, token)
        forfeit(again, game, 1)
        profile = c.get("/api/users/Bob").json()  # looking at it counts it
        assert profile["ratings"]["classic-2"]["games"] == 3
        assert [g["rated"] for g in profile["games"]] == [True, True, True]
        assert count_rows(again, rating_changes_table) == 6


def _service_game(service: GameService, holders: list[str], pool: str = "classic-2") -> tuple[Any, dict[int, str]]:
    """A rated game of people made through a service, each seat held by an account."""
    live, creator, invites = service.create({"options": {"target": 11}, "seats": TWO_PEOPLE})
    tokens = service_seats(service, live, creator, invites)
    for seat, account in enumerate(holders):
        assert service.store.accounts.hold_seat(account, live.id, seat, 0.0)
    with service.store.engine.begin() as conn:
        conn.execute(insert(rated_games_table), {"game_id": live.id, "pool": pool, "rated_at": None})
    return live, tokens


async def _until(predicate: Callable[[], bool], what: str, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def test_two_services_on_one_database_count_a_game_once() -> None:
    """Both processes' copies see the game end (one stores the last move, the other hears it):
    each tries to count it, and it counts once."""

    async def scenario() -> None:
        with two_services() as (a, b):
            ratings = {name: Ratings(RatingStore(s.store.engine), s, s.clock) for name, s in (("a", a), ("b", b))}
            tried: list[tuple[str, Counted | None]] = []
            for name, r in ratings.items():
                r.service.on_over.insert(0, lambda live, name=name: tried.append((name, None)))
            await a.start()
            await b.start()
            assert a.listener is not None and b.listener is not None
            await _until(lambda: a.listener.listening.is_set() and b.listener.listening.is_set(), "the listeners")
            ann, bob = stored_accounts(a, ["Ann", "Bob"])
            live, tokens = _service_game(a, [ann, bob])
            there = b.get(live.id)
            rng = random.Random(5)
            while not live.over:
                if live.counting:
                    for seat in (0, 1):
                        a.press_next(live.id, tokens[seat])
                    continue
                seat = live.game.state.to_move
                from cassino.web.payloads import state_payload

                a.play(live.id, tokens[seat], rng.choice(state_payload(live, seat)["legal"])["move"])
            await _until(lambda: there.over, "the end on the other process")
            await _until(lambda: {n for n, _ in tried} == {"a", "b"}, "both processes to see the end")
            assert live.id in ratings["a"].seen and live.id in ratings["b"].seen
            with a.store.engine.connect() as conn:
                games = dict(conn.execute(select(ratings_table.c.account_id, ratings_table.c.games)).all())
                changes = conn.execute(select(func.count()).select_from(rating_changes_table)).scalar_one()
            assert games == {ann: 1, bob: 1} and changes == 2
            for r in ratings.values():  # seen again: nothing more
                r.seen.clear()
                assert r.game_over(live) == Counted(False)
            for service in (a, b):
                await service.stop()

    asyncio.run(scenario())


def at_once(*calls: Callable[[], Counted]) -> list[Counted]:
    """Run the calls in threads of their own, all let go at the same moment; their answers."""
    barrier = threading.Barrier(len(calls))
    out: list[Counted] = [Counted(False)] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        out[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return out


def test_counts_at_the_same_moment_through_two_connections_count_once() -> None:
    """Two processes counting the same game at once: one claims it, the other's claim waits for its
    commit and finds it counted. Two games of one player ending at once both count."""
    with two_services() as (a, b):
        ann, bob, cleo = stored_accounts(a, ["Ann", "Bob", "Cleo"])
        first, second = RatingStore(a.store.engine), RatingStore(b.store.engine)
        finish = Finish((0, 1), (3, 11), 1, 2, forfeit=0)
        for n in range(5):
            game = _service_game(a, [ann, bob])[0].id
            at = 1000.0 + n
            answers = at_once(partial(first.count, game, finish, at), partial(second.count, game, finish, at))
            assert sorted(x.rated for x in answers) == [False, True]
        one, _ = _service_game(a, [ann, bob])
        two, _ = _service_game(a, [cleo, ann])
        both = at_once(lambda: first.count(one.id, finish, 2000.0), lambda: second.count(two.id, finish, 2000.0))
        assert both == [Counted(True), Counted(True)]
        standing = first.standings(ann)["classic-2"]
        assert (standing.games, standing.wins) == (7, 1)  # six lost as seat 0, one won as seat 1
        with a.store.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(rating_changes_table)).scalar_one() == 14


def test_two_real_server_processes_count_a_game_once() -> None:
    """Two ``cassino serve`` processes on one PostgreSQL, each person's seat played through a
    different one: both see the game end, and it counts once."""
    database = postgres_url()
    first, second = Server(database, bot_delay=0.0), Server(database, bot_delay=0.0)
    try:
        made = httpx.post(f"{first.url}/api/games", json={"options": {"target": 11}, "seats": TWO_PEOPLE}, timeout=10)
        game = made.json()["game"]
        tokens = {0: made.json()["seats"][0]["token"]}
        claimed = httpx.post(f"{second.url}/api/games/{game}/claim", json={"invite": made.json()["seats"][1]["invite"]})
        tokens[1] = claimed.json()["token"]
        servers = {0: first, 1: second}
        cookies = {}
        for seat, name in ((0, "Ann"), (1, "Bob")):
            body = {"name": name, "password": PASSWORD, "seats": [{"game": game, "token": tokens[seat]}]}
            r = httpx.post(f"{servers[seat].url}/api/accounts", json=body, timeout=30)
            assert r.status_code == 201 and r.json()["claimed"], r.text
            cookies[seat] = {COOKIE: r.cookies[COOKIE]}
        store = Store(database_url(database))
        try:
            with store.engine.begin() as conn:
                conn.execute(insert(rated_games_table), {"game_id": game, "pool": "classic-2", "rated_at": None})
        finally:
            store.close()
        rng = random.Random(7)
        deadline = time.monotonic() + 180
        status = "playing"
        while status != "over":
            assert time.monotonic() < deadline, "the game did not finish"
            for seat in (0, 1):
                url, headers = servers[seat].url, {"x-cassino-token": tokens[seat]}
                st = httpx.get(f"{url}/api/games/{game}", headers=headers, timeout=10).json()
                status = st["status"]
                if status == "over":
                    break
                if st["phase"] == "count" and seat in st["waiting_for"]:
                    httpx.post(f"{url}/api/games/{game}/next", headers=headers, timeout=10)
                elif st["phase"] == "play" and st["to_move"] == seat and st["legal"]:
                    body = {"move": rng.choice(st["legal"])["move"], "version": st["version"]}
                    r = httpx.post(f"{url}/api/games/{game}/moves", json=body, headers=headers, timeout=10)
                    assert r.status_code in (200, 409), r.text
        final = httpx.get(f"{second.url}/api/games/{game}", headers={"x-cassino-token": tokens[1]}, timeout=10).json()
        mine = {}
        for seat in (0, 1):
            for server in (first, second):
                await_deadline = time.monotonic() + 10
                while True:  # the process that did not store the last move hears of it by a notification
                    me = httpx.get(f"{server.url}/api/me", cookies=cookies[seat], timeout=10).json()
                    if me["ratings"] or time.monotonic() > await_deadline:
                        break
                    time.sleep(0.05)
                mine[(seat, server.url)] = me["ratings"]
        for seat in (0, 1):
            rating, rd = first_game(1.0 if final["winner"] == seat else 0.0)
            for server in (first, second):
                got = mine[(seat, server.url)]["classic-2"]
                assert got["games"] == 1
                assert got["rating"] == pytest.approx(rating, abs=0.006) and got["rd"] == pytest.approx(rd, abs=0.006)
        store = Store(database_url(database))
        try:
            with store.engine.connect() as conn:
                assert conn.execute(select(func.count()).select_from(rating_changes_table)).scalar_one() == 2
                assert conn.execute(select(rated_games_table.c.rated_at)).scalar_one() is not None
        finally:
            store.close()
    finally:
        first.stop()
        second.stop()


# ---------------------------------------------------------------------- the page
def _play_over_http(url: str, game: str, tokens: dict[int, str], seed: int = 3) -> dict[str, Any]:
    """Random legal moves and presses of next through a server's API until the game is over."""
    rng = random.Random(seed)
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the game did not finish"
        st = httpx.get(f"{url}/api/games/{game}", headers={"x-cassino-token": tokens[0]}, timeout=10).json()
        if st["status"] == "over":
            return st  # type: ignore[no-any-return]
        if st["phase"] == "count":
            for seat in st["waiting_for"]:
                httpx.post(f"{url}/api/games/{game}/next", headers={"x-cassino-token": tokens[seat]}, timeout=10)
            continue
        seat = st["to_move"]
        headers = {"x-cassino-token": tokens[seat]}
        mine = httpx.get(f"{url}/api/games/{game}", headers=headers, timeout=10).json()
        body = {"move": rng.choice(mine["legal"])["move"], "version": mine["version"]}
        assert httpx.post(f"{url}/api/games/{game}/moves", json=body, headers=headers, timeout=10).status_code == 200


def _mark_rated_at(database: str, game: str) -> None:
    """A game of a server made rated (as the lobby's rated seeks do), through its database."""
    store = Store(database)
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(rated_games_table), {"game_id": game, "pool": "classic-2", "rated_at": None})
    finally:
        store.close()


def test_a_profile_page_shows_ratings_and_opens_a_replay_with_accessibility(tmp_path: Path) -> None:
    """In a real browser: a player's page at /@/NAME shows the rating ("1662?": provisional) with
    its games, wins and points a hand, and the finished game, whose link opens its replay on the
    table; the leaderboards and the lobby's own ratings; axe finds nothing, and German leaves no
    English."""
    from browser_support import Page, axe_violations, chromium, english_left, visible_texts

    database = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    server = Server(database, bot_delay=0.0, extra=("--no-rate-limits",))
    try:
        made = httpx.post(f"{server.url}/api/games", json={"options": {"target": 11}, "seats": TWO_PEOPLE}).json()
        game = made["game"]
        tokens = {0: made["seats"][0]["token"]}
        claimed = httpx.post(f"{server.url}/api/games/{game}/claim", json={"invite": made["seats"][1]["invite"]})
        tokens[1] = claimed.json()["token"]
        _mark_rated_at(database, game)
        session = {}
        for seat, name in ((0, "Ann"), (1, "Bob")):
            body = {"name": name, "password": PASSWORD, "seats": [{"game": game, "token": tokens[seat]}]}
            r = httpx.post(f"{server.url}/api/accounts", json=body, timeout=30)
            assert r.status_code == 201, r.text
            session[name] = r.cookies
        final = _play_over_http(server.url, game, tokens)
        names = ["Ann", "Bob"]
        winner = names[final["winner"]]
        api = httpx.get(f"{server.url}/api/users/{winner}").json()
        shown = f"{round(api['ratings']['classic-2']['rating'])}?"
        assert shown == "1662?"
        with chromium() as browser:
            p = Page(browser, 1280, 900, motion=False)
            page = p.page
            page.goto(f"{server.url}/@/{winner}")
            page.wait_for_selector("[data-testid=profile-rating]")
            assert page.inner_text("[data-testid=profile-name]") == winner
            row = page.locator("#profile-ratings-body tr")
            assert row.count() == 1
            cells = [c.strip() for c in row.first.locator("th, td").all_inner_texts()]
            per_hand = api["ratings"]["classic-2"]["points_per_hand"]
            assert cells[1:4] == [shown, "1", "1"] and float(cells[4]) == pytest.approx(per_hand, abs=0.01)
            line = page.inner_text("#profile-games li")
            assert line.startswith("Won · ") and f"against {names[1 - final['winner']]}" in line
            assert "rated: 1500 → 1662 (+162)" in line
            assert axe_violations(page) == []
            p.shot("web-profile.png")
            page.click("[data-testid=profile-replay]")
            page.wait_for_selector("[data-testid=replay]", state="visible")
            assert page.evaluate("location.pathname + location.hash") == f"/#game={game}&replay=1"
            assert page.inner_text("[data-testid=replay-position]").startswith("Move 0 of ")
            page.click("[data-testid=replay-next]")
            page.wait_for_function(
                "document.querySelector('[data-testid=replay-position]').textContent.startsWith('Move 1 of')"
            )
            # the leaderboards: both players, the winner first, provisional
            page.goto(f"{server.url}/leaderboard")
            page.wait_for_selector("#leaderboard-body tr")
            ranks = [r.split("\t") for r in page.locator("#leaderboard-body tr").all_inner_texts()]
            assert [r[:3] for r in ranks] == [["1", winner, "1662?"], ["2", names[1 - final["winner"]], "1338?"]]
            assert axe_violations(page) == []
            p.shot("web-leaderboard.png")
            page.click(f"#leaderboard-body a:text-is('{winner}')")
            page.wait_for_selector("[data-testid=profile-rating]")
            # the lobby, signed in: one's own ratings and the link to one's page
            p.context.add_cookies([{"name": k, "value": v, "url": server.url} for k, v in session[winner].items()])
            page.goto(f"{server.url}/")
            page.wait_for_selector("[data-testid=account-ratings]:visible")
            assert page.inner_text("#account-ratings-list").strip().endswith(f"{shown} (1 rated game)")
            assert page.get_attribute("[data-testid=account-profile]", "href") == f"/@/{winner}"
            assert axe_violations(page) == []
            p.shot("web-lobby-ratings.png")
            # a table opened from the lobby, another rated game ended meanwhile: back in the lobby, two
            page.evaluate(f"location.hash = 'game={game}'")
            page.wait_for_selector("#table-view:not([hidden])")
            again = httpx.post(f"{server.url}/api/games", json={"options": {"target": 11}, "seats": TWO_PEOPLE}).json()
            more = {0: again["seats"][0]["token"]}
            more[1] = httpx.post(
                f"{server.url}/api/games/{again['game']}/claim", json={"invite": again["seats"][1]["invite"]}
            ).json()["token"]
            _mark_rated_at(database, again["game"])
            for seat, name in ((0, "Ann"), (1, "Bob")):
                body = {"name": name, "password": PASSWORD, "seats": [{"game": again["game"], "token": more[seat]}]}
                assert httpx.post(f"{server.url}/api/session", json=body, timeout=30).json()["claimed"]
            _play_over_http(server.url, again["game"], more, seed=4)
            page.evaluate("location.hash = ''")
            page.wait_for_function(
                "document.querySelector('#account-ratings-list').textContent.includes('(2 rated games)')"
            )
            # on a phone held upright, nothing wider than the screen
            page.set_viewport_size({"width": 390, "height": 844})
            for path in (f"/@/{winner}", "/leaderboard"):
                page.goto(server.url + path)
                page.wait_for_selector("#profile-ratings-body tr, #leaderboard-body tr")
                assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
            p.shot("web-profile-phone.png")
            assert not p.errors, p.errors
            p.close()
            for language in ("de", "id"):
                q = Page(browser, 1280, 900, lang=language, motion=False)
                q.page.goto(f"{server.url}/@/{winner}")
                q.page.wait_for_selector("[data-testid=profile-rating]")
                left = english_left(visible_texts(q.page), language, exempt={"Ann", "Bob"})
                assert not left, left
                q.page.goto(f"{server.url}/leaderboard")
                q.page.wait_for_selector("#leaderboard-body tr")
                assert not english_left(visible_texts(q.page), language, exempt={"Ann", "Bob"})
                assert not q.errors, q.errors
                q.close()
    finally:
        server.stop()
