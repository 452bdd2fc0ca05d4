"""A long match kept one finished job at a time: a JSON-lines file whose first line names the
match and each other line is one job's result, so a run stopped anywhere loses only the jobs in
play and the same command run again plays only those missing (``games.py``, ``two_deals.py``)."""

from __future__ import annotations

import argparse
import fcntl
import json
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from typing import Any


def add_match_arguments(parser: argparse.ArgumentParser, jobs: str) -> None:
    """The arguments every checkpointed match takes: its two players, the file its ``jobs``
    (deals, pairs) are kept in, the rules, the processes, a time limit and reporting alone."""
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--results", required=True, help=f"the JSON-lines file the {jobs} are kept in")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--minutes", type=float, default=0.0, help=f"start no {jobs[:-1]} after this long (0: no limit)"
    )
    parser.add_argument("--report", action="store_true", help=f"report the file's {jobs} and play nothing")


def read_match(path: Path, match: dict[str, Any], script: str) -> list[dict[str, Any]]:
    """The results kept in ``path`` for ``match`` (none when the file is missing); a file that
    holds another match ends the script with a message saying so, rather than mixing the two."""
    if not path.exists():
        return []
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if lines and lines[0] != match:
        sys.exit(f"{script}: {path} holds another match ({lines[0]}); name another file")
    return lines[1:]


def play_into(
    path: Path,
    match: dict[str, Any],
    results: list[dict[str, Any]],
    work: Callable[[Any], dict[str, Any]],
    jobs: list[Any],
    workers: int,
    minutes: float,
) -> None:
    """Run ``work`` over ``jobs`` in ``workers`` processes, appending each result to ``path`` (and
    to ``results``) as it finishes; no job is started after ``minutes`` (0: no limit). A second
    run on the same file while one plays is refused: both would play the same missing jobs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        try:
            fcntl.flock(out, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            sys.exit(f"{path} is being played into by another run; wait for it or name another file")
        if not path.read_text(encoding="utf-8").strip():
            out.write(json.dumps(match) + "\n")
            out.flush()
        began = time.perf_counter()
        with Pool(workers) as pool:
            for result in pool.imap_unordered(work, jobs):
                out.write(json.dumps(result, separators=(",", ":")) + "\n")
                out.flush()
                results.append(result)
                if minutes and time.perf_counter() - began > 60 * minutes:
                    pool.terminate()  # the jobs in play are lost; the next run plays them
                    break
