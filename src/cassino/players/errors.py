"""The players' error, a ``cassino.CassinoError`` (the players import only the engine)."""

from __future__ import annotations

from ..errors import CassinoError


class WeightsError(CassinoError):
    """A weights file of a learned player that is not one (or is cut short): its path and why."""


__all__ = ["WeightsError"]
