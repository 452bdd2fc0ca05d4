"""The move generator's compiled flags follow the one option list: every option of ``rules.OPTIONS``
is either read by ``checks.RuleFlags`` or listed in ``checks.OPTIONS_NOT_READ`` with why.

``RuleFlags`` has one ``Final`` field per option the generator reads (a compiled object, so it cannot
be generated from ``OPTIONS``); an option added to ``OPTIONS`` and forgotten there would be silently
ignored by the generator. Which options ``RuleFlags`` reads is found by trying them: an option is
read when, on some rule set, each of its values gives different flags. An option listed as not read
must leave the legal moves of whole random hands unchanged.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

import cassino
from cassino.checks import OPTIONS_NOT_READ, RuleFlags
from cassino.rules import OPTION_NAMES, OPTIONS, PRESETS, Option, Rules, RulesError
from cassino.state import State
from strategies import option_values, seeded_deck


def flag_fields() -> list[str]:
    """The fields of ``RuleFlags``, read from its source (a compiled class keeps no annotations)."""
    tree = ast.parse((Path(cassino.__file__).parent / "checks.py").read_text(encoding="utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RuleFlags"]
    return [n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]


FIELDS = flag_fields()


def flags(rules: Rules) -> tuple[object, ...]:
    """Everything a ``RuleFlags`` holds, comparable."""
    made = RuleFlags(rules)
    return tuple(getattr(made, name) for name in FIELDS)


def bases() -> Iterator[Rules]:
    """The rule sets options are tried on: every preset with every seating."""
    for preset in PRESETS.values():
        for players, partnerships in ((2, False), (3, False), (4, False), (4, True)):
            yield preset.replace(players=players, partnerships=partnerships)


def variants(base: Rules, option: Option) -> list[Rules]:
    """``base`` with each value of ``option`` that the rules accept there."""
    out = []
    for value in option_values(option):
        try:
            out.append(base.replace(**{option.name: value}))
        except RulesError:
            continue
    return out


def read_by_flags(options: Sequence[Option], contents: Callable[[Rules], object] = flags) -> set[str]:
    """The options whose every value, on some rule set, gives ``RuleFlags`` different contents."""
    read = set()
    for option in options:
        for base in bases():
            rule_sets = variants(base, option)
            if len(rule_sets) > 1 and len({contents(rules) for rules in rule_sets}) == len(rule_sets):
                read.add(option.name)
                break
    return read


def unaccounted(names: Sequence[str], read: set[str], not_read: Mapping[str, str]) -> list[str]:
    """Each option that is neither read by ``RuleFlags`` nor listed as not read, each listed one
    that ``RuleFlags`` reads after all, and each listed name that is no option, in words."""
    problems = []
    for name in names:
        if name in read and name in not_read:
            problems.append(f"{name}: RuleFlags reads it, but checks.OPTIONS_NOT_READ lists it as not read")
        elif name not in read and name not in not_read:
            problems.append(
                f"{name}: neither a field of checks.RuleFlags nor in checks.OPTIONS_NOT_READ "
                "(give the generator a field for it, or list it there with why it reads none)"
            )
    problems += [f"{name}: listed in checks.OPTIONS_NOT_READ but no option" for name in not_read if name not in names]
    return problems


def test_every_option_is_read_by_the_flags_or_listed_as_not_read() -> None:
    assert unaccounted(OPTION_NAMES, read_by_flags(OPTIONS), OPTIONS_NOT_READ) == []


def test_the_flags_read_exactly_these_options() -> None:
    """The trial tells the options apart: the ones it finds read are the rule book's move options."""
    assert read_by_flags(OPTIONS) == {
        "royal",
        "royal_ace_high",
        "court_capture",
        "capture_must_be_maximal",
        "trail_restriction",
        "owner_may_trail",
        "raise_own_build",
        "table_cards_may_raise",
        "duplicate_value_builds",
        "draw",
    }


def test_a_new_option_that_the_flags_miss_is_named() -> None:
    """An option added to OPTIONS, with no field and not listed, fails the check by name; so do a
    listed option that the flags read and a listed name that is no option."""
    read = read_by_flags(OPTIONS)
    assert unaccounted((*OPTION_NAMES, "jokers_wild"), read, OPTIONS_NOT_READ) == [
        "jokers_wild: neither a field of checks.RuleFlags nor in checks.OPTIONS_NOT_READ "
        "(give the generator a field for it, or list it there with why it reads none)"
    ]
    lying = {**OPTIONS_NOT_READ, "draw": "says so", "bluff": "no such option"}
    assert unaccounted(OPTION_NAMES, read, lying) == [
        "draw: RuleFlags reads it, but checks.OPTIONS_NOT_READ lists it as not read",
        "bluff: listed in checks.OPTIONS_NOT_READ but no option",
    ]


def test_the_trial_misses_a_flag_that_drops_a_value() -> None:
    """Flags that keep less than every value of an option (court_capture's one_or_three read as
    one) leave it unread, so the check above would name it."""

    def blurred(rules: Rules) -> tuple[object, ...]:
        return tuple("one" if value == "one_or_three" else value for value in flags(rules))

    court = [o for o in OPTIONS if o.name == "court_capture"]
    assert read_by_flags(court) == {"court_capture"}
    assert read_by_flags(court, blurred) == set()


def hand_moves(rules: Rules, seed: int) -> list[list[int]]:
    """The legal moves at every position of a random hand (the moves drawn from ``seed``)."""
    state = State.new_hand(rules, seeded_deck(seed), seed % rules.players)
    rng = random.Random(seed)
    out = []
    while not state.hand_over:
        legal = sorted(state.legal_codes())
        out.append(legal)
        state.push(rng.choice(legal))
    return out


@pytest.mark.parametrize("name", sorted(OPTIONS_NOT_READ))
def test_an_option_not_read_changes_no_move(name: str) -> None:
    """Every value of a listed option gives the same legal moves, position by position."""
    option = next(o for o in OPTIONS if o.name == name)
    tried = 0
    for base in bases():
        rule_sets = variants(base, option)
        if len(rule_sets) < 2:
            continue
        for seed in range(2):
            first = hand_moves(rule_sets[0], seed)
            assert all(hand_moves(rules, seed) == first for rules in rule_sets[1:]), (name, base.describe())
            tried += 1
    assert tried >= 8
