"""The API a bot writer meets first: one error base, readable moves, a view's moves as objects, and
players that may return a ``Move`` as well as a code."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import cassino
from cassino import CassinoError, Game, IllegalMoveError, Move, MoveError, make_rules
from cassino.cards import mask_of, parse_card
from cassino.moves import BUILD, CAPTURE, TRAIL, code_card, code_kind, code_table, code_value, encode, format_code
from cassino.players import choose_code, decide, make_player
from cassino.view import View, view_of

SRC = Path(cassino.__file__).resolve().parent


ENGINE_ERRORS = frozenset(
    {
        "CassinoError",
        "CardError",
        "MoveError",
        "MoveTypeError",
        "IllegalMoveError",
        "PositionError",
        "RulesError",
        "RecordError",
        "UndoError",
        "NextHandError",
        "ArgumentError",
        "SeatError",
        "DeckError",
        "GameOverError",
    }
)
"""The errors ``cassino`` exports: the engine's, defined in ``cassino/errors.py``."""

ERRORS_BY_MODULE = {
    "cassino.errors": ENGINE_ERRORS,
    "cassino.players.errors": {"WeightsError", "PlayerSpecError", "PlayerFaultError", "PlayerChoiceError"},
    "cassino.bots.errors": {"ProtocolError"},
    "cassino.rl.errors": {"ActionError"},
    "cassino.table.errors": {
        "TableError",
        "BadCommandError",
        "NotSeatedError",
        "NotNowError",
        "ClosedError",
        "NoSuchMoveError",
    },
    "cassino.club.errors": {
        "AccountError",
        "AccountInputError",
        "NameTakenError",
        "SignInError",
        "NotSignedInError",
        "NoSuchPlayerError",
        "TooManyAttemptsError",
        # the lobby's seeks
        "SeekError",
        "SeekInputError",
        "NoSuchSeekError",
        "NotYourSeekError",
        "SeekConflictError",
        # chat at the table
        "ChatError",
        "ChatInputError",
        "ChatClosedError",
        "ChatRateError",
        # tournaments
        "TournamentError",
        "TournamentInputError",
        "PairingError",
        # the daily deal
        "DailyError",
        "AlreadyPlayedError",
    },
    "cassino.web.errors": {
        "ServiceError",
        "StoreError",
        "StaleGameError",
        "StaleDealError",
        "CatalogueError",
        "ListenError",
    },
    "cassino.cli.errors": {"CliError", "ArenaUsageError", "NotVerifiedError"},
}
"""Where every error of the package lives: the engine's at the root, each app's (and the players')
in its own ``errors`` module."""

SIGNALS = {
    "cassino.players.solver.SolverBudgetExceeded": "the solver's node budget running out, raised and caught "
    "inside the search (players/search.py); it never leaves the package, so it is no error of it",
    "cassino.bots.program._Timeout": "a program's time running out, raised and caught inside ProgramPlayer, "
    "which raises PlayerFaultError instead",
    "cassino.bots.program._Ended": "a program's output ending, raised and caught inside ProgramPlayer, "
    "which raises PlayerFaultError instead",
    "cassino.club.pairing._OutOfSteps": "a pairing search reaching its bound, raised and caught inside "
    "swiss_round, which tries the next budget of repeats or raises PairingError instead",
}
"""Exceptions that are control flow inside the package rather than errors it raises to a caller."""

EXTRAS = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "babel", "numpy", "gymnasium", "pettingzoo")
EXTRAS += ("pyspiel", "textual", "torch", "ray", "matplotlib", "tqdm", "psycopg", "argon2")
"""The third-party packages of the extras (pyproject.toml): an error module must pull in none."""


def _error_classes() -> dict[str, str]:
    """Every class of the package whose name ends in ``Error`` (or ``Fault``: ``PlayerFaultError``), by
    name, with the module defining it (read from the source, so that modules needing an extra are
    covered without importing them)."""
    found: dict[str, str] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith(("Error", "Fault")):
                assert node.name not in found, f"{node.name} is defined twice: {found[node.name]} and {path}"
                found[node.name] = ".".join(("cassino", *path.relative_to(SRC).with_suffix("").parts))
    return found


def test_every_error_lives_in_an_errors_module() -> None:
    """The engine's errors in ``cassino/errors.py``, each app's in its own ``errors.py``, nowhere else."""
    by_module: dict[str, set[str]] = {}
    for name, module in _error_classes().items():
        by_module.setdefault(module, set()).add(name)
    assert by_module == ERRORS_BY_MODULE
    for module, names in ERRORS_BY_MODULE.items():
        assert set(importlib.import_module(module).__all__) == names, module


