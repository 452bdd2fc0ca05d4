"""Load on the web app: many concurrent games of computer players through real ``cassino serve``
processes over loopback WebSockets, reporting games, moves per second and the move latency.

    python benchmarks/web_load.py                          # 200 games, a fresh server on SQLite
    python benchmarks/web_load.py --games 50 --think 0.2 --database postgresql://...
    python benchmarks/web_load.py --servers 2 --database postgresql://...   # two servers, one database
    python benchmarks/web_load.py --think 0.5 --find-capacity          # the most games with p99 <= 100 ms
    python benchmarks/web_load.py --url http://127.0.0.1:8000   # an already running server (--url again: more)

It needs only the ``web`` extra (``pip install 'cassino[web]'``): the standard library for HTTP,
``websockets`` (from ``uvicorn[standard]``) for the sockets, and the helpers of ``_web_client.py``
beside it. Every seat of every game is a client with its own WebSocket (two per game). A client
whose seat is to move waits ``--think`` seconds (a player's thinking time, drawn from an
exponential distribution with that mean; 0 is a machine-gun client), sends a random legal move
from its payload, and the move's latency is the time from sending it to receiving the state that
holds it: parsing, the engine's check, the database commit, the broadcast and the client's own
queue all included. The server and the clients share this machine's cores, so the figures are a
lower bound of what the server alone would do.

All the clients come from one address, so the servers this starts get ``--no-rate-limits`` (when
this ``cassino serve`` has it); a server given with ``--url`` must have been started with it too.
With ``--servers N`` (N > 1, PostgreSQL only) the games are dealt round-robin over the servers and
the two seats of a game sit on different ones: the game is created on its first seat's server and
its invitation claimed on the second's, so each move must reach the other server through the
database. ``--find-capacity`` raises the number of games (doubling from ``--games``, default 50,
then bisecting) until the 99th percentile passes ``--p99-target`` (or a run has errors) and
reports the most games that held it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from _web_client import (
    BenchError,
    Servers,
    Tally,
    add_server_arguments,
    claim,
    create_game,
    given_servers,
    is_sqlite,
    latency_figures,
    run_loop,
    seat_client,
    start_servers,
)

CREATING_AT_ONCE = 8
"""Create requests in flight at a time (each in a thread)."""


def seat_server(game_index: int, seat: int, servers: int) -> int:
    """Round-robin: game ``i``'s seat ``s`` on server ``(i + s) % servers``, so with two servers or
    more the seats of a game never share one."""
    return (game_index + seat) % servers


async def play(urls: list[str], games: int, think: float, target: int, seed: int, stall: float) -> tuple[Tally, float]:
    """Create the games, play them all at once; returns the tally and the seconds of play."""
    rng = random.Random(seed)
    body = {"options": {"target": target}, "seats": [{"kind": "human"}, {"kind": "human"}]}
    gate = asyncio.Semaphore(CREATING_AT_ONCE)
    n = len(urls)

    async def make(i: int) -> dict[str, Any]:
        async with gate:
            made = await create_game(urls[seat_server(i, 0, n)], body)
            for s in made["seats"]:  # the creator holds the first seat; the second is claimed by its invitation
                if "invite" in s:
                    s["token"] = await claim(urls[seat_server(i, s["seat"], n)], made["game"], s["invite"])
            return made

    made = await asyncio.gather(*(make(i) for i in range(games)))
    tally = Tally()
    start = time.perf_counter()
    await asyncio.gather(
        *(
            seat_client(
                urls[seat_server(i, s["seat"], n)],
                g["game"],
                s["token"],
                s["seat"],
                think,
                random.Random(rng.random()),
                tally,
                stall,
            )
            for i, g in enumerate(made)
            for s in g["seats"]
        )
    )
    return tally, time.perf_counter() - start


def measure(servers: Servers, games: int, args: argparse.Namespace, seed: int) -> tuple[dict[str, Any], Tally]:
    """One run of ``games`` games: its figures and what the clients saw."""
    tally, elapsed = run_loop(play(servers.urls, games, args.think, args.target, seed, args.stall))
    figures: dict[str, Any] = {
        "servers": len(servers.urls),
        "database": servers.database,
        "games": games,
        "games_finished": tally.finished,
        "think_s": args.think,
        "target": args.target,
        "moves": tally.moves,
        "seconds": round(elapsed, 2),
        "moves_per_s": round(tally.moves / elapsed, 1) if elapsed else 0.0,
        **latency_figures(tally.latencies),
        "errors": len(tally.errors),
        "cores": os.cpu_count(),
    }
    if args.bot_workers is not None:
        figures["bot_workers"] = args.bot_workers
    return figures, tally


def held(figures: dict[str, Any], p99_target: float) -> bool:
    """Whether a run held: every game finished, no error, the 99th percentile within the target."""
    return (
        not figures.get("failed")
        and figures["errors"] == 0
        and figures["games_finished"] == figures["games"]
        and figures["latency_p99_ms"] <= p99_target * 1000
    )


def find_capacity(servers: Servers, args: argparse.Namespace, start: int) -> dict[str, Any]:
    """Double the games from ``start`` until a run fails to hold, then bisect (to within an eighth);
    the most games that held and every run's figures. Each run's line goes to standard output (to
    standard error when the JSON goes there)."""
    runs: list[dict[str, Any]] = []
    out = sys.stderr if args.json == "-" else sys.stdout

    def attempt(games: int) -> bool:
        errors: list[str] = []
        try:
            figures, tally = measure(servers, games, args, args.seed + len(runs))
            errors = tally.errors
        except BenchError as exc:
            figures = {"games": games, "failed": str(exc)}
        ok = held(figures, args.p99_target)
        figures["held"] = ok
        runs.append(figures)
        if "failed" in figures:
            print(f"{games:>6} games: failed: {figures['failed']}", file=out, flush=True)
        else:
            print(
                f"{games:>6} games: {figures['moves_per_s']:>8} moves/s  p50 {figures['latency_p50_ms']:>8} ms"
                f"  p99 {figures['latency_p99_ms']:>8} ms  max {figures['latency_max_ms']:>8} ms"
                f"  errors {figures['errors']}  finished {figures['games_finished']}  {'held' if ok else 'FAILED'}",
                file=out,
                flush=True,
            )
            for error in errors[:3]:
                print("    error:", error, file=out)
        time.sleep(1)  # let the server settle between runs
        return ok

    good, bad = 0, None
    games = start
    while games <= args.max_games:
        if not attempt(games):
            bad = games
            break
        good = games
        games *= 2
    if bad is not None:
        while bad - good > max(1, bad // 8):
            mid = (good + bad) // 2
            if attempt(mid):
                good = mid
            else:
                bad = mid
    return {
        "mode": "find-capacity",
        "servers": len(servers.urls),
        "database": servers.database,
        "think_s": args.think,
        "target": args.target,
        "p99_target_ms": args.p99_target * 1000,
        "capacity_games": good,
        "first_failing_games": bad,
        "runs": runs,
    }


def write_json(where: str, figures: dict[str, Any]) -> None:
    """The figures as JSON: on standard output for ``-``, else into the file."""
    text = json.dumps(figures, indent=None if where == "-" else 2)
    if where == "-":
        print(text)
    else:
        Path(where).write_text(text + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="concurrent games (default 200; with --find-capacity the first step, 50)",
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a client thinks before a move (default 0)"
    )
    parser.add_argument("--target", type=int, default=21, help="game target in points (default 21)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--url",
        action="append",
        help="an already running server, started with --no-rate-limits (give it again for more; default: start them)",
    )
    parser.add_argument(
        "--servers", type=int, default=None, help="servers to start on one database (default 1; more need PostgreSQL)"
    )
    parser.add_argument("--database", help="database URL for the started servers (default: a temporary SQLite file)")
    parser.add_argument("--port", type=int, default=8765, help="port of the first started server (the next: +1, ...)")
    add_server_arguments(parser)
    parser.add_argument(
        "--find-capacity", action="store_true", help="raise the games until p99 passes --p99-target; report the most"
    )
    parser.add_argument(
        "--p99-target", type=float, default=0.1, help="seconds the 99th percentile may reach (default 0.1)"
    )
    parser.add_argument("--max-games", type=int, default=6400, help="where --find-capacity stops (default 6400)")
    args = parser.parse_args()
    if args.url:
        if args.servers not in (None, len(args.url)):
            parser.error(f"--servers {args.servers} with {len(args.url)} --url: the servers are the URLs given")
        if args.database or args.bot_workers is not None:
            parser.error("--database and --bot-workers are for the servers this starts, not with --url")
    count = len(args.url) if args.url else (1 if args.servers is None else args.servers)
    if count < 1:
        parser.error("--servers must be 1 or more")
    if not args.url and count > 1 and is_sqlite(args.database):
        parser.error(
            f"--servers {count} needs PostgreSQL (--database postgresql://...): SQLite is one local file, "
            "which more than one server cannot share"
        )
    games = args.games if args.games is not None else (50 if args.find_capacity else 200)
    if games < 1:
        parser.error("--games must be 1 or more")
    try:
        servers = (
            given_servers(args.url)
            if args.url
            else start_servers(count, args.database, args.port, 0.0, args.bot_workers)
        )
    except BenchError as exc:
        sys.exit(f"web_load: {exc}")
    for note in servers.notes:
        print("note:", note, file=sys.stderr)
    with servers:
        try:
            if args.find_capacity:
                report = find_capacity(servers, args, games)
            else:
                figures, tally = measure(servers, games, args, args.seed)
        except BenchError as exc:
            sys.exit(f"web_load: {exc}")
    if args.find_capacity:
        bad = report["first_failing_games"]
        print(
            f"capacity: {report['capacity_games']} games held p99 <= {report['p99_target_ms']:g} ms at think "
            f"{args.think:g} s on {count} server(s)"
            + (f"; {bad} did not" if bad is not None else f"; the most tried (raise --max-games {args.max_games})"),
            file=sys.stderr if args.json == "-" else sys.stdout,
        )
        if args.json:
            write_json(args.json, report)
        sys.exit(0 if report["capacity_games"] else 1)
    if args.json == "-":
        write_json("-", figures)
    else:
        for key, value in figures.items():
            print(f"{key:>16}: {value}")
        for error in tally.errors[:5]:
            print("  error:", error)
        if args.json:
            write_json(args.json, figures)
    if tally.errors or tally.finished != games:
        sys.exit(1)


if __name__ == "__main__":
    main()
