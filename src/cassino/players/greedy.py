"""The greedy player: the move with the best immediate gain in cards and points."""

from __future__ import annotations

import random

from ..cards import ACES_MASK, BIG_CASINO, LITTLE_CASINO, SPADES_MASK
from ..moves import BUILD, CAPTURE, MoveCode, code_card, code_kind, code_table
from ..view import View
from .base import register


def immediate_gain(view: View, code: MoveCode) -> float:
    """What a move takes now: cards, spades, casinos, aces and a sweep; builds count a little."""
    kind = code_kind(code)
    taken = code_table(code)
    if kind == CAPTURE:
        got = taken | 1 << code_card(code)
        gain = got.bit_count() * 0.2 + (got & SPADES_MASK).bit_count() * 0.1
        gain += (got & ACES_MASK).bit_count() + 2 * (got >> BIG_CASINO & 1) + (got >> LITTLE_CASINO & 1)
        left = int(view.loose) & ~taken  # an int: a CardSet's & is a Python call
        if not left and not any(not build.cards & taken for build in view.builds):
            gain += 1.0
        return gain
    if kind == BUILD:
        return 0.05 * (taken.bit_count() + 1)
    return -0.01 * (code_card(code) in (BIG_CASINO, LITTLE_CASINO))


class GreedyPlayer:
    """Maximises the immediate gain; ties broken at random from a seed."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> MoveCode:
        """The legal move with the highest immediate gain."""
        gains = [immediate_gain(view, c) for c in view.legal]  # once each: the gains are the work
        best = max(gains)
        return self.rng.choice([c for c, gain in zip(view.legal, gains, strict=True) if gain == best])


register("greedy", GreedyPlayer, {})
