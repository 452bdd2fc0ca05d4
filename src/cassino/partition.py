"""Which sets of loose cards split into groups of one value: the subset-sum core of move generation.

Whether a set of table cards splits into groups each worth ``V`` depends only on how many cards of
each value it holds, not on their suits. So the search runs on *value vectors* and is cached per
vector; only the expansion into real cards (which suits) depends on the table. Memory stays
proportional to the answer however large the table grows, and no card set needs deduplication:
different choices of suits always give different sets.

A value vector keeps the count of value ``v`` in the four bits at ``4 * (v - 1)``. Because a card is
``rank * 4 + suit`` and a numeral card's value is ``rank + 1``, the vector of a card mask is just the
popcount of each of its four-bit rank fields (``vector_of``): no loop over cards.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from itertools import chain, combinations, product
from typing import Final, TypeAlias, TypeVar

from .cards import CardMask

ValueVector: TypeAlias = int
"""Counts of cards per value 1..14, four bits each: value ``v`` sits at bit ``4 * (v - 1)``."""

FIELD_BITS: Final = 4
"""The bits of one value's field, in a vector as in a card mask (four suits of a rank)."""
FIELD_MASK: Final = (1 << FIELD_BITS) - 1
"""One field's bits, at the bottom: ``vector >> FIELD_BITS * (v - 1) & FIELD_MASK`` is the count of ``v``."""

GUARD: Final[int] = sum(1 << (FIELD_BITS * i + 3) for i in range(14))
"""The top bit of every field, used to compare vectors field by field in one subtraction."""

UNIT: Final[tuple[int, ...]] = (0, *(1 << (FIELD_BITS * (v - 1)) for v in range(1, 15)))
"""``UNIT[v]`` is the vector of one card of value ``v``."""

UP_TO: Final[tuple[CardMask, ...]] = tuple((1 << (FIELD_BITS * v)) - 1 for v in range(15))
"""``mask & UP_TO[v]`` keeps the cards of value 1..v: larger cards never join a group of ``v``."""

_M1: Final = int("5" * 13, 16)
"""Every other bit of the 13 rank fields: the first step of a popcount per field."""
_M2: Final = int("3" * 13, 16)
"""The low two bits of every rank field's halves: the second step of a popcount per field."""


def vector_of(mask: CardMask) -> ValueVector:
    """The value vector of a mask of numeral cards (each four-bit rank field replaced by its popcount)."""
    x = mask - ((mask >> 1) & _M1)
    return (x & _M2) + ((x >> 2) & _M2)


def fits(small: ValueVector, big: ValueVector) -> bool:
    """True when every count of ``small`` is at most that of ``big`` (counts of at most 8)."""
    return ((big | GUARD) - small) & GUARD == GUARD


_LIMIT: Final = 1 << 18
"""The most answers each of this module's caches holds; a full cache is emptied and fills again
(``keep``).

The caches are dicts keyed by one int (every key fits 62 bits), not ``lru_cache``: a compiled
caller asks them with no call through Python, and the garbage collector has no linked list of
entries to walk each time it looks at old objects."""

K = TypeVar("K")
V = TypeVar("V")


def keep(cache: dict[K, V], key: K, answer: V, limit: int) -> V:
    """Store ``answer`` in ``cache`` and return it; a cache that holds ``limit`` answers is
    emptied first (one sweep, cheaper than trimming at every insertion): the one eviction policy of
    the engine's caches."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = answer
    return answer


_COUNTS: Final[dict[ValueVector, tuple[tuple[int, int], ...]]] = {}


def counts(vector: ValueVector) -> tuple[tuple[int, int], ...]:
    """The (value, count) pairs of a vector with a non-zero count, ascending by value."""
    found = _COUNTS.get(vector)
    return keep(_COUNTS, vector, _counts(vector), _LIMIT) if found is None else found


def _counts(vector: ValueVector) -> tuple[tuple[int, int], ...]:
    """``counts`` without its cache."""
    out = []
    v = 1
    while vector:
        k = vector & FIELD_MASK
        if k:
            out.append((v, k))
        vector >>= FIELD_BITS
        v += 1
    return tuple(out)


BIG: Final = 1 << 30
"""From here on CPython multiplies ints digit by digit (30 bits each), checking for signals."""


def multiply(a: int, b: int) -> int:
    """``a * b`` for a small ``b``, made by a call to ``operator.mul`` once ``a`` is a big int.

    CPython checks for signals while it multiplies ints of two digits and more, so a Ctrl-C may
    surface inside a multiplication; a compiled multiplication reads any failure as running out of
    memory and aborts the process ("fatal: out of memory"), where a call passes the
    ``KeyboardInterrupt`` on. Below ``BIG`` the product is made directly, checking nothing."""
    if a < BIG:
        return a * b
    made: int = operator.mul(a, b)
    return made


def total(vector: ValueVector) -> int:
    """The sum of the values of a vector's cards."""
    out = 0
    v = 1
    while vector:
        out += v * (vector & FIELD_MASK)
        vector >>= FIELD_BITS
        v += 1
    return out


