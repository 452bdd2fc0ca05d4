"""The daily deal over the API (``cassino.club.daily`` over ``cassino.web.daily``): two accounts
play the same deal and get the same first hand and table; the same moves get the same answers
from the computer player; the leaderboard ranks the scores each game's hand gives; a second
attempt is 409; the deal, the games' decks and their records stay sealed until the day is over,
then the reveal's seed hashes to the published commitment and gives the deck everyone played
(``cassino verify`` checks it); two server processes on one PostgreSQL, one of them a day ahead
(``--clock-offset``), see the same deals. On SQLite and on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import hashlib
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
from sqlalchemy import select

from account_support import ORIGIN, PASSWORD, QUICK, each_database
from cassino.club import daily as rules
from cassino.club.accounts import Passwords
from cassino.players import make_player
from cassino.players.base import choose_code
from cassino.rules import make_rules
from cassino.state import State
from cassino.view import view_of
from cassino.web import create_app
from cassino.web.accounts import COOKIE, csrf_of
from cassino.web.fair import deck_text, derive_deck, parse_deck
from cassino.web.schema import daily_master_table
from web_support import Server, postgres_url

NOON = dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC).timestamp()
"""A Saturday: classic and royal for two."""
DEAL = "2026-12-05-classic-2"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return each_database(request.param, tmp_path)


@pytest.fixture
def now() -> list[float]:
    return [NOON]


@pytest.fixture
def client(url: str, now: list[float]) -> Iterator[TestClient]:
    app = create_app(database=url, bot_delay=0, rate_limits=False, passwords=Passwords(QUICK), clock=lambda: now[0])
    with TestClient(app) as c:
        yield c


class Player:
    """A browser: signed up as ``name`` (None: a guest), its writes carrying its CSRF token. Its
    requests go through the app's one running client (whose loop runs the computer players), with
    this browser's own cookie, none kept in the client's jar."""

    def __init__(self, client: TestClient, name: str | None) -> None:
        self.http = client
        self.headers = {"origin": ORIGIN}
        if name is not None:
            r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert r.status_code == 201, r.text
            session = r.cookies[COOKIE]
            client.cookies.clear()
            self.headers.update({"x-csrf-token": csrf_of(session), "cookie": f"{COOKIE}={session}"})
        self.game = ""
        self.token = ""

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path, headers=self.headers)

    def start(self, deal: str = DEAL) -> httpx.Response:
        r = self.http.post(f"/api/daily/{deal}/play", headers=self.headers)
        if r.status_code == 201:
            self.game, self.token = r.json()["game"], r.json()["token"]
        return r

    def state(self) -> dict[str, Any]:
        r = self.http.get(f"/api/games/{self.game}", headers={**self.headers, "x-cassino-token": self.token})
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def play_out(self, choose: Any) -> dict[str, Any]:
        """Play the person's moves (``choose(state)`` names each) until the hand is over."""
        deadline = time.monotonic() + 30
        while True:
            s = self.state()
            if s["status"] == "over":
                return s
            assert time.monotonic() < deadline, f"the hand did not end: {s}"
            if s["phase"] == "play" and s["to_move"] == rules.SEAT and s["legal"]:
                body = {"move": choose(s), "version": s["version"]}
                headers = {**self.headers, "x-cassino-token": self.token}
                r = self.http.post(f"/api/games/{self.game}/moves", json=body, headers=headers)
                assert r.status_code == 200, r.text
            else:
                time.sleep(0.02)


def moves_of(client: TestClient, game: str) -> list[tuple[int, str]]:
    stored = client.app.state.service.store.load_game(game)  # type: ignore[attr-defined]
    return [(m.seat, m.move) for m in stored.moves]


def first_deck(client: TestClient, game: str) -> str:
    return str(client.app.state.service.store.load_game(game).hands[0].deck)  # type: ignore[attr-defined]


