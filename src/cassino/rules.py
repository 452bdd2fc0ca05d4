"""Rules: every option of the rule book as one frozen value, the presets, and their validation.

Variants are data, not code: the engine reads these fields, so any option can be set on top of
any preset and a combination is checked once, here, rather than at every move.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin, get_type_hints

from .cards import CLASSIC_VALUES, NUMBER_DIGITS, ROYAL_VALUES, ascii_number, digit_refusal, excerpt, quoted
from .errors import RulesError as RulesError

CourtCapture = Literal["one", "all", "one_or_three"]
TrailRestriction = Literal["none", "no_capturing_card", "no_rank_match"]
Scoring = Literal["standard", "spade"]
Tiebreak = Literal["higher_total", "count_out"]

COURT_CAPTURES: tuple[str, ...] = get_args(CourtCapture)
TRAIL_RESTRICTIONS: tuple[str, ...] = get_args(TrailRestriction)
SCORINGS: tuple[str, ...] = get_args(Scoring)
TIEBREAKS: tuple[str, ...] = get_args(Tiebreak)

PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)
"""How many may play (section 2)."""
PARTNERSHIP_PLAYERS = 4
"""Partnerships need exactly this many players (section 2)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete rule set: seats, the preset it started from, and every option of section 10."""

    preset: str = "classic"
    players: int = 2
    partnerships: bool = False
    royal: bool = False
    royal_ace_high: bool = True
    court_capture: CourtCapture = "one"
    sweeps: bool = True
    sweeps_cancel: bool = False
    capture_must_be_maximal: bool = False
    trail_restriction: TrailRestriction = "none"
    owner_may_trail: bool = False
    raise_own_build: bool = True
    table_cards_may_raise: bool = False
    duplicate_value_builds: bool = False
    draw: bool = False
    scoring: Scoring = "standard"
    target: int = 21
    tiebreak: Tiebreak = "higher_total"

    def __post_init__(self) -> None:
        validate(self)

    # Derived facts the engine asks for often.
    @property
    def sides(self) -> int:
        """How many scoring sides: seats, or two teams in partnerships."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for."""
        return seat % 2 if self.partnerships else seat

    @property
    def values(self) -> tuple[int, ...]:
        """The table value of each card (``cards.ROYAL_VALUES`` or ``CLASSIC_VALUES``): the one place
        that choice is made, so every reader agrees on what a card counts."""
        return ROYAL_VALUES if self.royal else CLASSIC_VALUES

    @property
    def max_build(self) -> int:
        """The highest value a build may declare (14 needs an ace in hand as well)."""
        if not self.royal:
            return 10
        return 14 if self.royal_ace_high else 13

    @property
    def deals_per_hand(self) -> int:
        """How many deals a hand has (one under ``draw``)."""
        return 1 if self.draw else {2: 6, 3: 4, 4: 3}[self.players]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like any rule set: RulesError names an
        unknown option too)."""
        for name in changes:
            if name not in OPTION_NAMES and name not in ("preset", "players", "partnerships"):
                raise RulesError(f"unknown rule option {quoted(name)}: known options are {', '.join(OPTION_NAMES)}")
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The ``rules`` object of a position: seats, then the options that differ from the preset."""
        base = PRESETS[self.preset]
        out: dict[str, Any] = {"preset": self.preset, "players": self.players, "partnerships": self.partnerships}
        for name in OPTION_NAMES:
            value = getattr(self, name)
            if value != getattr(base, name):
                out[name] = value
        return out

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Read a ``rules`` object; unknown options and rejected combinations raise RulesError."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object, got {type(data).__name__}")
        preset = data.get("preset", "classic")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError(f"unknown preset {quoted(preset)}: choose one of {', '.join(PRESETS)}")
        unknown = [k for k in data if k not in ("preset", "players", "partnerships") and k not in OPTION_NAMES]
        if unknown:
            raise RulesError(f"unknown rule option {quoted(unknown[0])}: known options are {', '.join(OPTION_NAMES)}")
        changes = {k: v for k, v in data.items() if k != "preset"}
        return make_rules(preset, **changes)

    def describe(self) -> str:
        """A one-line human summary, e.g. ``classic, 4 players in partnerships, sweeps_cancel``."""
        seats = f"{self.players} players" + (" in partnerships" if self.partnerships else "")
        extras = [
            f"{k}={v}" if not isinstance(v, bool) else (k if v else f"no {k}")
            for k, v in self.to_json().items()
            if k not in ("preset", "players", "partnerships")
        ]
        return ", ".join([self.preset, seats, *extras])


