"""The rules of a move, one named check each, with the words of its refusal beside it.

Each ``check_*`` function returns None when its rule allows the move, or the ``Reason`` naming why
not (PokerKit's style). The generator (``movegen``) cannot afford a check per move, so where a rule
shapes the generation it lives in a cheap predicate or mask here (``unkept_builds``, ``may_trail``,
``trail_refusal``, ``build_targets``, ``whole_builds``, ``raise_refusal``, ``raise_extra``,
``court_choices``, ``capture_values``) that the generator calls once per position, card or family,
and that the check turns into its reason: each rule's logic lives once, and its sentence beside it.
``explain.reason_illegal`` runs the checks in the order a player thinks; the first that fails is
the reason. This module imports nothing that imports it (``movegen`` and ``explain`` import it).

A reason is a ``reasons.Reason``, a code and its parameters; the English sentence of each code is
registered here beside its rule (``reasons.words``). A text that would vary with an option or a word
of English is split into separate codes, so a translation never has to contain engine words.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final, final

from .cards import ACES_MASK, RANK_MASKS, RANKS, CardMask, cards_of, rank
from .moves import CAPTURE, HIGHEST_VALUE, VALUE_MASK
from .partition import (
    FIELD_BITS,
    FIELD_MASK,
    UNIT,
    UP_TO,
    ValueVector,
    build_total,
    card_sets,
    counts,
    is_splittable,
    keep,
    splittable,
    vector_of,
)
from .reasons import Cards, Rank, Reason, words

if TYPE_CHECKING:
    from .rules import Rules
    from .state import Build, State

MIN_BUILD: Final = 2
"""The lowest value a build may declare (6.1): no build is worth 1."""
ACE_HIGH: Final = HIGHEST_VALUE
"""What a royal ace counts when played high (5.2): the only value above the numeral cards."""
CLASSIC_TOP: Final = 10
"""The highest numeral value under classic values (the ten)."""
ROYAL_TOP: Final = 13
"""The highest numeral value under royal values (the king)."""
VALUE_SLOTS: Final = VALUE_MASK + 1
"""Values a move code can hold: the length of the tables indexed by value."""

NUMERAL_CLASSIC: Final[CardMask] = UP_TO[CLASSIC_TOP]
"""Classic numeral cards (A..T): court cards have no value."""
NUMERAL_ROYAL: Final[CardMask] = UP_TO[ROYAL_TOP]
"""Royal numeral cards: all 52."""

NO_BUILDS: Final[tuple[CardMask, ...]] = (0,)
"""The one choice of whole builds when a move takes none along."""


# ----------------------------------------------------------------------------- facts the rules share


def numeral_cards(state: State) -> CardMask:
    """The cards that have a value and so may build or be summed: all of them under royal values,
    A..T under classic values (court cards only pair, 5.3)."""
    return state.flags.numeral


def _lowest(cards: CardMask) -> int:
    """The lowest card of a non-empty mask (the first a reason names)."""
    return (cards & -cards).bit_length() - 1


def taken_builds(state: State, taken: CardMask) -> list[Build]:
    """The builds a move's table cards touch, in table order."""
    return [b for b in state.builds if b[0] & taken]  # b[0]: the build's cards


def _capturer_table(top: int) -> tuple[CardMask, ...]:
    """By value: the cards that capture a build of that value under rules whose highest build is
    ``top`` (6.2, 7.2): a card of that value, an ace for 14; none for a value no card has."""
    out = [0] * VALUE_SLOTS
    for v in range(1, min(top, ROYAL_TOP) + 1):
        out[v] = RANK_MASKS[v - 1]
    if top == ACE_HIGH:
        out[ACE_HIGH] = ACES_MASK
    return tuple(out)


CAPTURERS: Final[dict[int, tuple[CardMask, ...]]] = {
    top: _capturer_table(top) for top in (CLASSIC_TOP, ROYAL_TOP, ACE_HIGH)
}
"""``CAPTURERS[rules.max_build][value]``: the cards able to capture a build of ``value``."""


def capturers_of(rules: Rules) -> tuple[CardMask, ...]:
    """The capturing cards of each build value under ``rules`` (``CAPTURERS``)."""
    return CAPTURERS[rules.max_build]


