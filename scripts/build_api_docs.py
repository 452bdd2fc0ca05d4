"""Build the HTML API reference of cassino with pdoc, from the docstrings, into ``build/api/``.

    python scripts/build_api_docs.py [--out DIR] [--require-all]

then open ``build/api/index.html``. It documents the package ``cassino`` and every module of its
library layers: the engine, ``players``, ``learn``, ``table``, ``arena`` and ``rl``. The apps
(``cli``, ``terminal``, ``web``) are left out: what they offer is the ``cassino`` command and the
page, which docs/ describes. The sources are documented as Python (``CASSINO_PURE=1``, set here),
so every signature and docstring is complete where the engine is installed compiled too.

A module that needs an optional library which is not installed (numpy, PyTorch, ... of the extras
``rl`` and ``train``) is skipped with a note, or is an error with ``--require-all`` (``./test``
passes it: its install has every extra). Every warning of pdoc is an error (but one that comes
from an older Python, ``tolerated``), and so is a reference ``cassino.NAME`` in a docstring that
names nothing in the reference: the exit status is then 1. Nothing is fetched, and the pages load
nothing from elsewhere.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import inspect
import os
import pkgutil
import re
import shutil
import sys
import time
import traceback
import warnings
from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pdoc.doc

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "api"
TEMPLATES = Path(__file__).resolve().parent / "api-docs"
"""pdoc's templates changed here: the navigation lists the modules of a package."""
PACKAGE = "cassino"
APPS = ("cassino.cli", "cassino.terminal", "cassino.web")
"""The front ends, left out of the reference."""
OPTIONAL = frozenset({"numpy", "torch", "gymnasium", "pettingzoo", "pyspiel", "ray", "matplotlib", "tqdm"})
"""The libraries of the extras that a documented module may need (as imported): without one, the
module is skipped (unless ``--require-all``); any other import that fails is an error."""
REFERENCE = re.compile(r"<code>(cassino(?:\.\w+)+)(?:\(\))?</code>")
"""A docstring's ``cassino.NAME`` that pdoc did not make a link (a link is inside the code)."""


def module_names(name: str, path: Sequence[str]) -> Iterator[str]:
    """A package's name and those of all its modules, subpackages' included, as found on disk
    (nothing is imported); ``__main__`` and private modules are left out."""
    yield name
    for info in pkgutil.iter_modules(path):
        if info.name.startswith("_"):
            continue
        full = f"{name}.{info.name}"
        if info.ispkg:
            yield from module_names(full, [os.path.join(folder, info.name) for folder in path])
        else:
            yield full


def is_app(name: str) -> bool:
    """Whether a module belongs to one of the front ends (``APPS``)."""
    return any(name == app or name.startswith(app + ".") for app in APPS)


def load(name: str) -> ModuleType:
    """Import a module as pdoc does (its side effects on standard output and subprocesses held),
    with the names of its ``__all__`` that its ``__getattr__`` imports on first use (``cassino.rl``'s
    encodings): pdoc looks for them in the module's namespace only."""
    import pdoc.extract

    module = pdoc.extract.load_module(name)
    with pdoc.extract.mock_some_common_side_effects():
        for attr in getattr(module, "__all__", ()):
            if attr not in vars(module):
                setattr(module, attr, getattr(module, attr))
    return module


def missing_library(exc: BaseException) -> str | None:
    """The optional library (``OPTIONAL``) whose absence made an import fail, if that is why (not a
    module missing from an installed library)."""
    cause = root_cause(exc)
    if isinstance(cause, ModuleNotFoundError) and cause.name in OPTIONAL:
        return cause.name
    return None


def root_cause(exc: BaseException) -> BaseException:
    """The first exception of a chain (pdoc wraps an import's in a RuntimeError)."""
    while exc.__cause__ is not None:
        exc = exc.__cause__
    return exc


def place_named_tuples(modules: Collection[ModuleType]) -> None:
    """Tell each named tuple's ``__new__`` the module of its tuple. It is made in a module of its
    own (``namedtuple_Build``), where pdoc cannot find the names its annotations use (``CardMask``):
    it warned and showed ``ForwardRef('CardMask')`` in the signature."""
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, tuple) and value.__module__ == module.__name__:
                new = getattr(value, "__new__", None)
                if getattr(new, "__module__", "").startswith("namedtuple_"):
                    new.__module__ = module.__name__


def imported_names(module: ModuleType) -> dict[str, str]:
    """The names a module imports from modules of its own package (``from .rules import PRESETS``,
    those under ``TYPE_CHECKING`` too), each with the module it comes from."""
    package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
    names: dict[str, str] = {}
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.ImportFrom) and node.level:
            source = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            for alias in node.names:
                names[alias.asname or alias.name] = source
    return names


def borrow_constant_docstrings(docs: Mapping[str, pdoc.doc.Module]) -> None:
    """Give a constant that a module imports (``cassino.PRESETS``, from ``cassino.rules``) the
    docstring it has where it is defined: pdoc looks in the importing module's source only."""
    import pdoc.doc
    import pdoc.doc_ast

    for doc in docs.values():
        origins = imported_names(doc.obj)
        for member in doc.members.values():
            source = sys.modules.get(origins.get(member.name, ""))
            if isinstance(member, pdoc.doc.Variable) and not member.docstring and source is not None:
                member.docstring = pdoc.doc_ast.walk_tree(source).var_docstrings.get(member.name, "")


