"""What a request may ask of the server, checked before anything changes: the rules of a new game,
its seats, its count timer and first deal, a person's name, and who a token or an invitation is.

Every refusal is a ``ServiceError`` naming the field and what it must be. No client can make the
server work for long: only the named levels and the plain engines sit at a table (a setting such as a
search's time would let one request make the server think for as long as it liked), and targets are
capped.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalMoveError, RulesError
from ..players import Player, level_names, make_player
from ..players.base import player_names
from ..rules import Rules, make_rules
from ..table import (
    DEFAULT_OPPONENT,
    BadCommandError,
    ClosedError,
    NoSuchMoveError,
    NotNowError,
    NotSeatedError,
    Seat,
    TableError,
    default_names,
)
from .errors import ServiceError
from .fair import is_value
from .programs import PREFIX, Programs
from .rows import SeatRow

MAX_NAME = 40
MAX_NEXT_AFTER = 3600
MAX_TARGET = 1000
"""The highest target a game may play to: a far one would keep its table (and bots) busy for ever."""
TABLE_BOTS = (*level_names(), "random", "greedy", "heuristic", "search")
"""The computer players that may sit at a table, by plain name only (no settings)."""

_CREATE_FIELDS = (
    "preset",
    "players",
    "partnerships",
    "options",
    "seats",
    "listed",
    "next_hand_after",
    "deal",
    "help",
    "chat",
)
_DEAL_FIELDS = ("id", "contribution")
_SEAT_FIELDS = ("kind", "name", "bot")
CLAIM_FIELDS = ("invite", "name")
_TICKET = re.compile(r"[0-9a-f]{32}")


def token_hash(token: str) -> str:
    """What is stored for a seat token or invitation: its SHA-256, so the database opens no seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def watch_link(game_id: str) -> str:
    """The page's link to watch a game: what a wrong seat link can offer instead."""
    return f"/#game={game_id}"


def check_name(value: Any, field_name: str, default: str) -> str:
    """A person's or seat's name: printable text of at most ``MAX_NAME`` characters."""
    if value is None or value == "":
        return default
    if not isinstance(value, str) or len(value) > MAX_NAME or not value.isprintable():
        raise ServiceError(400, f"{field_name} must be printable text of at most {MAX_NAME} characters")
    return value.strip() or default


