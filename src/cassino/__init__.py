"""cassino: the card game Casino (Cassino) with every classic variant, exact and fast.

The engine (cards, rules, moves, positions, games) imports nothing outside the standard library.
"""

from __future__ import annotations

from .cards import Card, CardMask, card_name, parse_card
from .errors import IllegalMoveError, PositionError
from .game import Game
from .moves import Move, MoveError
from .notation import position_from_json, position_to_json
from .perft import perft
from .rules import PRESETS, Rules, RulesError, make_rules
from .scoring import HandScore
from .state import State

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Card",
    "CardMask",
    "Game",
    "HandScore",
    "IllegalMoveError",
    "Move",
    "MoveError",
    "PositionError",
    "Rules",
    "RulesError",
    "State",
    "card_name",
    "make_rules",
    "parse_card",
    "perft",
    "position_from_json",
    "position_to_json",
]
