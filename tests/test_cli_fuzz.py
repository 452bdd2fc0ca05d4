"""The command line never breaks: whatever positions, moves, depths and records it is given, it
answers (status 0) or refuses with status 2 and exactly one line on standard error that names the
problem, never a traceback.

Most runs go through ``cassino.cli.main`` in the test process (fast enough for Hypothesis); a few
go through a real process, for standard input and files as a shell passes them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cassino.cli import main
from cassino.game import Game
from cassino.notation import position_to_json
from cassino.perft import moves_left
from cassino.record import record_of_game, write_record
from cassino.rules import make_rules
from strategies import positions

SCRIPT = Path(sys.executable).parent / "cassino"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cassino.cli"]

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)

POSITION = position_to_json(Game(make_rules("royal", players=3), seed=5).state)
"""A real position, the start of the mutations."""


def _late_position() -> dict[str, Any]:
    game = Game(make_rules("royal", players=3), seed=5)
    while moves_left(game.state) > 6:
        game.push(game.state.legal_codes()[0])
    return position_to_json(game.state)


LATE = _late_position()
"""A position six moves from the end of the hand: perft at any depth costs little."""


def _sample_record() -> str:
    game = Game(make_rules("classic", target=11), seed=4)
    while not game.over:
        game.push(game.state.legal_codes()[0])
    return write_record(record_of_game(game, {"Event": "fuzz"}, ["ann", "bob"]))


RECORD = _sample_record()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main(argv)`` in process: the status (argparse's SystemExit too), stdout and stderr."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return status, out, err


def assert_answer_or_one_line(status: int, out: str, err: str, command: str) -> None:
    """Success with a quiet stderr, or a user error: status 2, one line naming the command."""
    assert "Traceback" not in err
    if status == 0:
        assert err == ""
        return
    assert status == 2, (status, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(f"cassino {command}: ") and len(err) > len(f"cassino {command}: ") + 5, err


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A folder for the files of a fuzzed run (one for all of Hypothesis's examples)."""
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def mutated(value: Any, path: list[Any], new: Any) -> Any:
    """``value`` with the item at ``path`` (keys or indices, cut short where it ends) replaced."""
    if not path or not isinstance(value, dict | list) or not value:
        return new
    key = path[0]
    out = json.loads(json.dumps(value))
    if isinstance(out, dict):
        key = sorted(out)[key % len(out)] if isinstance(key, int) else key
    else:
        key = key % len(out) if isinstance(key, int) else 0
    out[key] = mutated(out.get(key) if isinstance(out, dict) else out[key], path[1:], new)
    return out


# ----------------------------------------------------------------------------- positions


@FUZZ
@given(st.text(max_size=40))
def test_any_text_as_a_position(capsys: pytest.CaptureFixture[str], text: str) -> None:
    if text.startswith("-") and text != "-":
        text = " " + text  # an option to argparse, not a position
    if text == "-":
        return  # standard input: the subprocess tests
    assert_answer_or_one_line(*run(capsys, "moves", text), "moves")


@FUZZ
@given(json_values)
def test_any_json_as_a_position(capsys: pytest.CaptureFixture[str], value: Any) -> None:
    position = value if isinstance(value, dict) else {"hands": value}
    assert_answer_or_one_line(*run(capsys, "moves", json.dumps(position)), "moves")


@FUZZ
@given(st.lists(st.integers(0, 60) | st.text(max_size=6), max_size=4), json_values)
def test_a_real_position_with_one_part_changed(capsys: pytest.CaptureFixture[str], path: list[Any], new: Any) -> None:
    position = mutated(POSITION, path, new)
    text = json.dumps(position) if isinstance(position, dict) else "{}"
    assert_answer_or_one_line(*run(capsys, "perft", text, "1"), "perft")


@FUZZ
@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda t: t.encode("utf-16")))
def test_any_bytes_as_a_position_file(capsys: pytest.CaptureFixture[str], workdir: Path, data: bytes) -> None:
    path = workdir / "position.json"
    path.write_bytes(data)
    assert_answer_or_one_line(*run(capsys, "moves", str(path)), "moves")


# ----------------------------------------------------------------------------- moves and depths


