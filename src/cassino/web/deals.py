"""Where each hand's deck comes from, provably: the seed committed before the hand (SHA-256), every
person's contribution taken until it is dealt, and each finished hand's salt and deck revealed
(``fair.SCHEME``). No server can choose a deal: the page recomputes each deck once its hand is over.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..moves import format_code
from ..rules import Rules
from .errors import ServiceError, StoreError
from .fair import LEGACY, SCHEME, commitment, deck_text, derive_deck, is_value, new_salt, new_seed, seed_commitment
from .game_store import GameStore
from .limits import RateLimit
from .model import LiveGame, NextDeal
from .rows import HandRow, NewGame, SeatRow

log = logging.getLogger("cassino.web")


SEALED = (
    "this game's deck is deal {deal}, which other games are still to be dealt: it is revealed when they are "
    "over (a daily deal's at the end of its day, a tournament's at the end of the tournament)"
)


def shared_deal_game(rules: Rules, seats: list[SeatRow], deal_id: str, seed: str, now: float) -> NewGame:
    """A new game of one hand dealt a shared deal (a daily deal's, a tournament's): the deck of the
    deal's id and seed, the same for every game of the deal, committed as the seed's SHA-256; no
    hints (a contest), unlisted."""
    deck = derive_deck(deal_id, 1, seed, {})
    return NewGame(
        secrets.token_hex(8),
        rules.to_json(),
        seats,
        HandRow(1, deck_text(deck), seed, seed_commitment(seed)),
        listed=False,
        created=now,
        seeds={1: seed},
        help_allowed=False,
    )


@dataclass(frozen=True, slots=True)
class NewHand:
    """What a move stores of the hand it dealt: the hand's row (None: it dealt none), the next
    hand's committed seed, and who contributed to the hand's deck."""

    row: HandRow | None
    next_seed: str | None = None
    contributed: frozenset[int] | None = None


class Deals:
    """The deals of the games of ``store``: new tickets are limited by ``limit``; a write that finds
    the game moved on in the store reads it again (``moved_elsewhere``)."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        limit: RateLimit,
        moved_elsewhere: Callable[[LiveGame], None],
    ) -> None:
        self.store, self.clock, self.limit, self.moved_elsewhere = store, clock, limit, moved_elsewhere

    def first(self, asked: tuple[str, str] | None, tokens: dict[int, str], now: float) -> tuple[str, dict[int, str]]:
        """The first hand's seed and contributions: a ticket's seed (committed before this request)
        with the creator's contribution, or without a ticket a seed drawn now and none."""
        if asked is None:
            return new_seed(), {}
        ticket, value = asked
        seed = self.store.take_ticket(ticket, now)
        if seed is None:
            raise ServiceError(
                410, f"deal {ticket} is unknown, used or more than an hour old: ask POST /api/deals for another"
            )
        return seed, {min(tokens): value}

    def new_deal(self, client: str = "") -> dict[str, Any]:
        """A seed for a game's first hand, committed before the game exists: the page creates the
        game with its id and its own contribution (``deal`` in the create request)."""
        self.limit.take(client)
        ticket, seed = secrets.token_hex(16), new_seed()
        try:
            self.store.new_ticket(ticket, seed, self.clock())
        except Exception as exc:
            log.error("a deal ticket could not be stored: %s", exc)
            raise ServiceError(503, "the deal could not be prepared (the database refused): try again") from None
        return {"deal": ticket, "hand": 1, "commitment": seed_commitment(seed)}

    def contribute(self, live: LiveGame, seat: int, hand: Any, value: Any) -> bool:
        """``seat``'s contribution to the next hand's deck (``fair.SCHEME``), taken until that hand
        is dealt; the same value again changes nothing (False), another is refused."""
        if live.over:
            raise ServiceError(409, "the game is over: no hand is left to deal")
        if isinstance(hand, bool) or not isinstance(hand, int):
            raise ServiceError(400, "hand must be the number of the hand to be dealt, a whole number")
        if not is_value(value):
            raise ServiceError(400, "value must be 64 lower-case hex digits (32 random bytes)")
        deal = live.dealer.next if live.dealer is not None else None
        if deal is None:
            raise ServiceError(409, "this game began before deals took contributions: its decks are the server's")
        if hand != deal.hand:
            raise ServiceError(409, f"contributions are taken for hand {deal.hand} now, not for hand {hand}")
        known = deal.contributions.get(seat)
        if known == value:
            return False
        if known is not None:
            raise ServiceError(409, f"seat {seat} has already contributed to hand {hand}: one contribution a hand")
        try:
            taken = self.store.contribute(live.id, hand, seat, value)
        except StoreError as exc:
            log.error("%s", exc)
            self.moved_elsewhere(live)  # perhaps the seat contributed through another process
            raise ServiceError(
                409, f"the contribution to hand {hand} was not taken: look at the state and try again"
            ) from None
        if not taken:
            self.moved_elsewhere(live)
            raise ServiceError(409, f"hand {hand} has been dealt: contributions are taken for the hand after it")
        deal.contributions[seat] = value
        return True

    def new_hand(self, live: LiveGame, number: int) -> NewHand:
        """The hand ``number`` the game just dealt, to be stored with the move that ended the last:
        its deck with the committed seed it came from (and the next hand's new seed), or for a game
        begun before deals took contributions, the server's deck with a new salt's commitment."""
        deck = live.game.decks[-1]
        used = live.dealer.used if live.dealer is not None else None
        if used is None:
            salt = new_salt()
            return NewHand(HandRow(number, deck_text(deck), salt, commitment(salt, deck)))
        row = HandRow(number, deck_text(deck), used.seed, used.commitment)
        return NewHand(row, new_seed(), frozenset(used.contributions))

    def dealt(self, live: LiveGame, new: NewHand) -> None:
        """The move that dealt ``new`` is stored: keep the hand's row and contributions, and commit
        to the next hand's seed."""
        if new.row is None:
            return
        live.hands.append(new.row)
        used = live.dealer.used if live.dealer is not None else None
        if used is not None and new.next_seed is not None and live.dealer is not None:
            live.contributions[new.row.number] = dict(used.contributions)
            live.dealer.next = NextDeal(new.row.number + 1, new.next_seed)

    def reveal(self, live: LiveGame, number: int) -> dict[str, Any]:
        """The salt and deck of a finished hand, with its commitment; 403 while it is in play."""
        if not 1 <= number <= len(live.hands):
            raise ServiceError(404, f"game {live.id} has no hand {number} (it has {len(live.hands)})")
        if live.sealed and number == 1:
            raise ServiceError(403, SEALED.format(deal=live.shared_deal))
        if not live.revealed(number):
            raise ServiceError(403, f"hand {number} is in play: its deck and salt are revealed when it ends")
        row = live.hands[number - 1]
        hand = live.game.hands[number - 1]
        moves = [{"seat": s, "move": format_code(c)} for s, c in hand.history]
        given = live.contributions.get(number, {})
        return {
            "game": live.id,
            "hand": number,
            "dealer": hand.dealer,
            "scheme": SCHEME if row.commitment == seed_commitment(row.salt) else LEGACY,
            "commitment": row.commitment,
            "salt": row.salt,
            "deck": row.deck,
            "contributions": [{"seat": seat, "value": given[seat]} for seat in sorted(given)],
            "moves": moves,
        }
