"""Who plays whom in a tournament: Swiss rounds (``swiss_round``) and the arena's re-pairing of
whoever is free (``arena_tables``), as pure functions of the entrants and the results so far, so
that the web's tournaments and ``cassino tournament`` pair with the same code.

Entrants are names in seeding order (``standings``); they are **ranked** by match points, then
seeding order. A table seats ``size`` entrants, one per scoring side (``arena.schedule.table_size``:
2, or 3 or 4 individual players).

**Swiss** (``swiss_round``), a simplified Dutch system:

- **Byes**: when the entrants do not fill whole tables, the ``n % size`` left over sit at one last
  table completed by computer players (``BYE_PLAYER``, a mid level, by default): their game counts
  for them, the computer players have no standing. They are those with the fewest byes so far,
  lowest ranked first, and never a set in which someone has had more byes than someone left out:
  nobody gets a second bye while another has none.
- **Tables** are filled from the top of the ranking: the highest-ranked entrant not yet seated takes
  the companions it prefers among the others not yet seated. With two sides, within its score
  group the top half meets the bottom half in order (1 v h+1, 2 v h+2, ... where h is half the
  group), the top half's others after, then the lower groups by rank (so an odd one out floats
  down to the next group); with three or four sides, the nearest ranked.
- **No repeat meetings**: with two sides nobody meets an opponent twice. When a choice leaves the
  rest with no legal seating, the next preference is tried (a depth-first search that remembers
  the sets of entrants found unseatable); ``PairingError`` when no pairing exists at all. With
  three or four sides, meetings run out fast (four entrants of a table meet three at once), so the
  rule is: no two entrants who met before sit together when such a grouping exists, else the
  grouping with the fewest pairs meeting again, found by searching with 0, 1, 2, ... allowed
  (each search bounded by ``SEARCH_STEPS`` choices; a bound reached counts as none found).
- **Looking ahead** (two sides, when the planned number of rounds is given): a pairing is taken
  only if every round left can still be paired without a repeat (with a bye each round to someone
  who has had fewest), as the FIDE systems ask that a pairing allow the tournament to be
  completed; round by round pairing alone can leave, say, six entrants after three rounds with
  two triangles of players who have all met, and no fourth round. Exact for small tournaments;
  past ``LOOKAHEAD_STEPS`` it trusts the rounds left, and when no pairing passes it pairs the
  round as it would without looking.
- **Seats**: each table's sides are given so that each entrant holds the side it has held least
  (the least total of earlier games in the sides given); a tie puts the higher ranked in the lower
  side in odd rounds and the other way round in even rounds.
- **Deals**: every table of the round plays the round's deal: its commitment is given, and is the
  ``deal`` of each table (``duplicate``).

**Arena** (``arena_tables``), as Lichess runs them: for a fixed time, whoever is free is paired
again at once, with players of near score, never in an immediate rematch (two entrants whose last
games were at the same table do not sit together again next), no byes. Those free longest are
seated first: when the free do not fill whole tables, the last to become free wait. The rematch
rule gives way only when it would leave everyone waiting with nobody playing (or when the
tournament has no more entrants than a table seats). Each table plays the first deal that none of
its entrants has played (deals are committed in advance, in order), so tables started together
share their deal and nobody meets a deal twice; a table's ``round`` is the number of its deal.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from .errors import PairingError, TournamentInputError
from .standings import PRECISION, Result, Table, check_entrants, check_results, points_of

BYE_PLAYER: Final = "casual"
"""The computer player that fills a bye: the middle of the ladder (``players.LEVELS``), the level
the lobby offers a new account."""
SIZES: Final = (2, 3, 4)
"""Entrants a table seats: one per scoring side."""
SEARCH_STEPS: Final = 200_000
"""Choices one search may try before it gives up (a bound on time; small tournaments never reach it)."""
LOOKAHEAD_STEPS: Final = 50_000
"""Steps the look-ahead of one Swiss round may take (``swiss_round``'s ``rounds``); past them it
trusts that the rounds left can be paired (a bound on time; a dozen entrants never reach it)."""


@dataclass
class History:
    """What the pairings need of the games so far, by entrant: points, who met whom, byes, how often
    each side was held, the entrants of the latest table and the deals (rounds) played."""

    order: dict[str, int]
    points: dict[str, float]
    met: set[frozenset[str]] = field(default_factory=set)
    byes: dict[str, int] = field(default_factory=dict)
    held: dict[tuple[str, int], int] = field(default_factory=dict)
    last: dict[str, frozenset[str]] = field(default_factory=dict)
    deals: dict[str, set[int]] = field(default_factory=dict)
    tables: dict[int, int] = field(default_factory=dict)
    """Tables started so far, by round."""

    @classmethod
    def of(cls, entrants: Sequence[str], results: Sequence[Result], playing: Sequence[Table] = ()) -> History:
        """The history of the finished ``results`` (in the order they finished) and the tables still
        ``playing``; TournamentInputError for a name that is no entrant."""
        order = check_entrants(entrants)
        check_results(order, results)
        check_results(order, (Result(t, (0,) * len(t.seats)) for t in playing))
        hist = cls(order, points_of(entrants, results))
        for table in [r.table for r in results] + list(playing):
            people = [(side, name) for side, name in enumerate(table.seats) if side not in table.computers]
            names = frozenset(name for _, name in people)
            hist.tables[table.round] = hist.tables.get(table.round, 0) + 1
            for side, name in people:
                hist.held[name, side] = hist.held.get((name, side), 0) + 1
                hist.byes[name] = hist.byes.get(name, 0) + table.bye
                hist.last[name] = names - {name}
                hist.deals.setdefault(name, set()).add(table.round)
            hist.met.update(frozenset(pair) for pair in itertools.combinations(sorted(names), 2))
        return hist

    def rank_key(self, name: str) -> tuple[float, int]:
        """The ranking: more match points first, then the seeding order."""
        return (-round(self.points[name], PRECISION), self.order[name])

    def ranked(self, names: Sequence[str]) -> list[str]:
        """``names`` best first."""
        return sorted(names, key=self.rank_key)

    def have_met(self, a: str, b: str) -> bool:
        """Whether two entrants have sat at one table."""
        return frozenset((a, b)) in self.met

    def rematch(self, a: str, b: str) -> bool:
        """Whether two entrants come from the same latest table (an immediate rematch)."""
        return b in self.last.get(a, frozenset()) or a in self.last.get(b, frozenset())


class _OutOfSteps(Exception):  # noqa: N818 (a signal inside the search, never seen outside)
    """A search that reached ``SEARCH_STEPS``."""


def _companions(
    first: str, candidates: Sequence[str], need: int, budget: int, clash: Callable[[str, str], bool]
) -> Iterator[tuple[tuple[str, ...], int]]:
    """Every choice of ``need`` companions for ``first`` from ``candidates``, in the order of their
    preference (lexicographic), with the pairs that clash among the table, while within ``budget``."""
    chosen: list[str] = []

    def extend(start: int, cost: int) -> Iterator[tuple[tuple[str, ...], int]]:
        if len(chosen) == need:
            yield tuple(chosen), cost
            return
        for i in range(start, len(candidates) - (need - len(chosen)) + 1):
            c = candidates[i]
            add = clash(first, c) + sum(clash(x, c) for x in chosen)
            if cost + add > budget:
                continue
            chosen.append(c)
            yield from extend(i + 1, cost + add)
            chosen.pop()

    yield from extend(0, 0)


class _Search:
    """The depth-first search for tables of ``size`` among a ranked pool, with at most ``budget``
    pairs meeting again; the pools found unseatable are remembered. With ``rounds_left`` (two sides
    only) a complete pairing is taken only if the rounds after it can still be paired (``completable``)."""

    def __init__(self, hist: History, size: int, entrants: Sequence[str], rounds_left: int = 0) -> None:
        self.hist = hist
        self.size = size
        self.failed: set[tuple[frozenset[str], int]] = set()
        self.steps = 0
        self.people = tuple(entrants)
        self.rounds_left = rounds_left if size == 2 else 0
        self.bye: tuple[str, ...] = ()
        """The bye of the pairing being searched (the look-ahead counts it)."""
        self.rejected = 0
        self.look = 0
        self.dead: set[tuple[frozenset[frozenset[str]], tuple[tuple[str, int], ...], int]] = set()
        self.unmet = frozenset(
            frozenset(p) for p in itertools.combinations(self.people, 2) if frozenset(p) not in hist.met
        )

    def preference(self, pool: Sequence[str]) -> list[str]:
        """Whom the top of ``pool`` would rather sit with, best first (see the module's rules)."""
        if self.size > 2:
            return list(pool[1:])
        points = self.hist.points
        top = round(points[pool[0]], PRECISION)
        group = next((i for i, x in enumerate(pool) if round(points[x], PRECISION) != top), len(pool))
        if group < 2:
            return list(pool[1:])
        half = group // 2
        return [*pool[half:group], *reversed(pool[1:half]), *pool[group:]]

    def tables(
        self, pool: tuple[str, ...], budget: int, chosen: tuple[tuple[str, ...], ...] = ()
    ) -> list[tuple[str, ...]] | None:
        """Tables for the whole ``pool`` (ranked, a multiple of ``size``), or None; ``chosen`` are
        the tables already made above it."""
        if not pool:
            if self.rounds_left and not self.completable(chosen):
                self.rejected += 1
                return None
            return []
        key = (frozenset(pool), budget)
        if key in self.failed:
            return None
        rejected = self.rejected
        first = pool[0]
        for companions, cost in _companions(first, self.preference(pool), self.size - 1, budget, self.hist.have_met):
            self.steps += 1
            if self.steps > SEARCH_STEPS:
                raise _OutOfSteps
            rest = tuple(x for x in pool[1:] if x not in companions)
            group = (first, *companions)
            found = self.tables(rest, budget - cost, (*chosen, group))
            if found is not None:
                return [group, *found]
        if self.rejected == rejected:  # unseatable whatever came before: remembered
            self.failed.add(key)
        return None

    def completable(self, chosen: Sequence[tuple[str, ...]]) -> bool:
        """Whether, after this round's ``chosen`` pairs and ``bye``, each of the rounds left can be
        paired without a repeat (a bye each time to someone who has had fewest). Exact, unless the
        look-ahead spends ``LOOKAHEAD_STEPS``: then it answers yes."""
        unmet = self.unmet - {frozenset(group) for group in chosen}
        byes = {x: self.hist.byes.get(x, 0) + (x in self.bye) for x in self.people}
        try:
            return self._more(unmet, byes, self.rounds_left)
        except _OutOfSteps:
            return True

    def _more(self, unmet: frozenset[frozenset[str]], byes: dict[str, int], rounds: int) -> bool:
        """Whether ``rounds`` more rounds can be paired among the pairs still ``unmet``."""
        if rounds == 0:
            return True
        odd = len(self.people) % 2 == 1
        key = (unmet, tuple(sorted(byes.items())) if odd else (), rounds)
        if key in self.dead:
            return False
        fewest = min(byes.values())
        for bye in [x for x in self.people if byes[x] == fewest] if odd else [""]:
            after = {**byes, bye: byes[bye] + 1} if odd else byes
            for matching in self._matchings([x for x in self.people if x != bye], unmet):
                if self._more(unmet - matching, after, rounds - 1):
                    return True
        self.dead.add(key)
        return False

    def _matchings(self, pool: list[str], unmet: frozenset[frozenset[str]]) -> Iterator[frozenset[frozenset[str]]]:
        """Every way of pairing ``pool`` among the pairs ``unmet``."""
        self.look += 1
        if self.look > LOOKAHEAD_STEPS:
            raise _OutOfSteps
        if not pool:
            yield frozenset()
            return
        first = pool[0]
        for q in pool[1:]:
            pair = frozenset((first, q))
            if pair in unmet:
                for rest in self._matchings([x for x in pool[1:] if x != q], unmet):
                    yield rest | {pair}


def _repeats(hist: History, people: Sequence[str]) -> int:
    """Pairs among ``people`` who have met before."""
    return sum(hist.have_met(a, b) for a, b in itertools.combinations(people, 2))


def _bye_sets(hist: History, ranked: list[str], short: int) -> Iterator[tuple[str, ...]]:
    """The sets of ``short`` entrants who may take the bye, in order of preference: fewest byes,
    lowest ranked first; never one with more byes than someone left out."""
    if not short:
        yield ()
        return
    candidates = sorted(ranked, key=lambda x: (hist.byes.get(x, 0), -ranked.index(x)))
    for chosen in itertools.combinations(candidates, short):
        rest = [x for x in ranked if x not in chosen]
        if not rest or max(hist.byes.get(x, 0) for x in chosen) <= min(hist.byes.get(x, 0) for x in rest):
            yield chosen


def seat_table(
    people: Sequence[str], size: int, hist: History, round_number: int, number: int, deal: str, filler: str
) -> Table:
    """The table of ``people`` (ranked) with each on the side it has held least; a short table's
    other sides go to the computer player ``filler``."""
    orders = list(itertools.permutations(range(size), len(people)))
    if round_number % 2 == 0:
        orders.reverse()
    best = min(orders, key=lambda sides: sum(hist.held.get((x, s), 0) for x, s in zip(people, sides, strict=True)))
    seats = [filler] * size
    for name, side in zip(people, best, strict=True):
        seats[side] = name
    computers = tuple(s for s in range(size) if s not in best)
    return Table(round_number, number, tuple(seats), deal, computers)


def _check_size(size: int, entrants: Sequence[str]) -> None:
    if size not in SIZES:
        raise TournamentInputError(f"a table seats 2, 3 or 4 sides, got {size}", "bad_size")
    if len(entrants) < size:
        raise TournamentInputError(
            f"a table seats {size} entrants: a tournament needs at least {size}, got {len(entrants)}", "too_few"
        )


def swiss_round(
    entrants: Sequence[str],
    results: Sequence[Result],
    round_number: int,
    deal: str,
    *,
    size: int = 2,
    bye_player: str = BYE_PLAYER,
    rounds: int = 0,
) -> list[Table]:
    """The tables of Swiss round ``round_number`` after ``results`` (every game of the rounds
    before), all on the deal committed as ``deal``; the bye's table, if any, last. PairingError
    when no pairing keeps the rules; TournamentInputError for bad entrants or settings.

    ``rounds``, the tournament's planned number of rounds (0: not known), makes it look ahead with
    two sides: of the pairings of this round it takes the first after which every round left can
    still be paired without a repeat (six entrants over five rounds must meet as a round robin, and
    a third round can leave two triangles of players who have all met), and only when none can
    does it pair this round as it would without looking ahead.

    >>> [t.seats for t in swiss_round(["a", "b", "c", "d"], [], 1, "c1")]
    [('a', 'c'), ('b', 'd')]
    >>> [(t.seats, t.computers) for t in swiss_round(["a", "b", "c"], [], 1, "c1")]
    [(('a', 'b'), ()), (('c', 'casual'), (1,))]
    """
    _check_size(size, entrants)
    if round_number < 1:
        raise TournamentInputError(f"rounds are numbered from 1, got {round_number}", "bad_round")
    if not deal or not bye_player:
        raise TournamentInputError("a round needs its deal's commitment and a computer player for byes", "bad_round")
    hist = History.of(entrants, results)
    ranked = hist.ranked(entrants)
    short = len(ranked) % size
    ahead = max(0, rounds - round_number)
    for search in ([_Search(hist, size, ranked, ahead)] if ahead and size == 2 else []) + [_Search(hist, size, ranked)]:
        groups = _swiss_groups(search, ranked, short)
        if groups is not None:
            return [
                seat_table(group, size, hist, round_number, n, deal, bye_player)
                for n, group in enumerate(groups, start=1)
            ]
    byes = " with a bye to someone who has had fewest" if short else ""
    raise PairingError(
        f"no pairing for round {round_number} lets {len(ranked)} entrants meet new opponents{byes}: "
        "every way repeats a meeting (too many rounds for this many entrants)",
        "no_pairing",
    )


def _swiss_groups(search: _Search, ranked: list[str], short: int) -> list[tuple[str, ...]] | None:
    """The groups of a Swiss round, the bye's last, with as few repeats as can be (none with two
    sides); None when two sides cannot meet without one."""
    hist, size = search.hist, search.size
    most = len(ranked) * (size - 1) // 2 if size > 2 else 0
    for budget in range(most + 1):
        search.steps = 0
        try:
            for bye in _bye_sets(hist, ranked, short):
                search.steps += 1
                cost = _repeats(hist, bye)
                if cost > budget:
                    continue
                search.bye = bye
                found = search.tables(tuple(x for x in ranked if x not in bye), budget - cost)
                if found is not None:
                    return [*found, bye] if bye else found
        except _OutOfSteps:
            if size == 2 and not search.rounds_left:
                raise PairingError(f"no pairing found within {SEARCH_STEPS} steps", "no_pairing") from None
            if size == 2:
                return None  # looking ahead took too long: pair this round without it
    return None


def arena_tables(
    free: Sequence[str],
    entrants: Sequence[str],
    results: Sequence[Result],
    deals: Sequence[str],
    *,
    playing: Sequence[Table] = (),
    size: int = 2,
) -> list[Table]:
    """The tables to start now in an arena: ``free`` are the entrants waiting (longest waiting
    first), ``results`` the games finished (in the order they finished), ``playing`` the tables under
    way, ``deals`` the commitments of the deals in order (deal ``d`` is round ``d``). Entrants it
    leaves out wait for the next call.

    >>> [t.seats for t in arena_tables(["a", "b", "c", "d"], ["a", "b", "c", "d"], [], ["c1"])]
    [('a', 'b'), ('c', 'd')]
    """
    _check_size(size, entrants)
    hist = History.of(entrants, results, playing)
    seen: set[str] = set()
    busy = {name for table in playing for name in table.entrants()}
    for name in free:
        if name not in hist.order:
            raise TournamentInputError(f"{name!r} is free but no entrant", "bad_free")
        if name in seen or name in busy:
            raise TournamentInputError(f"{name!r} is free twice, or free and at a table", "bad_free")
        seen.add(name)
    waive = len(entrants) <= size
    groups = _arena_groups(list(free), hist, size, waive)
    if not groups and not playing and len(free) >= size:
        groups = _arena_groups(list(free), hist, size, True)
    counts = dict(hist.tables)
    out = []
    for group in groups:
        played: set[int] = set().union(*(hist.deals.get(x, set()) for x in group))
        number = next(d for d in itertools.count(1) if d not in played)
        if number > len(deals):
            raise TournamentInputError(
                f"the table of {', '.join(group)} needs deal {number}, but {len(deals)} are committed", "no_deal"
            )
        counts[number] = counts.get(number, 0) + 1
        out.append(seat_table(group, size, hist, number, counts[number], deals[number - 1], BYE_PLAYER))
    return out


def _arena_groups(free: list[str], hist: History, size: int, waive: bool) -> list[tuple[str, ...]]:
    """Tables of near-ranked free entrants without an immediate rematch (unless ``waive``): first
    among the longest waiting that fill whole tables, then among the rest."""

    def clash(a: str, b: str) -> bool:
        return not waive and hist.rematch(a, b)

    seated = len(free) // size * size
    first, left = _greedy(hist.ranked(free[:seated]), size, clash)
    second, _ = _greedy(hist.ranked(left + free[seated:]), size, clash)
    return sorted(first + second, key=lambda g: hist.rank_key(g[0]))


def _greedy(pool: list[str], size: int, clash: Callable[[str, str], bool]) -> tuple[list[tuple[str, ...]], list[str]]:
    """From the top: each takes its nearest-ranked companions with no clash, or waits."""
    remaining = list(pool)
    groups: list[tuple[str, ...]] = []
    left: list[str] = []
    while len(remaining) >= size:
        first = remaining.pop(0)
        choice = next(_companions(first, remaining, size - 1, 0, clash), None)
        if choice is None:
            left.append(first)
            continue
        groups.append((first, *choice[0]))
        remaining = [x for x in remaining if x not in choice[0]]
    return groups, left + remaining
