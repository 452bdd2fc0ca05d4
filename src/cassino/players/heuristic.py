"""The heuristic player: one move ahead with card counting.

Each legal move is rated by what it takes now (card points, casinos, aces, spades, a sweep), what a
build it makes is likely to bring (it keeps a card to take it; the opponents may hold one too), and
what it leaves the next player, who holds an unknown share of the cards this seat has not seen
(and surely a card of each build they own).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from ..cards import DECK_SIZE, FULL_DECK, RANK_MASKS, CardMask, count
from ..moves import BUILD, CAPTURE, HIGHEST_VALUE, MoveCode, code_card, code_cards, code_kind, code_value
from ..rules import Rules
from ..state import Build
from ..view import View
from .base import register
from .evaluate import (
    CARD_SHARE,
    capture_options,
    card_worth,
    holds_probability,
    mask_worth,
    rank_take,
    risk_of,
    table_after,
    value_takers,
)
from .solver import Solver, endgame_moves

_SWEEP: Final = 1.0
"""What a sweep is worth: its point."""
_TIE: Final = 1e-9
"""Ratings this close count as equal: float sums of the same worths may differ in the last bits."""

PLAYER_WEIGHTS: Final = (0.6, 0.9, 0.3, 0.25)
"""The heuristic player's weights of risk, keep, follow and trail (what search models others by)."""


class _TableLeft:
    """What a table that moves leave offers next, whatever the hand (``MoveRater``): kept once
    for every move that leaves it (a capture of the same cards by another card of the value)."""

    def __init__(self, rater: MoveRater, loose: CardMask, builds: tuple[Build, ...]) -> None:
        self.loose = loose
        self.builds = builds
        self.options = capture_options(rater.rules, rater.worth, loose, builds) if rater.opp_hand else []
        self.ranks = 0
        """The cards of the ranks that take something from this table: ``risk`` depends on the
        unseen cards only through these."""
        for _gain, rank in self.options:
            self.ranks |= RANK_MASKS[rank]
        self.risks: dict[int, float] = {}
        """``risk_of`` by the unseen cards of ``ranks`` and how many are unseen in all."""
        self.takes: dict[int, float] = {}
        """``rank_take`` on this table, by rank, as ranks come up."""

    def follow(self, rater: MoveRater, rest: CardMask) -> float:
        """What the best card of ``rest`` could take next from this table."""
        best = 0.0
        worth = rater.worth
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            take = self.takes.get(c >> 2)
            if take is None:
                take = self.takes[c >> 2] = rank_take(rater.rules, worth, self.loose, self.builds, c >> 2)
            if take >= 0.0:
                best = max(best, take + worth[c])
        return best

    def risk(self, rater: MoveRater, unseen: CardMask, n_unseen: int) -> float:
        """``risk_of`` this table, with ``unseen`` (``n_unseen`` of them) the cards the next
        player's hand is drawn from: kept by what it depends on, since a seat weighed under hand
        after hand mostly holds none of ``ranks``."""
        key = (unseen & self.ranks) | (n_unseen << DECK_SIZE)
        risk = self.risks.get(key)
        if risk is None:
            risk = self.risks[key] = risk_of(self.options, unseen, rater.opp_hand, rater.sure)
        return risk


class _MoveParts:
    """What one move brings whatever else its seat holds (``MoveRater``)."""

    def __init__(self, rater: MoveRater, code: MoveCode) -> None:
        worth = rater.worth
        self.kind = code_kind(code)
        self.card_bit = 1 << code_card(code)
        loose, builds = table_after(code, rater.table, rater.on_table, rater.seat)
        self.gain = 0.0
        self.takers = 0
        if self.kind == CAPTURE:
            self.gain = mask_worth(worth, code_cards(code))
            if not loose and not builds:
                self.gain += rater.sweep_points
        elif self.kind == BUILD:
            self.takers = value_takers(code_value(code))
            self.gain = mask_worth(worth, code_cards(code))  # the build's cards: kept or lost
        else:
            self.gain = -rater.trail_weight * worth[code_card(code)]
        key = (loose, builds)
        left = rater.tables.get(key)
        if left is None:
            left = rater.tables[key] = _TableLeft(rater, loose, builds)
        self.left = left
        """The table this move leaves."""


