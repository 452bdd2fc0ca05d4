"""The count after each hand (``finished_hands``'s ``count``, ``checksum``, ``expected`` and
``residue``) and its words in the ``count`` catalogues.

Hands are scripted so that what they score follows from the rules alone: with fixed decks every
card is trailed except the moves named, so who holds which card at the end is known by hand.
Ties, cancelled sweeps and spade scoring are pinned on hand-made piles, as in test_scoring.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("babel")
pytest.importorskip("sqlalchemy")

from babel.messages.pofile import read_po

from cassino import Rules, make_rules
from cassino.cards import CARD_NAMES, cards_of, parse_card
from cassino.moves import CAPTURE, TRAIL, encode, format_code, parse_code
from cassino.scoring import POINTS, CountItem, count_hand, expected_checksum, score_hand
from cassino.table import Seat
from cassino.web.i18n import LANGUAGES, catalogue, po_path
from cassino.web.model import LiveGame
from cassino.web.payloads import finished_hands
from positions import mask, suit

ALL = list(CARD_NAMES)
FULL = (1 << 52) - 1


def rows(items: Sequence[CountItem]) -> list[tuple[Any, ...]]:
    """Items as (item, side, points, card name or seat or counts) for exact comparison."""
    out: list[tuple[Any, ...]] = []
    for i in items:
        extra = CARD_NAMES[i.card] if i.card is not None else i.seat if i.seat is not None else i.counts
        out.append((i.item, i.side, i.points, extra))
    return out


STANDARD_CARDS = [
    ("big_casino", "Td"),
    ("little_casino", "2s"),
    ("ace", "As"),
    ("ace", "Ac"),
    ("ace", "Ah"),
    ("ace", "Ad"),
]


# ----------------------------------------------------------------------------- count_hand on hand-made piles


def test_one_side_takes_everything_standard() -> None:
    """Seat 1 takes the hearts but Ah; seat 0 everything else: all of the 11 points."""
    seat1 = mask(suit("h", without="Ah"))
    count = count_hand(make_rules(), [FULL & ~seat1, seat1], [])
    assert rows(count) == [
        ("cards", 0, 3, (40, 12)),
        ("spades", 0, 1, (13, 0)),
        *[(item, 0, POINTS[item], card) for item, card in STANDARD_CARDS],
    ]


def test_a_cards_tie_is_an_item_for_nobody() -> None:
    """26-26: most cards goes to nobody (side -1, no points); 8 points are left."""
    seat1 = mask(["As", *suit("h", without="Ah"), *suit("c", without="Ac"), "Jd"])
    rules = make_rules()
    count = count_hand(rules, [FULL & ~seat1, seat1], [])
    assert rows(count) == [
        ("cards", -1, 0, (26, 26)),
        ("spades", 0, 1, (12, 1)),
        ("big_casino", 0, 2, "Td"),
        ("little_casino", 0, 1, "2s"),
        ("ace", 1, 1, "As"),
        ("ace", 0, 1, "Ac"),
        ("ace", 0, 1, "Ah"),
        ("ace", 0, 1, "Ad"),
    ]
    result = score_hand(rules, [FULL & ~seat1, seat1], [])
    assert result.checksum == expected_checksum(rules, result) == 8


def test_three_players_tie_on_cards_and_spades() -> None:
    """20-20-12 cards and 5-5-3 spades: both tied at the top, 11 - 3 - 1 = 7 points."""
    piles = [
        mask([*suit("s")[:5], *suit("h"), "Ac", "Kc"]),  # As-5s, the hearts, Ac Kc: 20 cards
        mask([*suit("s")[5:10], *suit("d"), "Qc", "Jc"]),  # 6s-Ts, the diamonds, Qc Jc: 20 cards
        mask([*suit("s")[10:], *suit("c", without="Ac Kc Qc Jc")]),  # Js Qs Ks, 2c-Tc: 12 cards
    ]
    assert sum(p.bit_count() for p in piles) == 52
    rules = make_rules(players=3)
    result = score_hand(rules, piles, [])
    assert rows(result.count) == [
        ("cards", -1, 0, (20, 20, 12)),
        ("spades", -1, 0, (5, 5, 3)),
        ("big_casino", 1, 2, "Td"),
        ("little_casino", 0, 1, "2s"),
        ("ace", 0, 1, "As"),
        ("ace", 0, 1, "Ac"),
        ("ace", 0, 1, "Ah"),
        ("ace", 1, 1, "Ad"),
    ]
    assert result.points == (4, 3, 0)  # 2s and three aces; Td and Ad
    assert result.checksum == expected_checksum(rules, result) == 7


def test_a_spades_tie_alone_leaves_ten() -> None:
    """Three players: spades tie 5-5-3 at the top, cards not tied: 11 - 1 = 10."""
    piles = [mask([*suit("s")[:5], *suit("h")]), mask([*suit("s")[5:10], *suit("d")[:4]]), 0]
    piles[2] = FULL & ~piles[0] & ~piles[1]
    rules = make_rules(players=3)
    result = score_hand(rules, piles, [])
    assert rows(result.count)[:2] == [("cards", 2, 3, (18, 9, 25)), ("spades", -1, 0, (5, 5, 3))]
    assert result.checksum == expected_checksum(rules, result) == 10


def test_nobody_captured_every_item_for_nobody() -> None:
    rules = make_rules()
    result = score_hand(rules, [0, 0], [])
    assert rows(result.count) == [
        ("cards", -1, 0, (0, 0)),
        ("spades", -1, 0, (0, 0)),
        *[(item, -1, 0, card) for item, card in STANDARD_CARDS],
    ]
    assert result.checksum == expected_checksum(rules, result) == 0


def test_spade_scoring_items_in_the_order_of_its_table() -> None:
    """Seat 0 takes every spade and Td; seat 1 the other 38 cards and Ac Ah Ad: 24 points."""
    seat0 = mask([*suit("s"), "Td"])
    rules = make_rules("spade")
    result = score_hand(rules, [seat0, FULL & ~seat0], [])
    assert rows(result.count) == [
        ("cards", 1, 3, (14, 38)),
        ("big_casino", 0, 2, "Td"),
        ("ace", 0, 1, "As"),
        ("ace", 1, 1, "Ac"),
        ("ace", 1, 1, "Ah"),
        ("ace", 1, 1, "Ad"),
        *[("spade", 0, 1, name) for name in suit("s")],
        ("little_casino", 0, 1, "2s"),
        ("jack_of_spades", 0, 1, "Js"),
    ]
    assert result.points == (18, 6)
    assert result.checksum == expected_checksum(rules, result) == 24
    even = mask([*suit("s"), *suit("h")])  # 26-26
    tie = score_hand(rules, [even, FULL & ~even], [])
    assert rows(tie.count)[0] == ("cards", -1, 0, (26, 26))
    assert tie.checksum == expected_checksum(rules, tie) == 21


def test_sweeps_one_item_each_with_its_seat() -> None:
    """RULES.md 10.4: sweeps by seats 1 0 1 1; each is an item, in the order made."""
    seat1 = mask(suit("h", without="Ah"))
    piles = [FULL & ~seat1, seat1]
    on = count_hand(make_rules(), piles, [1, 0, 1, 1])
    assert rows(on)[8:] == [("sweep", 1, 1, 1), ("sweep", 0, 1, 0), ("sweep", 1, 1, 1), ("sweep", 1, 1, 1)]
    off = count_hand(make_rules(sweeps=False), piles, [1, 0, 1, 1])
    assert rows(off)[8:] == [("sweep", -1, 0, 1), ("sweep", -1, 0, 0), ("sweep", -1, 0, 1), ("sweep", -1, 0, 1)]


def test_cancelled_sweeps_score_for_nobody_and_the_earliest_survive() -> None:
    """10.5: 3 to 1 for seat 1 leaves two, seat 1's earliest; partners' sweeps count together."""
    seat1 = mask(suit("h", without="Ah"))
    rules = make_rules(sweeps_cancel=True)
    count = count_hand(rules, [FULL & ~seat1, seat1], [1, 0, 1, 1])
    assert rows(count)[8:] == [("sweep", 1, 1, 1), ("sweep", -1, 0, 0), ("sweep", 1, 1, 1), ("sweep", -1, 0, 1)]
    assert score_hand(rules, [FULL & ~seat1, seat1], [1, 0, 1, 1]).points == (11, 2)
    teams = make_rules(players=4, partnerships=True, sweeps_cancel=True)
    piles = [FULL & ~seat1, seat1, 0, 0]
    count = count_hand(teams, piles, [2, 3, 0, 2])  # team 0 (seats 0, 2): 3 sweeps, team 1: 1
    assert rows(count)[8:] == [("sweep", 0, 1, 2), ("sweep", -1, 0, 3), ("sweep", 0, 1, 0), ("sweep", -1, 0, 2)]
    evened = count_hand(teams, piles, [2, 3])
    assert rows(evened)[8:] == [("sweep", -1, 0, 2), ("sweep", -1, 0, 3)]


def test_the_count_is_the_score() -> None:
    """The scored items of the count are the hand's items, in the same order."""
    seat1 = mask(["As", *suit("h", without="Ah"), *suit("c", without="Ac"), "Jd"])
    for rules in (make_rules(), make_rules("spade"), make_rules(sweeps_cancel=True)):
        result = score_hand(rules, [FULL & ~seat1, seat1], [0, 1, 1])
        scored = [(i.side, i.points) for i in result.count if i.side >= 0]
        assert scored == [(i.side, i.points) for i in result.items]


