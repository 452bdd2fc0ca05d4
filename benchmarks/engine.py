"""Engine speed, measured in one run: perft nodes per second on the golden positions, random
2-player classic hands per second on one core, and python-chess's perft from its starting position
side by side, with the ratio.

    python benchmarks/engine.py            # needs the bench extra for the comparison: pip install -e '.[bench]'
    python benchmarks/engine.py --seconds 10

Perft counts leaves (the number the perft of a position reports); both engines count the last
level in bulk (the length of the move list), so the two rates measure the same thing. Each figure is
the best of several repetitions, after one warm-up, on one core (this process).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from cassino.game import shuffled_deck
from cassino.notation import position_from_json
from cassino.perft import perft
from cassino.rules import Rules
from cassino.state import State

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
GOLDEN_FILES = ("perft_public.jsonl", "perft_golden.jsonl")


def golden_positions() -> list[tuple[State, int, int]]:
    """(position, deepest depth, its count) for every line of the golden perft files."""
    out = []
    for name in GOLDEN_FILES:
        path = DATA / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            item = json.loads(line)
            depth = max(int(d) for d in item["perft"])
            out.append((position_from_json(item["position"]), depth, item["perft"][str(depth)]))
    return out


def bench_perft(repeats: int) -> tuple[int, float, int]:
    """Leaves, best seconds and number of positions for perft of every golden position."""
    positions = golden_positions()
    best = float("inf")
    leaves = 0
    for _ in range(repeats + 1):
        start = time.perf_counter()
        leaves = 0
        for state, depth, want in positions:
            got = perft(state, depth)
            if got != want:
                sys.exit(f"perft mismatch: expected {want}, got {got}")
            leaves += got
        best = min(best, time.perf_counter() - start)
    return leaves, best, len(positions)


def bench_hands(seconds: float) -> tuple[int, int, float]:
    """Hands and moves of uniformly random 2-player classic play within the time given."""
    rules = Rules()
    rng = random.Random(2026)
    hands = moves = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        state = State.new_hand(rules, shuffled_deck(rng), hands % 2)
        while not state.hand_over:
            codes = state.legal_codes()
            state.push(codes[rng.randrange(len(codes))])
            moves += 1
        hands += 1
    return hands, moves, time.perf_counter() - start


def chess_perft_rate(depth: int, repeats: int) -> tuple[int, float] | None:
    """python-chess's perft from the starting position (leaves, best seconds), if installed."""
    try:
        import chess
    except ImportError:
        return None

    def run(board: chess.Board, d: int) -> int:
        if d == 1:
            return board.legal_moves.count()
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += run(board, d - 1)
            board.pop()
        return total

    best = float("inf")
    leaves = 0
    for _ in range(repeats):
        board = chess.Board()
        start = time.perf_counter()
        leaves = run(board, depth)
        best = min(best, time.perf_counter() - start)
    return leaves, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time for the random-hands run")
    parser.add_argument("--repeats", type=int, default=3, help="repetitions of each perft run (best is kept)")
    args = parser.parse_args()

    leaves, secs, count = bench_perft(args.repeats)
    ours = leaves / secs
    print(f"cassino perft     {count} golden positions, {leaves:,} leaves in {secs:.3f} s: {ours:,.0f} nodes/s")

    hands, moves, secs = bench_hands(args.seconds)
    print(f"random hands      2-player classic: {hands / secs:,.0f} hands/s ({moves / secs:,.0f} moves/s, one core)")

    chess_result = chess_perft_rate(4, args.repeats)
    if chess_result is None:
        print("python-chess      not installed (pip install -e '.[bench]'): no comparison")
        return
    c_leaves, c_secs = chess_result
    theirs = c_leaves / c_secs
    print(f"python-chess      perft(4) from the start: {c_leaves:,} leaves in {c_secs:.3f} s: {theirs:,.0f} nodes/s")
    print(f"ratio             cassino / python-chess perft rate: {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
