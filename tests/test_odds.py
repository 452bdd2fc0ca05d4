"""Playing for the game: the odds of winning from the scores are exact for the hand points they
are given, and the solver that plays for the game values a hand's end by them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cassino.cards import shuffled_deck
from cassino.players.base import decide, make_player
from cassino.players.odds import GameOdds, HandStakes, game_odds
from cassino.players.search import SearchPlayer
from cassino.players.solver import GAME_WON, Solver
from cassino.rules import PRESETS, make_rules
from cassino.state import State
from cassino.view import view_of


def test_a_fair_coin_race_to_two() -> None:
    # One point a hand to one side or the other, evenly: first to two.
    odds = GameOdds(2, [(1, 0, 1), (0, 1, 1)])
    assert odds.win((0, 0), 0, 0) == pytest.approx(0.5)
    assert odds.win((1, 0), 0, 1) == pytest.approx(0.75)
    assert odds.win((1, 0), 1, 0) == pytest.approx(0.25)
    assert odds.win((1, 1), 0, 0) == pytest.approx(0.5)


def test_the_dealer_always_scoring_wins_when_dealing() -> None:
    odds = GameOdds(3, [(1, 0, 1)])
    # The deal alternates: from 0-0 with side 0 dealing it scores at hands 1 and 3, side 1 at 2.
    assert odds.win((0, 0), 0, 0) == pytest.approx(1.0)
    assert odds.win((0, 0), 0, 1) == pytest.approx(0.0)
    assert odds.win((2, 0), 1, 1) == pytest.approx(0.0)  # side 1 deals, scores 1: 2-1, then side 0 wins


def test_a_tie_at_the_target_plays_on() -> None:
    # Target 1: the dealer's side scores alone half the time, both sides score one otherwise.
    odds = GameOdds(1, [(1, 1, 1), (1, 0, 1)])
    # From a tie with side 0 dealing: it wins now (1/2), or ties again with side 1 dealing, from
    # where side 1 wins half the time and the tie comes back to side 0 dealing: t0 = 1/2 + t1/2,
    # t1 = t0/2, so t0 = 2/3 and t1 = 1/3; 0-0 with side 0 dealing is the same race as the tie.
    assert odds.win((1, 1), 0, 0) == pytest.approx(2 / 3)
    assert odds.win((1, 1), 0, 1) == pytest.approx(1 / 3)
    assert odds.win((0, 0), 0, 0) == pytest.approx(2 / 3)
    assert odds.win((5, 5), 1, 0) == pytest.approx(1 / 3)


def test_a_scoreless_hand_only_passes_the_deal() -> None:
    # Half the hands score nothing: the dealer-always-scores race is won by whoever deals first.
    odds = GameOdds(1, [(0, 0, 1), (1, 0, 1)])
    # Side 0 deals: it wins at once (1/2), or side 1 deals a hand it wins half the time...
    # w0 = 1/2 + w1/2, w1 = w0/2: w0 = 2/3.
    assert odds.win((0, 0), 0, 0) == pytest.approx(2 / 3)
    assert odds.win((0, 0), 0, 1) == pytest.approx(1 / 3)


def test_no_hands_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one hand"):
        GameOdds(21, [])


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_has_learned_odds_for_two_sides(preset: str) -> None:
    odds = game_odds(make_rules(preset))
    assert odds is not None
    assert odds.target == make_rules(preset).target
    # Even scores: the dealing side has its edge, and the two chances make one.
    even = odds.win((0, 0), 0, 0)
    assert 0.3 < even < 0.7
    assert odds.win((0, 0), 0, 0) + odds.win((0, 0), 1, 0) == pytest.approx(1.0)
    assert game_odds(make_rules(preset, players=3)) is None
    assert game_odds(make_rules(preset, players=4, partnerships=True)) is odds


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 19), st.integers(0, 20), st.integers(0, 1), st.integers(0, 1))
def test_more_points_never_lower_the_chance(a: int, b: int, side: int, dealer: int) -> None:
    odds = game_odds(make_rules("classic"))
    assert odds is not None
    scores = [a, b]
    raised = list(scores)
    raised[side] += 1
    assert odds.win(raised, side, dealer) >= odds.win(scores, side, dealer) - 1e-12
    assert 0.0 <= odds.win(scores, side, dealer) <= 1.0


def test_the_table_agrees_with_playing_the_game_out() -> None:
    # Games from 12-16 to 21, each hand's points drawn as the table was told: the share won by
    # side 0 lies within four standard errors of the table's chance.
    counts = [(6, 5, 3), (7, 4, 4), (9, 2, 2), (4, 7, 3), (5, 5, 1), (11, 0, 1), (3, 8, 2)]
    odds = GameOdds(21, counts)
    rng = random.Random(5)
    outcomes = [(d, o) for d, o, _ in counts]
    weights = [n for _, _, n in counts]
    games = 20_000
    won = 0
    for _ in range(games):
        scores, dealer = [12, 16], 0
        while True:
            dealt, other = rng.choices(outcomes, weights)[0]
            scores[dealer] += dealt
            scores[1 - dealer] += other
            dealer = 1 - dealer
            top = max(scores)
            if top >= 21 and scores.count(top) == 1:
                won += scores[0] == top
                break
    expected = odds.win((12, 16), 0, 0)
    spread = (expected * (1 - expected) / games) ** 0.5
    assert abs(won / games - expected) < 4 * spread


def _late_positions(preset: str, seed: int, scores: tuple[int, int]) -> State:
    """A hand of ``preset`` played by the heuristic to two cards from its end, at ``scores``."""
    rules = make_rules(preset)
    players = [make_player("heuristic", seed=seed), make_player("heuristic", seed=seed + 1)]
    state = State.new_hand(rules, shuffled_deck(random.Random(seed)), dealer=seed % 2, scores=scores)
    while state.remaining_stock or sum(h.bit_count() for h in state.hands) > 2:
        state.push(decide(players[state.to_move], state))
    return state


def _end_value(state: State, side: int) -> int:
    """The value of a finished hand played for the game, restated from its definition."""
    assert state.result is not None
    points = state.result.points
    margin = points[side] - points[1 - side]
    if state.winner >= 0:
        return margin + (GAME_WON if state.winner == side else -GAME_WON)
    odds = game_odds(state.rules)
    assert odds is not None
    after = [s + p for s, p in zip(state.scores, points, strict=True)]
    dealer_side = state.rules.side_of((state.dealer + 1) % 2)
    return margin + round(GAME_WON * (2 * odds.win(after, side, dealer_side) - 1))


@pytest.mark.parametrize("seed", range(12))
def test_the_solver_values_a_hands_end_by_the_chance_of_winning(seed: int) -> None:
    rng = random.Random(seed)
    scores = (rng.randrange(21), rng.randrange(21))
    state = _late_positions("classic" if seed % 3 else "royal", seed, scores)
    side = state.rules.side_of(state.to_move)
    _, scored = Solver(game=True).solve(state, side)
    for code, value in scored:
        state.push(code)
        replies = []
        for reply in state.legal_codes():
            state.push(reply)
            assert state.hand_over
            replies.append(_end_value(state, side))
            state.pop()
        state.pop()
        assert value == min(replies)


def test_a_sure_margin_is_worth_the_chance_of_its_scores() -> None:
    odds = GameOdds(21, [(6, 5, 1), (5, 6, 1)])
    assert odds.points == 11
    stakes = HandStakes(odds, (15, 17), 0, 1, spread=0.01)  # a quarter point at least: within 1e-4
    # Ending 3 ahead is 7-4: 22-21, won; 1 ahead is 6-5: 21-22, lost; 5 behind is 3-8: 18-25, lost.
    assert stakes.chance(3.0) == pytest.approx(1.0, abs=1e-4)
    assert stakes.chance(1.0) == pytest.approx(0.0, abs=1e-4)
    # Halfway between two margins the chance is halfway between theirs.
    assert stakes.chance(2.0) == pytest.approx(0.5, abs=1e-4)
    assert stakes.chance(-5.0) == pytest.approx(0.0, abs=1e-4)


@settings(max_examples=100, deadline=None)
@given(st.integers(10, 20), st.integers(0, 20), st.floats(0.5, 8.0), st.floats(-10, 10), st.floats(0.1, 3.0))
def test_a_larger_expected_margin_never_lowers_the_chance(a: int, b: int, spread: float, m: float, up: float) -> None:
    odds = game_odds(make_rules("classic"))
    assert odds is not None
    stakes = HandStakes(odds, (a, b), 0, 0, spread)
    low, high = stakes.chance(m), stakes.chance(m + up)
    assert 0.0 <= low <= high + 1e-12 <= 1.0 + 1e-9


def test_uncertainty_helps_the_side_behind_and_hurts_the_side_ahead() -> None:
    odds = game_odds(make_rules("classic"))
    assert odds is not None
    # At 12-18 to 21 the side behind needs a big hand: a wider spread of outcomes is its friend.
    behind_sure, behind_wild = HandStakes(odds, (12, 18), 0, 0, 1.0), HandStakes(odds, (12, 18), 0, 0, 6.0)
    assert behind_wild.chance(1.0) > behind_sure.chance(1.0) + 0.1
    ahead_sure, ahead_wild = HandStakes(odds, (18, 12), 0, 0, 1.0), HandStakes(odds, (18, 12), 0, 0, 6.0)
    assert ahead_wild.chance(1.0) < ahead_sure.chance(1.0) - 0.05


def test_the_search_plays_for_the_game_only_within_reach_of_the_target() -> None:
    rules = make_rules("classic")
    state = State.new_hand(rules, shuffled_deck(random.Random(3)), dealer=0, scores=(4, 6))
    player = SearchPlayer(seed=1, worlds=4, game=1)
    assert player._stakes(view_of(state, state.to_move)) is None  # 6 + 11 < 21
    state = State.new_hand(rules, shuffled_deck(random.Random(3)), dealer=0, scores=(14, 6))
    stakes = player._stakes(view_of(state, state.to_move))
    assert stakes is not None
    table, margin = stakes
    # Nothing captured yet: an even hand expected, with a whole hand's spread.
    assert margin == 0.0 and table.spread == pytest.approx(odds_spread())
    code = player.choose(view_of(state, state.to_move))
    assert code in state.legal_codes()


def odds_spread() -> float:
    odds = game_odds(make_rules("classic"))
    assert odds is not None
    return odds.spread
