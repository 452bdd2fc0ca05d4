"""Games at the server: seats, invitations and tokens, moves checked by the engine, committed, then
broadcast; the count between hands, and taking back a move against computer players.

Every change runs on the event loop thread and is committed to the store before anyone hears of
it, so what a client saw is always on disk. Computer players move server-side in one background
task per game, through ``decide`` (they see their seat's view only). A game is loaded from the store
when it is first asked for (not at start-up, which stays quick however many games are stored), and
its computer players on move carry on then; a game nobody has moved in for ``expire_after`` seconds
is abandoned instead: its computer players stop and no one may move in it again (410).

No client can exhaust the server: only the named levels and the plain engines sit at a table (a
setting such as a search's time would let one request make the server think for as long as it
liked), targets are capped, and each client has a token bucket for new games and one for moves.

The creator of a game holds only their own seat's token; every other person's seat has a one-time
invitation, exchanged for that seat's token by whoever claims it. When a hand ends and the game
goes on, the engine deals the next hand at once, but the server holds play in a *count* until
every person at the table has pressed next (or the creator's timer has run out).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import math
import re
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from ..errors import IllegalMoveError
from ..game import Game
from ..learn import Assessment
from ..moves import MoveCode, MoveError, format_code, parse_code
from ..players import Player, level_names, make_player
from ..players.base import decide, player_names
from ..record import record_of_game, write_record
from ..rules import Rules, RulesError, make_rules
from ..view import View, view_of
from . import teaching, thinking
from .errors import ServiceError as ServiceError
from .fair import (
    LEGACY,
    SCHEME,
    commitment,
    deck_text,
    derive_deck,
    is_value,
    new_salt,
    new_seed,
    parse_deck,
    seed_commitment,
)
from .model import Dealer, LiveGame, NextDeal, Seat, Subscriber, server_game
from .payloads import encode, public_payload, replay_frames, state_payload
from .store import (
    HandRow,
    InviteRow,
    Listener,
    MoveRow,
    SeatRow,
    StaleDealError,
    StaleGameError,
    Store,
    StoredGame,
    StoreError,
)
from .thinking import Thinkers

log = logging.getLogger("cassino.web")

FAST_BOTS = ("random", "greedy", "beginner", "novice")
"""Computer players quick enough (well under a millisecond a move) to move on the event loop; the
others think in the worker processes of ``thinking.Thinkers``."""

MAX_NAME = 40
DEFAULT_OPPONENT = "casual"
"""The computer player a new game seats when none is named: the middle of the ladder of levels."""


def token_hash(token: str) -> str:
    """What is stored for a seat token: its SHA-256, so the database cannot open a seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def watch_link(game_id: str) -> str:
    """The page's link to watch a game: what a wrong seat link can offer instead."""
    return f"/#game={game_id}"


def _check_name(value: Any, field_name: str, default: str) -> str:
    if value is None or value == "":
        return default
    if not isinstance(value, str) or len(value) > MAX_NAME or not value.isprintable():
        raise ServiceError(400, f"{field_name} must be printable text of at most {MAX_NAME} characters")
    return value.strip() or default


_CREATE_FIELDS = ("preset", "players", "partnerships", "options", "seats", "listed", "next_hand_after", "deal")
_DEAL_FIELDS = ("id", "contribution")
_TICKET = re.compile(r"[0-9a-f]{32}")
_SEAT_FIELDS = ("kind", "name", "bot")
_CLAIM_FIELDS = ("invite", "name")
MAX_NEXT_AFTER = 3600
MAX_TARGET = 1000
"""The highest target a game may play to: a far one would keep its table (and bots) busy for ever."""
TABLE_BOTS = (*level_names(), "random", "greedy", "heuristic", "search")
"""The computer players that may sit at a table, by plain name only (no settings)."""
EXPIRE_AFTER = 3 * 24 * 3600.0
"""Seconds without a move after which a game is abandoned (the default)."""


def _known_fields(body: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    """Refuse a field the request does not define: a misspelt one would otherwise be ignored."""
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        raise ServiceError(400, f"unknown field {unknown[0]!r} for {what}; the fields are: {', '.join(allowed)}")


def rules_of_request(body: dict[str, Any]) -> Rules:
    """The rule set a create request asks for (preset, players, partnerships, options)."""
    _known_fields(body, _CREATE_FIELDS, "a new game")
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


def _deals(game: Game, code: MoveCode) -> bool:
    """Play a move; True when it brought new cards from the stock (a deal, a draw or a new hand)."""
    hands = len(game.hands)
    stock = len(game.state.remaining_stock)
    game.play(code)
    return len(game.hands) > hands or len(game.state.remaining_stock) != stock


def _current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


def bot_player(spec: str, seed: int) -> Player:
    """A computer player for a seat: one of ``TABLE_BOTS`` by its plain name. Settings are refused,
    since they would let a client choose how long the server thinks (or feed it nonsense), and so
    are unknown players and any that would see hidden cards; the refusal names the allowed ones."""
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


def _duration(seconds: float) -> str:
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
        return f"one every {_duration(1 / self.per_second)}"


CREATE_RATE = Rate(burst=20, per_second=1 / 30)
"""New games per client: 20 at once, then one every 30 seconds."""
MOVE_RATE = Rate(burst=120, per_second=5)
"""Moves (and takebacks) per client: 120 at once, then 5 a second, far above anyone's play."""
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
            )
        self.buckets[client] = (tokens - 1, now)
        if len(self.buckets) > MAX_CLIENTS:
            self.buckets = {c: (t, at) for c, (t, at) in self.buckets.items() if t + (now - at) * per_second < burst}


