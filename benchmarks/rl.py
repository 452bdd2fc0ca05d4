"""Environment steps per second with random legal actions: the PettingZoo AEC environment (each
step observes the agent to move, mask included, and takes one action), the Gymnasium environment
(one learning seat; the other seats' moves by the ``random`` player happen inside its steps) and
the OpenSpiel game (legal actions and one action per step, chance nodes counted as steps too).

    python benchmarks/rl.py                          # classic, 2 players, 3 seconds each
    python benchmarks/rl.py --preset royal --players 4 --partnerships --seconds 5
    python benchmarks/rl.py --ismcts 100 --simulations 50   # also: OpenSpiel's IS-MCTS against random play

Needs the rl extra: pip install -e '.[rl]'.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cassino.rl.openspiel_game  # noqa: F401  (registers python_cassino)
from cassino.arena.stats import wilson
from cassino.rl.aec import raw_env
from cassino.rl.gym_env import CasinoGymEnv


def bench_pettingzoo(kwargs: dict[str, Any], seconds: float, seed: int) -> tuple[int, int, float]:
    """(steps, episodes, seconds) of random masked play in the AEC environment."""
    env = raw_env(**kwargs)
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + episodes)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        episodes += 1
    return steps, episodes, time.perf_counter() - start


def bench_gymnasium(kwargs: dict[str, Any], seconds: float, seed: int) -> tuple[int, int, float]:
    """(steps, episodes, seconds) of random masked play for seat 0 in the Gymnasium environment,
    the other seats played by the built-in ``random`` player (their moves are inside each step)."""
    env = CasinoGymEnv(opponents="random", **kwargs)
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _obs, info = env.reset(seed=seed + episodes)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, _reward, term, trunc, info = env.step(action)
            done = term or trunc
            steps += 1
        episodes += 1
    return steps, episodes, time.perf_counter() - start


def bench_openspiel(params: dict[str, Any], seconds: float, seed: int) -> tuple[int, int, float]:
    """(steps, episodes, seconds) of random play in the OpenSpiel game."""
    game = pyspiel.load_game("python_cassino", params)
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        episodes += 1
    return steps, episodes, time.perf_counter() - start


def bench_ismcts(params: dict[str, Any], hands: int, simulations: int, seed: int) -> str:
    """OpenSpiel's Python IS-MCTS (random rollouts) in seat 0 against uniformly random legal actions."""
    game = pyspiel.load_game("python_cassino", params)
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=simulations, random_state=rng
    )
    won = lost = decisions = 0
    points = []
    start = time.perf_counter()
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            elif state.current_player() == 0:
                state.apply_action(int(bot.step(state)))
                decisions += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randint(len(legal))])
        r = state.returns()[0]
        points.append(r)
        won += r > 0
        lost += r < 0
    wall = time.perf_counter() - start
    lo, hi = wilson(won, won + lost)
    return (
        f"ismcts     {simulations} simulations vs random, {hands} hands: won {won}, lost {lost}; "
        f"win rate of decided hands {won / max(1, won + lost):.3f} (95% {lo:.3f}-{hi:.3f}); "
        f"points difference {float(np.mean(points)):+.2f} a hand; {wall / max(1, decisions) * 1000:.0f} ms a decision"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--partnerships", action="store_true")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ismcts", type=int, default=0, metavar="HANDS", help="also play IS-MCTS against random")
    parser.add_argument("--simulations", type=int, default=50, help="IS-MCTS simulations a decision (default 50)")
    args = parser.parse_args()
    seats = {"preset": args.preset, "players": args.players, "partnerships": args.partnerships}
    runs = (("pettingzoo", bench_pettingzoo), ("gymnasium", bench_gymnasium), ("openspiel", bench_openspiel))
    for name, run in runs:
        steps, episodes, wall = run(seats, args.seconds, args.seed)
        print(
            f"{name:10} {args.preset} {args.players}p: {steps} steps, {episodes} hands in {wall:.2f} s"
            f"  = {steps / wall:8.0f} steps/s  {episodes / wall:6.1f} hands/s"
        )
    if args.ismcts:
        print(bench_ismcts(seats, args.ismcts, args.simulations, args.seed))


if __name__ == "__main__":
    main()
