"""Matches and round-robin tournaments between computer players, on mirrored deals, with
confidence intervals and ratings, played in-process, on local processes or on Ray.

The same seed gives the same games and the same figures under every executor: the plan is a pure
function of the settings, players are built in the worker from their spec and a derived seed, and
results are summed in task order.
"""

from __future__ import annotations

from .executors import (
    EXECUTORS,
    Executor,
    InProcessExecutor,
    ProcessExecutor,
    RayExecutor,
    make_executor,
)
from .match import GameResult, play_game
from .report import format_report, write_outputs
from .schedule import GameTask, derive_seed, plan, seatings
from .selfplay import Batch, play_hands
from .stats import Ratings, bradley_terry, wilson
from .tournament import ArenaConfig, ArenaResult, identical_part, run_arena
from .worker import play_task

__all__ = [
    "EXECUTORS",
    "ArenaConfig",
    "ArenaResult",
    "Batch",
    "Executor",
    "GameResult",
    "GameTask",
    "InProcessExecutor",
    "ProcessExecutor",
    "Ratings",
    "RayExecutor",
    "bradley_terry",
    "derive_seed",
    "format_report",
    "identical_part",
    "make_executor",
    "plan",
    "play_game",
    "play_hands",
    "play_task",
    "run_arena",
    "seatings",
    "wilson",
    "write_outputs",
]
