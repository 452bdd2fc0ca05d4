"""Load on the web app: many concurrent games of computer players through a real ``cassino serve``
over loopback WebSockets, reporting games, moves per second and the move latency.

    python benchmarks/web_load.py                          # 200 games, a fresh server on SQLite
    python benchmarks/web_load.py --games 50 --think 0.2 --database postgresql://...
    python benchmarks/web_load.py --url http://127.0.0.1:8000   # an already running server

Every seat of every game is a client with its own WebSocket (two per game). A client whose seat is
to move waits ``--think`` seconds (a player's thinking time; 0 is a machine-gun client), sends a
random legal move from its payload, and the move's latency is the time from sending it to
receiving the state that holds it: parsing, the engine's check, the database commit, the
broadcast and the client's own queue all included. The server and the clients share this
machine's cores, so the figures are a lower bound of what the server alone would do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import websockets

T = TypeVar("T")


@dataclass
class Tally:
    """What all clients saw."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finished: int = 0


def start_server(
    database: str | None, port: int
) -> tuple[subprocess.Popen[str], str, tempfile.TemporaryDirectory[str]]:
    """A fresh ``cassino serve`` on a temporary SQLite file (or the given database)."""
    folder = tempfile.TemporaryDirectory(prefix="cassino-load-")
    db = database or f"sqlite:///{Path(folder.name) / 'web.sqlite3'}"
    cmd = [sys.executable, "-m", "cassino.cli", "serve", "--port", str(port), "--database", db, "--bot-delay", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/config", timeout=1).status_code == 200:
                return proc, url, folder
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server did not start: {proc.stderr.read() if proc.stderr else ''}")


async def seat_client(
    url: str, game: str, token: str, seat: int, think: float, rng: random.Random, tally: Tally
) -> None:
    """One seat: random legal moves until the game is over, timing each move."""
    ws_url = url.replace("http", "ws", 1) + f"/api/games/{game}/ws?token={token}"
    async with websockets.connect(ws_url, max_size=None, ping_interval=None, compression=None) as ws:
        sent_at: float | None = None
        sent_version = -1
        async for raw in ws:
            msg: dict[str, Any] = json.loads(raw)
            if msg["type"] == "error":
                tally.errors.append(f"game {game} seat {seat}: {msg['error']}")
                sent_at = None
                await ws.send(json.dumps({"type": "state"}))
                continue
            if msg["type"] != "state":
                continue
            if sent_at is not None and msg["version"] > sent_version:
                tally.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["status"] == "over":
                if seat == 0:
                    tally.finished += 1
                return
            if msg.get("phase") == "count":  # a hand is over: the next starts when both press next
                if seat in msg["waiting_for"]:
                    await ws.send(json.dumps({"type": "next"}))
                continue
            if msg["to_move"] == seat and sent_at is None and msg["legal"]:
                if think:
                    await asyncio.sleep(rng.expovariate(1 / think))
                move = rng.choice(msg["legal"])["move"]
                sent_version = msg["version"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": move, "version": sent_version}))


async def run(url: str, games: int, think: float, target: int, seed: int) -> tuple[Tally, float, int]:
    """Create the games, play them all at once; returns the tally, the seconds and the moves made."""
    rng = random.Random(seed)
    body = {"options": {"target": target}, "seats": [{"kind": "human"}, {"kind": "human"}]}
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        made = [(await http.post("/api/games", json=body)).json() for _ in range(games)]
        for g in made:  # the creator holds the first seat; the second is claimed by its invitation
            for s in g["seats"]:
                if "invite" in s:
                    claimed = (await http.post(f"/api/games/{g['game']}/claim", json={"invite": s["invite"]})).json()
                    s["token"] = claimed["token"]
        tally = Tally()
        start = time.perf_counter()
        await asyncio.gather(
            *(
                seat_client(url, g["game"], s["token"], s["seat"], think, random.Random(rng.random()), tally)
                for g in made
                for s in g["seats"]
            )
        )
        elapsed = time.perf_counter() - start
        moves = 0
        for g in made:
            moves += (await http.get(f"/api/games/{g['game']}")).json()["version"]
    return tally, elapsed, moves


def run_loop(task: Coroutine[Any, Any, T]) -> T:
    """Run the clients on uvloop when it is installed: they share the cores with the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(task)
    return uvloop.run(task)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a client thinks before a move (default 0)"
    )
    parser.add_argument("--target", type=int, default=21, help="game target in points (default 21)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="an already running server (default: start one)")
    parser.add_argument("--database", help="database URL for the started server (default: a temporary SQLite file)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    proc = None
    folder = None
    url = args.url
    if url is None:
        proc, url, folder = start_server(args.database, args.port)
    try:
        main_task = run(url, args.games, args.think, args.target, args.seed)
        tally, elapsed, moves = run_loop(main_task)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
        if folder is not None:
            folder.cleanup()
    lat = sorted(tally.latencies)
    q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else [0.0] * 99
    figures = {
        "games": args.games,
        "games_finished": tally.finished,
        "think_s": args.think,
        "moves": moves,
        "seconds": round(elapsed, 2),
        "moves_per_s": round(moves / elapsed, 1),
        "latency_p50_ms": round(q[49] * 1000, 2),
        "latency_p90_ms": round(q[89] * 1000, 2),
        "latency_p99_ms": round(q[98] * 1000, 2),
        "latency_max_ms": round(lat[-1] * 1000, 2) if lat else 0.0,
        "errors": len(tally.errors),
        "cores": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>16}: {value}")
        for error in tally.errors[:5]:
            print("  error:", error)
    if tally.errors or tally.finished != args.games:
        sys.exit(1)


if __name__ == "__main__":
    main()