# ----------------------------------------------------------------------------- finished hands of scripted games


def deck(first12: str) -> list[int]:
    """The first twelve cards as given, then the rest in card order (so Ks comes last)."""
    head = [parse_card(c) for c in first12.split()]
    return head + [c for c in range(52) if c not in head]


def live_game(rules: Rules, cards: list[int]) -> LiveGame:
    seats = [Seat.person(s, f"Seat {s}") for s in range(rules.players)]
    return LiveGame("g", rules, seats, [cards], [])


def play_hand(live: LiveGame, first: str | None, capture_last: bool = True) -> list[str]:
    """Play hand 1: ``first`` as the first move (checked); then every card trailed, lowest first,
    except the hand's last card, which makes the capture taking fewest cards (``capture_last``).

    A table of forty cards has more captures than can be listed, so the trails are pushed
    unchecked: they are legal by rule 7.1, no build ever standing and no restriction on. The
    first and the last move are checked (few cards are in play then)."""
    game = live.game
    lines = []
    if first is not None:
        game.play(parse_code(first))
        lines.append(first)
    while len(game.hands) == 1:
        state = game.state
        assert not state.builds
        hand = cards_of(state.hands[state.to_move])
        if capture_last and not state.remaining_stock and sum(h.bit_count() for h in state.hands) == 1:
            captures = [format_code(c) for c in state.legal_codes() if c & 3 == CAPTURE]
            line = min(captures, key=lambda m: (len(m.split()), m))
            game.play(parse_code(line))
        else:
            code = encode(TRAIL, hand[0], 0, 0)
            game.push(code)
            line = format_code(code)
        lines.append(line)
    return lines


