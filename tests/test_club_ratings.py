"""Ratings (``cassino.club.ratings``): the Glicko-2 arithmetic against the Glicko-2 paper's worked
example, its invariants for any ratings (a win never lowers a rating, playing never widens the RD,
two equal players meet symmetrically), the results of each seating (two players, three or four each
pair as a game, partnerships against the other side's mean), forfeits, the RD's growth with time,
the provisional flag and the pools."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cassino.club.ratings import (
    MAX_RD,
    MIN_RD,
    PERIOD_SECONDS,
    POOLS,
    PROVISIONAL_GAMES,
    SCALE,
    Finish,
    Rating,
    Standing,
    composite,
    encounters,
    expected,
    finish_of,
    g,
    glicko2,
    pair_score,
    rate_game,
    rating_key,
)
from cassino.rules import make_rules
from cassino.table import Seat, Table

# ---------------------------------------------------------------------- the paper's worked example
PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_the_glicko2_papers_worked_example() -> None:
    """The paper rates a 1500/200/0.06 player who beat a 1400/30 and lost to a 1550/100 and a
    1700/300, with tau 0.5. It prints each figure rounded, worked out from figures already rounded,
    so each is checked to within one unit of its last printed digit."""
    assert PLAYER.mu == 0 and PLAYER.phi == pytest.approx(1.1513, abs=1e-4)
    assert [round(o.mu, 4) for o, _ in OPPONENTS] == [-0.5756, 0.2878, 1.1513]
    assert [round(o.phi, 4) for o, _ in OPPONENTS] == [0.1727, 0.5756, 1.7269]
    assert [round(g(o.phi), 4) for o, _ in OPPONENTS] == [0.9955, 0.9531, 0.7242]
    assert [round(expected(0.0, o.mu, o.phi), 3) for o, _ in OPPONENTS] == [0.639, 0.432, 0.303]
    done = glicko2(PLAYER, OPPONENTS, tau=0.5)
    assert done.v == pytest.approx(1.7785, abs=1e-3)
    assert done.delta == pytest.approx(-0.4834, abs=1e-3)
    new = done.rating
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)
    assert new.mu == pytest.approx(-0.2069, abs=1e-4)
    assert new.phi == pytest.approx(0.8722, abs=1e-4)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)


def test_the_volatility_is_the_root_the_illinois_algorithm_finds() -> None:
    """Step 5's function of the paper is zero (within its epsilon) at the new volatility."""
    done = glicko2(PLAYER, OPPONENTS, tau=0.5)
    phi, v, delta, tau = PLAYER.phi, done.v, done.delta, 0.5
    a = math.log(PLAYER.volatility**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    assert abs(f(math.log(done.rating.volatility**2))) < 1e-5


def test_a_period_without_games_only_widens_the_rd() -> None:
    done = glicko2(PLAYER, [])
    assert done.rating.rating == 1500 and done.rating.volatility == 0.06
    assert done.rating.rd == pytest.approx(SCALE * math.sqrt(PLAYER.phi**2 + 0.06**2))


# ---------------------------------------------------------------------- invariants
ratings = st.builds(
    Rating,
    st.floats(100, 3500, allow_nan=False),
    st.floats(MIN_RD, MAX_RD, allow_nan=False),
    st.floats(0.01, 0.2, allow_nan=False),
)


@settings(max_examples=300, deadline=None)
@given(ratings, ratings)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(player: Rating, opponent: Rating) -> None:
    for periods in (0.0, 1.0):
        assert glicko2(player, [(opponent, 1.0)], periods=periods).rating.rating >= player.rating
        assert glicko2(player, [(opponent, 0.0)], periods=periods).rating.rating <= player.rating
    after = rate_game({0: Standing(player), 1: Standing(opponent)}, Finish((0, 1), (11, 3), 0, 2), now=0.0)
    assert after[0].rating.rating >= player.rating and after[1].rating.rating <= opponent.rating


@settings(max_examples=300, deadline=None)
@given(ratings, st.lists(st.tuples(ratings, st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=3))
def test_playing_never_widens_the_rd(player: Rating, games: list[tuple[Rating, float]]) -> None:
    """With the RD grown for the idle time beforehand (step 6 adds nothing), every game narrows it
    or leaves it; ``rate_game`` keeps it within ``MIN_RD`` and its RD before the game."""
    assert glicko2(player, games, periods=0.0).rating.rd <= player.rd
    opponent = games[0][0]
    idle = Standing(player, games=3, updated=0.0)
    now = 40 * PERIOD_SECONDS
    after = rate_game({0: idle, 1: Standing(opponent)}, Finish((0, 1), (7, 11), 1, 3), now=now)
    assert MIN_RD <= after[0].rating.rd <= idle.before_game(now).rd <= MAX_RD


@settings(max_examples=200, deadline=None)
@given(ratings)
def test_two_equal_players_meet_symmetrically(both: Rating) -> None:
    after = rate_game({0: Standing(both), 1: Standing(both)}, Finish((0, 1), (11, 9), 0, 3), now=0.0)
    won, lost = after[0].rating, after[1].rating
    assert won.rating - both.rating == pytest.approx(both.rating - lost.rating, rel=1e-9)
    assert won.rating > both.rating > lost.rating
    assert won.rd == lost.rd and won.volatility == lost.volatility
    drawn = rate_game({0: Standing(both), 1: Standing(both)}, Finish((0, 1), (9, 9), -1, 3), now=0.0)
    assert drawn[0].rating.rating == pytest.approx(both.rating) == drawn[1].rating.rating


# ---------------------------------------------------------------------- results of each seating
def test_two_players_winner_one_loser_zero_and_no_winner_a_draw() -> None:
    assert encounters(Finish((0, 1), (11, 4), 1, 2)) == {0: [((1,), 0.0)], 1: [((0,), 1.0)]}
    assert encounters(Finish((0, 1), (8, 8), -1, 2)) == {0: [((1,), 0.5)], 1: [((0,), 0.5)]}


def test_the_winner_beats_everyone_even_on_fewer_points() -> None:
    """A game is won by the target (or its tie-break), not always by the most points at the end."""
    assert encounters(Finish((0, 1), (11, 12), 0, 5)) == {0: [((1,), 1.0)], 1: [((0,), 0.0)]}


def test_three_players_each_pair_is_a_game_by_final_points() -> None:
    finish = Finish((0, 1, 2), (12, 9, 4), 0, 4)
    assert encounters(finish) == {
        0: [((1,), 1.0), ((2,), 1.0)],
        1: [((0,), 0.0), ((2,), 1.0)],
        2: [((0,), 0.0), ((1,), 0.0)],
    }
    tied = Finish((0, 1, 2), (11, 6, 6), 0, 4)
    assert pair_score(tied, 1, 2) == pair_score(tied, 2, 1) == 0.5


def test_four_players_without_partners_are_six_pairs() -> None:
    finish = Finish((0, 1, 2, 3), (3, 11, 7, 3), 1, 4)
    games = encounters(finish)
    assert games[1] == [((0,), 1.0), ((2,), 1.0), ((3,), 1.0)]
    assert games[2] == [((0,), 1.0), ((1,), 0.0), ((3,), 1.0)]
    assert games[0] == [((1,), 0.0), ((2,), 0.0), ((3,), 0.5)]


def test_a_forfeit_loses_to_everyone_whatever_the_points() -> None:
    two = Finish((0, 1), (10, 2), 1, 3, forfeit=0)
    assert encounters(two) == {0: [((1,), 0.0)], 1: [((0,), 1.0)]}
    three = Finish((0, 1, 2), (10, 6, 2), 1, 3, forfeit=0)
    assert encounters(three) == {
        0: [((1,), 0.0), ((2,), 0.0)],
        1: [((0,), 1.0), ((2,), 1.0)],
        2: [((0,), 1.0), ((1,), 0.0)],
    }


def test_partnerships_meet_the_other_sides_mean() -> None:
    finish = Finish((0, 1, 0, 1), (11, 6), 0, 3)
    assert encounters(finish) == {
        0: [((1, 3), 1.0)],
        1: [((0, 2), 0.0)],
        2: [((1, 3), 1.0)],
        3: [((0, 2), 0.0)],
    }
    players = {0: Rating(1600, 80), 1: Rating(1450, 200), 2: Rating(1500, 350), 3: Rating(1700, 60)}
    after = rate_game({s: Standing(r, games=12, updated=0.0) for s, r in players.items()}, finish, now=0.0)
    them = composite([players[1], players[3]])
    assert (them.rating, them.rd) == (1575.0, 130.0)  # the mean rating and the mean RD
    for seat in (0, 2):
        alone = glicko2(players[seat], [(them, 1.0)], periods=0.0).rating
        assert after[seat].rating.rating == pytest.approx(alone.rating)
        assert after[seat].rating.rd == pytest.approx(max(MIN_RD, alone.rd))
    assert after[2].rating.rating - 1500 > after[0].rating.rating - 1600 > 0  # the unsure partner moves more
    us = composite([players[0], players[2]])
    assert after[3].rating.rating == pytest.approx(glicko2(players[3], [(us, 0.0)], periods=0.0).rating.rating)


def test_a_three_player_game_is_one_period_with_two_results() -> None:
    finish = Finish((0, 1, 2), (11, 8, 3), 0, 4)
    players = {0: Rating(1500, 300), 1: Rating(1600, 150), 2: Rating(1400, 100)}
    after = rate_game({s: Standing(r, updated=0.0) for s, r in players.items()}, finish, now=0.0)
    expected_1 = glicko2(players[1], [(players[0], 0.0), (players[2], 1.0)], periods=0.0).rating
    assert after[1].rating.rating == pytest.approx(expected_1.rating)
    assert after[1].rating.volatility == pytest.approx(expected_1.volatility)


def test_the_counts_of_a_standing() -> None:
    finish = Finish((0, 1, 0, 1), (11, 6), 0, 3)
    old = Standing(Rating(), games=9, wins=4, points=60, hands=20, updated=0.0)
    after = rate_game({0: old, 1: old, 2: Standing(), 3: Standing()}, finish, now=100.0)
    assert (after[0].games, after[0].wins, after[0].points, after[0].hands) == (10, 5, 71, 23)
    assert (after[1].games, after[1].wins, after[1].points, after[1].hands) == (10, 4, 66, 23)
    assert (after[2].games, after[2].wins, after[2].points, after[2].hands) == (1, 1, 11, 3)
    assert after[0].updated == 100.0
    assert after[0].points_per_hand == pytest.approx(71 / 23) and Standing().points_per_hand == 0.0
    with pytest.raises(ValueError, match="no standing for seat 3: every seat of a rated game needs one"):
        rate_game({0: old, 1: old, 2: old}, finish, now=0.0)


def test_provisional_until_ten_games() -> None:
    assert PROVISIONAL_GAMES == 10
    assert Standing(games=0).provisional and Standing(games=9).provisional
    assert not Standing(games=10).provisional
    after = rate_game({0: Standing(games=9), 1: Standing(games=3)}, Finish((0, 1), (11, 2), 0, 2), now=0.0)
    assert not after[0].provisional and after[1].provisional


def test_the_rd_grows_with_time_between_games_to_at_most_a_new_players() -> None:
    settled = Standing(Rating(1700, 60, 0.06), games=40, updated=1000.0)
    assert settled.before_game(1000.0) == settled.rating
    assert settled.before_game(500.0) == settled.rating  # a clock behind the last game: no time passed
    after_a_period = settled.before_game(1000.0 + PERIOD_SECONDS)
    assert after_a_period.rd == pytest.approx(SCALE * math.sqrt((60 / SCALE) ** 2 + 0.06**2))
    assert after_a_period.rating == 1700
    year = settled.before_game(1000.0 + 365 * 24 * 3600)
    assert 60 < after_a_period.rd < year.rd < MAX_RD
    assert settled.before_game(1000.0 + 1e12).rd == MAX_RD
    assert Standing().before_game(1e9) == Rating()  # never rated: nothing to widen


def test_a_player_who_plays_all_day_keeps_a_moving_rating() -> None:
    standing = {0: Standing(), 1: Standing()}
    for n in range(400):
        standing = rate_game(standing, Finish((0, 1), (11, 7), n % 2, 3), now=float(n))
    assert standing[0].rating.rd == standing[1].rating.rd == MIN_RD


# ---------------------------------------------------------------------- pools and tables
def test_the_pools() -> None:
    assert rating_key("classic", 2, False) == "classic-2" and rating_key("draw", 4, True) == "draw-4p"
    assert len(POOLS) == 16 and POOLS[:4] == ("classic-2", "classic-3", "classic-4", "classic-4p")
    with pytest.raises(ValueError, match="no rating pool for preset 'casino'"):
        rating_key("casino", 2, False)
    with pytest.raises(ValueError, match="no rating pool for 3 players in partnerships"):
        rating_key("classic", 3, True)


def test_how_a_table_ended() -> None:
    rules = make_rules("classic", players=4, partnerships=True)
    table = Table(rules, [Seat.person(s, f"P{s}", holder="x") for s in range(4)], seed=4)
    table.forfeit(1, "left the table")
    assert finish_of(table) == Finish((0, 1, 0, 1), (0, 0), 0, 1, forfeit=1)
