"""Players written in Python outside the package, named by a spec: ``MODULE:NAME`` (a class or
factory importable from ``sys.path``) or ``FILE.py[:NAME]`` (loaded from that file).

So that someone's own player plays in ``cassino arena`` and ``cassino play --opponent`` with no
registration: the spec is a string, so it crosses to the arena's worker processes, each of which
loads the same class. Without ``:NAME`` a file's one player is taken: a ``make_player`` or
``player`` function, else its one class with a ``choose`` method. Whatever goes wrong (no such
file or module, an import that fails, no such class, a class without ``choose``) is one
``PlayerSpecError`` line.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from ..cards import excerpt
from ..errors import CassinoError
from .errors import PlayerSpecError

FACTORY_NAMES = ("make_player", "player")
"""The functions a file's player may be made by, when the spec names none."""

PATH_CHARS = 500
"""How much of a path or module name a message quotes (``excerpt`` cuts other input shorter)."""

SettingKinds = dict[str, type[bool] | type[int] | type[float] | type[str]]


def load_player(target: str) -> tuple[Callable[..., Any], SettingKinds | None]:
    """The factory ``factory(seed=..., **settings)`` of ``MODULE:NAME`` or ``FILE.py[:NAME]``, and
    the settings its signature declares (None when it does not: any setting is handed on)."""
    where, _, attr = target.partition(":")
    module = _load_file(where) if where.endswith(".py") else _import(where)
    made = _pick(module, attr.strip(), where)
    label = f"{where}:{attr}" if attr else where
    if not callable(made):
        raise PlayerSpecError(f"{label} is {type(made).__name__}, not a class or a function that makes a player")
    if inspect.isclass(made) and not callable(getattr(made, "choose", None)):
        raise PlayerSpecError(f"{label} has no choose method: a player needs a name and choose(view)")
    return _factory(made, label), _declared(made)


def _load_file(text: str) -> ModuleType:
    """The module of a Python file, loaded once per process (the arena builds a player per game)."""
    path, shown = Path(text), excerpt(text, limit=PATH_CHARS)
    if not path.exists():
        raise PlayerSpecError(f"no such file {shown} (a FILE.py spec is relative to the current folder)")
    if not path.is_file():
        raise PlayerSpecError(f"{shown} is not a file")
    resolved = path.resolve()
    digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
    name = f"cassino_player_{''.join(c if c.isalnum() else '_' for c in path.stem)}_{digest}"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise PlayerSpecError(f"{shown} cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before it runs: dataclasses and pickle look their module up
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # a file that exits as it loads is refused too
        del sys.modules[name]
        raise PlayerSpecError(f"loading {shown} failed: {_one_line(exc)}") from None
    return module


def _import(text: str) -> ModuleType:
    """The module of a ``MODULE:NAME`` spec, imported from ``sys.path``."""
    try:
        return importlib.import_module(text)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (text == exc.name or text.startswith(f"{exc.name}.")):
            raise PlayerSpecError(
                f"no module named {excerpt(exc.name)}: a MODULE:CLASS spec imports from sys.path "
                "(add the module's folder to PYTHONPATH), or name a file: path/to/file.py:CLASS"
            ) from None
        raise PlayerSpecError(f"importing {excerpt(text, limit=PATH_CHARS)} failed: {_one_line(exc)}") from None
    except (Exception, SystemExit) as exc:
        raise PlayerSpecError(f"importing {excerpt(text, limit=PATH_CHARS)} failed: {_one_line(exc)}") from None


def _pick(module: ModuleType, attr: str, where: str) -> Any:
    """The class or factory ``attr`` of ``module`` (dots reach inside a class), or without one the
    module's only player: a factory of ``FACTORY_NAMES``, else its one class with ``choose``."""
    candidates = _candidates(module)
    if attr:
        found: Any = module
        for part in attr.split("."):
            found = getattr(found, part, _MISSING)
            if found is _MISSING:
                listed = ", ".join(candidates) or "none"
                raise PlayerSpecError(f"{where} has no {excerpt(attr)}; the players it defines are: {listed}")
        return found
    factories = [n for n in FACTORY_NAMES if n in candidates]
    chosen = factories or candidates
    if len(chosen) == 1:
        return getattr(module, chosen[0])
    if not chosen:
        raise PlayerSpecError(
            f"{where} defines no player: no class with a choose method, nor a function {' or '.join(FACTORY_NAMES)}"
        )
    raise PlayerSpecError(f"{where} defines several players: {', '.join(chosen)}; name one, e.g. {where}:{chosen[0]}")


_MISSING = object()


def _candidates(module: ModuleType) -> list[str]:
    """The names of the players ``module`` defines: factories of ``FACTORY_NAMES``, then its own
    classes with a ``choose`` method (not those it imported), in the order written."""
    found = [n for n in FACTORY_NAMES if callable(getattr(module, n, None))]
    for name, value in vars(module).items():
        if (
            inspect.isclass(value)
            and value.__module__ == module.__name__
            and callable(getattr(value, "choose", None))
            and name not in found
        ):
            found.append(name)
    return found


def _declared(made: Callable[..., Any]) -> SettingKinds | None:
    """The settings a class's or function's signature declares by its defaults' kinds (``seed``
    aside), or None when it takes ``**settings``, has no signature, or a setting of another kind."""
    try:
        parameters = inspect.signature(made).parameters.values()
    except (TypeError, ValueError):
        return None
    found: SettingKinds = {}
    for p in parameters:
        if p.name == "seed" or p.kind is inspect.Parameter.VAR_POSITIONAL:
            continue
        kind = type(p.default)
        if p.kind is inspect.Parameter.VAR_KEYWORD or kind not in (bool, int, float, str):
            return None
        found[p.name] = kind
    return found


def _takes_seed(made: Callable[..., Any]) -> bool:
    """Whether ``made`` is given ``seed=``: it names a ``seed`` or takes ``**settings``."""
    try:
        parameters = inspect.signature(made).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "seed" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def _factory(made: Callable[..., Any], label: str) -> Callable[..., Any]:
    """A factory ``(seed=..., **settings)`` that builds with ``made`` (passing the seed only where
    it is taken) and checks that what it built can play; anything it raises is a PlayerSpecError."""
    seeded = _takes_seed(made)

    def build(seed: int | None = None, **settings: Any) -> Any:
        """The player, built and checked."""
        if seeded:
            settings["seed"] = seed
        try:
            player = made(**settings)
        except CassinoError:
            raise
        except TypeError as exc:
            raise PlayerSpecError(f"bad settings for player {label!r}: {_one_line(exc)}") from None
        except Exception as exc:
            raise PlayerSpecError(f"building {label} failed: {_one_line(exc)}") from None
        if not callable(getattr(player, "choose", None)):
            raise PlayerSpecError(
                f"{label} made a {type(player).__name__}, which has no choose method: a player needs a name "
                "and choose(view)"
            )
        if not isinstance(getattr(player, "name", None), str):
            with contextlib.suppress(AttributeError, TypeError):  # a class with slots keeps its own
                player.name = label
        return player

    return build


def _one_line(exc: BaseException) -> str:
    """An exception as one line: its kind and the first line of its message."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {excerpt(text[0], quote=False)}" if text else type(exc).__name__


__all__ = ["FACTORY_NAMES", "load_player"]
