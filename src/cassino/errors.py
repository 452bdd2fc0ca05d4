"""Every error the package raises, under one base: ``except cassino.CassinoError`` catches them all.

Each is a ``ValueError`` (python-chess style) whose message says what was wrong and why. They are
all defined here, the apps' too, so that this module imports nothing of the package (it sits below
everything) and ``cassino`` can export every one without importing an app or its extra: a caller
can catch ``cassino.ServiceError`` without FastAPI installed. Each module that raises one re-exports
it, so ``from cassino.moves import MoveError`` keeps working.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class CassinoError(ValueError):
    """The base of every error of the package."""


# ---------------------------------------------------------------- the engine


class CardError(CassinoError):
    """A card string that names no card."""


class MoveError(CassinoError):
    """A move string that cannot be read."""


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


# ---------------------------------------------------------------- the apps (raised by cassino.rl, .web, .arena, .cli)


class ActionError(CassinoError):
    """An action that is not legal at this step (outside the mask) or not in the action space."""


class WeightsError(CassinoError):
    """A weights file of a learned player that is not one (or is cut short): its path and why."""


class CatalogueError(CassinoError):
    """A catalogue that is missing, unreadable, or does not match the English one."""


class StoreError(CassinoError, RuntimeError):
    """A write that the database refused (the game in memory is rolled back with it).

    Also a ``RuntimeError``, as it was before the common base, so older handlers still catch it."""


class StaleGameError(StoreError):
    """A write for a position the game has left: another server process (or request) stored a move
    or a takeback first. Nothing was written; the game is read again from the database."""


class StaleDealError(StaleGameError):
    """A deal whose deck left out a contribution stored meanwhile (by another process): nothing
    was written; the deal is made again with it."""


class ServiceError(CassinoError):
    """A request the web service refuses: an HTTP status and a message naming what was wrong."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra: dict[str, Any] = extra
        """More fields for the error's JSON (``watch``: the spectator link after a wrong link)."""

    def payload(self) -> dict[str, Any]:
        """The error as JSON: ``{"error": message, ...extra}``."""
        return {"error": self.message, **self.extra}


class ArenaUsageError(CassinoError):
    """A bad ``cassino arena`` command line: printed as one line, exit status 2."""


class UndoError(CassinoError):
    """A move that may not be taken back (another person at the table, cards dealt since): the
    message says why, in words for the person."""


class NotVerifiedError(CassinoError):
    """A game file whose deals, moves or scores do not check out: ``cassino verify`` names the
    first hand and what fails (exit status 1; a file that is no game file at all is a user error)."""


class CliError(CassinoError):
    """A user error of the ``cassino`` command: printed as one line on standard error, exit status 2."""


__all__ = [
    "ActionError",
    "ArenaUsageError",
    "CardError",
    "CassinoError",
    "CatalogueError",
    "CliError",
    "IllegalMoveError",
    "MoveError",
    "NotVerifiedError",
    "PositionError",
    "RecordError",
    "RulesError",
    "ServiceError",
    "StaleDealError",
    "StaleGameError",
    "StoreError",
    "UndoError",
    "WeightsError",
]
