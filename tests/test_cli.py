"""The ``cassino`` command as outside tools use it (NOTATION.md "Command line"), run as a process.

These go through a real subprocess on purpose: the contract is the text on stdout/stderr and the
exit status, which in-process calls of ``main`` would not fully exercise.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cassino.moves import Move
from cassino.notation import position_from_json, position_to_json
from cli_support import CASES, COMMAND, engine_moves, fails, ok

# ----------------------------------------------------------------------------- moves


@pytest.mark.parametrize(("position", "counts"), CASES)
def test_moves_lists_the_legal_moves_sorted(position: dict[str, Any], counts: dict[str, int]) -> None:
    lines = ok("moves", json.dumps(position)).splitlines()
    assert len(lines) == counts["1"]
    assert lines == sorted(lines)
    assert lines == engine_moves(position)


def test_moves_of_a_finished_hand_is_empty() -> None:
    state = position_from_json(CASES[0][0])
    while not state.hand_over:
        state.push(sorted(state.legal_codes())[0])
    assert ok("moves", json.dumps(position_to_json(state))) == ""


# ----------------------------------------------------------------------------- perft


@pytest.mark.parametrize(("position", "counts"), CASES)
def test_perft_counts(position: dict[str, Any], counts: dict[str, int]) -> None:
    text = json.dumps(position)
    for depth in ("1", "2"):
        assert ok("perft", text, depth).splitlines() == [str(counts[depth])]
    assert ok("perft", text, "0").splitlines() == ["1"]


@pytest.mark.parametrize(("position", "counts"), CASES)
def test_perft_divide(position: dict[str, Any], counts: dict[str, int]) -> None:
    """``MOVE: COUNT`` per legal move, in move-list order, then the total alone on the last line."""
    lines = ok("perft", json.dumps(position), "2", "--divide").splitlines()
    assert lines[-1] == str(counts["2"])
    rows = [line.rsplit(": ", 1) for line in lines[:-1]]
    assert [move for move, _ in rows] == engine_moves(position)
    assert all(n.isdigit() for _, n in rows)
    assert sum(int(n) for _, n in rows) == counts["2"]
    one = ok("perft", json.dumps(position), "1", "--divide").splitlines()
    assert one == [f"{m}: 1" for m in engine_moves(position)] + [str(counts["1"])]


def test_perft_rejects_a_negative_depth() -> None:
    assert "depth" in fails("perft", json.dumps(CASES[0][0]), "-1")


# ----------------------------------------------------------------------------- apply


@pytest.mark.parametrize(("position", "counts"), CASES)
def test_apply_prints_the_engines_position(position: dict[str, Any], counts: dict[str, int]) -> None:
    """Three plays in a row (the first legal move each time) give the library's position JSON."""
    state = position_from_json(position)
    played = []
    for _ in range(3):
        if state.hand_over:
            break
        move = state.legal_moves()[0]
        state.play(move)
        played.append(str(move))
    out = ok("apply", json.dumps(position), *played)
    assert len(out.splitlines()) == 1
    assert json.loads(out) == position_to_json(state)


def test_apply_reads_lenient_move_spellings() -> None:
    position = CASES[0][0]
    move = engine_moves(position)[-1]
    head, _, cards = move.partition(": ")
    lenient = head.upper().replace("TRAIL", "trail").replace("CAPTURE", "capture").replace("BUILD", "build")
    lenient = lenient + ": " + " ".join(reversed(cards.split()))
    state = position_from_json(position)
    state.play(Move.parse(move))
    assert json.loads(ok("apply", json.dumps(position), lenient)) == position_to_json(state)


