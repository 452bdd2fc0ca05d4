"""An exact solver for the rest of a hand when every card is known: alpha-beta with a
transposition table.

In 2-player play the last deal is fully known by counting cards (the unseen cards are exactly the
opponent's hand), so the solver plays it perfectly; search players also use it inside each world
they sample. The value of a position is the solver's side's hand points minus the best other
side's (the other sides are assumed to play against it, which is exact with two sides), plus
``GAME_WON`` when the hand ends the game in its favour (minus it when another side wins): a player
one point from the target takes the sure point over a bigger but riskier margin.
"""

from __future__ import annotations

from typing import Final

from ..moves import CAPTURE, MoveCode, code_kind, code_table
from ..native import checkpoint
from ..rules import Rules
from ..state import State
from ..view import View, plain_masks
from .odds import GameOdds, game_odds


def cards_known(view: View) -> bool:
    """True when counting cards tells where every card is: the stock is empty and at most one other
    player holds cards (so the unseen cards are exactly that hand)."""
    if view.stock_size:
        return False
    return sum(1 for s in range(view.rules.players) if s != view.seat and view.hand_sizes[s]) <= 1


def world_of(view: View) -> State:
    """The one position consistent with a view whose hidden cards are all known (``cards_known``)."""
    hands = [0] * view.rules.players
    hands[view.seat] = int(view.hand)
    for s in range(view.rules.players):
        if s != view.seat and view.hand_sizes[s]:
            hands[s] = int(view.unseen)
    return State(
        view.rules, dealer=view.dealer, to_move=view.to_move, hands=hands, loose=int(view.loose), builds=view.builds,
        stock=(), captured=plain_masks(view.captured), sweeps=view.sweeps, last_capturer=view.last_capturer,
        scores=view.scores,
    )  # fmt: skip


class SolverBudgetExceeded(Exception):  # noqa: N818 (a signal, not an error)
    """The search visited more positions than it was allowed."""


GAME_WON: Final = 1000
"""What deciding the game is worth, beyond any hand's margin of points."""

INFINITY: Final = 10**9
"""Beyond any value a position can have (``GAME_WON`` plus a hand's points): alpha-beta's open
window, as an int so values stay exact."""

CHECK_NODES: Final = 1023
"""Every 1024 positions a search lets Ctrl-C in (``native.checkpoint``), and other threads run."""

CAPTURE_FIRST: Final = 64
"""A capture's head start in move ordering: more than the most table cards any move takes (52)."""


def _value(state: State, side: int, odds: GameOdds | None) -> int:
    """A finished hand's value for ``side``: its margin, plus ``GAME_WON`` when it wins the game
    (minus when it loses it); with ``odds``, a game still going on is worth ``GAME_WON`` times
    the side's chance of winning it from the new scores, less even odds (the same scale: a won
    game is a chance of 1)."""
    assert state.result is not None
    points = state.result.points
    margin = points[side] - max(p for s, p in enumerate(points) if s != side)
    if state.winner >= 0:
        return margin + (GAME_WON if state.winner == side else -GAME_WON)
    if odds is None:
        return margin
    after = [before + got for before, got in zip(state.scores, points, strict=True)]
    dealer_side = state.rules.side_of(state.next_dealer)
    return margin + round(GAME_WON * (2 * odds.win(after, side, dealer_side) - 1))


Bounds = dict[tuple[object, ...], tuple[float, int]]
"""A transposition table of alpha-beta results: value and whether it is exact (0), an upper bound
(-1, the search failed low) or a lower bound (+1, it failed high)."""


def probe(table: Bounds, key: tuple[object, ...], alpha: float, beta: float) -> float | None:
    """A stored value that settles this window, or None."""
    hit = table.get(key)
    if hit is not None:
        value, flag = hit
        if flag == 0 or (flag < 0 and value <= alpha) or (flag > 0 and value >= beta):
            return value
    return None


def store(table: Bounds, key: tuple[object, ...], best: float, alpha: float, beta: float) -> None:
    """Remember a result searched with the window (alpha, beta), with the kind of bound it is."""
    table[key] = (best, -1 if best <= alpha else (1 if best >= beta else 0))


_PLACE_BITS: Final = 20
"""``in_order`` packs a move's place in its list into this many low bits."""


def in_order(codes: list[MoveCode], ranks: list[int]) -> list[MoveCode]:
    """``codes`` sorted by their ``ranks`` (small ints, lowest first), ties in their order: the
    stable sort by a key, done as one sort of ints packing rank and place, which compares far
    faster than a key function called for each move (searches order the moves of every node)."""
    n = len(codes)
    if n <= 1:
        return list(codes)
    if n >= 1 << _PLACE_BITS:
        return _in_order_long(codes, ranks)
    keys = [(rank << _PLACE_BITS) | i for i, rank in enumerate(ranks)]
    keys.sort()
    place = (1 << _PLACE_BITS) - 1
    return [codes[k & place] for k in keys]


def _in_order_long(codes: list[MoveCode], ranks: list[int]) -> list[MoveCode]:
    """``in_order`` of a list too long to pack its places: a function of its own, so that the
    usual call makes no closure for this key."""
    order = sorted(range(len(codes)), key=lambda i: ranks[i])
    return [codes[i] for i in order]


