"""A game to start at the terminal, as plain values: the command line fills it in (the terminal never
reads its arguments) and the full screen's variant builder may change it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..learn import TUTORIAL_OPPONENT, TUTORIAL_RULES
from ..rules import Rules
from ..table import DEFAULT_OPPONENT
from .session import Session


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


__all__ = ["DEFAULT_OPPONENT", "NewGame"]
