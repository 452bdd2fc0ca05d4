"""Legal move generation: every capture, build and trail of RULES.md sections 5-7, exactly once.

Moves come in *families* that share a played card and a value: ``(head, sets, parts)`` stands for
the codes ``head | (s | p) << 12`` for every loose-card set ``s`` in ``sets`` (from
``partition.card_sets``) and every build part ``p`` in ``parts`` (whole builds taken or joined, and
the build a card raises), leaving out the empty move. The product form is what lets the same
generator list the moves (``generate``), stream them with bounded memory (``iter_moves``), count
them without making them (``count_moves``) or check one move against its own card's families
(``is_legal``), however large the table grows.

The owner's obligation (7.2) reduces to one check: a card that is the mover's last capturing card
for a build they own must take that build along, so parts without it are dropped.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, TypeAlias

from .cards import ACES_MASK, RANK_MASKS, CardMask
from .moves import BUILD, CAPTURE, TRAIL, MoveCode
from .partition import (
    CARD_SETS_CACHE,
    UP_TO,
    CardSets,
    ValueVector,
    build_total,
    card_sets,
    counts,
    starts_empty,
    vector_of,
)

if TYPE_CHECKING:
    from .state import State

Family: TypeAlias = "tuple[MoveCode, CardSets, tuple[CardMask, ...]]"
"""(head code, loose-card sets, build parts): the moves ``head | (s | p) << 12``, none empty."""

NUMERAL_CLASSIC: CardMask = UP_TO[10]
"""Classic numeral cards (A..T): court cards have no value."""
NUMERAL_ROYAL: CardMask = UP_TO[13]
"""Royal numeral cards: all 52."""

_NO_BUILDS: tuple[CardMask, ...] = (0,)

_CAPTURE_VALUES: tuple[tuple[tuple[int, ...], ...], ...] = (
    tuple((v,) for v in range(14)),
    ((0,), (1, 14), *((v,) for v in range(2, 14))),
)
"""``_CAPTURE_VALUES[ace_high][v]``: the values a card of value ``v`` captures as (5.1, 5.2)."""


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


@lru_cache(maxsize=1 << 12)
def _build_targets(hand: ValueVector) -> tuple[tuple[int, ...], ...]:
    """For each played value ``vc`` (index), the build values 2..13 at least ``vc`` that the rest of
    a hand with value vector ``hand`` can still capture (an ace for 14 is checked apart)."""
    held = counts(hand)
    return tuple(tuple(v for v, k in held if v >= max(2, vc) and (k > 1 or v != vc)) for vc in range(14))


def _whole_builds(
    builds: tuple[tuple[CardMask, int, int], ...], value: int, optional: bool, must: CardMask
) -> tuple[CardMask, ...]:
    """The whole builds of ``value`` a move takes along (any subset when optional, else all of
    them), keeping only the choices that hold every build in ``must``."""
    out = [0]
    for b in builds:
        if b[1] == value:
            if optional:
                out += [u | b[0] for u in out]
            else:
                out[0] |= b[0]
    if must:
        return tuple(p for p in out if p & must == must)
    return _NO_BUILDS if len(out) == 1 and not out[0] else tuple(out)


def _family_size(sets: CardSets, parts: tuple[CardMask, ...]) -> int:
    """How many moves a family stands for (the empty part, if any, comes first)."""
    n = len(sets)
    if not n or not parts:
        return 0
    return n * len(parts) - (parts[0] == 0 and starts_empty(sets))


def families(state: State, cards: CardMask = -1) -> tuple[list[Family], list[MoveCode]]:
    """The legal moves of the player to move as families, and the legal trails as codes; only
    those of the hand's ``cards`` when given (a card's moves depend on the whole hand, so the
    result is exactly the full one's share of those cards)."""
    seat = state.to_move
    hand = state.hands[seat]
    fams: list[Family] = []
    trails: list[MoveCode] = []
    if not hand:
        return fams, trails
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
    add = fams.append
    sets: CardSets | None

    m = hand & cards
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
        first = len(fams)

        if not low & numeral:
            # Classic court card: captures by pairing only (5.3), never builds.
            same = loose & RANK_MASKS[r]
            if same and not must:
                mode = rules.court_capture
                if mode == "all":
                    pairs: tuple[CardMask, ...] = (same,)
                else:
                    singles = []
                    s = same
                    while s:
                        one = s & -s
                        s ^= one
                        singles.append(one)
                    if mode == "one_or_three" and len(singles) == 3:
                        singles.append(same)
                    pairs = tuple(singles)
                add((CAPTURE | c << 2, pairs, _NO_BUILDS))
            capture_end = len(fams)
        else:
            vc = r + 1
            # Captures (5.1, 5.2): disjoint groups of loose cards plus whole builds of the value.
            for value in capture_values_by_value[vc]:
                key = (table & UP_TO[value], value, 0, maximal)
                sets = cache.get(key)
                if sets is None:
                    sets = card_sets(*key)
                parts = _whole_builds(builds, value, not maximal, must) if builds else _NO_BUILDS
                add((CAPTURE | c << 2 | value << 8, sets, parts))
            capture_end = len(fams)

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
                    if sets:
                        add((head, sets, _NO_BUILDS))
                    continue
                whole = _whole_builds(builds, value, rules.duplicate_value_builds, 0)
                # The played card alone (worth the value) or with loose cards, plus whole groups.
                add((head, sets, tuple(p for p in whole if p & must == must) if must else whole))
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
                    add((head, raise_sets, tuple(p | b[0] for p in whole if (p | b[0]) & must == must)))
        # Trailing (7.1), the restriction option, and the obligation (7.2).
        if may_trail and not must:
            if restriction == "none":
                trails.append(c << 2)
            elif restriction == "no_capturing_card":
                if not any(_family_size(f[1], f[2]) for f in fams[first:capture_end]):
                    trails.append(c << 2)
            elif not loose & RANK_MASKS[r]:
                trails.append(c << 2)
    return fams, trails