@final
class RuleFlags:
    """The options the generator reads at every position, as the fields of a compiled object
    (``State.flags``): a ``Rules`` is a plain dataclass, each of whose attributes costs a lookup
    by name, many times a position."""

    royal: Final[bool]
    maximal: Final[bool]
    """``capture_must_be_maximal``."""
    duplicates: Final[bool]
    """``duplicate_value_builds``."""
    restriction: Final[str]
    """``trail_restriction``."""
    court_capture: Final[str]
    owner_may_trail: Final[bool]
    raise_own_build: Final[bool]
    table_cards_may_raise: Final[bool]
    draw: Final[bool]
    max_build: Final[int]
    numeral: Final[CardMask]
    """The cards with a value (``numeral_cards``)."""
    capturers: Final[tuple[CardMask, ...]]
    """The cards able to capture a build of each value (``capturers_of``)."""

    def __init__(self, rules: Rules) -> None:
        self.royal = rules.royal
        self.maximal = rules.capture_must_be_maximal
        self.duplicates = rules.duplicate_value_builds
        self.restriction = rules.trail_restriction
        self.court_capture = rules.court_capture
        self.owner_may_trail = rules.owner_may_trail
        self.raise_own_build = rules.raise_own_build
        self.table_cards_may_raise = rules.table_cards_may_raise
        self.draw = rules.draw
        self.max_build = rules.max_build
        self.numeral = NUMERAL_ROYAL if rules.royal else NUMERAL_CLASSIC
        self.capturers = capturers_of(rules)


OPTIONS_NOT_READ: Final[dict[str, str]] = {
    "sweeps": "a sweep is scored when the hand is counted; it allows or forbids no move",
    "sweeps_cancel": "the two sides' sweeps cancel when the hand is counted",
    "scoring": "which cards score is counted after the hand",
    "target": "the points that win the game are counted between hands",
    "tiebreak": "who wins a tie at the target is decided after the last hand",
}
"""The options of ``rules.OPTIONS`` that the move generator does not read, each with why. Every
other option has a field in ``RuleFlags``: tests/test_rule_flags.py fails, naming the option, for
an option that is neither (its field forgotten) or that is listed here and changes the moves."""

_FLAGS: Final[dict[Rules, RuleFlags]] = {}


def flags_of(rules: Rules) -> RuleFlags:
    """The ``RuleFlags`` of ``rules``, one object per rule set."""
    found = _FLAGS.get(rules)
    if found is None:
        found = _FLAGS[rules] = RuleFlags(rules)
    return found


def capturing_cards(state: State, value: int, cards: CardMask) -> int:
    """How many of ``cards`` can capture a build of ``value`` (an ace for 14)."""
    capturers = state.flags.capturers
    return (cards & capturers[value]).bit_count() if 0 <= value < VALUE_SLOTS else 0


# ----------------------------------------------------------------------------- any move

words(
    hand_over="the hand is over: no move is left to play",
    not_in_hand="{card} is not in the hand of seat {seat}, the player to move",
)


def check_hand_over(state: State) -> Reason | None:
    """Nothing is played once every hand and the stock are empty."""
    return Reason.of("hand_over") if state.hand_over else None


def check_in_hand(state: State, card: int) -> Reason | None:
    """Only the player to move plays, and only a card of their own hand."""
    seat = state.to_move
    if state.hands[seat] >> card & 1:
        return None
    return Reason.of("not_in_hand", card=Cards.one(card), seat=seat)


# ----------------------------------------------------------------------------- 7.2 the owner's obligation

words(
    last_card_may_not_trail=(
        "you own the {value}-build ({build}) and {card} is your last card that can take it: "
        "you may not trail it unless the move takes that build along (rule 7.2)"
    ),
    last_card_may_not_play=(
        "you own the {value}-build ({build}) and {card} is your last card that can take it: "
        "you may not play it unless the move takes that build along (rule 7.2)"
    ),
)


def owned_builds(state: State, seat: int) -> list[Build]:
    """The builds ``seat`` owns (a partner's do not count, 7.2)."""
    return [b for b in state.builds if b[2] == seat]  # b[2]: the build's owner


def unkept_builds(capturers: tuple[CardMask, ...], owned: list[Build], rest: CardMask) -> CardMask:
    """Rule 7.2 as a mask: the cards of the owned builds that no card of ``rest`` (the hand after
    the play) can capture. A move must take all of them along; the generator asks once per card."""
    must = 0
    for cards, value, _owner in owned:  # unpacked: this runs for every card of an owner's hand
        if not rest & capturers[value]:
            must |= cards
    return must


