"""Strength per hand: two players on the same single hands, each deal played in both seatings.

Whole games to 21 hide a lot in the luck of the deal; the points of single hands on mirrored deals
separate two players with far fewer games. Reports each side's mean points per scoring item and the
mean difference per hand with its standard error.

    python benchmarks/strength.py search heuristic --deals 150 [--preset royal] [--workers 2]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from multiprocessing import Pool

from cassino.game import shuffled_deck
from cassino.players.base import decide, make_player
from cassino.rules import make_rules
from cassino.state import State


def play_deal(job: tuple[str, str, str, int]) -> Counter[str]:
    """One deal in both seatings: per-item points of A and B, and the sum of squared differences."""
    a_spec, b_spec, preset, deal = job
    rules = make_rules(preset)
    out: Counter[str] = Counter()
    for a_seat in (0, 1):
        deck = shuffled_deck(random.Random(deal))
        a, b = make_player(a_spec, seed=7 * deal + a_seat), make_player(b_spec, seed=7 * deal + a_seat + 3)
        players = [a, b] if a_seat == 0 else [b, a]
        state = State.new_hand(rules, deck, 0, (0, 0))
        while not state.hand_over:
            state.push(decide(players[state.to_move], state))
        result = state.result
        assert result is not None
        for side, tag in ((a_seat, "A"), (1 - a_seat, "B")):
            for item, points in result.breakdown(side).items():
                out[f"{tag} {item}"] += points
            out[f"{tag} total"] += result.points[side]
        diff = result.points[a_seat] - result.points[1 - a_seat]
        out["squares"] += diff * diff
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(args.a, args.b, args.preset, deal) for deal in range(args.deals)]
    total: Counter[str] = Counter()
    with Pool(args.workers) as pool:
        for part in pool.imap_unordered(play_deal, jobs):
            total.update(part)
    hands = 2 * args.deals
    mean = (total["A total"] - total["B total"]) / hands
    error = ((total["squares"] / hands - mean * mean) / hands) ** 0.5
    print(f"{args.a} vs {args.b}, {args.preset}: {hands} hands on {args.deals} deals")
    print(f"difference per hand: {mean:+.3f} ± {error:.3f} (one standard error)")
    for key in sorted(k for k in total if k != "squares"):
        print(f"  {key:22s} {total[key] / hands:6.3f}")


if __name__ == "__main__":
    main()
