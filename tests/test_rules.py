"""Rule sets (cassino.rules): the presets of RULES.md section 10, options on top of any preset,
the ``rules`` JSON object, and the combinations the rules reject.

The table below is copied from RULES.md by hand on purpose: the engine's own preset table must
agree with the rule book, not with itself.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

from cassino import PRESETS, Rules, RulesError, make_rules
from cassino.rules import OPTION_NAMES
from strategies import rules_st

NA = None
"""A ``-`` cell of the table: the option has no effect in that preset."""

TABLE: dict[str, tuple[Any, Any, Any, Any]] = {
    #                          classic         royal           spade           draw
    "royal": (False, True, False, False),
    "royal_ace_high": (NA, True, NA, NA),
    "court_capture": ("one", NA, "one", "one"),
    "sweeps": (True, True, True, True),
    "sweeps_cancel": (False, False, False, False),
    "capture_must_be_maximal": (False, False, False, False),
    "trail_restriction": ("none", "none", "none", "none"),
    "owner_may_trail": (False, False, False, False),
    "raise_own_build": (True, True, True, True),
    "table_cards_may_raise": (False, False, False, False),
    "duplicate_value_builds": (False, False, False, False),
    "draw": (False, False, False, True),
    "scoring": ("standard", "standard", "spade", "standard"),
    "target": (21, 21, 61, 21),
    "tiebreak": ("higher_total", "count_out", "higher_total", "higher_total"),
}
"""RULES.md section 10, row by row, in the table's order."""

COLUMNS = ("classic", "royal", "spade", "draw")

OTHER_VALUE: dict[str, Any] = {
    "royal": True,
    "royal_ace_high": False,
    "court_capture": "all",
    "sweeps": False,
    "sweeps_cancel": True,
    "capture_must_be_maximal": True,
    "trail_restriction": "no_rank_match",
    "owner_may_trail": True,
    "raise_own_build": False,
    "table_cards_may_raise": True,
    "duplicate_value_builds": True,
    "draw": True,
    "scoring": "spade",
    "target": 35,
    "tiebreak": "count_out",
}
"""For each option, a value different from the classic default."""


def test_option_names_follow_the_table() -> None:
    assert tuple(TABLE) == OPTION_NAMES


def test_the_four_presets() -> None:
    assert set(PRESETS) == set(COLUMNS)
    for name, preset in PRESETS.items():
        assert isinstance(preset, Rules)
        assert preset.preset == name
        assert (preset.players, preset.partnerships) == (2, False)


@pytest.mark.parametrize("column", range(4), ids=COLUMNS)
def test_preset_matches_the_rule_book(column: int) -> None:
    preset = PRESETS[COLUMNS[column]]
    for option, cells in TABLE.items():
        if cells[column] is not NA:
            assert getattr(preset, option) == cells[column], option
    assert make_rules(COLUMNS[column]) == preset


def test_classic_is_the_default() -> None:
    assert Rules() == PRESETS["classic"] == make_rules()


@pytest.mark.parametrize("preset", COLUMNS)
@pytest.mark.parametrize("option", OPTION_NAMES)
def test_every_option_can_be_set_on_top_of_every_preset(preset: str, option: str) -> None:
    """RULES.md 10: any option over any preset; only that option changes."""
    value = OTHER_VALUE[option]
    if getattr(PRESETS[preset], option) == value:
        value = TABLE[option][0]
    extra: dict[str, Any] = {}
    if option == "scoring" and PRESETS[preset].tiebreak == "count_out":
        extra["tiebreak"] = "higher_total"
    if option == "tiebreak" and PRESETS[preset].scoring == "spade":
        with pytest.raises(RulesError, match="count_out"):
            make_rules(preset, tiebreak=value)
        return
    rules = make_rules(preset, **{option: value}, **extra)
    assert getattr(rules, option) == value
    for other in OPTION_NAMES:
        if other != option and other not in extra:
            assert getattr(rules, other) == getattr(PRESETS[preset], other), other
    assert Rules.from_json(rules.to_json()) == rules


# ----------------------------------------------------------------------------- to_json


def test_to_json_of_a_preset_names_only_the_seats() -> None:
    for name in COLUMNS:
        assert make_rules(name).to_json() == {"preset": name, "players": 2, "partnerships": False}
    assert make_rules("spade", players=4, partnerships=True).to_json() == {
        "preset": "spade",
        "players": 4,
        "partnerships": True,
    }


def test_to_json_writes_differing_options_in_table_order() -> None:
    rules = make_rules(
        "royal", tiebreak="higher_total", target=30, sweeps=False, draw=True, royal_ace_high=False, players=3
    )
    assert list(rules.to_json().items()) == [
        ("preset", "royal"),
        ("players", 3),
        ("partnerships", False),
        ("royal_ace_high", False),
        ("sweeps", False),
        ("draw", True),
        ("target", 30),
        ("tiebreak", "higher_total"),
    ]


