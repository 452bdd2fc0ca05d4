"""Why a move is illegal, in plain words: the rule it breaks, checked in the order a player thinks.

A reason is structured, a ``Reason`` (a code and its parameters), so that the browser can show it in
the player's language from the catalogues (key ``reason.<code>``); ``REASON_TEXTS`` holds the one
English wording, which the command line prints through ``Reason.text`` and the English catalogue
reads. A text that would vary with an option or a word of English is split into separate codes, so a
translation never has to contain engine words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from . import movegen
from .cards import CARD_NAMES, RANK_MASKS, RANKS, CardMask, card_name, cards_of
from .moves import CAPTURE, TRAIL, MoveCode
from .partition import UNIT, is_splittable

if TYPE_CHECKING:
    from .state import BuildTuple, State


REASON_TEXTS: dict[str, str] = {
    # Any move.
    "hand_over": "the hand is over: no move is left to play",
    "not_in_hand": "{card} is not in the hand of seat {seat}, the player to move",
    "last_card_may_not_trail": (
        "you own the {value}-build ({build}) and {card} is your last card that can take it: "
        "you may not trail it unless the move takes that build along (rule 7.2)"
    ),
    "last_card_may_not_play": (
        "you own the {value}-build ({build}) and {card} is your last card that can take it: "
        "you may not play it unless the move takes that build along (rule 7.2)"
    ),
    # Trails.
    "owner_may_not_trail": "you own the {value}-build ({build}), so you may not trail (rule 7.1)",
    "trail_rank_on_table": (
        "a loose card of the same rank as {card} is on the table, so it may not be trailed "
        "(trail_restriction no_rank_match)"
    ),
    "trail_can_capture": "{card} can capture, so it may not be trailed (trail_restriction no_capturing_card)",
    "trail_not_allowed": "this trail is not allowed here",
    # The table cards a capture or build names.
    "build_only_whole": "the {value}-build ({build}) can only be taken or joined whole",
    "not_on_table_one": "{cards} is not on the table",
    "not_on_table_many": "{cards} are not on the table",
    # Captures.
    "pairing_value_is_number": "{card} is a numeral card: write its capture value as a number, not a rank letter",
    "court_pairs_only": "a court card captures only loose cards of its own rank by pairing (rule 5.3)",
    "court_capture_one": "{card} takes exactly one loose {rank}, not {taken} (court_capture one)",
    "court_capture_all": "{card} must take every loose {rank} ({present}), not {taken} (court_capture all)",
    "court_capture_one_or_three": (
        "{card} takes one loose {rank}, or all three when exactly three are loose (court_capture one_or_three)"
    ),
    "court_has_no_number": (
        "{card} is a court card: under classic values it has no number and captures only by pairing, "
        "e.g. 'capture {card} {rank}: ...'"
    ),
    "capture_value": "{card} captures as {allowed}, not {value}",
    "capture_value_ace": "{card} captures as 1 or 14, not {value}",
    "build_not_in_sum": (
        "a build is taken whole by a card of its own value: the {build_value}-build cannot be taken as {value} "
        "(a build is never part of a sum)"
    ),
    "loose_court_no_value": "{card} is a court card: it has no value and can only be paired by a card of its rank",
    "capture_no_split": "the loose cards {cards} cannot be split into groups each worth {value}",
    "capture_not_maximal": (
        "a capture with {card} as {value} that takes more cards exists, and captures must be maximal "
        "(capture_must_be_maximal)"
    ),
    "capture_not_allowed": "this capture is not allowed here",
    # Builds.
    "court_never_builds": "{card} is a court card, and court cards never build under classic values (rule 6.1)",
    "build_value_range": "a build's value must be 2..{top} under these rules, not {value} (rule 6.1)",
    "build_keep_card": "to build {value} you must keep a card worth {value} in your hand after playing {card} (rule 6.2)",
    "build_keep_ace": "to build {value} you must keep an ace in your hand after playing {card} (rule 6.2)",
    "build_court_card": "{card} is a court card and cannot be built (rule 6.1)",
    "build_needs_table": "a build must use at least one table card or build; to just lay the card down, trail it",
    "build_frozen": (
        "the {value}-build ({build}) is a multiple build: it is frozen and can only join whole as a group of "
        "{value} (rule 6.5)"
    ),
    "own_build_no_raise": "you own the {value}-build and may not raise it (raise_own_build is off)",
    "raise_one_build": "one played card can raise at most one build",
    "build_value_taken": (
        "there is already a {value}-build ({build}): add to it by including it, since only one build per value "
        "may stand (rule 6.7)"
    ),
    "build_value_taken_an": (
        "there is already an {value}-build ({build}): add to it by including it, since only one build per value "
        "may stand (rule 6.7)"
    ),
    "raise_no_loose": (
        "raising the {value}-build with {card} makes {total}, not {target}; loose cards never help to raise "
        "(table_cards_may_raise is off)"
    ),
    "build_no_split": (
        "{card} with {cards} cannot be split into groups each worth {value}, one of them holding {card} (rule 6.3)"
    ),
    # Why a table item is in no move of a card (cassino.web.whynot).
    "capture_no_group": "no loose cards make {value} together with {loose}, so {card} cannot capture it",
    "loose_worth_more": (
        "{loose} is worth more than {card} can capture, and together they make {total}, "
        "more than a build may be worth ({top})"
    ),
    "no_move_with": "no legal move of {card} takes or joins {item}",
}
"""Every reason code with its English template: the only home of the English wording."""

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_FIELDS: dict[str, frozenset[str]] = {
    code: frozenset(_PLACEHOLDER.findall(text)) for code, text in REASON_TEXTS.items()
}


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards as a reason's parameter, by canonical name in ascending card order (one card too)."""

    names: tuple[str, ...]

    @classmethod
    def of(cls, mask: CardMask) -> Cards:
        """The cards of a mask."""
        return cls(tuple(CARD_NAMES[c] for c in cards_of(mask)))

    @classmethod
    def one(cls, card: int) -> Cards:
        """A single card."""
        return cls((CARD_NAMES[card],))


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank as a reason's parameter, by its letter (``T`` is the ten)."""

    letter: str


