"""The worked examples of RULES.md section 11 (and those of 5.1, 5.3 and 6) on the real engine.

Each example is a full 52-card position read through ``position_from_json`` (the other seats hold
as many cards as the mover, the rest is stock), and the engine's legal moves must be *exactly* the
set written here, in canonical lines; the brute-force reference must give the same set, so an
expected set that misreads the rules cannot pass silently either.  The variants the text names
(``court_capture = all``, royal, ace-low, ``table_cards_may_raise``, ``owner_may_trail``, ...) are
examples of their own.  Where a move's result is part of the example (who owns a raised build,
a multiple build), the move is played and the position after it is checked too.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest

# tests/ is not a package: make the reference and its self-check importable whatever the import mode.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cassino import IllegalMoveError, Move
from cassino.moves import format_code
from cassino.notation import position_from_json, position_to_json
from reference import reference_moves
from test_reference_selfcheck import ALL_CARDS, build, make_position


def example(table: list[Any], hand: list[str], rules: dict[str, Any] | None = None, players: int = 2) -> dict[str, Any]:
    """A consistent position: seat 0 (the eldest, dealer is the last seat) to move with `hand`.

    The other seats get as many cards as the mover, the highest cards nobody uses, so that their
    hands are realistic yet can change nothing: a partner's or opponent's cards never count.
    """
    used = set(hand) | {card for entry in table for card in ([entry] if isinstance(entry, str) else entry["cards"])}
    spare = [card for card in reversed(ALL_CARDS) if card not in used]
    others = [spare[index * len(hand) : (index + 1) * len(hand)] for index in range(players - 1)]
    position = make_position(table, [hand, *others], rules)
    if position["rules"].get("partnerships"):
        position["scores"] = [0, 0]  # one score per side: two teams
    return position


def engine_moves(position: dict[str, Any]) -> set[str]:
    """The engine's legal moves as canonical lines, each generated once and listed in sorted order."""
    state = position_from_json(position)
    lines = [format_code(code) for code in state.legal_codes()]
    assert len(lines) == len(set(lines)), f"a move generated twice: {sorted(lines)}"
    assert [str(move) for move in state.legal_moves()] == sorted(lines)
    return set(lines)


def check(position: dict[str, Any], expected: set[str]) -> None:
    """The engine, and the reference, give exactly `expected`."""
    got = engine_moves(position)
    assert got == expected, f"engine only: {sorted(got - expected)}; missing: {sorted(expected - got)}"
    assert reference_moves(position) == expected


def after(position: dict[str, Any], move: str) -> dict[str, Any]:
    """The position after a checked move, in the writer's form."""
    state = position_from_json(position)
    state.play(Move.parse(move))
    return position_to_json(state)


# ---------------------------------------------------------------------------------------------
# Example 1 (and Pagat's example of 5.1)

