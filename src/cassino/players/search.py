"""The search player: determinized sampling over the worlds consistent with what its seat knows.

Each sampled world deals the unseen cards to the other hands (sizes known) and the stock, keeping
every build's owner holding a card that can take it (the rules guarantee they do), and is kept in
proportion to how likely the other seats' moves in this deal were with the hands it gives them
(``worlds.WorldSampler``); with ``balance`` the worlds are dealt from one shuffle of the unseen
cards after another (``worlds.BalancedDeals``), so that their card-by-card luck cancels and fewer
worlds give the same accuracy. In each world every candidate move is searched a few plies ahead
within the deal, or solved exactly once few cards remain (a world drawn twice is searched once);
the move with the best average result is chosen. Where nothing is hidden (2-player last deal:
the unseen cards are the opponent's hand) it solves the one true world exactly. With ``game``,
while a side may reach the target this hand, results count by the chance of winning the game they
give (``odds``): a solved hand's end from its scores, a searched move from the margin the hand is
then expected to end with. ``cheater`` is the same search handed the real position: a benchmark,
not a player.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable
from typing import Final

from ..cards import count
from ..movegen import capture_families
from ..moves import BUILD, CAPTURE, TABLE_SHIFT, MoveCode, code_card
from ..native import checkpoint
from ..rules import Rules
from ..scoring import scored_sweeps, side_piles
from ..state import State
from ..view import View, plain_masks
from .base import register
from .evaluate import card_worth, distinct_moves, mask_worth, passed_over, table_after
from .heuristic import rate_moves
from .odds import HandStakes, game_odds
from .solver import CAPTURE_FIRST, CHECK_NODES, GAME_WON, Bounds, Solver, SolverBudgetExceeded, in_order, probe, store
from .worlds import BalancedDeals, PositionCache, WorldSampler, sample_world

UNBOUNDED: Final = 1e9
"""Beyond any gain a deal can bring (a few points): alpha-beta's open window over float gains."""
_PRIORITY_SPAN: Final = 256
"""Above any ``_priority`` a move can have, negated: the packed sort key stays positive."""


def _priority(code: MoveCode) -> int:
    """Sort key of ``DealSearch.ordered``: captures first, then by the table cards a move uses
    (two points each), builds before trails on a tie. (The code read by bit operations, as
    ``State.push`` does: it is asked of every move of every node searched.)"""
    kind = code & 3  # code_kind
    first = CAPTURE_FIRST if kind == CAPTURE else 1 if kind == BUILD else 0
    return -(first + count(code >> TABLE_SHIFT) * 2)  # code_table's cards


MemoKey = tuple[int, int, int, tuple[object, ...]]
"""The mover's seat and hand and the table (loose cards, builds): all a position's moves depend on."""


class MoveMemo:
    """What the searches of one choice ask again and again across its worlds: the moves
    ``DealSearch.ordered`` gives and the best capture ``DealSearch.leaf`` finds, by ``MemoKey``.
    Neither depends on the other hands, so where another world's opponent plays the same card
    the same way, the positions that follow for the seat (its hand is the same in every world)
    are answered from here rather than generated again."""

    def __init__(self) -> None:
        self.moves: dict[MemoKey, list[MoveCode]] = {}
        self.takes: dict[MemoKey, float] = {}


