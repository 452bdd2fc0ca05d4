"""Perft: count the move sequences of a given length, the standard check of a move generator."""

from __future__ import annotations

from .movegen import count_moves
from .moves import format_code
from .state import State


def perft(state: State, depth: int) -> int:
    """The number of move sequences of exactly ``depth`` moves from ``state`` (deals included)."""
    if depth == 0:
        return 1
    if depth == 1:
        return count_moves(state)
    codes = state.legal_codes()
    total = 0
    push = state.push
    pop = state.pop
    for code in codes:
        push(code)
        total += perft(state, depth - 1)
        pop()
    return total


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """Perft split by first move: ``(move line, count)`` sorted by the move lines."""
    out = []
    for code in state.legal_codes():
        state.push(code)
        out.append((format_code(code), perft(state, depth - 1)))
        state.pop()
    out.sort()
    return out
