"""Moves: one int on the hot path, a small frozen value for everyone else.

A move is fully identified by its kind, the card played, the value and the set of table cards it
takes or joins (docs/notation.md: the same cards with the same value are one move), so all four pack into
one int: ``kind | card << 2 | value << 8 | table_mask << 12``. Value 0 marks the classic court
pairing, written with the rank letter.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeAlias

from .cards import (
    DECK_SIZE,
    JACK,
    RANKS,
    Card,
    CardError,
    CardMask,
    ascii_number,
    card_name,
    cards_of,
    digit_refusal,
    excerpt,
    format_cards,
    mask_of,
    parse_card,
    quoted,
    rank,
)
from .errors import MoveError as MoveError

if TYPE_CHECKING:
    from .state import State
    from .view import View

MoveCode: TypeAlias = int

TRAIL: Final = 0
CAPTURE: Final = 1
BUILD: Final = 2
KIND_NAMES: Final = ("trail", "capture", "build")

KIND_MASK: Final = 3
"""The kind's bits, the lowest two of a code."""
CARD_SHIFT: Final = 2
"""Where the played card starts in a code."""
CARD_MASK: Final = 63
"""The played card's six bits (cards 0..51), after ``CARD_SHIFT``."""
VALUE_SHIFT: Final = 8
"""Where the value starts in a code."""
VALUE_MASK: Final = 15
"""The value's four bits (0..14), after ``VALUE_SHIFT``."""
TABLE_SHIFT: Final = 12
"""Where the table cards' 52-bit mask starts in a code: everything above the value."""
HIGHEST_VALUE: Final = 14
"""The highest value a move counts: a royal ace played high."""


def encode(kind: int, card: Card, value: int, table: CardMask) -> MoveCode:
    """Pack a move into its int code."""
    return kind | card << CARD_SHIFT | value << VALUE_SHIFT | table << TABLE_SHIFT


def code_kind(code: MoveCode) -> int:
    """The kind of a move code (TRAIL, CAPTURE or BUILD)."""
    return code & KIND_MASK


def code_card(code: MoveCode) -> Card:
    """The card a move code plays."""
    return (code >> CARD_SHIFT) & CARD_MASK


def code_value(code: MoveCode) -> int:
    """The value of a move code (0: classic court pairing or trail)."""
    return (code >> VALUE_SHIFT) & VALUE_MASK


def code_table(code: MoveCode) -> CardMask:
    """The table cards a move code takes or joins."""
    return code >> TABLE_SHIFT


def code_cards(code: MoveCode) -> CardMask:
    """The played card with the table cards: what a capture takes home, or the cards of the build
    a build move makes."""
    return code >> TABLE_SHIFT | 1 << ((code >> CARD_SHIFT) & CARD_MASK)


def format_code(code: MoveCode) -> str:
    """The canonical line of a move code."""
    kind = code_kind(code)
    card = code_card(code)
    if kind == TRAIL:
        return "trail " + card_name(card)
    value = code_value(code)
    shown = str(value) if value else RANKS[rank(card)]
    return f"{KIND_NAMES[kind]} {card_name(card)} {shown}: {format_cards(code_table(code))}"


def check_fields(code: MoveCode) -> None:
    """Raise MoveError unless each field of ``code`` names something (a kind, a card, table cards
    of the deck): what a code needs to be written as a line, or wrapped as a ``Move``."""
    if code < 0 or code & KIND_MASK == KIND_MASK or code_card(code) >= DECK_SIZE or code_table(code) >> DECK_SIZE:
        kind, card = code_kind(code), code_card(code)
        raise MoveError(f"move code {quoted(code)} names no kind, card or table cards (kind {kind}, card {card})")


def check_code(code: MoveCode) -> None:
    """Raise MoveError unless ``code`` is a well-formed move (whether it is legal is the position's
    business): the one check behind ``Move.from_code``, for codes that come from outside."""
    if not isinstance(code, int) or isinstance(code, bool) or code < 0:
        raise MoveError(f"move code {quoted(code)} is not a non-negative int")
    check_fields(code)
    kind, card, value, table = code_kind(code), code_card(code), code_value(code), code_table(code)
    if kind == TRAIL:
        if value or table:
            raise MoveError(f"move code {code}: a trail takes nothing, so it has no value and no cards")
        return
    if not table:
        raise MoveError(f"move code {code}: a {KIND_NAMES[kind]} needs table cards")
    if table >> card & 1:
        raise MoveError(f"move code {code}: the played card {card_name(card)} cannot also be a table card")
    if value > HIGHEST_VALUE or (value == 0 and (kind == BUILD or rank(card) < JACK)):
        raise MoveError(f"move code {code}: value {value} is not 1..14 (0 only for a court card capturing by pairing)")


