"""The full-screen game (cassino.terminal.fullscreen), driven headlessly by Textual's pilot with real key presses.

What a person does must change the game by exactly the move they chose and nothing else: a digit
picks a card, the list offers that card's moves, ``:`` takes a typed move, a refused move says why
and changes nothing. The variant builder must refuse what the rules refuse, and start what they
accept. A screenshot of the table is saved in artifacts/ for a person to look at.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Label, OptionList, Static

from cassino.cards import card_name, cards_of
from cassino.cli import build_parser
from cassino.cli.play import new_game_from_args
from cassino.explain import explain_illegal
from cassino.moves import format_code
from cassino.notation import position_to_json
from cassino.record import check_record, read_record
from cassino.rules import make_rules
from cassino.terminal.fullscreen import CassinoApp, GameOverScreen, GameScreen, HandOverScreen, SetupScreen
from cassino.terminal.session import Session
from scenarios import stuck_after_first_build

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
SIZE = (110, 40)
ME = 0

Script = Callable[[Pilot[int], CassinoApp], Awaitable[None]]


def play_args(*argv: str) -> argparse.Namespace:
    """``cassino play`` arguments as the command line would give them."""
    return build_parser().parse_args(["play", *argv])


def run(script: Script, *argv: str) -> CassinoApp:
    """Run the app headlessly (computer players without delay) through ``script``."""
    args = play_args(*argv)
    app = CassinoApp(new_game_from_args(args), setup=not args.no_setup, bot_delay=0)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())
    return app


def session_of(app: CassinoApp) -> Session:
    assert app.session is not None, "the game has not started"
    return app.session


def message(app: CassinoApp) -> str:
    """The text of the message line under the table."""
    return str(app.screen.query_one("#message", Static).render())


async def settle(pilot: Pilot[int], app: CassinoApp) -> None:
    """Let the computer players move until it is my turn, or a dialog (hand or game over) is up."""
    for _ in range(200):
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, GameScreen):
            return
        if session_of(app).human_to_move() and not screen.waiting:
            return
    raise AssertionError("the computer players did not hand the turn back")


async def type_move(pilot: Pilot[int], text: str) -> None:
    """``:``, the move typed key by key, Enter."""
    await pilot.press("colon")
    await pilot.press(*text)
    await pilot.press("enter")


async def focus(pilot: Pilot[int], app: CassinoApp, widget_id: str, back: bool = False) -> None:
    """Tab (or shift+tab) to a widget of the variant builder."""
    for _ in range(60):
        if app.focused is not None and app.focused.id == widget_id:
            return
        await pilot.press("shift+tab" if back else "tab")
    raise AssertionError(f"tab never reached #{widget_id}")


async def select(pilot: Pilot[int], app: CassinoApp, widget_id: str, steps: int, back: bool = False) -> None:
    """Open a drop-down with Enter, move ``steps`` entries down, choose with Enter."""
    await focus(pilot, app, widget_id, back)
    await pilot.press("enter", *["down"] * steps, "enter")


# ----------------------------------------------------------------------------- a whole hand


def test_a_whole_hand_with_keys() -> None:
    """Setup, then every one of my moves by digit (and the list when a card has several moves), to
    the hand-over dialog: the game holds exactly those moves and the breakdown is shown."""
    rng = random.Random(5)
    mine: list[int] = []
    downs: list[int] = []

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        session = session_of(app)
        assert session.rules == make_rules("classic") and session.seed == 11
        screenshot = False
        while isinstance(app.screen, GameScreen):
            state = session.state
            assert len(session.game.hands) == 1 and state.to_move == ME
            cards = cards_of(state.hands[ME])
            legal = state.legal_codes()
            playable = [i for i, c in enumerate(cards) if any((m >> 2) & 63 == c for m in legal)]
            index = rng.choice(playable)
            codes = sorted((m for m in legal if (m >> 2) & 63 == cards[index]), key=format_code)
            before = state.moves_played
            await pilot.press(str(index + 1))
            if len(codes) > 1:
                options = app.screen.query_one("#moves", OptionList)
                assert options.display and state.moves_played == before
                shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
                assert shown == [format_code(c) for c in codes]
                if not screenshot:
                    ARTIFACTS.mkdir(exist_ok=True)
                    path = Path(app.save_screenshot("tui-game.svg", str(ARTIFACTS)))
                    assert path.exists() and "Your hand" in html.unescape(path.read_text()).replace("\xa0", " ")
                    screenshot = True
                k = rng.randrange(len(codes))
                downs.append(k)
                await pilot.press(*["down"] * k, "enter")
                chosen = codes[k]
            else:
                chosen = codes[0]
            await settle(pilot, app)
            hand = session.game.hands[0]
            assert hand.history()[before] == chosen and hand.movers()[before] == ME
            mine.append(chosen)

        assert isinstance(app.screen, HandOverScreen)
        assert screenshot, "no card had several moves: the list was never used"
        game = session.game
        first = game.hands[0]
        assert first.hand_over and first.moves_played == 48
        assert [c for c, s in zip(first.history(), first.movers(), strict=True) if s == ME] == mine
        assert len(game.hands) == 2 and game.hands[1].moves_played == 0
        assert check_record(session.record_text()).moves() == game.moves()

        result = first.result
        assert result is not None and [f.number for f in session.finished] == [1]
        table = app.screen.query_one("#breakdown", DataTable)
        rows = {str(row[0]): [str(v) for v in row[1:]] for row in (table.get_row(k) for k in table.rows)}
        for category in result.categories:
            assert rows[category] == [str(result.breakdown(s)[category]) for s in range(2)]
        assert rows["hand total"] == [str(p) for p in result.points]
        assert rows["game score"] == [str(p) for p in first.scores]
        labels = [str(label.render()) for label in app.screen.query(Label)]
        assert any(f"checksum: {result.checksum} points" in text for text in labels)
        assert any("Hand 1 is over" in text for text in labels)

        await pilot.press("space")  # Enter should do too: see test_enter_continues_after_a_hand
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert "hand 2" in str(app.screen.query_one("#status", Static).render())
        second = game.hands[1]
        assert ME not in second.movers() and second.to_move == ME

    run(script, "--seed", "11", "--opponent", "greedy", "--no-save")
    assert len(mine) == 24 and sum(downs) > 0


# ----------------------------------------------------------------------------- single actions


def test_a_typed_move_is_played() -> None:
    """``:`` then a move in notation (any case, ``10`` for T) plays exactly that move."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        session = session_of(app)
        state = session.state
        code = max(state.legal_codes(), key=lambda c: (c & 3, format_code(c)))  # a build or capture if any
        before = state.moves_played
        await type_move(pilot, re.sub(r"\bT([cdhs])", r"10\1", format_code(code)).upper())
        await settle(pilot, app)
        assert session.game.hands[0].history()[before] == code
        assert session.state.moves_played > before and session.state.to_move == ME
        assert not app.screen.query_one("#typed", Input).display

    run(script, "--seed", "4", "--no-setup", "--no-save")


