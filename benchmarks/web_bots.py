"""A person's moves beside computer players thinking at their largest budget: whether a game of
the strongest table player (``master``, searching) slows down the answers to everyone else on the
same ``cassino serve``.

    python benchmarks/web_bots.py                     # one master-against-master game and a person's game
    python benchmarks/web_bots.py --bot-games 4 --bot-workers 2 --moves 600

It needs only the ``web`` extra (``pip install 'cassino[web]'``), like ``web_load.py``, with the
helpers of ``_web_client.py`` beside it. It starts a server with ``--bot-delay 0`` (and
``--no-rate-limits`` when this ``cassino serve`` has it; ``--bot-workers`` is passed on), creates
``--bot-games`` games where only computer players sit (``--bot`` against itself; each is watched
over a spectator's socket, no token, and replaced by a new one when it ends, so the load stays),
then plays a person's game against ``--opponent`` (a fast player, ``random``): the client sends a
random legal move after a think time (mean ``--think`` seconds) whenever the person is to move,
new games following until ``--moves`` moves are timed. A move's latency runs from sending it to
receiving the state that holds it. Reported: the person's p50, p99 and largest latency, with the
target (p99 under ``--p99-target``, 0.2 s) beside it, and the moves the computer players made
meanwhile. Exits 1 when the target is missed or a client saw an error.
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
    Tally,
    add_server_arguments,
    create_game,
    given_servers,
    latency_figures,
    run_loop,
    seat_client,
    start_servers,
    watch,
)


async def bench(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """The bot games and the person's games at once; the figures."""
    errors: list[str] = []
    bot_body = {"options": {"target": args.target}, "seats": [{"kind": "bot", "bot": args.bot}] * 2}
    person_body = {
        "options": {"target": args.target},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": args.opponent}],
    }
    measuring = False
    bot_moves = 0
    bot_games_finished = 0
    watching = asyncio.Event()
    connected = 0

    async def keep_bot_game() -> None:
        """One bot game after another, counting their moves while the person plays."""
        nonlocal bot_moves, bot_games_finished, connected
        first = True
        while True:
            made = await create_game(url, bot_body)
            last = 0

            def on_state(msg: dict[str, Any]) -> None:
                nonlocal last, bot_moves, connected, first
                if first:
                    first = False
                    connected += 1
                    if connected == args.bot_games:
                        watching.set()
                if msg["version"] > last:
                    if measuring:
                        bot_moves += msg["version"] - last
                    last = msg["version"]

            if await watch(url, made["game"], on_state, errors) is None:
                watching.set()  # a failed watch (noted in errors) must not hold up the person
                return
            if measuring:
                bot_games_finished += 1

    bots = [asyncio.create_task(keep_bot_game()) for _ in range(args.bot_games)]
    try:
        if bots:  # until every bot game is watched (or one has failed: then the person does not play)
            waiter = asyncio.create_task(watching.wait())
            await asyncio.wait([waiter, *bots], timeout=60, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
        tally = Tally()
        rng = random.Random(args.seed)
        person_games = 0
        measuring = True
        start = time.perf_counter()
        while len(tally.latencies) < args.moves and not any(b.done() for b in bots):
            made = await create_game(url, person_body)
            seat = made["you"]
            token = next(s["token"] for s in made["seats"] if s["seat"] == seat)
            finished = tally.finished
            await seat_client(
                url,
                made["game"],
                token,
                seat,
                args.think,
                rng,
                tally,
                args.stall,
                done=lambda: len(tally.latencies) >= args.moves,
            )
            person_games += 1
            if tally.finished == finished and len(tally.latencies) < args.moves:
                break  # the client gave up (its error is in the tally)
        elapsed = time.perf_counter() - start
        measuring = False
    finally:
        for task in bots:
            task.cancel()
        outcomes = await asyncio.gather(*bots, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException) and not isinstance(outcome, asyncio.CancelledError):
            errors.append(f"a bot game: {outcome!r}")
    figures: dict[str, Any] = {
        "bot": args.bot,
        "bot_games": args.bot_games,
        "bot_workers": args.bot_workers,
        "opponent": args.opponent,
        "think_s": args.think,
        "person_moves": len(tally.latencies),
        "person_games": person_games,
        "seconds": round(elapsed, 2),
        **latency_figures(tally.latencies),
        "p99_target_ms": round(args.p99_target * 1000, 2),
        "bot_moves": bot_moves,
        "bot_moves_per_s": round(bot_moves / elapsed, 2) if elapsed else 0.0,
        "bot_games_finished": bot_games_finished,
        "errors": len(tally.errors) + len(errors),
        "cores": os.cpu_count(),
    }
    figures["held"] = figures["errors"] == 0 and figures["latency_p99_ms"] < figures["p99_target_ms"]
    figures["error_samples"] = (tally.errors + errors)[:5]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-games", type=int, default=1, help="games of computer players only (default 1)")
    parser.add_argument("--bot", default="master", help="the computer player of those games (default master)")
    parser.add_argument("--opponent", default="random", help="the person's opponent (default random: fast)")
    parser.add_argument("--moves", type=int, default=300, help="the person's moves to time (default 300)")
    parser.add_argument("--think", type=float, default=0.05, help="mean seconds the person thinks (default 0.05)")
    parser.add_argument(
        "--p99-target", type=float, default=0.2, help="seconds the person's p99 must stay under (default 0.2)"
    )
    parser.add_argument("--target", type=int, default=21, help="game target in points (default 21)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="an already running server started with --no-rate-limits (default: start one)")
    parser.add_argument("--database", help="database URL for the started server (default: a temporary SQLite file)")
    parser.add_argument("--port", type=int, default=8765)
    add_server_arguments(parser)
    args = parser.parse_args()
    if args.url and (args.database or args.bot_workers is not None):
        parser.error("--database and --bot-workers are for the server this starts, not with --url")
    if args.bot_games < 0 or args.moves < 1:
        parser.error("--bot-games must be 0 or more and --moves 1 or more")
    try:
        servers = (
            given_servers([args.url]) if args.url else start_servers(1, args.database, args.port, 0.0, args.bot_workers)
        )
    except BenchError as exc:
        sys.exit(f"web_bots: {exc}")
    for note in servers.notes:
        print("note:", note, file=sys.stderr)
    with servers:
        try:
            figures = run_loop(bench(servers.urls[0], args))
        except BenchError as exc:
            sys.exit(f"web_bots: {exc}")
    figures["database"] = servers.database
    if args.json == "-":
        print(json.dumps(figures))
    else:
        samples = figures.pop("error_samples")
        for key, value in figures.items():
            print(f"{key:>18}: {value}")
        print(
            f"person's p99 {figures['latency_p99_ms']} ms (target: p99 < {figures['p99_target_ms']:g} ms): "
            + ("held" if figures["held"] else "MISSED")
        )
        for error in samples:
            print("  error:", error)
        if args.json:
            figures["error_samples"] = samples
            Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    if not figures["held"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
