"""What a table refuses: each refusal says what was asked and why, and changes nothing.

The kinds are the table's own, not a transport's: the web answers each with its HTTP status
(``web.errors``), the terminal with a line; all are ``CassinoError``.
"""

from __future__ import annotations

from ..errors import CassinoError


class TableError(CassinoError):
    """A command the table refuses."""


class BadCommandError(TableError):
    """A command whose argument is malformed: not a move's number, an unknown lesson."""


class NotSeatedError(TableError):
    """A command only a seat may give, from a spectator or from another seat."""


class NotNowError(TableError):
    """A command that is well formed but not allowed now: out of turn, during the count, after
    the game, a move that may no longer be taken back, a position the game has left."""


class ClosedError(TableError):
    """A command to a table that was closed (abandoned): it is shown as it was left."""


class NoSuchMoveError(TableError):
    """A move number the game has not reached."""


__all__ = ["BadCommandError", "ClosedError", "NoSuchMoveError", "NotNowError", "NotSeatedError", "TableError"]
