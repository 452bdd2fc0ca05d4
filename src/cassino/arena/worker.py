"""What runs in a worker: rebuild the rules and players of a task, play the game, return plain data.

This module and ``match`` are the only code an executor ships to its workers; they import the
engine and the player registry, nothing else, so spawning a process or a Ray worker stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..players import make_player
from ..rules import Rules
from .match import GameResult, play_game
from .schedule import GameTask


def play_task(task: GameTask) -> GameResult:
    """Play one task; the players are created here, from their specs and seeds."""
    rules = Rules.from_json(task.rules)
    players = [make_player(spec, seed) for spec, seed in zip(task.seats, task.player_seeds, strict=True)]
    return play_game(rules, players, task.deal_seed, max_hands=task.max_hands, index=task.index)


def play_chunk(tasks: Sequence[GameTask]) -> list[GameResult]:
    """Play several tasks in a row: one round trip to a worker for many short games."""
    return [play_task(t) for t in tasks]
