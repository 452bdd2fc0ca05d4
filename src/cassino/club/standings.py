"""A tournament's tables, their results and the standings: plain data in, plain data out, the same
for the web's tournaments and ``cassino tournament``.

- **Entrants** are names, one per scoring side: a person, a computer player, or a partnership team
  (one entrant in two seats). The order they are given in is the tournament's **seeding order**:
  it breaks every tie that nothing else breaks (``cassino tournament`` draws it from the seed, so a
  place in a file favours nobody; an organiser may give a rating order instead).
- **A table** (``Table``) seats one entrant per side, in side order, for one round, with the
  commitment of the round's deal (``duplicate.seed_commitment``); a side held by a computer player
  that fills a bye is listed in ``computers``: it plays and its game counts for the people at the
  table, but it is no entrant and has no standing.
- **Match points** (``match_points``): each pair of sides at a table scores as ratings score it
  (``ratings.pair_score``: a forfeit loses, the winner beats everyone, the others are ranked by
  their final points, equal points draw, and a game left undecided is a draw between all), and a
  side's match points are its mean score against the other sides. With two sides: win 1, draw
  1/2, loss 0. With three or four: 1 for the winner, 0 for last, the middle by points (three
  sides 11-7-5: 1, 1/2, 0; 11-7-7: 1, 1/4, 1/4).
- **Buchholz**: the sum, over an entrant's games, of the match points each entrant it met there has
  at the end; a computer player of a bye adds nothing (it has no standing).
- **Board score** (``board_scores``), as in duplicate bridge: a side's **margin** in a game is its
  final points minus the mean of the other sides' (with two sides, its points difference); it is
  compared with the margin of everyone who held the same cards: the same deal (commitment) in the
  same side's seats, at every table of the round, a bye's table and its computer player included.
  The board score of that game is the margin minus the mean margin of those holders (the side's
  own included), so a lone holder scores 0, and over a deal the holders of a seat sum to 0. An
  entrant's ``board`` is the sum over their games: how many points they took beyond the field
  that had their cards. A forfeited game counts with the points as they stood.
- **Standings** (``standings``): by match points, then Buchholz, then board score, then the
  seeding order; ``rank`` is the place in that order (1 first, no two alike).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import TournamentInputError
from .ratings import Finish, pair_score

PRECISION = 9
"""Decimals kept when points are compared, so that sums of thirds taken in another order still tie."""


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: the name on each side (in side order) and the commitment of the deal
    every table of the round plays; ``computers`` are the sides of a computer player filling a bye."""

    round: int
    """The round, from 1 (in an arena: the number of the deal the table plays)."""
    number: int
    """The table's number in its round, from 1."""
    seats: tuple[str, ...]
    """The entrant (or the bye's computer player) on each side, side 0 first."""
    deal: str
    """The commitment of the deal's seed (``duplicate.seed_commitment``)."""
    computers: tuple[int, ...] = ()
    """The sides held by a computer player that fills a bye: no entrant, no standing."""

    @property
    def bye(self) -> bool:
        """Whether a computer player fills a side of this table (its people have a bye)."""
        return bool(self.computers)

    def entrants(self) -> tuple[str, ...]:
        """The entrants at the table, in side order (the bye's computer players left out)."""
        return tuple(name for side, name in enumerate(self.seats) if side not in self.computers)

    def to_json(self) -> dict[str, Any]:
        """The pairing as the API gives it: round, table, seats (names), deal (its commitment) and
        the sides of a bye's computer player."""
        return {
            "round": self.round,
            "table": self.number,
            "seats": list(self.seats),
            "deal": self.deal,
            "computers": list(self.computers),
        }


@dataclass(frozen=True, slots=True)
class Result:
    """How one table's game ended: each side's final points, the winning side (-1: none reached
    the target, a draw) and the side that forfeited (-1: none)."""

    table: Table
    scores: tuple[int, ...]
    winner: int = -1
    forfeit: int = -1

    def __post_init__(self) -> None:
        sides = len(self.table.seats)
        if len(self.scores) != sides:
            raise TournamentInputError(
                f"table {self.table.number} of round {self.table.round} has {sides} sides, "
                f"the result gives {len(self.scores)} scores",
                "bad_result",
            )
        for what, side in (("winner", self.winner), ("forfeit", self.forfeit)):
            if not -1 <= side < sides:
                raise TournamentInputError(f"the {what} must be a side 0..{sides - 1} or -1, got {side}", "bad_result")

    def margin(self, side: int) -> float:
        """The side's final points minus the mean of the other sides' (its difference, with two)."""
        others = [s for i, s in enumerate(self.scores) if i != side]
        return self.scores[side] - sum(others) / len(others)


def match_points(result: Result) -> tuple[float, ...]:
    """Each side's match points: its mean score against every other side (``ratings.pair_score``).

    >>> t = Table(1, 1, ("a", "b"), "c0")
    >>> match_points(Result(t, (11, 6), winner=0)), match_points(Result(t, (8, 8)))
    ((1.0, 0.0), (0.5, 0.5))
    >>> match_points(Result(Table(1, 1, ("a", "b", "c"), "c0"), (11, 7, 7), winner=0))
    (1.0, 0.25, 0.25)
    """
    sides = len(result.scores)
    finish = Finish(
        tuple(range(sides)), result.scores, result.winner, 0, None if result.forfeit < 0 else result.forfeit
    )
    return tuple(
        sum(pair_score(finish, side, other) for other in range(sides) if other != side) / (sides - 1)
        for side in range(sides)
    )


