"""The seats of a table: a person's (empty until someone holds it) or a computer player's."""

from __future__ import annotations

from collections.abc import Sequence
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

CHARACTERS: Final[dict[str, tuple[str, ...]]] = {
    "beginner": ("Pip", "Dot", "Bea", "Tully"),
    "novice": ("Milo", "Nell", "Otto", "Rosa"),
    "casual": ("Sam", "Lena", "Joe", "Maya"),
    "club": ("Vera", "Hugo", "Ines", "Theo"),
    "expert": ("Ada", "Felix", "Greta", "Omar"),
    "master": ("Magnus", "Iris", "Leon", "Zora"),
}
"""The characters of each level of computer player, by name (names, not words: the same in every
language), so that three computer players at one table are three people to follow, not three
copies of "Casual player"."""
PEOPLE: Final = ("Robin", "Sasha", "Kim", "Alex")
"""Names for people who gave none: a name, never a seat number."""


def default_names(specs: Sequence[str | None], given: Sequence[str | None]) -> list[str]:
    """Each seat's name: the one ``given``, else, for a computer player (``specs[s]`` its spec), the
    first character of its level not already at the table (its spec and seat for a player
    without characters), and for a person (spec None) the first free name of ``PEOPLE``."""
    taken = {name for name in given if name}
    names: list[str] = []
    for seat, (spec, name) in enumerate(zip(specs, given, strict=True)):
        if not name:
            roster = PEOPLE if spec is None else CHARACTERS.get(spec, ())
            name = next((n for n in roster if n not in taken), f"{spec or 'Player'} ({seat})")
        taken.add(name)
        names.append(name)
    return names


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


__all__ = ["BOT", "CHARACTERS", "DEFAULT_OPPONENT", "HUMAN", "KINDS", "PEOPLE", "Seat", "default_names"]
