"""Random playouts: hands played to their end by uniformly random legal moves, in one compiled loop.

The primitive of Monte Carlo search's rollouts, of random positions for tests and fuzzing, and of
the engine's own speed figure (``benchmarks/engine.py``): the loop runs inside the compiled engine,
so a move costs the generator and ``push`` and nothing of the interpreter. Every choice comes from
the ``random.Random`` given, so a seed replays the same moves on the compiled and the pure engine.
"""

from __future__ import annotations

import random

from .cards import shuffled_deck
from .errors import ArgumentError
from .moves import MoveCode
from .native import checkpoint
from .rules import Rules
from .state import State


def random_choice(rng: random.Random, codes: list[MoveCode]) -> MoveCode:
    """A uniformly random move of ``codes`` (one C call of the generator: ``rng.choice`` and
    ``randrange`` are Python functions, some 0.34 µs a draw, about a tenth of a compiled move)."""
    return codes[int(rng.random() * len(codes))]


def playout(state: State, rng: random.Random) -> int:
    """Play uniformly random legal moves until the hand is over; the number of moves played.
    The moves stay on ``state``'s undo history (``history``, ``pop``)."""
    moves = 0
    while not state.hand_over:
        state.push(random_choice(rng, state.legal_codes()))
        moves += 1
    return moves


def random_hands(rules: Rules, hands: int, seed: int) -> int:
    """Deal ``hands`` hands from one seed (``cards.shuffled_deck``, the dealers taking turns) and
    play each out at random; the number of moves played in all. Ctrl-C is let in every 16 hands
    (``native.checkpoint``: a compiled loop answers no signal by itself)."""
    if hands < 0:
        raise ArgumentError(f"hands must be 0 or more, got {hands}")
    rng = random.Random(seed)
    moves = 0
    for hand in range(hands):
        if not hand & 15:
            checkpoint()
        moves += playout(State.new_hand(rules, shuffled_deck(rng), hand % rules.players), rng)
    return moves


__all__ = ["playout", "random_choice", "random_hands"]
