"""Engine speed, measured in one run: perft nodes per second on the golden positions, random
2-player classic hands per second on one core, one checked play on a table of 26 small cards (about
50 million legal moves: time and peak memory), and python-chess's perft from its starting position
side by side, with the ratio.

    python benchmarks/engine.py            # needs the bench extra for the comparison: pip install -e '.[bench]'
    python benchmarks/engine.py --seconds 10

Perft counts leaves (the number the perft of a position reports); both engines count the last
level in bulk (the length of the move list), so the two rates measure the same thing. Each figure is
the best of several repetitions, after one warm-up, on one core (this process).

The huge-table play checks one move against the moves of its own card only; listing every move to
check it took seconds and gigabytes there. Its first play runs under tracemalloc (which slows it)
to give the peak memory, caches filled included; later plays are timed without it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import tracemalloc
from pathlib import Path

from cassino.cards import CARD_NAMES
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


HUGE_MOVES = ("build 7h 10: Ac 2c", "capture Tc 10: Ac 2c 3c 4c", "capture 8c 8: Ac 2c 3c 5c 6c 7c")
"""Moves checked on the huge table: the 7h (captures and three build values: the most families)
first, since the first play is the one that fills the caches."""


def huge_table() -> State:
    """Every ace to six and 7c 7d loose (26 cards), seat 0 to move with 7h 8c 9c Tc."""
    table = [n for n in CARD_NAMES if n[0] in "A23456"] + ["7c", "7d"]
    hands = [["7h", "8c", "9c", "Tc"], ["Qs", "Kd", "Kh", "Ks"]]
    rest = [n for n in CARD_NAMES if n not in table and n not in hands[0] and n not in hands[1]]
    return position_from_json({"table": table, "hands": hands, "captured": [rest, []], "to_move": 0})


def bench_huge_play(repeats: int) -> tuple[int, float, float, float]:
    """Legal moves of the huge table; seconds and peak MiB of the first checked play (traced);
    best seconds of a later one (untraced)."""
    state = huge_table()
    tracemalloc.start()
    start = time.perf_counter()
    state.play(HUGE_MOVES[0])
    first = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    state.pop()
    count = state.count_legal()  # after the first play, which must not find the caches filled
    best = float("inf")
    for _ in range(repeats):
        for line in HUGE_MOVES:
            start = time.perf_counter()
            state.play(line)
            best = min(best, time.perf_counter() - start) if line == HUGE_MOVES[0] else best
            state.pop()
    return count, first, peak, best


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

    count, first, peak, again = bench_huge_play(args.repeats)
    print(
        f"huge-table play   26 small cards, {count:,} legal moves: first play {first:.3f} s "
        f"(traced), peak {peak:.2f} MiB; again {again * 1000:.1f} ms"
    )

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
