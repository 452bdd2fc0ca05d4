"""The page that plays offline, below the browser: its server (``web.offline``: the game service
over ``MemoryStore``) answering the page's requests and socket messages, its games kept as JSON and
brought back exactly, the site ``cassino site`` writes and ``cassino serve`` offers at /offline/,
the engine's wheel, and that wheel run in the vendored Pyodide (under Node) with no FastAPI, no
database driver and no compiled module."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import json
import random
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")
pytest.importorskip("babel")

from cassino.notation import position_from_json
from cassino.players import LEVELS
from cassino.record import check_record
from cassino.web.errors import StoreError
from cassino.web.memory_store import MemoryStore
from cassino.web.offline import Offline
from cassino.web.payloads import state_payload
from cassino.web.site import OFFLINE_POLICY, WHEEL, engine_wheel, site_files
from cli_support import cassino, fails, ok
from web_support import need

PYODIDE = Path(__file__).resolve().parent.parent / "src" / "cassino" / "web" / "static" / "vendor" / "pyodide"


class Page:
    """What the worker would pass to the page: each socket's messages, each kept game, each shut."""

    def __init__(self, bot_delay: float = 0.0) -> None:
        self.heard: dict[int, list[dict[str, Any]]] = {}
        self.kept: dict[str, str] = {}
        self.shut: dict[int, int] = {}
        self.host = Offline(
            lambda n, text: self.heard.setdefault(n, []).append(json.loads(text)),
            self.kept.__setitem__,
            self.shut.__setitem__,
            bot_delay=bot_delay,
        )

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        text = await self.host.request(
            method, path.split("?")[0], path.partition("?")[2], json.dumps(body) if body is not None else "", token
        )
        answer = json.loads(text)
        return answer["status"], answer["body"]

    def states(self, socket: int) -> list[dict[str, Any]]:
        return [m for m in self.heard.get(socket, []) if m["type"] == "state"]


async def settle() -> None:
    """Let the computer players and the sockets' senders run (no delay: they move at once)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def new_game(page: Page, **body: Any) -> tuple[str, str]:
    body.setdefault("seats", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "casual"}])
    status, made = await page.request("POST", "/api/games", body)
    assert status == 201, made
    return made["game"], next(s["token"] for s in made["seats"] if s.get("token"))


async def play_out(page: Page, socket: int, rng: random.Random, moves: int = 10_000) -> dict[str, Any]:
    """Play the person's seat through socket messages (random legal moves, next at each count)
    until the game is over or ``moves`` were made; the last state."""
    made = 0
    while True:
        await settle()
        state = page.states(socket)[-1]
        if state["status"] == "over" or made >= moves:
            return state
        if state.get("waiting_for") and state["you"] in state["waiting_for"]:
            page.host.receive(socket, json.dumps({"type": "next"}))
        elif state["to_move"] == state["you"] and state["legal"]:
            move = rng.choice(state["legal"])["move"]
            page.host.receive(socket, json.dumps({"type": "move", "move": move, "version": state["version"]}))
            made += 1
        else:
            await asyncio.sleep(0.001)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("players", "partnerships", "level"), [(2, False, "casual"), (3, False, "greedy"), (4, True, "novice")]
)
async def test_a_whole_game_in_the_page_and_its_record(players: int, partnerships: bool, level: str) -> None:
    """A game against computer players played through the socket's messages, as the page sends
    them, to its end; its record checks out move by move, and its moves were the engine's."""
    page = Page()
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": level}] * (players - 1)
    game, token = await new_game(page, players=players, partnerships=partnerships, seats=seats, options={"target": 11})
    page.host.open(1, game, token)
    state = await play_out(page, 1, random.Random(players))
    assert state["status"] == "over" and state["winner"] is not None
    status, record = await page.request("GET", f"/api/games/{game}/record")
    assert status == 200
    assert '[Site "cassino in the browser, offline"]' in record["record"]
    replayed = check_record(record["record"])
    assert replayed.over and list(replayed.scores) == record["scores"] == state["scores"]
    assert [h["hand"] for h in record["hands"]] == list(range(1, len(record["hands"]) + 1))


@pytest.mark.asyncio
async def test_the_position_is_the_engine_s_and_only_for_the_seat() -> None:
    """The whole position, for the page's own seat, at the state's version: its legal moves are
    the ones the state offers; a spectator (no token) is refused."""
    page = Page()
    game, token = await new_game(page)
    page.host.open(1, game, token)
    await settle()
    state = page.states(1)[-1]
    status, answer = await page.request("GET", f"/api/games/{game}/position", token=token)
    assert status == 200 and answer["version"] == state["version"]
    moves = sorted(str(m) for m in position_from_json(answer["position"]).legal_moves())
    assert moves == sorted(m["move"] for m in state["legal"])
    status, refused = await page.request("GET", f"/api/games/{game}/position")
    assert status == 403 and refused["error"] == "the position is shown only to the page's own seat"


