"""What the web benchmarks (``web_load.py``, ``web_bots.py``) share: ``cassino serve`` processes
started, probed and stopped; the few HTTP calls (the standard library's ``urllib``, run in a thread);
the WebSocket clients of a seat (random legal moves after a think time, each move timed) and of a
spectator; the latency tally. It needs only the ``web`` extra: ``websockets`` comes with
``uvicorn[standard]``. Imported by name from this folder (``python benchmarks/web_load.py`` puts
the folder first on ``sys.path``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import inspect
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import websockets
from websockets.exceptions import WebSocketException

T = TypeVar("T")

RATE_LIMITS_NOTE = (
    "this cassino serve has no --no-rate-limits, so every client address is rate-limited (20 new games at once "
    "then one every 30 s; 120 moves at once then 5 a second): a benchmark from one address sees refusals (429)"
)


class BenchError(Exception):
    """A server that would not start, or an HTTP call that failed: the benchmark stops with it."""


# ---------------------------------------------------------------------- HTTP (standard library)
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""Loopback calls never go through a proxy named in the environment."""


def http_json(method: str, url: str, body: Any = None, timeout: float = 30.0) -> Any:
    """One HTTP call with a JSON body (if any), its JSON answer; a ``BenchError`` naming the
    server's own message for a refusal."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data is not None else {}
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        text = exc.read().decode(errors="replace")
        try:
            message = json.loads(text)["error"]
        except (ValueError, KeyError, TypeError):
            message = text.strip()
        raise BenchError(f"{method} {url}: {exc.code} {message}") from None
    except OSError as exc:  # URLError, a refused connection, a timeout
        raise BenchError(f"{method} {url}: {getattr(exc, 'reason', exc)}") from None


async def call(method: str, url: str, body: Any = None) -> Any:
    """``http_json`` off the event loop (in a thread), so the sockets go on being served."""
    return await asyncio.to_thread(http_json, method, url, body)


async def create_game(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """A new game on the server at ``url``: its id (``game``) and seats (the creator's with its
    ``token``, each other person's with its ``invite``)."""
    made: dict[str, Any] = await call("POST", f"{url}/api/games", body)
    return made


async def claim(url: str, game: str, invite: str) -> str:
    """A seat's token for its invitation."""
    claimed = await call("POST", f"{url}/api/games/{game}/claim", {"invite": invite})
    return str(claimed["token"])


# ---------------------------------------------------------------------- servers
@functools.cache
def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """The options both benchmarks take for the servers they start and their clients."""
    parser.add_argument("--bot-workers", type=int, default=None, help="passed on to the started servers' serve")
    parser.add_argument(
        "--stall", type=float, default=60.0, help="seconds without a message before a client gives up (default 60)"
    )
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="FILE",
        help="write the figures as JSON to FILE (alone: print them as JSON instead of the table)",
    )


