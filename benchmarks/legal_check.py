"""What ``choose_code``'s legality check costs: the same players on the same views, with the check
and without it, interleaved in one run so that both meet the same machine.

    python benchmarks/legal_check.py                     # random and greedy, 200 hands of views
    python benchmarks/legal_check.py --players random --hands 400 --repeats 9

Every decision of a built-in player goes through ``choose_code`` (``decide``), so the check runs
millions of times in self-play and training; it is one ``in`` on the view's tuple of legal codes.
The figure is the best of ``--repeats`` timings of each, per decision, and the difference.
"""

from __future__ import annotations

import argparse
import random
import time

from cassino.game import Game
from cassino.players.base import Player, choose_code, make_player
from cassino.rules import make_rules
from cassino.view import View, view_of


def views(hands: int, seed: int) -> tuple[list[View], float]:
    """Every view a seat to move had over ``hands`` hands of random play (classic, 2 players), and
    what making them took a decision (``view_of``, which ``decide`` pays every time)."""
    rng = random.Random(seed)
    out: list[View] = []
    making = 0.0
    for hand in range(hands):
        game = Game(make_rules("classic"), seed=seed + hand)
        state = game.state
        while not state.hand_over:
            start = time.perf_counter()
            out.append(view_of(state, state.to_move))
            making += time.perf_counter() - start
            state.push(rng.choice(state.legal_codes()))
    return out, making / len(out)


def best(player: Player, seen: list[View], check: bool, repeats: int) -> float:
    """The best time of ``repeats`` passes over ``seen``, in seconds per decision."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for view in seen:
            choose_code(player, view, check=check)
        times.append((time.perf_counter() - start) / len(seen))
    return min(times)


def main() -> None:
    """Print one line per player: ns per decision with and without the check, and the difference."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", nargs="+", default=["random", "greedy"])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seen, making = views(args.hands, args.seed)
    legal = sum(len(v.legal) for v in seen) / len(seen)
    print(f"{len(seen)} decisions, {legal:.1f} legal moves each on average; view_of {making * 1e9:.0f} ns each")
    for spec in args.players:
        player = make_player(spec, args.seed)
        on = off = float("inf")
        for _ in range(3):  # interleaved: each setting meets the same load
            off = min(off, best(player, seen, False, args.repeats))
            on = min(on, best(player, seen, True, args.repeats))
        print(
            f"{spec:10} without {off * 1e9:9.0f} ns  with {on * 1e9:9.0f} ns  "
            f"check {(on - off) * 1e9:+6.0f} ns ({100 * (on - off) / off:+.2f}%)"
        )


if __name__ == "__main__":
    main()