def test_the_same_deal_for_everyone_ranked_and_revealed_the_next_day(
    client: TestClient, now: list[float], tmp_path: Path
) -> None:
    today = client.get("/api/daily").json()
    assert today["date"] == "2026-12-05"
    assert [(d["id"], d["preset"], d["players"], d["partnerships"], d["opponent"]) for d in today["deals"]] == [
        (DEAL, "classic", 2, False, "master"),
        ("2026-12-05-royal-2", "royal", 2, False, "master"),
    ]
    commitment = today["deals"][0]["commitment"]
    assert len(commitment) == 64 and "seed" not in json.dumps(today)
    assert client.get("/api/daily").json() == today  # committed once: the same on every asking

    ann, bob, cyd, guest = (Player(client, n) for n in ("ann_d", "bob_d", "cyd_d", None))
    for p in (ann, bob, cyd, guest):
        r = p.start()
        assert r.status_code == 201, r.text
        assert (r.json()["seat"], r.json()["commitment"]) == (rules.SEAT, commitment)
    first = [p.state() for p in (ann, bob)]
    assert first[0]["hand"] == first[1]["hand"] and first[0]["table"] == first[1]["table"]
    assert first_deck(client, ann.game) == first_deck(client, bob.game) == first_deck(client, guest.game)

    # ann plays the first legal move each time; cyd the same moves: master answers the same
    ann_over = ann.play_out(lambda s: s["legal"][0]["move"])
    played = [m for seat, m in moves_of(client, ann.game) if seat == rules.SEAT]
    cyd.play_out(lambda s: played[sum(1 for seat, _ in moves_of(client, cyd.game) if seat == rules.SEAT)])
    assert moves_of(client, cyd.game) == moves_of(client, ann.game)
    bob_over = bob.play_out(lambda s: s["legal"][-1]["move"])
    guest_over = guest.play_out(lambda s: s["legal"][len(s["legal"]) // 2]["move"])

    def score_of(state: dict[str, Any]) -> int:
        return int(state["scores"][0] - state["scores"][1])  # one hand: the game's points are the hand's

    scores = {"ann_d": score_of(ann_over), "cyd_d": score_of(ann_over), "bob_d": score_of(bob_over)}
    scores[""] = score_of(guest_over)
    board = ann.get(f"/api/daily/{DEAL}/leaderboard").json()
    entries = [(e["name"] or "", e["score"], e["rank"]) for e in board["entries"]]
    assert sorted((n, s) for n, s, _ in entries) == sorted(scores.items())
    assert [s for _, s, _ in entries] == sorted(scores.values(), reverse=True)
    for i, (_, s, rank) in enumerate(entries):  # equal scores share the first one's rank
        assert rank == next(j for j, (_, t, _) in enumerate(entries) if t == s) + 1 and i + 1 >= rank
    others = [s for n, s in scores.items() if n != "ann_d"]
    assert board["you"]["score"] == scores["ann_d"]
    assert board["you"]["percentile"] == round(100 * sum(1 for s in others if s < scores["ann_d"]) / 3, 1)
    assert "best" not in board and board["over"] is False

    again = ann.start()
    assert again.status_code == 409 and again.json()["code"] == "played"
    assert ann.start("2026-12-04-classic-2").status_code == 404  # never made: nobody asked that day
    sealed = client.get(f"/api/daily/{DEAL}/reveal")
    assert sealed.status_code == 403 and sealed.json()["code"] == "sealed"
    assert client.get(f"/api/games/{ann.game}/record").status_code == 403  # over, but the deck is sealed
    assert client.get(f"/api/games/{ann.game}/hands/1").status_code == 403
    assert ann.get("/api/daily").json()["deals"][0]["played"] == {"game": ann.game, "score": scores["ann_d"]}

    now[0] += 12 * 3600  # the next day
    revealed = client.get(f"/api/daily/{DEAL}/reveal").json()
    assert hashlib.sha256(revealed["seed"].encode()).hexdigest() == commitment
    assert revealed["deck"] == deck_text(derive_deck(DEAL, 1, revealed["seed"], {})) == first_deck(client, ann.game)
    late = Player(client, "late_d").start()
    assert late.status_code == 409 and late.json()["code"] == "not_today"
    board = client.get(f"/api/daily/{DEAL}/leaderboard").json()
    assert board["over"] is True and board["best"]["score"] == max(scores.values())
    tomorrow = ann.get("/api/daily").json()
    assert tomorrow["date"] == "2026-12-06" and tomorrow["streak"] == 1
    assert [d["id"] for d in tomorrow["deals"]] == ["2026-12-06-classic-2", "2026-12-06-classic-4p"]

    # anyone checks the reveal and an attempt's record with cassino verify
    for name, body in (("reveal", revealed), ("record", client.get(f"/api/games/{ann.game}/record").json())):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(body))
        out = subprocess.run([sys.executable, "-m", "cassino.cli", "verify", str(path)], capture_output=True, text=True)
        assert out.returncode == 0, out.stdout + out.stderr
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps({**revealed, "deck": " ".join(reversed(revealed["deck"].split()))}))
    out = subprocess.run([sys.executable, "-m", "cassino.cli", "verify", str(tampered)], capture_output=True, text=True)
    assert out.returncode == 1
    assert out.stdout.strip() == (
        f"daily deal {DEAL}: not verified: the deck is not the one the seed and the contributions give"
    )


