"""Rules: every option of the rule book as one frozen value, the presets, and their validation.

Variants are data, not code: the engine reads these fields, so any option can be set on top of
any preset and a combination is checked once, here, rather than at every move.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

CourtCapture = Literal["one", "all", "one_or_three"]
TrailRestriction = Literal["none", "no_capturing_card", "no_rank_match"]
Scoring = Literal["standard", "spade"]
Tiebreak = Literal["higher_total", "count_out"]

COURT_CAPTURES: tuple[str, ...] = ("one", "all", "one_or_three")
TRAIL_RESTRICTIONS: tuple[str, ...] = ("none", "no_capturing_card", "no_rank_match")
SCORINGS: tuple[str, ...] = ("standard", "spade")
TIEBREAKS: tuple[str, ...] = ("higher_total", "count_out")


class RulesError(ValueError):
    """Options that name nothing, have a wrong type, or combine in a way the rules reject."""


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
        """A copy with some options changed (validated like any rule set)."""
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
        if preset not in PRESETS:
            raise RulesError(f"unknown preset {preset!r}: choose one of {', '.join(PRESETS)}")
        unknown = [k for k in data if k not in ("preset", "players", "partnerships") and k not in OPTION_NAMES]
        if unknown:
            raise RulesError(f"unknown rule option {unknown[0]!r}: known options are {', '.join(OPTION_NAMES)}")
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


OPTION_NAMES: tuple[str, ...] = (
    "royal",
    "royal_ace_high",
    "court_capture",
    "sweeps",
    "sweeps_cancel",
    "capture_must_be_maximal",
    "trail_restriction",
    "owner_may_trail",
    "raise_own_build",
    "table_cards_may_raise",
    "duplicate_value_builds",
    "draw",
    "scoring",
    "target",
    "tiebreak",
)
"""The options of RULES.md section 10, in that table's order (the order positions write them)."""

_CHOICES: dict[str, tuple[str, ...]] = {
    "court_capture": COURT_CAPTURES,
    "trail_restriction": TRAIL_RESTRICTIONS,
    "scoring": SCORINGS,
    "tiebreak": TIEBREAKS,
}


def validate(rules: Rules) -> None:
    """Raise RulesError naming the first option that is wrong, or the rule a combination breaks."""
    if rules.preset not in _PRESET_OPTIONS:
        raise RulesError(f"unknown preset {rules.preset!r}: choose one of {', '.join(_PRESET_OPTIONS)}")
    if type(rules.players) is not int or rules.players not in (2, 3, 4):
        raise RulesError(f"players must be 2, 3 or 4, got {rules.players!r}")
    for name in ("partnerships", *OPTION_NAMES):
        value = getattr(rules, name)
        if name in _CHOICES:
            if value not in _CHOICES[name]:
                raise RulesError(f"{name} must be one of {', '.join(_CHOICES[name])}, got {value!r}")
        elif name == "target":
            if type(value) is not int or value < 1:
                raise RulesError(f"target must be a positive whole number of points, got {value!r}")
        elif type(value) is not bool:
            raise RulesError(f"{name} must be true or false, got {value!r}")
    if rules.partnerships and rules.players != 4:
        raise RulesError(f"partnerships need 4 players, not {rules.players}")
    if rules.sweeps_cancel and rules.sides != 2:
        raise RulesError(f"sweeps_cancel needs exactly two sides, and this game has {rules.sides}")
    if rules.tiebreak == "count_out" and rules.scoring == "spade":
        raise RulesError(
            "tiebreak count_out counts the standard items one by one, so it cannot be used with spade scoring"
        )


_PRESET_OPTIONS: dict[str, dict[str, Any]] = {
    "classic": {},
    "royal": {"royal": True, "tiebreak": "count_out"},
    "spade": {"scoring": "spade", "target": 61},
    "draw": {"draw": True},
}


def make_rules(preset: str = "classic", **options: Any) -> Rules:
    """A rule set from a preset with any options set on top of it."""
    if preset not in _PRESET_OPTIONS:
        raise RulesError(f"unknown preset {preset!r}: choose one of {', '.join(_PRESET_OPTIONS)}")
    for name in options:
        if name not in OPTION_NAMES and name not in ("players", "partnerships"):
            raise RulesError(f"unknown rule option {name!r}: known options are {', '.join(OPTION_NAMES)}")
    merged: dict[str, Any] = {**_PRESET_OPTIONS[preset], **options}
    return Rules(preset=preset, **merged)


PRESETS: dict[str, Rules] = {name: make_rules(name) for name in _PRESET_OPTIONS}
"""The four presets of RULES.md section 10, for two players."""
