"""What each side has taken in the hand in play, as a strong player keeps count, and the cards a
seat has not seen yet: the two aids a table offers a learner besides the lessons and the coach.

A side's tracker counts the cards and spades of its seats' piles, the aces and casinos among them
and its sweeps this hand: all of it public, since every captured card was face up. The browser's
tracker (``web/static/tracker.js``) counts the same from the state it is sent; the terminal words
this one. The cards not yet seen are a seat's own: neither in its hand, nor on the table (builds
too), nor in any pile (``View.unseen``), so they are the other hands and the stock together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..cards import ACE, BIG_CASINO, LITTLE_CASINO, SPADES_MASK, SUITS, Card, CardMask, make_card
from ..view import View

ACES: Final[tuple[Card, ...]] = tuple(make_card(ACE, s) for s in range(len(SUITS)))
"""The aces in the order a tracker names them: clubs, diamonds, hearts, spades."""
CASINOS: Final[tuple[Card, ...]] = (BIG_CASINO, LITTLE_CASINO)
"""The casinos in the order a tracker names them: Big Casino (10♦), then Little Casino (2♠)."""
SUIT_MASKS: Final[tuple[CardMask, ...]] = tuple(SPADES_MASK >> (len(SUITS) - 1 - s) for s in range(len(SUITS)))
"""Every card of each suit, in suit order (clubs, diamonds, hearts, spades)."""


@dataclass(frozen=True, slots=True)
class SideTracker:
    """One side's count of the hand in play: its ``cards`` and ``spades`` taken, the ``aces`` and
    ``casinos`` it won (in ``ACES`` and ``CASINOS`` order) and the ``sweeps`` it made."""

    side: int
    cards: int
    spades: int
    aces: tuple[Card, ...]
    casinos: tuple[Card, ...]
    sweeps: int


def side_trackers(view: View) -> tuple[SideTracker, ...]:
    """Every side's tracker, in side order, from any seat's view (a spectator's too): partners'
    piles count together, and each sweep of the hand counts for the side of the seat that made it."""
    rules = view.rules
    piles = [0] * rules.sides
    sweeps = [0] * rules.sides
    for seat, pile in enumerate(view.captured):
        piles[rules.side_of(seat)] |= int(pile)
    for seat in view.sweeps:
        sweeps[rules.side_of(seat)] += 1
    return tuple(
        SideTracker(
            side,
            pile.bit_count(),
            (pile & SPADES_MASK).bit_count(),
            tuple(c for c in ACES if pile >> c & 1),
            tuple(c for c in CASINOS if pile >> c & 1),
            sweeps[side],
        )
        for side, pile in enumerate(piles)
    )


def unseen_by_suit(view: View) -> tuple[CardMask, ...]:
    """The cards ``view``'s seat has not seen (``View.unseen``: the other hands and the stock), one
    mask per suit in suit order, for a learner who counts what may still come."""
    unseen = int(view.unseen)
    return tuple(unseen & suit for suit in SUIT_MASKS)


__all__ = ["ACES", "CASINOS", "SUIT_MASKS", "SideTracker", "side_trackers", "unseen_by_suit"]
