"""Who plays which deal in which seats: the tables of a match or round robin, mirrored seatings, and
the seeds of every game, all derived from one master seed.

Everything here is a pure function of the arena's settings, so a plan is the same on any machine and
under any executor; the tasks are plain data (player specs and seeds, never player objects) because
they cross process and machine boundaries.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ArgumentError
from ..rules import Rules


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from its parts, the same on every platform and process (unlike ``hash``)."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def entrant_labels(specs: Sequence[str]) -> list[str]:
    """Unique names for the entrants: a spec named more than once becomes ``spec#1``, ``spec#2`` ..."""
    total = {s: specs.count(s) for s in specs}
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        if total[spec] == 1:
            labels.append(spec)
        else:
            seen[spec] = seen.get(spec, 0) + 1
            labels.append(f"{spec}#{seen[spec]}")
    return labels


def table_size(rules: Rules) -> int:
    """Entrants at one table: one per scoring side (a partnership team is one entrant in two seats)."""
    return rules.sides


def make_tables(entrants: int, rules: Rules) -> list[tuple[int, ...]]:
    """Every group of ``table_size`` entrants, in order: one table when exactly that many are named
    (a match), each pair or each group of 3 or 4 otherwise (a round robin)."""
    size = table_size(rules)
    if entrants < size:
        what = "teams" if rules.partnerships else "players"
        raise ArgumentError(f"{rules.describe()} seats {size} {what}: name at least {size}, got {entrants}")
    return list(itertools.combinations(range(entrants), size))


def seatings(table: Sequence[int]) -> list[tuple[int, ...]]:
    """The mirrored seatings of a table: every rotation, as the entrant on each side. Two sides give
    both orders; 3 or 4 individual players each sit once in every seat (and so deal first once)."""
    n = len(table)
    return [tuple(table[(r + side) % n] for side in range(n)) for r in range(n)]


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: everything a worker needs to rebuild the players and deal the cards."""

    index: int
    """Position in the plan; results are put back in this order."""
    table: int
    deal: int
    seating: int
    sides: tuple[int, ...]
    """The entrant on each scoring side."""
    seats: tuple[str, ...]
    """The player spec in each seat."""
    deal_seed: int
    player_seeds: tuple[int, ...]
    rules: dict[str, Any]
    """``Rules.to_json()``: plain data, rebuilt and validated in the worker."""
    max_hands: int


def plan(
    specs: Sequence[str], rules: Rules, deals: int, seed: int, max_hands: int = 100
) -> tuple[list[tuple[int, ...]], list[GameTask]]:
    """The tables and the games of an arena, table by table, deal by deal, seating by seating.

    Every table plays the same deals (``deal_seed`` depends on the master seed and the deal number
    only), and player seeds depend on (seed, table, deal, seating, seat), so a run with more deals
    starts with exactly the games of a shorter one.
    """
    if deals < 1:
        raise ArgumentError(f"the number of deals must be 1 or more, got {deals}")
    tables = make_tables(len(specs), rules)
    rules_json = rules.to_json()
    deal_seeds = [derive_seed(seed, "deal", d) for d in range(deals)]
    tasks: list[GameTask] = []
    for t, table in enumerate(tables):
        rotations = seatings(table)
        for d in range(deals):
            for r, sides in enumerate(rotations):
                seats = tuple(specs[sides[rules.side_of(s)]] for s in range(rules.players))
                player_seeds = tuple(derive_seed(seed, "player", t, d, r, s) for s in range(rules.players))
                tasks.append(
                    GameTask(len(tasks), t, d, r, sides, seats, deal_seeds[d], player_seeds, rules_json, max_hands)
                )
    return tables, tasks
