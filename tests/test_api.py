"""The API a bot writer meets first: one error base, readable moves, a view's moves as objects, and
players that may return a ``Move`` as well as a code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cassino
from cassino import CassinoError, Game, IllegalMoveError, Move, MoveError, make_rules
from cassino.cards import mask_of, parse_card
from cassino.moves import BUILD, CAPTURE, TRAIL, code_card, code_kind, code_table, code_value, encode, format_code
from cassino.players import choose_code, decide, make_player
from cassino.view import View, view_of

SRC = Path(cassino.__file__).resolve().parent


def _error_classes() -> dict[str, str]:
    """Every class of the package whose name ends in ``Error``, by name, with the module defining it
    (read from the source, so that modules needing an extra are covered without importing them)."""
    found: dict[str, str] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Error"):
                found[node.name] = str(path.relative_to(SRC))
    return found


def test_every_error_is_a_cassino_error_and_a_value_error() -> None:
    found = _error_classes()
    assert {"CardError", "MoveError", "IllegalMoveError", "ServiceError", "CliError"} <= set(found)
    for name, where in found.items():
        assert where == "errors.py", f"{name} is defined in {where}: define it in errors.py under CassinoError"
        cls = getattr(cassino, name)
        assert name in cassino.__all__, name
        assert issubclass(cls, CassinoError) and issubclass(cls, ValueError), name
    assert set(cassino.errors.__all__) == set(found)


def test_errors_module_imports_nothing_of_the_package() -> None:
    """errors.py sits below every module, so that each can import it and ``cassino`` export them all."""
    tree = ast.parse((SRC / "errors.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("cassino"), ast.dump(node)


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