@pytest.mark.asyncio
async def test_refusals_are_the_server_s() -> None:
    """What the page cannot do gets the server's answer: a move out of turn or malformed, an
    unknown game's socket (an error frame, then shut with 4404), an unknown path; nothing changes."""
    page = Page()
    game, token = await new_game(page)
    page.host.open(1, game, token)
    await settle()
    before = page.states(1)[-1]
    page.host.receive(1, json.dumps({"type": "move", "move": "capture", "version": before["version"]}))
    page.host.receive(1, "{not json")
    page.host.receive(1, json.dumps({"type": "dance"}))
    await settle()
    errors = [m for m in page.heard[1] if m["type"] == "error"]
    assert [e["status"] for e in errors] == [400, 400, 400]
    assert errors[0]["request"] == "move" and "request" not in errors[1]
    assert errors[2]["error"].startswith("message type must be 'move', 'next', 'undo'")
    assert page.states(1)[-1]["version"] == before["version"]
    assert page.host.open(2, "0123456789abcdef", None) is False
    assert page.heard[2][0]["type"] == "error" and page.heard[2][0]["status"] == 404
    assert page.shut == {2: 4404}
    status, answer = await page.request("GET", "/api/accounts/me")
    assert status == 404 and answer == {"error": "GET /api/accounts/me is not offered by the page that plays offline"}
    status, answer = await page.request("POST", "/api/games", {"players": 9})
    assert status == 400 and "players" in answer["error"]


@pytest.mark.asyncio
async def test_hints_lessons_the_coach_and_the_review() -> None:
    """The teaching answers run in the page's one thread: a hint for the seat to move, the
    lessons due, and the review once the game is over."""
    page = Page()
    status, config = 200, {"opponent": "beginner"}
    game, token = await new_game(
        page,
        preset="classic",
        seats=[{"kind": "human"}, {"kind": "bot", "bot": config["opponent"]}],
        options={"target": 1},
    )
    page.host.open(1, game, token)
    await settle()
    page.host.receive(1, json.dumps({"type": "lessons", "seen": []}))
    while page.states(1)[-1]["to_move"] != 0:
        await settle()
    page.host.receive(1, json.dumps({"type": "hint"}))
    for _ in range(100):
        await settle()
        if any(m["type"] == "hint" for m in page.heard[1]):
            break
    hint = next(m for m in page.heard[1] if m["type"] == "hint")
    assert hint["move"] in [m["move"] for m in page.states(1)[-1]["legal"]]
    assert any(m["type"] == "lessons" for m in page.heard[1])
    await play_out(page, 1, random.Random(5))
    status, review = await page.request("GET", f"/api/games/{game}/review", token=token)
    assert status == 200 and review["seat"] == 0 and review["moves"] > 0
    status, lessons = await page.request("GET", "/api/lessons")
    assert status == 200 and len(lessons["lessons"]) > 5


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 40), st.sampled_from([(2, False), (3, False), (4, True)]))
def test_a_kept_game_comes_back_exactly(seed: int, moves: int, seats: tuple[int, bool]) -> None:
    """At any point of a game, the JSON the page keeps brings back the same game in a new page
    (a reload): the same state for the seat, and the same game kept again."""

    async def run() -> None:
        players, partnerships = seats
        page = Page()
        body_seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
        game, token = await new_game(page, players=players, partnerships=partnerships, seats=body_seats)
        page.host.open(1, game, token)
        await play_out(page, 1, random.Random(seed), moves=moves)
        live = page.host.service.get(game)
        again = Page()
        assert again.host.restore(page.kept[game]) == game
        reloaded = again.host.service.get(game)
        presence = {"presence"}  # who has a page open: the new page has none open yet
        mine = {k: v for k, v in state_payload(live, 0).items() if k not in presence}
        assert {k: v for k, v in state_payload(reloaded, 0).items() if k not in presence} == mine
        assert again.host.store.saved(game) == page.host.store.saved(game)

    asyncio.run(run())


def test_a_kept_game_that_is_not_one_is_refused() -> None:
    """JSON that is not a kept game is refused with what is wrong, and the store is unchanged."""
    store = MemoryStore()
    for text, why in [
        ("[1]", "a kept game must be a JSON object"),
        ("{", "a kept game is not JSON"),
        ('{"id": "ab"}', "a kept game could not be read back (KeyError: 'created')"),
    ]:
        page = Page()
        with pytest.raises(StoreError) as caught:
            page.host.restore(text)
        assert str(caught.value).startswith(why), caught.value
        assert page.host.store.games == {}
    assert store.games == {}


