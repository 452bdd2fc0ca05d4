"""Scoring a hand and deciding the game (RULES.md sections 8 and 9) from hand-made piles.

Hand-made piles pin exact point splits that random play reaches rarely (ties, cancelled sweeps,
count-out races); an independent count-out written from the rule book checks decide_winner on
random piles too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cassino import Rules, make_rules
from cassino.cards import CARD_NAMES, SPADES_MASK, parse_card
from cassino.moves import Move
from cassino.notation import position_from_json, position_to_json
from cassino.scoring import HandScore, decide_winner, score_hand
from positions import mask, suit

ALL = list(CARD_NAMES)


def two_sides(side1: Sequence[str]) -> list[int]:
    """Seat 1 takes ``side1``, seat 0 takes every other card."""
    m = mask(side1)
    return [((1 << 52) - 1) & ~m, m]


def score(rules: Rules, piles: Sequence[int], sweeps: Sequence[int] = ()) -> HandScore:
    """Score, and check the invariants every hand has (per-side sums, breakdowns)."""
    result = score_hand(rules, piles, sweeps)
    assert sum(result.points) == sum(i.points for i in result.items)
    for side in range(rules.sides):
        assert sum(result.breakdown(side).values()) == result.points[side]
    return result


CLASSIC = make_rules("classic")
SPADE = make_rules("spade")

# Seat 1: As, every heart but Ah, every club but Ac, and Jd: 26 cards, one spade, one ace.
# Seat 0: the other 26, with 12 spades, Td, 2s, Ac, Ah, Ad.
EVEN = two_sides(["As", *suit("h", without="Ah"), *suit("c", without="Ac"), "Jd"])


# ----------------------------------------------------------------------------- standard scoring


def test_one_side_takes_every_item() -> None:
    piles = two_sides(suit("h", without="Ah"))
    result = score(CLASSIC, piles)
    assert result.points == (11, 0) and result.checksum == 11
    assert result.breakdown(0) == {"cards": 3, "spades": 1, "big casino": 2, "little casino": 1, "aces": 4, "sweeps": 0}
    assert result.cards == (40, 12) and result.spades == (13, 0)


def test_cards_tie_leaves_eight() -> None:
    """26-26: nobody scores most cards, 11 - 3 = 8."""
    result = score(CLASSIC, EVEN)
    assert result.cards == (26, 26)
    assert result.points == (7, 1) and result.checksum == 8
    assert result.breakdown(1)["aces"] == 1 and result.breakdown(1)["cards"] == 0


def test_items_split_between_sides() -> None:
    """Seat 1: Td, 2s and two aces among 20 cards; seat 0: the cards and spades majority."""
    side1 = ["Td", "2s", "Ac", "Ad", *suit("h", without="Ah")[:12], "3d", "4d", "5d", "6d"]
    result = score(CLASSIC, two_sides(side1))
    assert result.points == (3 + 1 + 2, 2 + 1 + 2)


def test_three_sides_spades_tie() -> None:
    """5-5-3 spades: no spade point, 11 - 1 = 10; the cards majority still scores."""
    s = suit("s")
    p0 = [*s[:5], *suit("h"), *suit("c")[:2]]  # 20 cards, 5 spades (As..5s)
    p1 = [*s[5:10], *suit("c")[2:13]]  # 16 cards, 5 spades
    p2 = [*s[10:], *suit("d")]  # 16 cards, 3 spades
    result = score(make_rules(players=3), [mask(p0), mask(p1), mask(p2)])
    assert result.spades == (5, 5, 3)
    assert result.checksum == 10
    assert result.breakdown(0)["spades"] == result.breakdown(1)["spades"] == 0
    assert result.breakdown(0)["cards"] == 3


def test_four_sides_cards_and_spades_tie() -> None:
    """13 cards each with spades 4-4-3-2: 11 - 3 - 1 = 7."""
    s, h, c, d = suit("s"), suit("h"), suit("c"), suit("d")
    piles = [s[:4] + h[:9], s[4:8] + h[9:] + c[:5], s[8:11] + c[5:] + d[:2], s[11:] + d[2:]]
    assert sorted(len(p) for p in piles) == [13] * 4
    result = score(make_rules(players=4), [mask(p) for p in piles])
    assert result.checksum == 7
    assert "cards" not in {i.category for i in result.items}


def test_nobody_captured_scores_nothing() -> None:
    for rules in (CLASSIC, SPADE, make_rules(players=3)):
        result = score(rules, [0] * rules.players, ())
        assert result.points == (0,) * rules.sides and result.checksum == 0


# ----------------------------------------------------------------------------- spade scoring


def test_spade_scoring_totals_24() -> None:
    piles = two_sides(suit("h", without="Ah"))
    result = score(SPADE, piles)
    assert result.points == (24, 0) and result.checksum == 24
    assert result.breakdown(0) == {
        "cards": 3,
        "big casino": 2,
        "aces": 4,
        "spades": 13,
        "little casino": 1,
        "jack of spades": 1,
        "sweeps": 0,
    }


def test_spade_scoring_cards_tie_totals_21() -> None:
    result = score(SPADE, EVEN)
    assert result.checksum == 21
    assert result.points == (19, 1 + 1)  # seat 1's As: an ace and a spade


def test_as_2s_js_are_worth_two_each() -> None:
    side1 = ["As", "2s", "Js", *suit("h", without="Ah Th")[:11], *suit("c", without="Ac")[:9]]
    result = score(SPADE, two_sides(side1))
    assert result.cards == (29, 23)
    assert result.points[1] == 6 and result.checksum == 24


# ----------------------------------------------------------------------------- sweeps


@pytest.mark.parametrize(
    ("options", "sweeps", "extra"),
    [
        ({}, [0, 1, 0], (2, 1)),
        ({"sweeps": False}, [0, 1, 0], (0, 0)),
        ({"sweeps_cancel": True}, [0, 1, 0], (1, 0)),
        ({"sweeps_cancel": True}, [1, 0, 1, 1, 0, 1], (0, 2)),
        ({"sweeps_cancel": True}, [1, 0], (0, 0)),
        ({"sweeps_cancel": True, "sweeps": False}, [1, 1], (0, 0)),
    ],
)
def test_sweeps(options: dict[str, Any], sweeps: list[int], extra: tuple[int, int]) -> None:
    rules = make_rules(**options)
    plain = score(rules, EVEN)
    result = score(rules, EVEN, sweeps)
    assert tuple(p - q for p, q in zip(result.points, plain.points, strict=True)) == extra
    assert result.checksum == plain.checksum == 8
    assert result.sweeps_made == (sweeps.count(0), sweeps.count(1)), "sweeps are recorded even when not scored"
    assert [result.breakdown(s)["sweeps"] for s in (0, 1)] == list(extra)


def test_spade_scoring_adds_sweeps() -> None:
    result = score(SPADE, EVEN, [1, 1])
    assert sum(result.points) == 21 + 2


# ----------------------------------------------------------------------------- partnerships


def test_partners_piles_are_scored_together() -> None:
    """Seats 0 and 2 take 14 each (28 together) against 12 each (24) for seats 1 and 3; sweeps
    and spades count for the team too."""
    cards = ALL[:]
    piles = [mask(cards[:14]), mask(cards[14:26]), mask(cards[26:40]), mask(cards[40:])]
    rules = make_rules(players=4, partnerships=True)
    result = score(rules, piles, [2, 1, 0])
    assert result.cards == (28, 24)
    assert result.breakdown(0)["cards"] == 3
    assert result.sweeps_made == (2, 1)
    assert result.breakdown(0)["sweeps"] == 2 and result.breakdown(1)["sweeps"] == 1
    spades = [(p & SPADES_MASK).bit_count() for p in piles]
    assert result.spades == (spades[0] + spades[2], spades[1] + spades[3])
    assert len(result.points) == 2 and result.checksum == 11


def test_partnerships_with_sweeps_cancel() -> None:
    rules = make_rules(players=4, partnerships=True, sweeps_cancel=True)
    cards = ALL[:]
    piles = [mask(cards[:14]), mask(cards[14:26]), mask(cards[26:40]), mask(cards[40:])]
    plain = score(rules, piles)
    result = score(rules, piles, [0, 1, 2, 3, 2])
    assert tuple(p - q for p, q in zip(result.points, plain.points, strict=True)) == (1, 0)


# ----------------------------------------------------------------------------- the game decided


COUNT_OUT = make_rules("classic", tiebreak="count_out")


def test_count_out_most_cards_first() -> None:
    """Seat 0 takes 35 cards (3 points), seat 1 all spades, Td and three aces (8 points). From
    18-20 seat 0 reaches 21 with the cards, the first item, though seat 1 ends higher (28)."""
    side1 = [*suit("s"), "Td", "Ac", "Ah", "Ad"]
    result = score(CLASSIC, two_sides(side1))
    assert result.points == (3, 8)
    assert decide_winner(COUNT_OUT, [18, 20], result) == 0
    assert decide_winner(CLASSIC, [18, 20], result) == 1


def test_count_out_most_spades_before_big_casino() -> None:
    """Seat 0 has every spade, seat 1 Td: from 20-19 seat 0 reaches 21 at the spades, first."""
    result = score(CLASSIC, two_sides(["Td", *suit("h"), *suit("c", without="Ac")]))
    assert result.cards == (26, 26)
    assert result.breakdown(0)["spades"] == 1 and result.breakdown(1)["big casino"] == 2
    assert decide_winner(COUNT_OUT, [20, 19], result) == 0
    assert decide_winner(COUNT_OUT, [19, 19], result) == 1  # 21 at Big Casino, before Little Casino


def test_count_out_big_casino_before_little_casino() -> None:
    """Seat 1: Td and 7 of the spades (not 2s, not As) among 26 cards; seat 0: 2s and every ace.
    From 20-18 seat 1 reaches 21 at Big Casino (18 +1 +2) before seat 0's Little Casino, although
    seat 0 ends higher (25 against 21)."""
    side1 = ["Td", *suit("s", without="2s As")[:7], *suit("h", without="Ah"), *suit("c", without="Ac")[:6]]
    assert len(side1) == 26
    result = score(CLASSIC, two_sides(side1))
    assert result.breakdown(1) == {"cards": 0, "spades": 1, "big casino": 2, "little casino": 0, "aces": 0, "sweeps": 0}
    assert result.breakdown(0)["little casino"] == 1 and result.breakdown(0)["aces"] == 4
    assert decide_winner(COUNT_OUT, [20, 18], result) == 1
    assert decide_winner(CLASSIC, [20, 18], result) == 0


def test_count_out_little_casino_before_aces() -> None:
    """EVEN: seat 0 reaches 21 at Little Casino (17 +1 +2 +1); seat 1 would reach 21 at As."""
    result = score(CLASSIC, EVEN)
    assert decide_winner(COUNT_OUT, [17, 20], result) == 0
    # From 16, seat 0 only reaches 20 at Little Casino; As comes next and is seat 1's.
    assert decide_winner(COUNT_OUT, [16, 20], result) == 1
    assert decide_winner(CLASSIC, [16, 20], result) == 0  # 23 against 21


@pytest.mark.parametrize(("ace", "needed"), [("As", 5), ("Ac", 6), ("Ah", 7)])
def test_count_out_aces_in_order_as_ac_ah_ad(ace: str, needed: int) -> None:
    """Seat 1 holds one ace among 26 cards; seat 0 has the spades point, Td, 2s (4 points) and the
    other aces. Seat 0 needs ``needed`` points to reach its first ace after seat 1's: started that
    far from 21 it loses to seat 1's ace (counted first), one point closer it wins."""
    side1 = [ace, *suit("h", without="Ah")[:12], *suit("c", without="Ac")[:12], "Jd"]
    result = score(CLASSIC, two_sides(side1))
    assert result.points == (4 + 3, 1)
    assert decide_winner(COUNT_OUT, [21 - needed, 20], result) == 1
    assert decide_winner(COUNT_OUT, [22 - needed, 20], result) == 0


