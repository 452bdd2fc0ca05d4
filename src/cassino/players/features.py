"""What a learned player reads: a seat's view of a position, and each of its moves, as features.

The layout is the one of NNUE-style networks: most inputs are 0/1 and few are 1 at once (where
each of the 52 cards is, from the seat's side; which cards a move plays, takes or builds), so a
position is a short list of *active indices* plus a few dense numbers, and a network's first layer
is a sum of the weight rows of the active indices: cheap enough for pure Python, and the same
numbers in numpy and in the training library.

Everything is read from the seat's own knowledge (its hand, the public table, piles and counts):
``position_features`` takes the fields a ``View`` holds, and ``view_features`` a ``View`` itself,
so a player given a view and a search leaf given a sampled world (through the same fields, from
the mover's seat) are described alike. Cards the seat has not seen (other hands, the stock) have
no active index: unseen is the absence of every location.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..cards import ACES_MASK, BIG_CASINO, DECK_SIZE, LITTLE_CASINO, SPADES_MASK, CardMask
from ..moves import BUILD, CAPTURE, MoveCode, code_card, code_kind, code_table, code_value
from ..rules import Rules
from ..state import Build
from ..view import View, plain_masks
from .heuristic import move_terms

# ----------------------------------------------------------------------------- position
MINE: Final = 0
"""Location blocks of the card indices: a card's index is ``location * DECK_SIZE + card``."""
LOOSE: Final = 1
OUR_BUILD: Final = 2
THEIR_BUILD: Final = 3
OUR_PILE: Final = 4
THEIR_PILE: Final = 5
LOCATIONS: Final = 6
CARD_INPUTS: Final = LOCATIONS * DECK_SIZE

DENSE_NAMES: Final[tuple[str, ...]] = (
    "our_cards",  # cards in our side's piles / 52
    "their_cards",
    "our_spades",  # spades in our side's piles / 13
    "their_spades",
    "our_sweeps",  # sweeps this hand / 4
    "their_sweeps",
    "we_took_last",  # 1 when our side made the last capture (the table's rest comes to it)
    "they_took_last",
    "stock",  # cards still to deal / 48
    "hand",  # cards in the seat's hand / 4
    "next_hand",  # cards in the next seats' hands / 4 (0 where there is no such seat)
    "second_hand",
    "third_hand",
    "our_score",  # game points / target
    "their_score",
    "players_3",  # the seating: 2 players has neither
    "players_4",
    "partnerships",
    "royal",
    "sweeps_score",
)
"""The dense position inputs, in order, each scaled to about 0..1."""
POSITION_INPUTS: Final = CARD_INPUTS + len(DENSE_NAMES)


@dataclass(frozen=True, slots=True)
class Features:
    """Inputs as a network reads them: ``active`` indices (each input 1) below ``dense_at``, then
    ``dense`` values for the inputs from ``dense_at`` on."""

    active: tuple[int, ...]
    dense: tuple[float, ...]
    dense_at: int

    def as_list(self, size: int) -> list[float]:
        """The inputs as one dense list of ``size`` numbers (for tests and the training library)."""
        out = [0.0] * size
        for i in self.active:
            out[i] = 1.0
        for i, v in enumerate(self.dense):
            out[self.dense_at + i] = v
        return out


def _ours(rules: Rules, seat: int, other: int) -> bool:
    """Whether ``other`` scores with ``seat`` (itself, or its partner)."""
    return rules.side_of(other) == rules.side_of(seat)


