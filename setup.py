"""The build: the engine's hot path (``cassino.native.COMPILED_MODULES``) compiled with mypyc when
a C compiler is present, and pure Python otherwise or when ``CASSINO_PURE=1`` is set.

The compiled build records the SHA-256 of each source it compiled (``cassino/_build.json``) next to
the compiled modules, in whatever the build installs: the wheel (``pip install .``, ``python -m
build``) or, for an editable install, the source tree. ``cassino.native`` runs the compiled modules
only beside a record that matches their sources, so an engine whose source was edited afterwards
runs as source instead of as a stale build, and a build that failed or was pure leaves no record.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

PACKAGE = Path(__file__).resolve().parent / "src" / "cassino"
RECORD = "_build.json"
"""The build record's name in the package (``cassino.native.BUILD_RECORD``)."""


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


def builds() -> bool:
    """Whether this run of setup.py may build the package. The build backends also run it only for
    the metadata (``egg_info``, ``dist_info``) or the source archive (``sdist``): those need no
    extensions, and ``mypycify`` translates the engine as soon as it is called (some ten seconds),
    so they skip it, and the sdist holds no generated C."""
    words = set(sys.argv[1:])
    building = any(word.startswith(("build", "bdist", "install", "develop", "editable")) for word in words)
    return building or not words & {"egg_info", "dist_info", "sdist"}


SOURCES: dict[str, str] = {}
"""The SHA-256 of each source mypyc translated, written as the build record once they compiled."""


def ext_modules() -> list[Any]:
    """The compiled modules, or none for a pure build."""
    if not builds():
        return []
    reason = why_pure()
    if reason:
        print(f"cassino: building the pure Python engine: {reason}")
        return []
    from mypyc.build import mypycify

    names = compiled_modules()
    paths = {name: "src/cassino/" + name.replace(".", "/") + ".py" for name in names}
    SOURCES.update(
        {name: hashlib.sha256((PACKAGE.parent.parent / path).read_bytes()).hexdigest() for name, path in paths.items()}
    )
    print(f"cassino: compiling the engine with mypyc: {', '.join(names)}")
    # mypy reads the whole package to compile these modules; the build environment lacks the
    # optional extras some other modules import (matplotlib, ray), which compile to nothing here.
    args = ["--ignore-missing-imports", *paths.values()]
    return list(mypycify(args, opt_level="3", group_name="cassino_engine"))


def records(build_lib: str, inplace: bool) -> list[Path]:
    """Where this build's record goes: the package in the build folder, which the wheel is made
    of, and the source package too when the build is in place (an editable install)."""
    return [Path(build_lib) / "cassino" / RECORD, *([PACKAGE / RECORD] if inplace else [])]


class BuildPackage(build_py):
    """``build_py`` that removes an earlier build's record from where this build puts its own: pip
    builds in the source tree and keeps ``build/``, and an editable install builds into the source
    itself. ``build_ext`` runs after it (when there is anything to compile) and writes
    the new record, so a pure or failed build leaves none."""

    def run(self) -> None:
        super().run()
        for record in records(self.build_lib, self.editable_mode):
            record.unlink(missing_ok=True)


class BuildEngine(build_ext):
    """``build_ext`` that records the compiled sources only after they compiled, beside the
    compiled modules (in the build folder, and in the source when built in place)."""

    def run(self) -> None:
        super().run()
        if SOURCES:
            for record in records(self.build_lib, self.inplace):
                record.parent.mkdir(parents=True, exist_ok=True)
                record.write_text(json.dumps({"sources": SOURCES}, indent=1) + "\n", encoding="utf-8")

    def get_outputs(self) -> list[str]:
        """The compiled modules and the record, as install and the wheel list them."""
        built = [str(records(self.build_lib, False)[0])] if SOURCES and not self.inplace else []
        return [*super().get_outputs(), *built]  # in place, the outputs are get_output_mapping's keys

    def get_output_mapping(self) -> dict[str, str]:
        """Each file built in the build folder, and its copy in the source when built in place."""
        built, source = records(self.build_lib, True)
        return {**super().get_output_mapping(), **({str(built): str(source)} if SOURCES and self.inplace else {})}


setup(ext_modules=ext_modules(), cmdclass={"build_py": BuildPackage, "build_ext": BuildEngine})