_RANK_SPAN: Final = CAPTURE_FIRST + 64
"""Above a capture's ordering score (``CAPTURE_FIRST`` plus at most 52 table cards): ranks stay positive."""


def _ordered(codes: list[MoveCode]) -> list[MoveCode]:
    """Captures first, larger first: the moves most likely to cut the search short."""
    return in_order(
        codes, [_RANK_SPAN - ((code_kind(c) == CAPTURE) * CAPTURE_FIRST + code_table(c).bit_count()) for c in codes]
    )


class Solver:
    """Solves hand endings for one side; reusable across calls (the table is kept per call).

    With ``game`` a hand's end is valued by the chance of winning the game from its scores
    (``odds.game_odds``, two sides), not by its margin of points alone."""

    def __init__(self, max_nodes: int = 200_000, game: bool = False) -> None:
        self.max_nodes = max_nodes
        self.game = game
        self._odds: GameOdds | None = None
        self.nodes = 0
        self._table: Bounds = {}
        self._ours: tuple[bool, ...] = ()
        """Whether each seat plays for the side solved for (``_ours``)."""

    def solve(self, state: State, side: int) -> tuple[int, list[tuple[MoveCode, int]]]:
        """The exact value of ``state`` for ``side`` and the value of each legal move (all exact).

        Raises SolverBudgetExceeded past ``max_nodes`` positions. ``state`` is left unchanged."""
        self.nodes = 0
        self._table = {}
        rules = state.rules
        self._odds = game_odds(rules) if self.game else None
        self._ours = _ours(rules, side)
        mover_side = rules.side_of(state.to_move)
        scored = []
        best = -INFINITY if mover_side == side else INFINITY
        for code in _ordered(state.legal_codes()):
            state.push(code)
            try:
                v = self._search(state, side, -INFINITY, INFINITY)
            finally:
                state.pop()
            scored.append((code, v))
            best = max(best, v) if mover_side == side else min(best, v)
        return best, scored

    def best_moves(self, state: State, side: int) -> list[MoveCode]:
        """The moves of the highest exact value for ``side`` (the seat to move's, as a player
        asks), in ``solve``'s order: the best of ``solve``'s list for fewer positions. After the
        first move, each is searched only to learn whether it reaches the best so far (values
        are whole numbers: a window from one point below it); one that does has its exact
        value found.

        Raises SolverBudgetExceeded past ``max_nodes`` positions. ``state`` is left unchanged."""
        self.nodes = 0
        self._table = {}
        self._odds = game_odds(state.rules) if self.game else None
        self._ours = _ours(state.rules, side)
        best: list[MoveCode] = []
        top = -INFINITY
        for code in _ordered(state.legal_codes()):
            state.push(code)
            try:
                v = self._search(state, side, top - 1 if best else -INFINITY, INFINITY)
            finally:
                state.pop()
            if v > top:
                best, top = [code], v
            elif v == top:
                best.append(code)
        return best

    def value(self, state: State, side: int) -> int:
        """The exact value of ``state`` for ``side`` alone: one alpha-beta search, where ``solve``
        gives every move its exact value (a full window each). Raises SolverBudgetExceeded past
        ``max_nodes`` positions; ``state`` is left unchanged."""
        self.nodes = 0
        self._table = {}
        self._odds = game_odds(state.rules) if self.game else None
        self._ours = _ours(state.rules, side)
        return self._search(state, side, -INFINITY, INFINITY)

    def _search(self, state: State, side: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SolverBudgetExceeded
        if not self.nodes & CHECK_NODES:
            checkpoint()
        if state.hand_over:
            return _value(state, side, self._odds)
        key = (state.to_move, state.hands, state.loose, state.builds, state.captured, state.last_capturer,
               state.sweeps, state.stock_pos)  # fmt: skip
        known = probe(self._table, key, alpha, beta)
        if known is not None:
            return int(known)
        a0, b0 = alpha, beta
        maximizing = self._ours[state.to_move]
        best = -INFINITY if maximizing else INFINITY
        for code in _ordered(state.legal_codes()):
            state.push(code)
            try:
                v = self._search(state, side, alpha, beta)
            finally:
                state.pop()
            if maximizing:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        store(self._table, key, best, a0, b0)
        return best


def _ours(rules: Rules, side: int) -> tuple[bool, ...]:
    """Whether each seat plays for ``side``: asked at every node, where the rules (a plain
    dataclass) would answer by an interpreted call."""
    return tuple(rules.side_of(seat) == side for seat in range(rules.players))


def endgame_moves(solver: Solver, view: View) -> list[MoveCode] | None:
    """The best moves of the rest of the hand, solved exactly, when counting cards tells every
    hidden card (``cards_known``) and the solver's budget suffices; None otherwise. In the order of
    the solver's list: a player breaks the tie as it likes."""
    if len(view.legal) < 2 or not cards_known(view):
        return None
    try:
        return solver.best_moves(world_of(view), view.rules.side_of(view.seat))
    except SolverBudgetExceeded:
        return None
