"""The coach's time to value one position, today's against an earlier version's, in one run.

Two worker processes value the same positions (those of coach_noise.py: heuristic self-play,
classic, a real choice and cards in the stock), one importing the package from this checkout and
one from ``--before`` (the ``src`` folder of another checkout, for example a git worktree of an
earlier commit); they take turns a few positions at a time, so both meet the same load. Reported:
each one's mean and p90 time a position, the ratio, and the moves each flags (a loss above its
margin) with how many of those flags the two share.

    git worktree add /tmp/before <commit>
    python benchmarks/coach_speed.py --before /tmp/before/src [--positions 80] [--chunk 5]

How many flags two coaches share by chance alone (the noise of sampling, which decides the moves
near the margin) is what one version gives with two seeds: ``--now /tmp/before/src --seed-offset 1000``.

Both run as Python source unless each checkout has its own compiled engine: set CASSINO_PURE=1
to compare the two as source, on equal terms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

WORKER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from coach_noise import positions
from cassino.learn.coach import Coach, MARGIN
views = positions(int(sys.argv[3]), 1)
offset = int(sys.argv[4])
for line in sys.stdin:
    lo, hi = json.loads(line)
    out = []
    for i in range(lo, hi):
        coach = Coach(seed=i + offset)
        began = time.perf_counter()
        ranked = coach.values(views[i])
        spent = time.perf_counter() - began
        top = ranked[0][1]
        out.append([spent, sorted(code for code, v in ranked if top - v > MARGIN)])
    print(json.dumps(out), flush=True)
"""


def start(src: Path, count: int, offset: int) -> subprocess.Popen[str]:
    """A worker valuing positions with the package found in ``src`` (position i with seed i + offset)."""
    bench = Path(__file__).resolve().parent
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, str(src), str(bench), str(count), str(offset)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=os.environ.copy(),
    )  # fmt: skip


def ask(worker: subprocess.Popen[str], lo: int, hi: int) -> list[tuple[float, list[int]]]:
    """Positions ``lo`` to ``hi`` valued by ``worker``: time and flagged moves of each."""
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(json.dumps([lo, hi]) + "\n")
    worker.stdin.flush()
    return [(t, flags) for t, flags in json.loads(worker.stdout.readline())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the src folder of the version to compare with")
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--chunk", type=int, default=5)
    parser.add_argument("--now", help="the src folder of the version timed as now (default: this checkout's)")
    parser.add_argument("--seed-offset", type=int, default=0, help="seeds of now's coaches, past before's")
    args = parser.parse_args()
    now_src = Path(args.now) if args.now else Path(__file__).resolve().parent.parent / "src"
    workers = {
        "before": start(Path(args.before), args.positions, 0),
        "now": start(now_src, args.positions, args.seed_offset),
    }
    results: dict[str, list[tuple[float, list[int]]]] = {"before": [], "now": []}
    for lo in range(0, args.positions, args.chunk):
        hi = min(lo + args.chunk, args.positions)
        order = ("before", "now") if (lo // args.chunk) % 2 == 0 else ("now", "before")
        for name in order:
            results[name] += ask(workers[name], lo, hi)
    for worker in workers.values():
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait()
    for name, rows in results.items():
        times = sorted(t for t, _ in rows)
        print(
            f"{name:6s}: {1000 * statistics.mean(times):7.1f} ms a position (p90 {1000 * times[int(0.9 * len(times))]:.1f} ms)"
        )
    ratio = statistics.mean(t for t, _ in results["before"]) / statistics.mean(t for t, _ in results["now"])
    print(f"now is {ratio:.2f} times as fast")
    before = {(i, code) for i, (_, flags) in enumerate(results["before"]) for code in flags}
    now = {(i, code) for i, (_, flags) in enumerate(results["now"]) for code in flags}
    print(f"flagged moves: before {len(before)}, now {len(now)}, both {len(before & now)} "
          f"(over {args.positions} positions)")  # fmt: skip


if __name__ == "__main__":
    main()
