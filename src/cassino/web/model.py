"""The web's data model: a live game in memory, its seats and its watchers.

Both the service (which changes games) and the payloads (which show them) read these, so they live
here, below both: the service imports the payloads, never the other way round.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..game import Game, last_move_index, undo_refusal
from ..learn import Assessment, Coach
from ..moves import MoveCode
from ..players import Player
from ..rules import Rules
from ..view import View
from .errors import ServiceError
from .fair import derive_deck, secure_deck, seed_commitment
from .store import HandRow


@dataclass
class NextDeal:
    """The hand to be dealt next under ``fair.SCHEME``: its committed seed and the contributions
    taken so far."""

    hand: int
    seed: str
    contributions: dict[int, str] = field(default_factory=dict)

    @property
    def commitment(self) -> str:
        """What is published of it before it is dealt."""
        return seed_commitment(self.seed)


@dataclass
class Dealer:
    """Where a live game's next deck comes from: derived from ``next`` (the committed seed and the
    contributions), or for a game begun before the scheme, from the system's random source."""

    game_id: str
    next: NextDeal | None = None
    used: NextDeal | None = None
    """The deal the last deck came from (its contributions are what the deck used)."""

    def deck(self) -> list[Card]:
        """The next hand's deck (``Game`` asks when a hand ends)."""
        self.used = self.next
        if self.next is None:
            return secure_deck()
        return derive_deck(self.game_id, self.next.hand, self.next.seed, self.next.contributions)


def server_game(rules: Rules, decks: list[list[Card]], dealer: Dealer | None = None) -> Game:
    """A game on the stored decks whose new decks come from ``dealer`` (by default, from the
    system's random source, never from a seed)."""
    return Game(rules, decks=decks, deck_source=secure_deck if dealer is None else dealer.deck)


@dataclass
class Seat:
    """A seat at a live game: a person's or a computer player's."""

    seat: int
    kind: str
    name: str
    bot: str = ""
    token_hash: str = ""
    player: Player | None = None
    invite_hash: str = ""
    """The hash of the seat's invitation code ("" for the creator's seat and computer players)."""
    seed: int = 0
    """A computer player's seed, from which each of its moves' seeds is drawn (``thinking.move_seed``)."""

    @property
    def joined(self) -> bool:
        """True when someone holds the seat: a computer player, or a person with its token."""
        return self.kind == "bot" or bool(self.token_hash)


