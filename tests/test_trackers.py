"""Each side's tracker and the cards not yet seen, counted once at the table and worded by both
terminal front ends: on the web page's own example (partners' piles together, sweeps by the side of
the seat that made them) and on a scripted hand, where every count, card and line is known."""

from __future__ import annotations

import io
from typing import TextIO, cast

import pytest

from cassino.cards import parse_card
from cassino.moves import format_code, parse_code
from cassino.rules import make_rules
from cassino.state import State
from cassino.table import SideTracker, side_trackers, unseen_by_suit
from cassino.terminal.newgame import NewGame
from cassino.terminal.plain import COMMANDS, PlainGame
from cassino.terminal.session import Session
from cassino.terminal.table_text import CardText, tracker_line
from cassino.view import spectator_view, view_of
from positions import first_deal, mask

CARDS = CardText()


def cards(names: str) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names.split())


def test_partners_piles_count_together_as_on_the_web_page() -> None:
    """The example of tests/js/tracker.test.mjs: the same piles and sweeps give the same tallies."""
    piles = [mask("As 2s 5h"), mask("Td Ah Kd"), mask("Ac 9s"), 0]
    state = State(
        make_rules("classic", players=4, partnerships=True),
        dealer=3,
        to_move=0,
        hands=[0, 0, 0, 0],
        loose=0,
        builds=(),
        stock=(),
        captured=piles,
        sweeps=[2, 1, 2],
    )
    assert side_trackers(spectator_view(state)) == (
        SideTracker(0, cards=5, spades=3, aces=cards("Ac As"), casinos=cards("2s"), sweeps=2),
        SideTracker(1, cards=3, spades=0, aces=cards("Ah"), casinos=cards("Td"), sweeps=1),
    )


def test_a_side_per_seat_without_partnerships() -> None:
    state = State(
        make_rules("classic", players=3),
        dealer=2,
        to_move=0,
        hands=[0, 0, 0],
        loose=0,
        builds=(),
        stock=(),
        captured=[0, mask("Ad"), 0],
    )
    trackers = side_trackers(view_of(state, 0))
    assert [(t.side, t.cards, t.spades, t.aces, t.casinos, t.sweeps) for t in trackers] == [
        (0, 0, 0, (), (), 0),
        (1, 1, 0, cards("Ad"), (), 0),
        (2, 0, 0, (), (), 0),
    ]


@pytest.mark.parametrize(
    ("tracker", "line"),
    [
        (SideTracker(0, 0, 0, (), (), 0), "You: 0 cards, 0 spades"),
        (SideTracker(0, 1, 1, cards("As"), (), 0), "You: 1 card, 1 spade, A♠"),
        (SideTracker(0, 9, 3, cards("Ad As"), cards("Td"), 1), "You: 9 cards, 3 spades, A♦ A♠, 10♦, 1 sweep"),
        (SideTracker(0, 2, 0, (), cards("Td 2s"), 2), "You: 2 cards, 0 spades, 10♦ 2♠, 2 sweeps"),
    ],
)
def test_a_tracker_line_names_only_what_the_side_won(tracker: SideTracker, line: str) -> None:
    assert tracker_line("You", tracker, CARDS) == line


# ----------------------------------------------------------------------------- a scripted hand
# I am seat 1, the eldest hand (the computer deals). My ten takes A♦ 9♣; the computer's ten of hearts
# takes Big Casino; my two takes Little Casino, the last card on the table: a sweep; the computer,
# left an empty table, trails 4♦.
MINE = ["Tc", "2d", "7d", "Kc"]
TABLE = ["Ad", "9c", "2s", "Td"]
THEIRS = ["Th", "Kh", "3h", "4d"]
ME = 1
MY_MOVES = ["capture Tc 10: Ad 9c", "capture 2d 2: 2s"]
MY_WORDS = ["take A♦ 9♣ with 10♣", "take 2♠ with 2♦"]
THEIR_MOVES = ["capture Th 10: Td", "trail 4d"]
UNSEEN_AT_START = [
    "Not seen yet: 44 cards (the other hands and the stock)",
    "clubs: A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ J♣ Q♣",
    "diamonds: 3♦ 4♦ 5♦ 6♦ 8♦ 9♦ J♦ Q♦ K♦",
    "hearts: A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥",
    "spades: A♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠",
]
UNSEEN_AFTER = [  # less the cards the computer played since: 10♥ and the 4♦ it trailed
    "Not seen yet: 42 cards (the other hands and the stock)",
    "clubs: A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ J♣ Q♣",
    "diamonds: 3♦ 5♦ 6♦ 8♦ 9♦ J♦ Q♦ K♦",
    "hearts: A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ J♥ Q♥ K♥",
    "spades: A♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠",
]
TAKEN_AT_START = ["Computer: 0 cards, 0 spades", "You: 0 cards, 0 spades"]
TAKEN_AFTER = ["Computer: 2 cards, 0 spades, 10♦", "You: 5 cards, 1 spade, A♦, 2♠, 1 sweep"]


def scripted() -> Session:
    """The scripted hand's session, at my first turn."""
    deck = first_deal(MINE, TABLE, THEIRS)
    session = Session(make_rules("classic"), seed=1, humans=(ME,), opponent="greedy", decks=[deck])
    assert session.human_to_move()
    return session


