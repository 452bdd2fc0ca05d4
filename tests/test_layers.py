"""The layers of the package, read from its imports: apps -> club -> table -> learn -> players ->
engine, never the other way.

Every module of src/cassino is parsed with ``ast`` and every import counts, those inside functions
and under ``TYPE_CHECKING`` too: an import moved into a function to dodge a cycle is still an arrow.
The engine is the package root (cards, rules, moves, state, ..., notation, record); ``players`` may
import only the engine (``bots``, the players that are programs of their own, is part of the
players' layer); ``learn``, the teaching library, the engine and the players; ``table``, the
one live table, the engine, the players and ``learn``; ``club``, the place to play around the
tables (accounts, ...), those and the table, and no app; each app (``arena``, ``rl``, ``terminal``,
``web``) those and itself, never another app; ``cli``, the ``cassino`` command, may import everything. A failure names the file, the
line and the import statement, and the rule it breaks. Under ``web`` no module imports the engine's
rule machinery (``movegen``, ``checks``, ``partition``): it asks the engine's answers.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "cassino"
ENGINE = "engine"
PLAYERS = "players"
BOTS = "bots"
"""Players that are programs of their own (the bot protocol): a package of the players' layer."""
LEARN = "learn"
TABLE = "table"
CLUB = "club"
CLI = "cli"
APPS = frozenset({"arena", "rl", "terminal", "web", CLI})


@dataclass(frozen=True)
class Import:
    """One import statement's arrow: from a module (its file and line) to one module or package."""

    path: str
    line: int
    statement: str
    source: str
    target: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.statement}  ({self.source} -> {self.target})"


def subpackages() -> set[str]:
    """The packages directly under cassino: each must be the players (or the bots), learn or an app."""
    return {p.parent.name for p in PACKAGE.glob("*/__init__.py")}


def module_of(path: Path) -> tuple[str, bool]:
    """The module's dotted name, and whether it is a package (an ``__init__``)."""
    parts = path.relative_to(SRC).with_suffix("").parts
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def imports_in(text: str, module: str, is_package: bool, path: str) -> list[Import]:
    """Every arrow of a module's source, relative imports resolved against its package."""
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                prefix = f"{base}.{node.module}" if node.module else base
            else:
                prefix = node.module or ""
            # ``from . import web`` imports a module; ``from .web import x`` a name of one.
            targets = [f"{prefix}.{alias.name}" for alias in node.names] if not node.module else [prefix]
        else:
            continue
        statement = " ".join((ast.get_source_segment(text, node) or "").split())
        found += [Import(path, node.lineno, statement, module, t) for t in targets if t.split(".")[0] == "cassino"]
    return found


def layer(name: str, packages: set[str]) -> str:
    """The layer of a cassino module: its subpackage's name (the players' for the bots), or the
    engine for the root."""
    parts = name.split(".")
    if len(parts) > 1 and parts[1] == BOTS:
        return PLAYERS
    return parts[1] if len(parts) > 1 and parts[1] in packages else ENGINE


def broken_rule(source: str, target: str) -> str | None:
    """Why an arrow between two layers is forbidden, or None when it is allowed."""
    if source in (target, CLI):
        return None
    if source == ENGINE:
        return "the engine imports nothing of the players or the apps"
    if source == PLAYERS:
        return None if target == ENGINE else "the players import only the engine"
    if source == LEARN:
        return None if target in (ENGINE, PLAYERS) else "learn imports only the engine and the players"
    if source == TABLE:
        return (
            None if target in (ENGINE, PLAYERS, LEARN) else "the table imports only the engine, the players and learn"
        )
    if source == CLUB:
        return (
            None
            if target in (ENGINE, PLAYERS, LEARN, TABLE)
            else "the club imports only the engine, the players, learn and the table"
        )
    if target == TABLE and source in (ENGINE, PLAYERS, LEARN):
        return "only the apps import the table"
    if target in APPS:
        return f"an app imports no other app (only {CLI} may)"
    return None