def obligation_reason(build: Build, card: int, trail: bool) -> Reason:
    """Rule 7.2: ``card`` is the mover's last card able to take ``build``, which they own."""
    cards, value, _owner = build
    return Reason.of(
        "last_card_may_not_trail" if trail else "last_card_may_not_play",
        value=value,
        build=Cards.of(cards),
        card=Cards.one(card),
    )


def check_obligation(state: State, card: int, taken: CardMask, trail: bool = False) -> Reason | None:
    """Rule 7.2: the mover may play away their last card able to take a build they own only in a
    move that takes that build along (``taken`` touches it)."""
    seat = state.to_move
    owned = owned_builds(state, seat)
    if not owned:
        return None
    must = unkept_builds(state.flags.capturers, owned, state.hands[seat] & ~(1 << card))
    for b in owned:
        cards, _value, _owner = b
        if cards & must and not cards & taken:
            return obligation_reason(b, card, trail)
    return None


# ----------------------------------------------------------------------------- 7.1 trailing

words(
    owner_may_not_trail="you own the {value}-build ({build}), so you may not trail (rule 7.1)",
    trail_rank_on_table=(
        "a loose card of the same rank as {card} is on the table, so it may not be trailed "
        "(trail_restriction no_rank_match)"
    ),
    trail_can_capture="{card} can capture, so it may not be trailed (trail_restriction no_capturing_card)",
    trail_not_allowed="this trail is not allowed here",  # explain's last resort: no check words it
)


def may_trail(rules: RuleFlags, owned: list[Build]) -> bool:
    """Rule 7.1: the owner of a build may not trail, unless ``owner_may_trail``."""
    return rules.owner_may_trail or not owned


def check_may_trail(state: State, seat: int) -> Reason | None:
    """Rule 7.1, the owner: refused naming the first build ``seat`` owns."""
    owned = owned_builds(state, seat)
    if may_trail(state.flags, owned):
        return None
    cards, value, _owner = owned[0]
    return Reason.of("owner_may_not_trail", value=value, build=Cards.of(cards))


def trail_refusal(state: State, card: int, can_capture: bool) -> str | None:
    """Rule 7.1 under ``trail_restriction``: the reason code that forbids trailing ``card``
    (``can_capture``: it has a legal capture), or None when the option allows it."""
    restriction = state.flags.restriction
    if restriction == "no_rank_match":
        return "trail_rank_on_table" if state.loose & RANK_MASKS[rank(card)] else None
    if restriction == "no_capturing_card" and can_capture:
        return "trail_can_capture"
    return None


def check_trail_restriction(state: State, card: int, can_capture: bool) -> Reason | None:
    """Rule 7.1, the ``trail_restriction`` option (see ``trail_refusal``)."""
    refusal = trail_refusal(state, card, can_capture)
    return None if refusal is None else Reason.of(refusal, card=Cards.one(card))


# ----------------------------------------------------------------------------- the table items a move names

words(
    build_only_whole="the {value}-build ({build}) can only be taken or joined whole",
    not_on_table_one="{cards} is not on the table",
    not_on_table_many="{cards} are not on the table",
)


def check_whole_builds(state: State, taken: CardMask) -> Reason | None:
    """A build is taken or joined whole, never some of its cards (5.1, 6.3)."""
    for cards, value, _owner in taken_builds(state, taken):
        if cards & taken != cards:
            return Reason.of("build_only_whole", value=value, build=Cards.of(cards))
    return None


def check_on_table(state: State, taken: CardMask) -> Reason | None:
    """A move takes or joins only what lies on the table."""
    stray = taken & ~state.table_mask
    if not stray:
        return None
    return Reason.of("not_on_table_one" if stray.bit_count() == 1 else "not_on_table_many", cards=Cards.of(stray))


# ----------------------------------------------------------------------------- 5 capturing

