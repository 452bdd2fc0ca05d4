"""``cassino play --plain``: the line mode, fed on its standard input like a person at a terminal.

A whole game must run to "Game over" and a winner, print each hand's breakdown and checksum and
the scores in words (never a Python list), and save a record that replays to exactly the moves
that were played. Every other answer (hint, trackers, help, log, a card alone, a refused move, a
wrong number, quit answered no) must leave the game as it was; undo must bring back the position
before my move. Piped into ``cassino play`` without ``--plain``, the game runs in lines by itself.
"""

from __future__ import annotations

import argparse
import io
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO, cast

import pytest

from cassino.cards import card_name, cards_of
from cassino.cli import build_parser, main
from cassino.cli.play import session_from_args, wants_plain
from cassino.explain import Reason, build_key, explain_illegal, why_not
from cassino.moves import format_code
from cassino.record import check_record, read_record
from cassino.rules import Rules, make_rules
from cassino.terminal.plain import COMMANDS, run_plain
from cassino.terminal.session import Session
from cassino.terminal.table_text import CardText, from_symbols, save_lines
from cassino.view import view_of
from scenarios import stuck_after_first_build

SCRIPT = Path(sys.executable).parent / "cassino"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cassino.cli"]
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
    result, text, person, _ = play_session(*argv, script=script, chooser=chooser)
    return result, text, person


def play_session(
    *argv: str, script: Sequence[str] = (), chooser: Callable[[list[str]], str] | None = None
) -> tuple[int, str, Person, Session]:
    """``play``, with the session played."""
    out = io.StringIO()
    person = Person(out, script, chooser)
    session = session_from_args(play_args(*argv))
    result = run_plain(session, out, cast(TextIO, person))
    return result, out.getvalue(), person, session


CARDS = CardText()
"""Cards as the line mode writes them to a stream that takes any text."""

GAMES = [
    (("--seed", "3"), make_rules("classic"), ["You", "Computer"], ["You", "Computer"]),
    (
        ("--seed", "5", "--preset", "royal", "--players", "4", "--partnerships", "--seat", "1"),
        make_rules("royal", players=4, partnerships=True),
        ["Opponents", "You & partner"],
        ["Right computer", "You", "Left computer", "Partner"],
    ),
    (
        ("--seed", "9", "--preset", "draw", "--players", "3", "--opponent", "random", "-o", "target=15"),
        make_rules("draw", players=3, target=15),
        ["You", "Left computer", "Right computer"],
        ["You", "Left computer", "Right computer"],
    ),
]


