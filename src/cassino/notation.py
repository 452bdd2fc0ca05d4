"""Positions as JSON (docs/notation.md): a lenient reader that rejects inconsistent positions with a
message naming the problem, and a canonical writer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .cards import (
    CARD_NAMES,
    DECK_SIZE,
    FULL_DECK,
    Card,
    CardError,
    CardMask,
    card_name,
    cards_of,
    parse_card,
)
from .errors import PositionError
from .partition import UNIT, is_splittable
from .rules import Rules, RulesError
from .scoring import score_hand
from .state import Build, State, eldest_seat


def position_to_json(state: State) -> dict[str, Any]:
    """The position in the writer's form (canonical orders, options that differ from the preset)."""
    rules = state.rules
    table: list[Any] = [CARD_NAMES[c] for c in cards_of(state.loose)]
    for mask, value, owner in state.builds:
        table.append({"cards": [CARD_NAMES[c] for c in cards_of(mask)], "value": value, "owner": owner})
    return {
        "rules": rules.to_json(),
        "dealer": state.dealer,
        "to_move": state.to_move,
        "table": table,
        "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in state.hands],
        "stock": [CARD_NAMES[c] for c in state.remaining_stock],
        "captured": [[CARD_NAMES[c] for c in cards_of(p)] for p in state.captured],
        "sweeps": list(state.sweeps),
        "last_capturer": state.last_capturer if state.last_capturer >= 0 else None,
        "scores": list(state.scores),
        "winner": state.winner if state.winner >= 0 else None,
    }


def dumps_position(state: State) -> str:
    """The position as compact JSON text."""
    return json.dumps(position_to_json(state), separators=(",", ":"))


