"""The search player: determinized sampling over the worlds consistent with what its seat knows.

Each sampled world deals the unseen cards to the other hands (sizes known) and the stock, keeping
every build's owner holding a card that can take it (the rules guarantee they do). In each world
every candidate move is played out to the end of the hand by a fast policy, or solved exactly once
few moves remain; the move with the best average hand result is chosen. Where nothing is hidden
(2-player last deal: the unseen cards are the opponent's hand) it solves the one true world
exactly. ``cheater`` is the same search handed the real position: a benchmark, not a player.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..cards import ACES_MASK, RANK_MASKS, cards_of
from ..moves import BUILD, CAPTURE, MoveCode
from ..rules import Rules
from ..state import State
from ..view import View
from .base import register
from .evaluate import card_worth
from .heuristic import rate_moves
from .solver import Solver, SolverBudgetExceeded


def sample_world(view: View, rng: random.Random) -> State:
    """A full position consistent with ``view``: hidden cards dealt at random, build owners
    holding a card of each build's value."""
    rules = view.rules
    pool = cards_of(view.unseen)
    rng.shuffle(pool)
    hands = [0] * rules.players
    hands[view.seat] = view.hand
    room = list(view.hand_sizes)
    room[view.seat] = 0
    for _mask, value, owner in view.builds:
        if owner == view.seat or room[owner] <= 0:
            continue
        kind = ACES_MASK if value == 14 else RANK_MASKS[value - 1]
        if hands[owner] & kind:
            continue
        for i, c in enumerate(pool):
            if kind >> c & 1:
                hands[owner] |= 1 << c
                room[owner] -= 1
                pool.pop(i)
                break
    for seat in range(rules.players):
        while room[seat] > 0 and pool:
            hands[seat] |= 1 << pool.pop()
            room[seat] -= 1
    return State(
        rules, dealer=view.dealer, to_move=view.to_move, hands=hands, loose=view.loose, builds=view.builds,
        stock=pool, captured=view.captured, sweeps=view.sweeps, last_capturer=view.last_capturer,
        scores=view.scores,
    )  # fmt: skip


def hand_value(state: State, side: int) -> int:
    """At the end of a hand: the side's points minus the best other side's."""
    assert state.result is not None
    points = state.result.points
    return points[side] - max(p for s, p in enumerate(points) if s != side)


def rollout(state: State, rng: random.Random, worth: tuple[float, ...]) -> int:
    """Play the hand out with a fast greedy policy; returns how many moves were pushed."""
    pushed = 0
    while not state.hand_over:
        codes = state.legal_codes()
        best = -1e9
        choice = codes[0]
        for code in codes:
            kind = code & 3
            if kind == CAPTURE:
                got = (code >> 12) | 1 << ((code >> 2) & 63)
                score = 0.0
                while got:
                    low = got & -got
                    got ^= low
                    score += worth[low.bit_length() - 1]
                score += 1.0
            elif kind == BUILD:
                score = 0.5
            else:
                score = -worth[(code >> 2) & 63]
            score += rng.random() * 0.3
            if score > best:
                best, choice = score, code
        state.push(choice)
        pushed += 1
    return pushed


class SearchPlayer:
    """Determinized search with a budget of time (``time`` seconds) or sampled ``worlds``."""

    name = "search"
    sees_all = False

    def __init__(
        self,
        seed: int | None = None,
        time: float = 0.0,
        worlds: int = 60,
        candidates: int = 12,
        solve_below: int = 10,
        max_nodes: int = 60_000,
    ) -> None:
        self.rng = random.Random(seed)
        self.time_budget = float(time)
        self.worlds = int(worlds)
        self.candidates = int(candidates)
        self.solve_below = int(solve_below)
        self.solver = Solver(max_nodes)
        self.last_worlds = 0

    def choose(self, view: View) -> MoveCode:
        """The move with the best average result over the sampled worlds."""
        if len(view.legal) == 1:
            return view.legal[0]
        side = view.rules.side_of(view.seat)
        if self._known(view):
            exact = self._solve(sample_world(view, self.rng), side)
            if exact is not None:
                return exact
        # Bounded candidates: the best-rated moves by the heuristic (all of them when few).
        rated = sorted(rate_moves(view), key=lambda rc: -rc[0])
        candidates = [c for _, c in rated[: self.candidates]]
        return self._sample(lambda: sample_world(view, self.rng), candidates, side, view.rules)

    def _known(self, view: View) -> bool:
        """True when the hidden cards are exactly one other player's hand (nothing to sample)."""
        if view.stock_size:
            return False
        others = [s for s in range(view.rules.players) if s != view.seat and view.hand_sizes[s]]
        return len(others) <= 1

    def _solve(self, state: State, side: int) -> MoveCode | None:
        """The exact best move, or None if the solver's budget runs out."""
        try:
            _, scored = self.solver.solve(state, side)
        except SolverBudgetExceeded:
            return None
        best = max(v for _, v in scored)
        return self.rng.choice([c for c, v in scored if v == best])

    def _sample(self, make_world: Callable[[], State], candidates: list[MoveCode], side: int, rules: Rules) -> MoveCode:
        """Average each candidate's result over sampled worlds within the budget."""
        worth = card_worth(rules)
        totals = dict.fromkeys(candidates, 0.0)
        deadline = time.perf_counter() + self.time_budget if self.time_budget > 0 else None
        done = 0
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and done:
                    break
            elif done >= self.worlds:
                break
            world = make_world()
            remaining = sum(h.bit_count() for h in world.hands) + len(world.remaining_stock)
            solved = False
            if remaining <= self.solve_below:
                try:
                    _, scored = self.solver.solve(world, side)
                    for code, v in scored:
                        if code in totals:
                            totals[code] += v
                    solved = True
                except SolverBudgetExceeded:
                    solved = False
            if not solved:
                for code in candidates:
                    world.push(code)
                    pushed = rollout(world, self.rng, worth)
                    totals[code] += hand_value(world, side)
                    for _ in range(pushed + 1):
                        world.pop()
            done += 1
        self.last_worlds = done
        best = max(totals.values())
        return self.rng.choice([c for c, t in totals.items() if t == best])


class CheaterPlayer(SearchPlayer):
    """The search handed the real position: every world is the true one. A benchmark only."""

    name = "cheater"
    sees_all = True

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
        return self._sample(state.copy, candidates, side, state.rules)


register("search", SearchPlayer)
register("cheater", CheaterPlayer)
