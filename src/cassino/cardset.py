"""``CardSet``: a set of cards that is still its mask, so a player can write ``for card in view.hand``.

The engine keeps sets of cards as plain int masks (``cards.CardMask``), which cost nothing on its
hot path but are opaque to a reader: iterating one raises TypeError. A ``CardSet`` is an ``int``
subclass, as python-chess's ``SquareSet`` is a set of squares over a bitboard: every bit operation,
comparison with a mask, hash, pickle and JSON number of the mask works on it unchanged, and it
adds what a set of cards should have: iteration over its cards in canonical order, ``len``,
``in``, the cards' names and a readable ``repr``.

The view's card sets (``View.hand``, ``loose``, ``captured``, ``unseen``) are card sets. The
engine itself keeps plain ints, and code on a hot path turns a ``CardSet`` back into one
(``int(view.hand)``): the set's own operators, which keep the result a ``CardSet``, are Python
calls where an int's are single instructions.

This module is not compiled with the engine (``native.COMPILED_MODULES``): mypyc cannot make an
``int`` subclass a native class, and a compiled operator could not answer ``NotImplemented``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeAlias

from .cards import CARD_NAMES, DECK_SIZE, FULL_DECK, Card, CardError, CardMask, excerpt, parse_card, quoted

CardsLike: TypeAlias = CardMask | str | Iterable[Card | str]
"""What ``CardSet`` is made from: a mask, card names (``"Ac 5d"``), or cards and names."""


class CardSet(int):
    """A set of cards: an int mask (bit ``c`` set for card ``c``) that iterates over its cards.

    >>> hand = CardSet("Ac 5d Td")
    >>> hand
    CardSet('Ac 5d Td')
    >>> list(hand), len(hand), str(hand)
    ([0, 17, 37], 3, 'Ac 5d Td')
    >>> "5d" in hand, 17 in hand, "Kh" in hand
    (True, True, False)
    >>> hand.names()
    ['Ac', '5d', 'Td']
    >>> hand == 0b1 | 1 << 17 | 1 << 37, hand & CardSet("5d 7h")
    (True, CardSet('5d'))

    ``|``, ``&``, ``^`` and ``-`` (what one set has and the other lacks) with another set or a mask
    give a ``CardSet``, and ``~`` the cards of the deck not in the set. ``&``, ``|`` and ``^`` are the
    int's own operations; ``-`` and ``~`` are the set's: they give what int subtraction and
    ``FULL_DECK & ~mask`` give for every subset, and never a negative number or a card past the
    deck. An operand that is no set of cards (a negative number, bits past the 52 cards) gives the
    int's own result, a plain int.

    ``CardSet(x)`` takes a mask, card names separated by spaces (``str`` gives them back, so
    ``CardSet(str(s)) == s``), or an iterable of cards and names; anything else is a CardError
    naming it.
    """

    __slots__ = ()

    def __new__(cls, cards: CardsLike = 0) -> CardSet:
        if isinstance(cards, int):
            if isinstance(cards, bool) or not 0 <= cards <= FULL_DECK:
                raise CardError(
                    f"{quoted(cards)} is not a set of cards: a mask is a whole number from 0 to 2**{DECK_SIZE} - 1"
                )
            return int.__new__(cls, cards)
        if isinstance(cards, str):
            return int.__new__(cls, _mask_of_items(cards.split(), cards))
        if isinstance(cards, Iterable):
            return int.__new__(cls, _mask_of_items(cards, cards))
        raise CardError(
            f"{quoted(cards)} is not a set of cards: give a mask, card names like 'Ac 5d', or cards ({type(cards).__name__})"
        )

    # ------------------------------------------------------------------- a set of cards

    def __iter__(self) -> Iterator[Card]:
        """The cards, lowest first (the canonical order of docs/notation.md)."""
        mask = int(self)
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def __reversed__(self) -> Iterator[Card]:
        """The cards, highest first."""
        mask = int(self)
        while mask:
            card = mask.bit_length() - 1
            yield card
            mask ^= 1 << card

    def __len__(self) -> int:
        """How many cards (the mask's set bits)."""
        return self.bit_count()

    def __contains__(self, card: object) -> bool:
        """Whether a card is in the set: a card number 0..51 or a card name (``"Ac"``, ``"10d"``).
        A name that names no card is a CardError, so a typo is not read as "not there"; a number
        outside the deck, or anything else, is simply not in it."""
        if isinstance(card, str):
            return bool(self >> parse_card(card) & 1)
        if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < DECK_SIZE:
            return bool(self >> card & 1)
        return False

    def names(self) -> list[str]:
        """The cards' canonical names, lowest first (``['Ac', '5d']``)."""
        return [CARD_NAMES[card] for card in self]

    def __str__(self) -> str:
        """The names separated by spaces (``Ac 5d``; the empty set ``""``), as ``cards.format_cards``.
        ``f"{cards}"`` gives them too, ``f"{cards:d}"`` the mask."""
        return " ".join(self.names())

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})" if self else "CardSet()"

    # ------------------------------------------------------------- operators kept a set

    def __and__(self, other: int) -> CardSet:
        if not isinstance(other, int):
            return NotImplemented
        return int.__new__(CardSet, int(self) & other)  # a subset of this set: no check needed

    __rand__ = __and__

    def __or__(self, other: int) -> CardSet:
        return _kept(int(self) | other) if _is_mask(other) else NotImplemented

    __ror__ = __or__

    def __xor__(self, other: int) -> CardSet:
        return _kept(int(self) ^ other) if _is_mask(other) else NotImplemented

    __rxor__ = __xor__

    def __sub__(self, other: int) -> CardSet:
        """The cards of this set that ``other`` lacks (for a subset, int subtraction's result)."""
        return _kept(int(self) & ~other) if _is_mask(other) else NotImplemented

    def __rsub__(self, other: int) -> CardSet:
        """The cards of ``other`` that this set lacks."""
        return _kept(other & ~int(self)) if _is_mask(other) else NotImplemented

    def __invert__(self) -> CardSet:
        """The cards of the deck that are not in this set."""
        return _kept(FULL_DECK & ~int(self))

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        """Pickled as its mask."""
        return (CardSet, (int(self),))


def _is_mask(value: object) -> bool:
    """Whether ``value`` is a mask of cards (an int, no bool, 0..FULL_DECK): the operands a set's
    operators answer themselves, leaving any other to the int's own operator."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= FULL_DECK


def _kept(mask: CardMask) -> CardSet:
    """A mask known to be a set of cards, as a ``CardSet`` (unchecked)."""
    return int.__new__(CardSet, mask)


def _mask_of_items(items: Iterable[object], given: object) -> CardMask:
    """The mask of card numbers and names; CardError naming the first item that is neither."""
    mask = 0
    for item in items:
        if isinstance(item, str):
            mask |= 1 << parse_card(item)
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < DECK_SIZE:
            mask |= 1 << item
        else:
            shown = excerpt(given) if isinstance(given, str) else quoted(given)
            raise CardError(f"{quoted(item)} in {shown} is not a card: a card is a number 0..51 or a name like 'Ac'")
    return mask


__all__ = ["CardSet", "CardsLike"]