def test_apply_reads_sentences_and_a_card_or_rank_alone() -> None:
    """A move as the game writes it (any language, symbols or letters) or a card or a rank alone
    with one legal move applies as its canonical line would; one that names several moves, or
    none, is a user error (one line, status 2) that says what it could be."""
    position = CASES[0][0]
    state = position_from_json(position)
    state.play(Move.parse("capture Ad 14: 2c 4h 7d 7h Th Qc"))
    expected = position_to_json(state)
    spellings = ["take your fourteen with A♦", "take 2c 4h 7d 7h Th Qc with Ad", "deinen Bau vierzehn mit A♦ nehmen"]
    for move in [*spellings, "ambil bangunanmu empat belas dengan A♦", "Ad", "a♦", "A"]:
        assert json.loads(ok("apply", json.dumps(position), move)) == expected, move
    spade = CASES[2][0]
    assert (
        fails("apply", json.dumps(spade), "9")
        == "cassino apply: move 1 of 1: '9' could be any of 2 moves: trail 9♣; trail 9♠"
    )
    assert fails("apply", json.dumps(position), "take 2♥ 10♠ with A♦") == (
        "cassino apply: move 1 of 1: 'take 2♥ 10♠ with A♦' is not a legal move here: A♦ can: take your fourteen with A♦"
    )
    assert fails("apply", json.dumps(position), "10") == (
        "cassino apply: move 1 of 1: 10♣ has no legal move: you own the 14-build (2c 4h 7d 7h Th Qc), "
        "so you may not trail (rule 7.1)"
    )


def test_apply_illegal_move_names_the_move_and_the_rule() -> None:
    """Line 0: seat 0 owns a 14-build, so trailing is forbidden (RULES.md 7.1)."""
    position = CASES[0][0]
    message = fails("apply", json.dumps(position), "trail 3h")
    assert "trail 3h" in message and "trail" in message.split("trail 3h", 1)[1]
    assert "build" in message


def test_apply_card_not_in_hand() -> None:
    message = fails("apply", json.dumps(CASES[0][0]), "trail 5h")
    assert "5h" in message and "hand" in message


def test_apply_stops_at_the_first_illegal_move() -> None:
    """A later illegal move is reported with its number and nothing is printed."""
    position = CASES[0][0]
    first = engine_moves(position)[0]
    message = fails("apply", json.dumps(position), first, "trail 5h")
    assert "trail 5h" in message and "2" in message


@pytest.mark.parametrize("move", ["jump 5h", "trail", "trail Xx", "capture Ad: 2c", "build 3h 15: 2c", "capture Ad 14"])
def test_apply_malformed_move(move: str) -> None:
    message = fails("apply", json.dumps(CASES[0][0]), move)
    assert move.split()[-1].rstrip(":") in message or move in message


# ----------------------------------------------------------------------------- position sources


def test_position_from_a_file(tmp_path: Path) -> None:
    position, counts = CASES[1]
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position, indent=2))
    assert len(ok("moves", str(path)).splitlines()) == counts["1"]
    assert ok("perft", str(path), "2").splitlines()[-1] == str(counts["2"])


def test_position_from_stdin() -> None:
    position, counts = CASES[2]
    text = json.dumps(position, indent=1)
    assert len(ok("moves", "-", stdin=text).splitlines()) == counts["1"]
    assert ok("perft", "-", "2", "--divide", stdin=text).splitlines()[-1] == str(counts["2"])
    state = position_from_json(position)
    move = state.legal_moves()[0]
    state.play(move)
    assert json.loads(ok("apply", "-", str(move), stdin=text)) == position_to_json(state)


# ----------------------------------------------------------------------------- bad positions


def test_bad_json_text() -> None:
    message = fails("moves", '{"rules": ')
    assert "JSON" in message


def test_missing_file() -> None:
    message = fails("moves", "no/such/position.json")
    assert "no/such/position.json" in message


def test_inconsistent_position_is_named() -> None:
    position = json.loads(json.dumps(CASES[0][0]))
    position["stock"].append(position["hands"][0][0])
    message = fails("perft", json.dumps(position), "1")
    assert "duplicate" in message and position["hands"][0][0] in message


def test_rejected_rules_are_named() -> None:
    position = json.loads(json.dumps(CASES[0][0]))
    position["rules"]["sweeps_cancel"] = True
    assert "sweeps_cancel" in fails("moves", json.dumps(position))
    position = json.loads(json.dumps(CASES[0][0]))
    position["rules"]["colour"] = "red"
    assert "colour" in fails("apply", json.dumps(position), "trail 3h")


# ----------------------------------------------------------------------------- inputs that are not what they seem


def fails_file(tmp_path: Path, data: bytes, *args: str) -> str:
    """``fails`` on a position file holding ``data``."""
    path = tmp_path / "position.json"
    path.write_bytes(data)
    return fails(args[0] if args else "moves", str(path), *args[1:])


def test_json_nested_100000_deep_is_refused(tmp_path: Path) -> None:
    message = fails_file(tmp_path, b"[" * 100_000 + b"]" * 100_000)
    assert (
        message
        == "cassino moves: bad position: position is nested too deeply to read: a position is at most four levels deep"
    )
    assert "nested too deeply" in fails("moves", '{"rules": ' + "[" * 100_000)