@pytest.mark.parametrize(("sweeps", "winner"), [([1, 0], 1), ([0, 1], 0), ([1, 0, 0], 1), ([0, 0, 1], 0)])
def test_count_out_sweeps_in_the_order_made(sweeps: list[int], winner: int) -> None:
    """Both sides one short after every other item: the first scored sweep decides."""
    result = score(COUNT_OUT, EVEN, sweeps)
    base = score(COUNT_OUT, EVEN).points
    before = [20 - base[0], 20 - base[1]]
    assert decide_winner(COUNT_OUT, before, result) == winner


def test_count_out_with_sweeps_cancel_only_the_surplus_counts() -> None:
    """Seat 1 swept first, but 1 against 2 cancels to one sweep for seat 0."""
    rules = make_rules("classic", tiebreak="count_out", sweeps_cancel=True)
    base = score(rules, EVEN).points
    before = [20 - base[0], 20 - base[1]]
    assert decide_winner(rules, before, score(rules, EVEN, [1, 0, 0])) == 0
    assert decide_winner(rules, before, score(rules, EVEN, [1, 0])) == -1


def test_count_out_nobody_reaches_the_target() -> None:
    result = score(COUNT_OUT, EVEN)
    assert decide_winner(COUNT_OUT, [0, 0], result) == -1


