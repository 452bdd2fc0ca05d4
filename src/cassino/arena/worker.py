"""What runs in a worker: rebuild the rules and players of a task, play the game, return plain data.

This module is the only code an executor ships to its workers; it imports the engine and the player
registry, nothing else, so spawning a process or a Ray worker stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..match import play_game
from ..players import make_player
from ..rules import Rules
from .schedule import GameTask


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one task, by side and by seat; ``think_seconds`` is the only timing in it."""

    index: int
    winner: int
    scores: tuple[int, ...]
    hand_points: tuple[tuple[int, ...], ...]
    moves: int
    seat_moves: tuple[int, ...]
    think_seconds: tuple[float, ...]


def play_task(task: GameTask) -> GameResult:
    """Play one task; the players are created here, from their specs and seeds."""
    rules = Rules.from_json(task.rules)
    players = [make_player(spec, seed) for spec, seed in zip(task.seats, task.player_seeds, strict=True)]
    out = play_game(rules, players, task.deal_seed, max_hands=task.max_hands)
    return GameResult(task.index, out.winner, out.scores, out.hand_points, out.moves, out.seat_moves, out.think_seconds)


def play_chunk(tasks: Sequence[GameTask]) -> list[GameResult]:
    """Play several tasks in a row: one round trip to a worker for many short games."""
    return [play_task(t) for t in tasks]
