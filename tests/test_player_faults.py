"""A player's choice that is no legal move is a ``PlayerFaultError`` at ``decide``/``choose_code``, with
the player's name and one line of reason, before anything is played; a choice that is no move at
all is a ``PlayerChoiceError``, a fault too."""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

from cassino import CassinoError, Game, Move, State, make_rules
from cassino.players import choose_code, decide, make_player
from cassino.players.errors import PlayerChoiceError, PlayerFaultError
from cassino.view import View, view_of


class Returns:
    """A player that returns what it was given, whatever the view."""

    def __init__(self, choice: object, name: str = "fixed") -> None:
        self.choice = choice
        self.name = name

    def choose(self, view: View) -> object:
        return self.choice


def start() -> State:
    """Seat 1 to move with 3d 3s 5s Kd, on 2d 6h 9s Td (the first deal of seed 1)."""
    state = Game(seed=1).state
    assert [str(m) for m in state.legal_moves()] == [
        "build 3d 5: 2d",
        "build 3s 5: 2d",
        "trail 3d",
        "trail 3s",
        "trail 5s",
        "trail Kd",
    ]
    return state


@pytest.mark.parametrize(
    ("choice", "reason"),
    [
        (Move.parse("trail Kc"), "returned 'trail Kc', which is not legal here: Kc is not in the hand of seat 1, "
         "the player to move"),
        (Move.parse("trail Kc").code, "returned 'trail Kc', which is not legal here: Kc is not in the hand of "
         "seat 1, the player to move"),
        (Move.parse("capture 5s 5: 2d 3d").code, "returned 'capture 5s 5: 2d 3d', which is not legal here: "
         "3d is not on the table"),
        (2, "returned 2, which is no move: move code 2: a build needs table cards"),
        (-5, "returned -5, which is no move: move code -5 is not a non-negative int"),
    ],
)  # fmt: skip
def test_an_illegal_choice_is_a_fault_naming_the_player_and_the_rule(choice: object, reason: str) -> None:
    state = start()
    with pytest.raises(PlayerFaultError) as info:
        decide(Returns(choice), state)  # type: ignore[arg-type]
    assert (info.value.player, info.value.reason) == ("fixed", reason)
    assert str(info.value) == f"player 'fixed' {reason}"
    assert isinstance(info.value, CassinoError) and not isinstance(info.value, PlayerChoiceError)
    assert state.move_stack == []  # nothing was played


def test_a_legal_choice_passes_as_a_move_or_a_code() -> None:
    state = start()
    view = view_of(state, state.to_move)
    for choice in (Move.parse("trail 5s"), Move.parse("trail 5s").code):
        assert decide(Returns(choice), state) == choose_code(Returns(choice), view) == Move.parse("trail 5s").code  # type: ignore[arg-type]


def test_a_choice_of_another_type_is_a_choice_error_and_a_fault() -> None:
    for choice in ("trail 5s", None, True, 1.0):
        with pytest.raises(PlayerChoiceError) as info:
            decide(Returns(choice, "odd"), start())  # type: ignore[arg-type]
        assert isinstance(info.value, PlayerFaultError) and isinstance(info.value, TypeError)
        assert info.value.player == "odd"
        assert info.value.reason == (
            f"returned {choice!r}: choose(view) must return one of view.legal_moves() (a Move) or one of "
            "view.legal (its int code)"
        )


def test_a_narrowed_view_is_checked_against_its_own_moves_unless_asked_not_to() -> None:
    """A player handing another a view with fewer moves (``fallible``) checks the answer itself."""
    state = start()
    view = view_of(state, state.to_move)
    narrowed = replace(view, legal=view.legal[:1])
    other = next(c for c in view.legal if c not in narrowed.legal)
    with pytest.raises(PlayerFaultError) as info:
        choose_code(Returns(other), narrowed)  # type: ignore[arg-type]
    assert info.value.reason == f"returned {str(Move(other))!r}, which is not legal here"  # legal on the table
    assert choose_code(Returns(other), narrowed, check=False) == other  # type: ignore[arg-type]


class Omniscient:
    """A benchmark that sees every card, answering a fixed code."""

    name = "seer"
    sees_all = True

    def __init__(self, code: int) -> None:
        self.code = code

    def choose_full(self, state: State) -> int:
        return self.code


def test_an_omniscient_player_is_checked_too() -> None:
    state = start()
    assert decide(Omniscient(Move.parse("trail Kd").code), state) == Move.parse("trail Kd").code  # type: ignore[arg-type]
    with pytest.raises(PlayerFaultError) as info:
        decide(Omniscient(Move.parse("trail Kc").code), state)  # type: ignore[arg-type]
    assert info.value.reason == (
        "returned 'trail Kc', which is not legal here: Kc is not in the hand of seat 1, the player to move"
    )


def test_every_built_in_player_passes_the_check() -> None:
    """The levels and players make only legal moves (``fallible`` narrows its base's view)."""
    rules = make_rules("classic")
    for spec in ("random", "greedy", "beginner", "casual", "club"):
        players = [make_player(spec, 1), make_player("greedy", 2)]
        game = Game(rules, seed=3)
        while not game.over:
            game.play(decide(players[game.state.to_move], game.state))
        assert game.winner in (0, 1)


def test_a_fault_pickles_with_its_fields() -> None:
    """A fault raised in a worker process reaches the caller whole."""
    fault = pickle.loads(pickle.dumps(PlayerFaultError("bot:x.sh", "timed out after 1.0 s")))
    assert (fault.player, fault.reason, str(fault)) == (
        "bot:x.sh",
        "timed out after 1.0 s",
        "player 'bot:x.sh' timed out after 1.0 s",
    )
    choice = pickle.loads(pickle.dumps(PlayerChoiceError("p", "returned None")))
    assert isinstance(choice, PlayerChoiceError) and choice.reason == "returned None"
