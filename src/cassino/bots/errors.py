"""The bot protocol's errors, each a ``cassino.CassinoError`` (a bot's faults are the players'
``PlayerFaultError``; these are what the protocol's reader refuses)."""

from __future__ import annotations

from ..errors import CassinoError


class ProtocolError(CassinoError):
    """Protocol text that cannot be read (a decision without its position, a line of the wrong
    shape): the message names the line and what it should be (docs/bots.md)."""


__all__ = ["ProtocolError"]
