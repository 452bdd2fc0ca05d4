"""Positions as JSON and on one line (docs/notation.md): a lenient reader that rejects inconsistent
positions with a message naming the problem, and a canonical writer, for each form; and the guards every reader of outside text
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
from .rules import OPTION_NAMES, PRESETS, Rules, RulesError, parse_option
from .scoring import score_hand
from .state import Build, State, eldest_seat


def position_to_json(state: State) -> dict[str, Any]:
    """The position in the writer's form (canonical orders, options that differ from the preset),
    as a dict rather than text, so that a caller can read or change a field before it writes it
    (``dumps_position`` writes the text, ``position_to_line`` the one-line form)."""
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
    """A position from JSON text, a one-line position, a path to a file holding either, or ``-``
    for standard input; any problem (unreadable, not JSON, nested too deeply, inconsistent) raises
    PositionError. JSON starts with ``{`` and a line with its preset's name (``is_position_line``);
    as an argument a line also needs the space after that name, so a file called ``classic``
    stays a file."""
    text = text.removeprefix("\ufeff")
    if text == "-":
        try:
            text = read_text(None)
        except OSError as exc:
            raise PositionError(f"cannot read standard input: {exc.strerror}") from None
    elif is_position_line(text) and len(text.split(None, 1)) > 1:
        return position_from_line(text)
    elif not text.lstrip().startswith("{"):
        try:
            text = read_text(text)
        except OSError as exc:
            raise PositionError(
                f"cannot read position file {excerpt(text, limit=PATH_CHARS)}: {exc.strerror}"
            ) from None
    if is_position_line(text):
        return position_from_line(text)
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
    """Read and check a position, given as JSON text or as the value it holds (a dict); anything
    unreadable or inconsistent raises PositionError saying what and why.

    >>> from cassino.game import Game
    >>> state = Game(seed=3).state
    >>> position_to_json(position_from_json(position_to_json(state))) == position_to_json(state)
    True
    >>> position_from_json(dumps_position(state)) == state
    True
    >>> position_from_json([])
    Traceback (most recent call last):
    ...
    cassino.errors.PositionError: a position must be a JSON object, got list
    >>> position_from_json('{"hands": [')
    Traceback (most recent call last):
    ...
    cassino.errors.PositionError: position is not valid JSON: Expecting value at line 1 column 12
    """
    if isinstance(data, str):
        data = load_json(data.removeprefix("\ufeff"), PositionError, "position is not valid JSON", _TOO_DEEP)
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


# ----------------------------------------------------------------------------------- one line

LINE_FIELDS: Final = (
    "rules",
    "players",
    "dealer",
    "to_move",
    "table",
    "hands",
    "stock",
    "captured",
    "sweeps",
    "last_capturer",
    "scores",
    "winner",
)
"""The fields of a one-line position, in their order: the JSON's, with the seats apart from the rules."""

NONE: Final = "-"
"""A field or a part of one that holds nothing: an empty zone, no sweeps, no last capturer, no winner."""

PARTNERSHIP_SEATS: Final = "2v2"
"""The ``players`` field of four players in two partnerships (seats 0+2 against 1+3)."""


def position_to_line(state: State) -> str:
    """The position on one line (docs/notation.md), every field of ``position_to_json`` in its order
    and its canonical form, so that a position fits where JSON does not: a shell argument, a log
    line, a test's table.

    >>> from cassino.rules import make_rules
    >>> start = State.new(make_rules("classic"), 1)
    >>> position_to_line(start)
    'classic 2 0 1 2d6h9sTd Ah8dThKs/3d3s5sKd Js4s6sQhQs6dJcTs4cKh9c6c7d7h9h3h9dAs5h4h5dQcAc7sJhAdQd2h4d7cJd8h8c8s2s5c2cKcTc3c -/- - - 0/0 -'
    >>> position_from_line(position_to_line(start)) == start
    True
    """
    data = position_to_json(state)
    rules = data["rules"]
    table = [item if isinstance(item, str) else _build_text(item) for item in data["table"]]
    fields = [
        ",".join([rules["preset"], *(f"{k}={_option_text(v)}" for k, v in rules.items() if k in OPTION_NAMES)]),
        PARTNERSHIP_SEATS if rules["partnerships"] else str(rules["players"]),
        str(data["dealer"]),
        str(data["to_move"]),
        "".join(table) or NONE,
        "/".join(_cards_text(hand) for hand in data["hands"]),
        _cards_text(data["stock"]),
        "/".join(_cards_text(pile) for pile in data["captured"]),
        ",".join(str(seat) for seat in data["sweeps"]) or NONE,
        _seat_text(data["last_capturer"]),
        "/".join(str(score) for score in data["scores"]),
        _seat_text(data["winner"]),
    ]
    return " ".join(fields)


def _option_text(value: Any) -> str:
    """An option's value as ``NAME=VALUE`` writes it: ``true``/``false``, a number or a word."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _cards_text(cards: list[str]) -> str:
    """Card names run together (each is two characters), or ``-`` for none."""
    return "".join(cards) or NONE


def _seat_text(seat: int | None) -> str:
    return NONE if seat is None else str(seat)


def _build_text(build: dict[str, Any]) -> str:
    """A build as ``[VALUE:CARDS@OWNER]``: value first, as it is said (a 7-build of 3c 4d, seat 1's)."""
    return f"[{build['value']}:{''.join(build['cards'])}@{build['owner']}]"


def is_position_line(text: str) -> bool:
    """Whether ``text`` is meant as a one-line position rather than JSON: it starts with a preset's
    name, alone or before its options' comma (in any case, so that ``Classic ...`` is refused for
    its preset, not as JSON). JSON starts with ``{``, so the two are never confused."""
    words = text.split(None, 1)
    return bool(words) and words[0].split(",", 1)[0].lower() in PRESETS


def position_from_line(text: str) -> State:
    """Read a one-line position: its syntax here, field by field, then every check of
    ``position_from_json``, so both forms accept and refuse the same positions with the same words.
    Anything wrong raises PositionError naming the field (or the card or build) and what is wrong.

    >>> position_from_line("classic 2 0 1 - -/-")
    Traceback (most recent call last):
    ...
    cassino.errors.PositionError: a one-line position has 12 fields separated by spaces (rules players dealer to_move table hands stock captured sweeps last_capturer scores winner), got 6
    """
    text = text.strip()
    if "\n" in text or "\r" in text:
        raise PositionError("a one-line position is one line of text, but this text goes on to a second line")
    fields = text.split()
    if len(fields) != len(LINE_FIELDS):
        raise PositionError(
            f"a one-line position has {len(LINE_FIELDS)} fields separated by spaces ({' '.join(LINE_FIELDS)}), got {len(fields)}"
        )
    raw = dict(zip(LINE_FIELDS, fields, strict=True))
    options = _line_options(raw["rules"])
    players, partnerships = _line_players(raw["players"])
    rules = {"preset": raw["rules"].split(",", 1)[0], "players": players, "partnerships": partnerships, **options}
    try:
        sides = Rules.from_json(rules).sides  # the rules first: the zones are read by their seats
    except RulesError as exc:
        raise PositionError(f"rules: {exc}") from None
    piles = {
        key: [_line_cards(part) for part in _line_parts(raw[key], key, players, "card lists, one per seat", _NO_CARDS)]
        for key in ("hands", "captured")
    }
    scores = _line_parts(raw["scores"], "scores", sides, "whole numbers, one per side", "write its number, e.g. 0")
    return position_from_json(
        {
            "rules": rules,
            "dealer": _line_number(raw["dealer"], "dealer"),
            "to_move": _line_number(raw["to_move"], "to_move"),
            "table": _line_table(raw["table"]),
            "hands": piles["hands"],
            "stock": _line_cards(raw["stock"]),
            "captured": piles["captured"],
            "sweeps": _line_sweeps(raw["sweeps"]),
            "last_capturer": _line_optional(raw["last_capturer"], "last_capturer"),
            "scores": [_line_number(part, f"scores[{i}]", signed=True) for i, part in enumerate(scores)],
            "winner": _line_optional(raw["winner"], "winner"),
        }
    )


_NO_CARDS: Final = "write - for a seat without cards"


def _line_players(text: str) -> tuple[int, bool]:
    """The ``players`` field: ``2``, ``3``, ``4``, or ``2v2`` for four in partnerships."""
    if text.lower() == PARTNERSHIP_SEATS:
        return 4, True
    if text in ("2", "3", "4"):
        return int(text), False
    raise PositionError(
        f"players must be 2, 3, 4 or {PARTNERSHIP_SEATS} (four players in two partnerships), got {excerpt(text)}"
    )


def _line_options(text: str) -> dict[str, Any]:
    """The options of the ``rules`` field, ``,NAME=VALUE`` each after the preset's name (their
    values and combinations are checked by the JSON reader, in its words)."""
    options: dict[str, Any] = {}
    for option in text.split(",")[1:]:
        try:
            name, value = parse_option(option)
        except RulesError as exc:
            raise PositionError(f"rules: {exc}") from None
        if name in ("preset", "players", "partnerships"):
            where = "the first word" if name == "preset" else "the players field"
            raise PositionError(f"rules: {name} is not an option: it is {where}")
        if name in options:
            raise PositionError(f"rules: option {name} is given twice")
        options[name] = value
    return options


def _line_number(text: str, where: str, *, signed: bool = False) -> int:
    """A number of the line: the digits 0-9 (and a leading ``-`` where ``signed``), at most
    ``NUMBER_DIGITS`` of them, as everywhere in the notation."""
    negative = signed and text.startswith("-") and len(text) > 1
    number = ascii_number(text[1:] if negative else text, huge=-1)
    if number is None:
        raise PositionError(f"{where} must be a whole number written with the digits 0-9, got {excerpt(text)}")
    if number < 0:
        raise PositionError(f"{where}: a number of more than {NUMBER_DIGITS} digits is too large, got {excerpt(text)}")
    return -number if negative else number


def _line_optional(text: str, where: str) -> int | None:
    """A seat or a side, or ``-`` for none (no capture yet, no winner yet)."""
    if text == NONE:
        return None
    try:
        return _line_number(text, where)
    except PositionError:
        raise PositionError(
            f"{where} must be a whole number written with the digits 0-9, or - for none, got {excerpt(text)}"
        ) from None


def _line_parts(text: str, where: str, count: int, what: str, empty: str) -> list[str]:
    """A field of one part per seat (or side), the parts separated by ``/``; ``empty`` says what
    to write for a part left empty."""
    parts = text.split("/")
    if len(parts) != count:
        raise PositionError(f"{where} must be {count} {what}, separated by '/', got {len(parts)}: {excerpt(text)}")
    for i, part in enumerate(parts):
        if not part:
            raise PositionError(f"{where}[{i}] is empty: {empty}")
    return parts


def _card_word(text: str, start: int) -> str:
    """The card name at ``start`` of names run together: two characters (three for ``10`` and a
    suit), cut before a ``[`` (a build begins there); the JSON reader then reads it or refuses it."""
    word = text[start : start + (3 if text.startswith("10", start) else 2)]
    return word[:1] + word[1:].split("[", 1)[0]


def _line_cards(text: str) -> list[str]:
    """A zone of cards: card names run together, or ``-`` for none."""
    if text == NONE:
        return []
    words: list[str] = []
    i = 0
    while i < len(text):
        words.append(_card_word(text, i))
        i += len(words[-1])
    return words


def _line_table(text: str) -> list[Any]:
    """The table: loose card names and ``[VALUE:CARDS@OWNER]`` builds run together, or ``-``."""
    if text == NONE:
        return []
    items: list[Any] = []
    i = 0
    while i < len(text):
        where = f"table[{len(items)}]"
        if text[i] == "[":
            end = text.find("]", i)
            if end < 0:
                raise PositionError(f"{where}: the build {excerpt(text[i:])} is never closed by ']'")
            items.append(_line_build(text[i : end + 1], where))
            i = end + 1
        else:
            word = _card_word(text, i)
            items.append(word)
            i += len(word)
    return items


def _line_build(text: str, where: str) -> dict[str, Any]:
    """One ``[VALUE:CARDS@OWNER]`` as a JSON build object."""
    body = text[1:-1]
    value, colon, rest = body.partition(":")
    cards, at, owner = rest.rpartition("@")
    if not colon or not at:
        raise PositionError(f"{where}: a build is written [VALUE:CARDS@OWNER], e.g. [7:3c4d@1], got {excerpt(text)}")
    return {
        "cards": _line_cards(cards or NONE),
        "value": _line_number(value, f"{where}: the build's value"),
        "owner": _line_number(owner, f"{where}: the build's owner"),
    }


def _line_sweeps(text: str) -> list[int]:
    """The seats that swept, in order, separated by commas, or ``-`` for none."""
    if text == NONE:
        return []
    return [_line_number(part, f"sweeps[{i}]") for i, part in enumerate(text.split(","))]


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
    "is_position_line",
    "position_from_json",
    "position_from_line",
    "position_to_json",
    "position_to_line",
    "quoted",
    "read_move",
    "read_position_text",
    "read_text",
]
