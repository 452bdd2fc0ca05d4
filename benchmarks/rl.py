"""Environment steps per second with random legal actions: the PettingZoo AEC environment (each
step observes the agent to move, mask included, and takes one action) and the OpenSpiel game
(legal actions and one action per step, chance nodes counted as steps too).

    python benchmarks/rl.py                          # classic, 2 players, 3 seconds each
    python benchmarks/rl.py --preset royal --players 4 --partnerships --seconds 5

Needs the rl extra: pip install -e '.[rl]'.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel

import cassino.rl.openspiel_game  # noqa: F401  (registers python_cassino)
from cassino.rl.aec import raw_env


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--partnerships", action="store_true")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seats = {"preset": args.preset, "players": args.players, "partnerships": args.partnerships}
    for name, run in (("pettingzoo", bench_pettingzoo), ("openspiel", bench_openspiel)):
        steps, episodes, wall = run(seats, args.seconds, args.seed)
        print(
            f"{name:10} {args.preset} {args.players}p: {steps} steps, {episodes} hands in {wall:.2f} s"
            f"  = {steps / wall:8.0f} steps/s  {episodes / wall:6.1f} hands/s"
        )


if __name__ == "__main__":
    main()
