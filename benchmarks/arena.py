"""Arena throughput: games per second of one match on each executor, and a check that all of them
give the same results for the seed.

    python benchmarks/arena.py                      # greedy vs random, 200 deals, every executor
    python benchmarks/arena.py --players heuristic greedy --deals 50 --executors inprocess process

Needs the arena extra for Ray: pip install -e '.[arena]'. Start-up (spawning processes, starting a
local Ray) is reported apart from the games' wall time.
"""

from __future__ import annotations

import argparse
import json
import time

from cassino.arena import ArenaConfig, identical_part, make_executor, run_arena
from cassino.rules import make_rules


def main() -> None:
    """Run the match on each executor and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", nargs="+", default=["greedy", "random"])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--executors", nargs="+", default=["inprocess", "process", "ray"])
    args = parser.parse_args()
    config = ArenaConfig(tuple(args.players), make_rules("classic"), args.deals, args.seed)
    reference = None
    for name in args.executors:
        start = time.perf_counter()
        executor = make_executor(name, None if name == "inprocess" else args.workers)
        ready = time.perf_counter() - start
        try:
            result = run_arena(config, executor)
        finally:
            executor.close()
        same = identical_part(json.loads(json.dumps(result.to_json())))
        reference = reference or same
        games = len(result.tasks)
        print(
            f"{name:9} {executor.workers:3} workers  start {ready:5.1f} s  {games} games in {result.wall_seconds:6.2f} s"
            f"  = {games / result.wall_seconds:7.1f} games/s  identical: {same == reference}"
        )


if __name__ == "__main__":
    main()