@pytest.mark.parametrize(("argv", "rules", "sides", "seats"), GAMES, ids=["classic", "royal-partners-seat1", "draw-3"])
def test_a_whole_game_on_standard_input(
    argv: tuple[str, ...], rules: Rules, sides: list[str], seats: list[str], tmp_path: Path
) -> None:
    """Answers by number, as shown (suit symbols, ``10``) and in letters, upper case, to the end of
    the game; every move is printed in words by who made it."""
    rng = random.Random(argv[1])
    seat = int(argv[argv.index("--seat") + 1]) if "--seat" in argv else 0

    def choose(listed: list[str]) -> str:
        k = rng.randrange(len(listed))
        return rng.choice([str(k + 1), listed[k].upper(), from_symbols(listed[k]).upper()])

    winner, text, person, _ = play_session(*argv, "--save-dir", str(tmp_path), chooser=choose)
    assert "not possible" not in text
    assert not re.search(r"\[\d+(, \d+)+\]", text), "scores printed as a Python list"

    assert "Game over after " in text
    summary = text[text.index("Game over after ") :].splitlines()
    found = re.search(r"^Record saved to (\S+)\n\(replay it with: cassino replay \1\)$", text, re.MULTILINE)
    assert found is not None
    saved = Path(found.group(1))
    assert saved.parent == tmp_path and list(tmp_path.iterdir()) == [saved]
    record_text = saved.read_text()
    game = check_record(record_text)
    record = read_record(record_text)
    assert winner == game.winner >= 0 and record.tags["Result"] == str(winner)
    assert record.tags[f"Seat{seat}"] == "you"
    assert record.rules == rules

    # The record holds exactly the moves played, each printed in words by the seat that played it,
    # worded on the table it was made on (the builds it names as the person sees them).
    recorded = [(s, c) for hand in record.hands for s, c in hand.moves]
    printed = re.findall(r"^(?:> )?([A-Z][\w &]*): ((?:take|build|trail|raise) .+)$", text, re.MULTILINE)
    worded = []
    for hand in game.hands:
        table = hand.root()
        for s, c in hand.history:
            worded.append((seats[s], CARDS.words(c, table, seat, seats.__getitem__)))
            table.push(c)
    assert [(seats[s], c) for s, c in recorded] == [(seats[s], c) for hand in game.hands for s, c in hand.history]
    assert printed == worded
    assert len(person.answers) == sum(1 for s, _ in recorded if s == seat)

    # Each hand: a breakdown line per side, then the checksum; the points agree with the record.
    count = game.rules.sides
    assert text.count(" over. Score per side:") == len(record.hands)
    for number, (hand, result) in enumerate(zip(game.hands, game.hand_results, strict=True), 1):
        block = text[text.index(f"Hand {number} over. Score per side:") :].splitlines()[1 : count + 2]
        for side in range(count):
            assert block[side].startswith(f"  {sides[side]}: cards ")
            assert block[side].rstrip().endswith(f"; hand {result.points[side]}, game {hand.scores[side]}")
            assert ", spades " in block[side]
        sweeps = sum(1 for item in result.items if item.category == "sweeps")
        noun = "scored sweep" if sweeps == 1 else "scored sweeps"
        assert block[count] == f"  checksum: {result.checksum} points without sweeps, {sweeps} {noun}"

    hands = len(game.hands)
    assert summary[0] == f"Game over after {hands} {'hand' if hands == 1 else 'hands'}."
    assert summary[1] == "Final score: " + " - ".join(f"{sides[s]} {game.scores[s]}" for s in range(count))
    mine = game.rules.side_of(seat)
    assert summary[2] == (f"{sides[winner]} win!" if winner == mine else f"Winner: {sides[winner]}.")


def first_turn(text: str) -> str:
    """What was printed up to the first answer."""
    return text[: text.index("> ")]


def test_answers_that_are_not_moves_change_nothing() -> None:
    """Hint, trackers, a rank not held, a card not held, a refused move, a wrong number, a non-move,
    a digit that is not 0-9, undo before any move, the log, the scores, help, quit answered no: each prints its reply and
    asks again; then quit answered yes abandons the game."""
    rules = make_rules("classic")
    session = Session(rules, seed=3, humans=(0,), opponent="greedy")
    while not session.human_to_move():
        session.step_bot()
    state = session.state
    hand = cards_of(state.hands[0])
    assert not any(c >> 2 == 12 for c in hand), "no king in hand: 'K' names no card"
    elsewhere = next(card_name(c) for c in range(52) if c not in hand and not state.loose >> c & 1)
    numeral = next(c for c in hand if state.values[c])
    refused = f"build {card_name(numeral)} 11: {card_name(cards_of(state.loose)[0])}"
    count = len(state.legal_codes())
    script = ["h", "t", "K", elsewhere, refused, str(count + 1), "0", "flip 7h", "", "²"]
    script += ["u", "l", "s", "?", "q", "n", "quit", "y"]
    result, text, person = play("--seed", "3", "--no-save", script=script)
    assert result == -1 and person.answers == script
    replies = text.split("> ")[1:]
    assert len(replies) == len(script) - 2, "the answers to 'Leave the game?' have their own prompt"
    move, why = replies[0].strip().removeprefix("hint: ").split(" — ")
    said = {CARDS.words(c, state, 0, ("You", "Computer").__getitem__) for c in state.legal_codes()}
    assert replies[0].startswith("hint: ") and move in said and why
    taken = ["Taken this hand:", "  You: 0 cards, 0 spades", "  Computer: 3 cards, 2 spades, A♠"]
    assert replies[1].splitlines() == taken  # the computer's first move took three cards, A♠ among them
    assert replies[2].strip() == "not possible: no K is in your hand"
    assert replies[3].strip() == f"not possible: {CARDS.named(elsewhere)} is not in your hand"
    assert replies[4].startswith(f"not possible: illegal move {refused!r}: ") and "(rule 6.1)" in replies[4]
    for reply, number in ((replies[5], count + 1), (replies[6], 0)):
        assert reply.strip() == f"not possible: there is no move number {number}; choose 1 to {count}"
    assert replies[7].startswith("not possible: 'flip 7h' is not a move: write it as the game does")
    assert replies[8].startswith("not possible: ")
    assert replies[9].strip() == "not possible: in move '²': '²' is not one of the digits 0-9"  # no list number
    assert replies[10].strip() == "cannot undo: you have made no move in this hand to take back"
    [(_, code)] = session.state.history
    assert replies[11].splitlines() == ["Hand 1, 1 move so far:", f"  Computer: {CARDS.words(code)}"]
    assert replies[12].strip() == "Scores: You 0 - Computer 0"
    assert replies[13].splitlines() == ["Commands:", *(f"  {name:12} {meaning}" for name, meaning in COMMANDS)]
    assert replies[14] == "Leave the game? (y/n) Playing on.\n"
    assert replies[15] == "Leave the game? (y/n) Game abandoned.\n"
    assert text.count("Your hand:") == 1, "the position was shown again: something changed"