def generate(state: State) -> list[MoveCode]:
    """All legal move codes for the player to move (empty once the hand is over)."""
    fams, trails = families(state)
    out: list[MoveCode] = []
    for head, sets, parts in fams:
        for p in parts:
            if p:
                out += [head | (s | p) << 12 for s in sets]
            else:
                out += [head | s << 12 for s in sets if s]
    out += trails
    return out


def iter_moves(state: State) -> Iterator[MoveCode]:
    """The legal move codes one at a time, in ``generate``'s order, with memory bounded by the
    rules' structure rather than the number of moves (for huge tables)."""
    fams, trails = families(state)
    for head, sets, parts in fams:
        for p in parts:
            for s in sets:
                if s | p:
                    yield head | (s | p) << 12
    yield from trails


def count_moves(state: State) -> int:
    """The number of legal moves, counted without making them."""
    fams, trails = families(state)
    total = len(trails)
    for _head, sets, parts in fams:
        n = len(sets)
        if n and parts:
            total += n * len(parts)
            if parts[0] == 0 and ((sets[0] == 0) if type(sets) is tuple else sets.has_empty):  # type: ignore[union-attr]
                total -= 1
    return total


_HEAD = (1 << 12) - 1
"""The bits of a move code below its table cards: kind, card and value, a family's ``head``."""


def is_legal(state: State, code: MoveCode) -> bool:
    """True when ``code`` is among ``generate``'s moves, found by making only the families of its
    card: one check stays cheap on a table with millions of moves."""
    if code < 0:
        return False
    bit = 1 << ((code >> 2) & 63)
    if not state.hands[state.to_move] & bit:
        return False
    fams, trails = families(state, bit)
    if code & 3 == TRAIL:
        return code in trails
    taken = code >> 12
    if not taken:
        return False  # the empty move is never generated
    head = code & _HEAD
    # Loose cards come from a family's sets, build cards from its parts: one split only.
    loose = taken & state.loose
    part = taken ^ loose
    return any(h == head and part in parts and loose in sets for h, sets, parts in fams)