def known_fields(body: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    """Refuse a field the request does not define: a misspelt one would otherwise be ignored."""
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        raise ServiceError(400, f"unknown field {unknown[0]!r} for {what}; the fields are: {', '.join(allowed)}")


def rules_of_request(body: dict[str, Any]) -> Rules:
    """The rule set a create request asks for (preset, players, partnerships, options)."""
    known_fields(body, _CREATE_FIELDS, "a new game")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ServiceError(400, 'options must be an object of rule options, e.g. {"target": 11}')
    for key in ("preset", "players", "partnerships"):
        if key in options:
            raise ServiceError(400, f"{key} is not a rule option: give it at the top level of the request")
    preset = body.get("preset", "classic")
    if not isinstance(preset, str):
        raise ServiceError(400, "preset must be a name such as 'classic'")
    target = options.get("target")
    if isinstance(target, int) and not isinstance(target, bool) and target > MAX_TARGET:
        raise ServiceError(400, f"target must be at most {MAX_TARGET} points here")
    try:
        return make_rules(
            preset, players=body.get("players", 2), partnerships=body.get("partnerships", False), **options
        )
    except RulesError as exc:
        raise ServiceError(400, str(exc)) from None


def bot_player(spec: str, seed: int, programs: Programs | None = None) -> Player:
    """A computer player for a seat: one of ``TABLE_BOTS`` by its plain name, or a bot program of
    the server's folder (``bot:FILE``) when it was started with one (``programs``). Settings are
    refused, since they would let a client choose how long the server thinks (or feed it
    nonsense), and so are unknown players and any that would see hidden cards; the refusal names
    the allowed ones."""
    if spec.startswith(PREFIX):
        if programs is None:
            raise ServiceError(400, f"{spec!r} names a bot program, and this server runs none (see --allow-bots)")
        return programs.player(spec, seed)
    name, _, settings = spec.partition(":")
    if name in TABLE_BOTS and not settings:
        return make_player(name, seed)
    if name not in player_names():
        why = f"unknown player {name!r}"
    elif settings:
        why = f"computer player {spec!r} has settings, and only plain names sit at a table"
    elif getattr(make_player(name, seed), "sees_all", False):
        why = f"computer player {spec!r} sees every card, so it may not sit at a table"
    else:
        why = f"computer player {spec!r} does not sit at a table"
    raise ServiceError(400, f"{why}; the computer players are: {', '.join(TABLE_BOTS)}")


@dataclass
class NewSeats:
    """The seats of a create request: the table's, the store's rows, the creator's token and every
    other person's invitation (both by seat: only their hashes are kept)."""

    seats: list[Seat] = field(default_factory=list)
    rows: list[SeatRow] = field(default_factory=list)
    tokens: dict[int, str] = field(default_factory=dict)
    invites: dict[int, str] = field(default_factory=dict)


def seat_specs(body: dict[str, Any], rules: Rules) -> list[Any]:
    """The list of seats a create request gives, one per player (by default the creator against
    ``DEFAULT_OPPONENT``); each is checked by ``seats_of_request``."""
    seats_in = body.get("seats")
    if seats_in is None:
        seats_in = [{"kind": "human"}] + [{"kind": "bot", "bot": DEFAULT_OPPONENT}] * (rules.players - 1)
    if not isinstance(seats_in, list) or len(seats_in) != rules.players:
        raise ServiceError(400, f"seats must list one seat per player: {rules.players} for these rules")
    return seats_in


def seats_of_request(seats_in: list[Any], programs: Programs | None = None) -> NewSeats:
    """The seats of a create request (``seat_specs``): the first person's seat is the creator's,
    every other person's gets an invitation; a computer seat may name a bot program of the
    server's folder, if it has one (``programs``)."""
    out = NewSeats()
    bots: list[str | None] = []
    for i, spec in enumerate(seats_in):
        if not isinstance(spec, dict):
            raise ServiceError(400, f'seats[{i}] must be an object like {{"kind": "human"}}')
        known_fields(spec, _SEAT_FIELDS, f"seats[{i}]")
        kind = spec.get("kind", "human")
        if kind not in ("human", "bot"):
            raise ServiceError(400, f"seats[{i}].kind must be 'human' or 'bot', not {kind!r}")
        bot = spec.get("bot", DEFAULT_OPPONENT) if kind == "bot" else None
        if kind == "bot" and (not isinstance(bot, str) or not bot or len(bot) > 128):
            raise ServiceError(400, f"seats[{i}].bot must name a computer player, e.g. 'greedy'")
        bots.append(bot)
    given = [check_name(spec.get("name"), f"seats[{i}].name", "") for i, spec in enumerate(seats_in)]
    names = default_names(bots, given)
    for i, (bot, name) in enumerate(zip(bots, names, strict=True)):
        if bot is None:
            code = secrets.token_hex(16)
            if not out.tokens:  # the first person's seat is the creator's
                out.tokens[i] = code
                out.seats.append(Seat.person(i, name, token_hash(code)))
                out.rows.append(SeatRow(i, "human", name, token_hash=token_hash(code)))
            else:
                out.invites[i] = code
                out.seats.append(Seat.person(i, name))
                out.rows.append(SeatRow(i, "human", name))
        else:
            seed = secrets.randbelow(2**31)
            player = bot_player(bot, seed, programs)
            out.seats.append(Seat.computer(i, bot, seed, name, player))
            out.rows.append(SeatRow(i, "bot", name, bot=bot, bot_seed=seed))
    return out


def next_after_of_request(body: dict[str, Any]) -> int:
    """The count timer a create request asks for: whole seconds, 0 (wait for everyone) by default."""
    next_after = body.get("next_hand_after", 0)
    if next_after is None:
        return 0
    if isinstance(next_after, bool) or not isinstance(next_after, int) or not 0 <= next_after <= MAX_NEXT_AFTER:
        raise ServiceError(
            400,
            f"next_hand_after must be a whole number of seconds from 0 to {MAX_NEXT_AFTER} (0: wait for everyone)",
        )
    return next_after


def listed_of_request(body: dict[str, Any]) -> bool | None:
    """Whether a new game is listed, as asked (None: when at most one person sits at it)."""
    listed = body.get("listed")
    if listed is not None and not isinstance(listed, bool):
        raise ServiceError(400, "listed must be true or false")
    return listed


def help_of_request(body: dict[str, Any]) -> bool | None:
    """Whether a new game's people may ask for hints and the coach's notes, as asked (None: only
    when at most one person sits at it: between people, a game is a contest)."""
    allowed = body.get("help")
    if allowed is not None and not isinstance(allowed, bool):
        raise ServiceError(400, "help must be true or false (hints and the coach's notes at this table)")
    return allowed


def deal_of_request(spec: Any, has_person: bool) -> tuple[str, str] | None:
    """The first deal a create request names: a ticket from ``POST /api/deals`` and the creator's
    contribution; None when it names none (the server then draws the seed alone)."""
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise ServiceError(400, 'deal must be {"id": ..., "contribution": ...}, the id from POST /api/deals')
    known_fields(spec, _DEAL_FIELDS, "deal")
    ticket, value = spec.get("id"), spec.get("contribution")
    if not isinstance(ticket, str) or not _TICKET.fullmatch(ticket):
        raise ServiceError(400, "deal.id must be the id POST /api/deals answered (32 lower-case hex digits)")
    if not is_value(value):
        raise ServiceError(400, "deal.contribution must be 64 lower-case hex digits (32 random bytes)")
    if not has_person:
        raise ServiceError(
            400, "only a person's seat contributes to a deal, and every seat here is a computer player's"
        )
    return ticket, value


REFUSAL_STATUS: tuple[tuple[type[TableError], int], ...] = (
    (BadCommandError, 400),
    (NotSeatedError, 403),
    (NoSuchMoveError, 404),
    (NotNowError, 409),
    (ClosedError, 410),
)
"""The HTTP status of each kind of refusal of the table."""


@contextmanager
def answer_refusals() -> Iterator[None]:
    """Answer the table's refusals (and an illegal move, 400) as ``ServiceError`` with their HTTP
    status and the table's own words."""
    try:
        yield
    except IllegalMoveError as exc:
        raise ServiceError(400, str(exc)) from None
    except TableError as exc:
        status = next((code for kind, code in REFUSAL_STATUS if isinstance(exc, kind)), 400)
        raise ServiceError(status, str(exc)) from None
