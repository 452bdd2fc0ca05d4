"""The PettingZoo AEC environment: every seat an agent, one action of the shared encoding per step.

``env(preset="classic", players=2, ...)`` gives the wrapped environment, ``raw_env`` the bare one.
Observations are ``{"observation": float32 vector, "action_mask": int8 vector}`` (the encodings of
``cassino.rl.encoding``); a seat's reward is paid when a hand ends: its side's points less the mean of
the other sides' points. An action outside the mask raises ``ActionError`` and changes nothing.
"""

from __future__ import annotations

import random
from typing import Any, Unpack

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..cards import format_cards
from ..state import build_text
from .encoding import NUM_ACTIONS, OBS_HIGH, OBS_SIZE
from .table import RuleArgs, Table, check_render_mode, rules_for


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's order checks around it (the usual entry point)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801  (PettingZoo's name for the bare class)
    """Casino for 2-4 agents ``player_0`` .. ``player_{n-1}`` (seat order; partners sit opposite)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "cassino_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, episode: str = "hand", render_mode: str | None = None, **rule_args: Unpack[RuleArgs]) -> None:
        """``rule_args``: ``rules``, or ``preset``, ``players``, ``partnerships`` and ``options``
        (``table.RuleArgs``); ``episode``: ``hand`` or ``game``."""
        super().__init__()
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.rules = rules_for(rule_args)
        self.table = Table(self.rules, episode)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=OBS_HIGH, shape=(OBS_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seeds = random.Random()
        self._start()

    def _start(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_move]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode: the deal comes from ``seed`` (or from the seeds drawn since the last one)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.table.reset(self._seeds.getrandbits(64))
        self._start()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        return {"observation": self.table.observation(seat), "action_mask": self.table.mask(seat)}

    def action_mask(self, agent: str) -> Any:
        """The legal actions of ``agent`` now (all 0 unless it is its decision)."""
        return self.table.mask(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move and must give an action, not None")
        self._cumulative_rewards[agent] = 0.0
        rewards = self.table.step(int(action))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if rewards is not None:
            for seat, r in enumerate(rewards):
                self.rewards[self.possible_agents[seat]] = r
        if self.table.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.table.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public table as text (no hidden card): ``ansi`` returns it, ``human`` prints it."""
        if self.render_mode is None:
            return None
        state = self.table.state
        builds = ", ".join(build_text(b, " by player_") for b in state.builds)
        lines = [
            f"{self.rules.describe()}; scores {list(state.scores)}",
            f"table: {format_cards(state.loose) or '-'}" + (f"; builds: {builds}" if builds else ""),
            "hand sizes: " + ", ".join(f"player_{i} {h.bit_count()}" for i, h in enumerate(state.hands)),
            f"stock: {len(state.remaining_stock)}; to move: {self.agent_selection}",
        ]
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
