"""The rule book's worked examples (docs/rules.md section 11, and those of 5.1, 5.3 and 6), stated once.

Each example is the mover's table and hand under some rules, with the *exact* set of legal moves
in canonical lines. The same table is checked against the engine (``test_examples.py``) and the
brute-force reference (``test_reference_selfcheck.py``): two implementations written apart agreeing
with the text is what keeps an expected set that misreads the rules from passing silently. The
variants the text names (``court_capture = all``, royal, ace-low, ``table_cards_may_raise``,
``owner_may_trail``, ...) are examples of their own.

The moves depend on the table, the mover's hand and the rules only, so every example is played in
two positions: the other seats holding as many cards as the mover (the highest cards nobody uses,
so their hands are realistic yet can change nothing), and the other seats holding none.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from positions import ALL_CARDS, build, make_position

Others = Literal["spare", "none"]
OTHERS: tuple[Others, ...] = ("spare", "none")
"""What the other seats hold in an example's positions (see the module's docstring)."""


@dataclass(frozen=True)
class Example:
    """One worked example: who holds what under which rules, and every move that is legal."""

    name: str
    """Unique, and the test id: the section of docs/rules.md first."""
    table: list[Any]
    hand: list[str]
    moves: frozenset[str]
    rules: Mapping[str, Any] = field(default_factory=dict)
    players: int = 2

    def position(self, others: Others = "spare") -> dict[str, Any]:
        """A consistent position: seat 0 (the eldest, dealer is the last seat) to move."""
        used = set(self.hand)
        used |= {card for entry in self.table for card in ([entry] if isinstance(entry, str) else entry["cards"])}
        spare = [card for card in reversed(ALL_CARDS) if card not in used]
        size = len(self.hand) if others == "spare" else 0
        hands = [list(self.hand)] + [spare[index * size : (index + 1) * size] for index in range(self.players - 1)]
        position = make_position(copy.deepcopy(self.table), hands, dict(self.rules))  # the caller's to change
        if position["rules"].get("partnerships"):
            position["scores"] = [0, 0]  # one score per side: two teams
        return position


def _captures(card: str, value: str, sets: list[str]) -> set[str]:
    """The capture lines of `card` declared `value`, one per set of table cards."""
    return {f"capture {card} {value}: {cards}" for cards in sets}


PAGAT_TABLE: list[Any] = ["8d", "6c", "5s", "3h", "2d", "Ac"]
PAGAT_SETS: list[str] = [
    "8d",
    "2d 6c",
    "3h 5s",
    "Ac 2d 5s",
    "2d 3h 5s 6c",
    "2d 6c 8d",
    "3h 5s 8d",
    "Ac 2d 5s 8d",
    "2d 3h 5s 6c 8d",
]
"""Example 1 (Pagat's of 5.1): every non-empty union of disjoint groups among {8} {6,2} {5,3} {5,2,A}."""

MAXIMAL_TABLE: list[Any] = ["Ac", "2d", "3h", "3s", "4c", "5d"]
"""Example 11: a 6 finds the groups {A,5} {2,4} {3,3} {A,2,3} {A,2,3}."""
MAXIMAL_SETS: list[str] = [
    "Ac 5d",
    "2d 4c",
    "3h 3s",
    "Ac 2d 3h",
    "Ac 2d 3s",
    "Ac 2d 4c 5d",
    "Ac 3h 3s 5d",
    "2d 3h 3s 4c",
    "Ac 2d 3h 3s 4c 5d",
]

_QUEENS_ROYAL = {"capture Qd 12: Qs", "capture Qd 12: Qh", "capture Qd 12: Qh Qs", "trail Qd"}
_OWNER_TABLE: list[Any] = ["4c", build(["3h", "5s"], 8, 0)]
_OWNER_MOVES = {"capture 4d 4: 4c", "build 4d 8: 3h 4c 5s", "capture 8c 8: 3h 5s"}
_FROZEN_TABLE: list[Any] = ["6c", build(["3d", "5h", "8s"], 8, 1)]
_RAISE_TABLE: list[Any] = ["2d", build(["Ac", "4h"], 5, 1)]
_RAISE_MOVES = {"build 3s 8: Ac 4h", "build 8c 10: 2d", "trail 3s", "trail 8c", "trail Td"}
_SEATINGS: list[tuple[str, int, dict[str, Any]]] = [
    ("3 players", 3, {}),
    ("4 players", 4, {}),
    ("4 in partnerships", 4, {"partnerships": True}),
]


def _example(
    name: str,
    table: list[Any],
    hand: list[str],
    moves: set[str],
    rules: dict[str, Any] | None = None,
    players: int = 2,
) -> Example:
    """An `Example` from plain sets and dicts, so that each row of the table below stays short."""
    return Example(name, table, hand, frozenset(moves), rules or {}, players)


EXAMPLES: list[Example] = [
    # 11.1: the 8 takes any union of disjoint groups, never all six cards; no build; the K trails.
    _example("11.1 eight", PAGAT_TABLE, ["8c", "Kh"], _captures("8c", "8", PAGAT_SETS) | {"trail 8c", "trail Kh"}),
    # 11.1's "no second 8": holding one, each 8 may also build 8 over the same card sets (6.2).
    _example(
        "11.1 second eight",
        PAGAT_TABLE,
        ["8c", "8h", "Kh"],
        {f"{kind} {card} 8: {cards}" for card in ("8c", "8h") for kind in ("capture", "build") for cards in PAGAT_SETS}
        | {"trail 8c", "trail 8h", "trail Kh"},
    ),
    # 11.2 and 5.3: a queen takes one queen (court_capture = one, the default) ...
    _example("11.2 queens", ["Qs", "Qh"], ["Qd"], {"capture Qd Q: Qs", "capture Qd Q: Qh", "trail Qd"}),
    # ... both, together only, under court_capture = all (taking them is a sweep) ...
    _example("11.2 queens all", ["Qs", "Qh"], ["Qd"], {"capture Qd Q: Qh Qs", "trail Qd"}, {"court_capture": "all"}),
    # ... and under royal a queen is a plain 12: either queen or both; court_capture has no effect (5.3).
    _example("11.2 queens royal", ["Qs", "Qh"], ["Qd"], _QUEENS_ROYAL, {"preset": "royal"}),
    _example("11.2 queens royal one", ["Qs", "Qh"], ["Qd"], _QUEENS_ROYAL, {"preset": "royal", "court_capture": "one"}),
    _example("11.2 queens royal all", ["Qs", "Qh"], ["Qd"], _QUEENS_ROYAL, {"royal": True, "court_capture": "all"}),
    # 5.3: one_or_three takes one, or all three when exactly three are loose.
    _example(
        "5.3 one_or_three of three",
        ["Kc", "Kd", "Kh"],
        ["Ks"],
        {"capture Ks K: Kc", "capture Ks K: Kd", "capture Ks K: Kh", "capture Ks K: Kc Kd Kh", "trail Ks"},
        {"court_capture": "one_or_three"},
    ),
    _example(
        "5.3 one_or_three of two",
        ["Kc", "Kd"],
        ["Ks"],
        {"capture Ks K: Kc", "capture Ks K: Kd", "trail Ks"},
        {"court_capture": "one_or_three"},
    ),
    # 1 and 5.3: classic J/Q/K have no value: no build with them, no sum including them.
    _example("5.3 court cards never sum", ["Jc", "3d"], ["Jh", "Kd"], {"capture Jh J: Jc", "trail Jh", "trail Kd"}),
    # 11.3: the 3 builds 8 on the 5 (an 8 is held) or trails; the 8 may only trail.
    _example("11.3 build on a five", ["5c"], ["3h", "8d"], {"build 3h 8: 5c", "trail 3h", "trail 8d"}),
    # 11.4: a 9 cannot take a 7-build and a loose 2 together.
    _example(
        "11.4 a build is no term of a sum",
        ["2d", build(["3c", "4h"], 7, 1)],
        ["9s", "7d"],
        {"capture 7d 7: 3c 4h", "build 7d 9: 2d", "trail 7d", "trail 9s"},
    ),
    # 11.5: seat 0 raises seat 1's single 6-build to 8 with the 2 (and then owns it).
    _example(
        "11.5 raise an opponent's build",
        [build(["3c", "3d"], 6, 1)],
        ["2h", "8s"],
        {"build 2h 8: 3c 3d", "trail 2h", "trail 8s"},
    ),
    # 6.6: one's own build may be raised by default, not under raise_own_build = false.
    _example(
        "6.6 raise own build",
        [build(["3c", "3d"], 6, 0)],
        ["2h", "6c", "8s"],
        {"capture 6c 6: 3c 3d", "build 2h 8: 3c 3d"},
    ),
    _example(
        "6.6 raise own build off",
        [build(["3c", "3d"], 6, 0)],
        ["2h", "6c", "8s"],
        {"capture 6c 6: 3c 3d"},
        {"raise_own_build": False},
    ),
    # 11.6: the 3 raises the 5-build to 8, never to 10 with the loose 2 ...
    _example("11.6 loose cards never help a raise", _RAISE_TABLE, ["3s", "8c", "Td"], _RAISE_MOVES),
    # ... which table_cards_may_raise (6.3) allows, exactly that raise.
    _example(
        "11.6 table_cards_may_raise",
        _RAISE_TABLE,
        ["3s", "8c", "Td"],
        _RAISE_MOVES | {"build 3s 10: Ac 2d 4h"},
        {"table_cards_may_raise": True},
    ),
    # 11.7: the 2 raises the 7-build to 9 alone, or raises it and takes in the loose 9 (multiple).
    _example(
        "11.7 raise and absorb",
        ["9d", build(["3c", "4h"], 7, 1)],
        ["2s", "9c"],
        {"build 2s 9: 3c 4h", "build 2s 9: 3c 4h 9d", "capture 9c 9: 9d", "trail 2s", "trail 9c"},
    ),
    # 11.8: an 8 or 2+6 may be added to a multiple 8-build; the 2 may not make it 10.
    _example(
        "11.8 a multiple build is frozen",
        _FROZEN_TABLE,
        ["2h", "8c", "8d", "Th"],
        {
            "build 2h 8: 3d 5h 6c 8s",
            "build 8c 8: 3d 5h 8s",
            "build 8d 8: 3d 5h 8s",
            "capture 8c 8: 3d 5h 8s",
            "capture 8d 8: 3d 5h 8s",
            "trail 2h",
            "trail 8c",
            "trail 8d",
            "trail Th",
        },
    ),
    # 11.9: the owner of an 8-build holding 8 4: no trail, no 8 spent elsewhere, one build per value.
    _example("11.9 owner's obligations", _OWNER_TABLE, ["4d", "8c"], _OWNER_MOVES),
    # owner_may_trail lifts 7.1 for the 4, never for the last 8 (7.2).
    _example(
        "11.9 owner_may_trail", _OWNER_TABLE, ["4d", "8c"], _OWNER_MOVES | {"trail 4d"}, {"owner_may_trail": True}
    ),
    # duplicate_value_builds lifts 6.7: the 4 may also start a second 8-build with the loose 4.
    _example(
        "11.9 duplicate_value_builds",
        _OWNER_TABLE,
        ["4d", "8c"],
        _OWNER_MOVES | {"build 4d 8: 4c"},
        {"duplicate_value_builds": True},
    ),
    # 6: a 5 on a loose 5 may be declared 10 (a 10 held) or 5 (another 5 held).
    _example(
        "6 five on a five",
        ["5c"],
        ["5d", "5h", "Tc"],
        {
            "capture 5d 5: 5c",
            "capture 5h 5: 5c",
            "build 5d 5: 5c",
            "build 5d 10: 5c",
            "build 5h 5: 5c",
            "build 5h 10: 5c",
            "trail 5d",
            "trail 5h",
            "trail Tc",
        },
    ),
    # 6: table A 2, hand 3 3 6: a 3 builds 6 or 3, never 4 or 5.
    _example(
        "6 ace two with three three six",
        ["Ac", "2d"],
        ["3h", "3s", "6c"],
        {
            "capture 3h 3: Ac 2d",
            "capture 3s 3: Ac 2d",
            "build 3h 3: Ac 2d",
            "build 3h 6: Ac 2d",
            "build 3s 3: Ac 2d",
            "build 3s 6: Ac 2d",
            "trail 3h",
            "trail 3s",
            "trail 6c",
        },
    ),
    # 11.10: a royal ace takes as 14 (K+A, 8+5+A) or as 1 (the A), never both in one play ...
    _example(
        "11.10 royal ace with a king",
        ["Kc", "Ad"],
        ["Ah"],
        {"capture Ah 1: Ad", "capture Ah 14: Ad Kc", "trail Ah"},
        {"preset": "royal"},
    ),
    _example(
        "11.10 royal ace with eight five",
        ["8c", "5d", "Ad"],
        ["Ah"],
        {"capture Ah 1: Ad", "capture Ah 14: Ad 5d 8c", "trail Ah"},
        {"preset": "royal"},
    ),
    # ... while without royal_ace_high, and in classic, an ace is only ever 1 (the K is no help).
    _example(
        "11.10 ace low",
        ["Kc", "Ad"],
        ["Ah"],
        {"capture Ah 1: Ad", "trail Ah"},
        {"preset": "royal", "royal_ace_high": False},
    ),
    _example("11.10 classic ace", ["Kc", "Ad"], ["Ah"], {"capture Ah 1: Ad", "trail Ah"}),
    # 6.1, 6.2: under royal ace-high A+K builds 14 (the ace counts 1 in it) only while an ace stays in hand.
    _example(
        "6.2 royal fourteen build",
        ["Kc"],
        ["Ah", "As"],
        {"build Ah 14: Kc", "build As 14: Kc", "trail Ah", "trail As"},
        {"preset": "royal"},
    ),
    _example("6.2 royal fourteen needs an ace", ["Kc"], ["Ah", "2s"], {"trail Ah", "trail 2s"}, {"preset": "royal"}),
    # 11.11: under capture_must_be_maximal the 6 must take all six cards; by default any union of groups.
    _example(
        "11.11 maximal capture",
        MAXIMAL_TABLE,
        ["6h"],
        {"capture 6h 6: Ac 2d 3h 3s 4c 5d", "trail 6h"},
        {"capture_must_be_maximal": True},
    ),
    _example("11.11 without the option", MAXIMAL_TABLE, ["6h"], _captures("6h", "6", MAXIMAL_SETS) | {"trail 6h"}),
    # The mover's moves do not depend on how many others sit at the table (11.8 and 11.9 again).
    *(
        example
        for seating, players, rules in _SEATINGS
        for example in (
            _example(f"11.9 with {seating}", _OWNER_TABLE, ["4d", "8c"], _OWNER_MOVES, rules, players),
            _example(
                f"11.8 with {seating}",
                _FROZEN_TABLE,
                ["2h", "8c"],
                {"build 2h 8: 3d 5h 6c 8s", "capture 8c 8: 3d 5h 8s", "trail 2h", "trail 8c"},
                rules,
                players,
            ),
        )
    ),
]

EXAMPLE: dict[str, Example] = {example.name: example for example in EXAMPLES}
"""The examples by name, for the checks of one example's consequences (a move played, one refused)."""
assert len(EXAMPLE) == len(EXAMPLES), "two worked examples share a name"
