"""The review after a game: where the points went, the moves that cost most, and at most two
strengths and two habits to work on, from the seat's assessments and the hands' counts.

Each assessed move has exactly one category (``coach.category``), so the categories' losses add
up exactly to the points lost in all: losses are counted in hundredths of a point (``Decimal``),
never summed as floats. A **strength** is a category of at least ``STRENGTH_MOVES`` moves whose
average loss is at most half the coach's margin (no mistake the evaluation can see), the most
played first; a **habit** a category that lost more than the margin in all, the costliest first.
A habit is never also a strength.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final

from ..rules import Rules
from ..scoring import CountItem
from .coach import CATEGORIES, MARGIN, Assessment, CoachNote, category_word, coach_note
from .messages import Message, Word, words

STRENGTH_MOVES: Final = 4
"""The fewest moves of a category that can show a strength."""
COSTLY: Final = 3
"""How many of the costliest moves a review names."""
ADVICE: Final = 2
"""How many strengths, and how many habits, a review names at most."""
CENT: Final = Decimal("0.01")
"""What losses are counted in, so that their sums are exact."""

words(
    "review",
    strength="Strong: {category}, {moves} moves with hardly a point lost.",
    habit="To work on: {category}, {lost} points lost. {tip}",
)


@dataclass(frozen=True, slots=True)
class ItemPoints:
    """One item of the count over the game (``CountItem.item``): the seat's side's points and the
    other sides' together."""

    item: str
    yours: int
    theirs: int


@dataclass(frozen=True, slots=True)
class CategoryStat:
    """One category of play: how many assessed moves it had and the points they lost."""

    category: str
    moves: int
    lost: Decimal

    @property
    def average(self) -> Decimal:
        """The points lost per move (0 without moves)."""
        return (self.lost / self.moves).quantize(CENT) if self.moves else Decimal(0)


@dataclass(frozen=True, slots=True)
class Advice:
    """A strength or a habit: its category and what to tell the player."""

    category: str
    message: Message


@dataclass(frozen=True, slots=True)
class Review:
    """A game reviewed for one seat (see the module's rules for strengths and habits)."""

    points: tuple[ItemPoints, ...]
    categories: tuple[CategoryStat, ...]
    lost: Decimal
    costly: tuple[CoachNote, ...]
    strengths: tuple[Advice, ...]
    habits: tuple[Advice, ...]

    def to_json(self) -> dict[str, Any]:
        """The review for the page; points lost as numbers of points."""
        return {
            "points": [{"item": p.item, "yours": p.yours, "theirs": p.theirs} for p in self.points],
            "categories": [
                {"category": c.category, "moves": c.moves, "lost": float(c.lost), "average": float(c.average)}
                for c in self.categories
            ],
            "lost": float(self.lost),
            "costly": [note.to_json() for note in self.costly],
            "strengths": [{"category": a.category, "message": a.message.to_json()} for a in self.strengths],
            "habits": [{"category": a.category, "message": a.message.to_json()} for a in self.habits],
        }


def cents(loss: float) -> Decimal:
    """A loss in whole hundredths of a point: the unit a review adds up exactly."""
    return Decimal(loss).quantize(CENT)


def points_by_item(rules: Rules, counts: Sequence[Sequence[CountItem]], seat: int) -> tuple[ItemPoints, ...]:
    """Each item of the count summed over the hands, ``seat``'s side against the others, in
    count-out order."""
    side = rules.side_of(seat)
    totals: dict[str, list[int]] = {}
    for count in counts:
        for item in count:
            total = totals.setdefault(item.item, [0, 0])
            if item.side >= 0:
                total[item.side != side] += item.points
    return tuple(ItemPoints(item, yours, theirs) for item, (yours, theirs) in totals.items())


def category_stats(assessments: Sequence[Assessment]) -> tuple[CategoryStat, ...]:
    """Every category with its moves and the points they lost, in ``CATEGORIES`` order."""
    moves = dict.fromkeys(CATEGORIES, 0)
    lost = dict.fromkeys(CATEGORIES, Decimal(0))
    for a in assessments:
        moves[a.category] += 1
        lost[a.category] += cents(a.loss)
    return tuple(CategoryStat(c, moves[c], lost[c]) for c in CATEGORIES)


def advice(stats: Sequence[CategoryStat], margin: float = MARGIN) -> tuple[tuple[Advice, ...], tuple[Advice, ...]]:
    """At most ``ADVICE`` strengths and ``ADVICE`` habits by the module's rules."""
    limit = Decimal(margin).quantize(CENT)
    bad = sorted((s for s in stats if s.lost > limit), key=lambda s: -s.lost)[:ADVICE]
    habits = tuple(
        Advice(
            s.category,
            Message.of(
                "review.habit", category=category_word(s.category), lost=float(s.lost), tip=Word(f"tip.{s.category}")
            ),
        )
        for s in bad
    )
    named = {s.category for s in bad}
    good = [s for s in stats if s.category not in named and s.moves >= STRENGTH_MOVES and s.average <= limit / 2]
    good.sort(key=lambda s: (-s.moves, s.average))
    strengths = tuple(
        Advice(s.category, Message.of("review.strength", category=category_word(s.category), moves=s.moves))
        for s in good[:ADVICE]
    )
    return strengths, habits


def review(
    assessments: Sequence[Assessment],
    counts: Sequence[Sequence[CountItem]],
    seat: int,
    rules: Rules,
    margin: float = MARGIN,
) -> Review:
    """The review of a game for ``seat``: its ``assessments`` (``Coach.assess`` of each move it
    made) and the ``counts`` of the hands played (``scoring.count_hand``, or ``HandScore.count``)."""
    stats = category_stats(assessments)
    costliest = sorted(assessments, key=lambda a: -a.loss)
    notes = tuple(n for a in costliest[:COSTLY] if (n := coach_note(a, margin)) is not None)
    strengths, habits = advice(stats, margin)
    lost = sum((cents(a.loss) for a in assessments), Decimal(0))
    return Review(points_by_item(rules, counts, seat), stats, lost, notes, strengths, habits)