def test_a_utf16_position_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_bytes(json.dumps(CASES[0][0]).encode("utf-16"))
    assert (
        fails("moves", str(path))
        == f"cassino moves: bad position: cannot read position file '{path}': it is UTF-16 text: save it as UTF-8"
    )
    assert "NUL bytes" in fails_file(tmp_path, json.dumps(CASES[0][0]).encode("utf-16-be"))


def test_a_latin1_byte_is_refused(tmp_path: Path) -> None:
    data = json.dumps({"comment": "é", **CASES[0][0]}, ensure_ascii=False).encode("latin-1")
    message = fails_file(tmp_path, data)
    assert message.endswith(": not UTF-8 text: byte 0xe9 at offset 13 (invalid continuation byte)"), message


def test_binary_junk_is_refused(tmp_path: Path) -> None:
    junk = bytes(range(256)) * 20
    assert fails_file(tmp_path, junk).endswith("it holds NUL bytes: binary data or UTF-16 text, not UTF-8 text")
    assert "not UTF-8 text: byte 0x80" in fails_file(tmp_path, bytes(range(1, 256)))


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    position, counts = CASES[1]
    path = tmp_path / "position.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(position).encode())
    assert len(ok("moves", str(path)).splitlines()) == counts["1"]
    assert ok("perft", "-", "2", stdin="\ufeff" + json.dumps(position)).splitlines() == [str(counts["2"])]


def test_a_huge_input_is_quoted_by_an_excerpt() -> None:
    """Echoed inputs are cut to their start, '…' and their length, whatever their size."""
    junk = "x" * 100_000
    message = fails("moves", junk)
    assert (
        message
        == f"cassino moves: bad position: cannot read position file '{'x' * 120}'… (100000 characters): File name too long"
    )
    message = fails("apply", json.dumps(CASES[0][0]), "trail " + junk)
    assert message == (
        f"cassino apply: move 1 of 1: 'trail {'x' * 54}'… (100006 characters) is not a move: a move line has at most 400 characters"
    )
    message = fails("apply", json.dumps(CASES[0][0]), "trail " + "x" * 300)
    assert len(message) < 300 and "(306 characters)" in message and "is not a card" in message
    position = json.loads(json.dumps(CASES[0][0]))
    position["sweeps"] = list(range(10_000))
    assert len(fails("moves", json.dumps(position))) < 200


@pytest.mark.parametrize("depth", ["٣", "3٣", "²", "+3", " 3", "3_0", "3.0", "three", ""])
def test_perft_depth_is_ascii_digits_only(depth: str) -> None:
    message = fails("perft", json.dumps(CASES[0][0]), depth)
    assert message == f"cassino perft: depth must be a whole number written with the digits 0-9, got {depth!r}"


def test_perft_past_the_end_of_the_hand_answers_at_once() -> None:
    """10**23 moves: no sequence is longer than the cards left, so the count is 0, exactly and at once."""
    position, _counts = CASES[2]
    left = sum(len(h) for h in position["hands"]) + len(position["stock"])
    text = json.dumps(position)
    assert ok("perft", text, str(10**23)).splitlines() == ["0"]
    assert ok("perft", text, str(left + 1)).splitlines() == ["0"]
    assert ok("perft", text, "9" * 5000).splitlines() == ["0"]
    moves = engine_moves(position)
    assert ok("perft", text, str(10**23), "--divide").splitlines() == [f"{m}: 0" for m in moves] + ["0"]
    assert ok("perft", text, str(left)).splitlines() != ["0"]


def test_argument_errors_are_one_line() -> None:
    assert fails("perft", json.dumps(CASES[0][0])) == (
        "cassino perft: the following arguments are required: depth (see cassino perft --help)"
    )
    assert fails("moves").startswith("cassino moves: the following arguments are required: position")


def test_moves_stream_through_a_closed_pipe() -> None:
    """``cassino moves ... | head -1``: the first line, status 0, nothing on standard error."""
    proc = subprocess.run(
        f"{' '.join(COMMAND)} moves '{json.dumps(CASES[0][0])}' | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.stdout == engine_moves(CASES[0][0])[0] + "\n" and proc.stderr == ""
