"""Cards and positions written by hand for tests: position JSON, builds, card masks.

Shared by the worked examples, the reference's self-check, the scoring tests and ``make_golden.py``,
so that a position means the same thing in all of them. The card list comes from the reference's
ranks and suits, not the engine's, so the positions given to the reference do not lean on the
engine being right.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cassino.cards import CARD_NAMES, parse_card
from cassino.notation import position_from_json
from cassino.rules import make_rules
from cassino.state import State, deal_order
from reference import RANKS, SUITS

ALL_CARDS: list[str] = [rank + suit for rank in RANKS for suit in SUITS]
"""Every card, in canonical order (NOTATION.md)."""


def make_position(
    table: list[Any],
    hands: list[list[str]],
    rules: dict[str, Any] | None = None,
    to_move: int = 0,
) -> dict[str, Any]:
    """Make a legal position: the cards not on the table or in hands fill the stock."""
    used = [card for hand in hands for card in hand]
    for entry in table:
        used += [entry] if isinstance(entry, str) else entry["cards"]
    assert len(used) == len(set(used)), "duplicate card in a test position"
    return {
        "rules": {
            "preset": "classic",
            "players": len(hands),
            "partnerships": False,
            **(rules or {}),
        },
        "dealer": len(hands) - 1,
        "to_move": to_move,
        "table": table,
        "hands": hands,
        "stock": [card for card in ALL_CARDS if card not in used],
        "captured": [[] for _ in hands],
        "sweeps": [],
        "last_capturer": None,
        "scores": [0 for _ in hands],
        "winner": None,
    }


def build(cards: list[str], value: int, owner: int) -> dict[str, Any]:
    """Make a build object of the position JSON."""
    return {"cards": cards, "value": value, "owner": owner}


def mask(cards: str | Sequence[str]) -> int:
    """A card mask of the engine from names (a space-separated string or a list)."""
    names = cards.split() if isinstance(cards, str) else cards
    out = 0
    for name in names:
        out |= 1 << parse_card(name)
    return out


def suit(letter: str, *, without: str = "") -> list[str]:
    """Every card of a suit in canonical order, less some (space-separated names)."""
    skip = without.split()
    return [card for card in ALL_CARDS if card[1] == letter and card not in skip]


def scripted_position(
    table: list[Any], hands: list[list[str]], rules: dict[str, Any] | None = None, captured: tuple[str, ...] = ()
) -> State:
    """A consistent position with seat 0 to move: every card not named is in the stock (or in
    seat 1's pile when ``captured`` names it)."""
    used = [c for hand in hands for c in hand] + list(captured)
    for entry in table:
        used += [entry] if isinstance(entry, str) else entry["cards"]
    assert len(used) == len(set(used)), "a card named twice"
    return position_from_json(
        {
            "rules": {"preset": "classic", "players": len(hands), **(rules or {})},
            "dealer": len(hands) - 1,
            "to_move": 0,
            "table": table,
            "hands": hands,
            "stock": [c for c in ALL_CARDS if c not in used],
            "captured": [[], list(captured)] + [[] for _ in hands[2:]],
        }
    )


def first_deal(eldest: list[str], table: list[str], dealer: list[str]) -> list[int]:
    """A deck whose first deal (dealer seat 0 of two, classic) gives these cards; the rest in order."""
    packets = {1: [eldest[:2], eldest[2:]], -1: [table[:2], table[2:]], 0: [dealer[:2], dealer[2:]]}
    top: list[str] = []
    for round_ in range(2):
        for who in deal_order(2, 0, True):
            top += packets[who][round_]
    deck = [parse_card(c) for c in top] + [c for c in range(52) if CARD_NAMES[c] not in top]
    state = State.new_hand(make_rules("classic", players=2), deck, 0)
    assert {CARD_NAMES[c] for c in range(52) if state.hands[1] >> c & 1} == set(eldest)
    return deck


def hand_over_state() -> State:
    """Every hand and the stock empty: the hand is over."""
    return State(
        make_rules("classic"),
        dealer=1,
        to_move=0,
        hands=[0, 0],
        loose=0,
        builds=(),
        stock=(),
        captured=[(1 << 52) - 1, 0],
    )


USED = ["8h", "5s", "3c", "4d", "Ac", "2d", "9s", "Kd", "7c", "4h", "9c", "9d"]
STOCK = [n for n in ALL_CARDS if n not in USED]

BASE: dict[str, Any] = {
    "rules": {"preset": "classic", "players": 2, "partnerships": False},
    "dealer": 0,
    "to_move": 1,
    "table": ["5s", "8h", {"cards": ["3c", "4d"], "value": 7, "owner": 1}],
    "hands": [["Ac", "2d", "9s"], ["4h", "7c", "Kd"]],
    "stock": STOCK,
    "captured": [["9c", "9d"], []],
    "sweeps": [1],
    "last_capturer": 1,
    "scores": [3, 5],
    "winner": None,
}
"""A consistent mid-hand position in the writer's form (NOTATION.md's example, completed to 52 cards):
the notation's tests and the one-line position's start from it."""
