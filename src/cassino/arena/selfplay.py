"""Many hands between players in one loop: the batch entry point of self-play and training.

``play_hands`` deals hand after hand from one seed and plays each to its end with ``State.push``;
the moves of every hand go into one flat ``array`` of 64-bit codes (``Batch.codes``, cut by
``Batch.starts``), so a batch of millions of moves holds no Python object per move, and a trainer
can read it as a numpy array without a copy (``numpy.frombuffer``). The loop itself makes nothing
per move but what a player's decision needs: the seat's ``View`` for a fair player (a player sees
only its seat), the position for an omniscient benchmark. Each hand starts from 0 points, so a
batch measures points a hand; ``mirror`` plays every deck once more in each rotation of the seats,
the standard way to take the luck of the deal out of a comparison.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import shuffled_deck
from ..errors import ArgumentError
from ..players.base import Player, decide
from ..rules import Rules
from ..state import State


@dataclass(frozen=True, slots=True)
class Batch:
    """What ``play_hands`` played: per hand, its deal, the points per seat and its moves."""

    rules: Rules
    seats: tuple[str, ...]
    """The players' names, by the seat they had in the first rotation."""
    rotations: tuple[int, ...]
    """For each hand, how far the players were rotated: player ``p`` sat in seat ``(p + r) % n``."""
    points: tuple[tuple[int, ...], ...]
    """For each hand, the points each *player* (not seat) scored: the side's points of its seat."""
    codes: array[int]
    """Every move of every hand, in order, as its 64-bit code (``array('Q')``)."""
    starts: array[int]
    """Where each hand's moves start in ``codes``, with the total length at the end."""

    @property
    def hands(self) -> int:
        """How many hands were played."""
        return len(self.points)

    def hand_codes(self, hand: int) -> array[int]:
        """The moves of one hand (a slice of ``codes``)."""
        return self.codes[self.starts[hand] : self.starts[hand + 1]]

    def mean_points(self) -> tuple[float, ...]:
        """Each player's mean points a hand."""
        n = max(1, len(self.points))
        return tuple(sum(p[i] for p in self.points) / n for i in range(len(self.seats)))


def play_hands(rules: Rules, players: Sequence[Player], hands: int, seed: int, mirror: bool = False) -> Batch:
    """Play ``hands`` deals (each in every rotation of the seats when ``mirror``) between
    ``players``, player ``i`` in seat ``i`` before any rotation; dealers take turns.

    A move a player chose that is not legal raises ``PlayerFaultError`` naming the player and the move:
    ``decide`` checks it against the legal moves the player was shown."""
    n = rules.players
    if len(players) != n:
        raise ArgumentError(f"{n} players needed, got {len(players)}")
    if hands < 0:
        raise ArgumentError(f"hands must be 0 or more, got {hands}")
    rng = random.Random(seed)
    codes: array[int] = array("Q")
    starts: array[int] = array("Q", [0])
    points: list[tuple[int, ...]] = []
    rotations: list[int] = []
    for hand in range(hands):
        deck = shuffled_deck(rng)
        dealer = hand % n
        for rotation in range(n if mirror else 1):
            # Player p sits in seat (p + rotation) % n: the seat's player is (seat - rotation) % n.
            seated = [players[(seat - rotation) % n] for seat in range(n)]
            state = State.new_hand(rules, deck, dealer)
            while not state.hand_over:
                code = decide(seated[state.to_move], state)
                state.push(code)
                codes.append(code)
            starts.append(len(codes))
            result = state.result
            assert result is not None  # a finished hand is scored
            points.append(tuple(result.points[rules.side_of((p + rotation) % n)] for p in range(n)))
            rotations.append(rotation)
    return Batch(
        rules=rules,
        seats=tuple(str(getattr(p, "name", type(p).__name__)) for p in players),
        rotations=tuple(rotations),
        points=tuple(points),
        codes=codes,
        starts=starts,
    )


__all__ = ["Batch", "play_hands"]
