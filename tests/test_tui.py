"""The full-screen game (cassino.terminal.fullscreen), driven headlessly by Textual's pilot with real key presses.

What a person does must change the game by exactly the move they chose and nothing else: a digit
picks a card, the list offers that card's moves, ``:`` takes a typed move, a refused move says why
and changes nothing, ``u`` takes back exactly the moves since yours. The variant builder must
refuse what the rules refuse, and start what they accept. Everything runs at 80x24, the smallest
usual terminal, and every dialog and the builder's Start button must lie inside it. A screenshot of
the table is saved in artifacts/ for a person to look at.
"""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, DataTable, Input, Label, OptionList, Static

from cassino.cards import card_name, cards_of
from cassino.explain import Reason, build_key, explain_illegal, why_not
from cassino.moves import code_card, format_code
from cassino.notation import position_to_json
from cassino.players import choose_code, make_player
from cassino.record import check_record, read_record
from cassino.rules import make_rules
from cassino.terminal.fullscreen import (
    KEYS,
    CassinoApp,
    ConfirmQuit,
    GameOverScreen,
    GameScreen,
    HandOverScreen,
    SetupScreen,
    TextScreen,
)
from cassino.terminal.session import Session
from cassino.terminal.table_text import seat_title
from scenarios import stuck_after_first_build
from tui_support import SIZE, run

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
ME = 0


def quick_move(session: Session) -> int:
    """A sensible move for me at once (the hint's coach searches; these tests just need to move on)."""
    return choose_code(make_player("greedy", 0), session.view(ME))


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


async def paste_move(pilot: Pilot[int], app: CassinoApp, text: str) -> None:
    """``:``, the move put in the box at once (as a paste: the pilot's keys have no suit symbols), Enter."""
    await pilot.press("colon")
    app.screen.query_one("#typed", Input).value = text
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
                assert shown == [app.cards.words(c, state, ME, lambda s: seat_title(session, s, ME)) for c in codes]
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
            assert hand.move_stack[before] == chosen and hand.movers()[before] == ME
            mine.append(chosen)

        assert isinstance(app.screen, HandOverScreen)
        assert screenshot, "no card had several moves: the list was never used"
        game = session.game
        first = game.hands[0]
        assert first.hand_over and first.moves_played == 48
        assert [c for c, s in zip(first.move_stack, first.movers(), strict=True) if s == ME] == mine
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
        assert session.game.hands[0].move_stack[before] == code
        assert session.state.moves_played > before and session.state.to_move == ME
        assert not app.screen.query_one("#typed", Input).display

    run(script, "--seed", "4", "--no-setup", "--no-save")


def test_a_typed_sentence_is_played() -> None:
    """``:`` then a move as the list says it (the sentence with suit symbols, in any case) plays
    exactly that move; a card alone plays its only move; a card with several is refused with them."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        session = session_of(app)
        state = session.state
        names = lambda s: seat_title(session, s, ME)  # noqa: E731
        by_card: dict[int, list[int]] = {}
        for c in state.legal_codes():
            by_card.setdefault(code_card(c), []).append(c)
        several = next(card for card, codes in by_card.items() if len(codes) > 1)
        listed = "; ".join(app.cards.words(c, state, ME, names) for c in sorted(by_card[several], key=format_code))
        await type_move(pilot, card_name(several))
        await pilot.pause()
        count = len(by_card[several])
        assert message(app) == f"Not a move: '{card_name(several)}' could be any of {count} moves: {listed}"
        await pilot.press("escape")
        code = max(state.legal_codes(), key=lambda c: (c & 3, format_code(c)))  # a build or capture if any
        before = state.moves_played
        await paste_move(pilot, app, app.cards.words(code, state, ME, names).upper())
        await settle(pilot, app)
        assert session.game.hands[0].move_stack[before] == code
        state = session.state
        single = next(
            c for c in state.legal_codes() if sum(code_card(m) == code_card(c) for m in state.legal_codes()) == 1
        )
        before = state.moves_played
        await paste_move(pilot, app, app.cards.card(code_card(single)))
        await settle(pilot, app)
        assert session.game.hands[0].move_stack[before] == single

    run(script, "--seed", "1", "--no-setup", "--no-save")


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
    """The coach searches in a worker thread (the table says it is thinking), then the move and why."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        state = session_of(app).state
        before = state.moves_played
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        move, why = message(app).removeprefix("Hint: ").split(" — ")
        assert message(app).startswith("Hint: ") and why
        session = session_of(app)
        assert move in {
            app.cards.words(c, state, ME, lambda s: seat_title(session, s, ME)) for c in state.legal_codes()
        }
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
        assert message(app) == f"{app.cards.card(card)} cannot be played: {explain_illegal(state, card << 2)}"
        assert "rule 7." in message(app)
        assert not app.screen.query_one("#moves", OptionList).display
        assert position_to_json(session_of(app).state) == position

    run(script, "--seed", str(seed), "--opponent", "random", "--no-setup", "--no-save")


