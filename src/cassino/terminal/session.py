"""A game at the table: people and computer players in their seats, the hand's moves, undo, hints,
trackers, the teaching (lessons, the coach's notes, the review) and the record saved when the game
ends. Both terminal front ends (full screen and plain lines) drive this one object, so they cannot
disagree about the game or what it teaches.
"""

from __future__ import annotations

import datetime as _dt
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..cards import SPADES_MASK, CardMask
from ..errors import UndoError
from ..game import Game, last_move_index, undo_refusal
from ..learn import (
    TUTORIAL_OPPONENT,
    TUTORIAL_RULES,
    Assessment,
    Coach,
    CoachNote,
    LessonNote,
    Message,
    Review,
    count_lesson,
    due_lessons,
    review,
)
from ..moves import MoveCode
from ..players import Player, make_player
from ..players.base import decide
from ..record import record_of_game, write_record
from ..rules import Rules
from ..scoring import HandScore
from ..state import State
from ..view import View, view_of


def default_save_dir() -> Path:
    """Where games are saved: ``$CASSINO_HOME/games``, else ``~/.local/share/cassino/games``."""
    home = os.environ.get("CASSINO_HOME")
    base = Path(home) if home else Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "cassino"
    return base / "games"


def side_name(rules: Rules, names: Sequence[str], side: int) -> str:
    """A side's name from its seats' names: the seat's, or both partners' in partnerships."""
    if rules.partnerships:
        return f"{names[side]} & {names[side + 2]}"
    return names[side]


DEFAULT_OPPONENT = "casual"
"""The computer player of a game nobody chose one for: the middle of the ladder of levels."""


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A hand that just ended: its number, dealer, score and the scores after it."""

    number: int
    dealer: int
    result: HandScore
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to start at the terminal, as plain values: the command line fills it in (the terminal
    never reads its arguments) and the full screen's variant builder may change it."""

    rules: Rules
    seat: int = 0
    """The person's seat."""
    opponent: str = DEFAULT_OPPONENT
    """The computer player of every other seat."""
    seed: int | None = None
    """The shuffle seed (random when None)."""
    save_dir: Path | None = None
    """Where the record is saved at the end; None: it is not saved."""
    coach: bool = False
    """The coach's note after each of the person's moves, and the review at the end."""
    tutorial: bool = False
    """A guided first game: each lesson told as its idea first comes up (no variant builder)."""

    @classmethod
    def guided(
        cls, rules: Rules = TUTORIAL_RULES, seat: int = 0, seed: int | None = None, save_dir: Path | None = None
    ) -> NewGame:
        """The tutorial: the library's first game (its rules, its gentle opponent), lessons and coach on."""
        return cls(rules, seat, TUTORIAL_OPPONENT, seed, save_dir, coach=True, tutorial=True)

    def session(self) -> Session:
        """The session of this game; ValueError names an unknown opponent."""
        return Session(
            self.rules,
            seed=self.seed,
            humans=(self.seat,),
            opponent=self.opponent,
            save_dir=self.save_dir,
            coach=self.coach,
            lessons=self.tutorial,
        )


@dataclass(frozen=True, slots=True)
class _Played:
    """A move of the person's, kept to be weighed by the coach: where it stands in the game
    (hand number, ply) and the view it was chosen from."""

    hand: int
    ply: int
    code: MoveCode
    view: View


