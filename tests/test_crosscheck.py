"""The engine's move generator against the brute-force reference, on positions of random play.

Worked examples and perft files check chosen positions; this checks the *full* legal move set on
tens of thousands of positions that nobody chose: seeded random play over every preset, every
seating and every option (``crosscheck_support.random_play``, shared with ``make_golden.py``).

The reference is exponential in the table size, so it is skipped (and the skips counted) when the
table holds more than ``MAX_REFERENCE_ITEMS`` items; the engine still plays on from there.

``test_crosscheck_slow`` (marker ``slow``, run in CI) compares at least ``SLOW_MINIMUM`` positions in
``len(SLOW_CHUNKS)`` chunks, one seed each, so a failure names its seed; ``test_crosscheck_fast``
runs a few hundred positions in the default run.  On a mismatch the failure shows the position JSON
and the moves only one side generates.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from cassino import State
from cassino.moves import format_code
from cassino.notation import position_from_json, position_to_json
from cassino.rules import OPTION_NAMES
from crosscheck_support import OPTION_CHOICES, PRESET_NAMES, SEATINGS, random_play, table_items
from reference import reference_moves

MAX_REFERENCE_ITEMS = 14
"""Tables with more items (loose cards plus builds) are too slow for the reference: skipped."""


@dataclass
class Tally:
    """How many positions were compared with the reference, and how many were too large."""

    compared: int = 0
    skipped: int = 0


def _mismatch(label: str, position: dict[str, Any], engine: set[str], reference: set[str]) -> str:
    """A failure message with everything needed to replay it (``cassino moves POSITION``)."""
    return "\n".join(
        [
            f"{label}: engine and reference disagree",
            f"position: {json.dumps(position, separators=(',', ':'))}",
            f"only the engine: {sorted(engine - reference)}",
            f"only the reference: {sorted(reference - engine)}",
        ]
    )


def check_position(state: State, label: str, tally: Tally) -> str | None:
    """Compare the engine's full move set with the reference's; a message on a mismatch, else None.

    Also checks that no move is generated twice (a set would hide it), that a position in play has
    a move (7.2 guarantees one), and that the position read back from its JSON has the same moves.
    """
    codes = state.legal_codes()
    lines = [format_code(code) for code in codes]
    position = position_to_json(state)
    if len(set(lines)) != len(lines):
        twice = sorted({line for line in lines if lines.count(line) > 1})
        return f"{label}: moves generated more than once {twice}\nposition: {json.dumps(position)}"
    if not lines:
        return f"{label}: no legal move in a hand in play\nposition: {json.dumps(position)}"
    engine = set(lines)
    reread = {format_code(code) for code in position_from_json(position).legal_codes()}
    if reread != engine:
        return _mismatch(f"{label} (position read back from JSON vs pushed)", position, engine, reread)
    if table_items(state) > MAX_REFERENCE_ITEMS:
        tally.skipped += 1
        return None
    tally.compared += 1
    reference = reference_moves(position)
    if reference != engine:
        return _mismatch(label, position, engine, reference)
    return None


def crosscheck(
    seed: int, target: int, preset: str | None = None, seating: tuple[int, bool] | None = None
) -> tuple[Tally, list[str]]:
    """Play seeded random hands until ``target`` positions were compared; stop at 3 mismatches."""
    tally = Tally()
    failures: list[str] = []
    for index, (setup, state) in enumerate(random_play(seed, preset, seating)):
        if tally.compared >= target or len(failures) >= 3:
            break
        label = f"seed {seed}, position {index} ({setup.rules.describe()}; dealer {setup.dealer}; {setup.policy} play)"
        failure = check_position(state, label, tally)
        if failure:
            failures.append(failure)
    return tally, failures


SLOW_MINIMUM = 20_000
SLOW_CHUNKS: list[tuple[int, str, tuple[int, bool]]] = [
    (1000 + index, preset, seating)
    for index, (preset, seating) in enumerate(
        (preset, seating) for _ in range(2) for preset in PRESET_NAMES for seating in SEATINGS
    )
]
"""(seed, preset, seating): every preset with every seating, twice; options vary hand by hand."""
SLOW_PER_CHUNK = 1250
FAST_CHUNKS: list[int] = [1, 2, 3, 4]
FAST_PER_CHUNK = 125


def test_option_choices_cover_every_option() -> None:
    """A new option in the engine must be drawn here too, or the cross-check would miss it."""
    assert tuple(OPTION_CHOICES) == OPTION_NAMES


def test_slow_chunks_reach_the_minimum() -> None:
    """The slow chunks together compare at least SLOW_MINIMUM positions (each asserts its share)."""
    assert len(SLOW_CHUNKS) * SLOW_PER_CHUNK >= SLOW_MINIMUM
    assert {(preset, seating) for _, preset, seating in SLOW_CHUNKS} == {
        (preset, seating) for preset in PRESET_NAMES for seating in SEATINGS
    }


def _run_chunk(
    seed: int, target: int, preset: str | None, seating: tuple[int, bool] | None, stats: dict[str, int]
) -> None:
    """Run one chunk, record its counts for the summary, and fail with every mismatch it found."""
    tally, failures = crosscheck(seed, target, preset, seating)
    stats["compared"] = stats.get("compared", 0) + tally.compared
    stats["skipped"] = stats.get("skipped", 0) + tally.skipped
    print(f"seed {seed}: {tally.compared} positions compared, {tally.skipped} skipped (table > {MAX_REFERENCE_ITEMS})")
    assert not failures, "\n\n".join(failures)
    assert tally.compared >= target


@pytest.mark.parametrize("seed", FAST_CHUNKS)
def test_crosscheck_fast(seed: int, crosscheck_stats: dict[str, int]) -> None:
    """A few hundred positions of mixed variants, in the default run."""
    _run_chunk(seed, FAST_PER_CHUNK, None, None, crosscheck_stats)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "preset", "seating"),
    SLOW_CHUNKS,
    ids=[
        f"seed{seed}-{preset}-{players}{'p' if partners else ''}" for seed, preset, (players, partners) in SLOW_CHUNKS
    ],
)
def test_crosscheck_slow(seed: int, preset: str, seating: tuple[int, bool], crosscheck_stats: dict[str, int]) -> None:
    """SLOW_PER_CHUNK positions of one preset and seating, options drawn hand by hand."""
    _run_chunk(seed, SLOW_PER_CHUNK, preset, seating, crosscheck_stats)
