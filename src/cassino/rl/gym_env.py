"""The Gymnasium single-agent environment: one seat learns, built-in players hold the others.

The agent's observation is its seat's vector of ``cassino.rl.encoding``; the legal actions are in
``info["action_mask"]`` and ``action_masks()``. The reward is paid when a hand ends: the agent's
side's points less the mean of the other sides' points. The other seats are players from specs
(``make_player``: ``random``, ``greedy``, ``heuristic:risk=0.5``, ...), each asked through ``decide``,
so they see their own seat's view only.

An action outside the mask ends the episode with ``illegal_reward`` by default (``illegal="end"``):
Gymnasium's ``check_env`` and other samplers of unmasked actions step random actions, and an
environment must take any action of its space. ``illegal="raise"`` raises ``ActionError`` instead
and changes nothing, for masked training loops that want a wrong mask to fail loudly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Unpack

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..cards import format_cards
from ..players.base import Player, decide, make_player
from ..state import build_text
from .encoding import NUM_ACTIONS, OBS_HIGH, OBS_SIZE, ActionError, FloatArray, MaskArray
from .table import RuleArgs, Table, check_render_mode, rules_for

ILLEGAL_CHOICES = ("raise", "end")


class CasinoGymEnv(gym.Env[FloatArray, np.int64]):
    """Casino for one learning seat against built-in players."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        episode: str = "hand",
        illegal: str = "end",
        illegal_reward: float = -11.0,
        render_mode: str | None = None,
        **rule_args: Unpack[RuleArgs],
    ) -> None:
        """``rule_args``: ``rules``, or ``preset``, ``players``, ``partnerships`` and ``options``
        (``table.RuleArgs``); the others as the module says."""
        super().__init__()
        self.rules = rules_for(rule_args)
        n = self.rules.players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is out of range for {n} players")
        if illegal not in ILLEGAL_CHOICES:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL_CHOICES)}, got {illegal!r}")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"opponents must name one player spec or {n - 1} of them, got {len(specs)}")
        for spec in specs:
            make_player(spec)  # an unknown name or setting fails here, before any episode
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.specs = specs
        self.seat = seat
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.table = Table(self.rules, episode)
        self.observation_space = spaces.Box(low=0.0, high=OBS_HIGH, shape=(OBS_SIZE,), dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._bots: dict[int, Player] = {}
        self._ended = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        """A new episode dealt from the environment's seeded generator; the bots move up to the agent's turn."""
        super().reset(seed=seed)
        deal_seed = int(self.np_random.integers(2**63))
        bot_seeds = random.Random(deal_seed)
        others = [s for s in range(self.rules.players) if s != self.seat]
        self._bots = {
            s: make_player(spec, seed=bot_seeds.getrandbits(64)) for s, spec in zip(others, self.specs, strict=True)
        }
        dealer = int(self.np_random.integers(self.rules.players))
        self.table.reset(deal_seed, dealer)
        self._ended = False
        self._bots_move()  # a hand cannot end before the agent's first move
        return self._obs(), self._info()

    def _bots_move(self) -> float:
        """Let the other seats play until the agent decides or the episode ends; the agent's reward meanwhile."""
        table = self.table
        total = 0.0
        while not table.over and table.to_move != self.seat:
            rewards = table.play(decide(self._bots[table.to_move], table.state))
            if rewards is not None:
                total += rewards[self.seat]
        return total

    def _obs(self) -> FloatArray:
        return self.table.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "hands_played": self.table.hands_played}

    def action_masks(self) -> MaskArray:
        """The agent's legal actions now (all 0 once the episode is over)."""
        return self.table.mask(self.seat)

    def step(self, action: np.int64 | int) -> tuple[FloatArray, float, bool, bool, dict[str, Any]]:
        if self._ended:
            raise ValueError("the episode is over: call reset()")
        try:
            rewards = self.table.step(int(action))
        except ActionError:
            if self.illegal == "raise":
                raise
            self._ended = True
            info = self._info()
            info["illegal_action"] = int(action)
            return self._obs(), float(self.illegal_reward), True, False, info
        reward = rewards[self.seat] if rewards is not None else 0.0
        reward += self._bots_move()
        self._ended = self.table.over
        return self._obs(), float(reward), self._ended, False, self._info()

    def render(self) -> str | None:
        """The agent's view as text: its hand, the table and the scores."""
        if self.render_mode is None:
            return None
        state = self.table.state
        builds = ", ".join(build_text(b, " by seat ") for b in state.builds)
        return (
            f"seat {self.seat} hand: {format_cards(state.hands[self.seat])}\n"
            f"table: {format_cards(state.loose) or '-'}" + (f"; builds: {builds}" if builds else "") + "\n"
            f"scores: {list(state.scores)}"
        )


GYM_ID = "cassino/Casino-v0"
"""The id ``gymnasium.make`` knows the environment by once this module is imported."""

if GYM_ID not in gym.registry:
    gym.register(id=GYM_ID, entry_point="cassino.rl.gym_env:CasinoGymEnv")
