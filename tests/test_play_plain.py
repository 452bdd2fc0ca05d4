"""``cassino play --plain``: the line mode, fed on its standard input like a person at a terminal.

A whole game must run to "Game over" and a winner, print each hand's breakdown and checksum, and
save a record that replays to exactly the moves that were played. Every other answer (hint,
trackers, a card alone, a refused move, a wrong number) must leave the game as it was.
"""

from __future__ import annotations

import argparse
import io
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO, cast

import pytest

from cassino.cards import card_name, cards_of
from cassino.cli import build_parser, main
from cassino.cli.play import session_from_args
from cassino.explain import explain_illegal
from cassino.moves import format_code
from cassino.record import check_record, read_record
from cassino.rules import Rules, make_rules
from cassino.terminal.plain import run_plain
from cassino.terminal.session import Session
from scenarios import stuck_after_first_build

LISTED = re.compile(r"^\s*(\d+)\. (.+)$", re.MULTILINE)


def play_args(*argv: str) -> argparse.Namespace:
    """``cassino play --plain`` arguments as the command line would give them."""
    return build_parser().parse_args(["play", "--plain", *argv])


class Person:
    """Standard input that answers each prompt: first the ``script`` lines, then (if ``chooser`` is
    given) a move chosen from the list just printed; end of input after that."""

    def __init__(
        self, out: io.StringIO, script: Sequence[str] = (), chooser: Callable[[list[str]], str] | None = None
    ) -> None:
        self.out = out
        self.script = list(script)
        self.chooser = chooser
        self.answers: list[str] = []

    def listed(self) -> list[str]:
        """The moves of the last list printed, in order."""
        text = self.out.getvalue()
        return [m for _, m in LISTED.findall(text[text.rindex("Your hand:") :])]

    def readline(self) -> str:
        """The next answer, with its newline; empty at the end of input."""
        if self.script:
            answer = self.script.pop(0)
        elif self.chooser is not None:
            answer = self.chooser(self.listed())
        else:
            return ""
        self.answers.append(answer)
        return answer + "\n"


def play(
    *argv: str, script: Sequence[str] = (), chooser: Callable[[list[str]], str] | None = None
) -> tuple[int, str, Person]:
    """Run the line mode; returns its result, everything it printed and the scripted person."""
    out = io.StringIO()
    person = Person(out, script, chooser)
    result = run_plain(session_from_args(play_args(*argv)), out, cast(TextIO, person))
    return result, out.getvalue(), person


