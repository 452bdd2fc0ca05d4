"""Duplicate deals: every table of a tournament round plays the same cards, and the deal is
committed before the round starts, so nobody (the organiser included) can choose it after seeing
the pairings, and everybody can check it after the tournament.

The commitment of a seed is the SHA-256 of its canonical text, as lower-case hex: the text of a
seed the web server draws is its 64 hex digits (so this is the very commitment the web publishes
for each hand, ``web.fair.seed_commitment``), and the text of an integer seed (the command line's,
from ``arena.derive_seed``) is its decimal digits. One definition, here in the club, so that the
daily deal, the web's tournaments and ``cassino tournament`` publish commitments anyone checks the
same way: ``sha256sum`` of the revealed seed's text.
"""

from __future__ import annotations

import hashlib
import hmac

from .errors import TournamentInputError


def seed_text(seed: int | str) -> str:
    """The canonical text of a seed: an integer's decimal digits, a text seed as it is (ASCII).

    >>> seed_text(42), seed_text("00ff")
    ('42', '00ff')
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TournamentInputError(f"a seed is an integer or a text, got {seed!r}", "bad_seed")
    text = str(seed)
    if not text or not text.isascii():
        raise TournamentInputError(f"a seed's text must be non-empty ASCII, got {text!r}", "bad_seed")
    return text


def seed_commitment(seed: int | str) -> str:
    """What is published before a deal is played: SHA-256 of the seed's canonical text, as 64
    lower-case hex digits.

    >>> seed_commitment(42)
    '73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049'
    """
    return hashlib.sha256(seed_text(seed).encode("ascii")).hexdigest()


def seed_matches(commitment: str, seed: int | str) -> bool:
    """Whether a revealed seed is the one committed (compared in constant time; hex of any case).

    >>> seed_matches(seed_commitment(7), 7), seed_matches(seed_commitment(7), 8)
    (True, False)
    """
    if not commitment.isascii():
        return False
    return hmac.compare_digest(seed_commitment(seed), commitment.lower())
