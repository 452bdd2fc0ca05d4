"""The seats of a table: a person's (empty until someone holds it) or a computer player's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..players import Player, make_player

HUMAN: Final = "human"
"""A person's seat: empty until someone holds it (``holder``)."""
BOT: Final = "bot"
"""A computer player's seat: its player (``bot``, a spec) is made from the seat's seed."""
KINDS: Final = (HUMAN, BOT)
DEFAULT_OPPONENT: Final = "casual"
"""The computer player a new game seats when none is named: the middle of the ladder of levels."""


@dataclass
class Seat:
    """One seat: who sits there and, for a computer player, how it is made again (spec and seed,
    so a stored game rebuilds the same player)."""

    seat: int
    kind: str
    name: str
    bot: str = ""
    """A computer player's spec (``make_player``)."""
    seed: int = 0
    """A computer player's seed, from which it was made (and each of its moves' seeds drawn)."""
    player: Player | None = None
    holder: str = ""
    """Who holds a person's seat, in the app's own terms (a token's hash, an account); "" while
    the seat is empty. The table only asks whether it is held."""

    @classmethod
    def person(cls, seat: int, name: str, holder: str = "") -> Seat:
        """A person's seat, held by ``holder`` ("" leaves it empty until claimed)."""
        return cls(seat, HUMAN, name, holder=holder)

    @classmethod
    def computer(cls, seat: int, spec: str, seed: int, name: str = "", player: Player | None = None) -> Seat:
        """A computer player's seat: ``player``, or one made from ``spec`` and ``seed``."""
        made = player if player is not None else make_player(spec, seed)
        return cls(seat, BOT, name or f"{spec} ({seat})", bot=spec, seed=seed, player=made)

    @property
    def joined(self) -> bool:
        """True when someone sits there: a computer player, or a person who holds the seat."""
        return self.kind == BOT or bool(self.holder)


__all__ = ["BOT", "DEFAULT_OPPONENT", "HUMAN", "KINDS", "Seat"]
