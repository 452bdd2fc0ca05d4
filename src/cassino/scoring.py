"""Scoring a hand (RULES.md section 8) and deciding the game (section 9).

A hand's score is kept as an ordered list of items (who scored what, in count-out order), so the
per-side totals, the breakdown shown to players and the count-out tie-break all read one list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import ACE, BIG_CASINO, JACK_OF_SPADES, LITTLE_CASINO, SPADES_MASK, CardMask
from .rules import Rules

ACES_COUNT_OUT_ORDER = (ACE * 4 + 3, ACE * 4 + 0, ACE * 4 + 2, ACE * 4 + 1)
"""As, Ac, Ah, Ad: the order aces are counted out (section 9)."""

CATEGORIES_STANDARD: tuple[str, ...] = ("cards", "spades", "big casino", "little casino", "aces", "sweeps")
CATEGORIES_SPADE: tuple[str, ...] = (
    "cards",
    "big casino",
    "aces",
    "spades",
    "little casino",
    "jack of spades",
    "sweeps",
)


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring item: its category, the side that scored it, and its points."""

    category: str
    side: int
    points: int


@dataclass(frozen=True, slots=True)
class HandScore:
    """The outcome of one hand: the items in count-out order and what each side took."""

    items: tuple[ScoreItem, ...]
    points: tuple[int, ...]
    cards: tuple[int, ...]
    spades: tuple[int, ...]
    sweeps_made: tuple[int, ...]
    categories: tuple[str, ...]

    def breakdown(self, side: int) -> dict[str, int]:
        """Points per category for one side (every category present, zero included)."""
        out = dict.fromkeys(self.categories, 0)
        for item in self.items:
            if item.side == side:
                out[item.category] += item.points
        return out

    @property
    def checksum(self) -> int:
        """The points scored without sweeps: 11 (8 on a cards tie, 10/7 on a spades tie) in
        standard scoring, 24 (21) in spade scoring, 0 when nobody captured."""
        return sum(i.points for i in self.items if i.category != "sweeps")


def side_piles(rules: Rules, captured: Sequence[CardMask]) -> list[CardMask]:
    """The captured cards of each side (partners' piles together)."""
    piles = [0] * rules.sides
    for seat, pile in enumerate(captured):
        piles[rules.side_of(seat)] |= pile
    return piles


def _strict_top(counts: Sequence[int]) -> int:
    """The side with strictly more than every other side, or -1 on a tie at the top."""
    best = max(counts)
    return counts.index(best) if counts.count(best) == 1 else -1


def _owner(piles: Sequence[CardMask], card: int) -> int:
    """The side holding a card, or -1 when nobody took it."""
    for side, pile in enumerate(piles):
        if pile >> card & 1:
            return side
    return -1


def scored_sweeps(rules: Rules, sweeps: Sequence[int]) -> list[int]:
    """The sides of the sweeps that score, in the order made (after cancelling, if on)."""
    if not rules.sweeps:
        return []
    sides = [rules.side_of(seat) for seat in sweeps]
    if not rules.sweeps_cancel:
        return sides
    made = [sides.count(0), sides.count(1)]
    if made[0] == made[1]:
        return []
    winner = 0 if made[0] > made[1] else 1
    keep = made[winner] - made[1 - winner]
    return [winner] * keep


def score_hand(rules: Rules, captured: Sequence[CardMask], sweeps: Sequence[int]) -> HandScore:
    """Score a finished hand from the seats' captured piles and the sweeps made."""
    piles = side_piles(rules, captured)
    cards = tuple(p.bit_count() for p in piles)
    spades = tuple((p & SPADES_MASK).bit_count() for p in piles)
    items: list[ScoreItem] = []

    def add(category: str, side: int, points: int) -> None:
        if side >= 0:
            items.append(ScoreItem(category, side, points))

    add("cards", _strict_top(cards), 3)
    if rules.scoring == "standard":
        add("spades", _strict_top(spades), 1)
        add("big casino", _owner(piles, BIG_CASINO), 2)
        add("little casino", _owner(piles, LITTLE_CASINO), 1)
        for ace in ACES_COUNT_OUT_ORDER:
            add("aces", _owner(piles, ace), 1)
        categories = CATEGORIES_STANDARD
    else:
        add("big casino", _owner(piles, BIG_CASINO), 2)
        for ace in ACES_COUNT_OUT_ORDER:
            add("aces", _owner(piles, ace), 1)
        for rank in range(13):
            add("spades", _owner(piles, rank * 4 + 3), 1)
        add("little casino", _owner(piles, LITTLE_CASINO), 1)
        add("jack of spades", _owner(piles, JACK_OF_SPADES), 1)
        categories = CATEGORIES_SPADE
    for side in scored_sweeps(rules, sweeps):
        add("sweeps", side, 1)
    points = [0] * rules.sides
    for item in items:
        points[item.side] += item.points
    made = [0] * rules.sides
    for seat in sweeps:
        made[rules.side_of(seat)] += 1
    return HandScore(tuple(items), tuple(points), cards, spades, tuple(made), categories)


def decide_winner(rules: Rules, before: Sequence[int], result: HandScore) -> int:
    """The winning side after a hand, or -1 when the game goes on (section 9)."""
    target = rules.target
    after = [b + p for b, p in zip(before, result.points, strict=True)]
    if rules.tiebreak == "count_out":
        running = list(before)
        for item in result.items:
            running[item.side] += item.points
            if running[item.side] >= target:
                return item.side
    contenders = [t for t in after if t >= target]
    if not contenders:
        return -1
    best = max(contenders)
    return after.index(best) if after.count(best) == 1 else -1
