"""Ratings: which pool a rated game counts in. Each preset and seating has a pool of its own
(``classic-2``, ``royal-2``, ``classic-4p``), since strength at one does not carry to another."""

from __future__ import annotations

PRESETS = ("classic", "royal", "spade", "draw")


def rating_key(preset: str, players: int, partnerships: bool) -> str:
    """The pool of a game: its preset, its number of players and ``p`` for partnerships.

    >>> rating_key("classic", 4, True), rating_key("royal", 2, False)
    ('classic-4p', 'royal-2')
    """
    if preset not in PRESETS:
        raise ValueError(f"no rating pool for preset {preset!r}: rated games use one of {', '.join(PRESETS)}")
    if players not in (2, 3, 4) or (partnerships and players != 4):
        raise ValueError(f"no rating pool for {players} players{' in partnerships' if partnerships else ''}")
    return f"{preset}-{players}{'p' if partnerships else ''}"
