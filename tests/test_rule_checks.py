"""The named rule checks of ``cassino.checks``: each on scripted positions, and all of them against
the generator on random ones.

A check returns None when its rule allows the move and the exact ``Reason`` when it does not.
The property ties the two copies a rule could have together: for every code of the mover's hand
cards (the trail; captures and builds at every value, with table items drawn from the table),
``state.is_legal(code)`` holds exactly when ``explain.refusals(state, code)`` is empty, i.e. when
every named check, each evaluated on its own, passes; and an illegal move's reason
(``reason_illegal``) is the first check that fails, never a fallback.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cassino import State
from cassino import checks as ck
from cassino.cards import CARD_NAMES, RANK_MASKS, cards_of, parse_card, rank
from cassino.explain import reason_illegal, refusals
from cassino.moves import (
    BUILD,
    CAPTURE,
    TABLE_SHIFT,
    TRAIL,
    VALUE_MASK,
    code_card,
    code_kind,
    code_table,
    encode,
    parse_code,
)
from cassino.partition import vector_of
from cassino.reasons import Cards, Rank, Reason
from cassino.state import Build
from positions import build, scripted_position
from strategies import positions

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def card(name: str) -> int:
    return parse_card(name)


def mask(names: str) -> int:
    """The mask of space-separated card names."""
    out = 0
    for name in names.split():
        out |= 1 << parse_card(name)
    return out


def one(name: str) -> Cards:
    return Cards.one(card(name))


def some(names: str) -> Cards:
    return Cards.of(mask(names))


OWN_EIGHT = [build(["3c", "5d"], 8, 0)]
"""Seat 0 owns an 8-build (docs/rules.md example 9)."""


# ----------------------------------------------------------------------------- any move


def test_hand_over_and_in_hand() -> None:
    state = scripted_position([], [["5h"], ["9s"]])
    assert ck.check_hand_over(state) is None
    assert ck.check_in_hand(state, card("5h")) is None
    assert ck.check_in_hand(state, card("9s")) == Reason.of("not_in_hand", card=one("9s"), seat=0)
    over = State(state.rules, dealer=1, to_move=0, hands=[0, 0], loose=0, builds=(), stock=(), captured=[0, 0])
    assert ck.check_hand_over(over) == Reason.of("hand_over")


# ----------------------------------------------------------------------------- 7.2 the owner's obligation


def test_obligation_binds_the_last_capturing_card() -> None:
    state = scripted_position(["2c", "6d", *OWN_EIGHT], [["8c", "4d"], ["9h", "Kc"]])
    play = Reason.of("last_card_may_not_play", value=8, build=some("3c 5d"), card=one("8c"))
    assert ck.check_obligation(state, card("8c"), mask("2c 6d")) == play
    assert ck.check_obligation(state, card("8c"), 0, trail=True) == Reason.of(
        "last_card_may_not_trail", value=8, build=some("3c 5d"), card=one("8c")
    )
    assert play.text.endswith("unless the move takes that build along (rule 7.2)")
    # Taking the build along, or playing another card, is allowed.
    assert ck.check_obligation(state, card("8c"), mask("3c 5d")) is None
    assert ck.check_obligation(state, card("4d"), mask("2c")) is None
    # The mask the generator reads: the 8-build binds the 8c only.
    owned = ck.owned_builds(state, 0)
    capturers = ck.capturers_of(state.rules)
    assert ck.unkept_builds(capturers, owned, state.hands[0] & ~(1 << card("8c"))) == mask("3c 5d")
    assert ck.unkept_builds(capturers, owned, state.hands[0] & ~(1 << card("4d"))) == 0


def test_obligation_is_free_with_a_second_capturing_card() -> None:
    state = scripted_position(OWN_EIGHT, [["8c", "8h", "4d"], ["9h", "Kc", "Ks"]])
    assert ck.check_obligation(state, card("8c"), 0, trail=True) is None


def test_a_partners_build_binds_nobody_else() -> None:
    state = scripted_position([build(["3c", "5d"], 8, 2)], [["8c", "4d"], ["9h", "Kc"], ["2h", "2s"], ["Qh", "Qs"]])
    assert ck.owned_builds(state, 0) == []
    assert ck.check_obligation(state, card("8c"), 0, trail=True) is None


# ----------------------------------------------------------------------------- 7.1 trailing


def test_an_owner_may_not_trail_unless_the_option_allows() -> None:
    state = scripted_position(OWN_EIGHT, [["8c", "4d"], ["9h", "Kc"]])
    assert ck.check_may_trail(state, 0) == Reason.of("owner_may_not_trail", value=8, build=some("3c 5d"))
    assert ck.check_may_trail(state, 1) is None
    assert not ck.may_trail(state.flags, ck.owned_builds(state, 0))
    free = scripted_position(OWN_EIGHT, [["8c", "4d"], ["9h", "Kc"]], {"owner_may_trail": True})
    assert ck.check_may_trail(free, 0) is None


@pytest.mark.parametrize(
    ("restriction", "can_capture", "expected"),
    [
        ("none", True, None),
        ("no_capturing_card", False, None),
        ("no_capturing_card", True, "trail_can_capture"),
        ("no_rank_match", False, "trail_rank_on_table"),
    ],
)
def test_trail_restriction(restriction: str, can_capture: bool, expected: str | None) -> None:
    state = scripted_position(["5c"], [["5d", "9s"], ["9h", "Kc"]], {"trail_restriction": restriction})
    got = ck.check_trail_restriction(state, card("5d"), can_capture)
    assert got == (None if expected is None else Reason.of(expected, card=one("5d")))
    assert ck.trail_refusal(state, card("5d"), can_capture) == expected
    # A card of another rank meets no loose card of its own.
    assert ck.check_trail_restriction(state, card("9s"), False) is None


# ----------------------------------------------------------------------------- the table items a move names


def test_builds_whole_and_cards_on_the_table() -> None:
    state = scripted_position(["5c", build(["3c", "5d"], 8, 1)], [["8c"], ["9h"]])
    assert ck.check_whole_builds(state, mask("3c")) == Reason.of("build_only_whole", value=8, build=some("3c 5d"))
    assert ck.check_whole_builds(state, mask("3c 5d 5c")) is None
    assert ck.check_on_table(state, mask("5c 3c 5d")) is None
    assert ck.check_on_table(state, mask("9d")) == Reason.of("not_on_table_one", cards=one("9d"))
    assert ck.check_on_table(state, mask("9d 9h")) == Reason.of("not_on_table_many", cards=some("9d 9h"))


def test_a_capture_or_build_takes_something() -> None:
    assert ck.check_takes_something(CAPTURE, 0) == Reason.of("capture_needs_table")
    assert ck.check_takes_something(BUILD, 0) == Reason.of("build_needs_table")
    assert ck.check_takes_something(CAPTURE, 1) is None


# ----------------------------------------------------------------------------- 5 capturing


def test_capture_values() -> None:
    classic = scripted_position(["5c", "Qs"], [["5h", "Qd", "Ad"], ["9h"]])
    assert ck.check_capture_value(classic, card("5h"), 5) is None
    assert ck.check_capture_value(classic, card("Qd"), 0) is None
    assert ck.check_capture_value(classic, card("5h"), 0) == Reason.of("pairing_value_is_number", card=one("5h"))
    assert ck.check_capture_value(classic, card("Qd"), 12) == Reason.of(
        "court_has_no_number", card=one("Qd"), rank=Rank("Q")
    )
    assert ck.check_capture_value(classic, card("5h"), 7) == Reason.of(
        "capture_value", card=one("5h"), allowed=5, value=7
    )
    assert ck.capture_values(classic, card("Ad")) == (1,)
    royal = scripted_position(["5c"], [["Ad", "3c"], ["9h", "9s"]], {"preset": "royal"})
    assert ck.capture_values(royal, card("Ad")) == (1, 14)
    assert ck.check_capture_value(royal, card("Ad"), 14) is None
    assert ck.check_capture_value(royal, card("Ad"), 5) == Reason.of("capture_value_ace", card=one("Ad"), value=5)


@pytest.mark.parametrize(
    ("mode", "table", "taken", "expected"),
    [
        ("one", ["Qs", "Qh"], "Qh", None),
        ("one", ["Qs", "Qh"], "Qh Qs", Reason.of("court_capture_one", card=one("Qd"), rank=Rank("Q"), taken=2)),
        ("all", ["Qs", "Qh"], "Qh Qs", None),
        (
            "all",
            ["Qs", "Qh"],
            "Qh",
            Reason.of("court_capture_all", card=one("Qd"), rank=Rank("Q"), present=2, taken=1),
        ),
        ("one_or_three", ["Qc", "Qh", "Qs"], "Qc Qh Qs", None),
        ("one_or_three", ["Qc", "Qh", "Qs"], "Qs", None),
        (
            "one_or_three",
            ["Qc", "Qh", "Qs"],
            "Qh Qs",
            Reason.of("court_capture_one_or_three", card=one("Qd"), rank=Rank("Q")),
        ),
        ("one", ["Qs", "5c"], "Qs 5c", Reason.of("court_pairs_only")),
    ],
)
def test_court_capture(mode: str, table: list[str], taken: str, expected: Reason | None) -> None:
    state = scripted_position(table, [["Qd"], ["9h"]], {"court_capture": mode})
    assert ck.check_court_capture(state, card("Qd"), 0, mask(taken)) == expected
    same = state.loose & mask("Qc Qh Qs")
    assert (mask(taken) in ck.court_choices(mode, same)) == (expected is None)


def test_court_pairing_never_takes_a_build() -> None:
    state = scripted_position(["Qs", build(["3d", "4c"], 7, 1)], [["Qd"], ["9h"]])
    assert ck.check_court_capture(state, card("Qd"), 0, mask("Qs 3d 4c")) == Reason.of("court_pairs_only")


def test_capture_groups() -> None:
    state = scripted_position(["2h", "Kd", build(["3d", "4c"], 7, 1)], [["9s", "7h"], ["9h", "9c"]])
    assert ck.check_builds_in_sum(state, 9, mask("2h 3d 4c")) == Reason.of("build_not_in_sum", build_value=7, value=9)
    assert ck.check_builds_in_sum(state, 7, mask("3d 4c")) is None
    assert ck.check_loose_numbers(state, 9, mask("Kd")) == Reason.of("loose_court_no_value", card=one("Kd"))
    assert ck.check_loose_numbers(state, 0, mask("Kd")) is None  # a pairing: check_court_capture's business
    table = scripted_position(["Ah", "2d", "3h", "5d", "6c", "8s"], [["8c", "Kd"], ["9h", "9s"]])
    assert ck.check_capture_split(table, 8, mask("8s 6c 2d 5d 3h")) is None
    assert ck.check_capture_split(table, 8, mask("Ah 2d 3h 5d 6c 8s")) == Reason.of(
        "capture_no_split", cards=some("Ah 2d 3h 5d 6c 8s"), value=8
    )


def test_maximal_captures() -> None:
    rules = {"capture_must_be_maximal": True}
    state = scripted_position(["Ac", "2c", "3c", "3d", "4c", "5c"], [["6h"], ["9h"]], rules)
    assert ck.check_capture_maximal(state, card("6h"), 6, mask("Ac 2c 3c")) == Reason.of(
        "capture_not_maximal", card=one("6h"), value=6
    )
    legal = {parse_code(line) for line in ("capture 6h 6: Ac 2c 3c 3d 4c 5c",)}
    for code in legal:
        assert state.is_legal(code)
        assert ck.check_capture_maximal(state, card("6h"), 6, code_table(code)) is None
    free = scripted_position(["Ac", "2c", "3c", "3d", "4c", "5c"], [["6h"], ["9h"]])
    assert ck.check_capture_maximal(free, card("6h"), 6, mask("Ac 2c 3c")) is None
    # Every build of the value goes too, and the loose groups with it.
    builds = scripted_position(["2c", "4d", build(["3c", "3d"], 6, 1)], [["6h"], ["9h"]], rules)
    short = Reason.of("capture_not_maximal", card=one("6h"), value=6)
    assert ck.check_capture_maximal(builds, card("6h"), 6, mask("3c 3d")) == short
    assert ck.check_capture_maximal(builds, card("6h"), 6, mask("2c 4d")) == short
    assert ck.check_capture_maximal(builds, card("6h"), 6, mask("2c 4d 3c 3d")) is None
    assert builds.is_legal("capture 6h 6: 2c 4d 3c 3d") and not builds.is_legal("capture 6h 6: 3c 3d")


# ----------------------------------------------------------------------------- 6 building


def test_build_card_and_value() -> None:
    state = scripted_position(["5c", "Kd"], [["3d", "8h", "Qd"], ["9h", "9s", "9c"]])
    rest = state.hands[0] & ~(1 << card("3d"))
    assert ck.check_card_builds(state, card("Qd")) == Reason.of("court_never_builds", card=one("Qd"))
    assert ck.check_card_builds(state, card("3d")) is None
    assert ck.check_build_value(state, card("3d"), 8, rest) is None
    assert ck.check_build_value(state, card("3d"), 13, rest) == Reason.of("build_value_range", top=10, value=13)
    assert ck.check_build_value(state, card("3d"), 1, rest) == Reason.of("build_value_range", top=10, value=1)
    assert ck.check_build_value(state, card("3d"), 9, rest) == Reason.of("build_keep_card", value=9, card=one("3d"))
    assert ck.check_build_loose(state, mask("5c Kd")) == Reason.of("build_court_card", card=one("Kd"))
    assert ck.check_build_loose(state, mask("5c")) is None
    royal = scripted_position(["Kc"], [["Ah", "3c"], ["9h", "9s"]], {"preset": "royal"})
    assert ck.check_build_value(royal, card("Ah"), 14, mask("3c")) == Reason.of(
        "build_keep_ace", value=14, card=one("Ah")
    )


def test_build_targets_are_the_values_the_check_allows() -> None:
    """The generator's cached targets are the values ``check_build_value`` lets through (at least
    the played card's value), for every card of some hands under every rule family."""
    for preset, hand in (("classic", "3d 3h 8h Td"), ("royal", "Ad 3h Ks Qs"), ("royal", "Ad Ah 7c")):
        state = scripted_position([], [hand.split(), ["9c"]], {"preset": preset, "royal_ace_high": True})
        hand_mask = mask(hand)
        numeral = ck.numeral_cards(state)
        targets = ck.build_targets(vector_of(hand_mask & numeral), state.rules.max_build)
        for c in cards_of(hand_mask & numeral):
            vc = state.values[c]
            rest = hand_mask & ~(1 << c)
            want = tuple(v for v in range(max(2, vc), 16) if ck.check_build_value(state, c, v, rest) is None)
            assert targets[vc] == want, (preset, CARD_NAMES[c])