@FUZZ
@given(positions(), st.text(max_size=60))
def test_any_text_as_a_move(capsys: pytest.CaptureFixture[str], state: Any, move: str) -> None:
    if move.startswith("-"):
        move = " " + move
    assert_answer_or_one_line(*run(capsys, "apply", json.dumps(position_to_json(state)), move), "apply")


@FUZZ
@given(
    st.sampled_from(["trail", "capture", "build"]),
    st.text("0123456789٠١٢٣٤٥٦٧٨٩²AKQJTcdhs :,", max_size=20),
)
def test_move_like_text(capsys: pytest.CaptureFixture[str], kind: str, rest: str) -> None:
    text = json.dumps(POSITION)
    assert_answer_or_one_line(*run(capsys, "apply", text, f"{kind} {rest}"), "apply")


@FUZZ
@given(st.text(max_size=30) | st.integers(-5, 10**30).map(str))
def test_any_depth(capsys: pytest.CaptureFixture[str], depth: str) -> None:
    if depth.startswith("-") and not depth[1:].isdigit():
        depth = " " + depth
    status, out, err = run(capsys, "perft", json.dumps(LATE), depth, "--divide")
    assert_answer_or_one_line(status, out, err, "perft")
    if status == 0:
        assert out.splitlines()[-1].isdigit()


# ----------------------------------------------------------------------------- records


@FUZZ
@given(st.integers(0, 200), st.text(max_size=40), st.booleans())
def test_a_record_with_one_line_changed(
    capsys: pytest.CaptureFixture[str], workdir: Path, line: int, new: str, insert: bool
) -> None:
    lines = RECORD.splitlines()
    at = line % len(lines)
    if insert:
        lines.insert(at, new)
    else:
        lines[at] = new
    path = workdir / "game.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    status, out, err = run(capsys, "record", "check", str(path))
    assert_answer_or_one_line(status, out, err, "record check")
    assert out.startswith(f"{path}") and "Traceback" not in out
    status, out, err = run(capsys, "replay", str(path), "--no-pause")
    assert_answer_or_one_line(status, out, err, "replay")


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes_as_a_record(capsys: pytest.CaptureFixture[str], workdir: Path, data: bytes) -> None:
    path = workdir / "game.txt"
    path.write_bytes(data)
    status, out, err = run(capsys, "record", "check", str(path))
    assert status == 2
    assert_answer_or_one_line(status, out, err, "record check")


# ----------------------------------------------------------------------------- real processes


def cassino(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*COMMAND, *args], input=stdin, capture_output=True, timeout=60, check=False)


def one_line_error(proc: subprocess.CompletedProcess[bytes], command: str) -> str:
    err = proc.stderr.decode()
    assert proc.returncode == 2 and proc.stdout == b"", (proc.returncode, err)
    assert err.count("\n") == 1 and err.startswith(f"cassino {command}: ") and "Traceback" not in err
    return err


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (json.dumps(POSITION).encode("utf-16"), "UTF-16"),
        (json.dumps(POSITION).encode("utf-16-le"), "NUL bytes"),
        (json.dumps(POSITION).replace('"dealer"', '"d\u00e9aler"').encode("latin-1"), "byte 0xe9"),
        (b"[" * 100_000, "nested too deeply"),
    ],
)
def test_standard_input_that_cannot_be_read(data: bytes, fragment: str) -> None:
    err = one_line_error(cassino("moves", "-", stdin=data), "moves")
    assert "cannot read standard input" in err or "position" in err
    assert fragment in err


def test_standard_input_with_a_bom_is_read() -> None:
    proc = cassino("perft", "-", "1", stdin=b"\xef\xbb\xbf" + json.dumps(POSITION).encode())
    assert proc.returncode == 0 and proc.stderr == b"" and proc.stdout.strip().isdigit()


def test_a_bad_record_file_in_a_real_process(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_bytes(RECORD.replace("[Preset", "[preset").encode())
    proc = cassino("record", "check", str(path))
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.count("\n") == 1 and err.startswith("cassino record check: 1 of 1 records")
    assert f"{path}:" in proc.stdout.decode() and "write 'Preset'" in proc.stdout.decode()
