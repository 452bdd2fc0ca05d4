"""The lobby's data: the option schema of cassino.rules, what ``/api/config`` builds from it, and
the ``lobby`` catalogues every key of it names.

Relevance is data the page evaluates without code per option; ``page_relevant`` below is that
evaluation written once more, the way the page does it, and checked against the engine: an option
said not to matter is changed and the games played must not change.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any, get_args

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("babel")

from babel.messages.pofile import read_po
from hypothesis import given, settings

from cassino import Game, Rules, RulesError, make_rules
from cassino.rules import OPTION_NAMES, OPTIONS, PRESETS, CourtCapture, Scoring, Tiebreak, TrailRestriction
from cassino.web.i18n import LANGUAGES, catalogue, check_catalogues, placeholders, po_path
from cassino.web.page_config import config, table_players
from strategies import rules_st

CONFIG = config()
BY_NAME: dict[str, dict[str, Any]] = {o["name"]: o for o in CONFIG["options"]}


def sides_of(rules: dict[str, Any]) -> int:
    return 2 if rules["partnerships"] else int(rules["players"])


def page_relevant(option: dict[str, Any], values: dict[str, Any], sides: int) -> bool:
    """What the page does with an option's ``needs``, ``needs_not`` and ``needs_sides``."""
    if any(values[k] != v for k, v in option.get("needs", {}).items()):
        return False
    if any(values[k] == v for k, v in option.get("needs_not", {}).items()):
        return False
    return "needs_sides" not in option or sides == option["needs_sides"]


def page_refused(option: dict[str, Any], values: dict[str, Any], sides: int) -> bool:
    """What the page does with an option's ``refused`` list: the value set, the condition failing."""
    return any(
        values[option["name"]] == r["value"] and not page_relevant(r["unless"], values, sides)
        for r in option["refused"]
    )


def values_of(rules: Rules) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in OPTION_NAMES}


# ----------------------------------------------------------------------------- the schema


def test_the_schema_covers_every_option_of_rules_in_order() -> None:
    fields = [f.name for f in dataclasses.fields(Rules) if f.name not in ("preset", "players", "partnerships")]
    assert [o.name for o in OPTIONS] == list(OPTION_NAMES) == fields
    assert OPTION_NAMES == (
        "royal", "royal_ace_high", "court_capture", "sweeps", "sweeps_cancel", "capture_must_be_maximal",
        "trail_restriction", "owner_may_trail", "raise_own_build", "table_cards_may_raise",
        "duplicate_value_builds", "draw", "scoring", "target", "tiebreak",
    )  # fmt: skip


def test_the_schema_types_choices_and_classic_defaults() -> None:
    kinds = {o.name: (o.type, o.choices, o.default) for o in OPTIONS}
    assert kinds["court_capture"] == ("choice", get_args(CourtCapture), "one")
    assert kinds["trail_restriction"] == ("choice", get_args(TrailRestriction), "none")
    assert kinds["scoring"] == ("choice", get_args(Scoring), "standard")
    assert kinds["tiebreak"] == ("choice", get_args(Tiebreak), "higher_total")
    assert kinds["target"] == ("int", (), 21)
    assert [o.name for o in OPTIONS if o.type == "bool"] == [
        "royal", "royal_ace_high", "sweeps", "sweeps_cancel", "capture_must_be_maximal", "owner_may_trail",
        "raise_own_build", "table_cards_may_raise", "duplicate_value_builds", "draw",
    ]  # fmt: skip
    assert {o.name: o.default for o in OPTIONS} == values_of(Rules())
    assert [o.minimum for o in OPTIONS if o.minimum is not None] == [1]


# ----------------------------------------------------------------------------- config: presets, seats, players


def test_config_presets_in_order_with_their_values() -> None:
    presets = CONFIG["presets"]
    assert [p["name"] for p in presets] == ["classic", "royal", "spade", "draw"]
    for p in presets:
        assert p["label"] == f"preset.{p['name']}.name" and p["about"] == f"preset.{p['name']}.about"
        assert p["options"] == values_of(PRESETS[p["name"]])
        assert list(p["options"]) == list(OPTION_NAMES)
    changed = {p["name"]: {k: v for k, v in p["options"].items() if v != values_of(Rules())[k]} for p in presets}
    assert changed == {
        "classic": {},
        "royal": {"royal": True, "tiebreak": "count_out"},
        "spade": {"scoring": "spade", "target": 61},
        "draw": {"draw": True},
    }


