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
from collections.abc import Callable, Sequence

from ..cards import CardMask, cards_of, count
from ..state import State
from ..view import View, plain_masks
from .evaluate import DealMove, deal_moves, value_takers
from .heuristic import PLAYER_WEIGHTS, MoveRater


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``: the same draws in the same order (Python's own algorithm, bits
    drawn by ``getrandbits``), run compiled. Every world dealt shuffles the unseen cards, and the
    library's loop runs interpreted; a subclass of ``Random`` (which may draw otherwise) is
    left to its own method."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def sample_world(
    view: View, rng: random.Random, unlikely: dict[int, CardMask] | None = None, doubt: float = 1.0
) -> State:
    """A full position consistent with ``view``: hidden cards dealt at random, build owners
    holding a card of each build's value. A card of a seat's ``unlikely`` ranks (see
    ``passed_over``) is dealt to that seat only with probability ``doubt``, when others remain."""
    hands, stock = sample_deal(view, rng, unlikely, doubt)
    return _world(view, hands, stock)


WorldDeal = tuple[list[CardMask], list[int]]
"""A world's hidden cards dealt: every seat's hand (the view's own included) and the stock in
its order; ``_world`` makes the position of it."""


def sample_deal(
    view: View, rng: random.Random, unlikely: dict[int, CardMask] | None = None, doubt: float = 1.0
) -> WorldDeal:
    """``sample_world``'s deal, before its position is made (a weighed world may be rejected)."""
    rules = view.rules
    pool = cards_of(int(view.unseen))
    shuffle(rng, pool)
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
    return hands, pool


def _world(view: View, hands: list[CardMask], stock: list[int]) -> State:
    """The position of ``view`` with the hidden cards dealt: ``hands`` (the seat's own included)
    and the ``stock`` in its order."""
    return State(
        view.rules, dealer=view.dealer, to_move=view.to_move, hands=hands, loose=int(view.loose), builds=view.builds,
        stock=stock, captured=plain_masks(view.captured), sweeps=view.sweeps, last_capturer=view.last_capturer,
        scores=view.scores,
    )  # fmt: skip


def stock_after(pool: list[int], hands: list[CardMask], rng: random.Random) -> list[int]:
    """The stock of a world whose ``hands`` are dealt: the other cards of the unseen ``pool``,
    shuffled. Made only for a world kept: a deal weighed and rejected never needs its stock."""
    taken = 0
    for hand in hands:
        taken |= hand
    stock = [c for c in pool if not taken >> c & 1]
    shuffle(rng, stock)
    return stock


class BalancedDeals:
    """Worlds whose hidden hands are dealt in turn from one shuffle of the unseen cards after
    another, so that over the worlds every unseen card lands in the other hands about equally often
    (stratified sampling: the card-by-card luck of independent deals, most of the noise in a
    few worlds' mean, cancels). The stock of each world is the rest, shuffled.

    Where another seat owns a build (it must hold a card that takes it) each world's hands are an
    independent ``sample_deal``'s, which keeps that promise."""

    def __init__(self, view: View, rng: random.Random) -> None:
        self.view = view
        self.rng = rng
        self.pool = cards_of(int(view.unseen))
        self.room = list(view.hand_sizes)
        self.room[view.seat] = 0
        self.need = sum(self.room)
        self.free = not any(owner != view.seat and self.room[owner] > 0 for _m, _v, owner in view.builds)
        self.order: list[int] = []

    def __call__(self) -> State:
        """The next world."""
        hands = self.hands()
        return _world(self.view, hands, stock_after(self.pool, hands, self.rng))

    def hands(self) -> list[CardMask]:
        """The next world's hands (the seat's own included), before its stock is dealt."""
        view = self.view
        if not self.free or not self.need:
            return sample_deal(view, self.rng)[0]
        if len(self.order) < self.need:
            self.order += self._next_shuffle(set(self.order))
        dealt = self.order[: self.need]
        del self.order[: self.need]
        hands = [0] * view.rules.players
        hands[view.seat] = int(view.hand)
        i = 0
        for seat, room in enumerate(self.room):
            for c in dealt[i : i + room]:
                hands[seat] |= 1 << c
            i += room
        return hands

    def _next_shuffle(self, waiting: set[int]) -> list[int]:
        """A fresh shuffle of every unseen card, to follow the last one's cards still ``waiting``:
        those share a world with this shuffle's first cards, so any of them there changes places
        with a later card (each shuffle still deals every card once, and no world gets a card twice)."""
        fresh = list(self.pool)
        shuffle(self.rng, fresh)
        head = self.need - len(waiting)
        later = [i for i in range(head, len(fresh)) if fresh[i] not in waiting]
        for i in range(head):
            if fresh[i] in waiting:
                if not later:  # too few cards to keep them apart: this shuffle leaves them out
                    return [c for c in fresh if c not in waiting]
                j = later.pop()
                fresh[i], fresh[j] = fresh[j], fresh[i]
        return fresh


