"""Why a card, or a card with a table item, cannot be played: the hints the page shows on your turn.

``why_not`` answers two questions of the seat to move, in structured reasons the page words in the
player's language (``cassino.explain.Reason``):

* ``cards``: a hand card with no legal move, and why (the reason its trail is refused: with no
  capture and no build, the trail is what a player would try, and what stops it is the real cause);
* ``table``: for a card that has moves, each table item that no move of that card takes or joins,
  and why, told on the most natural move with the two. A loose card: a capture at the card's value
  (when a group of that value holds the item, only the owner's obligation, 7.2, can stop it), else
  the build of their sum (likewise), else what stops both: no loose cards complete the capture, the
  sum is above the highest build, or no card is kept to take the build (6.2). A build: a capture
  at its value (only 7.2 can stop it), else a raise by the card (too high: the build is taken only
  by its own value; frozen; your own; no card kept; 7.2). Court cards pair only (5.3).

Only the seat's own hand and public information are read: the other hands are blanked on a copy
before anything is computed, so no hint can depend on a hidden card.
"""

from __future__ import annotations

from typing import Any

from .. import movegen
from ..cards import CardMask, card_name, cards_of
from ..checks import check_obligation, raise_reason
from ..explain import Cards, Reason, build_value_reason, reason_illegal
from ..moves import code_card, code_table
from ..state import Build, State


def build_key(mask: CardMask) -> str:
    """How the page names a build: ``build:`` and its cards in ascending order."""
    return "build:" + " ".join(card_name(c) for c in cards_of(mask))


def _public(state: State, seat: int) -> State:
    """A copy of the position in which only ``seat``'s hand is known: the other hands are empty."""
    public = state.copy()
    public.hands = tuple(h if s == seat else 0 for s, h in enumerate(state.hands))
    return public


def why_not(state: State, seat: int) -> dict[str, Any]:
    """The reasons for what ``seat`` (the seat to move) cannot play, JSON-ready:
    ``{"cards": {card: reason}, "table": {card: {item: reason}}}``, an item being a loose card's
    name or a build's key (``build_key``); a card or item with a move is never listed."""
    if seat != state.to_move:
        raise ValueError(f"seat {seat} is not to move (seat {state.to_move} is)")
    cards: dict[str, Any] = {}
    table: dict[str, Any] = {}
    out: dict[str, Any] = {"cards": cards, "table": table}
    if state.hand_over or not state.hands[seat]:
        return out
    public = _public(state, seat)
    used: dict[int, CardMask] = {}
    for code in movegen.generate(public):
        card = code_card(code)
        used[card] = used.get(card, 0) | code_table(code)
    hand = public.hands[seat]
    loose = cards_of(public.loose)
    for card in cards_of(hand):
        if card not in used:
            cards[card_name(card)] = reason_illegal(public, card << 2).to_json()
            continue
        taken = used[card]
        missing: dict[str, Any] = {}
        rest = hand & ~(1 << card)
        for x in loose:
            if not taken >> x & 1:
                missing[card_name(x)] = _loose_reason(public, card, rest, x).to_json()
        for build in public.builds:
            if not taken & build.cards:
                missing[build_key(build.cards)] = _build_reason(public, card, rest, build).to_json()
        if missing:
            table[card_name(card)] = missing
    return out


def _obligation(state: State, card: int, value: int, item: CardMask, along: CardMask = 0) -> Reason:
    """The reason a move of ``card`` at ``value`` that uses ``item`` (taking ``along`` with it)
    breaks only rule 7.2 (``checks.check_obligation``), where builds of the move's value count as
    taken, since they could join it. Without such a build, nothing specific is known."""
    joinable = 0
    for b in state.builds:
        if b.value == value:
            joinable |= b.cards
    reason = check_obligation(state, card, along | joinable)
    return reason or Reason.of("no_move_with", card=Cards.one(card), item=Cards.of(item))


def _in_group(state: State, x: int, value: int) -> bool:
    """Whether the loose card ``x`` lies in a group of loose numeral cards worth ``value`` (5.1)."""
    values = state.values
    need = value - values[x]
    if need < 0:
        return False
    sums = 1  # bit s: some set of the other loose numeral cards adds up to s
    for c in cards_of(state.loose & ~(1 << x)):
        v = values[c]
        if v:
            sums |= sums << v
    return bool(sums >> need & 1)


def _loose_reason(state: State, card: int, rest: CardMask, x: int) -> Reason:
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
    captures = movegen.capture_values(state, card)
    for value in captures:
        if _in_group(state, x, value):
            return _obligation(state, card, value, item)
    total = vc + vx
    kept = build_value_reason(state, card, total, rest)
    if kept is None:
        return _obligation(state, card, total, item)
    if vx < captures[-1]:
        return Reason.of("capture_no_group", value=captures[-1], loose=Cards.one(x), card=one)
    top = state.rules.max_build
    if total > top:
        return Reason.of("loose_worth_more", loose=Cards.one(x), card=one, total=total, top=top)
    return kept


def _build_reason(state: State, card: int, rest: CardMask, build: Build) -> Reason:
    """Why no move of ``card`` takes, raises or joins ``build``."""
    values = state.values
    vc = values[card]
    mask, value, _owner = build
    if vc == 0:
        return Reason.of("court_pairs_only")
    captures = movegen.capture_values(state, card)
    if value in captures:
        return _obligation(state, card, value, mask, mask)
    raised = value + vc
    if raised > state.rules.max_build:
        return Reason.of("build_not_in_sum", build_value=value, value=captures[0])
    kept = raise_reason(state, build) or build_value_reason(state, card, raised, rest)
    if kept is not None:
        return kept
    return _obligation(state, card, raised, mask, mask)


__all__ = ["build_key", "why_not"]
