"""Hypothesis strategies shared by the property tests: rule sets and positions from random play.

Rule sets cover every preset, 2-4 players, partnerships and every option of RULES.md section 10,
but only combinations the rules accept, so a test never has to filter out RulesError. Positions
are reached by random legal play from a seeded deal, so every one is a position the game can
really produce (a hand-written generator would drift from the rules).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from cassino import PRESETS, Rules, State, make_rules
from cassino.rules import COURT_CAPTURES, OPTIONS, SCORINGS, TIEBREAKS, TRAIL_RESTRICTIONS, Option, OptionValue

HAND_MOVES = 48
"""Every hand has exactly 48 plays: 52 cards less the 4 dealt to the table."""


BOOLEAN_OPTIONS = tuple(o.name for o in OPTIONS if o.type == "bool" and not o.refused)
"""The on/off options of the rules, each drawn half the time by the random rule sets (``sweeps_cancel``,
refused with more than two sides, is drawn apart)."""


@st.composite
def rules_st(
    pick: st.DrawFn,
    /,
    presets: tuple[str, ...] | None = None,
    players: tuple[int, ...] = (2, 3, 4),
    partnerships: bool | None = None,
    **fixed: Any,
) -> Rules:
    """A valid rule set: a preset, seats, then any option set on top (``fixed`` pins options;
    ``partnerships=True`` forces 4 players).

    Options that the rules reject in combination (sweeps_cancel with more than two sides,
    count_out with spade scoring) are only drawn when the combination is allowed.
    """
    preset = pick(st.sampled_from(presets or tuple(PRESETS)))
    n = 4 if partnerships else pick(st.sampled_from(players))
    if partnerships is None:
        partnerships = n == 4 and pick(st.booleans())
    sides = 2 if partnerships else n
    options: dict[str, Any] = {"players": n, "partnerships": partnerships}
    for name in BOOLEAN_OPTIONS:
        if pick(st.booleans()):  # half the time keep the preset's value
            options[name] = pick(st.booleans())
    if pick(st.booleans()):
        options["court_capture"] = pick(st.sampled_from(COURT_CAPTURES))
    if pick(st.booleans()):
        options["trail_restriction"] = pick(st.sampled_from(TRAIL_RESTRICTIONS))
    if pick(st.booleans()):
        options["scoring"] = pick(st.sampled_from(SCORINGS))
    if pick(st.booleans()):
        options["target"] = pick(st.integers(1, 61))
    options.update(fixed)
    if fixed.get("tiebreak") == "count_out" and "scoring" not in fixed:
        options["scoring"] = "standard"
    scoring = options.get("scoring", PRESETS[preset].scoring)
    if "tiebreak" not in fixed:
        if scoring == "spade":
            options["tiebreak"] = "higher_total"
        elif pick(st.booleans()):
            options["tiebreak"] = pick(st.sampled_from(TIEBREAKS))
    if "sweeps_cancel" not in fixed:
        options["sweeps_cancel"] = sides == 2 and pick(st.booleans())
    return make_rules(preset, **options)


def seeded_deck(seed: int) -> list[int]:
    """The deck a seed shuffles to (top card first)."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return deck


def random_play(state: State, rng: random.Random, moves: int) -> State:
    """Push up to ``moves`` random legal moves (fewer if the hand ends); the pushes stay undoable."""
    for _ in range(moves):
        codes = state.legal_codes()
        if not codes:
            break
        state.push(rng.choice(sorted(codes)))
    return state


@dataclass(frozen=True)
class Deal:
    """The start of a hand drawn by hypothesis: rules, a seeded shuffle, the dealer and the scores."""

    rules: Rules
    seed: int
    dealer: int
    scores: tuple[int, ...]

    def start(self) -> State:
        """A fresh State after the first deal."""
        return State.new_hand(self.rules, seeded_deck(self.seed), self.dealer, self.scores)

    def walk(self) -> random.Random:
        """The random source that picks the moves of this deal (independent of the shuffle)."""
        return random.Random(self.seed ^ 0x5EED)


@st.composite
def deals(draw: st.DrawFn, rules: st.SearchStrategy[Rules] | None = None) -> Deal:
    """A seeded first deal under drawn rules, with game scores below the target (so the hand may
    decide the game, as a real game's hands do)."""
    r = draw(rules if rules is not None else rules_st())
    seed = draw(st.integers(0, 2**32 - 1))
    dealer = draw(st.integers(0, r.players - 1))
    scores = tuple(draw(st.lists(st.integers(0, r.target - 1), min_size=r.sides, max_size=r.sides)))
    return Deal(r, seed, dealer, scores)


@st.composite
def positions(draw: st.DrawFn, rules: st.SearchStrategy[Rules] | None = None) -> State:
    """A position reached by a drawn number of random moves from a seeded deal (undo history kept)."""
    deal = draw(deals(rules))
    moves = draw(st.integers(0, HAND_MOVES))
    return random_play(deal.start(), deal.walk(), moves)


def option_values(option: Option) -> tuple[OptionValue, ...]:
    """The values an option is tried with: both for a flag, every choice, two numbers."""
    if option.type == "bool":
        return (False, True)
    if option.type == "choice":
        return option.choices
    assert isinstance(option.default, int)
    return (option.default, option.default + 1)
