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


class PlayerFaultError(CassinoError):
    """A player that could not give a legal move (its program hung, crashed, answered garbage or an
    illegal move): ``player`` is its name, ``reason`` one line saying what happened. The seat
    forfeits its game (``Game.forfeit``); every other game goes on."""

    def __init__(self, player: str, reason: str) -> None:
        super().__init__(f"player {player!r}: {reason}")
        self.player = player
        self.reason = reason

    def __reduce__(self) -> tuple[type[PlayerFaultError], tuple[str, str]]:
        """Rebuilt from its two fields: it crosses back from the worker process that ran the player."""
        return (PlayerFaultError, (self.player, self.reason))


__all__ = ["PlayerChoiceError", "PlayerFaultError", "PlayerSpecError", "WeightsError"]
