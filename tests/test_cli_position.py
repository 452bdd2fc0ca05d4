"""``cassino new`` and one-line positions on the command line (NOTATION.md "The command line"),
run as processes, pipes included: the contract is the text and the exit status."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cassino import State, make_rules, perft
from cassino.notation import dumps_position, position_from_json, position_to_json, position_to_line
from cli_support import CASES, COMMAND, cassino, engine_moves, fails, ok


def shell(pipeline: str) -> subprocess.CompletedProcess[str]:
    """Run a shell pipeline in which ``cassino`` is this package's command."""
    command = " ".join(COMMAND)
    return subprocess.run(
        pipeline.replace("cassino", command), shell=True, capture_output=True, text=True, timeout=60, check=False
    )


START = State.new(make_rules("classic"), 1)
"""What ``cassino new --seed 1`` deals."""


# ----------------------------------------------------------------------------- cassino new


def test_new_prints_the_seeded_deal_as_json() -> None:
    out = ok("new", "--seed", "1")
    assert out == dumps_position(START) + "\n"
    assert position_from_json(json.loads(out)) == START


def test_new_line_prints_the_one_line_position() -> None:
    assert ok("new", "--seed", "1", "--line") == position_to_line(START) + "\n"


def test_new_takes_the_rules_and_the_dealer() -> None:
    out = ok(
        "new", "--preset", "royal", "--players", "4", "--partnerships", "-o", "sweeps_cancel=true", "--seed", "3",
        "--dealer", "2", "--line",
    )  # fmt: skip
    rules = make_rules("royal", players=4, partnerships=True, sweeps_cancel=True)
    assert out == position_to_line(State.new(rules, 3, 2)) + "\n"
    assert out.startswith("royal,sweeps_cancel=true 2v2 2 3 ")


def test_new_without_a_seed_tells_the_seed_that_deals_it_again() -> None:
    proc = cassino("new")
    assert proc.returncode == 0
    seed = proc.stderr.split()[3]
    assert proc.stderr == f"cassino new: seed {seed} (--seed {seed} deals this position again)\n"
    assert ok("new", "--seed", seed) == proc.stdout


def test_new_piped_into_moves_and_perft() -> None:
    """``cassino new | cassino moves -`` and ``| cassino perft - 2``, JSON and line alike."""
    moves = [str(m) for m in START.legal_moves()]
    for form in ("", " --line"):
        proc = shell(f"cassino new --seed 1{form} | cassino moves -")
        assert (proc.returncode, proc.stdout.splitlines(), proc.stderr) == (0, moves, "")
        proc = shell(f"cassino new --seed 1{form} | cassino perft - 2")
        assert (proc.returncode, proc.stderr) == (0, "")
        assert proc.stdout == f"{perft(START.copy(), 2)}\n"
    proc = shell("cassino new --players 3 | cassino moves -")
    assert proc.returncode == 0 and proc.stdout and proc.stderr.startswith("cassino new: seed ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "x"], "cassino new: --seed must be a whole number written with the digits 0-9, got 'x'"),
        (["--seed", "-3"], "cassino new: --seed must be a whole number written with the digits 0-9, got '-3'"),
        (["--seed", "٣"], "cassino new: --seed must be a whole number written with the digits 0-9, got '٣'"),
        (["--seed", "9" * 41], f"cassino new: --seed has more than 40 digits: '{'9' * 41}'"),
        (["--dealer", "2"], "cassino new: --dealer must be a seat 0..1 for 2 players, got '2'"),
        (["--dealer", "x", "--players", "3"], "cassino new: --dealer must be a seat 0..2 for 3 players, got 'x'"),
        (["-o", "players=3"], "cassino new: players is not a rule option: choose it with --players"),
        (["-o", "sweeps=maybe"], "cassino new: sweeps must be true or false, got 'maybe'"),
        (["--partnerships"], "cassino new: partnerships need 4 players, not 2"),
    ],
)  # fmt: skip
def test_new_refuses_bad_arguments_in_one_line(args: list[str], message: str) -> None:
    assert fails("new", *args) == message


def test_new_refuses_an_unknown_preset_as_argparse_words_it() -> None:
    message = fails("new", "--preset", "poker")
    assert message.startswith("cassino new: argument --preset: invalid choice: 'poker'")
    assert message.endswith("(see cassino new --help)")


# ----------------------------------------------------------------------------- one-line positions


@pytest.mark.parametrize(("position", "counts"), CASES)
def test_a_line_is_read_wherever_a_position_is(
    position: dict[str, object], counts: dict[str, int], tmp_path: Path
) -> None:
    """As the argument, in a file and on standard input: the same moves and counts as the JSON."""
    line = position_to_line(position_from_json(position))
    path = tmp_path / "position.txt"
    path.write_text(line + "\n")
    for args, stdin in (((line,), None), ((str(path),), None), (("-",), line + "\n")):
        assert ok("moves", *args, stdin=stdin).splitlines() == engine_moves(position)
    assert ok("perft", line, "2").splitlines() == [str(counts["2"])]


def test_apply_prints_json_and_with_line_the_line() -> None:
    position = CASES[0][0]
    state = position_from_json(position)
    move = state.legal_moves()[0]
    state.play(move)
    line = position_to_line(position_from_json(position))
    assert json.loads(ok("apply", line, str(move))) == position_to_json(state)
    assert ok("apply", line, str(move), "--line") == position_to_line(state) + "\n"
    assert ok("apply", json.dumps(position), "--line", str(move)) == position_to_line(state) + "\n"


def test_apply_line_output_reads_back() -> None:
    proc = shell(f"cassino apply '{json.dumps(CASES[2][0])}' '{engine_moves(CASES[2][0])[0]}' --line | cassino moves -")
    state = position_from_json(CASES[2][0])
    state.play(engine_moves(CASES[2][0])[0])
    assert (proc.returncode, proc.stdout.splitlines(), proc.stderr) == (0, [str(m) for m in state.legal_moves()], "")


def test_a_bad_line_is_a_one_line_user_error(tmp_path: Path) -> None:
    line = position_to_line(START)
    bad = line.replace(" 2 ", " 5 ", 1)
    message = "bad position: players must be 2, 3, 4 or 2v2 (four players in two partnerships), got '5'"
    assert fails("moves", bad) == f"cassino moves: {message}"
    assert fails("perft", "-", "1", stdin=bad) == f"cassino perft: {message}"
    path = tmp_path / "p.txt"
    path.write_text(bad)
    assert fails("apply", str(path), "trail 2d") == f"cassino apply: {message}"
    assert fails("moves", "classic 2 0 1").startswith(
        "cassino moves: bad position: a one-line position has 12 fields separated by spaces"
    )


def test_malformed_json_keeps_its_messages(tmp_path: Path) -> None:
    """Text that is neither JSON nor a line (no preset first) is still read as JSON, as before."""
    path = tmp_path / "p.json"
    path.write_text("not a position")
    assert fails("moves", str(path)) == (
        "cassino moves: bad position: position is not valid JSON: Expecting value at line 1 column 1"
    )
    assert fails("moves", '{"rules": ') == (
        "cassino moves: bad position: position is not valid JSON: Expecting value at line 1 column 11"
    )
    assert fails("moves", "-", stdin="[]") == "cassino moves: bad position: a position must be a JSON object, got list"
