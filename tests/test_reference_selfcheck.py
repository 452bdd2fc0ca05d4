"""Self-checks of the brute-force reference move generator (``tests/reference.py``).

The reference is only worth something if it is right on its own, so it is checked here against
(a) the perft counts of an independent implementation (``tests/data/perft_public.jsonl``),
(b) the worked examples of RULES.md section 11 (and those of 5.1 and 6), with exact move sets, and
(c) a literal search over every set partition of every subset of small random tables.

Points of interpretation, and the perft lines (0-based line numbers of the data file) that decide
them.  Every one of these was checked by flipping it and watching the counts of depths 1-4 break:

* 7.2 (owner keeps a capturing card) applies after captures and trails too, on the hand right
  after playing: depth 1 of lines 9, 23, 58 (captures) and 48, 58 (trails) need it.
* 7.2 applies to every build the mover owns after a build move, not only the new one: depth <= 4
  of lines 4, 19, 22, 36, 45, 57.
* `capture_must_be_maximal` compares captures of one card *and one capture value*: a royal ace's
  1-captures are not beaten by its 14-captures (line 4, depth <= 4).  Classic court pairing is not
  subject to it (line 33, which has `capture_must_be_maximal` and `one_or_three`).
* `court_capture = one_or_three` with exactly three loose cards of the rank allows each single
  card *and* the three together (line 33, depth <= 4).
* Multiple builds are frozen (line 43 at depth 1; 0, 4, 10, 22, 45, 57 deeper); with
  `table_cards_may_raise` off, loose cards never help a raise (line 10 needs the option honoured
  when on; 4, 22, 24, 43, 45, 46 need it honoured when off).
* `raise_own_build = false` forbids raising one's own build but still allows adding same-value
  groups to it (lines 46, 52) and raising other players' builds (line 10).
* `no_rank_match` compares values for numeral cards (an ace from hand counts 1) and ranks for
  classic court cards (lines 1, 9, 31).

Not decided by any line (chosen by the plain reading of RULES.md, see ``reference.py``):
`no_capturing_card` uses the card's *legal* captures (after 7.2 and maximality) rather than
structural ones; `raise_own_build = false` also forbids raising one's own build with table cards;
rule 6.7 is checked on every pair of builds after the move (no data position holds two builds of
one value under `duplicate_value_builds = false`, so this equals "the new value is not already
there").
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# tests/ is not a package: make `reference` importable whatever pytest's import mode.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import (
    RANKS,
    SUITS,
    Item,
    build_groups,
    is_single_build,
    loose_subsets_by_sum,
    numeral_captures,
    reference_moves,
    resolve_rules,
    table_value,
    unions_of_disjoint_groups,
)

DATA = Path(__file__).resolve().parent / "data" / "perft_public.jsonl"
PERFT_LINES: list[dict[str, Any]] = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
ALL_CARDS: list[str] = [rank + suit for rank in RANKS for suit in SUITS]


# ---------------------------------------------------------------------------------------------
# (a) perft


def test_data_file_has_sixty_positions() -> None:
    """Guard against a truncated data file silently shrinking the check."""
    assert len(PERFT_LINES) == 60


@pytest.mark.parametrize("line", range(len(PERFT_LINES)))
def test_perft_depth_one(line: int) -> None:
    """Depth-1 perft is the number of legal moves."""
    entry = PERFT_LINES[line]
    assert len(reference_moves(entry["position"])) == entry["perft"]["1"]


def _apply(position: dict[str, Any], move: str) -> dict[str, Any]:
    """Play `move` (NOTATION.md "Transitions"), enough of it for perft: table, hands, deals.

    Test-only glue to reach the deeper perft counts; the residue and scoring at the end of a hand
    are left out because a finished hand has no moves, whatever its piles and scores.
    """
    after = copy.deepcopy(position)
    opts = resolve_rules(after.get("rules", {}))
    seats = len(after["hands"])
    mover = int(after["to_move"])
    kind, rest = move.split(" ", 1)
    if kind == "trail":
        after["hands"][mover].remove(rest)
        after["table"].append(rest)
    else:
        head, joined = rest.split(": ")
        card, value = head.split()
        used = set(joined.split())
        after["hands"][mover].remove(card)
        kept: list[Any] = []
        for entry in after["table"]:
            cards = {entry} if isinstance(entry, str) else set(entry["cards"])
            assert cards <= used or not cards & used, "a build is always taken whole"
            if not cards & used:
                kept.append(entry)
        if kind == "build":
            kept.append({"cards": [*sorted(used), card], "value": int(value), "owner": mover})
        else:
            after.setdefault("captured", [[] for _ in range(seats)])[mover] += [*sorted(used), card]
            after["last_capturer"] = mover
        after["table"] = kept
    if opts["draw"] and after["stock"]:
        after["hands"][mover].append(after["stock"].pop(0))
    after["to_move"] = (mover + 1) % seats
    if all(not hand for hand in after["hands"]) and after["stock"]:
        eldest = (int(after["dealer"]) + 1) % seats
        for _ in range(2):  # two rounds of two cards, eldest first, no table cards
            for offset in range(seats):
                seat = (eldest + offset) % seats
                after["hands"][seat] += after["stock"][:2]
                after["stock"] = after["stock"][2:]
        after["to_move"] = eldest
    return after


def _perft(position: dict[str, Any], depth: int) -> int:
    """Count move sequences of exactly `depth` moves."""
    if depth == 0:
        return 1
    moves = reference_moves(position)
    if depth == 1:
        return len(moves)
    return sum(_perft(_apply(position, move), depth - 1) for move in moves)


@pytest.mark.parametrize("line", range(len(PERFT_LINES)))
def test_perft_deeper(line: int) -> None:
    """Depths 2-4 reach many more positions (and options) than depth 1 alone."""
    entry = PERFT_LINES[line]
    for depth, count in sorted(entry["perft"].items()):
        assert _perft(entry["position"], int(depth)) == count, f"depth {depth}"


# ---------------------------------------------------------------------------------------------
# (b) worked examples


def make_position(
    table: list[Any],
    hands: list[list[str]],
    rules: dict[str, Any] | None = None,
    to_move: int = 0,
) -> dict[str, Any]:
    """Make a legal position: the cards not on the table or in hands fill the stock."""
    used = [card for hand in hands for card in hand]
    for entry in table:
        used += [entry] if isinstance(entry, str) else entry["cards"]
    assert len(used) == len(set(used)), "duplicate card in a test position"
    return {
        "rules": {
            "preset": "classic",
            "players": len(hands),
            "partnerships": False,
            **(rules or {}),
        },
        "dealer": len(hands) - 1,
        "to_move": to_move,
        "table": table,
        "hands": hands,
        "stock": [card for card in ALL_CARDS if card not in used],
        "captured": [[] for _ in hands],
        "sweeps": [],
        "last_capturer": None,
        "scores": [0 for _ in hands],
        "winner": None,
    }


def build(cards: list[str], value: int, owner: int) -> dict[str, Any]:
    """Make a build object of the position JSON."""
    return {"cards": cards, "value": value, "owner": owner}


def _card_key(card: str) -> tuple[int, int]:
    """Canonical card order (NOTATION.md), written out again so the tests check the reference's."""
    return (RANKS.index(card[0]), SUITS.index(card[1]))


