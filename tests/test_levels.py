"""The ladder of levels: every level is a player by its name, plays legal moves reproducibly from
a seed and decides from its seat's view alone; the mistakes the lower levels make are exactly the
ones they are said to make (a missed sum never hides a pair or a sweep; forgotten cards count as
unseen)."""

from __future__ import annotations

import random

import pytest

from cassino.game import Game
from cassino.moves import MoveCode, parse_code
from cassino.players import LEVELS, FalliblePlayer, level_names, make_player, player_names
from cassino.players.errors import PlayerSpecError
from cassino.players.levels import sweeps, uses_sum
from cassino.players.solver import cards_known
from cassino.players.worlds import sample_world
from cassino.rules import make_rules
from cassino.state import State
from cassino.view import View, view_of
from positions import ALL_CARDS, build, mask, scripted_position

LADDER = ["beginner", "novice", "casual", "club", "expert", "master"]
LIGHT = {"master": "master:worlds=4,depth=2"}
"""Cheaper settings of a level for a whole hand: the same player, searching less."""


def _hand(spec: str, seed: int) -> list[MoveCode]:
    """The moves of one hand in which ``spec`` (seat 0) meets greedy; ``Game.play`` checks each."""
    game = Game(make_rules("classic"), seed=seed)
    players = [make_player(spec, seed), make_player("greedy", seed + 1)]
    moves = []
    while not game.state.hand_over and game.state.moves_played < 48:
        state = game.state
        code = players[state.to_move].choose(view_of(state, state.to_move))
        assert isinstance(code, int)
        game.play(code)
        moves.append(code)
        if len(game.hands) > 1:
            break
    return moves


def test_the_ladder_is_six_registered_players_in_order() -> None:
    assert level_names() == LADDER
    assert [level.name for level in LEVELS] == LADDER
    assert set(LADDER) <= set(player_names())
    for level in LEVELS:
        assert level.description and "\n" not in level.description
        player = make_player(level.name, 1)
        assert player.name == level.name
        assert not getattr(player, "sees_all", False)


@pytest.mark.parametrize("name", LADDER)
def test_every_level_plays_a_legal_hand_the_same_way_from_a_seed(name: str) -> None:
    spec = LIGHT.get(name, name)
    first = _hand(spec, 3)
    assert len(first) == 48  # the whole hand: 2 seats x 6 deals x 4 cards
    assert _hand(spec, 3) == first


def test_a_level_takes_overrides_of_its_settings() -> None:
    player = make_player("club:forget=0,miss=0.5", 1)
    assert isinstance(player, FalliblePlayer)
    assert (player.forget, player.miss) == (0.0, 0.5)
    with pytest.raises(
        PlayerSpecError, match=r"^beginner has no setting 'depth'; its settings are: base, miss, forget$"
    ):
        make_player("beginner:depth=3")
    with pytest.raises(ValueError, match="another player's name"):
        make_player("fallible:base=fallible")


def _view(table: list[object], hand: list[str], rules: dict[str, object] | None = None) -> View:
    state = scripted_position(table, [hand, ["9h", "9d", "Kc", "Kd"]], rules)
    return view_of(state, 0)


def _codes(*lines: str) -> set[MoveCode]:
    return {parse_code(line) for line in lines}


def test_uses_sum_names_the_captures_of_two_or_more_loose_cards() -> None:
    builds = _view(["3h", "5d", "8s", build(["2c", "6d"], 8, 0), "Qs"], ["8c", "Qh", "4c", "7c"]).builds
    assert uses_sum(parse_code("capture 8c 8: 3h 5d"), builds)
    assert uses_sum(parse_code("capture 8c 8: 3h 5d 8s"), builds)
    assert not uses_sum(parse_code("capture 8c 8: 8s"), builds)
    assert not uses_sum(parse_code("capture 8c 8: 2c 6d"), builds)  # the build, taken whole
    assert not uses_sum(parse_code("capture 8c 8: 2c 6d 8s"), builds)
    assert not uses_sum(parse_code("capture Qh Q: Qs"), builds)  # a court pairing
    assert not uses_sum(parse_code("trail 4c"), builds)
    assert not uses_sum(parse_code("build 4c 7: 3h"), builds)
    # Royal ace high: a loose ace counts 1, so taking it with an ace as 14 is a sum.
    assert uses_sum(parse_code("capture Ad 14: Ah Kc"), ())
    assert not uses_sum(parse_code("capture Ad 1: Ah"), ())


def test_a_player_who_misses_sums_still_sees_the_pair() -> None:
    view = _view(["3h", "5d", "8s", "Js"], ["8c", "4c", "Th", "7c"])
    sums = {c for c in view.legal if uses_sum(c, view.builds)}
    assert sums == _codes("capture 8c 8: 3h 5d", "capture 8c 8: 3h 5d 8s")
    blind = FalliblePlayer(seed=1, base="greedy", miss=1.0)
    seen = blind.seen(view).legal
    assert set(seen) == set(view.legal) - sums
    assert parse_code("capture 8c 8: 8s") in seen
    # Greedy would take all three cards; blind to the sum, it takes the pair.
    assert make_player("greedy", 1).choose(view) == parse_code("capture 8c 8: 3h 5d 8s")
    assert blind.choose(view) == parse_code("capture 8c 8: 8s")
    assert make_player("beginner:miss=1", 1).choose(view) == parse_code("capture 8c 8: 8s")
    # Who never misses sees the view as it is.
    assert FalliblePlayer(seed=1, base="greedy").seen(view) is view


