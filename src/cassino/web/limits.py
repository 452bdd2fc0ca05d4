"""The web service's limits on outside input, in one place: the size of a body or WebSocket message,
the depth of its JSON, the media type of a body, the types of the fields the app checks itself, the
length of what an error quotes, the headers every response carries, and each client's rate of new
games and moves. Each refusal is a ``ServiceError`` (4xx, a message naming the problem), so no input
reaches the service unchecked."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..notation import EXCERPT_CHARS, MAX_MOVE_CHARS, excerpt
from .errors import ServiceError

MAX_BODY_BYTES: Final = 64 * 1024
"""The largest request body or WebSocket text message: a real one takes under 2 KiB, and a bigger
one would only cost the server time that every other table waits for."""

MAX_JSON_DEPTH: Final = 32
"""The deepest nesting of arrays and objects in a body or message: real ones nest 3 deep; a deeper
one is refused before it is parsed, so no parser recursion is ever at stake."""

MAX_WS_FRAME_BYTES: Final = 1024 * 1024
"""The largest WebSocket frame uvicorn reads at all (it closes the socket with 1009 beyond it);
messages between ``MAX_BODY_BYTES`` and this are answered with an error and the socket stays open."""

MAX_ERROR_CHARS: Final = 600
"""The longest error message sent: past it the message is cut (quotes of input are excerpts first)."""

JSON_TYPE: Final = "application/json"

SECURITY_HEADERS: Final = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
"""Headers on every response: the page runs only its own files, no site may frame it, no response
is sniffed into another type, and no address (they hold seat tokens) leaks to other sites."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", re.DOTALL)


def json_depth(text: str) -> int:
    """How deeply the arrays and objects of JSON text nest (brackets inside strings not counted),
    found by one scan without parsing; malformed text gives some number, and the parser refuses it."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(data: bytes | str, what: str = "the request body") -> dict[str, Any]:
    """A JSON object from a body or message, or a 400 (413 when too large) naming what is wrong:
    not UTF-8, too large, nested too deeply, not JSON (``NaN`` included), not an object."""
    if len(data) > MAX_BODY_BYTES:
        raise ServiceError(413, f"{what} is {len(data)} bytes: the limit is {MAX_BODY_BYTES}")
    try:
        text = data.decode() if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise ServiceError(400, f"{what} must be UTF-8 text") from None
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ServiceError(400, f"{what} nests arrays and objects more than {MAX_JSON_DEPTH} deep")
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ServiceError(400, f"{what} must be a JSON object: {brief(str(exc))}") from None
    if not isinstance(value, dict):
        raise ServiceError(400, f"{what} must be a JSON object, not {type(value).__name__}")
    return value


def whole_number(value: Any, name: str) -> int | None:
    """An optional field that must be a JSON integer: ``true`` and ``1.0`` are refused, not read as 1."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise ServiceError(400, f"{name} must be a whole number such as 3, not {brief(json.dumps(value))}")


def move_text(value: Any) -> Any:
    """The ``move`` field, refused when it is a string longer than any move line (the service
    checks the rest); so its error never quotes a huge input."""
    if isinstance(value, str) and len(value) > MAX_MOVE_CHARS:
        raise ServiceError(400, f"move is {len(value)} characters long: a move line has at most {MAX_MOVE_CHARS}")
    return value


def brief(message: str) -> str:
    """A message as sent: when longer than ``MAX_ERROR_CHARS`` (only a quote of a huge input makes
    one so), each long quote in it cut to an excerpt, then the whole cut to the limit."""
    if len(message) <= MAX_ERROR_CHARS:
        return message

    def cut(match: re.Match[str]) -> str:
        quoted = match.group()
        return quoted if len(quoted) <= EXCERPT_CHARS + 2 else excerpt(quoted[1:-1])

    short = _QUOTED.sub(cut, message)
    return short if len(short) <= MAX_ERROR_CHARS else excerpt(short, quote=False, limit=MAX_ERROR_CHARS)


def duration(seconds: float) -> str:
    """Seconds in the largest whole unit that fits, for messages: '3 days', '90 s'."""
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count:g} {unit if count != 1 else unit[:-1]}"
    return f"{seconds:g} s"


@dataclass(frozen=True, slots=True)
class Rate:
    """A token bucket's shape: ``burst`` at once, then ``per_second`` on average."""

    burst: int
    per_second: float

    def pace(self) -> str:
        """The refill in words: '5 a second', 'one every 30 s'."""
        if self.per_second >= 1:
            return f"{self.per_second:g} a second"
        return f"one every {duration(1 / self.per_second)}"


CREATE_RATE = Rate(burst=20, per_second=1 / 30)
"""New games per client: 20 at once, then one every 30 seconds."""
MOVE_RATE = Rate(burst=120, per_second=5)
"""Moves (and takebacks) per client: 120 at once, then 5 a second, far above anyone's play."""
ACCOUNT_RATE = Rate(burst=30, per_second=1 / 10)
"""Sign-ups, sign-ins and password changes per client: 30 at once, then one every 10 seconds (each
costs a password hash, most of a second of CPU). Wrong passwords have a stricter limit of their own,
counted in the database (``cassino.club.accounts.FAILURE_LIMIT``)."""
SEEK_RATE = Rate(burst=30, per_second=1 / 5)
"""The lobby's seeks per client: posting, joining, cancelling, leaving and pressing Play now
together, 30 at once, then one every 5 seconds (``web.seeks``)."""
MAX_CLIENTS = 10_000
"""Buckets kept before the full ones (clients that have rested) are forgotten."""


class RateLimit:
    """One token bucket per client key, so no one client can fill the database or the event loop;
    the empty key (a caller that names no client: the server itself, a test) is never limited."""

    def __init__(self, rate: Rate, what: str, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.what = what
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}
        """By client: its tokens and when they were counted."""

    def take(self, client: str) -> None:
        """Spend one of the client's tokens; 429 naming the limit when it has none left."""
        if not client:
            return
        now = self.clock()
        burst, per_second = self.rate.burst, self.rate.per_second
        tokens, then = self.buckets.get(client, (float(burst), now))
        tokens = min(float(burst), tokens + max(0.0, now - then) * per_second)
        if tokens < 1:
            wait = (1 - tokens) / per_second
            raise ServiceError(
                429,
                f"too many {self.what}: at most {burst} at once, then {self.rate.pace()}; try again in {math.ceil(wait)} s",
                headers={"retry-after": str(math.ceil(wait))},
            )
        self.buckets[client] = (tokens - 1, now)
        if len(self.buckets) > MAX_CLIENTS:
            self.buckets = {c: (t, at) for c, (t, at) in self.buckets.items() if t + (now - at) * per_second < burst}
