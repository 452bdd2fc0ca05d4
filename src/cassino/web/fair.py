"""Provably fair deals: a commitment to each deck published before its hand, revealed after it.

The commitment is ``SHA-256(salt || deck)`` over ASCII bytes: the salt as 64 lower-case hex digits,
then the deck as canonical card names, top card first, separated by single spaces (no separator
between salt and deck). Published before the first card is dealt, it binds the server to the order;
revealed after the hand, anyone can recompute it (docs/web.md shows how, by hand).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from ..cards import Card, CardError, card_name, is_full_deck, parse_card
from ..game import shuffled_deck

_SYSTEM_RANDOM = secrets.SystemRandom()


def secure_deck() -> list[Card]:
    """A deck shuffled from the operating system's random source (unpredictable, unlike a seed)."""
    return shuffled_deck(_SYSTEM_RANDOM)


def new_salt() -> str:
    """A fresh secret salt: 32 random bytes as 64 lower-case hex digits."""
    return secrets.token_hex(32)


def deck_text(deck: Sequence[Card]) -> str:
    """The deck as committed: card names, top card first, one space between them."""
    return " ".join(card_name(c) for c in deck)


def parse_deck(text: str) -> list[Card]:
    """Read a committed deck string; ValueError unless it names each of the 52 cards once."""
    try:
        deck = [parse_card(w) for w in text.split(" ")]
    except CardError as exc:
        raise ValueError(f"bad deck: {exc}") from None
    if not is_full_deck(deck):
        raise ValueError("bad deck: it must name each of the 52 cards exactly once")
    return deck


def commitment(salt: str, deck: Sequence[Card]) -> str:
    """The published commitment: SHA-256 of the ASCII bytes of salt then deck text, as hex."""
    return _digest(salt, deck_text(deck))


def verify(commit: str, salt: str, deck: str) -> bool:
    """True when a revealed salt and deck text match the commitment published before the hand."""
    return hmac.compare_digest(_digest(salt, deck), commit.lower())


def _digest(salt: str, deck: str) -> str:
    return hashlib.sha256((salt + deck).encode("ascii")).hexdigest()
