"""The engine's errors, under the one base of the package: ``except cassino.CassinoError`` catches
every error the package raises.

Each is a ``ValueError`` (python-chess style) whose message says what was wrong and why. This module
imports nothing of the package (it sits below everything), so every module can import it. The
players and the apps define their own errors beside them (``players.errors``, ``rl.errors``,
``web.errors``, ``cli.errors``), each a ``CassinoError``; ``cassino`` exports the engine's alone.
Each engine module that raises one re-exports it, so ``from cassino.moves import MoveError`` works.
"""

from __future__ import annotations

from collections.abc import Sequence


class CassinoError(ValueError):
    """The base of every error of the package."""


# ---------------------------------------------------------------- the engine


class CardError(CassinoError):
    """A card string that names no card."""


class MoveError(CassinoError):
    """A move string that cannot be read, or a move code that names no move."""


class MoveTypeError(MoveError, TypeError):
    """Something given as a move that is no ``Move``, int code or move line: a ``TypeError`` too,
    for callers that catch the type of a wrong argument."""


class IllegalMoveError(CassinoError):
    """A move that the rules forbid in this position; the message names the move and the rule."""

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f"illegal move {move!r}: {reason}")
        self.move = move
        self.reason = reason


class PositionError(CassinoError):
    """A position (JSON) that is malformed or not a consistent Casino position."""


class RulesError(CassinoError):
    """Options that name nothing, have a wrong type, or combine in a way the rules reject."""


class RecordError(CassinoError):
    """A record that cannot be read or does not replay; lists every problem with its line."""

    def __init__(self, problems: Sequence[tuple[int, str]]) -> None:
        self.problems = list(problems)
        text = "; ".join(f"line {n}: {msg}" if n else msg for n, msg in self.problems)
        super().__init__(text)


class UndoError(CassinoError):
    """A move that may not be taken back (none was made, another person at the table, cards dealt
    since): the message says why, in words for the person."""


class NextHandError(CassinoError):
    """No next hand to deal: the hand in play is not over, or the game is won."""


class GameOverError(CassinoError):
    """A command for a game that is over (a forfeit after its end)."""


class ArgumentError(CassinoError):
    """An argument outside what an engine function takes (a negative depth or count, a score per
    side of the wrong length): the message names the argument and what it takes."""


class SeatError(ArgumentError):
    """A seat the game does not have: the message names the seats there are."""


class DeckError(ArgumentError):
    """A deck to deal that is not the 52 cards, each once."""


__all__ = [
    "ArgumentError",
    "CardError",
    "CassinoError",
    "DeckError",
    "GameOverError",
    "IllegalMoveError",
    "MoveError",
    "MoveTypeError",
    "NextHandError",
    "PositionError",
    "RecordError",
    "RulesError",
    "SeatError",
    "UndoError",
]
