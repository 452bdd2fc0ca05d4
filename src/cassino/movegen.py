"""Legal move generation: every capture, build and trail of docs/rules.md sections 5-7, exactly once.

Moves come in *families* that share a played card and a value: ``(head, sets, parts)`` stands for
the codes ``head | (s | p) << 12`` for every loose-card set ``s`` in ``sets`` (from
``partition.card_sets``) and every build part ``p`` in ``parts`` (whole builds taken or joined, and
the build a card raises), leaving out the empty move. The product form is what lets the same
generator list the moves (``generate``), stream them with bounded memory (``iter_moves``), count
them without making them (``count_moves``) or check one move against its own card's families
(``is_legal``), however large the table grows.

The rules themselves live in ``checks``, each beside the reason the explainer gives for it; the
generator calls their cheap forms, once per position, card or family, and holds no second copy.
The owner's obligation (7.2), for one, is the mask ``checks.unkept_builds``: a card that is the
mover's last capturing card for a build they own must take that build along, so parts without it
are dropped.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from itertools import pairwise
from typing import TYPE_CHECKING, Final, TypeAlias, final

from .cards import RANK_MASKS, CardMask, format_cards
from .checks import (
    CAPTURE_VALUES,
    NO_BUILDS,
    build_targets,
    capture_values,
    capturing_cards,
    court_choices,
    may_trail,
    owned_builds,
    raise_extra,
    raise_refusal,
    trail_refusal,
    unkept_builds,
    whole_builds,
)
from .moves import (
    BUILD,
    CAPTURE,
    CARD_SHIFT,
    TABLE_SHIFT,
    TRAIL,
    VALUE_SHIFT,
    MoveCode,
    code_card,
    code_kind,
    code_table,
    format_code,
)
from .native import checkpoint
from .partition import (
    Answers,
    CardSets,
    LazyCardSets,
    multiply,
    starts_empty,
    table_answer,
    table_sets,
    vector_of,
)

if TYPE_CHECKING:
    from .state import Build, State

Family: TypeAlias = "tuple[MoveCode, CardSets, tuple[CardMask, ...]]"
"""(head code, loose-card sets, build parts): the moves ``head | (s | p) << 12``, none empty."""

HEAD_MASK: Final = (1 << TABLE_SHIFT) - 1
"""The bits of a move code below its table cards: kind, card and value, a family's ``head``."""

LAZY_CHECK: Final = 0xFFFF
"""``generate`` lets Ctrl-C in every 65536 moves of a table's lazy sets (``native.checkpoint``)."""


def _family_size(sets: CardSets, parts: tuple[CardMask, ...]) -> int:
    """How many moves a family stands for (the empty part, if any, comes first)."""
    n = len(sets)
    if not n or not parts:
        return 0
    return multiply(n, len(parts)) - (parts[0] == 0 and starts_empty(sets))


def _any_move(fams: Iterable[Family]) -> bool:
    """Whether some family stands for at least one move."""
    return any(_family_size(sets, parts) for _head, sets, parts in fams)


def _raise_family(
    state: State,
    build: Build,
    head: MoveCode,
    vc: int,
    value: int,
    answers: Answers | None,
    table: CardMask,
    whole: tuple[CardMask, ...],
    must: CardMask,
) -> Family | None:
    """The played card (worth ``vc``) raising ``build`` to ``value``, with the loose cards that
    ``checks.raise_extra`` lets join and the whole builds of ``whole``; None when rules 6.5, 6.6 or
    6.3 forbid that raise (``checks.raise_refusal``, ``checks.raise_extra``)."""
    cards, w, _owner = build
    extra = raise_extra(state.flags, w, vc, value)  # first: under the default rules it refuses most
    if extra is None or raise_refusal(state, build) is not None:
        return None
    return (
        head,
        table_answer(answers, table, value, extra, False),
        tuple(p | cards for p in whole if (p | cards) & must == must),
    )