_GROUPS: Final[dict[int, tuple[ValueVector, ...]]] = {}


def groups(target: int, available: ValueVector) -> tuple[ValueVector, ...]:
    """Every non-empty vector within ``available`` whose values sum to ``target``."""
    key = available << 4 | target
    found = _GROUPS.get(key)
    return keep(_GROUPS, key, _groups(target, available), _LIMIT) if found is None else found


def _groups(target: int, available: ValueVector) -> tuple[ValueVector, ...]:
    """``groups`` without its cache."""
    out: list[ValueVector] = []
    pairs = counts(available)
    _walk_groups(pairs, len(pairs) - 1, target, 0, out)
    return tuple(out)


def _walk_groups(
    pairs: tuple[tuple[int, int], ...], i: int, remaining: int, acc: ValueVector, out: list[ValueVector]
) -> None:
    """``_groups``' search from the ``i``-th (value, count) pair down, ``remaining`` still to make
    up: a function of its own rather than a closure, whose cycle of references (a compiled closure
    and its environment) only the garbage collector could free."""
    if remaining == 0:
        if acc:
            out.append(acc)
        return
    if i < 0:
        return
    v, k = pairs[i]
    for take in range(min(k, remaining // v), -1, -1):
        # A shift, not take * UNIT[v]: no multiplication of big ints (see ``multiply``).
        _walk_groups(pairs, i - 1, remaining - take * v, acc + (take << FIELD_BITS * (v - 1)), out)


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
        # A vector is dominated only by vectors of larger total, and then by a maximal one: so
        # scanning by descending total, each candidate is compared with the maxima found so far.
        kept: list[ValueVector] = []
        for a in sorted(found, key=total, reverse=True):
            if not any(fits(a, b) for b in kept):
                kept.append(a)
        found = sorted(kept)
    return tuple(found)


def is_splittable(vector: ValueVector, value: int) -> bool:
    """True when the cards of ``vector`` split into groups each worth ``value`` (and there is one)."""
    if vector == 0 or total(vector) % value:
        return False
    return vector in splittable(vector, value, 0, False)


def in_some_group(available: ValueVector, value: int, extra: int) -> bool:
    """True when one card worth ``extra`` (at least 1) lies in some group worth ``value`` with cards
    of ``available``: alone when it is worth ``value``, else with a group of ``groups``. This is
    whether ``splittable(available, value, extra, False)`` has any vector, asked of its first step
    alone (a loose card that no capture of a value can take lies in no such group)."""
    if extra == value:
        return True
    return 0 < extra < value and bool(groups(value - extra, available))


_CHOICES: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(sum(c) for c in combinations([1 << i for i in range(4) if pattern >> i & 1], k)) for k in range(5))
    for pattern in range(16)
)
"""``_CHOICES[pattern][k]``: the sub-patterns of ``k`` bits of a four-bit suit pattern."""

_CACHE_BIG: Final = 256
"""The largest answer of ``card_sets`` kept (``table_answer``); larger ones are made again each time."""


_PLANS: Final[dict[int, tuple[int, ...]]] = {}


def _plans(available: ValueVector, value: int, extra: int, maximal: bool) -> tuple[int, ...]:
    """``splittable`` with, after each vector, the mask of the rank fields it uses: one flat tuple
    of ints, ``(vector, fields, vector, fields, ...)``, which the garbage collector stops walking
    once it has seen it (a tuple of pairs takes it several passes)."""
    key = sets_key(available, value, extra, maximal)  # a vector of numeral cards fits 52 bits too
    found = _PLANS.get(key)
    return keep(_PLANS, key, _make_plans(available, value, extra, maximal), _LIMIT) if found is None else found


def _make_plans(available: ValueVector, value: int, extra: int, maximal: bool) -> tuple[int, ...]:
    """``_plans`` without its cache."""
    out: list[int] = []
    for vec in splittable(available, value, extra, maximal):
        fields = 0
        for v, _k in counts(vec):
            fields |= FIELD_MASK << (FIELD_BITS * (v - 1))
        out += (vec, fields)
    return tuple(out)


