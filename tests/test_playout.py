"""Random playouts (cassino.playout) and the deck they deal: the compiled loop makes exactly the
moves of the same loop written over the public API, every hand ends scored, and the dealing
shuffle is ``random.shuffle`` step for step."""

from __future__ import annotations

import random
import secrets

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cassino.cards import DECK_SIZE, shuffled_deck
from cassino.moves import MoveCode
from cassino.playout import playout, random_choice, random_hands
from cassino.rules import Rules, make_rules
from cassino.scoring import expected_checksum
from cassino.state import State


def _by_hand(state: State, rng: random.Random) -> list[MoveCode]:
    """The playout written over the public API: each move uniform over ``legal_codes`` from
    ``rng.random()``, checked by ``play``."""
    moves = []
    while not state.hand_over:
        codes = state.legal_codes()
        code = codes[int(rng.random() * len(codes))]
        state.play(code)
        moves.append(code)
    return moves


@pytest.mark.parametrize(
    ("preset", "players", "partnerships"),
    [("classic", 2, False), ("royal", 3, False), ("spade", 4, True), ("draw", 2, False)],
)
def test_a_playout_makes_the_moves_of_the_same_loop_over_the_api(preset: str, players: int, partnerships: bool) -> None:
    rules = make_rules(preset, players=players, partnerships=partnerships)
    for seed in range(4):
        deck = shuffled_deck(random.Random(seed))
        state = State.new_hand(rules, deck, seed % players)
        played = playout(state, random.Random(seed))
        again = State.new_hand(rules, deck, seed % players)
        assert state.move_stack == _by_hand(again, random.Random(seed))
        assert played == len(state.move_stack) == again.moves_played
        assert state.hand_over and state.key() == again.key()
        assert state.result is not None and state.result.checksum == expected_checksum(rules, state.result)


def test_a_finished_hand_plays_no_move() -> None:
    state = State.new_hand(Rules(), shuffled_deck(random.Random(3)))
    playout(state, random.Random(3))
    before = state.key()
    assert playout(state, random.Random(4)) == 0 and state.key() == before


def test_random_hands_deals_from_one_seed_with_dealers_in_turn() -> None:
    rules = make_rules("classic", players=3)
    rng = random.Random(21)
    want = 0
    for hand in range(5):
        state = State.new_hand(rules, shuffled_deck(rng), hand % 3)
        want += len(_by_hand(state, rng))
    assert random_hands(rules, 5, 21) == want
    assert random_hands(rules, 0, 21) == 0


def test_random_hands_refuses_a_negative_count() -> None:
    with pytest.raises(ValueError, match="hands must be 0 or more, got -1"):
        random_hands(Rules(), -1, 0)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=1, max_value=60))
def test_random_choice_is_an_index_in_range(seed: int, size: int) -> None:
    rng = random.Random(seed)
    twin = random.Random(seed)
    codes = list(range(100, 100 + size))
    assert random_choice(rng, codes) == codes[int(twin.random() * size)]


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=0, max_value=2**128))
def test_the_deck_is_random_shuffle_step_for_step(seed: int) -> None:
    rng, twin = random.Random(seed), random.Random(seed)
    deck = list(range(DECK_SIZE))
    twin.shuffle(deck)
    assert shuffled_deck(rng) == deck
    assert rng.getstate() == twin.getstate()  # the same draws, so later decks match too


def test_other_generators_shuffle_by_their_own_shuffle() -> None:
    class Counted(random.Random):
        shuffles = 0

        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            Counted.shuffles += 1
            super().shuffle(x)

    deck = shuffled_deck(Counted(5))
    assert Counted.shuffles == 1 and sorted(deck) == list(range(DECK_SIZE))
    assert sorted(shuffled_deck(secrets.SystemRandom())) == list(range(DECK_SIZE))
