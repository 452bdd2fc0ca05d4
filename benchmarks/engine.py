"""Engine speed, measured in one run: perft nodes per second on the golden positions, random
2-player classic hands per second on one core (played by the engine's own loop,
``playout.random_hands``, and by a loop in this file over ``legal_codes`` and ``push``), one
checked play on a table of 26 small cards (about 50 million legal moves: time and peak memory),
and python-chess's perft from its starting position side by side, with the ratio.

    python benchmarks/engine.py            # needs the bench extra for the comparison: pip install -e '.[bench]'
    python benchmarks/engine.py --seconds 10 --json benchmarks/results/engine.json

The pure engine (``CASSINO_PURE=1``) and the compiled one (when installed) are each measured in a
process of their own, one after the other in the same run, so their ratio is taken in one sitting.

The default search player (``search``, whose ``work`` cap makes its move the same on any machine)
chooses a move in each of 30 fixed positions: its mean time a move, and whether both engines chose
the same moves (the run fails if not). Random hands are timed after a warm-up on other deals, as in
a long self-play run whose caches are full: the best of the repeats, and the first one's rate too.

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
import os
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from cassino import COMPILED
from cassino.cards import CARD_NAMES, shuffled_deck
from cassino.notation import position_from_json
from cassino.perft import perft
from cassino.playout import random_hands
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


def bench_hands(seconds: float, seed: int = 2026) -> tuple[int, int, float]:
    """Hands and moves of uniformly random 2-player classic play within the time given, driven
    from this interpreted loop through the public ``State`` API."""
    rules = Rules()
    rng = random.Random(seed)
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


def bench_playout(seconds: float, seed: int = 2026) -> tuple[int, int, float]:
    """Hands and moves of uniformly random 2-player classic play within the time given, played by
    the engine's own loop (``playout.random_hands``, compiled with the engine), 100 hands a call."""
    rules = Rules()
    hands = moves = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        moves += random_hands(rules, 100, seed + hands)
        hands += 100
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


def bench_batch(seconds: float) -> float:
    """Hands a second of ``arena.play_hands`` between two ``random`` players, 2-player classic:
    the self-play loop with the players' views and each move's legality check."""
    from cassino.arena import play_hands
    from cassino.players.base import make_player

    players = [make_player("random", 1), make_player("random", 2)]
    play_hands(Rules(), players, 20, seed=3)  # warm-up
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        hands += play_hands(Rules(), players, 50, seed=hands).hands
    return hands / (time.perf_counter() - start)


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


SEARCH_POSITIONS = 30
"""Positions the default search plays a move in (2-player classic, each with a real choice)."""


def search_positions(count: int) -> list[State]:
    """``count`` positions with three or more legal moves and cards still to deal, from random play."""
    rng = random.Random(17)
    out: list[State] = []
    state = State.new_hand(Rules(), shuffled_deck(rng), 0)
    while len(out) < count:
        if state.hand_over:
            state = State.new_hand(Rules(), shuffled_deck(rng), len(out) % 2)
        codes = state.legal_codes()
        if len(codes) > 2 and state.remaining_stock:
            out.append(state.copy())
        state.push(codes[rng.randrange(len(codes))])
    return out


def bench_search(count: int) -> tuple[float, list[int]]:
    """Mean seconds a move of the default ``search`` player (its ``work`` cap makes the move the
    same on any machine and engine) and the moves it chose, one per position."""
    from cassino.players.search import SearchPlayer
    from cassino.view import view_of

    positions = search_positions(count)
    chosen: list[int] = []
    spent = 0.0
    for i, state in enumerate(positions):
        player = SearchPlayer(seed=i)
        view = view_of(state, state.to_move)
        start = time.perf_counter()
        move = player.choose(view)
        spent += time.perf_counter() - start
        chosen.append(int(move))
    return spent / len(positions), chosen