OptionValue = bool | int | str
"""The value of one option: a flag, a number (``target``) or a word of its choices."""
OptionType = Literal["bool", "int", "choice"]


@dataclass(frozen=True, slots=True)
class Condition:
    """A test on a rule set written as data, so the lobby can evaluate it without code per option:
    every option in ``needs`` has that value, no option in ``needs_not`` has that value, and the
    game has ``needs_sides`` sides (when given). The empty condition always holds."""

    needs: tuple[tuple[str, OptionValue], ...] = ()
    needs_not: tuple[tuple[str, OptionValue], ...] = ()
    needs_sides: int | None = None

    def holds(self, rules: Rules) -> bool:
        """Whether the rule set meets the condition."""
        return (
            all(getattr(rules, name) == value for name, value in self.needs)
            and not any(getattr(rules, name) == value for name, value in self.needs_not)
            and (self.needs_sides is None or rules.sides == self.needs_sides)
        )

    def to_json(self) -> dict[str, Any]:
        """``needs``, ``needs_not`` (objects) and ``needs_sides``, each only when it says something."""
        out: dict[str, Any] = {}
        if self.needs:
            out["needs"] = dict(self.needs)
        if self.needs_not:
            out["needs_not"] = dict(self.needs_not)
        if self.needs_sides is not None:
            out["needs_sides"] = self.needs_sides
        return out


ALWAYS = Condition()


@dataclass(frozen=True, slots=True)
class Refusal:
    """A value of an option that is refused unless a condition holds (section 10, rejected
    combinations); ``message`` is the RulesError text, ``{sides}`` filled in."""

    value: OptionValue
    unless: Condition
    message: str


@dataclass(frozen=True, slots=True)
class Option:
    """One option of section 10 as data: its kind, choices and classic default (read from the
    ``Rules`` field, so they are written once), the least number it takes, when it changes
    anything at all, and which of its values are refused in which rule sets. Its English label
    and description live in the web's ``lobby`` catalogue (keys ``option.NAME.label`` and
    ``option.NAME.about``), the one home of option texts."""

    name: str
    type: OptionType
    default: OptionValue
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    matters: Condition = ALWAYS
    refused: tuple[Refusal, ...] = ()

    def check(self, value: Any) -> None:
        """Raise RulesError when a value is not of the option's kind."""
        if self.type == "choice":
            if value not in self.choices:
                raise RulesError(f"{self.name} must be one of {', '.join(self.choices)}, got {quoted(value)}")
        elif self.type == "int":
            if type(value) is not int or (self.minimum is not None and value < self.minimum):
                raise RulesError(f"{self.name} must be a positive whole number of points, got {quoted(value)}")
        elif type(value) is not bool:
            raise RulesError(f"{self.name} must be true or false, got {quoted(value)}")


_HINTS = get_type_hints(Rules)
_DEFAULTS: dict[str, OptionValue] = {
    f.name: f.default for f in dataclasses.fields(Rules) if isinstance(f.default, bool | int | str)
}


def _option(
    name: str, *, minimum: int | None = None, matters: Condition = ALWAYS, refused: tuple[Refusal, ...] = ()
) -> Option:
    """The record of one option, its kind, choices and default taken from the ``Rules`` field."""
    hint = _HINTS[name]
    default = _DEFAULTS[name]
    if get_origin(hint) is Literal:
        return Option(name, "choice", default, get_args(hint), minimum, matters, refused)
    return Option(name, "bool" if hint is bool else "int", default, (), minimum, matters, refused)


OPTIONS: tuple[Option, ...] = (
    _option("royal"),
    _option("royal_ace_high", matters=Condition(needs=(("royal", True),))),
    # Under royal values court cards are numbered and capture by value (5.3).
    _option("court_capture", matters=Condition(needs=(("royal", False),))),
    _option("sweeps"),
    _option(
        "sweeps_cancel",
        matters=Condition(needs=(("sweeps", True),), needs_sides=2),
        refused=(
            Refusal(True, Condition(needs_sides=2), "sweeps_cancel needs exactly two sides, and this game has {sides}"),
        ),
    ),
    _option("capture_must_be_maximal"),
    _option("trail_restriction"),
    _option("owner_may_trail"),
    _option("raise_own_build"),
    _option("table_cards_may_raise"),
    _option("duplicate_value_builds"),
    _option("draw"),
    _option("scoring"),
    _option("target", minimum=1),
    # With spade scoring count_out is refused, so higher_total is the only choice left.
    _option(
        "tiebreak",
        matters=Condition(needs_not=(("scoring", "spade"),)),
        refused=(
            Refusal(
                "count_out",
                Condition(needs_not=(("scoring", "spade"),)),
                "tiebreak count_out counts the standard items one by one, so it cannot be used with spade scoring",
            ),
        ),
    ),
)
"""The options of docs/rules.md section 10, in that table's order (the order positions write them)."""

