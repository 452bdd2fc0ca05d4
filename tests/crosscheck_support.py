"""Seeded random play over every variant: the positions the cross-check and ``make_golden.py`` use.

Nobody chooses these positions, so they reach what hand-made ones miss: every preset, every seating
(2, 3, 4 players, 4 in partnerships) and every option of RULES.md section 10 set at random
(combinations the rules reject are drawn again). The random players lean, hand by hand, towards
trails (large tables), builds (raises, multiple builds, owners' obligations) or captures, so the
rare corners of sections 5-7 come up often. Everything is seeded: a seed gives the same positions
as long as the engine's deal and move order are unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cassino import RulesError, State, make_rules
from cassino.cards import shuffled_deck
from cassino.rules import Rules

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