@dataclass
class Learner:
    """What the teaching library keeps for one person's seat: its own coach (seeded, so the same
    view always gets the same values), the assessments made so far, and the review once built."""

    coach: Coach
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One search at a time per coach: a coach remembers its last position, so it is not shared."""
    assessed: dict[tuple[View, MoveCode], Assessment] = field(default_factory=dict)
    """By position and move, so an undo (which replays other moves) never reuses a stale one."""
    coached: bool = False
    """True once the seat has asked for coaching: its moves are then assessed as they are made."""
    review: dict[str, Any] | None = None
    review_task: asyncio.Task[dict[str, Any]] | None = None


@dataclass
class Subscriber:
    """A connected client: its seat (None for a spectator) and the queue its socket writer drains."""

    seat: int | None
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    """JSON texts to send, in order."""


@dataclass
class LiveGame:
    """A game in memory: the engine's game rebuilt from the store, its seats and its watchers."""

    id: str
    rules: Rules
    game: Game
    seats: list[Seat]
    hands: list[HandRow]
    ply: int
    created: float = 0.0
    listed: bool = True
    next_after: int = 0
    """Seconds a count between hands lasts at most; 0: until every person has pressed next."""
    subscribers: list[Subscriber] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    learners: dict[int, Learner] = field(default_factory=dict)
    """The teaching library's state of each person's seat that asked for it (not stored)."""
    learn_tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    """Assessments running in the background, held so they are not collected mid-way."""
    cache: dict[str, Any] = field(default_factory=dict)
    """Parts of the public payload that change only between hands, by ``payloads``."""
    epoch: int = 0
    """Bumped at every change (move, undo, end of a count): unlike ``ply`` it never comes back to
    an earlier value, so a computer player can tell that the position it thought about is gone."""
    deal_ply: int = 0
    """The ply at which the cards now in play were last dealt or drawn: no move before it may be
    taken back, since cards dealt after it have been seen."""
    counting: bool = False
    """True during the count between hands: the next hand is dealt but not yet played."""
    ready: set[int] = field(default_factory=set)
    """The seats that pressed next in this count (stored, so every process and a restart know them)."""
    deadline: float | None = None
    """When this count ends by itself (epoch seconds), if the game has a timer."""
    timer_task: asyncio.Task[None] | None = None
    last_move: float = 0.0
    """When the game was last moved, or created (epoch seconds): what its expiry counts from."""
    abandoned: str = ""
    """Why the game can no longer be played ("" while it can): its computer players do not move."""
    dealer: Dealer | None = None
    """Where the next deck comes from (``server_game`` was given it)."""
    contributions: dict[int, dict[int, str]] = field(default_factory=dict)
    """The people's contributions to each hand dealt, by hand then seat."""
    stale: bool = False
    """True when the database may hold more than this copy (a write failed mid-way, or a change
    another process announced could not be read): it is read again before it is next used."""

    def adopt(self, fresh: LiveGame) -> None:
        """Take the position of ``fresh`` (the same game rebuilt from the store), keeping this copy's
        watchers, teaching state and tasks, which hold on to this object."""
        fields = ("rules", "game", "seats", "hands", "ply", "deal_ply", "counting", "ready", "deadline", "dealer")
        for name in (*fields, "contributions"):
            setattr(self, name, getattr(fresh, name))
        self.last_move, self.abandoned, self.stale = fresh.last_move, fresh.abandoned, False
        self.epoch += 1  # a computer player thinking about the old position must not play
        self.cache.clear()

    @property
    def over(self) -> bool:
        """True when a side has won."""
        return self.game.over

    @property
    def phase(self) -> str:
        """``over``, ``count`` (between hands) or ``play``."""
        return "over" if self.over else "count" if self.counting else "play"

    @property
    def humans(self) -> list[int]:
        """The seats of people (claimed or not)."""
        return [s.seat for s in self.seats if s.kind == "human"]

    @property
    def waiting_for(self) -> list[int]:
        """The people's seats still to press next in this count."""
        return [s for s in self.humans if s not in self.ready] if self.counting else []

    def count_reason(self) -> str:
        """Why nothing may be played during the count, naming who is awaited."""
        who = ", ".join(str(s) for s in self.waiting_for)
        timer = " or its timer runs out" if self.deadline is not None else ""
        return (
            f"hand {self.hand_number - 1} is over: hand {self.hand_number} starts when every person at the "
            f"table has pressed next{timer} (waiting for seat {who})"
        )

    def undo_start(self, seat: int) -> int:
        """The ply of ``seat``'s last move when it may be taken back now; ServiceError (409) naming
        why not otherwise."""
        state = self.game.state
        hand_start = self.ply - state.moves_played
        counted = self.hand_number - 1 if self.counting else 0
        refusal = undo_refusal(state, seat, self.humans, self.deal_ply - hand_start, over=self.over, counted=counted)
        if refusal is not None:
            raise ServiceError(409, refusal)
        last = last_move_index(state, seat)
        assert last is not None  # undo_refusal said it moved
        return hand_start + last

    def can_undo(self, seat: int) -> bool:
        """True when ``seat`` may take back its last move now."""
        try:
            self.undo_start(seat)
        except ServiceError:
            return False
        return True

    @property
    def hand_number(self) -> int:
        """The number of the hand in play (or the last one), from 1."""
        return len(self.game.hands)

    def revealed(self, number: int) -> bool:
        """True when hand ``number`` is over, so its deck and salt may be shown to anyone."""
        return 1 <= number <= len(self.hands) and (number < self.hand_number or self.over)
