"""The daily deal: one hand a day per variant, the same cards for everyone, against ``master``.

The rules of it, with no HTTP and no SQL:

- **The deals of a day** (``deals_of``): each UTC day has classic for two every day, royal for two
  on Tuesdays, Thursdays and Saturdays, and classic for four in partnerships on Wednesdays and
  Sundays. A deal's id is its date and its pool (``2026-12-05-classic-2``).
- **The deck**: the server draws a secret seed when the day's deals are first asked for and
  publishes its SHA-256 (the scheme of ``web.fair``, with the deal's id in the place of a game's);
  the seed is revealed once the day is over (``reveal_after``), so anyone can check that the deck
  everyone played is the one committed to, and nobody could know it before.
- **The opponent**: every other seat is ``OPPONENT``, whose seed is fixed by the deal's seed and the
  seat (``opponent_seed``): two people who play the same moves see the same answers.
- **Master from your seat** (``master_score``): the same hand with ``OPPONENT`` at the person's seat
  too (its own seed, ``master_seed``), against the same opponents, each move thought as the
  server's players think it (``players.seeded_move``): a yardstick for everyone's score, the same
  number wherever it is worked out.
- **The score** (``score``): the points of the person's side in that one hand minus the best of the
  other sides'.
- **Ranks** (``ranked``): the higher score first, equal scores sharing a rank (1, 2, 2, 4);
  ``percentile``: the share of the other attempts a score is above.
- **Streak** (``streak``): the days in a row, up to today or yesterday, with an attempt finished.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..cards import Card
from ..players.base import seeded_move
from ..rules import Rules
from ..table import BOT, Seat, Table
from .ratings import rating_key

OPPONENT: Final = "master"
"""The computer player every seat but the person's is given."""
SEAT: Final = 0
"""The person's seat in every attempt, so that everyone holds the same cards."""
DAY: Final = 86_400
ROYAL_DAYS: Final = frozenset({1, 3, 5})
"""Weekdays (Monday 0) with a royal deal for two."""
PARTNERSHIP_DAYS: Final = frozenset({2, 6})
"""Weekdays with a deal of classic for four in partnerships."""


@dataclass(frozen=True, slots=True)
class DailySpec:
    """One deal of a day: its id, date, preset and seating."""

    id: str
    date: str
    preset: str
    players: int
    partnerships: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "date": self.date,
            "preset": self.preset,
            "players": self.players,
            "partnerships": self.partnerships,
        }


def day_of(epoch: float) -> str:
    """The UTC date of a moment, as ``YYYY-MM-DD``."""
    return dt.datetime.fromtimestamp(epoch, dt.UTC).date().isoformat()


def day_start(date: str) -> float:
    """The first second of a UTC date (epoch seconds)."""
    day = dt.date.fromisoformat(date)
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp()


def reveal_after(date: str) -> float:
    """When a day's seeds are revealed: the moment the day is over."""
    return day_start(date) + DAY


def deal_reveal_after(deal_id: str) -> float:
    """When a deal's seed is revealed: the end of the day in its id."""
    return reveal_after(deal_id[:10])


def deals_of(date: str) -> list[DailySpec]:
    """The deals of a UTC date, in the order they are shown.

    >>> [d.id for d in deals_of("2026-12-05")]  # a Saturday
    ['2026-12-05-classic-2', '2026-12-05-royal-2']
    >>> [d.id for d in deals_of("2026-12-06")]  # a Sunday
    ['2026-12-06-classic-2', '2026-12-06-classic-4p']
    """
    weekday = dt.date.fromisoformat(date).weekday()
    kinds = [("classic", 2, False)]
    if weekday in ROYAL_DAYS:
        kinds.append(("royal", 2, False))
    if weekday in PARTNERSHIP_DAYS:
        kinds.append(("classic", 4, True))
    return [DailySpec(f"{date}-{rating_key(p, n, team)}", date, p, n, team) for p, n, team in kinds]


def spec_of(deal_id: str) -> DailySpec | None:
    """The deal an id names, or None when no day has such a deal (a well-formed date, one of its
    deals)."""
    date = deal_id[:10]
    try:
        found = deals_of(date)
    except ValueError:
        return None
    return next((d for d in found if d.id == deal_id), None)


def opponent_seed(seed: str, seat: int) -> int:
    """The seed of the computer player at ``seat``: fixed by the deal's secret seed, so every
    attempt meets the same player, and unknowable before the reveal like the deck."""
    return int.from_bytes(hashlib.sha256(f"{seed}/opponent/{seat}".encode()).digest()[:4], "big") >> 1


