"""The heuristic player: one move ahead with card counting.

Each legal move is rated by what it takes now (card points, casinos, aces, spades, a sweep), what a
build it makes is likely to bring (it keeps a card to take it; the opponents may hold one too), and
what it leaves the next player, who holds an unknown share of the cards this seat has not seen
(and surely a card of each build they own).
"""

from __future__ import annotations

import random
from typing import Final

from ..cards import RANK_MASKS
from ..moves import BUILD, CAPTURE, HIGHEST_VALUE, MoveCode, code_card, code_cards, code_kind, code_value
from ..view import View
from .base import register
from .evaluate import (
    CARD_SHARE,
    best_own_capture,
    card_worth,
    exposure,
    holds_probability,
    mask_worth,
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


def move_terms(
    view: View, keep_weight: float = 0.9, trail_weight: float = 0.25, follow: bool = True
) -> list[tuple[float, float, float]]:
    """Every legal move's three terms, in the order of ``view.legal``: what it takes or a build it
    makes is likely to bring (``gain``), what it leaves the next player to take (``risk``), and
    what its own next card could take (``follow``). ``rate_moves`` weighs them; the learned player
    reads them as inputs. Without ``follow`` that term is 0, not worked out."""
    rules = view.rules
    worth = card_worth(rules)
    seat = view.seat
    n = rules.players
    me = rules.side_of(seat)
    nxt = (seat + 1) % n
    opp_hand = view.hand_sizes[nxt] if rules.side_of(nxt) != me else 0
    # Plain ints: a CardSet's operators are Python calls, an int's compile to single instructions.
    unseen = int(view.unseen)
    hand = int(view.hand)
    table = int(view.loose)
    n_unseen = unseen.bit_count()
    sure = 0
    for build in view.builds:
        if build.owner == nxt and build.value != HIGHEST_VALUE:
            sure |= RANK_MASKS[build.value - 1]
    sweep_points = _SWEEP if rules.sweeps else 0.0
    out = []
    for code in view.legal:
        kind = code_kind(code)
        card_bit = 1 << code_card(code)
        loose, builds = table_after(code, table, view.builds, seat)
        if kind == CAPTURE:
            gain = mask_worth(worth, code_cards(code))
            if not loose and not builds:
                gain += sweep_points
        elif kind == BUILD:
            value = code_value(code)
            new = code_cards(code)
            takers = value_takers(value)
            p = 1.0 if sure & takers else holds_probability((unseen & takers).bit_count(), n_unseen, opp_hand)
            # Kept: next turn the build and the card kept for it come home. Taken: they go across.
            gain = keep_weight * ((1 - p) * (mask_worth(worth, new) + CARD_SHARE) - p * mask_worth(worth, new))
        else:
            gain = -trail_weight * worth[code_card(code)]
        risk = exposure(rules, worth, loose, builds, unseen, opp_hand, sure) if opp_hand else 0.0
        next_take = best_own_capture(rules, worth, loose, builds, hand & ~card_bit) if follow else 0.0
        out.append((gain, risk, next_take))
    return out


def rate_moves(
    view: View,
    risk_weight: float = 1.0,
    keep_weight: float = 0.9,
    follow_weight: float = 0.3,
    trail_weight: float = 0.25,
) -> list[tuple[float, MoveCode]]:
    """Every legal move with its rating (higher is better), in the order of ``view.legal``."""
    terms = move_terms(view, keep_weight, trail_weight, follow_weight != 0)
    return [
        (gain - risk_weight * risk + follow_weight * follow, code)
        for (gain, risk, follow), code in zip(terms, view.legal, strict=True)
    ]


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
