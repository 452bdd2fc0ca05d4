"""What runs in a worker: rebuild the rules and players of a task, play the game, return plain data.

This module and ``match`` are the only code an executor ships to its workers; they import the
engine, the player registry and what stops the bots' processes, nothing else, so spawning a
process or a Ray worker stays cheap.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Sequence
from types import FrameType
from typing import TypeAlias

from ..bots.program import stop_all
from ..players import Player, make_player
from ..players.base import close_player
from ..rules import Rules
from .game import GameResult, play_game
from .schedule import GameTask

PlayerMaker: TypeAlias = Callable[[GameTask, int], Player]
"""Makes the player of a task's seat (the task, the seat): from its spec in a worker
(``spec_player``); ``match`` plays players of its caller's own in this process with another."""


def spec_player(task: GameTask, seat: int) -> Player:
    """The seat's player made from its spec and seed: what every worker does."""
    return make_player(task.seats[seat], task.player_seeds[seat])


def play_task(task: GameTask, make: PlayerMaker = spec_player) -> GameResult:
    """Play one task; the players are created here, by ``make`` (from their specs and seeds), and
    closed after the game (a program's process stopped), however it ended."""
    rules = Rules.from_json(task.rules)
    players: list[Player] = []
    try:
        for seat in range(len(task.seats)):
            players.append(make(task, seat))
        return play_game(rules, players, task.deal_seed, max_hands=task.max_hands, index=task.index)
    finally:
        for player in players:
            close_player(player)


def play_chunk(tasks: Sequence[GameTask]) -> list[GameResult]:
    """Play several tasks in a row: one round trip to a worker for many short games."""
    return [play_task(t) for t in tasks]


def prepare_worker() -> None:
    """Run in each worker process of a pool as it starts: the pool ends its workers with SIGTERM
    after Ctrl-C, which would leave the programs of the games under way (bots, in sessions of their
    own) running; they are killed first."""
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(number: int, frame: FrameType | None) -> None:
    """SIGTERM in a worker: kill the programs it started, then end at once, as SIGTERM would."""
    stop_all()
    os._exit(128 + number)
