"""cassino: the card game Casino (Cassino) with every classic variant, exact and fast.

The engine (cards, rules, moves, positions, games) imports nothing outside the standard library.
``COMPILED`` says whether its hot path runs compiled by mypyc or as Python source (``native``).
"""

from __future__ import annotations

from .native import COMPILED  # first: it decides whether the engine's compiled modules load

# isort: split
from .cards import Card, CardMask, card_name, parse_card
from .cardset import CardSet
from .errors import (
    ArgumentError,
    CardError,
    CassinoError,
    DeckError,
    GameOverError,
    IllegalMoveError,
    MoveError,
    MoveTypeError,
    NextHandError,
    PositionError,
    RecordError,
    RulesError,
    SeatError,
    UndoError,
)
from .game import Forfeit, Game, Outcome
from .moves import Move
from .notation import position_from_json, position_from_line, position_to_json, position_to_line
from .perft import perft
from .rules import PRESETS, Rules, make_rules
from .scoring import HandScore
from .state import Build, State
from .view import View, view_of

__version__ = "0.1.0"

__all__ = [
    "COMPILED",
    "PRESETS",
    "ArgumentError",
    "Build",
    "Card",
    "CardError",
    "CardMask",
    "CardSet",
    "CassinoError",
    "DeckError",
    "Forfeit",
    "Game",
    "GameOverError",
    "HandScore",
    "IllegalMoveError",
    "Move",
    "MoveError",
    "MoveTypeError",
    "NextHandError",
    "Outcome",
    "PositionError",
    "RecordError",
    "Rules",
    "RulesError",
    "SeatError",
    "State",
    "UndoError",
    "View",
    "card_name",
    "make_rules",
    "parse_card",
    "perft",
    "position_from_json",
    "position_from_line",
    "position_to_json",
    "position_to_line",
    "view_of",
]
