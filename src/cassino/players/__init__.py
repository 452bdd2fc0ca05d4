"""Computer players, chosen by name; each decides from a seat's ``View`` alone."""

from __future__ import annotations

from .alphamu import AlphaMuPlayer
from .base import Player, choose_code, decide, make_player, player_names, register
from .greedy import GreedyPlayer
from .heuristic import HeuristicPlayer
from .learned import LearnedPlayer
from .levels import LEVELS, FalliblePlayer, Level, level_names
from .random import RandomPlayer
from .search import CheaterPlayer, SearchPlayer

__all__ = [
    "LEVELS",
    "AlphaMuPlayer",
    "CheaterPlayer",
    "FalliblePlayer",
    "GreedyPlayer",
    "HeuristicPlayer",
    "LearnedPlayer",
    "Level",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "choose_code",
    "decide",
    "level_names",
    "make_player",
    "player_names",
    "register",
]
