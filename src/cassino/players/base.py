"""The player interface, the registry of players by name, and ``decide``, the one place where a
player is shown a position.

Players are named by a spec ``name`` or ``name:key=value,key=value`` (for example
``search:time=0.5`` or ``search:worlds=40``); the keys are the player's own settings.

A player of your own needs no base class: any object with a ``name`` and a ``choose(view)`` that
returns one of the view's legal moves will do (see ``Player``), and ``register`` gives it a spec.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..moves import Move, MoveCode
from ..state import State
from ..view import View, view_of


class Player(Protocol):
    """Anything that picks a legal move from a seat's view.

    ``decide`` calls ``choose`` only when the view's seat is to move, with that seat's ``View``
    alone (no hidden card, no way back to the ``State``). It returns a ``Move`` (one of
    ``view.legal_moves()``) or its int code (one of ``view.legal``, the built-in players' fast path):
    both are accepted so that a first bot needs no decoding; ``Game.play`` refuses an illegal one.
    """

    name: str

    def choose(self, view: View) -> MoveCode | Move:
        """One of the view's legal moves: a ``Move`` of ``view.legal_moves()`` or a code of ``view.legal``."""
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
    return choose_code(player, view_of(state, state.to_move))


def choose_code(player: Player, view: View) -> MoveCode:
    """``player.choose(view)`` as a move code, whether the player returned a ``Move`` or a code,
    so that callers past this point keep to ints."""
    choice = player.choose(view)
    if isinstance(choice, Move):
        return choice.code
    if isinstance(choice, int) and not isinstance(choice, bool):
        return choice
    raise TypeError(
        f"player {getattr(player, 'name', player)!r} returned {choice!r}: choose(view) must return "
        "one of view.legal_moves() (a Move) or one of view.legal (its int code)"
    )
