"""Search speed: sampled worlds per second of the ``search`` player, positions per second of the
exact endgame solver, and the time the default ``search`` takes per move in play against the
heuristic (mean, 99th percentile and slowest), all on one core.

    python benchmarks/search.py [--seconds 10] [--hands 20]
    python benchmarks/search.py --play learned:weights=run/network.bin --hands 100   # one player's times in play
"""

from __future__ import annotations

import argparse
import random
import time

from cassino.cards import shuffled_deck
from cassino.game import Game
from cassino.players.base import decide, make_player
from cassino.players.search import SearchPlayer
from cassino.players.solver import Solver
from cassino.rules import make_rules
from cassino.state import State, eldest_seat
from cassino.view import view_of


def positions(preset: str, seed: int, count: int) -> list[State]:
    """Positions with a real choice (several legal moves), from greedy-ish random play."""
    rng = random.Random(seed)
    game = Game(make_rules(preset), seed=seed)
    out: list[State] = []
    while len(out) < count:
        if game.over:
            game = Game(make_rules(preset), seed=rng.randrange(10**9))
        state = game.state
        codes = state.legal_codes()
        if len(codes) > 2 and state.remaining_stock:
            out.append(state.copy())
        game.push(codes[rng.randrange(len(codes))])
    return out


def bench_search(preset: str, seconds: float, depth: int) -> tuple[float, float]:
    """Sampled worlds per second and seconds per move for ``search:time=...`` budgets."""
    player = SearchPlayer(seed=1, worlds=30, depth=depth)
    worlds = 0
    moves = 0
    start = time.perf_counter()
    for state in positions(preset, 7, 400):
        player.choose(view_of(state, state.to_move))
        worlds += player.last_worlds
        moves += 1
        if time.perf_counter() - start > seconds:
            break
    elapsed = time.perf_counter() - start
    return worlds / elapsed, elapsed / moves


def bench_play(preset: str, players: int, hands: int, spec: str = "search") -> tuple[float, float, float, int]:
    """Seconds per move of the player ``spec`` (the default search) in seat 0 against heuristic
    players: mean, 99th percentile and slowest, and the number of moves timed (moves with one
    legal choice included)."""
    rules = make_rules(preset, players=players, partnerships=players == 4)
    times: list[float] = []
    for deal in range(hands):
        search = make_player(spec, seed=deal)
        others = [make_player("heuristic", seed=deal * 7 + s) for s in range(1, players)]
        seats = [search, *others]
        state = State.new_hand(rules, shuffled_deck(random.Random(deal)), deal % players, (0,) * rules.sides)
        while not state.hand_over:
            start = time.perf_counter()
            code = decide(seats[state.to_move], state)
            if state.to_move == 0:
                times.append(time.perf_counter() - start)
            state.push(code)
    times.sort()
    return sum(times) / len(times), times[int(0.99 * (len(times) - 1))], times[-1], len(times)


def bench_solver(preset: str, seconds: float) -> tuple[float, int]:
    """Solver positions per second over 2-player last deals, and how many were solved."""
    rng = random.Random(3)
    solver = Solver(max_nodes=10**7)
    nodes = solved = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(make_rules(preset), seed=rng.randrange(10**9))
        state = game.state
        while state.remaining_stock or state.to_move != eldest_seat(state.players, state.dealer):
            codes = state.legal_codes()
            state.push(codes[rng.randrange(len(codes))])
            if state.hand_over:
                break
        if state.hand_over:
            continue
        solver.solve(state, state.to_move)
        nodes += solver.nodes
        solved += 1
    return nodes / (time.perf_counter() - start), solved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--hands", type=int, default=20, help="hands played for the per-move times")
    parser.add_argument("--play", metavar="SPEC", help="time this player in play only (classic, 2 players)")
    args = parser.parse_args()
    if args.play:
        mean, p99, slowest, moves = bench_play("classic", 2, args.hands, args.play)
        print(
            f"{args.play} in play: {mean * 1000:.2f} ms a move on average, 99% under {p99 * 1000:.2f} ms, "
            f"slowest {slowest * 1000:.2f} ms ({moves} moves)"
        )
        return
    for preset in ("classic", "royal"):
        for depth in (4, 6):
            rate, per_move = bench_search(preset, args.seconds, depth)
            print(
                f"search {preset:8} depth {depth}: {rate:8.0f} worlds/s ({per_move * 1000:.0f} ms a move at 30 worlds)"
            )
        nps, solved = bench_solver(preset, args.seconds)
        print(f"solver {preset:8} 2-player last deals: {nps:8.0f} positions/s ({solved} deals solved from their start)")
    for preset, players in (("classic", 2), ("royal", 2), ("classic", 4)):
        mean, p99, slowest, moves = bench_play(preset, players, args.hands)
        print(
            f"search in play, {preset} {players} players: {mean:.3f} s a move on average, 99% under {p99:.2f} s, "
            f"slowest {slowest:.2f} s ({moves} moves)"
        )


if __name__ == "__main__":
    main()