def _checked_code(kind: int, card: Card, value: int, table: CardMask) -> MoveCode:
    """The code of a move from its parts, each checked first (``encode`` would let a card of 64 or
    a value of 16 spill into the next field), then the whole by ``check_code``."""
    if not 0 <= card < DECK_SIZE:
        raise MoveError(f"card {card} is out of range: cards are 0..{DECK_SIZE - 1}")
    if not 0 <= value <= HIGHEST_VALUE:
        raise MoveError(f"value {value} is out of range: 1..{HIGHEST_VALUE} (0 for a court card capturing by pairing)")
    if table < 0 or table >> DECK_SIZE:
        raise MoveError(f"table cards {quoted(table)} are no set of cards: a mask of the {DECK_SIZE} cards' bits")
    code = encode(kind, card, value, table)
    check_code(code)
    return code


MAX_MOVE_CHARS: Final = 400
"""The longest move line read: a canonical line has under 200 characters, spelt leniently under 300."""

MOVE_LINE: Final = re.compile(r"^\s*(trail|capture|build)\s+(\S+)\s*(?:\s(\S+?)\s*:\s*(.*?))?\s*$", re.IGNORECASE)
"""The shape of a canonical move line: its kind, card, and value and cards when it has them."""


def check_move_text(text: str) -> None:
    """Refuse, with MoveError, typed text that no reader of moves should take further: longer than
    ``MAX_MOVE_CHARS``, or holding a digit other than 0-9 (``int`` would read ``٨`` as 8)."""
    if len(text) > MAX_MOVE_CHARS:
        raise MoveError(f"{excerpt(text)} is not a move: a move line has at most {MAX_MOVE_CHARS} characters")
    refusal = digit_refusal(text)
    if refusal is not None:
        raise MoveError(f"in move {excerpt(text)}: {refusal}")


def parse_code(text: str) -> MoveCode:
    """Read a move line; lenient on spacing, case and card order, strict on content. Outside text
    is safe to give it: a line too long to be a move, or a number in other digits than 0-9
    (``int`` would read ``٨`` as 8), is refused, and every message quotes the line by an excerpt.

    >>> format_code(parse_code("Capture 8C 8: 5d, 3h"))
    'capture 8c 8: 3h 5d'
    >>> parse_code("capture 8c ٨: 8d")
    Traceback (most recent call last):
    ...
    cassino.errors.MoveError: in move 'capture 8c ٨: 8d': '٨' is not one of the digits 0-9
    """
    check_move_text(text)
    m = MOVE_LINE.match(text)
    if not m:
        raise MoveError(
            f"{excerpt(text)} is not a move: write 'trail CARD', 'capture CARD VALUE: CARDS' or 'build CARD VALUE: CARDS'"
        )
    kind_word, card_text, value_text, cards_text = m.groups()
    kind = KIND_NAMES.index(kind_word.lower())
    try:
        card = parse_card(card_text)
    except CardError as exc:
        raise MoveError(f"in move {excerpt(text)}: {exc}") from None
    if kind == TRAIL:
        if value_text is not None:
            raise MoveError(f"in move {excerpt(text)}: a trail takes nothing, so it has no value and no cards")
        return encode(TRAIL, card, 0, 0)
    if value_text is None:
        raise MoveError(
            f"in move {excerpt(text)}: a {kind_word.lower()} needs a value and cards, e.g. '{kind_word.lower()} {card_name(card)} 8: 5s'"
        )
    number = ascii_number(value_text, huge=HIGHEST_VALUE + 1)
    if number is not None:
        if not 1 <= number <= HIGHEST_VALUE:
            raise MoveError(f"in move {excerpt(text)}: the value must be 1..14, got {excerpt(value_text, quote=False)}")
        value = number
    elif value_text.upper() == RANKS[rank(card)] and kind == CAPTURE and rank(card) >= JACK:
        value = 0
    else:
        raise MoveError(
            f"in move {excerpt(text)}: {excerpt(value_text)} is not a value (a number 1..14, or the rank letter of a court card capturing by pairing)"
        )
    words = cards_text.replace(",", " ").split()
    if not words:
        raise MoveError(f"in move {excerpt(text)}: no table cards named after the ':'")
    try:
        taken = [parse_card(w) for w in words]
    except CardError as exc:
        raise MoveError(f"in move {excerpt(text)}: {exc}") from None
    table = mask_of(taken)
    if table.bit_count() != len(taken):
        raise MoveError(f"in move {excerpt(text)}: a table card is named twice")
    if table >> card & 1:
        raise MoveError(f"in move {excerpt(text)}: the played card {card_name(card)} cannot also be a table card")
    return encode(kind, card, value, table)


