"""Why a move is illegal, in plain words: the rules of ``checks`` run in the order a player thinks.

Each rule is one named check in ``checks``, built on the same predicate the generator calls, with
its sentence beside it; this module only decides their order. ``refusals`` gives every check that
fails, ``reason_illegal`` the first. A move the generator lists fails none, and every other move a
move line can write fails at least one (tests/test_rule_checks.py checks both on random positions),
so the last resorts of ``_fallback`` answer only codes no line writes: a trail carrying a value or
table cards, an unknown kind. ``Reason``, ``Cards``, ``Rank`` and ``REASON_TEXTS`` live in
``reasons`` and are read from here too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from . import checks, movegen
from .cards import CardError, card_name, parse_card
from .checks import obligation_reason
from .moves import CAPTURE, TRAIL, MoveCode, code_card, code_kind, code_table, code_value, encode, format_code
from .reasons import REASON_TEXTS, Cards, Param, Rank, Reason

if TYPE_CHECKING:
    from .state import State

build_value_reason = checks.check_build_value
"""Rules 6.1 and 6.2 (``checks.check_build_value``), by the name the web's hints use."""


def verdicts(state: State, code: MoveCode) -> Iterator[Reason | None]:
    """Each check's verdict on ``code``, in the order a player thinks (None: that rule allows it);
    lazily, so a caller that stops at the first reason runs no later check."""
    yield checks.check_hand_over(state)
    kind, card, value, taken = code_kind(code), code_card(code), code_value(code), code_table(code)
    yield checks.check_in_hand(state, card)
    yield checks.check_obligation(state, card, taken, trail=kind == TRAIL)
    if kind == TRAIL:
        yield checks.check_may_trail(state, state.to_move)
        yield checks.check_trail_restriction(state, card, movegen.can_capture(state, card))
        return
    yield checks.check_whole_builds(state, taken)
    yield checks.check_on_table(state, taken)
    if kind == CAPTURE:
        yield checks.check_takes_something(kind, taken)
        yield checks.check_capture_value(state, card, value)
        yield checks.check_court_capture(state, card, value, taken)
        yield checks.check_builds_in_sum(state, value, taken)
        yield checks.check_loose_numbers(state, value, taken)
        yield checks.check_capture_split(state, value, taken)
        yield checks.check_capture_maximal(state, card, value, taken)
        return
    yield checks.check_card_builds(state, card)
    yield checks.check_build_value(state, card, value, state.hands[state.to_move] & ~(1 << card))
    yield checks.check_build_loose(state, taken)
    yield checks.check_takes_something(kind, taken)
    yield checks.check_raise(state, value, taken)
    yield checks.check_one_raise(state, value, taken)
    yield checks.check_one_build_per_value(state, value, taken)
    yield checks.check_raise_loose(state, card, value, taken)
    yield checks.check_build_split(state, card, value, taken)


def refusals(state: State, code: MoveCode) -> list[Reason]:
    """Every rule ``code`` breaks here, in the order a player thinks (empty: it is legal)."""
    return [r for r in verdicts(state, code) if r is not None]


def _fallback(code: MoveCode) -> Reason:
    """For a code no check refuses, which no move line writes (a trail with table cards, an
    unknown kind): the last resort of its kind."""
    kind = code_kind(code)
    if kind == TRAIL:
        return Reason.of("trail_not_allowed")
    if kind == CAPTURE:
        return Reason.of("capture_not_allowed")
    return Reason.of(
        "build_no_split", card=Cards.one(code_card(code)), cards=Cards.of(code_table(code)), value=code_value(code)
    )


def reason_illegal(state: State, code: MoveCode) -> Reason:
    """Which rule forbids ``code`` here, as a structured reason (assumes it is not legal): the
    first check that fails."""
    for reason in verdicts(state, code):
        if reason is not None:
            return reason
    return _fallback(code)


def explain_illegal(state: State, code: MoveCode) -> str:
    """A sentence saying which rule forbids ``code`` here (assumes it is not legal)."""
    return reason_illegal(state, code).text


def explain_card(state: State, text: str) -> str | None:
    """What one card of the mover's hand can do, or why it can do nothing; None if ``text`` is no card."""
    try:
        card = parse_card(text)
    except CardError:
        return None
    name = card_name(card)
    if not state.hands[state.to_move] >> card & 1:
        return f"{name} is not in your hand"
    lines = sorted(format_code(c) for c in movegen.generate(state) if code_card(c) == card)
    if lines:
        return f"{name} can: " + "; ".join(lines)
    return f"{name} has no legal move: " + explain_illegal(state, encode(TRAIL, card, 0, 0))


__all__ = [
    "REASON_TEXTS",
    "Cards",
    "Param",
    "Rank",
    "Reason",
    "build_value_reason",
    "explain_card",
    "explain_illegal",
    "obligation_reason",
    "reason_illegal",
    "refusals",
    "verdicts",
]
