"""Which sets of loose cards split into groups of one value: the subset-sum core of move generation.

Whether a set of table cards can be split into groups each worth ``V`` depends only on how many
cards of each value it holds, not on their suits. So the search runs on *value vectors* (a count per
value packed into one int, five bits a value) and is cached per vector; only the final expansion
into real cards (choosing which suits) is done per position. That keeps memory proportional to the
answer however large the table grows, and needs no deduplication of card sets: different choices of
suits always give different sets.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TypeAlias

ValueVector: TypeAlias = int
"""Counts of cards per value 1..14, five bits each: value ``v`` sits at bit ``5 * (v - 1)``."""

_FIELD = 5
GUARD: int = sum(1 << (_FIELD * i + _FIELD - 1) for i in range(14))
"""The top bit of every field, used to compare vectors field by field in one subtraction."""

UNIT: tuple[int, ...] = (0, *(1 << (_FIELD * (v - 1)) for v in range(1, 15)))
"""``UNIT[v]`` is the vector of one card of value ``v``."""


def fits(small: ValueVector, big: ValueVector) -> bool:
    """True when every count of ``small`` is at most that of ``big`` (counts stay below 16)."""
    return ((big | GUARD) - small) & GUARD == GUARD


def counts(vector: ValueVector) -> list[tuple[int, int]]:
    """The (value, count) pairs of a vector with a non-zero count, ascending by value."""
    out = []
    v = 1
    while vector:
        k = vector & 31
        if k:
            out.append((v, k))
        vector >>= _FIELD
        v += 1
    return out


def total(vector: ValueVector) -> int:
    """The sum of the values of a vector's cards."""
    return sum(v * k for v, k in counts(vector))


@lru_cache(maxsize=65536)
def groups(target: int, available: ValueVector) -> tuple[ValueVector, ...]:
    """Every non-empty vector within ``available`` whose values sum to ``target``."""
    pairs = counts(available)
    out: list[ValueVector] = []

    def walk(i: int, remaining: int, acc: ValueVector) -> None:
        if remaining == 0:
            out.append(acc)
            return
        if i < 0:
            return
        v, k = pairs[i]
        # Values below v can add at most this much: prune hopeless branches early.
        for take in range(min(k, remaining // v), -1, -1):
            walk(i - 1, remaining - take * v, acc + take * UNIT[v])

    walk(len(pairs) - 1, target, 0)
    return tuple(g for g in out if g)


@lru_cache(maxsize=65536)
def splittable(available: ValueVector, value: int, extra: int, maximal: bool) -> tuple[ValueVector, ...]:
    """The vectors ``S`` within ``available`` such that ``S`` plus one card worth ``extra`` splits
    into groups each worth ``value`` (``extra`` 0: no extra card, the capture case).

    The empty vector is included when it qualifies (``extra`` 0 or equal to ``value``). With
    ``maximal`` only the vectors that no other qualifying vector strictly contains are kept.
    """
    if extra == 0 or extra == value:
        starts: tuple[ValueVector, ...] = (0,)
    elif extra < value:
        starts = groups(value - extra, available)
    else:
        return ()
    steps = groups(value, available)
    seen: set[ValueVector] = set()
    stack = list(starts)
    while stack:
        vec = stack.pop()
        if vec in seen:
            continue
        seen.add(vec)
        for g in steps:
            nxt = vec + g
            if nxt not in seen and fits(nxt, available):
                stack.append(nxt)
    found = sorted(seen)
    if maximal:
        found = [a for a in found if not any(b != a and fits(a, b) for b in found)]
    return tuple(found)


@lru_cache(maxsize=65536)
def is_splittable(vector: ValueVector, value: int) -> bool:
    """True when the cards of ``vector`` split into groups each worth ``value`` (and there is one)."""
    if vector == 0:
        return False
    if total(vector) % value:
        return False
    return vector in splittable(vector, value, 0, False)


@lru_cache(maxsize=65536)
def value_parts(vector: ValueVector) -> tuple[tuple[int, int], ...]:
    """``counts`` cached: the expansion into real cards asks for it at every position."""
    return tuple(counts(vector))
