"""The lobby's seeks and "Play now": the rules, with no HTTP and no SQL.

A **seek** is an open table that a signed-in person posts for others to join: a preset, 2 to 4
players, partnerships or not, rated or casual. People join it seat by seat; the request that takes
its last seat makes the game, once. A **Play now** request is a seek nobody sees listed: pressing
Play now joins a waiting request of a near rating in the same pool, or waits to be joined.

- **Pools**: each seek's pool is ``ratings.rating_key`` of its preset and seating, whether it is
  rated or not, so a seek is always a preset with a seating the ratings know. An account has at
  most one open seek per pool (and one Play now request per pool), and at most
  ``MAX_OPEN_PER_ACCOUNT`` open seeks and requests it made or joined in all.
- **Seats**: the creator sits at seat 0, then each joiner in the order they joined (1, 2, 3). In
  partnerships seats 0 and 2 play against 1 and 3, so the creator's partner is the second to join.
- **Near ratings** (``near``): two Play now requests match when their ratings differ by at most
  ``MATCH_WINDOW`` points, widening by ``WIDEN_PER_SECOND`` for each second the older one has
  waited, up to ``MAX_WINDOW``.
- **Move clock** (``MOVE_CLOCKS``): a rated seek or Play now request may ask for seconds a move;
  Play now meets only requests with the same clock.
- **A computer player of your level** (``level_for_rating``): the rating bands of ``RATING_LEVELS``.
- **Expiry**: a seek older than ``MAX_AGE`` seconds expires, and so does one whose creator's lobby
  has been closed for ``AWAY_GRACE`` seconds (``NOW_GRACE`` for a Play now request, which can no
  longer be matched from the moment its page closed); a joiner gone as long loses its seat.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Final

from ..players import LEVELS
from .errors import SeekInputError
from .ratings import PRESETS, rating_key

MAX_AGE: Final = 30 * 60
"""Seconds an open seek or Play now request lives at most."""
AWAY_GRACE: Final = 60
"""Seconds a seek's creator (or a joiner) may be away from the lobby before the seek expires (or
the joiner's seat is given up): time to reload the page, not to go away."""
NOW_GRACE: Final = 10
"""Seconds a Play now request outlives its page (closed, reloading); it is never matched meanwhile."""
MAX_OPEN_PER_ACCOUNT: Final = 5
"""Open seeks and Play now requests an account may have made or joined at once."""
MATCH_WINDOW: Final = 300.0
"""Rating points two Play now requests may differ by at first."""
WIDEN_PER_SECOND: Final = 10.0
"""Points the window widens by for each second the older request has waited."""
MAX_WINDOW: Final = 800.0
"""The widest the window grows."""
DEFAULT_WAIT: Final = 20
"""Seconds the page waits for a person before it offers a computer player instead."""
MAX_WAIT: Final = 600
"""The longest wait a Play now request may name."""
DEFAULT_RATING: Final = 1500.0
"""The rating of an account that has played no rated game in a pool (provisional)."""
RATING_LEVELS: Final[tuple[tuple[float, str], ...]] = (
    (1200.0, "beginner"),
    (1400.0, "novice"),
    (1600.0, "casual"),
    (1800.0, "club"),
    (2000.0, "expert"),
    (float("inf"), "master"),
)
"""The computer player of a rating: the first level whose bound the rating is below (under 1200
beginner, 1200-1399 novice, 1400-1599 casual, 1600-1799 club, 1800-1999 expert, 2000 and up
master). A new account's 1500 is ``casual``, the lobby's default opponent."""
SEEK_FIELDS: Final = ("preset", "players", "partnerships", "rated", "move_seconds")
PLAY_NOW_FIELDS: Final = ("preset", "players", "partnerships", "wait", "move_seconds")
MOVE_CLOCKS: Final = (0, 30, 60, 120)
"""The move clocks a rated game may have: seconds a move (0: none, the default). Past it, the
others may claim the game (``cassino.web.leave``)."""
SEEK: Final = "seek"
PLAY_NOW: Final = "now"
"""The two kinds of seek: one listed in the lobby, and a Play now request (never listed)."""


@dataclass(frozen=True, slots=True)
class SeekSpec:
    """What a seek asks for: a preset, its seating, whether it is rated, its move clock (seconds a
    move, 0: none; rated games only), and its pool."""

    preset: str
    players: int
    partnerships: bool
    rated: bool
    move_seconds: int = 0

    @property
    def pool(self) -> str:
        """The rating pool of the game it makes (``classic-2``, ``royal-4p``)."""
        return rating_key(self.preset, self.players, self.partnerships)

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "players": self.players,
            "partnerships": self.partnerships,
            "rated": self.rated,
            "move_seconds": self.move_seconds,
        }