def violations(found: list[Import], packages: set[str]) -> list[str]:
    """Each forbidden arrow, with the rule it breaks."""
    out = []
    for imp in found:
        rule = broken_rule(layer(imp.source, packages), layer(imp.target, packages))
        if rule is not None:
            out.append(f"{imp}: {rule}")
    return out


def all_imports() -> list[Import]:
    """The arrows of every module of the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module, is_package = module_of(path)
        found += imports_in(path.read_text(), module, is_package, str(path.relative_to(SRC.parent)))
    return found


def test_every_package_is_the_players_learn_the_table_the_club_or_an_app() -> None:
    """A new package must be given its layer here before its imports can be judged."""
    assert subpackages() == APPS | {PLAYERS, BOTS, LEARN, TABLE, CLUB}


def test_imports_follow_the_layers() -> None:
    found = all_imports()
    assert len({imp.source for imp in found}) > 40, "the walk must reach every module"
    bad = violations(found, subpackages())
    assert not bad, "imports against the layers:\n" + "\n".join(bad)


def cycles(found: list[Import], modules: set[str]) -> list[list[str]]:
    """The import cycles among ``modules`` (each a strongly connected set of two or more), every
    arrow to a name resolved to the module that defines it."""
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for imp in found:
        target = imp.target
        while target not in modules and "." in target:
            target = target.rpartition(".")[0]
        if target in modules and target != imp.source:
            graph[imp.source].add(target)
    # Tarjan's algorithm, iteratively: every module is small, but there are many.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = stack[stack.index(node) :]
                    del stack[stack.index(node) :]
                    if len(part) > 1:
                        out.append(sorted(part))
            elif nxt not in index:
                index[nxt] = low[nxt] = len(index)
                stack.append(nxt)
                work.append((nxt, iter(sorted(graph[nxt]))))
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
    return out


def test_no_cycle_in_the_players_or_an_app() -> None:
    """Modules that need each other both ways share a model that belongs below both (as the web's
    service and payloads share ``web.model``); an import inside a function does not hide a cycle."""
    found = all_imports()
    modules = {module_of(p)[0] for p in PACKAGE.rglob("*.py")}
    packages = subpackages()
    bad = [c for c in cycles(found, modules) if any(layer(m, packages) != ENGINE for m in c)]
    assert not bad, "import cycles: " + "; ".join(" <-> ".join(c) for c in bad)


def test_the_cycle_check_sees_a_cycle_hidden_in_a_function() -> None:
    found = imports_in("from .payloads import encode\n", "cassino.web.service", False, "s")
    found += imports_in("def f() -> None:\n    from .service import LiveGame\n", "cassino.web.payloads", False, "p")
    found += imports_in("from . import service\n", "cassino.web", True, "w")
    modules = {"cassino.web", "cassino.web.service", "cassino.web.payloads"}
    assert cycles(found, modules) == [["cassino.web.payloads", "cassino.web.service"]]


def test_no_app_is_left_at_the_root() -> None:
    """The terminal glue, the command line and the arena's unit of work live in their packages."""
    root = {p.stem for p in PACKAGE.glob("*.py")}
    assert not root & {"cli", "cli_rules", "session", "play_plain", "replay_cmd", "match"}


SAMPLE = """
from __future__ import annotations
import cassino.web.app
from . import cards, terminal
from .rules import Rules

def run() -> None:
    from .cli.rules_args import (
        add_rules_arguments,
    )
"""