def master_from_seat_0(preset: str, players: int, seed: str, deck: str) -> int:
    """How master scores from the person's seat, worked out here from the engine alone: the hand
    of ``deck`` with master at every seat, each move made by a player made afresh from its seat's
    seed and the ply (SHA-256 of "SEED/PLY"), the person's seat seeded from "DEAL_SEED/master/0"."""

    def digest(text: str) -> int:
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")

    game_rules = make_rules(preset, players=players)
    seeds = [digest(f"{seed}/master/0") >> 1] + [digest(f"{seed}/opponent/{s}") >> 1 for s in range(1, players)]
    state = State.new_hand(game_rules, parse_deck(deck), 0, (0,) * game_rules.sides)
    ply = 0
    while not state.hand_over:
        seat = state.to_move
        state.play(choose_code(make_player("master", digest(f"{seeds[seat]}/{ply}")), view_of(state, seat)))
        ply += 1
    assert state.result is not None
    points = state.result.points
    return points[0] - max(points[1:])


def test_master_from_your_seat_the_guests_own_rank_and_the_profile(client: TestClient, now: list[float]) -> None:
    """Once one's own attempt is over, the leaderboard says how master scored from that seat on the
    same deck (worked out once, kept); a guest names its attempt by its game and token; nobody else
    sees the number that day, everyone the next. The profile lists each daily result with its rank
    and the streak; another's attempt's game only once its day is over."""
    ann, guest, sam = Player(client, "ann_m"), Player(client, None), Player(client, "sam_m")
    board_path = f"/api/daily/{DEAL}/leaderboard"
    assert client.get("/api/daily").status_code == 200  # the day's deals are made when first asked for
    assert ann.start().status_code == 201 and guest.start().status_code == 201
    assert "master" not in ann.get(board_path).json()  # the attempt is not over yet
    ann_over = ann.play_out(lambda s: s["legal"][0]["move"])
    ann_score = ann_over["scores"][0] - ann_over["scores"][1]
    board = ann.get(board_path).json()
    master = board["master"]
    assert isinstance(master, int) and board["you"] == {"score": ann_score, "rank": 1, "percentile": 100.0}
    assert board["entries"] == [{"name": "ann_m", "score": ann_score, "rank": 1, "you": True}]
    kept = select(daily_master_table.c.deal_id, daily_master_table.c.score)
    with client.app.state.service.store.engine.connect() as conn:  # type: ignore[attr-defined]
        assert [tuple(r) for r in conn.execute(kept)] == [(DEAL, master)]
    assert ann.get(board_path).json()["master"] == master  # kept: the same number again
    for stranger in (sam, Player(client, None)):
        seen = stranger.get(board_path).json()
        assert "master" not in seen and "you" not in seen and "you" not in seen["entries"][0]

    # a guest: its game and token name its attempt; a wrong token is refused
    guest_headers = {**guest.headers, "x-cassino-token": guest.token}
    named = f"{board_path}?game={guest.game}"
    assert "you" not in client.get(named, headers=guest_headers).json()  # still playing: no rank yet
    guest_over = guest.play_out(lambda s: s["legal"][-1]["move"])
    guest_score = guest_over["scores"][0] - guest_over["scores"][1]
    mine = client.get(named, headers=guest_headers).json()
    assert mine["you"]["score"] == guest_score and mine["master"] == master
    assert [e.get("you", False) for e in mine["entries"]] == [e["name"] is None for e in mine["entries"]]
    wrong = client.get(named, headers={**guest.headers, "x-cassino-token": "0" * 32})
    assert wrong.status_code == 403
    assert "you" not in client.get(f"{board_path}?game={ann.game}", headers=guest_headers).json()  # not its seat

    # the profile: each result with its rank among the attempts, and the streak
    ranks = {e["score"]: e["rank"] for e in mine["entries"]}
    expected = {"deal": DEAL, "score": ann_score, "rank": ranks[ann_score], "count": 2}
    profile = ann.get("/api/users/ann_m").json()
    assert profile["daily"] == [{**expected, "game": ann.game}] and profile["streak"] == 1
    [game] = profile["games"]  # the attempt among the finished games: a hand of a daily deal, sealed today
    assert (game["game"], game["result"], game["daily"], game["sealed"]) == (ann.game, "draw", DEAL, True)
    assert sam.get("/api/users/ann_m").json()["daily"] == [{**expected, "game": None}]  # sealed today
    assert sam.get("/api/users/sam_m").json()["daily"] == [] and sam.get("/api/users/sam_m").json()["streak"] == 0

    # the next day: anyone sees master's score, which the revealed deck and seed give
    now[0] += 86400
    revealed = client.get(f"/api/daily/{DEAL}/reveal").json()
    worked_out = master_from_seat_0("classic", 2, revealed["seed"], revealed["deck"])
    assert master == worked_out
    assert sam.get(board_path).json()["master"] == worked_out
    assert sam.get("/api/users/ann_m").json()["daily"] == [{**expected, "game": ann.game}]
    assert ann.get("/api/users/ann_m").json()["games"][0]["sealed"] is False  # its record is public now
    assert ann.get("/api/users/ann_m").json()["streak"] == 1  # played yesterday, not yet today
    sunday = ann.get("/api/daily").json()["deals"][0]["id"]
    assert sunday == "2026-12-06-classic-2" and ann.start(sunday).status_code == 201
    ann.play_out(lambda s: s["legal"][0]["move"])
    profile = ann.get("/api/users/ann_m").json()
    assert [d["deal"] for d in profile["daily"]] == [sunday, DEAL] and profile["streak"] == 2