def test_raises() -> None:
    frozen = scripted_position(
        ["6s", build(["3c", "5d", "8h"], 8, 1)], [["2s", "8c", "8d", "Td"], ["9h", "9s", "9c", "9d"]]
    )
    assert ck.check_raise(frozen, 10, mask("3c 5d 8h")) == Reason.of("build_frozen", value=8, build=some("3c 5d 8h"))
    assert ck.check_raise(frozen, 8, mask("3c 5d 8h")) is None  # joined at its value, not raised
    own = scripted_position(
        [build(["3c", "3d"], 6, 0)], [["2h", "8s", "6d"], ["9h", "9s", "9c"]], {"raise_own_build": False}
    )
    assert ck.check_raise(own, 8, mask("3c 3d")) == Reason.of("own_build_no_raise", value=6)
    assert ck.raise_refusal(own, Build(mask("3c 3d"), 6, 1)) is None  # somebody else's
    assert ck.raise_reason(own, Build(mask("3c 3d"), 6, 0)) == Reason.of("own_build_no_raise", value=6)
    assert ck.build_is_single(Build(mask("3c 3d"), 6, 0))
    assert not ck.build_is_single(Build(mask("3c 5d 8h"), 8, 1))
    two = scripted_position([build(["Ac", "2c"], 3, 1), build(["Ad", "3d"], 4, 1)], [["2h", "6s"], ["9h", "9s"]])
    assert ck.check_one_raise(two, 6, mask("Ac 2c Ad 3d")) == Reason.of("raise_one_build")
    assert ck.check_one_raise(two, 6, mask("Ac 2c")) is None


