"""``cassino play``: the full-screen terminal game (Textual), made to fit 80x24.

The variant builder comes first (preset, every option shown ``[x]`` on or ``[ ]`` off, seats,
partnerships, opponents, seed; Start always in view); then the table: builds with value, kind and
whose they are always in view, your hand as buttons, the scores, the deal and "last deal", each
other seat's last move (your partner marked) and whose turn it is. Pick a card (its number key or
a click), then what it does from the list of sentences; or type a move after ``:``, as the game
writes it, in notation, or a card or a rank that has one move. ``u`` takes back your last move,
``l`` shows the hand's moves, ``h`` hints (and says why), ``w`` says why the picked card (or each
card) cannot use what it cannot, ``t`` shows every side's trackers, ``n`` the cards not seen yet,
``r`` shows every lesson, ``?`` lists every key, ``q`` asks before leaving. A refused move, and a
picked card with no move, always says why: the page's reasons (``explain.why_not``), in English.
In the tutorial each lesson comes up in a box the first time its idea does; with the coach its note
on each of your moves shows under the table, weighed in a worker thread so the table never waits.
After each hand a score breakdown, at the end a summary (and the coach's review); the record of
every game is saved.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Header, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from ..cards import SUITS, card_name, cards_of
from ..errors import IllegalMoveError, UndoError
from ..explain import why_not
from ..learn import CoachNote, LessonNote, Message, all_lessons
from ..moves import Move, MoveCode, MoveError, code_card
from ..players import LEVELS
from ..rules import OPTION_NAMES, OPTIONS, PRESETS, RulesError, make_rules
from ..table import HandEnded
from ..view import View
from .newgame import NewGame
from .session import Session
from .table_text import (
    CardText,
    all_lesson_lines,
    build_head,
    checksum_line,
    game_summary,
    hand_log,
    hint_line,
    last_moves,
    lesson_lines,
    log_line,
    move_words,
    note_text,
    plural,
    review_lines,
    scores_line,
    seat_long_title,
    seat_title,
    side_title,
    tracker_lines,
    unseen_lines,
    wants_ascii,
    whose,
    why_not_lines,
)

_SUIT_STYLE = {"c": "bold", "d": "bold red", "h": "bold red", "s": "bold"}

KEYS = (
    ("1 2 3 4", "pick a card of your hand (or click it)"),
    ("arrows, Enter", "choose what the picked card does"),
    (":", "type a move, e.g. take 5h 3c with 8s, or 8s, or capture 8s 8: 3c 5h"),
    ("Esc", "cancel the picked card or the typed move"),
    ("u", "undo: take back your move and the computer moves after it"),
    ("l", "the log: every move of this hand"),
    ("h", "a hint, and why"),
    ("w", "why not: what the picked card (or each card) cannot do, and why"),
    ("t", "trackers: what each side has taken this hand (cards, spades, aces, casinos, sweeps)"),
    ("n", "not seen yet: the cards you have not seen, by suit"),
    ("r", "the lessons: every lesson of the tutorial"),
    ("?", "this help"),
    ("q", "quit (asks first; the record so far is saved)"),
)
"""Every key of the table, as the help screen lists them."""


def card_text(card: int, cards: CardText) -> Text:
    """A card, coloured by suit (the symbol or letter tells the suit without the colour)."""
    return Text(cards.card(card), style=_SUIT_STYLE[card_name(card)[1]])


def cards_text(mask: int, cards: CardText) -> Text:
    """Cards of a mask, coloured, separated by spaces."""
    out = Text()
    for i, c in enumerate(cards_of(mask)):
        if i:
            out.append(" ")
        out.append_text(card_text(c, cards))
    return out


class OnOff(Checkbox):
    """A checkbox that says its state in text, ``[x]`` or ``[ ]``, not in colour alone; without a
    label of its own it reads ``on`` or ``off``."""

    def __init__(self, label: str = "", *, value: bool, id: str, compact: bool = True) -> None:
        self.says_state = not label
        super().__init__(label or ("on" if value else "off"), value=value, id=id, compact=compact)

    @property
    def _button(self) -> Content:
        return Content.styled("[x]" if self.value else "[ ]", self.get_visual_style("toggle--button"))

    def watch_value(self) -> None:
        super().watch_value()
        if self.says_state:
            self.label = "on" if self.value else "off"


def opponent_choices(initial: str) -> list[tuple[str, str]]:
    """The builder's computer players: the six levels, gentlest first, and the command line's
    player when it is another spec (it must stay a choice)."""
    choices = [(level.name, level.name) for level in LEVELS]
    if initial not in {level.name for level in LEVELS}:
        choices.append((f"{initial} (as given)", initial))
    return choices


def opponent_about(spec: str) -> str:
    """What a computer player of the builder plays like: a level's description."""
    for level in LEVELS:
        if level.name == spec:
            return level.description
    return "a player spec from the command line (see docs/players.md)"