def board_scores(results: Sequence[Result]) -> list[tuple[float, ...]]:
    """Each result's board score per side: its margin minus the mean margin of everyone who held
    the same cards (the same deal, the same side), in the order of ``results``.

    >>> deal = "c1"
    >>> one = Result(Table(1, 1, ("a", "b"), deal), (11, 7), winner=0)
    >>> two = Result(Table(1, 2, ("c", "d"), deal), (11, 9), winner=0)
    >>> board_scores([one, two])
    [(1.0, -1.0), (-1.0, 1.0)]
    """
    held: dict[tuple[str, int], list[float]] = {}
    for result in results:
        for side in range(len(result.scores)):
            held.setdefault((result.table.deal, side), []).append(result.margin(side))
    out = []
    for result in results:
        row = []
        for side in range(len(result.scores)):
            field = held[result.table.deal, side]
            row.append(result.margin(side) - sum(field) / len(field))
        out.append(tuple(row))
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's line in the standings (``to_json``: the API's fields)."""

    rank: int
    name: str
    points: float
    """Match points: win 1, draw 1/2, loss 0 (``match_points``)."""
    buchholz: float
    """The sum of the final match points of the entrants met, once per game."""
    board: float
    """The sum of the board scores: points beyond the field that held the same cards."""
    games: int
    wins: int
    byes: int
    """Games at a table with a computer player filling a bye."""

    def to_json(self) -> dict[str, Any]:
        """The standing as the API gives it: ``name``, ``points``, ``buchholz``, ``board``, and the
        rank and counts beside them."""
        return {
            "rank": self.rank,
            "name": self.name,
            "points": self.points,
            "buchholz": self.buchholz,
            "board": self.board,
            "games": self.games,
            "wins": self.wins,
            "byes": self.byes,
        }


def check_entrants(entrants: Sequence[str]) -> dict[str, int]:
    """Each entrant's place in the seeding order; TournamentInputError for an empty name or a name
    given twice."""
    if isinstance(entrants, str):
        raise TournamentInputError(f"entrants are a list of names, got the one text {entrants!r}", "bad_entrants")
    order: dict[str, int] = {}
    for name in entrants:
        if not isinstance(name, str) or not name:
            raise TournamentInputError(f"an entrant is a non-empty name, got {name!r}", "bad_entrants")
        if name in order:
            raise TournamentInputError(f"entrant {name!r} is named twice", "bad_entrants")
        order[name] = len(order)
    return order


def check_results(order: dict[str, int], results: Iterable[Result]) -> None:
    """TournamentInputError for a result whose table seats someone who is no entrant."""
    for result in results:
        for name in result.table.entrants():
            if name not in order:
                table = result.table
                raise TournamentInputError(
                    f"{name!r} at table {table.number} of round {table.round} is no entrant", "bad_result"
                )


def points_of(entrants: Sequence[str], results: Iterable[Result]) -> dict[str, float]:
    """Each entrant's match points from the results so far."""
    points = dict.fromkeys(entrants, 0.0)
    for result in results:
        for side, got in enumerate(match_points(result)):
            if side not in result.table.computers:
                name = result.table.seats[side]
                points[name] = points.get(name, 0.0) + got
    return points


def standings(entrants: Sequence[str], results: Sequence[Result]) -> list[Standing]:
    """The standings after ``results``: by points, then Buchholz, then board score, then the
    seeding order (the order of ``entrants``).

    >>> t1 = Table(1, 1, ("a", "b"), "d1")
    >>> t2 = Table(1, 2, ("c", "d"), "d1")
    >>> [(s.rank, s.name, s.points) for s in standings(["a", "b", "c", "d"], [
    ...     Result(t1, (11, 5), winner=0), Result(t2, (7, 11), winner=1)])]
    [(1, 'a', 1.0), (2, 'd', 1.0), (3, 'b', 0.0), (4, 'c', 0.0)]

    (``a`` and ``d`` tie on everything, as two tables of one deal always do: the seeding order decides.)
    """
    order = check_entrants(entrants)
    check_results(order, results)
    points = points_of(entrants, results)
    buchholz = dict.fromkeys(entrants, 0.0)
    board = dict.fromkeys(entrants, 0.0)
    games = dict.fromkeys(entrants, 0)
    wins = dict.fromkeys(entrants, 0)
    byes = dict.fromkeys(entrants, 0)
    for result, boards in zip(results, board_scores(results), strict=True):
        table = result.table
        people = [(side, name) for side, name in enumerate(table.seats) if side not in table.computers]
        for side, name in people:
            games[name] += 1
            wins[name] += result.winner == side
            byes[name] += table.bye
            board[name] += boards[side]
            buchholz[name] += sum(points[other] for s, other in people if s != side)

    def key(name: str) -> tuple[float, float, float, int]:
        return (
            -round(points[name], PRECISION),
            -round(buchholz[name], PRECISION),
            -round(board[name], PRECISION),
            order[name],
        )

    ranked = sorted(entrants, key=key)
    return [
        Standing(rank, name, points[name], buchholz[name], board[name], games[name], wins[name], byes[name])
        for rank, name in enumerate(ranked, start=1)
    ]