def test_a_player_who_misses_sums_still_takes_a_sweep() -> None:
    view = _view(["3h", "5d", "2s"], ["Tc", "4c", "Jh", "7c"])
    sweep = parse_code("capture Tc 10: 2s 3h 5d")
    assert uses_sum(sweep, view.builds) and sweeps(view, sweep)
    assert not sweeps(view, parse_code("capture 7c 7: 2s 5d"))
    blind = FalliblePlayer(seed=1, base="greedy", miss=1.0)
    assert sweep in blind.seen(view).legal
    assert parse_code("capture 7c 7: 2s 5d") not in blind.seen(view).legal
    assert make_player("beginner:miss=1", 2).choose(view) == sweep


def test_a_missed_sum_stays_missed_when_the_base_solves_the_deal() -> None:
    """The heuristic solves the last deal over every legal move: it takes 3h 5d before the 8h can.
    Blind to the sum, the same player trails."""
    table, hands = ["3h", "5d", "Js"], [["8c", "2c"], ["8h", "Kd"]]
    used = set(table) | {c for hand in hands for c in hand}
    state = scripted_position(table, hands, captured=tuple(c for c in ALL_CARDS if c not in used))
    view = view_of(state, 0)
    assert cards_known(view)
    assert make_player("heuristic", 1).choose(view) == parse_code("capture 8c 8: 3h 5d")
    blind = FalliblePlayer(seed=1, base="heuristic", miss=1.0)
    assert blind.choose(view) in blind.seen(view).legal
    assert not uses_sum(blind.choose(view), view.builds)


def _played_position() -> State:
    """A classic 2-player position a few deals in, with cards in both piles."""
    game = Game(make_rules("classic"), seed=8)
    players = [make_player("greedy", 1), make_player("greedy", 2)]
    while game.state.moves_played < 20:
        state = game.state
        code = players[state.to_move].choose(view_of(state, state.to_move))
        assert isinstance(code, int)
        game.play(code)
    assert all(game.state.captured)
    return game.state


def test_a_forgetful_player_counts_forgotten_cards_as_unseen() -> None:
    state = _played_position()
    view = view_of(state, state.to_move)
    played = view.captured[0] | view.captured[1]
    seen = FalliblePlayer(seed=1, base="heuristic", forget=1.0).seen(view)
    assert seen.captured == (0, 0) and seen.history == ()
    assert seen.unseen == view.unseen | played
    # The forgotten cards are, to it, still in the stock: the counts add up as in any view.
    hidden = sum(n for s, n in enumerate(seen.hand_sizes) if s != seen.seat) + seen.stock_size
    assert seen.unseen.bit_count() == hidden
    assert (seen.legal, seen.hand, seen.loose, seen.builds) == (view.legal, view.hand, view.loose, view.builds)
    some = FalliblePlayer(seed=1, base="heuristic", forget=0.5).seen(view)
    assert view.unseen < some.unseen < seen.unseen
    assert some.unseen.bit_count() == sum(n for s, n in enumerate(some.hand_sizes) if s != some.seat) + some.stock_size
    assert FalliblePlayer(seed=1, base="heuristic").seen(view) is view


def test_a_forgetful_player_does_not_solve_the_last_deal() -> None:
    """Counting cards places the hidden cards in the last deal; having forgotten some, the player
    has no exact world to solve and guesses as in any other deal."""
    table, hands = ["3h", "5d"], [["8c", "4c"], ["9h", "Kd"]]
    used = set(table) | {c for hand in hands for c in hand}
    state = scripted_position(table, hands, captured=tuple(c for c in ALL_CARDS if c not in used))
    view = view_of(state, 0)
    assert view.stock_size == 0 and view.unseen == mask("9h Kd") and cards_known(view)
    seen = FalliblePlayer(seed=1, base="heuristic", forget=1.0).seen(view)
    assert seen.stock_size == 46 and seen.unseen.bit_count() == 48 and not cards_known(seen)


@pytest.mark.parametrize("name", LADDER)
def test_a_level_decides_from_its_view_alone(name: str) -> None:
    """Same seed, same view, the hidden cards dealt otherwise: the same move."""
    rng = random.Random(5)
    game = Game(make_rules("classic"), seed=6)
    checked = 0
    while checked < 4:
        state = game.state
        if state.moves_played % 7 == 3:
            seat = state.to_move
            view = view_of(state, seat)
            twin = sample_world(view, rng)
            twin_view = view_of(twin, seat, view.history)
            assert twin_view == view
            assert make_player(name, 9).choose(view) == make_player(name, 9).choose(twin_view)
            checked += 1
        game.play(state.legal_codes()[0])
