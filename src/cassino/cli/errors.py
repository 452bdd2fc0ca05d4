"""The ``cassino`` command's errors, each a ``cassino.CassinoError``: ``main`` prints any of them as
one line on standard error and exits with status 2 (``cassino verify`` with 1 for a game that does
not check out)."""

from __future__ import annotations

from ..errors import CassinoError


class CliError(CassinoError):
    """A user error of the ``cassino`` command: printed as one line on standard error, exit status 2."""


class ArenaUsageError(CassinoError):
    """A bad ``cassino arena`` command line: printed as one line, exit status 2."""


class NotVerifiedError(CassinoError):
    """A game file whose deals, moves or scores do not check out: ``cassino verify`` names the
    first hand and what fails (exit status 1; a file that is no game file at all is a user error)."""


__all__ = ["ArenaUsageError", "CliError", "NotVerifiedError"]
