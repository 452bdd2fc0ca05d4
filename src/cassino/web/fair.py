"""Deals no server can choose: each deck derived from the server's committed seed and every
person's contribution, and verified by anyone after the hand.

The scheme (``SCHEME``) is the commit-then-contribute scheme of provably fair online games, with
one contribution per person's seat. For each hand the server draws a secret *seed* (64 lower-case
hex digits) and publishes ``commitment = SHA-256(seed)`` *before* any person contributes; each
person's page then sends a *contribution* of its own (64 hex digits from the browser's random
source), which the server stores until the hand is dealt. The deck is then

    root     = SHA-256("cassino-deal-v1|" game "|" hand "|" seed "|" seat=value,seat=value...)
    stream   = SHA-256(root "|0") || SHA-256(root "|1") || ...      (root as 64 hex digits)
    deck     = the 52 cards in canonical order (Ac Ad Ah As 2c ... Ks), shuffled by Fisher-Yates
               from the last place down: place i (51 .. 1) swaps with place uniform(i + 1),
               where uniform(n) takes the next byte b of the stream until b < 256 - 256 % n,
               and gives b % n

over ASCII text, the contributions by seat in increasing order (none: an empty list). Committed
first, the seed cannot be changed after the contributions are seen, so the server cannot steer the
deck; sent without knowing the seed, no contribution can steer it either. After the hand, the seed
and the contributions are revealed: anyone recomputes the commitment and the deck (the page does,
and so does ``cassino verify``). One round and no waiting on anyone: a person who sends nothing
simply does not contribute, and a page sees whether its own contribution was used.

Hands dealt before this scheme (``LEGACY``) were committed as ``SHA-256(salt || deck)``: they
prove that the deck did not change during the hand, not that the server did not choose it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import TypeGuard

from ..cards import DECK_SIZE, Card, CardError, card_name, is_full_deck, parse_card, shuffled_deck
from ..club.duplicate import seed_commitment as seed_commitment  # one definition: the club's

_SYSTEM_RANDOM = secrets.SystemRandom()

SCHEME = "cassino-deal-v1"
"""The deals derived from a committed seed and every person's contribution."""
LEGACY = "commit-v0"
"""The deals before it: the server's deck, committed with its salt."""
_HEX64 = re.compile(r"[0-9a-f]{64}")


def is_value(text: object) -> TypeGuard[str]:
    """True for a seed or a contribution as the scheme writes them: 64 lower-case hex digits."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def new_seed() -> str:
    """A server seed for a hand: 32 bytes from the operating system's random source, as hex."""
    return secrets.token_hex(32)


def deal_root(game_id: str, hand: int, seed: str, contributions: Mapping[int, str]) -> str:
    """The hex digest every random byte of a hand's shuffle comes from."""
    given = ",".join(f"{seat}={contributions[seat]}" for seat in sorted(contributions))
    return hashlib.sha256(f"{SCHEME}|{game_id}|{hand}|{seed}|{given}".encode("ascii")).hexdigest()


def _stream(root: str) -> Iterator[int]:
    block = 0
    while True:
        yield from hashlib.sha256(f"{root}|{block}".encode("ascii")).digest()
        block += 1


def derive_deck(game_id: str, hand: int, seed: str, contributions: Mapping[int, str]) -> list[Card]:
    """The deck of ``hand`` from the server's seed and the contributions by seat, top card first."""
    stream = _stream(deal_root(game_id, hand, seed, contributions))
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        n = i + 1
        limit = 256 - 256 % n
        b = next(stream)
        while b >= limit:
            b = next(stream)
        j = b % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def verify_deal(
    commit: str, game_id: str, hand: int, seed: str, contributions: Mapping[int, str], deck: str
) -> str | None:
    """None when a revealed hand of the scheme holds: the seed matches the commitment published
    before the hand and the deck is the one derived from it and the contributions; else what fails."""
    if not (commit.isascii() and game_id.isascii() and deck.isascii()):
        return "the commitment, the game and the deck must be ASCII text"
    if not is_value(seed):
        return "the seed is not 64 lower-case hex digits"
    if not hmac.compare_digest(seed_commitment(seed), commit.lower()):
        return "the seed does not match the commitment published before the hand"
    for seat, value in contributions.items():
        if not is_value(value):
            return f"seat {seat}'s contribution is not 64 lower-case hex digits"
    if deck_text(derive_deck(game_id, hand, seed, contributions)) != deck:
        return "the deck is not the one the seed and the contributions give"
    return None


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
    """True when a revealed salt and deck text of a ``LEGACY`` hand match its commitment."""
    if not (salt.isascii() and deck.isascii()):
        return False
    return hmac.compare_digest(_digest(salt, deck), commit.lower())


def _digest(salt: str, deck: str) -> str:
    return hashlib.sha256((salt + deck).encode("ascii")).hexdigest()
