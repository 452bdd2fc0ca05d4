"""No payload to a seat holds a card hidden from it: whole games through the API and WebSocket,
every message to every seat and spectator checked against the hidden cards at its version."""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("babel")

from fastapi.testclient import TestClient

from cassino.web import create_app
from web_support import assert_no_leak, cards_in_text, claim_seats, hidden_by_version

CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "options": {"target": 11}, "bots": {}},
    {"players": 3, "preset": "royal", "options": {"target": 7}, "bots": {1: "greedy"}},
    {"players": 4, "partnerships": True, "preset": "spade", "options": {"target": 25}, "bots": {1: "random", 3: "heuristic"}},
    {"players": 2, "preset": "draw", "options": {"target": 11}, "bots": {0: "greedy"}},
]  # fmt: skip


@pytest.mark.parametrize("config", CONFIGS, ids=["classic-2", "royal-3", "spade-4-partners", "draw-2"])
def test_no_payload_holds_a_hidden_card(tmp_path: Path, config: dict[str, Any]) -> None:
    rng = random.Random(11)
    players = config["players"]
    bots = config["bots"]
    seats = [{"kind": "bot", "bot": bots[s]} if s in bots else {"kind": "human"} for s in range(players)]
    body = {k: v for k, v in config.items() if k != "bots"} | {"seats": seats, "help": True}  # hints asked below
    sent: list[tuple[int | None, str]] = []  # (seat, raw payload) for every message received
    app = create_app(database=f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0, rate_limits=False)
    with TestClient(app) as client:
        r = client.post("/api/games", json=body)
        assert r.status_code == 201 and cards_in_text(r.text) == set()  # tokens and invitations name no card
        made = r.json()
        game = made["game"]
        tokens = claim_seats(client, made)
        opened = contextlib.ExitStack()  # closed on a failure too: an open socket would hold the client's exit
        client_sockets = [(seat, f"/api/games/{game}/ws?token={t}") for seat, t in tokens.items()]
        sockets_list: list[tuple[int | None, Any]] = [
            (seat, opened.enter_context(client.websocket_connect(url)))
            for seat, url in [*client_sockets, (None, f"/api/games/{game}/ws")]
        ]
        moves = 0
        while True:
            r = client.get(f"/api/games/{game}")
            sent.append((None, r.text))
            public = r.json()
            if public["status"] == "over":
                break
            if public["phase"] == "count":
                for presser, token in tokens.items():
                    r = client.post(f"/api/games/{game}/next", headers={"x-cassino-token": token})
                    assert r.status_code == 200, r.text
                    sent.append((presser, r.text))
                continue
            hand = public["hand_number"]
            assert client.get(f"/api/games/{game}/hands/{hand}").status_code == 403
            if hand > 1:
                assert client.get(f"/api/games/{game}/hands/{hand - 1}").status_code == 200
            seat = public["to_move"]
            if seat not in tokens:
                time.sleep(0.002)  # a computer player is thinking
                continue
            headers = {"x-cassino-token": tokens[seat]}
            r = client.get(f"/api/games/{game}", headers=headers)
            sent.append((seat, r.text))
            mine = r.json()
            if mine["version"] != public["version"] or mine["to_move"] != seat:
                continue
            if moves % 7 == 0:
                hint = client.get(f"/api/games/{game}/hint", headers=headers).json()["move"]
                assert cards_in_text(hint) <= set(mine["hand"]) | set(mine["table"]["loose"]) | {
                    c for b in mine["table"]["builds"] for c in b["cards"]
                }
            move = rng.choice(mine["legal"])["move"]
            r = client.post(f"/api/games/{game}/moves", json={"move": move}, headers=headers)
            assert r.status_code == 200, r.text
            sent.append((seat, r.text))
            moves += 1
        final = public["version"]
        for seat, ws in sockets_list:
            while True:
                raw = ws.receive_text()
                sent.append((seat, raw))
                if json.loads(raw).get("version") == final:
                    break
        opened.close()
        record = client.get(f"/api/games/{game}/record").json()
    hidden = hidden_by_version(record["hands"], public["rules"])
    assert len(hidden) == final + 1 and moves > 20
    checked = 0
    for seat, raw in sent:
        payload = json.loads(raw)
        assert payload["type"] == "state"
        index = seat if seat is not None else -1
        # A finished hand's count names its cards: every one of them was played face up by its end,
        # so that part is public once its hand is over; everything else is checked against the
        # cards hidden in the hand being played.
        finished = payload.pop("finished")
        assert all(h["hand"] < payload["hand_number"] or payload["status"] == "over" for h in finished)
        assert_no_leak(json.dumps(payload), hidden[payload["version"]][index], seat)
        if seat is not None:
            assert len(payload["hand"]) == payload["hand_sizes"][seat]
        checked += 1
    # Every version reached every watcher, and the check is not vacuous: hands were hidden.
    assert checked > final * len(sockets_list)
    assert all(len(h[-1]) > 0 for h in hidden[:-1])


def test_the_leak_check_catches_a_leak() -> None:
    hidden = {"Td", "2s"}
    with pytest.raises(AssertionError, match="hidden cards"):
        assert_no_leak(json.dumps({"hand": ["Td"]}), hidden, 0)
    with pytest.raises(AssertionError, match="hidden cards"):
        assert_no_leak(json.dumps({"note": "stock: 2s 3c"}), hidden, 0)
    assert_no_leak(json.dumps({"commitment": "2d2s3c", "hand": ["Tc"]}), hidden, 0)