def test_unknown_deals_and_a_four_player_day(client: TestClient, now: list[float]) -> None:
    assert client.get("/api/daily/nonsense/leaderboard").json()["code"] == "no_deal"
    assert client.get("/api/daily/2026-12-05-spade-2/reveal").status_code == 404  # no such deal that day
    long = client.post("/api/daily/" + "x" * 40 + "/play", headers={"origin": ORIGIN})
    assert long.status_code == 404 and long.json()["error"] == f"no daily deal {'x' * 40!r} here"
    now[0] += 86400  # a Sunday: four players in partnerships, three of them master
    deal = client.get("/api/daily").json()["deals"][1]
    assert (deal["id"], deal["players"], deal["partnerships"]) == ("2026-12-06-classic-4p", 4, True)
    guest = Player(client, None)
    assert guest.start(deal["id"]).status_code == 201
    seats = guest.state()["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot", "bot"]
    assert seats[0]["name"] == "Guest"


def test_the_day_and_the_seeds_are_the_same_in_two_processes() -> None:
    """One process runs a day ahead (``--clock-offset 86400``): it reveals what the other still
    seals, and both list the same commitment for the deal they share."""
    database = postgres_url()
    today, ahead = Server(database), Server(database, extra=("--clock-offset", "86400"))
    try:
        deals = httpx.get(f"{today.url}/api/daily", timeout=10).json()
        tomorrow = httpx.get(f"{ahead.url}/api/daily", timeout=10).json()
        assert dt.date.fromisoformat(tomorrow["date"]) - dt.date.fromisoformat(deals["date"]) == dt.timedelta(days=1)
        first = deals["deals"][0]
        assert httpx.get(f"{today.url}/api/daily/{first['id']}/reveal", timeout=10).status_code == 403
        shown = httpx.get(f"{ahead.url}/api/daily/{first['id']}/reveal", timeout=10)
        assert shown.status_code == 200, shown.text
        assert hashlib.sha256(shown.json()["seed"].encode()).hexdigest() == first["commitment"]
        coming = tomorrow["deals"][0]
        assert httpx.get(f"{ahead.url}/api/daily/{coming['id']}/reveal", timeout=10).status_code == 403
    finally:
        today.stop()
        ahead.stop()


def test_a_guests_attempt_becomes_the_account_it_signs_up(client: TestClient) -> None:
    """A guest plays, then signs up bringing the seat its browser holds: the attempt is the new
    account's one attempt at the deal (a second is 409) and is listed under its name; an account
    that had played the deal itself keeps its own, and the guest's stays a guest's."""
    client.get("/api/daily")  # the day's deals are made when first asked for
    guest = Player(client, None)
    assert guest.start().status_code == 201
    r = client.post(
        "/api/accounts",
        json={"name": "was_guest", "password": PASSWORD, "seats": [{"game": guest.game, "token": guest.token}]},
    )
    assert r.status_code == 201 and r.json()["claimed"] == [{"game": guest.game, "seat": rules.SEAT}]
    session = r.cookies[COOKIE]
    client.cookies.clear()
    headers = {"origin": ORIGIN, "x-csrf-token": csrf_of(session), "cookie": f"{COOKIE}={session}"}
    played = client.get("/api/daily", headers=headers).json()["deals"][0]["played"]
    assert played == {"game": guest.game, "score": None}
    again = client.post(f"/api/daily/{DEAL}/play", headers=headers)
    assert again.status_code == 409 and again.json()["code"] == "played"

    other = Player(client, None)
    assert other.start().status_code == 201
    r = client.post(
        "/api/session",
        json={"name": "was_guest", "password": PASSWORD, "seats": [{"game": other.game, "token": other.token}]},
    )
    assert r.status_code == 200
    played = client.get("/api/daily", headers=headers).json()["deals"][0]["played"]
    assert played["game"] == guest.game  # its own attempt stays the one that counts
    client.cookies.clear()
