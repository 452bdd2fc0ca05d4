"""Numbers in outside text are written with the ASCII digits 0-9 only, and a refused input is quoted
by an excerpt, never whole.

Python's ``int`` (and ``str.isdigit``) read Arabic-Indic ``٨``, Devanagari ``८``, full-width ``８``
and superscript ``²`` as digits: a move ``capture 8c ٨: 8d`` or an option ``target=١١`` must be
refused with one line naming the character, not read as 8 or 11. Checked through the Python
functions (``parse_code``, ``Move.parse``, ``State.play``, ``parse_option``) and through the
``cassino`` command (status 2, exactly one line on standard error), in process and in a real one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cassino.cli import main
from cassino.errors import MoveError, RulesError
from cassino.game import Game
from cassino.moves import MAX_MOVE_CHARS, Move, parse_code
from cassino.notation import position_to_json
from cassino.record import record_of_game, write_record
from cassino.rules import make_rules, parse_option

SCRIPT = Path(sys.executable).parent / "cassino"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cassino.cli"]

POSITION = json.dumps(position_to_json(Game(seed=5).state))
"""A real position: the moves below are refused as text, before their legality is asked."""

MEGABYTE = 1_000_000

OTHER_DIGITS = ["٨", "۸", "८", "８", "²"]
"""An eight (or a two) in Arabic-Indic, Extended Arabic-Indic, Devanagari, full-width and superscript."""


def cassino(*args: str) -> subprocess.CompletedProcess[str]:
    """The ``cassino`` command in a real process, with nothing on standard input."""
    return subprocess.run([*COMMAND, *args], input="", capture_output=True, text=True, timeout=60, check=False)


def refused(status: int, out: str, err: str) -> str:
    """The one line of a user error (status 2, nothing on standard output), without its newline."""
    assert (status, out) == (2, ""), (status, out, err)
    assert err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err, err
    return err[:-1]


def in_process(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """``cassino.cli.main`` in this process: the refusal's one line."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return refused(status, out, err)


# ----------------------------------------------------------------------------- the Python functions


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_a_move_value_in_other_digits_is_refused(digit: str) -> None:
    text = f"capture 8c {digit}: 8d"
    message = f"in move {text!r}: {digit!r} is not one of the digits 0-9"
    for read in (parse_code, Move.parse, Game(seed=5).state.play):
        with pytest.raises(MoveError) as info:
            read(text)
        assert str(info.value) == message


def test_other_digits_anywhere_in_a_move_are_refused() -> None:
    with pytest.raises(MoveError) as info:
        parse_code("capture ٨c 8: 8d")
    assert str(info.value) == "in move 'capture ٨c 8: 8d': '٨' is not one of the digits 0-9"
    with pytest.raises(MoveError) as info:
        parse_code("build 3h ١٠: 7s")
    assert str(info.value) == "in move 'build 3h ١٠: 7s': '١' is not one of the digits 0-9"


def test_ascii_digits_still_read() -> None:
    assert parse_code("capture 8c 8: 8d") == parse_code("Capture 8C 08: 8D")
    assert parse_option("target=11") == ("target", 11)
    assert parse_option("target=0031") == ("target", 31)
    assert make_rules(**dict([parse_option("target=11")])).target == 11


@pytest.mark.parametrize("digit", OTHER_DIGITS)
def test_an_option_value_in_other_digits_is_refused(digit: str) -> None:
    with pytest.raises(RulesError) as info:
        parse_option(f"target=1{digit}")
    assert str(info.value) == f"option 'target=1{digit}': {digit!r} is not one of the digits 0-9"


def test_an_option_in_arabic_indic_digits_is_refused() -> None:
    with pytest.raises(RulesError) as info:
        parse_option("target=١١")
    assert str(info.value) == "option 'target=١١': '١' is not one of the digits 0-9"


def test_a_number_too_long_for_int_is_refused_not_a_value_error() -> None:
    """``int`` refuses strings of more than 4300 digits with a ValueError: never asked for one."""
    with pytest.raises(RulesError) as info:
        parse_option("target=" + "9" * 5000)
    assert str(info.value) == (
        f"option 'target={'9' * 53}'… (5007 characters): a number of more than 9 digits is too large"
    )
    with pytest.raises(MoveError) as move_info:
        parse_code("capture 8c " + "9" * 300 + ": 8d")
    assert str(move_info.value) == (
        f"in move 'capture 8c {'9' * 49}'… (315 characters): the value must be 1..14, got {'9' * 60}… (300 characters)"
    )