def test_moves_are_listed_and_typed_as_sentences() -> None:
    """The list says each move as the game says it; a card with several moves is refused with
    them; a sentence as printed (symbols) plays its move, a card alone its only move."""
    script = ["3c", "take 3♦ 6♥ with 9♥", "2C", "q", "y"]
    _, text, _, session = play_session("--seed", "2", "--opponent", "greedy", "--no-save", script=script)
    listed = LISTED.findall(text[: text.index("> ")])
    assert [m for _, m in listed] == [
        "build nine: 3♣ on 3♦ 6♦ 6♥",
        "build nine: 3♣ on 6♦",
        "build nine: 3♣ on 6♥",
        "take 3♦ with 3♣",
        "take 3♦ 6♦ with 9♥",
        "take 3♦ 6♥ with 9♥",
        "trail 2♣",
        "trail 2♥",
        "trail 3♣",
        "trail 9♥",
    ]
    replies = text.split("> ")[1:]
    assert replies[0].strip() == (
        "not possible: '3c' could be any of 5 moves: build nine: 3♣ on 3♦ 6♦ 6♥; build nine: 3♣ on 6♦; "
        "build nine: 3♣ on 6♥; take 3♦ with 3♣; trail 3♣"
    )
    assert replies[1].startswith("You: take 3♦ 6♥ with 9♥\nComputer: ")
    assert replies[2].startswith("You: trail 2♣\n")
    mine = [format_code(c) for s, c in session.game.hands[0].history if s == 0]
    assert mine == ["capture 9h 9: 3d 6h", "trail 2c"]


def test_a_card_with_no_legal_move_says_why() -> None:
    """After my build, a card that can neither take nor build may not be trailed: the reply says
    which rule (the seed is searched, so it does not depend on how the computer plays)."""
    seed, build, state, stuck = stuck_after_first_build(0)
    name = card_name(stuck)
    _, text, _ = play("--seed", str(seed), "--opponent", "random", "--no-save", script=[format_code(build), name, "q"])
    reply = text.split("> ")[2].strip()
    assert reply == f"not possible: {CARDS.card(stuck)} has no legal move: {explain_illegal(state, stuck << 2)}"
    assert "(rule 7." in reply