def test_w_says_why_not_as_the_page_does() -> None:
    """``w`` lists the page's reasons (``why_not`` of my view, as JSON) in their English sentences:
    every card's with no card picked, the picked card's alone after a digit; picking a card with
    several moves and table items it cannot use says that ``w`` tells why. Nothing is played."""
    seed, build, stuck = no_move_setup()

    def lines_shown(app: CassinoApp) -> list[str]:
        assert isinstance(app.screen, TextScreen)
        return [str(line.render()) for line in app.screen.query(".line").results(Static)]

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        session = session_of(app)
        page = why_not(session.view(ME)).to_json()
        hand = cards_of(session.state.hands[ME])
        legal = session.state.legal_codes()
        card = next(c for c in hand if card_name(c) in page["table"] and sum(code_card(m) == c for m in legal) > 1)
        unused = page["table"][card_name(card)]
        builds = {build_key(b.cards): f"the {b.value}-build ({app.cards.cards(b.cards)})" for b in session.state.builds}
        before = position_to_json(session.state)
        await pilot.press(str(hand.index(card) + 1))
        await pilot.pause()
        name = app.cards.card(card)
        items = f"{len(unused)} table item" + ("s" if len(unused) > 1 else "")
        assert message(app) == (
            f"{name}: choose what it does (arrows and Enter, or a click; Esc to cancel; w: why it cannot use {items})"
        )
        await pilot.press("w")
        await pilot.pause()
        assert lines_shown(app) == [
            f"{name} cannot use {builds.get(key) or app.cards.named(key)}: {Reason.from_json(data).text}"
            for key, data in unused.items()
        ]
        assert str(app.screen.query_one(".title", Label).render()) == f"Why not: {name}"
        await pilot.press("w", "escape")
        await pilot.pause()
        assert position_to_json(session.state) == before

        await type_move(pilot, build)
        await settle(pilot, app)
        page = why_not(session.view(ME)).to_json()
        hand = cards_of(session.state.hands[ME])
        card = next(c for c in hand if card_name(c) == stuck)
        refused = f"{app.cards.card(card)} cannot be played: {Reason.from_json(page['cards'][stuck]).text}"
        await pilot.press("w")
        await pilot.pause()
        assert str(app.screen.query_one(".title", Label).render()) == "Why not: your cards"
        lines = lines_shown(app)
        assert refused in lines
        assert len(lines) == len(page["cards"]) + sum(len(items) for items in page["table"].values())
        assert inside_screen(app.screen.query_one("#dialog"))
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        before = position_to_json(session.state)
        await pilot.press(str(hand.index(card) + 1), "w")
        await pilot.pause()
        assert lines_shown(app) == [refused]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and position_to_json(session.state) == before

    run(script, "--seed", str(seed), "--opponent", "random", "--no-setup", "--no-save")


def test_quit_saves_the_unfinished_game(tmp_path: Path) -> None:
    """``q`` then ``y`` leaves; the record so far is saved with Result ``*``."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        await type_move(pilot, format_code(quick_move(session_of(app))))
        await settle(pilot, app)
        assert session_of(app).state.moves_played > 1
        await pilot.press("escape", "q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("y")
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
        assert session.table.side_name(0) == f"{session.names[0]} & {session.names[2]}"
        assert "4 players in partnerships" in str(app.screen.query_one("#status", Static).render())
        others = str(app.screen.query_one("#others", Static).render())
        assert f"Partner (seat 2, {session.opponent}): " in others
        assert f"Left computer (seat 1, {session.opponent}): " in others
        assert len(cards_of(session.state.hands[ME])) == 4

    run(script, "--seed", "2", "--no-save")


async def finish_hand(pilot: Pilot[int], app: CassinoApp) -> None:
    """Play my moves through the table screen's own ``play`` (a quick sensible move) until the hand is
    over; keys are covered by the whole-hand test, this just gets to the end quickly."""
    await settle(pilot, app)
    session = session_of(app)
    while isinstance(app.screen, GameScreen):
        app.screen.play(quick_move(session))
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


def inside_screen(widget: Widget) -> bool:
    """True when the widget lies wholly inside the 80x24 screen."""
    region = widget.region
    return region.width > 0 and region.x >= 0 and region.y >= 0 and region.right <= SIZE[0] and region.bottom <= SIZE[1]


def test_the_game_over_screen_ends_the_app(tmp_path: Path) -> None:
    """Target 1: a hand or two decide the game (a tie at the top plays on); after the last
    breakdown, the summary (inside 80x24 even with a long record path), and Enter leaves the app
    with the winner as its return value."""
    folder = tmp_path / ("a-long-folder-name-for-the-saved-games" * 2)

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
        lines = [str(line.render()) for line in app.screen.query(".line").results(Static)]
        mine = session.game.winner == 0
        winner = "You win!" if mine else "Winner: Computer."
        assert (
            winner in lines
            and f"Final score: You {session.game.scores[0]} - Computer {session.game.scores[1]}" in lines
        )
        assert inside_screen(app.screen.query_one("#dialog"))
        assert all(inside_screen(line) for line in app.screen.query(".line"))
        assert any(str(session.saved_path) in line for line in lines)
        await pilot.press("enter")
        await pilot.pause()

    app = run(script, "--seed", "8", "--no-setup", "--save-dir", str(folder), "-o", "target=1")
    assert app.return_value == session_of(app).game.winner


# ----------------------------------------------------------------------------- the comforts


def test_the_builder_start_button_is_in_view_and_says_options_on_or_off() -> None:
    """At 80x24 the Start button is on the screen without scrolling; each option reads ``[x]``
    or ``[ ]`` and on or off, and the text follows a toggle."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        assert isinstance(app.screen, SetupScreen)
        assert inside_screen(app.screen.query_one("#start", Button))
        sweeps = app.screen.query_one("#opt-sweeps")
        cancel = app.screen.query_one("#opt-sweeps_cancel")
        assert str(sweeps.render()).strip() == "[x] on" and str(cancel.render()).strip() == "[ ] off"
        await focus(pilot, app, "opt-sweeps")
        await pilot.press("space")
        await pilot.pause()
        assert str(sweeps.render()).strip() == "[ ] off"
        await pilot.click("#start")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and not session_of(app).rules.sweeps

    run(script, "--seed", "4", "--no-save")


