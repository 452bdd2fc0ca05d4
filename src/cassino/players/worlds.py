"""The worlds a seat's view allows: every hidden card dealt somewhere, uniformly or weighted by
how the other seats played this deal (an opponent model for search).

A seat's moves tell something of the cards it held: most players capture when they can, and keep
back the cards that serve them. ``move_likelihood`` asks how likely a seat's moves in this deal
were, had it held a given hand and played like the heuristic player (a softmax over the
heuristic's ratings, never below a floor, so an opponent who plays otherwise only blurs the
picture). ``WorldSampler`` keeps sampled worlds in proportion to that likelihood (rejection
sampling), so search weighs most the hands the play so far points to. Only public play is read.
"""

from __future__ import annotations

import math
import random

from ..cards import CardMask, cards_of
from ..cardset import CardSet
from ..state import State
from ..view import View, plain_masks
from .evaluate import DealMove, deal_moves, value_takers
from .heuristic import PLAYER_WEIGHTS, rate_moves


def sample_world(
    view: View, rng: random.Random, unlikely: dict[int, CardMask] | None = None, doubt: float = 1.0
) -> State:
    """A full position consistent with ``view``: hidden cards dealt at random, build owners
    holding a card of each build's value. A card of a seat's ``unlikely`` ranks (see
    ``passed_over``) is dealt to that seat only with probability ``doubt``, when others remain."""
    rules = view.rules
    pool = cards_of(int(view.unseen))
    rng.shuffle(pool)
    hands = [0] * rules.players
    hands[view.seat] = int(view.hand)
    room = list(view.hand_sizes)
    room[view.seat] = 0
    for _mask, value, owner in view.builds:
        if owner == view.seat or room[owner] <= 0:
            continue
        kind = value_takers(value)
        if hands[owner] & kind:
            continue
        for i, c in enumerate(pool):
            if kind >> c & 1:
                hands[owner] |= 1 << c
                room[owner] -= 1
                pool.pop(i)
                break
    for seat in range(rules.players):
        avoid = unlikely.get(seat, 0) if unlikely else 0
        if avoid:
            i = len(pool) - 1
            while room[seat] > 0 and i >= 0:
                c = pool[i]
                if not avoid >> c & 1 or rng.random() < doubt:
                    hands[seat] |= 1 << c
                    room[seat] -= 1
                    pool.pop(i)
                i -= 1
        while room[seat] > 0 and pool:
            hands[seat] |= 1 << pool.pop()
            room[seat] -= 1
    return State(
        rules, dealer=view.dealer, to_move=view.to_move, hands=hands, loose=int(view.loose), builds=view.builds,
        stock=pool, captured=plain_masks(view.captured), sweeps=view.sweeps, last_capturer=view.last_capturer,
        scores=view.scores,
    )  # fmt: skip


def move_likelihood(
    view: View, moves: list[DealMove], hands: tuple[CardMask, ...], temperature: float, floor: float,
    cache: dict[tuple[int, CardMask], float] | None = None,
) -> float:  # fmt: skip
    """The chance, under the model, of the ``moves`` other seats made in this deal had they held
    ``hands`` now (each move's seat holding its hand now plus the cards it has played since)."""
    total = 1.0
    for i, move in enumerate(moves):
        hand = hands[move.seat] | move.kept
        key = (i, hand)
        p = cache.get(key) if cache is not None else None
        if p is None:
            p = _choice_likelihood(view, move, hand, temperature, floor)
            if cache is not None:
                cache[key] = p
        total *= p
        if not total:
            break
    return total


def _choice_likelihood(view: View, move: DealMove, hand: CardMask, temperature: float, floor: float) -> float:
    """How likely the model makes ``move``'s choice holding ``hand`` (1 when it is its best)."""
    rules = view.rules
    hands = [0] * rules.players
    hands[move.seat] = hand
    position = State(
        rules, dealer=view.dealer, to_move=move.seat, hands=hands, loose=move.loose, builds=move.builds, stock=(),
        captured=move.captured,
    )  # fmt: skip
    legal = tuple(position.legal_codes())
    if move.code not in legal:
        return 0.0
    if len(legal) == 1:
        return 1.0
    # int.__new__ makes each CardSet without its constructor's checks: these masks are sets of cards.
    seen = View(
        rules=rules, seat=move.seat, dealer=view.dealer, to_move=move.seat, hand=int.__new__(CardSet, hand),
        hand_sizes=move.hand_sizes, loose=int.__new__(CardSet, move.loose), builds=move.builds,
        captured=tuple([int.__new__(CardSet, pile) for pile in move.captured]), stock_size=view.stock_size,
        sweeps=(), last_capturer=-1, scores=view.scores, history=(), legal=legal,
    )  # fmt: skip
    rated = rate_moves(seen, *PLAYER_WEIGHTS)
    best = max(r for r, _ in rated)
    made = next(r for r, c in rated if c == move.code)
    return max(floor, math.exp((made - best) / temperature))


class WorldSampler:
    """Draws worlds consistent with a view, kept with the likelihood of the deal's play so far.

    Each draw tries up to ``tries`` worlds and keeps the first accepted, or else the likeliest."""

    def __init__(
        self, view: View, rng: random.Random, temperature: float = 0.2, floor: float = 0.05, tries: int = 8
    ) -> None:
        self.view = view
        self.rng = rng
        self.temperature = temperature
        self.floor = floor
        self.tries = tries
        self.moves = deal_moves(view)
        self.cache: dict[tuple[int, CardMask], float] = {}

    def __call__(self) -> State:
        """One world; without moves to read, a plain uniform draw."""
        if not self.moves:
            return sample_world(self.view, self.rng)
        best: State | None = None
        best_p = -1.0
        for _ in range(self.tries):
            world = sample_world(self.view, self.rng)
            p = move_likelihood(self.view, self.moves, world.hands, self.temperature, self.floor, self.cache)
            if self.rng.random() < p:
                return world
            if p > best_p:
                best, best_p = world, p
        assert best is not None
        return best
