"""The player interface and the registry of players by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..moves import MoveCode
from ..view import View


class Player(Protocol):
    """Anything that picks a legal move from a seat's view."""

    name: str

    def choose(self, view: View) -> MoveCode:
        """One of ``view.legal``."""
        ...


_REGISTRY: dict[str, Callable[[int | None], Player]] = {}


def register(name: str, factory: Callable[[int | None], Player]) -> None:
    """Make a player available by name (``factory(seed)`` builds one)."""
    _REGISTRY[name] = factory


def player_names() -> list[str]:
    """The names of every registered player."""
    return sorted(_REGISTRY)


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by name; an unknown name raises ValueError listing the known ones."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown player {name!r}: choose one of {', '.join(player_names())}") from None
    return factory(seed)