def test_raise_extra_and_loose_cards() -> None:
    state = scripted_position(["2h", build(["Ac", "4d"], 5, 1)], [["3s", "8c", "Td"], ["9h", "9s", "9c"]])
    assert ck.raise_extra(state.flags, 5, 3, 8) == 0
    assert ck.raise_extra(state.flags, 5, 3, 10) is None
    assert ck.check_raise_loose(state, card("3s"), 10, mask("Ac 2h 4d")) == Reason.of(
        "raise_no_loose", value=5, card=one("3s"), total=8, target=10
    )
    assert ck.check_raise_loose(state, card("3s"), 8, mask("Ac 4d")) is None
    helped = scripted_position(
        ["2h", build(["Ac", "4d"], 5, 1)], [["3s", "8c", "Td"], ["9h", "9s", "9c"]], {"table_cards_may_raise": True}
    )
    assert ck.raise_extra(helped.flags, 5, 3, 10) == 8
    assert ck.check_raise_loose(helped, card("3s"), 10, mask("Ac 2h 4d")) is None
    assert ck.check_build_split(helped, card("3s"), 10, mask("Ac 2h 4d")) is None
    assert helped.is_legal("build 3s 10: Ac 2h 4d")


def test_one_build_per_value() -> None:
    state = scripted_position(["2h", build(["3c", "3d"], 6, 1)], [["4s", "6h"], ["9h", "9s"]])
    assert ck.check_one_build_per_value(state, 6, mask("2h")) == Reason.of(
        "build_value_taken", value=6, build=some("3c 3d")
    )
    assert ck.check_one_build_per_value(state, 6, mask("2h 3c 3d")) is None
    eight = scripted_position(["4h", *OWN_EIGHT], [["8c", "4d"], ["9h", "Kc"]])
    assert ck.check_one_build_per_value(eight, 8, mask("4h")) == Reason.of(
        "build_value_taken_an", value=8, build=some("3c 5d")
    )
    twice = scripted_position(
        ["2h", build(["3c", "3d"], 6, 1)], [["4s", "6h"], ["9h", "9s"]], {"duplicate_value_builds": True}
    )
    assert ck.check_one_build_per_value(twice, 6, mask("2h")) is None
    assert twice.is_legal("build 4s 6: 2h")