def test_example_1_pagat_eight() -> None:
    """11.1 (and 5.1): unions of disjoint groups {8} {6,2} {5,3} {5,2,A}; no build, no K move."""
    position = make_position(["8d", "6c", "5s", "3h", "2d", "Ac"], [["8c", "Kh"], []])
    groups = [["8d"], ["2d", "6c"], ["3h", "5s"], ["Ac", "2d", "5s"]]
    combos = [[], [1], [2], [3], [1, 2]]  # disjoint collections of the summing groups
    captures = set()
    for eight in (False, True):
        for combo in combos:
            cards = (groups[0] if eight else []) + [c for g in combo for c in groups[g]]
            if cards:
                captures.add("capture 8c 8: " + " ".join(sorted(cards, key=_card_key)))
    assert len(captures) == 9
    assert "capture 8c 8: 2d 3h 5s 6c 8d" in captures
    assert "capture 8c 8: Ac 2d 5s 8d" in captures
    assert reference_moves(position) == captures | {"trail 8c", "trail Kh"}


def test_example_2_court_pairing() -> None:
    """11.2: classic `one`, `all`, and royal (where a queen is a plain 12)."""
    table: list[Any] = ["Qs", "Qh"]
    hands = [["Qd"], []]
    assert reference_moves(make_position(table, hands)) == {
        "capture Qd Q: Qs",
        "capture Qd Q: Qh",
        "trail Qd",
    }
    assert reference_moves(make_position(table, hands, {"court_capture": "all"})) == {
        "capture Qd Q: Qh Qs",
        "trail Qd",
    }
    assert reference_moves(make_position(table, hands, {"preset": "royal"})) == {
        "capture Qd 12: Qs",
        "capture Qd 12: Qh",
        "capture Qd 12: Qh Qs",
        "trail Qd",
    }


