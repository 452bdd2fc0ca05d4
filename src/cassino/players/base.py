"""The player interface, the registry of players by name, and ``decide``, the one place where a
player is shown a position.

Players are named by a spec ``name`` or ``name:key=value,key=value`` (for example
``search:time=0.5`` or ``search:worlds=40``); the keys are the player's own settings. Three more
forms name players from outside the package: ``bot:PATH`` (a program speaking the bot protocol of
docs/bots.md, ``cassino.bots``), ``MODULE:NAME`` and ``FILE.py[:NAME]`` (a Python class or factory,
``players.loader``), each with settings after a last colon.

A player of your own needs no base class: any object with a ``name`` and a ``choose(view)`` that
returns one of the view's legal moves will do (see ``Player``), and ``register`` gives it a spec.
"""

from __future__ import annotations

import hashlib
import inspect
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..cards import excerpt
from ..errors import CassinoError
from ..moves import Move, MoveCode
from ..state import State
from ..view import View, view_of
from .errors import PlayerChoiceError, PlayerFaultError, PlayerSpecError


class Player(Protocol):
    """Anything that picks a legal move from a seat's view.

    ``decide`` calls ``choose`` only when the view's seat is to move, with that seat's ``View``
    alone (no hidden card, no way back to the ``State``). It returns a ``Move`` (one of
    ``view.legal_moves()``) or its int code (one of ``view.legal``, the built-in players' fast path):
    both are accepted so that a first bot needs no decoding; ``decide`` refuses an illegal one
    (``PlayerFaultError``). A player that holds something outside Python (a program's process) has a
    ``close()`` too, which ``close_player`` calls when its game is over.
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
SettingKind = type[bool] | type[int] | type[float] | type[str]
"""What a setting's value is read as: a flag, a whole number, a number or text."""
Settings = Mapping[str, SettingKind]
"""A player's settings by name, in the order its messages list them."""
Delegate = Callable[[Mapping[str, str]], tuple[str, dict[str, str]]]
"""For a player built on another (``fallible`` and its ``base``, a level and its spec): given the
settings as written, the other player's name and the settings it is handed."""

KIND_WORDS: dict[SettingKind, str] = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    str: "text",
}


@dataclass(frozen=True, slots=True)
class Entry:
    """A registered player: how to build it, its settings (None: not declared, so any setting is
    handed on, numbers read as numbers), and the player it hands its other settings to, if any."""

    factory: Factory
    settings: Settings | None
    delegate: Delegate | None = None


_REGISTRY: dict[str, Entry] = {}


def register(
    name: str, factory: Factory, settings: Settings | None = None, *, delegate: Delegate | None = None
) -> None:
    """Make a player available by name (``factory(seed=..., **settings)`` builds one).

    ``settings`` names its settings and their kinds (``{"worlds": int, "time": float}``), so that a
    spec is checked, and misspelt names answered with the one meant, before the player is built;
    when not given they are read from the factory's signature where it has one (a parameter with a
    default of each kind), else any setting is handed on. ``delegate`` says which other player a
    player hands the settings it does not name itself to (``fallible`` and its ``base``)."""
    _REGISTRY[name] = Entry(factory, _declared(factory) if settings is None else dict(settings), delegate)


def _declared(factory: Factory) -> Settings | None:
    """The settings a factory's signature declares by their defaults' kinds, or None when it has
    no signature, takes ``**settings``, or has a setting without a default of a known kind."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    found: dict[str, SettingKind] = {}
    for p in parameters:
        if p.name == "seed" or p.kind is inspect.Parameter.VAR_POSITIONAL:
            continue
        kind = type(p.default)
        if p.kind is inspect.Parameter.VAR_KEYWORD or kind not in KIND_WORDS:
            return None
        found[p.name] = kind
    return found


def player_names() -> list[str]:
    """The names of every registered player."""
    return sorted(_REGISTRY)


BOT = "bot"
"""The first part of a ``bot:PATH`` spec: a program speaking the bot protocol (docs/bots.md)."""


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``name:key=value,...`` into the name and its settings as written (PlayerSpecError for a
    setting without ``=``, without a name, or given twice).

    The players from outside keep their target in the name: ``bot:PATH`` (the path runs to the
    last colon that is followed by settings, so ``bot:a:b.sh:time=2`` is the program ``a:b.sh``;
    a path whose last colon is followed by ``=`` ends with ``:``), ``MODULE:NAME`` and
    ``FILE.py[:NAME]``, each followed by ``:key=value,...``."""
    name, rest = _outside(spec) or spec.partition(":")[::2]
    settings: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, raw = (s.strip() for s in part.partition("="))
        if not sep or not key:
            raise PlayerSpecError(f"player setting {excerpt(part)} in {excerpt(spec)} must be written key=value")
        if key in settings:
            raise PlayerSpecError(f"player setting {excerpt(key)} is given twice in {excerpt(spec)}")
        settings[key] = raw
    return name.strip(), settings