def test_the_walk_reports_each_forbidden_import_exactly() -> None:
    """Imports inside functions, relative ones and ``from . import`` are all seen and named."""
    packages = APPS | {PLAYERS, LEARN}
    found = imports_in(SAMPLE, "cassino.record", False, "src/cassino/record.py")
    assert violations(found, packages) == [
        "src/cassino/record.py:3: import cassino.web.app  (cassino.record -> cassino.web.app): "
        "the engine imports nothing of the players or the apps",
        "src/cassino/record.py:4: from . import cards, terminal  (cassino.record -> cassino.terminal): "
        "the engine imports nothing of the players or the apps",
        "src/cassino/record.py:8: from .cli.rules_args import ( add_rules_arguments, )  "
        "(cassino.record -> cassino.cli.rules_args): the engine imports nothing of the players or the apps",
    ]
    in_web = imports_in("from ..arena.game import play_game\nfrom .model import LiveGame\n", "cassino.web", True, "w")
    assert [i.target for i in in_web] == ["cassino.arena.game", "cassino.web.model"]
    assert violations(in_web, packages) == [
        "w:1: from ..arena.game import play_game  (cassino.web -> cassino.arena.game): "
        "an app imports no other app (only cli may)"
    ]
    in_players = imports_in("from ..terminal import session\n", "cassino.players.greedy", False, "p")
    assert violations(in_players, packages) == [
        "p:1: from ..terminal import session  (cassino.players.greedy -> cassino.terminal): "
        "the players import only the engine"
    ]
    in_cli = imports_in(SAMPLE, "cassino.cli.play", False, "c")
    assert violations(in_cli, packages) == []


def test_learn_sits_between_the_players_and_the_apps() -> None:
    """The teaching library reads the engine and the players; the apps read it; it reads no app,
    and neither the players nor the engine read it."""
    packages = APPS | {PLAYERS, LEARN}
    in_learn = imports_in(
        "from ..players.search import SearchPlayer\nfrom ..view import View\nfrom ..web import i18n\n",
        "cassino.learn.coach",
        False,
        "l",
    )
    assert violations(in_learn, packages) == [
        "l:3: from ..web import i18n  (cassino.learn.coach -> cassino.web): "
        "learn imports only the engine and the players"
    ]
    in_web = imports_in("from ..learn import Coach\n", "cassino.web.service", False, "w")
    assert violations(in_web, packages) == []
    in_players = imports_in("from ..learn import Coach\n", "cassino.players.search", False, "p")
    assert [v.rpartition(": ")[2] for v in violations(in_players, packages)] == ["the players import only the engine"]
    in_engine = imports_in("from .learn import Coach\n", "cassino.state", False, "e")
    assert [v.rpartition(": ")[2] for v in violations(in_engine, packages)] == [
        "the engine imports nothing of the players or the apps"
    ]


RULE_MACHINERY = (
    "cassino.movegen",
    "cassino.checks",
    "cassino.partition",
    "cassino.state",
    "cassino.game",
    "cassino.perft",
    "cassino.playout",
)
"""The engine's rule machinery: the generator, the rules' checks, the subset sums, the hand and the
game that play them. The web plays through the table (``cassino.table``) and asks the engine's
answers (a view's legal moves, ``explain.why_not``) and never this, so that no rule is written
again beside it in the app."""


def web_reaches_the_rules(found: list[Import]) -> list[str]:
    """Each import of a module under ``web/`` (the package itself too) of the rule machinery."""
    out = []
    for imp in found:
        in_web = imp.source.split(".")[:2] == ["cassino", "web"]
        if in_web and any(imp.target == m or imp.target.startswith(m + ".") for m in RULE_MACHINERY):
            out.append(f"{imp}: the web asks the engine's answers, never its rule machinery")
    return out


def test_the_web_imports_no_rule_machinery() -> None:
    bad = web_reaches_the_rules(all_imports())
    assert not bad, "the web reaches into the rules:\n" + "\n".join(bad)


