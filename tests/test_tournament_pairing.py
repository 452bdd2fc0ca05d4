"""Tournament pairing (``cassino.club.pairing``): Swiss rounds never repeat a meeting (checked
against a brute-force search whenever the pairing says none exists), byes go to those who have had
fewest, tables of 3 and 4 meet again as little as possible, and the arena avoids immediate
rematches and deals each table the first deal none of its entrants has played."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cassino.club.errors import PairingError, TournamentInputError
from cassino.club.pairing import BYE_PLAYER, arena_tables, swiss_round
from cassino.club.standings import Result, Table

PROPERTY = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def names(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def random_result(table: Table, rng: random.Random) -> Result:
    """Any game's end: random points, a winner most of the time (the highest), a draw now and then."""
    scores = tuple(rng.randrange(25) for _ in table.seats)
    if rng.random() < 0.15:
        return Result(table, scores)
    return Result(table, scores, winner=max(range(len(scores)), key=lambda s: scores[s]))


def meetings(results: list[Result]) -> Counter[frozenset[str]]:
    """How often each pair of entrants sat at one table."""
    met: Counter[frozenset[str]] = Counter()
    for r in results:
        met.update(frozenset(p) for p in itertools.combinations(r.table.entrants(), 2))
    return met


def perfect_matching_exists(pool: list[str], met: Counter[frozenset[str]]) -> bool:
    """Brute force: can ``pool`` be split into pairs who have not met?"""
    if not pool:
        return True
    first, rest = pool[0], pool[1:]
    return any(
        frozenset((first, q)) not in met and perfect_matching_exists([x for x in rest if x != q], met) for q in rest
    )


def some_pairing_exists(entrants: list[str], results: list[Result]) -> bool:
    """Brute force over the allowed byes (fewest byes so far) and every pairing of the rest."""
    met = meetings(results)
    if len(entrants) % 2 == 0:
        return perfect_matching_exists(entrants, met)
    byes = Counter(name for r in results if r.table.bye for name in r.table.entrants())
    fewest = min(byes[x] for x in entrants)
    return any(
        perfect_matching_exists([x for x in entrants if x != bye], met) for bye in entrants if byes[bye] == fewest
    )


# --- Swiss with two sides -------------------------------------------------------------------------


