"""Scoring a hand (docs/rules.md section 8) and deciding the game (section 9).

A hand is counted once, as every item of the scoring table in count-out order, scored or not
(``count_hand``: a tie or a card nobody took is an item for nobody). The scored items of that count
are the hand's score, so the per-side totals, the breakdown shown to players, the count shown
after a hand and the count-out tie-break all read one list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, NamedTuple

from .cards import ACE, BIG_CASINO, JACK_OF_SPADES, LITTLE_CASINO, SPADES, SPADES_MASK, Card, CardMask, field_values
from .rules import Rules

ACES_COUNT_OUT_ORDER: Final = (ACE * 4 + 3, ACE * 4 + 0, ACE * 4 + 2, ACE * 4 + 1)
"""As, Ac, Ah, Ad: the order aces are counted out (section 9)."""

CATEGORIES_STANDARD: Final[tuple[str, ...]] = ("cards", "spades", "big casino", "little casino", "aces", "sweeps")
CATEGORIES_SPADE: Final[tuple[str, ...]] = (
    "cards",
    "big casino",
    "aces",
    "spades",
    "little casino",
    "jack of spades",
    "sweeps",
)


POINTS: dict[str, int] = {
    "cards": 3,
    "spades": 1,
    "big_casino": 2,
    "little_casino": 1,
    "ace": 1,
    "spade": 1,
    "jack_of_spades": 1,
    "sweep": 1,
}
"""What each item of the count is worth (tables of 8.2 and 8.3): ``spades`` is most spades
(standard scoring), ``spade`` each single spade (spade scoring)."""

_CATEGORY: dict[str, str] = {
    "cards": "cards",
    "spades": "spades",
    "big_casino": "big casino",
    "little_casino": "little casino",
    "ace": "aces",
    "spade": "spades",
    "jack_of_spades": "jack of spades",
    "sweep": "sweeps",
}
"""The breakdown category each item of the count adds to."""

CARD_ITEMS: dict[str, tuple[tuple[str, Card], ...]] = {
    "standard": (
        ("big_casino", BIG_CASINO),
        ("little_casino", LITTLE_CASINO),
        *(("ace", ace) for ace in ACES_COUNT_OUT_ORDER),
    ),
    "spade": (
        ("big_casino", BIG_CASINO),
        *(("ace", ace) for ace in ACES_COUNT_OUT_ORDER),
        *(("spade", rank * 4 + SPADES) for rank in range(13)),
        ("little_casino", LITTLE_CASINO),
        ("jack_of_spades", JACK_OF_SPADES),
    ),
}
"""The one-card items of each scoring in count-out order; they follow most cards (and, in
standard scoring, most spades) and precede the sweeps."""


class CountItem(NamedTuple):
    """One item of the count after a hand, scored or not, so that a tie or a card nobody took can
    be shown too: ``side`` is who scored it (-1: a tie, or nobody), ``points`` what it brought (0
    for nobody), ``card`` the card of a one-card item, ``seat`` the seat that made a sweep and
    ``counts`` what each side took, for most cards and most spades. (A named tuple: every hand
    end, in search too, makes a dozen.)"""

    item: str
    side: int
    points: int
    card: Card | None = None
    seat: int | None = None
    counts: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring item: its category, the side that scored it, and its points."""

    category: str
    side: int
    points: int

    def __reduce__(self) -> tuple[type[ScoreItem], tuple[object, ...]]:
        """Rebuilt from its fields (``cards.field_values``): compiled, it pickles and copies so."""
        return (ScoreItem, field_values(self))


