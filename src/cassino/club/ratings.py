"""Ratings: Glicko-2 per pool, updated after each rated game between people.

- **Pools**: each preset and seating has a pool of its own (``classic-2``, ``royal-2``,
  ``classic-4p``, ...: ``rating_key``), since strength at one does not carry to another.
- **The method** is the Glicko-2 paper's (``glicko2``: steps 2 to 8, the volatility found with the
  Illinois algorithm as the paper does), on its scale (``SCALE``), with ``TAU`` 0.5 and a new
  player at 1500, RD 350, volatility 0.06.
- **A rating period is one game**, as on the big chess servers: ratings move after every game, not
  in batches. The paper's step 6 grows the RD by one period's volatility; here the RD grows with the
  time since the player's last rated game in the pool instead (``aged``: one period's growth every
  ``PERIOD_SECONDS``), so that a game never widens it and a long break does. It stays within
  ``MIN_RD`` and ``MAX_RD``: at least 45, so that the rating of someone who plays all day still
  moves, and at most a new player's 350.
- **Results** (``encounters``): with two sides (two players, or partnerships) the winner scores 1
  and the loser 0, and a game with no winner is a draw for both. With three or four sides, each pair
  of players is a game between the two (as multi-player games are commonly rated): the winner of the
  game beats everyone, the others are ranked by their final score (equal scores draw). A player who
  forfeited loses to everyone. In partnerships each player meets the other side as one opponent
  with its players' mean rating and mean RD (``composite``), as team games are commonly rated, and
  each partner's own rating moves.
- **Provisional** until ``PROVISIONAL_GAMES`` games in the pool: the page shows "1500?".

Nothing here speaks HTTP or SQL: ``rate_game`` takes the standings before a game and gives them
after; a front end stores them (``cassino.web.rating_store``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from ..table import Table

PRESETS = ("classic", "royal", "spade", "draw")

SCALE: Final = 173.7178
"""The Glicko-2 scale: a rating of 1500 + 173.7178·μ and an RD of 173.7178·φ."""
DEFAULT_RATING: Final = 1500.0
DEFAULT_RD: Final = 350.0
DEFAULT_VOLATILITY: Final = 0.06
TAU: Final = 0.5
"""How far the volatility may move in one period: the paper suggests 0.3 to 1.2."""
EPSILON: Final = 0.000001
"""Where the Illinois algorithm stops (the paper's ε)."""
MIN_RD: Final = 45.0
"""The least RD: a player who plays all day keeps a rating that still moves."""
MAX_RD: Final = DEFAULT_RD
"""The greatest RD: a new player's; a long break widens a rating no further."""
PERIOD_SECONDS: Final = 5 * 24 * 3600.0
"""Time without a rated game in a pool that widens the RD by one period's volatility."""
PROVISIONAL_GAMES: Final = 10
"""Games in a pool before its rating is established (shown without "?")."""


def rating_key(preset: str, players: int, partnerships: bool) -> str:
    """The pool of a game: its preset, its number of players and ``p`` for partnerships.

    >>> rating_key("classic", 4, True), rating_key("royal", 2, False)
    ('classic-4p', 'royal-2')
    """
    if preset not in PRESETS:
        raise ValueError(f"no rating pool for preset {preset!r}: rated games use one of {', '.join(PRESETS)}")
    if players not in (2, 3, 4) or (partnerships and players != 4):
        raise ValueError(f"no rating pool for {players} players{' in partnerships' if partnerships else ''}")
    return f"{preset}-{players}{'p' if partnerships else ''}"


POOLS: Final = tuple(
    rating_key(preset, players, partners)
    for preset in PRESETS
    for players, partners in ((2, False), (3, False), (4, False), (4, True))
)
"""Every pool, in the order the page lists them."""


# ---------------------------------------------------------------------- the Glicko-2 arithmetic
@dataclass(frozen=True, slots=True)
class Rating:
    """A rating, its deviation (RD) and its volatility, on the Glicko scale."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The RD on the Glicko-2 scale."""
        return self.rd / SCALE


@dataclass(frozen=True, slots=True)
class Period:
    """A rating period worked out (``glicko2``): the new rating, and the paper's estimated variance
    ``v`` and improvement ``delta`` (infinite and 0 for a period without games)."""

    rating: Rating
    v: float
    delta: float


def g(phi: float) -> float:
    """How much a game against an opponent of deviation ``phi`` counts (the paper's g)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """The score expected against an opponent (the paper's E)."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, the root of the paper's f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(200):  # it converges in a handful; the bound only guards against a float quirk
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def glicko2(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU, periods: float = 1.0) -> Period:
    """One rating period of the Glicko-2 paper for ``player``, who played ``games`` (each an
    opponent's rating before the period and the score: 1 a win, 0.5 a draw, 0 a loss). ``periods``:
    how many periods of volatility step 6 adds to the RD (1 in the paper; 0 when the RD grew for the
    time between games beforehand, ``aged``). A period without games only widens the RD.

    The Glicko-2 paper's worked example:

    >>> done = glicko2(Rating(1500, 200), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    >>> round(done.rating.rating, 2), round(done.rating.rd, 2), round(done.rating.volatility, 5)
    (1464.05, 151.52, 0.06)
    """
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not games:
        return Period(aged(player, periods), math.inf, 0.0)
    information = 0.0
    gain = 0.0
    for opponent, score in games:
        weight = g(opponent.phi)
        e = expected(mu, opponent.mu, opponent.phi)
        information += weight * weight * e * (1.0 - e)
        gain += weight * (score - e)
    if information <= 0.0:  # every opponent so far off that no result says anything
        return Period(aged(player, periods), math.inf, 0.0)
    v = 1.0 / information
    delta = v * gain
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + periods * new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Period(Rating(DEFAULT_RATING + SCALE * new_mu, SCALE * new_phi, new_sigma), v, delta)


def aged(rating: Rating, periods: float) -> Rating:
    """The rating after ``periods`` rating periods without a game: its RD widened by the volatility
    (the paper's step 6 with no games), to at most ``MAX_RD``."""
    if periods <= 0:
        return rating
    phi = math.sqrt(rating.phi**2 + periods * rating.volatility**2)
    return replace(rating, rd=min(MAX_RD, SCALE * phi))


def composite(side: Sequence[Rating]) -> Rating:
    """A side of several players as one opponent: the mean of their ratings, RDs and volatilities."""
    n = len(side)
    return Rating(sum(r.rating for r in side) / n, sum(r.rd for r in side) / n, sum(r.volatility for r in side) / n)


# ---------------------------------------------------------------------- a game's results
@dataclass(frozen=True, slots=True)
class Finish:
    """How a game ended, as ratings read it: each seat's side, each side's final points, the
    winning side (-1: none, a draw), how many hands were played and the seat that forfeited."""

    sides: tuple[int, ...]
    scores: tuple[int, ...]
    winner: int
    hands: int
    forfeit: int | None = None

    @property
    def seats(self) -> range:
        """The game's seats."""
        return range(len(self.sides))

    def won(self, seat: int) -> bool:
        """Whether the seat's side won the game."""
        return self.winner >= 0 and self.sides[seat] == self.winner

    def points(self, seat: int) -> int:
        """The final points of the seat's side."""
        return self.scores[self.sides[seat]]


def finish_of(table: Table) -> Finish:
    """How a finished table ended (its game's winner, scores, hands and forfeit)."""
    game = table.game
    rules = table.rules
    forfeit = game.forfeited.seat if game.forfeited is not None else None
    sides = tuple(rules.side_of(s) for s in range(rules.players))
    return Finish(sides, tuple(game.scores), game.winner, len(game.hands), forfeit)


def pair_score(finish: Finish, side: int, other: int) -> float:
    """``side``'s score against ``other``: a forfeit loses, the game's winner wins, else the final
    points decide and equal points draw.

    >>> three = Finish((0, 1, 2), (11, 7, 7), winner=0, hands=3)
    >>> pair_score(three, 0, 1), pair_score(three, 1, 0), pair_score(three, 1, 2)
    (1.0, 0.0, 0.5)
    """
    lost = None if finish.forfeit is None else finish.sides[finish.forfeit]
    if lost in (side, other):
        return 0.0 if lost == side else 1.0
    if finish.winner in (side, other):
        return 1.0 if finish.winner == side else 0.0
    mine, theirs = finish.scores[side], finish.scores[other]
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


def encounters(finish: Finish) -> dict[int, list[tuple[tuple[int, ...], float]]]:
    """Each seat's games, as rated: the seats of each opponent side met (one side of two in
    partnerships, rated as their mean) and the seat's score against it.

    >>> encounters(Finish((0, 1), (11, 4), winner=0, hands=2))
    {0: [((1,), 1.0)], 1: [((0,), 0.0)]}
    >>> encounters(Finish((0, 1, 0, 1), (6, 6), winner=-1, hands=4))[0]
    [((1, 3), 0.5)]
    """
    sides = sorted(set(finish.sides))
    members = {side: tuple(s for s in finish.seats if finish.sides[s] == side) for side in sides}
    out: dict[int, list[tuple[tuple[int, ...], float]]] = {}
    for seat in finish.seats:
        mine = finish.sides[seat]
        out[seat] = [(members[other], pair_score(finish, mine, other)) for other in sides if other != mine]
    return out


# ---------------------------------------------------------------------- a player's standing in a pool
@dataclass(frozen=True, slots=True)
class Standing:
    """A player's standing in one pool: the rating, the games, wins, points and hands counted, and
    when it last changed (epoch seconds; None before the first game)."""

    rating: Rating = Rating()
    games: int = 0
    wins: int = 0
    points: int = 0
    hands: int = 0
    updated: float | None = None

    @property
    def provisional(self) -> bool:
        """Fewer than ``PROVISIONAL_GAMES`` games: the rating is still a guess."""
        return self.games < PROVISIONAL_GAMES

    @property
    def points_per_hand(self) -> float:
        """The side's points a hand, over every rated game (0 before any)."""
        return self.points / self.hands if self.hands else 0.0

    def before_game(self, now: float) -> Rating:
        """The rating as a game starting at ``now`` meets it: its RD widened for the time since its
        last game (``aged``)."""
        idle = 0.0 if self.updated is None else max(0.0, now - self.updated) / PERIOD_SECONDS
        return aged(self.rating, idle)


def rate_game(standings: Mapping[int, Standing], finish: Finish, now: float, tau: float = TAU) -> dict[int, Standing]:
    """Every seat's standing after a rated game, from each one's before it (by seat; every seat of
    the game must have one). Each seat's rating moves for its encounters in one Glicko-2 period,
    every opponent as they stood before the game; its RD grew for its idle time first.

    >>> after = rate_game({0: Standing(), 1: Standing()}, Finish((0, 1), (11, 5), winner=0, hands=3), now=0.0)
    >>> round(after[0].rating.rating, 2), round(after[1].rating.rating, 2), after[0].points, after[1].wins
    (1662.21, 1337.79, 11, 0)
    """
    missing = [s for s in finish.seats if s not in standings]
    if missing:
        raise ValueError(f"no standing for seat {missing[0]}: every seat of a rated game needs one")
    before = {seat: standings[seat].before_game(now) for seat in finish.seats}
    out: dict[int, Standing] = {}
    for seat, met in encounters(finish).items():
        games = [(composite([before[s] for s in side]), score) for side, score in met]
        done = glicko2(before[seat], games, tau, periods=0.0).rating
        old = standings[seat]
        out[seat] = Standing(
            replace(done, rd=min(MAX_RD, max(MIN_RD, done.rd))),
            games=old.games + 1,
            wins=old.wins + finish.won(seat),
            points=old.points + finish.points(seat),
            hands=old.hands + finish.hands,
            updated=now,
        )
    return out