class DealSearch:
    """Alpha-beta over one sampled world up to a few plies ahead, never past the current deal,
    counting the worth of what each side captures (and the residue at the end of a hand).

    Values are future gains from a position, so the transposition table ignores the history."""

    def __init__(
        self, worth: tuple[float, ...], side: int, breadth: int = 8, horizon: float = 0.7, memo: MoveMemo | None = None
    ) -> None:
        self.memo = MoveMemo() if memo is None else memo
        self.memo_seat = -1
        """The seat whose positions the memo answers: the one choosing (``root``), whose hand is
        the same in every world; another seat's hand changes from world to world, so the memo
        would find little there for what it holds. -1: every seat."""
        self.worth = worth
        self.horizon = horizon
        self.side = side
        self.breadth = breadth
        self.table: Bounds = {}
        self.nodes = 0
        self.rules: Rules | None = None
        self.ours: tuple[bool, ...] = ()
        """Whether each seat plays for ``side`` under ``rules``: read at every node, where asking
        the rules (a plain dataclass) would cost an interpreted call."""
        self.sweep_point = 0.0

    def memo_key(self, state: State) -> MemoKey | None:
        """What the memo knows ``state``'s moves and best capture by, or None where it does not
        answer (a seat other than ``memo_seat``)."""
        seat = state.to_move
        if seat != self.memo_seat and self.memo_seat >= 0:
            return None
        return (seat, state.hands[seat], state.loose, state.builds)

    def seats(self, rules: Rules) -> tuple[bool, ...]:
        """``ours`` for ``rules`` (learnt at the first position seen, again if they change)."""
        if rules is not self.rules:
            self.rules = rules
            self.ours = tuple(rules.side_of(seat) == self.side for seat in range(rules.players))
            self.sweep_point = 1.0 if rules.sweeps else 0.0
        return self.ours

    def gain(self, before: tuple[int, ...], state: State) -> float:
        """What the last move brought: captured cards (residue included) and a sweep, for or against."""
        after = state.captured
        if after is before:  # nothing captured: the position keeps its tuple
            return 0.0
        ours = self.seats(state.rules)
        total = 0.0
        worth = self.worth
        for seat in range(len(after)):
            diff = before[seat] ^ after[seat]
            if diff:
                w = mask_worth(worth, diff)
                total += w if ours[seat] else -w
        return total

    def play(self, state: State, code: MoveCode) -> float:
        """Push a move and return what it brought the side (negative: what it brought the others),
        a scored sweep included."""
        before = state.captured
        sweeps = len(state.sweeps)
        state.push(code)
        v = self.gain(before, state)
        if len(state.sweeps) > sweeps:
            ours = self.seats(state.rules)
            v += self.sweep_point if ours[state.sweeps[-1]] else -self.sweep_point
        return v

    def leaf(self, state: State) -> float:
        """Beyond the horizon: what the player to move can take at once, for or against."""
        if not self.horizon:
            return 0.0
        key = self.memo_key(state)
        known = self.memo.takes.get(key) if key is not None else None
        if known is None:
            best = 0.0
            worth = self.worth
            # The capture families alone (no builds or trails made): each move's cards are the
            # played card and a set ``s | p``, summed as ``code_cards`` would give them.
            for head, sets, parts in capture_families(state):
                played = 1 << code_card(head)
                for p in parts:
                    for s in sets:
                        taken = s | p
                        if taken:
                            w = mask_worth(worth, played | taken)
                            if w > best:
                                best = w
            if key is not None:
                self.memo.takes[key] = best
        else:
            best = known
        best *= self.horizon
        return best if self.seats(state.rules)[state.to_move] else -best

    def frontier_bound(self, state: State, code: MoveCode, maximizing: bool, alpha: float, beta: float) -> float | None:
        """One ply from the horizon, the gain of a move that cannot reach into the window (as in
        ``value``), worked out without making it; None when the move must be made to know (it
        ends the deal or the hand, draws a card, or may reach the window).

        Most moves there are left this way, and making and taking back each cost more than
        reading its gain from its code: the cards it captures, and a sweep when the table is left
        empty."""
        seat = state.to_move
        hands = state.hands
        card_bit = 1 << ((code >> 2) & 63)
        n = state.players
        nxt = (seat + 1) % n
        while nxt != seat and not hands[nxt]:
            nxt = (nxt + 1) % n
        if state.flags.draw or (nxt == seat and hands[seat] == card_bit):
            return None
        if self.seats(state.rules)[nxt] == maximizing:
            return None
        gain = 0.0
        if code & 3 == CAPTURE:
            taken = code >> 12
            gain = mask_worth(self.worth, taken | card_bit)
            if self.sweep_point and table_after(code, state.loose, state.builds, seat) == (0, ()):
                gain += self.sweep_point
        if maximizing:
            return gain if gain <= alpha else None
        return -gain if -gain >= beta else None

    def ordered(self, state: State) -> list[MoveCode]:
        """Moves most likely to matter first, at most ``breadth`` of them (captures by size); the
        list is the memo's, not to be changed."""
        key = self.memo_key(state)
        if key is None:
            return self._ordered(state)
        moves = self.memo.moves
        known = moves.get(key)
        if known is not None:
            return known
        known = moves[key] = self._ordered(state)
        return known

    def _ordered(self, state: State) -> list[MoveCode]:
        """``ordered``, worked out."""
        codes = state.legal_codes()
        ordered = in_order(codes, [_PRIORITY_SPAN + _priority(code) for code in codes])
        return ordered if len(ordered) <= self.breadth else ordered[: self.breadth]

    def value(self, state: State, depth: int, alpha: float, beta: float, deal_end: int) -> float:
        """The best future gain for ``side`` within ``depth`` plies (the others playing against it)."""
        self.nodes += 1
        if not self.nodes & CHECK_NODES:
            checkpoint()
        if state.hand_over:
            return 0.0
        if depth == 0 or (state.stock_pos != deal_end and deal_end >= 0):
            return self.leaf(state)
        key = (state.to_move, state.hands, state.loose, state.builds, depth)
        known = probe(self.table, key, alpha, beta)
        if known is not None:
            return known
        a0, b0 = alpha, beta
        ours = self.seats(state.rules)
        maximizing = ours[state.to_move]
        best = -UNBOUNDED if maximizing else UNBOUNDED
        for code in self.ordered(state):
            if depth == 1:
                bound = self.frontier_bound(state, code, maximizing, alpha, beta)
                if bound is not None:
                    best = max(best, bound) if maximizing else min(best, bound)
                    continue
            v = self.play(state, code)
            # One ply from the horizon the move's value is its gain plus a leaf (or nothing, the
            # hand over) whose sign the next seat's side sets: a leaf for the others only lowers
            # it, one for the side only raises it. A move that cannot reach into the window is
            # left there, its gain standing for it as a bound (the result is the same).
            if depth == 1 and (
                (maximizing and v <= alpha and not ours[state.to_move])
                or (not maximizing and v >= beta and ours[state.to_move])
            ):
                state.pop()
                best = max(best, v) if maximizing else min(best, v)
                continue
            v += self.value(state, depth - 1, alpha - v, beta - v, deal_end)
            state.pop()
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        store(self.table, key, best, a0, b0)
        return best

    def root(
        self, state: State, candidates: list[MoveCode], depth: int, cross_deals: bool = False
    ) -> dict[MoveCode, float]:
        """The value of each candidate move in this world (each searched with a full window).

        The search stops at the end of the deal unless ``cross_deals`` (the world's stock is known)."""
        out = {}
        self.memo_seat = state.to_move
        deal_end = -1 if cross_deals else state.stock_pos
        for code in candidates:
            v = self.play(state, code)
            v += self.value(state, depth - 1, -UNBOUNDED, UNBOUNDED, deal_end)
            state.pop()
            out[code] = v
        return out


