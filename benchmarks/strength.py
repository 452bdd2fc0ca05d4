"""Strength per hand: two players on the same single hands, each deal played in both seatings.

Whole games to 21 hide a lot in the luck of the deal; the points of single hands on mirrored deals
separate two players with far fewer games. Reports each side's mean points per scoring item and the
mean difference per hand with its standard error.

    python benchmarks/strength.py search heuristic --deals 150 [--first 0] [--preset royal] [--workers 2]

Each player's time a move is measured in the same run (mean and p99, in ms, its moves in both
seatings), so speed and strength are compared on the same load and the same positions.

Deal ``d`` is the same deck and the same player seeds in every run, so two runs over the same deals
can be compared deal by deal: ``--save FILE`` keeps each deal's result, and ``--against FILE``
reports the mean gain per hand over a saved run on the deals both played, with its standard error.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

from cassino.cards import shuffled_deck
from cassino.moves import MoveCode
from cassino.players.base import Player, decide, make_player
from cassino.rules import make_rules
from cassino.state import State


def play_deal(
    job: tuple[str, str, str, int], ask: Callable[[Player, State], MoveCode] = decide
) -> tuple[Counter[str], dict[str, list[float]]]:
    """One deal in both seatings: per-item points of A and B, the squared difference of each hand,
    and the deal's difference (its two hands' sum); and each player's time for each of its moves
    (seconds, by tag). ``ask`` gets each move from a player (a benchmark may show a player more
    than its view)."""
    a_spec, b_spec, preset, deal = job
    rules = make_rules(preset)
    out: Counter[str] = Counter()
    times: dict[str, list[float]] = {"A": [], "B": []}
    deal_diff = 0
    for a_seat in (0, 1):
        deck = shuffled_deck(random.Random(deal))
        a, b = make_player(a_spec, seed=7 * deal + a_seat), make_player(b_spec, seed=7 * deal + a_seat + 3)
        players = [a, b] if a_seat == 0 else [b, a]
        tags = ["A", "B"] if a_seat == 0 else ["B", "A"]
        state = State.new_hand(rules, deck, 0, (0, 0))
        while not state.hand_over:
            seat = state.to_move
            began = time.perf_counter()
            code = ask(players[seat], state)
            times[tags[seat]].append(time.perf_counter() - began)
            state.push(code)
        result = state.result
        assert result is not None
        for side, tag in ((a_seat, "A"), (1 - a_seat, "B")):
            for item, points in result.breakdown(side).items():
                out[f"{tag} {item}"] += points
            out[f"{tag} total"] += result.points[side]
        diff = result.points[a_seat] - result.points[1 - a_seat]
        out["squares"] += diff * diff
        deal_diff += diff
    out["deal difference"] = deal_diff
    return out, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--save", help="write each deal's points difference (both hands) to this JSON file")
    parser.add_argument("--against", help="compare deal by deal with a file written by --save")
    args = parser.parse_args()
    jobs = [(args.a, args.b, args.preset, deal) for deal in range(args.first, args.first + args.deals)]
    total: Counter[str] = Counter()
    by_deal_result: dict[int, int] = {}
    times: dict[str, list[float]] = {"A": [], "B": []}
    with Pool(args.workers) as pool:
        for (_a, _b, _preset, deal), (part, took) in zip(jobs, pool.imap(play_deal, jobs), strict=True):
            by_deal_result[deal] = part.pop("deal difference")
            total.update(part)
            for tag in times:
                times[tag] += took[tag]
    hands = 2 * args.deals
    mean = (total["A total"] - total["B total"]) / hands
    error = ((total["squares"] / hands - mean * mean) / hands) ** 0.5
    _, by_deal = mean_and_error([d / 2 for d in by_deal_result.values()])
    print(f"{args.a} vs {args.b}, {args.preset}: {hands} hands on {args.deals} deals from deal {args.first}")
    print(f"difference per hand: {mean:+.3f} ± {error:.3f} (one standard error over hands; {by_deal:.3f} over deals)")
    for key in sorted(k for k in total if k != "squares"):
        print(f"  {key:22s} {total[key] / hands:6.3f}")
    for tag, spec in (("A", args.a), ("B", args.b)):
        mean_time, p99 = mean_and_p99(times[tag])
        print(f"  time a move, {tag} ({spec}): mean {1000 * mean_time:.2f} ms, p99 {1000 * p99:.2f} ms")
    mean_a, mean_b = (sum(times[t]) / len(times[t]) for t in ("A", "B"))
    print(f"  time ratio A/B: {mean_a / mean_b:.3f} (mean time a move, {args.workers} worker processes)")
    if args.save:
        Path(args.save).write_text(json.dumps(by_deal_result))
    if args.against:
        compare(by_deal_result, {int(k): v for k, v in json.loads(Path(args.against).read_text()).items()})


def compare(now: dict[int, int], before: dict[int, int]) -> None:
    """The mean gain per hand of this run over an earlier one, deal by deal, with its standard error."""
    shared = sorted(now.keys() & before.keys())
    if len(shared) < 2:
        raise SystemExit("strength: the saved run shares fewer than two deals with this one")
    mean, error = mean_and_error([(now[d] - before[d]) / 2 for d in shared])
    print(f"against the saved run, deal by deal over {len(shared)} deals: {mean:+.3f} ± {error:.3f} a hand")


def mean_and_p99(times: list[float]) -> tuple[float, float]:
    """The mean of move times and the time 99% of them stay within."""
    took = sorted(times)
    return sum(took) / len(took), took[min(len(took) - 1, int(0.99 * len(took)))]


def mean_and_error(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error."""
    mean = sum(values) / len(values)
    return mean, (sum((v - mean) ** 2 for v in values) / len(values) / len(values)) ** 0.5


if __name__ == "__main__":
    main()