def test_undo_takes_back_my_move_and_the_computer_moves_after_it() -> None:
    """``u`` before any move of mine says why not; after my move (and the computer's answer) it
    brings back exactly the position before my move, my turn again, the log as it was."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        session = session_of(app)
        await pilot.press("u")
        await pilot.pause()
        assert message(app) == "Cannot undo: you have made no move in this hand to take back"
        before = position_to_json(session.state)
        log_before = session.state.history
        code = quick_move(session)
        await type_move(pilot, format_code(code))
        await settle(pilot, app)
        assert session.state.moves_played == len(log_before) + 2
        await pilot.press("u")
        await pilot.pause()
        assert position_to_json(session.state) == before and session.state.history == log_before
        assert session.human_to_move()
        said = app.cards.words(code, session.state, ME, lambda s: seat_title(session, s, ME))
        assert message(app) == f"Took back your move ({said}) and 1 computer move."
        await pilot.pause()
        assert position_to_json(session.state) == before, "a computer player moved after the undo"

    run(script, "--seed", "4", "--no-setup", "--no-save", "--opponent", "greedy")


def test_help_lists_every_key() -> None:
    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        lines = [str(line.render()) for line in app.screen.query(".line").results(Static)]
        assert len(lines) == len(KEYS)
        for (key, meaning), line in zip(KEYS, lines, strict=True):
            assert line.split() == [*key.split(), *meaning.split()]
        assert {"u", "l", "h", "t", "r", "?", "q", ":"} <= {k for key, _ in KEYS for k in key.split()}
        assert inside_screen(app.screen.query_one("#dialog"))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)

    run(script, "--seed", "4", "--no-setup", "--no-save")


def test_the_log_lists_every_move_of_the_hand() -> None:
    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        session = session_of(app)
        for _ in range(3):
            app.screen.play(quick_move(session))
            await settle(pilot, app)
        moves = session.state.history
        assert len(moves) >= 6
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        lines = [str(line.render()) for line in app.screen.query(".line").results(Static)]
        who = {0: "You", 1: "Computer"}
        table = session.state.root()  # each move worded on the table it was made on
        expected = []
        for seat, code in moves:
            expected.append(f"{who[seat]}: {app.cards.words(code, table, ME, who.__getitem__)}")
            table.push(code)
        assert lines == expected
        assert inside_screen(app.screen.query_one("#dialog"))
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)

    run(script, "--seed", "4", "--no-setup", "--no-save")


def test_quit_asks_first() -> None:
    """``q`` then ``n`` (or Esc) keeps the game going, unchanged; ``q`` then ``y`` leaves."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await settle(pilot, app)
        position = position_to_json(session_of(app).state)
        for no in ("n", "escape"):
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit) and inside_screen(app.screen.query_one("#dialog"))
            await pilot.press(no)
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.is_running and app.return_value is None
        assert message(app) == "Playing on."
        assert position_to_json(session_of(app).state) == position
        await pilot.press("q", "y")
        await pilot.pause()
        assert not app.is_running

    app = run(script, "--seed", "4", "--no-setup", "--no-save")
    assert app.return_value == -1