def move_likelihood(
    view: View, moves: list[DealMove], hands: Sequence[CardMask], temperature: float, floor: float,
    cache: dict[tuple[int, CardMask], float] | None = None, below: float = 0.0,
    positions: list[DealPosition] | None = None,
) -> float:  # fmt: skip
    """The chance, under the model, of the ``moves`` other seats made in this deal had they held
    ``hands`` now (each move's seat holding its hand now plus the cards it has played since).

    Once the chance falls under ``below`` the rest is not worked out (each move's chance is at
    most 1, so it stays under): what is returned is then only a bound above the chance.
    ``positions`` (``deal_positions``), one for each move, keep what asking about its position
    costs for the next hand asked about."""
    total = 1.0
    for i, move in enumerate(moves):
        hand = hands[move.seat] | move.kept
        key = (i, hand)
        p = cache.get(key) if cache is not None else None
        if p is None:
            position = positions[i] if positions is not None else DealPosition(view, move)
            p = position.likelihood(move, hand, temperature, floor, below / total if below else 0.0)
            if p < 0.0:  # rating stopped once the chance was surely too small: -p bounds it
                if total * -p < below:
                    return total * -p
                p = position.likelihood(move, hand, temperature, floor)  # at the edge, in full
            if cache is not None:
                cache[key] = p
        total *= p
        if total < below or not total:
            break
    return total


class DealPosition:
    """The position an earlier move of the deal was made in, asked about under hand after possible
    hand: the heuristic's rater of it, weighted as the model plays, and the position itself, whose
    seat's hand is set to each hand asked about (marked as a search's, so that the generator keeps
    its table's answers across the hands)."""

    def __init__(self, view: View, move: DealMove) -> None:
        public = move.loose
        for build in move.builds:
            public |= build.cards
        for pile in move.captured:
            public |= pile
        _risk, keep, _follow, trail = PLAYER_WEIGHTS
        self.rater = MoveRater(view.rules, move.seat, move.loose, move.builds, public, move.hand_sizes, keep, trail)
        self.state = State(
            view.rules, dealer=view.dealer, to_move=move.seat, hands=[0] * view.rules.players, loose=move.loose,
            builds=move.builds, stock=(), captured=move.captured,
        )  # fmt: skip
        self.state.backtracked = True

    def likelihood(self, move: DealMove, hand: CardMask, temperature: float, floor: float, limit: float = 0.0) -> float:
        """How likely the model makes ``move``'s choice holding ``hand`` (1 when it is its best).
        Once a better move puts it under ``limit`` (above ``floor``), the rest are not rated and
        the chance so far comes back negated: only a bound above the chance, which the caller
        (``move_likelihood``) needs no closer, since it already rejects the world."""
        hands = [0] * len(self.state.hands)
        hands[self.state.to_move] = hand
        self.state.hands = tuple(hands)
        legal = self.state.legal_codes()
        if move.code not in legal:
            return 0.0
        if len(legal) == 1:
            return 1.0
        risk, _keep, follow, _trail = PLAYER_WEIGHTS
        rater = self.rater
        unseen = rater.hidden & ~hand
        n_unseen = count(unseen)
        made = rater.rating(move.code, hand, unseen, n_unseen, risk, follow)
        best = made
        for code in legal:
            if code != move.code:
                r = rater.rating(code, hand, unseen, n_unseen, risk, follow)
                if r > best:
                    best = r
                    # Already down to the floor, where any better move leaves it: the rest of the
                    # moves need no rating (most hands that the play rules out end here).
                    p = math.exp((made - best) / temperature)
                    if p <= floor:
                        return floor
                    if p < limit:
                        return -p
        return max(floor, math.exp((made - best) / temperature))


