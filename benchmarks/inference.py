"""How much the deal's play tells of an opponent's hand: the cards that search's sampled worlds
give the opponent, compared with the cards it really holds.

Two heuristic players play single hands. At each move of seat 0 once seat 1 has moved in the
deal, worlds are drawn from the view of seat 0, uniformly and by the opponent model at several
temperatures (``WorldSampler``), and each world's hand for seat 1 is matched against the true one.
Reports the mean number of true cards a sampled hand holds (uniform draws hold about
size² / unseen of them), and the time a world takes.

    python benchmarks/inference.py [--deals 20] [--worlds 20]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial

from cassino.cards import shuffled_deck
from cassino.players.base import decide, make_player
from cassino.players.evaluate import deal_moves
from cassino.players.worlds import WorldSampler, sample_world
from cassino.rules import make_rules
from cassino.state import State
from cassino.view import View, view_of

SAMPLERS = ((0.2, 0.05, 8), (0.1, 0.05, 32), (0.05, 0.01, 64), (0.02, 0.001, 256))
"""(temperature, floor, tries) of each model measured; the first is search's default."""


def positions(deals: int) -> list[tuple[View, int]]:
    """Views of seat 0 with the deal's play of seat 1 to read, each with seat 1's true hand."""
    rules = make_rules("classic")
    out: list[tuple[View, int]] = []
    for deal in range(deals):
        players = [make_player("heuristic", seed=deal), make_player("heuristic", seed=deal + 1)]
        state = State.new_hand(rules, shuffled_deck(random.Random(deal)), 0, (0, 0))
        while not state.hand_over:
            if state.to_move == 0 and state.remaining_stock and state.hands[1]:
                view = view_of(state, 0)
                if deal_moves(view):
                    out.append((view, state.hands[1]))
            state.push(decide(players[state.to_move], state))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=20, help="worlds drawn per position and sampler")
    args = parser.parse_args()
    cases = positions(args.deals)
    held = sum(hand.bit_count() for _, hand in cases) / len(cases)
    print(f"{len(cases)} positions; seat 1 holds {held:.2f} cards on average")
    samplers: list[tuple[str, Callable[[View], Callable[[], State]]]] = [
        ("uniform worlds", lambda view: partial(sample_world, view, random.Random(1)))
    ]
    for temperature, floor, tries in SAMPLERS:
        samplers.append(
            (
                f"model at temperature {temperature}, floor {floor}, {tries} tries",
                partial(_model, temperature=temperature, floor=floor, tries=tries),
            )
        )
    for label, make in samplers:
        found = 0
        start = time.perf_counter()
        for view, hand in cases:
            draw = make(view)
            found += sum((draw().hands[1] & hand).bit_count() for _ in range(args.worlds))
        per_world = (time.perf_counter() - start) / args.worlds / len(cases)
        print(f"{label}: {found / args.worlds / len(cases):.3f} true cards ({per_world * 1000:.2f} ms a world)")


def _model(view: View, temperature: float, floor: float, tries: int) -> WorldSampler:
    """The opponent model's sampler for one position, seeded as the uniform draws are."""
    return WorldSampler(view, random.Random(1), temperature, floor, tries)


if __name__ == "__main__":
    main()