def _outside(spec: str) -> tuple[str, str] | None:
    """A spec of a player from outside the registry as (its name with the target, its settings as
    written): ``bot:PATH``, ``FILE.py[:NAME]``, or ``MODULE:NAME`` when the module is no
    registered player's name; None for any other spec."""
    head, colon, rest = spec.partition(":")
    head = head.strip()
    if head == BOT and colon:
        path, sep, tail = rest.rpartition(":")
        if sep and ("=" in tail or not tail.strip()):
            return f"{BOT}:{path}", tail
        return f"{BOT}:{rest}", ""
    if head in _REGISTRY:
        return None
    first, _, more = rest.partition(":")
    named = bool(first.strip()) and "=" not in first
    if head.endswith(".py"):
        return (f"{head}:{first.strip()}", more) if named else (head, rest)
    if named and all(part.isidentifier() for part in head.split(".")):
        return f"{head}:{first.strip()}", more
    return None


def _auto(raw: str) -> Any:
    """A setting's value read as a whole number, else a number, else kept as text."""
    for conv in (int, float):
        try:
            return conv(raw)
        except ValueError:
            continue
    return raw


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``name:key=value,...`` into the name and its settings (numbers read as numbers)."""
    name, raw = split_spec(spec)
    return name, {key: _auto(value) for key, value in raw.items()}


def _entry(name: str) -> Entry:
    """The player of ``name``: a registered one, or one from outside (``bot:PATH``, a Python class
    or factory by ``MODULE:NAME`` or ``FILE.py[:NAME]``, checked now: PlayerSpecError says what is
    missing); PlayerSpecError lists the players, with the one probably meant."""
    entry = _REGISTRY.get(name)
    if entry is not None:
        return entry
    if name.startswith(f"{BOT}:"):
        from ..bots.program import PROGRAM_SETTINGS, program_factory  # only here: a spec of a program

        return Entry(program_factory(name), PROGRAM_SETTINGS)
    if ":" in name or name.endswith(".py"):
        from .loader import load_player  # only here: a spec of a Python class or factory

        factory, settings = load_player(name)
        return Entry(factory, settings)
    names = player_names()
    raise PlayerSpecError(
        f"unknown player {excerpt(name)}{_did_you_mean(name, names)}the players are: {', '.join(names)}"
    )


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    """What goes between a refusal and the list of choices: ``; did you mean 'worlds'? `` for a
    near miss of one of ``choices``, else ``; ``."""
    import difflib  # only here: a refusal is rare, and the import costs a millisecond at every start

    close = difflib.get_close_matches(word, list(choices), n=1)
    return f"; did you mean {close[0]!r}? " if close else "; "


def player_settings(name: str, written: Mapping[str, str] | None = None) -> Settings | None:
    """The settings the player ``name`` takes (with those ``written`` in its spec, which may choose
    the player it hands the rest to), or None when they are not declared."""
    return _settings_of(name, _entry(name), written)


def _settings_of(name: str, entry: Entry, written: Mapping[str, str] | None) -> Settings | None:
    """``player_settings`` of an entry already found."""
    if entry.settings is None:
        return None
    settings = dict(entry.settings)
    if entry.delegate is not None:
        other, handed = entry.delegate(written or {})
        if other != name and other in _REGISTRY:
            more = player_settings(other, handed)
            if more is None:
                return None
            settings.update((key, kind) for key, kind in more.items() if key not in settings)
    return settings


def _read(name: str, key: str, raw: str, kind: SettingKind) -> Any:
    """A setting's value as its kind, or PlayerSpecError quoting it (digits 0-9 only, finite numbers)."""
    if kind is str:
        return raw
    low = raw.lower()
    if kind is bool and low in ("true", "yes", "on", "1", "false", "no", "off", "0"):
        return low in ("true", "yes", "on", "1")
    if kind is not bool and raw.isascii():
        try:
            value = int(raw) if kind is int else float(raw)
        except ValueError:
            pass
        else:
            if math.isfinite(value):
                return value
    raise PlayerSpecError(f"{name}:{key} must be {KIND_WORDS[kind]}, got {excerpt(raw)}")