def test_court_capture_one_or_three() -> None:
    """5.3: `one_or_three` takes one, or all three when exactly three are loose."""
    rules = {"court_capture": "one_or_three"}
    three = reference_moves(make_position(["Kc", "Kd", "Kh"], [["Ks"], []], rules))
    assert three == {
        "capture Ks K: Kc",
        "capture Ks K: Kd",
        "capture Ks K: Kh",
        "capture Ks K: Kc Kd Kh",
        "trail Ks",
    }
    two = reference_moves(make_position(["Kc", "Kd"], [["Ks"], []], rules))
    assert two == {"capture Ks K: Kc", "capture Ks K: Kd", "trail Ks"}


def test_example_3_build_on_five() -> None:
    """11.3: the 3 builds 8 on the 5 or trails; the 8 only trails."""
    position = make_position(["5c"], [["3h", "8d"], []])
    assert reference_moves(position) == {"build 3h 8: 5c", "trail 3h", "trail 8d"}


def test_example_4_build_is_no_term_in_a_sum() -> None:
    """11.4: a 9 cannot take a 7-build and a loose 2 together."""
    position = make_position(["2d", build(["3c", "4h"], 7, 1)], [["9s", "7d"], []])
    assert reference_moves(position) == {
        "capture 7d 7: 3c 4h",
        "build 7d 9: 2d",
        "trail 7d",
        "trail 9s",
    }


def test_example_5_raise_opponents_build() -> None:
    """11.5: seat 0 raises seat 1's single 6-build to 8 with the 2."""
    position = make_position([build(["3c", "3d"], 6, 1)], [["2h", "8s"], []])
    assert reference_moves(position) == {"build 2h 8: 3c 3d", "trail 2h", "trail 8s"}


def test_example_6_loose_cards_never_help_a_raise() -> None:
    """11.6: the 3 raises the 5-build to 8, never to 10 with the loose 2."""
    table: list[Any] = ["2d", build(["Ac", "4h"], 5, 1)]
    hands = [["3s", "8c", "Td"], []]
    expected = {"build 3s 8: Ac 4h", "build 8c 10: 2d", "trail 3s", "trail 8c", "trail Td"}
    assert reference_moves(make_position(table, hands)) == expected
    # The option that allows it (6.3, `table_cards_may_raise`) adds exactly that raise.
    loose_raise = make_position(table, hands, {"table_cards_may_raise": True})
    assert reference_moves(loose_raise) == expected | {"build 3s 10: Ac 2d 4h"}


def test_example_7_raise_and_absorb() -> None:
    """11.7: the 2 raises the 7-build to 9 alone, or raises it and takes in the loose 9."""
    position = make_position(["9d", build(["3c", "4h"], 7, 1)], [["2s", "9c"], []])
    assert reference_moves(position) == {
        "build 2s 9: 3c 4h",
        "build 2s 9: 3c 4h 9d",
        "capture 9c 9: 9d",
        "trail 2s",
        "trail 9c",
    }


def test_example_8_multiple_build_is_frozen() -> None:
    """11.8: an 8 or 2+6 may join a multiple 8-build; the 2 may not make it 10."""
    position = make_position(["6c", build(["3d", "5h", "8s"], 8, 1)], [["2h", "8c", "8d", "Th"], []])
    assert reference_moves(position) == {
        "build 2h 8: 3d 5h 6c 8s",
        "build 8c 8: 3d 5h 8s",
        "build 8d 8: 3d 5h 8s",
        "capture 8c 8: 3d 5h 8s",
        "capture 8d 8: 3d 5h 8s",
        "trail 2h",
        "trail 8c",
        "trail 8d",
        "trail Th",
    }


