"""The players' errors, each a ``cassino.CassinoError`` (the players import only the engine)."""

from __future__ import annotations

from ..errors import CassinoError


class WeightsError(CassinoError):
    """A weights file of a learned player that is not one (or is cut short): its path and why."""


class PlayerSpecError(CassinoError):
    """A player spec naming no player, a setting the player has not, or a value of the wrong kind:
    the message names the valid choices and, for a near miss, the one probably meant."""


class PlayerFaultError(CassinoError):
    """A player that failed to move: it answered no move or an illegal one, or (a program) hung,
    crashed or printed garbage. ``player`` is its name and ``reason`` one line saying what went
    wrong, so that a match can end that player's game as a forfeit and go on with the others."""

    def __init__(self, player: str, reason: str) -> None:
        super().__init__(f"player {player!r} {reason}")
        self.player = player
        self.reason = reason

    def __reduce__(self) -> tuple[type[PlayerFaultError], tuple[str, str]]:
        """Pickled as its two fields: a fault crosses from a worker process to the caller."""
        return (type(self), (self.player, self.reason))


class PlayerChoiceError(PlayerFaultError, TypeError):
    """A player whose ``choose`` returned something that is no move: a fault like any other, and a
    ``TypeError`` too, since the player's code is at fault, not the game."""


__all__ = ["PlayerChoiceError", "PlayerFaultError", "PlayerSpecError", "WeightsError"]