def test_an_illegal_typed_move_says_why_and_changes_nothing() -> None:
    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        state = session_of(app).state
        position = position_to_json(state)
        numeral = next(c for c in cards_of(state.hands[ME]) if state.values[c])
        await type_move(pilot, f"build {card_name(numeral)} 11: {card_name(cards_of(state.loose)[0])}")
        await pilot.pause()
        assert "Not allowed" in message(app) and "(rule 6.1)" in message(app)
        assert position_to_json(session_of(app).state) == position
        await pilot.press("escape")
        await type_move(pilot, "flip 7h")
        await pilot.pause()
        assert message(app).startswith("Not a move:")
        assert position_to_json(session_of(app).state) == position

    run(script, "--seed", "4", "--no-setup", "--no-save")


def test_the_hint_key_suggests_a_legal_move() -> None:
    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        state = session_of(app).state
        before = state.moves_played
        await pilot.press("h")
        await pilot.pause()
        text = message(app)
        assert text.startswith("Hint: ")
        assert text.removeprefix("Hint: ") in {format_code(c) for c in state.legal_codes()}
        assert state.moves_played == before

    run(script, "--seed", "4", "--no-setup", "--no-save")


def no_move_setup() -> tuple[int, str, str]:
    """A seed where, after my first build, I still own it at my next turn and hold a card with no
    legal move: (seed, the build, the card)."""
    seed, build, _state, card = stuck_after_first_build(ME)
    return seed, format_code(build), card_name(card)