class SetupScreen(Screen[NewGame]):
    """The variant builder: every choice of a game, prefilled from the command line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("escape", "app.quit", "Quit"),
    ]

    def __init__(self, initial: NewGame) -> None:
        super().__init__()
        self.initial = initial

    def compose(self) -> ComposeResult:
        init = self.initial
        rules = init.rules
        yield Header()
        with VerticalScroll(id="setup"):
            yield Label("New game — choose the rules (every option works on top of any preset)")
            with Grid(id="setup-grid"):
                yield Label("preset")
                yield Select(
                    [(p, p) for p in PRESETS], value=rules.preset, allow_blank=False, id="preset", compact=True
                )
                yield Label("players")
                yield Select(
                    [(str(n), n) for n in (2, 3, 4)], value=rules.players, allow_blank=False, id="players", compact=True
                )
                yield Label("partnerships (4 players)")
                yield OnOff("you and seat 2 play together", value=rules.partnerships, id="partnerships")
                yield Label("opponents (levels)")
                yield Select(
                    opponent_choices(init.opponent),
                    value=init.opponent,
                    allow_blank=False,
                    id="opponent",
                    compact=True,
                )
                yield Label("")
                yield Static(opponent_about(init.opponent), id="opponent-about")
                yield Label("coach")
                yield OnOff("a note on each costly move, a review", value=init.coach, id="coach")
                yield Label("seed (empty: random)")
                yield Input(value="" if init.seed is None else str(init.seed), id="seed", compact=True)
                for option in OPTIONS:
                    name = option.name
                    value = getattr(rules, name)
                    yield Label(name)
                    if option.type == "bool":
                        yield OnOff(value=value, id=f"opt-{name}")
                    elif option.type == "choice":
                        yield Select(
                            [(c, c) for c in option.choices],
                            value=value,
                            allow_blank=False,
                            id=f"opt-{name}",
                            compact=True,
                        )
                    else:
                        yield Input(value=str(value), id=f"opt-{name}", compact=True)
        with Horizontal(id="setup-bar"):
            yield Button("Start (ctrl+s)", variant="primary", id="start", compact=True)
            yield Static("", id="setup-error")
        yield Footer()

    @on(Select.Changed, "#preset")
    def preset_changed(self, event: Select.Changed) -> None:
        """A new preset resets the options to its own values."""
        preset = PRESETS[str(event.value)]
        for name in OPTION_NAMES:
            widget = self.query_one(f"#opt-{name}")
            value = getattr(preset, name)
            if isinstance(widget, Checkbox):
                widget.value = bool(value)
            elif isinstance(widget, Select):
                widget.value = value
            elif isinstance(widget, Input):
                widget.value = str(value)

    @on(Select.Changed, "#opponent")
    def opponent_changed(self, event: Select.Changed) -> None:
        """Say what the chosen level plays like."""
        self.query_one("#opponent-about", Static).update(opponent_about(str(event.value)))

    def chosen(self) -> NewGame:
        """The game chosen: rules, opponent and seed from the builder; RulesError or ValueError if
        they are wrong."""
        options: dict[str, Any] = {}
        preset = str(self.query_one("#preset", Select).value)
        for name in OPTION_NAMES:
            widget = self.query_one(f"#opt-{name}")
            if isinstance(widget, (Checkbox, Select)):
                options[name] = widget.value
            elif isinstance(widget, Input):
                text = widget.value.strip()
                if not text.isdigit():
                    raise RulesError(f"{name} must be a whole number, got {text!r}")
                options[name] = int(text)
        players = int(str(self.query_one("#players", Select).value))
        partnerships = self.query_one("#partnerships", Checkbox).value
        rules = make_rules(preset, players=players, partnerships=partnerships, **options)
        seed_text = self.query_one("#seed", Input).value.strip()
        if seed_text and not seed_text.lstrip("-").isdigit():
            raise ValueError(f"the seed must be a whole number, got {seed_text!r}")
        return dataclasses.replace(
            self.initial,
            rules=rules,
            opponent=str(self.query_one("#opponent", Select).value),
            seed=int(seed_text) if seed_text else None,
            coach=self.query_one("#coach", Checkbox).value,
        )

    def action_start(self) -> None:
        """Start with the chosen rules, or say what is wrong with them."""
        try:
            choice = self.chosen()
        except (RulesError, ValueError) as exc:
            self.query_one("#setup-error", Static).update(Text(f"Cannot start: {exc}", style="bold red"))
            return
        self.dismiss(choice)

    @on(Button.Pressed, "#start")
    def start_pressed(self) -> None:
        """The Start button."""
        self.action_start()


class HandOverScreen(ModalScreen[None]):
    """The score breakdown of a finished hand, per side."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space,escape", "close", "Continue", priority=True)]

    def __init__(self, session: Session, done: HandEnded, me: int) -> None:
        super().__init__()
        self.session = session
        self.done = done
        self.me = me

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(f"Hand {self.done.number} is over — press Enter to continue")
            table: DataTable[str] = DataTable(id="breakdown")
            yield table
            yield Label(checksum_line(self.done))

    def on_mount(self) -> None:
        result = self.done.result
        table = self.query_one(DataTable)
        sides = range(self.session.rules.sides)
        table.add_columns("", *(side_title(self.session, s, self.me) for s in sides))
        rows = [result.breakdown(s) for s in sides]
        for category in result.categories:
            table.add_row(category, *(str(r[category]) for r in rows))
        table.add_row("cards taken", *(str(result.cards[s]) for s in sides))
        table.add_row("spades taken", *(str(result.spades[s]) for s in sides))
        table.add_row("hand total", *(str(result.points[s]) for s in sides))
        table.add_row("game score", *(str(self.done.scores[s]) for s in sides))

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class GameOverScreen(ModalScreen[None]):
    """The summary at the end of the game, and with the coach its review (weighed in a worker
    thread, scrolled with the arrows)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,q,escape", "close", "Quit", priority=True)]

    def __init__(self, session: Session, me: int, cards: CardText) -> None:
        super().__init__()
        self.session = session
        self.me = me
        self.cards = cards

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="wide"):
            for line in game_summary(self.session, self.me):
                yield Static(line, classes="line")
            if self.session.coach.weighs:
                with VerticalScroll(id="review"):
                    yield Static("The coach is weighing your game for the review...", classes="line", id="review-wait")
            yield Static(
                "Press Enter to leave" + (" (arrows scroll the review)." if self.session.coach.weighs else ".")
            )

    def on_mount(self) -> None:
        if self.session.coach.weighs:
            self.query_one("#review", VerticalScroll).focus()
            self.run_worker(self.session.coach.review, name="review", thread=True, exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The review is ready: show it in place of the wait (or say it could not be made: a
        failure of the coach never takes the game's screen away)."""
        if event.state == WorkerState.ERROR:
            self.query_one("#review-wait", Static).update("The review could not be made this time.")
            return
        review = event.worker.result
        if event.state != WorkerState.SUCCESS or review is None:
            return
        self.query_one("#review-wait", Static).remove()
        lines = review_lines(review, self.session, self.me, self.cards)
        self.query_one("#review", VerticalScroll).mount_all(Static(line, classes="line review") for line in lines)

    def action_close(self) -> None:
        """Leave the game."""
        self.dismiss(None)


