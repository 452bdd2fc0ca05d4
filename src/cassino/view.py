"""What one seat may see: the only thing players, apps and APIs are given.

A ``View`` is built from a ``State`` by ``view_of`` and holds no reference to it: other players'
hands and the order of the stock are simply not in it, so no player can peek by accident or design.
Captured piles are public (every captured card was face up before it was taken). Someone watching
is given ``spectator_view``, whose seat is ``SPECTATOR``: the public fields alone. ``public_position``
is the one way back from a view to a ``State``, holding nothing the view does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import FULL_DECK, CardMask, field_values
from .cardset import CardSet
from .errors import SeatError
from .moves import Move, MoveCode, format_code
from .rules import Rules
from .state import Build, State
from .state import build_is_single as build_is_single  # what a seat sees of a build: is it single

SPECTATOR: Final = -1
"""The seat of a spectator's view (``spectator_view``): nobody's, so it holds no hand and no legal
moves. Only the apps make one, for someone watching; players are never given it."""


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of a position."""

    rules: Rules
    seat: int
    """The seat whose view this is (``SPECTATOR`` for someone watching)."""
    dealer: int
    to_move: int
    hand: CardSet
    """The seat's own cards (empty for a spectator): ``for card in view.hand``, or a mask."""
    hand_sizes: tuple[int, ...]
    loose: CardSet
    """The loose cards on the table (a build's cards are in ``builds``)."""
    builds: tuple[Build, ...]
    captured: tuple[CardSet, ...]
    """Each seat's pile of captured cards: public, every captured card was face up."""
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
    def unseen(self) -> CardSet:
        """Cards this seat has not seen: other hands and the stock together."""
        seen: CardMask = int(self.hand) | int(self.loose)  # ints: a set's own operators are calls
        for build in self.builds:
            seen |= build.cards
        for pile in self.captured:
            seen |= int(pile)
        return int.__new__(CardSet, FULL_DECK & ~seen)


def view_of(state: State, seat: int, history: tuple[tuple[int, MoveCode], ...] | None = None) -> View:
    """The view of ``seat``: its own hand, the public table, piles and counts, nothing hidden.

    ``history`` defaults to the moves pushed on ``state`` (this hand's, when it was dealt afresh).
    A seat out of range is a SeatError: read as an index, -1 would be the last seat's hand."""
    if not 0 <= seat < state.players:
        raise SeatError(
            f"seat {seat} is out of range: the seats are 0..{state.players - 1} for {state.players} players "
            "(a spectator: spectator_view)"
        )
    legal = tuple(state.legal_codes()) if state.to_move == seat and state.hands[seat] else ()
    return _view(state, seat, state.hands[seat], legal, history)


def spectator_view(state: State, history: tuple[tuple[int, MoveCode], ...] | None = None) -> View:
    """What someone watching may see: the public table, piles and counts, with no hand and no legal
    moves (seat ``SPECTATOR``), so a spectator's payload reads no seat's view."""
    return _view(state, SPECTATOR, 0, (), history)


def _view(
    state: State,
    seat: int,
    hand: CardMask,
    legal: tuple[MoveCode, ...],
    history: tuple[tuple[int, MoveCode], ...] | None,
) -> View:
    """A view of ``state`` with the given hand and legal moves, and every public field."""
    # int.__new__ makes each CardSet without its constructor's checks: a State's masks are sets of cards.
    return View(
        rules=state.rules,
        seat=seat,
        dealer=state.dealer,
        to_move=state.to_move,
        hand=int.__new__(CardSet, hand),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        loose=int.__new__(CardSet, state.loose),
        builds=state.builds,
        captured=tuple([int.__new__(CardSet, pile) for pile in state.captured]),
        stock_size=len(state.remaining_stock),
        sweeps=state.sweeps,
        last_capturer=state.last_capturer,
        scores=state.scores,
        history=state.history if history is None else history,
        legal=legal,
    )


def public_position(view: View) -> State:
    """The position as ``view`` knows it, the one way from a view back to a ``State``: the view's
    own hand, the public table, piles, sweeps and scores; the other hands and the stock are empty,
    since their cards are hidden. The engine's checks can then be asked about the seat's own moves
    with nothing hidden there to read; what depends on the other hands or the stock (whose turn
    comes next, whether the hand is over, the next deal) it does not answer."""
    hands = [0] * view.rules.players
    if view.seat != SPECTATOR:
        hands[view.seat] = int(view.hand)
    return State(
        view.rules, dealer=view.dealer, to_move=view.to_move, hands=hands, loose=int(view.loose), builds=view.builds,
        stock=(), captured=plain_masks(view.captured), sweeps=view.sweeps, last_capturer=view.last_capturer,
        scores=view.scores,
    )  # fmt: skip


def plain_masks(sets: tuple[CardSet, ...]) -> tuple[CardMask, ...]:
    """Card sets as plain int masks, for a ``State`` made from a view: the engine keeps ints."""
    return tuple([int(s) for s in sets])
