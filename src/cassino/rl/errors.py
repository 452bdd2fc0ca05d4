"""The research environments' error, a ``cassino.CassinoError``; it needs no ``rl`` extra (numpy),
so a caller can catch it whatever is installed."""

from __future__ import annotations

from ..errors import CassinoError


class ActionError(CassinoError):
    """An action that is not legal at this step (outside the mask) or not in the action space."""


__all__ = ["ActionError"]