class TextScreen(ModalScreen[None]):
    """A page of lines over the table (the help, the log, the lessons), closed by Esc, Enter or its
    own key; it opens at its end (the latest moves of the log) unless ``at_end`` is False."""

    def __init__(self, title: str, lines: list[str], key: str, key_label: str, at_end: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.key = key
        self.key_label = key_label
        self.at_end = at_end

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="wide"):
            yield Label(self.title_text, classes="title")
            with VerticalScroll(id="page"):
                for line in self.lines:
                    yield Static(line, classes="line")
            yield Label(f"Esc, Enter or {self.key_label}: back to the table")

    def on_mount(self) -> None:
        page = self.query_one("#page", VerticalScroll)
        if self.at_end:
            page.scroll_end(animate=False)
        page.focus()

    def on_key(self, event: events.Key) -> None:
        """Any of the closing keys goes back to the table."""
        if event.key in ("escape", "enter", self.key):
            event.stop()
            self.dismiss(None)


class LessonScreen(TextScreen):
    """A lesson as its idea comes up in the tutorial: a box at the foot of the screen, so the table
    it speaks of stays in view above it."""

    def __init__(self, note: LessonNote, cards: CardText) -> None:
        title, *lines = lesson_lines(note, cards)
        super().__init__(title, lines, "space", "Space", at_end=False)