# Seat 1 (eldest) holds Tc 2c 9c Jc, the table 4c 6c 3d 7d, seat 0 5c 8c 5d 8d; then card order.
SWEEP_DECK = deck("Tc 2c 4c 6c 5c 8c 9c Jc 3d 7d 5d 8d")
SEAT1_SWEEP = "capture Tc 10: 3d 4c 6c 7d"


def test_a_scripted_hand_counts_every_item_and_the_residue() -> None:
    """Seat 1 sweeps at once; then everything is trailed until seat 0's last card, Ks, takes Kc:
    the 45 cards left on the table go to seat 0, which takes all but seat 1's five."""
    live = live_game(make_rules(), SWEEP_DECK)
    lines = play_hand(live, SEAT1_SWEEP)
    assert len(lines) == 48 and lines[0] == SEAT1_SWEEP and lines[-1] == "capture Ks K: Kc"
    assert lines[-8:-1] == ["trail Qc", "trail Qh", "trail Qd", "trail Qs", "trail Kc", "trail Kh", "trail Kd"]
    [hand] = finished_hands(live)
    assert hand["count"] == [
        {"item": "cards", "side": 0, "points": 3, "counts": [47, 5]},
        {"item": "spades", "side": 0, "points": 1, "counts": [13, 0]},
        {"item": "big_casino", "side": 0, "points": 2, "card": "Td"},
        {"item": "little_casino", "side": 0, "points": 1, "card": "2s"},
        {"item": "ace", "side": 0, "points": 1, "card": "As"},
        {"item": "ace", "side": 0, "points": 1, "card": "Ac"},
        {"item": "ace", "side": 0, "points": 1, "card": "Ah"},
        {"item": "ace", "side": 0, "points": 1, "card": "Ad"},
        {"item": "sweep", "side": 1, "points": 1, "seat": 1},
    ]
    assert (hand["checksum"], hand["expected"], hand["points"]) == (11, 11, [11, 1])
    taken = {"Tc", "3d", "4c", "6c", "7d", "Ks", "Kc"}
    assert hand["residue"] == {"seat": 0, "cards": [c for c in ALL if c not in taken]}
    assert len(hand["residue"]["cards"]) == 45
    assert len(live.game.hands) == 2  # the next hand is dealt; only the finished one is listed


