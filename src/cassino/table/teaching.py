"""What a table teaches each learner: the lessons due at its turn, the coach's word on its own
moves and the review after the game, each from that seat's view alone.

A move is named by its *ply*: its number in the game. Its position is rebuilt from its hand's first
deal and the moves before it, and only the seat that made it hears about it, from what that seat saw
then. The searches themselves (``Coach.assess``, ``Coach.hint``) are the front end's to run where it
likes (a worker thread, a pool of processes); the table keeps what they found, by view and move, so
a move taken back and made again from another position is never judged by a stale assessment.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..game import Game
from ..learn import Assessment, Coach, CoachNote, LessonNote, Review, all_lessons, count_lesson, due_lessons, review
from ..moves import MoveCode
from ..rules import Rules
from ..state import State
from ..view import View, view_of
from .errors import BadCommandError, NoSuchMoveError

LESSON_IDS = tuple(lesson.id for lesson in all_lessons())
"""Every lesson's id, in teaching order (what a learner may say it has seen)."""


class Taught(Protocol):
    """What the teaching reads of its table (``live.Table``): the game and where play stands."""

    @property
    def game(self) -> Game: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def state(self) -> State: ...

    @property
    def phase(self) -> str: ...

    @property
    def hand_number(self) -> int: ...

    @property
    def ply(self) -> int: ...

    def view(self, seat: int) -> View: ...


@dataclass
class Learner:
    """One person's seat that asked to learn: its own coach (seeded, so the same view always gets
    the same values) and what it was told and found so far."""

    coach: Coach
    coached: bool = False
    """True once the seat asked for coaching: its moves are then assessed as they are made."""
    assessed: dict[tuple[View, MoveCode], Assessment] = field(default_factory=dict)
    """By position and move (never by ply alone: an undo replays other moves at the same ply)."""
    seen: set[str] = field(default_factory=set)
    """The lessons told at this table (a front end that keeps them itself passes its own)."""
    lesson_turn: tuple[int, int] | None = None
    """The turn (hand, move) of the last lesson told: at most one a turn."""
    guided: bool = False
    """True once the seat is taught by lessons (the tutorial): its coach then also flags what the
    lessons teach never to do (``learn.coach_note``), and its hints never name such a move."""


def checked_seen(seen: object) -> set[str]:
    """Lesson ids a learner says it has seen, checked: a list of known ids."""
    if seen is None:
        return set()
    if not isinstance(seen, list) or not all(isinstance(s, str) for s in seen):
        raise BadCommandError('seen must be a list of lesson ids, e.g. ["trailing", "pairing"]')
    unknown = sorted(set(seen) - set(LESSON_IDS))
    if unknown:
        raise BadCommandError(f"no lesson {unknown[0]!r}: the lessons are {', '.join(LESSON_IDS)}")
    return set(seen)


def _before(hand: State, index: int) -> State:
    """The position of a hand before its move ``index``, replayed from its first deal."""
    state = hand.root()
    for code in hand.move_stack[:index]:
        state.push(code)
    return state


