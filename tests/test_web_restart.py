"""Nothing lost: a real ``cassino serve`` killed with SIGKILL mid-game and restarted on the same
database resumes every game where its last committed move left it, and the games play to the end."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")
pytest.importorskip("websockets")
pytest.importorskip("sqlalchemy")
pytest.importorskip("babel")

import httpx
from websockets.sync.client import connect

from cassino.web.fair import SCHEME
from web_support import Server, check_hand, replay


def _state(url: str, game: str, token: str | None = None) -> dict[str, Any]:
    r = httpx.get(f"{url}/api/games/{game}", headers={"x-cassino-token": token} if token else {}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _wait(predicate: Any, what: str, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def _human_move(url: str, game: str, token: str, rng: random.Random) -> None:
    """The person's next move, or their press of next during the count between hands."""
    _wait(lambda: _state(url, game)["to_move"] == 0 or _state(url, game)["phase"] != "play", "the computer player")
    mine = _state(url, game, token)
    if mine["status"] == "over":
        return
    if mine["phase"] == "count":
        assert mine["waiting_for"] == [0] and mine["legal"] == []
        r = httpx.post(f"{url}/api/games/{game}/next", headers={"x-cassino-token": token})
        assert r.status_code == 200 and r.json()["phase"] == "play", r.text
        return
    move = rng.choice(mine["legal"])["move"]
    r = httpx.post(f"{url}/api/games/{game}/moves", json={"move": move}, headers={"x-cassino-token": token})
    assert r.status_code == 200, r.text


def _check_record(url: str, game: str) -> None:
    record = httpx.get(f"{url}/api/games/{game}/record").json()
    for hand in record["hands"]:
        assert check_hand(hand["game"], hand) is None and hand["scheme"] == SCHEME
    final = _state(url, game)
    again = replay(record["hands"], final["rules"])
    assert again.over and list(again.scores) == final["scores"]


def test_sigkill_mid_game_then_restart_resumes_every_game(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    rng = random.Random(5)
    server = Server(database, bot_delay=0.01)
    try:
        url = server.url
        person = httpx.post(f"{url}/api/games", json={
            "options": {"target": 21}, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}).json()  # fmt: skip
        game, token = person["game"], person["seats"][0]["token"]
        robots = httpx.post(f"{url}/api/games", json={
            "players": 4, "partnerships": True, "options": {"target": 21},
            "seats": [{"kind": "bot", "bot": b} for b in ("greedy", "random", "greedy", "random")]}).json()["game"]  # fmt: skip
        while _state(url, game)["hand_number"] < 2 or _state(url, game)["version"] < 56:
            assert _state(url, game)["status"] == "playing", "a game to 21 points cannot end in its first hand"
            _human_move(url, game, token, rng)
        _wait(lambda: _state(url, game)["to_move"] == 0, "the computer player")
        before = _state(url, game, token)
        assert before["phase"] == "play" and before["ready"] == [] and before["next_deadline"] is None
        robots_seen = _state(url, robots)["version"]
        assert before["status"] == "playing" and robots_seen > 0
        server.kill()  # SIGKILL while the computer players of the second game are moving
    finally:
        server.stop()

    server = Server(database, bot_delay=0.01)
    try:
        url = server.url
        assert _state(url, game, token) == before
        with connect(f"ws://127.0.0.1:{server.port}/api/games/{game}/ws?token={token}") as ws:
            import json

            got = json.loads(ws.recv(timeout=10))  # a client that reconnects gets the current state
            assert got["presence"][0]["presence"] == "online" and {**got, "presence": before["presence"]} == before
        resumed = _state(url, robots)
        assert resumed["version"] >= robots_seen and resumed["rules"]["partnerships"] is True
        _wait(lambda: _state(url, robots)["status"] == "over", "the computer players to finish", limit=120)
        _check_record(url, robots)
        while _state(url, game)["status"] != "over":
            _human_move(url, game, token, rng)
        _check_record(url, game)
    finally:
        server.stop()