@dataclass(frozen=True, slots=True)
class Move:
    """A move as a value: ``Move.parse('build 3h 8: 5s')``, ``str(move)``, ``move.code``.

    Its attributes say what it does without decoding the int: ``kind`` (``"trail"``, ``"capture"``
    or ``"build"``), ``card`` and ``card_name`` (played from hand), ``value``, and the table cards
    it takes or joins as ``table`` (a mask), ``table_cards`` and ``table_names``. Moves compare and
    hash by their code; ``Move(code)`` wraps a code whose fields decode (MoveError otherwise: a
    negative code, kind 3, card 52 and up, or table cards past the deck), ``Move.from_code(code)``
    checks that it is a well-formed move too.
    """

    code: MoveCode

    def __post_init__(self) -> None:
        """Refuse a code whose fields name nothing, so that no attribute fails on it later."""
        check_fields(self.code)

    def __reduce__(self) -> tuple[type[Move], tuple[MoveCode]]:
        """Rebuilt from its code: compiled, a frozen class pickles and copies so."""
        return (Move, (self.code,))

    @classmethod
    def from_code(cls, code: MoveCode) -> Move:
        """The move of a code, checked to be well formed (``check_code``); ``move.code`` gives it back."""
        check_code(code)
        return cls(code)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in docs/notation.md form (see ``parse_code``).

        >>> move = Move.parse("capture 8c 8: 3h 5d")
        >>> move.kind, move.card_name, move.value, move.table_names
        ('capture', '8c', 8, ['3h', '5d'])
        >>> Move.parse("trail 10h")
        Move.parse('trail Th')
        """
        return cls(parse_code(text))

    @classmethod
    def parse_words(
        cls,
        text: str,
        position: State | View,
        *,
        lang: str | None = None,
        seat: int | None = None,
        names: Callable[[int], str] | None = None,
        ascii: bool = False,
    ) -> Move:
        """The legal move of ``position`` that a person typed: a canonical line as ``parse`` reads
        it (IllegalMoveError naming the rule when it is not legal), a sentence as ``describe``
        writes it in ``lang`` (any language when None; cards with symbols or letters, lists in any
        order), or a card or a rank alone that has exactly one legal move. A sentence is resolved
        against the legal moves, since it leaves out what they tell (a capture's value, who owns a
        build); MoveError names what was wrong, listing the moves meant when there are several.
        ``seat`` and ``names`` are as for ``describe``; ``ascii`` writes suit letters in the error.
        """
        from .sentences import read_move

        return cls(read_move(text, position, lang=lang, seat=seat, names=names, ascii=ascii))

    def describe(
        self,
        position: State | View | None = None,
        lang: str = "en",
        *,
        seat: int | None = None,
        names: Callable[[int], str] | None = None,
        ascii: bool = False,
    ) -> str:
        """The move in words, as the game prints it, in a language of the move catalogues (``en``,
        ``de``, ``id``): "take 5♥ 3♣ with 8♠", "build eight: 3♣ on 5♦", "trail 2♥". Given the
        ``position`` it is made in, the builds it takes, joins or raises are named from the
        reader's seat (``seat``, by default the view's or the seat to move): "raise your six to
        nine with 3♣", "take Ana's eight with 8♠", other seats by ``names`` (``seat 2`` when
        none); without it each card stands by itself. ``ascii``: suits as letters (``5h``).

        >>> Move.parse("build 3c 8: 5d").describe()
        'build eight: 3♣ on 5♦'
        >>> Move.parse("capture 8c 8: 3h 5d").describe(lang="de", ascii=True)
        '3h 5d mit 8c nehmen'
        """
        from .sentences import describe

        return describe(self.code, position, lang, seat=seat, names=names, ascii=ascii)

    @classmethod
    def trail(cls, card: Card) -> Move:
        """Trail a card (MoveError for a number that is no card)."""
        return cls(_checked_code(TRAIL, card, 0, 0))

    @classmethod
    def capture(cls, card: Card, value: int, table: CardMask) -> Move:
        """Capture the table cards ``table`` with ``card`` counting ``value`` (0: court pairing);
        MoveError names what is no such move."""
        return cls(_checked_code(CAPTURE, card, value, table))

    @classmethod
    def build(cls, card: Card, value: int, table: CardMask) -> Move:
        """Build ``value`` from ``card`` and the table cards ``table``; MoveError names what is no
        such move."""
        return cls(_checked_code(BUILD, card, value, table))

    @property
    def kind(self) -> str:
        """``trail``, ``capture`` or ``build`` (``KIND_NAMES[kind_code]``)."""
        return KIND_NAMES[code_kind(self.code)]

    @property
    def kind_code(self) -> int:
        """The kind as the int constant ``TRAIL``, ``CAPTURE`` or ``BUILD``."""
        return code_kind(self.code)

    @property
    def card(self) -> Card:
        """The card played from hand."""
        return code_card(self.code)

    @property
    def card_name(self) -> str:
        """The card played from hand by name, e.g. ``7h``."""
        return card_name(code_card(self.code))

    @property
    def value(self) -> int:
        """The capture or build value (0 for a trail or a classic court pairing)."""
        return code_value(self.code)

    @property
    def table(self) -> CardMask:
        """The table cards taken or joined, as a mask."""
        return code_table(self.code)

    @property
    def table_cards(self) -> list[Card]:
        """The table cards taken or joined, in canonical order."""
        return cards_of(code_table(self.code))

    @property
    def table_names(self) -> list[str]:
        """The table cards taken or joined by name, in canonical order."""
        return [card_name(c) for c in cards_of(code_table(self.code))]

    def __str__(self) -> str:
        return format_code(self.code)

    def __repr__(self) -> str:
        return f"Move.parse({format_code(self.code)!r})"