def test_the_root_exports_only_the_engine_errors() -> None:
    exported = {n for n in cassino.__all__ if isinstance(getattr(cassino, n), type)}
    errors = {n for n in exported if issubclass(getattr(cassino, n), BaseException)}
    assert errors == ENGINE_ERRORS
    assert set(cassino.errors.__all__) == ENGINE_ERRORS


def _import_every_module() -> tuple[list[ModuleType], list[str]]:
    """Every module of the package, imported, and the names of those skipped because an extra they
    need is not installed (``__main__`` is not imported: it runs the command)."""
    modules: list[ModuleType] = []
    skipped: list[str] = []
    for info in pkgutil.walk_packages(cassino.__path__, "cassino."):
        if info.name.rpartition(".")[2] == "__main__":
            continue
        try:
            modules.append(importlib.import_module(info.name))
        except ModuleNotFoundError as exc:
            if (exc.name or "").partition(".")[0] in ("", "cassino"):
                raise
            skipped.append(info.name)
    return modules, skipped


def _exception_classes(modules: list[ModuleType]) -> dict[str, type[BaseException]]:
    """The exception classes the modules define, by module and name."""
    found: dict[str, type[BaseException]] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == module.__name__:
                found[f"{module.__name__}.{value.__qualname__}"] = value
    return found


def test_every_exception_of_the_package_is_a_cassino_error() -> None:
    """Each exception class of every importable module, whatever its name, is a ``CassinoError``
    (and so a ``ValueError``) defined where ``ERRORS_BY_MODULE`` says, save the documented signals."""
    modules, skipped = _import_every_module()
    assert len(modules) > 60, "the walk must reach every module"
    assert not set(ERRORS_BY_MODULE) & set(skipped), "an errors module must import without any extra"
    found = _exception_classes(modules)
    assert set(SIGNALS) <= set(found), "a signal listed here no longer exists"
    errors = {name: cls for name, cls in found.items() if name not in SIGNALS}
    assert not_cassino_errors(errors) == []
    assert set(errors) == {f"{module}.{name}" for module, names in ERRORS_BY_MODULE.items() for name in names}
    assert all(issubclass(cls, ValueError) for cls in errors.values())
    assert issubclass(found["cassino.web.errors.StoreError"], RuntimeError)


def not_cassino_errors(classes: dict[str, type[BaseException]]) -> list[str]:
    """The names of the exception classes that are not a ``CassinoError``, sorted."""
    return sorted(name for name, cls in classes.items() if not issubclass(cls, CassinoError))


def test_the_check_names_an_exception_that_is_no_cassino_error() -> None:
    """The walk sees an exception class whatever its name, and a failure names it with its module."""

    class Interrupted(RuntimeError):  # noqa: N818 (named so on purpose: the walk reads bases, not names)
        pass

    class RefusedError(CassinoError):
        pass

    module = ModuleType("cassino.fake")
    for cls in (Interrupted, RefusedError):
        cls.__module__, cls.__qualname__ = module.__name__, cls.__name__
        setattr(module, cls.__name__, cls)
    module.CassinoError = CassinoError  # imported, not defined here: not counted
    found = _exception_classes([module])
    assert sorted(found) == ["cassino.fake.Interrupted", "cassino.fake.RefusedError"]
    assert not_cassino_errors(found) == ["cassino.fake.Interrupted"]


def test_errors_modules_import_only_the_base() -> None:
    """``cassino/errors.py`` imports nothing of the package (it sits below every module); the other
    errors modules import of the package only that base, so catching an app's error needs no extra."""
    for module in ERRORS_BY_MODULE:
        path = SRC.joinpath(*module.split(".")[1:]).with_suffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            assert not isinstance(node, ast.Import), f"{path}: {ast.unparse(node)}"
            if isinstance(node, ast.ImportFrom):
                top = (node.module or "").partition(".")[0]
                allowed = node.level == 0 and top in sys.stdlib_module_names
                if module != "cassino.errors":
                    allowed |= (node.level, node.module) == (2, "errors")
                assert allowed, f"{path}: {ast.unparse(node)}"


