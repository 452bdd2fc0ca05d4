"""The PettingZoo and Gymnasium environments: their libraries' own checks, rewards that match the
engine's scoring, seeded reproducibility, and refused actions that change nothing."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from cassino import Rules, make_rules
from cassino.rl.aec import env, raw_env
from cassino.rl.encoding import NUM_ACTIONS, OBS_SIZE, ActionError
from cassino.rl.gym_env import CasinoGymEnv
from cassino.rl.table import Table, hand_rewards
from strategies import rules_st

CONFIGS: list[dict[str, Any]] = [
    {"preset": "classic", "players": 2},
    {"preset": "royal", "players": 3, "options": {"court_capture": "all", "capture_must_be_maximal": True}},
    {"preset": "draw", "players": 4, "partnerships": True, "episode": "game"},
    {"preset": "spade", "players": 4, "options": {"owner_may_trail": True, "table_cards_may_raise": True}},
]


@pytest.mark.parametrize("config", CONFIGS)
def test_pettingzoo_api_test(config: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the library's hints about Dict observations of masked games
        api_test(env(**config), num_cycles=300)


@pytest.mark.parametrize("config", CONFIGS)
def test_pettingzoo_seed_test(config: dict[str, Any]) -> None:
    seed_test(lambda: env(**config), num_cycles=100)


def random_episode(aec: Any, seed: int) -> tuple[dict[str, float], int]:
    """Play an episode with random masked actions; the summed rewards and the steps taken."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    steps = 0
    for agent in aec.agent_iter():
        obs, reward, term, trunc, _ = aec.last()
        totals[agent] += reward
        if term or trunc:
            aec.step(None)
            continue
        assert obs["observation"].shape == (OBS_SIZE,)
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return totals, steps


def test_pettingzoo_rewards_are_the_hands_points() -> None:
    """A one-hand episode pays each seat its points less the opponent's, from the engine's score."""
    aec = raw_env(preset="classic", players=2)
    totals, steps = random_episode(aec, 11)
    result = aec.table.state.result
    assert result is not None
    assert steps >= 48
    assert totals == {"player_0": result.points[0] - result.points[1], "player_1": result.points[1] - result.points[0]}
    assert hand_rewards(make_rules("classic", players=4, partnerships=True), (7, 4)) == [3, -3, 3, -3]
    assert hand_rewards(make_rules("classic", players=3), (6, 3, 0)) == [4.5, 0.0, -4.5]


def test_pettingzoo_game_episode_runs_to_a_winner() -> None:
    aec = raw_env(preset="classic", players=3, episode="game", options={"target": 15})
    totals, _ = random_episode(aec, 3)
    state = aec.table.state
    assert state.winner >= 0 and max(state.scores) >= 15
    assert sum(totals.values()) == pytest.approx(0.0)
    assert aec.table.hands_played >= 2


def test_pettingzoo_refuses_an_illegal_action() -> None:
    aec = raw_env()
    aec.reset(seed=5)
    agent = aec.agent_selection
    before = aec.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(ActionError):
        aec.step(illegal)
    after = aec.observe(agent)
    assert aec.agent_selection == agent
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb")


def test_pettingzoo_render_shows_no_hand() -> None:
    aec = raw_env(render_mode="ansi")
    aec.reset(seed=1)
    text = aec.render()
    assert text is not None and "hand sizes: player_0 4, player_1 4" in text and "stock: 40" in text


