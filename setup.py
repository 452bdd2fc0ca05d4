"""The build: the engine's hot path (``cassino.native.COMPILED_MODULES``) compiled with mypyc when
a C compiler is present, and pure Python otherwise or when ``CASSINO_PURE=1`` is set.

The compiled build records the SHA-256 of each source it compiled (``src/cassino/_build.json``), so
that an engine whose source was edited afterwards runs as source instead of as a stale build.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

PACKAGE = Path(__file__).resolve().parent / "src" / "cassino"
RECORD = PACKAGE / "_build.json"


def compiled_modules() -> list[str]:
    """``COMPILED_MODULES`` as ``native.py`` lists it (read, not imported: cassino is not built yet)."""
    tree = ast.parse((PACKAGE / "native.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "COMPILED_MODULES" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise RuntimeError("native.py lists no COMPILED_MODULES")


def why_pure() -> str:
    """Why this build is pure Python ("" when it compiles)."""
    if os.environ.get("CASSINO_PURE") == "1":
        return "CASSINO_PURE=1"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) found"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (from mypy) is not installed"
    return ""


SOURCES: dict[str, str] = {}
"""The SHA-256 of each source mypyc translated, written to ``RECORD`` once the build succeeds."""


def ext_modules() -> list[Any]:
    """The compiled modules, or none for a pure build (whose record is removed)."""
    RECORD.unlink(missing_ok=True)
    reason = why_pure()
    if reason:
        print(f"cassino: building the pure Python engine: {reason}")
        return []
    from mypyc.build import mypycify

    names = compiled_modules()
    paths = {name: "src/cassino/" + name.replace(".", "/") + ".py" for name in names}
    SOURCES.update({name: hashlib.sha256(Path(path).read_bytes()).hexdigest() for name, path in paths.items()})
    print(f"cassino: compiling the engine with mypyc: {', '.join(names)}")
    # mypy reads the whole package to compile these modules; the build environment lacks the
    # optional extras some other modules import (matplotlib, ray), which compile to nothing here.
    args = ["--ignore-missing-imports", *paths.values()]
    return list(mypycify(args, opt_level="3", group_name="cassino_engine"))


class BuildEngine(build_ext):
    """``build_ext`` that records the compiled sources only after they compiled: a failed build
    leaves no record, so the sources run instead of an older build."""

    def run(self) -> None:
        super().run()
        if SOURCES:
            RECORD.write_text(json.dumps({"sources": SOURCES}, indent=1) + "\n", encoding="utf-8")


setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildEngine})
