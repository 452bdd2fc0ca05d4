"""The web app's errors, each a ``cassino.CassinoError``.

They live apart from the modules that raise them (``service``, ``store``, ``i18n``, ``app``) and
import nothing but the engine's base, so that ``from cassino.web.errors import ServiceError`` works
without the ``web`` extra (FastAPI, SQLAlchemy, Babel): a caller can catch them without it.
"""

from __future__ import annotations

from typing import Any

from ..errors import CassinoError


class ServiceError(CassinoError):
    """A request the web service refuses: an HTTP status and a message naming what was wrong."""

    def __init__(self, status: int, message: str, *, headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra: dict[str, Any] = extra
        """More fields for the error's JSON (``watch``: the spectator link after a wrong link)."""
        self.headers: dict[str, str] = headers or {}
        """Headers of the HTTP answer (``Retry-After`` with a 429)."""

    def payload(self) -> dict[str, Any]:
        """The error as JSON: ``{"error": message, ...extra}``."""
        return {"error": self.message, **self.extra}


class StoreError(CassinoError, RuntimeError):
    """A write that the database refused (the game in memory is rolled back with it).

    Also a ``RuntimeError``, as it was before the common base, so older handlers still catch it."""


class StaleGameError(StoreError):
    """A write for a position the game has left: another server process (or request) stored a move
    or a takeback first. Nothing was written; the game is read again from the database."""


class StaleDealError(StaleGameError):
    """A deal whose deck left out a contribution stored meanwhile (by another process): nothing
    was written; the deal is made again with it."""


class CatalogueError(CassinoError):
    """A catalogue that is missing, unreadable, or does not match the English one."""


class ListenError(CassinoError):
    """An address ``cassino serve`` cannot listen on (the port taken, the host unknown): the
    ``cassino`` command prints it as one line, exit status 2, before any address is shown."""


__all__ = ["CatalogueError", "ListenError", "ServiceError", "StaleDealError", "StaleGameError", "StoreError"]