Param: TypeAlias = "int | Cards | Rank"
"""A reason's parameter: a number, some cards or a rank."""


def _param_text(value: Param) -> str:
    """A parameter in English, as the sentences always wrote it."""
    if isinstance(value, Cards):
        return " ".join(value.names)
    if isinstance(value, Rank):
        return value.letter
    return str(value)


def _param_json(value: Param) -> Any:
    """A parameter as JSON: an int, ``{"cards": [...]}`` or ``{"rank": "T"}``."""
    if isinstance(value, Cards):
        return {"cards": list(value.names)}
    if isinstance(value, Rank):
        return {"rank": value.letter}
    return value


def _param_from_json(value: Any) -> Param:
    """The inverse of ``_param_json``; anything else is refused."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, dict) and value.keys() == {"cards"} and isinstance(value["cards"], list):
        names = value["cards"]
        if all(isinstance(n, str) and n in CARD_NAMES for n in names):
            return Cards(tuple(names))
    if isinstance(value, dict) and value.keys() == {"rank"} and value["rank"] in tuple(RANKS):
        return Rank(value["rank"])
    raise ValueError(f"{value!r} is not a reason parameter: an int, {{'cards': [...]}} or {{'rank': 'T'}}")


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move is refused: a code of ``REASON_TEXTS`` and the values of its placeholders, so the
    page can word it in any language and the command line keeps its English sentence."""

    code: str
    params: tuple[tuple[str, Param], ...] = ()

    def __post_init__(self) -> None:
        fields = _FIELDS.get(self.code)
        if fields is None:
            raise ValueError(f"unknown reason code {self.code!r}")
        names = {name for name, _ in self.params}
        if names != fields or len(names) != len(self.params):
            raise ValueError(f"reason {self.code!r} takes {sorted(fields)}, got {[n for n, _ in self.params]}")

    @classmethod
    def of(cls, code: str, **params: Param) -> Reason:
        """A reason from keyword parameters: ``Reason.of("owner_may_not_trail", value=8, build=...)``."""
        return cls(code, tuple(params.items()))

    @property
    def args(self) -> Mapping[str, Param]:
        """The parameters by name."""
        return dict(self.params)

    @property
    def text(self) -> str:
        """The English sentence (what the command line and the engine's errors say)."""
        values = dict(self.params)
        return _PLACEHOLDER.sub(lambda m: _param_text(values[m.group(1)]), REASON_TEXTS[self.code])

    def to_json(self) -> dict[str, Any]:
        """``{"code": ..., "params": {...}, "text": ...}``: the page words it from ``code`` and
        ``params``; ``text`` is the English fallback."""
        return {"code": self.code, "params": {k: _param_json(v) for k, v in self.params}, "text": self.text}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reason:
        """A reason read back from ``to_json`` (``text`` is derived, so it is not read)."""
        return cls(str(data["code"]), tuple((str(k), _param_from_json(v)) for k, v in data["params"].items()))


