"""Tournaments over the API (``cassino.web.tournaments`` over ``cassino.club.pairing`` and
``cassino.club.standings``): a Swiss of six entrants, four people playing through the API and two
computer players, over three rounds, completes; nobody meets anyone twice; every table of a round
is dealt the same deck, committed before the round; the standings follow from the tables' results
with Buchholz as the tie-break; the decks stay sealed until the end, then every deal's seed is shown
and an attempt's record verifies; the refusals (not the organiser, joining twice or late, bad
settings) say why. On SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib
import itertools
import json
import subprocess
import sys
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

from account_support import ORIGIN, PASSWORD, QUICK, each_database
from cassino.club.accounts import Passwords
from cassino.web import create_app
from cassino.web.accounts import COOKIE, csrf_of

SHIFT = [0.0]
"""Seconds the app's clock is ahead of the real one (an arena's time runs out)."""


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    url = each_database(request.param, tmp_path)
    SHIFT[0] = 0.0
    app = create_app(
        database=url, bot_delay=0, rate_limits=False, passwords=Passwords(QUICK), clock=lambda: time.time() + SHIFT[0]
    )
    with TestClient(app) as c:
        yield c


class Person:
    """A signed-up browser; its requests go through the app's one running client, with its own
    cookie and CSRF token (none kept in the client's jar)."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.http = client
        self.name = name
        r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        session = r.cookies[COOKIE]
        client.cookies.clear()
        self.headers = {"origin": ORIGIN, "x-csrf-token": csrf_of(session), "cookie": f"{COOKIE}={session}"}

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body or {}, headers=self.headers)

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path, headers=self.headers)

    def step(self, tournament: str) -> bool:
        """Play one move at each of this person's tables where it is their turn; True if one was made."""
        moved = False
        for table in self.get(f"/api/tournaments/{tournament}").json().get("mine", []):
            assert table["token"] is not None
            headers = {**self.headers, "x-cassino-token": table["token"]}
            state = self.http.get(f"/api/games/{table['game']}", headers=headers).json()
            if state["phase"] == "play" and state["to_move"] == table["seat"] and state["legal"]:
                body = {"move": state["legal"][0]["move"], "version": state["version"]}
                r = self.http.post(f"/api/games/{table['game']}/moves", json=body, headers=headers)
                assert r.status_code in (200, 409), r.text
                moved = True
        return moved