def test_build_split() -> None:
    state = scripted_position(["5c"], [["3d", "7h", "8s"], ["9h", "9s", "9c"]])
    assert ck.check_build_split(state, card("3d"), 8, mask("5c")) is None
    assert ck.check_build_split(state, card("3d"), 7, mask("5c")) == Reason.of(
        "build_no_split", card=one("3d"), cards=some("5c"), value=7
    )
    # Five onto five: single (10) needs a ten, multiple (5) is two groups of five.
    fives = scripted_position(["5c"], [["5d", "5h", "Ts"], ["9h", "9s", "9c"]])
    assert ck.check_build_split(fives, card("5d"), 10, mask("5c")) is None
    assert ck.check_build_split(fives, card("5d"), 5, mask("5c")) is None


def test_whole_builds_choices() -> None:
    state = scripted_position(
        [build(["Ac", "2c"], 3, 1), build(["Ad", "2d"], 3, 1), build(["3h", "4h"], 7, 1)], [["3s", "3c"], ["9h"]]
    )
    a, b = mask("Ac 2c"), mask("Ad 2d")
    assert ck.whole_builds(state.builds, 3, True, 0) == (0, a, b, a | b)
    assert ck.whole_builds(state.builds, 3, False, 0) == (a | b,)
    assert ck.whole_builds(state.builds, 3, True, a) == (a, a | b)
    assert ck.whole_builds(state.builds, 5, True, 0) == ck.NO_BUILDS
    assert ck.whole_builds(state.builds, 3, True, mask("3h 4h")) == ()


