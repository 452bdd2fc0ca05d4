"""The API reference (``scripts/build_api_docs.py``, pdoc): it builds with no warning and holds the
signature and the docstring of every public name, as the sources have them.

The reference is built once into a temporary folder by the script itself, in a process of its own,
so that it documents the Python sources (``CASSINO_PURE=1``) whether or not this run's engine is the
compiled one. What each page must say is read from the sources' syntax trees, not from the imported
objects: a compiled object's docstring is put back at import only where ``cassino.docstrings`` can.
"""

from __future__ import annotations

import ast
import html
import importlib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import cassino

pytest.importorskip("pdoc")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "build_api_docs.py"
SOURCES = Path(cassino.__file__).resolve().parent
PACKAGES = ("cassino", "cassino.players", "cassino.learn", "cassino.table", "cassino.arena", "cassino.rl")
"""The packages whose page must show every name of their ``__all__``."""
MEMBER = re.compile(r'<(?:section|div) id="([^"]+)"')
"""Where a documented object's part of a page begins (pdoc's markup)."""


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference as ``scripts/build_api_docs.py`` writes it."""
    out = tmp_path_factory.mktemp("api") / "api"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, f"the reference did not build:\n{done.stdout}{done.stderr}"
    assert "build-api-docs:" in done.stdout and "modules documented" in done.stdout
    return out


def page_of(reference: Path, module: str) -> str:
    """The page of a module."""
    return reference.joinpath(*module.split(".")).with_suffix(".html").read_text(encoding="utf-8")


def plain(markup: str) -> str:
    """Text without its tags and entities, its white space one space."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def part_of(page: str, qualname: str) -> tuple[str, str]:
    """A documented object's part of a page, as plain text: the heading with its signature (the
    view of the source, which holds the docstring too, left out), and the docstring."""
    starts = [(found.start(), found.group(1)) for found in MEMBER.finditer(page)]
    begin = next((at for at, name in starts if name == qualname), None)
    assert begin is not None, f"{qualname} is not in the page"
    end = next((at for at, _ in starts if at > begin), len(page))
    part = page[begin:end]
    head, _, docstring = part.partition('<div class="docstring">')
    head = re.sub(r'<div class="pdoc-code codehilite">.*', "", head, flags=re.S)
    return plain(head), plain(docstring)


