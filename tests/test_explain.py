"""``explain.why_not``: why a card, or a card with a table item, cannot be played, read from the view
of the seat to move; and ``explain_card``, the command line's card query, which gives its reason.

Scripted positions are checked for exact codes and parameters. Random ones (hypothesis, and seeded
random play over every preset) are held to its promise: an entry for every card without a legal
move and for every table item no move of a card uses, nothing else, a specific cause for each, and
the same answer whatever the hidden cards are. ``partition.in_some_group``, the subset sum it asks
whether a loose card lies in a group, is checked against ``splittable`` and against brute force.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cassino import ArgumentError, State
from cassino.cards import card_name, cards_of, parse_card
from cassino.explain import Cards, Reason, WhyNot, build_key, explain_card, item_key, reason_illegal, why_not
from cassino.moves import TRAIL, code_card, code_table, encode
from cassino.partition import UNIT, in_some_group, splittable
from cassino.view import public_position, view_of
from crosscheck_support import PRESET_NAMES, random_play
from positions import build, hand_over_state, mask, scripted_position
from strategies import positions

OWN_EIGHT = [build(["3c", "5d"], 8, 0)]
"""RULES.md example 9: seat 0 owns an 8-build."""


def reason(code: str, **params: Any) -> dict[str, Any]:
    """A reason's JSON, from params given as JSON (cards as lists of names)."""
    made = {k: Cards(tuple(v)) if isinstance(v, list) else v for k, v in params.items()}
    return Reason.of(code, **made).to_json()


def hints(state: State, seat: int = 0) -> dict[str, Any]:
    """``why_not`` of ``seat``'s view as the page is sent it."""
    return why_not(view_of(state, seat)).to_json()


# ----------------------------------------------------------------------------- scripted positions


def test_why_not_a_card_blocked_by_owning_a_build() -> None:
    """Example 9 with a king: the king captures nothing and may not trail, since seat 0 owns the
    8-build; the 8 may only take the build, so the loose 4 is no use to it (no 4 joins it to 8, and
    8 + 4 is too high to build)."""
    state = scripted_position(["4h", *OWN_EIGHT], [["8c", "4d", "Kd"], ["9h", "9s", "9c"]])
    assert hints(state) == {
        "cards": {"Kd": reason("owner_may_not_trail", value=8, build=["3c", "5d"])},
        "table": {"8c": {"4h": reason("capture_no_group", value=8, loose=["4h"], card=["8c"])}},
    }


def test_why_not_the_owners_obligation_on_a_table_card() -> None:
    """The 8 could build 10 with the loose 2 (the ten is kept), but it is the last card that takes
    seat 0's 8-build, so every move of it must take that build along (7.2)."""
    state = scripted_position(["2c", *OWN_EIGHT], [["8c", "Td"], ["9h", "9s"]])
    assert hints(state) == {
        "cards": {"Td": reason("owner_may_not_trail", value=8, build=["3c", "5d"])},
        "table": {"8c": {"2c": reason("last_card_may_not_play", value=8, build=["3c", "5d"], card=["8c"])}},
    }


def test_why_not_table_cards_that_do_not_sum() -> None:
    """On a 5, a 2 would build 7 but no 7 is kept (6.2), and a 9 would need a loose 4 to take it.
    On a 3 and a 9, an 8 finds no 5 for the 3 and cannot take or build with the 9 (17); the jack
    has no value; the king pairs only with a king."""
    state = scripted_position(["5c"], [["2d", "9s"], ["Th", "Ts"]])
    assert hints(state) == {
        "cards": {},
        "table": {
            "2d": {"5c": reason("build_keep_card", value=7, card=["2d"])},
            "9s": {"5c": reason("capture_no_group", value=9, loose=["5c"], card=["9s"])},
        },
    }
    state = scripted_position(["3h", "9h", "Jd"], [["8c", "Kd"], ["Th", "Ts"]])
    assert hints(state)["table"] == {
        "8c": {
            "3h": reason("capture_no_group", value=8, loose=["3h"], card=["8c"]),
            "9h": reason("loose_worth_more", loose=["9h"], card=["8c"], total=17, top=10),
            "Jd": reason("loose_court_no_value", card=["Jd"]),
        },
        "Kd": {"3h": reason("court_pairs_only"), "9h": reason("court_pairs_only"), "Jd": reason("court_pairs_only")},
    }