def test_higher_total_ties_play_on() -> None:
    """EVEN scores 7-1; a shared highest total at or above the target means another hand."""
    result = score(CLASSIC, EVEN)
    assert result.points == (7, 1)
    assert decide_winner(CLASSIC, [14, 20], result) == -1  # 21-21
    assert decide_winner(CLASSIC, [15, 20], result) == 0  # 22-21
    assert decide_winner(CLASSIC, [10, 25], result) == 1  # 17-26: only seat 1 is there
    assert decide_winner(CLASSIC, [30, 36], result) == -1  # 37-37
    assert decide_winner(CLASSIC, [0, 0], result) == -1


def test_higher_total_three_sides() -> None:
    """A unique highest total wins even if another side passed the target; a shared top plays on."""
    rules = make_rules(players=3)
    piles = [mask(ALL[:20]), mask(ALL[20:36]), mask(ALL[36:])]
    result = score(rules, piles)
    p = result.points
    assert decide_winner(rules, [21 - p[0] + 1, 21 - p[1], 0], result) == 0
    assert decide_winner(rules, [22 - p[0], 22 - p[1], 22 - p[2]], result) == -1
    assert decide_winner(rules, [22 - p[0], 22 - p[1], 23 - p[2]], result) == 2


def test_spade_game_to_61() -> None:
    result = score(SPADE, two_sides(suit("h", without="Ah")))
    assert decide_winner(SPADE, [37, 0], result) == 0
    assert decide_winner(SPADE, [36, 0], result) == -1