def serve_flags() -> frozenset[str]:
    """The options this installation's ``cassino serve`` has, read from its ``--help``: the
    benchmarks pass the newer ones (``--no-rate-limits``, ``--bot-workers``) only where listed."""
    done = subprocess.run(
        [sys.executable, "-m", "cassino.cli", "serve", "--help"], capture_output=True, text=True, check=False
    )
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise BenchError(f"`{sys.executable} -m cassino.cli serve --help` failed (status {done.returncode}): {last}")
    return frozenset(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", done.stdout))


def is_sqlite(database: str | None) -> bool:
    """Whether the database a started server gets is SQLite (the default is)."""
    return database is None or database.startswith("sqlite")


def raise_fd_limit() -> None:
    """Open files up to the hard limit: each game holds two sockets at both ends, and the started
    servers inherit the limit."""
    try:
        import resource
    except ImportError:  # not on this system (Windows): its default is large
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


@dataclass
class Servers:
    """The servers a benchmark plays on: the ones it started (stopped on leaving) or given ones."""

    urls: list[str]
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    folder: tempfile.TemporaryDirectory[str] | None = None
    database: str = "given"
    """'sqlite', 'postgresql' (or the URL's scheme), or 'given' for servers already running."""
    flags: list[str] = field(default_factory=list)
    """The options passed to each started server."""
    notes: list[str] = field(default_factory=list)
    """What the figures should be read with (an option this server lacks)."""

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.procs.clear()
        if self.folder is not None:
            self.folder.cleanup()
            self.folder = None

    def log_tail(self, index: int, lines: int = 20) -> str:
        """The end of a started server's output (its errors)."""
        if index >= len(self.logs) or not self.logs[index].exists():
            return ""
        return "\n".join(self.logs[index].read_text(errors="replace").splitlines()[-lines:])

    def __enter__(self) -> Servers:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def given_servers(urls: list[str]) -> Servers:
    """Servers already running at ``urls`` (each probed first)."""
    servers = Servers([u.rstrip("/") for u in urls])
    for url in servers.urls:
        wait_ready(url, None, 10)
    return servers


def start_servers(
    count: int, database: str | None, port: int, bot_delay: float = 0.0, bot_workers: int | None = None
) -> Servers:
    """``count`` fresh ``cassino serve`` processes on ports ``port``, ``port + 1``, ...: on one
    temporary SQLite file (``count`` 1 only) or the given database, with ``--bot-delay``, and
    ``--no-rate-limits`` where this server has it (a benchmark plays from one address)."""
    if count < 1:
        raise BenchError(f"there must be at least one server, not {count}")
    if count > 1 and is_sqlite(database):
        raise BenchError(
            f"{count} servers need one database they all reach: give --database postgresql://... "
            "(SQLite is one local file, written by one server)"
        )
    flags = serve_flags()
    folder = tempfile.TemporaryDirectory(prefix="cassino-bench-")
    db = database or f"sqlite:///{Path(folder.name) / 'web.sqlite3'}"
    extra = ["--bot-delay", f"{bot_delay:g}"]
    notes = []
    if "--no-rate-limits" in flags:
        extra.append("--no-rate-limits")
    else:
        notes.append(RATE_LIMITS_NOTE)
    if bot_workers is not None:
        if "--bot-workers" not in flags:
            folder.cleanup()
            raise BenchError("this cassino serve has no --bot-workers option: leave out --bot-workers")
        extra += ["--bot-workers", str(bot_workers)]
    servers = Servers(
        [], folder=folder, database="sqlite" if is_sqlite(database) else db.split(":", 1)[0], flags=extra, notes=notes
    )
    raise_fd_limit()
    try:
        for k in range(count):
            cmd = [sys.executable, "-m", "cassino.cli", "serve", "--port", str(port + k), "--database", db, *extra]
            log = Path(folder.name) / f"serve-{k}.log"
            with log.open("wb") as out:
                servers.procs.append(subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT))
            servers.logs.append(log)
            servers.urls.append(f"http://127.0.0.1:{port + k}")
        for k, url in enumerate(servers.urls):
            try:
                wait_ready(url, servers.procs[k], 60)
            except BenchError as exc:
                raise BenchError(f"{exc}\n{servers.log_tail(k)}") from None
    except BaseException:
        servers.stop()
        raise
    return servers


def wait_ready(url: str, proc: subprocess.Popen[bytes] | None, timeout: float) -> None:
    """Until the server at ``url`` answers ``/api/config``; a ``BenchError`` if its process exits
    or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            http_json("GET", url + "/api/config", timeout=1)
            return
        except BenchError as exc:
            if proc is not None and proc.poll() is not None:
                raise BenchError(
                    f"the server for {url} exited (status {proc.returncode}) before it was ready"
                ) from None
            if time.monotonic() > deadline:
                raise BenchError(f"the server at {url} did not answer in {timeout:g} s: {exc}") from None
            time.sleep(0.1)


# ---------------------------------------------------------------------- WebSocket clients
_CONNECT: dict[str, Any] = {"max_size": None, "ping_interval": None, "compression": None, "open_timeout": 60}
with contextlib.suppress(TypeError, ValueError):
    if "proxy" in inspect.signature(websockets.connect).parameters:  # websockets 15+: not through a proxy
        _CONNECT["proxy"] = None


def ws_url(url: str, game: str, token: str | None = None) -> str:
    """A game's socket on the server at ``url``: a seat's with its token, a spectator's without."""
    return url.replace("http", "ws", 1) + f"/api/games/{game}/ws" + (f"?token={token}" if token else "")


def latency_figures(latencies: list[float]) -> dict[str, float]:
    """p50, p90, p99 and the largest latency in milliseconds."""
    lat = sorted(latencies)
    q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else [lat[0] if lat else 0.0] * 99
    return {
        "latency_p50_ms": round(q[49] * 1000, 2),
        "latency_p90_ms": round(q[89] * 1000, 2),
        "latency_p99_ms": round(q[98] * 1000, 2),
        "latency_max_ms": round(lat[-1] * 1000, 2) if lat else 0.0,
    }