class Sink:
    """Where the generator hands its families and trails: ``Listed`` keeps them, ``Counted`` only
    counts their moves (what perft asks at every leaf's parent, with no tuple made)."""

    def family(self, head: MoveCode, sets: CardSets, parts: tuple[CardMask, ...]) -> None:
        """One family: the moves ``head | (s | p) << 12`` but the empty one."""
        raise NotImplementedError

    def trail(self, code: MoveCode) -> None:
        """One legal trail."""
        raise NotImplementedError


@final
class Listed(Sink):
    """The families and trails as ``families`` returns them."""

    def __init__(self) -> None:
        self.fams: list[Family] = []
        self.trails: list[MoveCode] = []

    def family(self, head: MoveCode, sets: CardSets, parts: tuple[CardMask, ...]) -> None:
        self.fams.append((head, sets, parts))

    def trail(self, code: MoveCode) -> None:
        self.trails.append(code)


@final
class Coded(Sink):
    """The moves themselves, as ``generate`` lists them: each family's, then the trails."""

    def __init__(self) -> None:
        self.codes: list[MoveCode] = []
        self.trails: list[MoveCode] = []

    def family(self, head: MoveCode, sets: CardSets, parts: tuple[CardMask, ...]) -> None:
        out = self.codes
        if isinstance(sets, tuple):  # the usual case, which a compiled loop walks by index
            for p in parts:
                if p:
                    out += [head | (s | p) << TABLE_SHIFT for s in sets]
                else:
                    out += [head | s << TABLE_SHIFT for s in sets if s]
            return
        # Lazy sets: a table of millions of moves. Ctrl-C is let in every 65536 moves (each list
        # would take seconds without a Python call: native.checkpoint).
        made = 0
        for p in parts:
            for s in sets:
                if s | p:
                    out.append(head | (s | p) << TABLE_SHIFT)
                made += 1
                if not made & LAZY_CHECK:
                    checkpoint()

    def trail(self, code: MoveCode) -> None:
        self.trails.append(code)


@final
class Counted(Sink):
    """How many moves the families and trails stand for."""

    def __init__(self) -> None:
        self.total = 0

    def family(self, head: MoveCode, sets: CardSets, parts: tuple[CardMask, ...]) -> None:
        self.total += _family_size(sets, parts)

    def trail(self, code: MoveCode) -> None:
        self.total += 1


def families(state: State, cards: CardMask = -1) -> tuple[list[Family], list[MoveCode]]:
    """The legal moves of the player to move as families, and the legal trails as codes; only
    those of the hand's ``cards`` when given (a card's moves depend on the whole hand, so the
    result is exactly the full one's share of those cards)."""
    sink = Listed()
    _generate(state, cards, sink)
    return sink.fams, sink.trails


def capture_families(state: State) -> list[Family]:
    """The legal captures of the player to move, as families: exactly ``families``' captures,
    without making its builds and trails (what a search's leaf asks: the best capture at hand)."""
    sink = Listed()
    _generate(state, -1, sink, True)
    return sink.fams


