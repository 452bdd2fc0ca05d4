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
from cassino.players import make_player, player_names
from cassino.players.base import player_settings
from cassino.players.errors import PlayerSpecError
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


# ----------------------------------------------------------------------------- player specs

PLAYERS = player_names()


def _refusal_of(spec: str) -> str | None:
    """What ``make_player`` says of ``spec``, or None when it builds a player."""
    try:
        make_player(spec, 0)
    except PlayerSpecError as exc:
        return str(exc)
    return None


def _near(word: str) -> st.SearchStrategy[str]:
    """``word`` with a letter dropped, doubled or changed: the slips a person makes."""
    return st.integers(0, len(word) - 1).flatmap(
        lambda i: st.sampled_from(
            [word[:i] + word[i + 1 :], word[:i] + word[i] + word[i:], word[:i] + "x" + word[i + 1 :]]
        )
    )


def _settings_of(name: str) -> list[str]:
    return list(player_settings(name) or {})


bad_specs = st.one_of(
    # an unknown name: a slip of a real one, or any text
    st.sampled_from(PLAYERS).flatmap(_near).filter(lambda n: n not in PLAYERS),
    st.text(st.characters(blacklist_characters=":,=\n\r\x00"), max_size=10).filter(lambda n: n.strip() not in PLAYERS),
    # a known player with a setting it does not have
    st.tuples(st.sampled_from(PLAYERS), st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)).map(
        lambda p: f"{p[0]}:{p[1]}=1"
    ),
    st.sampled_from(["search", "heuristic", "master", "casual"]).flatmap(
        lambda n: st.sampled_from(_settings_of(n)).flatmap(_near).map(lambda k: f"{n}:{k}=3")
    ),
    # a known setting given a value of the wrong kind
    st.tuples(
        st.sampled_from(["search", "cheater", "heuristic", "fallible", "club"]),
        st.sampled_from(["abc", "1.5.2", "", "٣", "nan", "inf", "1e999", "0x10", "--"]),
    ).flatmap(
        lambda p: st.sampled_from([k for k in _settings_of(p[0]) if k not in ("base", "weights")]).map(
            lambda k: f"{p[0]}:{k}={p[1]}"
        )
    ),
    st.sampled_from(["search:worlds", "search:=3", "search:worlds=1,worlds=2", "fallible:base=randm"]),
).filter(lambda spec: not spec.startswith("-") and _refusal_of(spec) is not None)
"""Specs ``make_player`` refuses: unknown names and settings (near misses too), values of the
wrong kind, settings written wrong (none starting with ``-``, which the command line reads as an option)."""


def assert_names_the_choices(err: str, command: str, spec: str) -> None:
    """One line, status 2's, saying what is wrong and listing what may be chosen instead."""
    assert err.startswith(f"cassino {command}: ") and err.count("\n") == 1 and "Traceback" not in err, err
    message = err[len(f"cassino {command}: ") : -1]
    assert message.endswith(_refusal_of(spec) or "?"), (message, spec)
    name = spec.partition(":")[0].strip()
    if message.startswith("unknown player"):
        assert message.endswith(f"the players are: {', '.join(PLAYERS)}")
    elif " has no setting " in message:
        assert message.endswith(f"its settings are: {', '.join(_settings_of(name))}")
    elif " takes no settings" not in message:
        assert " must be " in message or "base must be another player" in message or "given twice" in message


@FUZZ
@given(bad_specs)
def test_a_bad_opponent_is_refused_with_the_choices(capsys: pytest.CaptureFixture[str], spec: str) -> None:
    status, out, err = run(capsys, "play", "--plain", "--no-save", f"--opponent={spec}")
    assert (status, out) == (2, "")
    assert_names_the_choices(err, "play", spec)


@FUZZ
@given(bad_specs, st.booleans())
def test_a_bad_arena_entrant_is_refused_with_the_choices(
    capsys: pytest.CaptureFixture[str], spec: str, first: bool
) -> None:
    entrants = [spec, "random"] if first else ["random", spec]
    # After --, a spec that begins with - is an entrant, not an option.
    status, out, err = run(capsys, "arena", "-n", "1", "--executor", "inprocess", "--quiet", "--", *entrants)
    assert (status, out) == (2, "")
    assert_names_the_choices(err, "arena", spec)


def test_the_spec_messages_people_meet() -> None:
    """The three refusals as a person reads them."""
    assert (
        _refusal_of("randm") == f"unknown player 'randm'; did you mean 'random'? the players are: {', '.join(PLAYERS)}"
    )
    assert _refusal_of("search:wrlds=3") == (
        "search has no setting 'wrlds'; did you mean 'worlds'? its settings are: time, worlds, candidates, "
        "solve_below, max_nodes, depth, breadth, horizon, cross, prior, doubt, work, infer, floor, race, race_after, balance, game"
    )
    assert _refusal_of("search:worlds=abc") == "search:worlds must be a whole number, got 'abc'"
    assert _refusal_of("casual:risk=high") == "casual:risk must be a number, got 'high'"
    assert _refusal_of("random:depth=2") == "random takes no settings, got 'depth'"


# ----------------------------------------------------------------------------- output folders


def test_an_arena_out_folder_is_checked_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "results"
    afile.write_text("")
    status, out, err = run(
        capsys, "arena", "random", "greedy", "-n", "1000", "--executor", "inprocess", "--out", str(afile)
    )
    assert (status, out, err) == (2, "", f"cassino arena: --out {afile}: not a folder (a file has that name)\n")
    status, out, err = run(
        capsys, "arena", "random", "greedy", "-n", "1", "--executor", "inprocess", "-q", "--out", str(afile / "x")
    )
    assert (status, out) == (2, "") and err.endswith(
        f"--out {afile / 'x'}: cannot create the folder: Not a directory\n"
    )


def test_a_serve_data_folder_is_checked_before_serving(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("fastapi")
    afile = tmp_path / "data"
    afile.write_text("")
    status, out, err = run(capsys, "serve", "--data-dir", str(afile), "--port", "1")
    assert (status, out, err) == (2, "", f"cassino serve: --data-dir {afile}: not a folder (a file has that name)\n")
