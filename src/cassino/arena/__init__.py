"""Matches and round-robin tournaments between computer players, on mirrored deals, with
confidence intervals and ratings, played in-process, on local processes or on Ray.

The same seed gives the same games and the same figures under every executor: the plan is a pure
function of the settings, players are built in the worker from their spec and a derived seed, and
results are summed in task order.

``match`` plays one from Python, with players given as specs or as the caller's own objects:
``print(match(["greedy", MyBot()], deals=50).report())``; one game is played by ``play_game``
(``arena.game``). ``tournament`` plays a Swiss or an arena (``arena.rounds``), paired and scored
by the club's code (``club.pairing``, ``club.standings``), every table of a round on the same cards.
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
from .game import GameResult, play_game
from .report import write_outputs
from .rounds import Deal, TournamentConfig, TournamentResult, format_tournament, run_tournament, tournament
from .schedule import GameTask, derive_seed, plan, seatings
from .selfplay import Batch, play_hands
from .stats import Ratings, bradley_terry, wilson
from .tournament import ArenaConfig, ArenaResult, Entrant, format_report, identical_part, match, run_arena
from .worker import PlayerMaker, play_task, spec_player

__all__ = [
    "EXECUTORS",
    "ArenaConfig",
    "ArenaResult",
    "Batch",
    "Deal",
    "Entrant",
    "Executor",
    "GameResult",
    "GameTask",
    "InProcessExecutor",
    "PlayerMaker",
    "ProcessExecutor",
    "Ratings",
    "RayExecutor",
    "TournamentConfig",
    "TournamentResult",
    "bradley_terry",
    "derive_seed",
    "format_report",
    "format_tournament",
    "identical_part",
    "make_executor",
    "match",
    "plan",
    "play_game",
    "play_hands",
    "play_task",
    "run_arena",
    "run_tournament",
    "seatings",
    "spec_player",
    "tournament",
    "wilson",
    "write_outputs",
]