# ----------------------------------------------------------------------------- count-out oracle


def oracle_items(rules: Rules, piles: Sequence[int], sweeps: Sequence[int]) -> list[tuple[int, int]]:
    """(side, points) in RULES.md 9's count-out order, written from the rule book alone."""
    sides = [0] * rules.sides
    for seat, pile in enumerate(piles):
        sides[rules.side_of(seat)] |= pile

    def top(counts: list[int]) -> int:
        best = max(counts)
        return counts.index(best) if counts.count(best) == 1 else -1

    def owner(card: str) -> int:
        bit = 1 << parse_card(card)
        return next((s for s, p in enumerate(sides) if p & bit), -1)

    items = [
        (top([p.bit_count() for p in sides]), 3),
        (top([(p & SPADES_MASK).bit_count() for p in sides]), 1),
        (owner("Td"), 2),
        (owner("2s"), 1),
        *((owner(a), 1) for a in ("As", "Ac", "Ah", "Ad")),
    ]
    made = [rules.side_of(s) for s in sweeps] if rules.sweeps else []
    if rules.sweeps_cancel and made:
        a, b = made.count(0), made.count(1)
        keep = 0 if a > b else 1
        made = [keep] * abs(a - b)
    items += [(side, 1) for side in made]
    return [(s, p) for s, p in items if s >= 0]


def oracle_winner(rules: Rules, before: Sequence[int], items: list[tuple[int, int]]) -> int:
    """RULES.md 9 from the rule book: count out, or the unique highest total at the target."""
    running = list(before)
    if rules.tiebreak == "count_out":
        for side, points in items:
            running[side] += points
            if running[side] >= rules.target:
                return side
        return -1
    for side, points in items:
        running[side] += points
    best = max(running)
    return running.index(best) if best >= rules.target and running.count(best) == 1 else -1


@st.composite
def scored_hands(draw: st.DrawFn) -> tuple[Rules, list[int], list[int], list[int]]:
    """Rules with standard scoring, random piles of all 52 cards, random sweeps and scores."""
    players = draw(st.sampled_from((2, 3, 4)))
    partnerships = players == 4 and draw(st.booleans())
    sides = 2 if partnerships else players
    rules = make_rules(
        "classic",
        players=players,
        partnerships=partnerships,
        tiebreak=draw(st.sampled_from(("count_out", "higher_total"))),
        sweeps=draw(st.booleans()),
        sweeps_cancel=sides == 2 and draw(st.booleans()),
        target=draw(st.integers(5, 30)),
    )
    owners = draw(st.lists(st.integers(0, players - 1), min_size=52, max_size=52))
    piles = [0] * players
    for card, seat in enumerate(owners):
        piles[seat] |= 1 << card
    sweeps = draw(st.lists(st.integers(0, players - 1), max_size=6))
    before = draw(st.lists(st.integers(0, rules.target - 1), min_size=sides, max_size=sides))
    return rules, piles, sweeps, before


