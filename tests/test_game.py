"""Whole games (cassino.game.Game): seeded reproducibility, play to a winner, undo across hands,
checked play, the dealer passing on.

A game record is a seed plus moves, so everything here hinges on the seed fixing every shuffle
and on undo putting the game back exactly, the shuffles to come included.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cassino import Game, IllegalMoveError, Outcome, Rules, UndoError, make_rules
from cassino.cards import CARD_NAMES, cards_of
from cassino.moves import Move, format_code, parse_code
from cassino.notation import position_from_json, position_to_json

RULE_SETS = [
    make_rules("classic"),
    make_rules("classic", players=3),
    make_rules("classic", players=4, partnerships=True, sweeps_cancel=True),
    make_rules("royal", players=4),
    make_rules("spade"),
    make_rules("draw", players=3, target=11),
]
IDS = ["classic", "classic-3", "partnerships", "royal-4", "spade", "draw-3"]


def random_move(game: Game, rng: random.Random) -> int:
    """A uniformly random legal move of the player to move."""
    return rng.choice(sorted(game.state.legal_codes()))


def play_out(game: Game, rng: random.Random, limit: int = 100_000) -> None:
    """Play random legal moves until the game is won."""
    for _ in range(limit):
        if game.over:
            return
        game.play(random_move(game, rng))
    raise AssertionError("the game did not end")


def snapshot(game: Game) -> tuple[Any, ...]:
    """What a player can see of a game: every hand's position, the decks, the scores."""
    return (len(game.hands), position_to_json(game.state), [list(d) for d in game.decks], game.scores, game.winner)


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_a_seeded_game_is_reproducible(rules: Rules) -> None:
    """Same seed and same moves: same decks, same hands, same scores, same winner."""
    one, two = Game(rules, seed=11), Game(rules, seed=11)
    assert one.decks == two.decks
    play_out(one, random.Random(3))
    play_out(two, random.Random(3))
    assert one.decks == two.decks and one.moves() == two.moves()
    assert one.scores == two.scores and one.winner == two.winner
    assert [position_to_json(h) for h in one.hands] == [position_to_json(h) for h in two.hands]
    assert Game(rules, seed=12).decks != one.decks[:1]


def test_replaying_the_recorded_moves_rebuilds_the_game() -> None:
    """A record (seed + moves) is enough: replaying its moves gives the same game."""
    game = Game(make_rules("classic"), seed=5)
    play_out(game, random.Random(9))
    again = Game(make_rules("classic"), seed=5)
    for hand in game.moves():
        for code in hand:
            again.play(Move.parse(format_code(code)))
    assert snapshot(again) == snapshot(game)


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_random_players_reach_a_winner(rules: Rules) -> None:
    game = Game(rules, seed=2024)
    play_out(game, random.Random(1))
    assert game.over and 0 <= game.winner < rules.sides
    assert game.scores[game.winner] >= rules.target
    assert game.state.legal_codes() == []
    totals = [0] * rules.sides
    for i, hand in enumerate(game.hands):
        assert hand.hand_over and hand.result is not None
        assert list(hand.scores) == [t + p for t, p in zip(totals, hand.result.points, strict=True)]
        totals = list(hand.scores)
        assert (hand.winner >= 0) == (i == len(game.hands) - 1), "the game ends at the first decided hand"
    assert list(game.scores) == totals
    assert [r.points for r in game.hand_results] == [h.result.points for h in game.hands if h.result]


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_the_outcome_is_none_until_a_side_wins_then_the_final_result(rules: Rules) -> None:
    """``outcome()`` as python-chess's ``board.outcome()``: None at every move of the game, then the
    winner, the final scores and the hands played; taking the last move back makes it None again."""
    game = Game(rules, seed=2024)
    rng = random.Random(1)
    while not game.over:
        assert game.outcome() is None and game.winner == -1
        game.play(random_move(game, rng))
    outcome = game.outcome()
    assert outcome == Outcome(game.winner, game.scores, len(game.hands))
    assert outcome is not None and 0 <= outcome.winner < rules.sides and outcome.scores[outcome.winner] >= rules.target
    with pytest.raises(AttributeError):
        outcome.winner = 0  # type: ignore[misc]
    game.undo()
    assert game.outcome() is None


def test_the_outcome_of_a_seeded_game() -> None:
    """Seed 1 played by the first legal move each time: seat 0 wins 27 to 10 after three hands."""
    game = Game(seed=1)
    while not game.over:
        game.play(game.legal_moves()[0])
    assert game.outcome() == Outcome(winner=0, scores=(27, 10), hands=3, forfeit=None)


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_dealer_passes_clockwise_each_hand(rules: Rules) -> None:
    for first in (0, rules.players - 1):
        game = Game(rules, seed=77, dealer=first)
        play_out(game, random.Random(2))
        assert len(game.hands) > 1
        for i, hand in enumerate(game.hands):
            assert hand.dealer == (first + i) % rules.players
            assert position_to_json(hand)["dealer"] == hand.dealer


def test_undo_back_to_the_start_across_hands_restores_everything() -> None:
    """Every position of the game reappears, in reverse, as moves are taken back."""
    game = Game(make_rules("classic", players=3, target=11), seed=8)
    start = snapshot(game)
    rng = random.Random(4)
    trail = [start]
    while not game.over:
        game.play(random_move(game, rng))
        trail.append(snapshot(game))
    assert len(game.hands) >= 2
    trail.pop()
    while trail:
        game.undo()
        assert snapshot(game) == trail.pop()
    assert snapshot(game) == start
    with pytest.raises(UndoError, match="no move to take back"):
        game.undo()