def obligation_reason(build: BuildTuple, card: int, trail: bool) -> Reason:
    """Rule 7.2: ``card`` is the mover's last card able to take ``build``, which they own."""
    return Reason.of(
        "last_card_may_not_trail" if trail else "last_card_may_not_play",
        value=build[1],
        build=Cards.of(build[0]),
        card=Cards.one(card),
    )


def build_value_reason(state: State, card: int, value: int, rest: CardMask) -> Reason | None:
    """Rules 6.1 and 6.2 for building ``value`` with ``card``: out of range, or no card kept in
    ``rest`` (the hand after the play) to capture it; None when both hold."""
    top = state.rules.max_build
    if not 2 <= value <= top:
        return Reason.of("build_value_range", top=top, value=value)
    if movegen.capturing_cards(state, value, rest) == 0:
        if value == 14:
            return Reason.of("build_keep_ace", value=value, card=Cards.one(card))
        return Reason.of("build_keep_card", value=value, card=Cards.one(card))
    return None


def explain_illegal(state: State, code: MoveCode) -> str:
    """A sentence saying which rule forbids ``code`` here (assumes it is not legal)."""
    return reason_illegal(state, code).text


def reason_illegal(state: State, code: MoveCode) -> Reason:
    """Which rule forbids ``code`` here, as a structured reason (assumes it is not legal)."""
    rules = state.rules
    seat = state.to_move
    if state.hand_over:
        return Reason.of("hand_over")
    kind = code & 3
    card = (code >> 2) & 63
    value = (code >> 8) & 15
    taken = code >> 12
    hand = state.hands[seat]
    if not hand >> card & 1:
        return Reason.of("not_in_hand", card=Cards.one(card), seat=seat)
    rest = hand & ~(1 << card)
    owned = [b for b in state.builds if b[2] == seat]

    for b in owned:
        if not b[0] & taken and movegen.capturing_cards(state, b[1], rest) == 0:
            return obligation_reason(b, card, kind == TRAIL)
    if kind == TRAIL:
        if owned and not rules.owner_may_trail:
            b = owned[0]
            return Reason.of("owner_may_not_trail", value=b[1], build=Cards.of(b[0]))
        if rules.trail_restriction == "no_rank_match" and state.loose & RANK_MASKS[card >> 2]:
            return Reason.of("trail_rank_on_table", card=Cards.one(card))
        if rules.trail_restriction == "no_capturing_card":
            return Reason.of("trail_can_capture", card=Cards.one(card))
        return Reason.of("trail_not_allowed")
    loose_taken = taken & state.loose
    build_taken = [b for b in state.builds if b[0] & taken]
    covered = loose_taken
    for b in build_taken:
        covered |= b[0]
        if b[0] & taken != b[0]:
            return Reason.of("build_only_whole", value=b[1], build=Cards.of(b[0]))
    if covered != taken:
        stray = taken & ~covered
        return Reason.of("not_on_table_one" if stray.bit_count() == 1 else "not_on_table_many", cards=Cards.of(stray))
    if kind == CAPTURE:
        return _explain_capture(state, card, value, loose_taken, build_taken)
    return _explain_build(state, card, value, taken, loose_taken, build_taken, rest)