def play_script(session: Session) -> None:
    """My moves, each followed by the computer's, which are checked to be the script's."""
    for mine, theirs in zip(MY_MOVES, THEIR_MOVES, strict=True):
        session.play(parse_code(mine))
        assert session.step_bot() == (0, parse_code(theirs))


def test_the_table_counts_each_side_and_what_each_seat_has_not_seen() -> None:
    session = scripted()
    table = session.table
    assert table.trackers() == (SideTracker(0, 0, 0, (), (), 0), SideTracker(1, 0, 0, (), (), 0))
    play_script(session)
    assert table.trackers() == (
        SideTracker(0, cards=2, spades=0, aces=(), casinos=cards("Td"), sweeps=0),
        SideTracker(1, cards=5, spades=1, aces=cards("Ad"), casinos=cards("2s"), sweeps=1),
    )
    assert table.side_tracker(ME) == (5, 1) and table.side_tracker(0) == (2, 0)
    assert table.unseen(ME) == (
        mask("Ac 2c 3c 4c 5c 6c 7c 8c Jc Qc"),
        mask("3d 5d 6d 8d 9d Jd Qd Kd"),
        mask("Ah 2h 3h 4h 5h 6h 7h 8h 9h Jh Qh Kh"),
        mask("As 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"),
    )
    assert table.unseen(ME) == unseen_by_suit(session.view(ME))
    # The computer sees its own K♥ 3♥ but not my 7♦ K♣.
    theirs = table.unseen(0)
    assert theirs[1] == mask("3d 5d 6d 7d 8d 9d Jd Qd Kd") and theirs[2] == mask("Ah 2h 4h 5h 6h 7h 8h 9h Jh Qh")
    assert theirs[0] == mask("Ac 2c 3c 4c 5c 6c 7c 8c Jc Qc Kc")


def run_plain(session: Session, answers: list[str]) -> list[list[str]]:
    """The line mode on ``answers`` (then the end of input); the replies to each, as lines."""
    script = [f"{a}\n" for a in answers]

    class Input:
        def readline(self) -> str:
            return script.pop(0) if script else ""

    out = io.StringIO()
    PlainGame(session, out, cast(TextIO, Input()), CARDS).run()
    return [reply.splitlines() for reply in out.getvalue().split("> ")[1:]]


def test_plain_t_and_n_show_every_side_and_the_unseen_cards() -> None:
    session = scripted()
    replies = run_plain(session, ["t", "n", "trackers", *MY_WORDS, "t", "unseen", "q", "y"])
    assert replies[0] == ["Taken this hand:", *(f"  {line}" for line in TAKEN_AT_START)]
    assert replies[1] == [UNSEEN_AT_START[0], *(f"  {line}" for line in UNSEEN_AT_START[1:])]
    assert replies[2] == replies[0]
    assert replies[5] == ["Taken this hand:", *(f"  {line}" for line in TAKEN_AFTER)]
    assert replies[6] == [UNSEEN_AFTER[0], *(f"  {line}" for line in UNSEEN_AFTER[1:])]
    assert [format_code(c) for _, c in session.state.history] == [
        MY_MOVES[0],
        THEIR_MOVES[0],
        MY_MOVES[1],
        THEIR_MOVES[1],
    ]


def test_the_plain_help_lists_trackers_and_the_unseen_cards() -> None:
    names = [name for name, _ in COMMANDS]
    assert "t, trackers" in names and "n, unseen" in names and "u, undo" in names


def test_fullscreen_t_and_n_show_every_side_and_the_unseen_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """``t`` puts every side's tracker under the scores (and takes it away again), ``n`` opens a page
    of the unseen cards: at the start and after the script, word for word."""
    pytest.importorskip("textual")
    from textual.pilot import Pilot
    from textual.widgets import Label, Static

    from cassino.terminal.fullscreen import KEYS, CassinoApp, GameScreen, TextScreen
    from tui_support import run

    session = scripted()
    monkeypatch.setattr(NewGame, "session", lambda self: session)

    def status(app: CassinoApp) -> list[str]:
        return str(app.screen.query_one("#status", Static).render()).splitlines()

    async def unseen_page(pilot: Pilot[int], app: CassinoApp) -> list[str]:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        page = [str(app.screen.query_one(".title", Label).render())]
        page += [str(line.render()) for line in app.screen.query(".line").results(Static)]
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        return page

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen) and app.session is session
        plain = status(app)
        await pilot.press("t")
        await pilot.pause()
        assert status(app) == [*plain, *TAKEN_AT_START]
        assert await unseen_page(pilot, app) == UNSEEN_AT_START
        for move in MY_MOVES:
            screen.play(parse_code(move))
            for _ in range(50):
                await pilot.pause()
                if session.human_to_move() and not screen.waiting:
                    break
        assert [format_code(c) for _, c in session.state.history[1::2]] == THEIR_MOVES
        assert status(app)[-2:] == TAKEN_AFTER
        assert await unseen_page(pilot, app) == UNSEEN_AFTER
        await pilot.press("t")
        await pilot.pause()
        assert len(status(app)) == len(plain), "t again hides the trackers"
        assert {"t", "n", "u"} <= {key for key, _ in KEYS}

    run(script, "--seat", "1", "--opponent", "greedy", "--no-setup", "--no-save")