words(
    pairing_value_is_number="{card} is a numeral card: write its capture value as a number, not a rank letter",
    court_pairs_only="a court card captures only loose cards of its own rank by pairing (rule 5.3)",
    court_capture_one="{card} takes exactly one loose {rank}, not {taken} (court_capture one)",
    court_capture_all="{card} must take every loose {rank} ({present}), not {taken} (court_capture all)",
    court_capture_one_or_three=(
        "{card} takes one loose {rank}, or all three when exactly three are loose (court_capture one_or_three)"
    ),
    court_has_no_number=(
        "{card} is a court card: under classic values it has no number and captures only by pairing, "
        "e.g. 'capture {card} {rank}: ...'"
    ),
    capture_value="{card} captures as {allowed}, not {value}",
    capture_value_ace="{card} captures as 1 or 14, not {value}",
    build_not_in_sum=(
        "a build is taken whole by a card of its own value: the {build_value}-build cannot be taken as {value} "
        "(a build is never part of a sum)"
    ),
    loose_court_no_value="{card} is a court card: it has no value and can only be paired by a card of its rank",
    capture_no_split="the loose cards {cards} cannot be split into groups each worth {value}",
    capture_not_maximal=(
        "a capture with {card} as {value} that takes more cards exists, and captures must be maximal "
        "(capture_must_be_maximal)"
    ),
    capture_not_allowed="this capture is not allowed here",  # explain's last resort: no check words it
    capture_needs_table="a capture must take at least one table card or build; to just lay the card down, trail it",
)

CAPTURE_VALUES: Final[tuple[tuple[tuple[int, ...], ...], ...]] = (
    ((), *((v,) for v in range(1, ACE_HIGH))),
    ((), (1, ACE_HIGH), *((v,) for v in range(2, ACE_HIGH))),
)
"""``CAPTURE_VALUES[ace_high][v]``: the values a card of value ``v`` captures as (5.1, 5.2): its
own, 1 or 14 for a royal ace played high, none for a classic court card (it pairs)."""


def capture_values(state: State, card: int) -> tuple[int, ...]:
    """The values a card may capture with: its value, or 1 and 14 for a royal ace played high."""
    return CAPTURE_VALUES[state.ace_high][state.values[card]]


def check_takes_something(kind: int, taken: CardMask) -> Reason | None:
    """A capture or a build uses at least one table item: laying the card alone down is a trail."""
    if taken:
        return None
    return Reason.of("capture_needs_table" if kind == CAPTURE else "build_needs_table")


def check_capture_value(state: State, card: int, value: int) -> Reason | None:
    """Rules 5.1-5.3: a numeral card captures as its value (a royal ace as 1 or 14), a classic
    court card by pairing only, written with its rank letter (value 0)."""
    vc = state.values[card]
    if value == 0:
        return Reason.of("pairing_value_is_number", card=Cards.one(card)) if vc else None
    if vc == 0:
        return Reason.of("court_has_no_number", card=Cards.one(card), rank=Rank(RANKS[rank(card)]))
    allowed = capture_values(state, card)
    if value in allowed:
        return None
    if len(allowed) == 2:
        return Reason.of("capture_value_ace", card=Cards.one(card), value=value)
    return Reason.of("capture_value", card=Cards.one(card), allowed=allowed[0], value=value)


@lru_cache(maxsize=1 << 10)
def court_choices(mode: str, same: CardMask) -> tuple[CardMask, ...]:
    """Rule 5.3 as the generator's sets: what a classic court card may take by pairing from
    ``same``, the loose cards of its rank, under ``court_capture`` ``mode`` (cached: the generator
    asks for every court card with a loose card of its rank)."""
    if mode == "all":
        return (same,)
    singles = [1 << c for c in cards_of(same)]
    if mode == "one_or_three" and len(singles) == 3:
        singles.append(same)
    return tuple(singles)


def check_court_capture(state: State, card: int, value: int, taken: CardMask) -> Reason | None:
    """Rule 5.3: a court card pairing (value 0) takes only loose cards of its rank, never a build
    or a sum, and as many as ``court_capture`` says (``court_choices``)."""
    if value or state.values[card]:
        return None  # not a pairing: check_capture_value judges the value
    r = rank(card)
    loose_taken = taken & state.loose
    if taken != loose_taken or loose_taken & ~RANK_MASKS[r]:
        return Reason.of("court_pairs_only")
    mode = state.rules.court_capture
    same = state.loose & RANK_MASKS[r]
    if loose_taken in court_choices(mode, same):
        return None
    one, letter = Cards.one(card), Rank(RANKS[r])
    if mode == "one":
        return Reason.of("court_capture_one", card=one, rank=letter, taken=loose_taken.bit_count())
    if mode == "all":
        return Reason.of(
            "court_capture_all", card=one, rank=letter, present=same.bit_count(), taken=loose_taken.bit_count()
        )
    return Reason.of("court_capture_one_or_three", card=one, rank=letter)


