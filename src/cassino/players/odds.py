"""The chance of winning the game from the scores: what a search that plays for the game values
at a hand's end (``search`` with ``game=1``).

Near the target, points matter only as far as they win the game: at 20-12 to 21 the side ahead
needs one point, the side behind a big hand, and a margin of points says neither. ``GameOdds``
holds, for two sides, the chance that side 0 wins from any scores with either side to deal the
next hand, computed by dynamic programming over how a hand's points fall. Those are learned from
self-play (``data/hand_points.json``, made by ``scripts/hand_points.py``: the dealer's side's
points and the other side's, per preset). The game ends as ``scoring.decide_winner`` says
(section 9): a unique highest total at or above the target wins, a shared one plays another hand.
Under ``count_out`` the side first to reach the target in the count wins: the table, which knows
only each hand's totals, gives a later hand that both sides finish at the target to the higher
total. A solved hand's own end is always decided by the rules (``State.winner``); the table
values only what comes after it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Final

from ..rules import Rules
from ..scoring import leader_at_target

HAND_POINTS: Final = Path(__file__).parent / "data" / "hand_points.json"
"""How often each pair of hand points (dealer's side, other side) came in self-play, per preset."""


class GameOdds:
    """Side 0's chance of winning a two-sided game to ``target`` from any scores below it.

    ``counts`` are (dealer's side's points, other side's points, times seen) of whole hands."""

    def __init__(self, target: int, counts: Sequence[tuple[int, int, int]]) -> None:
        total = sum(n for _, _, n in counts)
        if target < 1 or not total:
            raise ValueError("GameOdds needs a positive target and at least one hand")
        self.target = target
        self.points = round(sum((d + o) * n for d, o, n in counts) / total)
        """A hand's points, both sides together, as they mostly come (sweeps aside, the same every hand)."""
        mean = sum((d - o) * n for d, o, n in counts) / total
        self.spread = (sum((d - o - mean) ** 2 * n for d, o, n in counts) / total) ** 0.5
        """The standard deviation of a whole hand's margin, seen from its start."""
        # The chance of each (side 0, side 1) points of a hand, for each side dealing it.
        by_dealer: list[list[tuple[int, int, float]]] = [[], []]
        for dealt, other, n in counts:
            by_dealer[0].append((dealt, other, n / total))
            by_dealer[1].append((other, dealt, n / total))
        # From a tie at or above the target the next hand with more points wins; an even one
        # plays again with the deal passed.
        self._tied = _passing_the_deal(
            [sum(p for x, y, p in hands if x > y) for hands in by_dealer],
            sum(p for x, y, p in by_dealer[0] if x == y),
        )
        # _win[d][a][b]: side 0 wins from a to b, side d dealing next. Scores only rise, so the
        # table fills from the highest sum down; a scoreless hand only passes the deal.
        scoreless = sum(p for x, y, p in by_dealer[0] if x == 0 and y == 0)
        self._win = [[[0.0] * target for _ in range(target)] for _ in range(2)]
        for total_score in range(2 * target - 2, -1, -1):
            for a in range(max(0, total_score - target + 1), min(target - 1, total_score) + 1):
                b = total_score - a
                rest = [self._after(by_dealer[d], a, b, 1 - d) for d in (0, 1)]
                self._win[0][a][b], self._win[1][a][b] = _passing_the_deal(rest, scoreless)

    def _after(self, hands: list[tuple[int, int, float]], a: int, b: int, dealer: int) -> float:
        """Side 0's chance from (a, b) over one hand's outcomes but the scoreless one, with
        ``dealer`` dealing the hand after it."""
        won = 0.0
        for x, y, p in hands:
            if x or y:
                won += p * self._next(a + x, b + y, dealer)
        return won

    def _next(self, a: int, b: int, dealer: int) -> float:
        """Side 0's chance once a hand has ended at (a, b), ``dealer`` to deal."""
        target = self.target
        if a < target and b < target:
            return self._win[dealer][a][b]
        leader = leader_at_target(target, (a, b))
        return self._tied[dealer] if leader < 0 else float(leader == 0)

    def win(self, scores: Sequence[int], side: int, dealer_side: int) -> float:
        """``side``'s chance of winning from ``scores`` (a game not yet decided), with
        ``dealer_side`` to deal the next hand."""
        a, b = scores
        chance = self._next(a, b, dealer_side)
        return chance if side == 0 else 1.0 - chance


def _passing_the_deal(settled: Sequence[float], again: float) -> tuple[float, float]:
    """Side 0's chance with each side to deal, when a hand settles the chance to ``settled[d]``
    (side d dealing) but for a share ``again`` of hands that change nothing and pass the deal:
    w0 = settled[0] + again * w1 and w1 = settled[1] + again * w0, solved together."""
    shared = 1.0 - again * again
    return ((settled[0] + again * settled[1]) / shared, (settled[1] + again * settled[0]) / shared)


class HandStakes:
    """What one side's hand is worth to its game: the chance of winning the game against the
    margin the hand is expected to end with, for a search that values its moves by their
    expected margin (``search`` with ``game=1``, while a side is within reach of the target).

    The hand's points come to ``odds.points`` between the sides (each item goes to one of them),
    so its margin alone tells the new scores. What remains of the hand is uncertain: its final
    margin is taken as normal around the expected one with standard deviation ``spread``. The
    chance is steep near the target and flat far from it, so a side behind takes risks the margin
    would not, and a side ahead avoids them."""

    STEP: Final = 0.25
    """The margins at which the chance is computed; between them it is interpolated."""

    def __init__(self, odds: GameOdds, scores: Sequence[int], side: int, dealer_side: int, spread: float) -> None:
        points = odds.points
        self.spread = max(spread, self.STEP)
        self.ends: list[tuple[float, float]] = []
        """(final margin, chance of winning the game) for each split of the hand's points."""
        for got in range(points + 1):
            after = list(scores)
            after[side] += got
            after[1 - side] += points - got
            self.ends.append((2 * got - points, odds.win(after, side, dealer_side)))
        self._at: dict[int, float] = {}

    def chance(self, margin: float) -> float:
        """The side's chance of winning the game when its hand is expected to end ``margin``
        points ahead (negative: behind)."""
        place = margin / self.STEP
        low = math.floor(place)
        part = place - low
        below = self._chance_at(low)
        return below if not part else below + part * (self._chance_at(low + 1) - below)

    def _chance_at(self, step: int) -> float:
        known = self._at.get(step)
        if known is None:
            mean = step * self.STEP
            scale = self.spread * math.sqrt(2.0)
            known = 0.0
            edge = 0.0  # the chance that the margin falls below the current split's upper edge
            for i, (margin, chance) in enumerate(self.ends):
                upper = 1.0 if i == len(self.ends) - 1 else 0.5 * (1.0 + math.erf((margin + 1.0 - mean) / scale))
                known += (upper - edge) * chance
                edge = upper
            self._at[step] = known
        return known


@cache
def _counts(preset: str) -> tuple[tuple[int, int, int], ...]:
    """The learned hand points of ``preset`` (none when it has none)."""
    data = json.loads(HAND_POINTS.read_text(encoding="utf-8"))
    entry = data.get(preset)
    return tuple((int(d), int(o), int(n)) for d, o, n in entry["counts"]) if entry else ()


@cache
def _odds(preset: str, target: int) -> GameOdds | None:
    counts = _counts(preset)
    return GameOdds(target, counts) if counts else None


def game_odds(rules: Rules) -> GameOdds | None:
    """The odds of a two-sided game under ``rules`` (its preset's hand points, its target), or
    None with more sides: a table of several scores is left to a later measure."""
    if rules.sides != 2:
        return None
    return _odds(rules.preset, rules.target)