def _generate(state: State, cards: CardMask, sink: Sink, captures_only: bool = False) -> None:
    """The generator: every family and trail of the player to move (of the hand's ``cards``
    only, when not -1) handed to ``sink`` in order; only the capture families if ``captures_only``."""
    seat = state.to_move
    hand = state.hands[seat]
    if not hand:
        return
    flags = state.flags
    numeral = flags.numeral
    maximal = flags.maximal
    loose = state.loose
    table = loose & numeral
    builds = state.builds
    # The values some build has, as bits: whole_builds is asked only for those (most values have none).
    build_values = 0
    for b in builds:
        build_values |= 1 << b[1]  # b[1]: the build's value
    owned: list[Build] = owned_builds(state, seat) if builds else []
    may = True
    capturers: tuple[CardMask, ...] = ()
    if owned:  # only an owner has an obligation (7.2) or may be barred from trailing (7.1)
        may = may_trail(flags, owned)
        capturers = flags.capturers
    duplicates = flags.duplicates
    any_trail = flags.restriction == "none"
    # Rules 6.1 and 6.2 once per hand (cached): for each played value, the values it may build.
    targets_by_value = build_targets(vector_of(hand & numeral), flags.max_build)
    capture_values_by_value = CAPTURE_VALUES[1 if state.ace_high else 0]
    # Every card_sets answer for this table, made as asked: kept across positions in a search, for
    # this position only in a game played forward (whose tables seldom come again).
    answers = table_sets(table) if state.backtracked else None
    sets: CardSets

    m = hand & cards
    while m:
        low = m & -m  # the lowest card left, as a bit
        m ^= low
        c = low.bit_length() - 1
        r = c >> 2  # its rank (cards.rank, inline)
        card_head = c << CARD_SHIFT  # the card's bits of every code it makes
        # Rule 7.2: the owned builds this card is the last to capture, which every move must take.
        must = unkept_builds(capturers, owned, hand ^ low) if owned else 0
        captures = False  # whether the card has a capture: asked only under a trail restriction

        if not low & numeral:
            same = loose & RANK_MASKS[r]
            if same and not must:
                # Classic court card: captures by pairing only (5.3), never builds.
                choices = court_choices(flags.court_capture, same)
                sink.family(CAPTURE | card_head, choices, NO_BUILDS)
                captures = bool(choices)
        else:
            vc = r + 1
            # Captures (5.1, 5.2): disjoint groups of loose cards plus whole builds of the value.
            for value in capture_values_by_value[vc]:
                sets = table_answer(answers, table, value, 0, maximal)
                if build_values >> value & 1:
                    parts = whole_builds(builds, value, not maximal, must)
                else:
                    parts = () if must else NO_BUILDS  # whole_builds' answer when no build has the value
                sink.family(CAPTURE | card_head | value << VALUE_SHIFT, sets, parts)
                if not any_trail and not captures:
                    captures = _family_size(sets, parts) > 0
            if captures_only:
                continue

            # Builds (section 6) of each value the hand still captures after playing this card.
            for value in targets_by_value[vc]:
                head = BUILD | card_head | value << VALUE_SHIFT
                sets = table_answer(answers, table, value, vc, False)
                if not builds:
                    if sets:
                        sink.family(head, sets, NO_BUILDS)
                    continue
                whole = whole_builds(builds, value, duplicates, 0) if build_values >> value & 1 else NO_BUILDS
                # The played card alone (worth the value) or with loose cards, plus whole groups.
                sink.family(head, sets, tuple([p for p in whole if p & must == must]) if must else whole)
                # The played card raising one single build (multiple builds are frozen). A cheap
                # test first: raise_extra never makes a build worth less than its value plus the card.
                for build in builds:
                    if build[1] + vc <= value:  # build[1]: its value
                        fam = _raise_family(state, build, head, vc, value, answers, table, whole, must)
                        if fam is not None:
                            sink.family(fam[0], fam[1], fam[2])
        # Trailing (7.1), the restriction option, and the obligation (7.2). The default restriction
        # allows every trail: trail_refusal (and whether the card captures) is asked under another only.
        if not captures_only and may and not must and (any_trail or trail_refusal(state, c, captures) is None):
            sink.trail(TRAIL | card_head)


def can_capture(state: State, card: int) -> bool:
    """Whether ``card`` of the mover's hand has a legal capture (what ``trail_restriction``
    ``no_capturing_card`` asks, 7.1): its capture families, the generator's own."""
    fams, _trails = families(state, 1 << card)
    return _any_move(f for f in fams if code_kind(f[0]) == CAPTURE)


def generate(state: State) -> list[MoveCode]:
    """All legal move codes for the player to move (empty once the hand is over)."""
    sink = Coded()
    _generate(state, -1, sink)
    out = sink.codes
    out += sink.trails
    return out


def iter_moves(state: State) -> Iterator[MoveCode]:
    """The legal move codes one at a time, in ``generate``'s order, with memory bounded by the
    rules' structure rather than the number of moves (for huge tables)."""
    fams, trails = families(state)
    for head, sets, parts in fams:
        for p in parts:
            for s in sets:
                if s | p:
                    yield head | (s | p) << TABLE_SHIFT
    yield from trails


Run: TypeAlias = "Iterator[tuple[str, MoveCode]]"
"""Moves of one head as (table cards' text, code), ascending by the text."""


