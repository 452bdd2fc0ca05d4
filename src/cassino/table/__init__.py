"""One live table for every front end: the game, its seats and phases, undo, computer players'
turns, each side's trackers and each learner's lessons and coach; commands in, events out, no
input or output.

The web server, the terminal and the research environments all drive a ``Table``, so they cannot
disagree about when a move may be made or taken back, when a hand is counted or who moves next.
This layer sits above the engine, the players and the teaching library, and below every app.
"""

from __future__ import annotations

from .errors import BadCommandError, ClosedError, NoSuchMoveError, NotNowError, NotSeatedError, TableError
from .events import CountEnded, CountStarted, Dealt, Event, Forfeited, GameOver, HandEnded, Moved, Pressed, TakenBack
from .live import BotTurn, Frame, Table, finished_hand, side_name
from .seats import BOT, CHARACTERS, DEFAULT_OPPONENT, HUMAN, KINDS, PEOPLE, Seat, default_names
from .teaching import LESSON_IDS, Learner, Teaching, checked_seen
from .trackers import SideTracker, side_trackers, unseen_by_suit

__all__ = [
    "BOT",
    "CHARACTERS",
    "DEFAULT_OPPONENT",
    "HUMAN",
    "KINDS",
    "LESSON_IDS",
    "PEOPLE",
    "BadCommandError",
    "BotTurn",
    "ClosedError",
    "CountEnded",
    "CountStarted",
    "Dealt",
    "Event",
    "Forfeited",
    "Frame",
    "GameOver",
    "HandEnded",
    "Learner",
    "Moved",
    "NoSuchMoveError",
    "NotNowError",
    "NotSeatedError",
    "Pressed",
    "Seat",
    "SideTracker",
    "Table",
    "TableError",
    "TakenBack",
    "Teaching",
    "checked_seen",
    "default_names",
    "finished_hand",
    "side_name",
    "side_trackers",
    "unseen_by_suit",
]
