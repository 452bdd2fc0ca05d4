"""What one seat may see: the only thing players, apps and APIs are given.

A ``View`` is built from a ``State`` by ``view_of`` and holds no reference to it: other players'
hands and the order of the stock are simply not in it, so no player can peek by accident or design.
Captured piles are public (every captured card was face up before it was taken).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import FULL_DECK, CardMask, field_values
from .moves import Move, MoveCode, format_code
from .rules import Rules
from .state import Build, State
from .state import build_is_single as build_is_single  # what a seat sees of a build: is it single


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of a position."""

    rules: Rules
    seat: int
    dealer: int
    to_move: int
    hand: CardMask
    hand_sizes: tuple[int, ...]
    loose: CardMask
    builds: tuple[Build, ...]
    captured: tuple[CardMask, ...]
    stock_size: int
    sweeps: tuple[int, ...]
    last_capturer: int
    scores: tuple[int, ...]
    history: tuple[tuple[int, MoveCode], ...]
    """The moves of this hand so far as (seat, move code): public, every card played is seen."""
    legal: tuple[MoveCode, ...]
    """The seat's legal moves when it is to move, else empty: move codes (ints), the fast path;
    ``legal_moves()`` gives them as ``Move`` objects."""

    def __reduce__(self) -> tuple[type[View], tuple[object, ...]]:
        """Pickled as its fields, rebuilt by the constructor: how a view travels to the worker
        processes that think for the web's computer players, compiled or not."""
        return (View, field_values(self))

    def legal_moves(self) -> list[Move]:
        """The seat's legal moves as ``Move`` objects sorted by canonical line (as ``State.legal_moves``),
        for players that read attributes (``move.kind``, ``move.table_cards``) rather than decode ints.
        Built afresh on each call: ``legal`` stays the cheap form for players that search."""
        return [Move(c) for c in sorted(self.legal, key=format_code)]

    @property
    def unseen(self) -> CardMask:
        """Cards this seat has not seen: other hands and the stock together."""
        seen = self.hand | self.loose
        for build in self.builds:
            seen |= build.cards
        for pile in self.captured:
            seen |= pile
        return FULL_DECK & ~seen


def view_of(state: State, seat: int, history: tuple[tuple[int, MoveCode], ...] | None = None) -> View:
    """The view of ``seat``: its own hand, the public table, piles and counts, nothing hidden.

    ``history`` defaults to the moves pushed on ``state`` (this hand's, when it was dealt afresh)."""
    if history is None:
        history = state.seat_moves()
    legal = tuple(state.legal_codes()) if state.to_move == seat and state.hands[seat] else ()
    return View(
        rules=state.rules,
        seat=seat,
        dealer=state.dealer,
        to_move=state.to_move,
        hand=state.hands[seat],
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        loose=state.loose,
        builds=state.builds,
        captured=state.captured,
        stock_size=len(state.remaining_stock),
        sweeps=state.sweeps,
        last_capturer=state.last_capturer,
        scores=state.scores,
        history=history,
        legal=legal,
    )