def _expand(loose: CardMask, vec: ValueVector) -> list[CardMask]:
    """The card sets of ``loose`` with exactly the value counts of ``vec``."""
    masks = [0]
    for v, k in counts(vec):
        shift = FIELD_BITS * (v - 1)
        opts = _CHOICES[(loose >> shift) & FIELD_MASK][k]
        if len(opts) == 1:
            o = opts[0] << shift
            masks = [m | o for m in masks]
        else:
            masks = [m | o << shift for m in masks for o in opts]
    return masks


def _expansion_size(loose: CardMask, vec: ValueVector) -> int:
    """How many card sets ``_expand`` gives, without making them."""
    n = 1
    for v, k in counts(vec):
        n = multiply(n, len(_CHOICES[(loose >> (FIELD_BITS * (v - 1))) & FIELD_MASK][k]))
    return n


class LazyCardSets:
    """A large answer of ``card_sets``: its length is known at once, its sets are made one value
    vector at a time while iterating, so memory stays small however large the table is."""

    __slots__ = ("_loose", "_size", "_vectors", "has_empty")

    def __init__(self, loose: CardMask, vectors: tuple[ValueVector, ...], size: int) -> None:
        self._loose = loose
        self._vectors = vectors
        """The value vectors of the sets, ascending: the empty one first when it is a set."""
        self._size = size
        self.has_empty = bool(vectors) and vectors[0] == 0

    def __len__(self) -> int:
        return self._size

    def __contains__(self, cards: object) -> bool:
        """Whether ``cards`` is one of the sets, without making them: the sets are exactly the
        subsets of the loose cards whose value vector is a plan's."""
        if not isinstance(cards, int) or cards & ~self._loose:
            return False
        vec = vector_of(cards)
        return vec in self._vectors

    def __iter__(self) -> Iterator[CardMask]:
        return chain.from_iterable(self.by_vector())

    def by_vector(self) -> list[Iterator[CardMask]]:
        """The sets in groups, one fresh iterator per value vector, in the order iteration gives
        them (iteration is these groups one after another); nothing is made until one is read.

        For consumers that stream the sets in another order without making them all, as
        ``movegen.iter_sorted_moves`` does by merging the groups as sorted runs. What they may rely
        on: the sets of one group hold the same number of cards of each value, and come in
        ``itertools.product`` order over the group's values, the lowest value outermost, each
        value's choice of suits in ``itertools.combinations`` order of the suits present."""
        return [self._sets_of(vec) for vec in self._vectors]

    def _sets_of(self, vec: ValueVector) -> Iterator[CardMask]:
        """The sets of ``loose`` with exactly the value counts of ``vec``, one at a time."""
        loose = self._loose
        choices = []
        for v, k in counts(vec):
            shift = FIELD_BITS * (v - 1)
            choices.append([o << shift for o in _CHOICES[(loose >> shift) & FIELD_MASK][k]])
        for combo in product(*choices):
            yield sum(combo)


CardSets: TypeAlias = "tuple[CardMask, ...] | LazyCardSets"
"""The answer of ``card_sets``: a cached tuple when small, a ``LazyCardSets`` when large."""


def sets_key(loose: CardMask, value: int, extra: int, maximal: bool) -> int:
    """``card_sets``' arguments as one int, a cache key: the loose cards (52 bits), then the value
    and the extra (four bits each) and ``maximal``, 61 bits in all, mixed by ``spread``."""
    return spread(loose | value << 52 | extra << 56 | (1 << 60 if maximal else 0))


def spread(key: int) -> int:
    """A key of at most 61 bits with its high bits folded into its low ones, one to one (each
    step ``x ^ x >> k`` can be undone). A dict finds an int key by its low bits first (an int
    hashes to itself): card masks share theirs (few tables hold an ace or a two) and the value
    and extra sit at the top, so unmixed keys collide and each lookup walks a long chain."""
    key ^= key >> 23
    return key ^ key >> 41


_SETS: Final[dict[int, tuple[CardMask, ...]]] = {}


def card_sets(loose: CardMask, value: int, extra: int, maximal: bool) -> CardSets:
    """The sets ``S`` of cards of ``loose`` (numeral cards of value at most ``value``) that
    ``splittable`` accepts, as card masks, the empty set first when it qualifies.

    Answers of up to ``_CACHE_BIG`` sets are kept by their arguments (``sets_key``): an answer
    depends on the table's cards up to the value alone, which the tables of a search's worlds
    and lines share far more often than they share every card (``table_sets``)."""
    key = sets_key(loose, value, extra, maximal)
    found = _SETS.get(key)
    if found is not None:
        return found
    sets = _card_sets(loose, value, extra, maximal)
    if isinstance(sets, tuple) and len(sets) <= _CACHE_BIG:
        keep(_SETS, key, sets, _LIMIT)
    return sets


