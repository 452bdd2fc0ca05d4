"""Tournament scoring (``cassino.club.standings``) and duplicate deals (``cassino.club.duplicate``) on
hand-computed examples: match points, Buchholz as the tie-break, board scores against everyone who
held the same cards, and commitments that are the SHA-256 of the seed's text."""

from __future__ import annotations

import hashlib
from fractions import Fraction

import pytest

from cassino.club.duplicate import seed_commitment, seed_matches, seed_text
from cassino.club.errors import TournamentInputError
from cassino.club.standings import Result, Table, board_scores, match_points, standings


def test_match_points_win_draw_loss_and_three_sides() -> None:
    two = Table(1, 1, ("a", "b"), "d")
    assert match_points(Result(two, (21, 9), winner=0)) == (1.0, 0.0)
    assert match_points(Result(two, (12, 12))) == (0.5, 0.5)
    # a forfeit loses whatever the points were
    assert match_points(Result(two, (15, 3), winner=1, forfeit=0)) == (0.0, 1.0)
    three = Table(1, 1, ("a", "b", "c"), "d")
    assert match_points(Result(three, (21, 14, 9), winner=0)) == (1.0, 0.5, 0.0)
    assert match_points(Result(three, (21, 9, 9), winner=0)) == (1.0, 0.25, 0.25)
    four = Table(1, 1, ("a", "b", "c", "d"), "d")
    assert match_points(Result(four, (21, 9, 12, 3), winner=0)) == pytest.approx((1, 1 / 3, 2 / 3, 0))


def example() -> list[Result]:
    """Two rounds of four: a beats b 21-5 and c beats d 21-19 on deal r1; a beats c 21-17 and d
    beats b 21-3 on deal r2."""
    return [
        Result(Table(1, 1, ("a", "b"), "r1"), (21, 5), winner=0),
        Result(Table(1, 2, ("c", "d"), "r1"), (21, 19), winner=0),
        Result(Table(2, 1, ("a", "c"), "r2"), (21, 17), winner=0),
        Result(Table(2, 2, ("b", "d"), "r2"), (3, 21), winner=1),
    ]


def test_standings_follow_from_the_results_with_buchholz_breaking_the_tie() -> None:
    """By hand: points a 2, c 1, d 1, b 0. Buchholz (the final points of those met): a = b 0 + c 1
    = 1, c = d 1 + a 2 = 3, d = c 1 + b 0 = 1, b = a 2 + d 1 = 3. Board (the test below): a +18,
    b -18, c -18, d +18. c and d tie on points; c's Buchholz 3 beats d's 1, though d's board is
    better."""
    rows = [
        (s.rank, s.name, s.points, s.buchholz, s.board, s.games, s.wins) for s in standings(list("dcba"), example())
    ]
    assert rows == [
        (1, "a", 2.0, 1.0, 18.0, 2, 2),
        (2, "c", 1.0, 3.0, -18.0, 2, 1),
        (3, "d", 1.0, 1.0, 18.0, 2, 1),
        (4, "b", 0.0, 3.0, -18.0, 2, 0),
    ]
    assert standings(list("dcba"), example())[0].to_json() == {
        "rank": 1,
        "name": "a",
        "points": 2.0,
        "buchholz": 1.0,
        "board": 18.0,
        "games": 2,
        "wins": 2,
        "byes": 0,
    }


def test_board_scores_compare_everyone_who_held_the_same_cards() -> None:
    """Deal r1, side 0: a's margin +16 and c's +2, mean +9: a +7, c -7; side 1: b -16, d -2, mean
    -9: b -7, d +7. Deal r2, side 0: a +4, b -18, mean -7: a +11, b -11; side 1: c -4, d +18, mean
    +7: c -11, d +11. So a +18, b -18, c -18, d +18 in all."""
    assert board_scores(example()) == [(7.0, -7.0), (-7.0, 7.0), (11.0, -11.0), (-11.0, 11.0)]


def test_board_decides_when_points_and_buchholz_tie() -> None:
    """One round, three tables on one deal: a 21-5 b, c 21-19 d, e 4-21 f. Winners a, c, f have 1
    point and Buchholz 0 (the losers: 0 and 1). Side 0's margins +16, +2, -17 (mean 1/3); side 1's -16, -2, +17."""
    results = [
        Result(Table(1, 1, ("a", "b"), "r1"), (21, 5), winner=0),
        Result(Table(1, 2, ("c", "d"), "r1"), (21, 19), winner=0),
        Result(Table(1, 3, ("e", "f"), "r1"), (4, 21), winner=1),
    ]
    third = Fraction(1, 3)
    expected = {
        "f": 17 + third,
        "a": 16 - third,
        "c": 2 - third,
        "d": -2 + third,
        "b": -16 + third,
        "e": -17 - third,
    }
    table = standings(list("abcdef"), results)
    assert [s.name for s in table] == ["f", "a", "c", "d", "b", "e"]
    for s in table:
        assert s.buchholz == (0 if s.name in "acf" else 1)
        assert s.board == pytest.approx(float(expected[s.name]))
    assert sum(s.board for s in table) == pytest.approx(0)


def test_a_bye_counts_for_the_person_and_the_computer_has_no_standing() -> None:
    results = [
        Result(Table(1, 1, ("a", "b"), "r1"), (21, 5), winner=0),
        Result(Table(1, 2, ("casual", "c"), "r1", computers=(0,)), (10, 21), winner=1),
    ]
    table = {s.name: s for s in standings(["a", "b", "c"], results)}
    assert set(table) == {"a", "b", "c"}
    assert (table["c"].points, table["c"].byes, table["c"].buchholz) == (1.0, 1, 0.0)
    # side 1 was held by b (-16) and c (+11): mean -2.5, so c +13.5 and b -13.5
    assert (table["c"].board, table["b"].board) == (13.5, -13.5)


def test_results_of_strangers_are_refused() -> None:
    with pytest.raises(TournamentInputError, match="'x' at table 1 of round 1 is no entrant"):
        standings(["a", "b"], [Result(Table(1, 1, ("a", "x"), "r1"), (1, 2))])


def test_a_commitment_is_the_sha256_of_the_seeds_text() -> None:
    assert seed_text(5924406451248043394) == "5924406451248043394"
    assert seed_commitment(5924406451248043394) == hashlib.sha256(b"5924406451248043394").hexdigest()
    assert seed_matches(seed_commitment(12).upper(), 12) and not seed_matches(seed_commitment(12), 13)
    with pytest.raises(TournamentInputError):
        seed_commitment(True)
    with pytest.raises(TournamentInputError):
        seed_commitment("é")


def test_the_commitment_is_the_web_servers_for_its_hex_seeds() -> None:
    """One definition: the web's commitment of a hand's 64 hex digits is this one."""
    fair = pytest.importorskip("cassino.web.fair")
    seed = "3f" * 32
    assert seed_commitment(seed) == fair.seed_commitment(seed)
