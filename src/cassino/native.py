"""Which engine runs: the modules mypyc compiled at install time, or their Python source.

The compiled modules (``COMPILED_MODULES``) are used when the build that made them recorded the
hashes of the very sources now on disk (``BUILD_RECORD``) and ``CASSINO_PURE`` is not ``1``;
otherwise every one of them is loaded from its source. It is all or none: compiled modules call
each other directly, so a compiled one must never meet a source one. ``cassino`` decides this
before it imports any engine module; a source edited after the build is therefore run as source
(with a warning) until the next install compiles it again.

Compiled, each module's docstrings are put back from its source as it loads (``docstrings``):
mypyc keeps none. The compiled loops that may run long call ``checkpoint`` now and then, so that
Ctrl-C is answered.

This module is never compiled itself, and imports nothing of the engine.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
COMPILED_MODULES = (
    "cards",
    "partition",
    "moves",
    "checks",
    "movegen",
    "scoring",
    "state",
    "view",
    "perft",
    "playout",
    "players.evaluate",
    "players.heuristic",
    "players.worlds",
    "players.solver",
    "players.search",
    "arena.selfplay",
)
"""The engine's hot path and the players' inner loops, compiled together by mypyc (``setup.py``
reads this list); a dotted name is a module of a subpackage."""


def source_of(name: str) -> Path:
    """The source file of a compiled module's name (``players.search``: ``players/search.py``)."""
    return PACKAGE.joinpath(*name.split(".")).with_suffix(".py")


BUILD_RECORD = "_build.json"
"""Written by ``setup.py`` next to the compiled modules: the SHA-256 of each source it compiled."""


def source_hashes(names: Sequence[str] = COMPILED_MODULES) -> dict[str, str]:
    """The SHA-256 of each module's source file, by module name."""
    return {name: hashlib.sha256(source_of(name).read_bytes()).hexdigest() for name in names}


def _why_not_compiled() -> str:
    """Why the source runs ("" when the compiled modules may)."""
    if os.environ.get("CASSINO_PURE") == "1":
        return "CASSINO_PURE=1"
    record = PACKAGE / BUILD_RECORD
    if not record.exists():
        return "installed without compiling"
    try:
        built = json.loads(record.read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"{BUILD_RECORD} is unreadable"
    now = source_hashes()
    for name in COMPILED_MODULES:
        built_file = source_of(name).with_suffix("")
        if not any(
            built_file.with_name(built_file.name + suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES
        ):
            return f"the compiled {name} module is missing"
        if built.get(name) != now[name]:
            warnings.warn(
                f"cassino: {name}.py changed since the engine was compiled, so the engine runs as Python "
                "source: install again (./test or ./play does) to compile it",
                stacklevel=3,
            )
            return f"{name}.py changed since the build"
    return ""


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the compiled modules' names from their ``.py`` sources, ahead of the extension files."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        prefix = f"{__package__}."
        name = fullname.removeprefix(prefix)
        if not fullname.startswith(prefix) or name not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(name))


def _source_of_full_name(fullname: str) -> str:
    """The source file of a compiled module's full name (``cassino.state``), as text."""
    return str(source_of(fullname.removeprefix(f"{__package__}.")))


WHY_PURE = _why_not_compiled()
"""Why the engine runs as Python source, or "" when it runs compiled."""
COMPILED = not WHY_PURE
"""True when the engine's compiled modules run."""
if not COMPILED and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _SourceFinder())
if COMPILED:
    from .docstrings import DocumentedFinder, layout_known

    if layout_known() and not any(isinstance(f, DocumentedFinder) for f in sys.meta_path):
        # mypyc keeps no docstring: each compiled module gets its source's back as it loads.
        sys.meta_path.insert(
            0, DocumentedFinder([f"{__package__}.{n}" for n in COMPILED_MODULES], _source_of_full_name)
        )


def checkpoint() -> None:
    """Nothing, as a Python function: the compiled engine's long loops call it now and then (every
    few thousand positions), so that Ctrl-C is answered at once.

    Only the interpreter runs a signal's Python handler (Ctrl-C's ``KeyboardInterrupt``) or hands
    the GIL to another thread, and compiled code never enters it by itself: a compiled perft once
    ran on for minutes after Ctrl-C. Entering any Python function is enough for both, so this one
    does nothing: the handler's exception rises from this call through the compiled caller."""


def describe() -> str:
    """The engine in words, for ``cassino --version``."""
    return "engine compiled with mypyc" if COMPILED else f"pure Python engine: {WHY_PURE}"