def read_position_text(text: str) -> State:
    """A position from JSON text, a path to a file holding it, or ``-`` for standard input."""
    import sys

    if text == "-":
        text = sys.stdin.read()
    elif not text.lstrip().startswith("{"):
        path = Path(text)
        try:
            text = path.read_text()
        except OSError as exc:
            raise PositionError(f"cannot read position file {text!r}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"position is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    return position_from_json(data)


def _card(text: Any, where: str) -> Card:
    if not isinstance(text, str):
        raise PositionError(f"{where}: expected a card string, got {json.dumps(text)}")
    try:
        return parse_card(text)
    except CardError as exc:
        raise PositionError(f"{where}: {exc}") from None


def _int(data: dict[str, Any], key: str, default: int | None, low: int, high: int) -> int | None:
    value = data.get(key, default)
    if value is None:
        return None
    if type(value) is not int or not low <= value <= high:
        raise PositionError(f"{key} must be a whole number from {low} to {high}, got {json.dumps(value)}")
    return value


def _card_seq(value: Any, where: str, seen: dict[Card, str]) -> list[Card]:
    """A list of cards in the given order, each recorded in ``seen`` to catch duplicates."""
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list of cards, got {json.dumps(value)}")
    out = []
    for i, item in enumerate(value):
        c = _card(item, f"{where}[{i}]")
        if c in seen:
            raise PositionError(f"duplicate card {card_name(c)}: in {seen[c]} and in {where}")
        seen[c] = where
        out.append(c)
    return out


def _card_list(value: Any, where: str, seen: dict[Card, str]) -> CardMask:
    """A list of cards as a mask (order does not matter)."""
    mask = 0
    for c in _card_seq(value, where, seen):
        mask |= 1 << c
    return mask


def _seat_lists(data: dict[str, Any], key: str, n: int, seen: dict[Card, str], required: bool) -> list[CardMask]:
    value = data.get(key)
    if value is None and not required:
        return [0] * n
    if not isinstance(value, list) or len(value) != n:
        raise PositionError(f"{key} must be a list of {n} card lists, one per seat, got {json.dumps(value)[:80]}")
    return [_card_list(v, f"{key}[{i}]", seen) for i, v in enumerate(value)]


def position_from_json(data: Any) -> State:
    """Read and check a position; anything inconsistent raises PositionError saying what and why.

    >>> from cassino.game import Game
    >>> state = Game(seed=3).state
    >>> position_to_json(position_from_json(position_to_json(state))) == position_to_json(state)
    True
    >>> position_from_json([])
    Traceback (most recent call last):
    ...
    cassino.errors.PositionError: a position must be a JSON object, got list
    """
    if not isinstance(data, dict):
        raise PositionError(f"a position must be a JSON object, got {type(data).__name__}")
    try:
        rules = Rules.from_json(data.get("rules", {}))
    except RulesError as exc:
        raise PositionError(f"rules: {exc}") from None
    n = rules.players
    dealer = _int(data, "dealer", 0, 0, n - 1)
    to_move = _int(data, "to_move", None, 0, n - 1)
    assert dealer is not None
    seen: dict[Card, str] = {}
    values = rules.values

    table = data.get("table", [])
    if not isinstance(table, list):
        raise PositionError(f"table must be a list of cards and builds, got {json.dumps(table)[:80]}")
    loose = 0
    builds: list[Build] = []
    for i, item in enumerate(table):
        where = f"table[{i}]"
        if isinstance(item, dict):
            builds.append(_read_build(item, where, rules, values, seen))
        else:
            c = _card(item, where)
            if c in seen:
                raise PositionError(f"duplicate card {card_name(c)}: in {seen[c]} and in {where}")
            seen[c] = where
            loose |= 1 << c
    hands = _seat_lists(data, "hands", n, seen, True)
    stock = _card_seq(data.get("stock", []), "stock", seen)
    captured = _seat_lists(data, "captured", n, seen, False)
    if len(seen) != DECK_SIZE:
        missing = FULL_DECK & ~sum(1 << c for c in seen)
        raise PositionError(
            f"a position must account for all 52 cards, found {len(seen)}: missing {', '.join(card_name(c) for c in cards_of(missing))}"
        )

    sweeps = data.get("sweeps", []) or []
    if not isinstance(sweeps, list) or any(type(s) is not int or not 0 <= s < n for s in sweeps):
        raise PositionError(f"sweeps must be a list of seats 0..{n - 1}, got {json.dumps(sweeps)}")
    last = _int(data, "last_capturer", None, 0, n - 1)
    scores = data.get("scores")
    if scores is None:
        scores = [0] * rules.sides
    if not isinstance(scores, list) or len(scores) != rules.sides or any(type(s) is not int for s in scores):
        raise PositionError(
            f"scores must be a list of {rules.sides} whole numbers, one per side, got {json.dumps(scores)}"
        )
    winner = _int(data, "winner", None, 0, rules.sides - 1)

    any_hand = any(hands)
    if not any_hand and stock:
        raise PositionError("every hand is empty while the stock is not: the next deal should have been made")
    if to_move is None:
        to_move = eldest_seat(n, dealer)
    if any_hand and not hands[to_move]:
        raise PositionError(f"seat {to_move} is to move but holds no card while another player has cards")
    if winner is not None and (any_hand or stock):
        raise PositionError(
            "winner is set while cards remain in hands or stock: a game is decided only at the end of a hand"
        )

    result = None
    if not any_hand and not stock:
        result = score_hand(rules, captured, sweeps)
    return State(
        rules,
        dealer=dealer,
        to_move=to_move,
        hands=hands,
        loose=loose,
        builds=builds,
        stock=stock,
        captured=captured,
        sweeps=sweeps,
        last_capturer=-1 if last is None else last,
        scores=scores,
        winner=-1 if winner is None else winner,
        result=result,
    )


def _read_build(
    item: dict[str, Any], where: str, rules: Rules, values: tuple[int, ...], seen: dict[Card, str]
) -> Build:
    """One build object, checked: two or more buildable cards that split into groups of its value."""
    cards = item.get("cards")
    mask = _card_list(cards, f"{where}.cards", seen)
    if mask.bit_count() < 2:
        raise PositionError(f"{where}: a build has at least two cards, this one has {mask.bit_count()}")
    value = item.get("value")
    top = rules.max_build
    if type(value) is not int or not 2 <= value <= top:
        raise PositionError(f"{where}: build value must be 2..{top} under these rules, got {json.dumps(value)}")
    owner = item.get("owner")
    if type(owner) is not int or not 0 <= owner < rules.players:
        raise PositionError(f"{where}: owner must be a seat 0..{rules.players - 1}, got {json.dumps(owner)}")
    vector = 0
    for c in cards_of(mask):
        v = values[c]
        if v == 0:
            raise PositionError(f"{where}: {card_name(c)} is a court card, which cannot be built under classic values")
        vector += UNIT[v]
    if not is_splittable(vector, value):
        raise PositionError(
            f"{where}: the cards {' '.join(card_name(c) for c in cards_of(mask))} cannot be split into groups each worth {value}"
        )
    return Build(mask, value, owner)


__all__ = [
    "PositionError",
    "dumps_position",
    "position_from_json",
    "position_to_json",
    "read_position_text",
]