def check_builds_in_sum(state: State, value: int, taken: CardMask) -> Reason | None:
    """Rule 5.1: a capture takes a build only whole and only at its own value, never in a sum."""
    for _cards, build_value, _owner in taken_builds(state, taken):
        if build_value != value:
            return Reason.of("build_not_in_sum", build_value=build_value, value=value)
    return None


def check_loose_numbers(state: State, value: int, taken: CardMask) -> Reason | None:
    """Rule 5.1: a capture by number (not a pairing) sums loose numeral cards only: a classic court
    card has no value."""
    if not value:
        return None
    courts = taken & state.loose & ~numeral_cards(state)
    return Reason.of("loose_court_no_value", card=Cards.one(_lowest(courts))) if courts else None


def check_capture_split(state: State, value: int, taken: CardMask) -> Reason | None:
    """Rule 5.1: the loose cards taken split into separate groups each worth the capture value."""
    loose_taken = taken & state.loose
    if not value or not loose_taken or is_splittable(vector_of(loose_taken), value):
        return None
    return Reason.of("capture_no_split", cards=Cards.of(loose_taken), value=value)


def whole_builds(builds: tuple[Build, ...], value: int, optional: bool, must: CardMask) -> tuple[CardMask, ...]:
    """The choices of whole builds of ``value`` a move takes along: any of them when ``optional``
    (a capture, 5.1; a build under ``duplicate_value_builds``), else all of them together (a maximal
    capture, 10.6; a build, since one build per value may stand, 6.7); only the choices holding
    every build in ``must`` (7.2)."""
    out = [0]
    for b in builds:  # indexed, not unpacked: most builds fail the test, and this runs for every family
        if b[1] == value:  # b[1]: the build's value, b[0] its cards
            if optional:
                out += [u | b[0] for u in out]
            else:
                out[0] |= b[0]
    if must:
        return tuple(p for p in out if p & must == must)
    return NO_BUILDS if len(out) == 1 and not out[0] else tuple(out)


def _joined(state: State, value: int, taken: CardMask) -> CardMask:
    """The cards of the builds of ``value`` that ``taken`` touches."""
    joined = 0
    for cards, build_value, _owner in taken_builds(state, taken):
        if build_value == value:
            joined |= cards
    return joined


def check_capture_maximal(state: State, card: int, value: int, taken: CardMask) -> Reason | None:
    """Rule 10.6 (``capture_must_be_maximal``): a capture takes every build of its value and a set
    of loose cards that no larger splittable set contains (the generator's maximal sets)."""
    if not state.rules.capture_must_be_maximal or value not in capture_values(state, card):
        return None  # a pairing, or a value check_capture_value refuses
    table = state.loose & numeral_cards(state) & UP_TO[value]
    loose_ok = taken & state.loose in card_sets(table, value, 0, True)
    if loose_ok and _joined(state, value, taken) in whole_builds(state.builds, value, False, 0):
        return None
    return Reason.of("capture_not_maximal", card=Cards.one(card), value=value)


# ----------------------------------------------------------------------------- 6 building

words(
    court_never_builds="{card} is a court card, and court cards never build under classic values (rule 6.1)",
    build_value_range="a build's value must be 2..{top} under these rules, not {value} (rule 6.1)",
    build_keep_card="to build {value} you must keep a card worth {value} in your hand after playing {card} (rule 6.2)",
    build_keep_ace="to build {value} you must keep an ace in your hand after playing {card} (rule 6.2)",
    build_court_card="{card} is a court card and cannot be built (rule 6.1)",
    build_needs_table="a build must use at least one table card or build; to just lay the card down, trail it",
)


def check_card_builds(state: State, card: int) -> Reason | None:
    """Rule 6.1: only a numeral card builds."""
    if (1 << card) & numeral_cards(state):
        return None
    return Reason.of("court_never_builds", card=Cards.one(card))


