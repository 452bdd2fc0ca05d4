"""``cassino play --plain``: a whole game in plain text lines, for simple terminals, screen readers
and scripts (it is chosen by itself when standard input or output is not a terminal).

Each turn prints the table (each build with value, kind and whose it is), the other seats, your
hand, the scores and deal, and the numbered legal moves in words; you answer with a number, a move
as the game writes it (or in notation), or a card or a rank that has one move. ``help`` lists every
command (hint, trackers, the cards not seen yet, undo, the hand's log, the lessons, quit).
With the coach (``--coach``, and in the ``--tutorial``) its note follows each costly move of yours
and a review of your game follows the final score; the tutorial tells each lesson the first time
its idea comes up. The game's record is saved at the end (and when you quit).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import Enum
from typing import TextIO

from ..cards import ascii_number
from ..errors import IllegalMoveError, UndoError
from ..explain import why_not
from ..learn import LessonNote, all_lessons
from ..moves import Move, MoveCode, MoveError
from .session import Session
from .table_text import (
    CardText,
    all_lesson_lines,
    describe_table,
    game_summary,
    hand_log,
    hand_summary,
    hint_line,
    last_moves,
    lesson_lines,
    log_line,
    move_words,
    note_text,
    opponent_line,
    plural,
    review_lines,
    save_lines,
    scores_line,
    seat_long_title,
    seat_title,
    tracker_lines,
    unseen_lines,
    wants_ascii,
    whose,
    why_not_lines,
)

COMMANDS = (
    ("NUMBER", "play the move of that number in the list"),
    ("MOVE", "play a move as the list writes it, e.g. take 5h 3c with 8s, or in notation, e.g. build 3c 3: 3h"),
    ("CARD", "a card alone, e.g. 7h (or a rank, e.g. K): its move if it has only one, else what it can do"),
    ("h, hint", "a suggested move, and why"),
    ("w, why", "why a card cannot be played, or cannot use a table item (for each card)"),
    ("t, trackers", "what each side has taken this hand: cards, spades, aces, casinos, sweeps"),
    ("n, unseen", "the cards you have not seen yet (the other hands and the stock), by suit"),
    ("u, undo", "take back your last move and the computer moves after it"),
    ("l, log", "every move of this hand so far"),
    ("s, scores", "the scores"),
    ("r, lessons", "every lesson of the tutorial, to read at any time"),
    ("?, help", "this list"),
    ("q, quit", "leave the game (it asks first; the record so far is saved)"),
)
"""Every answer the plain game understands, as the help lists it."""


class Turn(Enum):
    """What an answer that is not a move leads to."""

    AGAIN = "ask again"
    UNDONE = "moves were taken back: show the position again"
    QUIT = "the person leaves"


def run_plain(session: Session, out: TextIO | None = None, inp: TextIO | None = None, ascii: bool = False) -> int:
    """Play one game in line mode, the person in the session's first human seat; returns the
    winning side, or -1 when abandoned. Suits are letters when ``ascii`` or when ``out`` cannot
    show the symbols."""
    out = out or sys.stdout
    return PlainGame(session, out, inp or sys.stdin, CardText(wants_ascii(out, ascii))).run()


class PlainGame:
    """The line-mode game: the loop of turns and the person's answers."""

    def __init__(self, session: Session, out: TextIO, inp: TextIO, cards: CardText) -> None:
        self.session = session
        self.out = out
        self.inp = inp
        self.cards = cards
        self.me = session.humans[0]

    def say(self, text: str = "") -> None:
        """One line out, at once (a person or a pipe is waiting for it)."""
        print(text, file=self.out, flush=True)

    def read(self, prompt: str) -> str | None:
        """One answer, stripped; None at the end of input (or Ctrl-C)."""
        print(prompt, end="", file=self.out, flush=True)
        try:
            line = self.inp.readline()
        except KeyboardInterrupt:  # Ctrl-C at a prompt leaves like the end of input: the game is kept
            self.say()
            return None
        return line.strip() if line else None

    def run(self) -> int:
        """The game to its end, or until the person leaves."""
        session = self.session
        self.say(f"Casino: {session.rules.describe()}. Seed {session.seed}. You are seat {self.me}.")
        self.say(opponent_line(session.opponent))
        if session.lessons:
            self.say("A guided first game: each lesson comes when its idea first comes up; r reads them all.")
        if session.coach.weighs:
            self.say("The coach weighs each of your moves and says when another was clearly better.")
        self.say("Answer with a move number or a move; ? lists every command.")
        shown_hands = 0
        hand_number = 0
        while not session.over:
            if len(session.game.hands) != hand_number:
                hand_number = len(session.game.hands)
                dealer = seat_long_title(session, session.state.dealer, self.me)
                self.say(f"\n=== Hand {hand_number}, dealer {dealer}; {scores_line(session, self.me)} ===")
            if not session.human_to_move():
                before = session.view(self.me)
                step = session.step_bot()
                if step is not None:  # None: the computer player forfeited, and the game is over
                    self.say(log_line(session, step[0], step[1], self.me, self.cards, before))
            else:
                code = self._ask()
                if code is Turn.QUIT:
                    self._abandon()
                    return -1
                if not isinstance(code, Turn):
                    before = session.view(self.me)
                    session.play(code)
                    self.say(log_line(session, self.me, code, self.me, self.cards, before))
                    for note in session.coach.weigh() if session.coach.weighs else ():
                        self.say(f"coach: {note_text(note, self.cards)}")
            while shown_hands < len(session.finished):
                for line in hand_summary(session, session.finished[shown_hands], self.me):
                    self.say(line)
                shown_hands += 1
                self._tell(session.count_lesson())
        for line in game_summary(session, self.me):
            self.say(line)
        review = session.coach.review()
        if review is not None:
            self.say()
            for line in review_lines(review, session, self.me, self.cards):
                self.say(line)
        return session.game.winner

    def _tell(self, note: LessonNote | None) -> None:
        """A lesson, set off from the game's lines: its title, text and example."""
        if note is not None:
            title, *rest = lesson_lines(note, self.cards)
            self.say(f"\n*** {title} ***")
            for line in rest:
                self.say(f"  {line}")

    def _abandon(self) -> None:
        if self.session.save_dir is None:
            self.say("Game abandoned.")
            return
        saved = self.session.save()
        if saved is not None and self.session.save_problem is None:
            self.say(f"Game abandoned; record saved to {saved}.")
            return
        self.say("Game abandoned.")
        for line in save_lines(self.session):
            self.say(line)

    def _show_turn(self) -> list[MoveCode]:
        """The position for the person to move, with the numbered legal moves (returned)."""
        session, me, cards = self.session, self.me, self.cards
        state = session.state
        last = " (last deal)" if state.last_deal else ""
        self.say(f"\nDeal {state.deal_number()} of {session.rules.deals_per_hand}{last}. Table:")
        for line in describe_table(state, cards, lambda owner: whose(session, owner, me)):
            self.say(line)
        played = last_moves(session, me, cards)
        for seat in range(session.rules.players):
            if seat != me:
                last_move = played.get(seat, "-")
                held = plural(state.hands[seat].bit_count(), "card")
                self.say(f"  {seat_long_title(session, seat, me)}: {held}; last move: {last_move}")
        self.say(f"Scores: {scores_line(session, me)}. Your hand: {cards.cards(state.hands[me])}")
        codes = [m.code for m in state.legal_moves()]
        for i, code in enumerate(codes, 1):
            self.say(f"  {i:2d}. {move_words(session, me, cards, code, state)}")
        return codes

    def _ask(self) -> MoveCode | Turn:
        """Read a legal move, or the end of the turn without one (quit, or an undo)."""
        codes = self._show_turn()
        self._tell(self.session.turn_lesson())
        commands = self._commands()
        while True:
            text = self.read("> ")
            if text is None:
                return Turn.QUIT
            command = commands.get(text.lower())
            turn = command() if command is not None else self._move_of(text, codes)
            if turn is not Turn.AGAIN:
                return turn

    def _commands(self) -> dict[str, Callable[[], Turn]]:
        """The named answers, by every name they go by."""
        table: dict[str, Callable[[], Turn]] = {}
        for names, action in (
            (("h", "hint"), self._hint),
            (("w", "why"), self._why),
            (("t", "trackers"), self._trackers),
            (("n", "unseen"), self._unseen),
            (("u", "undo"), self._undo),
            (("l", "log"), self._log),
            (("s", "scores"), self._scores),
            (("r", "lessons"), self._lessons),
            (("?", "help"), self._help),
            (("q", "quit"), self._quit),
        ):
            for name in names:
                table[name] = action
        return table

    def _hint(self) -> Turn:
        view = self.session.view(self.me)
        self.say(f"hint: {hint_line(self.session, self.me, self.cards, view, self.session.coach.hint(view))}")
        return Turn.AGAIN

    def _why(self) -> Turn:
        """The reasons the page shows on this turn, for every card of the hand."""
        lines = why_not_lines(why_not(self.session.view(self.me)), self.cards)
        self.say("Why not:" if lines else "Nothing is refused: each card has moves that use every table item.")
        for line in lines:
            self.say(f"  {line}")
        return Turn.AGAIN

    def _lessons(self) -> Turn:
        self.say("The lessons:")
        for line in all_lesson_lines(all_lessons(self.session.rules)):
            self.say(f"  {line}")
        return Turn.AGAIN

    def _trackers(self) -> Turn:
        self.say("Taken this hand:")
        for line in tracker_lines(self.session, self.me, self.cards):
            self.say(f"  {line}")
        return Turn.AGAIN

    def _unseen(self) -> Turn:
        head, *suits = unseen_lines(self.session, self.me, self.cards)
        self.say(head)
        for line in suits:
            self.say(f"  {line}")
        return Turn.AGAIN

    def _undo(self) -> Turn:
        try:
            taken = self.session.undo(self.me)
        except UndoError as exc:
            self.say(f"cannot undo: {exc}")
            return Turn.AGAIN
        others = plural(len(taken) - 1, "computer move")
        said = move_words(self.session, self.me, self.cards, taken[0][1], self.session.state)
        self.say(f"Took back your move ({said}) and {others}.")
        return Turn.UNDONE

    def _log(self) -> Turn:
        lines = hand_log(self.session, self.me, self.cards)
        self.say(f"Hand {len(self.session.game.hands)}, {plural(len(lines), 'move')} so far:")
        for line in lines:
            self.say(f"  {line}")
        return Turn.AGAIN

    def _scores(self) -> Turn:
        self.say(f"Scores: {scores_line(self.session, self.me)}")
        return Turn.AGAIN

    def _help(self) -> Turn:
        self.say("Commands:")
        for name, meaning in COMMANDS:
            self.say(f"  {name:12} {meaning}")
        return Turn.AGAIN

    def _quit(self) -> Turn:
        answer = self.read("Leave the game? (y/n) ")
        if answer is None or answer.lower() in ("y", "yes"):
            return Turn.QUIT
        self.say("Playing on.")
        return Turn.AGAIN

    def _move_of(self, text: str, codes: list[MoveCode]) -> MoveCode | Turn:
        """The move an answer names, or ``Turn.AGAIN`` after saying why it is not one: a number
        picks from the list (so a rank alone is typed as a letter or with its suit); anything else
        is read as the engine reads a typed move (``Move.parse_words``: the list's sentences,
        notation, a card or a rank with one move)."""
        number = ascii_number(text)
        if number is not None:
            if not 1 <= number <= len(codes):
                self.say(f"not possible: there is no move number {text}; choose 1 to {len(codes)}")
                return Turn.AGAIN
            return codes[number - 1]
        session, me = self.session, self.me
        try:
            return Move.parse_words(
                text,
                session.state,
                seat=me,
                names=lambda seat: seat_title(session, seat, me),
                ascii=self.cards.ascii,
            ).code
        except (MoveError, IllegalMoveError) as exc:
            self.say(f"not possible: {exc}")
            return Turn.AGAIN
