"""The OpenSpiel game ``python_cassino``: OpenSpiel's own random simulation test on several rule
sets, its Python IS-MCTS playing whole games, and resampled worlds that the resampling seat cannot
tell from the real one."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cassino.movegen import capturing_cards
from cassino.rl.encoding import NUM_ACTIONS, OBS_SIZE
from cassino.rl.openspiel_game import INFO_SIZE, SHORT_NAME, CasinoState
from cassino.rl.table import hand_rewards

RULE_SETS: list[dict[str, Any]] = [
    {},
    {"preset": "royal", "players": 3},
    {"preset": "spade", "players": 4, "partnerships": True},
    {"preset": "draw", "players": 4, "options": "court_capture:all;trail_restriction:no_capturing_card"},
    {"preset": "classic", "players": 2, "options": "target:5;sweeps_cancel:true", "episode": "game"},
    {"preset": "royal", "players": 3, "options": "royal_ace_high:false;duplicate_value_builds:true", "episode": "game"},
]


@pytest.mark.parametrize("params", RULE_SETS)
def test_random_sim_test(params: dict[str, Any]) -> None:
    game = pyspiel.load_game(SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_game_facts_and_game_string() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"preset": "royal", "players": 3, "options": "court_capture=all;draw=true"})
    assert game.num_players() == 3
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == 52
    assert game.information_state_tensor_shape() == [INFO_SIZE]
    assert game.observation_tensor_shape() == [OBS_SIZE]
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert "court_capture:all" in str(game) and "draw:true" in str(game)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"options": "bogus:1"}, "unknown rule option 'bogus'"),
        ({"players": 3, "partnerships": True}, "partnerships need 4 players"),
        ({"episode": "match"}, "episode must be one of"),
    ],
)
def test_bad_parameters_are_named(params: dict[str, Any], message: str) -> None:
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(SHORT_NAME, params)


def deal(state: Any, rng: np.random.RandomState) -> None:
    """Play chance nodes until a player is to move (or the game is over)."""
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))


@pytest.mark.parametrize(
    "params",
    [{}, {"preset": "royal", "players": 4, "partnerships": True}, {"preset": "draw", "players": 3}],
)
def test_ismcts_completes_games(params: dict[str, Any]) -> None:
    """OpenSpiel's Python IS-MCTS (resampling worlds through ``resample_from_infostate``) plays seat 0
    to the end of a hand; the returns are the hand's points differences."""
    game = pyspiel.load_game(SHORT_NAME, params)
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=12, random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        deal(state, rng)
        if state.is_terminal():
            break
        if state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
            decisions += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert decisions >= 12
    inner: CasinoState = state  # pyspiel hands back the Python object itself
    assert inner.state is not None and inner.state.result is not None
    assert state.returns() == hand_rewards(inner.rules, inner.state.result.points)
    assert sum(state.returns()) == pytest.approx(0.0)


def test_whole_game_returns_the_winner() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "options": "target:8", "episode": "game"})
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    hands = 0
    while not state.is_terminal():
        if state.is_chance_node():
            hands += len(state.chance_outcomes()) == 52
            deal(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    winner = state.winner
    assert hands >= 2 and winner >= 0
    assert state.returns() == [1.0 if s == winner else -0.5 for s in range(3)]


def held(hands: tuple[int, ...], seat: int) -> set[int]:
    """The cards in every hand but ``seat``'s."""
    return {c for s, h in enumerate(hands) if s != seat for c in range(52) if h >> c & 1}


@pytest.mark.parametrize("seed", range(8))
def test_resampled_worlds_look_the_same_to_the_seat(seed: int) -> None:
    """Along a random game, every resampled world keeps the seat's information state and tensors,
    deals the unseen cards afresh with the same hand sizes, and gives every build's owner a card
    that captures it."""
    params = RULE_SETS[seed % 4]
    game = pyspiel.load_game(SHORT_NAME, params)
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    sampler = random.Random(seed)
    changed = 0
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
            continue
        seat = state.current_player()
        world = state.resample_from_infostate(seat, lambda: sampler.random())
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
        real, fake = state.state, world.state
        assert real is not None and fake is not None
        assert fake.hands[seat] == real.hands[seat]
        assert [h.bit_count() for h in fake.hands] == [h.bit_count() for h in real.hands]
        assert len(fake.remaining_stock) == len(real.remaining_stock)
        assert held(fake.hands, seat) | set(fake.remaining_stock) == held(real.hands, seat) | set(real.remaining_stock)
        for _, value, owner in fake.builds:
            assert capturing_cards(fake, value, fake.hands[owner]), "a build's owner holds a card to take it"
        changed += fake.hands != real.hands
        if len(state.history()) % 4 == 0:  # the world plays on to the end without a seat left stuck
            while not world.is_terminal():
                deal(world, rng)
                if not world.is_terminal():
                    world.apply_action(int(rng.choice(world.legal_actions())))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert changed > 10
