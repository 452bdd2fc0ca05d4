"""Cards as small ints and sets of cards as 52-bit masks.

A card is ``rank * 4 + suit`` with ranks ``A..K`` as 0..12 and suits ``c d h s`` as 0..3, so the
integer order *is* the canonical order of docs/notation.md and a sorted list of ints prints canonically.
Sets of cards are plain ints with bit ``card`` set: union, difference and membership are single
integer operations, which keeps the engine's hot path free of objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeAlias

from .errors import CardError as CardError

Card: TypeAlias = int
"""A card, 0..51 (``rank * 4 + suit``)."""

CardMask: TypeAlias = int
"""A set of cards: bit ``c`` is set when card ``c`` is in the set."""

RANKS = "A23456789TJQK"
SUITS = "cdhs"
DECK_SIZE: Final = 52
"""Cards in the deck: cards are 0 .. DECK_SIZE - 1."""
FULL_DECK: CardMask = (1 << DECK_SIZE) - 1

ACE, JACK, QUEEN, KING = 0, 10, 11, 12
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

BIG_CASINO: Card = 9 * 4 + DIAMONDS  # Td
LITTLE_CASINO: Card = 1 * 4 + SPADES  # 2s
JACK_OF_SPADES: Card = JACK * 4 + SPADES  # Js

SPADES_MASK: CardMask = sum(1 << (r * 4 + SPADES) for r in range(13))
ACES_MASK: CardMask = sum(1 << (ACE * 4 + s) for s in range(4))

CARD_NAMES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
_BY_NAME: dict[str, Card] = {name: i for i, name in enumerate(CARD_NAMES)}


def rank(card: Card) -> int:
    """The rank index, 0 (ace) to 12 (king)."""
    return card >> 2


def suit(card: Card) -> int:
    """The suit index, 0 (clubs) to 3 (spades)."""
    return card & 3


def is_full_deck(cards: Iterable[Card]) -> bool:
    """True when ``cards`` holds each of the 52 cards exactly once: a deck to deal, in any order."""
    return sorted(cards) == list(range(DECK_SIZE))


def make_card(rank_index: int, suit_index: int) -> Card:
    """The card of a rank index and a suit index."""
    return rank_index * 4 + suit_index


def card_name(card: Card) -> str:
    """The canonical two-character name, e.g. ``Td``."""
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
        f"{text!r} is not a card: write a rank of {' '.join(RANKS)} then a suit of {' '.join(SUITS)}, e.g. 'Td'"
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


def count(mask: CardMask) -> int:
    """The number of cards in a mask."""
    return mask.bit_count()


CLASSIC_VALUES: tuple[int, ...] = tuple(min(r + 1, 10) if r < JACK else 0 for r in range(13) for _ in SUITS)
"""Table values under classic rules: A=1 .. T=10, court cards 0 (no value)."""

ROYAL_VALUES: tuple[int, ...] = tuple(r + 1 for r in range(13) for _ in SUITS)
"""Table values under royal rules: A=1 .. K=13 (an ace from hand may also count 14)."""

RANK_MASKS: tuple[CardMask, ...] = tuple(sum(1 << (r * 4 + s) for s in range(4)) for r in range(13))
"""``RANK_MASKS[r]``: the four cards of rank ``r``."""
