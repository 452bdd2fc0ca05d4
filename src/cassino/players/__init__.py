"""Computer players, chosen by name; each decides from a seat's ``View`` alone."""

from __future__ import annotations

from .base import Player, make_player, player_names
from .greedy import GreedyPlayer
from .random import RandomPlayer

__all__ = ["GreedyPlayer", "Player", "RandomPlayer", "make_player", "player_names"]