def test_example_9_owner_obligations() -> None:
    """11.9: the owner of an 8-build holding 8 4 may not trail, and builds 8 only by joining."""
    table: list[Any] = ["4c", build(["3h", "5s"], 8, 0)]
    hands = [["4d", "8c"], []]
    assert reference_moves(make_position(table, hands)) == {
        "capture 4d 4: 4c",
        "build 4d 8: 3h 4c 5s",
        "capture 8c 8: 3h 5s",
    }
    # With `owner_may_trail` the 4 may be trailed, never the last 8 (7.2).
    may_trail = reference_moves(make_position(table, hands, {"owner_may_trail": True}))
    assert may_trail == {
        "capture 4d 4: 4c",
        "build 4d 8: 3h 4c 5s",
        "capture 8c 8: 3h 5s",
        "trail 4d",
    }


def test_example_10_royal_ace() -> None:
    """11.10: a royal ace takes as 1 or as 14, never both in one play."""
    royal = {"preset": "royal"}
    assert reference_moves(make_position(["Kc", "Ad"], [["Ah"], []], royal)) == {
        "capture Ah 1: Ad",
        "capture Ah 14: Ad Kc",
        "trail Ah",
    }
    assert reference_moves(make_position(["8c", "5d", "Ad"], [["Ah"], []], royal)) == {
        "capture Ah 1: Ad",
        "capture Ah 14: Ad 5d 8c",
        "trail Ah",
    }
    # Without ace-high an ace is only ever 1.
    low = {"preset": "royal", "royal_ace_high": False}
    assert reference_moves(make_position(["Kc", "Ad"], [["Ah"], []], low)) == {
        "capture Ah 1: Ad",
        "trail Ah",
    }


def test_example_11_maximal_capture() -> None:
    """11.11: under `capture_must_be_maximal` the 6 must take all six cards."""
    table: list[Any] = ["Ac", "2d", "3h", "3s", "4c", "5d"]
    everything = "capture 6h 6: Ac 2d 3h 3s 4c 5d"
    maximal = reference_moves(make_position(table, [["6h"], []], {"capture_must_be_maximal": True}))
    assert maximal == {everything, "trail 6h"}
    free = reference_moves(make_position(table, [["6h"], []]))
    assert {everything, "capture 6h 6: Ac 2d 3h", "trail 6h"} <= free


def test_section_6_examples() -> None:
    """6: a 5 on a 5 builds 10 or 5; table A 2 with hand 3 3 6 builds 6 or 3, never 4 or 5."""
    fives = reference_moves(make_position(["5c"], [["5d", "5h", "Tc"], []]))
    assert {"build 5d 10: 5c", "build 5d 5: 5c", "build 5h 10: 5c", "build 5h 5: 5c"} <= fives
    assert reference_moves(make_position(["Ac", "2d"], [["3h", "3s", "6c"], []])) == {
        "capture 3h 3: Ac 2d",
        "capture 3s 3: Ac 2d",
        "build 3h 3: Ac 2d",
        "build 3h 6: Ac 2d",
        "build 3s 3: Ac 2d",
        "build 3s 6: Ac 2d",
        "trail 3h",
        "trail 3s",
        "trail 6c",
    }


def test_finished_hand_has_no_moves() -> None:
    """NOTATION.md: a finished hand has no legal moves."""
    position = make_position([], [[], []])
    position["captured"] = [position.pop("stock"), []]
    position["stock"] = []
    assert reference_moves(position) == set()


def test_resolve_rules() -> None:
    """Presets of section 10, "-" cells defaulted, overrides applied, unknown options refused."""
    royal = resolve_rules({"preset": "royal", "players": 3})
    assert royal["royal"] and royal["royal_ace_high"] and royal["court_capture"] == "one"
    assert royal["tiebreak"] == "count_out" and royal["players"] == 3
    spade = resolve_rules({"preset": "spade", "owner_may_trail": True})
    assert spade["scoring"] == "spade" and spade["target"] == 61 and spade["owner_may_trail"]
    assert resolve_rules({})["preset"] == "classic" and not resolve_rules({})["draw"]
    assert resolve_rules({"preset": "draw"})["draw"]
    with pytest.raises(ValueError, match="frobnicate"):
        resolve_rules({"frobnicate": True})


# ---------------------------------------------------------------------------------------------
# (c) the partition machinery against a literal search over set partitions