def test_a_swiss_of_four_people_and_two_computer_players(client: TestClient, tmp_path: Path) -> None:
    ann, bob, cyd, dee = (Person(client, n) for n in ("ann_t", "bob_t", "cyd_t", "dee_t"))
    made = ann.post(
        "/api/tournaments",
        {"kind": "swiss", "preset": "classic", "players": 2, "rounds": 3, "rated": False, "bots": ["expert", "casual"]},
    )
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for p in (ann, bob, cyd, dee):
        joined = p.post(f"/api/tournaments/{tid}/join")
        assert joined.status_code == 200, joined.text
    again = bob.post(f"/api/tournaments/{tid}/join")
    assert again.status_code == 409 and again.json()["code"] == "joined"
    assert bob.post(f"/api/tournaments/{tid}/start").json()["code"] == "not_organiser"
    started = ann.post(f"/api/tournaments/{tid}/start")
    assert started.status_code == 200, started.text
    assert started.json()["status"] == "running" and started.json()["round"] == 1
    late = Person(client, "eve_t").post(f"/api/tournaments/{tid}/join")
    assert late.status_code == 409 and late.json()["code"] == "started"

    deadline = time.monotonic() + 240
    sealed_checked = False
    while (view := ann.get(f"/api/tournaments/{tid}").json())["status"] != "over":
        assert time.monotonic() < deadline, f"the tournament did not end: {view['round']}"
        done = [t for t in view["pairings"] if t["scores"] is not None]
        if done and not sealed_checked:  # a table over, its deck sealed while the tournament runs
            assert client.get(f"/api/games/{done[0]['game']}/record").status_code == 403
            assert "seed" not in json.dumps(view["deals"])
            sealed_checked = True
        if not any([p.step(tid) for p in (ann, bob, cyd, dee)]):
            time.sleep(0.02)

    assert sealed_checked
    entrants = view["entrants"]
    assert sorted(entrants) == sorted(["ann_t", "bob_t", "cyd_t", "dee_t", "expert (computer)", "casual (computer)"])
    pairings = view["pairings"]
    assert [t["round"] for t in pairings] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    met = [frozenset(t["seats"]) for t in pairings]
    assert len(set(met)) == len(met)  # nobody meets anyone twice
    assert all(t["computers"] == [] for t in pairings)  # six entrants: no bye
    deals = {d["number"]: d for d in view["deals"]}
    store = client.app.state.service.store  # type: ignore[attr-defined]
    for r in (1, 2, 3):
        tables = [t for t in pairings if t["round"] == r]
        assert {t["deal"] for t in tables} == {deals[r]["commitment"]}  # one deal a round, as committed
        assert hashlib.sha256(deals[r]["seed"].encode()).hexdigest() == deals[r]["commitment"]
        assert len({store.load_game(t["game"]).hands[0].deck for t in tables}) == 1  # the same deck at each

    # the standings from the results: match points, then Buchholz
    points = dict.fromkeys(entrants, 0.0)
    opponents: dict[str, list[str]] = {e: [] for e in entrants}
    for t in pairings:
        a, b = t["seats"]
        sa, sb = t["scores"]
        assert t["winner"] == (0 if sa > sb else 1 if sb > sa else -1)
        points[a] += 1.0 if sa > sb else 0.5 if sa == sb else 0.0
        points[b] += 1.0 if sb > sa else 0.5 if sa == sb else 0.0
        opponents[a].append(b)
        opponents[b].append(a)
    buchholz = {e: sum(points[o] for o in opponents[e]) for e in entrants}
    rows = view["standings"]
    assert {r["name"]: (r["points"], r["buchholz"]) for r in rows} == {e: (points[e], buchholz[e]) for e in entrants}
    order = [(r["points"], r["buchholz"]) for r in rows]
    for x, y in itertools.pairwise(order):  # points first, then Buchholz
        assert x[0] > y[0] or (x[0] == y[0] and x[1] >= y[1])

    # over: every deck shown; a table's record verifies on the deal's id
    record = client.get(f"/api/games/{pairings[0]['game']}/record")
    assert record.status_code == 200 and record.json()["shared_deal"] == f"{tid}-1"
    path = tmp_path / "record.json"
    path.write_text(record.text)
    out = subprocess.run([sys.executable, "-m", "cassino.cli", "verify", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_bad_settings_and_unknown_tournaments(client: TestClient) -> None:
    ann = Person(client, "ann_b")
    cases = [
        ({"kind": "league"}, "kind must be 'swiss' or 'arena', not 'league'"),
        ({"rounds": 0}, "a Swiss needs rounds, 1 to 20, not '0'"),
        ({"kind": "arena", "minutes": 0}, "an arena needs minutes, 1 to 1440, not '0'"),
        (
            {"bots": ["grandmaster"]},
            "unknown player 'grandmaster'; the computer players are: beginner, novice, casual, club, expert, "
            "master, random, greedy, heuristic, search",
        ),
        ({"bots": ["bot:mine.py"]}, "'bot:mine.py' names a bot program, and this server runs none (see --allow-bots)"),
        (
            {"bots": "casual"},
            "bots must be a list of at most 16 computer players: levels (beginner, novice, casual, club, expert, "
            "master) or the server's bot programs (bot:FILE)",
        ),
        ({"partnerships": True, "players": 4}, "tournaments seat players one by one: partnerships are not offered"),
        (
            {"colour": "red"},
            "unknown field 'colour': a tournament takes bots, kind, minutes, partnerships, players, preset, rated, rounds, starts",
        ),
    ]
    for body, message in cases:
        r = ann.post("/api/tournaments", body)
        assert (r.status_code, r.json()["error"]) == (400, message)
    assert client.post("/api/tournaments", json={}, headers={"origin": ORIGIN}).status_code == 401
    assert client.get("/api/tournaments/0123456789abcdef").json()["code"] == "no_tournament"
    few = ann.post("/api/tournaments", {"bots": ["casual"]}).json()["id"]
    refused = ann.post(f"/api/tournaments/{few}/start")
    assert refused.status_code == 409
    assert refused.json()["error"] == "a table seats 2: the tournament needs at least 2 entrants, it has 1"


def test_an_arena_of_computer_players_and_a_person(client: TestClient) -> None:
    """An arena pairs the free entrants again as each table ends, each table on a deal none of its
    entrants has played, until its time is up; then it ends when its last table does."""
    ann = Person(client, "ann_a")
    tid = ann.post("/api/tournaments", {"kind": "arena", "minutes": 1, "bots": ["casual", "novice", "club"]}).json()[
        "id"
    ]
    assert ann.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 200
    deadline = time.monotonic() + 120
    while len((view := ann.get(f"/api/tournaments/{tid}").json())["pairings"]) < 6:
        assert time.monotonic() < deadline, "the arena did not pair again"
        if not ann.step(tid):
            time.sleep(0.02)
    for t in view["pairings"]:
        assert t["deal"] == view["deals"][t["round"] - 1]["commitment"]
    by_entrant: dict[str, list[int]] = {}
    for t in view["pairings"]:
        for name in t["seats"]:
            by_entrant.setdefault(name, []).append(t["round"])
    assert all(len(rounds) == len(set(rounds)) for rounds in by_entrant.values())  # never the same deal twice
    SHIFT[0] = 120.0  # the arena's time is up: no new table; it ends when its last one does
    while (view := ann.get(f"/api/tournaments/{tid}").json())["status"] != "over":
        assert time.monotonic() < deadline + 60, "the arena did not end"
        if not ann.step(tid):
            time.sleep(0.02)
    assert all(t["scores"] is not None for t in view["pairings"])


def test_two_processes_share_a_tournament_and_a_restart_loses_nothing() -> None:
    """Ann enters through one process and Bob through another, with two computer entrants; both
    processes show the same pairings and standings; the first is killed in the middle of round 2
    and started again, and the tournament ends with every table's result, no meeting repeated."""
    from web_support import Server, postgres_url

    database = postgres_url()
    first, second = Server(database), Server(database)
    try:
        people: dict[str, tuple[dict[str, str], Server]] = {}
        for name, server in (("Ann_p", first), ("Bob_p", second)):
            r = httpx.post(f"{server.url}/api/accounts", json={"name": name, "password": PASSWORD}, timeout=30)
            assert r.status_code == 201, r.text
            session = r.cookies[COOKIE]
            headers = {"origin": server.url, "x-csrf-token": csrf_of(session), "cookie": f"{COOKIE}={session}"}
            people[name] = (headers, server)

        def call(name: str, method: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
            headers, server = people[name]
            return httpx.request(method, server.url + path, json=body, headers=headers, timeout=30)

        tid = call("Ann_p", "POST", "/api/tournaments", {"rounds": 3, "bots": ["casual", "novice"]}).json()["id"]
        for name in people:
            assert call(name, "POST", f"/api/tournaments/{tid}/join").status_code == 200
        assert call("Ann_p", "POST", f"/api/tournaments/{tid}/start").status_code == 200

        def both_agree() -> dict[str, Any]:
            """The view of both processes, once they say the same."""
            deadline = time.monotonic() + 30
            while True:
                views = [call(n, "GET", f"/api/tournaments/{tid}").json() for n in people]
                keep = ("status", "round", "standings", "pairings", "deals")
                if {k: views[0][k] for k in keep} == {k: views[1][k] for k in keep}:
                    return views[0]
                assert time.monotonic() < deadline, "the processes disagree"
                time.sleep(0.1)

        killed = False
        deadline = time.monotonic() + 240
        while (view := both_agree())["status"] != "over":
            assert time.monotonic() < deadline, f"the tournament did not end: round {view['round']}"
            if view["round"] == 2 and not killed:
                first.kill()
                first = Server(database, port=first.port)  # the same address, a new process
                people["Ann_p"] = (people["Ann_p"][0], first)
                killed = True
            moved = False
            for name in people:
                for table in call(name, "GET", f"/api/tournaments/{tid}").json().get("mine", []):
                    headers = {**people[name][0], "x-cassino-token": table["token"]}
                    server = people[name][1]
                    state = httpx.get(f"{server.url}/api/games/{table['game']}", headers=headers, timeout=10).json()
                    if state["phase"] == "play" and state["to_move"] == table["seat"] and state["legal"]:
                        body = {"move": state["legal"][0]["move"], "version": state["version"]}
                        r = httpx.post(
                            f"{server.url}/api/games/{table['game']}/moves", json=body, headers=headers, timeout=10
                        )
                        assert r.status_code in (200, 409), r.text
                        moved = True
            if not moved:
                time.sleep(0.05)
        assert killed
        pairings = view["pairings"]
        assert [t["round"] for t in pairings] == [1, 1, 2, 2, 3, 3]
        assert all(t["scores"] is not None for t in pairings)
        assert len({frozenset(t["seats"]) for t in pairings}) == 6  # four entrants, three rounds: all pairs once
        assert [d["number"] for d in view["deals"]] == [1, 2, 3] and all("seed" in d for d in view["deals"])
    finally:
        first.stop()
        second.stop()


def test_a_rated_tournament_rates_the_tables_between_people(client: TestClient) -> None:
    """Two people in a rated Swiss of one round: their table counts in the preset's pool as a rated
    game does (the side with more points in the hand wins, equal points draw)."""
    ann, bob = Person(client, "ann_r"), Person(client, "bob_r")
    tid = ann.post("/api/tournaments", {"preset": "royal", "rounds": 1, "rated": True}).json()["id"]
    for p in (ann, bob):
        assert p.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 200
    deadline = time.monotonic() + 60
    while (view := ann.get(f"/api/tournaments/{tid}").json())["status"] != "over":
        assert time.monotonic() < deadline
        if not any([ann.step(tid), bob.step(tid)]):
            time.sleep(0.02)
    (table,) = view["pairings"]
    ratings = {p.name: p.get("/api/me").json()["ratings"]["royal-2"] for p in (ann, bob)}
    assert all(r["games"] == 1 and r["provisional"] for r in ratings.values())
    first, second = table["seats"]
    if table["winner"] == -1:
        assert ratings[first]["rating"] == ratings[second]["rating"] == 1500
    else:
        won, lost = (first, second) if table["winner"] == 0 else (second, first)
        assert ratings[won]["rating"] > 1500 > ratings[lost]["rating"]


def test_a_tournament_starts_at_its_set_time_or_is_cancelled_without_entrants(client: TestClient) -> None:
    ann, bob = Person(client, "ann_s"), Person(client, "bob_s")
    soon = time.time() + 60
    bad = ann.post("/api/tournaments", {"starts": time.time() - 5})
    assert bad.status_code == 400 and bad.json()["code"] == "starts"
    full = ann.post("/api/tournaments", {"rounds": 1, "starts": soon, "bots": ["casual"]}).json()["id"]
    empty = ann.post("/api/tournaments", {"rounds": 1, "starts": soon}).json()["id"]
    assert bob.post(f"/api/tournaments/{full}/join").status_code == 200
    assert ann.get(f"/api/tournaments/{full}").json()["status"] == "open"
    SHIFT[0] = 61.0  # its time has come: the next look starts it, with no organiser's press
    assert ann.get(f"/api/tournaments/{full}").json()["status"] == "running"
    assert ann.get(f"/api/tournaments/{empty}").json()["status"] == "cancelled"
    listed = {t["id"]: t["status"] for t in client.get("/api/tournaments").json()["tournaments"]}
    assert listed == {full: "running", empty: "cancelled"}


def test_a_bot_program_plays_in_a_tournament(tmp_path: Path) -> None:
    """On a server that runs bot programs (``--allow-bots``), an organiser enters one like a level;
    it plays its tables in its own process, as at any table."""
    import shutil

    from cassino.web.programs import Programs

    folder = tmp_path / "bots"
    folder.mkdir()
    shutil.copy2(Path(__file__).parent.parent / "examples" / "bots" / "captures.py", folder / "captures.py")
    app = create_app(
        database=f"sqlite:///{tmp_path / 'web.sqlite3'}",
        bot_delay=0,
        rate_limits=False,
        passwords=Passwords(QUICK),
        programs=Programs(folder, seconds=3.0, memory=256),
    )
    with TestClient(app) as client:
        ann = Person(client, "ann_p")
        made = ann.post("/api/tournaments", {"rounds": 1, "bots": ["bot:captures.py", "casual"]})
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        assert ann.post(f"/api/tournaments/{tid}/start").status_code == 200
        deadline = time.monotonic() + 120
        while (view := ann.get(f"/api/tournaments/{tid}").json())["status"] != "over":
            assert time.monotonic() < deadline, "the programs' tournament did not end"
            time.sleep(0.1)
        (table,) = view["pairings"]
        assert sorted(table["seats"]) == ["bot:captures.py (computer)", "casual (computer)"]
        assert table["scores"] is not None and sum(table["scores"]) >= 8  # a whole hand counted
