"""The live table's rules, in a plain install (no FastAPI, no Textual): whose turn it is, the count
between hands, undo against computer players, what ``unplay`` and ``restore`` put back, computer
players' turns and their staleness, a stored game replayed, and each learner's lessons and moves.

Every refusal is checked for its exact words and for changing nothing; a Hypothesis machine drives a
table with random commands and checks the same after each."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cassino import IllegalMoveError, make_rules
from cassino.moves import TRAIL, encode, format_code
from cassino.notation import position_to_json
from cassino.rules import Rules
from cassino.table import (
    BadCommandError,
    ClosedError,
    CountEnded,
    CountStarted,
    Dealt,
    GameOver,
    HandEnded,
    Moved,
    NoSuchMoveError,
    NotNowError,
    NotSeatedError,
    Pressed,
    Seat,
    Table,
    TableError,
    TakenBack,
    checked_seen,
)


def people(rules: Rules) -> list[Seat]:
    return [Seat.person(s, f"P{s}", f"holder{s}") for s in range(rules.players)]


def against(rules: Rules, spec: str = "greedy") -> list[Seat]:
    """Seat 0 a person, every other seat ``spec``."""
    return [Seat.person(0, "me", "me")] + [Seat.computer(s, spec, s) for s in range(1, rules.players)]


def snapshot(table: Table) -> tuple[object, ...]:
    """Everything a refused command must leave as it was."""
    state = table.game.state
    return (
        len(table.game.hands),
        position_to_json(state),
        tuple(state.move_stack),
        table.ply,
        table.deal_ply,
        table.counting,
        frozenset(table.ready),
        table.deadline,
        table.abandoned,
    )


def trail_of_another(table: Table, seat: int) -> int:
    """A trail by ``seat`` of a card the next seat holds: never legal."""
    other = table.state.hands[(seat + 1) % table.rules.players]
    return encode(TRAIL, (other & -other).bit_length() - 1, 0, 0)


def random_code(table: Table, rng: random.Random) -> int:
    return rng.choice(sorted(table.state.legal_codes()))


def to_hand_end(table: Table, rng: random.Random) -> list[object]:
    """Play random moves (for whoever is to move) until a hand ends; the events of the last move."""
    hands = table.hand_number
    while True:
        events: list[object] = list(table.play(table.state.to_move, random_code(table, rng)))
        if table.hand_number != hands or table.over:
            return events


# ----------------------------------------------------------------------------- turns and the count


def test_only_the_seat_to_move_plays_and_a_refusal_changes_nothing() -> None:
    table = Table(make_rules("classic"), people(make_rules("classic")), seed=3)
    before = snapshot(table)
    code = sorted(table.state.legal_codes())[0]
    with pytest.raises(NotNowError, match=r"^it is seat 1's turn, not seat 0's$"):
        table.play(0, code)
    with pytest.raises(NotNowError, match=r"^the game has moved on: it is at version 0, your move was for 4$"):
        table.play(1, code, version=4)
    with pytest.raises(IllegalMoveError):
        table.play(1, trail_of_another(table, 1))
    assert snapshot(table) == before
    assert table.play(1, code, version=0) == [Moved(1, code, 0)]
    assert (table.ply, table.epoch, table.phase) == (1, 1, "play")


def test_a_hand_ends_in_a_count_that_everyone_presses_through() -> None:
    rules = make_rules("classic", target=61)
    table = Table(rules, people(rules), seed=11, next_after=0)
    events = to_hand_end(table, random.Random(2))
    kinds = [type(e) for e in events]
    assert kinds == [Moved, HandEnded, Dealt, CountStarted]
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.number == 1 and ended == table.finished[0]
    assert ended.result == table.game.hands[0].result and ended.scores == table.game.hands[0].scores
    assert events[-1] == CountStarted(2, None) and events[2] == Dealt(2, True)
    assert table.phase == "count" and table.waiting_for == [0, 1] and table.deal_ply == table.ply
    before = snapshot(table)
    waited = "hand 1 is over: hand 2 starts when every person at the table has pressed next (waiting for seat 0, 1)"
    with pytest.raises(NotNowError, match=f"^{re.escape(waited)}$"):
        table.play(table.state.to_move, random_code(table, random.Random(0)))
    with pytest.raises(NotNowError, match=r"^hand 1 is over: its moves cannot be taken back$"):
        table.take_back(0)
    assert table.bot_turn() is None and snapshot(table) == before
    assert table.press_next(1) == [Pressed(1)]
    assert table.press_next(1) == []  # pressed already: nothing changes
    assert table.waiting_for == [0]
    assert table.press_next(0) == [Pressed(0), CountEnded(2)]
    assert table.phase == "play" and table.ready == set() and table.deadline is None
    with pytest.raises(NotNowError, match=r"^hand 2 is in play: next is pressed when a hand is over$"):
        table.verify_press(0)


def test_the_count_has_a_deadline_when_asked_and_ends_by_it() -> None:
    rules = make_rules("classic", target=61)
    now = [1000.0]
    table = Table(rules, people(rules), seed=11, next_after=30, clock=lambda: now[0])
    events = to_hand_end(table, random.Random(2))
    assert events[-1] == CountStarted(2, 1030.0) and table.deadline == 1030.0
    assert not table.count_due()
    now[0] = 1030.0
    assert table.count_due() and table.end_count() == [CountEnded(2)] and table.end_count() == []


def test_a_table_of_computer_players_alone_never_counts() -> None:
    rules = make_rules("classic", target=11)
    table = Table(rules, [Seat.computer(s, "greedy", s) for s in range(2)], seed=5)
    moves = 0
    while not table.over:
        events = table.step_bot()
        assert isinstance(events[0], Moved) and not any(isinstance(e, CountStarted) for e in events)
        moves += 1
    assert isinstance(events[-1], GameOver) and events[-1].winner == table.game.winner >= 0
    assert table.step_bot() == [] and moves == table.ply
    with pytest.raises(NotNowError, match=r"^the game is over: no move is left to play$"):
        table.verify_play(0)


def test_without_a_count_between_hands_play_goes_straight_on() -> None:
    rules = make_rules("classic", target=61)
    table = Table(rules, people(rules), seed=11, count_between_hands=False)
    events = to_hand_end(table, random.Random(2))
    assert [type(e) for e in events] == [Moved, HandEnded, Dealt] and table.phase == "play"


def test_a_table_of_one_hand_is_over_when_it_is_counted_and_draws_no_other_deck() -> None:
    rules = make_rules("classic", target=61)
    table = Table(rules, people(rules), seed=11, last_hand=1)
    events = to_hand_end(table, random.Random(2))
    assert [type(e) for e in events] == [Moved, HandEnded, GameOver]
    assert events[-1] == GameOver(-1, table.game.hands[0].scores)
    assert table.over and table.phase == "over" and len(table.game.decks) == 1 and table.state.hand_over
    with pytest.raises(NotNowError, match=r"^the game is over: no move is left to play$"):
        table.verify_play(table.state.to_move)


def test_a_closed_table_refuses_everything() -> None:
    rules = make_rules("classic")
    table = Table(rules, people(rules), seed=1)
    table.abandoned = "no move for 3 days"
    before = snapshot(table)
    for command in (lambda: table.play(1, 0), lambda: table.take_back(0), lambda: table.verify_press(0)):
        with pytest.raises(ClosedError, match=r"^the game is abandoned \(no move for 3 days\): start a new one$"):
            command()
    assert table.bot_turn() is None and snapshot(table) == before


def test_only_a_person_presses_next() -> None:
    rules = make_rules("classic", target=61)
    table = Table(rules, against(rules), seed=4)
    with pytest.raises(
        NotSeatedError, match=r"^seat 1 is a computer player's: only a person at the table presses next$"
    ):
        table.verify_press(1)


def test_a_table_needs_one_seat_a_player_in_order() -> None:
    rules = make_rules("classic", players=3)
    with pytest.raises(BadCommandError, match=r"^a table of 3 players needs seats 0 to 2, in order$"):
        Table(rules, people(make_rules("classic")))
    with pytest.raises(BadCommandError, match=r"^a table of 3 players needs seats 0 to 2, in order$"):
        Table(rules, list(reversed(people(rules))))
    with pytest.raises(BadCommandError, match=r"^a seat's kind is one of human, bot$"):
        Table(rules, [*people(rules)[:2], Seat(2, "ghost", "?")])


# ----------------------------------------------------------------------------- undo


def test_a_person_takes_back_a_move_and_the_computers_replies() -> None:
    rules = make_rules("classic")
    table = Table(rules, against(rules), seed=8)
    while table.state.to_move != 0:
        table.step_bot()
    before, ply = snapshot(table), table.ply
    code = sorted(table.state.legal_codes())[-1]
    table.play(0, code)
    [reply] = [e for e in table.step_bot() if isinstance(e, Moved)]
    assert table.can_undo(0) and table.undo_start(0) == ply
    taken = table.take_back(0)
    assert taken == TakenBack(((0, code), (reply.seat, reply.code)), ply)
    assert snapshot(table) == before
    with pytest.raises(NotNowError, match=r"^you have made no move in this hand to take back$"):
        table.take_back(0)


def test_restore_plays_again_what_take_back_took() -> None:
    rules = make_rules("classic")
    table = Table(rules, against(rules), seed=8)
    while table.state.to_move != 0:
        table.step_bot()
    table.play(0, sorted(table.state.legal_codes())[0])
    table.step_bot()
    after = snapshot(table)
    table.restore(table.take_back(0))
    assert snapshot(table) == after


def test_no_takeback_against_another_person() -> None:
    rules = make_rules("classic")
    table = Table(rules, people(rules), seed=8)
    table.play(1, sorted(table.state.legal_codes())[0])
    before = snapshot(table)
    with pytest.raises(
        NotNowError, match=r"^moves are taken back only against computer players: seat 0 is another person's$"
    ):
        table.take_back(1)
    assert not table.can_undo(1) and snapshot(table) == before


def test_unplay_puts_back_a_move_that_dealt_and_started_the_count() -> None:
    rules = make_rules("classic", target=61)
    table = Table(rules, people(rules), seed=11, next_after=30, clock=lambda: 5.0)
    rng = random.Random(2)
    while True:
        before = snapshot(table)
        hands = table.hand_number
        table.play(table.state.to_move, random_code(table, rng))
        if table.hand_number != hands:
            break
    assert table.counting and table.deadline == 35.0
    table.unplay()
    assert snapshot(table) == before
    with pytest.raises(RuntimeError, match="unplay follows the play it takes back"):
        table.unplay()


# ----------------------------------------------------------------------------- computer players


def test_a_computer_players_move_thought_for_a_position_left_behind_is_refused() -> None:
    rules = make_rules("classic")
    table = Table(rules, [Seat.person(0, "me", "me"), Seat.computer(1, "greedy", 3)], seed=2)
    turn = table.bot_turn()
    assert turn is not None and (turn.seat, turn.spec, turn.seed, turn.ply) == (1, "greedy", 3, 0)
    assert turn.view == table.view(1)
    code = table.bot_move(turn)
    table.epoch += 1  # anything changed meanwhile
    before = snapshot(table)
    with pytest.raises(NotNowError, match=r"^the position changed while the computer player thought$"):
        table.play_bot(turn, code)
    assert snapshot(table) == before
    fresh = table.bot_turn()
    assert fresh is not None and table.play_bot(fresh, table.bot_move(fresh))[0] == Moved(1, code, 0)


# ----------------------------------------------------------------------------- a stored game


def test_a_replayed_game_is_the_table_that_was_played() -> None:
    rules = make_rules("classic", target=61)
    live = Table(rules, people(rules), seed=21)
    rng = random.Random(9)
    to_hand_end(live, rng)
    live.press_next(0)  # seat 1 has not pressed: the count goes on
    moves = [(s, c) for hand in live.game.hands for s, c in hand.history]
    again = Table(rules, people(rules), decks=live.game.decks)
    again.replay(moves)
    again.resume_count(live.ready, None)
    assert snapshot(again) == snapshot(live)
    bad = Table(rules, people(rules), decks=live.game.decks)
    with pytest.raises(BadCommandError, match=r"^stored move 0 is by seat 0, out of turn$"):
        bad.replay([(0, moves[0][1])])


# ----------------------------------------------------------------------------- learners


def test_the_moves_a_coach_speaks_of() -> None:
    rules = make_rules("classic", target=61)
    table = Table(rules, people(rules), seed=21)
    rng = random.Random(3)
    to_hand_end(table, rng)
    table.press_next(0)
    table.press_next(1)
    for _ in range(3):
        table.play(table.state.to_move, random_code(table, rng))
    mine = table.teaching.seat_moves(0)
    assert [p for p, _, _ in mine] == [p for p in range(table.ply) if table.teaching.move_at(p)[0] == 0]
    for ply, view, code in mine:
        assert table.teaching.move_at(ply) == (0, view, code) and code in view.legal and view.seat == 0
    with pytest.raises(NoSuchMoveError, match=rf"^the game has no move {table.ply}: {table.ply} moves have been made$"):
        table.teaching.move_at(table.ply)
    with pytest.raises(BadCommandError, match=r"^ply must be the number of a move"):
        table.teaching.move_at("1")
    assert len(table.teaching.unassessed(0)) == len(mine)


def test_lessons_due_and_told_once() -> None:
    from cassino.learn import TUTORIAL_RULES

    table = Table(TUTORIAL_RULES, people(TUTORIAL_RULES), seed=1)
    seat = table.state.to_move
    due = table.teaching.lessons_due(seat, set())
    assert due and all(n.lesson.id != "count" for n in due)
    assert table.teaching.lessons_due(1 - seat, set()) == []  # not its turn
    told = table.teaching.tell_turn_lesson(seat)
    assert told == due[0] and table.teaching.tell_turn_lesson(seat) is None  # one a turn
    assert table.teaching.learner(seat).seen == {due[0].lesson.id}
    assert checked_seen(["trailing"]) == {"trailing"} and checked_seen(None) == set()
    for bad, words in (("trailing", r"^seen must be a list"), (["juggling"], r"^no lesson 'juggling'")):
        with pytest.raises(BadCommandError, match=words):
            checked_seen(bad)


def test_the_replay_frames_show_every_hand_only_once_the_game_is_over() -> None:
    rules = make_rules("classic", target=11)
    table = Table(rules, [Seat.computer(s, "greedy", s) for s in range(2)], seed=5)
    with pytest.raises(NotNowError, match=r"^the replay shows every hand"):
        table.frames()
    while not table.over:
        table.step_bot()
    frames = table.frames()
    assert len(frames) == table.ply + len(table.game.hands)
    assert frames[0].move is None and frames[0].hands == table.game.hands[0].root().hands
    assert frames[-1].to_move is None and frames[-1].view.scores == table.game.scores
    assert [format_code(f.move[1]) for f in frames if f.move][:3] == [
        format_code(c) for c in table.game.hands[0].move_stack[:3]
    ]


# ----------------------------------------------------------------------------- any sequence of commands

COMMANDS = st.lists(st.tuples(st.sampled_from(["play", "illegal", "wrong", "undo", "next", "bot"]), st.integers(0, 3)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**16), st.integers(2, 4), COMMANDS)
def test_any_commands_keep_the_table_whole(seed: int, players: int, commands: list[tuple[str, int]]) -> None:
    """After any command the game's version is its number of moves, and a refused command changed
    nothing; the phase is the count exactly while someone is awaited."""
    rules = make_rules("classic", players=players, target=11)
    seats = [Seat.person(0, "me", "me"), Seat.person(1, "you", "you")] + [
        Seat.computer(s, "random", s) for s in range(2, players)
    ]
    table = Table(rules, seats, seed=seed)
    rng = random.Random(seed)
    for name, seat in commands:
        seat %= players
        before = snapshot(table)
        try:
            if name == "play" and not table.over and not table.counting:
                table.play(table.state.to_move, random_code(table, rng))
            elif name == "illegal" and table.state.hands[(seat + 1) % players]:
                table.play(seat, trail_of_another(table, seat))
            elif name == "wrong" and not table.over:
                table.play((table.state.to_move + 1) % players, random_code(table, rng))
            elif name == "undo":
                table.take_back(seat)
            elif name == "next":
                table.press_next(seat)
            else:
                table.step_bot()
        except (TableError, IllegalMoveError):
            assert snapshot(table) == before
        assert table.ply == sum(h.moves_played for h in table.game.hands)
        assert table.counting == (table.phase == "count") and (not table.counting or table.waiting_for)


def test_the_table_needs_no_app_library() -> None:
    """A plain install plays at a table: importing it loads no web, terminal or database library."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "blocked = ('fastapi', 'starlette', 'uvicorn', 'textual', 'sqlalchemy', 'numpy', 'torch')\n"
        "for name in blocked: sys.modules[name] = None\n"
        "from cassino import make_rules\n"
        "from cassino.table import Seat, Table\n"
        "table = Table(make_rules('classic', target=11), [Seat.computer(s, 'greedy', s) for s in range(2)], seed=1)\n"
        "while not table.over: table.step_bot()\n"
        "print(table.game.winner, table.ply)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    winner, ply = map(int, run.stdout.split())
    assert winner in (0, 1) and ply > 0
