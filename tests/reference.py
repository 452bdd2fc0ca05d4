"""Slow, brute-force reference legal-move generator for cross-checking the engine.

Written straight from ``RULES.md`` (sections 1, 4-7 and 10) and ``NOTATION.md`` ("Moves"), for
clarity rather than speed, and fully independent of ``cassino``.  For each card in hand and each
candidate value, the legal item sets are exactly the subsets of table items (plus the played card,
for builds) that split into valid groups; they are found as every union of pairwise disjoint valid
groups, each group kind being one bullet of RULES.md 5.1 / 6.3.  The self-check test compares this
with a literal search over every set partition of every subset.  Exponential in the table size.
``reference_perft`` plays its own moves (``apply_move``) so that perft counts, too, owe nothing to
the engine: the self-check and ``make_golden.py`` count with it.

Points of interpretation settled here (evidence in ``tests/test_reference_selfcheck.py``):

* The owner's obligation (7.2) is checked after every move, captures and trails included, for
  every build the mover owns afterwards, on the hand right after the played card has left it.
* ``trail_restriction = no_capturing_card`` looks at the card's *legal* captures (after 7.2 and
  ``capture_must_be_maximal``), not at merely structural ones.
* ``capture_must_be_maximal`` compares captures with the same card and the same capture value
  only (a royal ace's 1-captures and 14-captures are judged separately); court pairing is exempt.
* ``raise_own_build = false`` also forbids raising one's own build with table cards
  (``table_cards_may_raise``): that is a raise too.
* ``court_capture = one_or_three`` with exactly three loose cards of the rank allows each single
  one *and* all three.
* Rule 6.7 is checked on every pair of builds on the table after the move.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

RANKS: str = "A23456789TJQK"
SUITS: str = "cdhs"
COURT_RANKS: str = "JQK"

# RULES.md section 10, columns classic / royal / spade / draw.  A "-" in the table is an option
# without effect in that preset; it gets the documented default (royal_ace_high true,
# court_capture one) so that an override of `royal` alone still gives a complete rule set.
OPTION_NAMES: tuple[str, ...] = (
    "royal",
    "royal_ace_high",
    "court_capture",
    "sweeps",
    "sweeps_cancel",
    "capture_must_be_maximal",
    "trail_restriction",
    "owner_may_trail",
    "raise_own_build",
    "table_cards_may_raise",
    "duplicate_value_builds",
    "draw",
    "scoring",
    "target",
    "tiebreak",
)

_COMMON: dict[str, Any] = {
    "royal": False,
    "royal_ace_high": True,
    "court_capture": "one",
    "sweeps": True,
    "sweeps_cancel": False,
    "capture_must_be_maximal": False,
    "trail_restriction": "none",
    "owner_may_trail": False,
    "raise_own_build": True,
    "table_cards_may_raise": False,
    "duplicate_value_builds": False,
    "draw": False,
    "scoring": "standard",
    "target": 21,
    "tiebreak": "higher_total",
}

PRESETS: dict[str, dict[str, Any]] = {
    "classic": dict(_COMMON),
    "royal": {**_COMMON, "royal": True, "tiebreak": "count_out"},
    "spade": {**_COMMON, "scoring": "spade", "target": 61},
    "draw": {**_COMMON, "draw": True},
}


def resolve_rules(rules_json: dict[str, Any]) -> dict[str, Any]:
    """Return preset + overrides as one full dict (also ``preset``, ``players``, ``partnerships``).

    Missing ``preset``/``players``/``partnerships`` default to classic, 2, false (NOTATION.md);
    an unknown key is rejected so that a typo in a test position cannot go unnoticed.
    """
    preset = str(rules_json.get("preset", "classic"))
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}")
    resolved: dict[str, Any] = {
        "preset": preset,
        "players": int(rules_json.get("players", 2)),
        "partnerships": bool(rules_json.get("partnerships", False)),
        **PRESETS[preset],
    }
    for key, value in rules_json.items():
        if key in ("preset", "players", "partnerships"):
            continue
        if key not in OPTION_NAMES:
            raise ValueError(f"unknown option {key!r}")
        resolved[key] = value
    return resolved


# ---------------------------------------------------------------------------------------------
# Cards


def rank_of(card: str) -> str:
    """Rank letter of a canonical card string."""
    return card[0]


def is_court(card: str, royal: bool) -> bool:
    """Classic J/Q/K are court cards (no value); under royal every card is a numeral card."""
    return not royal and rank_of(card) in COURT_RANKS


def table_value(card: str, royal: bool) -> int | None:
    """Value on the table and inside builds (an ace is 1 there in every variant); None for court."""
    if is_court(card, royal):
        return None
    return RANKS.index(rank_of(card)) + 1


def card_sort_key(card: str) -> tuple[int, int]:
    """Canonical order: rank A..K, then suit c d h s."""
    return (RANKS.index(card[0]), SUITS.index(card[1]))


def canonical_cards(cards: Iterable[str]) -> str:
    """Cards in canonical order, separated by single spaces."""
    return " ".join(sorted(cards, key=card_sort_key))


def capture_values(card: str, opts: dict[str, Any]) -> list[int]:
    """Capture values a numeral card from hand may choose (5.1, 5.2): a royal ace is 1 or 14."""
    value = table_value(card, opts["royal"])
    assert value is not None
    if opts["royal"] and opts["royal_ace_high"] and rank_of(card) == "A":
        return [1, 14]
    return [value]


def can_capture_value(card: str, value: int, opts: dict[str, Any]) -> bool:
    """Tell whether a held card can capture `value` (6.2, 7.2).

    That is a card of that value, or an ace for 14 under royal ace-high.
    """
    if value == 14:
        return bool(opts["royal"] and opts["royal_ace_high"] and rank_of(card) == "A")
    return table_value(card, opts["royal"]) == value


# ---------------------------------------------------------------------------------------------
# Table items


@dataclass(frozen=True)
class Item:
    """One table item: a loose card (value None for a classic court card) or a build."""

    cards: tuple[str, ...]
    value: int | None
    owner: int | None
    is_build: bool


def normalize_card(text: str) -> str:
    """Canonical two-character card; NOTATION.md readers also accept ``10`` and upper-case suits."""
    rank, suit = text[:-1].upper(), text[-1].lower()
    rank = "T" if rank == "10" else rank
    if rank not in RANKS or suit not in SUITS or len(rank) != 1:
        raise ValueError(f"bad card {text!r}")
    return rank + suit


def parse_table(table: list[Any], royal: bool) -> list[Item]:
    """Turn NOTATION.md table entries (card strings, build objects) into items."""
    items: list[Item] = []
    for entry in table:
        if isinstance(entry, str):
            card = normalize_card(entry)
            items.append(Item((card,), table_value(card, royal), None, False))
        else:
            cards = tuple(normalize_card(card) for card in entry["cards"])
            items.append(Item(cards, int(entry["value"]), int(entry["owner"]), True))
    return items


def is_single_build(item: Item, royal: bool) -> bool:
    """Tell single builds (cards' table values sum to the declared value, section 4)."""
    total = 0
    for card in item.cards:
        value = table_value(card, royal)
        assert value is not None, "court card inside a build"
        total += value
    return total == item.value


def bits(mask: int) -> list[int]:
    """List the set bits of `mask` (item sets are bit masks over item indices)."""
    return [index for index in range(mask.bit_length()) if mask >> index & 1]


def loose_subsets_by_sum(items: list[Item]) -> dict[int, list[int]]:
    """Every non-empty set of loose numeral cards, as a mask, keyed by the sum of its values.

    These are all the "loose cards summing to V" of 5.1 and 6.3; loose court cards (classic)
    never take part in a sum, so they are left out.
    """
    numerals = [index for index, item in enumerate(items) if not item.is_build and item.value is not None]
    by_sum: dict[int, list[int]] = {}
    for size in range(1, len(numerals) + 1):
        for chosen in combinations(numerals, size):
            total = sum(items[index].value or 0 for index in chosen)
            by_sum.setdefault(total, []).append(sum(1 << index for index in chosen))
    return by_sum


def unions_of_disjoint_groups(groups: list[int]) -> set[int]:
    """Every union of a collection of pairwise disjoint groups (the empty collection included).

    A set of items "can be split into valid groups" exactly when it is such a union; adding the
    groups one at a time (each either left out or added when disjoint from what is there) visits
    every collection of disjoint groups, so this is the exhaustive search over set partitions.
    """
    reachable: set[int] = {0}
    for group in groups:
        reachable |= {done | group for done in reachable if not done & group}
    return reachable


# ---------------------------------------------------------------------------------------------
# Moves


def move_string(kind: str, card: str, value: str, taken: Iterable[str]) -> str:
    """Canonical capture/build line of NOTATION.md."""
    return f"{kind} {card} {value}: {canonical_cards(taken)}"


def cards_of(items: list[Item], mask: int) -> list[str]:
    """Every table card of the items in `mask` (every card of each build)."""
    return [card for index in bits(mask) for card in items[index].cards]


def remaining_builds(items: list[Item], used: int) -> list[Item]:
    """List the builds left on the table when the items in `used` leave it."""
    return [item for index, item in enumerate(items) if item.is_build and not used >> index & 1]


def owner_obligation_holds(mover: int, hand_after: list[str], builds_after: list[Item], opts: dict[str, Any]) -> bool:
    """7.2: every build the mover owns after the move has a capturing card in the hand left."""
    for build in builds_after:
        if build.owner != mover:
            continue
        assert build.value is not None
        if not any(can_capture_value(card, build.value, opts) for card in hand_after):
            return False
    return True


def numeral_captures(capture_value: int, items: list[Item], loose_by_sum: dict[int, list[int]]) -> set[int]:
    """Return the item sets a numeral card takes with `capture_value` (5.1).

    They are the non-empty unions of disjoint groups, each one loose card of that value or loose
    cards summing to it (a build is never a term in a sum), or one build of that value, whole.
    """
    groups = list(loose_by_sum.get(capture_value, []))
    groups += [1 << index for index, item in enumerate(items) if item.is_build and item.value == capture_value]
    return {taken for taken in unions_of_disjoint_groups(groups) if taken}


def court_captures(card: str, items: list[Item], opts: dict[str, Any]) -> set[int]:
    """Item sets a classic court card takes by pairing (5.3), per `court_capture`."""
    same_rank = [
        index for index, item in enumerate(items) if not item.is_build and rank_of(item.cards[0]) == rank_of(card)
    ]
    singles = {1 << index for index in same_rank}
    every_one = sum(1 << index for index in same_rank)
    mode = opts["court_capture"]
    if mode == "one":
        return singles
    if mode == "all":
        return {every_one} if same_rank else set()
    if mode == "one_or_three":
        return singles | ({every_one} if len(same_rank) == 3 else set())
    raise ValueError(f"unknown court_capture {mode!r}")


def capture_moves(
    card: str,
    mover: int,
    hand_after: list[str],
    items: list[Item],
    loose_by_sum: dict[int, list[int]],
    opts: dict[str, Any],
) -> set[str]:
    """Legal captures with `card` (section 5, plus 7.2 and capture_must_be_maximal)."""
    moves: set[str] = set()
    if is_court(card, opts["royal"]):
        for taken in court_captures(card, items, opts):
            if owner_obligation_holds(mover, hand_after, remaining_builds(items, taken), opts):
                moves.add(move_string("capture", card, rank_of(card), cards_of(items, taken)))
        return moves
    for capture_value in capture_values(card, opts):
        candidates = numeral_captures(capture_value, items, loose_by_sum)
        for taken in candidates:
            if opts["capture_must_be_maximal"] and any(
                other != taken and other & taken == taken for other in candidates
            ):
                continue  # another capture with this card and value takes a strict superset
            if not owner_obligation_holds(mover, hand_after, remaining_builds(items, taken), opts):
                continue
            moves.add(move_string("capture", card, str(capture_value), cards_of(items, taken)))
    return moves


def build_values(opts: dict[str, Any]) -> range:
    """Return the declarable build values (6.1).

    2..10 classic, 2..13 royal, 2..14 royal ace-high (the ace held after playing that 14 needs is
    rule 6.2, checked separately).
    """
    if not opts["royal"]:
        return range(2, 11)
    if opts["royal_ace_high"]:
        return range(2, 15)
    return range(2, 14)


def build_groups(
    card: str,
    value: int,
    mover: int,
    items: list[Item],
    loose_by_sum: dict[int, list[int]],
    opts: dict[str, Any],
) -> list[int]:
    """Every group of 6.3 for building `value` with `card`, as masks over ``items + [card]``.

    The played card has index ``len(items)``.  Groups with the card: the card alone, the card plus
    loose cards, the card plus one single build (raising; plus loose cards only under
    `table_cards_may_raise`).  Groups without it: loose cards, or one build of the value.
    """
    royal: bool = opts["royal"]
    played_value = table_value(card, royal)
    assert played_value is not None
    played = 1 << len(items)
    groups: list[int] = []
    # Without the played card.
    groups += loose_by_sum.get(value, [])
    groups += [1 << index for index, item in enumerate(items) if item.is_build and item.value == value]
    # With the played card.
    if played_value == value:
        groups.append(played)
    groups += [played | loose for loose in loose_by_sum.get(value - played_value, [])]
    for index, build in enumerate(items):
        if not build.is_build or not is_single_build(build, royal):
            continue  # 6.5: only single builds can be raised; multiple builds are frozen
        if build.owner == mover and not opts["raise_own_build"]:
            continue  # 6.6
        assert build.value is not None
        if build.value + played_value == value:
            groups.append(played | 1 << index)
        if opts["table_cards_may_raise"]:
            missing = value - played_value - build.value
            groups += [played | 1 << index | loose for loose in loose_by_sum.get(missing, [])]
    return groups


def build_moves(
    card: str,
    mover: int,
    hand_after: list[str],
    items: list[Item],
    loose_by_sum: dict[int, list[int]],
    opts: dict[str, Any],
) -> set[str]:
    """Legal builds with `card` (section 6, items 1-8)."""
    if table_value(card, opts["royal"]) is None:  # 6.1: classic court cards never build
        return set()
    moves: set[str] = set()
    played = 1 << len(items)
    for value in build_values(opts):
        # 6.2: a card able to capture the declared value is still held after playing.
        if not any(can_capture_value(held, value, opts) for held in hand_after):
            continue
        groups = build_groups(card, value, mover, items, loose_by_sum, opts)
        for joined in unions_of_disjoint_groups(groups):
            # 6.3/6.4: exactly one group holds the played card (it is one element, so at most one
            # group can), and at least one table item is used.
            if not joined & played or joined == played:
                continue
            used = joined & ~played
            new_build = Item((*cards_of(items, used), card), value, mover, True)
            after = [*remaining_builds(items, used), new_build]
            if not opts["duplicate_value_builds"]:  # 6.7: one build per value after the move
                values = [build.value for build in after]
                if len(values) != len(set(values)):
                    continue
            if not owner_obligation_holds(mover, hand_after, after, opts):  # 6.8 / 7.2
                continue
            moves.add(move_string("build", card, str(value), cards_of(items, used)))
    return moves


def trail_allowed(
    card: str,
    mover: int,
    hand_after: list[str],
    items: list[Item],
    opts: dict[str, Any],
    legal_captures: set[str],
) -> bool:
    """7.1 and 7.2 for trailing `card`; `legal_captures` are the card's legal captures."""
    builds = remaining_builds(items, 0)
    if not opts["owner_may_trail"] and any(build.owner == mover for build in builds):
        return False
    if not owner_obligation_holds(mover, hand_after, builds, opts):
        return False
    restriction = opts["trail_restriction"]
    if restriction == "no_capturing_card":
        return not legal_captures
    if restriction == "no_rank_match":
        loose = [item.cards[0] for item in items if not item.is_build]
        if is_court(card, opts["royal"]):
            return all(rank_of(other) != rank_of(card) for other in loose)
        own_value = table_value(card, opts["royal"])  # an ace from hand counts 1 here
        return all(table_value(other, opts["royal"]) != own_value for other in loose)
    if restriction != "none":
        raise ValueError(f"unknown trail_restriction {restriction!r}")
    return True


def reference_moves(position: dict[str, Any]) -> set[str]:
    """Every canonical move line legal for ``to_move`` in `position` (empty for a finished hand)."""
    opts = resolve_rules(position.get("rules", {}))
    hands = [[normalize_card(card) for card in hand] for hand in position["hands"]]
    if all(not hand for hand in hands):
        return set()
    mover = int(position["to_move"])
    hand = hands[mover]
    items = parse_table(list(position["table"]), opts["royal"])
    loose_by_sum = loose_subsets_by_sum(items)
    moves: set[str] = set()
    for card in hand:
        hand_after = [other for other in hand if other != card]
        captures = capture_moves(card, mover, hand_after, items, loose_by_sum, opts)
        moves |= captures
        moves |= build_moves(card, mover, hand_after, items, loose_by_sum, opts)
        if trail_allowed(card, mover, hand_after, items, opts, captures):
            moves.add(f"trail {card}")
    return moves


def apply_move(position: dict[str, Any], move: str) -> dict[str, Any]:
    """Play `move` (NOTATION.md "Transitions"), enough of it for perft: table, hands, deals.

    Test-only glue to reach the deeper perft counts without the engine; the residue and scoring at
    the end of a hand are left out because a finished hand has no moves, whatever its piles and scores.
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


def reference_perft(position: dict[str, Any], depth: int) -> int:
    """Count move sequences of exactly `depth` moves, by the reference alone (the perft files' truth)."""
    if depth == 0:
        return 1
    moves = reference_moves(position)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(apply_move(position, move), depth - 1) for move in moves)