class SearchPlayer:
    """Determinized search with a budget of time (``time`` seconds) or sampled ``worlds``.

    ``work`` caps the positions searched for one move (under a second on one core by default), so
    a move never takes long, and, unlike a time budget, the same seed still gives the same move
    on any machine."""

    name = "search"
    sees_all = False
    default_solve_below = 8
    """``solve_below`` when not given: the cards left from which the endgame is solved exactly."""

    def __init__(
        self,
        seed: int | None = None,
        time: float = 0.0,
        worlds: int = 60,
        candidates: int = 12,
        solve_below: int | None = None,
        max_nodes: int = 60_000,
        depth: int = 4,
        breadth: int = 8,
        horizon: float = 0.7,
        cross: int = 0,
        prior: float = 0.0,
        doubt: float = 1.0,
        work: int = 20_000,
        infer: float = 0.2,
        floor: float = 0.05,
        race: float = 0.0,
        race_after: int = 6,
        balance: int = 0,
        game: int = 0,
    ) -> None:
        self.balance = bool(balance)
        self.game = bool(game)
        self.race = float(race)
        self.race_after = int(race_after)
        self.work = int(work)
        self.infer = float(infer)
        self.floor = float(floor)
        self.doubt = float(doubt)
        self.horizon = float(horizon)
        self.cross_deals = bool(cross)
        self.prior = float(prior)
        self.depth = int(depth)
        self.breadth = int(breadth)
        self.rng = random.Random(seed)
        self.time_budget = float(time)
        self.worlds = int(worlds)
        self.candidates = int(candidates)
        self.solve_below = self.default_solve_below if solve_below is None else int(solve_below)
        self.solver = Solver(max_nodes, game=self.game)
        self.last_worlds = 0
        self.last_work = 0
        self.positions: PositionCache = {}
        """This deal's earlier positions as the world sampler asks about them, kept from one choice
        to the next."""

    def choose(self, view: View) -> MoveCode:
        """The move with the best average result over the sampled worlds.

        Python's cycle collector is paused meanwhile (where it ran): a choice makes and drops
        hundreds of thousands of small containers, all freed by their counts (it makes no cycles),
        which the collector would otherwise walk again and again, 3% of the time."""
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            return self._choose(view)
        finally:
            if collecting:
                gc.enable()

    def _choose(self, view: View) -> MoveCode:
        """``choose``, the collector aside."""
        if len(view.legal) == 1:
            return view.legal[0]
        side = view.rules.side_of(view.seat)
        spent = 0
        if self._known(view):
            exact = self._solve(sample_world(view, self.rng), side)
            if exact is not None:
                return exact
            spent = self.solver.nodes
        candidates, ratings = self.candidates_of(view)
        make_world: Callable[[], State]
        if self.doubt < 1.0:
            unlikely = passed_over(view)
            make_world = lambda: sample_world(view, self.rng, unlikely, self.doubt)  # noqa: E731
        elif self.infer > 0:
            make_world = WorldSampler(
                view, self.rng, self.infer, self.floor, balanced=self.balance, positions=self.positions
            )
        elif self.balance:
            make_world = BalancedDeals(view, self.rng)
        else:
            make_world = lambda: sample_world(view, self.rng)  # noqa: E731
        stakes = self._stakes(view) if self.game else None
        return self._sample(make_world, candidates, side, ratings, spent=spent, stakes=stakes)

    def candidates_of(self, view: View) -> tuple[list[MoveCode], dict[MoveCode, float]]:
        """The moves a choice searches, best-rated by the heuristic first: at most ``candidates``
        of them, one of each set of mirror images (``distinct_moves``); and every move's rating."""
        rated = sorted(rate_moves(view), key=lambda rc: -rc[0])
        codes = distinct_moves([c for _, c in rated], int(view.loose), card_worth(view.rules))
        return codes[: self.candidates], {c: r for r, c in rated}

    def _stakes(self, view: View) -> tuple[HandStakes, float] | None:
        """What this hand is worth to the game, when a side may reach the target in it and the
        worlds are searched (a solved world values the game already): the seat's side's chance of
        winning against the hand's final margin, and the margin expected before this move (the
        worth of each side's pile, and its sweeps). What is not captured yet is the uncertainty
        left: a whole hand's spread, scaled to the worth still to be taken."""
        rules = view.rules
        odds = game_odds(rules)
        if odds is None or max(view.scores) + odds.points < rules.target:
            return None
        if sum(view.hand_sizes) + view.stock_size <= self.solve_below:
            return None
        worth = card_worth(rules)
        side = rules.side_of(view.seat)
        margin = 0.0
        taken = 0
        for owner, pile in enumerate(side_piles(rules, plain_masks(view.captured))):
            got = mask_worth(worth, pile)
            margin += got if owner == side else -got
            taken |= pile
        for swept in scored_sweeps(rules, view.sweeps):
            margin += 1.0 if swept == side else -1.0
        left = whole = 0.0
        for c, w in enumerate(worth):
            whole += w * w
            if not taken >> c & 1:
                left += w * w
        spread = odds.spread * math.sqrt(left / whole)
        dealer_side = rules.side_of((view.dealer + 1) % rules.players)
        return HandStakes(odds, view.scores, side, dealer_side, spread), margin

    def _known(self, view: View) -> bool:
        """True when the hidden cards are exactly one other player's hand (nothing to sample)."""
        if view.stock_size:
            return False
        others = [s for s in range(view.rules.players) if s != view.seat and view.hand_sizes[s]]
        return len(others) <= 1

    def _solve(self, state: State, side: int) -> MoveCode | None:
        """The exact best move, or None if the solver's budget runs out."""
        try:
            best = self.solver.best_moves(state, side)
        except SolverBudgetExceeded:
            return None
        return self.rng.choice(best)

    def world_values(
        self, world: State, candidates: list[MoveCode], side: int, memo: MoveMemo | None = None
    ) -> tuple[dict[MoveCode, float], int]:
        """The result of each candidate in one world for ``side``, solved exactly when few cards
        remain, else searched a few plies ahead, and the positions visited: the step the choice
        repeats over sampled worlds, public so that a coach can weigh every move on the same worlds.
        ``memo`` (``MoveMemo``), shared by the worlds of one choice, saves asking their positions'
        moves again.

        A solved result is the hand's margin (with the solver's ``GAME_WON`` when it decides the
        game), a searched one the gain from here: only differences within one world compare."""
        remaining = sum(h.bit_count() for h in world.hands) + len(world.remaining_stock)
        work = 0
        if remaining <= self.solve_below:
            try:
                _, scored = self.solver.solve(world, side)
                return {code: points for code, points in scored if code in candidates}, self.solver.nodes
            except SolverBudgetExceeded:
                work = self.solver.nodes
        searcher = DealSearch(card_worth(world.rules), side, self.breadth, self.horizon, memo)
        return searcher.root(world, candidates, self.depth, self.cross_deals), work + searcher.nodes

    def _sample(
        self,
        make_world: Callable[[], State],
        candidates: list[MoveCode],
        side: int,
        ratings: dict[MoveCode, float] | None = None,
        worlds: int | None = None,
        spent: int = 0,
        stakes: tuple[HandStakes, float] | None = None,
    ) -> MoveCode:
        """Average each candidate's result over sampled worlds within the budget (plus ``prior``
        times the heuristic's rating, which steadies the choice when worlds are few); ``spent``
        is work already done on this move. At least one world is always searched. With
        ``stakes`` (``_stakes``) each result counts as the chance of winning the game it gives,
        on the solver's scale (``GAME_WON`` for a sure game), its points breaking ties."""
        totals = dict.fromkeys(candidates, 0.0)
        budget = self.worlds if worlds is None else worlds
        deadline = time.perf_counter() + self.time_budget if self.time_budget > 0 and worlds is None else None
        done = 0
        work = spent
        live = list(candidates)
        seen: dict[MoveCode, list[float]] = {code: [] for code in candidates} if self.race > 0 else {}
        """Each live candidate's value in every world so far (the race's)."""
        searched: dict[tuple[object, ...], dict[MoveCode, float]] = {}
        memo = MoveMemo()  # one choice's: a later choice meets few of its positions again
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and done:
                    break
            elif done >= budget or (self.work and work >= self.work and done):
                break
            values, nodes = self.values_once(make_world(), live, side, searched, memo)
            work += nodes
            if stakes is None:
                for code, v in values.items():
                    totals[code] += v
            else:
                table, margin = stakes
                for code, v in values.items():
                    totals[code] += 2 * GAME_WON * table.chance(margin + v) + v
            done += 1
            if self.race > 0:
                for code in live:
                    seen[code].append(values.get(code, 0.0))
                if done >= self.race_after and len(live) > 1:
                    live = self._raced(live, seen, totals)
                    if len(live) == 1:  # the race is won: more worlds would change nothing
                        break
        if len(live) < len(candidates):
            totals = {code: totals[code] for code in live}
        self.last_worlds = done
        self.last_work = work
        if ratings and self.prior:
            for code in totals:
                totals[code] += self.prior * done * ratings.get(code, 0.0)
        best = max(totals.values())
        return self.rng.choice([c for c, t in totals.items() if t == best])

    def values_once(
        self,
        world: State,
        candidates: list[MoveCode],
        side: int,
        searched: dict[tuple[object, ...], dict[MoveCode, float]],
        memo: MoveMemo | None = None,
    ) -> tuple[dict[MoveCode, float], int]:
        """``world_values`` of a world not drawn before in ``searched`` (kept there), else the
        values kept, with no work: late in a deal the other hands hold a card or two, worlds come
        again, and each is searched once and counted each time it is drawn."""
        key = self._world_key(world)
        known = searched.get(key)
        if known is not None and all(code in known for code in candidates):
            return {code: known[code] for code in candidates}, 0
        values, nodes = self.world_values(world, candidates, side, memo)
        searched[key] = values
        return values, nodes

    def _world_key(self, world: State) -> tuple[object, ...]:
        """What a world's values depend on beyond the view: the hidden hands, and the stock's
        order when the search reaches past the deal (a solved endgame, ``cross``)."""
        remaining = sum(h.bit_count() for h in world.hands) + len(world.remaining_stock)
        if self.cross_deals or remaining <= self.solve_below:
            return (world.hands, world.remaining_stock)
        return (world.hands,)

    def _raced(
        self, live: list[MoveCode], seen: dict[MoveCode, list[float]], totals: dict[MoveCode, float]
    ) -> list[MoveCode]:
        """The candidates still in the race: those whose mean loss to the leader, world by world
        (only differences within a world compare), is within ``race`` standard errors of nothing;
        the leader has the best of ``totals``, each live move's sum over the worlds, whose values
        ``seen`` holds in order.
        The rest are searched no more, so the worlds left go to the moves that may still win."""
        leader = max(live, key=lambda code: totals[code])
        lead = seen[leader]
        kept = []
        for code in live:
            if code == leader:
                kept.append(code)
                continue
            losses = [v - w for v, w in zip(seen[code], lead, strict=True)]
            n = len(losses)
            mean = sum(losses) / n
            spread = (sum((x - mean) ** 2 for x in losses) / (n - 1)) ** 0.5 if n > 1 else 0.0
            if mean + self.race * spread / n**0.5 >= 0:
                kept.append(code)
        return kept