def _card_sets(loose: CardMask, value: int, extra: int, maximal: bool) -> CardSets:
    """``card_sets`` without its cache.

    Answers are made from the plans of the cards' value vector (cached); large ones lazily. The
    generator keeps the small ones of each table (``table_sets``).

    A card worth the value itself is a group of its own, whatever else is taken: so the plans are
    asked of the lower cards only, and each is taken with every count of those cards (all of them
    when ``maximal``). Since that count is the vector's highest field, going through it outermost
    gives the plans of the whole vector in their ascending order; the cache then holds far fewer
    keys, which random play's ever-new tables would otherwise spread over some 250,000 entries."""
    if extra > value:
        return ()
    vector = vector_of(loose)
    # Two answers known without the plans (whose cache is large, so slow to ask): no loose card
    # leaves the empty set alone, when it qualifies; and no group holds the extra card when the
    # loose cards are worth less in all than it needs.
    if not vector:
        return (0,) if extra == 0 or extra == value else ()
    if 0 < extra < value and total(vector) < value - extra:
        return ()
    shift = FIELD_BITS * (value - 1)
    top = vector >> shift & FIELD_MASK  # the cards worth the value
    plans = _plans(vector & ((1 << shift) - 1), value, extra, maximal)
    first = top if maximal else 0
    tops = top - first + 1  # how many counts of them each plan comes with
    if len(plans) * tops > 16:  # more than 8 vectors
        vectors = tuple(plans[i] + (k << shift) for k in range(first, top + 1) for i in range(0, len(plans), 2))
        size = sum(_expansion_size(loose, vec) for vec in vectors)
        if size > _CACHE_BIG:
            return LazyCardSets(loose, vectors, size)
    top_field = FIELD_MASK << shift
    out: list[CardMask] = []
    for k in range(first, top + 1):
        add = k << shift
        cover = top_field if k else 0
        for i in range(0, len(plans), 2):
            vec = plans[i] + add
            whole = loose & (plans[i + 1] | cover)
            if vector_of(whole) == vec:
                # Every card of each value used: one set (the usual case).
                out.append(whole)
            else:
                out.extend(_expand(loose, vec))
    return tuple(out)


Answers: TypeAlias = dict[int, CardSets]
"""Every answer of ``card_sets`` asked so far for one table (``table_answer``), keyed by a small
int of the value and the extra: a plain dict of tuples of ints, which the garbage collector stops
walking once it has seen it (an object of a class of ours it would walk every time)."""


def table_answer(answers: Answers | None, table: CardMask, value: int, extra: int, maximal: bool) -> CardSets:
    """``card_sets(table & UP_TO[value], value, extra, maximal)`` for the table ``answers`` belongs
    to (``table_sets``), made once: the generator asks up to some twenty of them a position. Answers
    larger than ``_CACHE_BIG`` sets are made again each time, and every answer when there is no
    ``answers`` (a game played forward, whose position seldom asks one twice)."""
    if answers is None:
        return card_sets(table & UP_TO[value], value, extra, maximal)
    # extra is at most 13 (a king) and only a capture, whose extra is 0, is ever maximal.
    key = value << 4 | (15 if maximal else extra)
    found = answers.get(key)
    if found is not None:
        return found
    sets = card_sets(table & UP_TO[value], value, extra, maximal)
    if len(sets) <= _CACHE_BIG:
        answers[key] = sets
    return sets


TABLES_CACHE: Final[dict[CardMask, Answers]] = {}
"""The answers of tables seen more than once lately, by their loose numeral cards: perft and
search meet the same tables again and again."""
_TABLES_LIMIT: Final = 1 << 15
_SEEN: Final[dict[CardMask, int]] = {}
"""Tables seen once lately. Random play meets a new table at most moves: keeping the answers of
every one would fill the cache with objects that the garbage collector then walks again and again,
while a dict of ints alone is never walked."""
_SEEN_LIMIT: Final = 1 << 16


def table_sets(table: CardMask) -> Answers:
    """The answers of ``table`` (loose numeral cards) for ``table_answer``: kept in
    ``TABLES_CACHE`` from the second time the table is seen, made for one position the first time."""
    found = TABLES_CACHE.get(table)
    if found is None:
        found = {}
        if table in _SEEN:
            keep(TABLES_CACHE, table, found, _TABLES_LIMIT)
        else:
            keep(_SEEN, table, 1, _SEEN_LIMIT)
    return found


def starts_empty(sets: CardSets) -> bool:
    """True when the empty set is among the sets (it always comes first)."""
    if type(sets) is tuple:
        return bool(sets) and sets[0] == 0
    return sets.has_empty  # type: ignore[union-attr]


def build_total(mask: CardMask) -> int:
    """The sum of the values of a build's cards (a card in a build is worth its rank + 1)."""
    return total(vector_of(mask))