class GameService:
    """Creates, loads, plays and broadcasts games over a ``Store``."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.5,
        expire_after: float = EXPIRE_AFTER,
        create_rate: Rate = CREATE_RATE,
        move_rate: Rate = MOVE_RATE,
        clock: Callable[[], float] = time.time,
        thinkers: Thinkers | None = None,
    ) -> None:
        """``expire_after``: seconds without a move before a game is abandoned; the rates: each
        client's token buckets for new games and for moves; ``clock``: epoch seconds (tests fake it);
        ``thinkers``: where computer players and coaches search (default: threads of this process)."""
        self.store = store
        self.thinkers = thinkers or Thinkers(workers=0)
        self.bot_delay = bot_delay
        self.expire_after = expire_after
        self.clock = clock
        self.create_limit = RateLimit(create_rate, "new games", clock)
        self.deal_limit = RateLimit(create_rate, "new deals", clock)
        self.move_limit = RateLimit(move_rate, "moves", clock)
        self.games: dict[str, LiveGame] = {}
        self.on_change: Callable[[LiveGame], None] | None = None
        """Called after each committed move or undo (tests use it to watch the game move)."""
        self.listener: Listener | None = None

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> int:
        """How many unfinished games are stored. None is replayed now: each is loaded, and its
        computer players (and count timer) resume, when it is first asked for, so start-up takes
        the same time however large the database has grown."""
        self.listener = self.store.listen(self._changed)
        return len(self.store.unfinished())

    async def stop(self) -> None:
        """Stop the computer players' and timers' tasks (what they would have done is simply done
        after a restart)."""
        tasks = [t for g in self.games.values() for t in (g.bot_task, g.timer_task) if t is not None and not t.done()]
        tasks += [t for g in self.games.values() for t in g.learn_tasks if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self.thinkers.close()
        if self.listener is not None:
            await self.listener.stop()

    # ------------------------------------------------------------------ creating and loading
    def create(self, body: dict[str, Any], client: str = "") -> tuple[LiveGame, dict[int, str], dict[int, str]]:
        """A new game from a create request; returns it with the creator's token (by seat: the first
        person's seat, none when only computer players sit) and every other person's invitation.
        ``client`` (the caller's address) is limited to ``create_rate``."""
        self.create_limit.take(client)
        rules = rules_of_request(body)
        seats_in = body.get("seats")
        if seats_in is None:
            seats_in = [{"kind": "human"}] + [{"kind": "bot", "bot": DEFAULT_OPPONENT}] * (rules.players - 1)
        if not isinstance(seats_in, list) or len(seats_in) != rules.players:
            raise ServiceError(400, f"seats must list one seat per player: {rules.players} for these rules")
        next_after = body.get("next_hand_after", 0)
        if next_after is None:
            next_after = 0
        if isinstance(next_after, bool) or not isinstance(next_after, int) or not 0 <= next_after <= MAX_NEXT_AFTER:
            raise ServiceError(
                400,
                f"next_hand_after must be a whole number of seconds from 0 to {MAX_NEXT_AFTER} (0: wait for everyone)",
            )
        listed_in = body.get("listed")
        if listed_in is not None and not isinstance(listed_in, bool):
            raise ServiceError(400, "listed must be true or false")
        seats: list[Seat] = []
        rows: list[SeatRow] = []
        tokens: dict[int, str] = {}
        invites: dict[int, str] = {}
        for i, spec in enumerate(seats_in):
            if not isinstance(spec, dict):
                raise ServiceError(400, f'seats[{i}] must be an object like {{"kind": "human"}}')
            _known_fields(spec, _SEAT_FIELDS, f"seats[{i}]")
            kind = spec.get("kind", "human")
            if kind == "human":
                name = _check_name(spec.get("name"), f"seats[{i}].name", f"Seat {i}")
                if not tokens:  # the first person's seat is the creator's
                    token = secrets.token_hex(16)
                    tokens[i] = token
                    seats.append(Seat(i, "human", name, token_hash=token_hash(token)))
                    rows.append(SeatRow(i, "human", name, token_hash=token_hash(token)))
                else:
                    code = secrets.token_hex(16)
                    invites[i] = code
                    seats.append(Seat(i, "human", name, invite_hash=token_hash(code)))
                    rows.append(SeatRow(i, "human", name))
            elif kind == "bot":
                bot = spec.get("bot", DEFAULT_OPPONENT)
                if not isinstance(bot, str) or not bot or len(bot) > 128:
                    raise ServiceError(400, f"seats[{i}].bot must name a computer player, e.g. 'greedy'")
                seed = secrets.randbelow(2**31)
                player = bot_player(bot, seed)
                name = _check_name(spec.get("name"), f"seats[{i}].name", f"{bot} ({i})")
                seats.append(Seat(i, "bot", name, bot=bot, player=player, seed=seed))
                rows.append(SeatRow(i, "bot", name, bot=bot, bot_seed=seed))
            else:
                raise ServiceError(400, f"seats[{i}].kind must be 'human' or 'bot', not {kind!r}")
        listed = listed_in if listed_in is not None else len(tokens) + len(invites) <= 1
        game_id = secrets.token_hex(8)
        now = self.clock()
        first_seed, given = self._first_deal(body.get("deal"), tokens, now)
        deck = derive_deck(game_id, 1, first_seed, given)
        first = HandRow(1, deck_text(deck), first_seed, seed_commitment(first_seed))
        dealer = Dealer(game_id, NextDeal(2, new_seed()))
        assert dealer.next is not None
        invite_rows = [InviteRow(s.seat, s.invite_hash) for s in seats if s.invite_hash]
        seeds = {1: first_seed, 2: dealer.next.seed}
        self.store.create_game(
            game_id, rules.to_json(), rows, first, invite_rows, listed, next_after, now, seeds, given
        )
        game = server_game(rules, [deck], dealer)
        live = LiveGame(game_id, rules, game, seats, [first], 0, now, listed, next_after, dealer=dealer)
        live.contributions[1] = given
        live.last_move = now
        self.games[game_id] = live
        self._schedule_bots(live)
        return live, tokens, invites

    def _first_deal(self, spec: Any, tokens: dict[int, str], now: float) -> tuple[str, dict[int, str]]:
        """The first hand's seed and contributions: a ticket's seed (committed before this request)
        with the creator's contribution, or without a ticket a seed drawn now and none."""
        if spec is None:
            return new_seed(), {}
        if not isinstance(spec, dict):
            raise ServiceError(400, 'deal must be {"id": ..., "contribution": ...}, the id from POST /api/deals')
        _known_fields(spec, _DEAL_FIELDS, "deal")
        ticket, value = spec.get("id"), spec.get("contribution")
        if not isinstance(ticket, str) or not _TICKET.fullmatch(ticket):
            raise ServiceError(400, "deal.id must be the id POST /api/deals answered (32 lower-case hex digits)")
        if not is_value(value):
            raise ServiceError(400, "deal.contribution must be 64 lower-case hex digits (32 random bytes)")
        if not tokens:
            raise ServiceError(
                400, "only a person's seat contributes to a deal, and every seat here is a computer player's"
            )
        seed = self.store.take_ticket(ticket, now)
        if seed is None:
            raise ServiceError(
                410, f"deal {ticket} is unknown, used or more than an hour old: ask POST /api/deals for another"
            )
        return seed, {min(tokens): value}

    def new_deal(self, client: str = "") -> dict[str, Any]:
        """A seed for a game's first hand, committed before the game exists: the page creates the
        game with its id and its own contribution (``deal`` in the create request)."""
        self.deal_limit.take(client)
        ticket, seed = secrets.token_hex(16), new_seed()
        try:
            self.store.new_ticket(ticket, seed, self.clock())
        except Exception as exc:
            log.error("a deal ticket could not be stored: %s", exc)
            raise ServiceError(503, "the deal could not be prepared (the database refused): try again") from None
        return {"deal": ticket, "hand": 1, "commitment": seed_commitment(seed)}

    def get(self, game_id: str) -> LiveGame:
        """The live game, loaded from the store if need be (its computer players resume then, unless
        it has expired); 404 when there is none."""
        live = self.games.get(game_id)
        if live is None:
            live = self._load(game_id)
            self._expire(live)
            if (live.over or live.abandoned) and not live.subscribers:
                del self.games[game_id]  # nothing will change in it: read again when asked for again
            else:
                self._resume(live)
            return live
        if live.stale:
            self._reload(live)
        self._expire(live)
        if live.counting and not live.abandoned and live.deadline is not None and time.time() >= live.deadline:
            self._end_count(live)  # its timer task has not run yet (or there is no event loop)
        return live

    def _expire(self, live: LiveGame) -> None:
        """Abandon a game nobody has moved in for ``expire_after`` seconds: its computer players and
        timer stop, so a forgotten table costs nothing."""
        if live.over or live.abandoned or self.clock() - live.last_move < self.expire_after:
            return
        live.abandoned = f"no move was made in it for {_duration(self.expire_after)}"
        for task in (live.bot_task, live.timer_task):
            if task is not None and not task.done() and task is not _current_task():
                task.cancel()

    def _playable(self, live: LiveGame) -> None:
        """410 when the game is abandoned: it is shown as it was left, but never played again."""
        if live.abandoned:
            raise ServiceError(410, f"game {live.id} is abandoned ({live.abandoned}): start a new one")

    def _load(self, game_id: str) -> LiveGame:
        stored = self.store.load_game(game_id) if len(game_id) <= 32 else None
        if stored is None:
            raise ServiceError(404, f"no game {game_id!r} here")
        live = self._rebuild(stored)
        self.games[game_id] = live
        return live

    def _rebuild(self, stored: StoredGame) -> LiveGame:
        """Replay the stored moves through the engine on the stored decks; a hand dealt but not yet
        begun (after the first) is in its count again, with the presses of next stored."""
        rules = Rules.from_json(stored.rules)
        dealer = Dealer(stored.id)
        number = len(stored.hands) + 1
        if number in stored.seeds:
            dealer.next = NextDeal(number, stored.seeds[number], dict(stored.contributions.get(number, {})))
        game = server_game(rules, [parse_deck(h.deck) for h in stored.hands], dealer)
        deal_ply = 0
        for row in stored.moves:
            if game.state.to_move != row.seat:
                raise RuntimeError(f"game {stored.id}: stored move {row.ply} is by seat {row.seat}, out of turn")
            if _deals(game, parse_code(row.move)):
                deal_ply = row.ply + 1
        invites = {i.seat: i.code_hash for i in stored.invites}
        seats = []
        refused = ""
        for s in stored.seats:
            player = None
            if s.kind == "bot":
                try:
                    player = bot_player(s.bot, s.bot_seed)
                except ServiceError:  # seated before the limits: shown, never played on
                    refused = f"its computer player {s.bot!r} no longer sits at a table"
            seats.append(Seat(s.seat, s.kind, s.name, s.bot, s.token_hash, player, invites.get(s.seat, ""), s.bot_seed))
        live = LiveGame(
            stored.id,
            rules,
            game,
            seats,
            list(stored.hands),
            len(stored.moves),
            stored.created,
            stored.listed,
            stored.next_hand_after,
            deal_ply=deal_ply,
            last_move=self.clock() if stored.last_move is None else stored.last_move,
            abandoned="" if game.over else refused,
            dealer=dealer,
            contributions={h: dict(c) for h, c in stored.contributions.items() if h < number},
        )
        if not game.over and len(game.hands) > 1 and game.state.moves_played == 0 and live.humans:
            live.ready = set(stored.ready) & set(live.humans)
            live.counting = live.ready != set(live.humans)  # a count everyone pressed is over
            if live.counting and stored.next_hand_after:
                live.deadline = stored.count_deadline or time.time() + stored.next_hand_after
        return live

    # ------------------------------------------------------------------ other processes' changes
    def _changed(self, game_id: str | None, what: str) -> None:
        """Another process stored a change of ``game_id`` (None: of any game, perhaps): bring this
        process's copy up to date and tell its watchers. A game not loaded here needs nothing."""
        games = list(self.games.values()) if game_id is None else [g for g in (self.games.get(game_id),) if g]
        for live in games:
            try:
                if what.startswith("move "):
                    if not self._play_heard(live, what):
                        self._catch_up(live)
                else:
                    self._reload(live)
            except Exception:
                log.exception("game %s: another process's change could not be read; read again later", live.id)
                live.stale = True

    def _play_heard(self, live: LiveGame, what: str) -> bool:
        """Play the move a notification carries when it is the very next one of this copy and
        deals no new hand (which needs the new seed); False when it is not, or is no move line."""
        try:
            _, ply_after, seat, hands, line = what.split(" ", 4)
            if int(ply_after) <= live.ply:
                return True  # already here (this copy's own write, or read since)
            if int(ply_after) != live.ply + 1 or int(hands) != len(live.hands):
                return False
            code = parse_code(line)
        except (ValueError, MoveError):
            return False
        game = live.game
        if game.state.to_move != int(seat) or not game.state.is_legal(code):
            return False
        if _deals(game, code):
            live.deal_ply = live.ply + 1
        live.ply += 1
        live.epoch += 1
        live.last_move = self.clock()
        self.broadcast(live)
        self._resume(live)
        return True

    def _catch_up(self, live: LiveGame) -> None:
        """Play here the moves another process stored after this copy's last; anything but a plain
        continuation within the hand (a takeback in between, a new hand dealt) reads the game again."""
        progress = self.store.progress(live.id, live.ply)
        if not progress.moves:
            return
        if progress.moves[0].ply != live.ply or progress.hands != len(live.hands):
            self._reload(live)
            return
        game = live.game
        for row in progress.moves:
            if game.state.to_move != row.seat:
                self._reload(live)
                return
            if _deals(game, parse_code(row.move)):
                live.deal_ply = row.ply + 1
            live.ply = row.ply + 1
        live.epoch += 1
        live.last_move = self.clock()
        self.broadcast(live)
        self._resume(live)

    def _moved_elsewhere(self, live: LiveGame) -> None:
        """A write found the stored game ahead of this copy (another process wrote first): catch up
        now, or read it again on its next use."""
        try:
            self._reload(live)
        except Exception:
            log.exception("game %s: could not be read again after another process's change", live.id)
            live.stale = True

    def _reload(self, live: LiveGame) -> None:
        """Read the game again from the store into this copy (its watchers stay), and tell them."""
        stored = self.store.load_game(live.id)
        if stored is None:
            raise StoreError(f"game {live.id} is no longer in the database")
        live.adopt(self._rebuild(stored))
        self.broadcast(live)
        self._resume(live)

    def _resume(self, live: LiveGame) -> None:
        self._schedule_bots(live)
        self._schedule_timer(live)

    # ------------------------------------------------------------------ who is asking
    def seat_of(self, live: LiveGame, token: str | None) -> int | None:
        """The seat a token opens (None without a token: a spectator); 403 for a wrong token, with
        the link to watch the game instead."""
        if not token:
            return None
        digest = token_hash(token)
        for seat in live.seats:
            if seat.kind == "human" and seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        raise ServiceError(403, f"this token opens no seat of game {live.id}", watch=watch_link(live.id))

    def claim(self, game_id: str, body: dict[str, Any]) -> tuple[int, str]:
        """Exchange a seat's invitation for the seat's token, once: 403 for a wrong code, 410 for
        one already used. Returns the seat and its new token (only its hash is kept)."""
        _known_fields(body, _CLAIM_FIELDS, "a claim")
        code = body.get("invite")
        if not isinstance(code, str) or not code:
            raise ServiceError(400, "invite must be the invitation code from the seat's link")
        live = self.get(game_id)
        digest = token_hash(code)
        seat = next(
            (s for s in live.seats if s.invite_hash and hmac.compare_digest(s.invite_hash, digest)),
            None,
        )
        if seat is None:
            raise ServiceError(403, f"this invitation opens no seat of game {live.id}", watch=watch_link(live.id))
        used = ServiceError(
            410,
            f"the invitation to seat {seat.seat} of game {live.id} was already used: the seat belongs to whoever "
            "claimed it (their own link opens it)",
            watch=watch_link(live.id),
        )
        if seat.token_hash:
            raise used
        name = _check_name(body.get("name"), "name", seat.name)
        token = secrets.token_hex(16)
        try:
            claimed = self.store.claim_seat(live.id, seat.seat, token_hash(token), name)
        except Exception as exc:
            log.error("game %s: claim of seat %d: %s", live.id, seat.seat, exc)
            raise ServiceError(503, "the seat could not be claimed (the database refused): try again") from None
        if not claimed:
            raise used
        seat.token_hash = token_hash(token)
        seat.name = name
        live.cache.clear()  # the seats shown with every payload changed
        self.broadcast(live)
        return seat.seat, token

    # ------------------------------------------------------------------ playing
    def play(self, game_id: str, token: str | None, text: Any, version: Any = None, client: str = "") -> LiveGame:
        """A person's move: checked by the engine, committed, broadcast. Errors change nothing.
        ``client`` (the caller's address) is limited to ``move_rate``."""
        self.move_limit.take(client)
        live = self.get(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ServiceError(403, "moves need a seat token: spectators only watch")
        self._playable(live)
        if not isinstance(text, str):
            raise ServiceError(400, "move must be a move line such as 'capture 8c 8: 8d'")
        if version is not None and version != live.ply:
            raise ServiceError(409, f"the game has moved on: it is at version {live.ply}, your move was for {version}")
        if live.over:
            raise ServiceError(409, "the game is over: no move is left to play")
        if live.counting:
            raise ServiceError(409, live.count_reason())
        to_move = live.game.state.to_move
        if to_move != seat:
            raise ServiceError(409, f"it is seat {to_move}'s turn, not seat {seat}'s")
        try:
            code = parse_code(text)
        except MoveError as exc:
            raise ServiceError(400, str(exc)) from None
        coached = seat in live.learners and live.learners[seat].coached
        view = view_of(live.game.state, seat) if coached else None
        self._apply(live, seat, code)
        if view is not None:
            self._in_background(live, self._assess(live, seat, view, code))
        return live

    def _apply(self, live: LiveGame, seat: int, code: MoveCode, again: bool = True) -> None:
        """Play, commit (rolling back the game if the store refuses), then broadcast; a move that
        ends a hand (and not the game) deals the next one from its committed seed and the
        contributions, and starts the count before it. A deal that missed a contribution stored
        meanwhile (through another process) is read again and made once more (``again``)."""
        game = live.game
        hand = len(game.hands)
        try:
            dealt = _deals(game, code)
        except IllegalMoveError as exc:
            raise ServiceError(400, str(exc)) from None
        new_hand = None
        deadline = None
        used = None
        next_seed = None
        if len(game.hands) > hand:
            deck = game.decks[-1]
            used = live.dealer.used if live.dealer is not None else None
            if used is not None:
                new_hand = HandRow(len(game.hands), deck_text(deck), used.seed, used.commitment)
                next_seed = new_seed()
            else:  # a game begun before deals took contributions: the server's deck, committed
                salt = new_salt()
                new_hand = HandRow(len(game.hands), deck_text(deck), salt, commitment(salt, deck))
            if live.next_after and live.humans:
                deadline = time.time() + live.next_after
        row = MoveRow(live.ply, hand, seat, format_code(code))
        status = "over" if game.over else "playing"
        now = self.clock()
        contributed = None if used is None else frozenset(used.contributions)
        try:
            self.store.add_move(live.id, row, new_hand, status, game.winner, deadline, now, next_seed, contributed)
        except StaleDealError:
            game.undo()
            self._moved_elsewhere(live)
            if again and not live.stale and live.game.state.to_move == seat:
                self._apply(live, seat, code, again=False)
                return
            raise ServiceError(409, "a contribution to the next deal came in meanwhile: try the move again") from None
        except StaleGameError:
            game.undo()
            self._moved_elsewhere(live)
            raise ServiceError(
                409, f"the game has moved on (it is at version {live.ply}): the move was for version {row.ply}"
            ) from None
        except StoreError as exc:
            game.undo()
            log.error("%s", exc)
            live.stale = True  # read again from the store before its next use
            raise ServiceError(503, "the move could not be saved, so it was not made: try again") from None
        live.ply += 1
        live.epoch += 1
        live.last_move = now
        if dealt:
            live.deal_ply = live.ply
        if new_hand is not None:
            live.hands.append(new_hand)
            if used is not None and next_seed is not None and live.dealer is not None:
                live.contributions[new_hand.number] = dict(used.contributions)
                live.dealer.next = NextDeal(new_hand.number + 1, next_seed)
            if live.humans:
                live.counting = True
                live.ready = set()
                live.deadline = deadline
        self.broadcast(live)
        if self.on_change is not None:
            self.on_change(live)
        self._resume(live)

    def contribute(self, game_id: str, token: str | None, hand: Any, value: Any, client: str = "") -> LiveGame:
        """A person's contribution to the next hand's deck (``fair.SCHEME``), taken until that hand
        is dealt; the same value again changes nothing, another is refused."""
        self.move_limit.take(client)
        live, seat = self._person(game_id, token, "contributions to a deal")
        self._playable(live)
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
            return live
        if known is not None:
            raise ServiceError(409, f"seat {seat} has already contributed to hand {hand}: one contribution a hand")
        try:
            taken = self.store.contribute(live.id, hand, seat, value)
        except StoreError as exc:
            log.error("%s", exc)
            self._moved_elsewhere(live)  # perhaps the seat contributed through another process
            raise ServiceError(
                409, f"the contribution to hand {hand} was not taken: look at the state and try again"
            ) from None
        if not taken:
            self._moved_elsewhere(live)
            raise ServiceError(409, f"hand {hand} has been dealt: contributions are taken for the hand after it")
        deal.contributions[seat] = value
        self.broadcast(live)
        return live

    def press_next(self, game_id: str, token: str | None) -> bool:
        """A person at the table is ready for the next hand; the last one to press (or the timer)
        starts it. Returns False when the seat had already pressed (nothing changes then)."""
        live = self.get(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ServiceError(403, "only a person at the table presses next: spectators only watch")
        self._playable(live)
        if live.over:
            raise ServiceError(409, "the game is over: there is no next hand")
        if not live.counting:
            raise ServiceError(409, f"hand {live.hand_number} is in play: next is pressed when a hand is over")
        if seat in live.ready:
            return False
        try:
            self.store.press_next(live.id, live.hand_number, seat)
        except StoreError as exc:
            log.error("%s", exc)
            raise ServiceError(503, "the press of next could not be saved: try again") from None
        live.ready.add(seat)
        if live.waiting_for:
            self.broadcast(live)
        else:
            self._end_count(live)
        return True

    def _end_count(self, live: LiveGame) -> None:
        """The next hand is played from now: broadcast, and the computer players may move."""
        live.counting = False
        live.ready = set()
        live.deadline = None
        live.epoch += 1
        timer = live.timer_task
        live.timer_task = None
        if timer is not None and not timer.done() and timer is not _current_task():
            timer.cancel()
        self.broadcast(live)
        self._schedule_bots(live)

    def _schedule_timer(self, live: LiveGame) -> None:
        if not live.counting or live.deadline is None or live.abandoned:
            return
        if live.timer_task is not None and not live.timer_task.done():
            return
        try:
            live.timer_task = asyncio.get_running_loop().create_task(self._count_timer(live, live.epoch))
        except RuntimeError:
            live.timer_task = None  # no loop: ``get`` ends the count once its deadline has passed

    async def _count_timer(self, live: LiveGame, epoch: int) -> None:
        """End the count at its deadline, unless everyone pressed next before (the epoch moved)."""
        while live.counting and live.epoch == epoch and live.deadline is not None:
            left = live.deadline - time.time()
            if left <= 0:
                if self.games.get(live.id) is live and not live.abandoned:
                    self._end_count(live)
                return
            await asyncio.sleep(left)

    def undo(self, game_id: str, token: str | None, client: str = "") -> LiveGame:
        """Take back the person's last move and every computer player's move after it (only against
        computer players, within the cards in play); the undone moves are deleted from the store.
        A takeback is a write like a move, so it spends the client's ``move_rate`` too."""
        self.move_limit.take(client)
        live = self.get(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ServiceError(403, "taking back a move needs a seat token: spectators only watch")
        self._playable(live)
        keep = live.undo_start(seat)
        codes = [live.game.undo() for _ in range(live.ply - keep)]
        try:
            self.store.undo_moves(live.id, keep, live.ply)
        except StaleGameError:
            for code in reversed(codes):
                live.game.push(code)
            self._moved_elsewhere(live)
            raise ServiceError(
                409, f"the game has moved on (it is at version {live.ply}): nothing was taken back"
            ) from None
        except StoreError as exc:
            for code in reversed(codes):
                live.game.push(code)
            log.error("%s", exc)
            live.stale = True  # read again from the store before its next use
            raise ServiceError(
                503, "the moves could not be taken back in the database, so they stand: try again"
            ) from None
        live.ply = keep
        live.epoch += 1  # a computer player thinking about the old position must not play
        self.broadcast(live)
        if self.on_change is not None:
            self.on_change(live)
        self._resume(live)
        return live

    # ------------------------------------------------------------------ teaching
    def _person(self, game_id: str, token: str | None, what: str) -> tuple[LiveGame, int]:
        """The game and the asker's seat, for what only a seat may ask (403 for a spectator)."""
        live = self.get(game_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise ServiceError(403, f"{what} need a seat token: spectators only watch")
        return live, seat

    async def _assess(self, live: LiveGame, seat: int, view: View, code: MoveCode) -> Assessment:
        """The seat's coach on one of its moves, searched in a worker thread (never on the event
        loop, so no other table waits), once per position and move."""
        learner = teaching.learner(live, seat)
        async with learner.lock:
            found = learner.assessed.get((view, code))
            if found is None:
                found = await self.thinkers.run(thinking.assess, learner.coach.seed, view, code)
                learner.assessed[(view, code)] = found
            return found

    def _in_background(self, live: LiveGame, work: Coroutine[Any, Any, Any]) -> None:
        """Run teaching work while the game goes on (held on the game so it finishes, its failure
        logged); without an event loop it is simply not done, and done again when asked for."""
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:
            work.close()
            return
        live.learn_tasks.add(task)

        def done(finished: asyncio.Task[Any]) -> None:
            live.learn_tasks.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                log.error("game %s: background assessment failed: %s", live.id, finished.exception())

        task.add_done_callback(done)

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The coach's best move for the seat of ``token`` and why, from its own view only;
        ``version`` says which position it is for."""
        live, seat = self._person(game_id, token, "hints")
        if live.counting:
            raise ServiceError(409, live.count_reason())
        state = live.game.state
        if live.over or state.to_move != seat:
            raise ServiceError(409, "a hint is given only to the seat to move")
        view, version = view_of(state, seat), live.ply
        learner = teaching.learner(live, seat)
        async with learner.lock:
            move, why = await self.thinkers.run(thinking.hint, learner.coach.seed, view)
        return {"move": format_code(move), "why": why.to_json(), "version": version}

    async def coach(self, game_id: str, token: str | None, ply: Any) -> dict[str, Any]:
        """The coach's note on the asker's own move ``ply`` (None when it cost nothing beyond the
        noise), assessed from the asker's view before it. From now on the seat's moves are assessed
        as they are made, so that the review at the end is quick."""
        live, seat = self._person(game_id, token, "the coach's notes")
        mover, view, code = teaching.move_at(live, ply)
        if mover != seat:
            raise ServiceError(
                403, f"move {ply} was seat {mover}'s: the coach speaks only of your own moves (you are seat {seat})"
            )
        learner = teaching.learner(live, seat)
        learner.coached = True
        note = learner.coach.note(await self._assess(live, seat, view, code))
        return {"ply": ply, "note": None if note is None else teaching.note_json(note, ply, view)}

    def lessons(self, game_id: str, token: str | None, seen: Any) -> list[dict[str, Any]]:
        """The lessons due for the asker's seat now that are not in ``seen`` (see ``teaching.due``)."""
        live, seat = self._person(game_id, token, "lessons at the table")
        return teaching.due(live, seat, teaching.checked_seen(seen))

    async def review(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The review of the asker's game once it is over: every one of its moves assessed (those
        the coach has not yet seen, now), built once and kept on the game."""
        live, seat = self._person(game_id, token, "reviews")
        if not live.over:
            raise ServiceError(409, "the review is made when the game is over: play on to the end first")
        learner = teaching.learner(live, seat)
        if learner.review is None:
            if learner.review_task is None:
                learner.review_task = asyncio.get_running_loop().create_task(self._review(live, seat))
            try:
                learner.review = await asyncio.shield(learner.review_task)
            except asyncio.CancelledError:
                raise
            except Exception:
                learner.review_task = None
                log.exception("game %s: the review of seat %d failed", live.id, seat)
                raise ServiceError(503, "the review could not be made just now: try again") from None
        return learner.review

    async def _review(self, live: LiveGame, seat: int) -> dict[str, Any]:
        assessed = [
            (ply, await self._assess(live, seat, view, code)) for ply, view, code in teaching.seat_moves(live, seat)
        ]
        return teaching.review_json(live, seat, assessed)

    # ------------------------------------------------------------------ computer players
    def _bot_to_move(self, live: LiveGame) -> bool:
        return (
            not live.over
            and not live.counting
            and not live.abandoned
            and live.seats[live.game.state.to_move].kind == "bot"
        )

    def _schedule_bots(self, live: LiveGame) -> None:
        if not self._bot_to_move(live) or (live.bot_task is not None and not live.bot_task.done()):
            return
        try:
            live.bot_task = asyncio.get_running_loop().create_task(self._run_bots(live))
        except RuntimeError:
            live.bot_task = None  # no loop (a synchronous caller): started on the next request

    async def _run_bots(self, live: LiveGame) -> None:
        while self._bot_to_move(live) and self.games.get(live.id) is live:
            await asyncio.sleep(self.bot_delay)
            if not self._bot_to_move(live):
                return
            epoch = live.epoch
            seat = live.seats[live.game.state.to_move]
            assert seat.player is not None
            try:
                if seat.bot in FAST_BOTS:
                    code = decide(seat.player, live.game.state)
                else:
                    view = view_of(live.game.state, seat.seat)
                    code = await self.thinkers.run(thinking.think, seat.bot, seat.seed, live.ply, view)
            except Exception:
                log.exception("game %s: computer player in seat %d failed", live.id, seat.seat)
                return
            if live.epoch != epoch or self.games.get(live.id) is not live:
                continue  # the game changed while it thought (a move, an undo, a count): think again
            try:
                self._apply(live, seat.seat, code)
            except ServiceError as exc:
                if exc.status == 409:  # another process stored this turn first: this copy caught up
                    continue
                log.error("game %s: computer player in seat %d: %s", live.id, seat.seat, exc.message)
                return

    # ------------------------------------------------------------------ watchers
    def subscribe(self, live: LiveGame, seat: int | None) -> Subscriber:
        """A new watcher, sent the current state at once."""
        sub = Subscriber(seat)
        live.subscribers.append(sub)
        sub.queue.put_nowait(encode(state_payload(live, seat)))
        return sub

    def unsubscribe(self, live: LiveGame, sub: Subscriber) -> None:
        """Forget a watcher."""
        if sub in live.subscribers:
            live.subscribers.remove(sub)
        if (live.over or live.abandoned) and not live.subscribers and self.games.get(live.id) is live:
            del self.games[live.id]  # a finished or abandoned game is read again if asked for again

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
    def reveal(self, game_id: str, number: int) -> dict[str, Any]:
        """The salt and deck of a finished hand, with its commitment; 403 while it is in play."""
        live = self.get(game_id)
        if not 1 <= number <= len(live.hands):
            raise ServiceError(404, f"game {game_id} has no hand {number} (it has {len(live.hands)})")
        if not live.revealed(number):
            raise ServiceError(403, f"hand {number} is in play: its deck and salt are revealed when it ends")
        row = live.hands[number - 1]
        hand = live.game.hands[number - 1]
        moves = [{"seat": s, "move": format_code(c)} for c, s in zip(hand.history(), hand.movers(), strict=True)]
        given = live.contributions.get(number, {})
        derived = row.commitment == seed_commitment(row.salt)
        return {
            "game": live.id,
            "hand": number,
            "dealer": hand.dealer,
            "scheme": SCHEME if derived else LEGACY,
            "commitment": row.commitment,
            "salt": row.salt,
            "deck": row.deck,
            "contributions": [{"seat": seat, "value": given[seat]} for seat in sorted(given)],
            "moves": moves,
        }

    def record(self, game_id: str) -> dict[str, Any]:
        """The whole game with every hand revealed: only once it is over."""
        live = self.get(game_id)
        if not live.over:
            raise ServiceError(403, "the record (every hand revealed) is published when the game is over")
        names = [s.name for s in live.seats]
        date = time.strftime("%Y.%m.%d", time.gmtime(live.created))
        tags = {"Event": "Web game", "Site": "cassino serve", "Date": date}
        text = write_record(record_of_game(live.game, tags, names))
        return {
            "game": live.id,
            "record": text,
            "hands": [self.reveal(game_id, n) for n in range(1, len(live.hands) + 1)],
            "winner": live.game.winner,
            "scores": list(live.game.scores),
            "frames": replay_frames(live.game),
        }