def _group_run(head: MoveCode, group: Iterator[CardMask], part: CardMask) -> Run:
    """One group of a ``LazyCardSets`` (``by_vector``: the sets of one value vector), with
    ``part``, in ascending line order.

    ``by_vector`` promises the group's order: each value's suit choices in combination order, the
    lowest value outermost, every set with the same number of cards of each rank. So their lines
    compare rank by rank, and within a rank by the lowest suit that only one of them holds: exactly
    that order, which the fixed ``part`` keeps."""
    for cards in group:
        taken = cards | part
        if taken:
            yield format_cards(taken), head | taken << TABLE_SHIFT


def _slice_run(head: MoveCode, sets: tuple[CardMask, ...], part: CardMask, start: int, stop: int) -> Run:
    """``sets[start:stop]`` with ``part``: an ascending stretch found by ``_family_runs``."""
    for i in range(start, stop):
        taken = sets[i] | part
        if taken:
            yield format_cards(taken), head | taken << TABLE_SHIFT


def _family_runs(head: MoveCode, sets: CardSets, parts: tuple[CardMask, ...]) -> list[Run]:
    """A family's moves as runs each ascending by line: one per value vector of lazy sets (there
    may be millions of sets, never made at once), the ascending stretches of an explicit tuple."""
    runs: list[Run] = []
    for part in parts:
        if isinstance(sets, LazyCardSets):
            runs += [_group_run(head, group, part) for group in sets.by_vector()]
            continue
        cuts = [0]
        for i, (a, b) in enumerate(pairwise(sets), 1):
            if format_cards(b | part) < format_cards(a | part):
                cuts.append(i)
        cuts.append(len(sets))
        runs += [_slice_run(head, sets, part, start, stop) for start, stop in pairwise(cuts)]
    return runs


def iter_sorted_moves(state: State) -> Iterator[tuple[str, MoveCode]]:
    """The legal moves as (canonical line, code) in the order of the lines, as docs/notation.md
    lists them, in memory bounded by the rules' structure rather than the number of moves: what
    ``cassino moves`` and ``perft --divide`` print, at once, on a table of millions of moves.

    Lines of different heads (kind, card, value: ``build 7h 14: ``) compare as the heads do, since
    no head's text begins another's; so heads go one at a time in order, and within one, a heap
    merges the families' ascending runs (``_family_runs``). Sorting every line gives the same."""
    fams, trails = families(state)
    by_head: dict[str, list[Family]] = {}
    for fam in fams:
        # The head's text: its line with one table card (Ac, two characters) and without it.
        by_head.setdefault(format_code(fam[0] | 1 << TABLE_SHIFT)[:-2], []).append(fam)
    heads: list[tuple[str, list[Family] | MoveCode]] = [(text, group) for text, group in by_head.items()]
    heads += [(format_code(code), code) for code in trails]
    heads.sort(key=lambda item: item[0])
    for text, group in heads:
        if isinstance(group, int):
            yield text, group
            continue
        runs = [run for head, sets, parts in group for run in _family_runs(head, sets, parts)]
        for cards, code in heapq.merge(*runs):
            yield text + cards, code


def count_moves(state: State) -> int:
    """The number of legal moves, counted without making them (nor their families)."""
    sink = Counted()
    _generate(state, -1, sink)
    return sink.total


def is_legal(state: State, code: MoveCode) -> bool:
    """True when ``code`` is among ``generate``'s moves, found by making only the families of its
    card: one check stays cheap on a table with millions of moves."""
    if code < 0:
        return False
    bit = 1 << code_card(code)
    if not state.hands[state.to_move] & bit:
        return False
    fams, trails = families(state, bit)
    if code_kind(code) == TRAIL:
        return code in trails
    taken = code_table(code)
    if not taken:
        return False  # the empty move is never generated
    head = code & HEAD_MASK
    # Loose cards come from a family's sets, build cards from its parts: one split only.
    loose = taken & state.loose
    part = taken ^ loose
    return any(h == head and part in parts and loose in sets for h, sets, parts in fams)


__all__ = [
    "HEAD_MASK",
    "Family",
    "can_capture",
    "capture_values",
    "capturing_cards",
    "count_moves",
    "families",
    "generate",
    "is_legal",
    "iter_moves",
    "iter_sorted_moves",
]
