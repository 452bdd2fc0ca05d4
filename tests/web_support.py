"""Shared plumbing of the web tests: apps on fresh databases, the PostgreSQL switch, a free port,
a real ``cassino serve`` process, and the check that a payload holds no card hidden from its seat."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("httpx")

import httpx

from cassino.cards import CARD_NAMES, cards_of, parse_card
from cassino.game import Game
from cassino.moves import parse_code

IN_CI = os.environ.get("CASSINO_CI") == "1"


def need(reason: str) -> None:
    """A missing service: a failure in CI (CASSINO_CI=1), a skip elsewhere."""
    if IN_CI:
        pytest.fail(f"{reason} (CASSINO_CI=1: services must be present)")
    pytest.skip(reason)


def postgres_url() -> str:
    """The test PostgreSQL server from CASSINO_TEST_POSTGRES, with its cassino tables emptied."""
    url = os.environ.get("CASSINO_TEST_POSTGRES")
    if not url:
        need("CASSINO_TEST_POSTGRES is not set (scripts/ensure-services.sh starts a server and prints it)")
        raise AssertionError("unreachable")
    from sqlalchemy import MetaData

    from cassino.web.store import Store, database_url

    store = Store(database_url(url))
    # every cassino table there, this version's or another's (a newer branch run on the same
    # server may have left tables that refer to these), dropped in the order their keys need
    found = MetaData()
    found.reflect(store.engine, only=lambda name, _meta: name.startswith("cassino_"))
    found.drop_all(store.engine)
    store.close()
    return url


@contextlib.contextmanager
def two_services() -> Iterator[tuple[Any, Any]]:
    r"""Two ``GameService``\ s on one PostgreSQL database, each with a store of its own, as two
    server processes have (not listening until started); their stores are closed after."""
    from cassino.web.service import GameService
    from cassino.web.store import Store, database_url

    url = database_url(postgres_url())
    one, two = Store(url), Store(url)
    try:
        yield GameService(one, bot_delay=0), GameService(two, bot_delay=0)
    finally:
        one.close()
        two.close()


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A real ``cassino serve`` process on a free port (killed with SIGKILL by ``kill``)."""

    def __init__(
        self, database: str, bot_delay: float = 0.0, port: int | None = None, extra: tuple[str, ...] = ()
    ) -> None:
        self.database = database
        self.bot_delay = bot_delay
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-m", "cassino.cli", "serve", "--port", str(self.port), "--database", database]
        self.proc = subprocess.Popen(
            [*cmd, "--bot-delay", str(bot_delay), *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.url + "/api/config", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                out = self.proc.stdout.read() if self.proc.stdout else ""
                self.proc.kill()
                raise AssertionError(f"cassino serve did not start: {out}")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        """A normal shutdown."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def running_server(database: str, bot_delay: float = 0.0) -> Iterator[Server]:
    """A fixture body: a server for the test, stopped after it."""
    server = Server(database, bot_delay)
    try:
        yield server
    finally:
        server.stop()


_CARD_WORD = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(CARD_NAMES) + r")(?![A-Za-z0-9])")


def cards_in_text(text: str) -> set[str]:
    """Every card name written as a word in some text (raw JSON included)."""
    return set(_CARD_WORD.findall(text))


def cards_in_json(payload: Any) -> set[str]:
    """Every string value of a JSON payload that is a card name, or a move naming cards."""
    found: set[str] = set()
    if isinstance(payload, dict):
        for value in payload.values():
            found |= cards_in_json(value)
    elif isinstance(payload, list):
        for value in payload:
            found |= cards_in_json(value)
    elif isinstance(payload, str):
        found |= cards_in_text(payload)
    return found


def hidden_from(game: Game, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may not know now: other hands and the stock."""
    state = game.state
    hidden = set(state.remaining_stock)
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= set(cards_of(hand))
    return {CARD_NAMES[c] for c in hidden}


def hidden_by_version(hands: list[dict[str, Any]], rules_json: dict[str, Any]) -> list[list[set[str]]]:
    """From a finished game's record: at each version (moves made), the cards hidden from each
    seat, and last from a spectator (index -1)."""
    from cassino.rules import Rules

    rules = Rules.from_json(rules_json)
    game = Game(rules, decks=[[parse_card(w) for w in h["deck"].split()] for h in hands])
    seats: list[int | None] = [*range(rules.players), None]
    out = [[hidden_from(game, s) for s in seats]]
    for hand in hands:
        for move in hand["moves"]:
            game.play(parse_code(move["move"]))
            out.append([hidden_from(game, s) for s in seats])
    return out


def assert_no_leak(raw: str, hidden: set[str], seat: int | None) -> None:
    """No card in ``hidden`` appears in a payload sent to ``seat``, as a JSON value or in the text."""
    payload = json.loads(raw)
    assert not (cards_in_json(payload) & hidden), f"seat {seat} was sent hidden cards {cards_in_json(payload) & hidden}"
    assert not (cards_in_text(raw) & hidden), f"seat {seat} was sent hidden cards {cards_in_text(raw) & hidden}"


def check_hand(game_id: str, hand: dict[str, Any]) -> str | None:
    """None when a revealed hand of ``fair.SCHEME`` (as ``GET /api/games/{game}/hands/{n}`` gives
    it) holds: its seed matches the commitment and its deck is the derived one; else what fails."""
    from cassino.web.fair import SCHEME, verify_deal

    if hand["scheme"] != SCHEME:
        return f"the hand's scheme is {hand['scheme']!r}, not {SCHEME!r}"
    given = {c["seat"]: c["value"] for c in hand["contributions"]}
    return verify_deal(hand["commitment"], game_id, hand["hand"], hand["salt"], given, hand["deck"])


def replay(hands: list[dict[str, Any]], rules_json: dict[str, Any]) -> Game:
    """The game the revealed decks and moves of every hand replay to (the engine checks each move)."""
    from cassino.rules import Rules

    game = Game(Rules.from_json(rules_json), decks=[[parse_card(w) for w in h["deck"].split()] for h in hands])
    for hand in hands:
        for move in hand["moves"]:
            assert game.state.to_move == move["seat"]
            game.play(parse_code(move["move"]))
    return game


def claim_seats(client: Any, made: dict[str, Any]) -> dict[int, str]:
    """Every person's seat token of a game just created through the API: the creator's from the
    create response, the others' by claiming their invitations (each claim checked)."""
    tokens: dict[int, str] = {}
    for seat in made["seats"]:
        if "token" in seat:
            tokens[seat["seat"]] = seat["token"]
        elif "invite" in seat:
            r = client.post(f"/api/games/{made['game']}/claim", json={"invite": seat["invite"]})
            assert r.status_code == 200, r.text
            assert r.json()["seat"] == seat["seat"]
            tokens[seat["seat"]] = r.json()["token"]
    return tokens


def service_seats(service: Any, live: Any, tokens: dict[int, str], invites: dict[int, str]) -> dict[int, str]:
    """Every person's seat token of a game just made by ``GameService.create``, claiming invitations."""
    out = dict(tokens)
    for seat, code in invites.items():
        claimed, token = service.claim(live.id, {"invite": code})
        assert claimed == seat
        out[seat] = token
    return out


def press_next_all(client: Any, game: str, tokens: dict[int, str]) -> None:
    """Every person presses next (the count between hands), each press answered with the state."""
    for token in tokens.values():
        r = client.post(f"/api/games/{game}/next", headers={"x-cassino-token": token})
        assert r.status_code == 200, r.text


ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"


def create(client: Any, **body: Any) -> dict[str, Any]:
    """A game made through a test client's API; the create answer."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def get(client: Any, game: str, token: str | None = None) -> dict[str, Any]:
    """A game's state as a token's seat (or a spectator) sees it."""
    r = client.get(f"/api/games/{game}", headers={"x-cassino-token": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]
