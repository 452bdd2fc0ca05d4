"""A seeded fuzz of every endpoint and WebSocket message: malformed bodies, wrong types, deep
nesting, huge strings, unknown fields. No answer is a 5xx, the socket never drops, and a refused
request leaves the game exactly as it was."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from cassino.web.limits import MAX_BODY_BYTES, MAX_JSON_DEPTH
from web_support import claim_seats, create, get

REQUESTS = 1200
WS_MESSAGES = 300
FIELDS = ["preset", "players", "seats", "kind", "name", "bot", "move", "version", "invite", "options", "listed"]
FIELDS += ["next_hand_after", "ply", "seen", "type", "partnerships", "rules", "sweeps", "\u0000", "x" * 300]
FIELDS += ["phrase", "text", "free_text", "chat"]
WS_TYPES = ["move", "next", "undo", "lessons", "state", "nope", None, 7, ["move"]]
WS_TYPES += ["chat", "chat_settings", "chat_history"]


def junk(rng: random.Random, depth: int = 0) -> Any:
    """A JSON value of any type, often of the wrong type for its field."""
    pick = rng.randrange(16 if depth < 3 else 11)
    simple: list[Any] = [None, True, False, 0, 1, -1, 2**70, 1.0, 0.5, -1e300, ""]
    if pick < len(simple):
        return simple[pick] if pick != 10 else rng.choice(["", "classic", "capture 8c 8: 8d", "\ud800x", "é" * 5])
    if pick == 11:
        return rng.choice(["x", "🂡", "trail ", "8c"]) * rng.choice([1, 100, 5000])
    if pick == 12:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 13:
        return {rng.choice(FIELDS): junk(rng, depth + 1) for _ in range(rng.randrange(4))}
    if pick == 14:
        n = rng.choice([MAX_JSON_DEPTH - 2, MAX_JSON_DEPTH + 1, 5000])
        return json.loads("[" * min(n, 900) + "]" * min(n, 900)) if n < 900 else {"deep": "[" * n}
    return rng.choice(["NaN", "[1,", "{", "\\u"])


def body(rng: random.Random) -> tuple[bytes, dict[str, str]]:
    """A request body and its headers: JSON objects of known and unknown fields holding junk,
    raw malformed text, too deep or too large, or of another media type."""
    headers = {"content-type": "application/json"}
    kind = rng.randrange(10)
    if kind < 5:
        data = json.dumps({rng.choice(FIELDS): junk(rng) for _ in range(rng.randrange(5))}).encode()
    elif kind == 5:
        data = json.dumps(junk(rng)).encode()
    elif kind == 6:
        n = rng.choice([MAX_JSON_DEPTH + 1, 20_000, 40_000])
        data = ("[" * n + "]" * n).encode()
    elif kind == 7:
        data = rng.choice([b"\xff\xfe\x00", b"{", b'{"move": NaN}', b"[1,2", b"", b"{}" * 10, b'{"a":1}garbage'])
    elif kind == 8:
        data = b'{"move": "' + b"x" * rng.choice([500, MAX_BODY_BYTES + 10]) + b'"}'
    else:
        data = b'{"players": 2}'
        headers["content-type"] = rng.choice(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
    return data, headers


@pytest.fixture
def table(client: TestClient) -> tuple[str, dict[int, str]]:
    """A game of two people (nothing moves by itself) and their tokens."""
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    return made["game"], claim_seats(client, made)


def test_no_request_breaks_the_service_or_changes_a_game_when_refused(
    client: TestClient, table: tuple[str, dict[int, str]]
) -> None:
    game, tokens = table
    rng = random.Random(20240611)
    before = get(client, game, tokens[0])
    for i in range(REQUESTS):
        token = rng.choice([tokens[0], tokens[1], None, "x" * 40, "a" * 5000])
        headers = {"x-cassino-token": token} if token else {}
        target = rng.choice([game, game, "nosuchgame", "../x", "%00", "x" * 3000])
        posts = ["/api/games", f"/api/games/{target}/claim", f"/api/games/{target}/moves"]
        posts += [f"/api/games/{target}/next", f"/api/games/{target}/undo"]
        posts += [f"/api/games/{target}/chat", f"/api/games/{target}/chat/settings"]
        gets = [f"/api/games/{target}", f"/api/games/{target}/review", f"/api/games/{target}/record"]
        gets += [f"/api/games/{target}/hands/{rng.choice(['0', '1', '-1', 'x', '9' * 30])}"]
        gets += [f"/api/games/{target}/chat"]
        gets += ["/api/config", f"/api/i18n/{rng.choice(['en', 'de', 'xx', '..', 'e' * 500])}"]
        gets += [f"/api/lessons?{rng.choice(['', 'game=' + target, 'preset=x&players=9', 'players=' + '9' * 40])}"]
        if token not in tokens.values():  # a seat's hint is a search: spectators' and strangers' are refused fast
            gets.append(f"/api/games/{target}/hint")
        if rng.random() < 0.6:
            data, more = body(rng)
            url = rng.choice(posts)
            r = client.post(url, content=data, headers={**headers, **more})
        else:
            url = rng.choice(gets)
            r = client.request(rng.choice(["GET", "GET", "HEAD"]), url, headers=headers)
        assert r.status_code < 500, (i, url, r.text[:300])
        if r.status_code >= 400 and r.request.method != "HEAD":
            assert set(r.json()) >= {"error"} and len(r.text) < 2000, (i, url, r.text[:300])
            now = get(client, game, tokens[0])
            assert now == before, (i, url, r.text[:300])
        elif r.request.method == "POST" and target == game:
            before = get(client, game, tokens[0])  # a request that was accepted may move the game on


def test_no_socket_message_drops_the_connection_or_changes_a_game(
    client: TestClient, table: tuple[str, dict[int, str]]
) -> None:
    game, tokens = table
    rng = random.Random(7)
    with client.websocket_connect(f"/api/games/{game}/ws?token={tokens[rng.randrange(2)]}") as ws:
        assert ws.receive_json()["type"] == "state"
        before = get(client, game, tokens[0])  # with the page open: its seat is online
        for i in range(WS_MESSAGES):
            choice = rng.randrange(6)
            if choice == 0:
                ws.send_bytes(rng.choice([b"", b"\x00\xff", b'{"type": "state"}']))
            elif choice == 1:
                data, _headers = body(rng)
                ws.send_text(data.decode(errors="replace"))
            else:
                message = {rng.choice(FIELDS): junk(rng) for _ in range(rng.randrange(4))}
                message["type"] = rng.choice(WS_TYPES)
                ws.send_text(json.dumps(message))
            answer = ws.receive_json()
            if answer["type"] == "error":
                assert 400 <= answer["status"] < 500 and len(answer["error"]) < 2000, (i, answer)
                assert get(client, game, tokens[0]) == before, (i, answer)
            else:
                before = get(client, game, tokens[0])
        ws.send_json({"type": "state"})
        assert ws.receive_json()["type"] == "state"
