"""``cassino replay`` and ``cassino record check``: read a game record, replay it with the engine,
and show every hand with all cards revealed (the proof that nobody cheated)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..cards import format_cards
from ..game import Game
from ..moves import format_code
from ..record import GameRecord, RecordError, read_record, replay
from ..state import State
from .table_text import describe_table


def load(path: Path) -> tuple[GameRecord, Game]:
    """Read and replay a record file; OSError or RecordError if it cannot be done."""
    record = read_record(path.read_text())
    return record, replay(record)


def _names(record: GameRecord, players: int) -> list[str]:
    return [record.tags.get(f"Seat{s}", f"seat {s}") for s in range(players)]


def show_position(state: State, names: list[str], out: TextIO) -> None:
    """Every card of a position: the table, each hand (revealed), the stock and the piles."""
    for line in describe_table(state):
        print(line, file=out)
    for seat, hand in enumerate(state.hands):
        pile = state.captured[seat]
        print(
            f"  seat {seat} ({names[seat]}): hand {format_cards(hand) or '-'}; taken {pile.bit_count()} cards", file=out
        )
    print(
        f"  stock ({len(state.remaining_stock)}): {' '.join(format_cards(1 << c) for c in state.remaining_stock) or '-'}",
        file=out,
    )


def run_replay(path: Path, pause: bool, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Step through a recorded game, every hand revealed; Enter steps, q stops."""
    out = out or sys.stdout
    inp = inp or sys.stdin
    try:
        record, game = load(path)
    except (OSError, RecordError) as exc:
        print(f"cassino replay: {path}: {exc}", file=sys.stderr)
        return 1
    rules = record.rules
    names = _names(record, rules.players)
    print(f"{path}: {rules.describe()}", file=out)
    for tag, value in record.tags.items():
        print(f"  {tag}: {value}", file=out)
    for number, (hand_state, deck) in enumerate(zip(game.hands, game.decks, strict=True), 1):
        codes = hand_state.history()
        movers = hand_state.movers()
        start = State.new_hand(rules, deck, hand_state.dealer, _scores_before(game, number))
        print(f"\n=== Hand {number}, dealer seat {start.dealer} ===", file=out)
        print(f"deck: {' '.join(format_cards(1 << c) for c in deck)}", file=out)
        show_position(start, names, out)
        for i, (code, seat) in enumerate(zip(codes, movers, strict=True), 1):
            if pause:
                print("[Enter: next move, q: stop] ", end="", file=out, flush=True)
                answer = inp.readline()
                if not answer or answer.strip().lower() == "q":
                    return 0
            start.push(code)
            print(f"\n{number}.{i} seat {seat} ({names[seat]}): {format_code(code)}", file=out)
            show_position(start, names, out)
        if start.result is not None:
            print(f"Hand {number} points: {list(start.result.points)}; scores {list(start.scores)}", file=out)
    winner = f"side {game.winner} wins" if game.over else "unfinished"
    print(f"\nResult: {winner}; scores {list(game.scores)}. Every move replayed legally.", file=out)
    return 0


def _scores_before(game: Game, number: int) -> tuple[int, ...]:
    """Game scores at the start of hand ``number`` (1-based)."""
    if number == 1:
        return (0,) * game.rules.sides
    return game.hands[number - 2].scores


def run_check(paths: list[Path], out: TextIO | None = None) -> int:
    """Validate records move by move; 0 when all are valid, 1 otherwise."""
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
        print(f"{path}: ok: {len(record.hands)} hand(s), {moves} moves, {result}, scores {list(game.scores)}", file=out)
    return 1 if bad else 0