@dataclass(frozen=True, slots=True)
class HandScore:
    """The outcome of one hand: the scored items in count-out order, what each side took, and the
    whole count (``count_hand``, unscored items too)."""

    items: tuple[ScoreItem, ...]
    points: tuple[int, ...]
    cards: tuple[int, ...]
    spades: tuple[int, ...]
    sweeps_made: tuple[int, ...]
    categories: tuple[str, ...]
    count: tuple[CountItem, ...] = ()

    def __reduce__(self) -> tuple[type[HandScore], tuple[object, ...]]:
        """Rebuilt from its fields (``cards.field_values``): compiled, it pickles and copies so."""
        return (HandScore, field_values(self))

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
        standard scoring, 24 (21) in spade scoring, 0 when nobody captured (``expected_checksum``
        gives the value a hand should have)."""
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


def _sweeps_scoring(rules: Rules, sweeps: Sequence[int]) -> list[bool]:
    """For each sweep made, in order, whether it scores: none without ``sweeps``; with
    ``sweeps_cancel`` only the surplus of the side with more, its earliest ones (section 9)."""
    if not rules.sweeps:
        return [False] * len(sweeps)
    if not rules.sweeps_cancel:
        return [True] * len(sweeps)
    sides = [rules.side_of(seat) for seat in sweeps]
    made = [sides.count(0), sides.count(1)]
    if made[0] == made[1]:
        return [False] * len(sweeps)
    winner = 0 if made[0] > made[1] else 1
    keep = made[winner] - made[1 - winner]
    out = []
    for side in sides:
        scores = side == winner and keep > 0
        keep -= scores
        out.append(scores)
    return out


def scored_sweeps(rules: Rules, sweeps: Sequence[int]) -> list[int]:
    """The sides of the sweeps that score, in the order made (after cancelling, if on)."""
    return [rules.side_of(seat) for seat, scores in zip(sweeps, _sweeps_scoring(rules, sweeps), strict=True) if scores]


def count_hand(rules: Rules, captured: Sequence[CardMask], sweeps: Sequence[int]) -> tuple[CountItem, ...]:
    """Every item of the scoring table for a finished hand, in count-out order (section 9; spade
    scoring in the order of its table, 8.3), the aces in the order As Ac Ah Ad, and one item per
    sweep made; items nobody scored are there with side -1 and no points."""
    return _count(rules, side_piles(rules, captured), sweeps)


def _count(rules: Rules, piles: Sequence[CardMask], sweeps: Sequence[int]) -> tuple[CountItem, ...]:
    """``count_hand`` from the sides' piles."""
    cards = tuple(p.bit_count() for p in piles)
    side = _strict_top(cards)
    items = [CountItem("cards", side, POINTS["cards"] if side >= 0 else 0, None, None, cards)]
    if rules.scoring == "standard":
        spades = tuple((p & SPADES_MASK).bit_count() for p in piles)
        side = _strict_top(spades)
        items.append(CountItem("spades", side, POINTS["spades"] if side >= 0 else 0, None, None, spades))
    for item, card in CARD_ITEMS[rules.scoring]:
        items.append(_card_item(item, _owner(piles, card), card))
    if sweeps:
        for seat, scores in zip(sweeps, _sweeps_scoring(rules, sweeps), strict=True):
            side = rules.side_of(seat) if scores else -1
            items.append(CountItem("sweep", side, POINTS["sweep"] if scores else 0, None, seat))
    return tuple(items)


@cache
def _card_item(item: str, side: int, card: Card) -> CountItem:
    """A one-card item of the count (shared: a hand end makes a dozen, and search makes many)."""
    return CountItem(item, side, POINTS[item] if side >= 0 else 0, card)


@cache
def _score_item(category: str, side: int, points: int) -> ScoreItem:
    """A scored item (shared, as ``_card_item``)."""
    return ScoreItem(category, side, points)


def expected_checksum(rules: Rules, result: HandScore) -> int:
    """What a hand's ``checksum`` must be (section 8.4): every item of the table but sweeps, less
    most cards and most spades when tied; 0 when nobody captured (11, 8, 10, 7 in standard
    scoring; 24, 21 in spade scoring)."""
    if not any(result.cards):
        return 0
    total = sum(POINTS[item] for item, _ in CARD_ITEMS[rules.scoring])
    total += POINTS["cards"] if _strict_top(result.cards) >= 0 else 0
    if rules.scoring == "standard":
        total += POINTS["spades"] if _strict_top(result.spades) >= 0 else 0
    return total


_SCORED: Final[dict[tuple[Rules, tuple[CardMask, ...], tuple[int, ...]], HandScore]] = {}
_SCORED_KEPT: Final = 4096
"""How many hands ``score_hand`` keeps before it starts afresh: an exact search of a hand's end
(``players.solver``) finishes the hand thousands of times a move, mostly with piles met before."""


def score_hand(rules: Rules, captured: Sequence[CardMask], sweeps: Sequence[int]) -> HandScore:
    """Score a finished hand from the seats' captured piles and the sweeps made: the scored items
    of its count (a ``HandScore`` is a value: hands scored alike share one)."""
    key = (rules, tuple(captured), tuple(sweeps))
    found = _SCORED.get(key)
    if found is None:
        if len(_SCORED) >= _SCORED_KEPT:
            _SCORED.clear()
        found = _SCORED[key] = _score_hand(rules, captured, sweeps)
    return found


def _score_hand(rules: Rules, captured: Sequence[CardMask], sweeps: Sequence[int]) -> HandScore:
    """``score_hand``, worked out."""
    piles = side_piles(rules, captured)
    cards = tuple(p.bit_count() for p in piles)
    spades = tuple((p & SPADES_MASK).bit_count() for p in piles)
    count = _count(rules, piles, sweeps)
    items = tuple(_score_item(_CATEGORY[i.item], i.side, i.points) for i in count if i.side >= 0)
    points = [0] * rules.sides
    for item in items:
        points[item.side] += item.points
    made = [0] * rules.sides
    for seat in sweeps:
        made[rules.side_of(seat)] += 1
    categories = CATEGORIES_STANDARD if rules.scoring == "standard" else CATEGORIES_SPADE
    return HandScore(items, tuple(points), cards, spades, tuple(made), categories, count)


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
    return leader_at_target(target, after)


def leader_at_target(target: int, totals: Sequence[int]) -> int:
    """The side whose total is the unique highest at or above ``target``, or -1 (none there, or
    the highest shared): who wins by ``higher_total`` (section 9), also asked by ``players.odds``
    of scores to come."""
    best = max(totals)
    if best < target or totals.count(best) != 1:
        return -1
    return totals.index(best)
