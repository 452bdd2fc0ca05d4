"""``cassino arena``: its arguments, and the command from parsed arguments to printed results."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path

from ..arena.executors import EXECUTORS, make_executor
from ..arena.progress import Progress
from ..arena.report import format_report, write_outputs
from ..arena.schedule import plan
from ..arena.tournament import ArenaConfig, run_arena
from ..players import player_names
from ..rules import Rules, RulesError
from .errors import ArenaUsageError
from .outputs import writable_folder
from .rules_args import add_rules_arguments, rules_from_args

EPILOG = """\
Two players (or two teams with --partnerships) play a match; more play a round robin in which every
pair meets. With --players 3 or 4 (no partnerships) a table seats that many: exactly that many names
play one table, more play every group of 3 or 4. Each deal is played once per seating: both seat
orders for two sides (team A in seats 0/2, then in 1/3), every rotation for 3 or 4 players, so
every player sits in every seat on the same cards. Every table plays the same deals. A name given
twice enters twice (greedy#1, greedy#2). Player specs take settings: search:worlds=30.

Players from outside: bot:PATH is a program in any language that speaks the bot protocol
(docs/bots.md), with settings after a last colon (bot:bots/mine.sh:time=1,memory=256: seconds a
move, MiB of memory, also cpu, start, restart, stderr); MODULE:CLASS is a Python class or factory
importable from sys.path, FILE.py[:CLASS] one in that file (taking its settings the same way). A
player that fails to move (it hangs, crashes, answers garbage or an illegal move) forfeits that
game: its side loses, the report counts the forfeits and why, and the other games go on.

The same seed gives the same games and figures under every executor, as long as the players are
deterministic: a time budget (search:time=0.5) depends on the machine's speed and load.
"""


def add_arena_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``cassino arena``."""
    p.description = "Matches and round-robin tournaments between computer players, on mirrored deals."
    p.epilog = EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument(
        "entrants",
        nargs="+",
        metavar="PLAYER",
        help=f"player spec: {', '.join(player_names())}; or bot:PATH (a program, docs/bots.md), MODULE:CLASS "
        "or FILE.py[:CLASS] (Python)",
    )
    p.add_argument(
        "--games",
        "-n",
        type=int,
        default=100,
        metavar="N",
        help="deals per table, each played once per seating (default 100)",
    )
    add_run_arguments(p)


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """The options of playing games on an executor, shared by ``cassino arena`` and ``cassino
    tournament``: the rules, the seed, where games run, and what is written."""
    add_rules_arguments(p, "seats at a table (default 2)")
    p.add_argument("--seed", type=int, default=None, help="master seed (random, and printed, if omitted)")
    p.add_argument("--executor", choices=EXECUTORS, default=None, help="where games run (default process)")
    p.add_argument(
        "--workers", type=int, default=None, metavar="K", help="worker processes or Ray CPUs (default all cores)"
    )
    p.add_argument("--address", default=None, help="join this Ray cluster (implies --executor ray)")
    p.add_argument(
        "--max-hands", type=int, default=100, help="stop a game undecided after this many hands (default 100)"
    )
    p.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help="write results.json, results.csv and ratings.png here"
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules chosen on the command line."""
    return rules_from_args(args)


def run_arena_command(args: argparse.Namespace) -> None:
    """Check everything, play, print the table and write the files; user errors raise ArenaUsageError."""
    try:
        rules = rules_of(args)
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        config = ArenaConfig(tuple(args.entrants), rules, args.games, seed, args.max_hands)
        config.check()
        if args.games < 1:
            raise ValueError(f"--games must be 1 or more, got {args.games}")
        total = len(plan(config.players, rules, config.deals, seed, config.max_hands)[1])
        if args.out is not None:  # checked before any game: a whole arena is not lost at its end
            writable_folder(args.out, "--out")
        executor_name = args.executor or ("ray" if args.address else "process")
        executor = make_executor(executor_name, args.workers, args.address)
    except (RulesError, ValueError, RuntimeError) as exc:
        raise ArenaUsageError(str(exc)) from None
    try:
        progress = Progress(total, enabled=not args.quiet)
        try:
            result = run_arena(config, executor, progress.update)
        finally:
            progress.close()
    except KeyboardInterrupt:
        print("cassino arena: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        executor.close()
    print(format_report(result))
    if args.out is not None:
        written, note = write_outputs(result, args.out)
        print(f"\nwrote {', '.join(str(p) for p in written)}")
        if note:
            print(f"cassino arena: {note}", file=sys.stderr)