def tolerated(message: str) -> bool:
    """A warning of pdoc that comes from the Python running it, not from the sources: before 3.12,
    ``array.array`` is not generic, so ``array[int]`` cannot be evaluated (it is shown as written)."""
    return sys.version_info < (3, 12) and "type 'array.array' is not subscriptable" in message


def counts(caught: warnings.WarningMessage, ours: Sequence[Path]) -> bool:
    """Whether a warning fails the build: all do but a deprecation notice of another library, given
    as it is imported (it would be that library's to fix)."""
    deprecation = issubclass(caught.category, (DeprecationWarning, PendingDeprecationWarning, FutureWarning))
    where = Path(caught.filename).resolve()
    return not deprecation or any(where.is_relative_to(folder) for folder in ours)


def unresolved_references(page: str, documented: Collection[str], known: Collection[str]) -> list[str]:
    """The references ``cassino.NAME`` of a page's docstrings that pdoc could not link although they
    point into a documented module (one into a module left out, such as an app's, is no error)."""
    found = []
    for match in REFERENCE.finditer(page):
        parts = match.group(1).split(".")
        prefixes = (".".join(parts[:end]) for end in range(len(parts), 0, -1))
        module = next((prefix for prefix in prefixes if prefix in known), None)
        if module in documented:
            found.append(match.group(1))
    return list(dict.fromkeys(found))


def clear(out: Path) -> None:
    """Remove an earlier reference at ``out``; a folder that holds something else is kept (an error)."""
    if out.exists():
        if any(out.iterdir()) and not (out / "index.html").is_file():
            raise SystemExit(f"build-api-docs: {out} holds something other than a reference; not replaced")
        shutil.rmtree(out)


def build(out: Path, require_all: bool = False) -> int:
    """Write the reference into ``out`` and report; 1 when anything went wrong, else 0."""
    started = time.perf_counter()
    os.environ["CASSINO_PURE"] = "1"  # before cassino is imported: the sources, with their docstrings
    import pdoc
    import pdoc.doc
    import pdoc.render

    import cassino

    if cassino.COMPILED:
        print("build-api-docs: cassino was imported compiled before CASSINO_PURE=1 was set", file=sys.stderr)
        return 1
    known = list(module_names(PACKAGE, list(cassino.__path__)))
    problems: list[str] = []
    skipped: dict[str, str] = {}
    errors: set[str] = set()
    ours = [Path(pdoc.__file__).resolve().parent, Path(cassino.__file__).resolve().parent, TEMPLATES]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        modules: dict[str, ModuleType] = {}
        for name in known:
            if is_app(name):
                continue
            try:
                modules[name] = load(name)
            except Exception as exc:
                library = missing_library(exc)
                if library and not require_all:
                    skipped[name] = library
                else:
                    error = "".join(traceback.format_exception_only(root_cause(exc))).strip()
                    told = error in errors  # a package's error again in each of its modules: once in full
                    errors.add(error)
                    problems.append(
                        f"{name} does not import: {error}"
                        if told
                        else f"{name} does not import:\n{traceback.format_exc()}"
                    )
        place_named_tuples(modules.values())
        pdoc.render.configure(
            docformat="restructuredtext",
            footer_text=f"cassino {cassino.__version__}",
            template_directory=TEMPLATES,
        )
        docs = {name: pdoc.doc.Module(module) for name, module in modules.items()}
        borrow_constant_docstrings(docs)
        pages = {name: pdoc.render.html_module(doc, docs) for name, doc in docs.items()}
        index = pdoc.render.html_index(docs)
        search = pdoc.render.search_index(docs)
    for warning in caught:
        message = str(warning.message)
        if not counts(warning, ours):
            print(f"build-api-docs: note: {warning.category.__name__}: {message}", file=sys.stderr)
        elif not tolerated(message):
            problems.append(f"{warning.category.__name__}: {message}")
    for name, page in pages.items():
        for reference in unresolved_references(page, docs, known):
            problems.append(f"{name}: the docstring reference {reference} names nothing documented")
    clear(out)
    for name, page in pages.items():
        path = out.joinpath(*name.split(".")).with_suffix(".html")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page, encoding="utf-8")
    (out / "index.html").write_text(index, encoding="utf-8")
    if search:
        (out / "search.js").write_text(search, encoding="utf-8")
    for name, library in skipped.items():
        print(f"build-api-docs: {name} left out: it needs {library}, which is not installed", file=sys.stderr)
    for problem in problems:
        print(f"build-api-docs: {problem}", file=sys.stderr)
    seconds = time.perf_counter() - started
    where = out.relative_to(ROOT) if out.is_relative_to(ROOT) else out
    if problems:
        print(f"build-api-docs: {len(problems)} problem(s); the pages are in {where}", file=sys.stderr)
        return 1
    print(f"build-api-docs: {len(pages)} modules documented in {where}/ ({seconds:.1f} s): open {where}/index.html")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: see the module's docstring."""
    parser = argparse.ArgumentParser(description="Build the HTML API reference of cassino with pdoc.")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write it (default: build/api)")
    parser.add_argument(
        "--require-all",
        action="store_true",
        help="fail when a module needs an optional library that is not installed, instead of leaving it out",
    )
    args = parser.parse_args(argv)
    return build(args.out.resolve(), args.require_all)


if __name__ == "__main__":
    sys.exit(main())
