"""Cards as small ints and sets of cards as 52-bit masks.

A card is ``rank * 4 + suit`` with ranks ``A..K`` as 0..12 and suits ``c d h s`` as 0..3, so the
integer order *is* the canonical order of docs/notation.md and a sorted list of ints prints canonically.
Sets of cards are plain ints with bit ``card`` set: union, difference and membership are single
integer operations, which keeps the engine's hot path free of objects.

It is also the one home of the two rules every reader of outside text keeps (cards, moves, rules,
positions, records, the command line): a number is written with the ASCII digits 0-9 only
(``ascii_number``, ``foreign_digit``), and a message quotes an input by an excerpt, never whole
(``excerpt``, ``quoted``). They live here, at the bottom of the engine, because every reader
imports this module; ``notation`` re-exports them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable
from typing import Any, Final, TypeAlias

from .errors import CardError as CardError

Card: TypeAlias = int
"""A card, 0..51 (``rank * 4 + suit``)."""

CardMask: TypeAlias = int
"""A set of cards: bit ``c`` is set when card ``c`` is in the set."""

RANKS: Final = "A23456789TJQK"
SUITS: Final = "cdhs"
DECK_SIZE: Final = 52
"""Cards in the deck: cards are 0 .. DECK_SIZE - 1."""
FULL_DECK: Final[CardMask] = (1 << DECK_SIZE) - 1

ACE: Final = 0
JACK: Final = 10
QUEEN: Final = 11
KING: Final = 12
CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3

BIG_CASINO: Final[Card] = 9 * 4 + DIAMONDS  # Td
LITTLE_CASINO: Final[Card] = 1 * 4 + SPADES  # 2s
JACK_OF_SPADES: Final[Card] = JACK * 4 + SPADES  # Js

SPADES_MASK: Final[CardMask] = sum(1 << (r * 4 + SPADES) for r in range(13))
ACES_MASK: Final[CardMask] = sum(1 << (ACE * 4 + s) for s in range(4))

CARD_NAMES: Final[tuple[str, ...]] = tuple(r + s for r in RANKS for s in SUITS)
_BY_NAME: dict[str, Card] = {name: i for i, name in enumerate(CARD_NAMES)}


def rank(card: Card) -> int:
    """The rank index, 0 (ace) to 12 (king)."""
    return card >> 2


def suit(card: Card) -> int:
    """The suit index, 0 (clubs) to 3 (spades)."""
    return card & 3


def is_full_deck(cards: Iterable[Card]) -> bool:
    """True when ``cards`` holds each of the 52 cards exactly once: a deck to deal, in any order
    (False for anything else, things that do not sort included)."""
    try:
        return sorted(cards) == list(range(DECK_SIZE))
    except TypeError:
        return False


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A freshly shuffled 52-card deck, top card first: the deck in order shuffled by
    ``rng.shuffle``, step for step (the same deck for the same seed).

    For a plain ``random.Random`` the shuffle's own loop runs here (Fisher-Yates, each index drawn
    from ``getrandbits`` and redrawn while out of range, exactly as ``Random._randbelow`` does), so
    that the compiled engine deals without running the interpreter: ``rng.shuffle`` is Python code,
    15 µs a deck where this takes 5, and random self-play deals a deck every 200 µs or so. Any other
    generator (the web's ``SystemRandom``) shuffles by its own ``shuffle``."""
    deck = list(range(DECK_SIZE))
    if type(rng) is not random.Random:
        rng.shuffle(deck)
        return deck
    for i in range(DECK_SIZE - 1, 0, -1):
        bits = (i + 1).bit_length()
        j = rng.getrandbits(bits)
        while j > i:
            j = rng.getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def make_card(rank_index: int, suit_index: int) -> Card:
    """The card of a rank index and a suit index."""
    return rank_index * 4 + suit_index


def card_name(card: Card) -> str:
    """The canonical two-character name, e.g. ``Td``; CardError for a number that is no card
    (as an index, -1 would name the last card)."""
    if not 0 <= card < DECK_SIZE:
        raise CardError(f"card {card} is out of range: cards are 0..{DECK_SIZE - 1}")
    return CARD_NAMES[card]


def parse_card(text: str) -> Card:
    """Read a card, accepting ``10`` for ``T`` and upper-case suits, as docs/notation.md allows.

    >>> card_name(parse_card("10D"))
    'Td'
    >>> parse_card("As") == parse_card("AS")
    True
    """
    s = text.strip()
    if len(s) == 3 and s[:2] == "10":
        s = "T" + s[2]
    if len(s) == 2:
        found = _BY_NAME.get(s[0].upper() + s[1].lower())
        if found is not None:
            return found
    raise CardError(
        f"{excerpt(text)} is not a card: write a rank of {' '.join(RANKS)} then a suit of {' '.join(SUITS)}, e.g. 'Td'"
    )


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The mask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask in canonical order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def format_cards(mask: CardMask) -> str:
    """Space-separated canonical names of a mask's cards, in canonical order.

    >>> format_cards(mask_of([parse_card("5h"), parse_card("2c")]))
    '2c 5h'
    """
    return " ".join(CARD_NAMES[c] for c in cards_of(mask))