# ---------------------------------------------------------------------- the site
def test_the_engine_wheel_is_pure_and_the_same_each_time() -> None:
    """The wheel holds the package's Python sources and nothing compiled, with a RECORD whose
    hashes match, and the same sources make the same bytes."""
    wheel = engine_wheel()
    assert wheel == engine_wheel()
    with zipfile.ZipFile(io.BytesIO(wheel)) as z:
        names = z.namelist()
        assert "cassino/web/offline.py" in names and "cassino/state.py" in names
        assert "cassino/players/data/hand_points.json" in names  # playing for the game reads it
        assert not [n for n in names if n.endswith((".so", ".pyd", ".pyc")) or "/static/" in n]
        record = z.read("cassino-0.1.0.dist-info/RECORD").decode().splitlines()
        for line in record:
            name, digest, size = line.split(",")
            if not digest:
                continue
            data = z.read(name)
            assert int(size) == len(data)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert len(record) == len(names)


def test_the_site_is_whole_and_self_contained() -> None:
    """Every file the site's pages name is in it; its index is the offline page with relative
    links; the service worker lists every file, with the site's version."""
    files = site_files()
    index = files["index.html"].decode()  # type: ignore[union-attr]
    assert '<html data-mode="offline" lang="en">' in index
    assert '"/static/' not in index and '"/cards/' not in index and 'href="/#"' not in index
    for needed in ("static/app.js", "static/worker.js", "static/transport.js", "static/vendor/pyodide/pyodide.asm.wasm",
                   "static/vendor/pyodide/LICENSE", "static/vendor/svg-cards/LICENSE", "cards/Qh.svg", "cards/back.svg",
                   "config.json", "i18n/de.json", "i18n/id.json", WHEEL, "manifest.webmanifest", "sw.js"):  # fmt: skip
        assert needed in files, needed
    assert "static/sw.js" not in files and "static/index.html" not in files
    site = json.loads(files["site.json"])  # type: ignore[arg-type]
    worker = files["sw.js"].decode()  # type: ignore[union-attr]
    assert f'const VERSION = "{site["version"]}";' in worker
    listed = json.loads(worker.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    assert listed == ["./", *sorted(n for n in files if n != "sw.js")]
    manifest = json.loads(files["manifest.webmanifest"])  # type: ignore[arg-type]
    assert manifest["start_url"] == "./" and {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert icon["src"] in files


def test_cassino_site_writes_it(tmp_path: Path) -> None:
    """``cassino site DIR`` writes the same files; a file in the folder's place is refused."""
    out = ok("site", str(tmp_path / "site"))
    files = site_files()
    assert (
        out
        == f"cassino: wrote {len(files)} files into {tmp_path / 'site'}: serve that folder with any static web server\n"
    )
    assert (tmp_path / "site" / "index.html").read_bytes() == files["index.html"]
    assert (tmp_path / "site" / WHEEL).read_bytes() == files[WHEEL]
    (tmp_path / "file").write_text("x")
    assert fails("site", str(tmp_path / "file")) == (
        f"cassino site: {tmp_path / 'file'} is a file, not a folder: name a folder to write the site into"
    )


def test_cassino_serve_offers_it_at_offline(tmp_path: Path) -> None:
    """/offline/ is the site, each file with its type and a policy that lets WebAssembly compile;
    /offline goes there; a file not in it is a clear 404; the lobby links to it."""
    from fastapi.testclient import TestClient

    from cassino.web import create_app
    from cassino.web.store import Store

    with TestClient(create_app(store=Store(f"sqlite:///{tmp_path / 'web.sqlite3'}"))) as client:
        r = client.get("/offline", follow_redirects=False)
        assert r.status_code == 308 and r.headers["location"] == "/offline/"
        r = client.get("/offline/")
        assert r.status_code == 200 and r.content == site_files()["index.html"]
        assert r.headers["content-security-policy"] == OFFLINE_POLICY and "'wasm-unsafe-eval'" in OFFLINE_POLICY
        assert r.headers["cache-control"] == "no-cache"
        again = client.get("/offline/", headers={"if-none-match": r.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        wasm = client.get("/offline/static/vendor/pyodide/pyodide.asm.wasm")
        assert wasm.headers["content-type"] == "application/wasm"
        assert wasm.content == (PYODIDE / "pyodide.asm.wasm").read_bytes()
        assert client.get("/offline/sw.js").headers["content-type"].startswith("text/javascript")
        assert client.get("/offline/manifest.webmanifest").headers["content-type"] == "application/manifest+json"
        r = client.get("/offline/nothing.js")
        assert r.status_code == 404 and r.json() == {"error": "the page that plays offline has no file 'nothing.js'"}
        assert 'href="/offline/" data-testid="play-offline"' in client.get("/").text


# ---------------------------------------------------------------------- the wheel in Pyodide
NODE_GAMES = """
import { loadPyodide } from "%(pyodide)s/pyodide.mjs";
import { readFileSync } from "node:fs";
const py = await loadPyodide({ indexURL: "%(pyodide)s/" });
py.unpackArchive(new Uint8Array(readFileSync("%(wheel)s")), "wheel");
await py.runPythonAsync(`
import asyncio, json, random, sys
from cassino.game import Game
from cassino.moves import format_code
from cassino.players import LEVELS
from cassino.web.offline import Offline
from cassino.web.thinking import think
from cassino.view import view_of

async def game(host, heard, body):
    made = json.loads(await host.request("POST", "/api/games", "", json.dumps(body), None))["body"]
    token = made["seats"][0]["token"]
    number = len(heard) + 1
    heard[number] = []
    host.open(number, made["game"], token)
    rng = random.Random(number)
    while True:
        for _ in range(5):
            await asyncio.sleep(0)
        state = [m for m in heard[number] if m["type"] == "state"][-1]
        if state["status"] == "over":
            break
        if state.get("waiting_for") and 0 in state["waiting_for"]:
            host.receive(number, json.dumps({"type": "next"}))
        elif state["to_move"] == 0:
            move = rng.choice(state["legal"])["move"]
            host.receive(number, json.dumps({"type": "move", "move": move, "version": state["version"]}))
    answer = await host.request("GET", "/api/games/" + made["game"] + "/record", "", "", token)
    return json.loads(answer)["body"]["record"]

async def main():
    heard = {}
    host = Offline(lambda n, t: heard[n].append(json.loads(t)), lambda g, j: None, lambda n, c: None, bot_delay=0)
    records = []
    for preset, players, partnerships, level in %(games)s:
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": level}] * (players - 1)
        body = {"preset": preset, "players": players, "partnerships": partnerships, "seats": seats, "options": {"target": 1}}
        records.append(await game(host, heard, body))
    view = view_of(Game(seed=7).state, 1)
    moves = {level.name: format_code(think(level.spec, 7, 0, view)) for level in LEVELS}
    legal = sorted(str(m) for m in view.legal_moves())
    servers = sorted(m for m in sys.modules if m.split(".")[0] in ("fastapi", "sqlalchemy", "starlette", "babel", "psycopg"))
    compiled = [m for m in sys.modules if m.startswith("cassino") and (getattr(sys.modules[m], "__file__", "") or "").endswith(".so")]
    print(json.dumps({"records": records, "moves": moves, "legal": legal, "servers": servers, "compiled": compiled,
                      "version": sys.version.split()[0]}))
await main()
`);
"""
GAMES = [
    ("classic", 2, False, "casual"),
    ("royal", 3, False, "novice"),
    ("spade", 4, True, "beginner"),
    ("draw", 2, False, "club"),
]


def test_the_wheel_plays_in_pyodide(tmp_path: Path) -> None:
    """The vendored Pyodide (under Node, the same WebAssembly engine as the page's) installs the
    wheel, plays a game of each preset (2, 3 and 4 players, partnerships) to its end through
    ``Offline`` and has each of the six levels choose a legal move, importing no server library
    and no compiled module; each record checks out here."""
    node = shutil.which("node")
    if node is None:
        need("node is not installed (scripts/ensure-services.sh installs nodejs)")
    wheel = tmp_path / WHEEL
    wheel.write_bytes(engine_wheel())
    script = tmp_path / "games.mjs"
    games = json.dumps(GAMES).replace("false", "False").replace("true", "True")
    script.write_text(NODE_GAMES % {"pyodide": PYODIDE.as_posix(), "wheel": wheel.as_posix(), "games": games})
    proc = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, [line for line in proc.stderr.splitlines() if len(line) < 300][-12:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["version"].startswith("3.13") and out["servers"] == [] and out["compiled"] == []
    for record, (preset, players, _, _) in zip(out["records"], GAMES, strict=True):
        game = check_record(record)
        assert game.over and game.rules.preset == preset and game.rules.players == players
    assert sorted(out["moves"]) == sorted(level.name for level in LEVELS)
    assert set(out["moves"].values()) <= set(out["legal"])


def test_cassino_record_check_accepts_a_record_made_offline(tmp_path: Path) -> None:
    """The record a game played offline exports is accepted by ``cassino record check``."""

    async def run() -> str:
        page = Page()
        game, token = await new_game(page, options={"target": 1})
        page.host.open(1, game, token)
        await play_out(page, 1, random.Random(3))
        status, record = await page.request("GET", f"/api/games/{game}/record")
        assert status == 200
        return str(record["record"])

    path = tmp_path / "offline.txt"
    path.write_text(asyncio.run(run()))
    proc = cassino("record", "check", str(path))
    assert proc.returncode == 0, proc.stderr
