"""The batch self-play loop (arena.play_hands): reproducible, its moves replay to its points, every
deck played in each rotation when mirrored, and a player's illegal move refused by name."""

from __future__ import annotations

import random

import pytest

from cassino.arena import Batch, play_hands
from cassino.cards import shuffled_deck
from cassino.players.base import make_player
from cassino.players.errors import PlayerFaultError
from cassino.rules import Rules, make_rules
from cassino.state import State
from cassino.view import View


def _batch(
    preset: str = "classic", players: int = 2, hands: int = 6, mirror: bool = False, partnerships: bool = False
) -> Batch:
    rules = make_rules(preset, players=players, partnerships=partnerships)
    seats = [make_player(("greedy", "random", "heuristic", "random")[i], seed=i) for i in range(players)]
    return play_hands(rules, seats, hands, seed=11, mirror=mirror)


def test_the_same_seed_gives_the_same_batch() -> None:
    a, b = _batch(), _batch()
    assert a.points == b.points
    assert a.codes.tolist() == b.codes.tolist()
    assert a.starts.tolist() == b.starts.tolist()
    assert a.hands == 6 and a.seats == ("greedy", "random")
    assert a.codes.typecode == "Q" and len(a.codes) == a.starts[-1]


@pytest.mark.parametrize(
    ("preset", "players", "partnerships"), [("classic", 2, False), ("royal", 3, False), ("spade", 4, True)]
)
def test_each_hand_replays_to_its_points(preset: str, players: int, partnerships: bool) -> None:
    batch = _batch(preset, players, hands=4, mirror=True, partnerships=partnerships)
    rules = batch.rules
    rng = random.Random(11)
    hand = 0
    for deal in range(4):
        deck = shuffled_deck(rng)
        for rotation in range(players):
            assert batch.rotations[hand] == rotation
            state = State.new_hand(rules, deck, deal % players)
            for code in batch.hand_codes(hand):
                assert state.is_legal(code)
                state.push(code)
            assert state.hand_over and state.result is not None
            by_player = tuple(state.result.points[rules.side_of((p + rotation) % players)] for p in range(players))
            assert batch.points[hand] == by_player
            hand += 1
    assert hand == batch.hands == 4 * players


class _Highest:
    """Plays the highest legal code (a capture or build of the most table cards, when any): a
    deterministic player, the same in every seat. (The lowest code would trail low cards until
    the table holds millions of moves.)"""

    name = "highest"

    def choose(self, view: View) -> int:
        return max(view.legal)


def test_mirrored_deals_give_the_same_seat_points_to_the_same_play() -> None:
    """Two copies of one deterministic player: a rotation moves who sits where, not what is played."""
    rules = Rules()
    batch = play_hands(rules, [_Highest(), _Highest()], 3, seed=5, mirror=True)
    for deal in range(3):
        first, second = batch.points[2 * deal], batch.points[2 * deal + 1]
        assert first == second[::-1]
        assert batch.hand_codes(2 * deal).tolist() == batch.hand_codes(2 * deal + 1).tolist()
    assert batch.mean_points() == pytest.approx(batch.mean_points()[::-1])


class _Cheat:
    name = "cheat"

    def choose(self, view: View) -> int:
        return 2  # trail the 2 of spades? only if held: mostly not a legal move


def test_an_illegal_move_is_refused_naming_the_player() -> None:
    with pytest.raises(
        PlayerFaultError, match=r"^player .cheat. returned 2, which is no move: move code 2: a build needs table cards$"
    ) as info:
        play_hands(Rules(), [_Cheat(), make_player("random")], 1, seed=1)
    assert (info.value.player, info.value.reason.split(":")[0]) == ("cheat", "returned 2, which is no move")


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="2 players needed, got 1"):
        play_hands(Rules(), [make_player("random")], 1, seed=1)
    with pytest.raises(ValueError, match="hands must be 0 or more, got -1"):
        play_hands(Rules(), [make_player("random")] * 2, -1, seed=1)
    assert play_hands(Rules(), [make_player("random")] * 2, 0, seed=1).hands == 0