def test_the_plain_game_says_the_pages_reasons() -> None:
    """What the page is sent on my turn (``why_not`` of my view, as JSON) is what the line mode
    says, each reason in its English sentence: for a card with no move typed alone, and with ``w``
    for every card with no move and every table item a card's moves leave, in hand order."""
    seed, build, state, stuck = stuck_after_first_build(0)
    page = why_not(view_of(state, 0)).to_json()
    builds = {build_key(b.cards): b for b in state.builds}

    def item(key: str) -> str:
        if key in builds:
            return f"the {builds[key].value}-build ({CARDS.cards(builds[key].cards)})"
        return CARDS.named(key)

    expected = ["Why not:"]
    for card in cards_of(state.hands[0]):
        name = card_name(card)
        if name in page["cards"]:
            expected.append(f"  {CARDS.card(card)} cannot be played: {Reason.from_json(page['cards'][name]).text}")
        for key, data in page["table"].get(name, {}).items():
            expected.append(f"  {CARDS.card(card)} cannot use {item(key)}: {Reason.from_json(data).text}")
    assert len(expected) > 2
    name = card_name(stuck)
    script = [format_code(build), name, "w", "q"]
    _, text, _ = play("--seed", str(seed), "--opponent", "random", "--no-save", script=script)
    replies = text.split("> ")
    assert (
        replies[2].strip()
        == f"not possible: {CARDS.card(stuck)} has no legal move: {Reason.from_json(page['cards'][name]).text}"
    )
    assert replies[3].splitlines() == expected


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


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """``cassino play`` refused before the game: status 2, nothing on standard output, one line."""
    with pytest.raises(SystemExit) as info:
        main(["play", "--plain", "--seed", "3", *argv])
    captured = capsys.readouterr()
    assert (info.value.code, captured.out) == (2, "")
    assert captured.err.endswith("\n") and captured.err.count("\n") == 1, captured.err
    return captured.err.rstrip("\n")


def test_a_save_folder_that_cannot_be_written_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder is checked (created if need be) before the game, not when it ends: a whole game
    used to be played and then lost to a traceback."""
    afile = tmp_path / "a-file"
    afile.write_text("")
    assert (
        _refused(capsys, "--save-dir", str(afile))
        == f"cassino play: --save-dir {afile}: not a folder (a file has that name)"
    )
    assert _refused(capsys, "--save-dir", str(afile / "games")) == (
        f"cassino play: --save-dir {afile / 'games'}: cannot create the folder: Not a directory"
    )
    monkeypatch.setenv("CASSINO_HOME", str(afile))  # the default folder, under a file
    assert _refused(capsys) == (
        f"cassino play: the save folder (--save-dir; or --no-save) {afile / 'games'}: cannot create the folder: "
        "Not a directory"
    )
    result, text, _ = play("--seed", "3", "--no-save")  # --no-save needs no folder
    assert result == -1 and text.rstrip().endswith("Game abandoned.")
    made = tmp_path / "new" / "games"
    result, text, _ = play("--seed", "3", "--save-dir", str(made))
    assert made.is_dir() and f"record saved to {next(made.iterdir())}" in text


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="Linux's /proc")
def test_a_save_folder_in_proc_is_refused_before_the_game() -> None:
    """As a shell runs it: one line and status 2 at once, no game on standard output."""
    started = time.monotonic()
    done = subprocess.run(
        [*COMMAND, "play", "--save-dir", "/proc/nope"], stdin=subprocess.DEVNULL, capture_output=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == b"cassino play: --save-dir /proc/nope: cannot create the folder: No such file or directory\n"
    assert time.monotonic() - started < 30


def test_a_record_its_folder_refuses_at_the_end_goes_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder gone between the start and the end of the game (a file in its place): the record
    goes to the temporary folder, and the summary says where and why; when that fails too, the
    summary holds the record itself, so the game is never lost."""
    folder = tmp_path / "games"
    spare = tmp_path / "spare"
    spare.mkdir()
    monkeypatch.setattr("cassino.terminal.session.fallback_dir", lambda: spare)
    taken = False

    def chooser(listed: list[str]) -> str:
        nonlocal taken
        if not taken:  # the folder checked at the start is taken away during the game
            folder.rmdir()
            folder.write_text("")
            taken = True
        return "1"

    result, text, _, session = play_session("--seed", "3", "--save-dir", str(folder), chooser=chooser)
    assert result >= 0 and session.over
    [saved] = spare.iterdir()
    assert session.saved_path == saved and folder.read_text() == ""
    assert f"The record could not be saved in {folder} (File exists): it is in {saved} instead." in text
    assert f"Record saved to {saved}" in text
    assert check_record(saved.read_text()).over

    monkeypatch.setattr("cassino.terminal.session.fallback_dir", lambda: folder)  # a file too
    assert session.save() is None and session.saved_path is None
    lines = save_lines(session)
    assert lines[:2] == [
        f"The record could not be saved in {folder} (File exists), nor in {folder} (File exists).",
        "The record follows (save it as a file to replay it):",
    ]
    assert check_record("\n".join(lines[2:]) + "\n").over


