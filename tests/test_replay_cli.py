"""``cassino replay`` and ``cassino record check`` as a person runs them, in a real process.

Replay is the proof that nobody cheated, so it must reveal everything: every deck, every seat's
cards at every step, every move in order. Check is what a script runs over saved games, so its
contract is the exit status and one ``FILE:LINE: problem`` line per problem.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cassino.cards import format_cards
from cassino.game import Game
from cassino.moves import format_code
from cassino.record import record_of_game, write_record
from cassino.rules import make_rules
from cassino.state import State
from cassino.terminal.replay import run_replay

SCRIPT = Path(sys.executable).parent / "cassino"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cassino.cli"]
NAMES = ["ann", "bob", "cy"]


def cassino(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the command (standard input closed, as in a script); never raises on a non-zero exit."""
    return subprocess.run(
        [*COMMAND, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False
    )


def sample_game() -> Game:
    """A finished 3-player game of a few hands, random legal moves from a seed."""
    game = Game(make_rules("classic", players=3, target=11), seed=4)
    rng = random.Random(2)
    while not game.over:
        codes = game.state.legal_codes()
        game.push(codes[rng.randrange(len(codes))])
    assert len(game.hands) >= 2
    return game


GAME = sample_game()
TEXT = write_record(record_of_game(GAME, {"Event": "replay test"}, NAMES))


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(TEXT)
    return path


def corrupted(tmp_path: Path) -> tuple[Path, int, int]:
    """The sample with a card missing from hand 2's deck and a malformed tag; returns the file and
    the two line numbers."""
    lines = TEXT.splitlines()
    tag = next(i for i, line in enumerate(lines, 1) if line.startswith("[Date "))
    deck = [i for i, line in enumerate(lines, 1) if line.startswith("deck ")][1]
    lines[tag - 1] = "[Date 2026.01.01"
    lines[deck - 1] = lines[deck - 1].rsplit(" ", 1)[0]
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, tag, deck


def test_replay_reveals_every_hand_and_move(record_file: Path) -> None:
    proc = cassino("replay", str(record_file), "--no-pause")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    out = proc.stdout
    assert out.startswith(f"{record_file}: classic, 3 players, target=11\n")
    assert "  Event: replay test\n" in out
    scores: tuple[int, ...] = (0, 0, 0)
    for number, (hand, deck) in enumerate(zip(GAME.hands, GAME.decks, strict=True), 1):
        section = out[out.index(f"=== Hand {number}, dealer seat {hand.dealer} ===") :]
        assert section.splitlines()[1] == "deck: " + " ".join(format_cards(1 << c) for c in deck)
        start = State.new_hand(GAME.rules, deck, hand.dealer, scores)
        for seat, name in enumerate(NAMES):
            assert f"  seat {seat} ({name}): hand {format_cards(start.hands[seat])}; taken 0 cards" in section
        position = 0
        for i, (code, seat) in enumerate(zip(hand.history(), hand.movers(), strict=True), 1):
            line = f"\n{number}.{i} seat {seat} ({NAMES[seat]}): {format_code(code)}\n"
            found = section.index(line, position)
            position = found + len(line)
            start.push(code)
            end = section.find("\n\n", position)
            block = section[position : end if end >= 0 else len(section)]
            for s, name in enumerate(NAMES):  # every hand, revealed, after every move
                shown = format_cards(start.hands[s]) or "-"
                assert f"  seat {s} ({name}): hand {shown}; taken {start.captured[s].bit_count()} cards" in block
        assert hand.result is not None
        assert f"Hand {number} points: {list(hand.result.points)}; scores {list(hand.scores)}" in section
        scores = hand.scores
    assert out.rstrip().endswith(
        f"Result: side {GAME.winner} wins; scores {list(GAME.scores)}. Every move replayed legally."
    )


def test_replay_steps_on_enter_and_stops_on_q(record_file: Path) -> None:
    """With pauses (a terminal), each Enter shows one move; q stops there."""
    out = io.StringIO()
    assert run_replay(record_file, pause=True, out=out, inp=io.StringIO("\n\nq\n")) == 0
    text = out.getvalue()
    assert "1.1 seat " in text and "1.2 seat " in text and "1.3 seat " not in text
    assert "Every move replayed legally" not in text


def test_replay_of_a_corrupted_record_fails(tmp_path: Path) -> None:
    path, tag, deck = corrupted(tmp_path)
    proc = cassino("replay", str(path), "--no-pause")
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith(f"cassino replay: {path}: line {tag}: malformed tag")
    assert f"line {deck}: a deck must hold the 52 cards" in proc.stderr


def test_check_accepts_a_valid_record(record_file: Path) -> None:
    proc = cassino("record", "check", str(record_file))
    assert proc.returncode == 0 and proc.stderr == ""
    moves = sum(h.moves_played for h in GAME.hands)
    assert proc.stdout == (
        f"{record_file}: ok: {len(GAME.hands)} hand(s), {moves} moves, side {GAME.winner} won, "
        f"scores {list(GAME.scores)}\n"
    )


def test_check_reports_each_problem_with_file_and_line(record_file: Path, tmp_path: Path) -> None:
    """One bad file among good ones: exit 1, the good ones still ``ok``, each problem on its line."""
    bad, tag, deck = corrupted(tmp_path)
    missing = tmp_path / "missing.txt"
    proc = cassino("record", "check", str(record_file), str(bad), str(missing))
    assert proc.returncode == 1 and proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"{record_file}: ok: ")
    assert lines[1].startswith(f"{bad}:{tag}: malformed tag '[Date 2026.01.01'")
    assert lines[2].startswith(f"{bad}:{deck}: a deck must hold the 52 cards once each (missing ")
    assert lines[3] == f"{missing}: cannot read: No such file or directory"
    assert len(lines) == 4


def test_check_names_the_line_of_an_illegal_move(tmp_path: Path) -> None:
    """A replay problem (a move by the wrong seat) is reported on the move's own line."""
    lines = TEXT.splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("seat 2: "))
    lines[number - 1] = lines[number - 1].replace("seat 2: ", "seat 0: ")
    path = tmp_path / "wrong-seat.txt"
    path.write_text("\n".join(lines) + "\n")
    proc = cassino("record", "check", str(path))
    assert proc.returncode == 1
    assert proc.stdout == f"{path}:{number}: seat 0 moves, but it is seat 2's turn\n"