def test_a_megabyte_bad_move_is_quoted_by_an_excerpt() -> None:
    text = "trail " + "x" * MEGABYTE
    message = f"'trail {'x' * 54}'… ({MEGABYTE + 6} characters) is not a move: a move line has at most {MAX_MOVE_CHARS} characters"
    for read in (parse_code, Move.parse):
        with pytest.raises(MoveError) as info:
            read(text)
        assert str(info.value) == message and len(message) < 200
    text = "capture 8c ٨: " + "8d " * (MEGABYTE // 3)
    with pytest.raises(MoveError) as info:
        parse_code(text)
    assert len(str(info.value)) < 200 and f"({len(text)} characters) is not a move" in str(info.value)


def test_a_long_move_under_the_limit_is_quoted_by_excerpts() -> None:
    """Every quote of the line and of its words is cut, whichever word is wrong."""
    for text in ("trail " + "x" * 300, "capture 8c 8: " + "Z" * 300, "capture 8c " + "y" * 300 + ": 8d"):
        with pytest.raises(MoveError) as info:
            parse_code(text)
        assert len(str(info.value)) < 300 and f"({len(text)} characters)" in str(info.value)


def test_a_megabyte_bad_option_is_quoted_by_an_excerpt() -> None:
    for text in ("x" * MEGABYTE, "target=" + "٣" * MEGABYTE, "sweeps=" + "y" * MEGABYTE):
        with pytest.raises(RulesError) as info:
            make_rules(**dict([parse_option(text)]))
        assert len(str(info.value)) < 200 and "characters)" in str(info.value)


# ----------------------------------------------------------------------------- the cassino command


def test_apply_refuses_a_move_in_arabic_indic_digits() -> None:
    line = "cassino apply: move 1 of 1: in move 'capture 8c ٨: 8d': '٨' is not one of the digits 0-9"
    proc = cassino("apply", POSITION, "capture 8c ٨: 8d")
    assert refused(proc.returncode, proc.stdout, proc.stderr) == line


@pytest.mark.parametrize("command", [["play", "--plain"], ["arena", "random", "greedy"]])
def test_an_option_in_arabic_indic_digits_is_refused_by_the_command(command: list[str]) -> None:
    proc = cassino(*command, "-o", "target=١١")
    line = f"cassino {command[0]}: option 'target=١١': '١' is not one of the digits 0-9"
    assert refused(proc.returncode, proc.stdout, proc.stderr) == line


def test_the_command_refuses_other_digits_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert in_process(capsys, "apply", POSITION, "build 3h ٨: 5s") == (
        "cassino apply: move 1 of 1: in move 'build 3h ٨: 5s': '٨' is not one of the digits 0-9"
    )
    assert in_process(capsys, "arena", "random", "greedy", "-o", "target=١١") == (
        "cassino arena: option 'target=١١': '١' is not one of the digits 0-9"
    )


def test_a_megabyte_bad_move_through_the_command_is_short(capsys: pytest.CaptureFixture[str]) -> None:
    """In process (one argument of a real process is at most 128 KiB on Linux), then in a record
    file given to a real process."""
    line = in_process(capsys, "apply", POSITION, "trail " + "x" * MEGABYTE)
    assert line == (
        f"cassino apply: move 1 of 1: 'trail {'x' * 54}'… ({MEGABYTE + 6} characters) is not a move: "
        f"a move line has at most {MAX_MOVE_CHARS} characters"
    )


def test_a_megabyte_bad_move_in_a_record_is_short(tmp_path: Path) -> None:
    game = Game(make_rules("classic", target=11), seed=4)
    while not game.over:
        game.push(game.state.legal_codes()[0])
    lines = write_record(record_of_game(game, {"Event": "digits"}, ["ann", "bob"])).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("seat "))
    seat = lines[at].split(":")[0]
    lines[at] = f"{seat}: trail " + "x" * MEGABYTE
    path = tmp_path / "game.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = cassino("record", "check", str(path))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("cassino record check: 1 of 1 records did not check out")
    assert f"{path}:{at + 1}: 'trail {'x' * 54}'… ({MEGABYTE + 6} characters) is not a move" in proc.stdout
    assert len(proc.stdout) < 500