@dataclass
class Tally:
    """What the clients saw."""

    latencies: list[float] = field(default_factory=list)
    """Seconds from sending each move to receiving the state that holds it."""
    errors: list[str] = field(default_factory=list)
    finished: int = 0
    """Games seen to their end (by their seat 0)."""
    versions: dict[str, int] = field(default_factory=dict)
    """By game, the last version (moves made) seen."""

    @property
    def moves(self) -> int:
        return sum(self.versions.values())

    def seen(self, game: str, version: int) -> None:
        if version > self.versions.get(game, -1):
            self.versions[game] = version


async def _messages(ws: Any, stall: float) -> Any:
    """The socket's messages as JSON objects; ``TimeoutError`` after ``stall`` seconds of silence."""
    while True:
        raw = await asyncio.wait_for(ws.recv(), stall)
        yield json.loads(raw)


async def seat_client(
    url: str,
    game: str,
    token: str,
    seat: int,
    think: float,
    rng: random.Random,
    tally: Tally,
    stall: float = 60.0,
    done: Callable[[], bool] | None = None,
) -> None:
    """One seat: a random legal move after a think time (exponential, mean ``think`` seconds)
    whenever it is to move, ``next`` between hands, until the game is over (or ``done()``); each
    move's latency runs from sending it to receiving the state that holds it (a newer version).
    ``stall`` seconds without a message end the client with an error."""
    where = f"game {game} seat {seat}"
    try:
        async with websockets.connect(ws_url(url, game, token), **_CONNECT) as ws:
            sent_at: float | None = None
            sent_version = -1
            pressed = None  # the hand whose count this seat has ended with next (once: a second press is refused)
            async for msg in _messages(ws, stall):
                if msg["type"] == "error":
                    tally.errors.append(f"{where}: {msg.get('status')} {msg['error']}")
                    sent_at = None
                    if msg.get("status") == 429:  # rate-limited: do not hammer it
                        await asyncio.sleep(1)
                    await ws.send(json.dumps({"type": "state"}))
                    continue
                if msg["type"] != "state":
                    continue
                tally.seen(game, msg["version"])
                if sent_at is not None and msg["version"] > sent_version:
                    tally.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                if msg["status"] == "over":
                    if seat == 0:
                        tally.finished += 1
                    return
                if done is not None and done():
                    return
                if msg.get("phase") == "count":  # a hand is over: the next starts when everyone presses next
                    if seat in msg["waiting_for"] and pressed != msg["hand_number"]:
                        pressed = msg["hand_number"]
                        await ws.send(json.dumps({"type": "next"}))
                    continue
                if msg["to_move"] == seat and sent_at is None and msg["legal"]:
                    if think:
                        await asyncio.sleep(rng.expovariate(1 / think))
                    move = rng.choice(msg["legal"])["move"]
                    sent_version = msg["version"]
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "move", "move": move, "version": sent_version}))
    except TimeoutError:
        tally.errors.append(f"{where}: no message for {stall:g} s (the game stalled)")
    except (OSError, WebSocketException) as exc:
        tally.errors.append(f"{where}: the socket failed: {exc!r}")


async def watch(
    url: str, game: str, on_state: Callable[[dict[str, Any]], None], errors: list[str], stall: float = 600.0
) -> dict[str, Any] | None:
    """A spectator (no token) of a game: ``on_state`` for each state, until the game is over;
    returns the last state (None if the socket failed, noted in ``errors``)."""
    last = None
    try:
        async with websockets.connect(ws_url(url, game), **_CONNECT) as ws:
            async for msg in _messages(ws, stall):
                if msg["type"] == "error":
                    errors.append(f"watching game {game}: {msg.get('status')} {msg['error']}")
                    return None
                if msg["type"] != "state":
                    continue
                last = msg
                on_state(msg)
                if msg["status"] == "over":
                    return last
    except TimeoutError:
        errors.append(f"watching game {game}: no message for {stall:g} s")
    except (OSError, WebSocketException) as exc:
        errors.append(f"watching game {game}: the socket failed: {exc!r}")
    return last if last is not None and last["status"] == "over" else None


def run_loop(task: Coroutine[Any, Any, T]) -> T:
    """Run the clients on uvloop when it is installed (it comes with ``uvicorn[standard]``): they
    share the cores with the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(task)
    return uvloop.run(task)