def test_undo_and_replay_deals_the_same_next_hand() -> None:
    """Taking back the last play of a hand and playing it again must not reshuffle: the seed
    fixes every deck of the game, so the replayed game equals the original."""
    game = Game(make_rules("classic"), seed=31)
    rng = random.Random(6)
    while len(game.hands) < 3:
        game.play(random_move(game, rng))
    after = snapshot(game)
    moves = game.moves()
    game.undo()  # back across the start of hand 3
    game.undo()
    assert len(game.hands) == 2
    game.play(moves[1][-2])
    game.play(moves[1][-1])
    assert snapshot(game) == after


def test_push_and_play_agree() -> None:
    """``push`` (unchecked) and ``play`` (checked) make the same game from legal moves."""
    rules = make_rules("classic", players=4)
    checked, unchecked = Game(rules, seed=3), Game(rules, seed=3)
    rng = random.Random(0)
    while not checked.over:
        code = random_move(checked, rng)
        checked.play(code)
        unchecked.push(code)
    assert snapshot(checked) == snapshot(unchecked)


# ----------------------------------------------------------------------------- illegal moves


def game_where_mover_owns_a_build(seed_from: int = 0) -> Game:
    """A classic game played randomly until the player to move owns a build and holds a card."""
    for seed in range(seed_from, seed_from + 500):
        game = Game(make_rules("classic"), seed=seed)
        rng = random.Random(seed)
        while not game.over:
            state = game.state
            if any(b[2] == state.to_move for b in state.builds) and state.hands[state.to_move]:
                return game
            game.play(random_move(game, rng))
    raise AssertionError("no game reached a position with an owned build")


def test_owner_may_not_trail() -> None:
    """RULES.md 7.1: the message names the move, the build and the rule; nothing changes."""
    game = game_where_mover_owns_a_build()
    state = game.state
    before = snapshot(game)
    history = game.moves()
    card = cards_of(state.hands[state.to_move])[0]
    move = Move.trail(card)
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    message = str(info.value)
    assert str(move) in message
    assert "build" in info.value.reason and "trail" in info.value.reason
    assert info.value.move == str(move)
    assert snapshot(game) == before and game.moves() == history


def test_card_not_in_hand_is_refused() -> None:
    game = Game(make_rules("classic"), seed=1)
    state = game.state
    before = snapshot(game)
    other = cards_of(state.hands[(state.to_move + 1) % state.players])[0]
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        game.play(Move.trail(other))
    assert snapshot(game) == before


def test_moves_after_the_game_is_over_are_refused() -> None:
    game = Game(make_rules("classic", target=5), seed=4)
    play_out(game, random.Random(4))
    before = snapshot(game)
    with pytest.raises(IllegalMoveError):
        game.play(parse_code("trail 7c"))
    assert snapshot(game) == before


def test_illegal_moves_of_rules_example_9() -> None:
    """RULES.md 11.9: a player owning an 8-build and holding an 8 and a 4 may not trail, may not
    build with the 8 elsewhere, may build 8 with the 4 only by joining the existing 8-build, and
    may take the build with the 8. Each refusal leaves the position unchanged."""
    position: dict[str, Any] = {
        "rules": {"preset": "classic"},
        "dealer": 1,
        "to_move": 0,
        "table": ["Ah", "4h", {"cards": ["2c", "6c"], "value": 8, "owner": 0}],
        "hands": [["4d", "8s", "9d"], ["9h", "Kc", "Qh"]],
        "stock": [],
    }
    used = {"Ah", "4h", "2c", "6c", "4d", "8s", "9d", "9h", "Kc", "Qh"}
    position["captured"] = [[c for c in CARD_NAMES if c not in used], []]
    state = position_from_json(position)
    before = json.dumps(position_to_json(state))
    refused = {
        "trail 4d": ("build", "trail"),
        "trail 9d": ("build", "trail"),
        "build 8s 9: Ah": ("8-build",),
        "build 4d 8: 4h": ("8",),
    }
    for line, words in refused.items():
        with pytest.raises(IllegalMoveError) as info:
            state.play(Move.parse(line))
        assert line in str(info.value)
        for word in words:
            assert word in info.value.reason, info.value.reason
        assert json.dumps(position_to_json(state)) == before
    legal = {str(m) for m in state.legal_moves()}
    assert {"capture 8s 8: 2c 6c", "build 4d 8: 2c 4h 6c"} <= legal
    assert not legal & set(refused)


def test_the_undo_record_names_fields_of_the_state_and_records_who_moved() -> None:
    """``push`` saves ``UNDO_FIELDS`` in that order and ``pop`` unpacks them so: each is a field
    of ``State``, the record of a move holds those fields as they were before it, and ``movers``
    reads the seat that moved from the record."""
    from cassino.state import UNDO_FIELDS

    game = Game(make_rules("classic", players=3), seed=5)
    assert all(hasattr(game.state, name) for name in UNDO_FIELDS)  # compiled, State has no __slots__
    assert UNDO_FIELDS[9] == "to_move"
    rng = random.Random(1)
    seats = []
    for _ in range(7):
        seats.append(game.state.to_move)
        before = tuple(getattr(game.state, name) for name in UNDO_FIELDS)
        game.play(random_move(game, rng))
        assert game.state._stack[-1] == before
    assert game.state.movers() == seats