def _explain_capture(
    state: State, card: int, value: int, loose_taken: int, build_taken: list[tuple[int, int, int]]
) -> Reason:
    rules = state.rules
    values = state.values
    vc = values[card]
    one = Cards.one(card)
    rank = Rank(RANKS[card >> 2])
    if value == 0:
        if vc:
            return Reason.of("pairing_value_is_number", card=one)
        if build_taken or loose_taken & ~RANK_MASKS[card >> 2]:
            return Reason.of("court_pairs_only")
        n = loose_taken.bit_count()
        same = (state.loose & RANK_MASKS[card >> 2]).bit_count()
        mode = rules.court_capture
        if mode == "one":
            return Reason.of("court_capture_one", card=one, rank=rank, taken=n)
        if mode == "all":
            return Reason.of("court_capture_all", card=one, rank=rank, present=same, taken=n)
        return Reason.of("court_capture_one_or_three", card=one, rank=rank)
    if vc == 0:
        return Reason.of("court_has_no_number", card=one, rank=rank)
    allowed = movegen.capture_values(state, card)
    if value not in allowed:
        if len(allowed) == 2:
            return Reason.of("capture_value_ace", card=one, value=value)
        return Reason.of("capture_value", card=one, allowed=allowed[0], value=value)
    for b in build_taken:
        if b[1] != value:
            return Reason.of("build_not_in_sum", build_value=b[1], value=value)
    vec = 0
    for c in range(52):
        if loose_taken >> c & 1:
            v = values[c]
            if v == 0:
                return Reason.of("loose_court_no_value", card=Cards.one(c))
            vec += UNIT[v]
    if loose_taken and not is_splittable(vec, value):
        return Reason.of("capture_no_split", cards=Cards.of(loose_taken), value=value)
    if rules.capture_must_be_maximal:
        return Reason.of("capture_not_maximal", card=one, value=value)
    return Reason.of("capture_not_allowed")


def _explain_build(
    state: State,
    card: int,
    value: int,
    taken: int,
    loose_taken: int,
    build_taken: list[tuple[int, int, int]],
    rest: int,
) -> Reason:
    rules = state.rules
    values = state.values
    vc = values[card]
    one = Cards.one(card)
    seat = state.to_move
    if vc == 0:
        return Reason.of("court_never_builds", card=one)
    kept = build_value_reason(state, card, value, rest)
    if kept is not None:
        return kept
    for c in range(52):
        if loose_taken >> c & 1 and values[c] == 0:
            return Reason.of("build_court_card", card=Cards.one(c))
    if not taken:
        return Reason.of("build_needs_table")
    for b in build_taken:
        single = sum(values[c] for c in range(52) if b[0] >> c & 1) == b[1]
        if b[1] != value and not single:
            return Reason.of("build_frozen", value=b[1], build=Cards.of(b[0]))
        if b[1] != value and b[2] == seat and not rules.raise_own_build:
            return Reason.of("own_build_no_raise", value=b[1])
    raised = [b for b in build_taken if b[1] != value]
    if len(raised) > 1:
        return Reason.of("raise_one_build")
    if not rules.duplicate_value_builds:
        for b in state.builds:
            if b[1] == value and not b[0] & taken:
                code = "build_value_taken_an" if value in (8, 11) else "build_value_taken"
                return Reason.of(code, value=value, build=Cards.of(b[0]))
    if raised and loose_taken and not rules.table_cards_may_raise:
        b = raised[0]
        if b[1] + vc != value:
            return Reason.of("raise_no_loose", value=b[1], card=one, total=b[1] + vc, target=value)
    return Reason.of("build_no_split", card=one, cards=Cards.of(taken), value=value)


def explain_card(state: State, text: str) -> str | None:
    """What one card of the mover's hand can do, or why it can do nothing; None if ``text`` is no card."""
    from .cards import CardError, parse_card
    from .moves import format_code

    try:
        card = parse_card(text)
    except CardError:
        return None
    name = card_name(card)
    if not state.hands[state.to_move] >> card & 1:
        return f"{name} is not in your hand"
    lines = sorted(format_code(c) for c in movegen.generate(state) if (c >> 2) & 63 == card)
    if lines:
        return f"{name} can: " + "; ".join(lines)
    return f"{name} has no legal move: " + explain_illegal(state, card << 2)