def _mask_indices(mask: CardMask, base: int, out: list[int]) -> None:
    """Append ``base + card`` for each card of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        out.append(base + low.bit_length() - 1)
        mask ^= low


def position_features(
    rules: Rules,
    seat: int,
    hand: CardMask,
    hand_sizes: Sequence[int],
    loose: CardMask,
    builds: Sequence[Build],
    captured: Sequence[CardMask],
    stock_size: int,
    sweeps: Sequence[int],
    last_capturer: int,
    scores: Sequence[int],
) -> Features:
    """The position as ``seat`` knows it: where each card it has seen lies, from its side, and the
    counts that decide the hand and the game."""
    active: list[int] = []
    _mask_indices(hand, MINE * DECK_SIZE, active)
    _mask_indices(loose, LOOSE * DECK_SIZE, active)
    for build in builds:
        where = OUR_BUILD if _ours(rules, seat, build.owner) else THEIR_BUILD
        _mask_indices(build.cards, where * DECK_SIZE, active)
    ours = theirs = 0
    for other, pile in enumerate(captured):
        if _ours(rules, seat, other):
            ours |= pile
        else:
            theirs |= pile
    _mask_indices(ours, OUR_PILE * DECK_SIZE, active)
    _mask_indices(theirs, THEIR_PILE * DECK_SIZE, active)
    our_sweeps = sum(1 for s in sweeps if _ours(rules, seat, s))
    players = rules.players
    later = [hand_sizes[(seat + k) % players] / 4 if k < players else 0.0 for k in (1, 2, 3)]
    target = max(rules.target, 1)
    our_side = rules.side_of(seat)
    dense = (
        ours.bit_count() / DECK_SIZE,
        theirs.bit_count() / DECK_SIZE,
        (ours & SPADES_MASK).bit_count() / 13,
        (theirs & SPADES_MASK).bit_count() / 13,
        our_sweeps / 4,
        (len(sweeps) - our_sweeps) / 4,
        1.0 if last_capturer >= 0 and _ours(rules, seat, last_capturer) else 0.0,
        1.0 if last_capturer >= 0 and not _ours(rules, seat, last_capturer) else 0.0,
        stock_size / 48,
        hand_sizes[seat] / 4,
        *later,
        scores[our_side] / target,
        max((s for side, s in enumerate(scores) if side != our_side), default=0) / target,
        1.0 if players == 3 else 0.0,
        1.0 if players == 4 else 0.0,
        1.0 if rules.partnerships else 0.0,
        1.0 if rules.royal else 0.0,
        1.0 if rules.sweeps else 0.0,
    )
    return Features(tuple(active), dense, CARD_INPUTS)


def view_features(view: View) -> Features:
    """``position_features`` of a seat's view."""
    return position_features(
        view.rules,
        view.seat,
        int(view.hand),  # plain ints: a CardSet's operators are Python calls
        view.hand_sizes,
        int(view.loose),
        view.builds,
        plain_masks(view.captured),
        view.stock_size,
        view.sweeps,
        view.last_capturer,
        view.scores,
    )


# ----------------------------------------------------------------------------- moves
PLAYED: Final = 0
"""Blocks of a move's card indices: the card played, the table cards it takes, those it builds on."""
TAKEN: Final = 1
BUILT: Final = 2
MOVE_CARD_INPUTS: Final = 3 * DECK_SIZE
KINDS: Final = 3
"""Then one input for the kind (trail, capture, build), then one for a build's value (2..14)."""
VALUE_AT: Final = MOVE_CARD_INPUTS + KINDS
MOVE_DENSE_NAMES: Final[tuple[str, ...]] = (
    "cards_taken",  # cards the move brings to our piles, the played card included / 8
    "spades_taken",  # / 4
    "aces_taken",  # / 4
    "big_casino_taken",
    "little_casino_taken",
    "sweep",  # 1 when the capture clears the table
    "gain",  # the heuristic's terms of the move (``heuristic.move_terms``), in points
    "risk",
    "follow",
)
MOVE_DENSE_AT: Final = VALUE_AT + 13
MOVE_INPUTS: Final = MOVE_DENSE_AT + len(MOVE_DENSE_NAMES)


def move_features(
    code: MoveCode, loose: CardMask, builds: Sequence[Build], terms: tuple[float, float, float] = (0.0, 0.0, 0.0)
) -> Features:
    """One move of the position whose table is ``loose`` and ``builds``: what it plays, takes and
    builds, what it brings at once, and the heuristic's ``terms`` of it (an NNUE's second half: the
    position's features stay the same for every move, so a network adds these to them)."""
    card = code_card(code)
    kind = code_kind(code)
    table = code_table(code)
    active = [PLAYED * DECK_SIZE + card]
    taken = 0
    sweep = 0.0
    if kind == CAPTURE:
        _mask_indices(table, TAKEN * DECK_SIZE, active)
        taken = table | 1 << card
        left = loose & ~table
        if not left and all(b.cards & table == b.cards for b in builds):
            sweep = 1.0
        active.append(MOVE_CARD_INPUTS + 1)
    elif kind == BUILD:
        _mask_indices(table, BUILT * DECK_SIZE, active)
        active.append(MOVE_CARD_INPUTS + 2)
        active.append(VALUE_AT + code_value(code) - 2)
    else:
        active.append(MOVE_CARD_INPUTS)
    dense = (
        taken.bit_count() / 8,
        (taken & SPADES_MASK).bit_count() / 4,
        (taken & ACES_MASK).bit_count() / 4,
        float(taken >> BIG_CASINO & 1),
        float(taken >> LITTLE_CASINO & 1),
        sweep,
        *terms,
    )
    return Features(tuple(active), dense, MOVE_DENSE_AT)


def decision_features(view: View) -> tuple[Features, list[Features]]:
    """The view's position and each of its legal moves (in ``view.legal``'s order), the
    heuristic's terms of each included: what a network reads to choose."""
    terms = move_terms(view)
    table = int(view.loose)
    moves = [move_features(code, table, view.builds, t) for code, t in zip(view.legal, terms, strict=True)]
    return view_features(view), moves