class Session:
    """One game with seats for people (``humans``) and computer players (``opponent`` by name)."""

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        humans: Sequence[int] = (0,),
        opponent: str = "random",
        names: Sequence[str] | None = None,
        save_dir: Path | None = None,
        coach: bool = False,
        lessons: bool = False,
    ) -> None:
        self.rules = rules
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big")
        self.seed = seed
        self.humans = tuple(humans)
        self.bots: dict[int, Player] = {
            s: make_player(opponent, seed * 10 + s) for s in range(rules.players) if s not in self.humans
        }
        self.names = (
            list(names) if names else ["you" if s in self.humans else f"{opponent} {s}" for s in range(rules.players)]
        )
        self.opponent = opponent
        self.game = Game(rules, seed=seed)
        self.save_dir = save_dir
        self.saved_path: Path | None = None
        self.deal_ply = 0
        """Moves of the hand in play before its cards now in play were dealt or drawn: none of them
        may be taken back, since the cards dealt after them have been seen."""
        self.finished: list[FinishedHand] = []
        self.started = _dt.datetime.now()
        self.coaching = coach
        """The person's moves are weighed (a note after each, the review at the end)."""
        self.lessons = lessons
        """Lessons are told as their ideas come up (the tutorial)."""
        self.seen: set[str] = set()
        """The lessons already told."""
        self._lesson_turn: tuple[int, int] | None = None
        self._coach = Coach(seed)
        # The coach is slow (a search per position) and used by one thread at a time; the game and
        # the moves to weigh are changed only under the other lock, held briefly, so a worker
        # weighing moves never makes the table wait long.
        self._coach_lock = threading.Lock()
        self._lock = threading.Lock()
        self._unweighed: list[_Played] = []
        self._weighed: dict[tuple[int, int], Assessment] = {}

    # ------------------------------------------------------------------ what is happening
    @property
    def state(self) -> State:
        """The hand in play."""
        return self.game.state

    @property
    def over(self) -> bool:
        """True when the game has a winner."""
        return self.game.over

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return self.game.state.to_move

    def human_to_move(self) -> bool:
        """True when a person is to move."""
        return not self.over and self.to_move in self.humans

    def view(self, seat: int) -> View:
        """What ``seat`` may see now."""
        return view_of(self.game.state, seat)

    def side_name(self, side: int) -> str:
        """A side's name: its seat's, or both partners' in partnerships."""
        return side_name(self.rules, self.names, side)

    def hand_moves(self) -> tuple[tuple[int, MoveCode], ...]:
        """Every move of the hand in play as (seat, code), oldest first."""
        return self.game.state.seat_moves()

    @property
    def last_moves(self) -> dict[int, MoveCode]:
        """Each seat's last move in the hand in play (derived, so an undo can never leave it stale)."""
        return dict(self.hand_moves())

    # ------------------------------------------------------------------ playing
    def _move(self, code: MoveCode) -> None:
        """Make a move and keep what follows from it: where the cards in play were dealt, the
        finished hand, the record at the end."""
        hand_before = len(self.game.hands)
        stock_before = len(self.game.state.remaining_stock)
        with self._lock:
            self.game.play(code)
        state = self.game.state
        if len(self.game.hands) != hand_before:
            self.deal_ply = 0
        elif len(state.remaining_stock) != stock_before:
            self.deal_ply = state.moves_played
        if len(self.game.hands) != hand_before or state.hand_over:
            finished = self.game.hands[hand_before - 1]
            assert finished.result is not None
            self.finished.append(FinishedHand(hand_before, finished.dealer, finished.result, finished.scores))
        if self.over and self.save_dir is not None and self.saved_path is None:
            self.save()

    def play(self, code: MoveCode) -> None:
        """A person's move: checked (IllegalMoveError says why, and nothing changes). When coaching,
        it is kept with its view to be weighed (``weigh``)."""
        seat = self.to_move
        played = None
        if self.coaching and seat == self.humans[0]:
            played = _Played(len(self.game.hands), self.state.moves_played, code, self.view(seat))
        self._move(code)
        if played is not None:
            with self._lock:
                self._unweighed.append(played)

    def step_bot(self) -> tuple[int, MoveCode] | None:
        """Let the computer player to move make its move; None when a person is to move."""
        if self.over or self.to_move in self.humans:
            return None
        seat = self.to_move
        code = decide(self.bots[seat], self.game.state)
        self._move(code)
        return seat, code

    # ------------------------------------------------------------------ taking back
    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last move now, or None when it may: the rule every
        app keeps (``game.undo_refusal``)."""
        return undo_refusal(self.game.state, seat, self.humans, self.deal_ply, over=self.over)

    def _last_move_index(self, seat: int) -> int:
        last = last_move_index(self.game.state, seat)
        assert last is not None  # undo_refusal said it moved
        return last

    def undo(self, seat: int) -> list[tuple[int, MoveCode]]:
        """Take back ``seat``'s last move and every computer move after it; returns them as (seat,
        code), oldest first. UndoError says why when it may not be done (nothing changes)."""
        refusal = self.undo_refusal(seat)
        if refusal is not None:
            raise UndoError(refusal)
        taken = list(self.hand_moves()[self._last_move_index(seat) :])
        with self._lock:
            for _ in taken:
                self.game.undo()
            # What the coach has weighed, or has still to weigh, of the moves taken back goes too.
            hand, ply = len(self.game.hands), self.state.moves_played
            self._unweighed = [p for p in self._unweighed if (p.hand, p.ply) < (hand, ply)]
            self._weighed = {k: a for k, a in self._weighed.items() if k < (hand, ply)}
        return taken

    # ------------------------------------------------------------------ teaching
    def hint(self, view: View | None = None) -> tuple[MoveCode, Message]:
        """The coach's move for the person to move (or for ``view``, taken beforehand by a worker
        thread), and what makes it good. Slow (a search): the full screen asks in a worker thread."""
        view = self.view(self.to_move) if view is None else view
        with self._coach_lock:
            return self._coach.hint(view)

    def weigh(self) -> list[CoachNote]:
        """Weigh the person's moves not weighed yet and keep the assessments for the review;
        returns the coach's notes on the costly ones that still stand (not taken back meanwhile).
        Slow (a search per move): the full screen calls it from a worker thread."""
        with self._coach_lock:
            with self._lock:
                todo, self._unweighed = self._unweighed, []
            notes = []
            for played in todo:
                assessment = self._coach.assess(played.view, played.code)
                with self._lock:
                    if not self._stands(played):
                        continue
                    self._weighed[played.hand, played.ply] = assessment
                note = self._coach.note(assessment)
                if note is not None:
                    notes.append(note)
            return notes

    def _stands(self, played: _Played) -> bool:
        """True when a move is still in the game where it was played (undo may have taken it back)."""
        if played.hand > len(self.game.hands):
            return False
        history = self.game.hands[played.hand - 1].history()
        return played.ply < len(history) and history[played.ply] == played.code

    def review(self) -> Review | None:
        """The review of the person's game, once every move is weighed; None without coaching."""
        if not self.coaching:
            return None
        self.weigh()
        with self._lock:
            assessments = [self._weighed[k] for k in sorted(self._weighed)]
        counts = [result.count for result in self.game.hand_results]
        return review(assessments, counts, self.humans[0], self.rules)

    def turn_lesson(self) -> LessonNote | None:
        """In a guided game, the first lesson not told yet whose idea the person's position shows;
        at most one a turn (the others come back on later turns while their idea holds)."""
        if not self.lessons or not self.human_to_move():
            return None
        turn = (len(self.game.hands), self.state.moves_played)
        if turn == self._lesson_turn:
            return None
        self._lesson_turn = turn
        due = due_lessons(self.view(self.to_move), self.seen)
        if not due:
            return None
        self.seen.add(due[0].lesson.id)
        return due[0]

    def count_lesson(self) -> LessonNote | None:
        """In a guided game, the count's lesson once the first hand is over (told once)."""
        if not self.lessons or not self.finished or "count" in self.seen:
            return None
        self.seen.add("count")
        return count_lesson(self.rules, self.finished[0].result.count, self.humans[0])

    # ------------------------------------------------------------------ trackers
    def side_tracker(self, seat: int) -> tuple[int, int]:
        """Cards and spades captured so far this hand by ``seat``'s side."""
        side = self.rules.side_of(seat)
        pile: CardMask = 0
        for s, p in enumerate(self.game.state.captured):
            if self.rules.side_of(s) == side:
                pile |= p
        return pile.bit_count(), (pile & SPADES_MASK).bit_count()

    # ------------------------------------------------------------------ the record
    def record_text(self) -> str:
        """The game's record so far."""
        tags = {
            "Event": "Casual game",
            "Site": "cassino play",
            "Date": self.started.strftime("%Y.%m.%d"),
        }
        return write_record(record_of_game(self.game, tags, self.names))

    def save(self) -> Path:
        """Write the record into the save folder (created if need be) and return its path."""
        folder = self.save_dir or default_save_dir()
        folder.mkdir(parents=True, exist_ok=True)
        stamp = self.started.strftime("%Y%m%d-%H%M%S")
        path = folder / f"game-{stamp}-{self.seed}.txt"
        n = 2
        while path.exists() and self.saved_path != path:
            path = folder / f"game-{stamp}-{self.seed}-{n}.txt"
            n += 1
        path.write_text(self.record_text())
        self.saved_path = path
        return path