class ConfirmQuit(ModalScreen[bool]):
    """Are you sure? ``y`` leaves, ``n`` or Esc plays on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes, leave", priority=True),
        Binding("n,escape", "answer(False)", "No, play on", priority=True),
    ]

    def __init__(self, saved: bool) -> None:
        super().__init__()
        self.saved = saved

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Leave the game?" + (" The record so far is saved." if self.saved else ""))
            with Horizontal(id="answers"):
                yield Button("Yes, leave (y)", variant="error", id="yes", compact=True)
                yield Button("No, play on (n)", variant="primary", id="no", compact=True)

    def action_answer(self, leave: bool) -> None:
        """Answer the question."""
        self.dismiss(leave)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        """A click on yes or no."""
        self.dismiss(event.button.id == "yes")


class GameScreen(Screen[None]):
    """The table, your hand and the moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick(0)", "Card 1", show=False),
        Binding("2", "pick(1)", "Card 2", show=False),
        Binding("3", "pick(2)", "Card 3", show=False),
        Binding("4", "pick(3)", "Card 4", show=False),
        Binding("u", "undo", "Undo"),
        Binding("l", "log", "Log"),
        Binding("h", "hint", "Hint"),
        Binding("w", "why_not", "Why not", show=False),
        Binding("t", "trackers", "Trackers"),
        Binding("n", "unseen", "Unseen", show=False),
        Binding("r", "lessons", "Lessons"),
        Binding("colon", "type_move", "Type", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: Session, me: int, bot_delay: float, cards: CardText) -> None:
        super().__init__()
        self.session = session
        self.me = me
        self.bot_delay = bot_delay
        self.cards = cards
        self.picked: int | None = None
        self.show_trackers = False
        self.shown_hands = 0
        self.waiting = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="game"):
            yield Static(id="status")
            yield Static(id="others")
            yield Static(id="table")
            with Horizontal(id="hand"):
                yield Label("Your hand", id="hand-label")
                for i in range(4):
                    yield Button("", id=f"card-{i}", compact=True)
            yield OptionList(id="moves")
            yield Input(placeholder="a move, e.g. take 5d 3h with 8c (Enter plays, Esc cancels)", id="typed")
            yield Static(id="message")
            yield Static(id="coach")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#typed", Input).display = False
        self.after_move()

    # ---------------------------------------------------------------- drawing
    def hand_cards(self) -> list[int]:
        """My cards in canonical order (the order of the number keys)."""
        return cards_of(self.session.state.hands[self.me])

    def refresh_view(self) -> None:
        """Redraw everything from the session."""
        s = self.session
        state = s.state
        rules = s.rules
        status = Text()
        status.append(f"{rules.describe()} — hand {len(s.game.hands)}, ")
        status.append(f"deal {state.deal_number()} of {rules.deals_per_hand}")
        if state.last_deal and not state.hand_over:
            status.append(" (LAST DEAL)", style="bold yellow")
        status.append(f"\n{scores_line(s, self.me)}")
        if not s.over:
            whose_turn = "YOUR TURN" if s.to_move == self.me else f"{seat_title(s, s.to_move, self.me)} to move"
            status.append(f" — {whose_turn}", style="bold green" if s.to_move == self.me else "")
        if self.show_trackers:
            for line in tracker_lines(s, self.me, self.cards):
                status.append(f"\n{line}")
        self.query_one("#status", Static).update(status)

        others = Text()
        last = last_moves(s, self.me, self.cards)
        for seat in range(rules.players):
            if seat == self.me:
                continue
            held = plural(state.hands[seat].bit_count(), "card")
            others.append(f"{seat_long_title(s, seat, self.me)}: {held}, ")
            others.append(f"last: {last.get(seat, '-')}\n")
        others.rstrip()
        self.query_one("#others", Static).update(others)

        table = Text("Table  ", style="bold")
        loose = cards_text(state.loose, self.cards) if state.loose else Text("(no loose cards)", style="dim")
        table.append_text(loose)
        if not state.builds:
            table.append("\nno builds", style="dim")
        for build in state.builds:
            head = build_head(build, lambda owner: whose(s, owner, self.me))
            table.append(f"\n{head[0].upper()}{head[1:]}: ", style="bold cyan")
            table.append_text(cards_text(build.cards, self.cards))
        self.query_one("#table", Static).update(table)

        cards = self.hand_cards()
        for i in range(4):
            button = self.query_one(f"#card-{i}", Button)
            if i < len(cards):
                button.label = Text.assemble(f"{i + 1}: ", card_text(cards[i], self.cards))
                button.display = True
                button.variant = "primary" if self.picked == cards[i] else "default"
            else:
                button.display = False

    def say(self, text: str, style: str = "") -> None:
        """A line in the message area."""
        self.query_one("#message", Static).update(Text(text, style=style))

    # ---------------------------------------------------------------- computer players and hand ends
    def schedule_bots(self) -> None:
        """Let computer players move one at a time, with a short pause so you can follow."""
        if self.waiting or self.session.over or self.session.human_to_move():
            return
        self.waiting = True
        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, self.bot_step)
        else:
            self.call_later(self.bot_step)

    def bot_step(self) -> None:
        """One computer move, then whatever comes next."""
        self.waiting = False
        before = self.session.view(self.me)
        step = self.session.step_bot()
        if step is not None:
            self.say(log_line(self.session, step[0], step[1], self.me, self.cards, before))
        self.after_move()

    def after_move(self) -> None:
        """Show finished hands, a lesson that is due and the end of the game; otherwise continue play."""
        self.picked = None
        self.clear_choices()
        self.refresh_view()
        session = self.session
        if self.shown_hands < len(session.finished):
            done = session.finished[self.shown_hands]
            self.shown_hands += 1
            self.app.push_screen(HandOverScreen(session, done, self.me), lambda _: self.after_move())
            return
        lesson = session.count_lesson() or session.turn_lesson()
        if lesson is not None:
            self.app.push_screen(LessonScreen(lesson, self.cards), lambda _: self.after_move())
            return
        if session.over:
            self.app.push_screen(
                GameOverScreen(session, self.me, self.cards), lambda _: self.app.exit(session.game.winner)
            )
            return
        self.schedule_bots()

    # ---------------------------------------------------------------- your moves
    def play(self, code: int) -> None:
        """Play a move of yours, or say why it is refused."""
        before = self.session.view(self.me)
        try:
            self.session.play(code)
        except IllegalMoveError as exc:
            self.say(f"Not allowed: {exc.reason}", "bold red")
            return
        self.say(log_line(self.session, self.me, code, self.me, self.cards, before))
        if self.session.coach.weighs:
            self.coach_says(Text("Coach: weighing your move...", style="dim"))
            self.run_worker(self.session.coach.weigh, name="weigh", thread=True, exit_on_error=False)
        self.after_move()

    def coach_says(self, text: Text) -> None:
        """The coach's line under the table."""
        self.query_one("#coach", Static).update(text)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker thread's answer: the coach's notes on your moves, or a hint for the position
        it was asked in (dropped when play has gone on since). A failed worker is reported in a
        line, never as a traceback."""
        if event.state == WorkerState.ERROR:
            what = "weigh your move" if event.worker.name == "weigh" else "find a hint"
            self.coach_says(Text(f"Coach: could not {what} this time.", style="dim"))
            return
        if event.state != WorkerState.SUCCESS:
            return
        if event.worker.name == "weigh":
            notes = cast(list[CoachNote], event.worker.result)
            if notes:
                self.coach_says(Text(f"Coach: {note_text(notes[-1], self.cards)}", style="bold yellow"))
            else:
                self.coach_says(Text("Coach: no move was clearly better than yours.", style="dim"))
        elif event.worker.name == "hint":
            view, hint = cast(tuple[View, tuple[MoveCode, Message]], event.worker.result)
            if self.session.human_to_move() and self.session.view(self.me) == view:
                self.say(f"Hint: {hint_line(self.session, self.me, self.cards, view, hint)}", "italic")

    def clear_choices(self) -> None:
        """Empty and hide the list of moves."""
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.display = False

    def action_pick(self, index: int) -> None:
        """Pick a card of your hand: play its only move, or list its moves to choose from."""
        if not self.session.human_to_move():
            self.say("Wait: it is not your turn.")
            return
        cards = self.hand_cards()
        if index >= len(cards):
            self.say(f"You have no card {index + 1}.")
            return
        card = cards[index]
        codes = [m.code for m in self.session.state.legal_moves() if code_card(m.code) == card]
        self.picked = card
        self.refresh_view()
        self.clear_choices()
        moves = self.query_one("#moves", OptionList)
        name = self.cards.card(card)
        why = why_not(self.session.view(self.me))
        if not codes:
            self.say(f"{name} cannot be played: {why.cards[card].text}", "bold red")
            return
        if len(codes) == 1:
            self.play(codes[0])
            return
        state = self.session.state
        moves.add_options([Option(move_words(self.session, self.me, self.cards, c, state), id=str(c)) for c in codes])
        moves.display = True
        moves.highlighted = 0
        moves.focus()
        unused = len(why.table.get(card, {}))
        also = f"; w: why it cannot use {plural(unused, 'table item')}" if unused else ""
        self.say(f"{name}: choose what it does (arrows and Enter, or a click; Esc to cancel{also})")

    def action_why_not(self) -> None:
        """Why the picked card cannot be played or cannot use some table items, or every card's
        reasons when none is picked: the page's reasons (``explain.why_not``) on a page of lines."""
        if not self.session.human_to_move():
            self.say("Wait: it is not your turn.")
            return
        lines = why_not_lines(why_not(self.session.view(self.me)), self.cards, self.picked)
        if self.picked is None:
            title = "Why not: your cards"
            lines = lines or ["Nothing is refused: each card has moves that use every table item."]
        else:
            name = self.cards.card(self.picked)
            title = f"Why not: {name}"
            lines = lines or [f"Some move of {name} uses each table item."]
        self.app.push_screen(TextScreen(title, lines, "w", "w", at_end=False))

    @on(OptionList.OptionSelected, "#moves")
    def move_chosen(self, event: OptionList.OptionSelected) -> None:
        """A move from the list."""
        if event.option.id is not None:
            self.play(int(event.option.id))

    @on(Button.Pressed)
    def card_clicked(self, event: Button.Pressed) -> None:
        """A click on a card of the hand."""
        if event.button.id and event.button.id.startswith("card-"):
            self.action_pick(int(event.button.id.split("-")[1]))

    def action_type_move(self) -> None:
        """Open the box to type a move."""
        box = self.query_one("#typed", Input)
        box.display = True
        box.value = ""
        box.focus()

    @on(Input.Submitted, "#typed")
    def typed_move(self, event: Input.Submitted) -> None:
        """A typed move, read as the engine reads one (``Move.parse_words``: the sentences the game
        writes, notation, a card or a rank with one move): played if legal, else the reason."""
        text = event.value.strip()
        if not text:
            return
        session, me = self.session, self.me
        if not session.human_to_move():
            self.say("Wait: it is not your turn.")
            return
        try:
            names = lambda seat: seat_title(session, seat, me)  # noqa: E731
            code = Move.parse_words(text, session.state, seat=me, names=names, ascii=self.cards.ascii).code
        except IllegalMoveError as exc:
            self.say(f"Not allowed: {exc.reason}", "bold red")
            return
        except MoveError as exc:
            self.say(f"Not a move: {exc}", "bold red")
            return
        self.play(code)
        if not self.session.human_to_move() or self.session.over:
            event.input.display = False

    def action_cancel(self) -> None:
        """Forget the picked card and close the typing box."""
        self.picked = None
        self.clear_choices()
        self.query_one("#typed", Input).display = False
        self.refresh_view()

    def action_undo(self) -> None:
        """Take back your last move and the computer moves after it, or say why not."""
        try:
            taken = self.session.undo(self.me)
        except UndoError as exc:
            self.say(f"Cannot undo: {exc}", "bold red")
            return
        self.action_cancel()
        others = plural(len(taken) - 1, "computer move")
        said = move_words(self.session, self.me, self.cards, taken[0][1], self.session.state)
        self.say(f"Took back your move ({said}) and {others}.")

    def action_log(self) -> None:
        """Show every move of this hand."""
        lines = hand_log(self.session, self.me, self.cards) or ["(no move yet)"]
        title = f"Hand {len(self.session.game.hands)}: {plural(self.session.state.moves_played, 'move')}"
        self.app.push_screen(TextScreen(title, lines, "l", "l"))

    def action_help(self) -> None:
        """List every key."""
        lines = [f"{key:14} {meaning}" for key, meaning in KEYS]
        self.app.push_screen(TextScreen("Keys", lines, "question_mark", "?"))

    def action_hint(self) -> None:
        """Suggest a move, and say why; the coach searches in a worker thread meanwhile."""
        if not self.session.human_to_move():
            return
        self.say("Hint: thinking...", "italic")
        view = self.session.view(self.me)
        self.run_worker(lambda: (view, self.session.coach.hint(view)), name="hint", thread=True, exit_on_error=False)

    def action_lessons(self) -> None:
        """Every lesson of the tutorial, to read at any time."""
        lines = all_lesson_lines(all_lessons(self.session.rules))
        self.app.push_screen(TextScreen("The lessons", lines, "r", "r", at_end=False))

    def action_trackers(self) -> None:
        """Show or hide every side's tracker under the scores (kept up to date move by move)."""
        self.show_trackers = not self.show_trackers
        self.refresh_view()

    def action_unseen(self) -> None:
        """The cards you have not seen yet, by suit, on a page of lines."""
        title, *lines = unseen_lines(self.session, self.me, self.cards)
        self.app.push_screen(TextScreen(title, lines, "n", "n", at_end=False))

    def action_quit_game(self) -> None:
        """Ask, then leave; the record of the game so far is saved."""
        self.app.push_screen(ConfirmQuit(self.session.save_dir is not None), self.quit_answered)

    def quit_answered(self, leave: bool | None) -> None:
        """Leave on yes (saving the record so far); play on otherwise."""
        if not leave:
            self.say("Playing on.")
            return
        if self.session.save_dir is not None and self.session.saved_path is None:
            self.session.save()
        self.app.exit(-1)