def test_config_seats_and_players() -> None:
    assert CONFIG["seats"] == {"players": [2, 3, 4], "default": 2, "partnerships_players": 4}
    assert (
        CONFIG["players"]
        == table_players()
        == [
            {"name": n, "label": f"player.{n}.name", "about": f"player.{n}.about"}
            for n in ("beginner", "novice", "casual", "club", "expert", "master")
        ]
    )  # the ladder of levels, gentlest first; the engines under them are for the API only


def test_config_options_exact_entries() -> None:
    assert [o["name"] for o in CONFIG["options"]] == list(OPTION_NAMES)
    assert BY_NAME["sweeps_cancel"] == {
        "name": "sweeps_cancel",
        "type": "bool",
        "label": "option.sweeps_cancel.label",
        "about": "option.sweeps_cancel.about",
        "choices": [],
        "choice_labels": {},
        "default": False,
        "defaults": {"classic": False, "royal": False, "spade": False, "draw": False},
        "needs": {"sweeps": True},
        "needs_sides": 2,
        "refused": [{"value": True, "unless": {"needs_sides": 2}, "reason": "option.sweeps_cancel.refused.true"}],
    }
    assert BY_NAME["tiebreak"] == {
        "name": "tiebreak",
        "type": "choice",
        "label": "option.tiebreak.label",
        "about": "option.tiebreak.about",
        "choices": ["higher_total", "count_out"],
        "choice_labels": {
            "higher_total": "option.tiebreak.choice.higher_total",
            "count_out": "option.tiebreak.choice.count_out",
        },
        "default": "higher_total",
        "defaults": {"classic": "higher_total", "royal": "count_out", "spade": "higher_total", "draw": "higher_total"},
        "needs_not": {"scoring": "spade"},
        "refused": [
            {
                "value": "count_out",
                "unless": {"needs_not": {"scoring": "spade"}},
                "reason": "option.tiebreak.refused.count_out",
            }
        ],
    }
    target = BY_NAME["target"]
    assert (target["type"], target["min"], target["default"]) == ("int", 1, 21)
    assert target["defaults"] == {"classic": 21, "royal": 21, "spade": 61, "draw": 21}
    conditions = {
        o["name"]: {k: o[k] for k in ("needs", "needs_not", "needs_sides") if k in o} for o in CONFIG["options"]
    }
    assert {k: v for k, v in conditions.items() if v} == {
        "royal_ace_high": {"needs": {"royal": True}},
        "court_capture": {"needs": {"royal": False}},
        "sweeps_cancel": {"needs": {"sweeps": True}, "needs_sides": 2},
        "tiebreak": {"needs_not": {"scoring": "spade"}},
    }


# ----------------------------------------------------------------------------- relevance


def irrelevant(preset: str, players: int = 2, partnerships: bool = False, **options: Any) -> set[str]:
    values = {**CONFIG["presets"][[p["name"] for p in CONFIG["presets"]].index(preset)]["options"], **options}
    sides = sides_of({"players": players, "partnerships": partnerships})
    return {o["name"] for o in CONFIG["options"] if not page_relevant(o, values, sides)}


def test_what_does_not_matter_in_each_preset() -> None:
    """RULES.md 10's preset table marks royal_ace_high and court_capture "(no effect)"; with spade
    scoring the tie-break has one allowed value left."""
    assert irrelevant("classic") == {"royal_ace_high"}
    assert irrelevant("royal") == {"court_capture"}
    assert irrelevant("spade") == {"royal_ace_high", "tiebreak"}
    assert irrelevant("draw") == {"royal_ace_high"}


def test_what_does_not_matter_with_seats_and_options() -> None:
    assert irrelevant("classic", players=3) == {"royal_ace_high", "sweeps_cancel"}
    assert irrelevant("classic", players=4) == {"royal_ace_high", "sweeps_cancel"}
    assert irrelevant("classic", players=4, partnerships=True) == {"royal_ace_high"}
    assert irrelevant("classic", sweeps=False) == {"royal_ace_high", "sweeps_cancel"}
    assert irrelevant("royal", royal=False) == {"royal_ace_high"}
    assert irrelevant("classic", royal=True) == {"court_capture"}
    assert irrelevant("royal", scoring="spade", tiebreak="higher_total") == {"court_capture", "tiebreak"}


@settings(max_examples=300, deadline=None)
@given(rules_st())
def test_the_page_evaluates_relevance_as_the_engine_does(rules: Rules) -> None:
    values = values_of(rules)
    for option in OPTIONS:
        assert page_relevant(BY_NAME[option.name], values, rules.sides) == option.matters.holds(rules), option.name
        assert not page_refused(BY_NAME[option.name], values, rules.sides), option.name


