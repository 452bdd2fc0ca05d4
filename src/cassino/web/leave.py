"""Leaving a rated game, and its move clock: which seats may be claimed, from when, and why.

A person's seat of a rated game (a row in ``cassino_rated_games``) whose pages have all closed for
``grace`` seconds, or whose move clock ran out, may be claimed by a person on another side: the seat
forfeits the game (``GameService.forfeit``), a loss the ratings count. Coming back within the grace
(a page of the seat opening again) cancels it; a claim stays available until someone makes it, so
the others may also wait. An unrated game has no claims: its people wait, as they always did.

The clock's deadline is worked out from stored times only (the last move's, or the end of the
count before the hand), so every server process shows and enforces the same one.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Final

from ..table import HUMAN
from .errors import ServiceError
from .limits import duration
from .model import LiveGame

GRACE: Final = 180.0
"""Seconds a person who left a rated game has to come back before the others may claim it."""
LEFT: Final = "left"
TIME: Final = "time"
"""Why a seat may be claimed: its person left the table, or its move clock ran out."""

_LEFT_REASON = re.compile(r"left the table and did not come back within (.+)")
_TIME_REASON = re.compile(r"ran out of time: (\d+) s a move")


@dataclass(frozen=True, slots=True)
class Claim:
    """A seat that may be claimed (``why``: ``left`` or ``time``) from ``start`` (epoch seconds)."""

    seat: int
    why: str
    start: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "why": self.why, "from": self.start}


def away_since(live: LiveGame, seat: int) -> float | None:
    """Since when every page of a person's seat has been closed (None while one is open). A seat this
    process has heard nothing of counts from when it loaded the game: it cannot vouch for earlier."""
    where, since = live.presence.get(seat, ("away", live.loaded))
    return None if where != "away" else since


def move_deadline(live: LiveGame) -> float | None:
    """When the seat to move runs out of time (epoch seconds): the turn's start plus the clock's
    seconds; None without a clock, during the count, or once the game is over."""
    if not live.move_seconds or live.over or live.abandoned or live.phase != "play":
        return None
    return live.turn_began + live.move_seconds


def claims(live: LiveGame) -> list[Claim]:
    """Every seat of a rated game that may be claimed or will be (a person away, from the end of
    their grace; the seat to move, from its clock's deadline), in seat order, the clock's last."""
    if not live.rated or live.over or live.abandoned:
        return []
    out = []
    for seat in live.seats:
        if seat.kind == HUMAN and seat.holder:
            since = away_since(live, seat.seat)
            if since is not None:
                out.append(Claim(seat.seat, LEFT, since + live.grace))
    deadline = move_deadline(live)
    if deadline is not None:
        out.append(Claim(live.state.to_move, TIME, deadline))
    return out


def reason(live: LiveGame, claim: Claim) -> str:
    """The forfeit's reason, as stored and shown (``forfeit_json`` reads it back)."""
    if claim.why == LEFT:
        return f"left the table and did not come back within {duration(live.grace)}"
    return f"ran out of time: {live.move_seconds} s a move"


def forfeit_json(reason_text: str) -> dict[str, Any] | None:
    """What a claimed forfeit's reason says, for the page to word in its language: ``{"why":
    "left", "within": "3 minutes"}`` or ``{"why": "time", "seconds": 60}``; None for another
    forfeit (a bot program's)."""
    left = _LEFT_REASON.fullmatch(reason_text)
    if left is not None:
        return {"why": LEFT, "within": left.group(1)}
    timed = _TIME_REASON.fullmatch(reason_text)
    if timed is not None:
        return {"why": TIME, "seconds": int(timed.group(1))}
    return None


def time_left(seconds: float) -> str:
    """Time still to wait, in words: '41 more seconds', '2 more minutes' (whole minutes, rounded
    down, as the page's m:ss shows them)."""
    if seconds < 60:
        count = max(1, math.ceil(seconds))
        return f"{count} more second{'s' if count != 1 else ''}"
    minutes = int(seconds // 60)
    return f"{minutes} more minute{'s' if minutes != 1 else ''}"


def choose(live: LiveGame, seat: int, now: float, wanted: int | None = None) -> Claim:
    """The claim ``seat`` may make now (of ``wanted``, when it names a seat), or the refusal: 409 in
    an unrated or finished game, or when nothing is due yet (how long is left, and from when); 403
    against one's own seat or one's partner's."""
    if live.over:
        raise ServiceError(409, "the game is over: there is nothing to claim")
    if not live.rated:
        raise ServiceError(
            409,
            "this game is not rated, so nobody may claim it: wait for the others to come back "
            "(claims are for rated games)",
        )
    side = live.rules.side_of(seat)
    found = [c for c in claims(live) if wanted is None or c.seat == wanted]
    theirs = [c for c in found if live.rules.side_of(c.seat) != side]
    if not theirs:
        if any(c.seat == seat for c in found):
            raise ServiceError(403, "it is your own seat that may be claimed: only the others may claim the game")
        partner = next((c for c in found if c.seat != seat), None)
        if partner is not None:
            raise ServiceError(
                403, f"seat {partner.seat} is your partner's: only the other side may claim the game from it"
            )
        if wanted is not None and not 0 <= wanted < live.rules.players:
            raise ServiceError(400, f"seat must be a seat of this game, 0 to {live.rules.players - 1}")
        raise ServiceError(409, "nobody has left the table and no move clock has run out: there is nothing to claim")
    due = [c for c in theirs if c.start <= now]
    if due:
        return due[0]
    first = min(theirs, key=lambda c: c.start)
    name = live.seats[first.seat].name
    what = "grace" if first.why == LEFT else "move clock"
    raise ServiceError(409, f"{name}'s {what} runs for {time_left(first.start - now)}", claim=first.to_json())


__all__ = [
    "GRACE",
    "LEFT",
    "TIME",
    "Claim",
    "away_since",
    "choose",
    "claims",
    "forfeit_json",
    "move_deadline",
    "reason",
]