_BITS16: Final[bytes] = bytes(bin(i).count("1") for i in range(1 << 16))
"""The one bits of every 16-bit number."""


def count(mask: CardMask) -> int:
    """The number of cards in a mask. Read from a table 16 bits at a time: compiled, this is
    twice as fast as ``int.bit_count``, which compiled code calls by name, and the search counts
    the cards of every move it orders."""
    if mask < 0:
        return mask.bit_count()
    n = 0
    while mask:
        n += _BITS16[mask & 0xFFFF]
        mask >>= 16
    return n


CLASSIC_VALUES: Final[tuple[int, ...]] = tuple(min(r + 1, 10) if r < JACK else 0 for r in range(13) for _ in SUITS)
"""Table values under classic rules: A=1 .. T=10, court cards 0 (no value)."""

ROYAL_VALUES: Final[tuple[int, ...]] = tuple(r + 1 for r in range(13) for _ in SUITS)
"""Table values under royal rules: A=1 .. K=13 (an ace from hand may also count 14)."""

RANK_MASKS: Final[tuple[CardMask, ...]] = tuple(sum(1 << (r * 4 + s) for s in range(4)) for r in range(13))
"""``RANK_MASKS[r]``: the four cards of rank ``r``."""


# ----------------------------------------------------------------------------------- outside text

EXCERPT_CHARS: Final = 60
"""How much of a long input an error message quotes."""

NUMBER_DIGITS: Final = 9
"""The most significant digits a number of the notation may have (every real one has one or two)."""


def excerpt(text: str, quote: bool = True, limit: int = EXCERPT_CHARS) -> str:
    """``text`` as an error message shows it: quoted like ``repr``, and when longer than ``limit``
    cut to its first characters, ``…`` and its length, so a 5 MB input never floods the screen.

    >>> excerpt("9z")
    "'9z'"
    >>> excerpt("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (100 characters)"
    """
    short = text[:limit]
    shown = repr(short) if quote else short
    return shown if len(text) <= limit else f"{shown}… ({len(text)} characters)"


def quoted(value: object) -> str:
    """Any value an error message quotes (a string, or whatever else JSON or a caller gave): its
    ``repr``, cut like ``excerpt``, so a huge list is as short as a huge string.

    >>> quoted("yes"), quoted(3), quoted(list(range(100)))[-18:]
    ("'yes'", '3', '… (390 characters)')
    """
    return excerpt(value) if isinstance(value, str) else excerpt(repr(value), quote=False)


def ascii_number(text: str, huge: int | None = None) -> int | None:
    """The whole number ``text`` writes with the ASCII digits 0-9, else None. Python's ``int`` and
    ``str.isdigit`` also take other scripts' digits (Arabic-Indic ``٣``, superscripts), signs,
    spaces and underscores, which the notation never means as numbers. A number of more than
    ``NUMBER_DIGITS`` digits (leading zeros aside) gives ``huge`` (None unless given), so ``int``
    is never asked for one of thousands of digits.

    >>> ascii_number("12"), ascii_number("٣"), ascii_number("+3"), ascii_number("1" * 30, huge=99)
    (12, None, None, 99)
    """
    if not (text.isascii() and text.isdigit()):
        return None
    significant = text.lstrip("0")
    return int(significant or "0") if len(significant) <= NUMBER_DIGITS else huge


def foreign_digit(text: str) -> str | None:
    """The first character of ``text`` that Python counts as a digit but is not one of 0-9
    (``٣``, ``²``), or None: words of the notation that hold one are refused, not read as numbers.

    >>> foreign_digit("capture 8c ٨: 8d"), foreign_digit("capture 8c 8: 8d")
    ('٨', None)
    """
    if text.isascii():
        return None
    return next((ch for ch in text if ch.isdigit() and not ch.isascii()), None)


def digit_refusal(text: str) -> str | None:
    """Why ``text`` cannot be read, if it holds a digit other than 0-9 (``foreign_digit``): the
    one wording of that refusal, for the reader to put after what it was reading.

    >>> digit_refusal("target=١١")
    "'١' is not one of the digits 0-9"
    """
    digit = foreign_digit(text)
    return None if digit is None else f"{digit!r} is not one of the digits 0-9"


def field_values(record: Any) -> tuple[object, ...]:
    """A dataclass's field values in order: what its ``__reduce__`` hands back to its constructor,
    so that a compiled frozen dataclass pickles and copies (its own ``__setstate__`` cannot set a
    frozen field)."""
    return tuple(getattr(record, f.name) for f in dataclasses.fields(record))
