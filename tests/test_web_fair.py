"""Deck commitments: the exact byte format, verification, and tampering caught."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cassino.web.fair import commitment, deck_text, new_salt, parse_deck, secure_deck, verify

SALT = "00" * 31 + "ff"


def test_commitment_is_sha256_of_salt_then_deck_text() -> None:
    deck = list(range(52))
    text = deck_text(deck)
    assert text.startswith("Ac Ad Ah As 2c ") and text.endswith(" Ks") and len(text.split(" ")) == 52
    expected = hashlib.sha256((SALT + text).encode("ascii")).hexdigest()
    assert commitment(SALT, deck) == expected
    assert verify(expected, SALT, text)


def test_tampering_is_caught() -> None:
    deck = secure_deck()
    salt = new_salt()
    commit = commitment(salt, deck)
    swapped = list(deck)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not verify(commit, salt, deck_text(swapped))
    assert not verify(commit, new_salt(), deck_text(deck))
    assert verify(commit.upper(), salt, deck_text(deck))


def test_salts_and_decks_are_fresh() -> None:
    salts = {new_salt() for _ in range(50)}
    assert len(salts) == 50 and all(len(s) == 64 and int(s, 16) >= 0 for s in salts)
    decks = {tuple(secure_deck()) for _ in range(50)}
    assert len(decks) == 50 and all(sorted(d) == list(range(52)) for d in decks)


@given(st.integers(min_value=0, max_value=2**64))
def test_any_deck_round_trips_and_verifies(seed: int) -> None:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    salt = f"{seed:064x}"
    assert parse_deck(deck_text(deck)) == deck
    assert verify(commitment(salt, deck), salt, deck_text(deck))


@pytest.mark.parametrize(
    ("text", "why"),
    [("Ac Ac " + deck_text(list(range(2, 52))), "exactly once"), ("Xx", "not a card"), ("Ac Ad", "exactly once")],
)
def test_bad_decks_are_refused(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_deck(text)