def test_undo_brings_back_the_position_before_my_move() -> None:
    """A move, then ``undo``: my move and the computer's answer are taken back and the very same
    turn is shown again (same table, hand and list); the record keeps only what stands."""
    result, text, _, session = play_session("--seed", "3", "--no-save", "--opponent", "greedy", script=["1", "u"])
    assert result == -1
    turns = [turn[: turn.index("> ")] for turn in text.split("\nDeal ")[1:]]
    assert len(turns) == 3
    assert turns[2] == turns[0] and turns[1] != turns[0]
    taken = re.findall(r"^> (Took back .*)$", text, re.MULTILINE)
    assert len(taken) == 1 and re.fullmatch(
        r"Took back your move \((take|build|trail) .+\) and 1 computer move\.", taken[0]
    )
    assert session.state.moves_played == 1 and session.state.history[0][0] == 1


def test_undo_refuses_once_new_cards_came_from_the_stock() -> None:
    """Cards dealt after my move were seen: the last move of a deal cannot be taken back."""
    answers = ["1"] * 4 + ["undo"]
    _, text, _, session = play_session("--seed", "3", "--no-save", "--opponent", "greedy", script=answers)
    assert session.state.deal_number() == 2
    assert "cannot undo: new cards have come from the stock since your last move" in text


def test_piped_into_the_command_it_plays_plain_lines_to_the_end() -> None:
    """``cassino play`` with standard input a pipe (no ``--plain``): plain lines, never the full
    screen; answering ``1`` every turn finishes the game and prints the score in words."""
    proc = subprocess.run(
        [*COMMAND, "play", "--seed", "3", "--no-save", "--opponent", "greedy"],
        input="1\n" * 400,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = proc.stdout
    assert out.startswith("Casino: classic, 2 players. Seed 3. You are seat 0.\n")
    assert re.search(r"^Final score: You \d+ - Computer \d+$", out, re.MULTILINE)
    assert re.search(r"^(You win!|Winner: Computer\.)$", out, re.MULTILINE)
    assert not re.search(r"\[\d+(, \d+)+\]", out) and "\x1b[" not in out


@pytest.mark.parametrize("how", ["flag", "encoding", "env"])
def test_suits_fall_back_to_letters(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--ascii``, an output that cannot encode the symbols, or ``CASSINO_ASCII=1``: letters
    everywhere (which are also notation), never a suit symbol."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii" if how == "encoding" else "utf-8")
    if how == "env":
        monkeypatch.setenv("CASSINO_ASCII", "1")
    session = session_from_args(play_args("--seed", "3", "--no-save"))
    run_plain(session, out, cast(TextIO, io.StringIO("1\n" * 400)), ascii=how == "flag")
    out.flush()
    text = raw.getvalue().decode("utf-8")
    assert "Final score: You " in text
    assert not set(text) & set("♠♥♦♣")
    assert re.search(r"Your hand: (\S+[cdhs] )*\S+[cdhs]\n", text)


@pytest.mark.parametrize(
    ("flags", "stdin_tty", "stdout_tty", "plain"),
    [
        ((), True, True, False),
        ((), False, True, True),
        ((), True, False, True),
        (("--plain",), True, True, True),
        (("--fullscreen",), False, False, False),
    ],
)
def test_plain_lines_off_a_terminal_unless_told(
    flags: tuple[str, ...], stdin_tty: bool, stdout_tty: bool, plain: bool
) -> None:
    """Full screen only on a terminal at both ends; ``--plain`` and ``--fullscreen`` force either."""
    assert wants_plain(build_parser().parse_args(["play", *flags]), stdin_tty, stdout_tty) is plain


def test_plain_and_fullscreen_together_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "--plain", "--fullscreen"])
    assert info.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