OPTION_NAMES: tuple[str, ...] = tuple(o.name for o in OPTIONS)
"""The options' names, in the table's order."""


def parse_option(text: str) -> tuple[str, OptionValue]:
    """``name=value`` with value read as a bool, an int or a word: the one way options are written
    as text, by the command line, the record's Options tag and OpenSpiel's parameters. The name and
    the value's kind are left to ``make_rules``, so every writer gets the same errors. Numbers are
    written with the digits 0-9 (``int`` would read ``١١`` as 11): text holding another digit, or a
    number of more than ``NUMBER_DIGITS`` digits, is refused here, quoted by an excerpt.

    >>> parse_option("target=31"), parse_option("sweeps=no"), parse_option("scoring = spade")
    (('target', 31), ('sweeps', False), ('scoring', 'spade'))
    >>> parse_option("target=١١")
    Traceback (most recent call last):
    ...
    cassino.errors.RulesError: option 'target=١١': '١' is not one of the digits 0-9
    """
    if "=" not in text:
        raise RulesError(f"option {excerpt(text)} must be written NAME=VALUE, e.g. sweeps=false")
    refusal = digit_refusal(text)
    if refusal is not None:
        raise RulesError(f"option {excerpt(text)}: {refusal}")
    name, raw = (s.strip() for s in text.split("=", 1))
    low = raw.lower()
    value: OptionValue
    number = ascii_number(raw, huge=-1)
    if low in ("true", "yes", "on"):
        value = True
    elif low in ("false", "no", "off"):
        value = False
    elif number == -1:
        raise RulesError(f"option {excerpt(text)}: a number of more than {NUMBER_DIGITS} digits is too large")
    elif number is not None:
        value = number
    else:
        value = raw
    return name, value


def validate(rules: Rules) -> None:
    """Raise RulesError naming the first option that is wrong, or the rule a combination breaks."""
    if not isinstance(rules.preset, str) or rules.preset not in _PRESET_OPTIONS:
        raise RulesError(f"unknown preset {quoted(rules.preset)}: choose one of {', '.join(_PRESET_OPTIONS)}")
    if type(rules.players) is not int or rules.players not in PLAYER_COUNTS:
        raise RulesError(f"players must be 2, 3 or 4, got {quoted(rules.players)}")
    if type(rules.partnerships) is not bool:
        raise RulesError(f"partnerships must be true or false, got {quoted(rules.partnerships)}")
    for option in OPTIONS:
        option.check(getattr(rules, option.name))
    if rules.partnerships and rules.players != PARTNERSHIP_PLAYERS:
        raise RulesError(f"partnerships need {PARTNERSHIP_PLAYERS} players, not {rules.players}")
    for option in OPTIONS:
        for refusal in option.refused:
            if getattr(rules, option.name) == refusal.value and not refusal.unless.holds(rules):
                raise RulesError(refusal.message.format(sides=rules.sides))


_PRESET_OPTIONS: dict[str, dict[str, Any]] = {
    "classic": {},
    "royal": {"royal": True, "tiebreak": "count_out"},
    "spade": {"scoring": "spade", "target": 61},
    "draw": {"draw": True},
}


def make_rules(preset: str = "classic", **options: Any) -> Rules:
    """A rule set from a preset with any options set on top of it.

    >>> rules = make_rules("royal", players=4, partnerships=True, target=11)
    >>> rules.royal, rules.sides, rules.max_build, rules.target
    (True, 2, 14, 11)
    >>> make_rules("classic", sweeps="yes")
    Traceback (most recent call last):
    ...
    cassino.errors.RulesError: sweeps must be true or false, got 'yes'
    """
    if not isinstance(preset, str) or preset not in _PRESET_OPTIONS:
        raise RulesError(f"unknown preset {quoted(preset)}: choose one of {', '.join(_PRESET_OPTIONS)}")
    for name in options:
        if name not in OPTION_NAMES and name not in ("players", "partnerships"):
            raise RulesError(f"unknown rule option {quoted(name)}: known options are {', '.join(OPTION_NAMES)}")
    merged: dict[str, Any] = {**_PRESET_OPTIONS[preset], **options}
    return Rules(preset=preset, **merged)


PRESETS: dict[str, Rules] = {name: make_rules(name) for name in _PRESET_OPTIONS}
"""The four presets of docs/rules.md section 10, for two players."""
