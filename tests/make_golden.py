"""Make ``tests/data/perft_golden.jsonl``: perft counts of chosen positions, from the reference.

Run by hand, from the repository root, when the positions should change (never from the tests)::

    .venv/bin/python tests/make_golden.py            # writes tests/data/perft_golden.jsonl
    .venv/bin/python tests/make_golden.py --check    # recomputes, compares with the file, writes nothing
    .venv/bin/python tests/make_golden.py --jobs 4   # reference perft in 4 processes (default: CPUs)

Why: ``perft_public.jsonl`` (60 positions from an independent implementation) is the main perft
check; this file adds positions picked on purpose for what perft checks best: the transitions
(a new deal inside the tree, the end of a hand, draws under ``draw``), builds and their owners,
royal aces, partnerships, large tables and many options at once.

How: ``POSITIONS`` positions, each found by seeded random play (``crosscheck_support.random_play``:
random options on top of every preset, every seating) until one has its category's feature and a
depth-4 perft of at most ``MAX_DEPTH_4``, so that ``test_perft.py`` stays fast.  The counts of
depths 1-4 come from the *reference* (``reference_perft`` of ``reference.py``, the brute-force
generator), never from the engine; the engine is then checked against them.
The file is written in any case (the reference is the truth); the script exits with status 1 and
prints each position where the engine disagrees.  Everything is seeded: a rerun gives the same file
as long as the engine's deal (``State.new_hand``, ``shuffled_deck``) and move order are unchanged.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

# Run as a script, so its own folder (tests/) is on sys.path: the test helpers import by name.
from cassino import State
from cassino.notation import position_from_json, position_to_json
from cassino.perft import perft
from crosscheck_support import PRESET_NAMES, SEATINGS, random_play, table_items
from reference import reference_perft

OUT = Path(__file__).resolve().parent / "data" / "perft_golden.jsonl"
DEPTHS = (1, 2, 3, 4)
POSITIONS = 40
MAX_DEPTH_3 = 20_000
MAX_DEPTH_4 = 200_000
MIN_DEPTH_4 = 1_000
"""Small trees check little: at least this many sequences, except where the category's point is a
transition (a deal, the end of the hand) that only comes with few cards left."""
SEARCH_LIMIT = 50_000
"""Positions of random play looked at per category before giving up (a bug in the script)."""


def _is_multiple(state: State, build: tuple[int, int, int]) -> bool:
    """A build whose cards sum to more than its value (section 4)."""
    return sum(state.values[card] for card in range(52) if build[0] >> card & 1) != build[1]


CATEGORIES: list[tuple[str, Callable[[State], bool]]] = [
    # (name, feature); names starting "a new deal" or "the end" are exempt from MIN_DEPTH_4.
    ("a build on the table", lambda s: bool(s.builds)),
    ("the mover owns a build", lambda s: any(owner == s.to_move for _, _, owner in s.builds)),
    ("two builds or a multiple one", lambda s: len(s.builds) >= 2 or any(_is_multiple(s, b) for b in s.builds)),
    (
        "a new deal within four moves",
        lambda s: not s.rules.draw and bool(s.remaining_stock) and sum(h.bit_count() for h in s.hands) <= 3,
    ),
    ("the end of the hand within four moves", lambda s: s.last_deal and sum(h.bit_count() for h in s.hands) <= 4),
    ("draw, stock left", lambda s: s.rules.draw and bool(s.remaining_stock)),
    (
        "a royal ace in the mover's hand",
        lambda s: s.rules.royal and s.rules.royal_ace_high and bool(s.hands[s.to_move] & 0xF),
    ),
    ("partnerships", lambda s: s.rules.partnerships),
    ("a large table", lambda s: table_items(s) >= 9),
    ("many options", lambda s: len(s.rules.to_json()) >= 7),
]


def pick(index: int) -> tuple[str, dict[str, Any]]:
    """The `index`-th golden position: its category's feature, moderate perft, from seed 7000+index.

    Categories go round; each round moves every category to the next seating and another preset.
    """
    name, wanted = CATEGORIES[index % len(CATEGORIES)]
    round_ = index // len(CATEGORIES)
    preset = PRESET_NAMES[(index + 3 * round_) % len(PRESET_NAMES)]
    seating = (4, True) if name == "partnerships" else SEATINGS[round_ % len(SEATINGS)]
    rng = random.Random(index)
    for seen, (_, state) in enumerate(random_play(7000 + index, preset, seating)):
        if seen > SEARCH_LIMIT:
            break
        if not wanted(state) or rng.random() > 0.25:
            continue
        if perft(state, 3) > MAX_DEPTH_3:
            continue
        leaves = perft(state, 4)
        if leaves > MAX_DEPTH_4 or (leaves < MIN_DEPTH_4 and not name.startswith(("a new deal", "the end"))):
            continue
        return name, position_to_json(state)
    raise RuntimeError(f"no position for {name!r} ({preset}, {seating}) in {SEARCH_LIMIT} positions")


def reference_counts(position: dict[str, Any]) -> dict[str, int]:
    """Perft of depths 1-4 by the reference (in a worker process)."""
    return {str(depth): reference_perft(position, depth) for depth in DEPTHS}


def engine_counts(position: dict[str, Any]) -> dict[str, int]:
    """Perft of depths 1-4 by the engine."""
    state = position_from_json(position)
    return {str(depth): perft(state, depth) for depth in DEPTHS}


def main(argv: list[str] | None = None) -> int:
    """Pick the positions, count with the reference, check the engine, write (or --check) the file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the existing file, write nothing")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for the reference")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)

    started = time.time()
    picked = [pick(index) for index in range(POSITIONS)]
    print(f"picked {len(picked)} positions in {time.time() - started:.1f}s", flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        counts = list(pool.map(reference_counts, [position for _, position in picked]))
    print(f"reference perft in {time.time() - started:.1f}s", flush=True)

    lines: list[str] = []
    status = 0
    for index, ((name, position), reference) in enumerate(zip(picked, counts, strict=True)):
        engine = engine_counts(position)
        rules = position_from_json(position).rules.describe()
        print(f"{index:2d} {name:38s} {json.dumps(reference)}  {rules}")
        if engine != reference:
            status = 1
            print(f"   ENGINE DISAGREES: engine {engine}, reference {reference}\n   {json.dumps(position)}")
        lines.append(json.dumps({"position": position, "perft": reference}, separators=(",", ":")))
    text = "\n".join(lines) + "\n"
    if args.check:
        same = args.out.exists() and args.out.read_text() == text
        print("the file is up to date" if same else f"{args.out} differs from a fresh run")
        return status or (0 if same else 1)
    args.out.write_text(text)
    print(f"wrote {args.out} ({len(lines)} positions)")
    return status


if __name__ == "__main__":
    sys.exit(main())
