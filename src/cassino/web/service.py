"""Games at the server: each a ``table.Table`` (``model.LiveGame``) whose every change is committed to
the store before anyone hears of it, then broadcast, so what a client saw is always on disk.

The table decides what may be done (moves, the count between hands, taking back a move against
computer players); this service adds who is asking (seat tokens and one-time invitations), the
store, the deals' commitments and the watchers. Computer players move server-side
(``bots.Background``) and the coach searches in worker processes (``coaching.Coaching``). A game is
loaded from the store when it is first asked for (``replicas.Replicas``), not at start-up, which stays
quick however many games are stored; a game nobody has moved in for ``expire_after`` seconds is
abandoned instead: its computer players stop and no one may move in it again (410). Each client has
a token bucket for new games and one for moves (``limits.RateLimit``).

The creator of a game holds only their own seat's token; every other person's seat has a one-time
invitation, exchanged for that seat's token by whoever claims it.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..moves import MoveCode, MoveError, format_code, parse_code
from ..record import record_of_game, write_record
from ..table import CountEnded, CountStarted, Dealt
from .bots import Background, cancel
from .chat import Chats, chat_of_request
from .coaching import Coaching
from .deals import SEALED, Deals, NewHand
from .errors import ServiceError, StaleDealError, StaleGameError, StoreError
from .fair import deck_text, derive_deck, new_seed, seed_commitment
from .game_store import GameStore
from .leave import GRACE, choose, reason
from .limits import CREATE_RATE, MOVE_RATE, Rate, RateLimit, duration
from .model import Dealer, LiveGame, NextDeal, Subscriber
from .payloads import encode, public_payload, replay_frames, state_payload
from .programs import Programs
from .replicas import Replicas
from .requests import (
    CLAIM_FIELDS,
    answer_refusals,
    check_name,
    deal_of_request,
    help_of_request,
    known_fields,
    listed_of_request,
    next_after_of_request,
    rules_of_request,
    seat_specs,
    seats_of_request,
    token_hash,
    watch_link,
)
from .rows import MAX_REASON, HandRow, InviteRow, MoveRow
from .thinking import Thinkers

if TYPE_CHECKING:
    from .notify import Listener

log = logging.getLogger("cassino.web")

EXPIRE_AFTER = 3 * 24 * 3600.0
"""Seconds without a move after which a game is abandoned (the default)."""


class GameService:
    """Creates, loads, plays and broadcasts games over a ``GameStore`` (the server's database, or the
    offline page's memory)."""

    def __init__(
        self,
        store: GameStore,
        bot_delay: float = 0.5,
        expire_after: float = EXPIRE_AFTER,
        create_rate: Rate = CREATE_RATE,
        move_rate: Rate = MOVE_RATE,
        clock: Callable[[], float] = time.time,
        thinkers: Thinkers | None = None,
        programs: Programs | None = None,
        grace: float = GRACE,
        site: str = "cassino serve",
    ) -> None:
        """``expire_after``: seconds without a move before a game is abandoned; the rates: each
        client's token buckets for new games and for moves; ``clock``: epoch seconds (tests fake it);
        ``thinkers``: where computer players and coaches search (default: threads of this process);
        ``programs``: the bot programs a seat may name (``--allow-bots``; None: none); ``grace``:
        seconds one who left a rated game has to come back before the others may claim it; ``site``:
        where its games are played, as their records say."""
        self.programs = programs
        self.grace = grace
        self.site = site
        """Where its games are played, as their records' ``Site`` tag says."""
        self.store = store
        self.thinkers = thinkers or Thinkers(workers=0)
        self.expire_after = expire_after
        self.clock = clock
        self.create_limit = RateLimit(create_rate, "new games", clock)
        self.deal_limit = RateLimit(create_rate, "new deals", clock)
        self.move_limit = RateLimit(move_rate, "moves", clock)
        self.games: dict[str, LiveGame] = {}
        self.on_change: Callable[[LiveGame], None] | None = None
        """Called after each committed move or undo (tests use it to watch the game move)."""
        self.on_over: list[Callable[[LiveGame], object]] = []
        """Called when this process's copy of a game is seen over (after its last move here, or
        another process's), perhaps more than once for one game: ratings count it once."""
        self.listener: Listener | None = None
        self.background = Background(
            self.games, self.thinkers, self.commit, self.end_count, self.forfeit, bot_delay, programs
        )
        self.replicas = Replicas(store, self.games, clock, self._moved, programs, grace)
        self.deals = Deals(store, clock, self.deal_limit, self.replicas.moved_elsewhere)
        self.coaching = Coaching(self.asker, self.thinkers)
        self.chats = Chats(store.chat, self.asker, clock)
        """The chat at each table (``chat``)."""
        self.chat_reads = RateLimit(move_rate, "requests for the chat's history", clock)
        """Each client's reads of the chat's history (each one a query), at the rate of its moves."""

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> int:
        """How many unfinished games are stored. None is replayed now: each is loaded, and its
        computer players (and count timer) resume, when it is first asked for."""
        self.listener = self.store.listen(self._heard)
        return len(self.store.unfinished())

    def _heard(self, game_id: str | None, what: str) -> None:
        """Another process's change: a chat message or setting goes to the chat, anything else to
        this process's copies of the games (and a lost connection makes both read again)."""
        if what.startswith("chat"):
            self.chats.heard(self.games.get(game_id) if game_id else None, what)
            return
        if game_id is not None and what.startswith("presence"):
            self._heard_presence(game_id, what)
            return
        if game_id is None:
            self.chats.forget()
        self.replicas.heard(game_id, what)

    async def stop(self) -> None:
        """Stop the computer players', timers' and coaches' tasks and the worker processes."""
        await self.background.stop()
        self.thinkers.close()
        if self.listener is not None:
            await self.listener.stop()

    # ------------------------------------------------------------------ creating and finding games
    def create(self, body: dict[str, Any], client: str = "") -> tuple[LiveGame, dict[int, str], dict[int, str]]:
        """A new game from a create request; returns it with the creator's token (by seat: the first
        person's seat, none when only computer players sit) and every other person's invitation.
        ``client`` (the caller's address) is limited to ``create_rate``."""
        self.create_limit.take(client)
        rules = rules_of_request(body)
        seats_in = seat_specs(body, rules)
        next_after = next_after_of_request(body)
        listed_in, help_in = listed_of_request(body), help_of_request(body)
        new = seats_of_request(seats_in, self.programs)
        people = len(new.tokens) + len(new.invites)
        chat = chat_of_request(body, people)
        listed = bool(listed_in)  # a game is watched by strangers only when its creator asks
        help_allowed = help_in if help_in is not None else people <= 1
        game_id = secrets.token_hex(8)
        now = self.clock()
        first_seed, given = self.deals.first(deal_of_request(body.get("deal"), bool(new.tokens)), new.tokens, now)
        deck = derive_deck(game_id, 1, first_seed, given)
        first = HandRow(1, deck_text(deck), first_seed, seed_commitment(first_seed))
        dealer = Dealer(game_id, NextDeal(2, new_seed()))
        assert dealer.next is not None
        invites = {seat: token_hash(code) for seat, code in new.invites.items()}
        seeds = {1: first_seed, 2: dealer.next.seed}
        self.store.create_game(
            game_id,
            rules.to_json(),
            new.rows,
            first,
            [InviteRow(seat, digest) for seat, digest in invites.items()],
            listed,
            next_after,
            now,
            seeds,
            given,
            help_allowed,
        )
        live = LiveGame(
            game_id,
            rules,
            new.seats,
            [deck],
            [first],
            created=now,
            listed=listed,
            next_after=next_after,
            dealer=dealer,
            invites=invites,
            help_allowed=help_allowed,
        )
        live.contributions[1] = given
        live.last_move = live.turn_began = live.loaded = now
        live.grace = self.grace
        self.games[game_id] = live
        self.chats.created(live, chat)
        self.background.schedule_bots(live)
        return live, new.tokens, new.invites

    def get(self, game_id: str) -> LiveGame:
        """The live game, loaded from the store if need be (its computer players resume then, unless
        it has expired); 404 when there is none."""
        live = self.games.get(game_id)
        if live is None:
            live = self.replicas.load(game_id)
            if live.rated and not live.over:
                self.store.announce(live.id, "presence?")  # pages open through other processes say so
            self._expire(live)
            if (live.over or live.abandoned) and not live.subscribers:
                del self.games[game_id]  # nothing will change in it: read again when asked for again
            else:
                self.background.resume(live)
            return live
        if live.stale:
            self.replicas.reload(live)
        self._expire(live)
        if live.count_due():
            self.end_count(live)  # its timer task has not run yet (or there is no event loop)
        return live

    def _expire(self, live: LiveGame) -> None:
        """Abandon a game nobody has moved in for ``expire_after`` seconds: its computer players and
        timer stop, so a forgotten table costs nothing."""
        if live.over or live.abandoned or self.clock() - live.last_move < self.expire_after:
            return
        live.abandoned = f"no move was made in it for {duration(self.expire_after)}"
        cancel(live.bot_task, live.timer_task)

    def seated(self, game_id: str, token: str | None, what: str) -> tuple[LiveGame, int]:
        """The playable game and the asker's seat, for what only a seat may do: 403 for a
        spectator (naming ``what``), 410 once the game is abandoned."""
        live = self.get(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ServiceError(403, f"{what}: spectators only watch")
        if live.abandoned:
            raise ServiceError(410, f"game {live.id} is abandoned ({live.abandoned}): start a new one")
        return live, seat

    def asker(self, game_id: str, token: str | None) -> tuple[LiveGame, int | None]:
        """The game and the seat a token opens in it (None: a spectator)."""
        live = self.get(game_id)
        return live, self.seat_of(live, token)

    def seat_of(self, live: LiveGame, token: str | None) -> int | None:
        """The seat a token opens (None without a token: a spectator); 403 for a wrong token, with
        the link to watch the game instead."""
        if not token:
            return None
        digest = token_hash(token)
        for seat in live.seats:
            if seat.kind == "human" and seat.holder and hmac.compare_digest(seat.holder, digest):
                return seat.seat
        raise ServiceError(403, f"this token opens no seat of game {live.id}", watch=watch_link(live.id))

    def claim(self, game_id: str, body: dict[str, Any]) -> tuple[int, str]:
        """Exchange a seat's invitation for the seat's token, once: 403 for a wrong code, 410 for
        one already used. Returns the seat and its new token (only its hash is kept)."""
        known_fields(body, CLAIM_FIELDS, "a claim")
        code = body.get("invite")
        if not isinstance(code, str) or not code:
            raise ServiceError(400, "invite must be the invitation code from the seat's link")
        live = self.get(game_id)
        digest = token_hash(code)
        number = next((s for s, h in live.invites.items() if hmac.compare_digest(h, digest)), None)
        if number is None:
            raise ServiceError(403, f"this invitation opens no seat of game {live.id}", watch=watch_link(live.id))
        seat = live.seats[number]
        used = ServiceError(
            410,
            f"the invitation to seat {number} of game {live.id} was already used: the seat belongs to whoever "
            "claimed it (their own link opens it)",
            watch=watch_link(live.id),
        )
        if seat.holder:
            raise used
        name = check_name(body.get("name"), "name", seat.name)
        token = secrets.token_hex(16)
        try:
            claimed = self.store.claim_seat(live.id, number, token_hash(token), name)
        except Exception as exc:
            log.error("game %s: claim of seat %d: %s", live.id, number, exc)
            raise ServiceError(503, "the seat could not be claimed (the database refused): try again") from None
        if not claimed:
            raise used
        seat.holder, seat.name = token_hash(token), name
        live.cache.clear()  # the seats shown with every payload changed
        self.broadcast(live)
        return number, token

    # ------------------------------------------------------------------ playing
    def play(self, game_id: str, token: str | None, text: Any, version: Any = None, client: str = "") -> LiveGame:
        """A person's move: checked by the table and the engine, committed, broadcast. Errors change
        nothing. ``client`` (the caller's address) is limited to ``move_rate``."""
        self.move_limit.take(client)
        live, seat = self.seated(game_id, token, "moves need a seat token")
        if not isinstance(text, str):
            raise ServiceError(400, "move must be a move line such as 'capture 8c 8: 8d'")
        with answer_refusals():
            live.verify_play(seat, version)
        try:
            code = parse_code(text)
        except MoveError as exc:
            raise ServiceError(400, str(exc)) from None
        view = self.coaching.coached_view(live, seat)
        self.commit(live, seat, code)
        self.coaching.after_move(live, seat, view, code)
        return live

    def commit(self, live: LiveGame, seat: int, code: MoveCode, again: bool = True) -> None:
        """Play, commit (taking the move back if the store refuses), then broadcast; a move that
        ends a hand (and not the game) deals the next one from its committed seed and the
        contributions. A deal that missed a contribution stored meanwhile (through another process)
        is read again and made once more (``again``)."""
        with answer_refusals():
            events = live.play(seat, code)
        dealt = next((e for e in events if isinstance(e, Dealt) and e.new_hand), None)
        counting = next((e for e in events if isinstance(e, CountStarted)), None)
        new = NewHand(None) if dealt is None else self.deals.new_hand(live, dealt.hand)
        row = MoveRow(live.ply - 1, len(live.hands), seat, format_code(code))
        now = self.clock()
        deadline = counting.deadline if counting is not None else None
        status = "over" if live.over else "playing"
        try:
            self.store.add_move(
                live.id, row, new.row, status, live.game.winner, deadline, now, new.next_seed, new.contributed
            )
        except StaleDealError:
            live.unplay()
            self.replicas.moved_elsewhere(live)
            if again and not live.stale and live.state.to_move == seat:
                self.commit(live, seat, code, again=False)
                return
            raise ServiceError(409, "a contribution to the next deal came in meanwhile: try the move again") from None
        except StaleGameError:
            live.unplay()
            self.replicas.moved_elsewhere(live)
            raise ServiceError(
                409, f"the game has moved on (it is at version {live.ply}): the move was for version {row.ply}"
            ) from None
        except StoreError as exc:
            live.unplay()
            log.error("%s", exc)
            live.stale = True  # read again from the store before its next use
            raise ServiceError(503, "the move could not be saved, so it was not made: try again") from None
        live.last_move = live.turn_began = now
        self.deals.dealt(live, new)
        self._changed(live)

    def forfeit(self, live: LiveGame, seat: int, reason: str) -> bool:
        """A seat forfeits the game: a computer player that could not go on (its program hung,
        crashed or answered no legal move), or a person the others claimed the game from
        (``claim_game``). Stored first (only if the game is still at this copy's ply and not over),
        then the table ends and the watchers hear why. A game another process moved or ended
        meanwhile is read again instead (its player is asked again there, if it is still to move).
        True when this call ended the game."""
        if live.over or live.abandoned:
            return False
        reason = reason[:MAX_REASON]
        try:
            self.store.forfeit(live.id, live.ply, seat, reason, live.game.winner_on_forfeit(seat))
        except StaleGameError:
            self.replicas.moved_elsewhere(live)
            return False
        except StoreError as exc:
            log.error("%s", exc)
            live.stale = True
            return False
        live.forfeit(seat, reason)
        self._changed(live)
        return True

    def claim_game(self, game_id: str, token: str | None, body: dict[str, Any], client: str = "") -> LiveGame:
        """A person claims a rated game from a seat on another side whose person left the table
        for ``grace`` seconds, or whose move clock ran out (``leave``): that seat forfeits, a loss
        the ratings count. Refused with why: 409 in an unrated or finished game or before the claim
        is due (how long is left), 403 for a spectator or against one's own side; of two claims at
        once (through two processes, too) only one is stored, and the other is told the game is over."""
        self.move_limit.take(client)
        known_fields(body, ("seat",), "a claim of the game")
        wanted = body.get("seat")
        if wanted is not None and (isinstance(wanted, bool) or not isinstance(wanted, int)):
            raise ServiceError(400, "seat must be the number of the seat to claim the game from, or absent")
        live, seat = self.seated(game_id, token, "claiming the game needs a seat token")
        claim = choose(live, seat, self.clock(), wanted)
        if self.forfeit(live, claim.seat, reason(live, claim)):
            return live
        if live.stale:
            raise ServiceError(503, "the claim could not be saved (the database refused): try again")
        if live.over:
            raise ServiceError(409, "the game is over already: it was claimed or ended meanwhile")
        raise ServiceError(409, f"the game has moved on (it is at version {live.ply}): claim again if it still applies")

    def _changed(self, live: LiveGame) -> None:
        """After a committed move or takeback: the watchers hear of it, and the game carries on."""
        self.broadcast(live)
        if self.on_change is not None:
            self.on_change(live)
        self.background.resume(live)
        self._over(live)

    def _moved(self, live: LiveGame) -> None:
        """This copy moved with another process's change: the watchers hear of it, and it carries on."""
        self.broadcast(live)
        self.background.resume(live)
        self._over(live)

    def _over(self, live: LiveGame) -> None:
        """A game seen over: each ``on_over`` hears of it; one that fails is logged, and the game
        and its watchers go on as if it had not been called."""
        if not live.over:
            return
        for hook in self.on_over:
            try:
                hook(live)
            except Exception:
                log.exception("game %s: what follows the end of the game failed", live.id)

    def contribute(self, game_id: str, token: str | None, hand: Any, value: Any, client: str = "") -> LiveGame:
        """A person's contribution to the next hand's deck (``deals.Deals.contribute``), a write
        like a move: it spends the client's ``move_rate`` too."""
        self.move_limit.take(client)
        live, seat = self.seated(game_id, token, "contributions to a deal need a seat token")
        if self.deals.contribute(live, seat, hand, value):
            self.broadcast(live)
        return live

    def reveal(self, game_id: str, number: int) -> dict[str, Any]:
        """The salt and deck of a finished hand of ``game_id`` (``deals.Deals.reveal``)."""
        return self.deals.reveal(self.get(game_id), number)

    def press_next(self, game_id: str, token: str | None) -> bool:
        """A person at the table is ready for the next hand; the last one to press (or the timer)
        starts it. Returns False when the seat had already pressed (nothing changes then)."""
        live, seat = self.seated(game_id, token, "only a person at the table presses next")
        with answer_refusals():
            if not live.verify_press(seat):
                return False
        now = self.clock()
        ends = live.move_seconds and live.waiting_for == [seat]  # the last press: the first turn begins
        try:
            self.store.press_next(live.id, live.hand_number, seat, now if ends else None)
        except StoreError as exc:
            log.error("%s", exc)
            raise ServiceError(503, "the press of next could not be saved: try again") from None
        if any(isinstance(e, CountEnded) for e in live.press_next(seat)):
            live.turn_began = now
            self._count_ended(live)
        else:
            self.broadcast(live)
        return True

    def end_count(self, live: LiveGame) -> None:
        """End the count (its timer ran out): the next hand is played from now, and its first turn
        began at the timer's deadline (the same in every process)."""
        deadline = live.deadline
        if live.end_count():
            live.turn_began = max(live.last_move, deadline if deadline is not None else self.clock())
            self._count_ended(live)

    def _count_ended(self, live: LiveGame) -> None:
        """The next hand is played from now: its timer stops, and the computer players may move."""
        cancel(live.timer_task)
        live.timer_task = None
        self.broadcast(live)
        self.background.resume(live)

    def undo(self, game_id: str, token: str | None, client: str = "") -> LiveGame:
        """Take back the person's last move and every computer player's move after it (only against
        computer players, within the cards in play); the undone moves are deleted from the store.
        A takeback is a write like a move, so it spends the client's ``move_rate`` too."""
        self.move_limit.take(client)
        live, seat = self.seated(game_id, token, "taking back a move needs a seat token")
        ply = live.ply
        with answer_refusals():
            taken = live.take_back(seat)
        try:
            self.store.undo_moves(live.id, taken.ply, ply)
        except StaleGameError:
            live.restore(taken)
            self.replicas.moved_elsewhere(live)
            raise ServiceError(
                409, f"the game has moved on (it is at version {live.ply}): nothing was taken back"
            ) from None
        except StoreError as exc:
            live.restore(taken)
            log.error("%s", exc)
            live.stale = True  # read again from the store before its next use
            raise ServiceError(
                503, "the moves could not be taken back in the database, so they stand: try again"
            ) from None
        self._changed(live)
        return live

    # ------------------------------------------------------------------ watchers
    def subscribe(self, live: LiveGame, seat: int | None) -> Subscriber:
        """A new watcher, sent the current state at once; a seat's first page makes it online."""
        sub = Subscriber(seat)
        if seat is not None and all(s.seat != seat for s in live.subscribers):
            self._presence(live, seat, "online")  # the others hear of it; this page sees it below
        live.subscribers.append(sub)
        sub.queue.put_nowait(encode(state_payload(live, seat)))
        return sub

    def unsubscribe(self, live: LiveGame, sub: Subscriber) -> None:
        """Forget a watcher; a seat's last page closed makes it away."""
        if sub in live.subscribers:
            live.subscribers.remove(sub)
            seat = sub.seat
            if seat is not None and all(s.seat != seat for s in live.subscribers):
                self._presence(live, seat, "away")
        if (live.over or live.abandoned) and not live.subscribers and self.games.get(live.id) is live:
            del self.games[live.id]  # a finished or abandoned game is read again if asked for again

    def _presence(self, live: LiveGame, seat: int, where: str) -> None:
        """A person's page came (``online``) or went (``away``): the watchers and the other
        processes hear of it."""
        now = self.clock()
        live.presence[seat] = (where, now)
        self.store.announce(live.id, f"presence {seat} {where} {now!r}")
        self.broadcast(live)

    def _heard_presence(self, game_id: str, what: str) -> None:
        """Another process's news of presence: a page there came or went, or it asks who is here
        (it has just loaded the game). A seat with a page open here stays online whatever another
        process says, and says so again, so that no process takes it for gone (and lets its game
        be claimed) while it is at the table."""
        live = self.games.get(game_id)
        if live is None:
            return
        here = {s.seat for s in live.subscribers if s.seat is not None}
        if what == "presence?":
            for seat in sorted(here):
                since = live.presence.get(seat, ("online", self.clock()))[1]
                self.store.announce(live.id, f"presence {seat} online {since!r}")
            return
        try:
            _, seat_text, where, at_text = what.split(" ")
            seat, at = int(seat_text), float(at_text)
        except ValueError:
            log.warning("game %s: unreadable presence news %r", game_id, what[:80])
            return
        if seat in here:
            if where == "away":
                mine = live.presence.get(seat, ("online", self.clock()))[1]
                self.store.announce(live.id, f"presence {seat} online {mine!r}")
            return
        live.presence[seat] = (where, at)
        self.broadcast(live)

    def broadcast(self, live: LiveGame) -> None:
        """Queue each watcher its own seat's state (the public part built once, each seat's text once)."""
        if not live.subscribers:
            return
        public = public_payload(live)
        built: dict[int | None, str] = {}
        for sub in live.subscribers:
            if sub.seat not in built:
                built[sub.seat] = encode(state_payload(live, sub.seat, public))
            sub.queue.put_nowait(built[sub.seat])

    # ------------------------------------------------------------------ after the fact
    def record(self, game_id: str) -> dict[str, Any]:
        """The whole game with every hand revealed: only once it is over."""
        live = self.get(game_id)
        if not live.over:
            raise ServiceError(403, "the record (every hand revealed) is published when the game is over")
        if live.sealed:
            raise ServiceError(403, SEALED.format(deal=live.shared_deal))
        date = time.strftime("%Y.%m.%d", time.gmtime(live.created))
        tags = {"Event": "Web game", "Site": self.site, "Date": date}
        shared = {"shared_deal": live.shared_deal} if live.shared_deal is not None else {}
        return {
            "game": live.id,
            **shared,
            "record": write_record(record_of_game(live.game, tags, live.names)),
            "hands": [self.deals.reveal(live, n) for n in range(1, len(live.hands) + 1)],
            "winner": live.game.winner,
            "scores": list(live.game.scores),
            "frames": replay_frames(live),
        }
