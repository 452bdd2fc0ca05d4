"""A seat that cannot go on forfeits its game: the rule of who wins (``Game.forfeit``), the table's
events, the terminal's summary, and the record that keeps it."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO, cast

import pytest

from cassino import Forfeit, Game, GameOverError, IllegalMoveError, Outcome, SeatError, UndoError, make_rules
from cassino.game import forfeit_winner
from cassino.players.base import _REGISTRY, register
from cassino.players.errors import PlayerFaultError
from cassino.record import RecordError, check_record, record_of_game, write_record
from cassino.table import Forfeited, GameOver, NotNowError, Seat, Table
from cassino.terminal.plain import run_plain
from cassino.terminal.session import Session
from cassino.view import View


class Broken:
    """A computer player whose program has died: every decision is a fault."""

    name = "broken"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: View) -> int:
        raise PlayerFaultError(self.name, "exited with status 1: no such file")


class Illegal:
    """A computer player that answers a move that is not legal here."""

    name = "illegal"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: View) -> int:
        return max(view.legal) + 1 if view.legal else 0


@pytest.fixture
def broken_player() -> Iterator[str]:
    register("broken", Broken)
    try:
        yield "broken"
    finally:
        _REGISTRY.pop("broken")


@pytest.mark.parametrize(
    ("players", "partnerships", "scores", "seat", "winner"),
    [
        (2, False, (0, 0), 0, 1),
        (2, False, (20, 3), 1, 0),
        (3, False, (5, 9, 9), 0, 1),  # a tie goes to the side that plays first after the seat
        (3, False, (5, 9, 9), 1, 2),
        (3, False, (5, 2, 9), 2, 0),
        (4, False, (1, 1, 1, 1), 3, 0),
        (4, False, (1, 8, 1, 2), 3, 1),
        (4, True, (4, 9), 0, 1),
        (4, True, (4, 9), 3, 0),
    ],
)
def test_who_wins_a_forfeit(players: int, partnerships: bool, scores: tuple[int, ...], seat: int, winner: int) -> None:
    rules = make_rules("classic", players=players, partnerships=partnerships)
    assert forfeit_winner(rules, scores, seat) == winner


def test_a_forfeited_game_is_over_and_stays_so() -> None:
    game = Game(seed=3)
    game.play(game.legal_moves()[0])
    assert game.forfeit(1, "timed out after 2.0 s") == Forfeit(1, 0, "timed out after 2.0 s")
    assert (game.over, game.winner, game.forfeited) == (True, 0, Forfeit(1, 0, "timed out after 2.0 s"))
    assert game.outcome() == Outcome(0, (0, 0), 1, Forfeit(1, 0, "timed out after 2.0 s"))
    with pytest.raises(IllegalMoveError, match="seat 1 forfeited it"):
        game.play(game.legal_moves()[0])
    with pytest.raises(UndoError, match="seat 1 forfeited the game"):
        game.undo()
    with pytest.raises(GameOverError, match="already over"):
        game.forfeit(0, "again")
    assert game.state.moves_played == 1


def test_only_a_seat_of_the_game_forfeits() -> None:
    game = Game(seed=3)
    with pytest.raises(SeatError, match=r"seat 2 is out of range: the seats are 0\.\.1"):
        game.forfeit(2, "gone")
    assert not game.over


def test_the_record_keeps_a_forfeit_and_replays_it() -> None:
    game = Game(seed=5)
    for _ in range(3):
        game.play(game.legal_moves()[-1])
    game.forfeit(0, "answered 'hello', which is no move")
    text = write_record(record_of_game(game, {"Event": "t"}, ["a", "b"]))
    assert '[Forfeit "0 answered \'hello\', which is no move"]\n[Result "1"]' in text
    again = check_record(text)
    assert again.forfeited == game.forfeited and again.winner == 1
    with pytest.raises(
        RecordError, match=r"line \d+: Forfeit must be a seat and the reason, like '1 timed out', got \"7 answ"
    ):
        check_record(text.replace('[Forfeit "0 ', '[Forfeit "7 '))
    with pytest.raises(RecordError, match="Result says side 0 won, but replayed side 1 wins"):
        check_record(text.replace('[Result "1"]', '[Result "0"]'))


def test_a_table_whose_computer_player_fails_ends_with_a_forfeit(broken_player: str) -> None:
    rules = make_rules("classic")
    table = Table(rules, [Seat.person(0, "me", "t"), Seat.computer(1, broken_player, 7)], seed=11, dealer=0)
    # seat 1 leads after dealer 0
    assert table.state.to_move == 1
    events = table.step_bot()
    reason = "exited with status 1: no such file"
    assert events == [Forfeited(1, reason), GameOver(0, (0, 0))]
    assert (table.over, table.phase, table.bot_turn()) == (True, "over", None)
    with pytest.raises(NotNowError, match="the game is over"):
        table.verify_play(0)
    with pytest.raises(NotNowError, match="nobody can forfeit"):
        table.forfeit(0, "again")


def test_a_computer_players_illegal_move_forfeits_the_table() -> None:
    rules = make_rules("classic")
    table = Table(rules, [Seat.person(0, "me", "t"), Seat.computer(1, "x", 7, player=Illegal())], seed=11)
    turn = table.bot_turn()
    assert turn is not None
    events = table.play_bot(turn, 1 << 40)
    assert isinstance(events[0], Forfeited) and events[0].seat == 1
    assert events[0].reason.startswith("it answered an illegal move: ")
    assert table.game.winner == 0
    again = Table(rules, [Seat.person(0, "me", "t"), Seat.computer(1, "x", 7, player=Illegal())], seed=11)
    turn = again.bot_turn()
    assert turn is not None
    assert again.play_bot(turn, -5)[0] == Forfeited(
        1, "it answered no move: move code -5 names no kind, card or table cards (kind 3, card 62)"
    )


def test_the_terminal_says_who_forfeited_and_why(broken_player: str) -> None:
    session = Session(make_rules("classic"), seed=4, opponent=broken_player, names=["you", "broken 1"])
    out = io.StringIO()
    winner = run_plain(session, out, cast(TextIO, io.StringIO("")))
    text = out.getvalue()
    assert winner == 0
    assert "Computer (seat 1, broken) forfeited the game: exited with status 1: no such file." in text
    assert "You win!" in text


EXAMPLE_BOT = Path(__file__).resolve().parent.parent / "examples" / "bots" / "first.sh"


def _play(tmp_path: Path, opponent: str) -> str:
    """``cassino play --plain`` against ``opponent``, answering 1 to every prompt."""
    from cassino.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        stdin, sys.stdin = sys.stdin, io.StringIO("1\n" * 400)
        try:
            main(["play", "--plain", "--seed", "3", "--opponent", opponent, "--save-dir", str(tmp_path)])
        finally:
            sys.stdin = stdin
    return out.getvalue()


def test_a_bot_program_plays_at_the_terminal(tmp_path: Path) -> None:
    text = _play(tmp_path, f"bot:{EXAMPLE_BOT}")
    assert "Game over after " in text and "forfeited" not in text
    (saved,) = tmp_path.iterdir()
    assert check_record(saved.read_text()).forfeited is None


def test_a_bot_program_that_fails_at_the_terminal_forfeits(tmp_path: Path) -> None:
    text = _play(tmp_path, "bot:/bin/false")
    assert "Computer (seat 1, bot:/bin/false) forfeited the game: exited with status 1." in text
    assert "You win!" in text
    (saved,) = tmp_path.iterdir()
    game = check_record(saved.read_text())
    assert game.forfeited == Forfeit(1, 0, "exited with status 1") and game.state.moves_played == 0


def test_the_terminal_stops_a_bot_program_when_the_game_ends() -> None:
    session = Session(make_rules("classic", target=11), seed=8, opponent=f"bot:{EXAMPLE_BOT}")
    player = session.table.seats[1].player
    winner = run_plain(session, io.StringIO(), cast(TextIO, io.StringIO("1\n" * 400)))
    assert winner in (0, 1) and session.over
    assert player is not None and player.bot_name == "first.sh"  # it was started, and said its name
    assert not player.running
