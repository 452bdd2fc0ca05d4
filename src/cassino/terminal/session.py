"""A game at the table: people and computer players in their seats, the hand's moves, undo, hints,
trackers, and the record saved when the game ends. Both terminal front ends (full screen and plain lines)
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
from ..moves import MoveCode
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


def side_name(rules: Rules, names: Sequence[str], side: int) -> str:
    """A side's name from its seats' names: the seat's, or both partners' in partnerships."""
    if rules.partnerships:
        return f"{names[side]} & {names[side + 2]}"
    return names[side]


class UndoError(Exception):
    """A move that may not be taken back; the message says why, in words for the person."""


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
        self.deal_ply = 0
        """Moves of the hand in play before its cards now in play were dealt or drawn: none of them
        may be taken back, since the cards dealt after them have been seen."""
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
        """A person's move: checked (IllegalMoveError says why, and nothing changes)."""
        self._move(code)

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
        """Why ``seat`` may not take back its last move now, or None when it may. The web app's
        rule: only against computer players, never after the game or the hand is over, and never
        once new cards have come from the stock since (they were seen)."""
        if self.over:
            return "the game is over: no move can be taken back"
        others = [s for s in self.humans if s != seat]
        if others:
            return f"moves are taken back only against computer players: seat {others[0]} is another person's"
        movers = self.game.state.movers()
        if seat not in movers:
            if len(self.game.hands) > 1:
                return f"hand {len(self.game.hands) - 1} is over: its moves cannot be taken back"
            return "you have made no move yet"
        if self._last_move_index(seat) < self.deal_ply:
            return "new cards have come from the stock since your last move (they were seen), so it stands"
        return None

    def _last_move_index(self, seat: int) -> int:
        movers = self.game.state.movers()
        return len(movers) - 1 - movers[::-1].index(seat)

    def undo(self, seat: int) -> list[tuple[int, MoveCode]]:
        """Take back ``seat``'s last move and every computer move after it; returns them as (seat,
        code), oldest first. UndoError says why when it may not be done (nothing changes)."""
        refusal = self.undo_refusal(seat)
        if refusal is not None:
            raise UndoError(refusal)
        taken = list(self.hand_moves()[self._last_move_index(seat) :])
        for _ in taken:
            self.game.undo()
        return taken

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