def played_moves(text: str, answers: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The moves in the order they happened: each prompt is one of my answers (``answers``, already
    as (seat, move)), each ``seat N (...) plays: MOVE`` a computer's."""
    mine = iter(answers)
    out: list[tuple[int, str]] = []
    for m in re.finditer(r"^> |seat (\d+) \([^)]*\) plays: (.+)$", text, re.MULTILINE):
        out.append(next(mine) if m.group(1) is None else (int(m.group(1)), m.group(2)))
    return out


GAMES = [
    (("--seed", "3"), make_rules("classic")),
    (
        ("--seed", "5", "--preset", "royal", "--players", "4", "--partnerships", "--seat", "1"),
        make_rules("royal", players=4, partnerships=True),
    ),
    (
        ("--seed", "9", "--preset", "draw", "--players", "3", "--opponent", "random", "-o", "target=15"),
        make_rules("draw", players=3, target=15),
    ),
]


@pytest.mark.parametrize(("argv", "rules"), GAMES, ids=["classic", "royal-partners-seat1", "draw-3"])
def test_a_whole_game_on_standard_input(argv: tuple[str, ...], rules: Rules, tmp_path: Path) -> None:
    """Answers by number and in notation (upper case, ``10`` for T) to the end of the game."""
    rng = random.Random(argv[1])
    seat = int(argv[argv.index("--seat") + 1]) if "--seat" in argv else 0
    moves: list[tuple[int, str]] = []

    def choose(listed: list[str]) -> str:
        k = rng.randrange(len(listed))
        moves.append((seat, listed[k]))
        return str(k + 1) if rng.random() < 0.5 else re.sub(r"\bT([cdhs])", r"10\1", listed[k]).upper()

    winner, text, person = play(*argv, "--save-dir", str(tmp_path), chooser=choose)
    assert "not possible" not in text

    assert "Game over after " in text
    summary = text[text.index("Game over after ") :].splitlines()
    found = re.search(r"^Record saved to (\S+) \(replay it with: cassino replay \1\)$", text, re.MULTILINE)
    assert found is not None
    saved = Path(found.group(1))
    assert saved.parent == tmp_path and list(tmp_path.iterdir()) == [saved]
    record_text = saved.read_text()
    game = check_record(record_text)
    record = read_record(record_text)
    assert winner == game.winner >= 0 and record.tags["Result"] == str(winner)
    assert record.tags[f"Seat{seat}"] == "you"
    assert record.rules == rules

    # The record holds exactly the moves played, each by the seat that played it.
    recorded = [(s, format_code(c)) for hand in record.hands for s, c in hand.moves]
    assert played_moves(text, moves) == recorded
    assert len(person.answers) == len(moves) == sum(1 for s, _ in recorded if s == seat)

    # Each hand: a breakdown line per side, then the checksum; the points agree with the record.
    sides = game.rules.sides
    assert text.count(" over. Score per side:") == len(record.hands)
    for number, (hand, result) in enumerate(zip(game.hands, game.hand_results, strict=True), 1):
        block = text[text.index(f"Hand {number} over. Score per side:") :].splitlines()[1 : sides + 2]
        for side in range(sides):
            assert block[side].startswith(f"  {name_of(record.tags, game.rules.partnerships, side)}: cards ")
            assert block[side].rstrip().endswith(f"; hand {result.points[side]}, game {hand.scores[side]}")
            assert ", spades " in block[side]
        sweeps = sum(1 for item in result.items if item.category == "sweeps")
        assert block[sides] == f"  checksum: {result.checksum} points without sweeps, {sweeps} scored sweep(s)"

    assert summary[0] == f"Game over after {len(game.hands)} hand(s)."
    assert summary[1 : sides + 1] == [
        f"  {name_of(record.tags, game.rules.partnerships, s)}: {game.scores[s]}" for s in range(sides)
    ]
    assert summary[sides + 1] == f"Winner: {name_of(record.tags, game.rules.partnerships, winner)}."


def name_of(tags: dict[str, str], partnerships: bool, side: int) -> str:
    """A side's name as the game shows it, from the record's seat tags."""
    return f"{tags[f'Seat{side}']} & {tags[f'Seat{side + 2}']}" if partnerships else tags[f"Seat{side}"]


def first_turn(text: str) -> str:
    """What was printed up to the first answer."""
    return text[: text.index("> ")]


def test_answers_that_are_not_moves_change_nothing() -> None:
    """Hint, trackers, a card alone, a card not held, a refused move, a wrong number, a non-move:
    each prints its reply and asks again; then q abandons the game."""
    rules = make_rules("classic")
    session = Session(rules, seed=3, humans=(0,), opponent="greedy")
    while not session.human_to_move():
        session.step_bot()
    state = session.state
    hand = cards_of(state.hands[0])
    held = card_name(hand[0])
    elsewhere = next(card_name(c) for c in range(52) if c not in hand and not state.loose >> c & 1)
    numeral = next(c for c in hand if state.values[c])
    refused = f"build {card_name(numeral)} 11: {card_name(cards_of(state.loose)[0])}"
    count = len(state.legal_codes())
    script = ["h", "t", held, held.upper(), elsewhere, refused, str(count + 1), "0", "flip 7h", "", "q"]
    result, text, person = play("--seed", "3", "--no-save", script=script)
    assert result == -1 and person.answers == script
    replies = text.split("> ")[1:]
    assert len(replies) == len(script)
    hint = replies[0].strip()
    assert hint.startswith("hint: ") and hint.removeprefix("hint: ") in {format_code(c) for c in state.legal_codes()}
    assert replies[1].strip() == "your side has taken 0 cards and 0 spades this hand"
    can = sorted(format_code(c) for c in state.legal_codes() if (c >> 2) & 63 == hand[0])
    assert replies[2].strip() == f"{held} can: " + "; ".join(can)
    assert replies[3] == replies[2]
    assert replies[4].strip() == f"{elsewhere} is not in your hand"
    assert replies[5].startswith(f"not possible: illegal move {refused!r}: ") and "(rule 6.1)" in replies[5]
    for reply, number in ((replies[6], count + 1), (replies[7], 0)):
        assert reply.strip() == f"not possible: there is no move number {number}; choose 1 to {count}"
    assert replies[8].startswith("not possible: ") and "is not a move" in replies[8]
    assert replies[9].startswith("not possible: ")
    assert replies[10].strip() == "Game abandoned."
    assert text.count("Your hand:") == 1, "the position was shown again: something changed"


def test_a_card_with_no_legal_move_says_why() -> None:
    """After my build, a card that can neither take nor build may not be trailed: the reply says
    which rule (the seed is searched, so it does not depend on how the computer plays)."""
    seed, build, state, stuck = stuck_after_first_build(0)
    name = card_name(stuck)
    _, text, _ = play("--seed", str(seed), "--opponent", "random", "--no-save", script=[format_code(build), name, "q"])
    reply = text.split("> ")[2].strip()
    assert reply == f"{name} has no legal move: {explain_illegal(state, stuck << 2)}"
    assert "(rule 7." in reply


def test_quitting_saves_the_record_with_result_star(tmp_path: Path) -> None:
    """q abandons the game; the record so far is saved, replays, and says Result ``*``."""
    result, text, _ = play("--seed", "3", "--save-dir", str(tmp_path), script=["1", "1", "q"])
    assert result == -1
    [saved] = tmp_path.iterdir()
    assert f"Game abandoned; record saved to {saved}." in text
    record = read_record(saved.read_text())
    assert record.tags["Result"] == "*" and record.tags["Seat0"] == "you"
    game = check_record(saved.read_text())
    assert not game.over and sum(1 for s in game.state.movers() if s == 0) == 2


def test_end_of_input_abandons_the_game(tmp_path: Path) -> None:
    """Standard input closed (Ctrl-D, or a pipe that ends): like q, the game so far is kept."""
    result, text, _ = play("--seed", "3", "--save-dir", str(tmp_path))
    assert result == -1 and "Game abandoned; record saved to " in text
    assert read_record(next(tmp_path.iterdir()).read_text()).tags["Result"] == "*"


def test_no_save_saves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASSINO_HOME", str(tmp_path))
    result, text, _ = play("--seed", "3", "--no-save", chooser=lambda listed: "1")
    assert result >= 0 and "Record saved" not in text
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("--partnerships",), "partnerships need 4 players"),
        (("-o", "bogus=1"), "unknown rule option 'bogus'"),
        (("-o", "sweeps"), "must be written NAME=VALUE"),
        (("--preset", "spade", "-o", "tiebreak=count_out"), "spade scoring"),
        (("--seat", "2"), "--seat must be a seat 0..1"),
        (("-o", "players=3"), "players is not a rule option"),
        (("--opponent", "nobody"), "unknown player 'nobody'"),
    ],
)
def test_bad_options_exit_2_with_one_line(
    argv: tuple[str, ...], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "--plain", "--no-save", *argv])
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    message = captured.err.strip()
    assert message.startswith("cassino play: ") and fragment in message and "\n" not in message