_PAGAT_TABLE: list[Any] = ["8d", "6c", "5s", "3h", "2d", "Ac"]
_PAGAT_SETS: list[str] = [
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
"""Every non-empty union of disjoint groups among {8} {6,2} {5,3} {5,2,A}, in canonical order."""


def test_example_1_eight_takes_unions_of_disjoint_groups() -> None:
    """11.1: the 8 takes any union of disjoint groups, never all six cards; no build; the K trails."""
    expected = {f"capture 8c 8: {cards}" for cards in _PAGAT_SETS} | {"trail 8c", "trail Kh"}
    check(example(_PAGAT_TABLE, ["8c", "Kh"]), expected)
    assert "capture 8c 8: Ac 2d 3h 5s 6c 8d" not in expected


def test_example_1_with_a_second_eight_the_eight_builds() -> None:
    """11.1's "no second 8": holding one, each 8 may also build 8 over the same card sets (6.2)."""
    expected = {"trail 8c", "trail 8h", "trail Kh"}
    for card in ("8c", "8h"):
        expected |= {f"{kind} {card} 8: {cards}" for kind in ("capture", "build") for cards in _PAGAT_SETS}
    check(example(_PAGAT_TABLE, ["8c", "8h", "Kh"]), expected)


# ---------------------------------------------------------------------------------------------
# Example 2 and 5.3: court cards


def test_example_2_court_pairs_one() -> None:
    """11.2: a queen takes one queen (court_capture = one, the default)."""
    check(example(["Qs", "Qh"], ["Qd"]), {"capture Qd Q: Qs", "capture Qd Q: Qh", "trail Qd"})


def test_example_2_court_capture_all() -> None:
    """11.2 under court_capture = all: both queens, together only; taking them is a sweep."""
    position = example(["Qs", "Qh"], ["Qd"], {"court_capture": "all"})
    check(position, {"capture Qd Q: Qh Qs", "trail Qd"})
    played = after(position, "capture Qd Q: Qh Qs")
    assert played["table"] == [] and played["sweeps"] == [0]


def test_example_2_royal() -> None:
    """11.2 under royal: a queen is a plain 12 and takes either queen or both."""
    expected = {"capture Qd 12: Qs", "capture Qd 12: Qh", "capture Qd 12: Qh Qs", "trail Qd"}
    check(example(["Qs", "Qh"], ["Qd"], {"preset": "royal"}), expected)
    # court_capture has no effect under royal values (5.3).
    check(example(["Qs", "Qh"], ["Qd"], {"preset": "royal", "court_capture": "one"}), expected)
    check(example(["Qs", "Qh"], ["Qd"], {"royal": True, "court_capture": "all"}), expected)


def test_court_capture_one_or_three() -> None:
    """5.3: one_or_three takes one, or all three when exactly three are loose."""
    rules = {"court_capture": "one_or_three"}
    check(
        example(["Kc", "Kd", "Kh"], ["Ks"], rules),
        {"capture Ks K: Kc", "capture Ks K: Kd", "capture Ks K: Kh", "capture Ks K: Kc Kd Kh", "trail Ks"},
    )
    check(example(["Kc", "Kd"], ["Ks"], rules), {"capture Ks K: Kc", "capture Ks K: Kd", "trail Ks"})


def test_court_cards_never_build_nor_sum() -> None:
    """1 and 5.3: classic J/Q/K are no value: no build with them, no sum including them."""
    check(example(["Jc", "3d"], ["Jh", "Kd"]), {"capture Jh J: Jc", "trail Jh", "trail Kd"})


# ---------------------------------------------------------------------------------------------
# Examples 3-9: building


def test_example_3_build_on_a_five() -> None:
    """11.3: the 3 builds 8 on the 5 (an 8 is held) or trails; the 8 may only trail."""
    check(example(["5c"], ["3h", "8d"]), {"build 3h 8: 5c", "trail 3h", "trail 8d"})


def test_example_4_a_build_is_no_term_of_a_sum() -> None:
    """11.4: a 9 cannot take a 7-build and a loose 2 together."""
    position = example(["2d", build(["3c", "4h"], 7, 1)], ["9s", "7d"])
    check(position, {"capture 7d 7: 3c 4h", "build 7d 9: 2d", "trail 7d", "trail 9s"})
    with pytest.raises(IllegalMoveError):
        after(position, "capture 9s 9: 2d 3c 4h")


def test_example_5_raise_an_opponents_build() -> None:
    """11.5: seat 0 raises seat 1's single 6-build to 8 with the 2, and then owns it."""
    position = example([build(["3c", "3d"], 6, 1)], ["2h", "8s"])
    check(position, {"build 2h 8: 3c 3d", "trail 2h", "trail 8s"})
    assert after(position, "build 2h 8: 3c 3d")["table"] == [{"cards": ["2h", "3c", "3d"], "value": 8, "owner": 0}]


def test_example_5_raise_own_build_option() -> None:
    """6.6: one's own build may be raised by default, not under raise_own_build = false."""
    table: list[Any] = [build(["3c", "3d"], 6, 0)]
    hand = ["2h", "6c", "8s"]
    check(example(table, hand), {"capture 6c 6: 3c 3d", "build 2h 8: 3c 3d"})
    check(example(table, hand, {"raise_own_build": False}), {"capture 6c 6: 3c 3d"})


def test_example_6_loose_cards_never_help_a_raise() -> None:
    """11.6: the 3 raises the 5-build to 8, never to 10 with the loose 2."""
    table: list[Any] = ["2d", build(["Ac", "4h"], 5, 1)]
    hand = ["3s", "8c", "Td"]
    expected = {"build 3s 8: Ac 4h", "build 8c 10: 2d", "trail 3s", "trail 8c", "trail Td"}
    check(example(table, hand), expected)
    # table_cards_may_raise (6.3) allows exactly that raise.
    check(example(table, hand, {"table_cards_may_raise": True}), expected | {"build 3s 10: Ac 2d 4h"})


def test_example_7_raise_and_absorb() -> None:
    """11.7: the 2 raises the 7-build to 9 alone, or raises it and takes in the loose 9 (multiple)."""
    position = example(["9d", build(["3c", "4h"], 7, 1)], ["2s", "9c"])
    check(
        position,
        {"build 2s 9: 3c 4h", "build 2s 9: 3c 4h 9d", "capture 9c 9: 9d", "trail 2s", "trail 9c"},
    )
    multiple = after(position, "build 2s 9: 3c 4h 9d")
    assert multiple["table"] == [{"cards": ["2s", "3c", "4h", "9d"], "value": 9, "owner": 0}]


def test_example_8_a_multiple_build_is_frozen() -> None:
    """11.8: an 8 or 2+6 may be added to a multiple 8-build; the 2 may not make it 10."""
    position = example(["6c", build(["3d", "5h", "8s"], 8, 1)], ["2h", "8c", "8d", "Th"])
    check(
        position,
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
    )


def test_example_9_owners_obligations() -> None:
    """11.9: the owner of an 8-build holding 8 4: no trail, no 8 spent elsewhere, one build per value."""
    table: list[Any] = ["4c", build(["3h", "5s"], 8, 0)]
    hand = ["4d", "8c"]
    expected = {"capture 4d 4: 4c", "build 4d 8: 3h 4c 5s", "capture 8c 8: 3h 5s"}
    check(example(table, hand), expected)
    # owner_may_trail lifts 7.1 for the 4, never for the last 8 (7.2).
    check(example(table, hand, {"owner_may_trail": True}), expected | {"trail 4d"})
    # duplicate_value_builds lifts 6.7: the 4 may also start a second 8-build with the loose 4.
    check(example(table, hand, {"duplicate_value_builds": True}), expected | {"build 4d 8: 4c"})


def test_section_6_five_on_a_five() -> None:
    """6: a 5 on a loose 5 may be declared 10 (a 10 held) or 5 (another 5 held)."""
    expected = {"trail 5d", "trail 5h", "trail Tc"}
    for card in ("5d", "5h"):
        expected |= {f"capture {card} 5: 5c", f"build {card} 5: 5c", f"build {card} 10: 5c"}
    check(example(["5c"], ["5d", "5h", "Tc"]), expected)


def test_section_6_ace_two_with_three_three_six() -> None:
    """6: table A 2, hand 3 3 6: a 3 builds 6 or 3, never 4 or 5."""
    expected = {"trail 3h", "trail 3s", "trail 6c"}
    for card in ("3h", "3s"):
        expected |= {f"capture {card} 3: Ac 2d", f"build {card} 3: Ac 2d", f"build {card} 6: Ac 2d"}
    check(example(["Ac", "2d"], ["3h", "3s", "6c"]), expected)


# ---------------------------------------------------------------------------------------------
# Examples 10 and 11


def test_example_10_royal_ace() -> None:
    """11.10: a royal ace takes as 14 (K+A, 8+5+A) or as 1 (the A), never both in one play."""
    royal = {"preset": "royal"}
    check(example(["Kc", "Ad"], ["Ah"], royal), {"capture Ah 1: Ad", "capture Ah 14: Ad Kc", "trail Ah"})
    check(example(["8c", "5d", "Ad"], ["Ah"], royal), {"capture Ah 1: Ad", "capture Ah 14: Ad 5d 8c", "trail Ah"})


def test_example_10_ace_low_and_classic() -> None:
    """11.10 without royal_ace_high, and in classic: an ace is only ever 1 (the K is no help)."""
    low = {"capture Ah 1: Ad", "trail Ah"}
    check(example(["Kc", "Ad"], ["Ah"], {"preset": "royal", "royal_ace_high": False}), low)
    check(example(["Kc", "Ad"], ["Ah"]), low)


def test_royal_fourteen_build_needs_an_ace() -> None:
    """6.1, 6.2: under royal ace-high A+K builds 14 (the ace counts 1 in it) only while an ace stays in hand."""
    royal = {"preset": "royal"}
    check(
        example(["Kc"], ["Ah", "As"], royal),
        {"build Ah 14: Kc", "build As 14: Kc", "trail Ah", "trail As"},
    )
    check(example(["Kc"], ["Ah", "2s"], royal), {"trail Ah", "trail 2s"})


_MAXIMAL_TABLE: list[Any] = ["Ac", "2d", "3h", "3s", "4c", "5d"]


def test_example_11_maximal_capture() -> None:
    """11.11: under capture_must_be_maximal the 6 must take all six cards."""
    check(
        example(_MAXIMAL_TABLE, ["6h"], {"capture_must_be_maximal": True}),
        {"capture 6h 6: Ac 2d 3h 3s 4c 5d", "trail 6h"},
    )


def test_example_11_without_the_option() -> None:
    """11.11 by default: every union of disjoint groups among {A,5} {2,4} {3,3} {A,2,3} {A,2,3}."""
    sets = [
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
    check(example(_MAXIMAL_TABLE, ["6h"]), {f"capture 6h 6: {cards}" for cards in sets} | {"trail 6h"})


@pytest.mark.parametrize(("players", "rules"), [(3, {}), (4, {}), (4, {"partnerships": True})])
def test_examples_hold_for_every_seating(players: int, rules: dict[str, Any]) -> None:
    """The mover's moves do not depend on how many others sit at the table (11.8 and 11.9 again)."""
    check(
        example(["4c", build(["3h", "5s"], 8, 0)], ["4d", "8c"], rules, players),
        {"capture 4d 4: 4c", "build 4d 8: 3h 4c 5s", "capture 8c 8: 3h 5s"},
    )
    check(
        example(["6c", build(["3d", "5h", "8s"], 8, 1)], ["2h", "8c"], rules, players),
        {"build 2h 8: 3d 5h 6c 8s", "capture 8c 8: 3d 5h 8s", "trail 2h", "trail 8c"},
    )


README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_own_player_example_runs() -> None:
    """The README's "Write your own player" code runs as written and prints what its last comment says."""
    section = README.read_text(encoding="utf-8").split("## Write your own player\n", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None, "the section has no python block"
    expected = re.search(r"^print\(.*\)  # (.+)$", code.group(1), re.M)
    assert expected is not None, "the block's print has no '# expected output' comment"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(README), "exec"), {"__name__": "readme_example"})
    assert out.getvalue() == expected.group(1) + "\n"
    grabber, greedy = map(int, re.findall(r"\d+", expected.group(1)))
    assert grabber + greedy == 20  # every one of the 20 games has a winner