def test_the_same_hand_under_spade_scoring() -> None:
    live = live_game(make_rules("spade"), SWEEP_DECK)
    play_hand(live, SEAT1_SWEEP)
    [hand] = finished_hands(live)
    spades = [{"item": "spade", "side": 0, "points": 1, "card": name} for name in suit("s")]
    assert hand["count"] == [
        {"item": "cards", "side": 0, "points": 3, "counts": [47, 5]},
        {"item": "big_casino", "side": 0, "points": 2, "card": "Td"},
        *[{"item": "ace", "side": 0, "points": 1, "card": a} for a in ("As", "Ac", "Ah", "Ad")],
        *spades,
        {"item": "little_casino", "side": 0, "points": 1, "card": "2s"},
        {"item": "jack_of_spades", "side": 0, "points": 1, "card": "Js"},
        {"item": "sweep", "side": 1, "points": 1, "seat": 1},
    ]
    assert (hand["checksum"], hand["expected"], hand["points"]) == (24, 24, [24, 1])


def test_a_hand_nobody_captured_in_leaves_its_residue_to_nobody() -> None:
    """Every card trailed, the last one too (nobody must capture): every item is for nobody, the
    check is 0 and all 52 cards stay on the table (8.1)."""
    live = live_game(make_rules(), SWEEP_DECK)
    lines = play_hand(live, None, capture_last=False)
    assert all(m.startswith("trail") for m in lines) and lines[-1] == "trail Ks" and len(lines) == 48
    [hand] = finished_hands(live)
    assert hand["count"] == [
        {"item": "cards", "side": -1, "points": 0, "counts": [0, 0]},
        {"item": "spades", "side": -1, "points": 0, "counts": [0, 0]},
        *[{"item": item, "side": -1, "points": 0, "card": card} for item, card in STANDARD_CARDS],
    ]
    assert (hand["checksum"], hand["expected"], hand["points"]) == (0, 0, [0, 0])
    assert hand["residue"] == {"seat": None, "cards": ALL}


# ----------------------------------------------------------------------------- the count catalogue


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_count_item_has_a_label(language: str) -> None:
    with po_path(language, "count").open("rb") as f:
        po = read_po(f, locale=language, domain="count")
    keys = {str(m.id): str(m.string) for m in po if m.id}
    assert set(keys) == {f"count.item.{item}" for item in POINTS}
    assert {k: catalogue(language)[k] for k in keys} == keys


def test_count_labels_in_three_languages() -> None:
    words = {lang: [catalogue(lang)[f"count.item.{i}"] for i in POINTS] for lang in LANGUAGES}
    assert list(POINTS) == ["cards", "spades", "big_casino", "little_casino", "ace", "spade", "jack_of_spades", "sweep"]
    assert words == {
        "en": ["Most cards", "Most spades", "Big Casino", "Little Casino", "Ace", "Spade", "Jack of spades", "Sweep"],
        "de": ["Meiste Karten", "Meiste Pik", "Großes Casino", "Kleines Casino", "Ass", "Pik", "Pik-Bube", "Abräumen"],
        "id": [
            "Kartu terbanyak",
            "Sekop terbanyak",
            "Kasino Besar",
            "Kasino Kecil",
            "As",
            "Sekop",
            "Jack sekop",
            "Sapuan",
        ],
    }