def test_why_not_a_build_key() -> None:
    """Example 4: the 9 cannot take the 7-build (nor raise it to 16), nor the loose 2 (no 7 loose)."""
    state = scripted_position(["2h", build(["4c", "3d"], 7, 1)], [["9s", "7h"], ["9h", "9c"]])
    key = build_key(mask("3d 4c"))
    assert key == "build:3d 4c"
    assert hints(state) == {
        "cards": {},
        "table": {
            "9s": {
                "2h": reason("capture_no_group", value=9, loose=["2h"], card=["9s"]),
                key: reason("build_not_in_sum", build_value=7, value=9),
            }
        },
    }


def test_why_not_builds_that_cannot_be_raised() -> None:
    """Example 8's frozen multiple build, and a raise that needs a card the hand lacks."""
    state = scripted_position(["6s", build(["3c", "5d", "8h"], 8, 1)], [["2s", "8c", "Td"], ["9h", "9s", "9c"]])
    assert hints(state)["table"] == {
        "Td": {"6s": reason("capture_no_group", value=10, loose=["6s"], card=["Td"]),
               "build:3c 5d 8h": reason("build_not_in_sum", build_value=8, value=10)},
        "8c": {"6s": reason("capture_no_group", value=8, loose=["6s"], card=["8c"])},
    }  # fmt: skip
    state = scripted_position([build(["2c", "3c"], 5, 1)], [["Ac", "4h"], ["9h", "9s"]])
    assert hints(state)["table"] == {
        "Ac": {"build:2c 3c": reason("build_keep_card", value=6, card=["Ac"])},
        "4h": {"build:2c 3c": reason("build_keep_card", value=9, card=["4h"])},
    }


def test_why_not_is_empty_when_the_hand_is_over_and_refuses_another_seat() -> None:
    assert hints(hand_over_state(), 0) == {"cards": {}, "table": {}}
    with pytest.raises(ArgumentError, match="not to move"):
        why_not(view_of(scripted_position(["5c"], [["2d"], ["9h"]]), 1))


def test_the_hints_own_reasons_keep_their_english_sentences() -> None:
    """The three reasons ``why_not`` words beside itself, word for word."""
    state = scripted_position(["3h", "9h"], [["8c"], ["Th"]])
    eight = why_not(view_of(state, 0)).table[parse_card("8c")]
    assert eight[parse_card("3h")].text == "no loose cards make 8 together with 3h, so 8c cannot capture it"
    assert eight[parse_card("9h")].text == (
        "9h is worth more than 8c can capture, and together they make 17, more than a build may be worth (10)"
    )
    nothing = Reason.of("no_move_with", card=Cards.one(parse_card("Kd")), item=Cards.of(mask("Ks")))
    assert nothing.text == "no legal move of Kd takes or joins Ks"


def test_why_not_is_a_typed_value_keyed_by_cards_and_items() -> None:
    """Cards are ints, a loose item is its card and a build item its ``Build``; ``to_json`` names
    them as the page does (``item_key``)."""
    state = scripted_position(["2h", build(["4c", "3d"], 7, 1)], [["9s", "7h"], ["9h", "9c"]])
    got = why_not(view_of(state, 0))
    [seven] = state.builds
    nine, two = parse_card("9s"), parse_card("2h")
    assert got == WhyNot(
        {},
        {
            nine: {
                two: Reason.of("capture_no_group", value=9, loose=Cards.one(two), card=Cards.one(nine)),
                seven: Reason.of("build_not_in_sum", build_value=7, value=9),
            }
        },
    )
    assert [item_key(i) for i in got.table[nine]] == ["2h", "build:3d 4c"]


def test_explain_card_still_explains_a_card() -> None:
    """The command line's card query: what a card can do, or the reason it can do nothing."""
    state = scripted_position(OWN_EIGHT, [["8c", "4d"], ["9h", "Kc"]])
    view = view_of(state, 0)
    assert (
        explain_card(view, "4d") == "4d has no legal move: you own the 8-build (3c 5d), so you may not trail (rule 7.1)"
    )
    assert explain_card(view, "8c") == "8c can: capture 8c 8: 3c 5d"
    assert explain_card(view, "9h") == "9h is not in your hand"
    assert explain_card(view, "xx") is None
    assert explain_card(view, "4d") == f"4d has no legal move: {why_not(view).cards[parse_card('4d')].text}"


# ----------------------------------------------------------------------------- random positions


def items_of(state: State) -> dict[str, int]:
    """Every table item by its key: loose cards by name, builds by ``build_key``."""
    items = {card_name(c): 1 << c for c in cards_of(state.loose)}
    items.update({build_key(b[0]): b[0] for b in state.builds})
    return items