@settings(max_examples=400, deadline=None)
@given(scored_hands())
def test_score_and_winner_match_the_rule_book(case: tuple[Rules, list[int], list[int], list[int]]) -> None:
    rules, piles, sweeps, before = case
    result = score(rules, piles, sweeps)
    items = oracle_items(rules, piles, sweeps)
    expected = [0] * rules.sides
    for side, points in items:
        expected[side] += points
    assert list(result.points) == expected
    assert [(i.side, i.points) for i in result.items] == items
    assert decide_winner(rules, before, result) == oracle_winner(rules, before, items)


# ----------------------------------------------------------------------------- through play


def last_play_position(scores: list[int], **rules: Any) -> dict[str, Any]:
    """The last play of a hand: seat 0 takes 5s with 5d, then the residue 6d 7d, which leaves the
    piles at EVEN."""
    side0 = [c for c in ALL if EVEN[0] >> parse_card(c) & 1 and c not in ("5d", "5s", "6d", "7d")]
    side1 = [c for c in ALL if EVEN[1] >> parse_card(c) & 1]
    return {
        "rules": {"preset": "classic", **rules},
        "dealer": 1,
        "to_move": 0,
        "table": ["5s", "6d", "7d"],
        "hands": [["5d"], []],
        "stock": [],
        "captured": [side0, side1],
        "last_capturer": 1,
        "scores": scores,
    }


def test_the_hand_is_added_and_a_tie_at_the_top_plays_on() -> None:
    """Seat 0's capture ends the hand; the residue 6d 7d goes to seat 0 (last capturer); 7-1
    from 14-20 makes 21-21: no winner under higher_total."""
    state = position_from_json(last_play_position([14, 20]))
    state.play(Move.parse("capture 5d 5: 5s"))
    assert state.hand_over and state.result is not None
    assert state.result.points == (7, 1)
    assert state.scores == (21, 21) and state.winner == -1
    assert position_to_json(state)["winner"] is None


def test_count_out_decides_through_play() -> None:
    """The same hand from 17-20 under count_out: seat 0 reaches 21 at Little Casino, before As."""
    state = position_from_json(last_play_position([17, 20], tiebreak="count_out"))
    state.play(Move.parse("capture 5d 5: 5s"))
    assert state.scores == (24, 21) and state.winner == 0
    state = position_from_json(last_play_position([16, 20], tiebreak="count_out"))
    state.play(Move.parse("capture 5d 5: 5s"))
    assert state.scores == (23, 21) and state.winner == 1


def test_last_play_is_a_sweep_only_if_the_capture_empties_the_table() -> None:
    """Taking the residue is never a sweep (RULES.md 5.4)."""
    state = position_from_json(last_play_position([0, 0]))
    state.play(Move.parse("capture 5d 5: 5s"))
    assert state.sweeps == ()
    data = last_play_position([0, 0])
    data["table"] = ["5s"]
    data["captured"][0] += ["6d", "7d"]
    state = position_from_json(data)
    state.play(Move.parse("capture 5d 5: 5s"))
    assert state.sweeps == (0,)
    assert state.result is not None and state.result.breakdown(0)["sweeps"] == 1


def test_nobody_captured_in_the_whole_hand() -> None:
    """The cards stay on the table, count for nobody, and the scores do not move."""
    data = {
        "rules": {"preset": "classic"},
        "dealer": 1,
        "to_move": 0,
        "table": [c for c in ALL if c != "Kc"],
        "hands": [["Kc"], []],
        "stock": [],
        "scores": [5, 7],
    }
    state = position_from_json(data)
    state.play(Move.parse("trail Kc"))
    assert state.hand_over and state.result is not None
    assert state.result.points == (0, 0) and state.result.checksum == 0
    assert state.scores == (5, 7)
    assert state.loose.bit_count() == 52 and state.captured == (0, 0)


def test_a_hand_scored_again_is_scored_under_its_own_rules() -> None:
    """``score_hand`` keeps the hands it scored: the same piles and sweeps scored again give the
    same score, and under other rules (spade scoring, partnerships) their own, as worked out afresh."""
    from cassino.scoring import _score_hand

    piles = [mask("AS 2S 10D JC QS KS 5H"), mask("AH 3S 4S 6C 7D 8H 9S")]
    for rules in (make_rules("classic"), make_rules("spade"), make_rules("classic", sweeps=False)):
        for sweeps in ((), (0, 1, 0)):
            first = score_hand(rules, piles, sweeps)
            assert score_hand(rules, tuple(piles), list(sweeps)) == first == _score_hand(rules, piles, sweeps)
    assert score_hand(make_rules("spade"), piles, ()) != score_hand(make_rules("classic"), piles, ())
