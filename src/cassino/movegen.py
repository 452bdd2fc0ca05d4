"""Legal move generation: every capture, build and trail of RULES.md sections 5-7, exactly once.

Each move is an int code (``moves.encode``). Loose cards are handled by ``partition.card_sets``
(which sets split into groups of a value, with or without the played card); builds enter as whole
groups of their value, or as the one single build that the played card raises. The owner's
obligation (7.2) reduces to one check: a card that is the mover's last capturing card for a build
they own must take that build along.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .cards import ACES_MASK, RANK_MASKS, CardMask
from .moves import BUILD, CAPTURE, MoveCode
from .partition import CARD_SETS_CACHE, UP_TO, ValueVector, build_total, card_sets, counts, vector_of

if TYPE_CHECKING:
    from .state import State

NUMERAL_CLASSIC: CardMask = UP_TO[10]
"""Classic numeral cards (A..T): court cards have no value."""
NUMERAL_ROYAL: CardMask = UP_TO[13]
"""Royal numeral cards: all 52."""
_RANK_LOW_BITS = int("1" * 13, 16)


def capture_values(state: State, card: int) -> tuple[int, ...]:
    """The values a card may capture with: its value, or 1 and 14 for a royal ace played high."""
    v = state.values[card]
    if v == 1 and state.ace_high:
        return (1, 14)
    return (v,) if v else ()


def capturing_cards(state: State, value: int, cards: CardMask) -> int:
    """How many of ``cards`` can capture a build of ``value`` (an ace for 14)."""
    if value == 14:
        return (cards & ACES_MASK).bit_count() if state.ace_high else 0
    if value > (13 if state.rules.royal else 10):
        return 0
    return (cards & RANK_MASKS[value - 1]).bit_count()


def generate(state: State) -> list[MoveCode]:
    """All legal move codes for the player to move (empty once the hand is over)."""
    seat = state.to_move
    hand = state.hands[seat]
    if not hand:
        return []
    rules = state.rules
    numeral = NUMERAL_ROYAL if rules.royal else NUMERAL_CLASSIC
    ace_high = state.ace_high
    maximal = rules.capture_must_be_maximal
    loose = state.loose
    table = loose & numeral
    builds = state.builds
    owned = [b for b in builds if b[2] == seat] if builds else None
    may_trail = rules.owner_may_trail or not owned
    restriction = rules.trail_restriction
    # For each value of a played card, the build values the rest of the hand can capture (rule 6.2).
    targets_by_value = _build_targets(vector_of(hand & numeral))
    capture_values_by_value = _CAPTURE_VALUES[ace_high]
    cache = CARD_SETS_CACHE
    out: list[MoveCode] = []
    append = out.append

    m = hand
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        r = c >> 2
        must = 0
        if owned:
            # Owned builds this card is the last capturing card for: the move must take them along.
            rest = hand ^ low
            for b in owned:
                if not capturing_cards(state, b[1], rest):
                    must |= b[0]
        start = len(out)

        if not low & numeral:
            # Classic court card: captures by pairing only (5.3), never builds.
            same = loose & RANK_MASKS[r]
            if same and not must:
                head = CAPTURE | c << 2
                mode = rules.court_capture
                if mode == "all":
                    append(head | same << 12)
                else:
                    s = same
                    while s:
                        one = s & -s
                        s ^= one
                        append(head | one << 12)
                    if mode == "one_or_three" and same.bit_count() == 3:
                        append(head | same << 12)
            has_capture = len(out) > start
        else:
            vc = r + 1
            # Captures (5.1, 5.2): disjoint groups of loose cards plus whole builds of the value.
            for value in capture_values_by_value[vc]:
                key = (table & UP_TO[value], value, 0, maximal)
                sets = cache.get(key)
                if sets is None:
                    sets = card_sets(*key)
                head = CAPTURE | c << 2 | value << 8
                if builds:
                    vb = [b[0] for b in builds if b[1] == value]
                    for bm in _build_choices(vb, not maximal):
                        for s in sets:
                            taken = s | bm
                            if taken and taken & must == must:
                                append(head | taken << 12)
                else:
                    for s in sets:
                        if s:
                            append(head | s << 12)
            has_capture = len(out) > start

            # Builds (section 6) of each value the hand still captures after playing this card.
            targets = targets_by_value[vc]
            if ace_high and (hand ^ low) & ACES_MASK:
                targets = (*targets, 14)
            for value in targets:
                head = BUILD | c << 2 | value << 8
                low_table = table & UP_TO[value]
                key = (low_table, value, vc, False)
                sets = cache.get(key)
                if sets is None:
                    sets = card_sets(*key)
                if not builds:
                    for s in sets:
                        if s:
                            append(head | s << 12)
                    continue
                vb = [b[0] for b in builds if b[1] == value]
                choices = _build_choices(vb, rules.duplicate_value_builds)
                # The played card alone (worth the value) or with loose cards, plus whole groups.
                for bm in choices:
                    for s in sets:
                        joined = s | bm
                        if joined and joined & must == must:
                            append(head | joined << 12)
                # The played card raising one single build (multiple builds are frozen).
                for b in builds:
                    w = b[1]
                    if w == value or w + vc > value or build_total(b[0]) != w:
                        continue
                    if b[2] == seat and not rules.raise_own_build:
                        continue
                    if w + vc == value:
                        raise_sets = card_sets(low_table, value, 0, False)
                    elif rules.table_cards_may_raise:
                        raise_sets = card_sets(low_table, value, w + vc, False)
                    else:
                        continue
                    for bm in choices:
                        for s in raise_sets:
                            joined = s | bm | b[0]
                            if joined & must == must:
                                append(head | joined << 12)
        # Trailing (7.1), the restriction option, and the obligation (7.2).
        if (
            may_trail
            and not must
            and (
                restriction == "none"
                or (not has_capture if restriction == "no_capturing_card" else not loose & RANK_MASKS[r])
            )
        ):
            append(c << 2)
    return out


_CAPTURE_VALUES: tuple[tuple[tuple[int, ...], ...], ...] = (
    tuple((v,) for v in range(14)),
    ((0,), (1, 14), *((v,) for v in range(2, 14))),
)
"""``_CAPTURE_VALUES[ace_high][v]``: the values a card of value ``v`` captures as (5.1, 5.2)."""


@lru_cache(maxsize=1 << 12)
def _build_targets(hand: ValueVector) -> tuple[tuple[int, ...], ...]:
    """For each played value ``vc`` (index), the build values 2..13 at least ``vc`` that the rest of
    a hand with value vector ``hand`` can still capture (an ace for 14 is checked apart)."""
    held = counts(hand)
    return tuple(tuple(v for v, k in held if v >= max(2, vc) and (k > 1 or v != vc)) for vc in range(14))


def _build_choices(vb: list[CardMask], optional: bool) -> list[CardMask]:
    """The whole builds of a value a move takes along: any subset when optional, else all of them."""
    if not vb:
        return [0]
    if not optional:
        whole = 0
        for bm in vb:
            whole |= bm
        return [whole]
    out = [0]
    for bm in vb:
        out += [u | bm for u in out]
    return out