@pytest.mark.parametrize(
    "kwargs",
    [
        {},  # the defaults: Gymnasium's checker steps unmasked actions, which end the episode
        {"illegal": "end"},
        {"preset": "royal", "players": 4, "partnerships": True, "opponents": "heuristic", "illegal": "end"},
        {
            "preset": "draw",
            "players": 3,
            "opponents": ["greedy", "random"],
            "seat": 2,
            "illegal": "end",
            "episode": "game",
        },
    ],
)
def test_gymnasium_check_env(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker's note that an env made without gymnasium.make has no spec
        check_env(CasinoGymEnv(**kwargs))


def test_gymnasium_episode_against_greedy() -> None:
    """Masked random play to the end of a hand: the reward is the seat's hand points difference."""
    gym_env = CasinoGymEnv(opponents="greedy", seat=1)
    obs, info = gym_env.reset(seed=4)
    assert obs.shape == (OBS_SIZE,) and info["action_mask"].shape == (NUM_ACTIONS,)
    assert np.array_equal(info["action_mask"], gym_env.action_masks())
    rng = np.random.default_rng(0)
    total, done, steps = 0.0, False, 0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = gym_env.step(action)
        assert not truncated
        total += reward
        steps += 1
    result = gym_env.table.state.result
    assert result is not None
    assert total == result.points[1] - result.points[0]
    assert steps >= 24 and not info["action_mask"].any()
    with pytest.raises(ValueError, match="episode is over"):
        gym_env.step(0)


def test_gymnasium_reset_is_seeded() -> None:
    a, b = CasinoGymEnv(opponents="random"), CasinoGymEnv(opponents="random")
    assert np.array_equal(a.reset(seed=9)[0], b.reset(seed=9)[0])
    assert not np.array_equal(a.reset(seed=9)[0], a.reset(seed=10)[0])


def test_gymnasium_illegal_actions() -> None:
    strict = CasinoGymEnv(illegal="raise")
    obs, info = strict.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ActionError):
        strict.step(illegal)
    assert np.array_equal(strict.table.observation(0), obs)
    lenient = CasinoGymEnv(illegal="end", illegal_reward=-5.0)
    lenient.reset(seed=2)
    _, reward, done, _, info = lenient.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-5.0, True, illegal)
    default = CasinoGymEnv()
    default.reset(seed=2)
    _, reward, done, _, info = default.step(illegal)
    assert (reward, done, info["illegal_action"], default.illegal) == (-11.0, True, illegal, "end")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponents": "nobody"}, "unknown player 'nobody'"),
        ({"players": 3, "opponents": ["random"]}, "opponents must name one player spec or 2"),
        ({"seat": 2}, "seat 2 is out of range"),
        ({"illegal": "ignore"}, "illegal must be one of"),
        ({"episode": "match"}, "episode must be one of"),
        ({"options": {"bogus": 1}}, "unknown rule option 'bogus'"),
    ],
)
def test_gymnasium_bad_settings(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CasinoGymEnv(**kwargs)


@pytest.mark.parametrize("make", [CasinoGymEnv, raw_env])
def test_a_misspelt_rule_keyword_is_named(make: Any) -> None:
    """The rule keywords travel as ``**rule_args``: a misspelt one is refused by name, not ignored."""
    with pytest.raises(TypeError, match="unexpected keyword 'player': the rule keywords are rules, preset, players"):
        make(player=3)


def test_table_refuses_steps_after_the_end() -> None:
    table = Table(make_rules("classic"))
    table.reset(1)
    while not table.over:
        table.play(table.state.legal_codes()[0])
    with pytest.raises(ValueError, match="episode is over"):
        table.step(0)
    assert not table.mask(0).any()


def test_the_examples_of_docs_rl_run() -> None:
    """Every Python block of docs/rl.md runs as written, in order."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert len(blocks) >= 5
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, "docs/rl.md", "exec"), namespace)
    assert namespace["action"] in namespace["state"].legal_actions()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_st(), st.integers(0, 2**32 - 1))
def test_random_masked_play_pays_each_hand_exactly(rules: Rules, seed: int) -> None:
    """Under any rule set, random masked play reaches the end of the hand; each seat's reward is
    the engine's hand score turned into points differences, and the rewards sum to zero."""
    aec = raw_env(rules=rules)
    totals, steps = random_episode(aec, seed)
    result = aec.table.state.result
    assert result is not None and steps >= 48
    expected = hand_rewards(rules, result.points)
    assert [totals[a] for a in aec.possible_agents] == pytest.approx(expected)
    assert sum(expected) == pytest.approx(0.0)


def test_gymnasium_make_knows_the_environment() -> None:
    import gymnasium

    from cassino.rl.gym_env import GYM_ID

    made = gymnasium.make(GYM_ID, preset="spade", opponents="greedy")
    obs, info = made.reset(seed=3)
    assert obs.shape == (OBS_SIZE,) and info["action_mask"].any()
    assert made.unwrapped.rules.scoring == "spade"