def source_file(module: str) -> Path:
    """A module's source file."""
    path = SOURCES.joinpath(*module.split(".")[1:])
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def origins(package: str) -> dict[str, str]:
    """Where each name a package imports from its own modules is defined (its ``TYPE_CHECKING``
    imports included); a name it does not import is defined in the package itself."""
    names: dict[str, str] = {}
    for node in ast.walk(ast.parse(source_file(package).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            source = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            names.update({alias.asname or alias.name: source for alias in node.names})
    return names


def definition(module: str, qualname: str) -> tuple[str, list[str] | None]:
    """The docstring of a class, function or constant as its source has it (a constant's is the
    string after it), and a function's parameters (None for anything else)."""
    body = ast.parse(source_file(module).read_text(encoding="utf-8")).body
    docstring, parameters = "", None
    for part in qualname.split("."):
        for index, node in enumerate(body):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == part:
                docstring, body = ast.get_docstring(node) or "", node.body
                if isinstance(node, ast.FunctionDef):
                    arguments = node.args
                    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                    parameters = [argument.arg for argument in every]
                break
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            if any(isinstance(target, ast.Name) and target.id == part for target in targets):
                after = body[index + 1] if index + 1 < len(body) else None
                if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
                    docstring = str(after.value.value)
                body = []
                break
        else:
            raise LookupError(f"{module} defines no {qualname}")
    return docstring, parameters


def first_line(docstring: str) -> str:
    """A docstring's first line as the page shows it: its literals' backquotes gone."""
    return " ".join(docstring.strip().splitlines()[0].replace("``", "").split())


def check_documented(page: str, qualname: str, module: str, name: str) -> None:
    """The page documents ``qualname`` with the signature and the docstring of ``name`` in ``module``."""
    head, shown = part_of(page, qualname)
    docstring, parameters = definition(module, name)
    if docstring:
        assert shown.startswith(first_line(docstring)), f"{qualname}: the page says {shown[:200]!r}"
    for parameter in parameters or ():
        assert re.search(rf"\b{parameter}\b", head), f"{qualname}: no parameter {parameter} in {head!r}"


def test_the_package_page_shows_every_public_name(reference: Path) -> None:
    page = page_of(reference, "cassino")
    where = origins("cassino")
    for name in cassino.__all__:
        assert f'id="{name}"' in page, f"cassino.{name} is not on the page"
        check_documented(page, name, where.get(name, "cassino"), name)


def test_the_core_api_has_its_docstrings_and_signatures(reference: Path) -> None:
    page = page_of(reference, "cassino")
    for qualname, module in (("State", "cassino.state"), ("State.push", "cassino.state"), ("Game", "cassino.game")):
        check_documented(page, qualname, module, qualname)
        assert part_of(page, qualname)[1], f"{qualname} has no docstring on the page"
    assert part_of(page, "State.push")[1].startswith(
        "Apply a move code, then draw, deal or end the hand: unchecked, the fast path of search and perft"
    )
    assert part_of(page, "Game")[1].startswith("A game of Casino from a seed: game.play(move) until game.over.")
    head, shown = part_of(page_of(reference, "cassino.players"), "make_player")
    assert "make_player(spec: str, seed: int | None = None) -> Player" in head
    assert shown.startswith("A player from its spec name:key=value,... (or bot:PATH, MODULE:NAME, FILE.py[:NAME], each")


@pytest.mark.parametrize("package", PACKAGES[1:])
def test_each_layer_page_shows_every_public_name(reference: Path, package: str) -> None:
    if package == "cassino.rl" and importlib.util.find_spec("numpy") is None:
        pytest.skip("cassino.rl's encodings need numpy (extra rl)")
    module: ModuleType = importlib.import_module(package)
    page = page_of(reference, package)
    where = origins(package)
    for name in module.__all__:
        check_documented(page, name, where.get(name, package), name)


def test_the_modules_are_listed_and_the_apps_left_out(reference: Path) -> None:
    page = page_of(reference, "cassino")
    for name in ("players", "learn", "table", "arena", "state", "notation", "view", "playout"):
        assert f'href="cassino/{name}.html"' in page, f"cassino.{name} is not listed"
    assert 'href="players/search.html"' in page_of(reference, "cassino.players")
    for app in ("cli", "terminal", "web"):
        assert not (reference / "cassino" / f"{app}.html").exists()
    assert (reference / "index.html").is_file() and (reference / "search.js").is_file()


def test_the_pages_load_nothing_from_elsewhere(reference: Path) -> None:
    for path in reference.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"<(?:script|img|link|iframe)\b[^>]*\b(?:src|href)=\"(?:https?:)?//", text), path


def load_script() -> ModuleType:
    """``scripts/build_api_docs.py`` as a module."""
    spec = importlib.util.spec_from_file_location("build_api_docs", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_reference_to_nothing_documented_is_found() -> None:
    script = load_script()
    page = (
        '<code><a href="cassino.html#State">cassino.State</a></code> <code>cassino.Stat</code> '
        "<code>cassino.players.make_playr()</code> <code>cassino.web.app.create_app</code> <code>cassino --version</code>"
    )
    documented = {"cassino", "cassino.players"}
    known = documented | {"cassino.web", "cassino.web.app"}
    assert script.unresolved_references(page, documented, known) == ["cassino.Stat", "cassino.players.make_playr"]


def test_only_an_optional_library_missing_skips_a_module() -> None:
    script = load_script()
    assert script.missing_library(ModuleNotFoundError("No module named 'nmupy'", name="nmupy")) is None
    assert (
        script.missing_library(ModuleNotFoundError("No module named 'cassino.nothing'", name="cassino.nothing")) is None
    )
    optional = ModuleNotFoundError("No module named 'torch'", name="torch")
    wrapped = RuntimeError("Error importing cassino.arena.dmc")
    wrapped.__cause__ = optional
    assert script.missing_library(wrapped) == "torch"
