"""The engine's move generator against the brute-force reference, on positions of random play.

Worked examples and perft files check chosen positions; this checks the *full* legal move set on
tens of thousands of positions that nobody chose: seeded random play over every preset, every
seating (2, 3, 4 players, 4 in partnerships) and every option of RULES.md section 10 set at random
(combinations the rules reject are drawn again).  The random players lean, hand by hand, towards
trails (large tables), builds (raises, multiple builds, owners' obligations) or captures, so the
rare corners of sections 5-7 come up often.

The reference is exponential in the table size, so it is skipped (and the skips counted) when the
table holds more than ``MAX_REFERENCE_ITEMS`` items; the engine still plays on from there.

``test_crosscheck_slow`` (marker ``slow``, run in CI) compares at least ``SLOW_MINIMUM`` positions in
``len(SLOW_CHUNKS)`` chunks, one seed each, so a failure names its seed; ``test_crosscheck_fast``
runs a few hundred positions in the default run.  On a mismatch the failure shows the position JSON
and the moves only one side generates.  The helpers here are also used by ``make_golden.py``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# tests/ is not a package: make `reference` importable whatever pytest's import mode.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cassino import RulesError, State, make_rules
from cassino.game import shuffled_deck
from cassino.moves import format_code
from cassino.notation import position_from_json, position_to_json
from cassino.rules import OPTION_NAMES, Rules
from reference import reference_moves

PRESET_NAMES: tuple[str, ...] = ("classic", "royal", "spade", "draw")
SEATINGS: tuple[tuple[int, bool], ...] = ((2, False), (3, False), (4, False), (4, True))
"""(players, partnerships): every seating RULES.md section 2 allows."""

OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "royal": (False, True),
    "royal_ace_high": (False, True),
    "court_capture": ("one", "all", "one_or_three"),
    "sweeps": (False, True),
    "sweeps_cancel": (False, True),
    "capture_must_be_maximal": (False, True),
    "trail_restriction": ("none", "no_capturing_card", "no_rank_match"),
    "owner_may_trail": (False, True),
    "raise_own_build": (False, True),
    "table_cards_may_raise": (False, True),
    "duplicate_value_builds": (False, True),
    "draw": (False, True),
    "scoring": ("standard", "spade"),
    "target": (11, 21, 61),
    "tiebreak": ("higher_total", "count_out"),
}
"""Every value each option of RULES.md section 10 may take (targets: a few)."""

MAX_REFERENCE_ITEMS = 14
"""Tables with more items (loose cards plus builds) are too slow for the reference: skipped."""
TRAIL_BIAS_ITEMS = 13
"""The trail-leaning player stops leaning once the table has this many items ..."""
CAPTURE_ITEMS = 16
"""... and every player avoids trailing from this many on: the number of legal captures grows
exponentially with the table (a 10 among 35 loose cards has millions), and so would the run time."""

POLICIES: tuple[str, ...] = ("uniform", "trail", "build", "capture")
"""The random player's leaning for one hand: which kind of move it prefers, when it has one."""
_KIND_OF_POLICY: dict[str, int] = {"trail": 0, "capture": 1, "build": 2}


def table_items(state: State) -> int:
    """Loose cards plus builds: what the reference's run time is exponential in."""
    return state.loose.bit_count() + len(state.builds)


def random_rules(rng: random.Random, preset: str, players: int, partnerships: bool) -> Rules:
    """A rule set: the preset with each option set to a random value with a random probability.

    A combination the rules reject (RulesError) is drawn again, so only valid ones are returned.
    """
    toggle = rng.choice((0.0, 0.25, 0.5))
    while True:
        options = {name: rng.choice(values) for name, values in OPTION_CHOICES.items() if rng.random() < toggle}
        try:
            return make_rules(preset, players=players, partnerships=partnerships, **options)
        except RulesError:
            continue


def choose_move(rng: random.Random, codes: list[int], policy: str, items: int) -> int:
    """Pick a move code: mostly of the policy's kind when there is one, else uniformly."""
    if items >= CAPTURE_ITEMS:
        return rng.choice([code for code in codes if code & 3] or codes)
    kind = _KIND_OF_POLICY.get(policy)
    if kind is not None and not (kind == 0 and items >= TRAIL_BIAS_ITEMS) and rng.random() < 0.8:
        preferred = [code for code in codes if code & 3 == kind]
        if preferred:
            return rng.choice(preferred)
    return rng.choice(codes)


@dataclass(frozen=True)
class HandSetup:
    """Where one randomly played hand starts: rules, dealer, policy (kept for messages)."""

    rules: Rules
    dealer: int
    policy: str


def random_play(
    seed: int, preset: str | None = None, seating: tuple[int, bool] | None = None
) -> Iterator[tuple[HandSetup, State]]:
    """Yield every position (before each move) of endless seeded random hands.

    The same ``State`` object is yielded again and again and moved on after the consumer returns:
    read it (or copy its JSON) before asking for the next one.  ``preset`` and ``seating`` fix the
    variant; left out, they are drawn per hand.  Scores start anywhere below the target.
    """
    rng = random.Random(seed)
    while True:
        players, partnerships = seating or rng.choice(SEATINGS)
        rules = random_rules(rng, preset or rng.choice(PRESET_NAMES), players, partnerships)
        setup = HandSetup(rules, rng.randrange(players), rng.choice(POLICIES))
        scores = [rng.randrange(rules.target) for _ in range(rules.sides)]
        state = State.new_hand(rules, shuffled_deck(rng), setup.dealer, scores)
        while not state.hand_over:
            yield setup, state
            codes = sorted(state.legal_codes())
            state.push(choose_move(rng, codes, setup.policy, table_items(state)))


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
