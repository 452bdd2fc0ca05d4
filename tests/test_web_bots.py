"""Bot programs at a web table (``cassino serve --allow-bots DIR``): a creator seats a program of the
server's folder by name (``bot:FILE``); it plays a whole game in a process of its own for each move,
seeing its seat's view alone; one that crashes, hangs, prints garbage or an illegal move forfeits
its game with the reason, while the other games go on; without the folder nothing is run."""

from __future__ import annotations

import shutil
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

from cassino.web import create_app
from cassino.web.programs import Programs
from web_support import create

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bots"

BROKEN = {
    "crash.sh": ("#!/bin/sh\necho 'cannot open my book' >&2\nexit 3\n", "exited with status 3"),
    "hang.sh": (
        "#!/bin/sh\nwhile read -r line; do case $line in 'cassino '*) printf 'id name hang\\nready\\n';; esac; done\n",
        "timed out after 3.0 s",
    ),
    "garbage.sh": (
        "#!/bin/sh\nwhile read -r line; do case $line in 'cassino '*) printf 'id name g\\nready\\n';; 'go '*) echo 'hello there';; esac; done\n",
        "answered 'hello there', which is no move",
    ),
    "illegal.sh": (
        "#!/bin/sh\nwhile read -r line; do case $line in 'cassino '*) printf 'id name i\\nready\\n';; 'go '*) echo 'move trail Kz';; esac; done\n",
        "answered 'trail Kz'",
    ),
}
"""Programs that fail, and the start of the reason each forfeit gives."""

MINE = '''"""A player class, served over the protocol by the server's host process."""


class Lowest:
    name = "lowest"

    def __init__(self, seed=None):
        self.seed = seed

    def choose(self, view):
        return min(view.legal)
'''


