"""Positions as JSON (docs/notation.md): a lenient reader that rejects inconsistent positions with a
message naming the problem, and a canonical writer; and the guards every reader of outside text
shares: files here, and, re-exported from the lower modules that apply them themselves, numbers in
the digits 0-9 and excerpts of long inputs in messages (``cards``) and move lines (``moves``)."""

from __future__ import annotations

import codecs
import errno
import json
import sys
from pathlib import Path
from typing import Any, BinaryIO, Final

from .cards import (
    CARD_NAMES,
    DECK_SIZE,
    EXCERPT_CHARS,
    FULL_DECK,
    NUMBER_DIGITS,
    Card,
    CardError,
    CardMask,
    ascii_number,
    card_name,
    cards_of,
    digit_refusal,
    excerpt,
    foreign_digit,
    parse_card,
    quoted,
)
from .errors import CassinoError, PositionError
from .moves import MAX_MOVE_CHARS, MoveCode, parse_code
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


# ----------------------------------------------------------------------------------- outside text

MAX_TEXT_BYTES: Final = 16 * 2**20
"""The largest file (or standard input) a command reads: positions and records take kilobytes, so
more is a mistake, and reading it whole could exhaust the memory."""

PATH_CHARS: Final = 120
"""How much of a file name a message quotes: real ones are shorter, whole, a 5 MB argument is not."""


def read_text(path: str | Path | None) -> str:
    """The text of a file, or of standard input for None: UTF-8, with or without a BOM, at most
    ``MAX_TEXT_BYTES``. Every command reads files so, so that a missing file, a folder, UTF-16, a
    stray Latin-1 byte, binary junk or a huge file each raise one OSError whose ``strerror`` says
    which (``EILSEQ`` for text that is not UTF-8, ``EFBIG`` for too much), never a traceback."""
    stream: BinaryIO | None = getattr(sys.stdin, "buffer", None) if path is None else None
    too_big = OSError(errno.EFBIG, f"more than {MAX_TEXT_BYTES // 2**20} MiB, too large for a position or a record")
    if path is None and stream is None:
        # Standard input replaced by a text stream (tests, embedding): already decoded.
        text = sys.stdin.read(MAX_TEXT_BYTES + 1)
        if len(text) > MAX_TEXT_BYTES:
            raise too_big
        return text.removeprefix("\ufeff")
    try:
        data: bytes
        if stream is not None:
            data = stream.read(MAX_TEXT_BYTES + 1)
        else:
            assert path is not None
            with open(path, "rb") as f:
                data = f.read(MAX_TEXT_BYTES + 1)
    except ValueError:  # open() refuses a name with a NUL character
        raise OSError(errno.EINVAL, "the file name holds a NUL character") from None
    if len(data) > MAX_TEXT_BYTES:
        raise too_big
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise OSError(errno.EILSEQ, "it is UTF-16 text: save it as UTF-8")
    if b"\0" in data:
        raise OSError(errno.EILSEQ, "it holds NUL bytes: binary data or UTF-16 text, not UTF-8 text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OSError(
            errno.EILSEQ, f"not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start} ({exc.reason})"
        ) from None


def read_move(text: str) -> MoveCode:
    """A move line of outside text: ``moves.parse_code``, which applies every guard itself (a line
    of at most ``MAX_MOVE_CHARS``, numbers in the digits 0-9, long inputs quoted by an excerpt);
    kept as the name the readers of outside text call."""
    return parse_code(text)


def _shown(value: Any) -> str:
    """A JSON value as a message shows it: its JSON text, cut to an excerpt when long."""
    return excerpt(json.dumps(value), quote=False)


def read_position_text(text: str) -> State:
    """A position from JSON text, a path to a file holding it, or ``-`` for standard input; any
    problem (unreadable, not JSON, nested too deeply, inconsistent) raises PositionError."""
    text = text.removeprefix("\ufeff")
    if text == "-":
        try:
            text = read_text(None)
        except OSError as exc:
            raise PositionError(f"cannot read standard input: {exc.strerror}") from None
    elif not text.lstrip().startswith("{"):
        try:
            text = read_text(text)
        except OSError as exc:
            raise PositionError(
                f"cannot read position file {excerpt(text, limit=PATH_CHARS)}: {exc.strerror}"
            ) from None
    data = load_json(text, PositionError, "position is not valid JSON", _TOO_DEEP)
    try:
        return position_from_json(data)
    except RecursionError:
        raise PositionError(_TOO_DEEP) from None


_TOO_DEEP = "position is nested too deeply to read: a position is at most four levels deep"


def load_json(text: str, error: type[CassinoError], invalid: str, too_deep: str) -> Any:
    """JSON text as a value, or ``error`` in one line: ``invalid`` with where the text stops being
    JSON (or why a number cannot be read), or ``too_deep`` for nesting past the recursion limit."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{invalid}: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise error(too_deep) from None
    except ValueError as exc:  # a number of thousands of digits
        raise error(f"{invalid}: {exc}") from None


def _card(text: Any, where: str) -> Card:
    if not isinstance(text, str):
        raise PositionError(f"{where}: expected a card string, got {_shown(text)}")
    try:
        return parse_card(text)
    except CardError as exc:
        raise PositionError(f"{where}: {exc}") from None


def _int(data: dict[str, Any], key: str, default: int | None, low: int, high: int) -> int | None:
    value = data.get(key, default)
    if value is None and default is None:
        return None  # null where null means unset (to_move, last_capturer, winner)
    if type(value) is not int or not low <= value <= high:
        raise PositionError(f"{key} must be a whole number from {low} to {high}, got {_shown(value)}")
    return value


def _card_seq(value: Any, where: str, seen: dict[Card, str]) -> list[Card]:
    """A list of cards in the given order, each recorded in ``seen`` to catch duplicates."""
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list of cards, got {_shown(value)}")
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
        raise PositionError(f"{key} must be a list of {n} card lists, one per seat, got {_shown(value)}")
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
    raw_rules = data.get("rules", {})
    if isinstance(raw_rules, dict) and not isinstance(raw_rules.get("preset", ""), str):
        raise PositionError(f"rules: preset must be a string, got {_shown(raw_rules['preset'])}")
    try:
        rules = Rules.from_json(raw_rules)
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
        raise PositionError(f"table must be a list of cards and builds, got {_shown(table)}")
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
        raise PositionError(f"sweeps must be a list of seats 0..{n - 1}, got {_shown(sweeps)}")
    last = _int(data, "last_capturer", None, 0, n - 1)
    scores = data.get("scores")
    if scores is None:
        scores = [0] * rules.sides
    if not isinstance(scores, list) or len(scores) != rules.sides or any(type(s) is not int for s in scores):
        raise PositionError(f"scores must be a list of {rules.sides} whole numbers, one per side, got {_shown(scores)}")
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
        raise PositionError(f"{where}: build value must be 2..{top} under these rules, got {_shown(value)}")
    owner = item.get("owner")
    if type(owner) is not int or not 0 <= owner < rules.players:
        raise PositionError(f"{where}: owner must be a seat 0..{rules.players - 1}, got {_shown(owner)}")
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
    "EXCERPT_CHARS",
    "MAX_MOVE_CHARS",
    "MAX_TEXT_BYTES",
    "NUMBER_DIGITS",
    "PATH_CHARS",
    "PositionError",
    "ascii_number",
    "digit_refusal",
    "dumps_position",
    "excerpt",
    "foreign_digit",
    "position_from_json",
    "position_to_json",
    "quoted",
    "read_move",
    "read_position_text",
    "read_text",
]