# ----------------------------------------------------------------------------- the generator and the checks agree


GENERIC = {"trail_not_allowed", "capture_not_allowed"}
"""The explainer's last resorts for codes no move line writes: a move of the property never gets one."""


def items_of(state: State) -> list[int]:
    """The table's items as masks: each loose card, each build whole."""
    return [1 << c for c in cards_of(state.loose)] + [b[0] for b in state.builds]


def check_code(state: State, code: int, legal: set[int]) -> None:
    """``is_legal`` iff no named check refuses; an illegal code's reason is the first refusal."""
    found = refusals(state, code)
    assert state.is_legal(code) == (code in legal) == (not found), (hex(code), [r.code for r in found])
    if found:
        reason = reason_illegal(state, code)
        assert reason == found[0]
        assert reason.code not in GENERIC


@PROPERTY
@given(positions(), st.data())
def test_legal_exactly_when_every_check_passes(state: State, data: st.DataObject) -> None:
    """For each hand card: the trail, and a capture and a build at every value 0..15 with table
    subsets drawn from the table's items (whole builds and loose cards), a raw card subset (builds
    cut in two) and the tables of the card's legal moves; every pairing of a court card; each legal
    move with one table item more or less. ``is_legal`` agrees with the named checks, and the first
    failing check is ``reason_illegal``'s reason."""
    if state.hand_over:
        assert refusals(state, 0)[0] == Reason.of("hand_over")
        return
    legal = set(state.legal_codes())
    items = items_of(state)
    n = len(items)
    picks = data.draw(st.lists(st.integers(0, (1 << n) - 1), min_size=2, max_size=4), label="item subsets")
    subsets = {0, *(sum(items[i] for i in range(n) if p >> i & 1) for p in picks)}
    subsets.add(data.draw(st.integers(0, (1 << 52) - 1), label="raw") & state.table_mask)
    for c in cards_of(state.hands[state.to_move]):
        tables = subsets | {code_table(code) for code in legal if code_card(code) == c}
        check_code(state, encode(TRAIL, c, 0, 0), legal)
        for kind in (CAPTURE, BUILD):
            for value in range(VALUE_MASK + 1):
                for table in tables:
                    check_code(state, encode(kind, c, value, table), legal)
    # A court card's pairings: every set of the loose cards of its rank.
    for c in cards_of(state.hands[state.to_move] & ~ck.numeral_cards(state)):
        same = cards_of(state.loose & RANK_MASKS[rank(c)])
        for k in range(1, 1 << len(same)):
            check_code(state, encode(CAPTURE, c, 0, sum(1 << same[i] for i in range(len(same)) if k >> i & 1)), legal)
    # The near misses of each legal move: one table item more or less, same card, kind and value.
    for code in legal:
        if code_kind(code) == TRAIL:
            continue  # a trail with table cards is no move a line can write
        for item in items:
            check_code(state, code ^ item << TABLE_SHIFT, legal)
