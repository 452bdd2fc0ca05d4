"""What a table's commands did, for the front ends to render or send: each command answers the
events it caused, oldest first. The table's state is the truth; events say what changed in it."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import CardMask
from ..moves import MoveCode
from ..scoring import HandScore


@dataclass(frozen=True, slots=True)
class Moved:
    """``seat`` played ``code`` as move number ``ply`` of the game (from 0)."""

    seat: int
    code: MoveCode
    ply: int


@dataclass(frozen=True, slots=True)
class Dealt:
    """New cards came from the stock: a deal within the hand, or (``new_hand``) the next hand."""

    hand: int
    new_hand: bool


@dataclass(frozen=True, slots=True)
class HandEnded:
    """Hand ``number`` was counted: its score and the game's scores after it."""

    number: int
    dealer: int
    result: HandScore
    scores: tuple[int, ...]
    residue: CardMask = 0
    """The cards left on the table when the hand's last card was played (public: every one was
    face up); they went to ``residue_seat``, the last to capture (rule 8.1)."""
    residue_seat: int = -1
    """-1 when nobody captured: the residue then counts for nobody."""


@dataclass(frozen=True, slots=True)
class CountStarted:
    """Play waits until every person has pressed next (or ``deadline``, epoch seconds, passes)."""

    hand: int
    deadline: float | None


@dataclass(frozen=True, slots=True)
class Pressed:
    """``seat`` pressed next in the count."""

    seat: int


@dataclass(frozen=True, slots=True)
class CountEnded:
    """The count is over: hand ``hand`` is played from now."""

    hand: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The table is over: side ``winner`` has won, or (-1) the table's last hand was counted."""

    winner: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Forfeited:
    """``seat`` could not go on (its program hung, crashed or answered no legal move) and lost the
    game for its side; ``reason`` says why in one line. A ``GameOver`` follows."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class TakenBack:
    """These moves, oldest first as (seat, code), were taken back; the game is at ``ply`` again."""

    moves: tuple[tuple[int, MoveCode], ...]
    ply: int


Event = Moved | Dealt | HandEnded | CountStarted | Pressed | CountEnded | Forfeited | GameOver | TakenBack
"""Anything a command can answer."""

__all__ = [
    "CountEnded",
    "CountStarted",
    "Dealt",
    "Event",
    "Forfeited",
    "GameOver",
    "HandEnded",
    "Moved",
    "Pressed",
    "TakenBack",
]
