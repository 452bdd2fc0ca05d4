"""Self-checks of the brute-force reference move generator (``tests/reference.py``).

The reference is only worth something if it is right on its own, so it is checked here against
(a) the perft counts of an independent implementation (``tests/data/perft_public.jsonl``),
(b) the worked examples of the rule book (``worked_examples.py``, also held against the engine), and
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

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from positions import ALL_CARDS, make_position
from reference import (
    RANKS,
    SUITS,
    Item,
    build_groups,
    is_single_build,
    loose_subsets_by_sum,
    numeral_captures,
    reference_moves,
    reference_perft,
    resolve_rules,
    table_value,
    unions_of_disjoint_groups,
)
from worked_examples import EXAMPLE, EXAMPLES, OTHERS, PAGAT_TABLE, Example

DATA = Path(__file__).resolve().parent / "data" / "perft_public.jsonl"
PERFT_LINES: list[dict[str, Any]] = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


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


@pytest.mark.parametrize("line", range(len(PERFT_LINES)))
def test_perft_deeper(line: int) -> None:
    """Depths 2-4 reach many more positions (and options) than depth 1 alone."""
    entry = PERFT_LINES[line]
    for depth, count in sorted(entry["perft"].items()):
        assert reference_perft(entry["position"], int(depth)) == count, f"depth {depth}"


# ---------------------------------------------------------------------------------------------
# (b) worked examples


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.name for example in EXAMPLES])
def test_reference_gives_exactly_the_example_moves(example: Example) -> None:
    """Every worked example, whatever the other seats hold: the reference's moves are the example's."""
    for others in OTHERS:
        assert reference_moves(example.position(others)) == example.moves, f"others {others}"


def _card_key(card: str) -> tuple[int, int]:
    """Canonical card order (NOTATION.md), written out again so the tests check the reference's."""
    return (RANKS.index(card[0]), SUITS.index(card[1]))


def test_example_1_captures_are_the_unions_of_its_groups() -> None:
    """11.1 (and 5.1): the table's captures, derived again from the groups {8} {6,2} {5,3} {5,2,A}."""
    groups = [["8d"], ["2d", "6c"], ["3h", "5s"], ["Ac", "2d", "5s"]]
    assert {card for group in groups for card in group} == set(PAGAT_TABLE)
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
    assert EXAMPLE["11.1 eight"].moves == captures | {"trail 8c", "trail Kh"}
    assert "capture 8c 8: Ac 2d 3h 5s 6c 8d" not in EXAMPLE["11.1 eight"].moves  # never all six


def test_examples_hold_the_moves_the_text_names() -> None:
    """The moves the rule book's text names for an example are in its set (a guard on the table)."""
    named = {
        "11.11 without the option": {"capture 6h 6: Ac 2d 3h 3s 4c 5d", "capture 6h 6: Ac 2d 3h", "trail 6h"},
        "6 five on a five": {"build 5d 10: 5c", "build 5d 5: 5c", "build 5h 10: 5c", "build 5h 5: 5c"},
    }
    for name, moves in named.items():
        assert moves <= EXAMPLE[name].moves, name


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
