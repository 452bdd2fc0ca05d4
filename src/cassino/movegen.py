"""Legal move generation: every capture, build and trail of RULES.md sections 5-7, exactly once.

Each move is an int code (``moves.encode``). The work per position is: group the loose cards by
value into a value vector, ask ``partition.splittable`` (cached per vector) which sub-vectors can be
taken or joined, and expand those into real card sets. Builds enter as whole groups, or as the one
single build a played card raises. The owner's obligation (7.2) reduces to one check: a card that is
the mover's last capturing card for a build they own must take that build along.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from .cards import ACES_MASK, RANK_MASKS, CardMask
from .moves import BUILD, CAPTURE, TRAIL, MoveCode
from .partition import UNIT, ValueVector, splittable, value_parts

if TYPE_CHECKING:
    from .state import BuildTuple, State


class LooseCards:
    """The loose numeral cards of one table, grouped by value, with their card-set expansions."""

    __slots__ = ("vector", "by_value", "_combos")

    def __init__(self, loose: CardMask, values: tuple[int, ...]) -> None:
        vector = 0
        by_value: dict[int, list[int]] = {}
        m = loose
        while m:
            low = m & -m
            m ^= low
            v = values[low.bit_length() - 1]
            if v:
                vector += UNIT[v]
                lst = by_value.get(v)
                if lst is None:
                    by_value[v] = [low]
                else:
                    lst.append(low)
        self.vector: ValueVector = vector
        self.by_value = by_value
        self._combos: dict[tuple[int, int], list[int]] = {}

    def choices(self, v: int, k: int) -> list[int]:
        """The card sets of ``k`` loose cards of value ``v``."""
        key = (v, k)
        found = self._combos.get(key)
        if found is None:
            bits = self.by_value[v]
            if k == len(bits):
                found = [sum(bits)]
            else:
                found = [sum(c) for c in combinations(bits, k)]
            self._combos[key] = found
        return found

    def sets(self, value: int, extra: int, maximal: bool = False) -> list[CardMask]:
        """Every set ``S`` of loose cards such that ``S`` plus a card worth ``extra`` splits into
        groups worth ``value`` (see ``partition.splittable``), as card masks."""
        out: list[CardMask] = []
        for vec in splittable(self.vector, value, extra, maximal):
            if vec == 0:
                out.append(0)
                continue
            masks = [0]
            for v, k in value_parts(vec):
                opts = self.choices(v, k)
                if len(opts) == 1:
                    o = opts[0]
                    masks = [m | o for m in masks]
                else:
                    masks = [m | o for m in masks for o in opts]
            out.extend(masks)
        return out


def _subset_unions(masks: list[CardMask]) -> list[CardMask]:
    """The unions of every subset of some disjoint masks (the empty one included)."""
    out = [0]
    for m in masks:
        out += [u | m for u in out]
    return out


def capture_values(state: State, card: int) -> tuple[int, ...]:
    """The values a card may capture with: its value, or 1 and 14 for a royal ace played high."""
    v = state.values[card]
    if v == 1 and state.ace_high:
        return (1, 14)
    return (v,) if v else ()


def generate(state: State) -> list[MoveCode]:
    """All legal move codes for the player to move (empty once the hand is over)."""
    seat = state.to_move
    hand = state.hands[seat]
    if not hand:
        return []
    rules = state.rules
    values = state.values
    loose = state.loose
    builds = state.builds
    table = LooseCards(loose, values)

    # How many capturing cards the hand holds for each value (index 14: aces for a 14-build).
    held = [0] * 15
    m = hand
    while m:
        low = m & -m
        m ^= low
        held[values[low.bit_length() - 1]] += 1
    if state.ace_high:
        held[14] = (hand & ACES_MASK).bit_count()
    owned = [b for b in builds if b[2] == seat]

    out: list[MoveCode] = []
    m = hand
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        vc = values[c]
        # Owned builds this card is the last capturing card for: the move must take them along.
        must: list[CardMask] = []
        for b in owned:
            w = b[1]
            left = held[w] - (1 if (vc == w or (w == 14 and low & ACES_MASK)) else 0)
            if left <= 0:
                must.append(b[0])
        must_all = 0
        for b_mask in must:
            must_all |= b_mask

        start = len(out)
        if vc == 0:
            _court_captures(state, c, must_all, out)
        else:
            for value in capture_values(state, c):
                _numeral_captures(state, table, c, value, must_all, out)
        has_capture = len(out) > start
        if vc:
            _builds(state, table, c, held, must_all, out)
        if _may_trail(state, c, bool(owned), must_all, has_capture):
            out.append(TRAIL | c << 2)
    return out


def _court_captures(state: State, c: int, must_all: CardMask, out: list[MoveCode]) -> None:
    """Classic court pairing (5.3): one, all, or one-or-three loose cards of the same rank."""
    same = state.loose & RANK_MASKS[c >> 2]
    if not same or must_all:
        return
    head = CAPTURE | c << 2
    mode = state.rules.court_capture
    if mode == "all":
        out.append(head | same << 12)
        return
    m = same
    while m:
        low = m & -m
        m ^= low
        out.append(head | low << 12)
    if mode == "one_or_three" and same.bit_count() == 3:
        out.append(head | same << 12)


def _numeral_captures(
    state: State, table: LooseCards, c: int, value: int, must_all: CardMask, out: list[MoveCode]
) -> None:
    """Captures of value ``value`` (5.1, 5.2): disjoint groups of loose cards and whole builds."""
    maximal = state.rules.capture_must_be_maximal
    vbuilds = [b[0] for b in state.builds if b[1] == value]
    if maximal:
        whole = 0
        for b_mask in vbuilds:
            whole |= b_mask
        build_sets = [whole]
    else:
        build_sets = _subset_unions(vbuilds)
    head = CAPTURE | c << 2 | value << 8
    for s in table.sets(value, 0, maximal):
        for bm in build_sets:
            taken = s | bm
            if taken and taken & must_all == must_all:
                out.append(head | taken << 12)


def _builds(
    state: State, table: LooseCards, c: int, held: list[int], must_all: CardMask, out: list[MoveCode]
) -> None:
    """Builds (section 6): the played card's group, plus whole groups of the declared value."""
    rules = state.rules
    values = state.values
    vc = values[c]
    seat = state.to_move
    builds = state.builds
    # Values the hand can still capture after playing c (rule 2), within the build range (rule 1).
    targets = []
    top = 13 if rules.royal else 10
    for v in range(max(2, vc), top + 1):
        if held[v] - (1 if v == vc else 0) > 0:
            targets.append(v)
    if state.ace_high and held[14] - (1 if vc == 1 else 0) > 0:
        targets.append(14)
    if not targets:
        return
    singles = [b for b in builds if _is_single(b, values)]
    for value in targets:
        vbuilds = [b[0] for b in builds if b[1] == value]
        if rules.duplicate_value_builds:
            build_sets = _subset_unions(vbuilds)
        else:
            whole = 0
            for b_mask in vbuilds:
                whole |= b_mask
            build_sets = [whole]
        head = BUILD | c << 2 | value << 8
        # The played card with loose cards (or alone when it is worth the value).
        for s in table.sets(value, vc):
            for bm in build_sets:
                joined = s | bm
                if joined and joined & must_all == must_all:
                    out.append(head | joined << 12)
        # The played card raising one single build (5: multiple builds are frozen).
        for b in singles:
            w = b[1]
            if w == value or w + vc > value:
                continue
            if b[2] == seat and not rules.raise_own_build:
                continue
            if w + vc == value:
                sets = table.sets(value, 0)
            elif rules.table_cards_may_raise:
                sets = table.sets(value, w + vc)
            else:
                continue
            for s in sets:
                for bm in build_sets:
                    joined = s | bm | b[0]
                    if joined & must_all == must_all:
                        out.append(head | joined << 12)


def _may_trail(state: State, c: int, owns: bool, must_all: CardMask, has_capture: bool) -> bool:
    """Trailing (7.1) and the owner's obligation (7.2) for a trail of card ``c``."""
    rules = state.rules
    if must_all:
        return False
    if owns and not rules.owner_may_trail:
        return False
    restriction = rules.trail_restriction
    if restriction == "no_capturing_card":
        return not has_capture
    if restriction == "no_rank_match":
        return not state.loose & RANK_MASKS[c >> 2]
    return True


def _is_single(build: BuildTuple, values: tuple[int, ...]) -> bool:
    """A build is single when its cards' values sum to its declared value."""
    m = build[0]
    s = 0
    while m:
        low = m & -m
        m ^= low
        s += values[low.bit_length() - 1]
    return s == build[1]
