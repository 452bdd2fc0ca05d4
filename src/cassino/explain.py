"""Why a move is illegal, and why a card cannot be played: the rules of ``checks`` run in the order a
player thinks.

Each rule is one named check in ``checks``, built on the same predicate the generator calls, with
its sentence beside it; this module only decides their order. ``refusals`` gives every check that
fails, ``reason_illegal`` the first. A move the generator lists fails none, and every other move a
move line can write fails at least one (tests/test_rule_checks.py checks both on random positions),
so the last resorts of ``_fallback`` answer only codes no line writes: a trail carrying a value or
table cards, an unknown kind. ``Reason``, ``Cards``, ``Rank`` and ``REASON_TEXTS`` live in
``reasons`` and are read from here too.

``why_not`` answers, for the seat to move, which hand cards have no legal move and which table
items each other card's moves leave, and why: the hints the page shows on your turn and the
terminal tells when a card is picked. It reads a ``View`` alone, so no hint can depend on a hidden
card; its three reasons of its own (no group completes a capture, a loose card worth too much,
nothing known) are worded beside it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from . import checks, movegen
from .cards import Card, CardError, CardMask, card_name, cards_of, parse_card
from .checks import (
    capture_values,
    check_build_value,
    check_obligation,
    numeral_cards,
    obligation_reason,
    raise_reason,
    whole_builds,
)
from .errors import ArgumentError
from .moves import CAPTURE, TRAIL, MoveCode, code_card, code_kind, code_table, code_value, encode, format_code
from .partition import UP_TO, in_some_group, vector_of
from .reasons import REASON_TEXTS, Cards, Param, Rank, Reason, words
from .view import public_position

if TYPE_CHECKING:
    from .state import Build, State
    from .view import View


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


def explain_card(view: View, text: str) -> str | None:
    """What one card of the hand of the seat to move can do, or why it can do nothing (the reason
    ``why_not`` gives the page); None if ``text`` is no card."""
    try:
        card = parse_card(text)
    except CardError:
        return None
    name = card_name(card)
    if not view.hand >> card & 1:
        return f"{name} is not in your hand"
    lines = sorted(format_code(c) for c in view.legal if code_card(c) == card)
    if lines:
        return f"{name} can: " + "; ".join(lines)
    return f"{name} has no legal move: " + why_not(view).cards[card].text


# ----------------------------------------------------------------------------- why a card cannot be played

words(
    capture_no_group="no loose cards make {value} together with {loose}, so {card} cannot capture it",
    loose_worth_more=(
        "{loose} is worth more than {card} can capture, and together they make {total}, "
        "more than a build may be worth ({top})"
    ),
    no_move_with="no legal move of {card} takes or joins {item}",
)

TableItem: TypeAlias = "Card | Build"
"""A table item a move can use: a loose card, or a build."""


def build_key(mask: CardMask) -> str:
    """How the page names a build: ``build:`` and its cards in ascending order."""
    return "build:" + " ".join(card_name(c) for c in cards_of(mask))


def item_key(item: TableItem) -> str:
    """How the page names a table item: a loose card by its name, a build by ``build_key``."""
    return card_name(item) if isinstance(item, int) else build_key(item.cards)


@dataclass(frozen=True, slots=True)
class WhyNot:
    """What the seat to move cannot play, and why (``why_not``); a card or an item some legal move
    uses is never listed."""

    cards: dict[Card, Reason]
    """Each hand card with no legal move, with the reason its trail is refused: with no capture
    and no build, the trail is what a player would try, and what stops it is the real cause."""
    table: dict[Card, dict[TableItem, Reason]]
    """For each hand card with moves, each table item (loose cards ascending, then the builds in
    table order) that none of them takes or joins, with why."""

    def to_json(self) -> dict[str, Any]:
        """``{"cards": {card: reason}, "table": {card: {item: reason}}}``, cards by name and items
        by ``item_key``: what the page is sent as ``why_not``."""
        return {
            "cards": {card_name(c): r.to_json() for c, r in self.cards.items()},
            "table": {
                card_name(c): {item_key(i): r.to_json() for i, r in items.items()} for c, items in self.table.items()
            },
        }


def why_not(view: View) -> WhyNot:
    """The reasons for what the seat of ``view`` cannot play (it must be the seat to move).

    A card without a move gets its trail's reason. For a card with moves, each table item none of
    them uses is explained on the most natural move with the two. A loose card: a capture at the
    card's value (when a group of that value holds the item, only the owner's obligation, 7.2, can
    stop it), else the build of their sum (likewise), else what stops both: no loose cards complete
    the capture, the sum is above the highest build, or no card is kept to take the build (6.2). A
    build: a capture at its value (only 7.2 can stop it), else a raise by the card (too high: the
    build is taken only by its own value; frozen; your own; no card kept; 7.2). Court cards pair
    only (5.3). The checks read ``public_position(view)``: nothing hidden is there to read."""
    if view.seat != view.to_move:
        raise ArgumentError(f"seat {view.seat} is not to move (seat {view.to_move} is)")
    cards: dict[Card, Reason] = {}
    table: dict[Card, dict[TableItem, Reason]] = {}
    if not view.hand:
        return WhyNot(cards, table)
    state = public_position(view)
    used: dict[Card, CardMask] = {}
    for code in view.legal:
        card = code_card(code)
        used[card] = used.get(card, 0) | code_table(code)
    hand = view.hand
    loose = cards_of(view.loose)
    for card in cards_of(hand):
        if card not in used:
            cards[card] = reason_illegal(state, encode(TRAIL, card, 0, 0))
            continue
        taken = used[card]
        missing: dict[TableItem, Reason] = {}
        rest = hand & ~(1 << card)
        for x in loose:
            if not taken >> x & 1:
                missing[x] = _loose_reason(state, card, rest, x)
        for build in view.builds:
            if not taken & build.cards:
                missing[build] = _build_reason(state, card, rest, build)
        if missing:
            table[card] = missing
    return WhyNot(cards, table)


def _obligation(state: State, card: Card, value: int, item: CardMask, along: CardMask = 0) -> Reason:
    """The reason a move of ``card`` at ``value`` that uses ``item`` (taking ``along`` with it)
    breaks only rule 7.2 (``checks.check_obligation``), the builds of the move's value counting as
    taken, since every one of them may join it (``checks.whole_builds``). When 7.2 allows even
    that, nothing specific is known."""
    (joinable,) = whole_builds(state.builds, value, False, 0)
    reason = check_obligation(state, card, along | joinable)
    return reason or Reason.of("no_move_with", card=Cards.one(card), item=Cards.of(item))


def _in_group(state: State, x: Card, value: int) -> bool:
    """Whether the loose card ``x`` lies in a group of loose numeral cards worth ``value`` (5.1),
    the other loose cards completing it (``partition.in_some_group``)."""
    others = state.loose & numeral_cards(state) & ~(1 << x) & UP_TO[value]
    return in_some_group(vector_of(others), value, state.values[x])


def _loose_reason(state: State, card: Card, rest: CardMask, x: Card) -> Reason:
    """Why no move of ``card`` takes or builds with the loose card ``x``."""
    values = state.values
    vc, vx = values[card], values[x]
    one = Cards.one(card)
    item = 1 << x
    if vc == 0:
        if x >> 2 == card >> 2:
            return Reason.of("no_move_with", card=one, item=Cards.of(item))
        return Reason.of("court_pairs_only")
    if vx == 0:
        return Reason.of("loose_court_no_value", card=Cards.one(x))
    captures = capture_values(state, card)
    for value in captures:
        if _in_group(state, x, value):
            return _obligation(state, card, value, item)
    total = vc + vx
    kept = check_build_value(state, card, total, rest)
    if kept is None:
        return _obligation(state, card, total, item)
    if vx < captures[-1]:
        return Reason.of("capture_no_group", value=captures[-1], loose=Cards.one(x), card=one)
    top = state.rules.max_build
    if total > top:
        return Reason.of("loose_worth_more", loose=Cards.one(x), card=one, total=total, top=top)
    return kept


def _build_reason(state: State, card: Card, rest: CardMask, build: Build) -> Reason:
    """Why no move of ``card`` takes, raises or joins ``build``."""
    vc = state.values[card]
    mask, value, _owner = build
    if vc == 0:
        return Reason.of("court_pairs_only")
    captures = capture_values(state, card)
    if value in captures:
        return _obligation(state, card, value, mask, mask)
    raised = value + vc
    if raised > state.rules.max_build:
        return Reason.of("build_not_in_sum", build_value=value, value=captures[0])
    kept = raise_reason(state, build) or check_build_value(state, card, raised, rest)
    if kept is not None:
        return kept
    return _obligation(state, card, raised, mask, mask)


__all__ = [
    "REASON_TEXTS",
    "Cards",
    "Param",
    "Rank",
    "Reason",
    "TableItem",
    "WhyNot",
    "build_key",
    "explain_card",
    "explain_illegal",
    "item_key",
    "obligation_reason",
    "reason_illegal",
    "refusals",
    "verdicts",
    "why_not",
]