class CheaterPlayer(SearchPlayer):
    """The search handed the real position: every world is the true one. A benchmark only."""

    name = "cheater"
    sees_all = True

    # With every card known, solving from the last card of the next-to-last deal is exact and
    # affordable: no sampling multiplies its cost.
    default_solve_below = 10

    def choose_full(self, state: State) -> MoveCode:
        """The best move found with every card known."""
        codes = state.legal_codes()
        if len(codes) == 1:
            return codes[0]
        side = state.rules.side_of(state.to_move)
        remaining = sum(h.bit_count() for h in state.hands) + len(state.remaining_stock)
        if remaining <= self.solve_below:
            exact = self._solve(state, side)
            if exact is not None:
                return exact
        from ..view import view_of

        rated = sorted(rate_moves(view_of(state, state.to_move)), key=lambda rc: -rc[0])
        candidates = [c for _, c in rated[: self.candidates]]
        # One world is the whole truth: searching copies of it again would add nothing.
        return self._sample(state.copy, candidates, side, worlds=1)


SETTINGS: Final[dict[str, type[int] | type[float]]] = {
    "time": float,
    "worlds": int,
    "candidates": int,
    "solve_below": int,
    "max_nodes": int,
    "depth": int,
    "breadth": int,
    "horizon": float,
    "cross": int,
    "prior": float,
    "doubt": float,
    "work": int,
    "infer": float,
    "floor": float,
    "race": float,
    "race_after": int,
    "balance": int,
    "game": int,
}
"""The settings of ``search`` and ``cheater`` (``SearchPlayer``'s parameters) and their kinds."""

register("search", SearchPlayer, SETTINGS)
register("cheater", CheaterPlayer, SETTINGS)