class CassinoApp(App[int]):
    """The terminal game: setup, then play, then summary."""

    TITLE = "Casino"
    CSS = """
    #setup { height: 1fr; }
    #setup-grid { grid-size: 2; grid-columns: 26 1fr; grid-rows: auto; height: auto; }
    #setup-grid > Label { padding: 0 1; }
    #setup-bar { height: auto; padding: 0 1; }
    #setup-bar Button { margin-right: 2; }
    #setup-error { height: auto; width: 1fr; }
    #hand-label { padding: 0 1; }
    #game { padding: 0 1; overflow-y: auto; }
    #status { height: auto; }
    #others { height: auto; color: $text-muted; }
    #table { height: auto; min-height: 3; border: round $accent; padding: 0 1; }
    #hand { height: 1; margin: 0 0 1 0; }
    #hand Button { min-width: 8; margin-right: 2; }
    #moves { height: auto; max-height: 8; }
    #message { height: auto; min-height: 1; }
    #coach { height: auto; }
    #opponent-about { color: $text-muted; height: auto; }
    #dialog { width: auto; max-width: 78; height: auto; max-height: 22; padding: 0 1; border: thick $accent; background: $surface; }
    #dialog.wide { width: 76; }
    #dialog .line { width: 1fr; height: auto; }
    #dialog .title { text-style: bold; }
    #page { height: auto; max-height: 17; }
    #review { height: auto; max-height: 12; }
    #answers { height: auto; width: auto; margin-top: 1; }
    #answers Button { margin-right: 2; }
    HandOverScreen, GameOverScreen, TextScreen, ConfirmQuit { align: center middle; }
    LessonScreen { align: center bottom; }
    """

    def __init__(self, new_game: NewGame, setup: bool = True, bot_delay: float = 0.6, ascii: bool = False) -> None:
        super().__init__()
        self.new_game = new_game
        """The game the command line asked for: the variant builder starts from it."""
        self.setup = setup
        """False: start ``new_game`` at once, skipping the variant builder."""
        self.bot_delay = bot_delay
        self.cards = CardText(wants_ascii(sys.stdout, ascii))
        """How cards are written: suit symbols, or letters when asked or when the terminal cannot."""
        self.session: Session | None = None

    def on_mount(self) -> None:
        if self.setup and not self.new_game.tutorial:  # the guided game needs no choosing
            self.push_screen(SetupScreen(self.new_game), self.start)
        else:
            self.start(self.new_game)

    def start(self, choice: NewGame | None) -> None:
        """Begin the game chosen in the variant builder (seat 0 if the table lost the seat asked for)."""
        if choice is None:
            self.exit(-1)
            return
        if choice.seat >= choice.rules.players:
            choice = dataclasses.replace(choice, seat=0)
        self.session = choice.session()
        self.sub_title = f"seed {self.session.seed}"
        self.push_screen(GameScreen(self.session, choice.seat, self.bot_delay, self.cards))


def run_fullscreen(new_game: NewGame, setup: bool = True, ascii: bool = False) -> int:
    """Run the full-screen game; returns the winning side, or -1."""
    result = CassinoApp(new_game, setup, ascii=ascii).run()
    return -1 if result is None else result


__all__ = ["SUITS", "CassinoApp", "run_fullscreen"]
