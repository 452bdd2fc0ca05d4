"""One driver from hand to hand: ``Game``'s deck source and next-hand step, ``State.next_hand`` and
``State.root``, and the moves ``Game.play`` accepts.

A server that deals from its own shuffle, an environment that replays a seed and a record that
replays its decks all go through the same step, so each is checked against what it must deal:
the given decks first, then the source, never a deck drawn for nothing.
"""

from __future__ import annotations

import random

import pytest

from cassino import Game, IllegalMoveError, MoveError, Rules, State, make_rules
from cassino.cards import shuffled_deck
from cassino.game import last_move_index, undo_refusal
from cassino.moves import Move, format_code
from cassino.notation import position_from_json, position_to_json


def random_move(game: Game, rng: random.Random) -> int:
    """A uniformly random legal move of the player to move."""
    return rng.choice(sorted(game.state.legal_codes()))


def play_hands(game: Game, rng: random.Random, hands: int) -> None:
    """Play random moves until ``hands`` hands have been dealt or the game is won."""
    while len(game.hands) < hands and not game.over:
        game.play(random_move(game, rng))


class Source:
    """A deck source that deals seeded shuffles and counts its calls."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.dealt: list[list[int]] = []

    def __call__(self) -> list[int]:
        deck = shuffled_deck(self.rng)
        self.dealt.append(deck)
        return deck


# ----------------------------------------------------------------------------- deck_source


def test_given_decks_first_then_the_source() -> None:
    """``Game(rules, decks=[...], deck_source=f)`` deals the given decks, then calls ``f`` once
    per later hand (never at the start, never twice for one hand)."""
    given = [shuffled_deck(random.Random(s)) for s in (1, 2)]
    source = Source(99)
    game = Game(make_rules("classic", target=61), decks=given, deck_source=source)
    assert game.decks == given[:1] and not source.dealt
    play_hands(game, random.Random(5), 4)
    assert len(game.hands) == 4
    assert game.decks == [*given, *source.dealt] and len(source.dealt) == 2


def test_undo_and_replay_do_not_ask_the_source_again() -> None:
    """A hand taken back keeps its deck: replaying its last move deals that deck, not a new one."""
    source = Source(7)
    game = Game(make_rules("classic", target=61), deck_source=source)
    rng = random.Random(3)
    play_hands(game, rng, 2)
    last = game.moves()[0][-1]
    decks = [list(d) for d in game.decks]
    game.undo()
    assert len(game.hands) == 1
    game.play(last)
    assert game.decks == decks and len(source.dealt) == 2


def test_the_default_source_is_the_seeded_shuffle() -> None:
    """Without a source the decks are the seed's successive shuffles, as before."""
    game = Game(make_rules("classic", target=61), seed=12)
    play_hands(game, random.Random(1), 3)
    rng = random.Random(12)
    assert game.decks == [shuffled_deck(rng) for _ in game.decks]


def test_a_bad_deck_from_the_source_is_refused() -> None:
    """A source's deck is checked like any other: a ValueError, the game's decks unchanged."""
    first = shuffled_deck(random.Random(2))
    game = Game(make_rules("classic", target=61), decks=[first], deck_source=lambda: list(range(51)))
    state = game.state
    rng = random.Random(2)
    while not state.hand_over:
        state.push(rng.choice(sorted(state.legal_codes())))
    with pytest.raises(ValueError, match="52 cards"):
        game.next_hand()
    assert game.decks == [first] and len(game.hands) == 1


# ----------------------------------------------------------------------------- the next-hand step


def finished_hand(rules: Rules, seed: int) -> State:
    """A hand played to its end by random moves."""
    state = State.new_hand(rules, shuffled_deck(random.Random(seed)), dealer=rules.players - 1)
    rng = random.Random(seed)
    while not state.hand_over:
        state.push(rng.choice(sorted(state.legal_codes())))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_state_next_hand_passes_the_deal_and_carries_the_scores(players: int) -> None:
    """The next hand: the deal one seat clockwise, the scores carried, the deck dealt afresh."""
    rules = make_rules("classic", players=players, target=61)
    done = finished_hand(rules, players)
    deck = shuffled_deck(random.Random(40))
    nxt = done.next_hand(deck)
    assert done.next_dealer == 0 and nxt.dealer == 0
    assert nxt == State.new_hand(rules, deck, 0, done.scores)


def test_next_hand_is_refused_before_the_end_and_after_the_game() -> None:
    """No next hand while cards remain or once a side has won, and a refused ``Game.next_hand``
    draws no deck (the seeded decks to come stay as they were)."""
    rules = make_rules("classic", target=61)
    game, twin = Game(rules, seed=8), Game(rules, seed=8)
    assert not game.state.can_next_hand()
    with pytest.raises(ValueError, match="not over"):
        game.next_hand()
    rng, twin_rng = random.Random(1), random.Random(1)
    play_hands(game, rng, 2)
    play_hands(twin, twin_rng, 2)
    assert game.decks == twin.decks
    won = finished_hand(make_rules("classic", target=1), 3)
    assert won.winner >= 0 and not won.can_next_hand()
    with pytest.raises(ValueError, match="game is over"):
        won.next_hand(shuffled_deck(random.Random(0)))


