"""The web's data model: a live game in memory (a ``table.Table`` with what the server keeps beside
it: its stored hands, the deals' commitments, the invitations, its watchers and background tasks).

Both the service (which changes games) and the payloads (which show them) read these, so they live
here, below both: the service imports the payloads, never the other way round.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..rules import Rules
from ..table import Seat, Table
from .fair import derive_deck, secure_deck, seed_commitment
from .rows import HandRow


def tournament_deal_id(tournament: str, deal: int) -> str:
    """The id a tournament's deal derives its deck from: every table of it is dealt the same."""
    return f"{tournament}-{deal}"


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


def coach_seed(game_id: str, seat: int) -> int:
    """The seed of a seat's coach, from the game and the seat: the same after a restart, so the
    same view always gets the same values (the seed only draws worlds, it knows no card)."""
    return int.from_bytes(hashlib.sha256(f"{game_id}/{seat}".encode()).digest()[:4], "big")


@dataclass
class Subscriber:
    """A connected client: its seat (None for a spectator) and the queue its socket writer drains."""

    seat: int | None
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    """JSON texts to send, in order."""


class LiveGame(Table):
    """A table at the server: its game dealt from the stored decks (new decks from ``dealer``, or
    from the system's random source, never from a seed), with what the server keeps beside it."""

    def __init__(
        self,
        id: str,
        rules: Rules,
        seats: Sequence[Seat],
        decks: Sequence[Sequence[Card]],
        hands: Sequence[HandRow],
        *,
        created: float = 0.0,
        listed: bool = True,
        next_after: int = 0,
        dealer: Dealer | None = None,
        invites: dict[int, str] | None = None,
        help_allowed: bool = True,
        last_hand: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(
            rules,
            seats,
            decks=decks,
            deck_source=secure_deck if dealer is None else dealer.deck,
            next_after=next_after,
            last_hand=last_hand,
            coach_seed=lambda seat: coach_seed(id, seat),
            clock=clock,
        )
        self.id = id
        self.hands = list(hands)
        """The stored hands (deck, salt, commitment), in order."""
        self.created = created
        self.listed = listed
        self.help_allowed = help_allowed
        """Whether its people may ask for hints and the coach's notes (off between people unless
        the creator allowed them: a game between people is a contest)."""
        self.dealer = dealer
        """Where the next deck comes from."""
        self.invites = dict(invites or {})
        """The hash of each unclaimed person's seat's invitation, by seat."""
        self.contributions: dict[int, dict[int, str]] = {}
        """The people's contributions to each hand dealt, by hand then seat."""
        self.last_move = 0.0
        """When the game was last moved, or created (epoch seconds): what its expiry counts from."""
        self.stale = False
        """True when the database may hold more than this copy (a write failed mid-way, or a change
        another process announced could not be read): it is read again before it is next used."""
        self.subscribers: list[Subscriber] = []
        self.presence: dict[int, tuple[str, float]] = {}
        """Each held person's seat's page: ``online`` or ``away``, and since when (epoch seconds), as
        this process saw it or another announced it; a seat not here is away since it was claimed."""
        self.bot_task: asyncio.Task[None] | None = None
        self.timer_task: asyncio.Task[None] | None = None
        self.learn_tasks: set[asyncio.Task[Any]] = set()
        """Assessments running in the background, held so they are not collected mid-way."""
        self.coach_locks: dict[int, asyncio.Lock] = {}
        """One search at a time per seat's coach (a coach remembers its last position)."""
        self.reviews: dict[int, asyncio.Task[dict[str, Any]]] = {}
        """Each seat's review once asked for, made once (its JSON, when the task is done)."""
        self.cache: dict[str, Any] = {}
        """Parts of the public payload that change only between hands, by ``payloads``."""
        self.rated = False
        """Whether it counts for ratings (a row in ``cassino_rated_games``): only then may its
        people claim it from one who left, or whose move clock ran out (``leave``)."""
        self.grace = 180.0
        """Seconds one who left may take to come back before the others may claim (``leave``)."""
        self.move_seconds = 0
        """Seconds each move may take (0: no move clock)."""
        self.turn_began = created
        """When the turn in play began (epoch seconds, from stored times: the last move, or the end
        of the count before the hand), what the move clock counts from."""
        self.loaded = created
        """When this process made or loaded its copy: a seat it has heard nothing of since counts as
        away from then."""
        self.daily: str | None = None
        """The daily deal this game is an attempt at (one hand), or None."""
        self.tournament: str | None = None
        """The tournament this game is a table of (one hand), or None."""
        self.tournament_deal = 0
        """The number of the tournament's deal it plays."""
        self.seal: Callable[[], bool] | None = None
        """True while its deck is one that games still to be played are dealt (a tournament's, until
        it is over)."""
        self.sealed_until: float | None = None
        """Until when (epoch seconds) its decks stay secret even once played: a daily deal's, which
        others are still to play, until its day is over."""

    def adopt(self, fresh: Table) -> None:
        """Take the position of ``fresh`` (the same game rebuilt from the store), keeping this copy's
        watchers, teaching state and tasks, which hold on to this object."""
        super().adopt(fresh)
        assert isinstance(fresh, LiveGame)
        self.hands, self.dealer, self.invites = fresh.hands, fresh.dealer, fresh.invites
        self.help_allowed = fresh.help_allowed
        self.rated, self.move_seconds, self.turn_began = fresh.rated, fresh.move_seconds, fresh.turn_began
        self.daily, self.sealed_until = fresh.daily, fresh.sealed_until
        self.tournament, self.tournament_deal, self.seal = fresh.tournament, fresh.tournament_deal, fresh.seal
        self.contributions, self.last_move, self.stale = fresh.contributions, fresh.last_move, False
        self.cache.clear()

    def revealed(self, number: int) -> bool:
        """True when hand ``number`` is over, so its deck and salt may be shown to anyone (a shared
        deal's only once it is no longer sealed: asked last, since a tournament's seal reads the
        database, and every state sent while the hand is played asks this)."""
        over = 1 <= number <= len(self.hands) and (number < self.hand_number or self.over)
        return over and not (number == 1 and self.sealed)

    @property
    def sealed(self) -> bool:
        """True while this game's first deck is one others may still be dealt (a daily deal's, a
        tournament's)."""
        if self.seal is not None and self.seal():
            return True
        return self.sealed_until is not None and self.clock() < self.sealed_until

    @property
    def shared_deal(self) -> str | None:
        """The id its one deck derives from when other games are dealt the same (``fair.derive_deck``
        with it in place of the game's id): a daily deal's, a tournament deal's; None otherwise."""
        if self.tournament is not None:
            return tournament_deal_id(self.tournament, self.tournament_deal)
        return self.daily
