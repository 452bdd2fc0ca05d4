"""The player interface, the registry of players by name, and ``decide``, the one place where a
player is shown a position.

Players are named by a spec ``name`` or ``name:key=value,key=value`` (for example
``search:time=0.5`` or ``search:worlds=40``); the keys are the player's own settings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..moves import MoveCode
from ..state import State
from ..view import View, view_of


class Player(Protocol):
    """Anything that picks a legal move from a seat's view."""

    name: str

    def choose(self, view: View) -> MoveCode:
        """One of ``view.legal``."""
        ...


class OmniscientPlayer(Protocol):
    """A benchmark that sees every card (the ``cheater``): it is handed the full position."""

    name: str
    sees_all: bool

    def choose_full(self, state: State) -> MoveCode:
        """One of ``state.legal_codes()``, for the seat to move."""
        ...


Factory = Callable[..., Any]
_REGISTRY: dict[str, Factory] = {}


def register(name: str, factory: Factory) -> None:
    """Make a player available by name (``factory(seed=..., **settings)`` builds one)."""
    _REGISTRY[name] = factory


def player_names() -> list[str]:
    """The names of every registered player."""
    return sorted(_REGISTRY)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``name:key=value,...`` into the name and its settings (numbers read as numbers)."""
    name, _, rest = spec.partition(":")
    settings: dict[str, Any] = {}
    for part in filter(None, rest.split(",")):
        key, sep, raw = part.partition("=")
        if not sep:
            raise ValueError(f"player setting {part!r} in {spec!r} must be written key=value")
        value: Any = raw
        for conv in (int, float):
            try:
                value = conv(raw)
                break
            except ValueError:
                continue
        settings[key.strip()] = value
    return name.strip(), settings


def make_player(spec: str, seed: int | None = None) -> Player:
    """A player from its spec; an unknown name or setting raises ValueError saying which."""
    name, settings = parse_spec(spec)
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown player {name!r}: choose one of {', '.join(player_names())}") from None
    try:
        player: Player = factory(seed=seed, **settings)
    except TypeError as exc:
        raise ValueError(f"bad settings for player {name!r}: {exc}") from None
    return player


def decide(player: Player, state: State) -> MoveCode:
    """Ask ``player`` for the move of the seat to move: it sees that seat's view only, except a
    declared omniscient benchmark, which is handed a copy of the whole position."""
    if getattr(player, "sees_all", False):
        return player.choose_full(state.copy())  # type: ignore[attr-defined, no-any-return]
    return player.choose(view_of(state, state.to_move))
