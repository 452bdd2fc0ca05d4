"""Deals no server can choose, at the server: a first hand's seed committed before its game exists
(a ticket), the creator's contribution in it, every person's contribution to each next hand taken
until it is dealt, each deck the one derived from the seed and the contributions, and every refusal
exact. A contribution stored through another process while this one deals is not lost."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

from cassino.web import create_app
from cassino.web.errors import ServiceError
from cassino.web.fair import SCHEME, deck_text, derive_deck, seed_commitment
from cassino.web.payloads import state_payload
from web_support import check_hand, service_seats, two_services

MINE = "ab" * 32
THEIRS = "cd" * 32
AGAINST_GREEDY = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(database=f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0, rate_limits=False)) as c:
        yield c


def _state(client: TestClient, game: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game}", headers={"x-cassino-token": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _to_end_of_hand(client: TestClient, game: str, token: str, rng: random.Random) -> dict[str, Any]:
    while True:
        mine = _state(client, game, token)
        if mine["phase"] != "play" or mine["status"] == "over":
            return mine
        if mine["to_move"] != 0:
            continue  # the computer player moves at once
        move = rng.choice(mine["legal"])["move"]
        r = client.post(f"/api/games/{game}/moves", json={"move": move}, headers={"x-cassino-token": token})
        assert r.status_code == 200, r.text


def test_the_first_hand_is_dealt_from_a_ticket_and_the_creators_contribution(client: TestClient) -> None:
    r = client.post("/api/deals")
    assert r.status_code == 201
    ticket = r.json()
    assert ticket["hand"] == 1 and len(ticket["deal"]) == 32 and len(ticket["commitment"]) == 64
    made = client.post(
        "/api/games", json={"seats": AGAINST_GREEDY, "deal": {"id": ticket["deal"], "contribution": MINE}}
    )
    assert made.status_code == 201, made.text
    game, token = made.json()["game"], made.json()["seats"][0]["token"]
    first = _state(client, game, token)
    assert first["deals"][0]["commitment"] == ticket["commitment"]  # the seed committed before the game
    assert first["next_deal"]["hand"] == 2 and first["next_deal"]["contributed"] == []
    count = _to_end_of_hand(client, game, token, random.Random(2))
    assert count["status"] == "over" or count["phase"] == "count"
    hand = client.get(f"/api/games/{game}/hands/1").json()
    assert hand["scheme"] == SCHEME and hand["contributions"] == [{"seat": 0, "value": MINE}]
    assert seed_commitment(hand["salt"]) == ticket["commitment"]
    assert hand["deck"] == deck_text(derive_deck(game, 1, hand["salt"], {0: MINE}))
    assert check_hand(game, hand) is None
    # the ticket was used up with the game
    again = client.post(
        "/api/games", json={"seats": AGAINST_GREEDY, "deal": {"id": ticket["deal"], "contribution": MINE}}
    )
    assert again.status_code == 410
    assert again.json()["error"] == (
        f"deal {ticket['deal']} is unknown, used or more than an hour old: ask POST /api/deals for another"
    )


@pytest.mark.parametrize(
    ("deal", "status", "error"),
    [
        ("x", 400, 'deal must be {"id": ..., "contribution": ...}, the id from POST /api/deals'),
        ({"id": "nothex", "contribution": MINE}, 400, "deal.id must be the id POST /api/deals answered (32 lower-case hex digits)"),
        ({"id": "0" * 32, "contribution": MINE.upper()}, 400, "deal.contribution must be 64 lower-case hex digits (32 random bytes)"),
        ({"id": "0" * 32, "contribution": MINE, "seed": MINE}, 400, "unknown field 'seed' for deal; the fields are: id, contribution"),
        ({"id": "0" * 32, "contribution": MINE}, 410, f"deal {'0' * 32} is unknown, used or more than an hour old: ask POST /api/deals for another"),
    ],
)  # fmt: skip
def test_a_bad_deal_in_a_create_request_is_refused(client: TestClient, deal: Any, status: int, error: str) -> None:
    before = client.get("/api/games").json()
    r = client.post("/api/games", json={"seats": AGAINST_GREEDY, "deal": deal})
    assert (r.status_code, r.json()["error"]) == (status, error)
    assert client.get("/api/games").json() == before


def test_only_a_persons_seat_contributes(client: TestClient) -> None:
    ticket = client.post("/api/deals", json={}).json()["deal"]
    bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    r = client.post("/api/games", json={"seats": bots, "deal": {"id": ticket, "contribution": MINE}})
    assert r.status_code == 400
    assert r.json()["error"] == "only a person's seat contributes to a deal, and every seat here is a computer player's"
    r = client.post("/api/deals", json={"hand": 3})
    assert (r.status_code, r.json()["error"]) == (400, "a new deal takes no fields: send no body, or {}")


def test_contributions_to_the_next_hand_over_http_and_the_socket(client: TestClient) -> None:
    made = client.post("/api/games", json={"seats": AGAINST_GREEDY, "options": {"target": 200}}).json()
    game, token = made["game"], made["seats"][0]["token"]
    headers = {"x-cassino-token": token}
    committed = _state(client, game)["next_deal"]
    assert committed["hand"] == 2

    def contribute(body: Any, who: dict[str, str] = headers) -> Any:
        return client.post(f"/api/games/{game}/contribute", json=body, headers=who)

    refusals = [
        ({"hand": 2, "value": MINE}, {}, 403, "contributions to a deal need a seat token: spectators only watch"),
        ({"hand": 3, "value": MINE}, headers, 409, "contributions are taken for hand 2 now, not for hand 3"),
        ({"hand": 2.0, "value": MINE}, headers, 400, "hand must be the number of the hand to be dealt, a whole number"),
        ({"hand": 2, "value": "ab"}, headers, 400, "value must be 64 lower-case hex digits (32 random bytes)"),
    ]
    for body, who, status, error in refusals:
        r = contribute(body, who)
        assert (r.status_code, r.json()["error"]) == (status, error)
    assert _state(client, game)["next_deal"] == committed  # nothing changed
    r = contribute({"hand": 2, "value": MINE})
    assert r.status_code == 200 and r.json()["next_deal"] == {**committed, "contributed": [0]}
    assert contribute({"hand": 2, "value": MINE}).status_code == 200  # the same again: nothing new
    r = contribute({"hand": 2, "value": THEIRS})
    assert (r.status_code, r.json()["error"]) == (
        409,
        "seat 0 has already contributed to hand 2: one contribution a hand",
    )
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        ws.receive_json()
        ws.send_json({"type": "contribute", "hand": 2, "value": THEIRS})
        refused = ws.receive_json()
        assert refused["error"] == "seat 0 has already contributed to hand 2: one contribution a hand"
        assert (refused["type"], refused["status"], refused["request"]) == ("error", 409, "contribute")
    count = _to_end_of_hand(client, game, token, random.Random(5))
    assert count["phase"] == "count" and count["next_deal"]["hand"] == 3
    assert count["deals"][1]["commitment"] == committed["commitment"]
    r = contribute({"hand": 2, "value": THEIRS})
    assert (r.status_code, r.json()["error"]) == (409, "contributions are taken for hand 3 now, not for hand 2")
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        ws.receive_json()
        ws.send_json({"type": "contribute", "hand": 3, "value": THEIRS})
        assert ws.receive_json()["next_deal"]["contributed"] == [0]
    for number in (2, 3):  # play hands 2 and 3, so that both are revealed
        pressed = client.post(f"/api/games/{game}/next", headers=headers)
        assert pressed.status_code == 200 and pressed.json()["phase"] == "play", pressed.text
        assert _to_end_of_hand(client, game, token, random.Random(number))["hand_number"] == number + 1
    for number, value in ((2, MINE), (3, THEIRS)):
        hand = client.get(f"/api/games/{game}/hands/{number}").json()
        assert hand["contributions"] == [{"seat": 0, "value": value}]
        assert hand["deck"] == deck_text(derive_deck(game, number, hand["salt"], {0: value}))
        assert check_hand(game, hand) is None


def test_a_contribution_through_another_process_while_this_one_deals_is_used() -> None:
    async def scenario() -> None:
        with two_services() as (a, b):  # not listening: a is not told
            live, creator, invites = a.create({"seats": [{"kind": "human"}, {"kind": "human"}]})
            tokens = service_seats(a, live, creator, invites)
            rng = random.Random(4)
            state = live.game.state
            while sum(h.bit_count() for h in state.hands) + len(state.remaining_stock) > 1:  # to the hand's last move
                seat = state.to_move
                a.play(live.id, tokens[seat], rng.choice(state_payload(live, seat)["legal"])["move"])
            b.contribute(live.id, tokens[1], 2, THEIRS)  # stored by b; a's copy has not heard of it
            assert live.dealer is not None and live.dealer.next is not None and live.dealer.next.contributions == {}
            seat = state.to_move
            a.play(live.id, tokens[seat], state_payload(live, seat)["legal"][0]["move"])
            assert live.hand_number == 2 and live.contributions[2] == {1: THEIRS}  # dealt again, with it
            stored = a.store.load_game(live.id)
            assert stored is not None
            assert stored.hands[1].deck == deck_text(derive_deck(live.id, 2, stored.seeds[2], {1: THEIRS}))
            assert len(stored.moves) == live.ply

    asyncio.run(scenario())


def test_a_seat_cannot_contribute_twice_through_two_processes() -> None:
    with two_services() as (a, b):
        live, creator, _ = a.create({"seats": AGAINST_GREEDY})
        b.get(live.id)
        a.contribute(live.id, creator[0], 2, MINE)
        with pytest.raises(ServiceError) as refused:
            b.contribute(live.id, creator[0], 2, THEIRS)
        assert refused.value.status == 409
        assert b.get(live.id).dealer.next.contributions == {0: MINE}  # type: ignore[union-attr]


def test_a_finished_web_game_verifies_with_cassino_verify(client: TestClient, tmp_path: Path) -> None:
    """The chain end to end: the page's path (a ticket, then contributions to each next hand) on
    the real app, the record downloaded once the game is over, checked by ``cassino verify``."""
    import subprocess
    import sys

    ticket = client.post("/api/deals").json()["deal"]
    body = {"seats": AGAINST_GREEDY, "options": {"target": 31}, "deal": {"id": ticket, "contribution": MINE}}
    made = client.post("/api/games", json=body).json()
    game, token = made["game"], made["seats"][0]["token"]
    headers = {"x-cassino-token": token}
    sent: dict[int, str] = {1: MINE}
    rng = random.Random(8)
    while True:
        mine = _state(client, game, token)
        if mine["status"] == "over":
            break
        deal = mine["next_deal"]
        if deal["hand"] not in sent:
            sent[deal["hand"]] = f"{deal['hand']:064x}"
            r = client.post(
                f"/api/games/{game}/contribute",
                json={"hand": deal["hand"], "value": sent[deal["hand"]]},
                headers=headers,
            )
            assert r.status_code == 200, r.text
        if mine["phase"] == "count":
            client.post(f"/api/games/{game}/next", headers=headers)
            continue
        _to_end_of_hand(client, game, token, rng)
    record = client.get(f"/api/games/{game}/record").json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    mine_args = [a for n in range(1, len(record["hands"]) + 1) for a in ("--mine", f"{n}:0:{sent[n]}")]
    done = subprocess.run(
        [sys.executable, "-m", "cassino.cli", "verify", str(path), *mine_args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(record["hands"]) + 1 and len(record["hands"]) >= 3
    assert all(
        f"hand {n}: verified (seed committed before the hand; contribution of seat 0; yours (seat 0) was used)" == line
        for n, line in enumerate(lines[:-1], 1)
    )
    scores = "-".join(str(s) for s in record["scores"])
    assert lines[-1] == f"game {game}: verified, {len(record['hands'])} hands, scores {scores}"
    record["hands"][-1]["contributions"][0]["value"] = "0" * 64  # one contribution changed: caught
    path.write_text(json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "cassino.cli", "verify", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert (
        done.stdout.splitlines()[-1]
        == f"hand {len(record['hands'])}: not verified: the deck is not the one the seed and the contributions give"
    )