def test_a_card_with_no_legal_move_says_why() -> None:
    seed, build, stuck = no_move_setup()

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        await type_move(pilot, build)
        await settle(pilot, app)
        state = session_of(app).state
        position = position_to_json(state)
        card = next(c for c in cards_of(state.hands[ME]) if card_name(c) == stuck)
        await pilot.press(str(cards_of(state.hands[ME]).index(card) + 1))
        await pilot.pause()
        assert message(app) == f"{stuck} cannot be played: {explain_illegal(state, card << 2)}"
        assert "rule 7." in message(app)
        assert not app.screen.query_one("#moves", OptionList).display
        assert position_to_json(session_of(app).state) == position

    run(script, "--seed", str(seed), "--opponent", "random", "--no-setup", "--no-save")


def test_quit_saves_the_unfinished_game(tmp_path: Path) -> None:
    """``q`` leaves at once; the record so far is saved with Result ``*``."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        await type_move(pilot, format_code(session_of(app).hint()))
        await settle(pilot, app)
        assert session_of(app).state.moves_played > 1
        await pilot.press("escape", "q")
        await pilot.pause()

    app = run(script, "--seed", "4", "--no-setup", "--save-dir", str(tmp_path))
    assert app.return_value == -1
    [saved] = tmp_path.iterdir()
    assert saved == session_of(app).saved_path
    record = read_record(saved.read_text())
    assert record.tags["Result"] == "*"
    assert check_record(saved.read_text()).moves() == session_of(app).game.moves()


# ----------------------------------------------------------------------------- the variant builder


def setup_error(app: CassinoApp) -> str:
    return str(app.screen.query_one("#setup-error", Static).render())


def test_setup_refuses_partnerships_with_two_players() -> None:
    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await focus(pilot, app, "partnerships")
        await pilot.press("space", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and app.session is None
        assert "Cannot start" in setup_error(app) and "partnerships need 4 players" in setup_error(app)

    run(script, "--no-save")


def test_setup_refuses_count_out_with_spade_scoring() -> None:
    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await select(pilot, app, "preset", 2)  # classic -> spade
        await select(pilot, app, "opt-tiebreak", 1, back=True)  # higher_total -> count_out
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and app.session is None
        assert "Cannot start" in setup_error(app) and "spade scoring" in setup_error(app)

    run(script, "--no-save")


def test_setup_starts_a_royal_partnership_game() -> None:
    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await select(pilot, app, "preset", 1)  # classic -> royal
        await select(pilot, app, "players", 2)  # 2 -> 4
        await focus(pilot, app, "partnerships")
        await pilot.press("space", "ctrl+s")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        session = session_of(app)
        assert session.rules == make_rules("royal", players=4, partnerships=True)
        assert session.side_name(0) == f"{session.names[0]} & {session.names[2]}"
        assert "4 players in partnerships" in str(app.screen.query_one("#status", Static).render())
        assert f"seat 2 {session.names[2]} (partner)" in str(app.screen.query_one("#others", Static).render())
        assert len(cards_of(session.state.hands[ME])) == 4

    run(script, "--seed", "2", "--no-save")


async def finish_hand(pilot: Pilot[int], app: CassinoApp) -> None:
    """Play my moves through the table screen's own ``play`` (the hinted move) until the hand is
    over; keys are covered by the whole-hand test, this just gets to the end quickly."""
    await settle(pilot, app)
    session = session_of(app)
    while isinstance(app.screen, GameScreen):
        app.screen.play(session.hint())
        await settle(pilot, app)
    assert isinstance(app.screen, HandOverScreen)


def test_enter_continues_after_a_hand() -> None:
    """The dialog says "press Enter to continue": Enter must close it (the breakdown table has
    the focus and must not swallow the key)."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await finish_hand(pilot, app)
        labels = [str(label.render()) for label in app.screen.query(Label)]
        assert "Hand 1 is over — press Enter to continue" in labels
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen), f"Enter left {type(app.screen).__name__} up"

    run(script, "--seed", "8", "--no-setup", "--no-save")


def test_the_game_over_screen_ends_the_app() -> None:
    """Target 1: a hand or two decide the game (a tie at the top plays on); after the last
    breakdown, the summary, and Enter leaves the app with the winner as its return value."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await finish_hand(pilot, app)
        session = session_of(app)
        while not session.over:
            await pilot.press("escape")
            await settle(pilot, app)
            await finish_hand(pilot, app)
        assert session.over
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        labels = [str(label.render()) for label in app.screen.query(Label)]
        assert f"Winner: {session.side_name(session.game.winner)}." in labels
        await pilot.press("enter")
        await pilot.pause()

    app = run(script, "--seed", "8", "--no-setup", "--no-save", "-o", "target=1")
    assert app.return_value == session_of(app).game.winner
