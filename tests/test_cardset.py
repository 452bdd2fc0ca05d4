"""``CardSet``: a set of cards that is still its int mask. It iterates, counts and tests cards as a
set, and every operation it shares with an int gives the int's answer (the same mask), so the
code that reads masks goes on working on the view's card sets unchanged."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cassino import CardError, CardSet
from cassino.cards import CARD_NAMES, DECK_SIZE, FULL_DECK, card_name, cards_of, format_cards, mask_of, parse_card
from cassino.view import public_position, spectator_view, view_of
from crosscheck_support import PRESET_NAMES, random_play

masks = st.integers(0, FULL_DECK)
"""Every set of cards, as its mask."""
outside = st.one_of(st.integers(max_value=-1), st.integers(min_value=FULL_DECK + 1))
"""Ints that are no set of cards: negative, or with bits past the deck."""


@given(masks)
def test_a_set_iterates_counts_and_names_its_cards_as_the_mask_holds_them(mask: int) -> None:
    cards = CardSet(mask)
    assert cards == mask and hash(cards) == hash(mask) and int(cards) == mask
    assert list(cards) == cards_of(mask)
    assert list(reversed(cards)) == cards_of(mask)[::-1]
    assert len(cards) == mask.bit_count()
    assert bool(cards) == bool(mask)
    assert cards.names() == [card_name(c) for c in cards_of(mask)]
    assert str(cards) == f"{cards}" == format_cards(mask)
    assert f"{cards:d}" == str(mask) and f"{cards:x}" == f"{mask:x}"
    for card in range(DECK_SIZE):
        assert (card in cards) == bool(mask >> card & 1) == (CARD_NAMES[card] in cards)


@given(masks)
def test_a_set_is_made_again_from_what_it_shows(mask: int) -> None:
    """Its repr evaluates to it, its str and its cards make it again, and it pickles, copies and
    writes as JSON as its mask does."""
    cards = CardSet(mask)
    assert eval(repr(cards), {"CardSet": CardSet}) == cards
    assert CardSet(str(cards)) == CardSet(list(cards)) == CardSet(cards.names()) == cards
    for again in (pickle.loads(pickle.dumps(cards)), pickle.loads(pickle.dumps(cards, 0)), copy.deepcopy(cards)):
        assert type(again) is CardSet and again == mask
    assert json.dumps([cards]) == json.dumps([mask])


@given(masks, masks)
def test_the_operators_a_set_shares_with_an_int_give_the_ints_mask_as_a_set(a: int, b: int) -> None:
    x, y = CardSet(a), CardSet(b)
    for got, want in (
        (x | y, a | b),
        (x & y, a & b),
        (x ^ y, a ^ b),
        (x | b, a | b),
        (a | y, a | b),
        (x & b, a & b),
        (a & y, a & b),
        (x ^ b, a ^ b),
        (a ^ y, a ^ b),
        (x - y, a & ~b),
        (x - b, a & ~b),
        (a - y, a & ~b),
        (~x, FULL_DECK & ~a),
    ):
        assert type(got) is CardSet and got == want
    # Set difference is int subtraction for a subset, the complement ~ within the deck.
    assert x - (a & b) == a - (a & b)
    assert b & ~x == b & ~a and x & ~b == a & ~b


@given(masks, outside)
def test_an_operand_that_is_no_set_of_cards_gets_the_ints_own_answer(a: int, other: int) -> None:
    """Its result may be no set of cards either: it is the int's, a plain int."""
    x = CardSet(a)
    for got, want in ((x | other, a | other), (other | x, other | a), (x ^ other, a ^ other), (other - x, other - a)):
        assert type(got) is int and got == want
    assert type(x - other) is int and x - other == a - other
    assert type(x & other) is CardSet and x & other == a & other  # a part of the set: still one


def test_arithmetic_and_shifts_stay_the_ints() -> None:
    """Only the set operators are the set's: ``+``, ``<<``, ``>>`` are the int's, as every mask reader expects."""
    x = CardSet("Ac 2c")
    assert type(x + 1) is int and x + 1 == 0b10001 + 1
    assert type(x << 52) is int and x >> 4 & 1 == 1
    assert -x == -(0b10001)
    assert sorted([CardSet("Kd"), CardSet("Ac"), 5]) == [CardSet("Ac"), 5, CardSet("Kd")]


def test_sets_are_made_from_masks_names_and_cards() -> None:
    assert CardSet() == CardSet("") == CardSet([]) == 0
    assert CardSet("Ac 10d kS") == CardSet([0, "Td", parse_card("Ks")]) == mask_of([0, 37, 51])
    assert repr(CardSet("5d Ac")) == "CardSet('Ac 5d')" and repr(CardSet()) == "CardSet()"
    assert repr(CardSet(FULL_DECK)).startswith("CardSet('Ac Ad Ah As 2c") and len(CardSet(FULL_DECK)) == 52


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (-1, "-1 is not a set of cards: a mask is a whole number from 0 to 2**52 - 1"),
        (FULL_DECK + 1, f"{FULL_DECK + 1} is not a set of cards: a mask is a whole number from 0 to 2**52 - 1"),
        (True, "True is not a set of cards: a mask is a whole number from 0 to 2**52 - 1"),
        ("Ac Zz", "'Zz' is not a card: write a rank of A 2 3 4 5 6 7 8 9 T J Q K then a suit of c d h s, e.g. 'Td'"),
        ([0, 52], "52 in [0, 52] is not a card: a card is a number 0..51 or a name like 'Ac'"),
        ([0, None], "None in [0, None] is not a card: a card is a number 0..51 or a name like 'Ac'"),
        (1.5, "1.5 is not a set of cards: give a mask, card names like 'Ac 5d', or cards (float)"),
    ],
)
def test_what_is_no_set_of_cards_is_refused_by_name(given: object, message: str) -> None:
    with pytest.raises(CardError) as refused:
        CardSet(given)  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_in_reads_a_card_number_or_name() -> None:
    """A name that names no card is an error (a typo is not "not there"); a number outside the
    deck, or anything else, is simply not in the set."""
    hand = CardSet("Ac 5d")
    assert "Ac" in hand and "10d" not in hand and 17 in hand and 18 not in hand
    assert 52 not in hand and -1 not in hand and None not in hand and 0.0 not in hand
    with pytest.raises(CardError, match="'Zz' is not a card"):
        _ = "Zz" in hand


def test_an_operand_that_is_no_int_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="unsupported operand"):
        _ = CardSet("Ac") | "2c"  # type: ignore[operator]


def test_every_card_set_of_a_view_is_a_card_set_of_the_positions_masks() -> None:
    """hand, loose, each pile and unseen; a view's public position keeps plain ints."""
    for n, preset in enumerate(PRESET_NAMES):
        for count, (_setup, state) in enumerate(random_play(5 + n, preset)):
            if count == 60:
                break
            for view in [view_of(state, seat) for seat in range(state.players)] + [spectator_view(state)]:
                sets = [view.hand, view.loose, *view.captured, view.unseen]
                assert all(type(s) is CardSet for s in sets)
                assert (view.loose, view.captured) == (state.loose, state.captured)
                assert view.hand == (state.hands[view.seat] if view.seat >= 0 else 0)
                assert list(view.hand) == cards_of(view.hand)
                seen = view.hand | view.loose | mask_of(c for b in view.builds for c in cards_of(b.cards))
                for pile in view.captured:
                    seen |= pile
                assert view.unseen == ~seen
                assert pickle.loads(pickle.dumps(view)) == view
                position = public_position(view)
                assert type(position.loose) is int and all(type(m) is int for m in position.hands + position.captured)