def _value_refusal(value: int, rest: CardMask, top: int) -> str | None:
    """Rules 6.1 and 6.2 for building ``value`` (``top``: the rules' highest build): the reason code
    that forbids it, or None when it is a build value and ``rest`` keeps a card to capture it."""
    if not MIN_BUILD <= value <= top:
        return "build_value_range"
    if not rest & CAPTURERS[top][value]:
        return "build_keep_ace" if value == ACE_HIGH else "build_keep_card"
    return None


def build_value_refusal(state: State, value: int, rest: CardMask) -> str | None:
    """Rules 6.1 and 6.2: why ``value`` may not be built with ``rest`` left in hand, or None."""
    return _value_refusal(value, rest, state.rules.max_build)


def check_build_value(state: State, card: int, value: int, rest: CardMask) -> Reason | None:
    """Rules 6.1 and 6.2 for building ``value`` with ``card``: out of range, or no card kept in
    ``rest`` (the hand after the play) to capture it; None when both hold."""
    refusal = build_value_refusal(state, value, rest)
    if refusal is None:
        return None
    if refusal == "build_value_range":
        return Reason.of(refusal, top=state.rules.max_build, value=value)
    return Reason.of(refusal, value=value, card=Cards.one(card))


def _mask_of_vector(vector: ValueVector) -> CardMask:
    """Some cards with the value counts of ``vector`` (the lowest suits of each rank)."""
    mask = 0
    for v, k in counts(vector):
        mask |= ((1 << k) - 1) << (FIELD_BITS * (v - 1))
    return mask


_TARGETS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {}
_TARGETS_LIMIT: Final = 1 << 12


def build_targets(hand: ValueVector, top: int) -> tuple[tuple[int, ...], ...]:
    """Rules 6.1 and 6.2 once per hand: for each played value (index), the build values that
    ``_value_refusal`` allows with the rest of a hand of value vector ``hand``. Values below the
    played card's are left out: no group of them could hold the card (6.3).

    Cached in a dict keyed by one int (the vector fits 52 bits), cheaper to ask than ``lru_cache``."""
    key = hand << 4 | top
    found = _TARGETS.get(key)
    return keep(_TARGETS, key, _targets(hand, top), _TARGETS_LIMIT) if found is None else found


def _targets(hand: ValueVector, top: int) -> tuple[tuple[int, ...], ...]:
    """``build_targets`` without its cache."""
    out = []
    for vc in range(ROYAL_TOP + 1):
        rest = hand - UNIT[vc] if vc and hand >> (FIELD_BITS * (vc - 1)) & FIELD_MASK else hand
        kept = _mask_of_vector(rest)
        out.append(tuple(v for v in range(max(MIN_BUILD, vc), top + 1) if _value_refusal(v, kept, top) is None))
    return tuple(out)


def check_build_loose(state: State, taken: CardMask) -> Reason | None:
    """Rule 6.1: every loose card of a build is a numeral card."""
    courts = taken & state.loose & ~numeral_cards(state)
    return Reason.of("build_court_card", card=Cards.one(_lowest(courts))) if courts else None


words(
    build_frozen=(
        "the {value}-build ({build}) is a multiple build: it is frozen and can only join whole as a group of "
        "{value} (rule 6.5)"
    ),
    own_build_no_raise="you own the {value}-build and may not raise it (raise_own_build is off)",
    raise_one_build="one played card can raise at most one build",
)


def build_is_single(build: Build) -> bool:
    """Rule 6.5: a single build's cards add up to its value; only a single build may be raised, a
    multiple one is frozen. A built card counts its rank + 1 under every rule set (classic court
    cards are never built), so no table of values is needed."""
    cards, value, _owner = build
    return build_total(cards) == value


def raise_refusal(state: State, build: Build) -> str | None:
    """Rules 6.5 and 6.6: the reason code that forbids the mover to raise ``build``, or None. A
    multiple build is frozen; your own build is yours to raise unless ``raise_own_build`` is off."""
    if not build_is_single(build):
        return "build_frozen"
    if build[2] == state.to_move and not state.flags.raise_own_build:  # build[2]: its owner
        return "own_build_no_raise"
    return None


def raise_reason(state: State, build: Build) -> Reason | None:
    """``raise_refusal`` as a ``Reason``: why the mover may not raise ``build`` at all, or None."""
    refusal = raise_refusal(state, build)
    if refusal is None:
        return None
    cards, value, _owner = build
    if refusal == "build_frozen":
        return Reason.of(refusal, value=value, build=Cards.of(cards))
    return Reason.of(refusal, value=value)


