"""The random player: a uniformly random legal move, the floor of every ladder."""

from __future__ import annotations

import random

from ..moves import MoveCode
from ..view import View
from .base import register


class RandomPlayer:
    """Picks uniformly among the legal moves, reproducibly from a seed."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> MoveCode:
        """A uniformly random legal move."""
        return self.rng.choice(view.legal)


register("random", RandomPlayer, {})