REFUSED: list[tuple[int, dict[str, Any], str, str]] = [
    (3, {"sweeps_cancel": True}, "sweeps_cancel", "sweeps_cancel needs exactly two sides, and this game has 3"),
    (4, {"sweeps_cancel": True}, "sweeps_cancel", "sweeps_cancel needs exactly two sides, and this game has 4"),
    (2, {"scoring": "spade", "tiebreak": "count_out"}, "tiebreak", "tiebreak count_out counts the standard items"),
]


@pytest.mark.parametrize(("players", "options", "refused", "message"), REFUSED)
def test_refused_values_are_refused_by_the_engine_too(
    players: int, options: dict[str, Any], refused: str, message: str
) -> None:
    values = {**values_of(Rules()), **options}
    sides = sides_of({"players": players, "partnerships": False})
    assert [o["name"] for o in CONFIG["options"] if page_refused(o, values, sides)] == [refused]
    with pytest.raises(RulesError, match=message):
        make_rules("classic", players=players, **options)


def play_out(rules: Rules, seed: int) -> list[tuple[list[str], tuple[int, ...]]]:
    """A one-hand game with random moves from a seed: every position's legal moves and the scores."""
    game = Game(rules.replace(target=1), seed=seed)
    rng = random.Random(seed)
    seen = []
    while not game.over:
        legal = game.legal_moves()
        seen.append(([str(m) for m in legal], game.scores))
        game.play(rng.choice(legal))
    seen.append(([], game.scores))
    return seen


@pytest.mark.parametrize(
    ("preset", "fixed", "option", "other"),
    [
        ("classic", {}, "royal_ace_high", False),
        ("draw", {}, "royal_ace_high", False),
        ("royal", {}, "court_capture", "all"),
        ("royal", {}, "court_capture", "one_or_three"),
        ("classic", {"sweeps": False}, "sweeps_cancel", True),
    ],
)
def test_an_option_that_does_not_matter_changes_no_game(
    preset: str, fixed: dict[str, Any], option: str, other: Any
) -> None:
    """Where config says an option changes nothing, games with either value are the same games."""
    rules = make_rules(preset, **fixed)
    assert option in irrelevant(preset, **fixed)
    changed = rules.replace(**{option: other})
    for seed in range(6):
        assert play_out(rules, seed) == play_out(changed, seed)


def test_an_option_that_matters_does_change_games() -> None:
    """The counter-check: the same comparison tells a relevant option apart."""
    rules = make_rules("royal")
    assert "royal_ace_high" not in irrelevant("royal")
    changed = rules.replace(royal_ace_high=False)
    assert any(play_out(rules, seed) != play_out(changed, seed) for seed in range(6))


# ----------------------------------------------------------------------------- the catalogue


def config_keys(cfg: dict[str, Any]) -> set[str]:
    """Every catalogue key config names."""
    keys = set()
    for p in cfg["presets"]:
        keys |= {p["label"], p["about"]}
    for o in cfg["options"]:
        keys |= {o["label"], o["about"], *o["choice_labels"].values(), *(r["reason"] for r in o["refused"])}
    for p in cfg["players"]:
        keys |= {p["label"], p["about"]}
    return keys


def domain_keys(language: str, domain: str) -> dict[str, str]:
    path: Path = po_path(language, domain)
    with path.open("rb") as f:
        po = read_po(f, locale=language, domain=domain)
    return {str(m.id): str(m.string) for m in po if m.id}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_of_config_is_in_the_lobby_catalogue(language: str) -> None:
    lobby = domain_keys(language, "lobby")
    assert set(lobby) == config_keys(CONFIG)  # every key used, none left over
    assert all(text.strip() and not placeholders(text) for text in lobby.values())
    assert {k: v for k, v in catalogue(language).items() if k in lobby} == lobby


def test_lobby_texts_are_real_translations() -> None:
    en, de, id_ = (domain_keys(lang, "lobby") for lang in LANGUAGES)
    assert en["option.royal_ace_high.label"] == "Ace may count 14"
    assert de["player.casual.name"] == "Gelegenheitsspieler" and id_["preset.spade.name"] == "Kasino Sekop"
    same = {k for k in en if en[k] == de[k] or en[k] == id_[k]}
    assert same == {"preset.royal.name"}  # "Royal Casino" in German too
    assert not [p for p in check_catalogues() if "'option." in p or "'preset." in p or "'player." in p]
