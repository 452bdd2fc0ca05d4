"""The learned players' inputs: exact indices for a known position and move, only what the seat
may see (views that differ only in hidden cards give the same features), and every index inside
the network's input size."""

from __future__ import annotations

import random

from hypothesis import given

from cassino import State
from cassino.cards import DECK_SIZE, parse_card
from cassino.moves import parse_code
from cassino.players import features as f
from cassino.players.heuristic import move_terms
from cassino.view import view_of
from positions import build, scripted_position
from strategies import Deal, deals


def index(block: int, card: str) -> int:
    return block * DECK_SIZE + parse_card(card)


def test_a_known_position_and_its_moves() -> None:
    state = scripted_position(["5h", "3c", build(["2d", "4s"], 6, 1)], [["8s", "6c"], ["9h", "Kd"]], captured=("Ad",))
    view = view_of(state, 0)
    got = f.view_features(view)
    want = {index(f.MINE, "8s"), index(f.MINE, "6c"), index(f.LOOSE, "5h"), index(f.LOOSE, "3c")}
    want |= {index(f.THEIR_BUILD, "2d"), index(f.THEIR_BUILD, "4s"), index(f.THEIR_PILE, "Ad")}
    assert set(got.active) == want and len(got.active) == len(want)
    dense = dict(zip(f.DENSE_NAMES, got.dense, strict=True))
    assert dense["their_cards"] == 1 / 52 and dense["our_cards"] == 0.0
    assert dense["hand"] == 0.5 and dense["next_hand"] == 0.5 and dense["second_hand"] == 0.0
    assert dense["stock"] == len(state.remaining_stock) / 48 and dense["players_3"] == 0.0

    capture = parse_code("capture 8s 8: 5h 3c")
    moved = f.move_features(capture, view.loose, view.builds)
    assert set(moved.active) == {
        index(f.PLAYED, "8s"),
        index(f.TAKEN, "5h"),
        index(f.TAKEN, "3c"),
        f.MOVE_CARD_INPUTS + 1,
    }
    named = dict(zip(f.MOVE_DENSE_NAMES, moved.dense, strict=True))
    assert named["cards_taken"] == 3 / 8 and named["spades_taken"] == 1 / 4 and named["sweep"] == 0.0

    # a build of 14 on the 2d 4s (only its encoding: it need not be legal here)
    a_build = f.move_features(parse_code("build 8s 14: 2d 4s"), view.loose, view.builds)
    assert set(a_build.active) == {
        index(f.PLAYED, "8s"),
        index(f.BUILT, "2d"),
        index(f.BUILT, "4s"),
        f.MOVE_CARD_INPUTS + 2,
        f.VALUE_AT + 12,
    }
    trail = f.move_features(parse_code("trail 6c"), view.loose, view.builds)
    assert set(trail.active) == {index(f.PLAYED, "6c"), f.MOVE_CARD_INPUTS} and sum(trail.dense) == 0.0


def test_a_sweep_is_marked() -> None:
    state = scripted_position(["5h", "3c"], [["8s", "6c"], ["9h", "Kd"]])
    view = view_of(state, 0)
    moved = f.move_features(parse_code("capture 8s 8: 3c 5h"), view.loose, view.builds)
    assert dict(zip(f.MOVE_DENSE_NAMES, moved.dense, strict=True))["sweep"] == 1.0


def other_world(state: State, seat: int, rng: random.Random) -> State:
    """The same position with the cards ``seat`` cannot see (other hands and the stock) dealt
    again among themselves."""
    world = state.copy()
    hidden = [c for other, h in enumerate(state.hands) if other != seat for c in range(DECK_SIZE) if h >> c & 1]
    hidden += list(state.remaining_stock)
    rng.shuffle(hidden)
    hands = list(state.hands)
    for other in range(len(hands)):
        if other != seat:
            n = hands[other].bit_count()
            hands[other] = sum(1 << c for c in hidden[:n])
            hidden = hidden[n:]
    world.hands = tuple(hands)
    return world


@given(deals())
def test_features_see_only_the_seat(deal: Deal) -> None:
    """At every position of a random hand, each seat's features are the same in every world that
    differs only in what it cannot see, and every index is inside the network's inputs."""
    state = deal.start()
    rng = deal.walk()
    while not state.hand_over:
        for seat in range(state.rules.players):
            mine = f.view_features(view_of(state, seat))
            assert all(0 <= i < f.CARD_INPUTS for i in mine.active) and len(mine.dense) == len(f.DENSE_NAMES)
            again = f.view_features(view_of(other_world(state, seat, rng), seat, state.history))
            assert again == mine
        view = view_of(state, state.to_move)
        position, moves = f.decision_features(view)
        assert position == f.view_features(view) and len(moves) == len(view.legal)
        for code, terms, moved in zip(view.legal, move_terms(view), moves, strict=True):
            assert all(0 <= i < f.MOVE_DENSE_AT for i in moved.active)
            assert moved.dense[-3:] == terms and moved.active == f.move_features(code, view.loose, view.builds).active
        state.push(rng.choice(sorted(view.legal)))
