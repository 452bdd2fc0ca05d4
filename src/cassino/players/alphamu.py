"""The next-to-last deal without strategy fusion: αμ search over sampled worlds.

Determinized search solves each sampled world as if every card were known, and so credits itself
with later choices that could only be made knowing the world: the same hand would play differently
in each (strategy fusion). In two-handed play this matters only in the next-to-last deal: once the
last deal is dealt, counting cards tells every hidden card, and each world's exact solution is the
truth. ``alphamu`` searches the rest of the next-to-last deal over a set of worlds at once, the
way αμ does for bridge: the player must make one choice in all the worlds it cannot tell apart,
while the opponent answers each world as suits it (an opponent who knows every card: the
conservative assumption of αμ). A result is a vector, one value per world; a node keeps the
Pareto front of the vectors its choices can reach. At the last deal's start each world is solved
exactly. With every one of the player's choices in the deal searched, the choice is exact for the
sampled worlds against that opponent.

``AlphaMuPlayer`` (``alphamu``) plays that way once it holds ``cards`` or fewer in the next-to-last
deal of a two-handed game, and is its ``base`` search everywhere else.
"""

from __future__ import annotations

import random
from typing import Any

from ..moves import MoveCode
from ..state import State
from ..view import View
from .base import register
from .search import SETTINGS as SEARCH_SETTINGS
from .search import SearchPlayer
from .solver import INFINITY, Solver, SolverBudgetExceeded
from .worlds import WorldSampler

Vector = tuple[int, ...]
"""One value per world of a node, in the order of its worlds."""


def pareto(vectors: list[Vector]) -> list[Vector]:
    """The vectors no other is at least as good as in every world (duplicates kept once), the
    best on average first (ties in a fixed order)."""
    front: list[Vector] = []
    for v in sorted(set(vectors), key=lambda v: (sum(v), v), reverse=True):
        if not any(all(a >= b for a, b in zip(u, v, strict=True)) for u in front):
            front.append(v)
    return front


class AlphaMu:
    """αμ over the rest of the next-to-last deal, for ``side``, the last deal's start solved exactly
    in each world. ``limit`` caps a front's size (its best vectors on average are kept): the search
    stays exact while no front reaches it (``capped`` counts those that did)."""

    def __init__(self, side: int, solver: Solver, limit: int = 256) -> None:
        self.side = side
        self.solver = solver
        self.limit = limit
        self.leaves: list[dict[tuple[object, ...], int]] = []
        self.capped = 0

    def values(self, worlds: list[State]) -> dict[MoveCode, float]:
        """Each legal move's best mean over the worlds: the best one strategy that begins with it
        achieves in all of them at once."""
        self.leaves = [{} for _ in worlds]
        stock = len(worlds[0].remaining_stock)
        out = {}
        for code in worlds[0].legal_codes():
            front = self._child(worlds, list(range(len(worlds))), code, stock)
            out[code] = max(sum(v) for v in front) / len(worlds)
        return out

    def _child(self, worlds: list[State], which: list[int], code: MoveCode, stock: int) -> list[Vector]:
        """The front after ``code`` in the worlds ``which`` (indices into ``worlds``)."""
        for i in which:
            worlds[i].push(code)
        try:
            return self._front(worlds, which, stock)
        finally:
            for i in which:
                worlds[i].pop()

    def _front(self, worlds: list[State], which: list[int], stock: int) -> list[Vector]:
        """The Pareto front of the worlds ``which``, all at the same public position."""
        first = worlds[which[0]]
        if len(first.remaining_stock) < stock or first.hand_over:
            return [tuple(self._leaf(worlds, i) for i in which)]
        if first.rules.side_of(first.to_move) == self.side:
            # The player's own cards are known in every world: the same moves everywhere.
            found: list[Vector] = []
            for code in first.legal_codes():
                found += self._child(worlds, which, code, stock)
            return self._trim(pareto(found))
        # The opponent's moves differ from world to world: each answers every world it is legal in.
        by_code: dict[MoveCode, list[int]] = {}
        for n, i in enumerate(which):
            for code in worlds[i].legal_codes():
                by_code.setdefault(code, []).append(n)
        front: list[Vector] = [(INFINITY,) * len(which)]
        for code, where in by_code.items():
            child = self._child(worlds, [which[n] for n in where], code, stock)
            combined = []
            for v in front:
                for w in child:
                    u = list(v)
                    for k, n in enumerate(where):
                        if w[k] < u[n]:
                            u[n] = w[k]
                    combined.append(tuple(u))
            front = self._trim(pareto(combined))
        return front

    def _leaf(self, worlds: list[State], i: int) -> int:
        """World ``i``'s exact value from the last deal's start (or the hand's end)."""
        state = worlds[i]
        key = state.key()
        known = self.leaves[i].get(key)
        if known is None:
            known = self.solver.value(state, self.side)
            self.leaves[i][key] = known
        return known

    def _trim(self, front: list[Vector]) -> list[Vector]:
        """At most ``limit`` vectors, the best on average (``pareto`` sorts them so)."""
        if len(front) > self.limit:
            self.capped += 1
            return front[: self.limit]
        return front


