"""``cassino replay`` and ``cassino record check``: read a game record, replay it with the engine,
and show every hand with all cards revealed (the proof that nobody cheated), stepping forward,
back, or to any hand."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..game import Game
from ..notation import read_text
from ..record import GameRecord, RecordError, read_record, replay
from ..state import State
from ..table import side_name
from .table_text import CardText, describe_table, plural, wants_ascii


def load(path: Path) -> tuple[GameRecord, Game]:
    """Read and replay a record file; OSError (``notation.read_text``: missing, not UTF-8, too
    large) or RecordError if it cannot be done."""
    record = read_record(read_text(path))
    return record, replay(record)


def _names(record: GameRecord, players: int) -> list[str]:
    return [record.tags.get(f"Seat{s}", f"seat {s}") for s in range(players)]


REPLAY_COMMANDS = (
    ("Enter, n", "the next move"),
    ("b, back", "one move back"),
    ("N, hand N", "the start of hand N"),
    ("N.M", "hand N after its move M (as the moves are numbered)"),
    ("?, help", "this list"),
    ("q, quit", "stop"),
)
"""Every answer of the paused replay, as its help lists it."""


class Replay:
    """A recorded game as a row of steps, each hand's deal then each of its moves, any of which
    can be shown with every card revealed."""

    def __init__(self, record: GameRecord, game: Game, out: TextIO, cards: CardText) -> None:
        self.game = game
        self.rules = record.rules
        self.names = _names(record, self.rules.players)
        self.out = out
        self.cards = cards
        self.steps = [(n, i) for n, hand in enumerate(game.hands, 1) for i in range(hand.moves_played + 1)]
        """(hand number, moves played in it) of every step, in order."""

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def scores_text(self, scores: tuple[int, ...]) -> str:
        """Scores as a person reads them: ``ann 3 - bob 8``."""
        return " - ".join(f"{side_name(self.rules, self.names, side)} {v}" for side, v in enumerate(scores))

    def position(self, number: int, played: int) -> State:
        """Hand ``number`` (from 1) after its first ``played`` moves."""
        start = State.new_hand(
            self.rules,
            self.game.decks[number - 1],
            self.game.hands[number - 1].dealer,
            _scores_before(self.game, number),
        )
        for code in self.game.hands[number - 1].move_stack[:played]:
            start.push(code)
        return start

    def show(self, step: int) -> None:
        """One step: the deal (with its deck) or the move, then every card of the position."""
        number, played = self.steps[step]
        hand = self.game.hands[number - 1]
        state = self.position(number, played)
        if played == 0:
            self.say(f"\n=== Hand {number}, dealer seat {hand.dealer} ({self.names[hand.dealer]}) ===")
            self.say(f"deck: {' '.join(self.cards.card(c) for c in self.game.decks[number - 1])}")
        else:
            seat, code = hand.history[played - 1]
            move = self.cards.notation(code)
            self.say(f"\n{number}.{played} seat {seat} ({self.names[seat]}): {move}")
        self.show_position(state)
        if played == hand.moves_played and state.result is not None:
            points = self.scores_text(state.result.points)
            self.say(f"Hand {number} points: {points}; scores {self.scores_text(state.scores)}")

    def show_position(self, state: State) -> None:
        """Every card of a position: the table, each hand (revealed), the stock and the piles."""
        for line in describe_table(state, self.cards, lambda owner: f"{self.names[owner]}'s"):
            self.say(line)
        for seat, hand in enumerate(state.hands):
            taken = plural(state.captured[seat].bit_count(), "card")
            self.say(f"  seat {seat} ({self.names[seat]}): hand {self.cards.cards(hand) or '-'}; taken {taken}")
        stock = state.remaining_stock
        self.say(f"  stock ({len(stock)}): {' '.join(self.cards.card(c) for c in stock) or '-'}")

    def show_result(self) -> None:
        """The end: who won and that every move replayed."""
        game = self.game
        winner = f"{side_name(self.rules, self.names, game.winner)} wins" if game.over else "unfinished"
        if game.forfeited is not None:
            winner += f" (seat {game.forfeited.seat} forfeited: {game.forfeited.reason})"
        self.say(f"\nResult: {winner}; scores {self.scores_text(game.scores)}. Every move replayed legally.")

    def target(self, text: str, step: int) -> int | str:
        """The step an answer asks for, or the reason it names none."""
        answer = text.lower()
        if answer in ("", "n", "next"):
            return step + 1
        if answer in ("b", "back"):
            return max(step - 1, 0)
        number_text, dot, played_text = answer.removeprefix("hand").strip().partition(".")
        if not number_text.isdigit() or (dot and not played_text.isdigit()):
            return f"unknown answer {text!r}: ? lists them"
        number, played = int(number_text), int(played_text or 0)
        if not 1 <= number <= len(self.game.hands):
            return f"there is no hand {number}: choose 1 to {len(self.game.hands)}"
        moves = self.game.hands[number - 1].moves_played
        if played > moves:
            return f"hand {number} has {plural(moves, 'move')}: choose {number}.0 to {number}.{moves}"
        return self.steps.index((number, played))

    def run(self, inp: TextIO | None) -> None:
        """Show every step in order, or (with ``inp``) ask after each which one comes next."""
        step = 0
        self.show(step)
        while True:
            chosen: int | str = step + 1
            if inp is not None:
                print("[Enter: next, b: back, N: hand N, ?: help, q: stop] ", end="", file=self.out, flush=True)
                answer = inp.readline()
                if not answer or answer.strip().lower() in ("q", "quit"):
                    return
                if answer.strip() in ("?", "help"):
                    for name, meaning in REPLAY_COMMANDS:
                        self.say(f"  {name:10} {meaning}")
                    continue
                chosen = self.target(answer.strip(), step)
            if isinstance(chosen, str):
                self.say(chosen)
                continue
            if chosen >= len(self.steps):
                self.show_result()
                return
            step = chosen
            self.show(step)


def run_replay(
    path: Path, pause: bool, out: TextIO | None = None, inp: TextIO | None = None, ascii: bool = False
) -> int:
    """Step through a recorded game, every hand revealed: forward, back, or to any hand (see
    REPLAY_COMMANDS); without ``pause`` the whole game at once."""
    out = out or sys.stdout
    try:
        record, game = load(path)
    except OSError as exc:
        print(f"cassino replay: {path}: cannot read: {exc.strerror}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"cassino replay: {path}: {exc}", file=sys.stderr)
        return 2
    print(f"{path}: {record.rules.describe()}", file=out)
    for tag, value in record.tags.items():
        print(f"  {tag}: {value}", file=out)
    Replay(record, game, out, CardText(wants_ascii(out, ascii))).run((inp or sys.stdin) if pause else None)
    return 0


def _scores_before(game: Game, number: int) -> tuple[int, ...]:
    """Game scores at the start of hand ``number`` (1-based)."""
    if number == 1:
        return (0,) * game.rules.sides
    return game.hands[number - 2].scores


def run_check(paths: list[Path], out: TextIO | None = None) -> int:
    """Validate records move by move; the number of records that are not valid (0 when all are)."""
    out = out or sys.stdout
    bad = 0
    for path in paths:
        try:
            record, game = load(path)
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror}", file=out)
            bad += 1
            continue
        except RecordError as exc:
            for line, problem in exc.problems:
                print(f"{path}:{line}: {problem}" if line else f"{path}: {problem}", file=out)
            bad += 1
            continue
        moves = sum(len(h.moves) for h in record.hands)
        result = f"side {game.winner} won" if game.over else "unfinished"
        if game.forfeited is not None:
            result += f" (seat {game.forfeited.seat} forfeited)"
        print(f"{path}: ok: {len(record.hands)} hand(s), {moves} moves, {result}, scores {list(game.scores)}", file=out)
    return bad