def test_the_table_deals_the_seeded_shuffles_through_the_game() -> None:
    """The environments' table deals, hand after hand, the seed's shuffles with the deal passing
    on, and leaves a finished hand in place when the episode is one hand."""
    pytest.importorskip("numpy")  # the table is the rl extra's; the rest of this module needs none
    from cassino.rl.table import Table

    rules = make_rules("classic", target=61)
    table = Table(rules, episode="game")
    table.reset(seed=21, dealer=1)
    rng = random.Random(21)
    expected = [shuffled_deck(rng)]
    move_rng = random.Random(0)
    while table.hands_played < 3 and not table.over:
        table.play(move_rng.choice(sorted(table.state.legal_codes())))
        if not table.state.moves_played and not table.over:
            expected.append(shuffled_deck(rng))
    assert table.game.decks == expected
    assert [h.dealer for h in table.game.hands] == [(1 + i) % 2 for i in range(len(expected))]
    one = Table(rules, episode="hand")
    one.reset(seed=21, dealer=1)
    while not one.over:
        one.play(move_rng.choice(sorted(one.state.legal_codes())))
    assert one.state.hand_over and len(one.game.hands) == 1


# ----------------------------------------------------------------------------- State.root


def test_root_is_the_start_of_the_hand() -> None:
    """After any number of moves, ``root`` is the position as dealt, without history, and the
    played position is left alone."""
    rules = make_rules("royal", players=3)
    deck = shuffled_deck(random.Random(4))
    start = State.new_hand(rules, deck, 2)
    state = start.copy()
    rng = random.Random(4)
    for _ in range(30):
        state.push(rng.choice(sorted(state.legal_codes())))
    before = position_to_json(state)
    root = state.root()
    assert root == start and position_to_json(root) == position_to_json(start)
    assert root.moves_played == 0 and state.moves_played == 30
    assert position_to_json(state) == before
    assert start.root() == start and start.root() is not start


def test_root_of_a_position_read_mid_hand_is_where_it_started() -> None:
    """A position read from JSON knows no earlier move: its root is itself as read."""
    game = Game(make_rules("classic"), seed=6)
    rng = random.Random(6)
    for _ in range(5):
        game.play(random_move(game, rng))
    read = position_from_json(position_to_json(game.state))
    read.push(read.legal_codes()[0])
    assert read.root() == game.state and read.root().moves_played == 0


# ----------------------------------------------------------------------------- what Game.play accepts


def test_game_play_takes_a_move_line() -> None:
    """``Game.play('trail 3d')`` plays the move the line names, as the code or a ``Move`` would."""
    rules = make_rules("classic")
    rng = random.Random(9)
    lines, codes, moves = Game(rules, seed=9), Game(rules, seed=9), Game(rules, seed=9)
    while not codes.over:
        code = random_move(codes, rng)
        lines.play(format_code(code))
        codes.play(code)
        moves.play(Move(code))
    assert lines.moves() == codes.moves() == moves.moves()
    assert lines.scores == codes.scores


def test_game_play_refuses_bad_lines_and_types() -> None:
    """An illegal line is an IllegalMoveError, an unreadable one a MoveError, another type a
    TypeError naming it (not a failure of bit arithmetic); none changes the game."""
    game = Game(make_rules("classic"), seed=1)
    before = position_to_json(game.state)
    mover = game.state.to_move
    other = next(c for c in range(52) if game.state.hands[1 - mover] >> c & 1)
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        game.play(format_code(other << 2))
    with pytest.raises(MoveError, match="is not a card"):
        game.play("trail 9z")
    with pytest.raises(TypeError, match="not float"):
        game.play(3.0)  # type: ignore[arg-type]
    assert position_to_json(game.state) == before and game.state.moves_played == 0


def test_the_undo_rule() -> None:
    """``undo_refusal``, the one rule both apps keep: a seat's own move of the deal in play, against
    computer players only; ``last_move_index`` finds that move."""
    game = Game(seed=4)
    state = game.state
    assert undo_refusal(state, 0, (0,), 0) == "you have made no move in this hand to take back"
    assert last_move_index(state, 0) is None
    rng = random.Random(4)
    game.play(random_move(game, rng))
    game.play(random_move(game, rng))
    assert state.movers() == [1, 0] and last_move_index(state, 0) == 1 and last_move_index(state, 1) == 0
    assert undo_refusal(state, 0, (0,), 0) is None
    assert undo_refusal(state, 1, (0, 1), 0) == (
        "moves are taken back only against computer players: seat 0 is another person's"
    )
    # had the deal in play begun after these two moves (deal_start 2), they would stand
    assert undo_refusal(state, 0, (0,), 2) == (
        "new cards have come from the stock since your last move (they were seen), so it can no longer be taken back"
    )
    # the game's end and a hand being counted come before everything else
    assert undo_refusal(state, 0, (0, 1), 0, over=True) == "the game is over: no move can be taken back"
    assert undo_refusal(state, 0, (0, 1), 0, counted=1) == "hand 1 is over: its moves cannot be taken back"