def fused_values(worlds: list[State], side: int, solver: Solver) -> dict[MoveCode, float]:
    """Each legal move's mean over the worlds, each solved exactly on its own: the determinized
    search's values, which αμ's never exceed (the control ``fused=1`` plays by them)."""
    totals: dict[MoveCode, float] = {}
    for world in worlds:
        for code, value in solver.solve(world, side)[1]:
            totals[code] = totals.get(code, 0.0) + value
    return {code: total / len(worlds) for code, total in totals.items()}


class AlphaMuPlayer:
    """``base`` search, and αμ (``AlphaMu``) over ``mu_worlds`` sampled worlds once it holds ``cards``
    or fewer in the next-to-last deal of a two-handed game. ``fused=1`` plays there by the same
    worlds solved one by one instead (``fused_values``): the determinized search it corrects, on
    the very worlds it draws, for measuring what strategy fusion costs."""

    name = "alphamu"

    def __init__(
        self,
        seed: int | None = None,
        cards: int = 2,
        mu_worlds: int = 16,
        limit: int = 256,
        fused: int = 0,
        **settings: Any,
    ) -> None:
        self.base = SearchPlayer(seed, **settings)
        self.cards = int(cards)
        self.mu_worlds = int(mu_worlds)
        self.limit = int(limit)
        self.fused = bool(fused)
        self.rng = random.Random(None if seed is None else f"alphamu {seed}")
        self.solver = Solver(10_000_000)

    def applies(self, view: View) -> bool:
        """Two players, the next-to-last deal (the stock holds the last), a choice, and few cards."""
        rules = view.rules
        return (
            rules.players == 2
            and view.stock_size == 4 * rules.players
            and 2 <= int(view.hand).bit_count() <= self.cards
            and len(view.legal) > 1
        )

    def choose(self, view: View) -> MoveCode:
        """αμ's best move where it applies, else the base search's. The base search chooses too
        where αμ applies, and its move wins a tie: αμ changes a move only for one that is better
        in its worlds, and two players built alike choose alike wherever it changes nothing."""
        base = self.base
        chosen = base.choose(view)
        if not self.applies(view):
            return chosen
        sampler = WorldSampler(view, self.rng, base.infer, base.floor, balanced=base.balance)
        worlds: dict[tuple[object, ...], State] = {}
        for _ in range(4 * self.mu_worlds):
            world = sampler()
            worlds.setdefault((world.hands, world.remaining_stock), world)
            if len(worlds) >= self.mu_worlds:
                break
        side = view.rules.side_of(view.seat)
        try:
            if self.fused:
                values = fused_values(list(worlds.values()), side, self.solver)
            else:
                values = AlphaMu(side, self.solver, self.limit).values(list(worlds.values()))
        except SolverBudgetExceeded:
            return chosen  # a world too large to solve within the solver's budget
        best = max(values.values())
        if values.get(chosen) == best:
            return chosen
        return self.rng.choice([c for c, v in values.items() if v == best])


SETTINGS: dict[str, type[int] | type[float]] = {"cards": int, "mu_worlds": int, "limit": int, "fused": int}
"""``alphamu``'s own settings; the others are its base search's."""

register("alphamu", AlphaMuPlayer, {**SETTINGS, **SEARCH_SETTINGS})