def make_player(spec: str, seed: int | None = None) -> Player:
    """A player from its spec ``name:key=value,...`` (or ``bot:PATH``, ``MODULE:NAME``,
    ``FILE.py[:NAME]``, each with settings after a last colon); PlayerSpecError names an unknown
    player, an unknown setting or a value of the wrong kind, with the choices there are, or what is
    wrong with a program or a Python file."""
    name, written = split_spec(spec)
    entry = _entry(name)
    settings = _settings_of(name, entry, written)
    values: dict[str, Any] = {}
    for key, raw in written.items():
        if settings is None:
            values[key] = _auto(raw)
            continue
        kind = settings.get(key)
        if kind is None and not settings:
            raise PlayerSpecError(f"{name} takes no settings, got {excerpt(key)}")
        if kind is None:
            raise PlayerSpecError(
                f"{name} has no setting {excerpt(key)}{_did_you_mean(key, settings)}its settings are: {', '.join(settings)}"
            )
        values[key] = _read(name, key, raw, kind)
    try:
        player: Player = entry.factory(seed=seed, **values)
    except CassinoError:
        raise
    except (TypeError, ValueError) as exc:
        raise PlayerSpecError(f"bad settings for player {name!r}: {exc}") from None
    return player


def close_player(player: object) -> None:
    """Release what a player holds when its game is over (a program's process: ``close()``);
    nothing for a player that holds nothing."""
    close = getattr(player, "close", None)
    if callable(close):
        close()


def decide(player: Player, state: State) -> MoveCode:
    """Ask ``player`` for the move of the seat to move: it sees that seat's view only, except a
    declared omniscient benchmark, which is handed a copy of the whole position. A choice that is
    no legal move raises ``PlayerFaultError`` naming the player, here rather than when it is played."""
    if getattr(player, "sees_all", False):
        code = player.choose_full(state.copy())  # type: ignore[attr-defined]
        try:
            legal = isinstance(code, int) and state.is_legal(code)
        except CassinoError:  # a code whose fields name nothing
            legal = False
        if not legal:
            raise _not_legal(player, code, state)
        return code  # type: ignore[no-any-return]
    return choose_code(player, view_of(state, state.to_move))


def move_seed(seed: int, ply: int) -> int:
    """The seed of a computer player's move at ``ply``: its seat's seed and the ply, mixed, so each
    move is reproducible from a game's record alone, whichever process or worker thinks it."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{ply}".encode()).digest()[:4], "big")


def seeded_move(spec: str, seed: int, ply: int, view: View) -> MoveCode:
    """The move of the computer player ``spec`` whose seat's seed is ``seed``, at ``ply``: made
    afresh for the move (``move_seed``), so the answer depends on the seat, the ply and the view
    only. The server's players think so, and so does the daily deal's replay of ``master``."""
    return choose_code(make_player(spec, move_seed(seed, ply)), view)


def choose_code(player: Player, view: View, *, check: bool = True) -> MoveCode:
    """``player.choose(view)`` as a move code, whether the player returned a ``Move`` or a code,
    so that callers past this point keep to ints. A choice that is not one of ``view.legal``
    raises ``PlayerFaultError`` (one ``in`` on a short tuple, cheap beside any choice); ``check=False``
    is for a player that hands another a narrowed view and checks the answer itself."""
    choice = player.choose(view)
    if choice.__class__ is int:
        code: MoveCode = choice
    elif isinstance(choice, Move):
        code = choice.code
    elif isinstance(choice, int) and not isinstance(choice, bool):
        code = int(choice)
    else:
        raise PlayerChoiceError(
            _name(player),
            f"returned {choice!r}: choose(view) must return one of view.legal_moves() (a Move) or one of "
            "view.legal (its int code)",
        )
    if check and code not in view.legal:
        raise _not_legal(player, code, view)
    return code


def _name(player: object) -> str:
    """A player's name for a message, whatever it is."""
    return str(getattr(player, "name", type(player).__name__))


def _not_legal(player: object, code: object, position: State | View) -> PlayerFaultError:
    """The fault of a player that chose ``code``, not legal in ``position``: the move's line and
    the rule that forbids it, or what is wrong with a code that names no move."""
    from ..errors import IllegalMoveError, MoveError  # only on the way to an error
    from ..moves import check_code, format_code
    from ..view import public_position

    try:
        check_code(code)  # type: ignore[arg-type]
    except MoveError as exc:
        return PlayerFaultError(_name(player), f"returned {code!r}, which is no move: {exc}")
    assert isinstance(code, int)
    try:
        (position if isinstance(position, State) else public_position(position)).verify(code)
    except IllegalMoveError as exc:
        why = f": {exc.reason}"
    else:
        why = ""  # legal on the position, not among the moves the caller offered (a narrowed view)
    return PlayerFaultError(_name(player), f"returned {format_code(code)!r}, which is not legal here{why}")