class Teaching:
    """The learners of one table, by seat. ``coach_seed`` gives each seat's coach its seed."""

    def __init__(self, table: Taught, coach_seed: Callable[[int], int]) -> None:
        self.table = table
        self.coach_seed = coach_seed
        self.learners: dict[int, Learner] = {}

    def learner(self, seat: int) -> Learner:
        """The learner of a seat, made at its first request."""
        found = self.learners.get(seat)
        if found is None:
            found = self.learners[seat] = Learner(Coach(seed=self.coach_seed(seat)))
        return found

    def guide(self, seat: int) -> None:
        """``seat`` learns by lessons (the tutorial, or lessons asked for at the table): from now on
        its coach flags what the lessons teach never to do."""
        self.learner(seat).guided = True

    # ------------------------------------------------------------------ lessons
    def count_lesson(self, seat: int, seen: Collection[str]) -> LessonNote | None:
        """The count's lesson, once a hand has been counted and it is not ``seen``."""
        finished = self.table.game.hand_results
        if not finished or "count" in seen:
            return None
        return count_lesson(self.table.rules, finished[-1].count, seat)

    def turn_lessons(self, seat: int, seen: Collection[str]) -> list[LessonNote]:
        """The lessons not ``seen`` that the seat's position shows, at its turn in play."""
        table = self.table
        if table.phase != "play" or table.state.to_move != seat:
            return []
        return due_lessons(table.view(seat), seen)

    def lessons_due(self, seat: int, seen: Collection[str]) -> list[LessonNote]:
        """Every lesson due for ``seat`` now, in teaching order: the count's, then its turn's."""
        count = self.count_lesson(seat, seen)
        return ([count] if count is not None else []) + self.turn_lessons(seat, seen)

    def tell_count_lesson(self, seat: int) -> LessonNote | None:
        """The count's lesson for ``seat`` (a guided game) once a hand is over; told once."""
        learner = self.learner(seat)
        note = self.count_lesson(seat, learner.seen)
        if note is not None:
            learner.seen.add(note.lesson.id)
        return note

    def tell_turn_lesson(self, seat: int) -> LessonNote | None:
        """The first lesson not told yet that ``seat``'s turn shows (a guided game), at most one a
        turn: the others come back on later turns while their idea holds."""
        learner = self.learner(seat)
        turn = (self.table.hand_number, self.table.state.moves_played)
        if turn == learner.lesson_turn:
            return None
        learner.lesson_turn = turn
        due = self.turn_lessons(seat, learner.seen)
        if not due:
            return None
        learner.seen.add(due[0].lesson.id)
        return due[0]

    # ------------------------------------------------------------------ the moves a coach speaks of
    def _hands(self) -> Iterator[tuple[int, State]]:
        """Every hand of the game with the ply of its first move."""
        start = 0
        for hand in self.table.game.hands:
            yield start, hand
            start += hand.moves_played

    def move_at(self, ply: object) -> tuple[int, View, MoveCode]:
        """The seat that made move ``ply``, its view just before it, and the move."""
        if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
            raise BadCommandError("ply must be the number of a move: the game's version before it was made, from 0")
        for start, hand in self._hands():
            if ply < start + hand.moves_played:
                index = ply - start
                seat, code = hand.history[index]
                return seat, view_of(_before(hand, index), seat), code
        raise NoSuchMoveError(f"the game has no move {ply}: {self.table.ply} moves have been made")

    def seat_moves(self, seat: int) -> list[tuple[int, View, MoveCode]]:
        """Every move ``seat`` made in the game: its ply, the seat's view before it, and the move."""
        out = []
        for start, hand in self._hands():
            state = hand.root()
            for index, (mover, code) in enumerate(hand.history):
                if mover == seat:
                    out.append((start + index, view_of(state, seat), code))
                state.push(code)
        return out

    def unassessed(self, seat: int) -> list[tuple[int, View, MoveCode]]:
        """The seat's moves its coach has not assessed yet."""
        assessed = self.learner(seat).assessed
        return [(p, v, c) for p, v, c in self.seat_moves(seat) if (v, c) not in assessed]

    def keep(self, seat: int, view: View, code: MoveCode, assessment: Assessment) -> None:
        """Keep what the coach found of a move, for the review."""
        self.learner(seat).assessed[(view, code)] = assessment

    def note(self, seat: int, assessment: Assessment) -> CoachNote | None:
        """The coach's note on a move (None when it cost nothing beyond the noise, and it is no
        careless trail of a guided learner)."""
        learner = self.learner(seat)
        return learner.coach.note(assessment, learner.guided)

    def review(self, seat: int, assessed: Sequence[tuple[int, Assessment]]) -> Review:
        """The review of ``seat``'s game from the assessments of its moves (by ply, in order)."""
        counts = [result.count for result in self.table.game.hand_results]
        margin = self.learner(seat).coach.margin
        return review([a for _, a in assessed], counts, seat, self.table.rules, margin)

    def assessed_moves(self, seat: int) -> list[tuple[int, Assessment]]:
        """The seat's moves with what the coach found of each, in order, once all are assessed;
        KeyError names none: call it after assessing ``unassessed``."""
        assessed = self.learner(seat).assessed
        return [(p, assessed[v, c]) for p, v, c in self.seat_moves(seat)]


__all__ = ["LESSON_IDS", "Learner", "Teaching", "checked_seen"]