def master_seed(seed: str) -> int:
    """The seed of ``OPPONENT`` at the person's seat in ``master_score``: fixed by the deal's
    secret seed, like the opponents' (and drawn apart from theirs)."""
    return int.from_bytes(hashlib.sha256(f"{seed}/master/{SEAT}".encode()).digest()[:4], "big") >> 1


def master_points(rules: Rules, deck: Sequence[Card], seeds: Sequence[int]) -> tuple[int, ...]:
    """Each side's points in the one hand of ``deck`` with ``OPPONENT`` at every seat (seat ``s``
    seeded ``seeds[s]``), each move made as the server's computer players make theirs
    (``seeded_move``: the seat's seed and the ply), so that the opponents answer as they answer a
    person who plays those moves."""
    seats = [Seat(s, BOT, OPPONENT, bot=OPPONENT, seed=seeds[s]) for s in range(rules.players)]
    table = Table(rules, seats, decks=[list(deck)], count_between_hands=False, last_hand=1)
    while (turn := table.bot_turn()) is not None:
        table.play_bot(turn, seeded_move(turn.spec, turn.seed, turn.ply, turn.view))
    result = table.game.hands[0].result
    assert result is not None, "a hand played to its end is counted"
    return tuple(result.points)


def master_score(rules: Rules, deck: Sequence[Card], seed: str) -> int:
    """How ``OPPONENT`` scored from the person's seat on the deal's deck (``score``), against the
    opponents every attempt meets (``opponent_seed``). Deterministic: the deck and the deal's seed
    fix it, so every process works out the same number."""
    seeds = [master_seed(seed) if s == SEAT else opponent_seed(seed, s) for s in range(rules.players)]
    return score(master_points(rules, deck, seeds), rules.side_of(SEAT))


def score(points: Sequence[int], side: int) -> int:
    """The person's result in the hand: their side's points minus the best of the others'.

    >>> score([7, 4], 0), score([2, 6, 3], 0)
    (3, -4)
    """
    return points[side] - max(p for s, p in enumerate(points) if s != side)


@dataclass(frozen=True, slots=True)
class Entry:
    """A finished attempt on the leaderboard: who (a name, or None for a guest), its score, and its
    rank among all attempts (equal scores share one)."""

    name: str | None
    score: int
    rank: int
    game: str


def ranked(attempts: Iterable[tuple[str | None, int, str]]) -> list[Entry]:
    """The leaderboard: attempts (name, score, game) by score, best first; equal scores share the
    rank of the first of them and keep the order they came in.

    >>> [(e.name, e.rank) for e in ranked([("a", 1, "g1"), ("b", 3, "g2"), (None, 1, "g3"), ("c", -2, "g4")])]
    [('b', 1), ('a', 2), (None, 2), ('c', 4)]
    """
    ordered = sorted(attempts, key=lambda a: -a[1])
    out: list[Entry] = []
    for i, (name, points, game) in enumerate(ordered):
        rank = out[-1].rank if out and out[-1].score == points else i + 1
        out.append(Entry(name, points, rank, game))
    return out


def percentile(scores: Sequence[int], mine: int) -> float:
    """The share (0 to 100) of the other attempts that ``mine`` is above; 100 when alone.

    >>> percentile([3, 1, 1, -2], 1), percentile([5], 5)
    (33.3, 100.0)
    """
    others = list(scores)
    others.remove(mine)
    if not others:
        return 100.0
    return round(100 * sum(1 for s in others if s < mine) / len(others), 1)


def distribution(scores: Iterable[int]) -> list[dict[str, int]]:
    """How many attempts made each score, lowest score first."""
    counts: dict[int, int] = {}
    for s in scores:
        counts[s] = counts.get(s, 0) + 1
    return [{"score": s, "count": counts[s]} for s in sorted(counts)]


def streak(dates: Iterable[str], today: str) -> int:
    """Days in a row with a finished attempt, ending today or (not yet played today) yesterday.

    >>> streak(["2026-12-03", "2026-12-04", "2026-12-05"], "2026-12-05"), streak(["2026-12-04"], "2026-12-05")
    (3, 1)
    >>> streak(["2026-12-02"], "2026-12-05")
    0
    """
    played = set(dates)
    day = dt.date.fromisoformat(today)
    if today not in played:
        day -= dt.timedelta(days=1)
    count = 0
    while day.isoformat() in played:
        count += 1
        day -= dt.timedelta(days=1)
    return count