def reshuffled(state: State, seed: int) -> State:
    """The same position with the other seats' hands and the rest of the stock dealt anew from
    their cards together (each hand keeping its size)."""
    seat = state.to_move
    pool = [c for s, h in enumerate(state.hands) if s != seat for c in cards_of(h)] + list(state.remaining_stock)
    random.Random(seed).shuffle(pool)
    other = state.copy()
    hands = list(state.hands)
    at = 0
    for s, h in enumerate(state.hands):
        if s != seat:
            n = h.bit_count()
            hands[s] = sum(1 << c for c in pool[at : at + n])
            at += n
    other.hands = tuple(hands)
    other.stock = state.stock[: state.stock_pos] + tuple(pool[at:])
    return other


@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(0, 2**32 - 1))
def test_why_not_covers_exactly_what_cannot_be_played(state: State, seed: int) -> None:
    """Every hand card without a move has its trail's reason, every (card, item) absent from that
    card's moves has a specific reason, nothing in a legal move is listed, and the hints do not
    change when the hidden cards are dealt differently."""
    if state.hand_over:
        return
    seat = state.to_move
    got = hints(state, seat)
    json.dumps(got)
    used: dict[str, int] = {}
    for code in state.legal_codes():
        name = card_name((code >> 2) & 63)
        used[name] = used.get(name, 0) | code >> 12
    hand = [card_name(c) for c in cards_of(state.hands[seat])]
    assert set(got["cards"]) == {n for n in hand if n not in used}
    for name, data in got["cards"].items():
        assert data == reason_illegal(state, parse_card(name) << 2).to_json()
    expected_table = {}
    for name in hand:
        if name in used:
            absent = {key for key, m in items_of(state).items() if not m & used[name]}
            if absent:
                expected_table[name] = absent
    assert {name: set(d) for name, d in got["table"].items()} == expected_table
    for entries in got["table"].values():
        for data in entries.values():
            assert data["code"] != "no_move_with", data  # always a specific cause
            assert Reason.from_json(data).to_json() == data
    assert hints(reshuffled(state, seed), seat) == got


def test_why_not_on_random_play_of_every_preset() -> None:
    """Seeded random play, 300 positions of each preset (options and seatings drawn per hand): a
    listed card has no legal move and is refused as its trail is on the full position; a listed
    item is used by no legal move of its card; every card without a move and every unused item is
    listed, with a specific cause; the view's public position has the seat's legal moves; and the
    answer is the same when the hidden cards are dealt again."""
    for n, preset in enumerate(PRESET_NAMES):
        for count, (_setup, state) in enumerate(random_play(2024 + n, preset)):
            if count == 300:
                break
            seat = state.to_move
            view = view_of(state, seat)
            got = why_not(view)
            legal = state.legal_codes()
            assert sorted(public_position(view).legal_codes()) == sorted(legal)
            used: dict[int, int] = {}
            for code in legal:
                used[code_card(code)] = used.get(code_card(code), 0) | code_table(code)
            hand = cards_of(state.hands[seat])
            assert list(got.cards) == [c for c in hand if c not in used]
            for card, refusal in got.cards.items():
                assert refusal == reason_illegal(state, encode(TRAIL, card, 0, 0))
            assert list(got.table) == [c for c in hand if c in used and c in got.table]
            for card in hand:
                if card not in used:
                    continue
                unused: list[object] = [x for x in cards_of(state.loose) if not used[card] >> x & 1]
                unused += [b for b in state.builds if not used[card] & b.cards]
                assert list(got.table.get(card, {})) == unused, (preset, state, card)
                assert all(r.code != "no_move_with" for r in got.table.get(card, {}).values())
            assert why_not(view_of(reshuffled(state, count), seat)) == got


# ----------------------------------------------------------------------------- the subset sum


def test_in_some_group_is_the_first_step_of_splittable() -> None:
    """For every vector of up to two cards of each value 1..6 and every value and extra up to 8:
    a card worth ``extra`` lies in a group of ``value`` exactly when ``splittable`` finds a set."""
    for counts in range(3**6):
        vector, c = 0, counts
        for v in range(1, 7):
            vector += (c % 3) * UNIT[v]
            c //= 3
        for value in range(1, 9):
            for extra in range(1, 9):
                assert in_some_group(vector, value, extra) == bool(splittable(vector, value, extra, False))


def test_in_some_group_by_brute_force() -> None:
    """Against every subset of a table of loose numeral values."""
    values = [1, 2, 2, 3, 5, 7, 9]
    vector = sum(UNIT[v] for v in values)
    sums = {sum(s) for k in range(len(values) + 1) for s in combinations(values, k)}
    for value in range(1, 15):
        for extra in range(1, 14):
            assert in_some_group(vector, value, extra) == (extra <= value and value - extra in sums)
