"""The players' errors, each a ``cassino.CassinoError`` (the players import only the engine)."""

from __future__ import annotations

from ..errors import CassinoError


class WeightsError(CassinoError):
    """A weights file of a learned player that is not one (or is cut short): its path and why."""


class PlayerSpecError(CassinoError):
    """A player spec naming no player, a setting the player has not, or a value of the wrong kind:
    the message names the valid choices and, for a near miss, the one probably meant."""


class PlayerChoiceError(CassinoError, TypeError):
    """A player whose ``choose`` returned something that is no move (a ``TypeError`` too: the
    player's code is at fault, not the game)."""


__all__ = ["PlayerChoiceError", "PlayerSpecError", "WeightsError"]
