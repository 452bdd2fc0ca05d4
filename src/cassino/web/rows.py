"""The rows of a stored game, as the stores read and write them: plain data, no database, so that
the page that plays offline (``offline``, in the browser) keeps its games in them as the server does."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_REASON = 300
"""The longest forfeit reason kept (a program's error output is cut to fit)."""

TICKET_SECONDS = 3600.0
"""How long a deal's ticket (a seed committed before its game exists) may wait to be used."""

CHAT_NOTE = "chat "
"""How a message's notification begins (the message's JSON follows)."""
QUIET_NOTE = "chat-quiet "
"""How a seat's choice of free text is told (``chat-quiet <seat> <0|1>``, 1: turned off)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat as stored: a person (``human``, with the hash of its token) or a computer player."""

    seat: int
    kind: str
    name: str
    bot: str = ""
    bot_seed: int = 0
    token_hash: str = ""


@dataclass(frozen=True, slots=True)
class InviteRow:
    """A seat's invitation: the hash of its one-time code and when it was claimed (None: not yet)."""

    seat: int
    code_hash: str
    claimed: float | None = None


@dataclass(frozen=True, slots=True)
class HandRow:
    """A hand's secret deck (as committed text), its salt and the published commitment."""

    number: int
    deck: str
    salt: str
    commitment: str


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One move: its index in the game (ply), its hand, the seat that made it, its canonical line."""

    ply: int
    hand: int
    seat: int
    move: str


@dataclass
class StoredGame:
    """Everything stored about one game."""

    id: str
    created: float
    rules: dict[str, Any]
    status: str
    winner: int
    seats: list[SeatRow] = field(default_factory=list)
    hands: list[HandRow] = field(default_factory=list)
    moves: list[MoveRow] = field(default_factory=list)
    invites: list[InviteRow] = field(default_factory=list)
    listed: bool = True
    next_hand_after: int = 0
    """Seconds the count between hands lasts at most (0: until every person pressed next)."""
    count_deadline: float | None = None
    """When the count after the last finished hand ends (epoch seconds), if it has a timer."""
    last_move: float | None = None
    """When the game was last moved, or created (epoch seconds); None for a game from before that
    was stored."""
    ready: set[int] = field(default_factory=set)
    """The seats that pressed next in the count before the last hand stored."""
    seeds: dict[int, str] = field(default_factory=dict)
    """The server's seed of each hand dealt or committed (``fair.SCHEME``), by hand."""
    contributions: dict[int, dict[int, str]] = field(default_factory=dict)
    """The people's contributions, by hand then seat."""
    forfeit: tuple[int, str] | None = None
    """The seat that forfeited the game and why, if one did."""
    help_allowed: bool = True
    """Whether hints and the coach's notes may be asked for (``help_table``)."""
    rated: bool = False
    """Whether it has a row in ``cassino_rated_games`` (its people may claim it from one who left)."""
    move_seconds: int = 0
    """Seconds a move may take (``game_clocks_table``; 0: no clock)."""
    count_ended: float | None = None
    """When the last count ended by everyone pressing next, for a game with a clock."""
    daily: str | None = None
    """The daily deal it is an attempt at (``daily_attempts_table``): a game of one hand."""
    tournament: tuple[str, int] | None = None
    """The tournament it is a table of and the number of the deal it plays
    (``tournament_games_table``): a game of one hand."""


@dataclass(frozen=True, slots=True)
class Progress:
    """What a game gained since a ply (``Store.progress``): the moves from it, and how many hands
    it has dealt."""

    moves: list[MoveRow]
    hands: int
    last_move: float | None = None
    """When the last of them was stored (``cassino_game_activity``)."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """What ``create_games`` stores of one new game."""

    id: str
    rules: dict[str, Any]
    seats: list[SeatRow]
    first: HandRow
    invites: list[InviteRow] = field(default_factory=list)
    listed: bool = True
    next_hand_after: int = 0
    created: float | None = None
    """Epoch seconds; None: now."""
    seeds: dict[int, str] = field(default_factory=dict)
    """The seeds of the first hand and the next (``fair.SCHEME``), by hand."""
    contributions: dict[int, str] = field(default_factory=dict)
    """The first hand's contributions, by seat."""
    help_allowed: bool = True
    """Whether hints and the coach's notes may be asked for."""
    move_seconds: int = 0
    """Seconds a move may take (a rated game's move clock; 0: none)."""
