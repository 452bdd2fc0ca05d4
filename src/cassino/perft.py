"""Perft: count the move sequences of a given length, the standard check of a move generator."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from .errors import ArgumentError
from .movegen import count_moves, iter_moves, iter_sorted_moves
from .native import checkpoint
from .state import State

ROOT_CHECK: Final = 1023
"""Every 1024 first moves, the root's loop lets Ctrl-C in (``native.checkpoint``): on a table of
millions of moves a perft of depth 2 makes a microsecond's search under each."""


def moves_left(state: State) -> int:
    """The most moves the hand can still last: each move plays one card from a hand, and the hand
    ends once the hands and the stock are empty, so no sequence is longer than the cards left."""
    return sum(hand.bit_count() for hand in state.hands) + len(state.remaining_stock)


def perft(state: State, depth: int) -> int:
    """The number of move sequences of exactly ``depth`` moves from ``state`` (deals included).

    Past the moves left in the hand it is 0 at once, whatever the depth (``10**23`` too): every
    sequence ends with the hand, and a finished hand counts 0 at every depth above 0
    (docs/notation.md)."""
    if depth < 0:
        raise ArgumentError(f"depth must be 0 or more, got {depth}")
    if depth == 0:
        return 1
    if depth > moves_left(state):
        return 0
    if depth == 1:
        return count_moves(state)
    # The root's moves are streamed (iter_moves), not listed: on a table of millions of moves the
    # list alone would take gigabytes, while a search below each move needs only the families.
    total = 0
    for done, code in enumerate(iter_moves(state), 1):
        if not done & ROOT_CHECK:
            checkpoint()
        state.push(code)
        total += _perft(state, depth - 1)
        state.pop()
    return total


def iter_counts(state: State, depth: int) -> Iterator[int]:
    """The perft count under each first move, in the generator's order (not the lines'), for
    ``1 < depth <= moves_left(state)``: ``perft``'s loop for a caller that shows progress between
    first moves (``perft`` keeps its own, without a generator's step per move)."""
    for code in iter_moves(state):
        state.push(code)
        count = _perft(state, depth - 1)
        state.pop()
        yield count


def _perft(state: State, depth: int) -> int:
    """``perft`` for ``1 <= depth``, without its checks (the hot path). Below the root each level
    lists its moves (``legal_codes``): on the usual tables of tens of moves a list is faster than a
    stream, by some per cent of the whole count when every level streamed.

    Above the last two levels each node lets Ctrl-C in (``native.checkpoint``): one call per
    search of hundreds of positions costs nothing measurable, and the wait stays under a
    millisecond on the usual tables."""
    if depth == 1:
        return count_moves(state)
    if depth > 2:
        checkpoint()
    total = 0
    for code in state.legal_codes():
        state.push(code)
        total += _perft(state, depth - 1)
        state.pop()
    return total


def iter_divide(state: State, depth: int) -> Iterator[tuple[str, int]]:
    """Perft split by first move, ``(move line, count)`` in the order of the lines, one move at a
    time: ``perft --divide`` prints the first line at once on a table of millions of moves."""
    past = depth > moves_left(state)  # every count 0, without a move played
    for line, code in iter_sorted_moves(state):
        if depth == 1 or past:
            yield line, 0 if past else 1
            continue
        state.push(code)
        count = perft(state, depth - 1)
        state.pop()
        yield line, count


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """Perft split by first move: ``(move line, count)`` sorted by the move lines."""
    return list(iter_divide(state, depth))