def measure(seconds: float, repeats: int) -> dict[str, Any]:
    """The figures of the engine this process runs (compiled or pure: ``cassino.COMPILED``)."""
    leaves, secs, count = bench_perft(repeats)
    bench_hands(min(2.0, seconds), seed=1)  # warm-up on other deals: a long run's caches are full
    # The best of the repeats, as for perft: the first runs still fill the table caches that a long
    # self-play run keeps full, and the machine's noise only ever slows a run down.
    runs = [bench_hands(seconds, seed=2026 + i) for i in range(repeats)]
    hands, moves, hand_secs = max(runs, key=lambda run: run[0] / run[2])
    first_hands = runs[0][0] / runs[0][2]
    loops = [bench_playout(seconds, seed=4052 + 1000 * i) for i in range(repeats)]
    loop_hands, loop_moves, loop_secs = max(loops, key=lambda run: run[0] / run[2])
    huge_count, first, peak, again = bench_huge_play(repeats)
    search_s, search_moves = bench_search(SEARCH_POSITIONS)
    batch = bench_batch(seconds / 2)
    return {
        "compiled": float(COMPILED),
        "positions": count,
        "leaves": leaves,
        "perft_nodes_per_s": leaves / secs,
        "hands_per_s": hands / hand_secs,
        "first_hands_per_s": first_hands,
        "moves_per_s": moves / hand_secs,
        "playout_hands_per_s": loop_hands / loop_secs,
        "playout_first_hands_per_s": loops[0][0] / loops[0][2],
        "playout_moves_per_s": loop_moves / loop_secs,
        "huge_moves": huge_count,
        "huge_first_s": first,
        "huge_peak_mib": peak,
        "huge_again_s": again,
        "batch_hands_per_s": batch,
        "search_s_per_move": search_s,
        "search_moves": search_moves,
    }


def measure_in(pure: bool, seconds: float, repeats: int) -> dict[str, Any]:
    """``measure`` in a fresh process running the pure engine (``CASSINO_PURE=1``) or the build."""
    env = {**os.environ, "CASSINO_PURE": "1" if pure else ""}
    cmd = [sys.executable, __file__, "--here", "--seconds", str(seconds), "--repeats", str(repeats)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time for each random-hands run")
    parser.add_argument("--repeats", type=int, default=3, help="repetitions of each perft run (best is kept)")
    parser.add_argument("--here", action="store_true", help="measure this process's engine only, as JSON")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    if args.here:
        print(json.dumps(measure(args.seconds, args.repeats)))
        return

    pure = measure_in(True, args.seconds, args.repeats)
    built = measure_in(False, args.seconds, args.repeats)
    rows: list[tuple[str, dict[str, Any]]] = [("pure", pure)]
    if built["compiled"]:
        rows.append(("compiled", built))
    else:
        print("(no compiled engine is installed: install with a C compiler present to compare)")
    for name, f in rows:
        print(
            f"{name:<9} perft {f['perft_nodes_per_s']:>12,.0f} nodes/s ({f['positions']:.0f} golden positions, "
            f"{f['leaves']:,.0f} leaves) | random hands, one core: engine loop {f['playout_hands_per_s']:>7,.0f}/s "
            f"({f['playout_moves_per_s']:,.0f} moves/s), Python loop {f['hands_per_s']:>7,.0f}/s "
            f"({f['moves_per_s']:,.0f} moves/s) | huge table: first play {f['huge_first_s']:.3f} s (traced), peak {f['huge_peak_mib']:.2f} MiB, "
            f"again {f['huge_again_s'] * 1000:.1f} ms"
        )
    for name, f in rows:
        print(
            f"{name:<9} search (default budget) {f['search_s_per_move'] * 1000:.1f} ms a move, mean over "
            f"{len(f['search_moves'])} positions | arena.play_hands random vs random {f['batch_hands_per_s']:,.0f} hands/s"
        )
    figures: dict[str, object] = {"pure": pure, "compiled": built if built["compiled"] else None}
    if built["compiled"]:
        ratio_perft = built["perft_nodes_per_s"] / pure["perft_nodes_per_s"]
        ratio_hands = built["hands_per_s"] / pure["hands_per_s"]
        ratio_playout = built["playout_hands_per_s"] / pure["playout_hands_per_s"]
        ratio_search = pure["search_s_per_move"] / built["search_s_per_move"]
        same = built["search_moves"] == pure["search_moves"]
        print(
            f"ratio     compiled / pure: perft {ratio_perft:.2f}x, random hands {ratio_playout:.2f}x (engine loop), "
            f"{ratio_hands:.2f}x (Python loop), "
            f"search {ratio_search:.2f}x faster a move ({'the same' if same else 'DIFFERENT'} moves)"
        )
        figures["ratios"] = {
            "perft": ratio_perft,
            "playout_hands": ratio_playout,
            "hands": ratio_hands,
            "search": ratio_search,
        }
        figures["search_same_moves"] = same
        if not same:
            sys.exit("the compiled and pure engines' search chose different moves")
    chess_result = chess_perft_rate(4, args.repeats)
    if chess_result is None:
        print("python-chess not installed (pip install -e '.[bench]'): no comparison")
    else:
        c_leaves, c_secs = chess_result
        theirs = c_leaves / c_secs
        print(f"python-chess perft(4) from the start: {c_leaves:,} leaves in {c_secs:.3f} s: {theirs:,.0f} nodes/s")
        for name, f in rows:
            print(f"ratio     {name} cassino / python-chess perft rate: {f['perft_nodes_per_s'] / theirs:.2f}")
        figures["python_chess_nodes_per_s"] = theirs
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