def check_raise(state: State, value: int, taken: CardMask) -> Reason | None:
    """Rules 6.5 and 6.6 for each build the move takes at another value (raises)."""
    for build in taken_builds(state, taken):
        reason = raise_reason(state, build) if build[1] != value else None  # build[1]: its value
        if reason is not None:
            return reason
    return None


def _raised(state: State, value: int, taken: CardMask) -> list[Build]:
    """The builds a build move of ``value`` takes at another value: the builds it raises."""
    return [b for b in taken_builds(state, taken) if b[1] != value]  # b[1]: the build's value


def check_one_raise(state: State, value: int, taken: CardMask) -> Reason | None:
    """Rule 6.3: the played card raises at most one build."""
    return Reason.of("raise_one_build") if len(_raised(state, value, taken)) > 1 else None


words(
    build_value_taken=(
        "there is already a {value}-build ({build}): add to it by including it, since only one build per value "
        "may stand (rule 6.7)"
    ),
    build_value_taken_an=(
        "there is already an {value}-build ({build}): add to it by including it, since only one build per value "
        "may stand (rule 6.7)"
    ),
)


_AN_VALUES: Final = frozenset({8, 11})
"""Build values English writes with "an" ("an 8-build", "an 11-build"): their own reason code."""


def check_one_build_per_value(state: State, value: int, taken: CardMask) -> Reason | None:
    """Rule 6.7: a build of ``value`` takes along the builds of ``value`` that ``whole_builds``
    requires (all of them, unless ``duplicate_value_builds``); refused naming one it leaves."""
    builds = state.builds
    if _joined(state, value, taken) in whole_builds(builds, value, state.rules.duplicate_value_builds, 0):
        return None
    left = next(cards for cards, build_value, _owner in builds if build_value == value and not cards & taken)
    code = "build_value_taken_an" if value in _AN_VALUES else "build_value_taken"
    return Reason.of(code, value=value, build=Cards.of(left))


words(
    raise_no_loose=(
        "raising the {value}-build with {card} makes {total}, not {target}; loose cards never help to raise "
        "(table_cards_may_raise is off)"
    ),
    build_no_split=(
        "{card} with {cards} cannot be split into groups each worth {value}, one of them holding {card} (rule 6.3)"
    ),
)


def raise_extra(rules: RuleFlags, raised: int, card_value: int, value: int) -> int | None:
    """Rule 6.3 on raising (10.10): what loose cards must add to the played card and the raised
    build of value ``raised`` in their group of ``value``: 0 when the two make ``value`` alone
    (other loose groups of ``value`` may still join), their sum when ``table_cards_may_raise`` lets
    loose cards make up the rest; None when the build cannot be raised to ``value``."""
    total = raised + card_value
    if total == value:
        return 0
    if total < value and rules.table_cards_may_raise:
        return total
    return None


def check_raise_loose(state: State, card: int, value: int, taken: CardMask) -> Reason | None:
    """Rule 6.3: loose cards never help to raise (unless ``table_cards_may_raise``): a raise that
    takes loose cards while card and build miss the value is refused."""
    raised = _raised(state, value, taken)
    rules = state.flags
    if not raised or not taken & state.loose or rules.table_cards_may_raise:
        return None
    _cards, w, _owner = raised[0]
    vc = state.values[card]
    if raise_extra(rules, w, vc, value) is not None:
        return None
    return Reason.of("raise_no_loose", value=w, card=Cards.one(card), total=w + vc, target=value)


def check_build_split(state: State, card: int, value: int, taken: CardMask) -> Reason | None:
    """Rule 6.3: the played card with the loose cards (and at most one raised build, see
    ``raise_extra``) splits into groups each worth ``value``, exactly one of them holding the card;
    whole builds of ``value`` join as groups of their own."""
    vc = state.values[card]
    raised = _raised(state, value, taken)
    if not raised:
        extra: int | None = vc
    elif len(raised) == 1:
        _cards, w, _owner = raised[0]
        extra = raise_extra(state.flags, w, vc, value)
    else:
        extra = None  # check_one_raise refuses it first
    vector = vector_of(taken & state.loose)
    if extra is not None and vector in splittable(vector, value, extra, False):
        return None
    return Reason.of("build_no_split", card=Cards.one(card), cards=Cards.of(taken), value=value)