def set_partitions(elements: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of `elements` into non-empty blocks."""
    if not elements:
        yield []
        return
    first, rest = elements[0], elements[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for index in range(len(partition)):
            yield [*partition[:index], [first, *partition[index]], *partition[index + 1 :]]


def _literal_capture_block(block: list[int], items: list[Item], value: int) -> bool:
    """5.1 read literally: one build of the value, or loose numeral cards summing to it."""
    members = [items[index] for index in block]
    if any(item.is_build for item in members):
        return len(members) == 1 and members[0].value == value
    if any(item.value is None for item in members):
        return False
    return sum(item.value or 0 for item in members) == value


def _literal_build_block(block: list[int], items: list[Item], card: str, value: int, opts: dict[str, Any]) -> bool:
    """6.3 read literally; index ``len(items)`` is the played card, the mover is seat 0."""
    played = len(items)
    members = [items[index] for index in block if index != played]
    builds = [item for item in members if item.is_build]
    loose = [item for item in members if not item.is_build]
    if any(item.value is None for item in loose):
        return False
    loose_sum = sum(item.value or 0 for item in loose)
    if played not in block:
        if builds:
            return len(members) == 1 and builds[0].value == value
        return loose_sum == value
    card_value = table_value(card, opts["royal"]) or 0
    if not builds:
        return card_value + loose_sum == value
    if len(builds) > 1 or (loose and not opts["table_cards_may_raise"]):
        return False
    raised = builds[0]
    if not is_single_build(raised, opts["royal"]):
        return False
    if raised.owner == 0 and not opts["raise_own_build"]:
        return False
    return (raised.value or 0) + card_value + loose_sum == value


def _random_table(rng: random.Random) -> tuple[list[Item], list[str]]:
    """Deal a small random table (loose cards, single and multiple builds) and a hand."""
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    items: list[Item] = []
    for _ in range(rng.randint(0, 5)):
        kind = rng.random()
        if kind < 0.6:
            items.append(Item((deck.pop(),), None, None, False))
        else:
            low = [card for card in deck if RANKS.index(card[0]) < 5][:3]
            for card in low:
                deck.remove(card)
            if kind < 0.8:  # single build of two cards
                cards = tuple(low[:2])
                total = sum(RANKS.index(card[0]) + 1 for card in cards)
            else:  # multiple build: two cards and a third of their sum's value, when one exists
                total = sum(RANKS.index(card[0]) + 1 for card in low[:2])
                match = next(card for card in deck if RANKS.index(card[0]) + 1 == total)
                deck.remove(match)
                cards = (*low[:2], match)
            items.append(Item(cards, total, rng.randint(0, 1), True))
    return items, [deck.pop() for _ in range(3)]


@pytest.mark.parametrize("seed", range(40))
def test_groupings_match_literal_set_partitions(seed: int) -> None:
    """The union-of-disjoint-groups search equals trying every partition of every subset."""
    rng = random.Random(seed)
    opts = resolve_rules(
        {
            "preset": rng.choice(["classic", "royal"]),
            "raise_own_build": rng.random() < 0.5,
            "table_cards_may_raise": rng.random() < 0.5,
        }
    )
    items, hand = _random_table(rng)
    items = [
        Item(item.cards, table_value(item.cards[0], opts["royal"]), None, False) if not item.is_build else item
        for item in items
    ]
    count = len(items)
    loose_by_sum = loose_subsets_by_sum(items)
    for value in range(1, 15):
        literal = {
            sum(1 << index for index in chosen)
            for mask in range(1, 1 << count)
            for chosen in [[index for index in range(count) if mask >> index & 1]]
            if any(
                all(_literal_capture_block(block, items, value) for block in partition)
                for partition in set_partitions(chosen)
            )
        }
        assert numeral_captures(value, items, loose_by_sum) == literal
    played = 1 << count
    for card in hand:
        if table_value(card, opts["royal"]) is None:
            continue
        for value in range(2, 15):
            groups = build_groups(card, value, 0, items, loose_by_sum, opts)
            searched = {joined for joined in unions_of_disjoint_groups(groups) if joined & played and joined != played}
            literal = {
                mask | played
                for mask in range(1, 1 << count)
                if any(
                    all(_literal_build_block(block, items, card, value, opts) for block in part)
                    for part in set_partitions([index for index in range(count + 1) if (mask | played) >> index & 1])
                )
            }
            assert searched == literal, (card, value)
