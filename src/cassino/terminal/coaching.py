"""The coach of the person at the terminal: hints, notes on the person's moves and the review.

Its searches are slow (one per position) and the full screen runs them in worker threads, so they
run one at a time (a coach remembers its last position), and the table is read and changed only
under the session's lock, held briefly, so that a worker weighing moves never makes the person wait.
"""

from __future__ import annotations

import threading

from ..learn import CoachNote, Message, Review
from ..moves import MoveCode
from ..table import Table
from ..view import View


class SeatCoach:
    """The coach of ``seat`` at ``table``; ``lock`` is the one the table is changed under."""

    def __init__(self, table: Table, seat: int, lock: threading.Lock, weighs: bool) -> None:
        self.table, self.seat, self.lock = table, seat, lock
        self.weighs = weighs
        """The person's moves are weighed (a note after each, the review at the end)."""
        self._searching = threading.Lock()

    def hint(self, view: View | None = None) -> tuple[MoveCode, Message]:
        """The coach's move for the seat to move (or for ``view``, taken beforehand by a worker
        thread), and what makes it good."""
        view = self.table.view(self.table.state.to_move) if view is None else view
        learner = self.table.teaching.learner(self.seat)
        with self._searching:
            return learner.coach.hint(view, learner.guided)

    def weigh(self) -> list[CoachNote]:
        """Weigh the seat's moves not weighed yet and keep the assessments for the review; returns
        the notes on the costly ones that still stand (not taken back meanwhile)."""
        teaching = self.table.teaching
        with self._searching:
            with self.lock:
                todo = teaching.unassessed(self.seat)
            coach = teaching.learner(self.seat).coach
            found = [(view, code, coach.assess(view, code)) for _, view, code in todo]
            with self.lock:
                for view, code, assessment in found:
                    teaching.keep(self.seat, view, code, assessment)
                standing = {(v, c) for _, v, c in teaching.seat_moves(self.seat)} if found else set()
        notes = (teaching.note(self.seat, a) for v, c, a in found if (v, c) in standing)
        return [n for n in notes if n is not None]

    def review(self) -> Review | None:
        """The review of the seat's game, once every move is weighed; None when it is not coached."""
        if not self.weighs:
            return None
        self.weigh()
        with self.lock:
            return self.table.teaching.review(self.seat, self.table.teaching.assessed_moves(self.seat))