def test_the_web_check_sees_every_way_of_importing_the_rules() -> None:
    """Relative, absolute, ``from .. import`` and inside a function: each is named; the engine's
    answers (``explain``, ``view``) and other layers are not."""
    sample = (
        "from .. import movegen\n"
        "from ..explain import why_not\n"
        "import cassino.partition\n"
        "from ..view import view_of\n"
        "def f() -> None:\n"
        "    from ..checks import check_obligation\n"
    )
    found = imports_in(sample, "cassino.web.payloads", False, "w")
    assert web_reaches_the_rules(found) == [
        "w:1: from .. import movegen  (cassino.web.payloads -> cassino.movegen): "
        "the web asks the engine's answers, never its rule machinery",
        "w:3: import cassino.partition  (cassino.web.payloads -> cassino.partition): "
        "the web asks the engine's answers, never its rule machinery",
        "w:6: from ..checks import check_obligation  (cassino.web.payloads -> cassino.checks): "
        "the web asks the engine's answers, never its rule machinery",
    ]
    assert web_reaches_the_rules(imports_in(sample, "cassino.terminal.plain", False, "t")) == []
    assert web_reaches_the_rules(imports_in("from .checks import x\n", "cassino.webhooks", False, "h")) == []


def test_the_table_sits_between_learn_and_the_apps() -> None:
    """The table reads the engine, the players and learn, and no app; the apps read it; nothing
    below it reads it."""
    packages = APPS | {PLAYERS, LEARN, TABLE}
    in_table = imports_in(
        "from ..learn import Coach\nfrom ..players import make_player\nfrom ..web.model import LiveGame\n",
        "cassino.table.live",
        False,
        "t",
    )
    assert violations(in_table, packages) == [
        "t:3: from ..web.model import LiveGame  (cassino.table.live -> cassino.web.model): "
        "the table imports only the engine, the players and learn"
    ]
    for app in sorted(APPS):
        found = imports_in("from ..table import Table\n", f"cassino.{app}.x", False, "a")
        assert violations(found, packages) == []
    in_learn = imports_in("from ..table import Table\n", "cassino.learn.coach", False, "l")
    assert [v.rpartition(": ")[2] for v in violations(in_learn, packages)] == [
        "learn imports only the engine and the players"
    ]
    in_engine = imports_in("from .table import Table\n", "cassino.game", False, "e")
    assert [v.rpartition(": ")[2] for v in violations(in_engine, packages)] == [
        "the engine imports nothing of the players or the apps"
    ]


def test_the_web_plays_only_through_the_table() -> None:
    """A web module that builds a ``Game`` or a ``State`` of its own is named; the table is not."""
    found = imports_in(
        "from ..game import Game\nfrom ..state import State\nfrom ..table import Table\n",
        "cassino.web.model",
        False,
        "w",
    )
    assert [i.target for i in found if web_reaches_the_rules([i])] == ["cassino.game", "cassino.state"]


def test_the_club_sits_between_the_table_and_the_apps() -> None:
    """The club reads the table and below, and no app; the apps read it; nothing below reads it."""
    packages = APPS | {PLAYERS, LEARN, TABLE, CLUB}
    in_club = imports_in(
        "from ..table import Table\nfrom ..rules import Rules\nfrom ..web.errors import ServiceError\n",
        "cassino.club.accounts",
        False,
        "c",
    )
    assert violations(in_club, packages) == [
        "c:3: from ..web.errors import ServiceError  (cassino.club.accounts -> cassino.web.errors): "
        "the club imports only the engine, the players, learn and the table"
    ]
    in_web = imports_in("from ..club.accounts import Accounts\n", "cassino.web.app", False, "w")
    assert violations(in_web, packages) == []
    in_table = imports_in("from ..club import accounts\n", "cassino.table.live", False, "t")
    assert [v.rpartition(": ")[2] for v in violations(in_table, packages)] == [
        "the table imports only the engine, the players and learn"
    ]
    in_learn = imports_in("from ..club.accounts import Accounts\n", "cassino.learn.coach", False, "l")
    assert [v.rpartition(": ")[2] for v in violations(in_learn, packages)] == [
        "learn imports only the engine and the players"
    ]