def test_app_errors_import_without_their_extras() -> None:
    """In a fresh interpreter, importing every errors module loads none of the extras' packages."""
    code = (
        "import sys\n"
        f"for m in {sorted(ERRORS_BY_MODULE)!r}: __import__(m)\n"
        f"print(sorted(n for n in {EXTRAS!r} if n in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout == "[]\n", run.stdout


def test_engine_errors_are_caught_by_the_base() -> None:
    game = Game(make_rules("classic"), seed=1)
    hand = game.state.hands[game.state.to_move]
    not_held = next(c for c in range(52) if not hand >> c & 1)
    for bad, error in [
        (lambda: Move.parse("sweep everything"), MoveError),
        (lambda: make_rules("classic", bogus=1), cassino.RulesError),
        (lambda: game.play(Move.trail(not_held)), IllegalMoveError),
        (lambda: cassino.parse_card("Zz"), cassino.CardError),
        (lambda: cassino.position_from_json({}), cassino.PositionError),
    ]:
        with pytest.raises(CassinoError) as info:
            bad()
        assert isinstance(info.value, error) and isinstance(info.value, ValueError)


def test_move_attributes_read_what_the_move_does() -> None:
    move = Move.parse("capture 8s 8: 3h 5d")
    assert (move.kind, move.kind_code, move.card, move.card_name, move.value) == (
        "capture",
        CAPTURE,
        parse_card("8s"),
        "8s",
        8,
    )
    assert move.table == mask_of([parse_card("3h"), parse_card("5d")])
    assert move.table_cards == [parse_card("3h"), parse_card("5d")]
    assert move.table_names == ["3h", "5d"]
    trail = Move.parse("trail Kc")
    assert (trail.kind, trail.kind_code, trail.value, trail.table, trail.table_names) == ("trail", TRAIL, 0, 0, [])
    pairing = Move.parse("capture Qh Q: Qc")
    assert (pairing.value, pairing.table_names, str(pairing)) == (0, ["Qc"], "capture Qh Q: Qc")
    assert repr(move) == "Move.parse('capture 8s 8: 3h 5d')" and eval(repr(move)) == move


def test_move_codes_round_trip_through_the_helpers() -> None:
    for line in ("trail 7d", "capture Ts 10: 4c 6h", "build 2c 9: 3s 4d", "capture Jd J: Jc Js"):
        move = Move.parse(line)
        code = move.code
        assert Move.from_code(code) == move and Move.from_code(code).code == code
        assert encode(code_kind(code), code_card(code), code_value(code), code_table(code)) == code
        assert (code_kind(code), code_card(code), code_value(code), code_table(code)) == (
            move.kind_code,
            move.card,
            move.value,
            move.table,
        )
        assert format_code(code) == line == str(move)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (-1, "not a non-negative int"),
        (3, "names no kind"),
        (encode(TRAIL, 52, 0, 0), "names no kind"),
        (encode(TRAIL, 3, 5, 0), "a trail takes nothing"),
        (encode(CAPTURE, 3, 4, 0), "needs table cards"),
        (encode(BUILD, 3, 4, 1 << 3), "cannot also be a table card"),
        (encode(BUILD, 3, 0, 1 << 5), "value 0"),
        (encode(CAPTURE, parse_card("9h"), 0, 1 << 5), "value 0"),
        (encode(CAPTURE, 3, 15, 1 << 5), "value 15"),
        (encode(CAPTURE, 3, 4, 1 << 52), "names no kind"),
    ],
)
def test_move_from_code_refuses_what_is_no_move(code: int, words: str) -> None:
    with pytest.raises(MoveError, match=words):
        Move.from_code(code)


def test_view_legal_moves_are_the_legal_codes_as_moves_sorted() -> None:
    game = Game(make_rules("classic"), seed=3)
    for _ in range(12):
        state = game.state
        view = view_of(state, state.to_move)
        moves = view.legal_moves()
        assert [m.code for m in moves] == sorted(view.legal, key=format_code)
        assert moves == state.legal_moves()
        assert view_of(state, (state.to_move + 1) % 2).legal_moves() == []
        game.play(moves[-1])


class _FirstMove:
    """A player returning a ``Move``, as the README's own player does."""

    name = "first"

    def choose(self, view: View) -> Move:
        return view.legal_moves()[0]


def test_players_may_return_a_move_or_a_code() -> None:
    game = Game(make_rules("classic"), seed=5)
    state = game.state
    view = view_of(state, state.to_move)
    first = _FirstMove()
    assert decide(first, state) == choose_code(first, view) == view.legal_moves()[0].code
    greedy = make_player("greedy", seed=2)
    assert choose_code(greedy, view) in view.legal


def test_a_player_returning_something_else_is_told_what_to_return() -> None:
    class Wrong:
        name = "wrong"

        def choose(self, view: View) -> str:
            return "trail 7d"

    with pytest.raises(TypeError, match=r"must return one of view.legal_moves\(\)"):
        decide(Wrong(), Game(seed=1).state)  # type: ignore[arg-type]