PositionCache = dict[tuple[object, ...], DealPosition]
"""``DealPosition``s by the position they are (``deal_positions``)."""
_POSITIONS_KEPT = 64
"""How many positions a ``PositionCache`` holds before it starts afresh: a few deals' worth."""


def deal_positions(view: View, moves: list[DealMove], kept: PositionCache | None = None) -> list[DealPosition]:
    """The ``DealPosition`` of each of the deal's ``moves``; with ``kept``, those met before (at a
    seat's earlier choices in the deal) again, what they learnt kept."""
    out = []
    for move in moves:
        key = (view.rules, move.seat, move.loose, move.builds, move.captured, move.hand_sizes)
        position = kept.get(key) if kept is not None else None
        if position is None:
            position = DealPosition(view, move)
            if kept is not None:
                if len(kept) >= _POSITIONS_KEPT:
                    kept.clear()
                kept[key] = position
        out.append(position)
    return out


class WorldSampler:
    """Draws worlds consistent with a view, kept with the likelihood of the deal's play so far.

    Each draw tries up to ``tries`` worlds and keeps the first accepted, or else the likeliest.
    ``positions`` keeps the deal's earlier positions for the next sampler (``deal_positions``).
    A world's acceptance is drawn before its likelihood is worked out, which then stops as soon
    as it falls below the draw: most rejected worlds are known after the deal's first move."""

    def __init__(
        self, view: View, rng: random.Random, temperature: float = 0.2, floor: float = 0.05, tries: int = 8,
        balanced: bool = False, positions: PositionCache | None = None,
    ) -> None:  # fmt: skip
        self.view = view
        self.rng = rng
        self.propose: Callable[[], list[CardMask]] = (
            BalancedDeals(view, rng).hands if balanced else lambda: sample_deal(view, rng)[0]
        )
        self.pool = cards_of(int(view.unseen))
        self.temperature = temperature
        self.floor = floor
        self.tries = tries
        self.moves = deal_moves(view)
        self.positions = deal_positions(view, self.moves, positions)
        self.cache: dict[tuple[int, CardMask], float] = {}

    def __call__(self) -> State:
        """One world; without moves to read, a plain uniform draw. Only the world kept is made a
        position: a rejected deal is weighed by its hands alone."""
        if not self.moves:
            return self._kept(self.propose())
        rejected: list[list[CardMask]] = []
        for _ in range(self.tries):
            hands = self.propose()
            draw = self.rng.random()
            p = move_likelihood(
                self.view, self.moves, hands, self.temperature, self.floor, self.cache, draw, self.positions
            )
            if draw < p:
                return self._kept(hands)
            rejected.append(hands)
        # None accepted: the likeliest, each likelihood now worked out in full (the first counted
        # moves come from the cache).
        best = rejected[0]
        best_p = -1.0
        for hands in rejected:
            p = move_likelihood(
                self.view, self.moves, hands, self.temperature, self.floor, self.cache, positions=self.positions
            )
            if p > best_p:
                best, best_p = hands, p
        return self._kept(best)

    def _kept(self, hands: list[CardMask]) -> State:
        """The world of the hands kept, its stock dealt now."""
        return _world(self.view, hands, stock_after(self.pool, hands, self.rng))