def known(body: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    """Refuse a field the request does not define, naming it (a misspelt one would be ignored)."""
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        raise SeekInputError(f"unknown field {unknown[0]!r} for {what}; the fields are: {', '.join(allowed)}", "field")


def _seating(body: dict[str, Any]) -> tuple[str, int, bool]:
    """The preset, players and partnerships of a request, each checked and named when wrong."""
    preset = body.get("preset", "classic")
    if preset not in PRESETS:
        raise SeekInputError(f"preset must be one of {', '.join(PRESETS)}", "preset")
    players = body.get("players", 2)
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise SeekInputError("players must be 2, 3 or 4", "players")
    partnerships = body.get("partnerships", False)
    if not isinstance(partnerships, bool):
        raise SeekInputError("partnerships must be true or false", "partnerships")
    if partnerships and players != 4:
        raise SeekInputError(f"partnerships need 4 players, not {players}", "partnerships")
    return str(preset), int(players), partnerships


def _move_clock(body: dict[str, Any], rated: bool) -> int:
    """A request's ``move_seconds``: one of ``MOVE_CLOCKS`` (0 by default), and only for a rated game."""
    seconds = body.get("move_seconds", 0)
    if isinstance(seconds, bool) or seconds not in MOVE_CLOCKS:
        choices = ", ".join(str(c) for c in MOVE_CLOCKS[:-1])
        raise SeekInputError(
            f"move_seconds must be {choices} or {MOVE_CLOCKS[-1]} (seconds a move; 0: no clock)", "move_seconds"
        )
    if seconds and not rated:
        raise SeekInputError(
            "a move clock is for rated games only: set rated to true, or move_seconds to 0", "move_seconds"
        )
    return int(seconds)


def seek_of_request(body: dict[str, Any]) -> SeekSpec:
    """A new seek's ``{"preset", "players", "partnerships", "rated", "move_seconds"}`` (classic, 2,
    false, false, 0 by default), or ``SeekInputError`` naming the field."""
    known(body, SEEK_FIELDS, "a seek")
    preset, players, partnerships = _seating(body)
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise SeekInputError("rated must be true or false", "rated")
    return SeekSpec(preset, players, partnerships, rated, _move_clock(body, rated))


def play_now_of_request(body: dict[str, Any]) -> tuple[SeekSpec, int]:
    """A Play now request's seating (always rated: it matches by rating) and its ``wait`` (whole
    seconds before the page offers a computer player, ``DEFAULT_WAIT`` by default)."""
    known(body, PLAY_NOW_FIELDS, "Play now")
    preset, players, partnerships = _seating(body)
    wait = body.get("wait", DEFAULT_WAIT)
    if isinstance(wait, bool) or not isinstance(wait, int) or not 0 <= wait <= MAX_WAIT:
        raise SeekInputError(f"wait must be a whole number of seconds from 0 to {MAX_WAIT}", "wait")
    return SeekSpec(preset, players, partnerships, True, _move_clock(body, True)), wait


def window(waited: float) -> float:
    """How far apart two ratings may be after the older request has waited ``waited`` seconds.

    >>> window(0), window(10), window(3600)
    (300.0, 400.0, 800.0)
    """
    return min(MAX_WINDOW, MATCH_WINDOW + WIDEN_PER_SECOND * max(0.0, waited))


def near(one: float, other: float, waited: float) -> bool:
    """Whether two ratings are near enough to play, ``waited`` seconds into the older request.

    >>> near(1500, 1790, 0), near(1500, 1850, 0), near(1500, 1850, 5)
    (True, False, True)
    """
    return abs(one - other) <= window(waited)


def level_for_rating(rating: float) -> str:
    """The computer player of a rating's band (``RATING_LEVELS``).

    >>> level_for_rating(1100), level_for_rating(1500), level_for_rating(2350)
    ('beginner', 'casual', 'master')
    """
    names = {level.name for level in LEVELS}
    level = next(name for bound, name in RATING_LEVELS if rating < bound)
    assert level in names
    return level


def seat_token(session_token: str, seek_id: str) -> str:
    """The seat token of a seek's game for the browser whose session joined it: derived from the
    session's secret, so that each member's page, and only it, learns its own token from any server
    process, and the database keeps no token (only its hash, as for every seat).

    >>> len(seat_token("s", "k")), seat_token("s", "k") == seat_token("t", "k")
    (32, False)
    """
    message = f"cassino-seek-seat-v1|{seek_id}".encode()
    return hmac.new(session_token.encode("utf-8"), message, hashlib.sha256).hexdigest()[:32]
