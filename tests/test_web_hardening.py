"""No input breaks the web service: each limit of ``cassino.web.limits`` refuses with a 4xx naming
the problem (the WebSocket with an error message, staying open), responses carry the security
headers, HEAD is answered, and ``cassino serve`` on a taken port says so in one line."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import httpx
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cassino.web.limits import MAX_BODY_BYTES, MAX_ERROR_CHARS, MAX_JSON_DEPTH, SECURITY_HEADERS
from web_support import Server, create, free_port, get

DEEP = "[" * 30_000 + "]" * 30_000
"""Nested 30,000 deep and under ``MAX_BODY_BYTES``: refused for its depth (50,000 deep is too large too)."""


def solo(client: TestClient) -> tuple[str, str]:
    """A game against a computer player: its id and the person's token."""
    made = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    return made["game"], made["seats"][0]["token"]


def post(client: TestClient, url: str, content: bytes | str, token: str | None = None, **headers: str) -> Any:
    headers = {"content-type": "application/json", **headers}
    if token:
        headers["x-cassino-token"] = token
    return client.post(url, content=content, headers=headers)


def test_deep_json_is_refused_400_on_create_and_move(client: TestClient) -> None:
    game, token = solo(client)
    before = get(client, game, token)
    for url in ("/api/games", f"/api/games/{game}/moves", f"/api/games/{game}/claim"):
        for body in (DEEP, '{"move": ' + DEEP + "}", "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)):
            r = post(client, url, body, token)
            assert r.status_code == 400, (url, r.text[:200])
            assert f"more than {MAX_JSON_DEPTH} deep" in r.json()["error"]
    deeper = post(client, f"/api/games/{game}/moves", "[" * 50_000 + "]" * 50_000, token)
    assert deeper.status_code == 413
    assert get(client, game, token) == before
    ok = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH  # at the limit: parsed, refused for what it is
    assert "JSON object, not list" in post(client, "/api/games", ok).json()["error"]
    brackets_in_text = '{"move": "' + "[" * 1000 + '"}'  # brackets in a string do not nest
    assert "deep" not in post(client, f"/api/games/{game}/moves", brackets_in_text, token).json()["error"]


def test_bodies_must_be_json_and_small(client: TestClient) -> None:
    r = post(client, "/api/games", "{}", **{"content-type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"] and "text/plain" in r.json()["error"]
    form = post(client, "/api/games", "a=1", **{"content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    big = post(client, "/api/games", b" " * (MAX_BODY_BYTES + 1))
    assert big.status_code == 413 and str(MAX_BODY_BYTES) in big.json()["error"]
    for bad in (b"\xff\xfe", b"NaN", b'{"players": Infinity}', b"[1", b'"x"'):
        r = post(client, "/api/games", bad)
        assert r.status_code == 400 and r.json()["error"], bad
    assert client.get("/api/games").json()["games"] == []


def test_version_must_be_an_integer(client: TestClient) -> None:
    game, token = solo(client)
    before = get(client, game, token)
    move = before["legal"][0]["move"] if "legal" in before else "trail 2c"
    for version in ("true", "1.0", "0.0", '"0"', "[0]"):
        r = post(client, f"/api/games/{game}/moves", f'{{"move": "{move}", "version": {version}}}', token)
        assert r.status_code == 400 and "version must be a whole number" in r.json()["error"], (version, r.text)
    assert get(client, game, token) == before


def test_a_huge_move_is_refused_with_an_excerpt(client: TestClient) -> None:
    game, token = solo(client)
    for move in ("x" * 60_000, "capture " + "8c " * 20_000):
        r = client.post(f"/api/games/{game}/moves", json={"move": move}, headers={"x-cassino-token": token})
        assert r.status_code == 400 and len(r.text) < MAX_ERROR_CHARS + 100, r.text[:300]
    r = client.post("/api/games", json={"x" * 60_000: 1})  # an unknown field named at length
    assert r.status_code == 400 and len(r.text) < MAX_ERROR_CHARS + 100, r.text[:300]


def test_security_headers_and_head(client: TestClient) -> None:
    for r in (
        client.get("/"),
        client.get("/api/config"),
        client.get("/static/app.js"),
        client.get("/api/games/nosuchgame"),
        post(client, "/api/games", "x", **{"content-type": "text/plain"}),
        post(client, "/api/games", b" " * (MAX_BODY_BYTES + 1)),
    ):
        for name, value in SECURITY_HEADERS.items():
            assert r.headers.get(name) == value, (r.request.url, name)
    csp = SECURITY_HEADERS["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "unsafe" not in csp
    page = Path(__file__).parent.parent / "src/cassino/web/static/index.html"
    assert "<script>" not in page.read_text() and " style=" not in page.read_text()  # nothing inline for the CSP
    for url in ("/", "/static/app.js", "/api/config", "/cards/As.svg"):
        r = client.head(url)
        assert r.status_code == 200 and r.content == b"", url
        assert r.headers["content-length"] == str(len(client.get(url).content)), url


def test_internal_errors_are_500_without_a_traceback(tmp_path: Path) -> None:
    from cassino.web.app import create_app

    app = create_app(database=f"sqlite:///{tmp_path / 'w.sqlite3'}", bot_delay=0)

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("secret detail")

    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/boom")
    assert r.status_code == 500 and r.json() == {"error": "internal error"}
    assert "secret" not in r.text and r.headers["x-content-type-options"] == "nosniff"


def test_the_socket_answers_bad_frames_and_stays_open(client: TestClient) -> None:
    game, token = solo(client)
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        first = ws.receive_json()
        assert first["type"] != "error"
        for send, words in (
            (lambda: ws.send_text(DEEP), "deep"),
            (lambda: ws.send_text('{"type": "move", "move": ' + DEEP + "}"), "deep"),
            (lambda: ws.send_bytes(b'{"type": "state"}'), "binary"),
            (lambda: ws.send_text("{not json"), "JSON object"),
            (lambda: ws.send_text("x" * (MAX_BODY_BYTES + 1)), str(MAX_BODY_BYTES)),
            (lambda: ws.send_json({"type": "move", "move": "trail 2c", "version": True}), "whole number"),
            (lambda: ws.send_json({"type": "coach", "ply": 0.0}), "whole number"),
            (lambda: ws.send_json({"type": "move", "move": "y" * 50_000}), "at most"),
        ):
            send()
            answer = ws.receive_json()
            assert answer["type"] == "error" and 400 <= answer["status"] < 500 and words in answer["error"], answer
            assert len(answer["error"]) <= MAX_ERROR_CHARS
        ws.send_json({"type": "state"})  # still open and answering
        assert ws.receive_json()["type"] != "error"


def test_the_socket_refuses_other_sites(client: TestClient, tmp_path: Path) -> None:
    game, token = solo(client)
    url = f"/api/games/{game}/ws?token={token}"
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(url, headers={"origin": "https://evil.example"}) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 1008
    with client.websocket_connect(url, headers={"origin": "http://testserver"}) as ws:  # its own page
        assert ws.receive_json()["type"] != "error"
    from cassino.web.app import create_app

    app = create_app(database=f"sqlite:///{tmp_path / 'w.sqlite3'}", allowed_origins=["https://cassino.example/"])
    with TestClient(app) as other:
        game2, token2 = solo(other)
        with other.websocket_connect(
            f"/api/games/{game2}/ws?token={token2}", headers={"origin": "https://cassino.example"}
        ) as ws:
            assert ws.receive_json()["type"] != "error"


def test_a_huge_body_is_refused_while_other_clients_are_answered(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    try:
        outcome: list[Any] = []

        def send_big() -> None:
            try:
                r = httpx.post(
                    server.url + "/api/games",
                    content=b"[" * (10 * 2**20),
                    headers={"content-type": "application/json"},
                    timeout=30,
                )
                outcome.append(r.status_code)
            except httpx.HTTPError as exc:  # the server may close before the client has sent it all
                outcome.append(exc)

        def slow_chunks() -> Any:
            yield b'{"x": "'
            for _ in range(200):
                yield b"y" * 1024
                time.sleep(0.005)

        big = threading.Thread(target=send_big)
        big.start()
        with httpx.Client(base_url=server.url, timeout=5) as other:
            for _ in range(5):
                started = time.monotonic()
                assert other.get("/api/config").status_code == 200
                assert time.monotonic() - started < 0.2
            chunked = other.post("/api/games", content=slow_chunks(), headers={"content-type": "application/json"})
            assert chunked.status_code == 413
        big.join(30)
        assert outcome[0] == 413 or isinstance(outcome[0], httpx.HTTPError), outcome
    finally:
        server.stop()


def test_serve_on_a_taken_port_says_so_in_one_line(tmp_path: Path) -> None:
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        run = subprocess.run(
            [sys.executable, "-m", "cassino.cli", "serve", "--port", str(port), "--data-dir", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and f"port {port}" in run.stderr and "--port" in run.stderr, run.stderr
