"""This process's copies of the games: loaded from the store when first asked for, and kept in step
with what other server processes store (several may share one PostgreSQL database).

A game's position is never stored: it is rebuilt by replaying the stored moves on the stored decks.
A change another process announces is played here when it is the very next move of the hand; any
other change (a takeback, a new hand, a press of next) reads the game again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..club.daily import deal_reveal_after as daily_reveal_after
from ..errors import IllegalMoveError, MoveError
from ..moves import parse_code
from ..rules import Rules
from ..table import Seat, TableError
from .errors import ServiceError, StoreError
from .fair import parse_deck
from .game_store import GameStore
from .leave import GRACE
from .model import Dealer, LiveGame, NextDeal
from .programs import Programs
from .requests import bot_player
from .rows import StoredGame

SealOf = Callable[[str], Callable[[], bool] | None]
"""A tournament's id -> what says its decks are still sealed (None: never)."""

log = logging.getLogger("cassino.web")


class Replicas:
    """Loads the games of ``store`` into ``games`` and follows other processes' changes to them;
    ``changed`` is told of each copy that moved (to tell its watchers and carry on)."""

    def __init__(
        self,
        store: GameStore,
        games: dict[str, LiveGame],
        clock: Callable[[], float],
        changed: Callable[[LiveGame], None],
        programs: Programs | None = None,
        grace: float = GRACE,
    ) -> None:
        """``grace``: seconds one who left a rated game has to come back (``leave``)."""
        self.store, self.games, self.clock, self.on_changed = store, games, clock, changed
        self.programs = programs
        self.grace = grace
        self.seals: SealOf = lambda _tournament: None
        """For a tournament's game: what says its deck is still sealed (set by the tournaments)."""

    def load(self, game_id: str) -> LiveGame:
        """The stored game, rebuilt and kept; 404 when there is none."""
        stored = self.store.load_game(game_id) if len(game_id) <= 32 else None
        if stored is None:
            raise ServiceError(404, f"no game {game_id!r} here")
        live = self.rebuild(stored)
        self.games[game_id] = live
        return live

    def rebuild(self, stored: StoredGame) -> LiveGame:
        """Replay the stored moves through the engine on the stored decks; a hand dealt but not yet
        begun (after the first) is in its count again, with the presses of next stored."""
        rules = Rules.from_json(stored.rules)
        dealer = Dealer(stored.id)
        number = len(stored.hands) + 1
        if number in stored.seeds:
            dealer.next = NextDeal(number, stored.seeds[number], dict(stored.contributions.get(number, {})))
        seats = []
        refused = ""
        for s in stored.seats:
            seat = Seat(s.seat, s.kind, s.name, bot=s.bot, seed=s.bot_seed, holder=s.token_hash)
            if s.kind == "bot":
                try:
                    seat.player = bot_player(s.bot, s.bot_seed, self.programs)
                except ServiceError:  # seated before the limits: shown, never played on
                    refused = f"its computer player {s.bot!r} no longer sits at a table"
            seats.append(seat)
        live = LiveGame(
            stored.id,
            rules,
            seats,
            [parse_deck(h.deck) for h in stored.hands],
            stored.hands,
            created=stored.created,
            listed=stored.listed,
            next_after=stored.next_hand_after,
            dealer=dealer,
            invites={i.seat: i.code_hash for i in stored.invites},
            help_allowed=stored.help_allowed,
            last_hand=1 if stored.daily or stored.tournament else None,
            clock=self.clock,
        )
        if stored.daily:
            live.daily, live.sealed_until = stored.daily, daily_reveal_after(stored.daily)
        if stored.tournament is not None:
            live.tournament, live.tournament_deal = stored.tournament
            live.seal = self.seals(stored.tournament[0])
        try:
            live.replay((row.seat, parse_code(row.move)) for row in stored.moves)
        except ValueError as exc:
            raise RuntimeError(f"game {stored.id}: {exc}") from None
        if stored.forfeit is not None and not live.over:
            live.forfeit(*stored.forfeit)
        live.last_move = self.clock() if stored.last_move is None else stored.last_move
        live.abandoned = "" if live.over else refused
        live.contributions = {h: dict(c) for h, c in stored.contributions.items() if h < number}
        live.resume_count(stored.ready, stored.count_deadline)
        live.rated, live.move_seconds, live.grace = stored.rated, stored.move_seconds, self.grace
        live.turn_began = turn_began(live, stored)
        live.loaded = self.clock()
        return live

    def heard(self, game_id: str | None, what: str) -> None:
        """Another process stored a change of ``game_id`` (None: of any game, perhaps): bring this
        process's copy up to date and tell its watchers. A game not loaded here needs nothing."""
        games = self.games
        found = list(games.values()) if game_id is None else [g for g in (games.get(game_id),) if g]
        for live in found:
            try:
                if what.startswith("move "):
                    if not self._play_heard(live, what):
                        self._catch_up(live)
                else:
                    self.reload(live)
            except Exception:
                log.exception("game %s: another process's change could not be read; read again later", live.id)
                live.stale = True

    def _moved(self, live: LiveGame) -> None:
        """This copy played moves another process stored: tell its watchers, and carry on."""
        live.last_move = self.clock()
        self.on_changed(live)

    def _play_heard(self, live: LiveGame, what: str) -> bool:
        """Play the move a notification carries when it is the very next one of this copy and
        deals no new hand (which needs the new seed); False when it is not, or is no move line."""
        try:
            _, ply_after, seat, hands, at, line = what.split(" ", 5)
            if int(ply_after) <= live.ply:
                return True  # already here (this copy's own write, or read since)
            if int(ply_after) != live.ply + 1 or int(hands) != len(live.hands):
                return False
            moved_at = float(at)
            live.play(int(seat), parse_code(line))
        except (ValueError, MoveError, IllegalMoveError, TableError):
            return False
        live.turn_began = moved_at
        self._moved(live)
        return True

    def _catch_up(self, live: LiveGame) -> None:
        """Play here the moves another process stored after this copy's last; anything but a plain
        continuation within the hand (a takeback in between, a new hand dealt) reads the game again."""
        progress = self.store.progress(live.id, live.ply)
        if not progress.moves:
            return
        if progress.moves[0].ply != live.ply or progress.hands != len(live.hands):
            self.reload(live)
            return
        for row in progress.moves:
            try:
                live.play(row.seat, parse_code(row.move))
            except (MoveError, IllegalMoveError, TableError):
                self.reload(live)
                return
        if progress.last_move is not None:
            live.turn_began = progress.last_move
        self._moved(live)

    def moved_elsewhere(self, live: LiveGame) -> None:
        """A write found the stored game ahead of this copy (another process wrote first): catch up
        now, or read it again on its next use."""
        try:
            self.reload(live)
        except Exception:
            log.exception("game %s: could not be read again after another process's change", live.id)
            live.stale = True

    def reload(self, live: LiveGame) -> None:
        """Read the game again from the store into this copy (its watchers stay), and tell them."""
        stored = self.store.load_game(live.id)
        if stored is None:
            raise StoreError(f"game {live.id} is no longer in the database")
        live.adopt(self.rebuild(stored))
        self.on_changed(live)


def turn_began(live: LiveGame, stored: StoredGame) -> float:
    """When the turn in play began, from stored times only (so every process agrees): the last
    move's; at the first turn of a hand after a count, that count's end (when everyone pressed next,
    kept with the clock, else its timer's deadline)."""
    began = live.last_move
    if len(stored.hands) < 2 or live.state.moves_played or not live.humans:
        return began
    if set(live.humans) <= stored.ready:
        return max(began, stored.count_ended or began)
    return max(began, stored.count_deadline or began)
