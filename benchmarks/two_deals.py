"""The last two deals alone: two players on the same positions from the next-to-last deal's start.

Deal ``d`` is played by the prefix player (today's ``search``, the same seeds every run) up to the
start of the next-to-last deal, where only twelve cards are unseen by either player. From there
the rest of the hand is played twice: A in the seat to move first and B in the other, then the
seats swapped. The first four deals are the same in both, and so are the cards still to come, so
the difference of the two hands measures only how the two players play the last two deals.

    python benchmarks/two_deals.py "alphamu:cards=3,mu_worlds=16" search --same-seeds \\
        --deals 200 --results benchmarks/results/two-deals/alphamu-vs-search.jsonl [--workers 2]

With ``--same-seeds`` both players get the same seed, so two players built alike (``alphamu``
and the ``search`` it is made of) choose alike wherever they do not differ by design, and only
the positions where they differ move the result. Every finished deal is appended to ``--results`` at once, and running the same command again plays
only the deals missing (a file holds one match). The report: A's gain a hand over B with its
standard error over deals, and each player's time a move (mean, p99) in these deals.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

from _checkpoint import add_match_arguments, play_into, read_match
from strength import mean_and_error, mean_and_p99

from cassino.cards import shuffled_deck
from cassino.players.base import decide, make_player
from cassino.rules import make_rules
from cassino.state import State

PREFIX = "search"
"""The player of the first deals: today's default search."""


def last_two_deals(preset: str, deal: int) -> State:
    """Deal ``deal``'s hand played by ``PREFIX`` up to the start of its next-to-last deal."""
    rules = make_rules(preset)
    if rules.deals_per_hand < 2:
        raise SystemExit(f"two_deals: the {preset} rules deal the whole pack at once")
    deck = shuffled_deck(random.Random(deal))
    state = State.new_hand(rules, deck, 0, (0, 0))
    players = [make_player(PREFIX, seed=11 * deal + seat) for seat in range(rules.players)]
    held = 4 * rules.players
    while len(state.remaining_stock) > held or sum(h.bit_count() for h in state.hands) < held:
        state.push(decide(players[state.to_move], state))
    return state


def play_deal(job: tuple[str, str, str, int, bool]) -> dict[str, Any]:
    """Deal ``deal``'s last two deals in both seatings: A's hand points less B's in each, and
    each player's time for its moves. With ``same`` both players get the same seed: two players
    that differ only in some positions then play alike everywhere else, and only those count."""
    a_spec, b_spec, preset, deal, same = job
    start = last_two_deals(preset, deal)
    first = start.to_move
    out: dict[str, Any] = {"deal": deal, "diffs": [], "a_times": [], "b_times": []}
    for a_seat in (first, 1 - first):
        state = start.copy()
        a, b = make_player(a_spec, seed=7 * deal + 1), make_player(b_spec, seed=7 * deal + (1 if same else 2))
        while not state.hand_over:
            player, times = (a, out["a_times"]) if state.to_move == a_seat else (b, out["b_times"])
            began = time.perf_counter()
            code = decide(player, state)
            times.append(round(time.perf_counter() - began, 5))
            state.push(code)
        assert state.result is not None
        points = state.result.points
        out["diffs"].append(points[a_seat] - points[1 - a_seat])
    return out


def report(rows: list[dict[str, Any]], a_spec: str, b_spec: str) -> None:
    """A's gain a hand with its standard error over deals, and the times a move."""
    mean, error = mean_and_error([sum(r["diffs"]) / 2 for r in rows])
    changed = sum(1 for r in rows if r["diffs"][0] + r["diffs"][1] != 0)
    print(f"{a_spec} against {b_spec}: {len(rows)} deals, the last two deals of each played in both seatings")
    print(f"A's gain a hand: {mean:+.3f} ± {error:.3f} (one standard error over deals); {changed} deals differ")
    for tag, spec in (("a", a_spec), ("b", b_spec)):
        mean_time, p99 = mean_and_p99([t for r in rows for t in r[f"{tag}_times"]])
        print(f"{tag.upper()} ({spec}): {1000 * mean_time:.1f} ms a move, p99 {1000 * p99:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_match_arguments(parser, "deals")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first", type=int, default=5_000_000, help="the first deal's number")
    parser.add_argument("--same-seeds", action="store_true", help="give both players the same seed")
    args = parser.parse_args()
    path = Path(args.results)
    match: dict[str, Any] = {"a": args.a, "b": args.b, "preset": args.preset, "prefix": PREFIX}
    if args.same_seeds:
        match["seeds"] = "same"
    rows = read_match(path, match, "two_deals")
    if not args.report:
        done = {r["deal"] for r in rows}
        deals = range(args.first, args.first + args.deals)
        todo = [(args.a, args.b, args.preset, d, args.same_seeds) for d in deals if d not in done]
        play_into(path, match, rows, play_deal, todo, args.workers, args.minutes)
    if rows:
        report(rows, args.a, args.b)


if __name__ == "__main__":
    main()