def _script(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    bots = tmp_path / "bots"
    bots.mkdir()
    for name in ("first.sh", "captures.py"):
        shutil.copy2(EXAMPLES / name, bots / name)
    for name, (text, _) in BROKEN.items():
        _script(bots / name, text)
    (bots / "lowest.py").write_text(MINE)  # not executable: a player class for the host
    (bots / "notes.txt").write_text("not a bot")
    return bots


@pytest.fixture
def bots_client(tmp_path: Path, folder: Path) -> Iterator[TestClient]:
    app = create_app(
        database=f"sqlite:///{tmp_path / 'web.sqlite3'}",
        bot_delay=0,
        rate_limits=False,
        programs=Programs(folder, seconds=3.0, memory=256),
    )
    with TestClient(app) as client:
        yield client


def state(client: TestClient, game: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game}", headers={"x-cassino-token": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def settled(client: TestClient, game: str, token: str, limit: float = 20.0) -> dict[str, Any]:
    """The game once the person is to move or it is over (the program moves in the background)."""
    end = time.monotonic() + limit
    while True:
        current = state(client, game, token)
        if current["status"] == "over" or (current["to_move"] == current["you"] and current["phase"] == "play"):
            return current
        if current["phase"] == "count":
            client.post(f"/api/games/{game}/next", headers={"x-cassino-token": token})
        assert time.monotonic() < end, f"the program never answered: {current}"
        time.sleep(0.02)


def taking(legal: list[dict[str, Any]]) -> str:
    """A person's move that keeps the table small: a capture when there is one, else a trail (a
    table of thirty cards has hundreds of thousands of moves, which no test needs to send)."""
    moves = [m["move"] for m in legal]
    return next(
        (m for m in moves if m.startswith("capture")), next((m for m in moves if m.startswith("trail")), moves[0])
    )


def against(client: TestClient, bot: str, **body: Any) -> tuple[str, str]:
    made = create(client, seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": bot}], **body)
    return made["game"], made["seats"][0]["token"]


def test_the_lobby_offers_the_folders_programs(bots_client: TestClient) -> None:
    offered = bots_client.get("/api/config").json()["players"]
    programs = [p for p in offered if p["name"].startswith("bot:")]
    assert [p["name"] for p in programs] == [
        "bot:captures.py", "bot:crash.sh", "bot:first.sh", "bot:garbage.sh", "bot:hang.sh", "bot:illegal.sh",
        "bot:lowest.py",
    ]  # fmt: skip
    assert {p["about"] for p in programs} == {"lobby.program_about"}


@pytest.mark.parametrize("bot", ["bot:first.sh", "bot:captures.py", "bot:lowest.py"])
def test_a_program_plays_a_whole_game(bots_client: TestClient, bot: str) -> None:
    game, token = against(bots_client, bot, options={"target": 11})
    moves = 0
    while True:
        current = settled(bots_client, game, token, limit=60)
        if current["status"] == "over":
            break
        r = bots_client.post(f"/api/games/{game}/moves", json={"move": taking(current["legal"])},
                             headers={"x-cassino-token": token})  # fmt: skip
        assert r.status_code == 200, r.text
        moves += 1
    assert current["forfeit"] is None and current["winner"] in (0, 1)
    assert max(current["scores"]) >= 11 and moves > 10
    assert any(m["seat"] == 1 for m in current["moves"]) or current["hand_number"] > 1


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_failing_program_forfeits_and_the_other_games_go_on(bots_client: TestClient, name: str) -> None:
    healthy, healthy_token = against(bots_client, "bot:first.sh")
    game, token = against(bots_client, f"bot:{name}")  # dealer 0: the program (seat 1) leads
    over = settled(bots_client, game, token)
    assert over["status"] == "over" and over["winner"] == 0
    assert over["forfeit"]["seat"] == 1 and over["forfeit"]["reason"].startswith(BROKEN[name][1]), over["forfeit"]
    refused = bots_client.post(
        f"/api/games/{game}/moves", json={"move": "trail Ac"}, headers={"x-cassino-token": token}
    )
    assert refused.status_code == 409 and "over" in refused.json()["error"]
    other = settled(bots_client, healthy, healthy_token)
    assert other["status"] == "playing" and other["forfeit"] is None and other["moves"][0]["seat"] == 1
    r = bots_client.post(f"/api/games/{healthy}/moves", json={"move": other["legal"][0]["move"]},
                         headers={"x-cassino-token": healthy_token})  # fmt: skip
    assert r.status_code == 200
    assert settled(bots_client, healthy, healthy_token)["version"] >= 3


def test_a_forfeit_is_stored(tmp_path: Path, folder: Path) -> None:
    database = f"sqlite:///{tmp_path / 'kept.sqlite3'}"
    programs = Programs(folder, seconds=1.0)
    with TestClient(create_app(database=database, bot_delay=0, rate_limits=False, programs=programs)) as client:
        game, token = against(client, "bot:crash.sh")
        before = settled(client, game, token)
    with TestClient(create_app(database=database, bot_delay=0, rate_limits=False)) as again:
        after = state(again, game, token)
        record = again.get(f"/api/games/{game}/record").json()["record"]
    assert after["forfeit"] == before["forfeit"] and after["status"] == "over" and after["winner"] == 0
    assert '[Forfeit "1 exited with status 3' in record and '[Result "0"]' in record


def test_only_the_folders_programs_sit_and_only_with_the_folder(bots_client: TestClient, client: TestClient) -> None:
    for bot, words in [
        ("bot:nope.sh", "no bot program 'bot:nope.sh' on this server; its bot programs are: bot:captures.py, "),
        ("bot:notes.txt", "no bot program 'bot:notes.txt'"),
        ("bot:../first.sh", "no bot program 'bot:../first.sh'"),
        ("bot:/bin/sh", "no bot program 'bot:/bin/sh'"),
    ]:
        r = bots_client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}]})
        assert r.status_code == 400 and r.json()["error"].startswith(words), r.text
    r = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": "bot:first.sh"}]})
    assert r.status_code == 400
    assert r.json()["error"] == "'bot:first.sh' names a bot program, and this server runs none (see --allow-bots)"
