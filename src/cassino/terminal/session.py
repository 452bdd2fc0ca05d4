"""A game at the table: people and computer players in their seats, last moves, hints, trackers,
and the record saved when the game ends. Both terminal front ends (full screen and plain lines)
drive this one object, so they cannot disagree about the game.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..cards import SPADES_MASK, CardMask
from ..game import Game
from ..moves import MoveCode, format_code
from ..players import Player, make_player
from ..players.base import choose_code, decide
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
    opponent: str = "heuristic"
    """The computer player of every other seat."""
    seed: int | None = None
    """The shuffle seed (random when None)."""
    save_dir: Path | None = None
    """Where the record is saved at the end; None: it is not saved."""

    def session(self) -> Session:
        """The session of this game; ValueError names an unknown opponent."""
        return Session(self.rules, seed=self.seed, humans=(self.seat,), opponent=self.opponent, save_dir=self.save_dir)


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
        hint_player: str = "heuristic",
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
        self.last_moves: dict[int, str] = {}
        self.finished: list[FinishedHand] = []
        self._hint = make_player(hint_player, seed)
        self.started = _dt.datetime.now()

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
        if self.rules.partnerships:
            return f"{self.names[side]} & {self.names[side + 2]}"
        return self.names[side]

    # ------------------------------------------------------------------ playing
    def _after_move(self, seat: int, code: MoveCode, hand_before: int) -> None:
        self.last_moves[seat] = format_code(code)
        if len(self.game.hands) != hand_before or self.game.state.hand_over:
            finished = self.game.hands[hand_before - 1]
            assert finished.result is not None
            self.finished.append(FinishedHand(hand_before, finished.dealer, finished.result, finished.scores))
            if len(self.game.hands) != hand_before:
                self.last_moves.clear()
        if self.over and self.save_dir is not None and self.saved_path is None:
            self.save()

    def play(self, code: MoveCode) -> None:
        """A person's move: checked (IllegalMoveError says why, and nothing changes)."""
        seat = self.to_move
        hand_before = len(self.game.hands)
        self.game.play(code)
        self._after_move(seat, code, hand_before)

    def step_bot(self) -> tuple[int, MoveCode] | None:
        """Let the computer player to move make its move; None when a person is to move."""
        if self.over or self.to_move in self.humans:
            return None
        seat = self.to_move
        code = decide(self.bots[seat], self.game.state)
        hand_before = len(self.game.hands)
        self.game.play(code)
        self._after_move(seat, code, hand_before)
        return seat, code

    def hint(self) -> MoveCode:
        """A suggested move for the person to move."""
        return choose_code(self._hint, self.view(self.to_move))

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
