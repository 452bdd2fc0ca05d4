"""The rule book's worked examples (``worked_examples.py``) on the real engine.

Each example is a full 52-card position read through ``position_from_json``, and the engine's legal
moves must be *exactly* the example's set, in canonical lines; ``test_reference_selfcheck.py`` holds
the brute-force reference to the same table, so an expected set that misreads the rules cannot pass
silently either.  Where a move's result is part of the example (who owns a raised build, a multiple
build, a sweep), the move is played and the position after it is checked too.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

from cassino import IllegalMoveError, Move
from cassino.moves import format_code
from cassino.notation import position_from_json, position_to_json
from worked_examples import EXAMPLE, EXAMPLES, OTHERS, Example


def engine_moves(position: dict[str, Any]) -> set[str]:
    """The engine's legal moves as canonical lines, each generated once and listed in sorted order."""
    state = position_from_json(position)
    lines = [format_code(code) for code in state.legal_codes()]
    assert len(lines) == len(set(lines)), f"a move generated twice: {sorted(lines)}"
    assert [str(move) for move in state.legal_moves()] == sorted(lines)
    return set(lines)


def after(position: dict[str, Any], move: str) -> dict[str, Any]:
    """The position after a checked move, in the writer's form."""
    state = position_from_json(position)
    state.play(Move.parse(move))
    return position_to_json(state)


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.name for example in EXAMPLES])
def test_engine_gives_exactly_the_example_moves(example: Example) -> None:
    """Every worked example, whatever the other seats hold: the engine's moves are the example's."""
    for others in OTHERS:
        got = engine_moves(example.position(others))
        expected = set(example.moves)
        assert got == expected, (
            f"others {others}: engine only {sorted(got - expected)}, missing {sorted(expected - got)}"
        )


def test_example_2_court_capture_all_is_a_sweep() -> None:
    """11.2 under court_capture = all: taking both queens clears the table, a sweep."""
    played = after(EXAMPLE["11.2 queens all"].position(), "capture Qd Q: Qh Qs")
    assert played["table"] == [] and played["sweeps"] == [0]


def test_example_4_a_nine_cannot_take_the_build_and_the_two() -> None:
    """11.4: the capture of a 7-build and a loose 2 with a 9 is refused when played."""
    with pytest.raises(IllegalMoveError):
        after(EXAMPLE["11.4 a build is no term of a sum"].position(), "capture 9s 9: 2d 3c 4h")


def test_example_5_the_raiser_owns_the_build() -> None:
    """11.5: after raising seat 1's 6-build to 8, seat 0 owns it."""
    played = after(EXAMPLE["11.5 raise an opponent's build"].position(), "build 2h 8: 3c 3d")
    assert played["table"] == [{"cards": ["2h", "3c", "3d"], "value": 8, "owner": 0}]


def test_example_7_raise_and_absorb_makes_a_multiple_build() -> None:
    """11.7: raising the 7-build to 9 and taking in the loose 9 leaves one multiple 9-build, the mover's."""
    played = after(EXAMPLE["11.7 raise and absorb"].position(), "build 2s 9: 3c 4h 9d")
    assert played["table"] == [{"cards": ["2s", "3c", "4h", "9d"], "value": 9, "owner": 0}]


README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_own_player_example_runs() -> None:
    """The README's "Write your own player" code runs as written and prints what its last comment says."""
    section = README.read_text(encoding="utf-8").split("## Write your own player\n", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None, "the section has no python block"
    expected = re.search(r"^print\(.*\)  # (.+)$", code.group(1), re.M)
    assert expected is not None, "the block's print has no '# expected output' comment"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(README), "exec"), {"__name__": "readme_example"})
    assert out.getvalue() == expected.group(1) + "\n"
    grabber, greedy = map(int, re.findall(r"\d+", expected.group(1)))
    assert grabber + greedy == 20  # every one of the 20 games has a winner