class MoveRater:
    """The heuristic's terms of the moves of one position, for whatever hand its seat holds.

    What a move owes to the table alone (the table it leaves, what the next player could take from
    there, what a card of each rank could take from there next) is worked out once a move, so the
    search, weighing the same earlier position of the deal under hand after possible hand, pays
    for little beyond the hand's own cards. ``public`` is every card the seat sees outside its hand."""

    def __init__(
        self, rules: Rules, seat: int, loose: CardMask, builds: tuple[Build, ...], public: CardMask,
        hand_sizes: tuple[int, ...], keep_weight: float = 0.9, trail_weight: float = 0.25, follow: bool = True,
    ) -> None:  # fmt: skip
        self.rules = rules
        self.worth = card_worth(rules)
        self.seat = seat
        self.table = loose
        self.on_table = builds
        self.hidden = FULL_DECK & ~public
        self.keep_weight = keep_weight
        self.trail_weight = trail_weight
        self.with_follow = follow
        nxt = (seat + 1) % rules.players
        self.opp_hand = hand_sizes[nxt] if rules.side_of(nxt) != rules.side_of(seat) else 0
        self.sure = 0
        for build in builds:
            if build.owner == nxt and build.value != HIGHEST_VALUE:
                self.sure |= RANK_MASKS[build.value - 1]
        self.sweep_points = _SWEEP if rules.sweeps else 0.0
        self.parts: dict[MoveCode, _MoveParts] = {}
        self.tables: dict[tuple[CardMask, tuple[Build, ...]], _TableLeft] = {}
        """The tables its moves leave, each once."""

    @classmethod
    def of_view(
        cls, view: View, keep_weight: float = 0.9, trail_weight: float = 0.25, follow: bool = True
    ) -> MoveRater:
        """The rater of the position on ``view``."""
        public = FULL_DECK & ~int(view.unseen) & ~int(view.hand)  # ints: a CardSet's ~ and & are calls
        return cls(
            view.rules, view.seat, int(view.loose), view.builds, public, view.hand_sizes, keep_weight, trail_weight,
            follow,
        )  # fmt: skip

    def terms(self, hand: CardMask, legal: Sequence[MoveCode]) -> list[tuple[float, float, float]]:
        """Each of the ``legal`` moves' three terms holding ``hand`` (see ``move_terms``)."""
        unseen = self.hidden & ~hand
        n_unseen = count(unseen)
        return [self.move_terms(code, hand, unseen, n_unseen) for code in legal]

    def move_terms(self, code: MoveCode, hand: CardMask, unseen: CardMask, n_unseen: int) -> tuple[float, float, float]:
        """One move's three terms holding ``hand``, with ``unseen`` (``n_unseen`` of them) the
        cards the seat has not seen then (its ``hidden`` cards less the hand)."""
        opp_hand = self.opp_hand
        parts = self.parts.get(code)
        if parts is None:
            parts = self.parts[code] = _MoveParts(self, code)
        gain = parts.gain
        if parts.kind == BUILD:
            takers = parts.takers
            p = 1.0 if self.sure & takers else holds_probability(count(unseen & takers), n_unseen, opp_hand)
            # Kept: next turn the build and the card kept for it come home. Taken: they go across.
            gain = self.keep_weight * ((1 - p) * (gain + CARD_SHARE) - p * gain)
        risk = parts.left.risk(self, unseen, n_unseen) if opp_hand else 0.0
        next_take = parts.left.follow(self, hand & ~parts.card_bit) if self.with_follow else 0.0
        return gain, risk, next_take

    def rate(
        self, hand: CardMask, legal: Sequence[MoveCode], risk_weight: float = 1.0, follow_weight: float = 0.3
    ) -> list[tuple[float, MoveCode]]:
        """Each of the ``legal`` moves with its rating holding ``hand`` (see ``rate_moves``)."""
        unseen = self.hidden & ~hand
        n_unseen = count(unseen)
        return [(self.rating(code, hand, unseen, n_unseen, risk_weight, follow_weight), code) for code in legal]

    def rating(
        self, code: MoveCode, hand: CardMask, unseen: CardMask, n_unseen: int, risk_weight: float, follow_weight: float
    ) -> float:
        """One move's rating holding ``hand`` (``rate``'s, for a reader that may stop early)."""
        gain, risk, follow = self.move_terms(code, hand, unseen, n_unseen)
        return gain - risk_weight * risk + follow_weight * follow


def move_terms(
    view: View, keep_weight: float = 0.9, trail_weight: float = 0.25, follow: bool = True
) -> list[tuple[float, float, float]]:
    """Every legal move's three terms, in the order of ``view.legal``: what it takes or a build it
    makes is likely to bring (``gain``), what it leaves the next player to take (``risk``), and
    what its own next card could take (``follow``). ``rate_moves`` weighs them; the learned player
    reads them as inputs. Without ``follow`` that term is 0, not worked out."""
    return MoveRater.of_view(view, keep_weight, trail_weight, follow).terms(int(view.hand), view.legal)


def rate_moves(
    view: View,
    risk_weight: float = 1.0,
    keep_weight: float = 0.9,
    follow_weight: float = 0.3,
    trail_weight: float = 0.25,
) -> list[tuple[float, MoveCode]]:
    """Every legal move with its rating (higher is better), in the order of ``view.legal``."""
    rater = MoveRater.of_view(view, keep_weight, trail_weight, follow_weight != 0)
    return rater.rate(int(view.hand), view.legal, risk_weight, follow_weight)


class HeuristicPlayer:
    """Plays the best-rated move of ``rate_moves``; ties broken at random from a seed."""

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        risk: float = PLAYER_WEIGHTS[0],
        keep: float = PLAYER_WEIGHTS[1],
        follow: float = PLAYER_WEIGHTS[2],
        endgame: int = 1,
        trail: float = PLAYER_WEIGHTS[3],
    ) -> None:
        self.trail = trail
        self.endgame = Solver(20_000) if endgame else None
        self.rng = random.Random(seed)
        self.risk = risk
        self.keep = keep
        self.follow = follow

    def choose(self, view: View) -> MoveCode:
        """The legal move with the best rating."""
        if self.endgame is not None:
            # Counting cards tells every hidden card: play the rest of the hand exactly.
            solved = endgame_moves(self.endgame, view)
            if solved is not None:
                return self.rng.choice(solved)
        rated = rate_moves(view, self.risk, self.keep, self.follow, self.trail)
        best = max(r for r, _ in rated)
        return self.rng.choice([c for r, c in rated if r >= best - _TIE])


register("heuristic", HeuristicPlayer, {"risk": float, "keep": float, "follow": float, "endgame": int, "trail": float})
