"""How far a player's choices fall short of a many-world search's, and its time a move: a quick
measure of strength per second, to pick which variants earn a full mirrored run (strength.py).

Positions come from classic 2-player hands of the default search against itself, at every move
with a choice while the stock still holds cards (the last deal is solved exactly by every search
variant, so it says nothing). Each position's legal moves are valued once by a reference search
on ``--worlds`` sampled worlds (400 by default: its own noise is small beside a 60-world
search's), and kept in ``--reference`` for later runs. A player's regret at a position is the
reference's value of the best move less that of the move it chose; the mean over every position
and ``--seeds`` seeds of the player is reported with the player's mean time a move, in the same run.

About twenty such choices fall to each side in a hand, so a gap in mean regret of 0.0025 is near
0.05 points a hand; the regret of the default search itself is near 0.004-0.005 (the reference
is a search too: this measures how close a variant comes to the converged search, not play).

    python benchmarks/choice_regret.py search "search:balance=1,worlds=30" [--deals 40] [--seeds 2]
"""

from __future__ import annotations

import argparse
import pickle
import random
import time
from pathlib import Path

from cassino.cards import shuffled_deck
from cassino.moves import MoveCode
from cassino.players.base import decide, make_player
from cassino.players.search import SearchPlayer
from cassino.players.worlds import WorldSampler
from cassino.rules import make_rules
from cassino.state import State
from cassino.view import View, view_of

Reference = list[tuple[View, dict[MoveCode, float]]]


def positions(deals: int) -> list[View]:
    """The views with a choice and cards in the stock, from ``deals`` hands of search against itself."""
    rules = make_rules("classic")
    out = []
    for deal in range(deals):
        deck = shuffled_deck(random.Random(10_000 + deal))
        players = [make_player("search", seed=deal), make_player("search", seed=deal + 1)]
        state = State.new_hand(rules, deck, 0, (0, 0))
        while not state.hand_over:
            view = view_of(state, state.to_move)
            if len(view.legal) > 1 and view.stock_size:
                out.append(view)
            state.push(decide(players[state.to_move], state))
    return out


def reference(views: list[View], worlds: int) -> Reference:
    """Every legal move of each view valued on ``worlds`` worlds, as the search weighs them."""
    search = SearchPlayer(seed=99, work=0)
    rows = []
    for i, view in enumerate(views):
        side = view.rules.side_of(view.seat)
        legal = list(view.legal)
        sample = WorldSampler(view, random.Random(i), search.infer, search.floor)
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(worlds):
            values, _nodes = search.world_values(sample(), legal, side)
            for code, v in values.items():
                totals[code] += v
        rows.append((view, {code: total / worlds for code, total in totals.items()}))
    return rows


def measure(spec: str, rows: Reference, seeds: int) -> tuple[float, float]:
    """The player's mean regret a choice and its mean time a choice (ms)."""
    regret = spent = 0.0
    for seed in range(seeds):
        player = make_player(spec, seed=seed)
        for view, values in rows:
            began = time.perf_counter()
            code = player.choose(view)
            spent += time.perf_counter() - began
            regret += max(values.values()) - values[code]
    n = seeds * len(rows)
    return regret / n, 1000 * spent / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=400)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--reference", default="/tmp/cassino-choice-regret.pickle")
    args = parser.parse_args()
    kept = Path(args.reference)
    key = (args.deals, args.worlds)
    rows: Reference | None = None
    if kept.exists():
        saved_key, saved = pickle.loads(kept.read_bytes())
        rows = saved if saved_key == key else None
    if rows is None:
        began = time.perf_counter()
        rows = reference(positions(args.deals), args.worlds)
        kept.write_bytes(pickle.dumps((key, rows)))
        print(f"reference: {len(rows)} positions, {args.worlds} worlds each, {time.perf_counter() - began:.0f} s")
    for spec in args.specs:
        regret, ms = measure(spec, rows, args.seeds)
        print(f"{spec:45s} regret {regret:.4f} a choice, {ms:6.2f} ms a choice", flush=True)


if __name__ == "__main__":
    main()
