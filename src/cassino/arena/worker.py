"""What runs in a worker: rebuild the rules and players of a task, play the game, return plain data.

This module and ``match`` are the only code an executor ships to its workers; they import the
engine and the player registry, nothing else, so spawning a process or a Ray worker stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from ..players import Player, make_player
from ..rules import Rules
from .match import GameResult, play_game
from .schedule import GameTask

PlayerMaker: TypeAlias = Callable[[GameTask, int], Player]
"""Makes the player of a task's seat (the task, the seat): from its spec in a worker
(``spec_player``); ``match`` plays players of its caller's own in this process with another."""


def spec_player(task: GameTask, seat: int) -> Player:
    """The seat's player made from its spec and seed: what every worker does."""
    return make_player(task.seats[seat], task.player_seeds[seat])


def play_task(task: GameTask, make: PlayerMaker = spec_player) -> GameResult:
    """Play one task; the players are created here, by ``make`` (from their specs and seeds)."""
    rules = Rules.from_json(task.rules)
    players = [make(task, seat) for seat in range(len(task.seats))]
    return play_game(rules, players, task.deal_seed, max_hands=task.max_hands, index=task.index)


def play_chunk(tasks: Sequence[GameTask]) -> list[GameResult]:
    """Play several tasks in a row: one round trip to a worker for many short games."""
    return [play_task(t) for t in tasks]
