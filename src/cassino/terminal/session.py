"""A game at the terminal: the person's seat and the computer players at one ``table.Table``, the
hint's and the coach's searches, and the record saved when the game ends. Both terminal front ends
(full screen and plain lines) drive this one object, and the table under it is the web's too, so
neither can disagree with the other or with the browser about the game or what it teaches.
"""

from __future__ import annotations

import datetime as _dt
import os
import threading
from collections.abc import Sequence
from pathlib import Path

from ..cards import Card
from ..errors import UndoError
from ..learn import LessonNote
from ..moves import MoveCode
from ..rules import Rules
from ..state import State
from ..table import Event, GameOver, HandEnded, Moved, NotNowError, Seat, Table
from ..view import View
from .coaching import SeatCoach
from .records import default_save_dir, fallback_dir, record_text, save_record


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
        decks: Sequence[Sequence[Card]] | None = None,
    ) -> None:
        """``decks``: the game's first decks, top card first (a hand set up to show something);
        the hands after them are shuffled from ``seed``."""
        self.seed = int.from_bytes(os.urandom(4), "big") if seed is None else seed
        self.humans, self.opponent, self.save_dir = tuple(humans), opponent, save_dir
        self.names = list(names or ("you" if s in humans else f"{opponent} {s}" for s in range(rules.players)))
        seats = [
            Seat.person(s, name, "terminal") if s in humans else Seat.computer(s, opponent, self.seed * 10 + s, name)
            for s, name in enumerate(self.names)
        ]
        self.table = Table(
            rules, seats, seed=self.seed, decks=decks, count_between_hands=False, coach_seed=lambda _: self.seed
        )
        self.rules, self.game = rules, self.table.game
        self.saved_path: Path | None = None
        self.save_problem: str | None = None
        """Why the record is not where it was asked to go (and where it went instead), if it is not."""
        self.started = _dt.datetime.now()
        self.lessons = lessons
        """Lessons are told as their ideas come up (the tutorial)."""
        self._lock = threading.Lock()
        """Held while the table changes: the coach's worker threads read it under this lock too."""
        self.coach = SeatCoach(self.table, self.humans[0], self._lock, weighs=coach)
        if lessons:
            self.table.teaching.guide(self.humans[0])

    # ------------------------------------------------------------------ what is happening
    @property
    def state(self) -> State:
        """The hand in play."""
        return self.table.state

    @property
    def over(self) -> bool:
        """True when the game has a winner."""
        return self.table.over

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return self.table.state.to_move

    @property
    def finished(self) -> list[HandEnded]:
        """Every counted hand, in order."""
        return self.table.finished

    def human_to_move(self) -> bool:
        """True when a person is to move."""
        return not self.over and self.to_move in self.humans

    def view(self, seat: int) -> View:
        """What ``seat`` may see now."""
        return self.table.view(seat)

    # ------------------------------------------------------------------ playing
    def play(self, code: MoveCode) -> None:
        """A person's move: checked (IllegalMoveError says why, and nothing changes)."""
        with self._lock:
            self._after(self.table.play(self.to_move, code))

    def step_bot(self) -> tuple[int, MoveCode] | None:
        """Let the computer player to move make its move; None when a person is to move."""
        with self._lock:
            events = self.table.step_bot()
        self._after(events)
        return next(((e.seat, e.code) for e in events if isinstance(e, Moved)), None)

    def _after(self, events: Sequence[Event]) -> None:
        """When the game ends: stop the computer players' programs, and save the record."""
        if any(isinstance(e, GameOver) for e in events):
            self.table.close_players()
            if self.save_dir is not None:
                self.save()

    def undo(self, seat: int) -> list[tuple[int, MoveCode]]:
        """Take back ``seat``'s last move and every computer move after it; returns them as (seat,
        code), oldest first. UndoError says why when it may not be done (nothing changes)."""
        with self._lock:
            try:
                return list(self.table.take_back(seat).moves)
            except NotNowError as exc:
                raise UndoError(str(exc)) from None

    # ------------------------------------------------------------------ teaching
    def turn_lesson(self) -> LessonNote | None:
        """In a guided game, the first lesson not told yet that the person's turn shows (one a turn)."""
        return self.table.teaching.tell_turn_lesson(self.humans[0]) if self.lessons else None

    def count_lesson(self) -> LessonNote | None:
        """In a guided game, the count's lesson once the first hand is over (told once)."""
        return self.table.teaching.tell_count_lesson(self.humans[0]) if self.lessons else None

    # ------------------------------------------------------------------ the record
    def record_text(self) -> str:
        """The game's record so far."""
        return record_text(self.game, self.names, self.started)

    def save(self) -> Path | None:
        """Write the record into the save folder and return its path. Should the folder refuse it
        (removed, or full, since the game began: the command line checked it before), the record
        goes to the temporary folder instead, and ``save_problem`` says so; should that fail too,
        None (``save_problem`` says why; the front end shows the record's text instead)."""
        text = self.record_text()
        folder = self.save_dir or default_save_dir()
        try:
            self.saved_path = save_record(text, folder, self.started, self.seed, self.saved_path)
            self.save_problem = None
            return self.saved_path
        except OSError as exc:
            why = f"the record could not be saved in {folder} ({exc.strerror or exc})"
        try:
            self.saved_path = save_record(text, fallback_dir(), self.started, self.seed, None)
        except OSError as exc:
            self.saved_path = None
            self.save_problem = f"{why}, nor in {fallback_dir()} ({exc.strerror or exc})"
            return None
        self.save_problem = f"{why}: it is in {self.saved_path} instead"
        return self.saved_path