def test_the_daily_deal_and_a_tournament_leak_no_card_nor_seed(tmp_path: Path) -> None:
    """A daily attempt and a tournament's tables, played through the API with a socket open: no
    payload to the person holds a card hidden from their seat at its version; the daily deal's and
    the tournament's own answers name no card at all, and no seed, until their reveal."""
    import datetime as dt

    from account_support import ORIGIN, PASSWORD, QUICK
    from cassino.club.accounts import Passwords
    from cassino.web.accounts import COOKIE, csrf_of

    now = [dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC).timestamp()]
    app = create_app(
        database=f"sqlite:///{tmp_path / 'web.sqlite3'}",
        bot_delay=0,
        rate_limits=False,
        passwords=Passwords(QUICK),
        clock=lambda: now[0],
    )
    rng = random.Random(5)
    with TestClient(app) as client:
        r = client.post("/api/accounts", json={"name": "leak_ann", "password": PASSWORD})
        session = r.cookies[COOKIE]
        client.cookies.clear()
        me = {"origin": ORIGIN, "x-csrf-token": csrf_of(session), "cookie": f"{COOKIE}={session}"}
        overview: list[str] = []  # the daily deal's and the tournament's own answers
        games: list[tuple[str, str]] = []
        daily = client.get("/api/daily", headers=me)
        overview.append(daily.text)
        deal = daily.json()["deals"][0]["id"]
        started = client.post(f"/api/daily/{deal}/play", headers=me)
        overview.append(started.text)
        games.append((started.json()["game"], started.json()["token"]))
        made = client.post("/api/tournaments", json={"rounds": 1, "bots": ["casual"]}, headers=me)
        tid = made.json()["id"]
        client.post(f"/api/tournaments/{tid}/join", headers=me)
        overview.append(client.post(f"/api/tournaments/{tid}/start", headers=me).text)
        mine = client.get(f"/api/tournaments/{tid}", headers=me).json()["mine"][0]
        games.append((mine["game"], mine["token"]))
        sent: dict[str, list[str]] = {}
        for game, token in games:
            seat_headers = {**me, "x-cassino-token": token}
            with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
                got = sent.setdefault(game, [])
                while True:
                    r = client.get(f"/api/games/{game}", headers=seat_headers)
                    got.append(r.text)
                    state = r.json()
                    overview.append(client.get(f"/api/daily/{deal}/leaderboard", headers=me).text)
                    view = client.get(f"/api/tournaments/{tid}", headers=me)
                    if view.json()["status"] != "over":  # once over, its seeds are shown
                        overview.append(view.text)
                    if state["status"] == "over":
                        break
                    if state["phase"] == "play" and state["to_move"] == state["you"] and state["legal"]:
                        body = {"move": rng.choice(state["legal"])["move"], "version": state["version"]}
                        moved = client.post(f"/api/games/{game}/moves", json=body, headers=seat_headers)
                        assert moved.status_code == 200, moved.text
                        got.append(moved.text)
                    else:
                        time.sleep(0.005)
                while True:
                    raw = ws.receive_text()
                    got.append(raw)
                    if json.loads(raw).get("version") == state["version"]:
                        break
        seeds = []
        for raw in overview:
            assert cards_in_text(raw) == set(), raw[:200]
        now[0] += 86400  # the day is over; the tournament is over too (one round)
        assert client.get(f"/api/tournaments/{tid}").json()["status"] == "over"
        seeds.append(client.get(f"/api/daily/{deal}/reveal").json()["seed"])
        seeds.extend(d["seed"] for d in client.get(f"/api/tournaments/{tid}").json()["deals"])
        assert all(seed not in raw for seed in seeds for raw in overview)
        for game, _ in games:
            record = client.get(f"/api/games/{game}/record").json()
            hidden = one_hand_hidden(record["hands"][0], record_rules(client, game))
            for raw in sent[game]:
                assert all(seed not in raw for seed in seeds)
                payload = json.loads(raw)
                if payload.get("type") != "state":
                    continue
                payload.pop("finished")
                assert_no_leak(json.dumps(payload), hidden[payload["version"]][payload["you"]], payload["you"])
            assert len(sent[game]) > 10 and sum(1 for h in hidden if h[0]) > len(hidden) // 2  # cards were hidden


def record_rules(client: TestClient, game: str) -> dict[str, Any]:
    """A finished game's rules as its public state gives them."""
    return client.get(f"/api/games/{game}").json()["rules"]  # type: ignore[no-any-return]


def one_hand_hidden(hand: dict[str, Any], rules_json: dict[str, Any]) -> list[list[set[str]]]:
    """``hidden_by_version`` for a game of one hand (a shared deal's): no hand is dealt after it."""
    from cassino.cards import parse_card
    from cassino.moves import parse_code
    from cassino.rules import Rules
    from cassino.table import Seat, Table
    from web_support import hidden_from

    rules = Rules.from_json(rules_json)
    seats = [Seat.person(s, f"p{s}") for s in range(rules.players)]
    table = Table(rules, seats, decks=[[parse_card(w) for w in hand["deck"].split()]], last_hand=1)
    viewers: list[int | None] = [*range(rules.players), None]
    out = [[hidden_from(table.game, s) for s in viewers]]
    for move in hand["moves"]:
        table.play(move["seat"], parse_code(move["move"]))
        out.append([hidden_from(table.game, s) for s in viewers])
    assert table.over
    return out