def test_to_json_drops_options_set_to_the_preset_value() -> None:
    rules = make_rules("spade", scoring="spade", target=61, royal=False, sweeps=True)
    assert rules.to_json() == {"preset": "spade", "players": 2, "partnerships": False}


NO_EFFECT = {("royal_ace_high", False), ("court_capture", True)}
"""(option, royal): options RULES.md lets a writer leave out because they do nothing there."""


@settings(max_examples=300, deadline=None)
@given(rules_st())
def test_to_json_round_trips_and_lists_only_differences(rules: Rules) -> None:
    data = rules.to_json()
    keys = list(data)
    assert keys[:3] == ["preset", "players", "partnerships"]
    options = keys[3:]
    assert options == [o for o in OPTION_NAMES if o in options], "options out of the table's order"
    base = PRESETS[rules.preset]
    differing = [o for o in OPTION_NAMES if getattr(rules, o) != getattr(base, o)]
    assert set(options) <= set(differing)
    for option in differing:
        if (option, rules.royal) not in NO_EFFECT:
            assert data[option] == getattr(rules, option)
    again = Rules.from_json(data)
    for option in ("players", "partnerships", *OPTION_NAMES):
        if (option, rules.royal) not in NO_EFFECT:
            assert getattr(again, option) == getattr(rules, option)


# ----------------------------------------------------------------------------- rejections


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"sweeps_cancel": True, "players": 3}, "sweeps_cancel"),
        ({"sweeps_cancel": True, "players": 4}, "sweeps_cancel"),
        ({"scoring": "spade", "tiebreak": "count_out"}, "count_out"),
        ({"partnerships": True}, "partnerships"),
        ({"partnerships": True, "players": 3}, "partnerships"),
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"court_capture": "both"}, "court_capture"),
        ({"trail_restriction": "never"}, "trail_restriction"),
        ({"scoring": "royal"}, "scoring"),
        ({"tiebreak": "sudden_death"}, "tiebreak"),
        ({"target": 0}, "target"),
        ({"target": "21"}, "target"),
        ({"sweeps": 1}, "sweeps"),
        ({"sweep": True}, "sweep"),
        ({"jokers": True}, "jokers"),
    ],
)
def test_rejected_options_are_named(options: dict[str, Any], named: str) -> None:
    with pytest.raises(RulesError, match=named):
        make_rules("classic", **options)
    with pytest.raises(RulesError, match=named):
        Rules.from_json({"preset": "classic", **options})


def test_royal_preset_with_spade_scoring_is_rejected() -> None:
    """The royal preset's count_out cannot stay with spade scoring."""
    with pytest.raises(RulesError, match="count_out"):
        make_rules("royal", scoring="spade")
    assert make_rules("royal", scoring="spade", tiebreak="higher_total").scoring == "spade"


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="poker"):
        make_rules("poker")
    with pytest.raises(RulesError, match="poker"):
        Rules.from_json({"preset": "poker"})


def test_direct_construction_is_validated() -> None:
    with pytest.raises(RulesError, match="partnerships"):
        Rules(partnerships=True)
    with pytest.raises(RulesError, match="sweeps_cancel"):
        PRESETS["classic"].replace(players=3, sweeps_cancel=True)


def test_accepted_combinations() -> None:
    assert make_rules("classic", players=4, partnerships=True, sweeps_cancel=True).sides == 2
    assert make_rules("draw", tiebreak="count_out").tiebreak == "count_out"
    assert make_rules("spade", players=3).sides == 3


# ----------------------------------------------------------------------------- derived facts


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_deals_per_hand(players: int, deals: int) -> None:
    """RULES.md 3: 6, 4 or 3 deals a hand; one under draw."""
    assert make_rules(players=players).deals_per_hand == deals
    assert make_rules("draw", players=players).deals_per_hand == 1
    assert 4 * players * deals + 4 == 52


def test_sides_and_teams() -> None:
    """Partnerships: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    rules = make_rules(players=4, partnerships=True)
    assert rules.sides == 2
    assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    alone = make_rules(players=4)
    assert alone.sides == 4 and [alone.side_of(s) for s in range(4)] == [0, 1, 2, 3]


def test_highest_build_value() -> None:
    """RULES.md 6.1: 10 classic, 13 royal, 14 royal with a high ace."""
    assert make_rules("classic").max_build == 10
    assert make_rules("royal").max_build == 14
    assert make_rules("royal", royal_ace_high=False).max_build == 13