@PROPERTY
@given(n=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_swiss_never_repeats_an_opponent_and_says_so_only_when_no_pairing_exists(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = names(n)
    rng.shuffle(entrants)
    results: list[Result] = []
    for number in range(1, n + 2):
        try:
            tables = swiss_round(entrants, results, number, f"deal-{number}")
        except PairingError:
            assert not some_pairing_exists(entrants, results)
            break
        seated = [name for t in tables for name in t.entrants()]
        assert sorted(seated) == sorted(entrants), "everyone plays once a round"
        assert {t.deal for t in tables} == {f"deal-{number}"}
        assert [t.number for t in tables] == list(range(1, len(tables) + 1))
        results += [random_result(t, rng) for t in tables]
        assert max(meetings(results).values(), default=1) == 1
    else:
        pytest.fail("more rounds than entrants cannot all be paired")


@PROPERTY
@given(n=st.sampled_from([3, 5, 7, 9, 11]), seed=st.integers(0, 2**32))
def test_byes_go_to_a_computer_player_and_to_someone_who_has_had_fewest(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = names(n)
    results: list[Result] = []
    had: Counter[str] = Counter()
    for number in range(1, n + 1):
        try:
            tables = swiss_round(entrants, results, number, "d", bye_player="novice")
        except PairingError:
            break
        byes = [t for t in tables if t.bye]
        assert len(byes) == 1 and byes[0] is tables[-1]
        (person,) = byes[0].entrants()
        assert len(byes[0].computers) == 1 and byes[0].seats[byes[0].computers[0]] == "novice"
        assert had[person] == min(had[x] for x in entrants), "no second bye while another has none"
        had[person] += 1
        results += [random_result(t, rng) for t in tables]
    # distinct people get the byes until everyone has had one
    if sum(had.values()) <= n:
        assert max(had.values()) == 1


def test_the_bye_goes_to_the_lowest_ranked_who_has_had_none() -> None:
    entrants = ["a", "b", "c", "d", "e"]
    r1 = swiss_round(entrants, [], 1, "d1")
    assert r1 == [
        Table(1, 1, ("a", "c"), "d1"),
        Table(1, 2, ("b", "d"), "d1"),
        Table(1, 3, ("e", BYE_PLAYER), "d1", computers=(1,)),
    ]
    results = [Result(r1[0], (21, 5), winner=0), Result(r1[1], (21, 9), winner=0), Result(r1[2], (4, 21), winner=1)]
    # a and b have 1 point, c, d and e none; e has had the bye, so d, the lowest ranked of the rest,
    # takes it; each takes the seat held least (a and b tie: in an even round the lower ranked first)
    assert swiss_round(entrants, results, 2, "d2") == [
        Table(2, 1, ("b", "a"), "d2"),
        Table(2, 2, ("c", "e"), "d2"),
        Table(2, 3, ("d", BYE_PLAYER), "d2", computers=(1,)),
    ]


def test_round_one_is_the_dutch_top_half_against_the_bottom_half() -> None:
    tables = swiss_round(names(8), [], 1, "d")
    assert [set(t.seats) for t in tables] == [{"p00", "p04"}, {"p01", "p05"}, {"p02", "p06"}, {"p03", "p07"}]
    # odd rounds: the higher ranked in seat 0
    assert [t.seats[0] for t in tables] == ["p00", "p01", "p02", "p03"]


def test_seats_alternate_for_who_held_the_first_seat() -> None:
    entrants = ["a", "b", "c", "d"]
    r1 = swiss_round(entrants, [], 1, "d1")  # a-c, b-d: a and b in seat 0
    results = [Result(r1[0], (21, 3), winner=0), Result(r1[1], (21, 3), winner=0)]
    r2 = swiss_round(entrants, results, 2, "d2")  # a-b (both held seat 0 once), c-d (seat 1 once each)
    assert [set(t.seats) for t in r2] == [{"a", "b"}, {"c", "d"}]
    results += [Result(r2[0], (21, 3), winner=0), Result(r2[1], (21, 3), winner=0)]
    r3 = swiss_round(entrants, results, 3, "d3")
    held = Counter((name, side) for r in results for side, name in enumerate(r.table.seats))
    for t in r3:
        for side, name in enumerate(t.seats):
            other = 1 - side
            assert held[name, side] <= held[name, other], f"{name} takes the seat it has held less"


def test_a_swiss_of_more_rounds_than_opponents_is_refused_clearly() -> None:
    entrants = ["a", "b", "c", "d"]
    results: list[Result] = []
    for number in (1, 2, 3):
        tables = swiss_round(entrants, results, number, "d")
        results += [Result(t, (21, 0), winner=0) for t in tables]
    assert max(meetings(results).values()) == 1 and len(meetings(results)) == 6
    with pytest.raises(PairingError, match="no pairing for round 4 lets 4 entrants meet new opponents"):
        swiss_round(entrants, results, 4, "d")


def test_backtracking_finds_the_pairing_the_greedy_choice_misses() -> None:
    """After 1-2, 3-4, 5-6 and 1-3, 2-5, 4-6 ... the top pairs first with whom it may, and the search
    goes back when that leaves two who have met."""
    entrants = names(6)
    played = [("p00", "p03"), ("p01", "p04"), ("p02", "p05"), ("p00", "p04"), ("p01", "p05"), ("p02", "p03")]
    results = [Result(Table(1 + i // 3, 1 + i % 3, pair, "d"), (10, 10)) for i, pair in enumerate(played)]
    tables = swiss_round(entrants, results, 3, "d3")
    met = meetings(results)
    assert all(frozenset(t.seats) not in met for t in tables)
    assert sorted(n for t in tables for n in t.seats) == entrants


def swiss_by_strength(entrants: list[str], strength: str, rounds: int, ahead: bool) -> tuple[int, list[Result]]:
    """A Swiss in which the stronger (earlier in ``strength``) always wins 21-10: the rounds it
    pairs (stopping at the first it cannot), and the results."""
    results: list[Result] = []
    for number in range(1, rounds + 1):
        try:
            tables = swiss_round(entrants, results, number, "d", rounds=rounds if ahead else 0)
        except PairingError:
            return number - 1, results
        for t in tables:
            w = 0 if strength.index(t.seats[0]) < strength.index(t.seats[1]) else 1
            results.append(Result(t, (21, 10) if w == 0 else (10, 21), winner=w))
    return rounds, results


def test_looking_ahead_keeps_a_full_round_robin_possible() -> None:
    """Six entrants over five rounds must meet as a round robin. Round by round the Swiss pairs
    a-d, b-e, c-f, then b-a, d-f, e-c, then f-b, a-c, d-e: the pairs left unmet are the triangles
    a-e-f and b-c-d, and no fourth round exists. Told the tournament's five rounds, it looks ahead
    and pairs the third round so that all five can be played."""
    entrants = list("abcdef")
    played, results = swiss_by_strength(entrants, "bafcde", 5, ahead=False)
    assert played == 3
    unmet = {frozenset(p) for p in itertools.combinations(entrants, 2)} - set(meetings(results))
    assert unmet == {frozenset(p) for trio in ("aef", "bcd") for p in itertools.combinations(trio, 2)}
    played, results = swiss_by_strength(entrants, "bafcde", 5, ahead=True)
    assert played == 5 and set(meetings(results).values()) == {1} and len(meetings(results)) == 15


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_a_swiss_of_as_many_rounds_as_opponents_completes_when_it_looks_ahead(n: int, seed: int) -> None:
    """The most rounds without a repeat (n - 1, or n with a bye each round) always complete."""
    rng = random.Random(seed)
    entrants = names(n)
    rng.shuffle(entrants)
    rounds = n - 1 if n % 2 == 0 else n
    results: list[Result] = []
    for number in range(1, rounds + 1):
        tables = swiss_round(entrants, results, number, "d", rounds=rounds)
        results += [random_result(t, rng) for t in tables]
    assert set(meetings(results).values()) == {1} and len(meetings(results)) == n * (n - 1) // 2


def test_bad_entrants_and_settings_are_refused() -> None:
    with pytest.raises(TournamentInputError, match="at least 2, got 1"):
        swiss_round(["a"], [], 1, "d")
    with pytest.raises(TournamentInputError, match="named twice"):
        swiss_round(["a", "b", "a"], [], 1, "d")
    with pytest.raises(TournamentInputError, match="2, 3 or 4 sides"):
        swiss_round(["a", "b"], [], 1, "d", size=5)
    with pytest.raises(TournamentInputError, match="'x' at table 1 of round 1 is no entrant"):
        swiss_round(["a", "b"], [Result(Table(1, 1, ("a", "x"), "d"), (1, 2))], 2, "d")
    with pytest.raises(TournamentInputError, match="from 1"):
        swiss_round(["a", "b"], [], 0, "d")
    with pytest.raises(TournamentInputError, match="3 scores"):
        Result(Table(1, 1, ("a", "b"), "d"), (1, 2, 3))


# --- Swiss with three or four sides -----------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 12), size=st.sampled_from([3, 4]), seed=st.integers(0, 2**32))
def test_tables_of_three_or_four_seat_everyone_once_with_fair_byes(n: int, size: int, seed: int) -> None:
    if n < size:
        return
    rng = random.Random(seed)
    entrants = names(n)
    results: list[Result] = []
    had: Counter[str] = Counter()
    for number in range(1, 6):
        tables = swiss_round(entrants, results, number, "d", size=size)
        assert all(len(t.seats) == size for t in tables)
        assert sorted(x for t in tables for x in t.entrants()) == entrants
        short = [t for t in tables if t.bye]
        assert len(short) == (1 if n % size else 0)
        for t in short:
            assert len(t.entrants()) == n % size
            for person in t.entrants():
                assert had[person] <= min(had[x] for x in entrants if x not in t.entrants())
            had.update(t.entrants())
        results += [random_result(t, rng) for t in tables]


def test_nine_entrants_in_threes_meet_nobody_twice_in_four_rounds() -> None:
    """Four rounds of threes without a repeat exist for nine (the affine plane of order 3): found."""
    rng = random.Random(1)
    entrants = names(9)
    results: list[Result] = []
    for number in range(1, 5):
        tables = swiss_round(entrants, results, number, "d", size=3)
        results += [random_result(t, rng) for t in tables]
    assert set(meetings(results).values()) == {1} and len(meetings(results)) == 36


def test_eight_entrants_in_fours_meet_again_as_little_as_can_be() -> None:
    """After two tables of four, any table of four holds two of one of them: at least one pair
    meets again at each table (two at best), and the pairing finds exactly that."""
    entrants = names(8)
    r1 = swiss_round(entrants, [], 1, "d", size=4)
    results = [Result(t, (5, 4, 3, 2), winner=0) for t in r1]
    r2 = swiss_round(entrants, results, 2, "d", size=4)
    again = sum(frozenset(p) in meetings(results) for t in r2 for p in itertools.combinations(t.seats, 2))
    assert again == 4


# --- arena ------------------------------------------------------------------------------------------


def test_the_arena_pairs_near_scores_and_avoids_an_immediate_rematch() -> None:
    entrants = ["a", "b", "c", "d"]
    first = arena_tables(entrants, entrants, [], ["d1", "d2"])
    assert [t.seats for t in first] == [("a", "b"), ("c", "d")]
    results = [Result(first[0], (21, 3), winner=0), Result(first[1], (21, 3), winner=0)]
    # a and c won, b and d lost: near scores would be a-c and b-d, fine; make a and b the only free
    again = arena_tables(["a", "b"], entrants, results[:1], ["d1", "d2"], playing=[first[1]])
    assert again == [], "a and b just played each other, and c and d are playing: they wait"
    later = arena_tables(["a", "b", "c", "d"], entrants, results, ["d1", "d2"])
    assert {frozenset(t.seats) for t in later} == {frozenset("ac"), frozenset("bd")}
    assert {t.round for t in later} == {2} and {t.deal for t in later} == {"d2"}
    assert [t.number for t in later] == [1, 2]


def test_the_rematch_rule_gives_way_when_nobody_else_could_ever_come() -> None:
    entrants = ["a", "b", "c", "d"]
    t = Table(1, 1, ("a", "b"), "d1")
    results = [Result(t, (21, 3), winner=0)]
    # c and d are neither free nor playing (paused): with nobody playing, a and b are paired again
    assert [x.seats for x in arena_tables(["a", "b"], entrants, results, ["d1", "d2"])] == [("b", "a")]
    # a tournament of two always rematches
    assert len(arena_tables(["a", "b"], ["a", "b"], results, ["d1", "d2"])) == 1


def test_the_longest_waiting_are_seated_first() -> None:
    entrants = ["a", "b", "c"]
    tables = arena_tables(["c", "a", "b"], entrants, [], ["d1"])
    assert [set(t.seats) for t in tables] == [{"a", "c"}], "b became free last and waits"


def test_each_table_plays_the_first_deal_none_of_its_entrants_has_played() -> None:
    entrants = ["a", "b", "c", "d"]
    results = [
        Result(Table(1, 1, ("a", "b"), "d1"), (21, 3), winner=0),
        Result(Table(2, 1, ("a", "c"), "d2"), (21, 3), winner=0),
        Result(Table(1, 2, ("c", "d"), "d1"), (3, 21), winner=1),
    ]
    # a has played deals 1 and 2, d deal 1: their table plays deal 3, its first table; d takes
    # seat 0, which a has held twice and d never
    assert arena_tables(["a", "d"], entrants, results, ["d1", "d2", "d3"]) == [Table(3, 1, ("d", "a"), "d3")]
    # b has played deal 1 only, d too: deal 2, whose table 1 is a-c's, so this is its table 2; both
    # held seat 1 once, and in an even round the higher ranked (d, who won) takes the higher seat
    assert arena_tables(["b", "d"], entrants, results, ["d1", "d2"]) == [Table(2, 2, ("b", "d"), "d2")]
    with pytest.raises(TournamentInputError, match="needs deal 3, but 2 are committed"):
        arena_tables(["a", "d"], entrants, results, ["d1", "d2"])


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 10), seed=st.integers(0, 2**32))
def test_arena_waves_never_pair_an_immediate_rematch_while_others_can_play(n: int, seed: int) -> None:
    """Random finishing orders: each wave seats the free, nobody meets the entrant of their last
    game again unless nobody else plays, and nobody ever plays a deal twice."""
    rng = random.Random(seed)
    entrants = names(n)
    results: list[Result] = []
    playing: list[Table] = []
    free = list(entrants)
    deals = [f"d{i}" for i in range(1, 200)]
    last: dict[str, frozenset[str]] = {}
    dealt: dict[str, set[int]] = {x: set() for x in entrants}
    for _ in range(25):
        new = arena_tables(free, entrants, results, deals, playing=playing)
        for t in new:
            for x in t.entrants():
                assert t.round not in dealt[x]
                dealt[x].add(t.round)
                others = frozenset(t.entrants()) - {x}
                if n > 2 and playing:
                    assert not others & last.get(x, frozenset()), "an immediate rematch while others play"
        seated = {x for t in new for x in t.entrants()}
        free = [x for x in free if x not in seated]
        playing += new
        if not playing:
            break
        done = playing.pop(rng.randrange(len(playing)))
        results.append(random_result(done, rng))
        for x in done.entrants():
            last[x] = frozenset(done.entrants()) - {x}
        free += list(done.entrants())
