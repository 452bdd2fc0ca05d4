"""``cassino replay`` and ``cassino record check`` as a person runs them, in a real process.

Replay is the proof that nobody cheated, so it must reveal everything: every deck, every seat's
cards at every step, every move in order; paused, it steps back as well as forward and jumps to any
hand. Check is what a script runs over saved games, so its contract is the exit status and one
``FILE:LINE: problem`` line per problem.
"""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cassino.game import Game
from cassino.record import record_of_game, write_record
from cassino.rules import make_rules
from cassino.state import State
from cassino.terminal.replay import REPLAY_COMMANDS, run_replay
from cassino.terminal.table_text import CardText

SCRIPT = Path(sys.executable).parent / "cassino"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cassino.cli"]
NAMES = ["ann", "bob", "cy"]
LETTERS = CardText(ascii=True)
"""Cards as ``--ascii`` writes them."""


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
    proc = cassino("replay", str(record_file), "--no-pause", "--ascii")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    out = proc.stdout
    assert out.startswith(f"{record_file}: classic, 3 players, target=11\n")
    assert "  Event: replay test\n" in out
    scores: tuple[int, ...] = (0, 0, 0)
    for number, (hand, deck) in enumerate(zip(GAME.hands, GAME.decks, strict=True), 1):
        section = out[out.index(f"=== Hand {number}, dealer seat {hand.dealer} ({NAMES[hand.dealer]}) ===") :]
        assert section.splitlines()[1] == "deck: " + " ".join(LETTERS.card(c) for c in deck)
        start = State.new_hand(GAME.rules, deck, hand.dealer, scores)
        for seat, name in enumerate(NAMES):
            assert f"  seat {seat} ({name}): hand {LETTERS.cards(start.hands[seat])}; taken 0 cards" in section
        position = 0
        for i, (seat, code) in enumerate(hand.history, 1):
            line = f"\n{number}.{i} seat {seat} ({NAMES[seat]}): {LETTERS.notation(code)}\n"
            found = section.index(line, position)
            position = found + len(line)
            start.push(code)
            end = section.find("\n\n", position)
            block = section[position : end if end >= 0 else len(section)]
            for s, name in enumerate(NAMES):  # every hand, revealed, after every move
                shown = LETTERS.cards(start.hands[s]) or "-"
                taken = start.captured[s].bit_count()
                assert f"  seat {s} ({name}): hand {shown}; taken {taken} card{'' if taken == 1 else 's'}" in block
        assert hand.result is not None
        assert f"Hand {number} points: {in_words(hand.result.points)}; scores {in_words(hand.scores)}" in section
        scores = hand.scores
    assert out.rstrip().endswith(
        f"Result: {NAMES[GAME.winner]} wins; scores {in_words(GAME.scores)}. Every move replayed legally."
    )
    assert "[" not in out.split("\n=== Hand 1")[1], "a Python list in the replay"


def in_words(scores: tuple[int, ...]) -> str:
    """Scores as the replay writes them: ``ann 3 - bob 8 - cy 0``."""
    return " - ".join(f"{name} {v}" for name, v in zip(NAMES, scores, strict=True))


def test_replay_steps_on_enter_and_stops_on_q(record_file: Path) -> None:
    """With pauses (a terminal), each Enter shows one move; q stops there."""
    out = io.StringIO()
    assert run_replay(record_file, pause=True, out=out, inp=io.StringIO("\n\nq\n")) == 0
    text = out.getvalue()
    assert "1.1 seat " in text and "1.2 seat " in text and "1.3 seat " not in text
    assert "Every move replayed legally" not in text


def shown_steps(text: str) -> list[str]:
    """The steps shown, in order: ``1.0`` for a hand's deal, ``N.M`` for its move M."""
    found = re.findall(r"^(?:=== Hand (\d+),|(\d+\.\d+) seat )", text, re.MULTILINE)
    return [f"{hand}.0" if hand else step for hand, step in found]


def test_replay_steps_back_and_jumps_to_a_hand(record_file: Path) -> None:
    """``b`` shows the step before (the same position again), a number the start of that hand,
    ``N.M`` hand N after move M; a wrong answer says why and shows nothing; ``?`` lists them;
    Enter after the last move ends with the result."""
    last = GAME.hands[1].moves_played
    assert len(GAME.hands) == 2
    answers = ["", "", "b", "b", "b", "2", "n", "b", "1.3", "7", "2.999", "x", "?", f"2.{last}", ""]
    out = io.StringIO()
    assert run_replay(record_file, pause=True, out=out, inp=io.StringIO("\n".join(answers) + "\n"), ascii=True) == 0
    text = out.getvalue()
    assert shown_steps(text) == ["1.0", "1.1", "1.2", "1.1", "1.0", "1.0", "2.0", "2.1", "2.0", "1.3", f"2.{last}"]
    blocks = [block.split("[Enter")[0] for block in text.split("\n1.1 seat ")[1:]]
    assert len(blocks) == 2 and blocks[0] == blocks[1], "back showed another position"
    assert f"there is no hand 7: choose 1 to {len(GAME.hands)}" in text
    assert f"hand 2 has {last} moves: choose 2.0 to 2.{last}" in text
    assert "unknown answer 'x': ? lists them" in text
    for name, meaning in REPLAY_COMMANDS:
        assert f"  {name:10} {meaning}" in text
    assert text.endswith(f"scores {in_words(GAME.scores)}. Every move replayed legally.\n"), "Enter at the end"


def test_replay_of_a_corrupted_record_fails(tmp_path: Path) -> None:
    path, tag, deck = corrupted(tmp_path)
    proc = cassino("replay", str(path), "--no-pause")
    assert proc.returncode == 2 and proc.stdout == ""
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
    """One bad file among good ones: exit 2, the good ones still ``ok``, each problem on its line."""
    bad, tag, deck = corrupted(tmp_path)
    missing = tmp_path / "missing.txt"
    proc = cassino("record", "check", str(record_file), str(bad), str(missing))
    assert proc.returncode == 2 and proc.stderr == (
        "cassino record check: 2 of 3 records did not check out: see their problems on standard output\n"
    )
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
    assert proc.returncode == 2
    assert proc.stdout == f"{path}:{number}: seat 0 moves, but it is seat 2's turn\n"
